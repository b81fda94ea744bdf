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

/// The requests `frames` leave unanswered when the stream closes, as the
/// session judge words them.
fn owed_at_close(frames: &[(harness::Direction, &str)]) -> Vec<String> {
    use harness::session::{Event, Judge};
    let mut judge = Judge::new(Revision::Mcp2026_07_28);
    let mut out = Vec::new();
    for &(from, frame) in frames {
        let bytes = frame.as_bytes();
        judge.feed(Event::Frame { from, bytes }, None, &mut out);
    }
    judge.feed(Event::Closed, None, &mut out);
    out.iter()
        .filter(|f| f.violation.rule.as_str() == "jsonrpc.response.required")
        .map(|f| f.violation.message.clone())
        .collect()
}

/// An error with id null answers a request with id null by its id, else the
/// earliest request in flight whose id the revision forbids and a receiver
/// may refuse as unreadable (MCP: 1.5; `harness::error_ids`), and never a
/// request whose id is readable and allowed (1): that one is still owed.
#[test]
fn a_null_error_answers_a_null_or_forbidden_id_never_a_readable_one() {
    let null_error = r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"m"},"id":null}"#;
    let call = |id: &str| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#);
    // The ids sent, in order, and the one still owed after the null error.
    for (sent, owed) in [
        (&["1", "1.5"][..], "1"),
        (&["1"], "1"),
        (&["null", "1.5"], "1.5"),
    ] {
        let mut frames: Vec<(harness::Direction, String)> =
            sent.iter().map(|id| (C, call(id))).collect();
        frames.push((S, null_error.to_owned()));
        let frames: Vec<_> = frames.iter().map(|(d, f)| (*d, f.as_str())).collect();
        assert_eq!(
            owed_at_close(&frames),
            [format!(
                "the stream closed before `tools/list` (id {owed}) was answered"
            )],
            "{sent:?}"
        );
    }
}
