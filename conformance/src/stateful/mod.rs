//! Stateful fuzzing (`wirecheck fuzz --stateful`): generated sequences of
//! well-formed operations against a live peer, judged after each step by the
//! model of what the spec text says the state must be
//! ([`harness::stateful`]), a failing sequence shrunk to the shortest that
//! still fails and told as a numbered story.
//!
//! A flag of `fuzz` rather than a command of its own: its report is a fuzz
//! report (one record per finding, confirmed on a fresh peer before it
//! counts, the same summary and exit codes), over the same peer, revision,
//! seed, duration, timeout and output arguments; what differs is only what
//! is generated, sequences instead of frames. The frame fuzzer's own knobs
//! (`--window`, `--jobs`, `--frames`, `--no-echo`, `--allow-tool`) are
//! refused with it.
//!
//! Sessions are opened as `fuzz` opens them ([`crate::livefuzz::peer::Live`]
//! over [`crate::transport::wire::Wire`]): a fresh peer (or HTTP session) per
//! sequence, so that one sequence's state is never another's. Each distinct
//! rule broken is one finding: its sequence, cut after the operation that
//! broke it, is shrunk by dropping operations ([`harness::stateful::Shrinker`],
//! each candidate on a fresh peer), and the shortest is played once more on a
//! fresh peer to confirm it; one that does not show again is reported as
//! suspected and never counted.

pub mod command;
mod play;
mod record;
pub mod saved;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use harness::fuzzing::mutate::Rng;
use harness::rules::RuleId;
use harness::stateful::{generate, Breach, Op, Shrinker};

use crate::livefuzz::Config;
use crate::transcript::Entry;

pub use play::{open, play, Found, Played};

/// Operations per generated sequence: long enough for a walk, a revisit, a
/// subscription and its end to meet, short enough that a fresh peer per
/// sequence stays cheap.
pub const SEQUENCE_LEN: usize = 32;

/// What a stateful run did.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Sequences played while fuzzing.
    pub sequences: u64,
    /// Operations played while fuzzing (shrinking's not counted).
    pub ops: u64,
    /// Requests sent while fuzzing (a walk sends one per page).
    pub requests: u64,
    /// Sessions opened while fuzzing.
    pub sessions: u64,
    /// The time spent fuzzing.
    pub fuzz_time: Duration,
    /// The time spent shrinking and confirming.
    pub shrink_time: Duration,
    /// Why the run ended before its budget, if it did.
    pub ended_early: Option<String>,
    /// Whether Ctrl-C ended it.
    pub interrupted: bool,
}

impl Stats {
    /// Operations per second while fuzzing.
    #[must_use]
    pub fn rate(&self) -> f64 {
        per_second(self.ops, self.fuzz_time)
    }

    /// Requests per second while fuzzing.
    #[must_use]
    pub fn request_rate(&self) -> f64 {
        per_second(self.requests, self.fuzz_time)
    }
}

fn per_second(n: u64, d: Duration) -> f64 {
    let secs = d.as_secs_f64();
    if secs > 0.0 {
        // Counts far below 2^52: exact as f64.
        #[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
        let n = n as f64;
        n / secs
    } else {
        0.0
    }
}

/// How far a finding got towards being counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmation {
    /// Shrunk to the end and shown again on a fresh peer.
    Minimized,
    /// Shown again on a fresh peer; the time ran out while shrinking.
    CutShort,
    /// Not shown again on a fresh peer: suspected, never counted.
    Suspected(String),
}

/// One rule broken, with the shortest sequence that broke it.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The broken expectation, as the confirming run saw it.
    pub breach: Breach,
    /// The operations.
    pub ops: Vec<Op>,
    /// The story of the confirming run (else of the run that found it).
    pub story: Vec<String>,
    /// The operations of the sequence that first showed it.
    pub found_after: usize,
    /// Sessions the confirming run opened.
    pub sessions: usize,
    /// How far it got.
    pub confirmation: Confirmation,
    /// The wire log of the confirming run's last session.
    pub log: Vec<Entry>,
    /// The seed of the sequence that first showed it.
    pub seed: u64,
}

impl Finding {
    /// Whether it counts (confirmed on a fresh peer).
    #[must_use]
    pub fn counts(&self) -> bool {
        !matches!(self.confirmation, Confirmation::Suspected(_))
    }
}

/// The seed of sequence `n` of a run seeded `seed`.
#[must_use]
pub fn sequence_seed(seed: u64, n: u64) -> u64 {
    seed.wrapping_mul(0x0100_0000_01b3).wrapping_add(n)
}

/// Whether `played` broke `rule`.
fn breaks(played: &Played, rule: RuleId) -> Option<&Found> {
    played.found.iter().find(|f| f.breach.rule == rule)
}

