//! 2025-11-25 task statuses, followed per task id over a conversation
//! (basic/utilities/tasks §Task Status Lifecycle, §Task ID Requirements).
//!
//! A task's status is seen in the `CreateTaskResult` that created it, in
//! `tasks/get` and `tasks/cancel` results and in `notifications/tasks/status`;
//! once one of those shows `completed`, `failed` or `cancelled`, no later one may
//! show another status. A created task's id must be new among the receiver's
//! tasks. Memory is bounded: past [`CAP`] tasks per receiver, new ones are not
//! followed.

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
        None
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
        // The other side's tasks are its own.
        assert_eq!(
            t.sighting(Direction::ClientToServer, "a", "working", true, at(7)),
            None
        );
    }
}
