//! What a record found, in the one wording the views share, and the
//! violations that recur across records, named once.

use harness::rules::{Level, Violation};
use harness::Outcome;

use super::model::Report;
use super::record::{Place, Record};

/// What a record found, one line per item, every peer-supplied byte made
/// printable: why it was not decided (not observed, not applicable), the rule
/// checked, each violation or the refusal, and the notes. The one wording the
/// terminal, JUnit and Markdown views share (each escapes it for its own
/// format on top).
#[must_use]
pub fn findings(record: &Record) -> Vec<String> {
    use super::text::printable_str;
    let mut lines = Vec::new();
    if let Some(why) = record.outcome.reason() {
        lines.push(printable_str(why));
    }
    if let Some(check) = &record.check {
        lines.push(format!(
            "{} {} ({})",
            check.level.name(),
            printable_str(check.rule.as_str()),
            printable_str(&check.spec)
        ));
    }
    match (&record.violations, &record.refusal) {
        (Some(violations), _) => lines.extend(violations.iter().map(|v| {
            format!(
                "{} {}{}: {} ({})",
                v.level.name(),
                printable_str(rule_id(v)),
                super::text::at_pointer(&v.pointer),
                printable_str(&v.message),
                printable_str(v.spec)
            )
        })),
        (None, Some(r)) => lines.push(format!(
            "refused {} {}{} (line {}, column {}): {} ({})",
            r.code,
            r.rule,
            super::text::at_pointer(&r.pointer),
            r.line,
            r.column,
            printable_str(&r.message),
            r.spec
        )),
        (None, None) => {}
    }
    lines.extend(
        record
            .notes
            .iter()
            .filter(|n| !repeats_reason(record, n))
            .map(|n| format!("note: {}", printable_str(n))),
    );
    lines
}

/// Whether `note` only says again why the record has its outcome: records
/// without a rule carry their reason as a note too, for the JSON view (which
/// shows an outcome's reason only beside a rule); a person reads it once.
#[must_use]
pub fn repeats_reason(record: &Record, note: &str) -> bool {
    record.outcome.reason() == Some(note)
}

/// One violation found, identically (rule, level, pointer, message), in
/// several records that did not pass: one defect, with how often and where it
/// was seen ([`repeated`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repeated {
    /// The violation, as the first record carrying it has it.
    pub violation: Violation,
    /// Where it was seen, one place per record, in report order.
    pub places: Vec<Place>,
    /// The indexes (into `Report::records`) of the records it alone explains:
    /// every violation of the record is a repeated one, and the record's
    /// heading rule is among them, so the verdict came from them.
    pub explains: Vec<usize>,
}

/// The violations that recur across records that did not pass (a missing
/// `_meta` field on every result, say), each once with its count and places:
/// a person reads one defect as one finding. Records are the checks and keep
/// their outcomes; this is how the views name what the checks share.
#[must_use]
pub fn repeated(report: &Report) -> Vec<Repeated> {
    type Key = (harness::rules::RuleId, Level, String, String);
    let key = |v: &Violation| -> Key { (v.rule, v.level, v.pointer.clone(), v.message.clone()) };
    let mut groups: Vec<(Key, Repeated)> = Vec::new();
    let failing = |r: &Record| matches!(r.outcome, Outcome::Fail | Outcome::Warning);
    for record in report.records.iter().filter(|r| failing(r)) {
        let mut seen: Vec<Key> = Vec::new();
        for v in record.violations.iter().flatten() {
            let k = key(v);
            if seen.contains(&k) {
                continue;
            }
            seen.push(k.clone());
            match groups.iter_mut().find(|(g, _)| *g == k) {
                Some((_, group)) => group.places.push(record.place.clone()),
                None => groups.push((
                    k,
                    Repeated {
                        violation: v.clone(),
                        places: vec![record.place.clone()],
                        explains: Vec::new(),
                    },
                )),
            }
        }
    }
    groups.retain(|(_, g)| g.places.len() > 1);
    for (i, record) in report
        .records
        .iter()
        .enumerate()
        .filter(|(_, r)| failing(r))
    {
        let Some(violations) = record.violations.as_ref().filter(|vs| !vs.is_empty()) else {
            continue;
        };
        let all_repeated = violations
            .iter()
            .all(|v| groups.iter().any(|(g, _)| *g == key(v)));
        let heading = record.check.as_ref().map(|c| c.rule.as_str());
        let Some(first) = violations.iter().find(|v| Some(v.rule.as_str()) == heading) else {
            continue;
        };
        if all_repeated {
            if let Some((_, group)) = groups.iter_mut().find(|(g, _)| *g == key(first)) {
                group.explains.push(i);
            }
        }
    }
    groups.into_iter().map(|(_, g)| g).collect()
}

/// A violation's rule id. The one place this crate reads `Violation::rule`,
/// so the move to a typed rule id touches one line.
#[must_use]
pub fn rule_id(v: &Violation) -> &str {
    v.rule.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Subject;

    /// A record without a rule carries its reason as a note too (for the JSON
    /// view); a person reads the reason once, and every other note.
    #[test]
    fn a_note_that_repeats_the_reason_is_said_once() {
        let why = "no tools/list answer came";
        let mut record = Record::new(
            Place::default(),
            Subject::Frame(Vec::new()),
            Outcome::NotObserved { why: why.into() },
        );
        record.notes = vec![why.into(), "the peer exited".into()];
        assert!(repeats_reason(&record, why));
        assert!(!repeats_reason(&record, "the peer exited"));
        assert_eq!(
            findings(&record),
            [why.to_owned(), "note: the peer exited".to_owned()]
        );
    }
}
