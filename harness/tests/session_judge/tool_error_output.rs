//! MCP 2025-06-18 server/tools §Output Schema (MUST): "If an output schema is
//! provided: Servers MUST provide structured results that conform to this
//! schema." A result with `isError: true` reports a failed call
//! (§Error Handling, "Tool Execution Errors: Reported in tool results with
//! `isError: true`"), not the tool's output, so it owes no structured result;
//! a result without it, or with `isError: false`, does.

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const CONFORM: &str = "mcp.tools.output-schema-conform";

#[test]
fn only_a_result_that_is_no_tool_error_owes_its_structured_content() {
    let call = |id: u32| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"count","arguments":{{}}}}}}"#
        )
    };
    let answer = |id: u32, is_error: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"no count"}}]{is_error}}}}}"#
        )
    };
    let frames = [
        (
            C,
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#.to_owned(),
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#.to_owned(),
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_owned(),
        ),
        // Event 4: `count` returns `{"n": integer}`.
        (
            S,
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"count","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}]}}"#.to_owned(),
        ),
        (C, call(2)),
        (S, answer(2, r#","isError":true"#)),
        (C, call(3)),
        (S, answer(3, r#","isError":false"#)),
        (C, call(4)),
        (S, answer(4, "")),
    ];
    let found: Vec<Vec<u64>> = findings(
        Revision::Mcp2025_06_18,
        frames.iter().map(|(d, f)| (*d, f.as_str(), None)),
    )
    .iter()
    .filter(|f| f.violation.rule.as_str() == CONFORM)
    .map(|f| f.frames.iter().map(|a| a.index).collect())
    .collect();
    assert_eq!(found, [vec![4, 7, 8], vec![4, 9, 10]]);
}
