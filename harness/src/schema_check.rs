//! JSON Schema as MCP uses it: a schema a message carries (a tool's
//! `inputSchema` and `outputSchema`, an elicitation's `requestedSchema`),
//! judged against its dialect's meta-schema, and a value judged against a
//! schema, both with the `jsonschema` crate.
//!
//! **The dialect** (2025-11-25 and 2026-07-28 basic/index §JSON Schema Usage ›
//! Schema Dialect): the one `$schema` declares, else JSON Schema 2020-12
//! ("When a schema does not include a `$schema` field, it defaults to JSON
//! Schema 2020-12"). Earlier revisions name no default (2025-06-18, which
//! brought `outputSchema`, says only "JSON Schema"; its own `schema.json` is
//! draft-07), so there a schema without `$schema` is read both as draft-07 and
//! as 2020-12, and only what both refuse is refused: a breach under every
//! dialect the revision can mean is certain, one under a single dialect is not.
//!
//! **Not judged, never passed or failed:** a `$schema` naming a dialect the
//! crate does not bundle (draft-04, -06, -07, 2019-09 and 2020-12 are), and,
//! for a value, a schema that does not compile: above all one whose `$ref`
//! does not resolve inside the schema. Nothing is fetched: the crate is built
//! without its HTTP and file resolvers (`default-features = false`), so a
//! remote `$ref` fails to resolve and the value is not judged, with the
//! reason (2026-07-28 basic/index §`$ref` Resolution: "Implementations MUST
//! NOT automatically dereference `$ref` values that resolve to a network
//! URI"). Formats are judged as the dialect says: annotations in 2019-09 and
//! 2020-12, assertions before.
//!
//! **Bounded:** the schema is the peer's text, and a few local `$ref`s that
//! each apply the next definition twice make a small schema whose checking
//! doubles per definition. A schema whose subschemas, counted with every
//! local `$ref` expanded once, pass [`EXPANDED_CAP`] is not judged (2026-07-28
//! basic/index §Composition-Keyword Resource Use asks implementations to
//! bound this: "a maximum schema depth, a cap on the total number of
//! subschemas"). The meta-schema check needs no bound: its schema is fixed
//! and the value is a bounded frame.
//!
//! The harness stays free of I/O: a validator is built from the schema in
//! hand and the crate's bundled meta-schemas only.

use std::collections::{HashMap, HashSet};

use jsonschema::Draft;
use serde_json::Value;

use crate::profile::Revision;

/// Where a value (or a schema, against its meta-schema) breaks the schema
/// judged against: a JSON Pointer into the value, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Breach {
    /// Into the value judged (RFC 6901), `""` for the value itself.
    pub pointer: String,
    /// What is wrong, in words (the value's own text left out).
    pub why: String,
}

/// What judging a value against a schema found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The value conforms (under some dialect the revision can mean).
    Conforms,
    /// The value breaks the schema.
    Breaks(Breach),
    /// The schema could not be read: the reason, never a pass or a fail.
    NotJudged(String),
}

/// The longest `why` kept: the crate's messages quote schema fragments, and
/// the schema is the peer's text.
const WHY_CAP: usize = 300;

/// The dialects a schema is read in under `revision`: the declared one, the
/// revision's default, or (a revision naming none) draft-07 and 2020-12.
/// `Err` names a declared dialect the crate does not know.
fn dialects(schema: &Value, revision: Revision) -> Result<&'static [Draft], String> {
    match schema.get("$schema") {
        Some(Value::String(uri)) => match Draft::from_schema_uri(uri) {
            Draft::Draft4 => Ok(&[Draft::Draft4]),
            Draft::Draft6 => Ok(&[Draft::Draft6]),
            Draft::Draft7 => Ok(&[Draft::Draft7]),
            Draft::Draft201909 => Ok(&[Draft::Draft201909]),
            Draft::Draft202012 => Ok(&[Draft::Draft202012]),
            _ => Err(format!(
                "`$schema` {:?} names a dialect wirecheck does not know (it knows draft-04, -06, -07, 2019-09 and 2020-12)",
                capped(uri)
            )),
        },
        // A `$schema` that is no string is read in the default dialect, whose
        // meta-schema refuses it.
        _ if default_named(revision) => Ok(&[Draft::Draft202012]),
        _ => Ok(&[Draft::Draft7, Draft::Draft202012]),
    }
}

/// Whether `revision` names a default dialect (basic/index §Schema Dialect,
/// from 2025-11-25).
fn default_named(revision: Revision) -> bool {
    revision >= Revision::Mcp2025_11_25
}

fn name(draft: Draft) -> &'static str {
    match draft {
        Draft::Draft4 => "draft-04",
        Draft::Draft6 => "draft-06",
        Draft::Draft7 => "draft-07",
        Draft::Draft201909 => "2019-09",
        _ => "2020-12",
    }
}

