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
