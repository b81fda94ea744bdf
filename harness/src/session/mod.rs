//! The session judge: every rule that needs a whole conversation.
//!
//! A [`Judge`] is fed one [`Event`] at a time (a frame and who sent it, the
//! peer closing its end, a wait for an answer running out), each with an
//! optional timestamp taken from the event, never from a clock. It reports
//! violations as soon as they are certain and the rest at [`Judge::finish`]: a
//! request still unanswered at the end is a violation of
//! `jsonrpc.response.required` when the stream closed or the wait ran out, and
//! [`Outcome::NotObserved`](crate::Outcome::NotObserved) when the capture simply
//! stopped.
//!
//! Each frame is lifted by the codec and judged on its own by
//! [`spec::validate_frame`]; each request and the answer paired with it by
//! [`spec::validate_reply`]. The judge adds the state: requests in flight per
//! direction, progress tokens, cancellations, the handshake (2024-11-05 to
//! 2025-11-25: `initialize` first, then `notifications/initialized`, the
//! capabilities both sides declared) and, for 2026-07-28, what each request's
//! `_meta` carries. Memory is bounded by what is in flight, plus a fixed-size
//! memory of finished ids ([`HISTORY_CAP`] per side) for duplicate answers and
//! id reuse within the session.
//!
//! Event indexes count every event fed, from 0: a transcript's non-blank lines.

mod capabilities;
mod judge;
mod key;

pub use judge::Judge;

use crate::profile::{Direction, Revision};
use crate::spec::{self, Violation};

/// Finished ids remembered per side for `session.response.duplicate` and
/// `mcp.base.id-unique-session`; older ones are forgotten.
pub const HISTORY_CAP: usize = key::History::CAP;

/// The catalogue's `Session` rules this judge checks (the lead flips their
/// `Check` kind when the ids become typed).
pub const CHECKED_BY_SESSION_JUDGE: &[&str] = &[
    "mcp.base.id-unique-session",
    "mcp.base.id-unique-inflight",
    "mcp.lifecycle.initialize-first",
    "mcp.lifecycle.initialized-notification",
    "mcp.lifecycle.client-pre-init-requests",
    "mcp.lifecycle.server-pre-initialized-requests",
    "mcp.cancel.not-initialize",
    "mcp.cancel.same-direction",
    "mcp.cancel.client-only",
    "mcp.progress.token-unique",
    "mcp.progress.increase",
    "mcp.progress.active-token-only",
    "mcp.cancel.receiver-should",
    "mcp.lifecycle.operation-respect-r1",
    "mcp.lifecycle.operation-respect",
    "mcp.r5.mrtr.retry-id",
    "mcp.r5.logging.per-request",
];

/// The catalogue's `Session` rules this judge does not check, each with why.
pub const NOT_CHECKED: &[(&str, &str)] = &[
    ("jsonrpc.batch.invalid-single-response", "the request does not lift, so no request frame exists to pair a reply with; the golden vectors record the expected answer"),
    ("jsonrpc.params.by-name", "needs the server's parameter names, which no frame carries"),
    ("mcp.error.code.resource-not-found-32002", "needs to know that the resource does not exist, which only the server knows"),
    ("mcp.error.invalid-cursor", "needs to know which cursors the server issued: a cursor may come from an earlier connection the capture does not hold"),
    ("mcp.lifecycle.version-server", "needs to know which versions the server supports; the wire shows only the one it answered"),
    ("mcp.tasks.terminal-final", "not yet checked by the judge: needs the task statuses from `tasks/get`, `tasks/list` and `notifications/tasks/status` followed per task id"),
    ("mcp.r5.no-prior-context", "needs the server's internals: what it relied on is not on the wire"),
    ("mcp.r5.capability-missing", "needs to know which capabilities the server needs for the request"),
    ("mcp.r5.explicit-state-handles", "needs the server's internals: which state spans requests"),
    ("mcp.r5.subscriptions.requested-only", "not yet checked by the judge: needs the notification types of each `subscriptions/listen` request matched to its stream"),
    ("mcp.resources.not-found-empty", "needs to know that the resource does not exist, which only the server knows"),
    ("mcp.tools.output-schema-conform", "needs a JSON Schema validator for the tool's `outputSchema`; the harness holds none"),
];

