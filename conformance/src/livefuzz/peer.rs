//! One live session with the peer under test: spawned over stdio or opened
//! over Streamable HTTP ([`Target`]), with the same handshake `wirecheck run`
//! makes ([`Driver::handshake`]), then fed one frame at a time, each followed
//! by a liveness `ping` ([`Driver::probe`]). Over HTTP the transport and
//! driver are the runner's own (each frame POSTed with the session id and
//! `MCP-Protocol-Version` learnt in the handshake; JSON or SSE answers), and
//! what HTTP itself did wrong is judged beside the frames ([`http_verdict`]).
//!
//! The ping is what makes a fuzz run fast and its verdicts sound together: a
//! peer reads its input in order, so once the ping is answered everything the
//! frame was going to get has been written (MCP 2025-11-25, basic/utilities/ping:
//! the receiver "MUST respond promptly"). A peer that answers out of order can
//! still fool one probe; every finding is therefore reproduced against a fresh
//! peer with a longer grace before it is reported ([`super::minimize`]).

use std::collections::BTreeMap;
use std::time::Duration;

use harness::ir::{Id, Raw};
use harness::Revision;

use tokio::time::Instant;

use super::ids::{OwnIds, FIRST_ID};
use super::invariant::{self, expect, Breach, Expect, Kind};
use super::window::{Bucket, Observed};
use crate::driver::{
    Class, Driver, DriverConfig, Live as Verdict, Liveness, ProbeReport, Received, Wants,
};
use crate::transcript::Entry;
use crate::transport::http::{FindingKind, HttpFact, HttpOptions};
use crate::transport::wire::Wire;
use crate::transport::{Event, Limits, Target, Transport};

/// How a session waits.
#[derive(Debug, Clone)]
pub struct Waits {
    /// The longest wait for any answer (the liveness ping's included).
    pub answer_timeout: Duration,
    /// How long to listen after the ping is answered when the frame's own
    /// answer has not come: zero while fuzzing (speed), longer when a finding
    /// is reproduced (soundness).
    pub grace: Duration,
}

/// A running peer with an open session.
pub struct Live {
    /// The session's driver, over whichever transport the target takes.
    driver: Driver<Wire>,
    /// Every request id this session sent, so no frame and no ping of ours
    /// reuses one ([`OwnIds`]).
    ids: OwnIds,
    /// The requests sent in this session still owed an answer, newest last:
    /// an answer that comes for one later is that request's, never the
    /// answer of whatever frame was sent meanwhile.
    owed: Vec<(Bucket, Id<'static>)>,
    answer_timeout: Duration,
    /// HTTP findings of the transport already turned into breaches.
    http_seen: usize,
    /// HTTP facts already read.
    facts_seen: usize,
    /// The server's side of the handshake: what it declared.
    handshake: crate::driver::Handshake,
}

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Live")
            .field("transport", &self.driver.transport().name())
            .finish_non_exhaustive()
    }
}

