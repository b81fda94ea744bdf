//! MCP 2025-11-25 basic/utilities/progress §Behavior Requirements 3 (MUST):
//! "For task-augmented requests, the `progressToken` provided in the original
//! request MUST continue to be used for progress notifications throughout the
//! task's lifetime, even after the `CreateTaskResult` has been returned. The
//! progress token remains valid and associated with the task until the task
//! reaches a terminal status."
//!
//! The judge keeps such a token past its request's answer for at most 4096
//! tasks per requestor (its memory bound): the 4096th task's token is still
//! followed, and the 4097th's is not, so progress on it reads as progress on
//! no active token (§Behavior Requirements 1).

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const ACTIVE: &str = "mcp.progress.active-token-only";

/// Task tokens kept per requestor.
const KEPT: u32 = 4096;

#[test]
fn the_tokens_of_4096_tasks_are_kept_and_the_4097th_is_not() {
    let mut frames = vec![
        (
            C,
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#.to_owned(),
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"tasks":{"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"s","version":"1"}}}"#.to_owned(),
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        ),
    ];
    for n in 1..=KEPT + 1 {
        frames.push((
            C,
            format!(
                r#"{{"jsonrpc":"2.0","id":{n},"method":"tools/call","params":{{"name":"job","arguments":{{}},"task":{{"ttl":60000}},"_meta":{{"progressToken":"p{n}"}}}}}}"#
            ),
        ));
        frames.push((
            S,
            format!(
                r#"{{"jsonrpc":"2.0","id":{n},"result":{{"task":{{"taskId":"t{n}","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":60000}}}}}}"#
            ),
        ));
    }
    let progress = |n: u32| {
        format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"p{n}","progress":1}}}}"#
        )
    };
    let last_kept = frames.len() as u64;
    frames.push((S, progress(KEPT)));
    frames.push((S, progress(KEPT + 1)));
    let found: Vec<Vec<u64>> = findings(
        Revision::Mcp2025_11_25,
        frames.iter().map(|(d, f)| (*d, f.as_str(), None)),
    )
    .iter()
    .filter(|f| f.violation.rule.as_str() == ACTIVE)
    .map(|f| f.frames.iter().map(|a| a.index).collect())
    .collect();
    assert_eq!(found, [vec![last_kept + 1]]);
}
