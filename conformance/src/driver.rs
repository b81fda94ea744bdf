//! The client side of one JSON-RPC 2.0 / MCP conversation over a
//! [`Transport`]: fresh request ids, requests and notifications, the MCP
//! handshake, and [`Driver::probe`], which sends a golden vector's exact bytes
//! and finds out cheaply whether the peer answered it.
//!
//! Silent drops are the commonest divergence, so a probe is followed by a
//! liveness request: a peer reads one line at a time, so once the later
//! request is answered (plus a short grace for out-of-order writers) anything
//! its reading layer was going to say about the probe has arrived. A request
//! it hands to a handler may be answered later still, concurrently, so that
//! answer alone is waited for up to the answer timeout ([`Wants::Reply`]).
//! No long timeout is waited out for a malformed frame, or unless the peer
//! is truly unresponsive.
//!
//! Every frame either way, and every close and timeout, goes into the wire
//! log the report keeps, as [transcript entries](Entry): the driver's log is
//! the transcript a record saves and the session judge reads, in one shape. A
//! frame skipped for its size or one that could not be sent is no entry (its
//! bytes never crossed whole); the probe that met it reports it.

use std::time::Duration;

use harness::client::{notification_document, read_reply, request_document, Reply, ReplyError};
use harness::ir::{Frame, Message};
use harness::{lift, Direction, Id, Raw, Revision};
use tokio::time::Instant;

use crate::transcript::{self, Entry};
use crate::transport::{Event, SendError, Transport};

/// The frames of a wire log as a record shows them (who sent each, its
/// bytes, when): what is not a frame (a close, a wait run out) is the log's,
/// not the exchange's.
#[must_use]
pub fn wire_frames(log: &[Entry]) -> Vec<transcript::Frame> {
    log.iter()
        .filter_map(|e| match e {
            Entry::Frame(frame) => Some(frame.clone()),
            Entry::Event { .. } => None,
        })
        .collect()
}

/// The frames the peer sent in a wire log, in order.
pub fn server_frames(log: &[Entry]) -> impl Iterator<Item = &[u8]> {
    log.iter().filter_map(|e| match e {
        Entry::Frame(transcript::Frame {
            from: Direction::ServerToClient,
            bytes,
            ..
        }) => Some(bytes.as_slice()),
        _ => None,
    })
}

/// The request that proves the peer is still reading after a probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Liveness {
    /// MCP `ping` (every MCP revision, basic/utilities/ping: the receiver MUST
    /// respond promptly with an empty response).
    Ping,
    /// Any other method; for plain JSON-RPC 2.0 an unknown one such as
    /// `wirecheck/liveness` serves, since a -32601 answer proves liveness too.
    Method(String),
}

impl Liveness {
    /// The liveness request's method.
    pub fn method(&self) -> &str {
        match self {
            Liveness::Ping => "ping",
            Liveness::Method(m) => m,
        }
    }
}

/// The rule a peer breaks when the liveness request after a probe goes
/// unanswered, by revision: where `ping` exists (2024-11-05 to 2025-11-25),
/// "The receiver MUST respond promptly with an empty response"
/// (`mcp.ping.respond`); elsewhere (plain JSON-RPC 2.0, whose liveness request
/// is an unknown method, and 2026-07-28, which has no `ping`) JSON-RPC 2.0
/// §5's "When a rpc call is made, the Server MUST reply with a Response"
/// (`jsonrpc.response.required`). Every judge of liveness asks this.
#[must_use]
pub fn liveness_rule(revision: Revision) -> harness::rules::RuleId {
    use harness::rules::RuleId;
    if RuleId::McpPingRespond.info().applies_to(revision) {
        RuleId::McpPingRespond
    } else {
        RuleId::JsonrpcResponseRequired
    }
}

/// How a driver waits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverConfig {
    /// The longest wait for any one answer.
    pub answer_timeout: Duration,
    /// The longest wait for a fresh process's first answer (`--startup-timeout`):
    /// a server that imports its SDK on a loaded machine may take seconds
    /// before it reads its first line, and that time is start-up, not silence
    /// (issue 27, false finding 3). Used instead of `answer_timeout` while
    /// the peer has sent nothing yet, when it is the longer of the two.
    pub startup_timeout: Duration,
    /// How long to keep listening after the liveness answer arrived.
    pub grace: Duration,
    /// The liveness request sent after each probe.
    pub liveness: Liveness,
    /// The most frames one probe keeps; the rest are counted.
    pub max_frames_per_probe: usize,
    /// The first id the driver allocates. Golden vectors carry small ids of
    /// their own, and a request id MUST NOT be reused within a session (MCP
    /// 2025-11-25, basic/index, "Requests", MUST), so ours start above theirs.
    pub first_id: i64,
    /// The most frames the wire log keeps; a flooding peer would otherwise
    /// grow it without end. Later frames are counted ([`Driver::log_omitted`]);
    /// close, timeout and send-failure events are always kept.
    pub max_log_frames: usize,
}

impl Default for DriverConfig {
    fn default() -> Self {
        DriverConfig {
            answer_timeout: Duration::from_secs(5),
            startup_timeout: Duration::from_secs(30),
            grace: Duration::from_millis(50),
            liveness: Liveness::Ping,
            max_frames_per_probe: 1024,
            first_id: 1000,
            max_log_frames: 65_536,
        }
    }
}

/// What a probe waits for, which decides how long it listens after the
/// liveness answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wants {
    /// No reply (a notification, a response): the grace, or a second
    /// liveness answer where the transport keeps the order.
    NoReply,
    /// A reply the peer owes: a [dispatched](dispatched) request's may come
    /// after the liveness answer, so it is waited for up to the answer
    /// timeout; anything else's, the grace.
    Reply,
    /// A reply, looked for until the grace ends: where silence the text
    /// accepts is an answer too ("an error or no answer"; a stream held
    /// open after its first notification, 2026-07-28
    /// `subscriptions/listen`), and for the fuzzer, whose hundreds of
    /// frames a second would otherwise wait a timeout on each a server
    /// drops (it confirms each finding on a fresh peer before keeping it).
    ReplyByGrace,
}

