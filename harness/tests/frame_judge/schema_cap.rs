//! MCP 2026-07-28 basic/index §Composition-Keyword Resource Use (SHOULD):
//! implementations bound schema checking with "a cap on the total number of
//! subschemas". wirecheck counts a schema's JSON nodes, each local `$ref`
//! expanded once per path, and judges a schema of up to
//! [`EXPANDED_CAP`] nodes; past it, the value is not judged and the reason
//! says so. The count is exact at the boundary: every member counts.

use harness::schema_check::{conform, Verdict, EXPANDED_CAP};
use harness::Revision;
use serde_json::{json, Map, Value};

/// An object schema of exactly `nodes` JSON nodes: itself, `type`, and
/// annotation members (`x0`, `x1`, …) that constrain nothing.
fn schema_of(nodes: u64) -> Value {
    let mut members = Map::new();
    members.insert("type".into(), json!("object"));
    for i in 0..nodes - 2 {
        members.insert(format!("x{i}"), json!(0));
    }
    Value::Object(members)
}

#[test]
fn a_schema_of_exactly_the_cap_is_judged_and_one_node_more_is_not() {
    let revision = Revision::Mcp2025_11_25;
    let at_cap = schema_of(EXPANDED_CAP);
    assert_eq!(conform(&at_cap, &json!({}), revision), Verdict::Conforms);
    assert!(matches!(
        conform(&at_cap, &json!([]), revision),
        Verdict::Breaks(_)
    ));
    let Verdict::NotJudged(why) = conform(&schema_of(EXPANDED_CAP + 1), &json!({}), revision)
    else {
        panic!("a schema past the cap was judged");
    };
    assert!(
        why.contains("expands to more than 50000 subschemas"),
        "{why}"
    );
}

/// A `$ref` counts as the nodes of what it points at: 20 members each
/// pointing at a definition of 2,600 nodes is past the cap, though the
/// schema's own text has about 2,650 nodes.
#[test]
fn each_local_ref_counts_as_what_it_points_at() {
    let mut members = Map::new();
    members.insert("$defs".into(), json!({"big": schema_of(2_600)}));
    for i in 0..20 {
        members.insert(format!("p{i}"), json!({"$ref": "#/$defs/big"}));
    }
    let Verdict::NotJudged(why) = conform(
        &Value::Object(members.clone()),
        &json!({}),
        Revision::Mcp2025_11_25,
    ) else {
        panic!("a schema expanding past the cap was judged");
    };
    assert!(why.contains("too costly to judge"), "{why}");
    members.retain(|k, _| k == "$defs" || k.len() == 2);
    assert_eq!(
        conform(&Value::Object(members), &json!({}), Revision::Mcp2025_11_25),
        Verdict::Conforms
    );
}
