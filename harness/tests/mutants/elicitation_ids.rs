//! MCP 2025-11-25 client/elicitation §Completion Notifications for URL Mode
//! Elicitation (MUST): "Servers sending notifications: … MUST include the
//! `elicitationId` established in the original `elicitation/create` request."
//!
//! The request that establishes an id is the server's URL-mode
//! `elicitation/create` (§URL Mode Elicitation Requests): an
//! `elicitationId` carried by anything the client sent establishes none, so a
//! server's completion naming it names an elicitation of no server.

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const KNOWN: &str = "mcp.elicitation.complete-known-id";

/// A URL-mode `elicitation/create` with id `id` and `elicitationId` `eid`.
fn url_elicitation(id: u32, eid: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"elicitation/create","params":{{"mode":"url","elicitationId":"{eid}","url":"https://mcp.example.com/connect?elicitationId={eid}","message":"Please connect your account."}}}}"#
    )
}

fn complete(eid: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{{"elicitationId":"{eid}"}}}}"#
    )
}

#[test]
fn only_the_servers_url_elicitations_make_a_completion_id_known() {
    let frames = [
        (
            C,
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"url":{}}},"clientInfo":{"name":"c","version":"1"}}}"#.to_owned(),
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#.to_owned(),
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        ),
        // Event 3: the server's URL-mode elicitation, accepted, then completed.
        (S, url_elicitation(7, "from-server")),
        (
            C,
            r#"{"jsonrpc":"2.0","id":7,"result":{"action":"accept"}}"#.to_owned(),
        ),
        (S, complete("from-server")),
        // Event 6: the same request sent by the client establishes nothing.
        (C, url_elicitation(1, "from-client")),
        (S, complete("from-client")),
    ];
    let found: Vec<(Vec<u64>, String)> = findings(
        Revision::Mcp2025_11_25,
        frames.iter().map(|(d, f)| (*d, f.as_str(), None)),
    )
    .into_iter()
    .filter(|f| f.violation.rule.to_string() == KNOWN)
    .map(|f| {
        (
            f.frames.iter().map(|a| a.index).collect(),
            f.violation.message,
        )
    })
    .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, [7], "{found:?}");
    assert!(found[0].1.contains(r#""from-client""#), "{found:?}");
}
