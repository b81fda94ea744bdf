//! How fast, how much, and whether at all a command may send to a peer: one
//! [`Pacer`] shared by every connection of a run, asked before each frame
//! goes out ([`crate::driver::Driver`] asks it) and told by the HTTP
//! transports when a server answers 429 Too Many Requests or 503 Service
//! Unavailable.
//!
//! It lives here, on the live-session stack, rather than in one command: a
//! server deployed in production is judged by `run --mode polite` today, and
//! any other command that talks to it can be held to the same pace later by
//! handing its drivers the same pacer.
//!
//! The rate is a token bucket of one token (requests are spaced at least
//! `1 / rate` apart, across every connection sharing the pacer): no burst is
//! ever allowed, since the point is to look like one careful client. Waits
//! are on tokio's clock.

use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ground::sync::lock;
use tokio::time::Instant;

/// What a [`Pacer`] holds a run to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pace {
    /// At most this many frames a second, across every connection (`None`:
    /// as fast as the run goes).
    pub rate: Option<f64>,
    /// At most this many frames in all (`None`: no bound).
    pub budget: Option<u64>,
    /// Whether a 429 or 503 stops the run (after one `Retry-After` waited
    /// out, when it is no longer than [`Pace::retry_cap`]). Off, a busy
    /// answer is only counted, as it always was.
    pub stop_when_busy: bool,
    /// The longest `Retry-After` waited out before going on.
    pub retry_cap: Duration,
}

impl Pace {
    /// No bound at all: every frame admitted at once, busy answers counted.
    pub const FREE: Pace = Pace {
        rate: None,
        budget: None,
        stop_when_busy: false,
        retry_cap: Duration::ZERO,
    };
}

impl Default for Pace {
    fn default() -> Self {
        Pace::FREE
    }
}

/// Why a [`Pacer`] admits nothing more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Halt {
    /// The budget was spent.
    Budget {
        /// The budget.
        of: u64,
    },
    /// The server answered 429 or 503 and its `Retry-After` was not waited
    /// out: absent, past the cap, or a second one after the one honoured.
    Busy {
        /// 429 or 503.
        status: u16,
        /// Its `Retry-After`, when it gave one in seconds.
        retry_after: Option<Duration>,
        /// Whether one `Retry-After` was waited out before.
        again: bool,
    },
}

impl fmt::Display for Halt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Halt::Budget { of } => write!(f, "the request budget of {of} (--budget) was spent"),
            Halt::Busy {
                status,
                retry_after,
                again,
            } => {
                let name = if *status == 429 {
                    "429 Too Many Requests"
                } else {
                    "503 Service Unavailable"
                };
                write!(f, "the server answered {name}")?;
                match (again, retry_after) {
                    (true, _) => write!(f, " again after its Retry-After was waited out once"),
                    (false, Some(after)) => write!(
                        f,
                        " with Retry-After {} s, longer than this run waits",
                        after.as_secs()
                    ),
                    (false, None) => write!(f, " without a Retry-After in seconds"),
                }
            }
        }
    }
}

/// What a pacer saw of a run, for its report.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Paced {
    /// Frames admitted (each one HTTP request over HTTP, one line over stdio).
    pub sent: u64,
    /// The most frames admitted within any one second.
    pub peak_per_second: u64,
    /// How many 429 or 503 answers came.
    pub busy_answers: u64,
    /// Why it stopped admitting, if it did.
    pub halted: Option<Halt>,
}

/// The one pace every connection of a run shares (cheap to clone: clones
/// share it).
#[derive(Debug, Clone, Default)]
pub struct Pacer {
    pace: Pace,
    state: Arc<Mutex<State>>,
}