impl Live {
    /// Starts `target` (a child, or a new HTTP session) and opens a session
    /// for `revision`.
    ///
    /// # Errors
    /// The peer does not start, or the handshake does not complete.
    pub async fn start(
        target: &Target,
        revision: Revision,
        waits: &Waits,
        limits: Limits,
        reach: &HttpOptions,
    ) -> Result<Live, String> {
        let config = DriverConfig {
            answer_timeout: waits.answer_timeout,
            grace: waits.grace,
            liveness: Liveness::Ping,
            first_id: FIRST_ID,
            // A fuzz run sends millions of frames: the log is per finding,
            // kept by the caller, so the driver's own stays small.
            max_log_frames: 4096,
            ..DriverConfig::default()
        };
        // An exchange outliving the answer timeout is abandoned (and
        // reported as timed out), so a hung POST cannot hold a window.
        let options = HttpOptions {
            request_timeout: waits.answer_timeout + Duration::from_millis(500),
            ..reach.clone()
        };
        let wire = Wire::open(target, limits, options).await?;
        let mut driver = Driver::new(wire, config);
        let handshake = match driver.handshake(revision).await {
            Ok(handshake) => handshake,
            Err(e) => {
                // Over HTTP, what the server said instead (a refused
                // connection, an HTML 501), as `run` says it.
                let said = match driver.transport() {
                    Wire::Stdio(_) => String::new(),
                    http => crate::transport::http::why_unanswered(&http.http_findings()),
                };
                return Err(format!("{revision}: {e}{said}"));
            }
        };
        if !matches!(driver.transport(), Wire::Stdio(_)) {
            // `notifications/initialized` is a POST of its own, and POSTs run
            // at once: the first fuzzed frame could reach the server before
            // it and find the session not yet initialized (2025-11-25
            // basic/lifecycle: the client "SHOULD NOT send requests other
            // than pings" before it). Its exchange ends first; an early
            // `TimedOut` says none is in flight.
            let deadline = Instant::now() + waits.answer_timeout;
            while Instant::now() < deadline {
                if matches!(
                    driver.transport_mut().recv(deadline).await,
                    Event::TimedOut | Event::Closed { .. }
                ) {
                    break;
                }
            }
        }
        let mut live = Live {
            driver,
            ids: OwnIds::default(),
            owed: Vec::new(),
            answer_timeout: waits.answer_timeout,
            http_seen: 0,
            facts_seen: 0,
            handshake,
        };
        // The handshake's own exchanges are nobody's finding.
        live.http_seen = live.http_findings().len();
        live.facts_seen = live.http_facts().len();
        Ok(live)
    }

    /// The server's side of the handshake that opened the session.
    #[must_use]
    pub fn handshake(&self) -> &crate::driver::Handshake {
        &self.handshake
    }

    /// The session's driver, for a caller that sends well-formed requests
    /// of its own (stateful fuzzing) rather than fuzzed frames.
    pub fn driver_mut(&mut self) -> &mut Driver<Wire> {
        &mut self.driver
    }

    /// Whether the session is over HTTP.
    #[must_use]
    pub fn is_http(&self) -> bool {
        !matches!(self.driver.transport(), Wire::Stdio(_))
    }

    /// Sends `frame` and a ping, and returns what came back until the
    /// grace after the ping's answer ([`Wants::ReplyByGrace`]: fuzzing's
    /// throughput; a finding is kept only once it shows again on a fresh
    /// peer).
    pub async fn exchange(&mut self, frame: &[u8], expects_answer: bool) -> ProbeReport {
        let wants = if expects_answer {
            Wants::ReplyByGrace
        } else {
            Wants::NoReply
        };
        let mut report = self.driver.probe_with(frame, wants, true).await;
        // A late answer to an earlier frame's request is that request's: it
        // is no answer of this frame's under a wrong id.
        for received in &mut report.frames {
            if received.class == Class::Stray && self.late_answer(&received.bytes) {
                received.class = Class::OtherExchange;
            }
        }
        self.owe(frame, &report);
        report
    }

    /// `frame` as this session may send it: no request id it carries was
    /// sent in this session before ([`OwnIds::fresh`]); `None` when one
    /// would be and cannot be changed. Every frame the fuzzer sends goes
    /// through here first.
    pub fn own_ids(&mut self, frame: &[u8]) -> Option<Vec<u8>> {
        self.ids.fresh(frame)
    }

    /// Records the requests of `frame` that `report` holds no answer to:
    /// an answer to one that comes later is late, not another frame's.
    fn owe(&mut self, frame: &[u8], report: &ProbeReport) {
        let answered: Vec<Id<'static>> = report
            .frames
            .iter()
            .filter(|r| r.class == Class::ProbeAnswer)
            .flat_map(|r| answer_ids(&r.bytes))
            .collect();
        for id in crate::driver::request_ids(frame) {
            if !matches!(id, Id::Null) && !answered.iter().any(|a| a.matches(&id)) {
                self.owed.push((Bucket::of(&id), id));
            }
        }
        let excess = self.owed.len().saturating_sub(OWED_KEPT);
        self.owed.drain(..excess);
    }

