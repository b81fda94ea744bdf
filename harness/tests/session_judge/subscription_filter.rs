//! MCP 2026-07-28 basic/patterns/subscriptions §Opening a Stream (MUST NOT):
//! "The server MUST NOT send notification types the client has not
//! explicitly requested." §Notification Filter names one field per list:
//! `toolsListChanged`, `promptsListChanged` and `resourcesListChanged` (each
//! "Omitting a field is equivalent to not subscribing to that notification
//! type"). Each list-changed notification on a subscription is held to its
//! own field.

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const REQUESTED: &str = "mcp.r5.subscriptions.requested-only";

/// The requested-only findings of an acknowledged subscription with filter
/// `filter` on which the server sends the tools, prompts and resources
/// list-changed notifications (events 2, 3, 4); each as the events it names.
fn sent_on(filter: &str) -> Vec<Vec<u64>> {
    let on = |method: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","method":"{method}","params":{{"_meta":{{"io.modelcontextprotocol/subscriptionId":1}}}}}}"#
        )
    };
    let frames = [
        (
            C,
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{{"notifications":{filter},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/clientInfo":{{"name":"c","version":"1"}}}}}}}}"#
            ),
        ),
        (
            S,
            format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{{"notifications":{filter},"_meta":{{"io.modelcontextprotocol/subscriptionId":1}}}}}}"#
            ),
        ),
        (S, on("notifications/tools/list_changed")),
        (S, on("notifications/prompts/list_changed")),
        (S, on("notifications/resources/list_changed")),
    ];
    findings(
        Revision::Mcp2026_07_28,
        frames.iter().map(|(d, f)| (*d, f.as_str(), None)),
    )
    .iter()
    .filter(|f| f.violation.rule.as_str() == REQUESTED)
    .map(|f| f.frames.iter().map(|a| a.index).collect())
    .collect()
}

#[test]
fn each_list_change_the_filter_did_not_ask_for_is_reported() {
    assert_eq!(
        sent_on(r#"{"resourceSubscriptions":["file:///a"]}"#),
        [vec![0, 2], vec![0, 3], vec![0, 4]]
    );
}

#[test]
fn each_list_change_the_filter_asked_for_is_allowed() {
    assert_eq!(
        sent_on(
            r#"{"toolsListChanged":true,"promptsListChanged":true,"resourcesListChanged":true}"#
        ),
        Vec::<Vec<u64>>::new()
    );
}
