//! Planted state defects (`wirecheck serve --state-defect NAME`, hidden, for
//! tests): the reference peer wrong in exactly one way that only a sequence
//! shows, so that stateful fuzzing is tested against a peer it must fail.
//!
//! The defect is the process's (set once by `serve` before it serves):
//! threading a test-only switch through every constructor of the peer, and
//! of its HTTP sessions, would touch every caller for nothing a user sees.

use std::sync::OnceLock;

/// One planted state defect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StateDefect {
    /// A page after the first starts one item early: it repeats the last
    /// item of the page before.
    RepeatingCursor,
    /// `resources/unsubscribe` is answered, yet every later request is
    /// preceded by `notifications/resources/updated` for that resource.
    SubscriptionLeak,
    /// Streamable HTTP: DELETE of a session is answered 204 and the session
    /// goes on answering.
    ZombieSession,
}

static PLANTED: OnceLock<StateDefect> = OnceLock::new();

/// Plants `defect` in this process (the first call wins).
pub fn plant(defect: StateDefect) {
    let _ = PLANTED.set(defect);
}

/// Whether `defect` was planted in this process.
#[must_use]
pub fn planted(defect: StateDefect) -> bool {
    PLANTED.get() == Some(&defect)
}
