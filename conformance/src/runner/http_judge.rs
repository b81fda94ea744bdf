//! The transport judge: what HTTP itself did during a revision's sessions,
//! and a few probes of its own, as records against the `mcp.http.*` and
//! `jsonrpc.http.*` rules of the catalogue.
//!
//! Frames are judged by the codec and the library judge as over stdio; this
//! module reads what no frame carries: each exchange's status, content type
//! and session id ([`HttpFact`]), what HTTP did wrong ([`HttpFinding`]), and
//! the answers to four probes a client can make without calling anything
//! (a foreign `Origin`, no session id, a terminated session id, an
//! unsupported `MCP-Protocol-Version`). Every record is
//! `run/<revision>/http/<rule>` and names its transport.

mod custom_headers;
mod status_codes;
mod streams;
mod validation;

use std::time::Duration;

use harness::rules::RuleId;
use harness::{Outcome, Revision};
use reqwest::header::{HeaderName, HeaderValue};

use super::wire::Wire;
use super::Config;
use crate::driver::{Class, Driver, ProbeReport};
use crate::report::{Check, Place, Record, Subject};
use crate::transport::http::{
    session_id_concerns, FindingKind, GetStream, HttpFact, HttpFinding, StreamableHttpPeer,
    SSE_ENDED_UNANSWERED,
};
use crate::transport::stdio::EndedBy;
use crate::transport::{HttpKind, Kind};

/// What one closed connection showed.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    /// Every HTTP exchange.
    pub facts: Vec<HttpFact>,
    /// Every HTTP-level problem.
    pub findings: Vec<HttpFinding>,
    /// The `Mcp-Session-Id` issued at `initialize`, if any.
    pub session_id: Option<String>,
    /// The status of the DELETE that ended the session, if one was sent.
    pub delete_status: Option<u16>,
    /// What it took to end a stdio process once its input was closed.
    pub stdio_ended_by: Option<EndedBy>,
    /// The stdio process had said nothing when its input was closed: it may
    /// still have been starting, so how long it took to exit is no measure
    /// of how promptly it ends on end-of-file.
    pub stdio_never_heard: bool,
}

impl Trace {
    /// What `wire` saw so far.
    #[must_use]
    pub fn of(wire: &Wire) -> Trace {
        Trace {
            facts: wire.http_facts(),
            findings: wire.http_findings(),
            session_id: match wire {
                Wire::Streamable(p) => p.session_id(),
                _ => None,
            },
            delete_status: None,
            stdio_ended_by: None,
            stdio_never_heard: false,
        }
    }
}

/// A finding as one line of a record's notes.
#[must_use]
pub fn describe(finding: &HttpFinding) -> String {
    match finding.status {
        Some(status) => format!("HTTP {:?} ({status}): {}", finding.kind, finding.detail),
        None => format!("HTTP {:?}: {}", finding.kind, finding.detail),
    }
}

/// When a notification's POST was refused with an HTTP error status whose
/// body is at most an error response without an `id`: the note saying so.
///
/// Streamable HTTP allows exactly that ("If the server cannot accept the
/// input, it MUST return an HTTP error status code […]. The HTTP response body
/// MAY comprise a JSON-RPC error response that has no `id`", 2025-11-25
/// basic/transports §Sending Messages to the Server 4), so the body is not a
/// reply to the notification; over stdio the same bytes answer a
/// notification, which JSON-RPC 2.0 §4.1 forbids, and the judge says so.
#[must_use]
pub fn refused_notification(
    wire: &Wire,
    exchange: Option<u64>,
    new_facts: &[HttpFact],
    frames: &[Vec<u8>],
    expects_answer: bool,
    revision: Revision,
) -> Option<String> {
    if expects_answer || !matches!(wire, Wire::Streamable(_)) {
        return None;
    }
    refusal_note(exchange, new_facts, frames, revision)
}

/// The probe's own POST among the facts of its window, found by the exchange
/// that carried it: another POST may have ended in the same window
/// (`notifications/initialized` is sent concurrently).
fn probe_post(exchange: Option<u64>, new_facts: &[HttpFact]) -> Option<&HttpFact> {
    let exchange = exchange?;
    new_facts
        .iter()
        .find(|f| f.method == "POST" && f.exchange == Some(exchange))
}

/// [`refused_notification`] once the transport is known to be Streamable HTTP
/// and the probe a notification.
fn refusal_note(
    exchange: Option<u64>,
    new_facts: &[HttpFact],
    frames: &[Vec<u8>],
    revision: Revision,
) -> Option<String> {
    let post = probe_post(exchange, new_facts)?;
    if post.expected_answer
        || !harness::error_ids::idless_error_allowed(revision, post.status)
        || post.frames != frames.len()
    {
        return None;
    }
    let idless_errors = frames.iter().all(|bytes| {
        serde_json::from_slice::<serde_json::Value>(bytes).is_ok_and(|v| {
            v.get("error").is_some() && v.get("id").is_none_or(serde_json::Value::is_null)
        })
    });
    idless_errors.then(|| {
        format!(
            "over Streamable HTTP the server refused the notification with HTTP {} and {} id-less error body: allowed (MCP {revision} basic/transports, Sending Messages, MAY); over stdio the same body would answer a notification",
            post.status,
            frames.len()
        )
    })
}

/// A batch probe answered over a Streamable HTTP SSE stream one response per
/// event: the responses gathered into the one array the judge reads, with the
/// note saying so; `None` for anything else.
///
/// MCP 2025-03-26 basic/transports §Sending Messages to the Server 6: "The SSE
/// stream SHOULD eventually include one JSON-RPC _response_ per each JSON-RPC
/// _request_ sent in the POST body. These _responses_ **MAY** be batched." So
/// the stream, not one event of it, answers the batch: the first event alone
/// is not "a batch answered with a single object". Each response keeps its
/// bytes (they are joined with `,` inside `[` `]`, nothing re-encoded), so
/// the codec still judges every member of each; the wire log keeps the
/// events as they came. Only where batches exist (2025-03-26): from
/// 2025-06-18 on the POST body "MUST be a single JSON-RPC request,
/// notification, or response", so a batch there is judged as the fault it
/// is, and answers to its elements are not gathered into a batch answer.
#[must_use]
pub fn gathered_batch(
    wire: &Wire,
    revision: Revision,
    probe: &[u8],
    report: &ProbeReport,
    new_facts: &[HttpFact],
) -> Option<(Vec<Vec<u8>>, String)> {
    let batches = RuleId::McpBatchMustReceive
        .info()
        .revisions
        .contains(revision);
    if !batches
        || !matches!(wire, Wire::Streamable(_))
        || !probe.trim_ascii_start().starts_with(b"[")
    {
        return None;
    }
    let post = probe_post(report.exchange, new_facts)?;
    let streamed = post.content_type.as_deref().is_some_and(|ct| {
        ct.trim_start()
            .to_ascii_lowercase()
            .starts_with("text/event-stream")
    });
    let single = |bytes: &[u8]| bytes.trim_ascii_start().starts_with(b"{");
    let answers: Vec<&[u8]> = report
        .of(&Class::ProbeAnswer)
        .map(|r| r.bytes.as_slice())
        .filter(|b| single(b))
        .collect();
    if !streamed || answers.is_empty() {
        return None;
    }
    let mut batch = b"[".to_vec();
    batch.extend(answers.join(&b","[..]));
    batch.push(b']');
    // The peer's own frames keep their place before the answer, as the judge
    // reads them (a stream's notifications come before its responses).
    let mut frames: Vec<Vec<u8>> = Vec::new();
    let mut placed = false;
    for r in &report.frames {
        match r.class {
            Class::ProbeAnswer if single(&r.bytes) => {
                if !placed {
                    frames.push(std::mem::take(&mut batch));
                    placed = true;
                }
            }
            Class::LivenessAnswer | Class::TooLong(_) | Class::OtherExchange => {}
            _ => frames.push(r.bytes.clone()),
        }
    }
    let note = format!(
        "the batch was answered on an SSE stream, {} response event(s) gathered into one array for the judge (MCP 2025-03-26 basic/transports §Sending Messages to the Server 6: the responses \"MAY be batched\", so one per event is allowed)",
        answers.len()
    );
    Some((frames, note))
}