/// Fuzzes `config`'s peer with sequences until its duration (less the time
/// kept for shrinking) or `max_ops` operations, then shrinks and confirms
/// each distinct rule broken. `progress` is told the stats now and then.
///
/// # Errors
/// No session could be opened at all.
pub async fn run(
    config: &Config,
    max_ops: Option<u64>,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Stats, usize),
) -> Result<(Vec<Finding>, Stats), String> {
    let started = Instant::now();
    let total = config.duration;
    let keep = total.map(|d| (d / 3).min(config.minimize_budget));
    let fuzz_until = total.map(|d| started + d.saturating_sub(keep.unwrap_or_default()));
    let run_until = total.map(|d| started + d);
    let mut stats = Stats::default();
    let mut first: BTreeMap<RuleId, (Vec<Op>, u64, usize)> = BTreeMap::new();
    let mut told = Instant::now();
    loop {
        if stop.load(Ordering::Relaxed) {
            stats.interrupted = true;
            break;
        }
        // As in `fuzz`: a third of the time is kept for shrinking only once
        // something was found.
        let until = if first.is_empty() {
            run_until
        } else {
            fuzz_until
        };
        if until.is_some_and(|t| Instant::now() >= t) || max_ops.is_some_and(|m| stats.ops >= m) {
            break;
        }
        let opened = match open(config).await {
            Ok(opened) => opened,
            Err(e) if stats.sequences == 0 => return Err(e),
            Err(e) => {
                stats.ended_early = Some(format!("a session could not be opened: {e}"));
                break;
            }
        };
        let seed = sequence_seed(config.seed, stats.sequences);
        let mut ops = generate(&mut Rng::new(seed), &opened.1, SEQUENCE_LEN);
        if let Some(max) = max_ops {
            let left = usize::try_from(max.saturating_sub(stats.ops)).unwrap_or(usize::MAX);
            ops.truncate(left);
        }
        if ops.is_empty() {
            drop(opened.0.stop().await);
            stats.ended_early = Some(
                "the server declared no list (tools, prompts, resources), no resource subscriptions and no HTTP session: nothing for a sequence to exercise".into(),
            );
            break;
        }
        let played = match play(config, &ops, Some(opened)).await {
            Ok(played) => played,
            // A later session of the sequence did not open: what was found
            // so far is kept, and the run says why it ended.
            Err(e) => {
                stats.ended_early = Some(format!("a session could not be opened: {e}"));
                break;
            }
        };
        stats.sequences += 1;
        stats.ops += ops.len() as u64;
        stats.requests += played.requests;
        stats.sessions += played.sessions as u64;
        for found in &played.found {
            let rule = found.breach.rule;
            // The sequence cut after the operation that broke it: nothing
            // later can have been needed.
            first
                .entry(rule)
                .or_insert_with(|| (ops[..=found.op].to_vec(), seed, ops.len()));
        }
        if told.elapsed() >= Duration::from_secs(2) {
            stats.fuzz_time = started.elapsed();
            progress(&stats, first.len());
            told = Instant::now();
        }
    }
    stats.fuzz_time = started.elapsed();
    let shrinking = Instant::now();
    let shrink_until =
        total.map_or_else(|| Instant::now() + config.minimize_budget, |d| started + d);
    let mut findings = Vec::new();
    for (rule, (ops, seed, found_after)) in first {
        findings.push(settle(config, rule, ops, seed, found_after, shrink_until, stop).await);
    }
    stats.shrink_time = shrinking.elapsed();
    Ok((findings, stats))
}

/// Shrinks `ops` (which broke `rule`) on fresh peers until `until`, then
/// confirms the shortest on one more.
async fn settle(
    config: &Config,
    rule: RuleId,
    ops: Vec<Op>,
    seed: u64,
    found_after: usize,
    until: Instant,
    stop: &AtomicBool,
) -> Finding {
    let mut shrinker = Shrinker::new(ops);
    let mut cut_short = false;
    if config.minimize {
        while let Some(candidate) = shrinker.candidate() {
            if Instant::now() >= until || stop.load(Ordering::Relaxed) {
                cut_short = true;
                break;
            }
            let fails = play(config, &candidate, None)
                .await
                .is_ok_and(|p| breaks(&p, rule).is_some());
            shrinker.verdict(fails);
        }
    }
    let ops = shrinker.best().to_vec();
    let confirming = play(config, &ops, None).await;
    let (breach, confirmation, story, log, sessions) = match &confirming {
        Ok(played) => match breaks(played, rule) {
            Some(found) => (
                found.breach.clone(),
                if cut_short || !config.minimize {
                    Confirmation::CutShort
                } else {
                    Confirmation::Minimized
                },
                played.story.clone(),
                played.log.clone(),
                played.sessions,
            ),
            None => (
                Breach {
                    rule,
                    detail: "not shown again on a fresh peer".into(),
                },
                Confirmation::Suspected("not shown again on a fresh peer".into()),
                played.story.clone(),
                played.log.clone(),
                played.sessions,
            ),
        },
        Err(e) => (
            Breach {
                rule,
                detail: format!("not replayed: {e}"),
            },
            Confirmation::Suspected(format!("the confirming session did not open: {e}")),
            Vec::new(),
            Vec::new(),
            0,
        ),
    };
    Finding {
        breach,
        ops,
        story,
        found_after,
        sessions,
        confirmation,
        log,
        seed,
    }
}
