//! Reproducing a finding against a fresh peer, and shrinking what it takes.
//!
//! Delta debugging (Zeller's ddmin, complement removal only) over the frames
//! that led up to the finding, the breaking frame kept last; then the frame
//! itself is shrunk by the structural mutator, keeping a shorter candidate
//! whenever it still breaks the same invariant with the same shape. Every step
//! is a new peer process (restarted as the minimizer needs), listened to with a
//! longer grace than the fuzz loop uses. Every finding is first confirmed
//! ([`confirm`]): one the peer does not reproduce is only suspected, never
//! counted; the confirmed ones are then shrunk ([`shrink`]).
//!
//! The time given is a hard end: an attempt still running when it comes is
//! dropped (its peer killed), so confirming and shrinking end within the
//! run's `--duration`, and a finding the time ran out on says so
//! ([`Minimizing::OutOfTime`], [`Minimized::cut_short`]).

use harness::fuzzing::mutate_json;

use super::invariant::{expect, shape, Breach, Expect};
use super::peer::{Live, Waits};
use super::{Candidate, Config};
use crate::transcript::Entry;

/// The most peer restarts spent on one finding.
const ATTEMPTS: usize = 40;

/// A finding's frames and the log of the run that confirmed it.
pub struct Minimized {
    /// The smallest sequence found, breaking frame last.
    pub frames: Vec<Vec<u8>>,
    /// The wire log of the confirming run.
    pub log: Vec<Entry>,
    /// What the confirming run's last frame broke, in its words: the
    /// finding's, said of the frames reported (shrinking changes the frame,
    /// its id among what it may change).
    pub breach: Breach,
    /// Peer restarts spent.
    pub attempts: usize,
    /// The time ran out while shrinking: the frames break it, but may not be
    /// the fewest or shortest that do.
    pub cut_short: bool,
}

/// How confirming a finding went.
pub enum Minimizing {
    /// A fresh peer broke it again.
    Confirmed(Minimized),
    /// No fresh peer broke it again.
    NotReproduced,
    /// The time ran out before a fresh peer broke it again.
    OutOfTime,
}

struct Budget {
    left: usize,
    /// A slow peer (a Node server starts in a third of a second) must not
    /// turn minimizing into the longest part of the run.
    until: tokio::time::Instant,
    /// Whether `until` came (rather than the attempts running out).
    timed_out: bool,
}

/// Whether `frames`, sent to a fresh peer, break `target` on their last frame
/// (same kind, same rule, same shape); the run's log when they do. An
/// attempt that would end past the budget's time is cut there (its peer is
/// killed as it is dropped) and counts as not reproducing.
async fn reproduces(
    config: &Config,
    frames: &[Vec<u8>],
    target: &Candidate,
    budget: &mut Budget,
) -> Option<(Vec<Entry>, Breach)> {
    if budget.left == 0 || tokio::time::Instant::now() >= budget.until {
        budget.timed_out |= budget.left > 0;
        budget.left = 0;
        return None;
    }
    budget.left -= 1;
    match tokio::time::timeout_at(budget.until, attempt(config, frames, target)).await {
        Ok(log) => log,
        Err(_) => {
            budget.timed_out = true;
            budget.left = 0;
            None
        }
    }
}

/// One attempt of [`reproduces`]: a fresh peer, `frames`, the verdict (the
/// log, and the breach the last frame made).
async fn attempt(
    config: &Config,
    frames: &[Vec<u8>],
    target: &Candidate,
) -> Option<(Vec<Entry>, Breach)> {
    let waits = Waits {
        answer_timeout: config.timeout,
        grace: config.confirm_grace,
    };
    let mut live = Live::start(
        &config.target,
        config.revision,
        &waits,
        config.limits,
        &config.http,
    )
    .await
    .ok()?;
    let (last, before) = frames.split_last()?;
    for frame in before {
        // A shrunk frame may have taken an id of the prefix: sent fresh.
        let frame = live.own_ids(frame)?;
        let report = live
            .exchange(&frame, expect(&frame) != Expect::Nothing)
            .await;
        // The prefix's own HTTP findings are read here, not blamed on `last`.
        let _ = live.judge(&frame, &report, config.revision, config.strict);
        if !matches!(report.live, crate::driver::Live::Answered(_)) {
            live.stop().await;
            return None;
        }
    }
    let last = &live.own_ids(last)?;
    let report = live.exchange(last, expect(last) != Expect::Nothing).await;
    let hit = live
        .judge(last, &report, config.revision, config.strict)
        .into_iter()
        .find(|b| b.kind == target.breach.kind && b.rule == target.breach.rule)
        .filter(|_| shape(last, config.revision) == target.shape);
    let log = live.stop().await;
    hit.map(|breach| (log, breach))
}