/// When a 2026-07-28 request whose body lacks the `_meta` protocol version
/// was refused as a header mismatch over Streamable HTTP: the note saying so.
///
/// Over HTTP the client MUST send `MCP-Protocol-Version` on every POST, and
/// "The header value MUST match the `io.modelcontextprotocol/protocolVersion`
/// field carried in the request body's `_meta`. If the values do not match,
/// the server MUST reject the request with `400 Bad Request` and a
/// `HeaderMismatch` JSON-RPC error" (2026-07-28 basic/transports/
/// streamable-http §Protocol Version Header). A body without the field does
/// not match the header, so -32020 is the answer there where stdio's is
/// -32602. Decided before the answer is judged, from what was sent and seen:
/// the body really lacks the field (a body naming its version is sent with
/// that version as the header, so nothing mismatches and -32020 is no
/// answer for it), the POST was answered `400`, and every answer is -32020.
#[must_use]
pub fn header_mismatch_answer(
    wire: &Wire,
    revision: Revision,
    expects_error: bool,
    body: &[u8],
    status: Option<u16>,
    frames: &[Vec<u8>],
) -> Option<String> {
    if revision != Revision::Mcp2026_07_28 || !expects_error || !matches!(wire, Wire::Streamable(_))
    {
        return None;
    }
    let names_version = serde_json::from_slice::<serde_json::Value>(body).is_ok_and(|v| {
        v.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
            .is_some_and(serde_json::Value::is_string)
    });
    if names_version || status != Some(400) {
        return None;
    }
    let all_mismatch = !frames.is_empty()
        && frames.iter().all(|bytes| {
            serde_json::from_slice::<serde_json::Value>(bytes).is_ok_and(|v| {
                v.pointer("/error/code").and_then(serde_json::Value::as_i64) == Some(-32020)
            })
        });
    all_mismatch.then(|| {
        "over Streamable HTTP the MCP-Protocol-Version header does not match a body without `_meta` protocol version: 400 with -32020 HeaderMismatch is the answer the transport requires (MCP 2026-07-28 basic/transports/streamable-http §Protocol Version Header, MUST); over stdio -32602 is".to_owned()
    })
}

/// Why a failed 2026-07-28 handshake over Streamable HTTP is a legacy server
/// declining the revision, not a broken one: its first POST was answered 400
/// (or 404, 405) with a body holding no modern MCP error. "On `400 Bad
/// Request`, the client SHOULD inspect the response body before falling back
/// […] If the body is empty or is not a recognized modern JSON-RPC error, fall
/// back to `initialize`" (2026-07-28 basic/transports/streamable-http
/// §Backward Compatibility): the revision is then not applicable.
#[must_use]
pub fn legacy_refusal(wire: &Wire, revision: Revision, answers: &[Vec<u8>]) -> Option<String> {
    if revision != Revision::Mcp2026_07_28 || !matches!(wire, Wire::Streamable(_)) {
        return None;
    }
    let facts = wire.http_facts();
    let first = facts
        .iter()
        .find(|f| f.method == "POST" && f.expected_answer)?;
    if !matches!(first.status, 400 | 404 | 405) {
        return None;
    }
    // -32020 to -32099: the codes 2026-07-28 reserves for the MCP specification.
    let modern = answers.iter().any(|bytes| {
        serde_json::from_slice::<serde_json::Value>(bytes).is_ok_and(|v| {
            v.pointer("/error/code")
                .and_then(serde_json::Value::as_i64)
                .is_some_and(|c| (-32099..=-32020).contains(&c))
        })
    });
    (!modern).then(|| {
        format!(
            "the server answered server/discover with HTTP {} and no modern MCP error: a legacy server, which a client falls back from (MCP 2026-07-28 basic/transports/streamable-http §Backward Compatibility)",
            first.status
        )
    })
}

/// 2026-07-28 basic/transports/stdio §Shutdown, SHOULD: "Servers SHOULD exit
/// promptly when their standard input is closed or reads return
/// end-of-file." Each session's process has its input closed at the end and
/// is given the runner's exit grace (2 s under this revision) before SIGTERM; one
/// that needed a signal did not exit promptly. `None` for a revision without
/// the rule or when no process was ended.
#[must_use]
pub fn stdio_shutdown(revision: Revision, traces: &[Trace], grace: Duration) -> Option<Record> {
    let rule = RuleId::McpR5StdioExitOnEof;
    if !rule.info().revisions.contains(revision) {
        return None;
    }
    // A process that never said a word may have been starting still: the
    // time it took to exit is start-up, not a slow exit (issue 27).
    let starting = traces
        .iter()
        .filter(|t| t.stdio_ended_by.is_some() && t.stdio_never_heard)
        .count();
    let ended: Vec<EndedBy> = traces
        .iter()
        .filter(|t| !t.stdio_never_heard)
        .filter_map(|t| t.stdio_ended_by)
        .collect();
    if ended.is_empty() {
        return None;
    }
    let mut judge = Judge {
        revision,
        kind: HttpKind::Streamable,
        records: Vec::new(),
    };
    let signalled = ended.iter().filter(|e| **e != EndedBy::Exited).count();
    let broken = if signalled == 0 {
        Vec::new()
    } else {
        vec![format!(
            "{signalled} of {} server processes were still running {:?} after their input was closed, and were signalled",
            ended.len(),
            grace
        )]
    };
    let mut seen = vec![format!(
        "{} server processes had their input closed",
        ended.len()
    )];
    if starting > 0 {
        seen.push(format!(
            "{starting} more had not yet said a word (still starting, perhaps), so how they ended is not judged"
        ));
    }
    judge.verdict(rule, broken, seen);
    let mut record = judge.records.pop()?;
    record.place.vector = Some(format!("run/{revision}/stdio/exit-on-eof"));
    record.place.transport = Some(Kind::Stdio.name().into());
    Some(record)
}

/// A foreign origin: what a DNS-rebinding page would send.
const FOREIGN_ORIGIN: &str = "http://wirecheck-foreign-origin.invalid";
/// A protocol version no server supports.
const BOGUS_VERSION: &str = "1999-01-01";

/// The transport records of one revision, after its sessions closed.
pub async fn judge(
    revision: Revision,
    kind: HttpKind,
    url: &str,
    traces: &[Trace],
    config: &Config,
) -> Vec<Record> {
    let mut judge = Judge {
        revision,
        kind,
        records: Vec::new(),
    };
    let facts: Vec<&HttpFact> = traces.iter().flat_map(|t| &t.facts).collect();
    let findings: Vec<&HttpFinding> = traces.iter().flat_map(|t| &t.findings).collect();
    match kind {
        HttpKind::Streamable => {
            judge.streamable_facts(&facts, &findings, traces);
            judge.sse_answers(&facts, &findings);

            judge.origin(streamable_origin(revision, url, config).await);
            if RuleId::McpHttpSessionRequired400
                .info()
                .revisions
                .contains(revision)
            {
                judge.sessions(revision, url, config).await;
            }
            if RuleId::McpHttpProtocolVersion400
                .info()
                .revisions
                .contains(revision)
            {
                judge.protocol_version(revision, url, config).await;
            }
            judge.get_stream(revision, url, config, traces).await;
            streams::judge(&mut judge, revision, url, config, &facts).await;
            if RuleId::McpHttpHeaderBodyMatch
                .info()
                .revisions
                .contains(revision)
            {
                judge.header_mismatch(revision, url, config).await;
            }
            let mut probed = Vec::new();
            if RuleId::McpHttpMethodNotFound404
                .info()
                .revisions
                .contains(revision)
            {
                probed = judge.validation(revision, url, config).await;
                let all: Vec<&HttpFact> = facts.iter().copied().chain(&probed).collect();
                judge.sse_buffering(&all);
                judge.endpoint_post(&all);
            }
            let all: Vec<&HttpFact> = facts.iter().copied().chain(&probed).collect();
            judge.sse_ends_after_response(&all);
            status_codes::judge(&mut judge, &all);
            judge.custom_headers(revision, url, config).await;
        }
        HttpKind::Sse => {
            judge.sse_message_events(&facts, &findings);
            judge.sse_endpoints(&facts);
            judge.origin(sse_origin(url, config).await);
        }
        HttpKind::JsonRpc => judge.jsonrpc_bodies(&facts, &findings),
    }
    judge.exchanges(&findings);
    judge.records
}

