//! client/sampling §Tool Choice Modes (2025-11-25, 2026-07-28; the schema's
//! `ToolChoice.mode` says the same): "`{mode: "required"}`: Model MUST use at
//! least one tool before completing; `{mode: "none"}`: Model MUST NOT use any
//! tools". The sentence binds the client's sampler, so it is judged on the
//! client's `CreateMessageResult` against the request it answers: per
//! exchange in 2025-11-25 ([`reply`]), and in 2026-07-28 by the session judge,
//! which pairs an `InputRequiredResult`'s sampling input request with the
//! retry's input response ([`breach`] is shared).

use super::{at, Report, RuleId};
use crate::ir::{Raw, ValueKind};

/// How a sampling result broke the request's `toolChoice`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Breach {
    /// `mode: "none"`, and the result holds a `tool_use` block.
    UsedTool,
    /// `mode: "required"`, no `tool_use` in the result nor in an assistant
    /// message of the history: the model completed without any tool.
    NoTool,
}

/// The `toolChoice.mode` a sampling request's `params` ask for, when it is one
/// this module judges (`none` or `required`; `auto` and absent allow both).
pub(crate) fn mode(params: &Raw<'_>) -> Option<Mode> {
    let choice = params.get("toolChoice")?;
    let mode = choice.get("mode")?.as_string()?.into_owned();
    match mode.as_str() {
        "none" => Some(Mode::None),
        "required" => Some(Mode::Required {
            // "before completing": a tool the model used earlier in this loop
            // (an assistant `tool_use` in the history) already counts.
            used_before: params
                .get("messages")
                .is_some_and(|m| m.elements().any(|msg| assistant_used_tool(&msg))),
        }),
        _ => None,
    }
}

/// The part of a sampling request the answer is judged against; small, so
/// the session judge can keep it per input request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    None,
    Required { used_before: bool },
}

fn blocks<'r>(holder: &'r Raw<'_>) -> Vec<Raw<'r>> {
    match holder.get("content") {
        Some(c) if c.kind() == ValueKind::Array => c.elements().map(Raw::into_owned).collect(),
        Some(c) => vec![c.into_owned()],
        None => Vec::new(),
    }
}

fn is_tool_use(block: &Raw<'_>) -> bool {
    block
        .get("type")
        .and_then(|t| t.as_string().map(|t| t == "tool_use"))
        .unwrap_or(false)
}

fn assistant_used_tool(message: &Raw<'_>) -> bool {
    let assistant = message
        .get("role")
        .and_then(|r| r.as_string().map(|r| r == "assistant"))
        .unwrap_or(false);
    assistant && blocks(message).iter().any(is_tool_use)
}

/// Whether `result` (a `CreateMessageResult`) breaks `mode`, and the index
/// of the offending `content` block when one is to blame (`None` for the
/// content as a whole, or a single block not in an array).
pub(crate) fn breach(mode: Mode, result: &Raw<'_>) -> Option<(Breach, Option<usize>)> {
    if result.kind() != ValueKind::Object {
        return None;
    }
    let array = result
        .get("content")
        .is_some_and(|c| c.kind() == ValueKind::Array);
    let used = blocks(result).iter().position(is_tool_use);
    match (mode, used) {
        (Mode::None, Some(i)) => Some((Breach::UsedTool, array.then_some(i))),
        (Mode::Required { used_before: false }, None) if result.get("content").is_some() => {
            Some((Breach::NoTool, None))
        }
        _ => None,
    }
}

/// The words of a finding, for both judges.
pub(crate) fn message(breach: Breach) -> &'static str {
    match breach {
        Breach::UsedTool => {
            "the sampling request asked for `toolChoice: {mode: \"none\"}`, and the result uses a tool"
        }
        Breach::NoTool => {
            "the sampling request asked for `toolChoice: {mode: \"required\"}`, and the result completes with no tool used, here or earlier in the conversation it was given"
        }
    }
}

/// The client's answer to a 2025-11-25 `sampling/createMessage` (`params`,
/// the request's): judged against its `toolChoice`.
pub(super) fn reply(params: Option<&Raw<'_>>, result: &Raw<'_>, pointer: &str, out: &mut Report) {
    let Some(mode) = params.and_then(mode) else {
        return;
    };
    let Some((breach, block)) = breach(mode, result) else {
        return;
    };
    let (rule, place) = match breach {
        Breach::UsedTool => {
            let content = at(pointer, "content");
            (
                RuleId::McpSamplingToolChoiceNone,
                match block {
                    Some(i) => at(&content, &i.to_string()),
                    None => content,
                },
            )
        }
        Breach::NoTool => (
            RuleId::McpSamplingToolChoiceRequired,
            at(pointer, "content"),
        ),
    };
    out.flag(rule, place, message(breach).to_owned());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Raw<'static> {
        Raw::from_value(&serde_json::from_str(text).unwrap())
    }

    #[test]
    fn each_mode_against_each_answer() {
        let none = mode(&raw(r#"{"toolChoice":{"mode":"none"},"messages":[]}"#)).unwrap();
        let required = mode(&raw(r#"{"toolChoice":{"mode":"required"},"messages":[]}"#)).unwrap();
        assert_eq!(mode(&raw(r#"{"toolChoice":{"mode":"auto"}}"#)), None);
        assert_eq!(mode(&raw(r#"{"messages":[]}"#)), None);
        let text = raw(r#"{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}"#);
        let tool = raw(
            r#"{"role":"assistant","content":[{"type":"text","text":"x"},{"type":"tool_use","id":"t","name":"n","input":{}}],"model":"m"}"#,
        );
        assert_eq!(breach(none, &text), None);
        assert_eq!(breach(none, &tool), Some((Breach::UsedTool, Some(1))));
        assert_eq!(breach(required, &tool), None);
        assert_eq!(breach(required, &text), Some((Breach::NoTool, None)));
    }

    #[test]
    fn a_tool_used_earlier_in_the_loop_satisfies_required() {
        let params = raw(
            r#"{"toolChoice":{"mode":"required"},"messages":[{"role":"user","content":{"type":"text","text":"q"}},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"n","input":{}}]},{"role":"user","content":[{"type":"tool_result","toolUseId":"t","content":[]}]}]}"#,
        );
        let text =
            raw(r#"{"role":"assistant","content":{"type":"text","text":"done"},"model":"m"}"#);
        assert_eq!(breach(mode(&params).unwrap(), &text), None);
    }
}
