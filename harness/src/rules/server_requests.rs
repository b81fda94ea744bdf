//! What a server asks of the client: elicitation and sampling requests, sent as
//! requests (2025-11-25) or carried as the `inputRequests` of an
//! `InputRequiredResult` (2026-07-28 basic/patterns/mrtr), judged the same way.
//!
//! client/elicitation §Elicitation Requests, §Form Mode, §URL Mode: the
//! parameters each mode requires (the schema's union of the two modes cannot
//! say which members go together); client/sampling §Tool Result Messages,
//! §Tool Use and Result Balance, 2026-07-28 §Messages: the shape of the
//! conversation a sampling request hands the model.
//!
//! client/sampling §Security Considerations 6 (2025-11-25, 2026-07-28, MUST)
//! restates the two Message Content Constraints for the server's reply to a
//! `stopReason: "toolUse"`. It has no rule of its own: a second check of the
//! same history reported one defect twice, and the two constraint rules say
//! which half is broken (conformance/spec/mapping.json maps the sentence here).

use std::collections::BTreeSet;

use super::{at, Report, RuleId};
use crate::ir::{Raw, ValueKind};

/// The request types an `InputRequiredResult` may carry (basic/patterns/mrtr
/// §Server Requirements: `ElicitRequest`, `CreateMessageRequest`, `ListRootsRequest`).
const INPUT_REQUEST_METHODS: [&str; 3] =
    ["elicitation/create", "sampling/createMessage", "roots/list"];

fn string(holder: &Raw<'_>, name: &str) -> Option<String> {
    holder
        .get(name)
        .and_then(|v| v.as_string().map(|s| s.into_owned()))
}

/// A request the server sends (`base` points at the message).
pub(super) fn request(method: &str, params: Option<&Raw<'_>>, base: &str, out: &mut Report) {
    let Some(params) = params.filter(|p| p.kind() == ValueKind::Object) else {
        return; // a missing or mistyped `params` is mcp.schema.request-params'
    };
    let pointer = at(base, "params");
    super::json_schema::request(method, params, &pointer, out);
    match method {
        "elicitation/create" => elicitation(params, &pointer, out),
        "sampling/createMessage" => sampling(params, &pointer, out),
        _ => {}
    }
}

/// The `inputRequests` of a 2026-07-28 `InputRequiredResult` (`pointer` at the result).
pub(super) fn input_requests(result: &Raw<'_>, pointer: &str, out: &mut Report) {
    let Some(requests) = result.get("inputRequests") else {
        return;
    };
    if requests.kind() != ValueKind::Object {
        return;
    }
    let base = at(pointer, "inputRequests");
    for (key, asked) in requests.members() {
        let here = at(&base, &key.decoded());
        let method = string(&asked, "method").unwrap_or_default();
        if !INPUT_REQUEST_METHODS.contains(&method.as_str()) {
            // At `method` when there is one; an entry that is no object
            // (or lacks it) is pointed at itself (found by the `rules` fuzz
            // target: a pointer must resolve in the frame).
            let pointer = if asked.get("method").is_some() {
                at(&here, "method")
            } else {
                here.clone()
            };
            out.flag(
                RuleId::McpR5MrtrInputRequestType,
                pointer,
                format!(
                    "input request `{method}` is none of {}",
                    INPUT_REQUEST_METHODS.join(", ")
                ),
            );
            continue;
        }
        let params = asked.get("params");
        if method == "elicitation/create" && string_missing(params.as_ref(), "message") {
            out.flag(
                RuleId::McpElicitationModeParams,
                at(&here, "params"),
                "an elicitation request without a `message`".to_owned(),
            );
        }
        request(&method, params.as_ref(), &here, out);
    }
}

fn string_missing(holder: Option<&Raw<'_>>, name: &str) -> bool {
    holder.and_then(|h| string(h, name)).is_none()
}

/// client/elicitation: form mode has `requestedSchema`; URL mode has `message`,
/// `url` (a valid URL) and `elicitationId`.
fn elicitation(params: &Raw<'_>, pointer: &str, out: &mut Report) {
    let mode = params.get("mode");
    let mode_text = mode
        .as_ref()
        .and_then(|m| m.as_string().map(|s| s.into_owned()));
    let mut missing = Vec::new();
    match (mode.is_some(), mode_text.as_deref()) {
        (false, _) | (true, Some("form")) => {
            if params
                .get("requestedSchema")
                .is_none_or(|s| s.kind() != ValueKind::Object)
            {
                missing.push("a `requestedSchema` object (form mode)".to_owned());
            }
        }
        (true, Some("url")) => {
            for name in ["message", "elicitationId"] {
                if string(params, name).is_none() {
                    missing.push(format!("a `{name}` string (URL mode)"));
                }
            }
            match string(params, "url") {
                None => missing.push("a `url` string (URL mode)".to_owned()),
                Some(url) if !is_url(&url) => {
                    missing.push(format!("a valid URL (`{url}` is none)"));
                }
                Some(_) => {}
            }
        }
        (true, other) => missing.push(format!(
            "`mode` \"form\" or \"url\" (found {})",
            other.map_or_else(|| "a non-string".to_owned(), |m| format!("\"{m}\""))
        )),
    }
    for what in missing {
        out.flag(
            RuleId::McpElicitationModeParams,
            pointer.to_owned(),
            format!("the elicitation request lacks {what}"),
        );
    }
}

