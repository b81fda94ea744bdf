//! The judge's state and what each event does to it.

use super::capabilities::{declared, needed};
use super::key::{History, Key, KeyMap, Past};
use super::lists::{ListKind, Lists, PromptProblem, Seen, TaskSupport};
use super::mrtr::{Broke, Inputs};
use super::{finding, At, Ending, Event, Finding, Unobserved};
use crate::rules::client_caps::{self, Why};
use std::borrow::Cow;

use crate::ir::{Frame, Id, JsonStr, Message, Raw, ValueKind};
use crate::profile::{Direction, Profile, Revision};
use crate::rules::{self, RuleId};
use crate::schema_check::Verdict;

const PROTOCOL_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

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
    /// (at most [`ELICITATIONS_CAP`]), for `notifications/elicitation/complete`.
    url_elicitations: Vec<String>,
    /// 2026-07-28: what the server's input-required answers asked for.
    inputs: Inputs,
    /// 2025-11-25 task statuses per receiver.
    tasks: super::tasks::Tasks,
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

/// URL-mode elicitation ids remembered; the oldest is dropped first.
const ELICITATIONS_CAP: usize = 1024;

/// What one side has asked of the other.
struct Side {
    in_flight: KeyMap<Open>,
    /// Ids read from this side's frames the codec refused (an Invalid
    /// Request whose id is readable), oldest first: the other side may echo
    /// one in its error ([`crate::error_ids`]), which then answers it rather
    /// than repeating an earlier answer. Bounded by [`MALFORMED_CAP`].
    /// A request whose frame repeats its `id` member (`{"id":1,"id":2}`) is
    /// kept here under each id the lifted request does not carry, with the
    /// key it is in flight under: a receiver may read either.
    malformed: Vec<(crate::error_ids::Read<'static>, Option<Key>)>,
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

/// Tokens kept for tasks after their requests were answered, per side.
const TASK_TOKENS_CAP: usize = 4096;

/// The handshake of 2024-11-05 to 2025-11-25 (basic/lifecycle §Initialization).
#[derive(Default)]
struct Handshake {
    /// The `initialize` request's id and where it was sent.
    request: Option<(Key, At)>,
    /// Where the server answered `initialize` with a result.
    answered: Option<At>,
    initialized: bool,
    /// The first frame before `initialize` has been reported.
    first_flagged: bool,
    /// Normal operation before `notifications/initialized` has been reported.
    initialized_flagged: bool,
    client_caps: Option<Raw<'static>>,
    server_caps: Option<Raw<'static>>,
    /// 2026-07-28: where the server answered `server/discover` with a result
    /// (its capabilities are then `server_caps`).
    discovered: Option<At>,
}

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
            url_elicitations: Vec::new(),
            inputs: Inputs::default(),
            tasks: super::tasks::Tasks::default(),
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
        if let Some(cancelled) = self.order_unjudged {
            end.not_observed.push(Unobserved {
                rule: RuleId::McpR5StdioCancelNoFurther,
                frames: vec![cancelled],
                why: "the transport is not one ordered stream each way: a later request answered does not show the server had read the cancellation".into(),
            });
        }
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
        for &(listen, closed) in &self.silent_ends {
            end.not_observed.push(Unobserved {
                rule: RuleId::McpR5SubscriptionTeardownSignalled,
                frames: vec![listen, closed],
                why: format!("the stream closed with the subscription of event {} open and no teardown signal: a transport close (allowed) or a teardown without one, which the wire does not tell apart", listen.index),
            });
        }
        let hs = &self.handshake;
        if self.lifecycle() && hs.answered.is_some() && !hs.initialized && !hs.initialized_flagged {
            let frames: Vec<At> = hs.answered.into_iter().collect();
            match self.ended {
                Some((why, ended)) => end.findings.extend(finding(
                    RuleId::McpLifecycleInitializedNotification,
                    self.revision,
                    String::new(),
                    format!("{why} and the client never sent `notifications/initialized`"),
                    frames.into_iter().chain([ended]).collect(),
                )),
                None => end.not_observed.push(Unobserved {
                    rule: RuleId::McpLifecycleInitializedNotification,
                    frames,
                    why: "the capture ended before `notifications/initialized`".into(),
                }),
            }
        }
        end
    }

