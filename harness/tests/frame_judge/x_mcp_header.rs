//! Where the `x-mcp-header` rule looks in a `tools/list` result's input schema
//! (MCP 2026-07-28 server/tools §x-mcp-header, MUST: a value "MUST NOT be
//! empty" and "MUST only be applied to properties that are statically
//! reachable from the schema root"; basic/transports/streamable-http §Custom
//! Headers from Tool Parameters defines that as "reachable via a chain
//! consisting solely of `properties` keys. The chain MUST NOT pass through
//! `items` (or any other array keyword), composition keywords (`oneOf`,
//! `anyOf`, `allOf`, `not`) ...").
//!
//! A property chain is statically reachable however deep it goes, so a bad
//! annotation deep in a schema is reported where it is; the walk is bounded
//! (`rules/tool_headers.rs`, 32 nested schemas) so a schema built to nest
//! without end costs a bounded walk, and past the bound nothing is judged. An
//! annotation inside a composition keyword's array is found and reported as
//! unreachable.

use harness::rules;
use harness::{lift, Direction, Profile, Revision};

const RULE: &str = "mcp.r5.tools.x-mcp-header";

/// The `x-mcp-header` violations (pointer, message) for a `tools/list` answer
/// whose one tool has input schema `schema`.
fn violations(schema: &str) -> Vec<(String, String)> {
    let request = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let reply = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{{"name":"route","inputSchema":{schema}}}],"resultType":"complete","ttlMs":60000,"cacheScope":"public"}}}}"#
    );
    let request = lift(request).expect("the request lifts");
    let reply = lift(reply.as_bytes()).expect("the reply lifts");
    let profile = Profile {
        revision: Revision::Mcp2026_07_28,
        direction: Direction::ClientToServer,
    };
    rules::validate_reply(&request, Some(&reply), profile)
        .into_iter()
        .filter(|v| v.rule.as_str() == RULE)
        .map(|v| (v.pointer, v.message))
        .collect()
}

/// The pointers reported for a schema nesting `depth` object properties `a`,
/// the innermost a string property with an empty `x-mcp-header`.
fn reported(depth: usize) -> Vec<String> {
    let mut schema = r#"{"type":"string","x-mcp-header":""}"#.to_owned();
    for _ in 0..depth {
        schema = format!(r#"{{"type":"object","properties":{{"a":{schema}}}}}"#);
    }
    violations(&schema).into_iter().map(|(p, _)| p).collect()
}

#[test]
fn a_bad_header_deep_in_a_schema_is_reported_where_it_is() {
    let pointer = format!(
        "/result/tools/0/inputSchema{}/x-mcp-header",
        "/properties/a".repeat(32)
    );
    assert_eq!(reported(32), [pointer]);
    assert_eq!(
        reported(1),
        ["/result/tools/0/inputSchema/properties/a/x-mcp-header"]
    );
}

#[test]
fn past_the_walk_bound_nothing_is_judged() {
    assert_eq!(reported(33), Vec::<String>::new());
    assert_eq!(reported(40), Vec::<String>::new());
}

#[test]
fn a_header_inside_a_composition_is_unreachable() {
    for keyword in ["anyOf", "allOf", "oneOf"] {
        let schema = format!(
            r#"{{"type":"object","{keyword}":[{{"type":"object","properties":{{"region":{{"type":"string","x-mcp-header":"Region"}}}}}}]}}"#
        );
        let got = violations(&schema);
        assert_eq!(got.len(), 1, "{keyword}: {got:?}");
        assert_eq!(
            got[0].0,
            format!("/result/tools/0/inputSchema/{keyword}/0/properties/region/x-mcp-header")
        );
        assert!(
            got[0].1.contains("not statically reachable"),
            "{}",
            got[0].1
        );
    }
}

/// The bound counts every nesting, a composition keyword's array and each
/// schema in it included: an annotation under 16 nested `allOf`s sits 32 deep
/// and is judged (unreachable), one under 17 is past the bound.
#[test]
fn the_walk_bound_counts_array_nesting_too() {
    let nested = |levels: usize| {
        let mut schema = r#"{"type":"string","x-mcp-header":"Region"}"#.to_owned();
        for _ in 0..levels {
            schema = format!(r#"{{"allOf":[{schema}]}}"#);
        }
        violations(&schema)
    };
    let got = nested(16);
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].1.contains("not statically reachable"),
        "{}",
        got[0].1
    );
    assert_eq!(nested(17), []);
}

