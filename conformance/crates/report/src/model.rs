//! The report as a whole ([`Report`]): the command that made it, its records,
//! what was dropped, the run it judged, why it stopped, and the run-level
//! ambiguities said once; and from these its exit code.

use harness::Profile;

use super::command::{Command, Exit};
use super::record::Record;
use super::run::RunInfo;
use super::tally::Tally;

/// Everything one command found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The command that made it.
    pub command: Command,
    /// The profile judged under, when the command judges rules.
    pub profile: Option<Profile>,
    /// Whether warnings fail the run.
    pub strict: bool,
    /// One per subject, in input order; when streamed ([`sink::Stream`](super::sink::Stream)), only
    /// those a view still needs, the rest being counted in `dropped`.
    pub records: Vec<Record>,
    /// Records counted but not kept: written out as they were made.
    pub dropped: Tally,
    /// Who ran what against whom, for a live run's document.
    pub run: Option<RunInfo>,
    /// Why the command stopped early (an unreadable file): exit 2, whatever
    /// the records say. Records made before it are kept.
    pub error: Option<String>,
    /// Each run-level ambiguity met, with how many records met it, in the
    /// order first met: said once, never as a warning per exchange.
    pub ambiguities: Vec<(harness::rules::RuleId, usize)>,
}

impl Report {
    /// An empty report of `command`.
    #[must_use]
    pub fn new(command: Command) -> Self {
        Self {
            command,
            profile: None,
            strict: false,
            records: Vec::new(),
            dropped: Tally::default(),
            run: None,
            error: None,
            ambiguities: Vec::new(),
        }
    }

    /// Counts the run-level ambiguities `record` met.
    pub fn note_ambiguities(&mut self, record: &Record) {
        for rule in &record.ambiguities {
            match self.ambiguities.iter_mut().find(|(r, _)| r == rule) {
                Some((_, n)) => *n += 1,
                None => self.ambiguities.push((*rule, 1)),
            }
        }
    }

    /// One line per run-level ambiguity met: its note and how often.
    #[must_use]
    pub fn ambiguity_lines(&self) -> Vec<String> {
        self.ambiguities
            .iter()
            .filter_map(|(rule, n)| {
                let note = rule.run_level_ambiguity()?;
                let times = if *n == 1 { "once" } else { "times" };
                let count = if *n == 1 {
                    String::new()
                } else {
                    format!("{n} ")
                };
                Some(format!("note: {note} (met {count}{times})"))
            })
            .collect()
    }

    /// Every record counted by outcome, kept or not.
    #[must_use]
    pub fn tally(&self) -> Tally {
        let mut tally = self.dropped;
        for record in &self.records {
            tally.add(&record.outcome);
        }
        tally
    }

    /// 0 clean, 1 a failing outcome, 2 the command could not finish.
    #[must_use]
    pub fn exit_code(&self) -> Exit {
        if self.error.is_some() {
            Exit::Trouble
        } else {
            self.tally().exit_code(self.strict)
        }
    }

    /// The kept records whose outcome fails the run (see [`Report::dropped`]).
    pub fn failing(&self) -> impl Iterator<Item = &Record> {
        self.records
            .iter()
            .filter(|r| r.outcome.fails_run(self.strict))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Place, Subject};
    use harness::Outcome;

    fn report_of(outcomes: &[Outcome], strict: bool) -> Report {
        let mut report = Report::new(Command::Classify);
        report.strict = strict;
        for (i, o) in outcomes.iter().enumerate() {
            report.records.push(Record::new(
                Place::at_line(None, i + 1),
                Subject::Frame(b"{}".to_vec()),
                o.clone(),
            ));
        }
        report
    }

    #[test]
    fn strict_fails_on_warnings_only() {
        let warning = [Outcome::Pass, Outcome::Warning];
        assert_eq!(report_of(&warning, false).exit_code(), Exit::Clean);
        assert_eq!(report_of(&warning, true).exit_code(), Exit::Findings);
        assert_eq!(
            report_of(&[Outcome::Fail], false).exit_code(),
            Exit::Findings
        );
        assert_eq!(report_of(&[], true).exit_code(), Exit::Clean);
    }

    #[test]
    fn not_observed_never_fails_and_stale_always_does() {
        let quiet = [Outcome::NotObserved { why: "x".into() }];
        assert_eq!(report_of(&quiet, true).exit_code(), Exit::Clean);
        let stale = [Outcome::Stale { reason: "r".into() }];
        assert_eq!(report_of(&stale, false).exit_code(), Exit::Findings);
    }

    #[test]
    fn an_error_is_trouble_whatever_the_records_say() {
        let mut report = report_of(&[Outcome::Pass], false);
        report.error = Some("cannot open x".into());
        assert_eq!(report.exit_code(), Exit::Trouble);
    }

    #[test]
    fn the_tally_counts_every_outcome() {
        let report = report_of(
            &[
                Outcome::Pass,
                Outcome::Pass,
                Outcome::Fail,
                Outcome::KnownFailure { reason: "r".into() },
            ],
            false,
        );
        let tally = report.tally();
        assert_eq!(tally.total(), 4);
        assert_eq!(tally.count("pass"), 2);
        assert_eq!(tally.count("fail"), 1);
        assert_eq!(tally.count("known-failure"), 1);
        assert_eq!(tally.count("stale"), 0);
        assert_eq!(tally.failing(true), 1);
        assert_eq!(tally.rows().count(), Outcome::NAMES.len());
    }

    /// A run-level ambiguity is counted per record that met it and said once,
    /// with how often: never a warning per exchange.
    #[test]
    fn a_run_level_ambiguity_is_counted_and_said_once() {
        let rule = harness::rules::RuleId::McpBaseErrorIdNull;
        let note = rule
            .run_level_ambiguity()
            .expect("A2 is a run-level ambiguity");
        let mut met = Record::new(Place::default(), Subject::Frame(Vec::new()), Outcome::Pass);
        met.ambiguities.push(rule);
        let quiet = Record::new(Place::default(), Subject::Frame(Vec::new()), Outcome::Pass);
        let mut report = Report::new(Command::Run);
        report.note_ambiguities(&met);
        report.note_ambiguities(&quiet);
        assert_eq!(report.ambiguities, [(rule, 1)]);
        assert_eq!(
            report.ambiguity_lines(),
            [format!("note: {note} (met once)")]
        );
        report.note_ambiguities(&met);
        assert_eq!(report.ambiguities, [(rule, 2)]);
        assert_eq!(
            report.ambiguity_lines(),
            [format!("note: {note} (met 2 times)")]
        );
    }
}