/// How a received frame relates to the probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Class {
    /// A response whose id is one the probe carried (or a batch of responses).
    ProbeAnswer,
    /// An error response with `"id": null` or no id: the answer to a frame the
    /// peer could not read, so the probe's, if anything's.
    NullIdError,
    /// The liveness request's answer.
    LivenessAnswer,
    /// A response to an id nobody is waiting for.
    Stray,
    /// A request or notification from the peer (or a batch with one).
    Unsolicited,
    /// A line that does not lift (malformed JSON, not JSON-RPC, a blank line).
    Unreadable,
    /// A line longer than the transport's bound, skipped.
    TooLong(u64),
    /// A frame answering another request: carried by an exchange that is
    /// neither the probe's nor the liveness request's (an earlier POST's
    /// late answer, say), whatever its id; or the late answer to one of the
    /// driver's own earlier requests whose wait had ended.
    OtherExchange,
}

/// A frame received during a probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    /// When, since the driver started.
    pub t: Duration,
    /// The exact bytes (empty for [`Class::TooLong`]).
    pub bytes: Vec<u8>,
    /// What it is to the probe.
    pub class: Class,
}

/// How the liveness check after a probe ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Live {
    /// Answered this long after it was sent.
    Answered(Duration),
    /// No answer within [`DriverConfig::answer_timeout`].
    Unresponsive,
    /// The peer's output ended first.
    Closed {
        /// The exit status as text, if known.
        status: Option<String>,
        /// The peer left a child holding stdout.
        leaky: bool,
    },
    /// The probe or the liveness request could not be sent.
    SendFailed(SendError),
}

/// What one probe observed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeReport {
    /// Whether the caller expected the probe to be answered (it holds a request).
    pub expects_answer: bool,
    /// The liveness request's id.
    pub liveness_id: Id<'static>,
    /// The liveness check's end.
    pub live: Live,
    /// Every frame received, in order.
    pub frames: Vec<Received>,
    /// Frames received past [`DriverConfig::max_frames_per_probe`], not kept.
    pub frames_over_cap: u64,
    /// Frames the transport dropped (full queue) while the probe ran: a verdict
    /// of "unanswered" is unsafe when this is not zero.
    pub transport_dropped: u64,
    /// From the probe's send to the end of listening.
    pub took: Duration,
    /// Ids in the probe that were already sent in this session: a duplicate
    /// the peer may refuse, and the runner's doing, not the peer's.
    pub reused_ids: Vec<Id<'static>>,
    /// The exchange that carried the probe, on a transport with exchanges
    /// ([`Transport::sent_exchange`]).
    pub exchange: Option<u64>,
}

impl ProbeReport {
    /// The frames of one class.
    pub fn of(&self, class: &Class) -> impl Iterator<Item = &Received> {
        let class = class.clone();
        self.frames.iter().filter(move |r| r.class == class)
    }

    /// Whether anything answered the probe (by id, or an id-null error).
    #[must_use]
    pub fn answered(&self) -> bool {
        self.frames
            .iter()
            .any(|r| matches!(r.class, Class::ProbeAnswer | Class::NullIdError))
    }
}

/// Why a request got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestError {
    /// It could not be sent.
    Send(SendError),
    /// No answer within the timeout.
    TimedOut,
    /// The peer's output ended first.
    Closed {
        /// The exit status as text, if known.
        status: Option<String>,
        /// The peer left a child holding stdout.
        leaky: bool,
    },
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestError::Send(e) => write!(f, "{e}"),
            RequestError::TimedOut => f.write_str("no answer within the timeout"),
            RequestError::Closed { status, leaky } => {
                write!(f, "the peer's output ended")?;
                if let Some(s) = status {
                    write!(f, " ({s})")?;
                }
                if *leaky {
                    f.write_str(", a child of it still holding stdout")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for RequestError {}

/// A request's answer, with what else arrived while waiting for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answered {
    /// The id the request was sent with.
    pub id: Id<'static>,
    /// The answer's exact bytes.
    pub bytes: Vec<u8>,
    /// Frames that arrived before it and were not it (notifications, the
    /// peer's own requests, strays, unreadable lines), in order.
    pub others: Vec<Received>,
}

impl Answered {
    /// The answer read with the reference codec.
    pub fn reply(&self) -> Result<Reply<'_>, ReplyError<'_>> {
        read_reply(&self.id, &self.bytes)
    }
}

/// The server's side of a handshake.
#[derive(Debug, Clone, PartialEq)]
pub struct Handshake {
    /// The method that opened the session: `initialize` or `server/discover`.
    pub method: &'static str,
    /// The whole answer's bytes.
    pub answer: Vec<u8>,
    /// The `result` member's exact text.
    pub result_text: String,
    /// The same, parsed.
    pub result: serde_json::Value,
    /// The protocol version the server chose (`initialize`), or the first of
    /// its `supportedVersions` (`server/discover`), if present and a string.
    pub protocol_version: Option<String>,
}

/// Why a handshake did not complete.
#[derive(Debug, Clone, PartialEq)]
pub enum HandshakeError {
    /// Plain JSON-RPC 2.0 has no handshake.
    NotApplicable(Revision),
    /// The request got no answer.
    Request(RequestError),
    /// The answer is not a success response to it (an error, another id, junk).
    Refused {
        /// The answer's bytes.
        answer: Vec<u8>,
        /// What is wrong with it.
        why: String,
    },
    /// `notifications/initialized` could not be sent.
    Initialized(SendError),
}

impl std::fmt::Display for HandshakeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HandshakeError::NotApplicable(r) => write!(f, "{r} has no handshake"),
            HandshakeError::Request(e) => write!(f, "handshake request failed: {e}"),
            HandshakeError::Refused { why, .. } => write!(f, "handshake refused: {why}"),
            HandshakeError::Initialized(e) => {
                write!(f, "cannot send notifications/initialized: {e}")
            }
        }
    }
}

impl std::error::Error for HandshakeError {}

