//! The golden vectors' self-check: what a vector promises against what the
//! codec and the rule model make of it, and, in an exchange, the judge's
//! verdict on the recorded reply against the violations the vector expects.

use std::collections::BTreeSet;

use harness::codes::{self, CodeRange};
use harness::fuzzing::{self, check_roundtrip};
use harness::lift;
use harness::rules::{self, Violation};

use super::{answer_codes, answer_fits, recorded, reply, Judgement};
use crate::vectors::{Codec, Reply, RuleId, Vector, Verdict};

/// What checking one vector found.
#[derive(Debug, Clone, PartialEq)]
pub struct Audit {
    /// Every broken promise, in words; empty when the vector holds.
    pub problems: Vec<String>,
    /// `validate` on the vector's frame, as its sender sent it.
    pub found: Vec<Violation>,
    /// The judge on the recorded reply, for an exchange vector whose frame lifts.
    pub reply: Option<Judgement>,
}

/// The mandatory rule ids among `vs`.
fn mandatory<'a>(vs: impl IntoIterator<Item = &'a Violation>) -> BTreeSet<RuleId> {
    vs.into_iter()
        .filter(|v| v.level.is_mandatory())
        .map(|v| v.rule.to_owned())
        .collect()
}

/// The non-mandatory rule ids among `vs`.
fn advisory<'a>(vs: impl IntoIterator<Item = &'a Violation>) -> BTreeSet<RuleId> {
    vs.into_iter()
        .filter(|v| !v.level.is_mandatory())
        .map(|v| v.rule.to_owned())
        .collect()
}

/// Checks `v` against the codec (the lossless round trip, the refusal it
/// names), the rule model (the rules it names, exactly the mandatory
/// violations it expects, its advisories), its answer (codes of its revision,
/// shaped for its frame) and, in an exchange, the judge's verdict on the reply.
#[must_use]
pub fn audit(v: &Vector) -> Audit {
    let mut problems = Vec::new();
    let revision = v.profile.revision;
    let found = rules::validate(&v.frame, v.profile);

    match check_roundtrip(&v.frame) {
        Err(f) => problems.push(format!("codec broke a promise: {f}")),
        Ok(outcome) => codec(v, &outcome, &mut problems),
    }

    // The rules the vector names: known to the model, applicable to the
    // profile, with the model's level and reference.
    for r in &v.rules {
        // A rule id that is not in the model does not deserialize.
        let info = r.id.info();
        if !info.applies_to(revision) {
            problems.push(format!("rule `{}` does not apply to {revision}", r.id));
        }
        if info.level != r.level || info.cite(revision) != r.spec {
            problems.push(format!(
                "rule `{}` is {} \"{}\" in the model, {} \"{}\" in the vector",
                r.id,
                info.level,
                info.cite(revision),
                r.level,
                r.spec
            ));
        }
    }

    let expected: BTreeSet<RuleId> = v.violations.iter().cloned().collect();
    let got = mandatory(&found);
    if got != expected {
        problems.push(format!(
            "mandatory violations: expected {expected:?}, validate reported {got:?}"
        ));
    }
    let advisories = advisory(&found);
    for a in &v.advisories {
        if !advisories.contains(a) {
            problems.push(format!("advisory `{a}` not reported (got {advisories:?})"));
        }
    }

    // Every code an answer names exists under the revision: a code the spec
    // defines for it, or one of the ranges left to implementations.
    if let Some(answer) = &v.answer {
        for code in answer_codes(answer) {
            let known = codes::lookup(code, revision).is_some()
                || matches!(
                    codes::range_of(code, revision),
                    CodeRange::ServerDefined | CodeRange::Application
                );
            if !known {
                problems.push(format!("answer code {code} is not a {revision} code"));
            }
        }
    }

    let lifted = lift(&v.frame).ok();
    if let (Some(frame), Some(answer)) = (&lifted, &v.answer) {
        // Only a clean frame is answered per element; a broken one gets an error.
        if v.verdict == Verdict::Accept && v.violations.is_empty() {
            if let Err(e) = answer_fits(frame, answer) {
                problems.push(e);
            }
        }
    }

    let mut judged = None;
    if let Some(exchange) = &v.exchange {
        if lifted.is_none() {
            problems.push("an exchange's request must lift".into());
        } else {
            if let Reply::Frame(text) = &exchange.reply {
                // The reply keeps every member through the codec too: error
                // `data`, unknown members and `_meta` are what SDKs dropped.
                if let Err(f) = check_roundtrip(text.as_bytes()) {
                    problems.push(format!("codec broke a promise on the reply: {f}"));
                }
            }
            let j = reply(v, &recorded(&exchange.reply));
            let expected: BTreeSet<RuleId> = exchange.violations.iter().cloned().collect();
            let got = mandatory(j.violations());
            if got != expected {
                problems.push(format!(
                    "reply violations: expected {expected:?}, reported {got:?}"
                ));
            }
            let advisories = advisory(j.violations());
            for a in &exchange.advisories {
                if !advisories.contains(a) {
                    problems.push(format!(
                        "reply advisory `{a}` not reported (got {advisories:?})"
                    ));
                }
            }
            judged = Some(j);
        }
    }

    Audit {
        problems,
        found,
        reply: judged,
    }
}

/// The refusal the vector names, or that it lifts.
fn codec(v: &Vector, outcome: &fuzzing::RoundTrip, problems: &mut Vec<String>) {
    match (&v.codec, outcome) {
        (Codec::Lifts, fuzzing::RoundTrip::Lifted(_)) => {}
        (Codec::Lifts, fuzzing::RoundTrip::Refused(r)) => {
            problems.push(format!("expected to lift, refused: {r}"));
        }
        (Codec::Refuses { .. }, fuzzing::RoundTrip::Lifted(_)) => {
            problems.push("expected a refusal, but the frame lifts".into());
        }
        (Codec::Refuses { rule, pointer }, fuzzing::RoundTrip::Refused(r)) => {
            if harness::rules::RuleId::from(r.rule()) != *rule || r.pointer() != pointer {
                problems.push(format!(
                    "expected refusal {rule} at `{pointer}`, got {} at `{}`",
                    r.rule().id(),
                    r.pointer()
                ));
            }
        }
    }
}
