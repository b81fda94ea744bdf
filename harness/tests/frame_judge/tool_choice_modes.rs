//! MCP 2025-11-25 client/sampling §Tool Choice Modes (MUST / MUST NOT):
//! "`{mode: "required"}`: Model MUST use at least one tool before completing;
//! `{mode: "none"}`: Model MUST NOT use any tools", judged on the client's
//! `CreateMessageResult`. Its `content` is one block or an array of blocks;
//! a tool used by an assistant message earlier in the conversation counts as
//! used "before completing"; a result with no `content` is the schema's
//! concern, not this rule's.

use crate::support::exchange;
use harness::{Direction, Revision};
use serde_json::{json, Value};

const NONE: &str = "mcp.sampling.tool-choice-none";
const REQUIRED: &str = "mcp.sampling.tool-choice-required";

/// `(rule, pointer, message)` of the tool-choice findings on a server's
/// `sampling/createMessage` asking for `mode` over `messages`, answered with
/// `result`.
fn judged(mode: &str, messages: Value, result: Value) -> Vec<(String, String, String)> {
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": {
        "maxTokens": 10, "messages": messages, "toolChoice": {"mode": mode},
        "tools": [{"name": "lookup", "inputSchema": {"type": "object"}}]}})
    .to_string();
    let reply = json!({"jsonrpc": "2.0", "id": 1, "result": result}).to_string();
    exchange(
        Revision::Mcp2025_11_25,
        Direction::ServerToClient,
        &request,
        &reply,
    )
    .into_iter()
    .filter(|v| [NONE, REQUIRED].contains(&v.rule.as_str()))
    .map(|v| (v.rule.as_str().to_owned(), v.pointer, v.message))
    .collect()
}

fn ask() -> Value {
    json!([{"role": "user", "content": {"type": "text", "text": "weather?"}}])
}

fn answer(content: Value) -> Value {
    json!({"role": "assistant", "model": "m", "content": content})
}

fn tool_use() -> Value {
    json!({"type": "tool_use", "id": "u1", "name": "lookup", "input": {}})
}

fn text() -> Value {
    json!({"type": "text", "text": "sunny"})
}

#[test]
fn a_tool_used_under_none_is_reported_as_one_block_or_in_an_array() {
    let found = judged("none", ask(), answer(tool_use()));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0].0.as_str(), found[0].1.as_str()),
        (NONE, "/result/content")
    );
    assert_eq!(
        found[0].2,
        "the sampling request asked for `toolChoice: {mode: \"none\"}`, and the result uses a tool"
    );
    let found = judged("none", ask(), answer(json!([text(), tool_use()])));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].1, "/result/content/1");
    assert_eq!(judged("none", ask(), answer(text())), []);
}

#[test]
fn no_tool_under_required_is_reported_unless_an_assistant_used_one_before() {
    let found = judged("required", ask(), answer(text()));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0].0.as_str(), found[0].1.as_str()),
        (REQUIRED, "/result/content")
    );
    assert!(
        found[0].2.starts_with(
            "the sampling request asked for `toolChoice: {mode: \"required\"}`, and the result completes with no tool used"
        ),
        "{}",
        found[0].2
    );
    assert_eq!(judged("required", ask(), answer(tool_use())), []);
    // An assistant that used the tool earlier in the loop: used before completing.
    let mut history = ask();
    history.as_array_mut().unwrap().extend([
        json!({"role": "assistant", "content": tool_use()}),
        json!({"role": "user", "content": {"type": "tool_result", "toolUseId": "u1", "content": []}}),
    ]);
    assert_eq!(judged("required", history, answer(text())), []);
    // An assistant message without a tool use is no use of one.
    let mut history = ask();
    history.as_array_mut().unwrap().extend([
        json!({"role": "assistant", "content": text()}),
        json!({"role": "user", "content": {"type": "text", "text": "and tomorrow?"}}),
    ]);
    assert_eq!(judged("required", history, answer(text())).len(), 1);
}

#[test]
fn a_result_without_content_is_not_judged_by_tool_choice() {
    assert_eq!(
        judged(
            "required",
            ask(),
            json!({"role": "assistant", "model": "m"})
        ),
        []
    );
}