/// One conversation with a peer.
#[derive(Debug)]
pub struct Driver<T> {
    transport: T,
    config: DriverConfig,
    started: Instant,
    /// Every id sent this session, allocated or inside a probe: none is reused.
    used: Vec<Id<'static>>,
    next: i64,
    log: Vec<Entry>,
    log_frames: usize,
    log_omitted: u64,
    /// Set after a 2026-07-28 `server/discover`: the `_meta` every request of
    /// ours carries (MCP 2026-07-28, basic/index, per-request protocol fields).
    request_meta: Option<serde_json::Map<String, serde_json::Value>>,
    /// When the peer's first output arrived, since the driver started: `None`
    /// while it has said nothing (it may still be starting).
    first_heard: Option<Duration>,
    /// Whether a slow start was already handed to the report.
    slow_start_told: bool,
    /// The driver's own requests (liveness requests, a handshake's or a
    /// fixture's) whose wait ended before their answer came: a late answer
    /// is theirs, never the next probe's.
    owed_to_us: Vec<Id<'static>>,
}

/// The most unanswered requests of ours remembered: a peer that stopped
/// answering them is judged by its probes, not followed for ever.
const OWED_TO_US_KEPT: usize = 64;

impl<T: Transport> Driver<T> {
    /// A driver over `transport`; the clock of the wire log starts now.
    pub fn new(transport: T, config: DriverConfig) -> Driver<T> {
        Driver {
            transport,
            started: Instant::now(),
            used: Vec::new(),
            next: config.first_id,
            log: Vec::new(),
            log_frames: 0,
            log_omitted: 0,
            request_meta: None,
            first_heard: None,
            slow_start_told: false,
            owed_to_us: Vec::new(),
            config,
        }
    }

    /// Whether the peer has sent anything yet (a frame, even an unreadable
    /// one): until then it may still be starting.
    #[must_use]
    pub fn heard(&self) -> bool {
        self.first_heard.is_some()
    }

    /// The wait for an answer that would otherwise get `timeout`: the
    /// start-up timeout while the peer has said nothing yet, so a fresh
    /// process's time spent starting is never taken for silence.
    fn wait(&self, timeout: Duration) -> Duration {
        if self.heard() || !self.transport.starts_fresh() {
            timeout
        } else {
            timeout.max(self.config.startup_timeout)
        }
    }

    /// Once: how long the peer took to say its first word, when that was
    /// longer than the answer timeout (a slow start, which the report
    /// mentions; an answer that slow would have timed out later on).
    pub fn slow_start(&mut self) -> Option<Duration> {
        let first = self.first_heard?;
        if self.slow_start_told || first <= self.config.answer_timeout {
            return None;
        }
        self.slow_start_told = true;
        Some(first)
    }

    /// The wire log so far.
    #[must_use]
    pub fn log(&self) -> &[Entry] {
        &self.log
    }

    /// Frames left out of the wire log past [`DriverConfig::max_log_frames`].
    #[must_use]
    pub fn log_omitted(&self) -> u64 {
        self.log_omitted
    }

    /// The transport, for what only it knows (an HTTP exchange's facts).
    #[must_use]
    pub fn transport(&self) -> &T {
        &self.transport
    }

    /// The transport, to change what it sends (a header, a session id).
    pub fn transport_mut(&mut self) -> &mut T {
        &mut self.transport
    }

    /// The transport, for shutting it down; the log is returned with it.
    pub fn into_parts(self) -> (T, Vec<Entry>) {
        (self.transport, self.log)
    }

