//! What several modules of this binary need: a session judged frame by frame,
//! and expected `(rule, pointer)` pairs written as string literals.

use harness::session::{Event, Finding, Judge};
use harness::{Direction, Revision};

/// Every finding of a `revision` session judge fed `frames` in order, each
/// at its time when it has one.
pub fn findings<'a>(
    revision: Revision,
    frames: impl IntoIterator<Item = (Direction, &'a str, Option<f64>)>,
) -> Vec<Finding> {
    let mut judge = Judge::new(revision);
    let mut out = Vec::new();
    for (from, frame, time) in frames {
        judge.feed(
            Event::Frame {
                from,
                bytes: frame.as_bytes(),
            },
            time,
            &mut out,
        );
    }
    out
}

/// A `revision` session judge fed `frames` in order (no times), and what it
/// found: call [`Judge::finish`] on it for what only the end decides.
pub fn fed<'a>(
    revision: Revision,
    frames: impl IntoIterator<Item = (Direction, &'a str)>,
) -> (Judge, Vec<Finding>) {
    let mut judge = Judge::new(revision);
    let mut out = Vec::new();
    for (from, frame) in frames {
        judge.feed(
            Event::Frame {
                from,
                bytes: frame.as_bytes(),
            },
            None,
            &mut out,
        );
    }
    (judge, out)
}

/// The findings of `rule` in a `revision` session fed `frames`, each as
/// (event indices, message).
pub fn reported(
    revision: Revision,
    rule: &str,
    frames: &[(Direction, String)],
) -> Vec<(Vec<u64>, String)> {
    findings(revision, frames.iter().map(|(d, f)| (*d, f.as_str(), None)))
        .into_iter()
        .filter(|f| f.violation.rule.as_str() == rule)
        .map(|f| {
            (
                f.frames.iter().map(|a| a.index).collect(),
                f.violation.message,
            )
        })
        .collect()
}

/// Expected `(rule, pointer)` pairs, owned, to compare with what was reported.
pub fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(r, p)| ((*r).to_owned(), (*p).to_owned()))
        .collect()
}

/// Every violation of the exchange `request` → `reply`, the request sent from
/// `from` under `revision`.
#[track_caller]
pub fn exchange(
    revision: Revision,
    from: Direction,
    request: &str,
    reply: &str,
) -> Vec<harness::rules::Violation> {
    harness::rules::validate_reply(
        &harness::lift(request.as_bytes()).expect("the request lifts"),
        Some(&harness::lift(reply.as_bytes()).expect("the reply lifts")),
        harness::Profile {
            revision,
            direction: from,
        },
    )
}
