//! What a record checked: a rule of the catalogue or a check no rule names,
//! typed, so a view or a baseline tells a rule's verdict from a note.

use harness::rules::Level;

/// What a record checked: a rule of the catalogue, or one of the few checks
/// no rule names (the runner's notes such as `stdio.peer-exited`, a fuzz
/// invariant, a vector judged by no rule), so a view or a baseline can tell
/// a rule's verdict from a note without parsing text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CheckId {
    /// A rule of the catalogue.
    Rule(harness::rules::RuleId),
    /// A check no rule of this wirecheck names, by its stable name.
    Other(String),
}

impl CheckId {
    /// The check named `text`: the rule with that id, else a check no rule
    /// names (a document may come from a wirecheck with other rules).
    #[must_use]
    pub fn parse(text: &str) -> CheckId {
        text.parse()
            .map_or_else(|_| CheckId::Other(text.to_owned()), CheckId::Rule)
    }

    /// The stable id as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            CheckId::Rule(rule) => rule.as_str(),
            CheckId::Other(name) => name,
        }
    }

    /// The rule, when the check is one.
    #[must_use]
    pub fn rule(&self) -> Option<harness::rules::RuleId> {
        match self {
            CheckId::Rule(rule) => Some(*rule),
            CheckId::Other(_) => None,
        }
    }
}

impl From<harness::rules::RuleId> for CheckId {
    fn from(rule: harness::rules::RuleId) -> Self {
        CheckId::Rule(rule)
    }
}

impl std::fmt::Display for CheckId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for CheckId {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for CheckId {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// For a rule-by-rule check (the session judge, the live runner): the one rule
/// this record is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// The rule's stable id, or the name of a check no rule names.
    pub rule: CheckId,
    /// Its level.
    pub level: Level,
    /// Where it is written (revision, page, section).
    pub spec: String,
}

#[cfg(test)]
mod check_id_tests {
    use super::*;
    use crate::{document, Command, Outcome, Place, Record, Report, Subject};
    use harness::rules::RuleId;

    /// A record's check is typed: a rule of the catalogue reads back as that
    /// rule, a note no rule names as itself, and both print their stable id.
    #[test]
    fn check_ids_tell_a_rule_from_a_note() {
        let rule = CheckId::parse("mcp.http.origin-403");
        assert_eq!(rule, CheckId::Rule(RuleId::McpHttpOrigin403));
        assert_eq!(rule.rule(), Some(RuleId::McpHttpOrigin403));
        let note = CheckId::parse("stdio.peer-exited");
        assert_eq!(note, CheckId::Other("stdio.peer-exited".into()));
        assert_eq!(note.rule(), None);
        assert_eq!(note.to_string(), "stdio.peer-exited");
        assert!(rule == "mcp.http.origin-403");
        // Compared with a name, as `&str` and as `str`: equal to its own only.
        assert!(rule == *"mcp.http.origin-403" && note == *"stdio.peer-exited");
        assert!(rule != *"stdio.peer-exited" && note != *"mcp.http.origin-403");
        assert!(rule != "stdio.peer-exited" && note != "mcp.http.origin-403");
    }

    #[test]
    fn the_run_document_reads_a_rule_check_back_as_the_rule() {
        let mut report = Report::new(Command::Run);
        let mut record = Record::new(Place::default(), Subject::Frame(Vec::new()), Outcome::Pass);
        record.check = Some(Check {
            rule: RuleId::McpPingRespond.into(),
            level: harness::rules::Level::Must,
            spec: "MCP 2025-11-25 basic/utilities/ping".into(),
        });
        report.records.push(record);
        let back = document::from_slice(&document::to_vec(&report)).unwrap();
        let check = back.records[0].check.as_ref().unwrap();
        assert_eq!(check.rule, CheckId::Rule(RuleId::McpPingRespond));
    }
}
