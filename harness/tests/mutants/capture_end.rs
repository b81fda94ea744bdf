//! What only the end of a capture decides (`Judge::finish`): a request still
//! unanswered is not observed (JSON-RPC 2.0 §4: the server MUST reply, but a
//! capture that stops early shows neither an answer nor its absence), except a
//! request its sender cancelled (MCP basic/utilities/cancellation: the receiver
//! SHOULD NOT answer a cancelled request, so no answer is owed).

use harness::rules::RuleId;
use harness::session::{Event, Judge};
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;

fn ending_notes(frames: &[(Direction, &str)]) -> Vec<(RuleId, String)> {
    let mut judge = Judge::new(Revision::Mcp2025_06_18);
    let mut out = Vec::new();
    for &(from, frame) in frames {
        judge.feed(
            Event::Frame {
                from,
                bytes: frame.as_bytes(),
            },
            None,
            &mut out,
        );
    }
    judge
        .finish()
        .not_observed
        .into_iter()
        .map(|u| (u.rule, u.why))
        .collect()
}

const HANDSHAKE: [(Direction, &str); 3] = [
    (
        C,
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
    ),
    (
        S,
        r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#,
    ),
    (
        C,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    ),
];

#[test]
fn an_unanswered_request_is_not_observed_and_a_cancelled_one_owes_nothing() {
    let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    let call =
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{}}}"#;
    let cancel = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#;
    let mut frames = HANDSHAKE.to_vec();
    frames.extend([(C, list), (C, call), (C, cancel)]);
    assert_eq!(
        ending_notes(&frames),
        vec![(
            RuleId::JsonrpcResponseRequired,
            "the capture ended before an answer to `tools/list` (id 1)".to_owned()
        )]
    );
}
