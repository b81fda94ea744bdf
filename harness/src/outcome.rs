//! The closed set of outcomes a check can have, shared by every judge (the
//! vector judge, the session judge, the live runner) and every report view.
//!
//! Modelled on webpki's outcomes: a check either observed what it looks for and
//! decided (pass, fail, warning), or could not decide and says why (not
//! observed, not applicable), or was matched against a baseline (known failure,
//! stale). A check with nothing to observe is never a pass.

use std::fmt;

/// What one check concluded.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum Outcome {
    /// Observed, and every rule checked held.
    Pass,
    /// Observed, and a MUST or MUST NOT was broken.
    Fail,
    /// Observed, and only SHOULD-level rules (or conventions no MUST mandates)
    /// were broken: a failure only under `--strict`.
    Warning,
    /// The check applies, but what it looks for never happened (the capture
    /// ended, the peer offered nothing to look at).
    NotObserved {
        /// What was missing.
        why: String,
    },
    /// The check does not apply to this peer or profile (a capability it never
    /// declared, a revision without the feature).
    NotApplicable {
        /// Why it does not apply.
        why: String,
    },
    /// A failure listed in a baseline, with the baseline's reason.
    KnownFailure {
        /// The baseline entry's reason.
        reason: String,
    },
    /// A baseline entry whose check now passes: the baseline is out of date.
    Stale {
        /// The baseline entry's reason.
        reason: String,
    },
}

impl Outcome {
    /// Every outcome's name, in the order reports tally them.
    pub const NAMES: [&'static str; 7] = [
        "pass",
        "fail",
        "warning",
        "not-observed",
        "not-applicable",
        "known-failure",
        "stale",
    ];

    /// The outcome's stable name, as reports write it.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Warning => "warning",
            Outcome::NotObserved { .. } => "not-observed",
            Outcome::NotApplicable { .. } => "not-applicable",
            Outcome::KnownFailure { .. } => "known-failure",
            Outcome::Stale { .. } => "stale",
        }
    }

    /// The reason carried, if the outcome has one.
    #[must_use]
    pub fn reason(&self) -> Option<&str> {
        match self {
            Outcome::NotObserved { why } | Outcome::NotApplicable { why } => Some(why),
            Outcome::KnownFailure { reason } | Outcome::Stale { reason } => Some(reason),
            Outcome::Pass | Outcome::Fail | Outcome::Warning => None,
        }
    }

    /// Whether this outcome fails a run: a failure, a stale baseline entry, and
    /// under `strict` a warning. Not observed and not applicable never fail a
    /// run, and never count as passes either.
    #[must_use]
    pub fn fails_run(&self, strict: bool) -> bool {
        match self {
            Outcome::Fail | Outcome::Stale { .. } => true,
            Outcome::Warning => strict,
            Outcome::Pass
            | Outcome::NotObserved { .. }
            | Outcome::NotApplicable { .. }
            | Outcome::KnownFailure { .. } => false,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.reason() {
            Some(why) => write!(f, "{} ({why})", self.name()),
            None => f.write_str(self.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Outcome;

    #[test]
    fn nothing_observed_is_never_a_pass_and_never_a_failure() {
        let not_observed = Outcome::NotObserved {
            why: "capture ended".into(),
        };
        assert_ne!(not_observed, Outcome::Pass);
        assert!(!not_observed.fails_run(true));
        assert_eq!(not_observed.to_string(), "not-observed (capture ended)");
    }

    #[test]
    fn warnings_fail_only_strict_runs_and_stale_entries_always() {
        assert!(!Outcome::Warning.fails_run(false));
        assert!(Outcome::Warning.fails_run(true));
        let stale = Outcome::Stale { reason: "r".into() };
        assert!(stale.fails_run(false));
        let known = Outcome::KnownFailure { reason: "r".into() };
        assert!(!known.fails_run(true));
    }

    #[test]
    fn names_are_listed_once_each() {
        let all = [
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
        ];
        let names: Vec<_> = all.iter().map(Outcome::name).collect();
        assert_eq!(names, Outcome::NAMES);
    }
}
