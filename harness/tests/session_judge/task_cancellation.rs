//! MCP 2025-11-25 basic/utilities/cancellation §Behavior Requirements 3
//! (MUST): "For task-augmented requests, the `tasks/cancel` request MUST be
//! used instead of the `notifications/cancelled` notification." A request is
//! task-augmented by its `params.task` (basic/utilities/tasks §Creating
//! Tasks); an answer that happens to hold a `task` member does not make a
//! plain request one, so cancelling that request with the notification is
//! the race cancellation §Timing Considerations allows, not this rule's
//! breach.

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const TASKS_CANCEL: &str = "mcp.cancel.task-uses-tasks-cancel";

const TASK: &str = r#"{"taskId":"t1","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":60000}"#;

/// The task-uses-tasks-cancel findings after `tools/call` id 1 (with
/// `params.task` when `as_task`) is answered with a result holding `task`,
/// then cancelled with `notifications/cancelled`; each as the events it names.
fn cancelled(as_task: bool) -> Vec<Vec<u64>> {
    let task = if as_task {
        r#","task":{"ttl":60000}"#
    } else {
        ""
    };
    let call = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"job","arguments":{{}}{task}}}}}"#
    );
    let answer = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"task":{TASK}}}}}"#);
    let frames = [
        (
            C,
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#.to_owned(),
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"tasks":{"cancel":{},"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"s","version":"1"}}}"#.to_owned(),
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        ),
        (C, call),
        (S, answer),
        (
            C,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#.to_owned(),
        ),
    ];
    findings(
        Revision::Mcp2025_11_25,
        frames.iter().map(|(d, f)| (*d, f.as_str(), None)),
    )
    .iter()
    .filter(|f| f.violation.rule.as_str() == TASKS_CANCEL)
    .map(|f| f.frames.iter().map(|a| a.index).collect())
    .collect()
}

#[test]
fn a_created_task_cancelled_with_the_notification_is_reported() {
    assert_eq!(cancelled(true), [vec![5]]);
}

#[test]
fn a_plain_request_whose_answer_holds_a_task_member_is_no_task() {
    assert_eq!(cancelled(false), Vec::<Vec<u64>>::new());
}
