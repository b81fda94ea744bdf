//! MCP 2026-07-28 server/utilities/logging §Per-request log level (MUST NOT):
//! "To receive log messages for a specific request, include
//! `io.modelcontextprotocol/logLevel` in the request's `_meta`. The server
//! MUST NOT emit `notifications/message` for a request that does not include
//! this field." A rule of the server's notifications: a `notifications/message`
//! the client sends is not held to it, and no earlier revision has it.

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const PER_REQUEST: &str = "mcp.r5.logging.per-request";

const LOG: &str = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}"#;

/// The per-request findings, each as the events it names.
fn judged(frames: &[(Direction, &str)]) -> Vec<Vec<u64>> {
    findings(
        Revision::Mcp2026_07_28,
        frames.iter().map(|&(d, f)| (d, f, None)),
    )
    .iter()
    .filter(|f| f.violation.rule.as_str() == PER_REQUEST)
    .map(|f| f.frames.iter().map(|a| a.index).collect())
    .collect()
}

#[test]
fn only_the_servers_log_message_without_a_log_level_request_is_reported() {
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"job","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}}"#;
    // A request in flight without a log level: the client's message (event 1)
    // is not the server's emission; the server's (event 2) breaks the rule.
    assert_eq!(judged(&[(C, call), (C, LOG), (S, LOG)]), [vec![2]]);
}