    /// Whether `bytes` is a single response to a request still owed an
    /// answer (then it is owed no more).
    fn late_answer(&mut self, bytes: &[u8]) -> bool {
        let ids = answer_ids(bytes);
        let [id] = ids.as_slice() else {
            return false;
        };
        if matches!(id, Id::Null) {
            return false;
        }
        let bucket = Bucket::of(id);
        let Some(at) = self
            .owed
            .iter()
            .position(|(b, o)| *b == bucket && o.matches(id))
        else {
            return false;
        };
        self.owed.remove(at);
        true
    }

    /// The invariants the exchange `report` of `frame` breaks: the session
    /// judge's ([`invariant::judge`]), and over HTTP what HTTP itself did
    /// wrong since the last call ([`http_verdict`]).
    pub fn judge(
        &mut self,
        frame: &[u8],
        report: &ProbeReport,
        revision: Revision,
        strict: bool,
    ) -> Vec<Breach> {
        let mut breaches = invariant::judge(frame, report, revision, strict);
        if self.is_http() {
            let findings = self.http_findings();
            let facts = self.http_facts();
            let new_findings = &findings[self.http_seen.min(findings.len())..];
            let new_facts = &facts[self.facts_seen.min(facts.len())..];
            let own = report
                .exchange
                .and_then(|x| new_facts.iter().find(|f| f.exchange == Some(x)));
            http_verdict(frame, own, new_facts, new_findings, &mut breaches);
            self.http_seen = findings.len();
            self.facts_seen = facts.len();
        }
        breaches
    }

    fn http_findings(&self) -> Vec<crate::transport::http::HttpFinding> {
        self.driver.transport().http_findings()
    }

    fn http_facts(&self) -> Vec<HttpFact> {
        self.driver.transport().http_facts()
    }

    /// Sends `frames` back to back, then one liveness ping, and returns the
    /// ping's id with everything received until it was answered (or the
    /// peer died, or the answer timeout passed). Bypasses the driver's wire
    /// log: a window's frames are kept by the caller.
    ///
    /// Over HTTP every frame is its own POST and they run at once, so arrival
    /// order is no reading order: the window waits until every exchange has
    /// ended and puts what came back in the order of the frames whose
    /// exchanges carried it. A window with any HTTP-level trouble (a status
    /// that is not 2xx, a finding of the transport) is marked unclear and
    /// probed again frame by frame, where each exchange is judged on its own.
    pub async fn window(&mut self, frames: &[Vec<u8>]) -> (Id<'static>, Observed) {
        for frame in frames {
            for id in crate::driver::request_ids(frame) {
                self.ids.insert(&id);
            }
        }
        let timeout = self.answer_timeout;
        let ids = &self.ids;
        let (id, mut observed) = window_on(&mut self.driver, ids, timeout, frames).await;
        // A late answer to a request of an earlier window is that request's.
        for received in &mut observed.frames {
            if self.late_answer(&received.bytes) {
                received.class = Class::OtherExchange;
            }
        }
        // What the window's requests were not answered with yet, they are
        // owed: an answer that comes later (while the window is sent again
        // frame by frame, say) is theirs.
        let answered: Vec<Id<'static>> = observed
            .frames
            .iter()
            .filter(|r| r.class != Class::OtherExchange)
            .flat_map(|r| answer_ids(&r.bytes))
            .collect();
        for frame in frames {
            for id in crate::driver::request_ids(frame) {
                if !matches!(id, Id::Null) && !answered.iter().any(|a| a.matches(&id)) {
                    self.owed.push((Bucket::of(&id), id));
                }
            }
        }
        let excess = self.owed.len().saturating_sub(OWED_KEPT);
        self.owed.drain(..excess);
        if self.is_http() {
            let findings = self.http_findings().len();
            let facts = self.http_facts();
            let troubled = findings > self.http_seen
                || facts[self.facts_seen.min(facts.len())..]
                    .iter()
                    .any(|f| !(200..300).contains(&f.status));
            if troubled {
                observed.unclear = Some("an HTTP exchange that was not a plain 2xx");
            }
            // What a troubled window saw is judged again frame by frame.
            self.http_seen = findings;
            self.facts_seen = facts.len();
        }
        (id, observed)
    }

