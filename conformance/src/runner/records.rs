//! The records the runner files for a vector's answer and a revision's
//! negotiation: the check each names (the rule that gave the verdict), its
//! place, and the wire log it rests on.

use harness::rules::{Level, RuleId, Violation};
use harness::{Outcome, Revision};

use super::observe::Observation;
use super::{http_judge, Wire};
use crate::driver::Driver;
use crate::judge;
use crate::report::{Check, CheckId, Place, Record, Subject};
use crate::transcript::Frame;
use crate::transport::Kind;
use crate::vectors::{Basis, Vector};

/// The record of `vector`'s answer: the verdict `seen` decided, else the
/// judge's, with the notes on how the answer was read.
#[expect(
    clippy::too_many_arguments,
    reason = "each a fact of the probe's exchange, named at the call"
)]
pub(super) fn answer_record(
    vector: &Vector,
    revision: Revision,
    transport: Kind,
    seen: Observation,
    judgement: &judge::Judgement,
    slow: Option<String>,
    findings: &[crate::transport::http::HttpFinding],
    wire: Vec<Frame>,
) -> Record {
    // The judge's mismatches explain its verdict; where what was seen
    // decided instead (a -32020 refusal, silence that shows nothing), they
    // would contradict the record.
    let decided_before = seen.decided.is_some();
    let outcome = seen.decided.unwrap_or_else(|| judgement.outcome.clone());
    let mut record = vector_record(vector, revision, outcome, transport);
    let violations: Vec<Violation> = if decided_before {
        Vec::new()
    } else {
        judgement.weighed().cloned().collect()
    };
    record.check = Some(answer_check(
        vector,
        revision,
        &record.outcome,
        !judgement.mismatches.is_empty(),
        &violations,
    ));
    record.violations = Some(violations);
    record.ambiguities.clone_from(&judgement.ambiguities);
    record.notes = judgement
        .mismatches
        .iter()
        .filter(|_| !decided_before)
        .chain(&judgement.notes)
        .cloned()
        .collect();
    record.notes.extend(seen.refusal);
    record.notes.extend(seen.gathered);
    record.notes.extend(seen.mismatch);
    record.notes.extend(slow);
    record
        .notes
        .extend(findings.iter().map(http_judge::describe));
    record.wire = wire;
    record
}

/// A vector's record: the vector is the check, named by the first rule it
/// exercises (its level and where it is written), so every finding carries
/// a rule id, a level and a spec reference even when nothing broke.
pub(super) fn vector_record(
    vector: &Vector,
    revision: Revision,
    outcome: Outcome,
    transport: Kind,
) -> Record {
    let mut record = Record::new(
        place(vector, revision, transport),
        Subject::Frame(vector.frame.clone()),
        outcome,
    );
    record.check = Some(vector_check(vector));
    record
}

/// The check of an answer judged against `vector`: the rule whose level gave
/// the `outcome`, so a record never shows a SHOULD rule failing or a MUST rule
/// warning. A fail or a warning is headed by the rule that mandates the answer
/// (its basis) when the reply departed from it (`answer_departed`) and its
/// level is the verdict's, else by the most severe of the `violations` at the
/// verdict's level. Any other record, a pass included, by the basis, else the
/// most severe violation, else the vector's first rule. The first rule alone
/// would name what the *request* breaks (`mcp.base.id-not-null` for a request
/// with a null id), not what the peer's answer is held to.
pub(super) fn answer_check(
    vector: &Vector,
    revision: Revision,
    outcome: &Outcome,
    answer_departed: bool,
    violations: &[Violation],
) -> Check {
    let gave_verdict = |level: Level| match outcome {
        Outcome::Fail => level.is_mandatory(),
        Outcome::Warning => matches!(level, Level::Should | Level::ShouldNot),
        _ => false,
    };
    let basis = match &vector.basis {
        Some(Basis::MandatedBy { rule, level }) => {
            let spec = vector
                .rules
                .iter()
                .find(|r| r.id == *rule)
                .map_or_else(|| rule.info().cite(revision).to_owned(), |r| r.spec.clone());
            Some(Check {
                rule: (*rule).into(),
                level: *level,
                spec,
            })
        }
        _ => None,
    };
    if matches!(outcome, Outcome::Fail | Outcome::Warning) {
        if let Some(b) = basis
            .as_ref()
            .filter(|b| answer_departed && gave_verdict(b.level))
        {
            return b.clone();
        }
        if let Some(v) = violations
            .iter()
            .filter(|v| gave_verdict(v.level))
            .min_by_key(|v| v.level)
        {
            return Check {
                rule: v.rule.into(),
                level: v.level,
                spec: v.spec.into(),
            };
        }
    }
    if let Some(b) = basis {
        return b;
    }
    // `Level` orders strongest first; the first of equals is kept.
    if let Some(v) = violations.iter().min_by_key(|v| v.level) {
        return Check {
            rule: v.rule.into(),
            level: v.level,
            spec: v.spec.into(),
        };
    }
    vector_check(vector)
}

