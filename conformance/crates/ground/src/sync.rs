//! Locking shared state across threads and tasks: the one `lock` every
//! module uses.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `mutex`, recovering the guard when a holder panicked: a poisoned
/// lock still guards consistent data everywhere it is used here (every
/// critical section is a map or queue operation, a push, or one
/// `Peer::handle`), and what it holds (traces, HTTP facts, a session's
/// state) is still worth judging and reporting.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
