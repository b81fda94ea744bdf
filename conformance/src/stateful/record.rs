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
        record.wire = crate::driver::wire_frames(&self.log);
        record
    }
}
