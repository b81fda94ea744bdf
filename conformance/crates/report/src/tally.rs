//! Counting: how many records had each outcome (and so the exit code), and
//! what one rule saw over a conversation.

use harness::Outcome;

use super::command::Exit;

/// What one rule saw over a conversation: how many times it was checked,
/// the first `KEEP` violations quoted, and how many more there were (the
/// client judge's per-rule records: its cursors, its HTTP headers).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleTally<const KEEP: usize> {
    seen: usize,
    broken: Vec<String>,
    more: usize,
}

impl<const KEEP: usize> RuleTally<KEEP> {
    /// Counts one check; `broken`: why it failed, if it did.
    pub fn check(&mut self, broken: Option<String>) {
        self.seen += 1;
        match broken {
            Some(_) if self.broken.len() >= KEEP => self.more += 1,
            Some(why) => self.broken.push(why),
            None => {}
        }
    }

    /// How many times the rule was checked.
    #[must_use]
    pub fn seen(&self) -> usize {
        self.seen
    }

    /// Whether any check failed.
    #[must_use]
    pub fn is_broken(&self) -> bool {
        !self.broken.is_empty()
    }

    /// The violations quoted, then `… and N more` past the first `KEEP`.
    #[must_use]
    pub fn quoted(&self) -> Vec<String> {
        let mut broken = self.broken.clone();
        if self.more > 0 {
            broken.push(format!("… and {} more", self.more));
        }
        broken
    }
}

/// How many records had each outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    counts: [usize; Outcome::NAMES.len()],
}

impl Tally {
    /// Counts one outcome.
    pub fn add(&mut self, outcome: &Outcome) {
        let slot = Outcome::NAMES
            .iter()
            .position(|n| *n == outcome.name())
            .expect("every outcome's name is in Outcome::NAMES");
        self.counts[slot] += 1;
    }

    /// Counts `n` records of the outcome named `name`; an unknown name is
    /// ignored (callers take names from [`Tally::rows`]).
    pub fn add_named(&mut self, name: &str, n: usize) {
        if let Some(slot) = Outcome::NAMES.iter().position(|o| *o == name) {
            self.counts[slot] += n;
        }
    }

    /// Records with the outcome named `name` (one of [`Outcome::NAMES`]).
    #[must_use]
    pub fn count(&self, name: &str) -> usize {
        Outcome::NAMES
            .iter()
            .position(|n| *n == name)
            .map_or(0, |slot| self.counts[slot])
    }

    /// Every record.
    #[must_use]
    pub fn total(&self) -> usize {
        self.counts.iter().sum()
    }

    /// Each outcome's name and count, in [`Outcome::NAMES`] order.
    pub fn rows(&self) -> impl Iterator<Item = (&'static str, usize)> + '_ {
        Outcome::NAMES
            .iter()
            .copied()
            .zip(self.counts.iter().copied())
    }

    /// Records whose outcome fails the run.
    #[must_use]
    pub fn failing(&self, strict: bool) -> usize {
        // Which outcomes fail a run is `Outcome::fails_run`'s to say, not ours.
        representatives()
            .iter()
            .zip(self.counts)
            .filter(|(o, _)| o.fails_run(strict))
            .map(|(_, n)| n)
            .sum()
    }

    /// 0 when nothing fails the run, 1 when something does (with `strict`,
    /// warnings too, as h2spec's `--strict` fails on SHOULD-level cases).
    #[must_use]
    pub fn exit_code(&self, strict: bool) -> Exit {
        if self.failing(strict) > 0 {
            Exit::Findings
        } else {
            Exit::Clean
        }
    }
}

/// One outcome of each kind, in [`Outcome::NAMES`] order.
fn representatives() -> [Outcome; Outcome::NAMES.len()] {
    [
        Outcome::Pass,
        Outcome::Fail,
        Outcome::Warning,
        Outcome::NotObserved { why: String::new() },
        Outcome::NotApplicable { why: String::new() },
        Outcome::KnownFailure {
            reason: String::new(),
        },
        Outcome::Stale {
            reason: String::new(),
        },
    ]
}
