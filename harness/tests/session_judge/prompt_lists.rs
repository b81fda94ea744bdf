//! MCP 2025-06-18 server/prompts §Error Handling and server/utilities/completion
//! §Error Handling (SHOULD): "Invalid prompt name: `-32602` (Invalid params)".
//! The judge knows a prompt name is invalid only from the latest complete
//! `prompts/list` answer with no `notifications/prompts/list_changed` after
//! it: a prompt that list holds, or any prompt while no list was answered, is
//! owed no -32602; one it does not hold is. A notification batched before the
//! answer (2025-03-26 basic/index §Batching: one frame, read in order) came
//! before that list, so it leaves the list current; one batched after the
//! answer came after it, so no list is current.

use crate::support::reported;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const GET: &str = "mcp.prompts.get-invalid-params";
const COMPLETION: &str = "mcp.completion.standard-errors";

const PROMPTS: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"prompts":[{"name":"review"}]}}"#;

/// `initialize` (event 0), its answer declaring `prompts` and `completions`
/// (event 1), and `notifications/initialized` (event 2).
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
                r#"{{"jsonrpc":"2.0","id":0,"result":{{"protocolVersion":"{version}","capabilities":{{"prompts":{{"listChanged":true}},"completions":{{}}}},"serverInfo":{{"name":"s","version":"1"}}}}}}"#
            ),
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        ),
    ]
}

fn list_prompts() -> (Direction, String) {
    (
        C,
        r#"{"jsonrpc":"2.0","id":1,"method":"prompts/list"}"#.to_owned(),
    )
}

/// `completion/complete` for prompt `name` (id 2), answered with a result.
fn complete(name: &str) -> [(Direction, String); 2] {
    [
        (
            C,
            format!(
                r#"{{"jsonrpc":"2.0","id":2,"method":"completion/complete","params":{{"ref":{{"type":"ref/prompt","name":"{name}"}},"argument":{{"name":"a","value":"x"}}}}}}"#
            ),
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","id":2,"result":{"completion":{"values":[]}}}"#.to_owned(),
        ),
    ]
}

/// `prompts/get` for prompt `name` (id 2), answered with a result.
fn get(name: &str) -> [(Direction, String); 2] {
    [
        (
            C,
            format!(
                r#"{{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{{"name":"{name}"}}}}"#
            ),
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","id":2,"result":{"messages":[]}}"#.to_owned(),
        ),
    ]
}

#[test]
fn completion_for_a_listed_prompt_answered_with_a_result_is_not_reported() {
    let mut frames = handshake("2025-06-18");
    frames.extend([list_prompts(), (S, PROMPTS.to_owned())]);
    frames.extend(complete("review"));
    assert_eq!(reported(Revision::Mcp2025_06_18, COMPLETION, &frames), []);
}

#[test]
fn completion_for_a_prompt_before_any_list_is_not_reported() {
    let mut frames = handshake("2025-06-18");
    frames.extend(complete("anything"));
    assert_eq!(reported(Revision::Mcp2025_06_18, COMPLETION, &frames), []);
}

#[test]
fn completion_for_an_unlisted_prompt_answered_with_a_result_is_reported() {
    let mut frames = handshake("2025-06-18");
    frames.extend([list_prompts(), (S, PROMPTS.to_owned())]);
    frames.extend(complete("nope"));
    let found = reported(Revision::Mcp2025_06_18, COMPLETION, &frames);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, [5, 6]);
    assert!(
        found[0]
            .1
            .contains(r#"prompt "nope", which the latest `prompts/list` does not hold"#),
        "{}",
        found[0].1
    );
}

#[test]
fn a_list_changed_batched_before_the_prompt_list_leaves_that_list_current() {
    let mut frames = handshake("2025-03-26");
    frames.extend([
        list_prompts(),
        (
            S,
            format!(
                r#"[{{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}},{PROMPTS}]"#
            ),
        ),
    ]);
    frames.extend(get("nope"));
    let found = reported(Revision::Mcp2025_03_26, GET, &frames);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, [4, 5, 6]);
    assert!(
        found[0]
            .1
            .contains(r#"prompt "nope", which the list does not hold (listed at event 5)"#),
        "{}",
        found[0].1
    );
}

#[test]
fn a_list_changed_after_the_prompt_list_leaves_no_list_to_judge_by() {
    let mut frames = handshake("2025-03-26");
    frames.extend([
        list_prompts(),
        (S, PROMPTS.to_owned()),
        (
            S,
            r#"{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}"#.to_owned(),
        ),
    ]);
    frames.extend(get("nope"));
    assert_eq!(reported(Revision::Mcp2025_03_26, GET, &frames), []);
}

#[test]
fn a_list_changed_batched_after_the_prompt_list_leaves_no_list_to_judge_by() {
    let mut frames = handshake("2025-03-26");
    frames.extend([
        list_prompts(),
        (
            S,
            format!(
                r#"[{PROMPTS},{{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}}]"#
            ),
        ),
    ]);
    frames.extend(get("nope"));
    assert_eq!(reported(Revision::Mcp2025_03_26, GET, &frames), []);
}