fn capped(text: &str) -> String {
    match text.char_indices().nth(WHY_CAP) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

fn breach(error: &jsonschema::ValidationError<'_>, draft: Draft) -> Breach {
    Breach {
        pointer: error.instance_path().as_str().to_owned(),
        why: format!(
            "{} (JSON Schema {})",
            capped(&error.masked().to_string()),
            name(draft)
        ),
    }
}

/// The most subschemas a schema judged against a value may expand to (see
/// the module docs): real tool schemas hold tens to a few thousand.
pub const EXPANDED_CAP: u64 = 50_000;

/// The JSON nodes of `root` with each local `$ref` (`#/…`) counted as the
/// nodes of its target, each target counted once per path that reaches it,
/// a reference back into a target being expanded counted as one node (that
/// recursion is bounded by the value's depth). Each node is walked once (a
/// target's count is remembered), so the cost is the schema's size however
/// large the count; the count saturates at `u64::MAX`.
fn expanded(root: &Value) -> u64 {
    fn walk(
        root: &Value,
        node: &Value,
        pointer: &str,
        memo: &mut HashMap<String, u64>,
        open: &mut HashSet<String>,
    ) -> u64 {
        if let Some(&n) = memo.get(pointer) {
            return n;
        }
        if !open.insert(pointer.to_owned()) {
            return 1;
        }
        let mut n: u64 = 1;
        let child = |token: &str,
                     v: &Value,
                     memo: &mut HashMap<String, u64>,
                     open: &mut HashSet<String>| {
            if v.is_object() || v.is_array() {
                let mut here = pointer.to_owned();
                crate::error::push_token(&mut here, token);
                walk(root, v, &here, memo, open)
            } else {
                1
            }
        };
        match node {
            Value::Object(members) => {
                for (key, v) in members {
                    let target = matches!(key.as_str(), "$ref" | "$dynamicRef" | "$recursiveRef")
                        .then(|| v.as_str().and_then(|r| r.strip_prefix('#')))
                        .flatten()
                        .and_then(|p| root.pointer(p).map(|t| (p, t)));
                    n = n.saturating_add(match target {
                        Some((p, t)) => walk(root, t, p, memo, open),
                        None => child(key, v, memo, open),
                    });
                }
            }
            Value::Array(elements) => {
                for (i, v) in elements.iter().enumerate() {
                    n = n.saturating_add(child(&i.to_string(), v, memo, open));
                }
            }
            _ => {}
        }
        open.remove(pointer);
        memo.insert(pointer.to_owned(), n);
        n
    }
    walk(root, root, "", &mut HashMap::new(), &mut HashSet::new())
}

/// `value` judged against `schema` under `revision` (see the module docs for
/// the dialect and what is not judged).
#[must_use]
pub fn conform(schema: &Value, value: &Value, revision: Revision) -> Verdict {
    let drafts = match dialects(schema, revision) {
        Ok(d) => d,
        Err(why) => return Verdict::NotJudged(why),
    };
    if expanded(schema) > EXPANDED_CAP {
        return Verdict::NotJudged(format!(
            "the schema expands to more than {EXPANDED_CAP} subschemas through its `$ref`s: too costly to judge"
        ));
    }
    let mut first = None;
    for &draft in drafts {
        let validator = match jsonschema::options().with_draft(draft).build(schema) {
            Ok(v) => v,
            Err(e) => {
                return Verdict::NotJudged(format!(
                    "the schema cannot be read as JSON Schema {} (wirecheck fetches no `$ref`): {}",
                    name(draft),
                    capped(&e.to_string())
                ))
            }
        };
        match validator.validate(value) {
            Ok(()) => return Verdict::Conforms,
            Err(e) => {
                first.get_or_insert_with(|| breach(&e, draft));
            }
        }
    }
    first.map_or(Verdict::Conforms, Verdict::Breaks)
}

/// `schema` judged against its dialect's meta-schema under `revision`: a
/// [`Verdict::Breaks`] points into the schema.
#[must_use]
pub fn valid(schema: &Value, revision: Revision) -> Verdict {
    let drafts = match dialects(schema, revision) {
        Ok(d) => d,
        Err(why) => return Verdict::NotJudged(why),
    };
    let mut first = None;
    for &draft in drafts {
        let outcome = match draft {
            Draft::Draft4 => jsonschema::draft4::meta::validate(schema),
            Draft::Draft6 => jsonschema::draft6::meta::validate(schema),
            Draft::Draft7 => jsonschema::draft7::meta::validate(schema),
            Draft::Draft201909 => jsonschema::draft201909::meta::validate(schema),
            _ => jsonschema::draft202012::meta::validate(schema),
        };
        match outcome {
            Ok(()) => return Verdict::Conforms,
            Err(e) => {
                first.get_or_insert_with(|| breach(&e, draft));
            }
        }
    }
    first.map_or(Verdict::Conforms, Verdict::Breaks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const R4: Revision = Revision::Mcp2025_11_25;
    const R3: Revision = Revision::Mcp2025_06_18;

    fn breaks_at(verdict: Verdict) -> Option<String> {
        match verdict {
            Verdict::Breaks(b) => Some(b.pointer),
            _ => None,
        }
    }

    #[test]
    fn the_keywords_a_partial_validator_skipped_are_judged() {
        let schema = json!({
            "type": "object",
            "$defs": {"celsius": {"type": "number", "minimum": -273.15}},
            "properties": {
                "temperature": {"$ref": "#/$defs/celsius"},
                "unit": {"anyOf": [{"const": "C"}, {"const": "F"}]},
                "readings": {"type": "array", "items": {"type": "integer"}, "maxItems": 2}
            },
            "required": ["temperature"]
        });
        assert_eq!(
            conform(&schema, &json!({"temperature": 22.5}), R4),
            Verdict::Conforms
        );
        assert_eq!(
            breaks_at(conform(&schema, &json!({"temperature": -300}), R4)),
            Some("/temperature".into())
        );
        assert_eq!(
            breaks_at(conform(
                &schema,
                &json!({"temperature": 1, "unit": "K"}),
                R4
            )),
            Some("/unit".into())
        );
        assert_eq!(
            breaks_at(conform(
                &schema,
                &json!({"temperature": 1, "readings": [1, 2.5]}),
                R4
            )),
            Some("/readings/1".into())
        );
        assert_eq!(
            breaks_at(conform(&schema, &json!({"unit": "C"}), R4)),
            Some(String::new())
        );
    }

    #[test]
    fn a_remote_ref_is_not_fetched_and_not_judged() {
        let schema =
            json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}});
        let Verdict::NotJudged(why) = conform(&schema, &json!({"a": 1}), R4) else {
            panic!("a remote $ref was judged");
        };
        assert!(why.contains("example.com"), "{why}");
        let schema = json!({"$ref": "#/$defs/missing"});
        assert!(matches!(
            conform(&schema, &json!(1), R4),
            Verdict::NotJudged(_)
        ));
    }

    #[test]
    fn the_declared_dialect_decides() {
        // `items` as an array is draft-07's tuple form; 2020-12 spells it `prefixItems`.
        let tuple = json!({"type": "array", "items": [{"type": "string"}]});
        let declared = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "array", "items": [{"type": "string"}]});
        assert_eq!(
            breaks_at(conform(&declared, &json!([1]), R4)),
            Some("/0".into())
        );
        assert!(
            matches!(valid(&tuple, R4), Verdict::Breaks(_)),
            "2020-12 by default"
        );
        assert_eq!(valid(&declared, R4), Verdict::Conforms);
        let unknown = json!({"$schema": "https://example.com/my-dialect", "type": "object"});
        assert!(matches!(valid(&unknown, R4), Verdict::NotJudged(_)));
        assert!(matches!(
            conform(&unknown, &json!(1), R4),
            Verdict::NotJudged(_)
        ));
    }

    #[test]
    fn a_revision_naming_no_dialect_refuses_only_what_both_refuse() {
        // `dependentRequired` is 2020-12's; draft-07 ignores it.
        let schema = json!({"type": "object", "dependentRequired": {"a": ["b"]}});
        assert_eq!(conform(&schema, &json!({"a": 1}), R3), Verdict::Conforms);
        assert!(matches!(
            conform(&schema, &json!({"a": 1}), R4),
            Verdict::Breaks(_)
        ));
        assert_eq!(
            breaks_at(conform(&schema, &json!([]), R3)),
            Some(String::new())
        );
    }

    #[test]
    fn a_schema_that_doubles_through_its_refs_is_not_judged() {
        // d0 applies d1 twice, d1 applies d2 twice, …: 2^40 checks for a few hundred bytes.
        let mut defs = serde_json::Map::new();
        for i in 0..40 {
            let next = json!({"$ref": format!("#/$defs/d{}", i + 1)});
            defs.insert(format!("d{i}"), json!({"allOf": [next.clone(), next]}));
        }
        defs.insert("d40".into(), json!({"type": "number"}));
        let schema = json!({"$defs": defs, "$ref": "#/$defs/d0"});
        assert!(expanded(&schema) > EXPANDED_CAP);
        let Verdict::NotJudged(why) = conform(&schema, &json!("x"), R4) else {
            panic!("a doubling schema was judged");
        };
        assert!(why.contains("too costly"), "{why}");
        // Shared definitions reached once each, and recursion, stay small.
        let tree = json!({"$defs": {"node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
                          "$ref": "#/$defs/node"});
        assert!(expanded(&tree) < 100, "{}", expanded(&tree));
        assert_eq!(
            conform(&tree, &json!({"kids": [{"kids": []}]}), R4),
            Verdict::Conforms
        );
        assert!(matches!(
            conform(&tree, &json!({"kids": [{"kids": 1}]}), R4),
            Verdict::Breaks(_)
        ));
    }

    #[test]
    fn meta_schema_breaches_point_into_the_schema() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "strnig"}}});
        assert_eq!(
            breaks_at(valid(&schema, R4)),
            Some("/properties/a/type".into())
        );
        assert_eq!(
            valid(&json!({"type": "object", "required": ["a"]}), R4),
            Verdict::Conforms
        );
        assert_eq!(
            breaks_at(valid(&json!({"$schema": 7, "type": "object"}), R4)),
            Some("/$schema".into())
        );
    }
}