/// The spec's own example shape: headers on a top-level property and on a
/// nested object's property, both reached through `properties` alone.
#[test]
fn valid_headers_on_reachable_properties_are_clean() {
    let schema = r#"{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"target":{"type":"object","properties":{"priority":{"type":"integer","x-mcp-header":"Priority"},"dry":{"type":"boolean","x-mcp-header":"Dry-Run"}}}}}"#;
    assert_eq!(violations(schema), []);
}

/// Object-valued keywords other than `properties` hold schemas too, none of
/// them on a statically reachable chain: `not` (a composition keyword) and
/// `$defs` (reached only through `$ref`).
#[test]
fn a_header_under_not_or_defs_is_unreachable() {
    for (keyword, inner) in [
        (
            "not",
            r#"{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}"#,
        ),
        (
            "$defs",
            r#"{"region":{"type":"string","x-mcp-header":"Region"}}"#,
        ),
    ] {
        let schema = format!(r#"{{"type":"object","{keyword}":{inner}}}"#);
        let got = violations(&schema);
        assert_eq!(got.len(), 1, "{keyword}: {got:?}");
        assert!(
            got[0].1.contains("not statically reachable"),
            "{keyword}: {}",
            got[0].1
        );
    }
}

/// `const`, `default`, `enum` and `examples` hold instance data: an object in
/// them with an `x-mcp-header` member is an argument value, not a schema.
#[test]
fn header_shaped_data_is_not_judged() {
    let schema = r#"{"type":"object","properties":{"opts":{"type":"object","default":{"x-mcp-header":""},"examples":[{"x-mcp-header":"a b"}],"const":{"x-mcp-header":1},"enum":[{"x-mcp-header":""}]}}}"#;
    assert_eq!(violations(schema), []);
}

/// Each constraint of §x-mcp-header on the value, with the reason a user reads.
#[test]
fn each_bad_value_is_reported_with_its_reason() {
    let property = |annotation: &str, kind: &str| {
        format!(
            r#"{{"type":"object","properties":{{"p":{{"type":"{kind}","x-mcp-header":{annotation}}}}}}}"#
        )
    };
    for (annotation, kind, reason) in [
        (r#""""#, "string", "is empty"),
        (r#""Re\rgion""#, "string", "contains a control character"),
        (r#""Re gion""#, "string", "is not an HTTP token"),
        (r#""Re:gion""#, "string", "is not an HTTP token"),
        ("7", "string", "not a string"),
        (r#""Region""#, "number", "not integer, string or boolean"),
    ] {
        let got = violations(&property(annotation, kind));
        assert_eq!(got.len(), 1, "{annotation} on {kind}: {got:?}");
        assert_eq!(
            got[0].0,
            "/result/tools/0/inputSchema/properties/p/x-mcp-header"
        );
        assert!(
            got[0].1.contains(reason),
            "{annotation} on {kind}: {}",
            got[0].1
        );
    }
    for token in ["Region", "X-Trace_id.v2", "a!#$%&'*+-.^_`|~9"] {
        assert_eq!(
            violations(&property(&format!(r#""{token}""#), "string")),
            [],
            "{token}"
        );
    }
}

/// "MUST be case-insensitively unique among all `x-mcp-header` values in the
/// `inputSchema`".
#[test]
fn a_header_name_repeated_in_any_case_is_reported_at_the_repeat() {
    let schema = r#"{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"REGION"}}}"#;
    let got = violations(schema);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        got[0].0,
        "/result/tools/0/inputSchema/properties/b/x-mcp-header"
    );
    assert!(
        got[0].1.contains(
            "repeats the header at /result/tools/0/inputSchema/properties/a/x-mcp-header"
        ),
        "{}",
        got[0].1
    );
}
