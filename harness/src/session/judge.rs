//! The judge's core: its state and what each event does to it. Every event
//! is taken in here ([`Judge::feed`]), each side's requests in flight are kept
//! here, answers are paired with their requests here, and the stream's end is
//! decided here. What a protocol feature adds is in its own room, called
//! through a named hook at the point the core reaches it:
//!
//! - [`handshake`]: `initialize`, `notifications/initialized`, the capabilities
//!   declared (and 2026-07-28's `server/discover`);
//! - [`cancellation`]: cancellation and progress;
//! - [`elicitation`]: URL-mode elicitation ids (2025-11-25);
//! - [`tasks`]: tasks (2025-11-25);
//! - [`lists`]: answers against earlier list answers;
//! - [`subscriptions`]: `subscriptions/listen` (2026-07-28);
//! - [`mrtr`]: input-required answers and their retries (2026-07-28);
//! - [`logging`]: the per-request log level (2026-07-28).
//!
//! Each hook decides in one place whether its feature applies under the
//! revision judged, and returns early when it does not.

mod cancellation;
mod elicitation;
mod handshake;
mod lists;
mod logging;
mod mrtr;
mod subscriptions;
mod tasks;

use super::key::{History, Key, KeyMap, Past};
use super::lists::Lists;
use super::mrtr::Inputs;
use super::{finding, At, Ending, Event, Finding, Unobserved};
use elicitation::Elicitations;
use handshake::Handshake;
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
    /// Under an unordered judge: the first cancelled request whose later
    /// messages were therefore not judged.
    order_unjudged: Option<At>,
    next: u64,
    /// Why and where the stream ended, once it has.
    ended: Option<(&'static str, At)>,
    /// Requests each side sent: `[client's, server's]`.
    sides: [Side; 2],
    handshake: Handshake,
    /// The event index of each sender's latest message when it was a
    /// notification (`[client, server]`): an id-less answer right after one
    /// answers it.
    last_notification: [Option<At>; 2],
    /// The server's list answers: list changes, tool order, `cacheScope` pages.
    lists: Lists,
    /// 2025-11-25: the `elicitationId`s of the server's URL-mode elicitations
    /// (at most [`elicitation::ELICITATIONS_CAP`]), for `notifications/elicitation/complete`.
    url_elicitations: Elicitations,
    /// 2026-07-28: what the server's input-required answers asked for.
    inputs: Inputs,
    /// 2025-11-25 task statuses per receiver.
    tasks: crate::session::tasks::Tasks,
    /// 2026-07-28: acknowledged subscriptions open when the stream closed,
    /// with no teardown signal: (the listen, the close). Bounded by what was
    /// in flight.
    silent_ends: Vec<(At, At)>,
    /// A task just created and how long it is sure to live, for the
    /// sighting that records it.
    pending_alive: Option<(String, f64)>,
    /// Checks that applied but could not be made (a schema that cannot be
    /// read), reported at [`Judge::finish`] as not observed.
    unjudged: Vec<Unobserved>,
}

/// Not-judged notes kept; later ones are dropped.
const UNJUDGED_CAP: usize = 64;

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
    /// Progress tokens of this side's requests in flight.
    tokens: KeyMap<Token>,
}

