//! How a fuzz run spends its `--duration`: the share kept for confirming
//! and shrinking what was found, and each finding's part of it.

use std::time::Duration;

use tokio::time::Instant;

/// The most time one finding's confirmation and shrinking may take.
pub const PER_FINDING: Duration = Duration::from_secs(10);

/// The least time a finding's confirmation is given while there is that much
/// left: a fresh peer must start, take the handshake and the frames, and be
/// listened to (a Node server starts in about a third of a second). A peer
/// seen to start slower in this run gets twice its slowest start and half a
/// second more ([`confirm_share`]).
const SHARE_AT_LEAST: Duration = Duration::from_secs(1);

/// The least time worth giving an attempt on fresh peers, for a peer that
/// took up to `slowest_start` to start and open its session.
pub(super) fn attempt_floor(slowest_start: Duration) -> Duration {
    SHARE_AT_LEAST.max(slowest_start * 2 + Duration::from_millis(500))
}

/// The time the confirmation of the next of `remaining` findings is given
/// when `left` is left: an equal share, at most [`PER_FINDING`], but never
/// less than one confirmation takes (two starts of a peer that took up to
/// `slowest_start` to start and open its session in this run, and the
/// frames): with little time the first findings are confirmed and the rest
/// said to be suspected, rather than none confirmed (equal shares of one
/// second each left a Python server, two seconds to start on a loaded
/// machine, with no finding confirmed at all).
#[must_use]
pub fn confirm_share(left: Duration, remaining: usize, slowest_start: Duration) -> Duration {
    let floor = attempt_floor(slowest_start);
    (left / u32::try_from(remaining.max(1)).unwrap_or(u32::MAX))
        .clamp(floor.min(left).min(PER_FINDING), PER_FINDING)
}

/// The part of `--duration` kept for confirming and shrinking once the
/// fuzzing has found something: a third, so `--duration` bounds the whole run
/// (fuzzing 20 s and then shrinking for up to 20 s more would not).
const MINIMIZE_SHARE: f64 = 1.0 / 3.0;

/// How long the fuzzing of a run of `duration` may go on: all of it while
/// nothing is found (or nothing is to be confirmed), else all but the share
/// kept for confirming and shrinking, at most `cap` (`--minimize-budget`).
#[must_use]
pub fn fuzzing_time(duration: Duration, minimize: bool, found: bool, cap: Duration) -> Duration {
    if minimize && found {
        duration.saturating_sub(duration.mul_f64(MINIMIZE_SHARE).min(cap))
    } else {
        duration
    }
}

/// When confirming and shrinking, begun at `minimizing`, must end: after
/// `cap` (`--minimize-budget`), and never past the run's `duration` from
/// `started`.
#[must_use]
pub fn minimizing_ends(
    started: Instant,
    duration: Option<Duration>,
    minimizing: Instant,
    cap: Duration,
) -> Instant {
    let capped = minimizing + cap;
    duration.map_or(capped, |d| capped.min(started + d))
}
