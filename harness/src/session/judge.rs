//! The judge's core: what every conversation has, whatever its revision.
//! Every event is taken in here ([`Judge::feed`]), each side's requests in
//! flight and the ids it finished are kept here, answers are paired with their
//! requests here, and the stream's end is decided here. What a protocol
//! feature adds is a [`Concern`]: it owns its state, and the core hands it each
//! request, notification and answer (the answer with its request), each
//! request the end of the stream left unanswered, and the end of the capture.
//!
//! - [`handshake`]: `initialize`, `notifications/initialized`, the capabilities
//!   declared (and 2026-07-28's `server/discover`);
//! - [`lists`]: answers against earlier list answers;
//! - [`logging`]: the per-request log level (2026-07-28);
//! - [`elicitation`]: URL-mode elicitation ids (2025-11-25);
//! - [`tasks`]: tasks (2025-11-25);
//! - [`subscriptions`]: `subscriptions/listen` (2026-07-28);
//! - [`mrtr`]: input-required answers and their retries (2026-07-28);
//! - [`cancellation`]: cancellation and progress.
//!
//! A concern applies under the revisions its rules apply to (the rule
//! catalogue's, [`Concern::rules`]); a judge holds only the concerns that
//! apply to its revision ([`Concerns::for_revision`]).
//!
//! What more than one concern reads is the core's, and a concern reaches it
//! through its context ([`Cx`]): the requests in flight (a concern reads the
//! open request, and marks on it what outlives one event: cancelled, its
//! progress token, a subscription acknowledged or torn down, a cancellation
//! read), the capabilities negotiated ([`Negotiated`], written by the
//! handshake, read by five concerns), and what closed a finished id
//! ([`Past`], forgotten with the id). Data that lives as long as its request
//! stays on the request ([`Open`]), so every way a request leaves (answered,
//! given up, answered by an error with id null) drops it at once, and no
//! concern keeps a map to clean up per request.

mod cancellation;
mod concern;
mod elicitation;
mod handshake;
mod lists;
mod logging;
mod mrtr;
mod subscriptions;
mod tasks;

use super::key::{History, Key, KeyMap, Past};
use super::{finding, At, Ending, Event, Finding, Unobserved};
use concern::{Answer, Closes, Concern, Concerns, Cx, End, Notification, Out, Request};
use handshake::Negotiated;
use std::borrow::Cow;

use crate::ir::{Frame, Id, Message, Raw};
use crate::profile::{Direction, Profile, Revision};
use crate::rules::{self, RuleId};

