//! Each side numbers its own requests: MCP basic/index §Requests ("The request
//! ID MUST NOT have been previously used by the requestor within the same
//! session") binds the requestor, so a client's request 1 and a server's
//! request 1 in flight together are two requests, each answered by its own
//! response, and no id is reused.

use harness::{Direction, Revision};

use crate::support::findings;

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;

#[test]
fn a_client_and_a_server_request_may_share_an_id() {
    let frames = [
        (
            C,
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"sampling":{}},"clientInfo":{"name":"c","version":"1"}}}"#,
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#,
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ),
        (C, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#),
        (
            S,
            r#"{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10}}"#,
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","id":1,"result":{"role":"assistant","content":{"type":"text","text":"hello"},"model":"m"}}"#,
        ),
        (S, r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#),
    ];
    let found: Vec<String> = findings(
        Revision::Mcp2025_06_18,
        frames.iter().map(|&(d, f)| (d, f, None)),
    )
    .into_iter()
    .map(|f| format!("{}: {}", f.violation.rule, f.violation.message))
    .collect();
    assert_eq!(found, Vec::<String>::new());
}
