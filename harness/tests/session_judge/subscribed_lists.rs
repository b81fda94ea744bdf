//! MCP 2026-07-28 server/tools §List Changed Notification (SHOULD): "When the
//! list of available tools changes, servers that declared the `listChanged`
//! capability SHOULD send a notification to clients that have opened a
//! `subscriptions/listen` stream with `toolsListChanged: true`." A
//! subscription is open once the server acknowledged it
//! (basic/patterns/subscriptions §Acknowledgment), so a change between two
//! `tools/list` answers is owed a notification only when the subscription was
//! acknowledged by the first of them; a listen still waiting for its
//! acknowledgment then was owed nothing for that change.

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const CHANGED: &str = "mcp.lists.changed-notification";

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}"#;
const SERVER_META: &str =
    r#""_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}"#;

fn list(id: u32) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{{META}}}}}"#)
}

fn listed(id: u32, tools: &[&str]) -> String {
    let tools: Vec<String> = tools
        .iter()
        .map(|t| format!(r#"{{"name":"{t}","inputSchema":{{"type":"object"}}}}"#))
        .collect();
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[{}],"resultType":"complete","ttlMs":0,"cacheScope":"public",{SERVER_META}}}}}"#,
        tools.join(",")
    )
}

/// The changed-notification findings when the tools change between two
/// `tools/list` answers (the second at event 7) with no notification, the
/// tools subscription (sent at event 2) acknowledged before the first answer
/// (at event 3; the first answer is then event 5) or after it (event 5; the
/// first answer is event 4); each as the events it names.
fn changed(acknowledged_first: bool) -> Vec<Vec<u64>> {
    let ack = r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/subscriptionId":9}}}"#.to_owned();
    let mut frames = vec![
        (
            C,
            format!(r#"{{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{{{META}}}}}"#),
        ),
        (
            S,
            format!(
                r#"{{"jsonrpc":"2.0","id":0,"result":{{"supportedVersions":["2026-07-28"],"capabilities":{{"tools":{{"listChanged":true}}}},"resultType":"complete","ttlMs":0,"cacheScope":"public",{SERVER_META}}}}}"#
            ),
        ),
        (
            C,
            format!(
                r#"{{"jsonrpc":"2.0","id":9,"method":"subscriptions/listen","params":{{"notifications":{{"toolsListChanged":true}},{META}}}}}"#
            ),
        ),
    ];
    let ask = (C, list(1));
    let ack = (S, ack);
    frames.extend(if acknowledged_first {
        [ack, ask, (S, listed(1, &["a"]))]
    } else {
        [ask, (S, listed(1, &["a"])), ack]
    });
    frames.extend([(C, list(2)), (S, listed(2, &["a", "b"]))]);
    findings(
        Revision::Mcp2026_07_28,
        frames.iter().map(|(d, f)| (*d, f.as_str(), None)),
    )
    .iter()
    .filter(|f| f.violation.rule.as_str() == CHANGED)
    .map(|f| f.frames.iter().map(|a| a.index).collect())
    .collect()
}

#[test]
fn a_change_while_the_subscription_was_acknowledged_is_owed_a_notification() {
    assert_eq!(changed(true), [vec![5, 7]]);
}

#[test]
fn a_change_before_the_subscription_was_acknowledged_is_owed_none() {
    assert_eq!(changed(false), Vec::<Vec<u64>>::new());
}
