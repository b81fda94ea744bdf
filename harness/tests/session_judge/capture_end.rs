//! What only the end of a capture decides (`Judge::finish`): a request still
//! unanswered is not observed (JSON-RPC 2.0 §4: the server MUST reply, but a
//! capture that stops early shows neither an answer nor its absence), except a
//! request its sender cancelled (MCP basic/utilities/cancellation: the receiver
//! SHOULD NOT answer a cancelled request, so no answer is owed).

use harness::rules::RuleId;
use harness::session::Event;
use harness::{Direction, Revision};

use crate::support::fed;

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;

fn ending_notes(frames: &[(Direction, &str)]) -> Vec<(RuleId, String)> {
    let (judge, _) = fed(Revision::Mcp2025_06_18, frames.iter().copied());
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

/// 2026-07-28 basic/patterns/subscriptions §Cancellation: a stream that closes
/// with an acknowledged subscription open may be a transport close (allowed) or
/// a teardown without its signal; the wire does not tell them apart, so it is
/// not observed. A subscription never acknowledged, or one the client
/// cancelled, was never open to tear down: no note.
#[test]
fn only_an_acknowledged_open_subscription_leaves_its_teardown_unobserved() {
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}"#;
    let listen = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{{"notifications":{{"toolsListChanged":true}},{meta}}}}}"#
    );
    let acknowledged = r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/subscriptionId":1}}}"#;
    let cancel = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#;
    let notes = |frames: &[(Direction, &str)]| -> Vec<RuleId> {
        let (mut judge, mut out) = fed(Revision::Mcp2026_07_28, frames.iter().copied());
        judge.feed(Event::Closed, None, &mut out);
        judge
            .finish()
            .not_observed
            .into_iter()
            .map(|u| u.rule)
            .collect()
    };
    let teardown = vec![RuleId::McpR5SubscriptionTeardownSignalled];
    assert_eq!(notes(&[(C, &listen), (S, acknowledged)]), teardown);
    assert_eq!(
        notes(&[(C, &listen)]),
        Vec::<RuleId>::new(),
        "never acknowledged"
    );
    assert_eq!(
        notes(&[(C, &listen), (S, acknowledged), (C, cancel)]),
        Vec::<RuleId>::new(),
        "cancelled by the client"
    );
}
