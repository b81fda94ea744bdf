//! MCP 2025-06-18 basic/lifecycle §Initialization: the client "SHOULD NOT send
//! requests other than pings before the server has responded to the
//! `initialize` request", and §Operation (MUST): "Only use capabilities that
//! were successfully negotiated". Only the server's result for the
//! `initialize` request is that response, and its `capabilities` are what was
//! negotiated: a ping answered while `initialize` waits stands for neither.

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;

#[test]
fn a_ping_answered_before_initialize_stands_for_neither_its_answer_nor_its_capabilities() {
    let frames = [
        (
            C,
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        ),
        (C, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
        (S, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
        // Event 3: still before the server answered `initialize`.
        (C, r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#),
        (
            S,
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#,
        ),
        (S, r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#),
        (
            C,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ),
        // Event 7: `tools` was negotiated by the answer of event 4.
        (C, r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#),
        (S, r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}"#),
    ];
    let found: Vec<(String, Vec<u64>)> = findings(
        Revision::Mcp2025_06_18,
        frames.iter().map(|&(d, f)| (d, f, None)),
    )
    .iter()
    .map(|f| {
        (
            f.violation.rule.to_string(),
            f.frames.iter().map(|a| a.index).collect(),
        )
    })
    .filter(|(r, _)| r.starts_with("mcp.lifecycle.") || r.starts_with("mcp.capabilities."))
    .collect();
    assert_eq!(
        found,
        [("mcp.lifecycle.client-pre-init-requests".to_owned(), vec![3])]
    );
}
