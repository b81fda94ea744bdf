//! A confirmed (or suspected) finding as a report record: the one place a
//! fuzz finding becomes a [`Record`], for `fuzz` and `replay` alike.

use harness::{Outcome, Revision};

use super::{Confirmation, Finding};
use crate::report::{Check, Place, Record, Subject};
use crate::transport::Kind;

impl Finding {
    /// This finding as a report record.
    #[must_use]
    pub fn record(&self, revision: Revision, transport: Kind, file: Option<String>) -> Record {
        let breach = &self.breach;
        let outcome = match &self.confirmation {
            // Listed, with why, and never counted: not the exit code, not the
            // findings of the closing tally.
            Confirmation::Suspected { why, .. } => Outcome::NotObserved {
                why: format!("suspected, not counted: {why}"),
            },
            _ if breach.level.is_mandatory() => Outcome::Fail,
            _ => Outcome::Warning,
        };
        let mut record = Record::new(
            Place {
                file,
                vector: Some(format!("fuzz/{}/{}", breach.kind.name(), self.shape)),
                frame: Some(usize::try_from(self.index).unwrap_or(usize::MAX)),
                revision: Some(revision),
                transport: Some(transport.into()),
                line: None,
            },
            Subject::Frame(self.frames.last().cloned().unwrap_or_default()),
            outcome,
        );
        record.check = Some(Check {
            rule: breach.rule.map_or(
                crate::report::OwnCheck::Fuzz(breach.kind).into(),
                crate::report::CheckId::Rule,
            ),
            level: breach.level,
            spec: breach.spec.clone(),
        });
        record.notes.push(breach.detail.clone());
        if let Some(rule) = breach.rule {
            record
                .notes
                .push(format!("spec: \"{}\"", rule.info().quote));
        }
        record.notes.push(match &self.confirmation {
            Confirmation::Minimized => format!(
                "confirmed on a fresh peer; {} frame(s) after minimizing",
                self.frames.len()
            ),
            Confirmation::CutShort => format!(
                "confirmed on a fresh peer; {} frame(s), not fully minimized: the time ran out while shrinking",
                self.frames.len()
            ),
            Confirmation::Unshrunk(why) => format!(
                "confirmed on a fresh peer; {} frame(s) as sent, not shrunk: {why}",
                self.frames.len()
            ),
            Confirmation::AsFound(why) => format!("counted as it happened: {why}"),
            Confirmation::Suspected { .. } => format!(
                "{} frame(s) as sent in the fuzz session; `wirecheck replay` plays them again",
                self.frames.len()
            ),
        });
        if self.counts() && !self.defect.is_empty() {
            record
                .notes
                .push(format!("defect: {}", self.defect.replace('|', " · ")));
        }
        record.wire = crate::driver::wire_frames(&self.log);
        record
    }
}

/// The record of a fuzz run as a whole (`vector`, e.g. `fuzz/2025-11-25`),
/// for when no finding stands for it: a run cut short is no clean bill, so
/// it says what it could not reach in `note`.
#[must_use]
pub fn whole_run(
    vector: String,
    revision: Revision,
    transport: Kind,
    outcome: Outcome,
    note: String,
) -> Record {
    let mut record = Record::new(
        Place {
            vector: Some(vector),
            revision: Some(revision),
            transport: Some(transport.into()),
            ..Place::default()
        },
        Subject::Frame(Vec::new()),
        outcome,
    );
    record.notes.push(note);
    record
}
