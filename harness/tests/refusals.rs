//! Every refusal kind: its code, its rule, its JSON Pointer, and for text that is
//! not JSON its line and column.

use harness::{lift, lift_with, Limits, Rule};

#[track_caller]
fn refused(frame: &[u8], code: i64, rule: &str, pointer: &str) -> harness::Refusal {
    let refusal = lift(frame).expect_err("must be refused");
    assert_eq!(
        (refusal.code(), refusal.rule().id(), refusal.pointer()),
        (code, rule, pointer),
        "{refusal}\n  frame: {}",
        String::from_utf8_lossy(frame)
    );
    assert_eq!(
        harness::fuzzing::check_refusal(frame).map(|r| r.is_some()),
        Ok(true)
    );
    refusal
}

#[test]
fn text_that_is_not_json_is_a_parse_error_with_line_and_column() {
    let r = refused(
        b"{\"jsonrpc\":\"2.0\",\n \"id\": 1,,}",
        -32700,
        "json.syntax",
        "",
    );
    assert_eq!((r.line(), r.column()), (2, 10));
    assert_eq!(
        r.to_string(),
        "parse error (-32700) [json.syntax]: unexpected character `,` (line 2, column 10; RFC 8259 §2)"
    );
    refused(b"", -32700, "json.syntax", "");
    refused(b"   ", -32700, "json.syntax", "");
    refused(
        b"{\"jsonrpc\":\"2.0\",\"method\":\"x\"} {}",
        -32700,
        "json.syntax",
        "",
    );
    refused(b"[1,2", -32700, "json.syntax", "");
    let r = refused(b"{\"a\":\"\xff\"}", -32700, "json.utf8", "");
    assert_eq!(r.offset(), 6);
    // A later syntax error wins over an earlier invalid member: only JSON gets -32600.
    refused(b"{\"jsonrpc\":\"1.0\",\"id\":}", -32700, "json.syntax", "");
}

