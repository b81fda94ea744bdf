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

mod answers;
mod ids;
mod probe;
#[cfg(test)]
mod tests;

use std::time::Duration;

use harness::client::{notification_document, read_reply, request_document, Reply};
use harness::{Direction, Id, Raw, Revision};
use tokio::time::Instant;

pub use answers::{Answered, Handshake, HandshakeError, RequestError};
pub use ids::{Bucket, IdHistory};
pub use probe::classify;
use probe::{dispatched, opens_stream};
pub use probe::{
    liveness_rule, request_ids, Class, Live, Liveness, ProbeReport, Received, Wants, STREAM_OPENING,
};

use crate::transport::pacer::Pacer;
use crate::transport::{Event, SendError, Transport};
use ground::transcript::{self, Entry};

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

/// How a driver waits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverConfig {
    /// The longest wait for any one answer.
    pub answer_timeout: Duration,
    /// The longest wait for a fresh process's first answer (`--startup-timeout`):
    /// a server that imports its SDK on a loaded machine may take seconds
    /// before it reads its first line, and that time is start-up, not silence. Used instead of `answer_timeout` while
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

/// One conversation with a peer.
#[derive(Debug)]
pub struct Driver<T> {
    transport: T,
    config: DriverConfig,
    started: Instant,
    /// Every id sent this session, allocated or inside a probe: none is reused.
    used: IdHistory,
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
    /// The run's pace, asked before each frame goes out.
    pacer: Option<Pacer>,
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
            used: IdHistory::default(),
            next: config.first_id,
            log: Vec::new(),
            log_frames: 0,
            log_omitted: 0,
            request_meta: None,
            first_heard: None,
            slow_start_told: false,
            owed_to_us: Vec::new(),
            pacer: None,
            config,
        }
    }

    /// This driver, asking `pacer` before each frame it sends (and its
    /// transport telling it of busy answers): every connection of a run
    /// handed the same pacer shares one rate and one budget.
    #[must_use]
    pub fn paced(mut self, pacer: &Pacer) -> Driver<T> {
        self.transport.pace(pacer);
        self.pacer = Some(pacer.clone());
        self
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
            if !self.used.insert(&id) {
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
        // Asked first: a frame the pacer holds back was never sent, so the
        // wire log (and a transcript) does not show it.
        if let Some(pacer) = &self.pacer {
            pacer.admit().await.map_err(SendError::Held)?;
        }
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
                self.request_meta = Some(ground::opening::discover_meta(revision));
                ("server/discover", None)
            }
            _ => (
                "initialize",
                Some(Raw::from_value(&ground::opening::initialize_params(
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
            .filter(|id| self.used.contains(id))
            .cloned()
            .collect();
        for id in &probe_ids {
            self.used.insert(id);
        }
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
        // Whether the probe's own exchange has carried a stream's opening
        // notification: then a probe whose answer is a stream held open
        // ([`Wants::Stream`]) has seen that stream, and the exchange staying
        // open is the stream, not an answer to come.
        let mut stream_spoke = false;
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
                            stream_spoke |= opens_stream(&bytes);
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
                // no other probe's), so wait on, up to the answer timeout;
                // unless the answer is a stream held open and it has spoken.
                Event::TimedOut
                    if answered_at.is_some()
                        && probe_exchange.is_some_and(|p| self.transport.exchange_open(p))
                        && !(wants == Wants::Stream && stream_spoke)
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
            let late_answer = may_come_late && answered_at.is_some() && class.may_answer();
            if liveness {
                answered_at = Some(Instant::now());
                report.live = Live::Answered(ping_sent.elapsed());
                // A stray response before it is the probe's answer under a
                // wrong id (see `late_answer` below).
                let replied = report.answers().next().is_some();
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