/// Follows one conversation under one revision. See the [module docs](super).
pub struct Judge {
    revision: Revision,
    /// Whether each frame and each pair is also judged by the rule model.
    frame_rules: bool,
    /// Whether each direction is one ordered stream (stdio), so an answer to
    /// a request sent after a cancellation shows the cancellation was read.
    ordered: bool,
    next: u64,
    /// Why and where the stream ended, once it has.
    ended: Option<(&'static str, At)>,
    /// Requests each side sent: `[client's, server's]`.
    sides: [Side; 2],
    /// The capabilities each side declared, and where.
    negotiated: Negotiated,
    /// The event index of each sender's latest message when it was a
    /// notification (`[client, server]`): an id-less answer right after one
    /// answers it.
    last_notification: [Option<At>; 2],
    /// The protocol features that apply to the revision.
    concerns: Concerns,
}

/// What one side has asked of the other.
struct Side {
    in_flight: KeyMap<Open>,
    /// Ids read from this side's frames the codec refused (an Invalid
    /// Request whose id is readable), oldest first: the other side may echo
    /// one in its error ([`crate::error_ids`]), which then answers it rather
    /// than repeating an earlier answer. Bounded by [`MALFORMED_CAP`].
    /// A frame repeating its `id` member (`{"id":1,"id":2}`) is one of them
    /// (the codec refuses a duplicate member), kept under each id: a
    /// receiver may read either.
    malformed: Vec<crate::error_ids::Read<'static>>,
    history: History,
    /// Progress tokens of this side's requests in flight: a token is its
    /// request's, dropped with it, but outlives it for a task (progress and
    /// tasks both write it).
    tokens: KeyMap<Token>,
}

/// A request waiting for its answer, and what concerns marked on it.
struct Open {
    request: Message<'static>,
    at: At,
    /// Where the sender cancelled it: no answer is owed from here on.
    cancelled: Option<At>,
    /// Its progress token, in [`Side::tokens`].
    token: Option<Key>,
    /// For a `subscriptions/listen`: the event at which the server
    /// acknowledged it (read by subscriptions, and by lists for the changes
    /// a subscription was owed).
    acknowledged: Option<u64>,
    /// For a `subscriptions/listen`: where the server sent
    /// `notifications/cancelled` for it, the teardown signal of
    /// basic/patterns/cancellation. Kept apart from `cancelled` (the client's
    /// cancellation): a server answering its own cancelled subscription is
    /// the subscriptions page's graceful end, not an answer after a cancel.
    torn_down: Option<At>,
    /// For a cancelled request: where the server answered a request the
    /// client sent after the cancellation, so it had read the cancellation
    /// (one ordered stream each way); a message for this request after that
    /// did not cross it.
    cancel_read: Option<At>,
}

impl Open {
    /// Whether it is a `subscriptions/listen`.
    fn listen(&self) -> bool {
        self.request.method().as_deref() == Some("subscriptions/listen")
    }
}

/// A progress token in use.
struct Token {
    request: Key,
    last: Option<(f64, At)>,
    /// 2025-11-25: the task a `CreateTaskResult` made of the request, and
    /// where that task was first seen terminal. The token outlives the
    /// request's answer until then (basic/utilities/progress §Behavior
    /// Requirements 3).
    task: Option<(String, Option<At>)>,
}

/// Readable ids of refused frames kept per side for pairing their errors.
const MALFORMED_CAP: usize = 64;

const fn slot(d: Direction) -> usize {
    match d {
        Direction::ClientToServer => 0,
        Direction::ServerToClient => 1,
    }
}

const fn other(d: Direction) -> Direction {
    match d {
        Direction::ClientToServer => Direction::ServerToClient,
        Direction::ServerToClient => Direction::ClientToServer,
    }
}

fn meta_member<'r>(params: Option<&'r Raw<'_>>, name: &str) -> Option<Raw<'r>> {
    params?
        .get("_meta")
        .and_then(|m| m.get(name).map(Raw::into_owned))
}

impl Side {
    fn new() -> Self {
        Self {
            in_flight: KeyMap::default(),
            malformed: Vec::new(),
            history: History::new(),
            tokens: KeyMap::default(),
        }
    }

    /// The request in flight carrying `id`, taken out.
    fn take(&mut self, key: Key, id: &Id<'_>) -> Option<Open> {
        let same = self
            .in_flight
            .get(&key)
            .and_then(|o| o.request.id())
            .is_some_and(|rid| rid.matches(id));
        if !same {
            return None;
        }
        let open = self.in_flight.remove(&key)?;
        if let Some(token) = open.token {
            self.tokens.remove(&token);
        }
        Some(open)
    }
}

/// Whether `o` is a request whose answer ends a stream rather than
/// answering it ([`super::long_lived`]). An elapsed wait leaves it open; a
/// closed stream or the end of the capture leaves it ended, not unanswered.
///
/// 2026-07-28's `subscriptions/listen` stays open "until the
/// client cancels it", and the server answers it only when it ends the
/// subscription itself (SHOULD; basic/patterns/subscriptions §Cancellation,
/// §Graceful Closure). An end of the wait or of the stream leaves it open,
/// not unanswered.
fn long_lived(revision: Revision, o: &Open) -> bool {
    o.request
        .method()
        .is_some_and(|m| super::long_lived(revision, &m))
}

impl Judge {
    /// A judge for a conversation under `revision`.
    #[must_use]
    pub fn new(revision: Revision) -> Self {
        Self {
            revision,
            frame_rules: true,
            ordered: true,
            next: 0,
            ended: None,
            sides: [Side::new(), Side::new()],
            negotiated: Negotiated::default(),
            last_notification: [None, None],
            concerns: Concerns::for_revision(revision),
        }
    }
    /// A judge of the session rules alone: frames and pairs are not judged by
    /// [`rules::validate_frame`] and [`rules::validate_reply`] (a frame that does
    /// not lift is still its refusal). For callers that judge frames elsewhere,
    /// and to measure what the session state costs on its own.
    #[must_use]
    pub fn session_rules_only(revision: Revision) -> Self {
        Self {
            frame_rules: false,
            ..Self::new(revision)
        }
    }

