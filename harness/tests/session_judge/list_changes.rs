//! MCP 2025-06-18 (and 2025-03-26) server/tools, server/prompts and
//! server/resources §List Changed Notification (SHOULD): "When the list of
//! available tools changes, servers that declared the `listChanged` capability
//! SHOULD send a notification" (likewise prompts and resources). Each list is
//! compared only with the previous answer of the same list, and is excused
//! only by its own `list_changed` notification sent after that answer: one
//! sent before it (or one for another list) announces no later change.

use crate::support::reported;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const CHANGED: &str = "mcp.lists.changed-notification";

/// `initialize` (event 0), its answer declaring `listChanged` for all three
/// lists (event 1), and `notifications/initialized` (event 2).
fn handshake(version: &str) -> Vec<(Direction, String)> {
    vec![
        (
            C,
            format!(
                r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"c","version":"1"}}}}}}"#
            ),
        ),
        (
            S,
            format!(
                r#"{{"jsonrpc":"2.0","id":0,"result":{{"protocolVersion":"{version}","capabilities":{{"tools":{{"listChanged":true}},"prompts":{{"listChanged":true}},"resources":{{"listChanged":true}}}},"serverInfo":{{"name":"s","version":"1"}}}}}}"#
            ),
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        ),
    ]
}

fn ask(id: u32, method: &str) -> (Direction, String) {
    (
        C,
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#),
    )
}

/// A complete answer (no `nextCursor`) to a `method` list request.
fn answer(id: u32, method: &str, names: &[&str]) -> String {
    let items: Vec<String> = names
        .iter()
        .map(|n| match method {
            "tools/list" => format!(r#"{{"name":"{n}","inputSchema":{{"type":"object"}}}}"#),
            "prompts/list" => format!(r#"{{"name":"{n}"}}"#),
            _ => format!(r#"{{"uri":"file:///{n}","name":"{n}"}}"#),
        })
        .collect();
    let array = method.trim_end_matches("/list");
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"{array}":[{}]}}}}"#,
        items.join(",")
    )
}

fn changed_notification(list: &str) -> (Direction, String) {
    (
        S,
        format!(r#"{{"jsonrpc":"2.0","method":"notifications/{list}/list_changed"}}"#),
    )
}

/// The changed-notification findings of a `revision` session, each as (the
/// events it names, its message).
fn changed(revision: Revision, frames: &[(Direction, String)]) -> Vec<(Vec<u64>, String)> {
    reported(revision, CHANGED, frames)
}

#[test]
fn three_unchanged_lists_asked_twice_each_report_no_change() {
    let mut frames = handshake("2025-06-18");
    let mut id = 1;
    for _ in 0..2 {
        for (method, names) in [
            ("tools/list", ["t1", "t2"]),
            ("prompts/list", ["p1", "p2"]),
            ("resources/list", ["r1", "r2"]),
        ] {
            frames.push(ask(id, method));
            frames.push((S, answer(id, method, &names)));
            id += 1;
        }
    }
    assert_eq!(changed(Revision::Mcp2025_06_18, &frames), []);
}

#[test]
fn another_lists_notification_does_not_excuse_a_changed_prompt_list() {
    let mut frames = handshake("2025-06-18");
    frames.extend([
        ask(1, "prompts/list"),
        (S, answer(1, "prompts/list", &["p1"])),
        changed_notification("tools"),
        changed_notification("resources"),
        ask(2, "prompts/list"),
        (S, answer(2, "prompts/list", &["p1", "p2"])),
    ]);
    let found = changed(Revision::Mcp2025_06_18, &frames);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, [4, 8]);
    assert!(
        found[0]
            .1
            .contains("`prompts/list` answered another list than at event 5")
            && found[0].1.contains("`notifications/prompts/list_changed`"),
        "{}",
        found[0].1
    );
}

#[test]
fn a_notification_before_the_earlier_answer_does_not_excuse_a_later_change() {
    let mut frames = handshake("2025-06-18");
    frames.extend([
        changed_notification("tools"),
        ask(1, "tools/list"),
        (S, answer(1, "tools/list", &["a"])),
        ask(2, "tools/list"),
        (S, answer(2, "tools/list", &["a", "b"])),
    ]);
    let found = changed(Revision::Mcp2025_06_18, &frames);
    let events: Vec<&Vec<u64>> = found.iter().map(|(e, _)| e).collect();
    assert_eq!(events, [&vec![5, 7]]);
}

#[test]
fn a_notification_between_the_answers_excuses_the_change() {
    let mut frames = handshake("2025-06-18");
    frames.extend([
        ask(1, "tools/list"),
        (S, answer(1, "tools/list", &["a"])),
        changed_notification("tools"),
        ask(2, "tools/list"),
        (S, answer(2, "tools/list", &["a", "b"])),
    ]);
    assert_eq!(changed(Revision::Mcp2025_06_18, &frames), []);
}

/// 2025-03-26 basic/index §Batching: a batch is one frame, so a notification
/// batched after the answer comes at the same event as the answer, and it
/// announces a change after that answer.
#[test]
fn a_notification_batched_after_the_answer_excuses_the_next_change() {
    let session = |batched: &str| {
        let mut frames = handshake("2025-03-26");
        frames.extend([
            ask(1, "tools/list"),
            (S, format!("[{}{batched}]", answer(1, "tools/list", &["a"]))),
            ask(2, "tools/list"),
            (S, answer(2, "tools/list", &["a", "b"])),
        ]);
        changed(Revision::Mcp2025_03_26, &frames)
    };
    let notification = r#",{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
    assert_eq!(session(notification), []);
    let alone: Vec<Vec<u64>> = session("").into_iter().map(|(e, _)| e).collect();
    assert_eq!(alone, [vec![4, 6]]);
}

/// The same batch the other way round: a notification batched before the
/// answer announced a change before it, so the next answer's change is owed
/// its own notification.
#[test]
fn a_notification_batched_before_the_answer_does_not_excuse_the_next_change() {
    let notification = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
    let mut frames = handshake("2025-03-26");
    frames.extend([
        ask(1, "tools/list"),
        (
            S,
            format!("[{notification},{}]", answer(1, "tools/list", &["a"])),
        ),
        ask(2, "tools/list"),
        (S, answer(2, "tools/list", &["a", "b"])),
    ]);
    let found: Vec<Vec<u64>> = changed(Revision::Mcp2025_03_26, &frames)
        .into_iter()
        .map(|(e, _)| e)
        .collect();
    assert_eq!(found, [vec![4, 6]]);
}