/// Replays `candidate` on fresh peers before `until`: its breaking frame
/// alone, then with the frames sent before it in its session. A breach no
/// fresh peer shows again is not counted as the peer's
/// ([`Minimizing::NotReproduced`]).
pub async fn confirm(
    config: &Config,
    candidate: &Candidate,
    until: tokio::time::Instant,
) -> Minimizing {
    let mut budget = Budget {
        left: 2,
        until,
        timed_out: false,
    };
    let alone = vec![candidate.frame.clone()];
    let mut found = reproduces(config, &alone, candidate, &mut budget)
        .await
        .map(|hit| (alone, hit));
    if found.is_none() && !candidate.before.is_empty() {
        let mut with_prefix = candidate.before.clone();
        with_prefix.push(candidate.frame.clone());
        found = reproduces(config, &with_prefix, candidate, &mut budget)
            .await
            .map(|hit| (with_prefix, hit));
    }
    match found {
        Some((frames, (log, breach))) => Minimizing::Confirmed(Minimized {
            frames,
            log,
            breach,
            attempts: 2 - budget.left,
            cut_short: false,
        }),
        None if budget.timed_out => Minimizing::OutOfTime,
        None => Minimizing::NotReproduced,
    }
}

/// Shrinks a confirmed finding before `until`: the frames before the
/// breaking one (ddmin), then the breaking frame itself; what it shrinks to
/// still breaks `candidate`'s invariant with its shape on a fresh peer.
pub async fn shrink(
    config: &Config,
    candidate: &Candidate,
    confirmed: Minimized,
    until: tokio::time::Instant,
) -> Minimized {
    let mut budget = Budget {
        left: ATTEMPTS,
        until,
        timed_out: false,
    };
    let Minimized {
        mut frames,
        log,
        breach,
        attempts,
        ..
    } = confirmed;
    let mut log = (log, breach);
    let Some(frame) = frames.pop() else {
        return Minimized {
            frames,
            log: log.0,
            breach: log.1,
            attempts,
            cut_short: false,
        };
    };
    // It needed what came before: shrink that prefix (ddmin).
    let mut prefix = frames;
    let mut n = 2usize;
    while !prefix.is_empty() && budget.left > 0 {
        let chunk = prefix.len().div_ceil(n);
        let mut reduced = false;
        for start in (0..prefix.len()).step_by(chunk.max(1)) {
            let mut trial: Vec<Vec<u8>> = prefix[..start].to_vec();
            trial.extend_from_slice(&prefix[(start + chunk).min(prefix.len())..]);
            let mut seq = trial.clone();
            seq.push(frame.clone());
            if let Some(l) = reproduces(config, &seq, candidate, &mut budget).await {
                prefix = trial;
                log = l;
                n = (n - 1).max(2);
                reduced = true;
                break;
            }
        }
        if !reduced {
            if chunk <= 1 {
                break;
            }
            n = (n * 2).min(prefix.len());
        }
    }
    let mut frames = prefix;
    frames.push(frame);
    // Shrink the breaking frame itself: shorter mutants that still break it.
    let mut seed = 0u64;
    while budget.left > 0 && seed < 200 {
        seed += 1;
        let Some(last) = frames.last().cloned() else {
            break;
        };
        let Some(mutant) = mutate_json(&last, seed) else {
            continue;
        };
        if mutant.len() >= last.len()
            || mutant.contains(&b'\n')
            || !super::source::safe(&mutant, &config.tools)
        {
            continue;
        }
        let mut trial = frames.clone();
        if let Some(end) = trial.last_mut() {
            *end = mutant;
        }
        if let Some(l) = reproduces(config, &trial, candidate, &mut budget).await {
            frames = trial;
            log = l;
        }
    }
    Minimized {
        frames,
        log: log.0,
        breach: log.1,
        attempts: attempts + ATTEMPTS - budget.left,
        cut_short: budget.timed_out,
    }
}
