//! MCP 2025-06-18 server/utilities/logging §Error Handling (SHOULD): "Servers
//! SHOULD return standard JSON-RPC errors for common failure cases: Invalid
//! log level: `-32602` (Invalid params)" (`mcp.logging.invalid-level`). A
//! `logging/setLevel` naming no log level is owed -32602: an error with
//! another code breaks the rule at that code, a result at the answer; a
//! known level is owed nothing.

use crate::support::exchange;
use harness::{Direction, Revision};

const RULE: &str = "mcp.logging.invalid-level";

/// `(pointer, message)` of each finding of the rule on `logging/setLevel`
/// for `level` answered by `reply` (id 1).
fn judged(level: &str, reply: &str) -> Vec<(String, String)> {
    let request = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{{"level":"{level}"}}}}"#
    );
    exchange(
        Revision::Mcp2025_06_18,
        Direction::ClientToServer,
        &request,
        reply,
    )
    .into_iter()
    .filter(|v| v.rule.as_str() == RULE)
    .map(|v| (v.pointer, v.message))
    .collect()
}

fn error(code: i64) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":{code},"message":"no"}}}}"#)
}

const RESULT: &str = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;

#[test]
fn an_unknown_level_refused_with_invalid_params_is_not_reported() {
    assert_eq!(judged("loud", &error(-32602)), []);
}

#[test]
fn an_unknown_level_refused_with_another_code_is_reported_at_the_code() {
    let found = judged("loud", &error(-32600));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "/error/code");
    assert!(
        found[0].1.contains(r#"asked for log level "loud""#)
            && found[0].1.ends_with("answered with code -32600"),
        "{}",
        found[0].1
    );
}

#[test]
fn an_unknown_level_accepted_is_reported_at_the_answer() {
    let found = judged("loud", RESULT);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "");
    assert!(
        found[0].1.ends_with("answered with a result"),
        "{}",
        found[0].1
    );
}

#[test]
fn a_known_level_is_owed_nothing_whatever_the_answer() {
    assert_eq!(judged("debug", RESULT), []);
    assert_eq!(judged("debug", &error(-32600)), []);
}