struct Judge {
    revision: Revision,
    kind: HttpKind,
    records: Vec<Record>,
}

/// What a probe saw: the status, or why there was none.
type Probe = Result<u16, String>;

impl Judge {
    fn record(
        &mut self,
        rule: RuleId,
        outcome: Outcome,
        violations: Vec<String>,
        notes: Vec<String>,
    ) {
        let suffix = rule
            .as_str()
            .rsplit_once('.')
            .map_or(rule.as_str(), |(_, s)| s);
        let mut record = Record::of_transport_rule(
            format!("run/{}/http/{suffix}", self.revision),
            self.revision,
            self.kind.name(),
            rule,
            outcome,
            violations,
        );
        record.notes = notes;
        self.records.push(record);
    }

    /// Pass when nothing broke the rule, else a failure at its level (a
    /// SHOULD fails as a warning, as the library judge does).
    fn verdict(&mut self, rule: RuleId, broken: Vec<String>, notes: Vec<String>) {
        if !rule.info().revisions.contains(self.revision) {
            return;
        }
        let outcome = if broken.is_empty() {
            Outcome::Pass
        } else if rule.info().level.is_mandatory() {
            Outcome::Fail
        } else {
            Outcome::Warning
        };
        self.record(rule, outcome, broken, notes);
    }

    fn not_applicable(&mut self, rule: RuleId, why: String) {
        if rule.info().revisions.contains(self.revision) {
            self.record(rule, Outcome::NotApplicable { why }, Vec::new(), Vec::new());
        }
    }

    fn not_observed(&mut self, rule: RuleId, why: String) {
        if rule.info().revisions.contains(self.revision) {
            self.record(rule, Outcome::NotObserved { why }, Vec::new(), Vec::new());
        }
    }

    /// 2024-11-05 basic/transports §HTTP with SSE, MUST: server messages
    /// are SSE `message` events. Evidence is an event past `endpoint`.
    fn sse_message_events(&mut self, facts: &[&HttpFact], findings: &[&HttpFinding]) {
        let broken: Vec<String> = findings
            .iter()
            .filter(|f| f.kind == FindingKind::UnexpectedEventType)
            .map(|f| describe(f))
            .collect();
        // Evidence is an event the stream carried past `endpoint`:
        // a stream that carried none showed nothing (never a pass).
        let events: usize = facts
            .iter()
            .filter(|f| f.method == "GET")
            .map(|f| f.frames)
            .sum::<usize>()
            + broken.len();
        if events == 0 {
            self.not_observed(
                RuleId::McpHttpSseMessageEvent,
                "the SSE stream carried no event after `endpoint`".into(),
            );
        } else {
            let seen = vec![format!("{events} events after `endpoint`")];
            self.verdict(RuleId::McpHttpSseMessageEvent, broken, seen);
        }
    }

    /// JSON-RPC over HTTP: a response body is never `null` (§4.1) nor `[]`
    /// (§6). Evidence is a response body.
    fn jsonrpc_bodies(&mut self, facts: &[&HttpFact], findings: &[&HttpFinding]) {
        // Evidence is a response body: without one, nothing was seen
        // that could have been `null` or `[]` (never a pass).
        let bodies = facts
            .iter()
            .filter(|f| f.method == "POST")
            .map(|f| f.frames)
            .sum::<usize>();
        for (rule, finding) in [
            (RuleId::JsonRpcHttpNullBody, FindingKind::NullBody),
            (
                RuleId::JsonRpcHttpEmptyArrayBody,
                FindingKind::EmptyBatchBody,
            ),
        ] {
            let broken: Vec<String> = findings
                .iter()
                .filter(|f| f.kind == finding)
                .map(|f| describe(f))
                .collect();
            if bodies + broken.len() == 0 {
                self.not_observed(rule, "no POST was answered with a body".into());
            } else {
                let seen = vec![format!("{} response bodies", bodies + broken.len())];
                self.verdict(rule, broken, seen);
            }
        }
    }

    /// The rules every Streamable HTTP exchange of the run is held to.
    fn streamable_facts(
        &mut self,
        facts: &[&HttpFact],
        findings: &[&HttpFinding],
        traces: &[Trace],
    ) {
        let posts = facts.iter().filter(|f| f.method == "POST");
        let (requests, others): (Vec<&&HttpFact>, Vec<&&HttpFact>) =
            posts.partition(|f| f.expected_answer);
        let mut broken: Vec<String> = others
            .iter()
            .filter(|f| (200..300).contains(&f.status) && f.status != 202)
            .map(|f| {
                format!(
                    "a notification or response POSTed to {} was answered {}, not 202 Accepted",
                    f.url, f.status
                )
            })
            .collect();
        broken.extend(
            findings
                .iter()
                .filter(|f| f.kind == FindingKind::UnexpectedBody)
                .map(|f| describe(f)),
        );
        let refused = others.iter().filter(|f| f.status >= 400).count();
        let notes = if refused > 0 {
            vec![format!(
                "{refused} notification POSTs were refused with an HTTP error status (allowed)"
            )]
        } else {
            Vec::new()
        };
        if others.is_empty() {
            self.not_observed(
                RuleId::McpHttpNotification202,
                "no notification was POSTed".into(),
            );
        } else {
            self.verdict(RuleId::McpHttpNotification202, broken, notes);
        }

        // "If the input contains any number of JSON-RPC requests": a POST
        // holding none (`[]`, a frame that is no JSON) is outside the
        // sentence, whatever is owed to it (its silence is the vector's).
        let requests: Vec<_> = requests.into_iter().filter(|f| f.holds_request).collect();
        let mut broken: Vec<String> = requests
            .iter()
            .filter(|f| (200..300).contains(&f.status))
            .filter(|f| {
                !matches!(
                    essence(f.content_type.as_deref()).as_str(),
                    "application/json" | "text/event-stream"
                )
            })
            .map(|f| {
                format!(
                    "a request POSTed to {} was answered {} with Content-Type {}",
                    f.url,
                    f.status,
                    f.content_type.as_deref().unwrap_or("(none)")
                )
            })
            .collect();
        broken.extend(
            findings
                .iter()
                .filter(|f| f.kind == FindingKind::WrongContentType)
                .map(|f| describe(f)),
        );
        broken.dedup();
        // Evidence is a request answered 2xx (whose Content-Type the rule
        // is about): none seen is not observed, never a pass.
        let answered = requests
            .iter()
            .filter(|f| (200..300).contains(&f.status))
            .count();
        if answered == 0 && broken.is_empty() {
            self.not_observed(
                RuleId::McpHttpRequestContentType,
                "no request POST was answered 2xx".into(),
            );
        } else {
            let seen = vec![format!("{answered} request POSTs answered 2xx")];
            self.verdict(RuleId::McpHttpRequestContentType, broken, seen);
        }

        let ids: Vec<String> = traces.iter().filter_map(|t| t.session_id.clone()).collect();
        if ids.is_empty() {
            let why = "the server issued no Mcp-Session-Id (sessions are optional: MAY)";
            self.not_applicable(RuleId::McpHttpSessionIdVisibleAscii, why.into());
            self.not_applicable(RuleId::McpHttpSessionIdSecure, why.into());
        } else {
            let broken = findings
                .iter()
                .filter(|f| f.kind == FindingKind::SessionIdNotVisibleAscii)
                .map(|f| describe(f))
                .collect();
            let seen = vec![format!("{} session ids seen", ids.len())];
            self.verdict(RuleId::McpHttpSessionIdVisibleAscii, broken, seen.clone());
            self.verdict(
                RuleId::McpHttpSessionIdSecure,
                session_id_concerns(&ids),
                seen,
            );
        }
    }