    /// A request id not sent before in this session (by us or by a probe).
    pub fn fresh_id(&mut self) -> Id<'static> {
        loop {
            let id = Id::int(self.next);
            self.next += 1;
            if !self.used.iter().any(|u| u.matches(&id)) {
                self.used.push(id.clone());
                return id;
            }
        }
    }

    /// Seconds since the driver started, as a transcript entry keeps them.
    fn now(&self) -> Option<f64> {
        Some(self.started.elapsed().as_secs_f64())
    }

    fn note_frame(&mut self, from: Direction, bytes: &[u8]) {
        if self.log_frames >= self.config.max_log_frames {
            self.log_omitted += 1;
            return;
        }
        self.log_frames += 1;
        let t = self.now();
        self.log.push(Entry::Frame(transcript::Frame {
            from,
            bytes: bytes.to_vec(),
            t,
        }));
    }

    fn note_event(&mut self, event: transcript::Transport, from: Option<Direction>) {
        let t = self.now();
        self.log.push(Entry::Event { event, from, t });
    }

    async fn send_logged(&mut self, frame: &[u8]) -> Result<(), SendError> {
        self.note_frame(Direction::ClientToServer, frame);
        self.transport.send(frame).await
    }

    async fn recv_logged(&mut self, deadline: Instant) -> Event {
        let event = self.transport.recv(deadline).await;
        if matches!(event, Event::Frame(_) | Event::TooLong { .. }) && self.first_heard.is_none() {
            self.first_heard = Some(self.started.elapsed());
        }
        match &event {
            Event::Frame(bytes) => self.note_frame(Direction::ServerToClient, bytes),
            // The caller's probe reports it; its bytes never crossed whole.
            Event::TooLong { .. } => {}
            Event::Closed { .. } => {
                self.note_event(
                    transcript::Transport::Closed,
                    Some(Direction::ServerToClient),
                );
            }
            Event::TimedOut => self.note_event(transcript::Transport::WaitElapsed, None),
        }
        event
    }

    /// Sends a notification.
    pub async fn notify(
        &mut self,
        method: &str,
        params: Option<Raw<'static>>,
    ) -> Result<(), SendError> {
        let doc = notification_document(method, params);
        self.send_logged(&doc).await
    }

    /// Sends a request with a fresh id and waits up to `timeout` for its answer.
    pub async fn request(
        &mut self,
        method: &str,
        params: Option<Raw<'static>>,
        timeout: Duration,
    ) -> Result<Answered, RequestError> {
        let id = self.fresh_id();
        let params = self.with_meta(params);
        let doc = request_document(id.clone(), method, params);
        self.send_logged(&doc).await.map_err(RequestError::Send)?;
        let deadline = Instant::now() + self.wait(timeout);
        let mut others = Vec::new();
        loop {
            let t = self.started.elapsed();
            match self.recv_logged(deadline).await {
                Event::Frame(bytes) => {
                    if read_reply(&id, &bytes).is_ok() {
                        return Ok(Answered { id, bytes, others });
                    }
                    let class = if self.late_answer_to_us(&bytes) {
                        Class::OtherExchange
                    } else {
                        classify(&bytes, &[], None)
                    };
                    others.push(Received { t, bytes, class });
                }
                Event::TooLong { bytes_skipped } => others.push(Received {
                    t,
                    bytes: Vec::new(),
                    class: Class::TooLong(bytes_skipped),
                }),
                Event::Closed { status, leaky } => {
                    return Err(RequestError::Closed {
                        status: status.map(|s| s.to_string()),
                        leaky,
                    })
                }
                Event::TimedOut => {
                    self.owe_to_us(id);
                    return Err(RequestError::TimedOut);
                }
            }
        }
    }

    /// Adds the session's per-request `_meta` (2026-07-28) to `params`.
    fn with_meta(&self, params: Option<Raw<'static>>) -> Option<Raw<'static>> {
        let Some(meta) = &self.request_meta else {
            return params;
        };
        let mut object = match params.as_ref().and_then(Raw::to_value) {
            Some(serde_json::Value::Object(o)) => o,
            // Positional or odd params are the caller's on purpose; keep them.
            Some(_) => return params,
            None => serde_json::Map::new(),
        };
        let slot = object
            .entry("_meta")
            .or_insert_with(|| serde_json::Value::Object(serde_json::Map::new()));
        if let serde_json::Value::Object(existing) = slot {
            for (k, v) in meta {
                existing.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        Some(Raw::from_value(&serde_json::Value::Object(object)))
    }

    /// Opens an MCP session for `revision`.
    ///
    /// 2024-11-05 to 2025-11-25 (basic/lifecycle, "Initialization", MUST): an
    /// `initialize` request with the revision as `protocolVersion`, empty
    /// `capabilities` and `clientInfo`, then `notifications/initialized`.
    /// 2026-07-28 (server/discover; basic/index, per-request `_meta`): a
    /// `server/discover` request whose `_meta` carries the version, client info
    /// and capabilities, which every later request of ours carries as well.
    /// A refusal is returned, not judged: negotiation is the judge's business.
    pub async fn handshake(&mut self, revision: Revision) -> Result<Handshake, HandshakeError> {
        let handshake = self.handshake_answered(revision).await?;
        self.confirm_handshake(&handshake).await?;
        Ok(handshake)
    }

    /// [`handshake`](Self::handshake) up to its answer, before
    /// `notifications/initialized` ([`confirm_handshake`](Self::confirm_handshake)
    /// sends it): for a probe that must have something in place before the
    /// server hears it (a GET stream open for what the server sends then).
    pub async fn handshake_answered(
        &mut self,
        revision: Revision,
    ) -> Result<Handshake, HandshakeError> {
        let (method, params) = match revision {
            Revision::JsonRpc2 => return Err(HandshakeError::NotApplicable(revision)),
            Revision::Mcp2026_07_28 => {
                self.request_meta = Some(crate::opening::discover_meta(revision));
                ("server/discover", None)
            }
            _ => (
                "initialize",
                Some(Raw::from_value(&crate::opening::initialize_params(
                    revision,
                ))),
            ),
        };
        let timeout = self.config.answer_timeout;
        let answered = self
            .request(method, params, timeout)
            .await
            .map_err(HandshakeError::Request)?;
        let result_text = match answered.reply() {
            Ok(Reply::Result(raw)) => raw.as_str().to_owned(),
            Ok(Reply::Error(e)) => {
                return Err(HandshakeError::Refused {
                    answer: answered.bytes.clone(),
                    why: format!("error {}: {}", e.code, e.message.raw()),
                })
            }
            Err(e) => {
                return Err(HandshakeError::Refused {
                    answer: answered.bytes.clone(),
                    why: e.to_string(),
                })
            }
        };
        let result: serde_json::Value =
            serde_json::from_str(&result_text).map_err(|e| HandshakeError::Refused {
                answer: answered.bytes.clone(),
                why: format!("result does not parse: {e}"),
            })?;
        let protocol_version = match method {
            "initialize" => result.get("protocolVersion"),
            _ => result.get("supportedVersions").and_then(|v| v.get(0)),
        }
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned);
        Ok(Handshake {
            method,
            answer: answered.bytes,
            result_text,
            result,
            protocol_version,
        })
    }

    /// The end of a [`handshake_answered`](Self::handshake_answered):
    /// `notifications/initialized` after an `initialize` (2026-07-28's
    /// `server/discover` has none).
    pub async fn confirm_handshake(&mut self, handshake: &Handshake) -> Result<(), HandshakeError> {
        if handshake.method == "initialize" {
            self.notify("notifications/initialized", None)
                .await
                .map_err(HandshakeError::Initialized)?;
        }
        Ok(())
    }

    /// After the liveness answer to a probe that wants no reply: over one
    /// ordered stream each way ([`Transport::one_stream_each_way`], stdio),
    /// a second liveness request, whose answer ends the grace instead of the
    /// clock. A reply the peer wrongly gives the probe is written before its
    /// answer to the first liveness request by a peer that handles frames in
    /// order, and before the second's by one that handles a frame and the
    /// next two at once; what comes after both is past the grace's point.
    /// The grace still bounds the wait, so it is never longer than before;
    /// a fast peer is done in one round trip instead of the grace, on every
    /// notification and response of the hundreds a run sends (on the
    /// reference peer these graces were most of a run: benchmarks.md).
    /// `None` (wait the grace out) elsewhere, without a grace, or when it
    /// cannot be sent.
    async fn confirm_request(&mut self) -> Option<Id<'static>> {
        if self.config.grace.is_zero() || !self.transport.one_stream_each_way() {
            return None;
        }
        let (id, doc) = self.liveness_request();
        self.send_logged(&doc).await.ok().map(|()| id)
    }

    /// A liveness request under a fresh id, not sent: for a caller that
    /// sends several frames before one liveness check (`wirecheck fuzz`).
    pub fn liveness_request(&mut self) -> (Id<'static>, Vec<u8>) {
        let id = self.fresh_id();
        let doc = request_document(
            id.clone(),
            self.config.liveness.method(),
            self.with_meta(None),
        );
        (id, doc)
    }

    /// Sends `frame` exactly as given, then a liveness request, and returns
    /// everything received until the liveness answer plus
    /// [`DriverConfig::grace`], classified against the probe's ids; a
    /// dispatched request that `expects_answer` ([`Wants::Reply`]) is
    /// waited for past it.
    pub async fn probe(&mut self, frame: &[u8], expects_answer: bool) -> ProbeReport {
        let wants = if expects_answer {
            Wants::Reply
        } else {
            Wants::NoReply
        };
        self.probe_with(frame, wants, true).await
    }

    /// [`probe`](Self::probe), with the liveness request left out when
    /// `liveness` is false: for a transport that knows when an exchange is
    /// over (Streamable HTTP answers each POST in its own response), where a
    /// liveness request would need a session the probe's frame may not have
    /// opened. The peer then counts as live once every exchange has ended.
    pub async fn probe_with(&mut self, frame: &[u8], wants: Wants, liveness: bool) -> ProbeReport {
        let expects_answer = wants != Wants::NoReply;
        let probe_ids = request_ids(frame);
        // Its answer may come after the liveness answer (see `dispatched`).
        let may_come_late = wants == Wants::Reply && dispatched(frame);
        let reused_ids = probe_ids
            .iter()
            .filter(|id| self.used.iter().any(|u| u.matches(id)))
            .cloned()
            .collect();
        self.used.extend(probe_ids.iter().cloned());
        let start = Instant::now();
        let dropped_before = self.transport.dropped();
        let liveness_id = self.fresh_id();
        let mut report = ProbeReport {
            expects_answer,
            liveness_id: liveness_id.clone(),
            live: Live::Unresponsive,
            frames: Vec::new(),
            frames_over_cap: 0,
            transport_dropped: 0,
            took: Duration::ZERO,
            reused_ids,
            exchange: None,
        };
        let ping = request_document(
            liveness_id.clone(),
            self.config.liveness.method(),
            self.with_meta(None),
        );
        // Where the transport answers each frame in its own exchange, the
        // exchange says whose answer a frame is, never arrival order.
        let mut probe_exchange = None;
        let mut ping_exchange = None;
        let sent = match self.send_logged(frame).await {
            Ok(()) => {
                probe_exchange = self.transport.sent_exchange();
                if liveness {
                    let sent = self.send_logged(&ping).await;
                    ping_exchange = self.transport.sent_exchange().filter(|_| sent.is_ok());
                    sent
                } else {
                    Ok(())
                }
            }
            other => other,
        };
        report.exchange = probe_exchange;
        if let Err(e) = sent {
            // Whatever the peer said before it stopped reading still counts.
            report.live = Live::SendFailed(e);
        }
        let ping_sent = Instant::now();
        // A fresh process's first answer may wait out its start-up.
        let answer_timeout = self.wait(self.config.answer_timeout);
        let mut deadline = ping_sent + answer_timeout;
        let mut answered_at = None;
        // The second liveness request that ends the grace early (see below).
        let mut confirm: Option<Id<'static>> = None;
        loop {
            let t = self.started.elapsed();
            let (bytes, class) = match self.recv_logged(deadline).await {
                Event::Frame(bytes)
                    if confirm
                        .as_ref()
                        .is_some_and(|id| read_reply(id, &bytes).is_ok()) =>
                {
                    (bytes, Class::LivenessAnswer)
                }
                Event::Frame(bytes) if self.late_answer_to_us(&bytes) => {
                    (bytes, Class::OtherExchange)
                }
                Event::Frame(bytes) => {
                    let class = match self.transport.received_from() {
                        None => classify(&bytes, &probe_ids, Some(&liveness_id)),
                        Some(from) if Some(from) == probe_exchange => {
                            classify(&bytes, &probe_ids, None)
                        }
                        Some(from) if Some(from) == ping_exchange => {
                            match classify(&bytes, &[], Some(&liveness_id)) {
                                Class::LivenessAnswer => Class::LivenessAnswer,
                                _ => Class::OtherExchange,
                            }
                        }
                        Some(_) => Class::OtherExchange,
                    };
                    (bytes, class)
                }
                Event::TooLong { bytes_skipped } => (Vec::new(), Class::TooLong(bytes_skipped)),
                Event::Closed { status, leaky } => {
                    if answered_at.is_none() && !matches!(report.live, Live::SendFailed(_)) {
                        report.live = Live::Closed {
                            status: status.map(|s| s.to_string()),
                            leaky,
                        };
                    }
                    break;
                }
                // Without a liveness request, the end of the exchanges is the
                // answer: a transport that knows it says so before the deadline.
                Event::TimedOut if !liveness && Instant::now() < deadline => {
                    if !matches!(report.live, Live::SendFailed(_)) {
                        report.live = Live::Answered(ping_sent.elapsed());
                    }
                    break;
                }
                // The grace is over but the probe's own exchange is still
                // open: its answer is still coming on it (a slow answer is
                // no other probe's), so wait on, up to the answer timeout.
                Event::TimedOut
                    if answered_at.is_some()
                        && probe_exchange.is_some_and(|p| self.transport.exchange_open(p))
                        && Instant::now() < ping_sent + answer_timeout =>
                {
                    deadline = (Instant::now() + self.config.grace).min(ping_sent + answer_timeout);
                    continue;
                }
                // Past the grace, or past the answer timeout.
                Event::TimedOut => break,
            };
            let confirmed = class == Class::LivenessAnswer && answered_at.is_some();
            let liveness = class == Class::LivenessAnswer && answered_at.is_none();
            // A stray response counts: the probe is the one request of the
            // peer's still open (late answers to ours are told apart), so it
            // is its answer under a wrong id (a JavaScript server rounding
            // an id past 2^53), which the judge reads as such.
            let late_answer = may_come_late
                && answered_at.is_some()
                && matches!(
                    class,
                    Class::ProbeAnswer | Class::NullIdError | Class::Stray
                );
            if liveness {
                answered_at = Some(Instant::now());
                report.live = Live::Answered(ping_sent.elapsed());
                // A stray response before it is the probe's answer under a
                // wrong id (see `late_answer` below).
                let replied = report.frames.iter().any(|r| {
                    matches!(
                        r.class,
                        Class::ProbeAnswer | Class::NullIdError | Class::Stray
                    )
                });
                deadline = if may_come_late && !replied {
                    // The peer is live; its handler may still be at work.
                    (Instant::now() + self.config.answer_timeout).min(ping_sent + answer_timeout)
                } else {
                    Instant::now() + self.config.grace
                };
                if !expects_answer {
                    confirm = self.confirm_request().await;
                }
            }
            if report.frames.len() < self.config.max_frames_per_probe {
                report.frames.push(Received { t, bytes, class });
            } else {
                report.frames_over_cap += 1;
            }
            if confirmed {
                // Answered: owed no more.
                confirm = None;
                break;
            }
            // A late answer came: a grace for anything after it, as after
            // the liveness answer when it came in order.
            if late_answer {
                deadline = deadline.min(Instant::now() + self.config.grace);
            }
            // The grace is for a peer that answers out of order; a probe whose
            // answer came before the liveness answer has nothing left to wait
            // for (a second, duplicate answer after it would go unseen: the
            // price of not waiting a grace on every one of hundreds of probes).
            // Where the probe has an exchange of its own, that exchange
            // ending is what says every answer is in (a batch answered one
            // response per SSE event has several).
            let own_open = probe_exchange.is_some_and(|p| self.transport.exchange_open(p));
            if liveness && expects_answer && report.answered() && !own_open {
                break;
            }
        }
        // What is still owed to us arrives, if ever, during a later probe.
        if answered_at.is_none() && liveness {
            self.owe_to_us(liveness_id);
        }
        if let Some(id) = confirm {
            self.owe_to_us(id);
        }
        report.transport_dropped = self.transport.dropped() - dropped_before;
        report.took = start.elapsed();
        report
    }

    /// Remembers a request of ours whose wait ended unanswered.
    fn owe_to_us(&mut self, id: Id<'static>) {
        self.owed_to_us.push(id);
        let excess = self.owed_to_us.len().saturating_sub(OWED_TO_US_KEPT);
        self.owed_to_us.drain(..excess);
    }

    /// Whether `bytes` answers one of the driver's own earlier requests
    /// whose wait ended before it came (then it is owed no more).
    fn late_answer_to_us(&mut self, bytes: &[u8]) -> bool {
        let Some(at) = self
            .owed_to_us
            .iter()
            .position(|id| read_reply(id, bytes).is_ok())
        else {
            return false;
        };
        self.owed_to_us.remove(at);
        true
    }
}

