//! Reproducing a finding against a fresh peer, and shrinking what it takes.
//!
//! Delta debugging (Zeller's ddmin, complement removal only) over the frames
//! that led up to the finding, the breaking frame kept last; then the frame
//! itself is shrunk by the structural mutator, keeping a shorter candidate
//! whenever it still breaks the same invariant with the same shape. Every step
//! is a new peer process (restarted as the minimizer needs), listened to with a
//! longer grace than the fuzz loop uses, so a finding the peer does not
//! reproduce is dropped rather than reported.

use harness::fuzzing::mutate_json;

use super::invariant::{expect, shape, Expect};
use super::peer::{Live, Waits};
use super::{Candidate, Config};
use crate::driver::WireEvent;

/// The most peer restarts spent on one finding.
const ATTEMPTS: usize = 40;

/// A finding's frames and the log of the run that confirmed it.
pub struct Minimized {
    /// The smallest sequence found, breaking frame last.
    pub frames: Vec<Vec<u8>>,
    /// The wire log of the confirming run.
    pub log: Vec<WireEvent>,
    /// Peer restarts spent.
    pub attempts: usize,
}

struct Budget {
    left: usize,
    /// A slow peer (a Node server starts in a third of a second) must not
    /// turn minimizing into the longest part of the run.
    until: tokio::time::Instant,
}

/// Whether `frames`, sent to a fresh peer, break `target` on their last frame
/// (same kind, same rule, same shape); the run's log when they do.
async fn reproduces(
    config: &Config,
    frames: &[Vec<u8>],
    target: &Candidate,
    budget: &mut Budget,
) -> Option<Vec<WireEvent>> {
    if budget.left == 0 || tokio::time::Instant::now() >= budget.until {
        budget.left = 0;
        return None;
    }
    budget.left -= 1;
    let waits = Waits {
        answer_timeout: config.timeout,
        grace: config.confirm_grace,
    };
    let mut live = Live::start(&config.target, config.revision, &waits, config.limits)
        .await
        .ok()?;
    let (last, before) = frames.split_last()?;
    for frame in before {
        let report = live.exchange(frame, expect(frame) != Expect::Nothing).await;
        // The prefix's own HTTP findings are read here, not blamed on `last`.
        let _ = live.judge(frame, &report, config.revision, config.strict);
        if !matches!(report.live, crate::driver::Live::Answered(_)) {
            live.stop().await;
            return None;
        }
    }
    let report = live.exchange(last, expect(last) != Expect::Nothing).await;
    let hit = live
        .judge(last, &report, config.revision, config.strict)
        .iter()
        .any(|b| b.kind == target.breach.kind && b.rule == target.breach.rule)
        && shape(last, config.revision) == target.shape;
    let log = live.stop().await;
    hit.then_some(log)
}

/// Confirms `candidate` against fresh peers and shrinks it; `None` when no
/// fresh peer breaks it again.
pub async fn minimize(
    config: &Config,
    candidate: &Candidate,
    until: tokio::time::Instant,
) -> Option<Minimized> {
    let mut budget = Budget {
        left: ATTEMPTS,
        until,
    };
    let frame = candidate.frame.clone();
    let mut frames = vec![frame.clone()];
    let mut log = reproduces(config, &frames, candidate, &mut budget).await;
    if log.is_none() {
        // It needed what came before: shrink that prefix (ddmin).
        let mut with_prefix = candidate.before.clone();
        with_prefix.push(frame.clone());
        log = reproduces(config, &with_prefix, candidate, &mut budget).await;
        log.as_ref()?;
        let mut prefix = candidate.before.clone();
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
                    log = Some(l);
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
        frames = prefix;
        frames.push(frame);
    }
    // Shrink the breaking frame itself: shorter mutants that still break it.
    let mut seed = 0u64;
    while budget.left > 0 && seed < 200 {
        seed += 1;
        let last = frames.last()?.clone();
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
        *trial.last_mut()? = mutant;
        if let Some(l) = reproduces(config, &trial, candidate, &mut budget).await {
            frames = trial;
            log = Some(l);
        }
    }
    Some(Minimized {
        frames,
        log: log?,
        attempts: ATTEMPTS - budget.left,
    })
}