    /// 2024-11-05 basic/transports §HTTP with SSE, MUST: "The server MUST
    /// provide two endpoints: An SSE endpoint […]; A regular HTTP POST
    /// endpoint". The run's own exchanges show both: the stream's GET and
    /// the POSTs to the URI its `endpoint` event named.
    fn sse_endpoints(&mut self, facts: &[&HttpFact]) {
        let rule = RuleId::McpHttpSseTwoEndpoints;
        let gets: Vec<&&HttpFact> = facts.iter().filter(|f| f.method == "GET").collect();
        let posts: Vec<&&HttpFact> = facts.iter().filter(|f| f.method == "POST").collect();
        if gets.is_empty() || posts.is_empty() {
            return self.not_observed(
                rule,
                format!(
                    "the run made {} stream GETs and {} POSTs; both are needed",
                    gets.len(),
                    posts.len()
                ),
            );
        }
        let mut broken: Vec<String> = gets
            .iter()
            .filter(|f| {
                f.status != 200 || essence(f.content_type.as_deref()) != "text/event-stream"
            })
            .map(|f| {
                format!(
                    "the SSE endpoint {} answered a GET {} with Content-Type {}",
                    f.url,
                    f.status,
                    f.content_type.as_deref().unwrap_or("(none)")
                )
            })
            .collect();
        let accepted = posts
            .iter()
            .filter(|f| (200..300).contains(&f.status))
            .count();
        if accepted == 0 {
            broken.push(format!(
                "none of the {} POSTs to the endpoint event's URI was accepted (2xx)",
                posts.len()
            ));
        }
        let seen = vec![format!(
            "{} stream GETs; {accepted} of {} POSTs accepted",
            gets.len(),
            posts.len()
        )];
        self.verdict(rule, broken, seen);
    }

    /// How each request's SSE stream ended: 2025-11-25 §Sending Messages to
    /// the Server 6, SHOULD: "After the JSON-RPC _response_ has been sent,
    /// the server SHOULD terminate the SSE stream"; 2026-07-28 §Receiving
    /// Messages: "The final JSON-RPC _response_ SHOULD terminate the stream".
    fn sse_ends_after_response(&mut self, facts: &[&HttpFact]) {
        let streams: Vec<&&HttpFact> = facts
            .iter()
            .filter(|f| f.method == "POST" && f.expected_answer)
            .filter(|f| essence(f.content_type.as_deref()) == "text/event-stream")
            .collect();
        let rule = RuleId::McpHttpSseEndsAfterResponse;
        let ended = streams
            .iter()
            .filter(|f| f.ended_after_answer == Some(true))
            .count();
        let open: Vec<String> = streams
            .iter()
            .filter(|f| f.ended_after_answer == Some(false))
            .map(|f| {
                format!(
                    "an SSE stream answering a POST to {} was still open at the request timeout, after its response",
                    f.url
                )
            })
            .collect();
        if ended == 0 && open.is_empty() {
            return self.not_observed(
                rule,
                "no request stream that carried a response was seen to end or to outlast the request timeout".into(),
            );
        }
        let seen = vec![format!(
            "{ended} request streams ended after their response, {} stayed open",
            open.len()
        )];
        self.verdict(rule, open, seen);
    }

    /// 2026-07-28 basic/transports/streamable-http, MUST: "The server MUST
    /// provide a single HTTP endpoint path […] that supports POST." Every
    /// POST of the run went to the one URL given; none may be refused as a
    /// method the path does not allow, and some must be taken.
    fn endpoint_post(&mut self, facts: &[&HttpFact]) {
        let rule = RuleId::McpHttpEndpointPost;
        let posts: Vec<&&HttpFact> = facts.iter().filter(|f| f.method == "POST").collect();
        if posts.is_empty() {
            return self.not_observed(rule, "the run POSTed nothing".into());
        }
        let mut broken: Vec<String> = posts
            .iter()
            .filter(|f| f.status == 405)
            .map(|f| format!("a POST to {} was answered 405 Method Not Allowed", f.url))
            .collect();
        broken.dedup();
        let accepted = posts
            .iter()
            .filter(|f| (200..300).contains(&f.status))
            .count();
        if accepted == 0 {
            broken.push(format!(
                "none of the {} POSTs was answered 2xx",
                posts.len()
            ));
        }
        let seen = vec![format!("{accepted} of {} POSTs answered 2xx", posts.len())];
        self.verdict(rule, broken, seen);
    }

    /// 2025-03-26 and 2025-06-18 §Sending Messages to the Server 6: a
    /// request's SSE stream carries its response before it ends.
    fn sse_answers(&mut self, facts: &[&HttpFact], findings: &[&HttpFinding]) {
        let rule = RuleId::McpHttpSseStreamAnswers;
        let streams = facts
            .iter()
            .filter(|f| f.method == "POST" && f.expected_answer)
            .filter(|f| essence(f.content_type.as_deref()) == "text/event-stream")
            .count();
        if streams == 0 {
            return self.not_observed(rule, "no request was answered with an SSE stream".into());
        }
        let broken = findings
            .iter()
            .filter(|f| f.kind == FindingKind::NoAnswer && f.detail == SSE_ENDED_UNANSWERED)
            .map(|f| describe(f))
            .collect();
        let seen = vec![format!("{streams} requests answered with an SSE stream")];
        self.verdict(rule, broken, seen);
    }

    /// The foreign-`Origin` probe: over Streamable HTTP 403 where the revision
    /// names it (2025-11-25 on), any 4xx before (the rule only says
    /// "validate"); over HTTP+SSE the 2024-11-05 page's own sentence, which
    /// names no status, whatever the revision negotiated.
    fn origin(&mut self, probe: Probe) {
        let strict = self.kind == HttpKind::Streamable
            && RuleId::McpHttpOrigin403
                .info()
                .revisions
                .contains(self.revision);
        let rule = if self.kind == HttpKind::Sse {
            RuleId::McpHttpSseOriginValidate
        } else if strict {
            RuleId::McpHttpOrigin403
        } else {
            RuleId::McpHttpOriginValidate
        };
        if !rule.info().revisions.contains(self.revision) {
            return;
        }
        match probe {
            Err(why) => self.not_observed(rule, why),
            Ok(status) => {
                let refused = if strict {
                    status == 403
                } else {
                    (400..500).contains(&status)
                };
                let broken = if refused {
                    Vec::new()
                } else {
                    vec![format!(
                        "a request with `Origin: {FOREIGN_ORIGIN}` was answered {status}{}",
                        if strict {
                            ", not 403 Forbidden"
                        } else {
                            ": it was not refused"
                        }
                    )]
                };
                self.verdict(rule, broken, vec![format!("answered {status}")]);
            }
        }
    }