#[derive(Debug, Default)]
struct State {
    /// The earliest time the next frame may go.
    next: Option<Instant>,
    /// When the last frame went.
    last: Option<Instant>,
    /// Frames admitted (budget spent).
    sent: u64,
    /// When the frames of the last second went, for the peak.
    window: VecDeque<Instant>,
    peak: u64,
    busy_answers: u64,
    /// A busy answer to wait out before the next frame: until when.
    retry_until: Option<Instant>,
    /// Whether a `Retry-After` was already waited out.
    honoured: bool,
    halted: Option<Halt>,
}

impl Pacer {
    /// A pacer holding its connections to `pace`.
    #[must_use]
    pub fn new(pace: Pace) -> Pacer {
        Pacer {
            pace,
            state: Arc::default(),
        }
    }

    /// What it holds the run to.
    #[must_use]
    pub fn pace(&self) -> Pace {
        self.pace
    }

    /// Waits until one more frame may go, and counts it; an error, at once,
    /// when no more may (the budget spent, or the server said it was busy).
    ///
    /// # Errors
    /// Why nothing more is sent.
    pub async fn admit(&self) -> Result<(), Halt> {
        let interval = self
            .pace
            .rate
            .filter(|r| *r > 0.0)
            .map(|r| Duration::from_secs_f64(1.0 / r));
        let mut at = {
            let mut state = lock(&self.state);
            if let Some(halt) = &state.halted {
                return Err(halt.clone());
            }
            if let Some(of) = self.pace.budget.filter(|of| state.sent >= *of) {
                let halt = Halt::Budget { of };
                state.halted = Some(halt.clone());
                return Err(halt);
            }
            let now = Instant::now();
            let mut at = state.next.map_or(now, |next| next.max(now));
            if let Some(until) = state.retry_until {
                at = at.max(until);
            }
            if let Some(interval) = interval {
                state.next = Some(at + interval);
            }
            state.sent += 1;
            at
        };
        loop {
            // Due now: no sleep, which would still yield and cost a timer
            // tick to every frame of an unbounded run.
            if at > Instant::now() {
                tokio::time::sleep_until(at).await;
            }
            let mut state = lock(&self.state);
            let now = Instant::now();
            // Spaced by when frames really went, not by when they were
            // due: a waiter woken late must not bring the next one closer.
            if let (Some(interval), Some(last)) = (interval, state.last) {
                if now < last + interval {
                    at = last + interval;
                    continue;
                }
            }
            state.last = Some(now);
            if let Some(interval) = interval {
                state.next = Some(state.next.map_or(now + interval, |n| n.max(now + interval)));
            }
            // A frame admitted before a halt still goes: it was already counted.
            state.window.push_back(now);
            while state
                .window
                .front()
                .is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(1))
            {
                state.window.pop_front();
            }
            state.peak = state.peak.max(state.window.len() as u64);
            return Ok(());
        }
    }

    /// The server answered `status`; when it is 429 or 503 and the pace
    /// stops on those, one `Retry-After` of at most [`Pace::retry_cap`] is
    /// waited out before the next frame, and anything else stops the run.
    pub fn answered(&self, status: u16, retry_after: Option<Duration>) {
        if !matches!(status, 429 | 503) {
            return;
        }
        let mut state = lock(&self.state);
        state.busy_answers += 1;
        if !self.pace.stop_when_busy || state.halted.is_some() {
            return;
        }
        match retry_after.filter(|after| *after <= self.pace.retry_cap) {
            Some(after) if !state.honoured => {
                state.honoured = true;
                let until = Instant::now() + after;
                state.retry_until = Some(state.retry_until.map_or(until, |u| u.max(until)));
            }
            _ => {
                state.halted = Some(Halt::Busy {
                    status,
                    retry_after,
                    again: state.honoured,
                });
            }
        }
    }

    /// Why it admits nothing more, if it does not.
    #[must_use]
    pub fn halted(&self) -> Option<Halt> {
        lock(&self.state).halted.clone()
    }

    /// How many 429 or 503 answers came so far: a probe that saw one come
    /// was answered by a busy server, not judged.
    #[must_use]
    pub fn busy_answers(&self) -> u64 {
        lock(&self.state).busy_answers
    }

    /// What it saw so far.
    #[must_use]
    pub fn report(&self) -> Paced {
        let state = lock(&self.state);
        Paced {
            sent: state.sent,
            peak_per_second: state.peak,
            busy_answers: state.busy_answers,
            halted: state.halted.clone(),
        }
    }
}

