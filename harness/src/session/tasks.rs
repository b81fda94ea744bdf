//! 2025-11-25 task statuses, followed per task id over a conversation
//! (basic/utilities/tasks §Task Status Lifecycle, §Task ID Requirements).
//!
//! A task's status is seen in the `CreateTaskResult` that created it, in
//! `tasks/get` and `tasks/cancel` results and in `notifications/tasks/status`;
//! once one of those shows `completed`, `failed` or `cancelled`, no later one may
//! show another status. A created task's id must be new among the receiver's
//! tasks. Where a task first showed a terminal status is kept, so a
//! `tasks/cancel` or `tasks/result` sent after it can be held to §Task
//! Cancellation and §Result Retrieval, and so is where a `tasks/result` for it
//! was answered, so a later non-terminal sighting shows the answer did not
//! wait for the end. Memory is bounded: past [`CAP`] tasks per receiver, new
//! ones are not followed.

use std::collections::HashMap;

use super::At;
use crate::profile::Direction;

/// Tasks followed per receiver.
pub(super) const CAP: usize = 4096;

const TERMINAL: [&str; 3] = ["completed", "failed", "cancelled"];

/// What a new sighting of a task breaks, if anything.
#[derive(Debug, PartialEq)]
pub(super) enum Breach {
    /// The task left a terminal status: the status and where it was last seen.
    LeftTerminal { was: String, at: At },
    /// A task was created with the id of an earlier one, created at `at`.
    IdReused { at: At },
    /// A `tasks/result` for the task was answered at `at`, and the task is
    /// still not terminal.
    ResultBeforeEnd { at: At },
}

/// Whether `status` is one a task never leaves.
pub(super) fn terminal(status: &str) -> bool {
    TERMINAL.contains(&status)
}

/// The tasks each receiver (`[client's, server's]`) has shown.
#[derive(Default)]
pub(super) struct Tasks {
    seen: [HashMap<String, Seen>; 2],
}

struct Seen {
    status: String,
    at: At,
    created: Option<At>,
    /// Where the task first showed a terminal status.
    terminal_since: Option<(String, At)>,
    /// Where a `tasks/result` for the task was answered with a result.
    result_answered: Option<At>,
    /// Seconds from the capture's start before which the task's ttl cannot
    /// have run out (infinite for a `null` ttl), when known: created no
    /// earlier than its request was sent.
    alive_until: Option<f64>,
    /// Where a `tasks/get` for it was last answered with a result.
    retrieved: Option<At>,
    /// The `pollInterval` (seconds) of the latest non-terminal `tasks/get`
    /// answer for it, and that answer, when the capture has its time.
    poll: Option<(f64, At)>,
}

const fn slot(d: Direction) -> usize {
    match d {
        Direction::ClientToServer => 0,
        Direction::ServerToClient => 1,
    }
}

impl Tasks {
    /// `receiver` (the side whose task it is) showed task `id` in `status`;
    /// `created` when the sighting is the `CreateTaskResult`.
    pub(super) fn sighting(
        &mut self,
        receiver: Direction,
        id: &str,
        status: &str,
        created: bool,
        at: At,
    ) -> Option<Breach> {
        let tasks = &mut self.seen[slot(receiver)];
        let Some(seen) = tasks.get_mut(id) else {
            if tasks.len() < CAP {
                let created = created.then_some(at);
                tasks.insert(
                    id.to_owned(),
                    Seen {
                        status: status.to_owned(),
                        at,
                        created,
                        terminal_since: terminal(status).then(|| (status.to_owned(), at)),
                        result_answered: None,
                        alive_until: None,
                        retrieved: None,
                        poll: None,
                    },
                );
            }
            return None;
        };
        if created {
            if let Some(first) = seen.created {
                return Some(Breach::IdReused { at: first });
            }
        }
        if TERMINAL.contains(&seen.status.as_str()) && seen.status != status {
            // The terminal status stays the one to hold later sightings to.
            return Some(Breach::LeftTerminal {
                was: seen.status.clone(),
                at: seen.at,
            });
        }
        seen.status = status.to_owned();
        seen.at = at;
        if created {
            seen.created = Some(at);
        }
        if terminal(status) {
            seen.terminal_since
                .get_or_insert_with(|| (status.to_owned(), at));
        } else if let Some(answered) = seen.result_answered.take() {
            return Some(Breach::ResultBeforeEnd { at: answered });
        }
        None
    }

