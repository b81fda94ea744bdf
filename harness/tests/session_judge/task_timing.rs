//! The 2025-11-25 task rules that read a capture's clock (MCP 2025-11-25
//! basic/utilities/tasks):
//!
//! - §Getting Tasks (SHOULD): "Requestors SHOULD respect the `pollInterval`
//!   provided in responses when determining polling frequency." The interval
//!   paces the polling of a task still running: a poll a whole interval later
//!   respects it, and a task shown `completed` is polled for nothing, so asking
//!   about it again is held to no interval.
//! - §TTL and Resource Management 3 (MAY): "After a task's `ttl` lifetime has
//!   elapsed, receivers MAY delete the task and its results", so a `tasks/list`
//!   that leaves out a retrieved task once its ttl has run out, to the second,
//!   is no breach of §Task Listing (mcp.tasks.list-retrievable).

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const POLL: &str = "mcp.tasks.poll-interval";

const TASK: &str = r#""taskId":"t1","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":60000"#;

/// A 2025-11-25 session in which the client, at t = 1 s, creates task `t1`
/// (ttl 60 s) with a `tools/call`, then `rest`; the rules found.
fn judged(rest: &[(Direction, String, f64)]) -> Vec<String> {
    let start = [
        (C, r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#.to_owned(), 0.0),
        (S, r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"tasks":{"list":{},"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"s","version":"1"}}}"#.to_owned(), 0.0),
        (C, r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(), 0.0),
        (C, r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"job","arguments":{},"task":{"ttl":60000}}}"#.to_owned(), 1.0),
        (S, format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"task":{{{TASK},"status":"working"}}}}}}"#), 1.0),
    ];
    let all = start
        .iter()
        .chain(rest)
        .map(|(d, f, t)| (*d, f.as_str(), Some(*t)));
    findings(Revision::Mcp2025_11_25, all)
        .iter()
        .map(|f| f.violation.rule.to_string())
        .collect()
}

/// `tasks/get` `id` for `t1` at `time`, answered at once with `status` and a
/// 5 s `pollInterval`.
fn get(id: u32, status: &str, time: f64) -> [(Direction, String, f64); 2] {
    [
        (
            C,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tasks/get","params":{{"taskId":"t1"}}}}"#
            ),
            time,
        ),
        (
            S,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":{{{TASK},"status":"{status}","pollInterval":5000}}}}"#
            ),
            time,
        ),
    ]
}

fn polls(gets: &[(&str, f64)]) -> Vec<String> {
    let frames: Vec<_> = gets
        .iter()
        .zip(2..)
        .flat_map(|((status, time), id)| get(id, status, *time))
        .collect();
    judged(&frames)
}

#[test]
fn a_running_task_polled_sooner_than_its_interval_is_reported() {
    assert!(polls(&[("working", 2.0), ("working", 3.0)]).contains(&POLL.to_owned()));
}

#[test]
fn a_poll_a_whole_interval_later_respects_it() {
    let rules = polls(&[("working", 2.0), ("working", 7.0)]);
    assert!(!rules.contains(&POLL.to_owned()), "{rules:?}");
}

#[test]
fn a_completed_task_is_held_to_no_poll_interval() {
    let rules = polls(&[("completed", 2.0), ("completed", 3.0)]);
    assert!(!rules.contains(&POLL.to_owned()), "{rules:?}");
}

#[test]
fn a_task_whose_ttl_has_run_out_may_be_left_out_of_the_list() {
    let list = |time| {
        let mut frames = get(2, "working", 2.0).to_vec();
        frames.push((
            C,
            r#"{"jsonrpc":"2.0","id":3,"method":"tasks/list"}"#.to_owned(),
            time,
        ));
        frames.push((
            S,
            r#"{"jsonrpc":"2.0","id":3,"result":{"tasks":[]}}"#.to_owned(),
            time,
        ));
        judged(&frames)
    };
    let rule = "mcp.tasks.list-retrievable".to_owned();
    // Created no earlier than its request at t = 1 s: alive until t = 61 s at least.
    assert!(list(60.0).contains(&rule));
    let rules = list(61.0);
    assert!(!rules.contains(&rule), "{rules:?}");
}