/// An absolute URL: an RFC 3986 scheme, `//` and a host (WHATWG URLs the
/// user is sent to are always hierarchical).
fn is_url(text: &str) -> bool {
    if !super::content::has_scheme(text)
        || text.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        return false;
    }
    text.split_once("://")
        .is_some_and(|(_, rest)| !rest.is_empty() && !rest.starts_with('/'))
}

/// The content blocks of a sampling message: one block or an array of them.
fn blocks<'r>(message: &'r Raw<'_>) -> Vec<Raw<'r>> {
    match message.get("content") {
        Some(c) if c.kind() == ValueKind::Array => c.elements().map(Raw::into_owned).collect(),
        Some(c) => vec![c.into_owned()],
        None => Vec::new(),
    }
}

fn block_type(block: &Raw<'_>) -> Option<String> {
    string(block, "type")
}

/// client/sampling: a user message with tool results holds only tool results,
/// and every assistant tool use is answered by the next message.
fn sampling(params: &Raw<'_>, pointer: &str, out: &mut Report) {
    let Some(messages) = params.get("messages") else {
        return;
    };
    let base = at(pointer, "messages");
    let messages: Vec<Raw<'_>> = messages.elements().collect();
    for (i, message) in messages.iter().enumerate() {
        let here = at(&base, &i.to_string());
        let role = string(message, "role");
        if out.applies(RuleId::McpR5SamplingMessageShape)
            && (!matches!(role.as_deref(), Some("user" | "assistant"))
                || message.get("content").is_none())
        {
            out.flag(
                RuleId::McpR5SamplingMessageShape,
                here.clone(),
                "a sampling message needs `role` \"user\" or \"assistant\" and `content`"
                    .to_owned(),
            );
        }
        let kinds: Vec<Option<String>> = blocks(message).iter().map(block_type).collect();
        if role.as_deref() == Some("user")
            && kinds.iter().any(|k| k.as_deref() == Some("tool_result"))
            && kinds.iter().any(|k| k.as_deref() != Some("tool_result"))
        {
            out.flag(
                RuleId::McpSamplingToolResultsOnly,
                at(&here, "content"),
                "a user message mixes tool results with other content".to_owned(),
            );
        }
        if role.as_deref() != Some("assistant") {
            continue;
        }
        let uses: BTreeSet<String> = blocks(message)
            .iter()
            .filter(|b| block_type(b).as_deref() == Some("tool_use"))
            .filter_map(|b| string(b, "id"))
            .collect();
        if uses.is_empty() {
            continue;
        }
        let next = messages.get(i + 1);
        let answered: Option<BTreeSet<String>> = next
            .filter(|n| string(n, "role").as_deref() == Some("user"))
            .map(|n| {
                blocks(n)
                    .iter()
                    .filter(|b| block_type(b).as_deref() == Some("tool_result"))
                    .filter_map(|b| string(b, "toolUseId"))
                    .collect()
            });
        let fault = match &answered {
            None => Some("is not followed by a user message of tool results".to_owned()),
            Some(ids) => {
                let unanswered: Vec<&str> = uses.difference(ids).map(String::as_str).collect();
                let unknown: Vec<&str> = ids.difference(&uses).map(String::as_str).collect();
                match (unanswered.is_empty(), unknown.is_empty()) {
                    (true, true) => None,
                    (false, _) => Some(format!(
                        "leaves tool use {} without a result",
                        unanswered.join(", ")
                    )),
                    (true, false) => Some(format!(
                        "is answered by tool results for {}, which it did not use",
                        unknown.join(", ")
                    )),
                }
            }
        };
        if let Some(fault) = fault {
            out.flag(
                RuleId::McpSamplingToolUseBalance,
                here,
                format!("an assistant message with tool use {fault}"),
            );
        }
    }
}

/// The client's answer to `roots/list` (client/roots §Root: the `uri` "MUST be
/// a `file://` URI in the current specification").
pub(super) fn roots_result(result: &Raw<'_>, pointer: &str, out: &mut Report) {
    let Some(roots) = result.get("roots") else {
        return;
    };
    let base = at(pointer, "roots");
    for (i, root) in roots.elements().enumerate() {
        if root.kind() != ValueKind::Object {
            continue;
        }
        if let Some(uri) = string(&root, "uri") {
            if !uri.starts_with("file://") {
                out.flag(
                    RuleId::McpRootsFileUri,
                    at(&at(&base, &i.to_string()), "uri"),
                    format!("root URI `{uri}` is not a `file://` URI"),
                );
            }
        }
    }
}

/// 2026-07-28 capabilities' `extensions` keys (`pointer` at the capabilities).
pub(super) fn extensions(capabilities: &Raw<'_>, pointer: &str, out: &mut Report) {
    let Some(extensions) = capabilities.get("extensions") else {
        return;
    };
    for (key, _) in extensions.members() {
        let key = key.decoded();
        if !super::meta::prefixed_key(&key) {
            out.flag(
                RuleId::McpR5ExtensionIdentifier,
                at(&at(pointer, "extensions"), &key),
                format!("extension identifier `{key}` is no prefixed `_meta` key name"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_url;

    #[test]
    fn urls() {
        assert!(is_url("https://example.com/connect?x=1"));
        assert!(!is_url("example.com"));
        assert!(!is_url("https://"));
        assert!(!is_url("https:///path"));
        assert!(!is_url("https://exa mple.com"));
    }
}
