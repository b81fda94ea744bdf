//! MCP 2025-11-25 basic/index §JSON Schema Usage › Schema Dialect (MUST):
//! "Schemas MAY include an explicit `$schema` field to declare a different
//! dialect … Implementations MUST support at least 2020-12"; "When a schema
//! does not include a `$schema` field, it defaults to JSON Schema 2020-12".
//! A schema is judged in the dialect it declares, and each of the five the
//! `jsonschema` crate bundles is told apart: by name in what a breach says,
//! and by what only that dialect's meta-schema refuses.

use harness::schema_check::{conform, valid, Verdict};
use harness::Revision;
use serde_json::{json, Value};

const R: Revision = Revision::Mcp2025_11_25;

/// Each bundled dialect: its `$schema` URI and the name a breach gives it.
const DIALECTS: [(&str, &str); 5] = [
    ("http://json-schema.org/draft-04/schema#", "draft-04"),
    ("http://json-schema.org/draft-06/schema#", "draft-06"),
    ("http://json-schema.org/draft-07/schema#", "draft-07"),
    ("https://json-schema.org/draft/2019-09/schema", "2019-09"),
    ("https://json-schema.org/draft/2020-12/schema", "2020-12"),
];

fn why(verdict: Verdict) -> String {
    match verdict {
        Verdict::Breaks(b) => b.why,
        other => panic!("expected a breach, got {other:?}"),
    }
}

#[test]
fn a_value_breaking_a_declared_dialects_schema_names_that_dialect() {
    for (uri, name) in DIALECTS {
        let schema = json!({"$schema": uri, "type": "integer"});
        let why = why(conform(&schema, &json!("x"), R));
        assert!(
            why.ends_with(&format!("(JSON Schema {name})")),
            "{uri}: {why}"
        );
        assert_eq!(conform(&schema, &json!(3), R), Verdict::Conforms, "{uri}");
    }
}

#[test]
fn a_schema_breaking_its_declared_dialects_meta_schema_names_that_dialect() {
    for (uri, name) in DIALECTS {
        let schema = json!({"$schema": uri, "type": 5});
        let why = why(valid(&schema, R));
        assert!(
            why.ends_with(&format!("(JSON Schema {name})")),
            "{uri}: {why}"
        );
    }
}

/// What one meta-schema refuses and another accepts: draft-04's boolean
/// `exclusiveMinimum` (a number from draft-06 on), `$comment` (no keyword
/// before draft-07, a string from it on), and `additionalItems`,
/// a schema up to 2019-09 and no keyword in 2020-12.
#[test]
fn each_declared_dialect_is_judged_by_its_own_meta_schema() {
    let cases: [(Value, [bool; 5]); 3] = [
        (
            json!({"minimum": 1, "exclusiveMinimum": true}),
            [false, true, true, true, true],
        ),
        (json!({"$comment": 5}), [false, false, true, true, true]),
        (
            json!({"additionalItems": 5}),
            [true, true, true, true, false],
        ),
    ];
    for (members, refused) in cases {
        for ((uri, name), refused) in DIALECTS.into_iter().zip(refused) {
            let mut schema = members.clone();
            schema["$schema"] = json!(uri);
            let verdict = valid(&schema, R);
            assert_eq!(
                matches!(verdict, Verdict::Breaks(_)),
                refused,
                "{members} under {name}: {verdict:?}"
            );
        }
    }
}

/// A schema without `$schema` is 2020-12 from 2025-11-25 on; before, it is
/// read as draft-07 and 2020-12 and refused only when both refuse it.
#[test]
fn a_schema_without_schema_is_2020_12_from_2025_11_25_and_either_before() {
    let items = json!({"type": "array", "items": [{"type": "string"}]});
    assert!(matches!(valid(&items, R), Verdict::Breaks(_)));
    assert!(matches!(
        valid(&items, Revision::Mcp2026_07_28),
        Verdict::Breaks(_)
    ));
    assert_eq!(valid(&items, Revision::Mcp2025_06_18), Verdict::Conforms);
    let why = why(valid(&json!({"type": 5}), Revision::Mcp2025_06_18));
    assert!(why.ends_with("(JSON Schema draft-07)"), "{why}");
}

#[test]
fn an_unknown_dialect_is_not_judged_and_says_which() {
    let schema = json!({"$schema": "https://example.com/my-dialect", "type": "integer"});
    for verdict in [conform(&schema, &json!("x"), R), valid(&schema, R)] {
        let Verdict::NotJudged(why) = verdict else {
            panic!("{verdict:?}");
        };
        assert!(
            why.contains(
                r#""https://example.com/my-dialect" names a dialect wirecheck does not know"#
            ),
            "{why}"
        );
    }
}
