//! MCP 2025-11-25 basic/utilities/tasks §Getting Tasks (SHOULD): "Requestors
//! poll for task completion by sending `tasks/get` requests. Requestors SHOULD
//! respect the `pollInterval` provided in responses when determining polling
//! frequency." Only `tasks/get` polls: "invoking `tasks/result` does not imply
//! that the requestor needs to stop polling", so a `tasks/result` or
//! `tasks/cancel` sent within the interval is no poll, and leaves the interval
//! to pace the next `tasks/get`.

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const POLL: &str = "mcp.tasks.poll-interval";

const TASK: &str = r#""taskId":"t1","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":60000"#;

/// The poll-interval findings of a 2025-11-25 session in which the client
/// creates task `t1` at t = 1 s, polls it at t = 2 s (answered `working`,
/// `pollInterval` 5 s), then sends `then`; each as the events it names.
fn paced(then: &[(Direction, String, f64)]) -> Vec<Vec<u64>> {
    let start = [
        (C, r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#.to_owned(), 0.0),
        (S, r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"tasks":{"cancel":{},"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"s","version":"1"}}}"#.to_owned(), 0.0),
        (C, r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(), 0.0),
        (C, r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"job","arguments":{},"task":{"ttl":60000}}}"#.to_owned(), 1.0),
        (S, format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"task":{{{TASK},"status":"working"}}}}}}"#), 1.0),
        (C, r#"{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"t1"}}"#.to_owned(), 2.0),
        (S, format!(r#"{{"jsonrpc":"2.0","id":2,"result":{{{TASK},"status":"working","pollInterval":5000}}}}"#), 2.0),
    ];
    let all = start
        .iter()
        .chain(then)
        .map(|(d, f, t)| (*d, f.as_str(), Some(*t)));
    findings(Revision::Mcp2025_11_25, all)
        .iter()
        .filter(|f| f.violation.rule.as_str() == POLL)
        .map(|f| f.frames.iter().map(|a| a.index).collect())
        .collect()
}

fn sent(id: u32, method: &str, time: f64) -> (Direction, String, f64) {
    (
        C,
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{"taskId":"t1"}}}}"#),
        time,
    )
}

#[test]
fn tasks_result_within_the_interval_is_no_poll_and_the_next_get_is_still_paced() {
    // Event 7: `tasks/result` half a second later (it blocks: no answer yet);
    // event 8: a `tasks/get` a second after the answer of event 6.
    let found = paced(&[sent(3, "tasks/result", 2.5), sent(4, "tasks/get", 3.0)]);
    assert_eq!(found, [vec![6, 8]]);
}

#[test]
fn tasks_cancel_within_the_interval_is_no_poll() {
    let found = paced(&[sent(3, "tasks/cancel", 2.5)]);
    assert_eq!(found, Vec::<Vec<u64>>::new());
}