/// Whether `frame` is one request a peer reads whole and hands to its
/// method's handler: a single JSON-RPC 2.0 request whose id MCP allows (a
/// string or an integer: 2025-11-25 basic/index, "Requests", MUST) and whose
/// params, if any, are an object. Its answer may follow the answer to a
/// later request (JSON-RPC 2.0 sets no order, and the SDKs' servers handle
/// requests concurrently, answering `ping` before a slow `resources/read`),
/// so the liveness answer does not say it will never come. A frame refused
/// while it is read (not JSON, not a request, an id or params MCP forbids,
/// a batch) is answered, if at all, by the reading layer, in order.
fn dispatched(frame: &[u8]) -> bool {
    let Ok(Frame::Single(Message::Request(request))) = lift(frame) else {
        return false;
    };
    let id_allowed = match &request.id {
        Id::String(_) => true,
        Id::Number(text) => {
            let digits = text.strip_prefix('-').unwrap_or(text);
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        }
        Id::Null => false,
    };
    let params_allowed = request
        .params
        .as_ref()
        .is_none_or(|p| p.kind() == harness::ValueKind::Object);
    id_allowed && params_allowed
}

/// The request ids a peer can read in `frame` (one, or a batch's), valid
/// frame or not ([`harness::error_ids::readable_request_ids`], the one
/// place): an Invalid Request's error may echo its readable id (JSON-RPC 2.0
/// §5), which then answers the probe, and the id counts as used; the live
/// fuzzer never puts two frames sharing one in a window, where that error
/// would be credited to the other frame.
#[must_use]
pub fn request_ids(frame: &[u8]) -> Vec<Id<'static>> {
    harness::error_ids::readable_request_ids(frame)
        .into_iter()
        .filter_map(|read| match read {
            harness::error_ids::Read::Id(id) => Some(id),
            _ => None,
        })
        .collect()
}