    /// Tells the peer to stop working on `id` (MCP basic/utilities/cancellation:
    /// "either side can send a cancellation notification"), so a request that
    /// timed out does not keep running.
    pub async fn cancel(&mut self, id: &Id<'_>) {
        let Ok(null) = Raw::parse("null") else { return };
        let text = String::from_utf8_lossy(&harness::lower_to_vec(&harness::Frame::Single(
            harness::Message::Success(harness::ir::Success::new(
                id.clone().into_owned(),
                null.into_owned(),
            )),
        )))
        .into_owned();
        // The id's exact spelling, cut from a lowered frame rather than
        // re-serialized, so a big integer is sent back as it came.
        let Some(raw_id) = id_text(&text) else { return };
        let params = format!(r#"{{"requestId":{raw_id},"reason":"wirecheck: timed out"}}"#);
        if let Ok(raw) = Raw::parse(&params) {
            let raw = raw.into_owned();
            let _ = self
                .driver
                .notify("notifications/cancelled", Some(raw))
                .await;
        }
    }

    /// The peer's resident memory in KiB, from `/proc/<pid>/status` (`VmRSS`);
    /// `None` over HTTP, where the peer is no child of this run.
    #[must_use]
    pub fn rss_kib(&self) -> Option<u64> {
        let pid = self.pid()?;
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
    }

    /// The child's process id, over stdio while it runs: a new one is a new
    /// process, whose memory is a new series.
    #[must_use]
    pub fn pid(&self) -> Option<u32> {
        match self.driver.transport() {
            Wire::Stdio(peer) => peer.pid(),
            _ => None,
        }
    }

    /// The wire log since the session opened (handshake included).
    #[must_use]
    pub fn log(&self) -> &[Entry] {
        self.driver.log()
    }

    /// Ends the session: a child is stopped (close its input, SIGTERM,
    /// SIGKILL: the transport's way); an HTTP session is ended with DELETE
    /// (2025-11-25 basic/transports §Session Management 5: a client that no
    /// longer needs a session "SHOULD send an HTTP DELETE").
    pub async fn stop(self) -> Vec<Entry> {
        let (wire, log) = self.driver.into_parts();
        // A server may refuse the DELETE (405): the session then ends on its
        // own terms, and that is no finding here.
        wire.close(Duration::from_millis(200)).await;
        log
    }
}

/// How many requests owed an answer a session remembers.
const OWED_KEPT: usize = 256;

/// The ids of the responses in `bytes` (one, or a batch's).
fn answer_ids(bytes: &[u8]) -> Vec<Id<'static>> {
    let Ok(frame) = harness::lift(bytes) else {
        return Vec::new();
    };
    frame
        .messages()
        .iter()
        .filter(|m| matches!(m, harness::Message::Success(_) | harness::Message::Error(_)))
        .filter_map(|m| m.id().cloned().map(Id::into_owned))
        .collect()
}

