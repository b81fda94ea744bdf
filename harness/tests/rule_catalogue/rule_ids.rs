//! A rule id compared with the id a baseline or a vector spells: the runner matches
//! a finding to its baseline entry this way, so an id must equal its own spelling
//! and no other, or a known failure is reported as new (or a new one hidden).

use harness::rules::RuleId;

#[test]
fn a_rule_id_equals_its_spelling_and_no_other() {
    for id in RuleId::ALL {
        let spelled: &str = id.as_str();
        assert!(id == *spelled, "{id}");
        assert!(id == spelled, "{id}");
    }
    let [first, second, ..] = RuleId::ALL;
    assert!(first != *second.as_str(), "{first} vs {second}");
    assert!(first != second.as_str(), "{first} vs {second}");
}

/// Ambiguity A2 is the one rule said once per run rather than weighed by a
/// verdict (every view reads this note); no other rule has a run-level note.
#[test]
fn only_error_id_null_carries_a_run_level_ambiguity() {
    let noted: Vec<RuleId> = RuleId::ALL
        .into_iter()
        .filter(|r| r.run_level_ambiguity().is_some())
        .collect();
    assert_eq!(noted, [RuleId::McpBaseErrorIdNull]);
    let note = RuleId::McpBaseErrorIdNull.run_level_ambiguity().unwrap();
    assert!(
        note.starts_with("ambiguity A2 (mcp.base.error-id-null)"),
        "{note}"
    );
    assert!(note.contains("\"it MUST be Null\""), "{note}");
}

/// The rules an error response breaks by having no `id` member: the two an
/// HTTP refusal's idless body is allowed to break (`idless_error_allowed`),
/// and no other, or a proxy would drop a real finding.
#[test]
fn exactly_two_rules_are_broken_by_an_idless_error() {
    let idless: Vec<RuleId> = RuleId::ALL
        .into_iter()
        .filter(|r| r.broken_by_an_idless_error())
        .collect();
    assert_eq!(
        idless,
        [
            RuleId::JsonrpcResponseIdRequired,
            RuleId::McpBaseErrorIdAbsent
        ]
    );
}
