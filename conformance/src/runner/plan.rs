//! Which vectors share a session.
//!
//! A request id MUST NOT be reused within a session (MCP 2025-11-25,
//! basic/index, "Requests", MUST), and most vectors use small ids (`1`, `2`).
//! Rewriting a repeated id to a fresh one of the same JSON type would change
//! what many vectors test (`1.0`, `9007199254740993`, `"1"` against `1`), so a
//! vector whose id was already sent goes to another session instead: vectors
//! are packed greedily into sessions whose request ids are pairwise distinct,
//! each session a fresh peer process. Opening requests (`initialize`,
//! `server/discover`) are sent as the first frame of a session of their own,
//! where a handshake request belongs.

use harness::{lift, Id, Message};

use crate::vectors::Vector;

/// The vectors of one session, by index into the slice given to [`pack`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// Whether the session opens with the vector's frame instead of the
    /// runner's handshake (then it holds exactly one vector).
    pub opening: bool,
    /// Indices, in the order they are sent.
    pub vectors: Vec<usize>,
}

/// Whether `vector`'s frame is a handshake request.
#[must_use]
pub fn is_opening(vector: &Vector) -> bool {
    serde_json::from_slice::<serde_json::Value>(&vector.frame)
        .ok()
        .and_then(|v| v.get("method").and_then(|m| m.as_str()).map(str::to_owned))
        .is_some_and(|m| m == "initialize" || m == "server/discover")
}

fn ids(vector: &Vector) -> Vec<Id<'static>> {
    let Ok(frame) = lift(&vector.frame) else {
        return Vec::new();
    };
    frame
        .messages()
        .iter()
        .filter(|m| matches!(m, Message::Request(_)))
        .filter_map(|m| m.id().map(|id| id.clone().into_owned()))
        .collect()
}

/// Packs `vectors` (every one played) into sessions, in order.
#[must_use]
pub fn pack(vectors: &[&Vector]) -> Vec<Session> {
    let mut sessions: Vec<(Session, Vec<Id<'static>>)> = Vec::new();
    let mut opening = Vec::new();
    for (i, vector) in vectors.iter().enumerate() {
        if is_opening(vector) {
            opening.push(Session {
                opening: true,
                vectors: vec![i],
            });
            continue;
        }
        let mine = ids(vector);
        let fits = |used: &[Id<'static>]| {
            // Within the frame too: a batch repeating an id is the vector's point.
            !mine.iter().any(|id| used.iter().any(|u| u.matches(id)))
        };
        match sessions.iter_mut().find(|(_, used)| fits(used)) {
            Some((session, used)) => {
                session.vectors.push(i);
                used.extend(mine);
            }
            None => sessions.push((
                Session {
                    opening: false,
                    vectors: vec![i],
                },
                mine,
            )),
        }
    }
    sessions
        .into_iter()
        .map(|(s, _)| s)
        .chain(opening)
        .collect()
}
