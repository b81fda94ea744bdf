//! A stateful finding as a report record: the rule broken, where the spec
//! says it, the story of the shortest sequence that broke it, and the wire
//! log of the run that confirmed it, filed as `fuzz` files its findings so
//! that they fold into defects the same way (one rule broken, one defect).

use harness::{Outcome, Revision};

use super::{Confirmation, Finding};
use crate::report::{Check, CheckId, Place, Record, Subject};
use crate::transport::Kind;

impl Finding {
    /// This finding as a report record.
    #[must_use]
    pub fn record(&self, revision: Revision, transport: Kind) -> Record {
        let rule = self.breach.rule;
        let info = rule.info();
        let outcome = match &self.confirmation {
            Confirmation::Suspected(why) => Outcome::NotObserved {
                why: format!("suspected, not counted: {why}"),
            },
            _ if info.level.is_mandatory() => Outcome::Fail,
            _ => Outcome::Warning,
        };
        let last_sent = crate::driver::wire_frames(&self.log)
            .into_iter()
            .rev()
            .find(|f| f.from == harness::Direction::ClientToServer)
            .map(|f| f.bytes)
            .unwrap_or_default();
        let mut record = Record::new(
            Place {
                vector: Some(format!("fuzz/stateful/{rule}")),
                frame: Some(self.story.len()),
                revision: Some(revision),
                transport: Some(transport.into()),
                ..Place::default()
            },
            Subject::Frame(last_sent),
            outcome,
        );
        record.check = Some(Check {
            rule: CheckId::Rule(rule),
            level: info.level,
            spec: info.cite(revision).to_owned(),
        });
        record.notes.push(self.breach.detail.clone());
        record.notes.push(format!("spec: \"{}\"", info.sentence()));
        record
            .notes
            .push(format!("story: {}", self.story.join("  ")));
        let ops: Vec<String> = self.ops.iter().map(harness::stateful::Op::label).collect();
        record.notes.push(match &self.confirmation {
            Confirmation::Minimized => format!(
                "confirmed on a fresh peer; {} operation(s) in {} session(s) after shrinking from {} (sequence seed {}): {}",
                self.ops.len(), self.sessions, self.found_after, self.seed, ops.join(", ")
            ),
            Confirmation::CutShort => format!(
                "confirmed on a fresh peer; {} operation(s) in {} session(s), not fully shrunk (sequence seed {}): {}",
                self.ops.len(), self.sessions, self.seed, ops.join(", ")
            ),
            Confirmation::Suspected(_) => format!(
                "{} operation(s) (sequence seed {}): {}",
                self.ops.len(), self.seed, ops.join(", ")
            ),
        });
        if self.counts() {
            // One rule broken by a sequence is one defect, whatever story
            // showed it: the key `fuzz` findings fold by.
            record.notes.push(format!("defect: stateful · {rule}"));
        }
        record.wire = crate::driver::wire_frames(&self.log);
        record
    }
}

#[cfg(test)]
mod tests {
    use harness::rules::RuleId;
    use harness::stateful::{Breach, Op};

    use super::*;
    use crate::report::{Command, Report};

    fn finding(rule: RuleId, confirmation: Confirmation) -> Finding {
        Finding {
            breach: Breach {
                rule,
                detail: "seen".into(),
            },
            ops: vec![Op::EndSession, Op::ReuseEnded],
            story: vec![
                "1. DELETE session `s` → HTTP 204".into(),
                "2. ping with the ended session's id `s` → HTTP 200".into(),
            ],
            found_after: 32,
            sessions: 1,
            confirmation,
            log: Vec::new(),
            seed: 3,
        }
    }

    #[test]
    fn a_finding_is_a_record_of_its_rule_at_its_level_with_its_story() {
        let revision = Revision::Mcp2025_11_25;
        let must = finding(RuleId::McpHttpSessionTerminated404, Confirmation::Minimized)
            .record(revision, Kind::STREAMABLE_HTTP);
        assert_eq!(must.outcome, Outcome::Fail);
        let check = must.check.as_ref().unwrap();
        assert_eq!(
            check.rule,
            CheckId::Rule(RuleId::McpHttpSessionTerminated404)
        );
        assert!(check.spec.contains("2025-11-25"), "{}", check.spec);
        assert!(
            must.notes.iter().any(|n| n.starts_with("story: 1. DELETE")),
            "{:?}",
            must.notes
        );
        assert!(must
            .notes
            .iter()
            .any(|n| n.contains("2 operation(s) in 1 session(s) after shrinking from 32")));
        let should = finding(RuleId::McpListsItemsUnique, Confirmation::Minimized)
            .record(revision, Kind::Stdio);
        assert_eq!(should.outcome, Outcome::Warning);
        // Suspected: listed, never counted.
        let suspected = finding(
            RuleId::McpListsItemsUnique,
            Confirmation::Suspected("gone".into()),
        )
        .record(revision, Kind::Stdio);
        assert!(matches!(suspected.outcome, Outcome::NotObserved { .. }));
        assert!(!suspected.notes.iter().any(|n| n.starts_with("defect: ")));
    }

    #[test]
    fn findings_of_one_rule_fold_into_one_defect() {
        let revision = Revision::Mcp2025_06_18;
        let mut report = Report::new(Command::Fuzz);
        for _ in 0..2 {
            report.records.push(
                finding(RuleId::McpHttpSessionTerminated404, Confirmation::Minimized)
                    .record(revision, Kind::STREAMABLE_HTTP),
            );
        }
        report.records.push(
            finding(RuleId::McpListsItemsUnique, Confirmation::Minimized)
                .record(revision, Kind::STREAMABLE_HTTP),
        );
        let defects = crate::report::defects(&report);
        assert_eq!(defects.len(), 2, "{defects:?}");
    }
}
