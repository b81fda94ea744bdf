//! The messages of a tool-enabled `sampling/createMessage`: the server's reply
//! to a `stopReason: "toolUse"` is the user message after the assistant's
//! `tool_use` blocks, and it must answer each of them and hold nothing else.
//!
//! MCP 2025-11-25 and 2026-07-28 client/sampling §Security Considerations 6
//! (MUST). The same shape is also required by §Tool Result Messages and §Tool
//! Use and Result Balance, which bind both parties; this check reads only what
//! the server sent, so it reports the server's sentence.

use super::{at, Report, RuleId};
use crate::ir::{Raw, ValueKind};

/// The content blocks of one `SamplingMessage`: `content` is one block or an
/// array of them (schema `SamplingMessage.content`).
fn blocks<'r>(message: &'r Raw<'_>) -> Vec<Raw<'r>> {
    match message.get("content") {
        Some(c) if c.kind() == ValueKind::Array => {
            // `elements` borrows from `c`; own each block so the list
            // outlives it (a handful of blocks per message).
            c.elements().map(Raw::into_owned).collect()
        }
        Some(c) => vec![c],
        None => Vec::new(),
    }
}

fn string_member(value: &Raw<'_>, name: &str) -> Option<String> {
    value
        .get(name)
        .and_then(|v| v.as_string().map(std::borrow::Cow::into_owned))
}

/// Checks `messages` (at `pointer`) of a `sampling/createMessage` the server
/// sent: every assistant message with `tool_use` blocks that is followed by
/// another message is followed by a user message made only of `tool_result`
/// blocks, one for each `tool_use` id. An assistant message that ends the
/// history has not been replied to yet, so it is not judged.
pub(super) fn tool_results(messages: &Raw<'_>, pointer: &str, out: &mut Report) {
    if !out.applies(RuleId::McpSamplingToolResultsMatch) {
        return;
    }
    let list: Vec<Raw<'_>> = messages.elements().collect();
    for (i, message) in list.iter().enumerate() {
        let role = string_member(message, "role");
        let here = at(pointer, &i.to_string());
        let content = blocks(message);
        let kinds: Vec<Option<String>> = content.iter().map(|b| string_member(b, "type")).collect();
        if role.as_deref() == Some("user")
            && kinds.iter().any(|k| k.as_deref() == Some("tool_result"))
            && kinds.iter().any(|k| k.as_deref() != Some("tool_result"))
        {
            out.flag(
                RuleId::McpSamplingToolResultsMatch,
                at(&here, "content"),
                format!("user message {i} mixes `tool_result` blocks with other content"),
            );
        }
        if role.as_deref() != Some("assistant") {
            continue;
        }
        let uses: Vec<String> = content
            .iter()
            .zip(&kinds)
            .filter(|(_, k)| k.as_deref() == Some("tool_use"))
            .filter_map(|(b, _)| string_member(b, "id"))
            .collect();
        if uses.is_empty() {
            continue;
        }
        let Some(next) = list.get(i + 1) else {
            continue;
        };
        let next_at = at(pointer, &(i + 1).to_string());
        if string_member(next, "role").as_deref() != Some("user") {
            out.flag(
                RuleId::McpSamplingToolResultsMatch,
                next_at,
                format!("assistant message {i} uses tools, but the message after it is not the user's tool results"),
            );
            continue;
        }
        let answered: Vec<String> = blocks(next)
            .iter()
            .filter(|b| string_member(b, "type").as_deref() == Some("tool_result"))
            .filter_map(|b| string_member(b, "toolUseId"))
            .collect();
        let missing: Vec<&str> = uses
            .iter()
            .filter(|id| !answered.contains(id))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            out.flag(
                RuleId::McpSamplingToolResultsMatch,
                at(&next_at, "content"),
                format!(
                    "assistant message {i}'s tool use {} has no `tool_result` with a matching `toolUseId` in the next user message",
                    missing
                        .iter()
                        .map(|id| format!("`{id}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
    }
}
