//! Tasks are 2025-11-25's (basic/utilities/tasks): under any other revision a
//! `task` member in a request and in its result makes no task, so nothing of
//! the tasks room applies. In particular the request's progress token is not
//! kept past its answer for a task (basic/utilities/progress §Behavior
//! Requirements 3 is 2025-11-25's too): progress on it after the answer is
//! progress on no active token (2025-06-18 basic/utilities/progress §Behavior
//! Requirements 1), as it is for any answered request.

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const ACTIVE: &str = "mcp.progress.active-token-only";

/// The findings of `mcp.progress.active-token-only` for a task-shaped call
/// answered with a task-shaped result, then progress on its token, under
/// `revision`.
fn progress_after_a_task_result(revision: Revision) -> Vec<Vec<u64>> {
    let version = revision.name();
    let frames = [
        (
            C,
            format!(
                r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"c","version":"1"}}}}}}"#
            ),
        ),
        (
            S,
            format!(
                r#"{{"jsonrpc":"2.0","id":0,"result":{{"protocolVersion":"{version}","capabilities":{{"tools":{{}},"tasks":{{"requests":{{"tools":{{"call":{{}}}}}}}}}},"serverInfo":{{"name":"s","version":"1"}}}}}}"#
            ),
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"job","arguments":{},"task":{"ttl":60000},"_meta":{"progressToken":"p1"}}}"#.to_owned(),
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"t1","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":60000}}}"#.to_owned(),
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1}}"#.to_owned(),
        ),
    ];
    findings(revision, frames.iter().map(|(d, f)| (*d, f.as_str(), None)))
        .iter()
        .filter(|f| f.violation.rule.as_str() == ACTIVE)
        .map(|f| f.frames.iter().map(|a| a.index).collect())
        .collect()
}

#[test]
fn a_task_keeps_its_token_only_under_2025_11_25() {
    assert!(progress_after_a_task_result(Revision::Mcp2025_11_25).is_empty());
    assert_eq!(
        progress_after_a_task_result(Revision::Mcp2025_06_18),
        [vec![5]]
    );
}