/// What `bytes` is to a probe with `probe_ids` and a liveness request `live`.
fn classify(bytes: &[u8], probe_ids: &[Id<'static>], live: Option<&Id<'static>>) -> Class {
    let Ok(frame) = lift(bytes) else {
        return Class::Unreadable;
    };
    if let Frame::Batch(messages) = &frame {
        let all_responses = messages
            .iter()
            .all(|m| matches!(m, Message::Success(_) | Message::Error(_)));
        // A batch answers a batch; the judge checks it element by element.
        return if all_responses {
            Class::ProbeAnswer
        } else {
            Class::Unsolicited
        };
    }
    if live.is_some_and(|id| read_reply(id, bytes).is_ok()) {
        return Class::LivenessAnswer;
    }
    let mut null_id = false;
    for id in probe_ids {
        match read_reply(id, bytes) {
            Ok(_) => return Class::ProbeAnswer,
            Err(ReplyError::Unattributed(_)) => null_id = true,
            Err(ReplyError::WrongId { found, .. }) if found == "null" => null_id = true,
            Err(ReplyError::NotAResponse(_)) => return Class::Unsolicited,
            Err(_) => {}
        }
    }
    match frame.messages().first() {
        Some(Message::Error(e)) if e.id.is_none() || matches!(e.id, Some(Id::Null)) => {
            Class::NullIdError
        }
        _ if null_id => Class::NullIdError,
        Some(Message::Success(_) | Message::Error(_)) => Class::Stray,
        _ => Class::Unsolicited,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scripted peer's next frame, or the deadline's end when it has none.
    async fn next_queued(
        out: &mut std::collections::VecDeque<Vec<u8>>,
        deadline: Instant,
    ) -> Event {
        match out.pop_front() {
            Some(frame) => Event::Frame(frame),
            None => {
                tokio::time::sleep_until(deadline).await;
                Event::TimedOut
            }
        }
    }

    /// A peer on one ordered stream (or not) that answers every `ping`
    /// at once and, like a peer handling frames concurrently, writes a
    /// message it owed the probe only after its answer to the first ping.
    struct Scripted {
        ordered: bool,
        out: std::collections::VecDeque<Vec<u8>>,
        owed: Option<Vec<u8>>,
    }

    impl Transport for Scripted {
        async fn send(&mut self, frame: &[u8]) -> Result<(), SendError> {
            let sent: serde_json::Value = serde_json::from_slice(frame).unwrap();
            match sent.get("id") {
                Some(id) if sent["method"] == "ping" => {
                    let pong = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}});
                    self.out.push_back(pong.to_string().into_bytes());
                    self.out.extend(self.owed.take());
                }
                _ => {
                    self.owed = Some(
                        br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"late"}}"#
                            .to_vec(),
                    );
                }
            }
            Ok(())
        }

        async fn recv(&mut self, deadline: Instant) -> Event {
            next_queued(&mut self.out, deadline).await
        }

        fn dropped(&self) -> u64 {
            0
        }

        fn one_stream_each_way(&self) -> bool {
            self.ordered
        }
    }

    /// Over one ordered stream, a probe that wants no reply ends at the
    /// answer to a second liveness request, not at the end of the grace,
    /// and what the peer wrote before that answer is still the probe's.
    /// Elsewhere the grace is waited out as before.
    #[tokio::test]
    async fn the_grace_after_a_probe_wanting_no_reply_ends_at_a_second_liveness_answer() {
        let grace = Duration::from_millis(400);
        for ordered in [true, false] {
            let peer = Scripted {
                ordered,
                out: std::collections::VecDeque::new(),
                owed: None,
            };
            let config = DriverConfig {
                grace,
                ..DriverConfig::default()
            };
            let mut driver = Driver::new(peer, config);
            let report = driver
                .probe(
                    br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                    false,
                )
                .await;
            assert!(
                matches!(report.live, Live::Answered(_)),
                "{:?}",
                report.live
            );
            let late = report
                .frames
                .iter()
                .filter(|f| f.class != Class::LivenessAnswer)
                .count();
            assert_eq!(late, 1, "ordered {ordered}: {:?}", report.frames);
            let pongs = report
                .frames
                .iter()
                .filter(|f| f.class == Class::LivenessAnswer)
                .count();
            assert_eq!(pongs, if ordered { 2 } else { 1 }, "ordered {ordered}");
            assert_eq!(
                report.took < grace,
                ordered,
                "ordered {ordered}: {:?}",
                report.took
            );
        }
    }

    /// A peer handling requests concurrently, as the SDKs' servers do: it
    /// answers `ping` at once and every other request `delay` later, out
    /// of order; `drops` requests it never answers.
    struct Concurrent {
        delay: Duration,
        drops: bool,
        /// Answers other requests under this id instead of theirs.
        wrong_id: Option<i64>,
        out: Vec<(Instant, Vec<u8>)>,
    }

    impl Transport for Concurrent {
        async fn send(&mut self, frame: &[u8]) -> Result<(), SendError> {
            let sent: serde_json::Value = serde_json::from_slice(frame).unwrap_or_default();
            let Some(id) = sent.get("id") else {
                return Ok(());
            };
            let id = match self.wrong_id {
                Some(wrong) if sent["method"] != "ping" => serde_json::json!(wrong),
                _ => id.clone(),
            };
            let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}});
            let at = if sent["method"] == "ping" {
                Instant::now()
            } else if self.drops {
                return Ok(());
            } else {
                Instant::now() + self.delay
            };
            self.out.push((at, answer.to_string().into_bytes()));
            self.out.sort_by_key(|(at, _)| *at);
            Ok(())
        }

        async fn recv(&mut self, deadline: Instant) -> Event {
            match self.out.first() {
                Some((at, _)) if *at <= deadline => {
                    tokio::time::sleep_until(*at).await;
                    Event::Frame(self.out.remove(0).1)
                }
                _ => {
                    tokio::time::sleep_until(deadline).await;
                    Event::TimedOut
                }
            }
        }

        fn dropped(&self) -> u64 {
            0
        }

        fn one_stream_each_way(&self) -> bool {
            true
        }
    }

    fn concurrent(delay: Duration, drops: bool) -> Driver<Concurrent> {
        let peer = Concurrent {
            delay,
            drops,
            wrong_id: None,
            out: Vec::new(),
        };
        let config = DriverConfig {
            answer_timeout: Duration::from_millis(1500),
            ..DriverConfig::default()
        };
        Driver::new(peer, config)
    }

    /// A request the peer dispatches to its handler may be answered after
    /// the liveness request sent behind it (JSON-RPC 2.0 sets no order; a
    /// server handling requests concurrently answers `ping` first): its
    /// answer is waited for up to the answer timeout, not the grace, so
    /// a slow handler on a loaded machine is never "unanswered" (server-
    /// memory's `resources/read` was failed on one run, passed on the next).
    #[tokio::test]
    async fn a_dispatched_request_answered_after_the_liveness_answer_is_answered() {
        let delay = Duration::from_millis(400);
        let mut driver = concurrent(delay, false);
        let report = driver
            .probe(
                br#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"x"}}"#,
                true,
            )
            .await;
        assert!(report.answered(), "{:?}", report.frames);
        assert!(
            matches!(report.live, Live::Answered(_)),
            "{:?}",
            report.live
        );
        // Done at the answer, not at the answer timeout.
        assert!(
            report.took < Duration::from_millis(1200),
            "{:?}",
            report.took
        );
        // An answer under a wrong id ends the wait as well, whether it comes
        // before the liveness answer or after: it is the probe's, misnamed.
        for delay in [Duration::ZERO, delay] {
            let mut driver = concurrent(delay, false);
            driver.transport.wrong_id = Some(9_007_199_254_740_992);
            let report = driver
                .probe(
                    br#"{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/list"}"#,
                    true,
                )
                .await;
            assert_eq!(report.of(&Class::Stray).count(), 1, "{:?}", report.frames);
            assert!(
                report.took < Duration::from_millis(1200),
                "{:?}",
                report.took
            );
        }
    }

    /// What is never answered still ends: a dispatched request at the
    /// answer timeout; a frame the peer cannot dispatch (refused while it
    /// is read, in order) at the grace, as before, so a peer dropping
    /// malformed frames costs no timeout per frame.
    #[tokio::test]
    async fn unanswered_probes_end_at_the_answer_timeout_or_the_grace() {
        let mut driver = concurrent(Duration::ZERO, true);
        let report = driver
            .probe(br#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#, true)
            .await;
        assert!(!report.answered());
        assert!(
            report.took >= Duration::from_millis(1400),
            "{:?}",
            report.took
        );
        for malformed in [
            &br#"{"jsonrpc":"2.0","id":true,"method":"tools/list"}"#[..],
            br#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#,
            br#"{"jsonrpc":"2.0","id":8,"method":"tools/list","params":[]}"#,
            br#"{"jsonrpc":"2.0","id":9,"method":"tools/list""#,
            br#"[{"jsonrpc":"2.0","id":10,"method":"tools/list"}]"#,
        ] {
            let report = driver.probe(malformed, true).await;
            assert!(!report.answered());
            assert!(
                report.took < Duration::from_millis(500),
                "{}: {:?}",
                String::from_utf8_lossy(malformed),
                report.took
            );
        }
    }

    /// A peer that answers its `hold`th request only once the next one
    /// arrives (a loaded machine: the answer after the wait), then in order.
    struct LateAnswer {
        hold: usize,
        pings: usize,
        held: Option<Vec<u8>>,
        out: std::collections::VecDeque<Vec<u8>>,
    }

    impl Transport for LateAnswer {
        async fn send(&mut self, frame: &[u8]) -> Result<(), SendError> {
            let sent: serde_json::Value = serde_json::from_slice(frame).unwrap();
            if let Some(id) = sent.get("id") {
                self.pings += 1;
                let pong = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}});
                let pong = pong.to_string().into_bytes();
                if self.pings == self.hold {
                    self.held = Some(pong);
                } else {
                    self.out.extend(self.held.take());
                    self.out.push_back(pong);
                }
            }
            Ok(())
        }

        async fn recv(&mut self, deadline: Instant) -> Event {
            next_queued(&mut self.out, deadline).await
        }

        fn dropped(&self) -> u64 {
            0
        }

        fn one_stream_each_way(&self) -> bool {
            true
        }
    }

    /// The driver's own liveness request answered after its probe ended
    /// is no answer to the next probe: it was server-everything's false
    /// "the notification `notifications/cancelled` was answered" under
    /// load (the late answer to the previous probe's second liveness
    /// request, taken for a stray reply to the notification).
    #[tokio::test]
    async fn a_late_answer_to_the_drivers_own_request_is_nobody_elses() {
        let notification = br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#;
        let late = |hold| LateAnswer {
            hold,
            pings: 0,
            held: None,
            out: std::collections::VecDeque::new(),
        };
        // The second liveness request of a probe wanting no reply.
        let mut driver = Driver::new(late(2), DriverConfig::default());
        let first = driver.probe(notification, false).await;
        assert!(matches!(first.live, Live::Answered(_)), "{:?}", first.live);
        assert_theirs(&driver.probe(notification, false).await);
        // A request of the driver's own that timed out (a fixture's).
        let mut driver = Driver::new(late(1), DriverConfig::default());
        let timed_out = driver
            .request("ping", None, Duration::from_millis(100))
            .await;
        assert!(
            matches!(timed_out, Err(RequestError::TimedOut)),
            "{timed_out:?}"
        );
        assert_theirs(&driver.probe(notification, false).await);
    }

    fn assert_theirs(report: &ProbeReport) {
        let classes: Vec<&Class> = report.frames.iter().map(|f| &f.class).collect();
        assert!(
            classes.contains(&&Class::OtherExchange)
                && classes
                    .iter()
                    .all(|c| matches!(c, Class::LivenessAnswer | Class::OtherExchange)),
            "{classes:?}"
        );
        assert!(
            matches!(report.live, Live::Answered(_)),
            "{:?}",
            report.live
        );
    }

    /// False finding 12: a plain JSON-RPC server (or a 2026-07-28 one, which
    /// has no `ping`) that stops answering breaks JSON-RPC 2.0 §5, not MCP's
    /// ping rule, which its revision does not have.
    #[test]
    fn an_unanswered_liveness_request_breaks_the_revisions_own_rule() {
        use harness::rules::RuleId;
        for revision in Revision::ALL {
            let rule = liveness_rule(revision);
            assert!(rule.info().applies_to(revision), "{revision}: {rule}");
            let expected = match revision {
                Revision::JsonRpc2 | Revision::Mcp2026_07_28 => RuleId::JsonrpcResponseRequired,
                _ => RuleId::McpPingRespond,
            };
            assert_eq!(rule, expected, "{revision}");
        }
    }

    #[test]
    fn frames_are_classified_against_the_probe() {
        let probe = vec![Id::int(1), Id::string("a")];
        let live = Id::int(7);
        let c = |b: &[u8]| classify(b, &probe, Some(&live));
        assert_eq!(
            c(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Class::ProbeAnswer
        );
        assert_eq!(
            c(br#"{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"x"}}"#),
            Class::ProbeAnswer
        );
        assert_eq!(
            c(br#"{"jsonrpc":"2.0","id":"1","result":{}}"#),
            Class::Stray
        );
        assert_eq!(
            c(br#"{"jsonrpc":"2.0","id":7,"result":{}}"#),
            Class::LivenessAnswer
        );
        assert_eq!(
            c(br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#),
            Class::NullIdError
        );
        assert_eq!(
            c(br#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"x"}}"#),
            Class::NullIdError
        );
        assert_eq!(
            c(br#"{"jsonrpc":"2.0","method":"notifications/message"}"#),
            Class::Unsolicited
        );
        assert_eq!(
            c(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Class::Unsolicited
        );
        assert_eq!(
            c(br#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#),
            Class::ProbeAnswer
        );
        assert_eq!(c(b"not json"), Class::Unreadable);
        assert_eq!(c(b""), Class::Unreadable);
        assert_eq!(
            classify(
                br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#,
                &[],
                None
            ),
            Class::NullIdError
        );
    }

    #[test]
    fn probe_ids_come_from_requests_only() {
        let ids = request_ids(br#"[{"jsonrpc":"2.0","id":3,"method":"a"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":"x","result":1}]"#);
        assert_eq!(ids, vec![Id::int(3)]);
        assert!(request_ids(b"{oops").is_empty());
    }
}