    /// Whether `o` is a request whose answer ends a stream rather than
    /// answering it: 2026-07-28's `subscriptions/listen` stays open "until the
    /// client cancels it", and the server answers it only when it ends the
    /// subscription itself (SHOULD; basic/patterns/subscriptions §Cancellation,
    /// §Graceful Closure). An end of the wait or of the stream leaves it open,
    /// not unanswered.
    /// Whether the revision has the `initialize` handshake.
    fn lifecycle(&self) -> bool {
        self.revision.is_mcp() && self.revision < Revision::Mcp2026_07_28
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
            if o.listen
                && o.acknowledged.is_some()
                && o.torn_down.is_none()
                && o.cancelled.is_none()
            {
                self.silent_ends.push((o.at, at));
            }
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
                side.malformed.extend(
                    crate::error_ids::readable_request_ids(bytes)
                        .into_iter()
                        .map(|r| (r, None)),
                );
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
        if let Frame::Single(Message::Request(r)) = &lifted {
            // Cheap first: only a frame spelling `"id"` twice can repeat it.
            if bytes.windows(4).filter(|w| w == b"\"id\"").count() > 1 {
                let key = Key::of(&r.id);
                let others = crate::error_ids::readable_request_ids(bytes)
                    .into_iter()
                    .filter(
                        |read| !matches!(read, crate::error_ids::Read::Id(id) if id.matches(&r.id)),
                    )
                    .map(|read| (read, Some(key)));
                let side = &mut self.sides[slot(from)];
                side.malformed.extend(others);
                let over = side.malformed.len().saturating_sub(MALFORMED_CAP);
                side.malformed.drain(..over);
            }
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
                    self.handshake_request(from, &method, at, out);
                    self.capability(from, &method, at, out);
                    self.client_features(from, &method, r.params.as_ref(), at, out);
                }
                self.request(from, m, &method, r.params.as_ref(), at, out);
            }
            Message::Notification(n) => {
                let method = n.method.decoded();
                if lifecycle {
                    if from == Direction::ClientToServer && method == "notifications/initialized" {
                        self.handshake.initialized = true;
                    }
                    self.capability(from, &method, at, out);
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

    /// Frames before the client's `initialize` request: the first is reported
    /// (mcp.lifecycle.initialize-first), and none is held to the handshake's
    /// ordering rules, so a misplaced handshake is one finding, not a cascade.
    /// Returns whether `m` came before `initialize`.
    fn before_initialize(
        &mut self,
        from: Direction,
        m: &Message<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) -> bool {
        if self.handshake.request.is_some() {
            return false;
        }
        if let (Direction::ClientToServer, Message::Request(r)) = (from, m) {
            if r.method.decoded() == "initialize" {
                if let Some(caps) = r.params.as_ref().and_then(|p| p.get("capabilities")) {
                    self.handshake.client_caps = Some(caps.into_owned());
                }
                return false;
            }
        }
        if !self.handshake.first_flagged {
            self.handshake.first_flagged = true;
            let what = m.method().map_or_else(
                || format!("a {}", m.kind().name()),
                |method| format!("`{method}`"),
            );
            self.flag(
                RuleId::McpLifecycleInitializeFirst,
                format!(
                    "the {} sent {what} before the client's `initialize` request",
                    from.sender()
                ),
                vec![at],
                out,
            );
        }
        true
    }

    /// The ordering rules of basic/lifecycle §Initialization for a request.
    fn handshake_request(&mut self, from: Direction, method: &str, at: At, out: &mut Vec<Finding>) {
        if method == "ping" || method == "initialize" {
            return;
        }
        let hs = &self.handshake;
        match from {
            Direction::ClientToServer if hs.answered.is_none() => self.flag(
                RuleId::McpLifecycleClientPreInitRequests,
                format!("the client sent `{method}` before the server answered `initialize`"),
                vec![at],
                out,
            ),
            // Normal operation began without the notification the spec requires
            // first: certain here, not only at the end.
            Direction::ClientToServer if !hs.initialized && !hs.initialized_flagged => {
                let frames = hs.answered.into_iter().chain([at]).collect();
                self.handshake.initialized_flagged = true;
                self.flag(
                    RuleId::McpLifecycleInitializedNotification,
                    format!("the client sent `{method}` after `initialize` was answered but before `notifications/initialized`"),
                    frames,
                    out,
                );
            }
            Direction::ServerToClient if !hs.initialized => self.flag(
                RuleId::McpLifecycleServerPreInitializedRequests,
                format!(
                    "the server sent `{method}` before the client's `notifications/initialized`"
                ),
                vec![at],
                out,
            ),
            _ => {}
        }
    }

    /// basic/lifecycle §Operation: only capabilities that were negotiated.
    fn capability(&self, from: Direction, method: &str, at: At, out: &mut Vec<Finding>) {
        let Some(answered) = self.handshake.answered else {
            return;
        };
        let Some(need) = needed(method, from, self.revision) else {
            return;
        };
        let caps = match need.holder {
            Direction::ClientToServer => self.handshake.client_caps.as_ref(),
            Direction::ServerToClient => self.handshake.server_caps.as_ref(),
        };
        if declared(caps, need) {
            return;
        }
        let wanted = need.flag.map_or_else(
            || format!("`{}`", need.capability),
            |flag| format!("`{}.{flag}`", need.capability),
        );
        let message = format!(
            "the {} sent `{method}`, which needs {wanted}, but the {} did not declare it",
            from.sender(),
            need.holder.sender()
        );
        for id in [
            RuleId::McpLifecycleOperationRespectR1,
            RuleId::McpLifecycleOperationRespect,
        ] {
            self.flag(id, message.clone(), vec![answered, at], out);
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
        let revision = self.revision;
        if from == Direction::ServerToClient && method == "elicitation/create" {
            let url = params.is_some_and(|p| string_member(p, "mode").as_deref() == Some("url"));
            if let Some(eid) = params.and_then(|p| string_member(p, "elicitationId")) {
                if url {
                    self.remember_elicitation(eid);
                }
            }
        }
        if self.lifecycle() && method == "initialize" && from == Direction::ClientToServer {
            self.handshake.request.get_or_insert((key, at));
        }
        let side = &self.sides[slot(from)];
        if let Some(prev) = side.in_flight.get(&key) {
            let message = format!(
                "the {} reused id {id} while its request at event {} was still in flight",
                from.sender(),
                prev.at.index
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
                let retry = params.is_some_and(|p| {
                    p.get("requestState").is_some() || p.get("inputResponses").is_some()
                });
                if retry && input_required {
                    self.flag(
                        RuleId::McpR5MrtrRetryId,
                        format!("the retry of `{method}` reuses id {id}, which the input-required answer closed"),
                        vec![at],
                        out,
                    );
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
        if revision == Revision::Mcp2026_07_28 && from == Direction::ClientToServer {
            self.retry_request(method, params, at, out);
        }
        if revision == Revision::Mcp2025_11_25 && params.is_some_and(|p| p.get("task").is_some()) {
            self.task_request_declared(from, method, at, out);
        }
        if revision == Revision::Mcp2025_11_25 && method == "tasks/get" {
            if let Some(task) = params.and_then(|p| string_member(p, "taskId")) {
                if let Some((answered, interval)) = self.tasks.polled(other(from), &task, at) {
                    self.flag(
                        RuleId::McpTasksPollInterval,
                        format!(
                            "the {} polled task `{task}` again sooner than the {interval} s `pollInterval` of the answer at event {}",
                            from.sender(),
                            answered.index
                        ),
                        vec![answered, at],
                        out,
                    );
                }
            }
        }
        let token = meta_member(params, "progressToken").map(|t| Key::of_token(&t));
        if let Some(token) = token {
            let side = &self.sides[slot(from)];
            if let Some(owner) = side
                .tokens
                .get(&token)
                .and_then(|t| side.in_flight.get(&t.request))
            {
                let frames = vec![owner.at, at];
                self.flag(
                    RuleId::McpProgressTokenUnique,
                    format!("the progress token of `{method}` is already used by the request at event {}", owner.at.index),
                    frames,
                    out,
                );
            }
        }
        let side = &mut self.sides[slot(from)];
        if let Some(token) = token {
            side.tokens.entry(token).or_insert(Token {
                request: key,
                last: None,
                task: None,
            });
        }
        let log_level = revision == Revision::Mcp2026_07_28
            && meta_member(params, PROTOCOL_LOG_LEVEL).is_some();
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
            _ if self.revision == Revision::Mcp2026_07_28
                && from == Direction::ServerToClient
                && meta_member(params, SUBSCRIPTION_ID).is_some() =>
            {
                self.subscription(method, params, at, out);
            }
            "notifications/progress" => self.progress(from, params, at, out),
            "notifications/tasks/status" if self.revision == Revision::Mcp2025_11_25 => {
                if let Some(task) = params {
                    self.task_sighting(from, task, false, at, out);
                }
            }
            "notifications/message"
                if self.revision == Revision::Mcp2026_07_28
                    && from == Direction::ServerToClient =>
            {
                let asked = self.sides[0].in_flight.values().any(|o| o.log_level);
                if !asked {
                    self.flag(
                        RuleId::McpR5LoggingPerRequest,
                        "the server sent `notifications/message` while no request in flight carried `io.modelcontextprotocol/logLevel`".into(),
                        vec![at],
                        out,
                    );
                }
            }
            _ => {}
        }
    }

    /// 2025-11-25: a server request to the client that needs a mode or an
    /// option inside a declared capability (client/elicitation §Capabilities,
    /// client/sampling §Tools in Sampling and §Capabilities). The feature
    /// itself is [`Self::capability`]'s.
    fn client_features(
        &self,
        from: Direction,
        method: &str,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let Some(answered) = self.handshake.answered else {
            return;
        };
        if from != Direction::ServerToClient {
            return;
        }
        for need in client_caps::needs(method, params) {
            let rule = match need.why {
                Why::Feature => continue,
                Why::ElicitationMode => RuleId::McpElicitationModeDeclared,
                Why::SamplingTools => RuleId::McpSamplingToolsDeclared,
                Why::SamplingContext => RuleId::McpSamplingIncludeContextDeclared,
            };
            let caps = self.handshake.client_caps.as_ref();
            let feature = client_caps::Need {
                member: None,
                ..need
            };
            // A feature not declared at all is mcp.lifecycle.operation-respect's.
            if client_caps::declares(caps, feature) && !client_caps::declares(caps, need) {
                self.flag(
                    rule,
                    format!(
                        "the server sent `{method}`, which needs {}, but the client did not declare it",
                        need.name()
                    ),
                    vec![answered, at],
                    out,
                );
            }
        }
    }

    /// 2026-07-28 basic/patterns/subscriptions: a server notification carrying
    /// the id of a `subscriptions/listen` in flight belongs to that
    /// subscription. Its acknowledgment comes first (§Acknowledgment), and
    /// nothing the client did not ask for follows (§Opening a Stream).
    /// A subscription id naming no listen in flight is not judged here: the
    /// subscription may have begun before the capture.
    fn subscription(
        &mut self,
        method: &str,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let Some(id) = meta_member(params, SUBSCRIPTION_ID) else {
            return;
        };
        let key = Key::of_token(&id);
        let Some(open) = self.sides[0].in_flight.get_mut(&key) else {
            return;
        };
        if !open.listen {
            return;
        }
        if method == "notifications/subscriptions/acknowledged" {
            open.acknowledged = Some(at.index);
            return;
        }
        let (listen_at, acknowledged) = (open.at, open.acknowledged);
        let filter = open
            .request
            .params()
            .and_then(|p| p.get("notifications").map(Raw::into_owned));
        if acknowledged.is_none() {
            self.flag(
                RuleId::McpR5SubscriptionAcknowledgedFirst,
                format!("the server sent `{method}` on subscription {id} before acknowledging it"),
                vec![listen_at, at],
                out,
            );
        }
        if let Some(asked) = requested(method, params, filter.as_ref()) {
            if !asked {
                self.flag(
                    RuleId::McpR5SubscriptionsRequestedOnly,
                    format!("the server sent `{method}` on subscription {id}, whose filter did not ask for it"),
                    vec![listen_at, at],
                    out,
                );
            }
        }
    }

    /// basic/utilities/cancellation §Behavior Requirements.
    fn cancelled(
        &mut self,
        from: Direction,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let Some(request_id) = params.and_then(|p| p.get("requestId")) else {
            // 2025-11-25 made `requestId` optional only for tasks, which
            // this notification must not cancel: without it, it cancels
            // nothing it may.
            if self.revision == Revision::Mcp2025_11_25 {
                self.flag(
                    RuleId::McpCancelRequestIdRequired,
                    format!(
                        "the {} sent `notifications/cancelled` without `requestId`",
                        from.sender()
                    ),
                    vec![at],
                    out,
                );
            }
            return;
        };
        let id = match request_id.kind() {
            ValueKind::String => Id::String(JsonStr::trusted(request_id.as_str())),
            ValueKind::Number => Id::Number(Cow::Borrowed(request_id.as_str())),
            // Any other type names no request; the frame rules judge its shape.
            _ => return,
        };
        let id = &id;
        let key = Key::of(id);
        if self.revision == Revision::Mcp2026_07_28 && from == Direction::ServerToClient {
            // basic/patterns/cancellation: a server cancels only a client's
            // `subscriptions/listen`.
            match self.sides[0].in_flight.get_mut(&key) {
                Some(o) if o.listen => {
                    o.torn_down.get_or_insert(at);
                }
                _ => self.flag(
                    RuleId::McpCancelClientOnly,
                    format!("the server cancelled id {id}, which is no `subscriptions/listen` request in flight"),
                    vec![at],
                    out,
                ),
            }
            return;
        }
        if from == Direction::ClientToServer {
            if let Some((init, init_at)) = self.handshake.request {
                if init == key && self.lifecycle() {
                    self.flag(
                        RuleId::McpCancelNotInitialize,
                        "the client cancelled its `initialize` request".into(),
                        vec![init_at, at],
                        out,
                    );
                    return;
                }
            }
        }
        if self.revision == Revision::Mcp2025_11_25 {
            self.cancelled_task(from, key, id, at, out);
        }
        let side = &mut self.sides[slot(from)];
        if let Some(o) = side.in_flight.get_mut(&key) {
            o.cancelled.get_or_insert(at);
        } else if side.history.get(key).is_none() {
            self.flag(
                RuleId::McpCancelSameDirection,
                format!(
                    "the {} cancelled id {id}, which it never sent a request with",
                    from.sender()
                ),
                vec![at],
                out,
            );
        }
        // An id already answered is the race §Timing Considerations allows.
    }

    /// basic/utilities/cancellation §Behavior Requirements 3: a task-augmented
    /// request, in flight or answered with a `CreateTaskResult`, is cancelled
    /// with `tasks/cancel`, not `notifications/cancelled`.
    fn cancelled_task(
        &self,
        from: Direction,
        key: Key,
        id: &Id<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let side = &self.sides[slot(from)];
        let in_flight = side
            .in_flight
            .get(&key)
            .filter(|o| o.request.params().is_some_and(|p| p.get("task").is_some()))
            .map(|o| o.at);
        let created = matches!(
            side.history.get(key),
            Some(Past::Answered { task: true, .. })
        );
        if in_flight.is_some() || created {
            let mut frames: Vec<At> = in_flight.into_iter().collect();
            frames.push(at);
            self.flag(
                RuleId::McpCancelTaskUsesTasksCancel,
                format!(
                    "the {} sent `notifications/cancelled` for id {id}, a task-augmented request; tasks are cancelled with `tasks/cancel`",
                    from.sender()
                ),
                frames,
                out,
            );
        }
    }

    /// basic/utilities/progress §Progress Flow and §Behavior Requirements: the
    /// token is one the other side put on a request still in flight, and each
    /// value is above the last (ambiguity A10: strictly).
    fn progress(
        &mut self,
        from: Direction,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let Some(token) = params.and_then(|p| p.get("progressToken")) else {
            return;
        };
        let key = Key::of_token(&token);
        let value = params
            .and_then(|p| p.get("progress"))
            .and_then(|v| v.as_str().parse::<f64>().ok());
        let Some(entry) = self.sides[slot(other(from))].tokens.get_mut(&key) else {
            self.flag(
                RuleId::McpProgressActiveTokenOnly,
                format!(
                    "the {} sent progress for token {token}, which no request in flight carries",
                    from.sender()
                ),
                vec![at],
                out,
            );
            return;
        };
        if let Some((task, Some(ended))) = &entry.task {
            let message = format!(
                "the {} sent progress for token {token} after its task `{task}` was terminal at event {}",
                from.sender(),
                ended.index
            );
            let ended = *ended;
            self.flag(
                RuleId::McpProgressTaskTokenLifetime,
                message,
                vec![ended, at],
                out,
            );
            return;
        }
        if from == Direction::ServerToClient && self.revision == Revision::Mcp2026_07_28 {
            let request = entry.request;
            if let Some(open) = self.sides[slot(other(from))].in_flight.get(&request) {
                if let (Some(cancelled), Some(read)) = (open.cancelled, open.cancel_read) {
                    self.flag(
                        RuleId::McpR5StdioCancelNoFurther,
                        format!("the server sent progress for a request cancelled at event {}, after answering at event {} a request sent after the cancellation", cancelled.index, read.index),
                        vec![cancelled, read, at],
                        out,
                    );
                }
            }
        }
        let Some(entry) = self.sides[slot(other(from))].tokens.get_mut(&key) else {
            return;
        };
        let Some(value) = value else { return };
        match entry.last {
            Some((last, last_at)) if value <= last => {
                self.flag(
                    RuleId::McpProgressIncrease,
                    format!("progress for token {token} went from {last} to {value}"),
                    vec![last_at, at],
                    out,
                );
            }
            _ => entry.last = Some((value, at)),
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
                        "the {} answered id {id} again; it was answered at event {index}",
                        from.sender()
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
                            notified.index
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
    /// codec refused, or a repeated `id` member the lifted request does not
    /// carry, by echoing an id read there ([`crate::error_ids::error_may_carry`]:
    /// echoing a readable id of an Invalid Request is conformant, JSON-RPC
    /// 2.0 §5). Whether a result was due is the exchange judge's to say; here
    /// the frame is answered, and taken out.
    fn echoes_malformed(&mut self, asker: Direction, id: &Id<'_>) -> bool {
        let revision = self.revision;
        let side = &mut self.sides[slot(asker)];
        let found = side.malformed.iter().position(|(read, _)| {
            matches!(read, crate::error_ids::Read::Id(rid) if rid.matches(id))
                && crate::error_ids::error_may_carry(revision, read, true, Some(id))
        });
        let Some((_, lifted)) = found.map(|i| side.malformed.remove(i)) else {
            return false;
        };
        // The same frame read the other way is answered too.
        if let Some(open) = lifted.and_then(|key| side.in_flight.remove(&key)) {
            if let Some(token) = open.token {
                side.tokens.remove(&token);
            }
        }
        true
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
        let created_task = self.revision == Revision::Mcp2025_11_25
            && open
                .request
                .params()
                .is_some_and(|p| p.get("task").is_some())
            && matches!(reply, Message::Success(s) if s.result.get("task").is_some());
        if let (Message::Success(s), Revision::Mcp2025_11_25) = (reply, self.revision) {
            let params = open.request.params();
            let method = open.request.method().unwrap_or_default();
            let receiver = other(asker);
            if params.as_ref().is_some_and(|p| p.get("task").is_some()) {
                if let Some(task) = s.result.get("task") {
                    self.task_created(asker, key, &open, &method, &task, at, out);
                    self.task_sighting(receiver, &task, true, at, out);
                    if let Some((id, until)) = self.pending_alive.take() {
                        self.tasks.alive_until(receiver, &id, until);
                    }
                }
            } else if method == "tasks/get" || method == "tasks/cancel" {
                if method == "tasks/cancel" {
                    self.task_request_after_end(receiver, &open, reply, at, out);
                }
                self.task_sighting(receiver, &s.result, false, at, out);
                if method == "tasks/get" {
                    if let Some(id) = string_member(&s.result, "taskId") {
                        let poll = s
                            .result
                            .get("pollInterval")
                            .and_then(|p| p.as_str().parse::<f64>().ok());
                        self.tasks.retrieved(receiver, &id, poll, at);
                    }
                }
            } else if method == "tasks/list" {
                self.task_list(receiver, &open, &s.result, at, out);
            } else if method == "tasks/result" {
                let id = params.as_ref().and_then(|p| string_member(p, "taskId"));
                if let Some(id) = id {
                    let _ = self.tasks.result_answered(receiver, &id, at);
                }
            }
        }
        if let (Message::Error(_), Revision::Mcp2025_11_25) = (reply, self.revision) {
            let method = open.request.method().unwrap_or_default();
            if method == "tasks/cancel" || method == "tasks/result" {
                self.task_request_after_end(other(asker), &open, reply, at, out);
            }
        }
        if asker == Direction::ClientToServer {
            self.teardown(&open, reply, at, out);
            self.server_declares(&open, reply, at, out);
            self.declared_lists(&open, reply, at, out);
            self.list_answer(&open, reply, at, out);
            self.answer_against_lists(&open, reply, at, out);
            self.retry_answer(&open, reply, at, out);
        }
        if asker == Direction::ClientToServer {
            if let Message::Error(e) = reply {
                if e.error.code == URL_ELICITATION_REQUIRED {
                    let ids: Vec<String> = e
                        .error
                        .data
                        .as_ref()
                        .and_then(|d| d.get("elicitations").map(Raw::into_owned))
                        .map(|list| {
                            list.elements()
                                .filter_map(|el| string_member(&el, "elicitationId"))
                                .collect()
                        })
                        .unwrap_or_default();
                    for id in ids {
                        self.remember_elicitation(id);
                    }
                }
            }
        }
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
        if asker == Direction::ClientToServer {
            self.cancellations_read(open.at.index, at);
            if let (Some(cancelled), Some(read)) = (open.cancelled, open.cancel_read) {
                self.flag(
                    RuleId::McpR5StdioCancelNoFurther,
                    format!("the server answered a request cancelled at event {}, after answering at event {} a request sent after the cancellation", cancelled.index, read.index),
                    vec![cancelled, read, at],
                    out,
                );
            }
        }
        if let Some(cancelled) = open.cancelled {
            self.flag(
                RuleId::McpCancelReceiverShould,
                format!(
                    "the {} answered a request cancelled at event {}",
                    other(asker).sender(),
                    cancelled.index
                ),
                vec![cancelled, at],
                out,
            );
        }
        let mut input_required = false;
        if let Message::Success(s) = reply {
            if self.revision == Revision::Mcp2026_07_28
                && asker == Direction::ClientToServer
                && is_discover
                && self.handshake.discovered.is_none()
            {
                self.handshake.discovered = Some(at);
                self.handshake.server_caps = s.result.get("capabilities").map(Raw::into_owned);
            }
            input_required = self.revision == Revision::Mcp2026_07_28
                && s.result
                    .get("resultType")
                    .and_then(|t| t.as_string().map(|t| t == "input_required"))
                    .unwrap_or(false);
            let is_init = self
                .handshake
                .request
                .is_some_and(|(init, _)| init == key && asker == Direction::ClientToServer);
            if is_init && self.handshake.answered.is_none() {
                self.handshake.answered = Some(at);
                self.handshake.server_caps = s.result.get("capabilities").map(Raw::into_owned);
            }
        }
        self.sides[slot(asker)].history.insert(
            key,
            Past::Answered {
                index: at.index,
                input_required,
                task: created_task,
            },
        );
    }

    /// A `Task` the `receiver` showed (basic/utilities/tasks §Task Status
    /// Lifecycle, §Task ID Requirements); one without a string `taskId` and
    /// `status` is the schema rules' concern.
    fn task_sighting(
        &mut self,
        receiver: Direction,
        task: &Raw<'_>,
        created: bool,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let text = |name: &str| {
            task.get(name)
                .and_then(|v| v.as_string().map(|s| s.into_owned()))
        };
        let (Some(id), Some(status)) = (text("taskId"), text("status")) else {
            return;
        };
        if super::tasks::terminal(&status) {
            self.task_tokens_end(receiver, &id, at);
        }
        match self.tasks.sighting(receiver, &id, &status, created, at) {
            Some(super::tasks::Breach::LeftTerminal { was, at: then }) => self.flag(
                RuleId::McpTasksTerminalFinal,
                format!(
                    "task `{id}` was `{was}` at event {} and is now `{status}`",
                    then.index
                ),
                vec![then, at],
                out,
            ),
            Some(super::tasks::Breach::ResultBeforeEnd { at: then }) => self.flag(
                RuleId::McpTasksResultBlocks,
                format!(
                    "the {} answered `tasks/result` for task `{id}` at event {} and now shows it `{status}`",
                    receiver.sender(),
                    then.index
                ),
                vec![then, at],
                out,
            ),
            Some(super::tasks::Breach::IdReused { at: then }) => self.flag(
                RuleId::McpTasksIdUnique,
                format!(
                    "the {} created task `{id}` again; it created it at event {}",
                    receiver.sender(),
                    then.index
                ),
                vec![then, at],
                out,
            ),
            None => {}
        }
    }

    /// basic/utilities/progress §Behavior Requirements 3: once `receiver`'s
    /// task `id` is terminal, its token (kept by the asker) is spent.
    fn task_tokens_end(&mut self, receiver: Direction, id: &str, at: At) {
        for token in self.sides[slot(other(receiver))].tokens.values_mut() {
            if let Some((task, ended @ None)) = &mut token.task {
                if task == id {
                    *ended = Some(at);
                }
            }
        }
    }

    /// The `tasks.requests` entry a task-augmented `method` needs declared
    /// by its receiver (basic/utilities/tasks §Server Capabilities, §Client
    /// Capabilities); `None` when the receiver's capabilities are not known
    /// yet, `Some(false)` when they lack it.
    fn task_capability(&self, receiver: Direction, method: &str) -> Option<bool> {
        self.handshake.answered?;
        let caps = match receiver {
            Direction::ServerToClient => self.handshake.server_caps.as_ref(),
            Direction::ClientToServer => self.handshake.client_caps.as_ref(),
        };
        let path: &[&str] = match (receiver, method) {
            (Direction::ServerToClient, "tools/call") => &["tools", "call"],
            (Direction::ClientToServer, "sampling/createMessage") => &["sampling", "createMessage"],
            (Direction::ClientToServer, "elicitation/create") => &["elicitation", "create"],
            _ => return Some(false),
        };
        let mut node = caps
            .and_then(|c| c.get("tasks").map(Raw::into_owned))
            .and_then(|t| t.get("requests").map(Raw::into_owned));
        for name in path {
            node = node.and_then(|n| n.get(name).map(Raw::into_owned));
        }
        Some(node.is_some_and(|n| n.kind() == ValueKind::Object))
    }

    /// basic/utilities/tasks §Capability Negotiation: a task-augmented
    /// request sent by `from` to a receiver that did not declare it.
    fn task_request_declared(&self, from: Direction, method: &str, at: At, out: &mut Vec<Finding>) {
        let receiver = other(from);
        if self.task_capability(receiver, method) == Some(false) {
            self.flag(
                RuleId::McpTasksRequestCapability,
                format!(
                    "the {} sent `{method}` as a task; the {}'s `initialize` capabilities lack `tasks.requests` for it",
                    from.sender(),
                    receiver.sender()
                ),
                vec![at],
                out,
            );
        }
    }

    /// A `CreateTaskResult` answering `open` (basic/utilities/tasks
    /// §Capabilities, §Task Support and Handling): the receiver must have
    /// declared the task capability; the request's progress token now
    /// follows the task (basic/utilities/progress §Behavior Requirements 3).
    #[expect(
        clippy::too_many_arguments,
        reason = "one call site; the pair's parts, kept apart to avoid cloning the request"
    )]
    fn task_created(
        &mut self,
        asker: Direction,
        key: Key,
        open: &Open,
        method: &str,
        task: &Raw<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let receiver = other(asker);
        if self.task_capability(receiver, method) == Some(false) {
            self.flag(
                RuleId::McpTasksCapabilityDeclared,
                format!(
                    "the {} answered `{method}` with a `CreateTaskResult`; its `initialize` capabilities lack `tasks.requests` for it",
                    receiver.sender()
                ),
                vec![open.at, at],
                out,
            );
        }
        let Some(id) = string_member(task, "taskId") else {
            return;
        };
        // Created no earlier than the request was sent, so alive at least
        // its ttl from then (basic/utilities/tasks §TTL and Resource
        // Management); applied once the sighting below has recorded the task.
        let until = match task.get("ttl") {
            Some(t) if t.kind() == ValueKind::Null => Some(f64::INFINITY),
            Some(t) => t
                .as_str()
                .parse::<f64>()
                .ok()
                .zip(open.at.time)
                .map(|(ms, sent)| sent + ms / 1000.0),
            None => None,
        };
        self.pending_alive = until.map(|u| (id.clone(), u));
        let Some(token) = open.token else {
            return;
        };
        let side = &mut self.sides[slot(asker)];
        let kept = side.tokens.values().filter(|t| t.task.is_some()).count();
        if kept < TASK_TOKENS_CAP {
            side.tokens.entry(token).or_insert(Token {
                request: key,
                last: None,
                task: Some((id, None)),
            });
        }
    }

    /// basic/utilities/tasks §Task Listing 2, 4: a `tasks/list` answer that
    /// starts the listing (no `cursor`) and ends it (no `nextCursor`) holds
    /// every task a `tasks/get` retrieved that cannot have expired.
    fn task_list(
        &self,
        receiver: Direction,
        open: &Open,
        result: &Raw<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let first = open
            .request
            .params()
            .is_none_or(|p| p.get("cursor").is_none());
        if !first || result.get("nextCursor").is_some() {
            return;
        }
        let Some(tasks) = result.get("tasks") else {
            return;
        };
        let listed: Vec<String> = tasks
            .elements()
            .filter_map(|t| string_member(&t, "taskId"))
            .collect();
        for (id, retrieved) in self.tasks.missing_from(receiver, &listed, at.time) {
            self.flag(
                RuleId::McpTasksListRetrievable,
                format!(
                    "the {}'s complete `tasks/list` answer omits task `{id}`, which `tasks/get` retrieved at event {} and whose ttl cannot have run out",
                    receiver.sender(),
                    retrieved.index
                ),
                vec![retrieved, open.at, at],
                out,
            );
        }
    }

    /// A `tasks/cancel` or `tasks/result` sent after the receiver showed the
    /// task terminal (basic/utilities/tasks §Task Cancellation 1, §Task
    /// Execution Errors).
    fn task_request_after_end(
        &self,
        receiver: Direction,
        open: &Open,
        reply: &Message<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let method = open.request.method().unwrap_or_default();
        let params = open.request.params();
        let Some(id) = params.as_ref().and_then(|p| string_member(p, "taskId")) else {
            return;
        };
        let Some((status, since)) = self.tasks.terminal_since(receiver, &id) else {
            return;
        };
        if since.index >= open.at.index {
            return;
        }
        let code = match reply {
            Message::Error(e) => Some(e.error.code),
            _ => None,
        };
        if method == "tasks/cancel" && code != Some(crate::codes::INVALID_PARAMS) {
            let answered = code.map_or_else(|| "a result".to_owned(), |c| format!("error {c}"));
            self.flag(
                RuleId::McpTasksCancelTerminalRejected,
                format!("`tasks/cancel` of task `{id}`, `{status}` since event {}, was answered with {answered}, not -32602", since.index),
                vec![since, open.at, at],
                out,
            );
        }
        if method == "tasks/result" && status == "completed" {
            if let Some(code) = code {
                self.flag(
                    RuleId::McpTasksResultCompletedSuccess,
                    format!("`tasks/result` of task `{id}`, `completed` since event {}, was answered with error {code}", since.index),
                    vec![since, open.at, at],
                    out,
                );
            }
        }
    }

    /// Where the server's capabilities were declared: its `initialize` answer
    /// (2024-11-05 to 2025-11-25) or its `server/discover` answer (2026-07-28).
    fn declared_at(&self) -> Option<(At, &'static str)> {
        match (self.handshake.answered, self.handshake.discovered) {
            (Some(at), _) => Some((at, "`initialize`")),
            (None, Some(at)) => Some((at, "`server/discover`")),
            (None, None) => None,
        }
    }

    /// Server feature pages §Capabilities: a server that answers a feature's
    /// request with a result supports the feature, so it declared it; and
    /// server/tools §Embedded Resources: one that embeds resources in a tool
    /// result SHOULD implement `resources`.
    fn server_declares(&self, open: &Open, reply: &Message<'_>, at: At, out: &mut Vec<Finding>) {
        let Message::Success(s) = reply else { return };
        let Some((declared_at, answer)) = self.declared_at() else {
            return;
        };
        let caps = self.handshake.server_caps.as_ref();
        let method = open.request.method().unwrap_or_default();
        let embeds = method == "tools/call"
            && s.result.get("content").is_some_and(|c| {
                c.elements().any(|item| {
                    item.get("type")
                        .and_then(|t| t.as_string().map(|t| t == "resource"))
                        == Some(true)
                })
            });
        if embeds
            && !caps
                .and_then(|c| c.get("resources"))
                .is_some_and(|r| r.kind() == ValueKind::Object)
        {
            self.flag(
                RuleId::McpToolsEmbeddedResourcesCapability,
                format!("a `tools/call` result embeds a resource, but the server's {answer} answer did not declare `resources`"),
                vec![declared_at, open.at, at],
                out,
            );
        }
        let Some(need) = needed(&method, Direction::ClientToServer, self.revision) else {
            return;
        };
        if need.holder != Direction::ServerToClient || need.capability == "logging" {
            // Logging is the server's own notifications' (mcp.lifecycle.operation-respect).
            return;
        }
        let feature = super::capabilities::Need { flag: None, ..need };
        if declared(caps, feature) {
            return;
        }
        self.flag(
            RuleId::McpCapabilitiesServerDeclares,
            format!(
                "the server answered `{method}` with a result but its {answer} answer did not declare `{}`",
                need.capability
            ),
            vec![declared_at, open.at, at],
            out,
        );
    }

    /// 2026-07-28 server/tools, server/prompts, server/resources §Capabilities:
    /// a server that declared the feature in `server/discover` responds to its
    /// list request; -32601 (Method not found) is no such response.
    fn declared_lists(&self, open: &Open, reply: &Message<'_>, at: At, out: &mut Vec<Finding>) {
        let Message::Error(e) = reply else { return };
        let Some(discovered) = self.handshake.discovered else {
            return;
        };
        if e.error.code != crate::codes::METHOD_NOT_FOUND {
            return;
        }
        let method = open.request.method().unwrap_or_default();
        let capability = match method.as_ref() {
            "tools/list" => "tools",
            "prompts/list" => "prompts",
            "resources/list" => "resources",
            _ => return,
        };
        let declared = self
            .handshake
            .server_caps
            .as_ref()
            .and_then(|c| c.get(capability))
            .is_some_and(|v| v.kind() == ValueKind::Object);
        if declared {
            self.flag(
                RuleId::McpR5CapabilitiesDeclaredLists,
                format!("the server declared `{capability}` in `server/discover` but answered `{method}` with -32601 (Method not found)"),
                vec![discovered, open.at, at],
                out,
            );
        }
    }
}

impl Judge {
    /// 2026-07-28 server/utilities/logging §Capabilities: a server that logs
    /// declared `logging` in its `server/discover` answer (earlier revisions:
    /// [`Self::capability`] against `initialize`).
    fn logging_declared(&self, at: At, out: &mut Vec<Finding>) {
        if self.revision != Revision::Mcp2026_07_28 {
            return;
        }
        let Some(discovered) = self.handshake.discovered else {
            return;
        };
        let declared = self
            .handshake
            .server_caps
            .as_ref()
            .and_then(|c| c.get("logging"))
            .is_some_and(|v| v.kind() == ValueKind::Object);
        if !declared {
            self.flag(
                RuleId::McpR5LoggingCapability,
                "the server sent `notifications/message`, but its `server/discover` answer did not declare `logging`".into(),
                vec![discovered, at],
                out,
            );
        }
    }

    /// 2026-07-28 basic/patterns/mrtr §Error Handling: remembers what an
    /// input-required answer asked for, and judges the answer to a retry
    /// that left some of it out.
    fn retry_answer(&mut self, open: &Open, reply: &Message<'_>, at: At, out: &mut Vec<Finding>) {
        if self.revision != Revision::Mcp2026_07_28 {
            return;
        }
        let method = open.request.method().unwrap_or_default();
        let params = open.request.params();
        match reply {
            Message::Success(s) => {
                let input_required = s
                    .result
                    .get("resultType")
                    .and_then(|t| t.as_string().map(|t| t == "input_required"))
                    == Some(true);
                if input_required {
                    self.inputs.asked(&method, params, &s.result, at);
                } else if let Some(why) = params.and_then(malformed_input_responses) {
                    self.flag(
                        RuleId::McpR5MrtrInputResponsesValidated,
                        format!("`{method}` carried `inputResponses` that {why}, and was answered with a result"),
                        vec![open.at, at],
                        out,
                    );
                }
            }
            Message::Error(e) => {
                if let Some((missing, asked)) = self.inputs.missing(&method, params) {
                    self.flag(
                        RuleId::McpR5MrtrMissingInputReasked,
                        format!(
                            "the retry of `{method}` left out input {} asked for at event {}, and was answered with error {} rather than a new `InputRequiredResult`",
                            missing.join(", "),
                            asked.index,
                            e.error.code
                        ),
                        vec![asked, open.at, at],
                        out,
                    );
                } else if let Some((extra, asked)) = self.inputs.extra(&method, params) {
                    self.flag(
                        RuleId::McpR5MrtrExtraInputIgnored,
                        format!(
                            "the retry of `{method}` answered every input asked for at event {} and added {}, and was answered with error {} rather than processed",
                            asked.index,
                            extra.join(", "),
                            e.error.code
                        ),
                        vec![asked, open.at, at],
                        out,
                    );
                }
            }
            _ => {}
        }
    }

    /// 2026-07-28: a client request judged against the input-required
    /// answers before it: its input responses against the input requests
    /// they answer (client/sampling §Tool Choice Modes, client/roots §Root),
    /// its `requestState` against the request it was given for
    /// (basic/patterns/mrtr §Client Requirements (Basic Workflow) 4).
    fn retry_request(
        &mut self,
        method: &str,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        for found in self.inputs.answered(method, params) {
            let rule = match found.broke {
                Broke::ToolChoiceNone => RuleId::McpR5SamplingToolChoiceNone,
                Broke::ToolChoiceRequired => RuleId::McpR5SamplingToolChoiceRequired,
                Broke::RootNotFile => RuleId::McpR5RootsFileUri,
            };
            self.flag(rule, found.message, vec![found.asked, at], out);
        }
        if let Some((given, asked)) = self.inputs.state_misused(method, params) {
            self.flag(
                RuleId::McpR5MrtrRetryOnly,
                format!(
                    "`{method}` carries the `requestState` that the input-required answer at event {} gave to a `{given}` request, and is not its retry",
                    asked.index
                ),
                vec![asked, at],
                out,
            );
        }
    }

    /// 2026-07-28 basic/transports/stdio §Cancellation: answering the client's
    /// request sent at event `asked` shows the server had read every
    /// cancellation the client sent before it. Only 2026-07-28 keeps this (its rule is a MUST NOT there).
    /// 2026-07-28: the server answering an acknowledged `subscriptions/listen`
    /// the client did not cancel ends that subscription: it tore it down.
    /// basic/patterns/cancellation says it MUST then have sent
    /// `notifications/cancelled` for the listen id; basic/patterns/subscriptions
    /// §Graceful Closure that it SHOULD answer with a successful result. Either
    /// signal is accepted, and both (cancellation, then the result: the result
    /// is the one answer the request is owed, and the client SHOULD ignore it,
    /// §Behavior Requirements 5); an error with no cancellation before it is
    /// neither. An answer before the acknowledgment refuses the subscription
    /// rather than ending it.
    fn teardown(&self, open: &Open, reply: &Message<'_>, at: At, out: &mut Vec<Finding>) {
        let Some(acknowledged) = open.acknowledged else {
            return;
        };
        if !open.listen || open.cancelled.is_some() || open.torn_down.is_some() {
            return;
        }
        if let Message::Error(e) = reply {
            self.flag(
                RuleId::McpR5SubscriptionTeardownSignalled,
                format!(
                    "the server ended the subscription acknowledged at event {acknowledged} with error {}, without `notifications/cancelled` for it (basic/patterns/cancellation, MUST) and without a successful `subscriptions/listen` result (basic/patterns/subscriptions §Graceful Closure, SHOULD)",
                    e.error.code
                ),
                vec![open.at, at],
                out,
            );
        }
    }

    fn cancellations_read(&mut self, asked: u64, at: At) {
        if self.revision != Revision::Mcp2026_07_28 {
            return;
        }
        for open in self.sides[slot(Direction::ClientToServer)]
            .in_flight
            .values_mut()
        {
            let before = open.cancelled.filter(|c| c.index < asked);
            match before {
                Some(_) if open.cancel_read.is_some() => {}
                Some(_) if self.ordered => open.cancel_read = Some(at),
                Some(cancelled) => {
                    self.order_unjudged.get_or_insert(cancelled);
                }
                None => {}
            }
        }
    }

    fn remember_elicitation(&mut self, id: String) {
        if self.url_elicitations.len() == ELICITATIONS_CAP {
            self.url_elicitations.remove(0);
        }
        self.url_elicitations.push(id);
    }

    /// 2025-11-25 client/elicitation §Completion Notifications for URL Mode
    /// Elicitation: the notification names an elicitation of this session.
    fn elicitation_complete(&self, params: Option<&Raw<'_>>, at: At, out: &mut Vec<Finding>) {
        if self.revision != Revision::Mcp2025_11_25 {
            return;
        }
        let id = params.and_then(|p| string_member(p, "elicitationId"));
        let known = id
            .as_ref()
            .is_some_and(|id| self.url_elicitations.contains(id));
        if !known {
            self.flag(
                RuleId::McpElicitationCompleteKnownId,
                format!(
                    "`notifications/elicitation/complete` names elicitation {}, which no URL-mode elicitation of the server in this session carried",
                    id.map_or_else(|| "(none)".to_owned(), |id| format!("{id:?}"))
                ),
                vec![at],
                out,
            );
        }
    }

    /// Answers judged against what earlier list answers showed: an issued
    /// cursor refused, a prompt that is not listed or lacks a required
    /// argument, a completion without the capability, a tool called against
    /// its task support.
    fn answer_against_lists(
        &mut self,
        open: &Open,
        reply: &Message<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let method = open.request.method().unwrap_or_default();
        let params = open.request.params();
        let code = match reply {
            Message::Error(e) => Some(e.error.code),
            _ => None,
        };
        let input_required = matches!(reply, Message::Success(s)
            if s.result.get("resultType").and_then(|t| t.as_string().map(|t| t == "input_required")) == Some(true));
        if let (Some(_), Some(issued)) = (code, self.lists.issued(&method, params)) {
            self.flag(
                RuleId::McpPaginationStableCursor,
                format!(
                    "`{method}` refused a cursor the server issued at event {}",
                    issued.index
                ),
                vec![issued, open.at, at],
                out,
            );
        }
        let answered = code.map_or_else(|| "a result".to_owned(), |c| format!("error {c}"));
        match method.as_ref() {
            "prompts/get" if !input_required && code != Some(crate::codes::INVALID_PARAMS) => {
                let name = params.and_then(|p| string_member(p, "name"));
                let arguments = params.and_then(|p| p.get("arguments").map(Raw::into_owned));
                let problem =
                    name.and_then(|name| self.lists.prompt_problem(&name, arguments.as_ref()));
                let (what, listed) = match problem {
                    None => return,
                    Some(PromptProblem::Unknown { name, listed }) => (
                        format!("prompt {name:?}, which the list does not hold"),
                        listed,
                    ),
                    Some(PromptProblem::Missing {
                        name,
                        missing,
                        listed,
                    }) => (
                        format!(
                            "prompt {name:?} without its required argument(s) {}",
                            missing.join(", ")
                        ),
                        listed,
                    ),
                };
                self.flag(
                    RuleId::McpPromptsGetInvalidParams,
                    format!("`prompts/get` for {what} (listed at event {}) was answered with {answered}, not -32602 (Invalid params)", listed.index),
                    vec![listed, open.at, at],
                    out,
                );
            }
            "completion/complete" => self.completion_errors(open, code, at, out),
            "tools/call" => {
                if self.revision == Revision::Mcp2025_11_25 {
                    self.tool_task_support(open, code, at, out);
                }
                if let Message::Success(s) = reply {
                    if !input_required {
                        self.structured_output(open, &s.result, at, out);
                    }
                }
            }
            _ => {}
        }
    }

    /// server/tools §Output Schema: a tool listed with an `outputSchema`
    /// returns `structuredContent` that conforms to it, judged with
    /// [`crate::schema_check::conform`] in the schema's dialect. A result with
    /// `isError: true` reports a failed call, not the tool's output, so it is
    /// not judged; a schema that cannot be read (an unknown `$schema`, a
    /// `$ref` that does not resolve: nothing is fetched) leaves the call not
    /// judged, with the reason.
    fn structured_output(&mut self, open: &Open, result: &Raw<'_>, at: At, out: &mut Vec<Finding>) {
        // Before 2025-06-18 there is no `outputSchema` to hold a result to,
        // and a not-judged note must not stand for a rule that does not apply.
        if !RuleId::McpToolsOutputSchemaConform
            .info()
            .applies_to(self.revision)
        {
            return;
        }
        if result.get("isError").is_some_and(|e| e.as_str() == "true") {
            return;
        }
        let Some(name) = open.request.params().and_then(|p| string_member(p, "name")) else {
            return;
        };
        let Some((schema, listed)) = self.lists.output_schema(&name) else {
            return;
        };
        let (pointer, message) = match result.get("structuredContent").map(|c| c.to_value()) {
            None => (String::new(), format!("tool {name:?} has an `outputSchema` (listed at event {}), but its result has no `structuredContent`", listed.index)),
            Some(None) => return,
            Some(Some(content)) => match crate::schema_check::conform(schema, &content, self.revision) {
                Verdict::Conforms => return,
                Verdict::NotJudged(why) => {
                    if self.unjudged.len() < UNJUDGED_CAP {
                        self.unjudged.push(Unobserved {
                            rule: RuleId::McpToolsOutputSchemaConform,
                            frames: vec![listed, open.at, at],
                            why: format!("the `structuredContent` of tool {name:?} was not judged: {why}"),
                        });
                    }
                    return;
                }
                Verdict::Breaks(breach) => (
                    format!("/result/structuredContent{}", breach.pointer),
                    format!(
                        "the `structuredContent` of tool {name:?}{} breaks its `outputSchema` (listed at event {}): {}",
                        if breach.pointer.is_empty() { String::new() } else { format!(" at `{}`", breach.pointer) },
                        listed.index,
                        breach.why
                    ),
                ),
            },
        };
        out.extend(finding(
            RuleId::McpToolsOutputSchemaConform,
            self.revision,
            pointer,
            message,
            vec![listed, open.at, at],
        ));
    }

    /// server/utilities/completion §Error Handling.
    fn completion_errors(&self, open: &Open, code: Option<i64>, at: At, out: &mut Vec<Finding>) {
        let Some((declared_at, answer)) = self.declared_at() else {
            return;
        };
        let declared = self
            .handshake
            .server_caps
            .as_ref()
            .and_then(|c| c.get("completions"))
            .is_some_and(|v| v.kind() == ValueKind::Object);
        if !declared {
            if let Some(c) = code.filter(|c| *c != crate::codes::METHOD_NOT_FOUND) {
                self.flag(
                    RuleId::McpCompletionStandardErrors,
                    format!("`completion/complete` was answered with error {c}; the server's {answer} answer declared no `completions`, so -32601 (Method not found)"),
                    vec![declared_at, open.at, at],
                    out,
                );
            }
            return;
        }
        let reference = open
            .request
            .params()
            .and_then(|p| p.get("ref").map(Raw::into_owned));
        let prompt = reference
            .as_ref()
            .filter(|r| string_member(r, "type").as_deref() == Some("ref/prompt"))
            .and_then(|r| string_member(r, "name"));
        let Some(name) = prompt else { return };
        if self.lists.prompt_unknown(&name) && code != Some(crate::codes::INVALID_PARAMS) {
            let answered = code.map_or_else(|| "a result".to_owned(), |c| format!("error {c}"));
            self.flag(
                RuleId::McpCompletionStandardErrors,
                format!("`completion/complete` for prompt {name:?}, which the latest `prompts/list` does not hold, was answered with {answered}, not -32602 (Invalid params)"),
                vec![open.at, at],
                out,
            );
        }
    }

    /// 2025-11-25 basic/utilities/tasks §Tool-Level Negotiation.
    fn tool_task_support(&self, open: &Open, code: Option<i64>, at: At, out: &mut Vec<Finding>) {
        if code == Some(crate::codes::METHOD_NOT_FOUND) {
            return;
        }
        let Some(answered_at) = self.handshake.answered else {
            return;
        };
        let tasks_declared = self
            .handshake
            .server_caps
            .as_ref()
            .and_then(|c| c.get("tasks").map(Raw::into_owned))
            .and_then(|t| t.get("requests").map(Raw::into_owned))
            .and_then(|r| r.get("tools").map(Raw::into_owned))
            .is_some_and(|t| t.get("call").is_some());
        if !tasks_declared {
            return;
        }
        let params = open.request.params();
        let Some(name) = params.and_then(|p| string_member(p, "name")) else {
            return;
        };
        let as_task = params.is_some_and(|p| p.get("task").is_some());
        let answered = code.map_or_else(|| "a result".to_owned(), |c| format!("error {c}"));
        match (self.lists.tool_tasks(&name), as_task) {
            (Some(TaskSupport::Forbidden), true) => self.flag(
                RuleId::McpTasksToolForbidden,
                format!("`tools/call` of {name:?} as a task, which its `tools/list` entry does not allow, was answered with {answered}, not -32601"),
                vec![answered_at, open.at, at],
                out,
            ),
            (Some(TaskSupport::Required), false) => self.flag(
                RuleId::McpTasksToolRequired,
                format!("`tools/call` of {name:?} without a task, which its `tools/list` entry requires, was answered with {answered}, not -32601"),
                vec![answered_at, open.at, at],
                out,
            ),
            _ => {}
        }
    }

    /// Whether the server declared `listChanged` for `kind`'s capability.
    fn list_changed_declared(&self, kind: ListKind) -> bool {
        self.handshake
            .server_caps
            .as_ref()
            .and_then(|c| c.get(kind.capability()))
            .is_some_and(|c| c.get("listChanged").is_some_and(|v| v.as_str() == "true"))
    }

    /// 2026-07-28: whether a `subscriptions/listen` asking for `kind`'s changes
    /// was acknowledged by `since` and is still open, so the server owed it
    /// the notification for the whole interval.
    fn subscribed(&self, kind: ListKind, since: At) -> bool {
        self.sides[slot(Direction::ClientToServer)]
            .in_flight
            .values()
            .filter(|o| o.listen && o.acknowledged.is_some_and(|a| a <= since.index))
            .any(|o| {
                o.request
                    .params()
                    .and_then(|p| p.get("notifications").map(Raw::into_owned))
                    .and_then(|f| f.get(kind.filter()).map(Raw::into_owned))
                    .is_some_and(|v| v.as_str() == "true")
            })
    }

    /// A list answer against the earlier ones (see [`super::lists`]).
    fn list_answer(&mut self, open: &Open, reply: &Message<'_>, at: At, out: &mut Vec<Finding>) {
        let Message::Success(s) = reply else { return };
        let method = open.request.method().unwrap_or_default();
        let seen = self
            .lists
            .answered(&method, open.request.params(), &s.result, at);
        for seen in seen {
            match seen {
                Seen::Changed { kind, since } => {
                    let owed = self.list_changed_declared(kind)
                        && (self.revision != Revision::Mcp2026_07_28 || self.subscribed(kind, since));
                    if owed {
                        self.flag(
                            RuleId::McpListsChangedNotification,
                            format!(
                                "`{}` answered another list than at event {}, with `{}.listChanged` declared and no `{}` between",
                                kind.method(),
                                since.index,
                                kind.capability(),
                                kind.notification()
                            ),
                            vec![since, at],
                            out,
                        );
                    }
                }
                Seen::Reordered { kind, since } => {
                    if kind == ListKind::Tools {
                        self.flag(
                            RuleId::McpR5ToolsDeterministicOrder,
                            format!(
                                "`tools/list` answered the same tools as at event {} in another order, with no `{}` between",
                                since.index,
                                kind.notification()
                            ),
                            vec![since, at],
                            out,
                        );
                    }
                }
                Seen::ScopeChanged {
                    method,
                    since,
                    was,
                    now,
                } => self.flag(
                    RuleId::McpR5CacheScopePages,
                    format!("a page of `{method}` has `cacheScope` {now:?}; the page at event {} that gave its cursor had {was:?}", since.index),
                    vec![since, at],
                    out,
                ),
            }
        }
    }
}

/// The decoded string member `name` of an object, if it is one.
/// 2026-07-28 basic/patterns/mrtr §Error Handling: why a request's
/// `inputResponses` is no valid `InputResponses` object (an object whose
/// every value is a result object), if it is not.
fn malformed_input_responses(params: &Raw<'_>) -> Option<&'static str> {
    let responses = params.get("inputResponses")?;
    if responses.kind() != ValueKind::Object {
        return Some("are not an object");
    }
    responses
        .members()
        .any(|(_, v)| v.kind() != ValueKind::Object)
        .then_some("hold a value that is not a result object")
}

fn string_member(value: &Raw<'_>, name: &str) -> Option<String> {
    value
        .get(name)
        .and_then(|v| v.as_string().map(Cow::into_owned))
}

/// -32042 (URLElicitationRequiredError), 2025-11-25 client/elicitation §Error Handling.
const URL_ELICITATION_REQUIRED: i64 = -32042;

/// Whether a subscription's filter (the `subscriptions/listen` request's
/// `notifications`, schema `SubscriptionFilter`) asked for `method`; `None`
/// for a notification the filter does not govern.
fn requested(method: &str, params: Option<&Raw<'_>>, filter: Option<&Raw<'_>>) -> Option<bool> {
    let flag = |name: &str| {
        filter
            .and_then(|f| f.get(name))
            .is_some_and(|v| v.as_str() == "true")
    };
    Some(match method {
        "notifications/tools/list_changed" => flag("toolsListChanged"),
        "notifications/prompts/list_changed" => flag("promptsListChanged"),
        "notifications/resources/list_changed" => flag("resourcesListChanged"),
        "notifications/resources/updated" => {
            let uri = params.and_then(|p| p.get("uri").map(Raw::into_owned));
            let uri = uri.as_ref().and_then(Raw::as_string);
            filter
                .and_then(|f| f.get("resourceSubscriptions"))
                .is_some_and(|list| {
                    list.elements()
                        .any(|u| u.as_string().is_some_and(|u| Some(&u) == uri.as_ref()))
                })
        }
        _ => return None,
    })
}