    /// The GET stream and resumption (2025-03-26 to 2025-11-25 §Listening for
    /// Messages from the Server, §Resumability and Redelivery; 2026-07-28: a
    /// GET is answered 405). A fresh session opens the GET stream and reads
    /// it for a moment, answers any `ping` on it, then resumes it with
    /// `Last-Event-ID` at its first event id.
    async fn get_stream(
        &mut self,
        revision: Revision,
        url: &str,
        config: &Config,
        traces: &[Trace],
    ) {
        let stream_rules = [
            RuleId::McpHttpGetStreamOr405,
            RuleId::McpHttpGetNoResponse,
            RuleId::McpHttpEventIdUnique,
            RuleId::McpHttpReplaySameStream,
        ];
        let listen = config.driver.answer_timeout.min(GET_LISTEN);
        let mut driver = match handshaken(revision, url, config, None).await {
            Ok(d) => d,
            Err(why) => {
                for rule in stream_rules.into_iter().chain([RuleId::McpHttpGet405]) {
                    self.not_observed(rule, why.clone());
                }
                return;
            }
        };
        let first = streamable(&mut driver).get_stream(None, listen).await;
        if revision == Revision::Mcp2026_07_28 {
            let dual = dual_era(url, config).await;
            match (dual, &first) {
                // "A server that supports only this revision and receives
                // such traffic from an older client SHOULD respond […] 405";
                // one that also speaks a legacy revision implements "the
                // behavior described in the corresponding revision", where a
                // GET may open a stream (streamable-http §Backward
                // Compatibility › Earlier Streamable HTTP Revisions).
                (Some(dual), _) => self.not_applicable(
                    RuleId::McpHttpGet405,
                    format!(
                        "{}: the SHOULD is for \"a server that supports only this revision\"; a dual-era server serves legacy traffic as the legacy revision does (MCP 2026-07-28 basic/transports/streamable-http §Backward Compatibility › Earlier Streamable HTTP Revisions)",
                        dual
                    ),
                ),
                (None, Err(why)) => self.not_observed(RuleId::McpHttpGet405, why.clone()),
                (None, Ok(g)) => {
                    let broken = if g.status == 405 {
                        Vec::new()
                    } else {
                        vec![format!(
                            "a GET of the MCP endpoint was answered {}, not 405",
                            g.status
                        )]
                    };
                    let notes = vec![format!(
                        "answered {} (the SHOULD is for a server that supports only 2026-07-28)",
                        g.status
                    )];
                    self.verdict(RuleId::McpHttpGet405, broken, notes);
                }
            }
            let (wire, _) = driver.into_parts();
            wire.close(config.shutdown_grace).await;
            return;
        }
        let first = match first {
            Ok(g) => g,
            Err(why) => {
                for rule in stream_rules {
                    self.not_observed(rule, format!("the GET stream: {why}"));
                }
                return;
            }
        };
        let sse = essence(first.content_type.as_deref()) == "text/event-stream";
        let shown = format!(
            "GET answered {} with {}",
            first.status,
            first.content_type.as_deref().unwrap_or("no Content-Type")
        );
        let broken = if sse || first.status == 405 {
            Vec::new()
        } else {
            vec![format!(
                "{shown}: neither an SSE stream nor 405 Method Not Allowed"
            )]
        };
        self.verdict(RuleId::McpHttpGetStreamOr405, broken, vec![shown.clone()]);
        // The session's own frames so far: what its POST answers delivered.
        let posted: Vec<Vec<u8>> = server_frames(&driver);
        if sse {
            let responses: Vec<String> = first
                .events
                .iter()
                .filter(|e| is_response(&e.data))
                .map(|e| {
                    format!(
                        "a JSON-RPC response on a fresh GET stream: {}",
                        snippet(&e.data)
                    )
                })
                .collect();
            if first.events.is_empty() {
                self.not_observed(
                    RuleId::McpHttpGetNoResponse,
                    "the GET stream carried no message in the time read".into(),
                );
            } else {
                let notes = vec![format!(
                    "{} messages read from the GET stream",
                    first.events.len()
                )];
                self.verdict(RuleId::McpHttpGetNoResponse, responses, notes);
            }
            answer_pings(&mut driver, &first).await;
        } else {
            let why = format!("{shown}: the server offers no GET stream");
            self.not_applicable(RuleId::McpHttpGetNoResponse, why.clone());
            self.not_applicable(RuleId::McpHttpReplaySameStream, why);
        }
        // Event ids over every stream of each session: the suite's sessions
        // and this one (before its resume, whose replay repeats ids).
        let mut sessions: Vec<Vec<String>> = traces
            .iter()
            .map(|t| t.facts.iter().flat_map(|f| f.event_ids.clone()).collect())
            .collect();
        sessions.push(
            driver
                .transport()
                .http_facts()
                .iter()
                .flat_map(|f| f.event_ids.clone())
                .collect(),
        );
        self.event_ids(&sessions);
        if sse {
            self.replay(&mut driver, &first, &posted, listen).await;
        }
        let (wire, _) = driver.into_parts();
        wire.close(config.shutdown_grace).await;
    }

    /// `mcp.http.event-id-unique` over each session's event ids.
    fn event_ids(&mut self, sessions: &[Vec<String>]) {
        let total: usize = sessions.iter().map(Vec::len).sum();
        if total == 0 {
            self.not_observed(
                RuleId::McpHttpEventIdUnique,
                "no SSE event carried an id (event ids are MAY)".into(),
            );
            return;
        }
        let mut broken = Vec::new();
        for ids in sessions {
            let mut seen = std::collections::BTreeSet::new();
            for id in ids {
                if !seen.insert(id) && broken.len() < 8 {
                    broken.push(format!("event id {id:?} was sent twice within one session"));
                }
            }
        }
        let notes = vec![format!(
            "{total} event ids over {} sessions",
            sessions.len()
        )];
        self.verdict(RuleId::McpHttpEventIdUnique, broken, notes);
    }

    /// Resumes the GET stream at its first event id: what is replayed must
    /// be that stream's own (a response, or a message one of the session's
    /// POST answers delivered, is another stream's).
    async fn replay(
        &mut self,
        driver: &mut Driver<Wire>,
        first: &GetStream,
        posted: &[Vec<u8>],
        listen: Duration,
    ) {
        let rule = RuleId::McpHttpReplaySameStream;
        let Some(last) = first.events.iter().find_map(|e| e.id.clone()) else {
            self.not_observed(
                rule,
                "the GET stream offered no event id to resume from (MAY)".into(),
            );
            return;
        };
        let resumed = match streamable(driver).get_stream(Some(&last), listen).await {
            Ok(r) => r,
            Err(why) => return self.not_observed(rule, format!("the resumed GET: {why}")),
        };
        if essence(resumed.content_type.as_deref()) != "text/event-stream" {
            let why = format!(
                "the GET with Last-Event-ID was answered {} with {}: no stream resumed (replay is MAY)",
                resumed.status,
                resumed.content_type.as_deref().unwrap_or("no Content-Type")
            );
            return self.not_observed(rule, why);
        }
        if resumed.events.is_empty() {
            return self.not_observed(rule, format!("nothing was replayed after {last:?}"));
        }
        let broken: Vec<String> = resumed
            .events
            .iter()
            .filter(|e| is_response(&e.data) || posted.contains(&e.data))
            .map(|e| {
                format!(
                    "replayed after {last:?} a message of another stream: {}",
                    snippet(&e.data)
                )
            })
            .collect();
        let notes = vec![format!(
            "resumed after {last:?}: {} messages replayed",
            resumed.events.len()
        )];
        self.verdict(rule, broken, notes);
    }