#[test]
fn limits_are_refusals_not_crashes() {
    let deep = "[".repeat(10_000);
    refused(deep.as_bytes(), -32700, "json.depth-limit", "");
    let deep_params = format!(
        r#"{{"jsonrpc":"2.0","method":"x","params":{}{}}}"#,
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    refused(deep_params.as_bytes(), -32700, "json.depth-limit", "");
    let limits = Limits {
        max_frame_bytes: 10,
        ..Limits::default()
    };
    let r = lift_with(br#"{"jsonrpc":"2.0","method":"x"}"#, &limits).unwrap_err();
    assert_eq!(r.rule(), Rule::JsonFrameTooLarge);
}

#[test]
fn json_that_is_not_a_message_is_an_invalid_request() {
    refused(b"1", -32600, "jsonrpc.frame-type", "");
    refused(b"\"x\"", -32600, "jsonrpc.frame-type", "");
    refused(b"[]", -32600, "jsonrpc.batch-empty", "");
    refused(b" [ ] ", -32600, "jsonrpc.batch-empty", "");
    refused(b"[1,2,3]", -32600, "jsonrpc.frame-type", "/0");
    refused(
        br#"[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"},[]]"#,
        -32600,
        "jsonrpc.frame-type",
        "/2",
    );
    refused(br#"{"method":"x"}"#, -32600, "jsonrpc.version-missing", "");
    refused(
        br#"{"jsonrpc":"1.0","method":"x"}"#,
        -32600,
        "jsonrpc.version-invalid",
        "/jsonrpc",
    );
    refused(
        br#"{"jsonrpc":2.0,"method":"x"}"#,
        -32600,
        "jsonrpc.version-invalid",
        "/jsonrpc",
    );
    refused(
        br#"{"jsonrpc":"2.0 ","method":"x"}"#,
        -32600,
        "jsonrpc.version-invalid",
        "/jsonrpc",
    );
    refused(
        br#"{"jsonrpc":"2.0","method":1}"#,
        -32600,
        "jsonrpc.method-type",
        "/method",
    );
    refused(
        br#"{"jsonrpc":"2.0","method":null,"id":1}"#,
        -32600,
        "jsonrpc.method-type",
        "/method",
    );
    refused(
        br#"{"jsonrpc":"2.0","method":"x","id":{}}"#,
        -32600,
        "jsonrpc.id-type",
        "/id",
    );
    refused(
        br#"{"jsonrpc":"2.0","method":"x","id":true}"#,
        -32600,
        "jsonrpc.id-type",
        "/id",
    );
    refused(
        br#"{"jsonrpc":"2.0","result":1,"id":[1]}"#,
        -32600,
        "jsonrpc.id-type",
        "/id",
    );
    refused(
        br#"{"jsonrpc":"2.0","method":"x","params":"a"}"#,
        -32600,
        "jsonrpc.params-type",
        "/params",
    );
    refused(
        br#"{"jsonrpc":"2.0","method":"x","params":null}"#,
        -32600,
        "jsonrpc.params-type",
        "/params",
    );
    refused(
        br#"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":""}}"#,
        -32600,
        "jsonrpc.result-and-error",
        "/error",
    );
    refused(
        br#"{"jsonrpc":"2.0","id":1,"method":"x","result":1}"#,
        -32600,
        "jsonrpc.method-with-response",
        "/result",
    );
    refused(
        br#"{"jsonrpc":"2.0","id":1,"method":"x","error":{}}"#,
        -32600,
        "jsonrpc.method-with-response",
        "/error",
    );
    refused(
        br#"{"jsonrpc":"2.0","id":1}"#,
        -32600,
        "jsonrpc.kind-missing",
        "",
    );
    refused(
        br#"{"jsonrpc":"2.0","result":1}"#,
        -32600,
        "jsonrpc.response-id-missing",
        "",
    );
    refused(
        br#"{"jsonrpc":"2.0","id":1,"error":"boom"}"#,
        -32600,
        "jsonrpc.error-type",
        "/error",
    );
    refused(
        br#"{"jsonrpc":"2.0","id":1,"error":{"message":"m"}}"#,
        -32600,
        "jsonrpc.error-code",
        "/error/code",
    );
    refused(
        br#"{"jsonrpc":"2.0","id":1,"error":{"code":"1","message":"m"}}"#,
        -32600,
        "jsonrpc.error-code",
        "/error/code",
    );
    refused(
        br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32600.0,"message":"m"}}"#,
        -32600,
        "jsonrpc.error-code",
        "/error/code",
    );
    refused(
        br#"{"jsonrpc":"2.0","id":1,"error":{"code":1e3,"message":"m"}}"#,
        -32600,
        "jsonrpc.error-code",
        "/error/code",
    );
    refused(
        br#"{"jsonrpc":"2.0","id":1,"error":{"code":9223372036854775808,"message":"m"}}"#,
        -32600,
        "jsonrpc.error-code",
        "/error/code",
    );
    refused(
        br#"{"jsonrpc":"2.0","id":1,"error":{"code":1}}"#,
        -32600,
        "jsonrpc.error-message",
        "/error/message",
    );
    refused(
        br#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":null}}"#,
        -32600,
        "jsonrpc.error-message",
        "/error/message",
    );
    refused(
        br#"[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":{},"method":"b"}]"#,
        -32600,
        "jsonrpc.id-type",
        "/1/id",
    );
}

#[test]
fn duplicate_envelope_members_are_ambiguous() {
    refused(
        br#"{"jsonrpc":"2.0","id":1,"id":2,"method":"x"}"#,
        -32600,
        "jsonrpc.duplicate-member",
        "/id",
    );
    refused(
        br#"{"jsonrpc":"2.0","id":1,"\u0069d":2,"method":"x"}"#,
        -32600,
        "jsonrpc.duplicate-member",
        "/id",
    );
    refused(
        br#"{"jsonrpc":"2.0","x":1,"x":2,"method":"x"}"#,
        -32600,
        "jsonrpc.duplicate-member",
        "/x",
    );
    refused(
        br#"{"jsonrpc":"2.0","a/b":1,"a/b":2,"method":"x"}"#,
        -32600,
        "jsonrpc.duplicate-member",
        "/a~1b",
    );
    refused(
        br#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"code":2,"message":""}}"#,
        -32600,
        "jsonrpc.duplicate-member",
        "/error/code",
    );
    // Deeper down, duplicates are data, kept as they came.
    assert!(lift(br#"{"jsonrpc":"2.0","method":"x","params":{"a":1,"a":2}}"#).is_ok());
}

#[test]
fn every_rule_is_tested_here() {
    let source = include_str!("refusals.rs");
    for rule in Rule::ALL {
        assert!(
            source.contains(&format!("\"{}\"", rule.id())) || rule == Rule::JsonFrameTooLarge,
            "{rule} has no test"
        );
    }
}

/// `lift` finds duplicates by field for modelled names and among extras only for
/// the rest (linear, then hashed past 16 members): each path, with escapes, and
/// the batch element's pointer built only when refusing.
#[test]
fn duplicates_are_found_on_every_path() {
    refused(
        br#"{"jsonrpc":"2.0","x":1,"method":"x","\u0078":2}"#,
        -32600,
        "jsonrpc.duplicate-member",
        "/x",
    );
    refused(
        br#"{"jsonrpc":"2.0","m\u0065thod":"a","id":1,"method":"b"}"#,
        -32600,
        "jsonrpc.duplicate-member",
        "/method",
    );
    refused(
        br#"[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"a","p":1,"p":2}]"#,
        -32600,
        "jsonrpc.duplicate-member",
        "/1/p",
    );
    let many: Vec<String> = (0..20).map(|i| format!("\"m{i}\":{i}")).collect();
    let frame = format!(
        r#"{{"jsonrpc":"2.0","method":"a",{},"\u006d3":0}}"#,
        many.join(",")
    );
    refused(frame.as_bytes(), -32600, "jsonrpc.duplicate-member", "/m3");
    // An extra named like a modelled error member is no duplicate of it.
    assert!(lift(br#"{"jsonrpc":"2.0","method":"a","code":1,"message":"m"}"#).is_ok());
}
