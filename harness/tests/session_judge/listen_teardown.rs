//! MCP 2026-07-28 basic/patterns/cancellation (MUST): "A server MUST send
//! `notifications/cancelled` referencing a `subscriptions/listen` request ID
//! when it tears down that subscription stream", and basic/patterns/subscriptions
//! §Graceful Closure (SHOULD): a server ending a subscription "on its own
//! initiative" answers the listen with a completion result. A subscription the
//! client cancelled (§Cancellation: "The client cancels it") was not torn down
//! by the server: an error answering it afterwards owes neither signal.

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const SIGNALLED: &str = "mcp.r5.subscription.teardown-signalled";

/// The teardown findings of an acknowledged `subscriptions/listen` answered
/// with an error, cancelled by the client before when `cancelled`; each as
/// the events it names.
fn ended(cancelled: bool) -> Vec<Vec<u64>> {
    let mut frames = vec![
        (
            C,
            r#"{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}}"#,
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/subscriptionId":1}}}"#,
        ),
    ];
    if cancelled {
        frames.push((
            C,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"done"}}"#,
        ));
    }
    frames.push((
        S,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error"}}"#,
    ));
    findings(
        Revision::Mcp2026_07_28,
        frames.iter().map(|&(d, f)| (d, f, None)),
    )
    .iter()
    .filter(|f| f.violation.rule.as_str() == SIGNALLED)
    .map(|f| f.frames.iter().map(|a| a.index).collect())
    .collect()
}

#[test]
fn a_subscription_ended_by_an_error_without_a_signal_is_reported() {
    assert_eq!(ended(false), [vec![0, 2]]);
}

#[test]
fn a_subscription_the_client_cancelled_owes_no_teardown_signal() {
    assert_eq!(ended(true), Vec::<Vec<u64>>::new());
}