/// The window of [`Live::window`] on one driver.
async fn window_on<T: Transport>(
    driver: &mut Driver<T>,
    ids: &OwnIds,
    answer_timeout: Duration,
    frames: &[Vec<u8>],
) -> (Id<'static>, Observed) {
    let (liveness_id, ping) = loop {
        let (id, ping) = driver.liveness_request();
        if !ids.contains(&id) {
            break (id, ping);
        }
    };
    let started = Instant::now();
    let dropped_before = driver.transport().dropped();
    let mut observed = Observed::default();
    let transport = driver.transport_mut();
    // Which frame each exchange carries (the ping's is one past the last).
    let mut carried: BTreeMap<u64, usize> = BTreeMap::new();
    for (i, frame) in frames.iter().chain(std::iter::once(&ping)).enumerate() {
        if let Err(e) = transport.send(frame).await {
            observed.live = Some(Verdict::SendFailed(e));
            break;
        }
        if let Some(exchange) = transport.sent_exchange() {
            carried.insert(exchange, i);
        }
    }
    let exchanges = !carried.is_empty();
    let mut origins: Vec<usize> = Vec::new();
    let deadline = Instant::now() + answer_timeout;
    loop {
        let t = started.elapsed();
        match transport.recv(deadline).await {
            Event::Frame(bytes) => {
                let liveness = harness::client::read_reply(&liveness_id, &bytes).is_ok();
                origins.push(
                    transport
                        .received_from()
                        .and_then(|x| carried.get(&x).copied())
                        .unwrap_or(usize::MAX),
                );
                observed.frames.push(Received {
                    t,
                    bytes,
                    class: if liveness {
                        Class::LivenessAnswer
                    } else {
                        Class::Unsolicited
                    },
                });
                if liveness && observed.live.is_none() {
                    observed.live = Some(Verdict::Answered(t));
                    // On a stream the peer read in order: all is in. With
                    // exchanges, the others may still be running.
                    if !exchanges {
                        break;
                    }
                }
            }
            Event::TooLong { bytes_skipped } => {
                origins.push(usize::MAX);
                observed.frames.push(Received {
                    t,
                    bytes: Vec::new(),
                    class: Class::TooLong(bytes_skipped),
                });
            }
            Event::Closed { status, leaky } => {
                if observed.live.is_none() {
                    observed.live = Some(Verdict::Closed {
                        status: status.map(|s| s.to_string()),
                        leaky,
                    });
                }
                break;
            }
            // With exchanges, an early `TimedOut` says none is in flight any
            // more: every answer is in.
            Event::TimedOut if exchanges && Instant::now() < deadline => {
                if observed.live.is_none() {
                    observed.live = Some(Verdict::Unresponsive);
                }
                break;
            }
            Event::TimedOut => {
                if observed.live.is_none() {
                    observed.live = Some(Verdict::Unresponsive);
                } else if exchanges {
                    observed.unclear = Some("an exchange still open at the answer timeout");
                }
                break;
            }
        }
    }
    if exchanges {
        // Reading order, as a stream would have had it: by the frame whose
        // exchange carried each answer (stable: a batch's stay in order).
        let mut paired: Vec<(usize, Received)> = origins.into_iter().zip(observed.frames).collect();
        paired.sort_by_key(|(origin, _)| *origin);
        observed.frames = paired.into_iter().map(|(_, r)| r).collect();
    }
    observed.transport_dropped = transport.dropped() - dropped_before;
    (liveness_id, observed)
}

/// The failures of HTTP itself that are findings of their own kind: no
/// response or a connection reset, a body or stream cut short, SSE the
/// parser refuses, an exchange that outlived the timeout.
fn is_failure(kind: FindingKind) -> bool {
    matches!(
        kind,
        FindingKind::Connect
            | FindingKind::BodyCut
            | FindingKind::MalformedSse
            | FindingKind::TimedOut
            | FindingKind::ErrorStatus
    )
}

