//! MCP 2025-11-25 schema `ToolResultContent.structuredContent` (SHOULD): "If
//! the tool defined an outputSchema, this SHOULD conform to that schema"
//! (`mcp.sampling.tool-result-conform`), judged on a server's
//! `sampling/createMessage`. A message's `content` is one block or an array of
//! blocks (schema `SamplingMessage.content`), and both are judged; a result
//! with `isError: true` reports a failed use, not the tool's output, so it is
//! not held to the schema.

use harness::rules;
use harness::{Direction, Profile, Revision};
use serde_json::{json, Value};

const RULE: &str = "mcp.sampling.tool-result-conform";

/// A server's `sampling/createMessage` offering tool `lookup` (whose output
/// needs an integer `n`), with an assistant message using it and a user
/// message holding `result`, each message's content one block (`single`) or
/// an array of one block.
fn request(result: Value, single: bool) -> String {
    let content = |block: Value| if single { block } else { json!([block]) };
    json!({
        "jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage",
        "params": {
            "maxTokens": 10,
            "tools": [{
                "name": "lookup",
                "inputSchema": {"type": "object"},
                "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
            }],
            "messages": [
                {"role": "assistant", "content": content(json!({"type": "tool_use", "id": "u1", "name": "lookup", "input": {}}))},
                {"role": "user", "content": content(result)}
            ]
        }
    })
    .to_string()
}

/// The pointers `mcp.sampling.tool-result-conform` reports on `frame`.
fn reported(frame: &str) -> Vec<String> {
    rules::validate(
        frame.as_bytes(),
        Profile {
            revision: Revision::Mcp2025_11_25,
            direction: Direction::ServerToClient,
        },
    )
    .into_iter()
    .filter(|v| v.rule.as_str() == RULE)
    .map(|v| v.pointer)
    .collect()
}

fn result(structured: Value, is_error: Option<bool>) -> Value {
    let mut block = json!({"type": "tool_result", "toolUseId": "u1", "content": [], "structuredContent": structured});
    if let Some(e) = is_error {
        block["isError"] = json!(e);
    }
    block
}

#[test]
fn a_breaking_result_is_reported_whether_content_is_one_block_or_an_array() {
    let bad = result(json!({"n": "x"}), None);
    assert_eq!(
        reported(&request(bad.clone(), true)),
        ["/params/messages/1/content/structuredContent/n"]
    );
    assert_eq!(
        reported(&request(bad, false)),
        ["/params/messages/1/content/0/structuredContent/n"]
    );
    let good = result(json!({"n": 3}), None);
    assert_eq!(reported(&request(good.clone(), true)), Vec::<String>::new());
    assert_eq!(reported(&request(good, false)), Vec::<String>::new());
}

#[test]
fn only_a_result_marked_is_error_true_is_excused() {
    let failed = result(json!({"n": "x"}), Some(true));
    assert_eq!(reported(&request(failed, false)), Vec::<String>::new());
    let not_failed = result(json!({"n": "x"}), Some(false));
    assert_eq!(
        reported(&request(not_failed, false)),
        ["/params/messages/1/content/0/structuredContent/n"]
    );
}