    /// Without the session id: 400 (SHOULD); after DELETE: 404 (MUST).
    async fn sessions(&mut self, revision: Revision, url: &str, config: &Config) {
        let mut driver = match handshaken(revision, url, config, None).await {
            Ok(d) => d,
            Err(why) => {
                self.not_observed(RuleId::McpHttpSessionRequired400, why.clone());
                self.not_observed(RuleId::McpHttpSessionTerminated404, why);
                return;
            }
        };
        let Some(id) = streamable(&mut driver).session_id() else {
            let why = "the server issued no Mcp-Session-Id (sessions are optional: MAY)".to_owned();
            self.not_applicable(RuleId::McpHttpSessionRequired400, why.clone());
            self.not_applicable(RuleId::McpHttpSessionTerminated404, why);
            return;
        };
        streamable(&mut driver).set_session_id(None);
        match ping_status(&mut driver, revision, config).await {
            Ok(400) => self.verdict(RuleId::McpHttpSessionRequired400, Vec::new(), Vec::new()),
            Ok(status) => self.verdict(
                RuleId::McpHttpSessionRequired400,
                vec![format!(
                    "a ping without Mcp-Session-Id was answered {status}, not 400"
                )],
                Vec::new(),
            ),
            Err(why) => self.not_observed(RuleId::McpHttpSessionRequired400, why),
        }
        streamable(&mut driver).set_session_id(Some(id.clone()));
        match streamable(&mut driver).delete_session().await {
            Ok(405) => self.not_applicable(
                RuleId::McpHttpSessionTerminated404,
                "the server answered DELETE with 405: it does not let clients end sessions (MAY)"
                    .into(),
            ),
            Ok(status) if (200..300).contains(&status) => {
                streamable(&mut driver).set_session_id(Some(id));
                match ping_status(&mut driver, revision, config).await {
                    Ok(404) => self.verdict(RuleId::McpHttpSessionTerminated404, Vec::new(), Vec::new()),
                    Ok(status) => self.verdict(
                        RuleId::McpHttpSessionTerminated404,
                        vec![format!("a ping with the id of a session ended by DELETE was answered {status}, not 404")],
                        Vec::new(),
                    ),
                    Err(why) => self.not_observed(RuleId::McpHttpSessionTerminated404, why),
                }
            }
            Ok(status) => self.not_observed(
                RuleId::McpHttpSessionTerminated404,
                format!("DELETE of the session was answered {status}; the session may still live"),
            ),
            Err(why) => self.not_observed(RuleId::McpHttpSessionTerminated404, why),
        }
    }

    /// An unsupported `MCP-Protocol-Version` on a request of a live session.
    async fn protocol_version(&mut self, revision: Revision, url: &str, config: &Config) {
        let rule = RuleId::McpHttpProtocolVersion400;
        let mut driver = match handshaken(revision, url, config, None).await {
            Ok(d) => d,
            Err(why) => return self.not_observed(rule, why),
        };
        streamable(&mut driver).set_protocol_version(Some(BOGUS_VERSION.into()));
        // 2026-07-28 requests carry their version in `_meta`, and the
        // transport derives the header from it: set it over that too.
        streamable(&mut driver).set_header(
            HeaderName::from_static("mcp-protocol-version"),
            HeaderValue::from_static(BOGUS_VERSION),
        );
        match ping_status(&mut driver, revision, config).await {
            Ok(400) => self.verdict(rule, Vec::new(), Vec::new()),
            Ok(status) => self.verdict(
                rule,
                vec![format!("a request with `MCP-Protocol-Version: {BOGUS_VERSION}` was answered {status}, not 400")],
                Vec::new(),
            ),
            Err(why) => self.not_observed(rule, why),
        }
        let (wire, _) = driver.into_parts();
        wire.close(config.shutdown_grace).await;
    }

    /// 2026-07-28 §Server Validation: a `server/discover` whose `Mcp-Method`
    /// header names another method must be refused with 400 and -32020.
    async fn header_mismatch(&mut self, revision: Revision, url: &str, config: &Config) {
        let (matching, refusal) = (
            RuleId::McpHttpHeaderBodyMatch,
            RuleId::McpHttpHeaderMismatch400,
        );
        let mut driver = match handshaken(revision, url, config, None).await {
            Ok(d) => d,
            Err(why) => {
                self.not_observed(matching, why.clone());
                return self.not_observed(refusal, why);
            }
        };
        // Set over the header the transport derives from the body.
        streamable(&mut driver).set_header(
            HeaderName::from_static("mcp-method"),
            HeaderValue::from_static("tools/list"),
        );
        let before = driver.transport().http_facts().len();
        let answered = driver
            .request(
                "server/discover",
                None,
                config.driver.answer_timeout.min(Duration::from_secs(5)),
            )
            .await;
        let status = probe_status(&driver.transport().http_facts(), before);
        let (wire, _) = driver.into_parts();
        wire.close(config.shutdown_grace).await;
        let Some(status) = status else {
            let why = "the mismatched request got no HTTP response".to_owned();
            self.not_observed(matching, why.clone());
            return self.not_observed(refusal, why);
        };
        let shown = format!("`Mcp-Method: tools/list` on a server/discover was answered {status}");
        if (200..300).contains(&status) {
            self.verdict(
                matching,
                vec![format!("{shown}: the mismatch was accepted")],
                Vec::new(),
            );
            return self.not_applicable(refusal, format!("{shown}: not refused"));
        }
        self.verdict(matching, Vec::new(), vec![shown.clone()]);
        let code = answered.ok().and_then(|a| {
            serde_json::from_slice::<serde_json::Value>(&a.bytes)
                .ok()?
                .pointer("/error/code")?
                .as_i64()
        });
        let mut broken = Vec::new();
        if status != 400 {
            broken.push(format!("{shown}, not 400 Bad Request"));
        }
        if code != Some(HEADER_MISMATCH) {
            broken.push(match code {
                Some(code) => format!(
                    "the refusal's JSON-RPC error code is {code}, not -32020 HeaderMismatch"
                ),
                None => "the refusal carries no JSON-RPC error response for the request".to_owned(),
            });
        }
        self.verdict(refusal, broken, vec![shown]);
    }

    /// What HTTP did wrong that no rule above covers (a redirect, an HTML
    /// error page, a cut body): notes for a person to read beside a pass,
    /// never a warning, since no sentence binds it (the zoo's hand-check
    /// found it warned under a MUST label) and the vectors it cost an answer
    /// are judged in their own records.
    fn exchanges(&mut self, findings: &[&HttpFinding]) {
        let named = [
            FindingKind::UnexpectedBody,
            FindingKind::WrongContentType,
            FindingKind::SessionIdNotVisibleAscii,
            FindingKind::UnexpectedEventType,
            FindingKind::NullBody,
            FindingKind::EmptyBatchBody,
            // A request without an answer fails its vector's record.
            FindingKind::NoAnswer,
        ];
        let rest: Vec<String> = findings
            .iter()
            .filter(|f| !named.contains(&f.kind))
            .map(|f| describe(f))
            .collect();
        if rest.is_empty() {
            return;
        }
        let mut record = Record::new(
            Place {
                vector: Some(format!("run/{}/http/exchanges", self.revision)),
                revision: Some(self.revision),
                transport: Some(self.kind.name().into()),
                ..Place::default()
            },
            Subject::Frame(Vec::new()),
            Outcome::Pass,
        );
        record.check = Some(Check {
            rule: CHECK_EXCHANGES.into(),
            level: harness::rules::Level::May,
            spec: "not a rule: HTTP trouble no transport sentence names, for a person to read"
                .into(),
        });
        record.violations = Some(Vec::new());
        let total = rest.len();
        record.notes = rest.into_iter().take(40).collect();
        if total > 40 {
            record.notes.push(format!("… {} more", total - 40));
        }
        self.records.push(record);
    }
}

/// Not a rule: HTTP trouble the transport rules do not name.
const CHECK_EXCHANGES: &str = "http.exchanges";