/// A request waiting for its answer.
struct Open {
    request: Message<'static>,
    at: At,
    cancelled: Option<At>,
    token: Option<Key>,
    log_level: bool,
    listen: bool,
    /// For a `subscriptions/listen`: the event at which the server
    /// acknowledged it.
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
            order_unjudged: None,
            next: 0,
            ended: None,
            sides: [Side::new(), Side::new()],
            handshake: Handshake::default(),
            last_notification: [None, None],
            lists: Lists::default(),
            url_elicitations: Elicitations::default(),
            inputs: Inputs::default(),
            tasks: crate::session::tasks::Tasks::default(),
            pending_alive: None,
            silent_ends: Vec::new(),
            unjudged: Vec::new(),
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
    pub fn finish(self) -> Ending {
        let mut end = Ending {
            not_observed: self.unjudged.clone(),
            ..Ending::default()
        };
        self.order_end(&mut end);
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
        self.silent_ends_end(&mut end);
        self.initialized_end(&mut end);
        end
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
            self.listen_given_up(&o, at);
            if o.cancelled.is_some() || long_lived(revision, &o) {
                continue;
            }
            let message = format!(
                "{why} before `{}` (id {}) was answered",
                o.request.method().unwrap_or_default(),
                o.request.id().map_or("none", Id::raw)
            );
            out.extend(finding(
                RuleId::JsonrpcResponseRequired,
                self.revision,
                String::new(),
                message,
                vec![o.at, at],
            ));
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
        // Frames before `initialize` are followed for their ids, but not judged
        // against a handshake that has not begun.
        let lifecycle = self.lifecycle() && !self.before_initialize(from, m, at, out);
        match m {
            Message::Request(r) => {
                self.last_notification[slot(from)] = None;
                let method = r.method.decoded();
                if lifecycle {
                    self.lifecycle_request(from, &method, r.params.as_ref(), at, out);
                }
                self.request(from, m, &method, r.params.as_ref(), at, out);
            }
            Message::Notification(n) => {
                let method = n.method.decoded();
                if lifecycle {
                    self.lifecycle_notification(from, &method, at, out);
                }
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
        self.elicitation_request(from, method, params);
        self.initialize_sent(from, method, key, at);
        let side = &self.sides[slot(from)];
        if let Some(prev) = side.in_flight.get(&key) {
            let message = format!(
                "the {} reused id {id} while its request at event {} was still in flight",
                from.sender(),
                prev.at.number()
            );
            let frames = vec![prev.at, at];
            for rule in [
                RuleId::SessionIdReusedInflight,
                RuleId::McpBaseIdUniqueInflight,
                RuleId::McpBaseIdUniqueSession,
            ] {
                self.flag(rule, message.clone(), frames.clone(), out);
            }
            // The first request keeps the id: its answer pairs with it.
            return;
        }
        match side.history.get(key) {
            Some(Past::Answered { input_required, .. }) => {
                if input_required {
                    self.retry_reuses_id(method, id, params, at, out);
                }
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
            Some(Past::GaveUp) => self.flag(
                RuleId::McpBaseIdUniqueSession,
                format!(
                    "the {} reused id {id}, already used in this session",
                    from.sender()
                ),
                vec![at],
                out,
            ),
            None => {}
        }
        self.retry_request(from, method, params, at, out);
        self.task_request(from, method, params, at, out);
        let token = self.progress_token_sent(from, method, key, params, at, out);
        let log_level = self.asks_log_level(params);
        let side = &mut self.sides[slot(from)];
        side.in_flight.insert(
            key,
            Open {
                request: m.clone().into_owned(),
                at,
                cancelled: None,
                token,
                log_level,
                listen: method == "subscriptions/listen",
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
        if from == Direction::ServerToClient {
            self.lists.notified(method);
            if method == "notifications/message" {
                self.logging_declared(at, out);
            }
            if method == "notifications/elicitation/complete" {
                self.elicitation_complete(params, at, out);
            }
        }
        match method {
            "notifications/cancelled" => self.cancelled(from, params, at, out),
            _ if self.on_subscription(from, params) => self.subscription(method, params, at, out),
            "notifications/progress" => self.progress(from, params, at, out),
            "notifications/tasks/status" => self.task_status(from, params, at, out),
            "notifications/message" => self.log_message(from, at, out),
            _ => {}
        }
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

    /// A request and its answer: the exchange rules, the cancellation that came
    /// before, and what the handshake learns from it.
    fn pair(
        &mut self,
        asker: Direction,
        key: Key,
        open: Open,
        reply: &Message<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let is_discover = open.request.method().as_deref() == Some("server/discover");
        let created_task = self.creates_task(&open, reply);
        self.task_answer(asker, key, &open, reply, at, out);
        if asker == Direction::ClientToServer {
            self.teardown(&open, reply, at, out);
            self.server_declares(&open, reply, at, out);
            self.declared_lists(&open, reply, at, out);
            self.list_answer(&open, reply, at, out);
            self.answer_against_lists(&open, reply, at, out);
            self.retry_answer(&open, reply, at, out);
        }
        self.url_elicitation_required(asker, reply);
        // What the cancellation rules read once the request has gone to the
        // reply rules.
        let (asked, cancelled, cancel_read) = (open.at, open.cancelled, open.cancel_read);
        let profile = Profile {
            revision: self.revision,
            direction: asker,
        };
        if self.frame_rules {
            let request = Frame::Single(open.request);
            let answer = Frame::Single(reply.clone());
            for v in rules::validate_reply(&request, Some(&answer), profile) {
                out.push(Finding {
                    violation: v,
                    frames: vec![open.at, at],
                });
            }
        }
        self.cancel_answered(asker, asked, cancelled, cancel_read, at, out);
        let input_required = match reply {
            Message::Success(s) => {
                self.handshake_answered(asker, key, is_discover, &s.result, at);
                self.input_required(&s.result)
            }
            _ => false,
        };
        self.sides[slot(asker)].history.insert(
            key,
            Past::Answered {
                index: at.index,
                input_required,
                task: created_task,
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