    /// Task `id` of `receiver` cannot expire before `until` (seconds from the
    /// start; infinite for a `null` ttl).
    pub(super) fn alive_until(&mut self, receiver: Direction, id: &str, until: f64) {
        if let Some(seen) = self.seen[slot(receiver)].get_mut(id) {
            seen.alive_until = Some(until);
        }
    }

    /// A `tasks/get` for task `id` of `receiver` was answered with a result,
    /// suggesting `poll_ms` between polls when it says so.
    pub(super) fn retrieved(
        &mut self,
        receiver: Direction,
        id: &str,
        poll_ms: Option<f64>,
        at: At,
    ) {
        if let Some(seen) = self.seen[slot(receiver)].get_mut(id) {
            seen.retrieved = Some(at);
            seen.poll = poll_ms
                .filter(|_| at.time.is_some() && !terminal(&seen.status))
                .map(|ms| (ms / 1000.0, at));
        }
    }

    /// A `tasks/get` for task `id` of `receiver` was sent at `at`: the answer
    /// whose `pollInterval` (seconds) it came too soon after, if any.
    pub(super) fn polled(&mut self, receiver: Direction, id: &str, at: At) -> Option<(At, f64)> {
        let seen = self.seen[slot(receiver)].get_mut(id)?;
        let (interval, answered) = seen.poll.take()?;
        let waited = at.time? - answered.time?;
        (waited < interval).then_some((answered, interval))
    }

    /// The tasks of `receiver` that a `tasks/get` retrieved and that cannot
    /// have expired by `now`, not cancelled (a requestor may not rely on a
    /// cancelled task being kept), and absent from `listed`: each with where
    /// it was retrieved.
    pub(super) fn missing_from(
        &self,
        receiver: Direction,
        listed: &[String],
        now: Option<f64>,
    ) -> Vec<(&str, At)> {
        let mut missing: Vec<(&str, At)> = self.seen[slot(receiver)]
            .iter()
            .filter(|(id, s)| {
                let alive = match (s.alive_until, now) {
                    (Some(until), _) if until.is_infinite() => true,
                    (Some(until), Some(now)) => now < until,
                    _ => false,
                };
                alive && s.status != "cancelled" && !listed.iter().any(|l| l == *id)
            })
            .filter_map(|(id, s)| s.retrieved.map(|at| (id.as_str(), at)))
            .collect();
        missing.sort_by(|(a, x), (b, y)| (x.index, a).cmp(&(y.index, b)));
        missing
    }

    /// The terminal status task `id` of `receiver` first showed, and where,
    /// if it has shown one.
    pub(super) fn terminal_since(&self, receiver: Direction, id: &str) -> Option<(&str, At)> {
        self.seen[slot(receiver)]
            .get(id)
            .and_then(|s| s.terminal_since.as_ref())
            .map(|(status, at)| (status.as_str(), *at))
    }