/// A `Retry-After` header's value in seconds (RFC 9110 §10.2.3); `None` for
/// an HTTP date, which this client does not wait on, or anything else.
#[must_use]
pub fn retry_after(value: &str) -> Option<Duration> {
    value.trim().parse::<u64>().ok().map(Duration::from_secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pace(rate: Option<f64>, budget: Option<u64>) -> Pacer {
        Pacer::new(Pace {
            rate,
            budget,
            stop_when_busy: true,
            retry_cap: Duration::from_secs(30),
        })
    }

    #[tokio::test(start_paused = true)]
    async fn frames_are_spaced_by_the_rate_and_the_peak_is_counted() {
        let pacer = pace(Some(4.0), None);
        let start = Instant::now();
        for _ in 0..9 {
            pacer.admit().await.unwrap();
        }
        // Nine frames at 4/s: eight gaps of 250 ms.
        assert_eq!(start.elapsed(), Duration::from_secs(2));
        let report = pacer.report();
        assert_eq!(report.sent, 9);
        assert_eq!(report.peak_per_second, 4);
    }

    #[tokio::test(start_paused = true)]
    async fn clones_share_one_pace() {
        let pacer = pace(Some(2.0), None);
        let other = pacer.clone();
        let start = Instant::now();
        let (a, b) = tokio::join!(pacer.admit(), other.admit());
        a.unwrap();
        b.unwrap();
        other.admit().await.unwrap();
        assert_eq!(start.elapsed(), Duration::from_secs(1));
        assert_eq!(pacer.report().sent, 3);
    }

    #[tokio::test(start_paused = true)]
    async fn the_budget_stops_admitting_and_says_so() {
        let pacer = pace(None, Some(3));
        for _ in 0..3 {
            pacer.admit().await.unwrap();
        }
        assert_eq!(pacer.admit().await, Err(Halt::Budget { of: 3 }));
        assert_eq!(pacer.halted(), Some(Halt::Budget { of: 3 }));
        assert_eq!(pacer.report().sent, 3);
    }

    #[tokio::test(start_paused = true)]
    async fn one_short_retry_after_is_waited_out_then_a_second_busy_answer_stops() {
        let pacer = pace(None, None);
        pacer.admit().await.unwrap();
        pacer.answered(429, Some(Duration::from_secs(2)));
        let start = Instant::now();
        pacer.admit().await.unwrap();
        assert_eq!(start.elapsed(), Duration::from_secs(2));
        pacer.answered(503, Some(Duration::from_secs(1)));
        let halt = pacer.admit().await.unwrap_err();
        assert!(matches!(halt, Halt::Busy { again: true, .. }), "{halt:?}");
        assert_eq!(pacer.busy_answers(), 2);
    }

    #[tokio::test(start_paused = true)]
    async fn a_long_or_missing_retry_after_stops_at_once() {
        for after in [None, Some(Duration::from_secs(31))] {
            let pacer = pace(None, None);
            pacer.answered(429, after);
            assert!(pacer.admit().await.is_err());
            assert!(pacer.halted().unwrap().to_string().contains("429"));
        }
        // Another status, or a pace that does not stop: counted only.
        let pacer = pace(None, None);
        pacer.answered(500, None);
        assert!(pacer.admit().await.is_ok());
        let free = Pacer::new(Pace::FREE);
        free.answered(429, None);
        assert!(free.admit().await.is_ok());
        assert_eq!(free.busy_answers(), 1);
    }

    #[test]
    fn retry_after_reads_seconds_only() {
        assert_eq!(retry_after(" 3 "), Some(Duration::from_secs(3)));
        assert_eq!(retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
    }
}
