//! The session judge's verdicts as records: one per [`Finding`] (a fail or a
//! warning, by the rule's level) and one per [`Unobserved`] check. Every command
//! that runs the session judge (`check`, `proxy`, `run`'s own sessions, the
//! client judge) reports through these, so a finding reads the same wherever it
//! was made: the place is the frame where it became certain, and a note lists
//! every frame involved.

use harness::session::{At, Finding, Unobserved};
use harness::{Outcome, Revision};

use super::{Check, Place, Record, Subject};

/// Where a finding is: the file (or conversation) and the frame where it
/// became certain.
fn place(file: &str, revision: Revision, frames: &[At]) -> Place {
    Place {
        file: Some(file.to_owned()),
        frame: frames.last().and_then(|a| usize::try_from(a.index).ok()),
        revision: Some(revision),
        ..Place::default()
    }
}

/// The frames involved, for a person: `#3 (t=0.500s), #7`, counted from 1
/// as every view for a person counts them ([`Place::frame_number`]); the
/// record's `frame` stays the 0-based index.
fn involved(frames: &[At]) -> String {
    let each: Vec<String> = frames
        .iter()
        .map(|a| match a.time {
            Some(t) => format!("#{} (t={t:.3}s)", a.number()),
            None => format!("#{}", a.number()),
        })
        .collect();
    format!("frames involved: {}", each.join(", "))
}

/// A finding, as a record: a fail when its rule is a MUST (or MUST NOT), a
/// warning at SHOULD (or SHOULD NOT), a pass with a note at MAY (what the
/// text leaves to the implementer breaks no keyword: the same weight `run`
/// gives it); `subject` is the frame that made it certain, when known.
pub fn finding(file: &str, revision: Revision, f: &Finding, subject: Vec<u8>) -> Record {
    let v = &f.violation;
    let outcome = match v.level {
        level if level.is_mandatory() => Outcome::Fail,
        harness::rules::Level::May => Outcome::Pass,
        _ => Outcome::Warning,
    };
    let mut record = Record::new(
        place(file, revision, &f.frames),
        Subject::Frame(subject),
        outcome,
    );
    record.check = Some(Check {
        rule: v.rule.into(),
        level: v.level,
        spec: v.spec.into(),
    });
    record.violations = Some(vec![v.clone()]);
    if v.level == harness::rules::Level::May {
        record
            .notes
            .push(format!("{} is a MAY: no keyword is broken", v.rule));
    }
    record.notes.push(involved(&f.frames));
    record
}

/// A check the conversation gave nothing to judge: "not observed", with why,
/// never a pass.
pub fn unobserved(file: &str, revision: Revision, u: &Unobserved) -> Record {
    let info = u.rule.info();
    let mut record = Record::new(
        place(file, revision, &u.frames),
        Subject::Frame(Vec::new()),
        Outcome::NotObserved { why: u.why.clone() },
    );
    record.check = Some(Check {
        rule: u.rule.into(),
        level: info.level,
        spec: info.cite(revision).into(),
    });
    record.notes.push(involved(&u.frames));
    record
}

/// What the report says of a conversation Ctrl-C cut short after `frames`
/// frames: judged up to there, the rest never read, so no verdict on it
/// (the command exits 2). What was still owed when it stopped is "not
/// observed", as when a capture simply ends.
pub fn interrupted(file: &str, frames: usize) -> Record {
    let why = format!(
        "{} after {frames} frame(s): judged up to there; what came after was not read",
        ground::interrupt::INTERRUPTED
    );
    let mut record = Record::new(
        Place {
            file: Some(file.to_owned()),
            ..Place::default()
        },
        Subject::Frame(Vec::new()),
        Outcome::NotObserved { why: why.clone() },
    );
    // The note carries the why for every view (the JSON view's `outcome`
    // is the outcome's alone).
    record.notes.push(why);
    record
}

/// The error of a command Ctrl-C stopped while it judged `name`: exit 2.
#[must_use]
pub fn interrupted_error(name: &str, frames: usize) -> String {
    format!(
        "{} after {frames} frame(s) of {name}: the report holds what was judged before; it is not whole",
        ground::interrupt::INTERRUPTED
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::rules::{Level, RuleId, Violation};

    fn weighed(rule: RuleId) -> Outcome {
        let f = Finding {
            violation: Violation {
                rule,
                level: rule.info().level,
                spec: "s",
                pointer: String::new(),
                message: "m".into(),
            },
            frames: vec![At {
                index: 0,
                time: None,
            }],
        };
        finding("f", Revision::Mcp2025_06_18, &f, Vec::new()).outcome
    }

    /// `check`, `proxy` and client
    /// judging weigh a finding by its level as `run` does; a MAY (a codec
    /// limit, `jsonrpc.method-with-response`) is no warning.
    #[test]
    fn a_finding_weighs_as_its_level() {
        assert_eq!(RuleId::JsonDepthLimit.info().level, Level::May);
        assert_eq!(weighed(RuleId::JsonDepthLimit), Outcome::Pass);
        assert_eq!(weighed(RuleId::McpErrorInvalidCursor), Outcome::Warning);
        assert_eq!(weighed(RuleId::JsonrpcResponseRequired), Outcome::Fail);
    }
}