pub(super) fn vector_check(vector: &Vector) -> Check {
    match vector.rules.first() {
        Some(rule) => Check {
            rule: rule.id.into(),
            level: rule.level,
            spec: rule.spec.clone(),
        },
        None => Check {
            rule: CheckId::Vector(vector.id.clone()),
            level: Level::Must,
            spec: vector.description.clone(),
        },
    }
}

pub(super) fn place(vector: &Vector, revision: Revision, transport: Kind) -> Place {
    Place {
        vector: Some(vector.id.clone()),
        revision: Some(revision),
        transport: Some(transport.into()),
        ..Place::default()
    }
}

/// The id of a revision's negotiation check, for baselines.
#[must_use]
pub fn negotiation_id(revision: Revision) -> String {
    format!("run/{revision}/negotiation")
}

pub(super) fn negotiation_record(
    revision: Revision,
    outcome: Outcome,
    subject: Vec<u8>,
    rule: RuleId,
    transport: Kind,
) -> Record {
    let mut record = Record::new(
        Place {
            vector: Some(negotiation_id(revision)),
            revision: Some(revision),
            transport: Some(transport.into()),
            ..Place::default()
        },
        Subject::Frame(subject),
        outcome,
    );
    record.check = Some(Check {
        rule: rule.into(),
        level: rule.info().level,
        spec: rule.info().cite(revision).into(),
    });
    record
}

/// The frames of the driver's wire log from entry `from` on.
pub(super) fn wire_since(driver: &Driver<Wire>, from: usize) -> Vec<Frame> {
    crate::driver::wire_frames(&driver.log()[from.min(driver.log().len())..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn violation(rule: RuleId) -> Violation {
        Violation {
            rule,
            level: rule.info().level,
            spec: rule.info().cite(Revision::Mcp2025_06_18),
            pointer: String::new(),
            message: "m".into(),
        }
    }

    /// A false finding once seen: a record's heading is the rule whose level gave its
    /// verdict. A batch vector whose answer a SHOULD mandates, failed by a
    /// MUST that rides along, is headed by that MUST, not by a SHOULD row
    /// "failing"; a departure from the SHOULD answer alone is headed by it.
    #[test]
    fn the_heading_rule_is_the_one_that_gave_the_verdict() {
        let vector = crate::vectors::embedded()
            .0
            .into_iter()
            .find(|v| v.id == "mcp/2025-06-18/batch/batch")
            .expect("the shipped batch vector");
        let must = violation(RuleId::McpBaseResponseIdMatch);
        let should = violation(RuleId::McpBatchAcceptedAfterRemoval);
        let r = Revision::Mcp2025_06_18;
        let failed = answer_check(&vector, r, &Outcome::Fail, true, &[should.clone(), must]);
        assert_eq!(
            (failed.rule.as_str(), failed.level),
            ("mcp.base.response-id-match", Level::Must)
        );
        let warned = answer_check(&vector, r, &Outcome::Warning, true, &[should]);
        assert_eq!(
            (warned.rule.as_str(), warned.level),
            ("mcp.batch.refused-after-removal", Level::Should)
        );
        let passed = answer_check(&vector, r, &Outcome::Pass, false, &[]);
        assert_eq!(passed.rule, "mcp.batch.refused-after-removal");
    }
}