/// One thing a conversation can show.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// A frame's exact bytes and who sent it.
    Frame {
        /// Who sent it.
        from: Direction,
        /// The frame as it travelled.
        bytes: &'a [u8],
    },
    /// The stream ended: a peer closed its end. Every request still in flight
    /// is unanswered from here on.
    Closed,
    /// The wait for an answer ran out: every request still in flight is
    /// unanswered.
    WaitElapsed,
}

/// Where a finding points: an event's index and, when the capture had one,
/// its time in seconds from the start.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct At {
    /// The event's index, from 0.
    pub index: u64,
    /// Seconds from the start, when known.
    #[serde(rename = "t", skip_serializing_if = "Option::is_none")]
    pub time: Option<f64>,
}

/// A rule broken, and every event involved (oldest first; the last is the
/// event that made it certain).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Finding {
    /// The rule, its level and reference, and what was found.
    #[serde(flatten)]
    pub violation: Violation,
    /// The events involved.
    pub frames: Vec<At>,
}

/// A check that applied but had nothing to decide on: the capture stopped
/// before it could.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Unobserved {
    /// The rule that could not be decided.
    pub rule: &'static str,
    /// The events it concerns.
    pub frames: Vec<At>,
    /// What was missing.
    pub why: String,
}

/// What [`Judge::finish`] adds at the end.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ending {
    /// Violations certain only at the end.
    pub findings: Vec<Finding>,
    /// Checks the capture ended too early to decide.
    pub not_observed: Vec<Unobserved>,
}

/// The one place the judge's own findings are built: rule `id` broken under
/// `revision`, or nothing when the rule does not apply to it.
fn finding(
    id: &str,
    revision: Revision,
    pointer: String,
    message: String,
    frames: Vec<At>,
) -> Option<Finding> {
    let Some(info) = spec::rule(id) else {
        // Unreachable by construction: `tests/session.rs` checks every id named
        // here against the table.
        debug_assert!(false, "rule `{id}` is not in the table");
        return None;
    };
    info.applies_to(revision).then(|| Finding {
        violation: Violation {
            rule: info.id,
            level: info.level,
            spec: info.cite(revision),
            pointer,
            message,
        },
        frames,
    })
}

/// The revision a conversation speaks, read from it: the version the server's
/// `initialize` answer chose, else the one the client's `initialize` asked for,
/// else a 2026-07-28 request's `_meta` `io.modelcontextprotocol/protocolVersion`.
/// `None` when no frame names a revision wirecheck knows.
pub fn detect_revision<'a>(
    frames: impl IntoIterator<Item = (Direction, &'a [u8])>,
) -> Option<Revision> {
    let (mut asked, mut meta, mut init_ids) = (None, None, Vec::new());
    let known = |v: Option<crate::Raw<'_>>| -> Option<Revision> {
        v?.as_string()?
            .parse()
            .ok()
            .filter(|r: &Revision| r.is_mcp())
    };
    for (from, bytes) in frames {
        let Ok(frame) = crate::lift(bytes) else {
            continue;
        };
        for m in frame.messages() {
            match (from, m) {
                (Direction::ClientToServer, crate::Message::Request(r)) => {
                    let params = r.params.as_ref();
                    if r.method.decoded() == "initialize" {
                        init_ids.push(r.id.clone().into_owned());
                        asked =
                            asked.or_else(|| known(params.and_then(|p| p.get("protocolVersion"))));
                    } else if meta.is_none() {
                        meta = known(params.and_then(|p| p.get("_meta")).and_then(|m| {
                            m.get("io.modelcontextprotocol/protocolVersion")
                                .map(crate::Raw::into_owned)
                        }));
                    }
                }
                (Direction::ServerToClient, crate::Message::Success(s))
                    if init_ids.iter().any(|id| id.matches(&s.id)) =>
                {
                    if let Some(r) = known(s.result.get("protocolVersion")) {
                        return Some(r);
                    }
                }
                _ => {}
            }
        }
    }
    asked.or(meta)
}