/// Over HTTP, what HTTP itself says of one probe of `frame`: `own` is the
/// frame's exchange, `facts` and `findings` everything the transport saw
/// since the previous probe (the ping's exchange included).
///
/// - A 5xx, a reset, a cut body or stream, malformed SSE, an exchange past
///   the timeout: an [`Kind::HttpFailure`]. 2025-11-25 basic/transports
///   §Sending Messages to the Server 4–5 (MUST): input is answered with 202,
///   an HTTP error status when refused, or a JSON or SSE answer for a
///   request. A 4xx without a JSON body is a failure only for a request the
///   codec reads (an invalid frame may be refused with a bare status: §4).
/// - An invalid frame refused with a 4xx is answered, not silently dropped
///   (§4: "it MUST return an HTTP error status code … The HTTP response body
///   MAY comprise a JSON-RPC error response that has no id"): the silent drop
///   is withdrawn, and so is a notification "answered" by that error.
/// - A request answered with 202 and no body stays what the judge made of it:
///   dropped (`unanswered` or `silent-drop`).
pub fn http_verdict(
    frame: &[u8],
    own: Option<&HttpFact>,
    facts: &[HttpFact],
    findings: &[crate::transport::http::HttpFinding],
    breaches: &mut Vec<Breach>,
) {
    let request = expect(frame) == Expect::Answer;
    // A 4xx for a frame that is no request is its refusal, under every
    // revision: something came back, so it is no silent drop (a bare 400 is
    // how the Python SDK's SSE transport refuses what it cannot parse). What
    // its body may carry is `harness::error_ids`' to say; a 5xx is an HTTP
    // failure below all the same.
    let refused = own.is_some_and(|f| (400..500).contains(&f.status));
    if refused && !request {
        // The same sentence lets the refusal carry "a JSON-RPC error response
        // that has no id": for a notification that is its refusal, not an
        // answer to it.
        breaches.retain(|b| !matches!(b.kind, Kind::SilentDrop | Kind::NotificationAnswered));
    }
    let mut failures: Vec<String> = findings
        .iter()
        .filter(|f| is_failure(f.kind))
        .filter(|f| {
            f.kind != FindingKind::ErrorStatus || f.status.is_some_and(|s| s >= 500) || request
        })
        .map(|f| {
            format!(
                "{:?}{}: {}",
                f.kind,
                f.status.map(|s| format!(" ({s})")).unwrap_or_default(),
                f.detail
            )
        })
        .collect();
    for fact in facts.iter().filter(|f| f.status >= 500) {
        let said = format!("{} answered {}", fact.method, fact.status);
        if !failures
            .iter()
            .any(|f| f.contains(&format!("({})", fact.status)))
        {
            failures.push(said);
        }
    }
    if !failures.is_empty() {
        // The frame's own exchange failed (or never got a response): its
        // missing answer is that failure, reported once, as this kind.
        if own.is_none_or(|f| f.status >= 500) {
            breaches.retain(|b| !matches!(b.kind, Kind::Unanswered | Kind::SilentDrop));
        }
        breaches.push(Breach {
            kind: Kind::HttpFailure,
            rule: None,
            level: harness::rules::Level::Must,
            spec: "MCP 2025-11-25 basic/transports §Streamable HTTP › Sending Messages to the \
                   Server 4–5 (MUST: 202, an HTTP error status for refused input, or a JSON \
                   or SSE answer for a request)"
                .into(),
            detail: failures.join("; "),
        });
        breaches.sort_by_key(|b| (b.kind, b.rule));
    }
}

/// The id member's text in a lowered response `{"jsonrpc":"2.0","id":…,"result":null}`.
fn id_text(lowered: &str) -> Option<&str> {
    let start = lowered.find("\"id\":")? + 5;
    let end = lowered.rfind(",\"result\"")?;
    lowered.get(start..end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_is_cut_from_the_lowered_frame_as_spelled() {
        assert_eq!(
            id_text(r#"{"jsonrpc":"2.0","id":9007199254740993,"result":null}"#),
            Some("9007199254740993")
        );
        assert_eq!(
            id_text(r#"{"jsonrpc":"2.0","id":"a,\"result\"","result":null}"#),
            Some(r#""a,\"result\"""#)
        );
    }
}
