//! MCP 2025-11-25 client/elicitation §Completion Notifications for URL Mode
//! Elicitation (MUST): "Servers sending notifications: … MUST include the
//! `elicitationId` established in the original `elicitation/create` request."
//!
//! What establishes an id is the server's: its URL-mode `elicitation/create`
//! (§URL Mode Elicitation Requests), or the `elicitations` of a
//! `URLElicitationRequiredError` (code -32042) answering a client request
//! (§URL Elicitation Required Error). An `elicitationId` carried by anything
//! the client sent, or by an error with another code, establishes none, so a
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

const HANDSHAKE: [(Direction, &str); 3] = [
    (
        C,
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"url":{}}},"clientInfo":{"name":"c","version":"1"}}}"#,
    ),
    (
        S,
        r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#,
    ),
    (
        C,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    ),
];

/// An error `code` answering `id` that lists a URL-mode elicitation `eid`.
fn required(id: u32, code: i64, eid: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":"This request requires more information.","data":{{"elicitations":[{{"mode":"url","elicitationId":"{eid}","url":"https://mcp.example.com/connect?elicitationId={eid}","message":"Authorization is required."}}]}}}}}}"#
    )
}

/// The complete-known-id findings after the handshake, each as the events it
/// names and its message.
fn unknown(rest: &[(Direction, String)]) -> Vec<(Vec<u64>, String)> {
    let all = HANDSHAKE
        .iter()
        .map(|&(d, f)| (d, f, None))
        .chain(rest.iter().map(|(d, f)| (*d, f.as_str(), None)));
    findings(Revision::Mcp2025_11_25, all)
        .into_iter()
        .filter(|f| f.violation.rule.as_str() == KNOWN)
        .map(|f| {
            (
                f.frames.iter().map(|a| a.index).collect(),
                f.violation.message,
            )
        })
        .collect()
}

const CALL: &str =
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"files","arguments":{}}}"#;

#[test]
fn the_elicitations_of_a_url_elicitation_required_error_are_known() {
    let found = unknown(&[
        (C, CALL.to_owned()),
        (S, required(1, -32042, "from-error")),
        (S, complete("from-error")),
    ]);
    assert_eq!(found, []);
}

#[test]
fn an_error_with_another_code_or_from_the_client_establishes_no_elicitation() {
    let found = unknown(&[
        (C, CALL.to_owned()),
        // Event 4: not -32042.
        (S, required(1, -32603, "other-code")),
        (S, complete("other-code")),
        // Event 6: the client's -32042 answer to a server request.
        (
            S,
            r#"{"jsonrpc":"2.0","id":5,"method":"roots/list"}"#.to_owned(),
        ),
        (C, required(5, -32042, "from-client")),
        (S, complete("from-client")),
    ]);
    let frames: Vec<&Vec<u64>> = found.iter().map(|(f, _)| f).collect();
    assert_eq!(frames, [&vec![5], &vec![8]], "{found:?}");
    assert!(found[0].1.contains(r#""other-code""#), "{found:?}");
    assert!(found[1].1.contains(r#""from-client""#), "{found:?}");
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
    .filter(|f| f.violation.rule.as_str() == KNOWN)
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