    /// This judge, told whether its conversation's transport is one ordered
    /// stream each way (stdio; the default). Over one that is not (Streamable
    /// HTTP: each request its own POST, each answer on its own stream), that a
    /// later request was answered no longer shows the server had read an
    /// earlier cancellation, so `mcp.r5.stdio.cancel-no-further`
    /// (basic/transports/stdio §Cancellation) is not judged, and the end says
    /// so when a cancellation was seen.
    #[must_use]
    pub fn ordered(mut self, ordered: bool) -> Self {
        self.ordered = ordered;
        self
    }

    /// The revision judged under.
    #[must_use]
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// Requests in flight, both directions: what the judge's memory grows with.
    #[must_use]
    pub fn in_flight(&self) -> usize {
        self.sides.iter().map(|s| s.in_flight.len()).sum()
    }

    /// Finished ids remembered, both directions: bounded by
    /// [`HISTORY_CAP`](super::HISTORY_CAP) per side.
    #[must_use]
    pub fn remembered(&self) -> usize {
        self.sides.iter().map(|s| s.history.len()).sum()
    }

    /// Judges one event that happened `time` seconds from the start (when
    /// known), appending what it made certain to `out`.
    pub fn feed(&mut self, event: Event<'_>, time: Option<f64>, out: &mut Vec<Finding>) {
        let at = At {
            index: self.next,
            time,
        };
        self.next += 1;
        match event {
            Event::Frame { from, bytes } => self.frame(from, bytes, at, out),
            Event::Closed => self.give_up("the stream closed", false, at, out),
            Event::WaitElapsed => self.give_up("the wait for an answer ran out", true, at, out),
        }
    }

    /// The end of the capture: what only the end can decide.
    #[must_use]
    pub fn finish(mut self) -> Ending {
        let mut end = Ending::default();
        let cx = End {
            revision: self.revision,
            ended: self.ended,
            negotiated: &self.negotiated,
        };
        self.concerns.each(|c| c.finish(&cx, &mut end));
        let mut open: Vec<&Open> = self
            .sides
            .iter()
            .flat_map(|s| s.in_flight.values())
            .filter(|o| o.cancelled.is_none() && !long_lived(self.revision, o))
            .collect();
        open.sort_by_key(|o| o.at.index);
        for o in open {
            end.not_observed.push(Unobserved {
                rule: RuleId::JsonrpcResponseRequired,
                frames: vec![o.at],
                why: format!(
                    "the capture ended before an answer to `{}` (id {})",
                    o.request.method().unwrap_or_default(),
                    o.request.id().map_or("none", Id::raw)
                ),
            });
        }
        end
    }

