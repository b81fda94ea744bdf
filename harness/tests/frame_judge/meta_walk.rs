//! Where the `_meta` key rules look (`rules/meta.rs`, reached through
//! `harness::rules::validate`): every `_meta` object of MCP's own structure, at
//! any depth up to the walk's documented bound of 64 levels below `params` or
//! `result`, and not inside an elicitation's answers (the user's data).
//!
//! - MCP 2025-06-18 basic/index §General fields › `_meta` › Key name format
//!   (MUST): a name begins and ends with a letter or digit
//!   (`mcp.meta.name-format`).
//! - MCP 2025-06-18 client/elicitation §Response: `content` of an accepted
//!   elicitation holds the user's answers, keyed by the requested schema's
//!   property names, not MCP's structure.

use harness::rules;
use harness::{Direction, Profile, Revision};

/// `(rule, pointer)` of every `_meta` rule violation in `frame`, sent in
/// `direction` under 2025-06-18.
fn meta_findings(direction: Direction, frame: &str) -> Vec<(String, String)> {
    rules::validate(
        frame.as_bytes(),
        Profile {
            revision: Revision::Mcp2025_06_18,
            direction,
        },
    )
    .into_iter()
    .filter(|v| v.rule.as_str().starts_with("mcp.meta."))
    .map(|v| (v.rule.as_str().to_owned(), v.pointer))
    .collect()
}

/// A `ping` whose params nest `levels` objects (`{"x":{"x":…}}`) above an
/// object holding a `_meta` with a badly named key.
fn nested_meta(levels: usize) -> (String, String) {
    let open = r#"{"x":"#.repeat(levels);
    let close = "}".repeat(levels);
    let frame = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{open}{{"_meta":{{"-bad":1}}}}{close}}}"#
    );
    let pointer = format!("/params{}/_meta/-bad", "/x".repeat(levels));
    (frame, pointer)
}

#[test]
fn a_badly_named_meta_key_is_found_at_every_depth_up_to_the_bound() {
    for levels in [0, 1, 2, 63, 64] {
        let (frame, pointer) = nested_meta(levels);
        assert_eq!(
            meta_findings(Direction::ClientToServer, &frame),
            vec![("mcp.meta.name-format".to_owned(), pointer)],
            "a `_meta` {levels} levels below params"
        );
    }
}

#[test]
fn the_walk_stops_below_the_bound() {
    for levels in [65, 66, 100] {
        let (frame, _) = nested_meta(levels);
        assert_eq!(
            meta_findings(Direction::ClientToServer, &frame),
            vec![],
            "a `_meta` {levels} levels below params is past the walk's bound of 64"
        );
    }
}

#[test]
fn content_blocks_are_walked_and_an_elicitations_answers_are_not() {
    let tool_result = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi","_meta":{"-bad":1}}]}}"#;
    assert_eq!(
        meta_findings(Direction::ServerToClient, tool_result),
        vec![(
            "mcp.meta.name-format".to_owned(),
            "/result/content/0/_meta/-bad".to_owned()
        )],
        "a content block's `_meta` is MCP's"
    );
    let answers = r#"{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"note":{"_meta":{"-bad":1}}}}}"#;
    assert_eq!(
        meta_findings(Direction::ClientToServer, answers),
        vec![],
        "an elicitation's answers are the user's data"
    );
    let other_object =
        r#"{"jsonrpc":"2.0","id":1,"result":{"resource":{"uri":"file:///a","_meta":{"-bad":1}}}}"#;
    assert_eq!(
        meta_findings(Direction::ServerToClient, other_object),
        vec![(
            "mcp.meta.name-format".to_owned(),
            "/result/resource/_meta/-bad".to_owned()
        )],
        "an object member other than `content` is walked"
    );
}

/// A `ping` whose params hold `arrays` nested arrays (`{"x":[[…]]}`) around an
/// object holding a `_meta` with a badly named key; each array is a level too.
fn meta_in_arrays(arrays: usize) -> (String, String) {
    let frame = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"x":{}{{"_meta":{{"-bad":1}}}}{}}}}}"#,
        "[".repeat(arrays),
        "]".repeat(arrays)
    );
    let pointer = format!("/params/x{}/_meta/-bad", "/0".repeat(arrays));
    (frame, pointer)
}

#[test]
fn array_levels_count_toward_the_bound() {
    // params is level 0, `x`'s array level 1: the object inside `arrays`
    // arrays is at level `arrays + 1`.
    for arrays in [1, 2, 63] {
        let (frame, pointer) = meta_in_arrays(arrays);
        assert_eq!(
            meta_findings(Direction::ClientToServer, &frame),
            vec![("mcp.meta.name-format".to_owned(), pointer)],
            "a `_meta` inside {arrays} arrays"
        );
    }
    for arrays in [64, 80] {
        let (frame, _) = meta_in_arrays(arrays);
        assert_eq!(
            meta_findings(Direction::ClientToServer, &frame),
            vec![],
            "a `_meta` inside {arrays} arrays is past the walk's bound of 64"
        );
    }
}
