//! Every normative sentence of the specifications, traced: the inventory
//! (`conformance/spec/inventory.json`, from `inventory.py`) and the mapping
//! (`conformance/spec/mapping.json`) must agree. A sentence without an entry, an
//! entry whose sentence no longer exists (the spec text changed: its hash did),
//! a rule id the model does not know, or a rule that does not apply to the
//! sentence's revision fails here. Whether the inventory itself is fresh is
//! `python3 conformance/spec/inventory.py --check` (in `.ci/run`): it needs the
//! spec pages, which this test does not.

#[path = "../spec/trace.rs"]
mod trace;

use trace::{Disposition, Entry, Status};

fn loaded() -> (trace::Inventory, trace::Mapping) {
    trace::load(&trace::spec_dir()).unwrap_or_else(|e| panic!("{e}"))
}

fn of_kind(problems: &[String], kind: &str) -> Vec<String> {
    problems
        .iter()
        .filter(|p| p.starts_with(&format!("{kind}:")))
        .cloned()
        .collect()
}

#[test]
fn every_sentence_has_an_entry() {
    let (inventory, mapping) = loaded();
    let unmapped = of_kind(&trace::problems(&inventory, &mapping), "unmapped");
    assert!(
        unmapped.is_empty(),
        "{} sentences lack an entry (`python3 conformance/spec/inventory.py --suggest` lists them with candidate rules):\n{}",
        unmapped.len(),
        unmapped.join("\n")
    );
}

#[test]
fn every_entry_names_a_sentence() {
    let (inventory, mapping) = loaded();
    let missing = of_kind(&trace::problems(&inventory, &mapping), "missing");
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn every_rule_is_known_checked_and_applies() {
    let (inventory, mapping) = loaded();
    let bad = of_kind(&trace::problems(&inventory, &mapping), "rule");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn nothing_else_is_wrong() {
    let (inventory, mapping) = loaded();
    let all = trace::problems(&inventory, &mapping);
    assert!(all.is_empty(), "{}", all.join("\n"));
}

#[test]
fn every_revision_is_inventoried_and_counts_add_up() {
    let (inventory, mapping) = loaded();
    for rev in harness::Revision::ALL {
        let c = trace::counts(&inventory, &mapping, rev);
        assert!(c.sentences > 0, "no sentence of {}", rev.name());
        let set_aside: usize = Disposition::SET_ASIDE
            .iter()
            .map(|d| c.set_aside.get(d).copied().unwrap_or(0))
            .sum();
        assert_eq!(set_aside, c.set_aside_total());
        assert_eq!(
            c.checked + set_aside + c.not_yet,
            c.sentences,
            "{}",
            rev.name()
        );
        assert!(c.by_kind.keys().all(|k| trace::KINDS.contains(k)));
    }
    // MCP pages are read with their line numbers; JSON-RPC's come from quotes.
    assert!(inventory
        .sentences
        .iter()
        .all(|s| s.line.is_some() == (s.revision != "jsonrpc-2.0")));
}

/// The checks themselves catch each kind of drift: a doctored copy of the
/// mapping must fail in exactly the ways it was doctored.
#[test]
fn doctored_mapping_is_caught() {
    let (inventory, mut mapping) = loaded();
    let r1 = inventory
        .sentences
        .iter()
        .find(|s| s.revision == "2024-11-05")
        .expect("a 2024-11-05 sentence")
        .id
        .clone();
    let r5 = inventory
        .sentences
        .iter()
        .find(|s| s.revision == "2026-07-28")
        .expect("a 2026-07-28 sentence")
        .id
        .clone();
    let dropped = inventory.sentences[0].id.clone();
    mapping.sentences.remove(&dropped);
    mapping.sentences.insert(
        "2025-06-18/basic/index#gone/0000000000".into(),
        Entry {
            disposition: Some(Disposition::NotYetChecked),
            ..Entry::default()
        },
    );
    let rules = |ids: &[&str]| Entry {
        rules: ids.iter().map(|s| (*s).to_owned()).collect(),
        ..Entry::default()
    };
    // mcp.base.id-unique-session applies to 2024-11-05..2025-11-25, not 2026-07-28.
    mapping
        .sentences
        .insert(r5.clone(), rules(&["mcp.base.id-unique-session"]));
    mapping
        .sentences
        .insert(r1.clone(), rules(&["mcp.no-such-rule"]));
    let problems = trace::problems(&inventory, &mapping);
    assert_eq!(of_kind(&problems, "unmapped").len(), 1, "{problems:#?}");
    assert!(of_kind(&problems, "unmapped")[0].contains(&dropped));
    assert_eq!(of_kind(&problems, "missing").len(), 1, "{problems:#?}");
    let rule = of_kind(&problems, "rule");
    assert!(rule
        .iter()
        .any(|p| p.contains(&r1) && p.contains("unknown rule")));
    assert!(rule
        .iter()
        .any(|p| p.contains(&r5) && p.contains("does not apply to 2026-07-28")));
    assert_eq!(
        trace::status(mapping.sentences.get(&r5)),
        Status::Checked(["session"].into_iter().collect())
    );
}