fn essence(content_type: Option<&str>) -> String {
    content_type
        .and_then(|ct| ct.split(';').next())
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// 2026-07-28 schema `HeaderMismatchError`.
const HEADER_MISMATCH: i64 = -32020;

/// How long a GET stream is read before the probe moves on.
const GET_LISTEN: Duration = Duration::from_secs(1);

/// Whether `data` holds a JSON-RPC response (or a batch with one). A routing
/// guess; the codec judges the bytes.
fn is_response(data: &[u8]) -> bool {
    let one = |v: &serde_json::Value| {
        v.get("method").is_none() && (v.get("result").is_some() || v.get("error").is_some())
    };
    match serde_json::from_slice::<serde_json::Value>(data) {
        Ok(serde_json::Value::Array(items)) => items.iter().any(one),
        Ok(value) => one(&value),
        Err(_) => false,
    }
}

/// The first bytes of a message, for a report.
fn snippet(data: &[u8]) -> String {
    let text = String::from_utf8_lossy(&data[..data.len().min(160)]).into_owned();
    if data.len() > 160 {
        format!("{text}…")
    } else {
        text
    }
}

/// Every frame the server sent on `driver`'s session so far.
fn server_frames(driver: &Driver<Wire>) -> Vec<Vec<u8>> {
    driver
        .log()
        .iter()
        .filter(|e| e.from == crate::driver::Side::Server)
        .filter_map(|e| match &e.kind {
            crate::driver::WireKind::Frame(bytes) => Some(bytes.clone()),
            _ => None,
        })
        .collect()
}

/// Answers each `ping` the GET stream carried: the receiver "MUST respond
/// promptly" (basic/utilities/ping), whichever side asked.
async fn answer_pings(driver: &mut Driver<Wire>, stream: &GetStream) {
    use crate::transport::Transport as _;
    for event in &stream.events {
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(&event.data) else {
            continue;
        };
        if value.get("method").and_then(serde_json::Value::as_str) != Some("ping") {
            continue;
        }
        let Some(id) = value.get("id") else { continue };
        let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}});
        let _ = streamable(driver).send(answer.to_string().as_bytes()).await;
    }
}

/// The Streamable HTTP peer inside a driver this module built.
fn streamable(driver: &mut Driver<Wire>) -> &mut StreamableHttpPeer {
    match driver.transport_mut() {
        Wire::Streamable(p) => p,
        // Only `handshaken` builds these drivers, always over Streamable HTTP.
        _ => unreachable!("the transport judge's own drivers are Streamable HTTP"),
    }
}

/// Whether the server at `url` also speaks a legacy revision: it answers a
/// legacy client's `initialize` (2025-11-25, no modern version header) with a
/// result ("Legacy | Dual-era | Works. The server answers `initialize`",
/// 2026-07-28 basic/versioning §Compatibility Matrix). What it answered, or
/// `None` for a server that refused (a modern-only one).
async fn dual_era(url: &str, config: &Config) -> Option<String> {
    let driver = handshaken(Revision::Mcp2025_11_25, url, config, None)
        .await
        .ok()?;
    let (wire, _) = driver.into_parts();
    wire.close(config.shutdown_grace).await;
    Some("the server answered a legacy `initialize` with a result: it is dual-era".into())
}

/// A fresh Streamable HTTP session with its handshake done, the `Origin`
/// header set when given.
async fn handshaken(
    revision: Revision,
    url: &str,
    config: &Config,
    origin: Option<&str>,
) -> Result<Driver<Wire>, String> {
    let mut peer = StreamableHttpPeer::connect(url, config.limits).map_err(|e| e.to_string())?;
    if let Some(origin) = origin.and_then(|o| HeaderValue::from_str(o).ok()) {
        peer.set_header(HeaderName::from_static("origin"), origin);
    }
    let mut driver = Driver::new(Wire::Streamable(peer), config.driver.clone());
    match driver.handshake(revision).await {
        Ok(_) => Ok(driver),
        Err(e) if origin.is_some() => {
            // The refusal is the point; the status is in the facts.
            let _ = e;
            Ok(driver)
        }
        Err(e) => Err(format!("the probe's handshake failed: {e}")),
    }
}

/// The status of a `ping` sent on `driver`'s session as it stands.
async fn ping_status(driver: &mut Driver<Wire>, revision: Revision, config: &Config) -> Probe {
    let before = driver.transport().http_facts().len();
    // A 2026-07-28 server may route by method before it checks the version,
    // and `ping` is not among its methods (a 404 -32601 would hide the
    // check); `server/discover` is.
    let method = if revision == Revision::Mcp2026_07_28 {
        "server/discover"
    } else {
        "ping"
    };
    // Whether it is answered does not matter here: the status does.
    let _ = driver
        .request(
            method,
            None,
            config.driver.answer_timeout.min(Duration::from_secs(5)),
        )
        .await;
    driver
        .transport()
        .http_facts()
        .get(before..)
        .unwrap_or_default()
        .iter()
        // The handshake's notification may finish later than it started.
        .find(|f| f.method == "POST" && f.expected_answer)
        .map(|f| f.status)
        .ok_or_else(|| "the ping got no HTTP response".to_owned())
}

/// The status of the first POST of a handshake with a foreign `Origin`.
async fn streamable_origin(revision: Revision, url: &str, config: &Config) -> Probe {
    let driver = handshaken(revision, url, config, Some(FOREIGN_ORIGIN)).await?;
    let status = driver
        .transport()
        .http_facts()
        .iter()
        .find(|f| f.method == "POST")
        .map(|f| f.status)
        .ok_or_else(|| "the handshake with a foreign Origin got no HTTP response".to_owned());
    let (wire, _) = driver.into_parts();
    wire.close(config.shutdown_grace).await;
    status
}

/// The status of the HTTP+SSE stream's GET with a foreign `Origin` (an SSE
/// connection refused at the GET never reaches the `endpoint` event).
async fn sse_origin(url: &str, config: &Config) -> Probe {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(config.limits.write_timeout)
        .build()
        .map_err(|e| e.to_string())?;
    let response = client
        .get(url)
        .header("accept", "text/event-stream")
        .header("origin", FOREIGN_ORIGIN)
        .send()
        .await
        .map_err(|e| format!("the GET with a foreign Origin failed: {e}"))?;
    // Only the status is read: an accepted stream is dropped unread.
    Ok(response.status().as_u16())
}