    /// Hands each concern a context over the core's state: `f` calls one
    /// hook. Returns what the concerns said closed an answered id.
    fn each(
        &mut self,
        out: &mut Vec<Finding>,
        mut f: impl FnMut(&mut dyn Concern, &mut Cx<'_>),
    ) -> Closes {
        let mut cx = Cx {
            revision: self.revision,
            ordered: self.ordered,
            sides: &mut self.sides,
            negotiated: &mut self.negotiated,
            closes: Closes::default(),
            out: Out {
                revision: self.revision,
                out,
            },
        };
        self.concerns.each(|c| f(c, &mut cx));
        cx.closes
    }

    fn flag(&self, id: RuleId, message: String, frames: Vec<At>, out: &mut Vec<Finding>) {
        out.extend(finding(id, self.revision, String::new(), message, frames));
    }

    /// Every request in flight is unanswered from `at` on.
    /// `waited`: the wait ran out, and the stream goes on (a long-lived
    /// request stays open); else the stream closed.
    fn give_up(&mut self, why: &'static str, waited: bool, at: At, out: &mut Vec<Finding>) {
        self.ended = Some((why, at));
        let revision = self.revision;
        let mut open: Vec<(usize, Key, Open)> = Vec::new();
        for (n, side) in self.sides.iter_mut().enumerate() {
            side.tokens.clear();
            let mut kept = KeyMap::default();
            for (k, o) in side.in_flight.drain() {
                if waited && long_lived(revision, &o) {
                    kept.insert(k, o);
                } else {
                    open.push((n, k, o));
                }
            }
            side.in_flight = kept;
        }
        open.sort_by_key(|(_, _, o)| o.at.index);
        for (n, key, o) in open {
            self.sides[n].history.insert(key, Past::GaveUp);
            self.each(out, |c, cx| c.unanswered(cx, &o, at));
            if o.cancelled.is_some() || long_lived(revision, &o) {
                continue;
            }
            let message = format!(
                "{why} before `{}` (id {}) was answered",
                o.request.method().unwrap_or_default(),
                o.request.id().map_or("none", Id::raw)
            );
            self.flag(
                RuleId::JsonrpcResponseRequired,
                message,
                vec![o.at, at],
                out,
            );
        }
    }

    fn frame(&mut self, from: Direction, bytes: &[u8], at: At, out: &mut Vec<Finding>) {
        let profile = Profile {
            revision: self.revision,
            direction: from,
        };
        let lifted = match crate::lift(bytes) {
            Ok(frame) => frame,
            Err(_) => {
                // Their ids are used all the same: an error may echo one.
                let side = &mut self.sides[slot(from)];
                side.malformed
                    .extend(crate::error_ids::readable_request_ids(bytes));
                let over = side.malformed.len().saturating_sub(MALFORMED_CAP);
                side.malformed.drain(..over);
                for v in rules::validate(bytes, profile) {
                    out.push(Finding {
                        violation: v,
                        frames: vec![at],
                    });
                }
                self.last_notification[slot(from)] = None;
                return;
            }
        };
        if self.frame_rules {
            for v in rules::validate_frame(&lifted, profile) {
                out.push(Finding {
                    violation: v,
                    frames: vec![at],
                });
            }
        }
        for m in lifted.messages() {
            self.message(from, m, at, out);
        }
    }

    fn message(&mut self, from: Direction, m: &Message<'_>, at: At, out: &mut Vec<Finding>) {
        self.each(out, |c, cx| c.message(cx, from, m, at));
        match m {
            Message::Request(r) => {
                self.last_notification[slot(from)] = None;
                let method = r.method.decoded();
                self.request(from, m, &method, r.params.as_ref(), at, out);
            }
            Message::Notification(n) => {
                let method = n.method.decoded();
                self.notification(from, &method, n.params.as_ref(), at, out);
                self.last_notification[slot(from)] = Some(at);
            }
            Message::Success(_) | Message::Error(_) => {
                self.response(from, m, at, out);
                self.last_notification[slot(from)] = None;
            }
        }
    }

    fn request(
        &mut self,
        from: Direction,
        m: &Message<'_>,
        method: &str,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let Some(id) = m.id() else { return };
        let key = Key::of(id);
        let side = &self.sides[slot(from)];
        let reused = side.in_flight.get(&key).map(|prev| prev.at);
        let past = side.history.get(key);
        if let Some(prev) = reused {
            let message = format!(
                "the {} reused id {id} while its request at event {} was still in flight",
                from.sender(),
                prev.number()
            );
            let frames = vec![prev, at];
            for rule in [
                RuleId::SessionIdReusedInflight,
                RuleId::McpBaseIdUniqueInflight,
                RuleId::McpBaseIdUniqueSession,
            ] {
                self.flag(rule, message.clone(), frames.clone(), out);
            }
        } else if past.is_some() {
            self.flag(
                RuleId::McpBaseIdUniqueSession,
                format!(
                    "the {} reused id {id}, already used in this session",
                    from.sender()
                ),
                vec![at],
                out,
            );
        }
        let token = meta_member(params, "progressToken").map(|t| Key::of_token(&t));
        let r = Request {
            from,
            method,
            params,
            id,
            key,
            at,
            reused: reused.is_some(),
            past: if reused.is_some() { None } else { past },
            token,
        };
        self.each(out, |c, cx| c.request(cx, &r));
        if reused.is_some() {
            // The first request keeps the id: its answer pairs with it.
            return;
        }
        let side = &mut self.sides[slot(from)];
        if let Some(token) = token {
            side.tokens.entry(token).or_insert(Token {
                request: key,
                last: None,
                task: None,
            });
        }
        side.in_flight.insert(
            key,
            Open {
                request: m.clone().into_owned(),
                at,
                cancelled: None,
                token,
                acknowledged: None,
                torn_down: None,
                cancel_read: None,
            },
        );
    }

    fn notification(
        &mut self,
        from: Direction,
        method: &str,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let subscription =
            self.concerns.subscriptions.is_some() && subscriptions::on_subscription(from, params);
        let n = Notification {
            from,
            method,
            params,
            at,
            subscription,
        };
        self.each(out, |c, cx| c.notification(cx, &n));
    }

    fn response(&mut self, from: Direction, m: &Message<'_>, at: At, out: &mut Vec<Finding>) {
        let asker = other(from);
        let Some(id) = m.id() else {
            // An error without an id answers a request whose id could not be
            // read; the frame rules judge whether the revision allows it.
            return;
        };
        let key = Key::of(id);
        if let Some(open) = self.sides[slot(asker)].take(key, id) {
            self.pair(asker, key, open, m, at, out);
            return;
        }
        if self.echoes_malformed(asker, id) {
            return;
        }
        if matches!((id, m), (Id::Null, Message::Error(_))) {
            // An error with id null answers a frame whose id could not be
            // read (JSON-RPC 2.0 §5): each unreadable frame gets its own, so a
            // second one is no duplicate, even after a request with id null
            // was answered. A request in flight whose id the revision
            // forbids (MCP: 1.5) is answered by it.
            let revision = self.revision;
            let side = &mut self.sides[slot(asker)];
            let forbidden = side
                .in_flight
                .iter()
                .filter(|(_, o)| {
                    o.request.id().is_some_and(|rid| {
                        !matches!(rid, Id::Null)
                            && crate::error_ids::error_may_carry(
                                revision,
                                &crate::error_ids::Read::Id(rid.clone()),
                                false,
                                Some(&Id::Null),
                            )
                    })
                })
                .min_by_key(|(_, o)| o.at.index)
                .map(|(k, _)| *k);
            if let Some(key) = forbidden {
                if let Some(open) = side.in_flight.remove(&key) {
                    if let Some(token) = open.token {
                        side.tokens.remove(&token);
                    }
                }
            }
            return;
        }
        match self.sides[slot(asker)].history.get(key) {
            Some(Past::Answered { index, .. }) => {
                let first = At { index, time: None };
                self.flag(
                    RuleId::SessionResponseDuplicate,
                    format!(
                        "the {} answered id {id} again; it was answered at event {}",
                        from.sender(),
                        first.number()
                    ),
                    vec![first, at],
                    out,
                );
                return;
            }
            // Late: already reported unanswered.
            Some(Past::GaveUp) => return,
            None => {}
        }
        // (An error with id null never reaches here: it returned above.)
        if matches!(id, Id::Null) {
            if let (Message::Success(_), Some(notified)) = (m, self.last_notification[slot(asker)])
            {
                for rule in [
                    RuleId::JsonrpcNotificationNoReply,
                    RuleId::McpBaseNotificationNoResponse,
                ] {
                    self.flag(
                        rule,
                        format!(
                            "the {} answered the notification at event {}",
                            from.sender(),
                            notified.number()
                        ),
                        vec![notified, at],
                        out,
                    );
                }
                return;
            }
        }
        // An answer whose id changed type (`"1"` for `1`): paired with the
        // request it meant, so the id-echo rules name what is wrong.
        let loose = Key::loose(id);
        let meant = self.sides[slot(asker)]
            .in_flight
            .iter()
            .filter(|(_, o)| o.request.id().is_some_and(|rid| Key::loose(rid) == loose))
            .min_by_key(|(_, o)| o.at.index)
            .map(|(k, _)| *k);
        if let Some(meant) = meant {
            let side = &mut self.sides[slot(asker)];
            if let Some(open) = side.in_flight.remove(&meant) {
                if let Some(token) = open.token {
                    side.tokens.remove(&token);
                }
                self.pair(asker, meant, open, m, at, out);
                return;
            }
        }
        self.flag(
            RuleId::SessionResponseUnknownId,
            format!(
                "the {} answered id {id}, which no request of the {} carried",
                from.sender(),
                asker.sender()
            ),
            vec![at],
            out,
        );
    }

    /// Whether a response carrying `id` answers a frame of `asker`'s the
    /// codec refused (a repeated `id` member among them), by echoing an id
    /// read there ([`crate::error_ids::error_may_carry`]:
    /// echoing a readable id of an Invalid Request is conformant, JSON-RPC
    /// 2.0 §5). Whether a result was due is the exchange judge's to say; here
    /// the frame is answered, and taken out.
    fn echoes_malformed(&mut self, asker: Direction, id: &Id<'_>) -> bool {
        // An id read there and echoed is always one an error may carry
        // (`error_may_carry`: the request's own id, or null read as the id).
        let side = &mut self.sides[slot(asker)];
        let found = side
            .malformed
            .iter()
            .position(|read| matches!(read, crate::error_ids::Read::Id(rid) if rid.matches(id)));
        found.map(|i| side.malformed.remove(i)).is_some()
    }

    /// A request and its answer: each concern's judgement, then the exchange
    /// rules, and the id finished.
    fn pair(
        &mut self,
        asker: Direction,
        key: Key,
        open: Open,
        reply: &Message<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let revision = self.revision;
        let answer = Answer {
            asker,
            key,
            open: &open,
            reply,
            at,
        };
        let closes = self.each(out, |c, cx| c.answer(cx, &answer));
        if self.frame_rules {
            let profile = Profile {
                revision,
                direction: asker,
            };
            let asked = open.at;
            let request = Frame::Single(open.request);
            let answer = Frame::Single(reply.clone());
            for v in rules::validate_reply(&request, Some(&answer), profile) {
                out.push(Finding {
                    violation: v,
                    frames: vec![asked, at],
                });
            }
        }
        self.sides[slot(asker)].history.insert(
            key,
            Past::Answered {
                index: at.index,
                input_required: closes.input_required,
                task: closes.task,
            },
        );
    }
}

/// The decoded string member `name` of an object, if it is one.
fn string_member(value: &Raw<'_>, name: &str) -> Option<String> {
    value
        .get(name)
        .and_then(|v| v.as_string().map(Cow::into_owned))
}
