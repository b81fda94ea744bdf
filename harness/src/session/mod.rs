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
//! [`crate::rules::validate_frame`]; each request and the answer paired with it by
//! [`crate::rules::validate_reply`]. The judge adds the state: requests in flight per
//! direction, progress tokens, cancellations, the handshake (2024-11-05 to
//! 2025-11-25: `initialize` first, then `notifications/initialized`, the
//! capabilities both sides declared, and the modes and options inside them) and,
//! for 2026-07-28, what each request's `_meta` carries, the capabilities the
//! `server/discover` answer declared, and each `subscriptions/listen` in flight
//! (acknowledged yet, and the notification types its filter asked for). Memory is bounded by what is in flight, plus a fixed-size
//! memory of finished ids ([`HISTORY_CAP`] per side) for duplicate answers and
//! id reuse within the session.
//!
//! Event indexes count every event fed, from 0: a transcript's non-blank lines.

mod capabilities;
mod judge;
mod key;

pub use judge::Judge;

use crate::profile::{Direction, Revision};
use crate::rules::{CheckedBy, RuleId, Violation};

/// Finished ids remembered per side for `session.response.duplicate` and
/// `mcp.base.id-unique-session`; older ones are forgotten.
pub const HISTORY_CAP: usize = key::History::CAP;

/// The rules this judge checks: the catalogue's rules marked
/// [`CheckedBy::Session`] (every other rule that needs a conversation is marked
/// [`CheckedBy::Unchecked`] there, with its reason).
pub fn judged_rules() -> impl Iterator<Item = RuleId> {
    RuleId::ALL
        .into_iter()
        .filter(|r| r.info().check == CheckedBy::Session)
}

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

impl At {
    /// The event as people count, from 1 (the first frame of a transcript
    /// is event 1, as its first line is line 1): what messages say.
    #[must_use]
    pub fn number(&self) -> u64 {
        self.index.saturating_add(1)
    }
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
    pub rule: RuleId,
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
    id: RuleId,
    revision: Revision,
    pointer: String,
    message: String,
    frames: Vec<At>,
) -> Option<Finding> {
    let info = id.info();
    info.applies_to(revision).then(|| Finding {
        violation: Violation {
            rule: id,
            level: info.level,
            spec: info.cite(revision),
            pointer,
            message,
        },
        frames,
    })
}

/// Who broke the rule of a finding that involves `frames`, where
/// `sender(index)` says who sent the event at that index (`None` for an event
/// that is no frame: a closed stream, an elapsed wait).
///
/// The last event involved made the finding certain. When it is a frame, its
/// sender broke the rule. When it is the end of the stream or of the wait,
/// the rule broken is an answer owed, and the side that owed it is the one
/// the first frame involved (the request) was sent to. `None` when neither
/// says.
#[must_use]
pub fn blame(frames: &[At], sender: impl Fn(u64) -> Option<Direction>) -> Option<Direction> {
    let last = frames.last()?;
    if let Some(from) = sender(last.index) {
        return Some(from);
    }
    sender(frames.first()?.index).map(Direction::reverse)
}

/// Whether a request of `method` under `revision` is answered only when its
/// stream ends, not in the course of the exchange: 2026-07-28's
/// `subscriptions/listen` stays open "until the client cancels it", and the
/// server answers it only when it ends the subscription itself (SHOULD;
/// basic/patterns/subscriptions §Cancellation, §Graceful Closure). A wait that
/// elapses leaves it open, not unanswered.
#[must_use]
pub fn long_lived(revision: Revision, method: &str) -> bool {
    revision >= Revision::Mcp2026_07_28 && method == "subscriptions/listen"
}

/// The revision a server's `result` to a request of `method` is judged under,
/// in a conversation under `revision`. 2026-07-28 has no `initialize`, so a
/// server that answers one with a result is dual-era and answers as the legacy
/// revision it negotiated ("The server answers `initialize` and serves the
/// client according to the negotiated legacy revision", 2026-07-28
/// basic/versioning §Compatibility Matrix): the one the result's
/// `protocolVersion` names, else 2025-11-25, the latest legacy one; its answer
/// owes none of 2026-07-28's result fields (`resultType`, `_meta` serverInfo).
/// Any other answer: `revision`.
#[must_use]
pub fn answer_revision(revision: Revision, method: &str, result: &crate::Raw<'_>) -> Revision {
    if revision != Revision::Mcp2026_07_28 || method != "initialize" {
        return revision;
    }
    result
        .get("protocolVersion")
        .and_then(|v| v.as_string().and_then(|v| v.parse::<Revision>().ok()))
        .filter(|r| r.is_mcp() && *r < Revision::Mcp2026_07_28)
        .unwrap_or(Revision::Mcp2025_11_25)
}

/// The revision a conversation speaks, read from it: the version the server's
/// `initialize` answer chose, else the one the client's `initialize` asked for,
/// else a 2026-07-28 request's `_meta` `io.modelcontextprotocol/protocolVersion`.
/// `None` when no frame names a revision wirecheck knows.
pub fn detect_revision<'a>(
    frames: impl IntoIterator<Item = (Direction, &'a [u8])>,
) -> Option<Revision> {
    let (chosen, named) = scan_revision(frames);
    chosen.or(named)
}

/// The revision the server's answer to `initialize` chose, when `frames` hold
/// it: the point from which [`detect_revision`] can no longer change its
/// mind, so a live judge may start there.
pub fn negotiated_revision<'a>(
    frames: impl IntoIterator<Item = (Direction, &'a [u8])>,
) -> Option<Revision> {
    scan_revision(frames).0
}

/// What the frames say of the revision: the one the server's `initialize`
/// answer chose (scanning stops there), and else the one the client asked
/// for or a request's `_meta` named.
fn scan_revision<'a>(
    frames: impl IntoIterator<Item = (Direction, &'a [u8])>,
) -> (Option<Revision>, Option<Revision>) {
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
                        return (Some(r), asked.or(meta));
                    }
                }
                _ => {}
            }
        }
    }
    (None, asked.or(meta))
}
