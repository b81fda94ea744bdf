//! Progress tokens as the session judge follows them (MCP 2025-06-18
//! basic/utilities/progress §Progress Flow, MUST: "Progress notifications MUST only
//! reference tokens that … are associated with an in-progress operation"). A token
//! is a JSON value: the same string in another spelling (`"p\u0031"` for `"p1"`,
//! RFC 8259 §7) or the same integer (`7.0` for `7`: the schema's `"integer"`, and
//! JSON Schema 2020-12 counts a zero fractional part as an integer; ids are matched
//! the same way) is the same token, and a peer that respells it must not get a
//! finding.

use harness::rules::RuleId;
use harness::session::{Event, Finding, Judge};
use harness::{Direction, Revision};

fn judge(frames: &[(Direction, &str)]) -> Vec<Finding> {
    let mut judge = Judge::session_rules_only(Revision::Mcp2025_06_18);
    let mut out = Vec::new();
    for (from, frame) in frames {
        let event = Event::Frame {
            from: *from,
            bytes: frame.as_bytes(),
        };
        judge.feed(event, None, &mut out);
    }
    out
}

fn progress_for(token: &str, request_token: &str) -> Vec<Finding> {
    let request = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"slow","_meta":{{"progressToken":{request_token}}}}}}}"#
    );
    let progress = format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{token},"progress":1}}}}"#
    );
    judge(&[
        (
            Direction::ClientToServer,
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        ),
        (
            Direction::ServerToClient,
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#,
        ),
        (
            Direction::ClientToServer,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ),
        (Direction::ClientToServer, &request),
        (Direction::ServerToClient, &progress),
    ])
}

#[test]
fn a_respelled_token_is_the_same_token() {
    for (request_token, token) in [
        (r#""p1""#, r#""p1""#),
        (r#""p1""#, r#""p\u0031""#),
        ("7", "7"),
        ("7", "7.0"),
    ] {
        let found = progress_for(token, request_token);
        assert!(found.is_empty(), "{token} for {request_token}: {found:?}");
    }
}

#[test]
fn progress_for_another_token_is_reported() {
    for (request_token, token) in [
        (r#""p1""#, r#""p2""#),
        // A string that spells the number is another token.
        ("7", r#""7""#),
        ("7", "8"),
    ] {
        let found = progress_for(token, request_token);
        let rules: Vec<RuleId> = found.iter().map(|f| f.violation.rule).collect();
        assert_eq!(
            rules,
            [RuleId::McpProgressActiveTokenOnly],
            "{token} for {request_token}"
        );
    }
}