/// The HTTP status of the probe among `facts`: the first POST after index
/// `before` that expected an answer.
fn probe_status(facts: &[HttpFact], before: usize) -> Option<u16> {
    facts
        .get(before..)
        .unwrap_or_default()
        .iter()
        .find(|f| f.method == "POST" && f.expected_answer)
        .map(|f| f.status)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream(ended_after_answer: Option<bool>) -> HttpFact {
        HttpFact {
            ended_after_answer,
            ..HttpFact::sse_answer()
        }
    }

    /// The outcome of `rule`'s record among `judge`'s.
    fn outcome_of(judge: &Judge, rule: RuleId) -> Outcome {
        let records: Vec<&Record> = judge
            .records
            .iter()
            .filter(|r| r.check.as_ref().is_some_and(|c| c.rule == rule.as_str()))
            .collect();
        assert_eq!(records.len(), 1, "{rule:?}");
        records[0].outcome.clone()
    }

    fn judge_of(revision: Revision, kind: HttpKind) -> Judge {
        Judge {
            revision,
            kind,
            records: Vec::new(),
        }
    }

    /// Issue 27, false finding 11: a transport check that saw nothing of
    /// what its rule is about is not observed, never a pass.
    #[test]
    fn transport_checks_without_evidence_are_not_observed() {
        let unseen = |o: &Outcome| matches!(o, Outcome::NotObserved { .. });
        let mut j = judge_of(Revision::JsonRpc2, HttpKind::JsonRpc);
        j.jsonrpc_bodies(&[], &[]);
        assert!(unseen(&outcome_of(&j, RuleId::JsonRpcHttpNullBody)));
        assert!(unseen(&outcome_of(&j, RuleId::JsonRpcHttpEmptyArrayBody)));
        let body = HttpFact {
            content_type: Some("application/json".into()),
            ..HttpFact::sse_answer()
        };
        let mut j = judge_of(Revision::JsonRpc2, HttpKind::JsonRpc);
        j.jsonrpc_bodies(&[&body], &[]);
        assert_eq!(outcome_of(&j, RuleId::JsonRpcHttpNullBody), Outcome::Pass);

        let mut j = judge_of(Revision::Mcp2024_11_05, HttpKind::Sse);
        let endpoint_only = HttpFact {
            method: "GET".into(),
            frames: 0,
            ..HttpFact::sse_answer()
        };
        j.sse_message_events(&[&endpoint_only], &[]);
        assert!(unseen(&outcome_of(&j, RuleId::McpHttpSseMessageEvent)));
        let mut j = judge_of(Revision::Mcp2024_11_05, HttpKind::Sse);
        let carried = HttpFact {
            frames: 3,
            ..endpoint_only
        };
        j.sse_message_events(&[&carried], &[]);
        assert_eq!(
            outcome_of(&j, RuleId::McpHttpSseMessageEvent),
            Outcome::Pass
        );

        let mut j = judge_of(Revision::Mcp2025_11_25, HttpKind::Streamable);
        let refused = HttpFact {
            status: 400,
            content_type: Some("text/html".into()),
            ..HttpFact::sse_answer()
        };
        j.streamable_facts(&[&refused], &[], &[]);
        assert!(unseen(&outcome_of(&j, RuleId::McpHttpRequestContentType)));
        let mut j = judge_of(Revision::Mcp2025_11_25, HttpKind::Streamable);
        j.streamable_facts(&[&body], &[], &[]);
        assert_eq!(
            outcome_of(&j, RuleId::McpHttpRequestContentType),
            Outcome::Pass
        );
    }

    /// `[]` answered 202 with no body holds no request: MCP
    /// basic/transports' Content-Type sentence ("If the input contains any
    /// number of JSON-RPC requests") does not reach it (the silence is the
    /// empty-batch vector's to judge); a request answered so breaks it.
    #[test]
    fn a_post_holding_no_request_is_outside_the_content_type_rule() {
        let accepted_empty = HttpFact {
            status: 202,
            content_type: None,
            frames: 0,
            holds_request: false,
            ..HttpFact::sse_answer()
        };
        let mut j = judge_of(Revision::Mcp2025_06_18, HttpKind::Streamable);
        j.streamable_facts(&[&accepted_empty], &[], &[]);
        assert!(matches!(
            outcome_of(&j, RuleId::McpHttpRequestContentType),
            Outcome::NotObserved { .. }
        ));
        let accepted_request = HttpFact {
            holds_request: true,
            ..accepted_empty
        };
        let mut j = judge_of(Revision::Mcp2025_06_18, HttpKind::Streamable);
        j.streamable_facts(&[&accepted_request], &[], &[]);
        assert_eq!(
            outcome_of(&j, RuleId::McpHttpRequestContentType),
            Outcome::Fail
        );
    }

    /// Issue 27, false finding 11: -32020 stands in for the expected error
    /// only where the body truly mismatched its header (no `_meta` version)
    /// and the POST was answered 400, decided before judging.
    #[test]
    fn a_header_mismatch_answer_needs_a_mismatching_body_and_a_400() {
        let wire = Wire::Streamable(
            crate::transport::http::StreamableHttpPeer::connect(
                "http://127.0.0.1:9/mcp",
                crate::transport::Limits::default(),
            )
            .unwrap(),
        );
        let r5 = Revision::Mcp2026_07_28;
        let answer =
            vec![br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"m"}}"#.to_vec()];
        let bare = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        let named = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        assert!(header_mismatch_answer(&wire, r5, true, bare, Some(400), &answer).is_some());
        // The body names its version, sent as the header too: nothing mismatched.
        assert!(header_mismatch_answer(&wire, r5, true, named, Some(400), &answer).is_none());
        // "reject the request with `400 Bad Request`": another status is no such refusal.
        assert!(header_mismatch_answer(&wire, r5, true, bare, Some(200), &answer).is_none());
        assert!(header_mismatch_answer(
            &wire,
            Revision::Mcp2025_11_25,
            true,
            bare,
            Some(400),
            &answer
        )
        .is_none());
    }

    fn ends_verdict(facts: &[HttpFact]) -> Outcome {
        let mut judge = Judge {
            revision: Revision::Mcp2025_11_25,
            kind: HttpKind::Streamable,
            records: Vec::new(),
        };
        let facts: Vec<&HttpFact> = facts.iter().collect();
        judge.sse_ends_after_response(&facts);
        assert_eq!(judge.records.len(), 1);
        judge.records.remove(0).outcome
    }

    fn ended(by: &[EndedBy]) -> Vec<Trace> {
        by.iter()
            .map(|e| Trace {
                stdio_ended_by: Some(*e),
                ..Trace::default()
            })
            .collect()
    }

    #[test]
    fn a_stdio_server_that_needs_a_signal_to_end_warns() {
        let grace = Duration::from_millis(500);
        let r5 = Revision::Mcp2026_07_28;
        let record = stdio_shutdown(r5, &ended(&[EndedBy::Exited]), grace).unwrap();
        assert_eq!(record.outcome, Outcome::Pass);
        assert_eq!(
            record.place.vector.as_deref(),
            Some("run/2026-07-28/stdio/exit-on-eof")
        );
        let slow = ended(&[EndedBy::Exited, EndedBy::Sigterm]);
        assert_eq!(
            stdio_shutdown(r5, &slow, grace).unwrap().outcome,
            Outcome::Warning
        );
        // Earlier revisions have no such sentence; no process, no record.
        assert!(stdio_shutdown(Revision::Mcp2025_11_25, &slow, grace).is_none());
        assert!(stdio_shutdown(r5, &[], grace).is_none());
        // A process closed before it said a word may still have been
        // starting: the signal it needed is not held against it.
        let mut starting = ended(&[EndedBy::Exited, EndedBy::Sigterm]);
        starting[1].stdio_never_heard = true;
        let record = stdio_shutdown(r5, &starting, grace).unwrap();
        assert_eq!(record.outcome, Outcome::Pass);
        starting[0].stdio_never_heard = true;
        assert!(stdio_shutdown(r5, &starting, grace).is_none());
    }

    /// A notification's POST refused with 400 and an id-less error body.
    fn refused(exchange: u64) -> HttpFact {
        HttpFact {
            status: 400,
            content_type: Some("application/json".into()),
            expected_answer: false,
            exchange: Some(exchange),
            ended_after_answer: None,
            ..HttpFact::sse_answer()
        }
    }

    /// The 202 another notification's POST got (`notifications/initialized`,
    /// sent concurrently).
    fn accepted(exchange: u64) -> HttpFact {
        HttpFact {
            status: 202,
            content_type: None,
            frames: 0,
            ..refused(exchange)
        }
    }

    #[test]
    fn a_refused_notification_is_read_from_the_probes_own_post() {
        let body = vec![br#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"no"}}"#.to_vec()];
        let r = Revision::Mcp2025_11_25;
        // Another POST ended first in the window: the probe's is still found.
        let note = refusal_note(Some(2), &[accepted(1), refused(2)], &body, r).unwrap();
        assert!(note.contains("HTTP 400"), "{note}");
        // Another exchange's refusal is not the probe's.
        assert!(refusal_note(Some(3), &[accepted(1), refused(2)], &body, r).is_none());
        assert!(refusal_note(None, &[refused(2)], &body, r).is_none());
        // A body with an id answers something: not this allowance.
        let with_id =
            vec![br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"no"}}"#.to_vec()];
        assert!(refusal_note(Some(2), &[refused(2)], &with_id, r).is_none());
    }

    #[test]
    fn a_stream_open_after_its_response_warns_and_a_cut_one_shows_nothing() {
        assert_eq!(ends_verdict(&[stream(Some(true))]), Outcome::Pass);
        assert_eq!(
            ends_verdict(&[stream(Some(true)), stream(Some(false))]),
            Outcome::Warning
        );
        assert!(matches!(
            ends_verdict(&[stream(None)]),
            Outcome::NotObserved { .. }
        ));
    }
}