    /// `receiver` answered a `tasks/result` for task `id` with a result at
    /// `at`; `Some` when the task is known and not yet seen terminal.
    pub(super) fn result_answered(&mut self, receiver: Direction, id: &str, at: At) -> Option<()> {
        let seen = self.seen[slot(receiver)].get_mut(id)?;
        if seen.terminal_since.is_some() {
            return None;
        }
        seen.result_answered.get_or_insert(at);
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(index: u64) -> At {
        At { index, time: None }
    }

    #[test]
    fn terminal_is_final_and_ids_are_new() {
        let mut t = Tasks::default();
        let s = Direction::ServerToClient;
        assert_eq!(t.sighting(s, "a", "working", true, at(1)), None);
        assert_eq!(t.sighting(s, "a", "input_required", false, at(2)), None);
        assert_eq!(t.sighting(s, "a", "completed", false, at(3)), None);
        assert_eq!(t.sighting(s, "a", "completed", false, at(4)), None);
        assert_eq!(
            t.sighting(s, "a", "working", false, at(5)),
            Some(Breach::LeftTerminal {
                was: "completed".into(),
                at: at(4)
            })
        );
        assert_eq!(
            t.sighting(s, "a", "working", true, at(6)),
            Some(Breach::IdReused { at: at(1) })
        );
        assert_eq!(
            t.terminal_since(s, "a")
                .map(|(st, at)| (st.to_owned(), at.index)),
            Some(("completed".to_owned(), 3))
        );
        // The other side's tasks are its own.
        assert_eq!(
            t.sighting(Direction::ClientToServer, "a", "working", true, at(7)),
            None
        );
    }

    #[test]
    fn a_result_answered_before_the_end_is_caught_by_a_later_status() {
        let mut t = Tasks::default();
        let s = Direction::ServerToClient;
        assert_eq!(t.sighting(s, "b", "working", true, at(1)), None);
        assert_eq!(t.result_answered(s, "b", at(2)), Some(()));
        assert_eq!(
            t.sighting(s, "b", "working", false, at(3)),
            Some(Breach::ResultBeforeEnd { at: at(2) })
        );
        assert_eq!(t.sighting(s, "b", "completed", false, at(4)), None);
        // Once terminal, an answer is what the spec asks for.
        assert_eq!(t.result_answered(s, "b", at(5)), None);
        assert_eq!(t.result_answered(s, "unknown", at(6)), None);
    }

    #[test]
    fn a_poll_sooner_than_the_interval_is_caught() {
        let mut t = Tasks::default();
        let s = Direction::ServerToClient;
        let timed = |index, time| At {
            index,
            time: Some(time),
        };
        t.sighting(s, "p", "working", true, timed(1, 0.0));
        t.sighting(s, "p", "working", false, timed(2, 1.0));
        t.retrieved(s, "p", Some(5000.0), timed(2, 1.0));
        assert_eq!(t.polled(s, "p", timed(3, 7.0)), None);
        t.retrieved(s, "p", Some(5000.0), timed(4, 7.5));
        assert_eq!(t.polled(s, "p", timed(5, 8.0)), Some((timed(4, 7.5), 5.0)));
        // Without times, nothing can be told.
        t.retrieved(s, "p", Some(5000.0), at(6));
        assert_eq!(t.polled(s, "p", at(7)), None);
    }

    #[test]
    fn only_retrieved_live_uncancelled_tasks_must_be_listed() {
        let mut t = Tasks::default();
        let s = Direction::ServerToClient;
        for (id, status) in [
            ("live", "working"),
            ("old", "working"),
            ("gone", "cancelled"),
        ] {
            t.sighting(s, id, "working", true, at(1));
            t.sighting(s, id, status, false, at(2));
            t.retrieved(s, id, None, at(2));
        }
        t.alive_until(s, "live", f64::INFINITY);
        t.alive_until(s, "old", 5.0);
        t.alive_until(s, "gone", f64::INFINITY);
        let missing = |now| {
            t.missing_from(s, &[], now)
                .into_iter()
                .map(|(id, _)| id.to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(missing(Some(1.0)), ["live", "old"]);
        // Past its ttl, or with no time to tell, "old" may have expired.
        assert_eq!(missing(Some(9.0)), ["live"]);
        assert_eq!(missing(None), ["live"]);
        assert!(t.missing_from(s, &["live".to_owned()], None).is_empty());
    }

    /// The bound the module promises: past `CAP` tasks per receiver a new task
    /// is not followed (so its later sightings are not judged), while those
    /// already followed still are.
    #[test]
    fn past_cap_tasks_new_ones_are_not_followed() {
        let mut t = Tasks::default();
        let s = Direction::ServerToClient;
        for n in 0..CAP {
            assert_eq!(
                t.sighting(s, &n.to_string(), "completed", true, at(1)),
                None
            );
        }
        assert_eq!(t.sighting(s, "late", "completed", true, at(2)), None);
        assert_eq!(t.sighting(s, "late", "working", false, at(3)), None);
        assert!(t.terminal_since(s, "late").is_none());
        assert!(matches!(
            t.sighting(s, "0", "working", false, at(4)),
            Some(Breach::LeftTerminal { .. })
        ));
    }
}
