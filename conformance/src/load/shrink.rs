//! Each finding of a load run shown again with as few requests in flight as
//! still show it: the fewest sessions, then the fewest requests in flight
//! per session.
//!
//! Why: a defect seen under 4 sessions × 8 in flight says little about its
//! cause; one that needs 2 sessions × 1 (an id shared across sessions) or
//! 1 session × 5 (contention inside one session) says which. Concurrency
//! defects come and go, so each size is tried up to [`TRIES`] times, each a
//! short run ([`TRIAL`]) that stops sending as soon as the finding shows
//! ([`super::StopAt`]); a size that does not show it within its tries is
//! taken to be too small. The search is a bisection on each count, which
//! assumes more in flight shows a defect at least as often as fewer: the
//! size found shows it (it was seen there), but a smaller one may exist
//! that the bisection stepped over.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::{Config, Finding, StopAt};

/// Runs at one size before it is taken to be too small.
pub const TRIES: usize = 3;

/// How long one run sends beyond `--timeout` (answers still in flight are
/// then waited for, each up to `--timeout`): a session whose handshake or
/// discovery waited out a whole `--timeout` (a crossed answer leaves the
/// other request hanging) still sends under load.
pub const TRIAL: Duration = Duration::from_secs(2);

/// How long one run of `config`'s sends: [`TRIAL`] past its `--timeout`.
#[must_use]
pub fn trial_duration(config: &Config) -> Duration {
    TRIAL + config.timeout
}

/// A finding shown again at the smallest size found.
#[derive(Debug, Clone)]
pub struct Shown {
    /// Sessions at once.
    pub sessions: usize,
    /// Requests in flight per session.
    pub concurrency: usize,
    /// The finding as the smallest run showed it (its first exchange).
    pub finding: Finding,
    /// Runs made.
    pub runs: usize,
    /// The time ran out: the size shows it, but may not be the smallest.
    pub cut_short: bool,
}

/// The config of one run at `sessions` × `concurrency`, stopping at `f`.
#[must_use]
pub fn trial(base: &Config, sessions: usize, concurrency: usize, f: &Finding) -> Config {
    Config {
        sessions,
        concurrency,
        duration: Some(trial_duration(base)),
        requests: None,
        judge: true,
        stop_at: Some(StopAt::new(f.rule.as_str(), &f.method)),
        ..base.clone()
    }
}

/// What up to [`TRIES`] runs of one size made of a finding.
#[derive(Debug)]
pub enum Trial {
    /// A run showed it: its example.
    Shown(Box<Finding>),
    /// Every run was made, whole, and none showed it.
    NotShown,
    /// A run could not be made (why): no session opened or one ended
    /// early without showing it, the time ran out, or Ctrl-C. Nothing
    /// observed is not "no longer shows".
    Unmade(String),
}

/// The finding of `rule` on `method` as runs of `config` show it: the first
/// of up to [`TRIES`] runs that shows it, or whether they were all made.
pub async fn shows(
    config: &Config,
    (rule, method): (&str, &str),
    until: Instant,
    stop: &Arc<AtomicBool>,
    runs: &mut usize,
) -> Trial {
    for _ in 0..TRIES {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return Trial::Unmade(crate::interrupt::INTERRUPTED.into());
        }
        if Instant::now() >= until {
            return Trial::Unmade("the time for it ran out".into());
        }
        *runs += 1;
        let mut quiet = |_, _, _| {};
        let run = super::run(config, Arc::clone(stop), &mut quiet);
        let Ok((stats, findings, trouble)) = tokio::time::timeout_at(until, run).await else {
            return Trial::Unmade("the time for it ran out".into());
        };
        if let Some(f) = findings
            .iter()
            .find(|f| f.rule == rule && f.method == method)
        {
            return Trial::Shown(Box::new(f.clone()));
        }
        if let Some(why) = trouble {
            return Trial::Unmade(why);
        }
        if stats.interrupted || stop.load(std::sync::atomic::Ordering::Relaxed) {
            return Trial::Unmade(crate::interrupt::INTERRUPTED.into());
        }
        // Not shown is a verdict only where the request it is about was
        // answered: a method that left the mix, or that now goes unanswered
        // (another finding), says nothing of this one.
        if !answered(&stats, method) {
            return Trial::Unmade(format!(
                "no `{method}` request was answered in run {runs}: whether the finding still shows is unknown"
            ));
        }
    }
    Trial::NotShown
}

/// Whether a run answered a request of `method` at least once; for a
/// finding of the whole session (`session`, `any`), any request.
fn answered(stats: &super::Stats, method: &str) -> bool {
    match method {
        "session" | "any" => stats.answered > 0,
        method => stats.latency.get(method).is_some_and(|l| l.count() > 0),
    }
}

/// One search: a run's size, and what is known of it.
struct Search<'a> {
    base: &'a Config,
    like: &'a Finding,
    until: Instant,
    stop: &'a Arc<AtomicBool>,
    runs: usize,
    best: Finding,
}

impl Search<'_> {
    /// The smallest `n` in `1..=high` for which a run sized by `size(n)`
    /// shows the finding, by bisection, `high` being known to; each size
    /// that shows it leaves its example in `best`.
    async fn smallest(&mut self, high: usize, size: impl Fn(usize) -> (usize, usize)) -> usize {
        let (mut low, mut high) = (1, high.max(1));
        while low < high {
            let mid = low + (high - low) / 2;
            let (sessions, concurrency) = size(mid);
            let config = trial(self.base, sessions, concurrency, self.like);
            let like = (self.like.rule.as_str(), self.like.method.as_str());
            // A size whose runs could not be made is not known to show
            // it: the search keeps the larger size it knows does.
            match shows(&config, like, self.until, self.stop, &mut self.runs).await {
                Trial::Shown(f) => {
                    self.best = *f;
                    high = mid;
                }
                Trial::NotShown | Trial::Unmade(_) => low = mid + 1,
            }
        }
        high
    }
}

/// `f`, which a run of `base` showed, shown again with the fewest sessions
/// and then the fewest requests in flight per session, within `until`.
pub async fn shrink(base: &Config, f: &Finding, until: Instant, stop: &Arc<AtomicBool>) -> Shown {
    let mut search = Search {
        base,
        like: f,
        until,
        stop,
        runs: 0,
        best: f.clone(),
    };
    let concurrency = base.concurrency.max(1);
    let sessions = search
        .smallest(base.sessions.max(1), |s| (s, concurrency))
        .await;
    let concurrency = search.smallest(concurrency, |c| (sessions, c)).await;
    Shown {
        sessions,
        concurrency,
        finding: search.best,
        runs: search.runs,
        cut_short: Instant::now() >= until,
    }
}
