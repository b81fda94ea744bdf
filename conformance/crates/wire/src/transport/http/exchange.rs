//! What the three HTTP client transports share: the bounded event queue, the
//! side channels (facts and findings), and reading one response — a JSON body
//! or an SSE stream — within [`Limits::max_frame`] and a deadline.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use reqwest::header::HeaderMap;
use reqwest::Response;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::{timeout_at, Instant};

use super::events::{Events, SseEvent, StreamError};
use crate::transport::error::error_chain;
use crate::transport::headers::UserHeaders;
use crate::transport::tls::Trust;
use crate::transport::{Event, Limits};
use ground::sync::lock;

/// Bounds the HTTP transports add to [`Limits`], and how every client here
/// reaches the server: whom it trusts over TLS and the user's own headers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// How long one HTTP exchange may take, from sending the request to the
    /// end of its body or SSE stream; past it the exchange is abandoned and
    /// reported as [`FindingKind::TimedOut`].
    pub request_timeout: Duration,
    /// How long opening a TCP connection may take.
    pub connect_timeout: Duration,
    /// Whom `https://` trusts (`--cacert`, `--insecure`).
    pub trust: Trust,
    /// The user's headers (`--header`, `--header-env`), sent on every
    /// request unless the request sets the header itself (the
    /// authorization probes set their own `Authorization`).
    pub headers: UserHeaders,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            request_timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(5),
            trust: Trust::default(),
            headers: UserHeaders::default(),
        }
    }
}

/// One HTTP exchange as the transport judge needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpFact {
    /// `POST`, `GET` or `DELETE`.
    pub method: String,
    /// The URL requested.
    pub url: String,
    /// The response status.
    pub status: u16,
    /// The response's `Content-Type`, as sent.
    pub content_type: Option<String>,
    /// The response headers of interest, names lowercase, values as text
    /// (lossy for bytes that are not visible ASCII, which a finding names).
    pub headers: Vec<(String, String)>,
    /// Whether an answer is due to the request body (a JSON-RPC request, or
    /// a frame a server refuses with an error: not JSON, `[]`).
    pub expected_answer: bool,
    /// Whether the request body held at least one JSON-RPC request (an
    /// object with a `method` and an `id`): what MCP basic/transports'
    /// "If the input contains any number of JSON-RPC requests" is about;
    /// `[]` or a frame that is not JSON holds none.
    pub holds_request: bool,
    /// How many frames the response carried.
    pub frames: usize,
    /// The exchange number the transport gave the request (see
    /// [`Transport::sent_exchange`](crate::transport::Transport::sent_exchange));
    /// `None` for the HTTP+SSE stream and a DELETE.
    pub exchange: Option<u64>,
    /// The SSE event ids the response's stream carried, in order (2025-03-26
    /// §Resumability and Redelivery 1: servers "MAY attach an `id` field").
    pub event_ids: Vec<String>,
    /// An SSE response stream that carried a response: `Some(true)` when the
    /// server then ended it, `Some(false)` when it was still open at the
    /// request's deadline; `None` when it carried none or was cut.
    pub ended_after_answer: Option<bool>,
    /// An SSE response's first event block, raw (the parser drops an event
    /// without data); `None` when the stream showed no whole first block
    /// within [`MAX_FIRST_BLOCK`](super::MAX_FIRST_BLOCK) bytes.
    pub first_event: Option<super::FirstEvent>,
    /// The JSON-RPC error codes of the responses the response carried, in
    /// the order they came (a batch's in its order), at most
    /// [`MAX_ERROR_CODES`]: what a status rule needs to know of the answer
    /// without the frames ("On HTTP, the response status MUST be `400 Bad
    /// Request`", 2026-07-28 basic/index §_meta, for -32021).
    pub error_codes: Vec<i64>,
    /// What a person reading a finding is shown of the exchange; no rule
    /// reads it.
    pub exhibit: Exhibit,
}

/// What a report shows of an exchange beside the fields rules read: the
/// request's headers and body as sent and the start of the response's body,
/// each bounded ([`EXCERPT`]), so a finding shows what was asked and what
/// came back without a capture.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Exhibit {
    /// The request headers as sent, names lowercase; credentials redacted.
    pub request_headers: Vec<(String, String)>,
    /// The start of the request body, as text.
    pub request_body: Option<String>,
    /// The start of the response body (over SSE, its first message), as text.
    pub response_body: Option<String>,
}

/// The most bytes of a body an [`Exhibit`] keeps.
pub const EXCERPT: usize = 400;

/// The most request headers an [`Exhibit`] keeps.
const MAX_EXHIBIT_HEADERS: usize = 16;

/// Request headers whose values are never shown.
const REDACTED: &[&str] = &["authorization", "cookie", "proxy-authorization"];

impl Exhibit {
    /// The exhibit of a request about to be sent with `headers` and `body`.
    pub fn of_request(headers: &HeaderMap, body: Option<&[u8]>) -> Exhibit {
        let request_headers = headers
            .iter()
            .take(MAX_EXHIBIT_HEADERS)
            .map(|(name, value)| {
                let name = name.as_str().to_owned();
                let value = if REDACTED.contains(&name.as_str()) || value.is_sensitive() {
                    "(redacted)".to_owned()
                } else {
                    excerpt(value.as_bytes())
                };
                (name, value)
            })
            .collect();
        Exhibit {
            request_headers,
            request_body: body.map(excerpt),
            response_body: None,
        }
    }
}

/// Response headers a transport rule reads.
const HEADERS_OF_INTEREST: &[&str] = &[
    "mcp-session-id",
    "mcp-protocol-version",
    "allow",
    "location",
    "x-accel-buffering",
    "cache-control",
    "content-length",
    "www-authenticate",
];

/// What HTTP itself did wrong, or what it did that a frame cannot carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FindingKind {
    /// No HTTP response: connection refused or reset before the headers.
    Connect,
    /// A 3xx; redirects are never followed (a loop cannot hold the runner).
    Redirect,
    /// A 4xx or 5xx whose body is not JSON (an HTML error page, say).
    ErrorStatus,
    /// A body whose `Content-Type` is not the one the transport requires.
    WrongContentType,
    /// A body or one SSE event longer than [`Limits::max_frame`]; reading
    /// stopped there and the connection was dropped.
    BodyTooLong,
    /// The connection ended inside a body or a stream.
    BodyCut,
    /// SSE that the parser refused (bad UTF-8, bad framing), or bytes after
    /// the last event that no blank line ever dispatched.
    MalformedSse,
    /// An SSE event of a type the transport does not define.
    UnexpectedEventType,
    /// A request got no JSON-RPC response (202, 204, an empty body, or a
    /// stream that ended without one).
    NoAnswer,
    /// A body where none belongs (202 Accepted with content).
    UnexpectedBody,
    /// A JSON-RPC body of `null`: not a JSON-RPC message at all.
    NullBody,
    /// A JSON-RPC body of `[]`: JSON-RPC 2.0 §6 sends nothing rather than an
    /// empty array.
    EmptyBatchBody,
    /// An `Mcp-Session-Id` with bytes outside visible ASCII (0x21–0x7E).
    SessionIdNotVisibleAscii,
    /// The exchange outlived [`HttpOptions::request_timeout`].
    TimedOut,
}

/// One finding, with the exchange it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpFinding {
    /// What went wrong.
    pub kind: FindingKind,
    /// The response status, when a response came.
    pub status: Option<u16>,
    /// What was seen, for the report (untrusted text: escape it per view).
    pub detail: String,
}

/// What a request task sends the transport, tagged with its exchange (`None`
/// for the HTTP+SSE stream, which is no one request's).
pub enum Msg {
    Event(Option<u64>, Event),
    /// The exchange is over; nothing more comes from it.
    Done(u64),
}

/// The side channels and counters a transport and its tasks share.
#[derive(Debug, Default)]
pub struct Shared {
    pub facts: Mutex<Vec<HttpFact>>,
    pub findings: Mutex<Vec<HttpFinding>>,
    pub dropped: AtomicU64,
    /// Woken each time a fact is recorded (a response's headers came).
    pub recorded: tokio::sync::Notify,
    /// The run's pacer, told of every busy answer ([`record`]).
    pub pacer: std::sync::OnceLock<crate::transport::pacer::Pacer>,
}

impl Shared {
    pub fn finding(&self, kind: FindingKind, status: Option<u16>, detail: impl Into<String>) {
        lock(&self.findings).push(HttpFinding {
            kind,
            status,
            detail: detail.into(),
        });
    }
}

/// Where a request task puts what it read, tagged with its exchange.
#[derive(Clone)]
pub struct Sink {
    tx: mpsc::Sender<Msg>,
    pub shared: Arc<Shared>,
    pub exchange: Option<u64>,
}

impl Sink {
    /// Queues an event; a full queue drops it and counts the drop, as stdio does.
    pub fn event(&self, event: Event) {
        if self.tx.try_send(Msg::Event(self.exchange, event)).is_err() {
            self.shared.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    pub async fn done(&self) {
        // Never dropped: `recv` tracks the exchanges in flight by these.
        if let Some(exchange) = self.exchange {
            let _ = self.tx.send(Msg::Done(exchange)).await;
        }
    }
}

/// The receiving end: events in arrival order, each with the exchange that
/// carried it, and the exchanges in flight.
///
/// Exchanges run concurrently (a probe's POST and the liveness ping's POST,
/// or an earlier POST still streaming), so arrival order says nothing about
/// whose answer a frame is: the exchange does (2025-11-25 basic/transports
/// §Sending Messages 5: the SSE stream answers "the JSON-RPC request sent in
/// the POST body"). [`origin`](Self::origin) names it.
pub struct Queue {
    rx: mpsc::Receiver<Msg>,
    sink: Sink,
    /// Exchanges spawned whose `Done` has not been read yet. One task sends
    /// an exchange's events and then its `Done` down the one channel, so once
    /// `Done(n)` is read every event of `n` has been returned.
    open: BTreeSet<u64>,
    next: u64,
    /// The exchange of the event `recv` returned last.
    last_origin: Option<u64>,
    tasks: Vec<JoinHandle<()>>,
}

impl Queue {
    pub fn new(limits: &Limits) -> Queue {
        let (tx, rx) = mpsc::channel(limits.queue_cap.max(1));
        Queue {
            rx,
            sink: Sink {
                tx,
                shared: Arc::default(),
                exchange: None,
            },
            open: BTreeSet::new(),
            next: 0,
            last_origin: None,
            tasks: Vec::new(),
        }
    }

    /// A sink that belongs to no exchange (the HTTP+SSE stream).
    pub fn sink(&self) -> Sink {
        self.sink.clone()
    }

    pub fn shared(&self) -> &Shared {
        &self.sink.shared
    }

    /// Tells `pacer` of every busy answer this transport's exchanges get
    /// from now on (the first pacer given stays).
    pub fn pace(&self, pacer: &crate::transport::pacer::Pacer) {
        let _ = self.sink.shared.pacer.set(pacer.clone());
    }

    /// Runs one exchange on its own task, handing it a sink tagged with its
    /// number (returned); the task must end with [`Sink::done`].
    pub fn spawn<F>(&mut self, exchange: impl FnOnce(Sink) -> F) -> u64
    where
        F: std::future::Future<Output = ()> + Send + 'static,
    {
        self.tasks.retain(|task| !task.is_finished());
        let number = self.next;
        self.next += 1;
        self.open.insert(number);
        let sink = Sink {
            exchange: Some(number),
            ..self.sink.clone()
        };
        self.tasks.push(tokio::spawn(exchange(sink)));
        number
    }

    /// A task that is not an exchange (the HTTP+SSE stream): never counted.
    pub fn spawn_stream(&mut self, stream: impl std::future::Future<Output = ()> + Send + 'static) {
        self.tasks.push(tokio::spawn(stream));
    }

    /// The exchange that carried the event [`recv`](Self::recv) returned
    /// last (`None`: the HTTP+SSE stream, or no event yet).
    pub fn origin(&self) -> Option<u64> {
        self.last_origin
    }

    /// Whether `exchange` may still carry events: spawned, and its end not
    /// yet read by [`recv`](Self::recv).
    pub fn is_open(&self, exchange: u64) -> bool {
        self.open.contains(&exchange)
    }

    fn take(&mut self, msg: Msg) -> Option<Event> {
        match msg {
            Msg::Event(origin, event) => {
                self.last_origin = origin;
                Some(event)
            }
            Msg::Done(exchange) => {
                self.open.remove(&exchange);
                None
            }
        }
    }

    /// The next event; with `wait_idle` false, [`Event::TimedOut`] at once
    /// when no exchange is in flight and nothing is queued.
    pub async fn recv(&mut self, deadline: Instant, wait_idle: bool) -> Event {
        loop {
            if let Ok(msg) = self.rx.try_recv() {
                if let Some(event) = self.take(msg) {
                    return event;
                }
                continue;
            }
            if self.open.is_empty() && !wait_idle {
                return Event::TimedOut;
            }
            match timeout_at(deadline, self.rx.recv()).await {
                Ok(Some(msg)) => {
                    if let Some(event) = self.take(msg) {
                        return event;
                    }
                }
                // The queue holds a sender itself, so it never closes.
                Ok(None) | Err(_) => return Event::TimedOut,
            }
        }
    }
}

impl Drop for Queue {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// The media type of a `Content-Type`, lowercase, parameters dropped.
pub fn essence(content_type: Option<&str>) -> Option<String> {
    content_type.map(|ct| {
        ct.split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase()
    })
}

/// What [`record`] learnt of a response.
pub struct Recorded {
    pub status: u16,
    pub content_type: Option<String>,
    /// Where the fact sits in [`Shared::facts`], for [`count_frame`]:
    /// exchanges run concurrently, so "the last fact" may be another's.
    pub index: usize,
}

/// Records the fact of a response to the request `sent`.
#[expect(
    clippy::too_many_arguments,
    reason = "each a fact of the exchange, named at the call"
)]
pub fn record(
    shared: &Shared,
    method: &str,
    url: &str,
    sent: Exhibit,
    response: &Response,
    expected_answer: bool,
    holds_request: bool,
    exchange: Option<u64>,
) -> Recorded {
    let status = response.status().as_u16();
    if let Some(pacer) = shared.pacer.get() {
        let retry_after = header_text(response.headers(), "retry-after")
            .as_deref()
            .and_then(crate::transport::pacer::retry_after);
        pacer.answered(status, retry_after);
    }
    let content_type = header_text(response.headers(), "content-type");
    let headers = HEADERS_OF_INTEREST
        .iter()
        .filter_map(|name| header_text(response.headers(), name).map(|v| ((*name).to_owned(), v)))
        .collect();
    let mut facts = lock(&shared.facts);
    facts.push(HttpFact {
        method: method.to_owned(),
        url: url.to_owned(),
        status,
        content_type: content_type.clone(),
        headers,
        expected_answer,
        holds_request,
        frames: 0,
        exchange,
        event_ids: Vec::new(),
        ended_after_answer: None,
        first_event: None,
        error_codes: Vec::new(),
        exhibit: sent,
    });
    let index = facts.len() - 1;
    drop(facts);
    shared.recorded.notify_waiters();
    Recorded {
        status,
        content_type,
        index,
    }
}

/// Notes an SSE event id against the fact at `index`.
pub fn note_event_id(shared: &Shared, index: usize, id: &str) {
    if let Some(fact) = lock(&shared.facts).get_mut(index) {
        // Bounded like everything a peer sends: a stream of ids is counted
        // up to a point, not kept without end.
        if fact.event_ids.len() < MAX_EVENT_IDS {
            fact.event_ids.push(id.to_owned());
        }
    }
}

/// Changes the fact at `index`: what its SSE stream showed as it ended.
pub fn update_fact(shared: &Shared, index: usize, change: impl FnOnce(&mut HttpFact)) {
    if let Some(fact) = lock(&shared.facts).get_mut(index) {
        change(fact);
    }
}

/// The most SSE event ids kept per response.
const MAX_EVENT_IDS: usize = 4096;

/// The most JSON-RPC error codes kept per response.
pub const MAX_ERROR_CODES: usize = 64;

/// Counts a frame against the fact at `index`, noting the error codes of the
/// responses it holds.
pub fn count_frame(shared: &Shared, index: usize, frame: &[u8]) {
    let codes = error_codes(frame);
    if let Some(fact) = lock(&shared.facts).get_mut(index) {
        if fact.exhibit.response_body.is_none() {
            fact.exhibit.response_body = Some(excerpt(frame));
        }
        fact.frames += 1;
        let room = MAX_ERROR_CODES.saturating_sub(fact.error_codes.len());
        fact.error_codes.extend(codes.into_iter().take(room));
    }
}

/// The integer `error.code` of each JSON-RPC response in `frame` (one object
/// or a batch). A reading for the transport judge only: the codec judges the
/// frame itself, so what is not JSON, or a code that is no integer, is left
/// out here rather than refused.
fn error_codes(frame: &[u8]) -> Vec<i64> {
    let code = |v: &serde_json::Value| v.pointer("/error/code").and_then(serde_json::Value::as_i64);
    match serde_json::from_slice::<serde_json::Value>(frame) {
        Ok(serde_json::Value::Array(items)) => items.iter().filter_map(code).collect(),
        Ok(one) => code(&one).into_iter().collect(),
        Err(_) => Vec::new(),
    }
}

fn header_text(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
}

/// How reading a body ended, when it did not end with the whole body.
#[derive(Debug)]
pub enum BodyError {
    /// Longer than the bound: `read` bytes were read (or declared) before
    /// reading stopped.
    TooLong { read: u64 },
    /// The connection failed inside the body.
    Cut { read: u64, why: String },
    /// The deadline passed inside the body.
    TimedOut { read: u64 },
}

impl BodyError {
    /// Files the matching finding.
    pub fn report(&self, shared: &Shared, status: u16, max: usize) {
        match self {
            BodyError::TooLong { read } => shared.finding(
                FindingKind::BodyTooLong,
                Some(status),
                format!("body exceeds the limit of {max} bytes ({read} bytes read or declared); abandoned"),
            ),
            BodyError::Cut { read, why } => shared.finding(
                FindingKind::BodyCut,
                Some(status),
                format!("connection ended after {read} body bytes: {why}"),
            ),
            BodyError::TimedOut { read } => shared.finding(
                FindingKind::TimedOut,
                Some(status),
                format!("body not complete within the request timeout ({read} bytes read)"),
            ),
        }
    }
}

/// Reads a whole body, never more than `max` bytes of it: a longer one is
/// abandoned (the connection dropped), not drained, so a 1 GiB body costs
/// `max` bytes of memory and the time to read them.
pub async fn read_bounded(
    mut response: Response,
    max: usize,
    deadline: Instant,
) -> Result<Vec<u8>, BodyError> {
    if let Some(declared) = response.content_length() {
        if declared > max as u64 {
            return Err(BodyError::TooLong { read: declared });
        }
    }
    let mut body = Vec::new();
    loop {
        let read = body.len() as u64;
        match timeout_at(deadline, response.chunk()).await {
            Err(_) => return Err(BodyError::TimedOut { read }),
            Ok(Err(e)) => {
                return Err(BodyError::Cut {
                    read,
                    why: error_chain(&e),
                })
            }
            Ok(Ok(None)) => return Ok(body),
            Ok(Ok(Some(chunk))) => {
                if body.len() + chunk.len() > max {
                    return Err(BodyError::TooLong {
                        read: read + chunk.len() as u64,
                    });
                }
                body.extend_from_slice(&chunk);
            }
        }
    }
}

/// What a report shows of an exchange a probe made with its own client
/// (no transport recorded it): the request as sent, and of the response its
/// status, `Content-Type` and the headers a rule reads (as for a recorded
/// exchange), and the start of its body.
#[must_use]
pub fn shown_exchange(
    method: &str,
    url: &str,
    request_headers: Vec<(String, String)>,
    request_body: Option<&[u8]>,
    status: u16,
    headers: &HeaderMap,
    body_start: &[u8],
) -> report::HttpExchange {
    let response_headers = std::iter::once("content-type")
        .chain(HEADERS_OF_INTEREST.iter().copied())
        .flat_map(|name| {
            headers.get_all(name).iter().map(move |v| {
                (
                    name.to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
        })
        .collect();
    report::HttpExchange {
        method: method.to_owned(),
        url: url.to_owned(),
        request_headers,
        request_body: request_body.map(excerpt),
        status,
        response_headers,
        response_body: (!body_start.is_empty()).then(|| excerpt(body_start)),
    }
}

/// The first [`EXCERPT`] bytes of a body, as text for an [`Exhibit`].
pub fn excerpt(body: &[u8]) -> String {
    text_start(body, EXCERPT)
}

/// The first bytes of a body, as text for a finding's one line.
pub fn snippet(body: &[u8]) -> String {
    text_start(body, 160)
}

/// The first `max` bytes of `body` as text, `…` marking a cut.
fn text_start(body: &[u8], max: usize) -> String {
    let cut = &body[..body.len().min(max)];
    let mut text = String::from_utf8_lossy(cut).into_owned();
    if body.len() > cut.len() {
        text.push('…');
    }
    text
}

/// How an SSE stream ended.
#[derive(Debug, PartialEq, Eq)]
pub enum StreamEnd {
    /// The server ended the stream (or the handler asked to stop).
    Ended,
    /// A finding was filed and reading stopped.
    Failed,
}

/// Reads SSE events from `response` until it ends, `deadline` passes, or
/// `on_event` returns false, filing a finding for anything wrong. No event may
/// take more than `max` bytes (plus its field names) to arrive, so a stream
/// that never dispatches one costs bounded memory. With `fact`, the stream's
/// first event block is kept raw in that fact ([`HttpFact::first_event`]).
pub async fn read_sse(
    response: Response,
    max: usize,
    deadline: Option<Instant>,
    (shared, fact): (&Shared, Option<usize>),
    status: u16,
    mut on_event: impl FnMut(SseEvent) -> bool,
) -> StreamEnd {
    let mut first = fact.map(|index| (index, super::first_event::FirstBlock::default()));
    let bytes = response.bytes_stream().inspect(|chunk| {
        if let (Some((index, block)), Ok(chunk)) = (&mut first, chunk) {
            if let Some(event) = block.feed(chunk) {
                update_fact(shared, *index, |f| f.first_event = Some(event));
            }
        }
    });
    let mut events = Events::new(Box::pin(bytes), max.saturating_add(4096));
    loop {
        let next = match deadline {
            Some(deadline) => match timeout_at(deadline, events.next()).await {
                Ok(next) => next,
                Err(_) => {
                    shared.finding(
                        FindingKind::TimedOut,
                        Some(status),
                        "SSE stream still open at the request timeout; abandoned",
                    );
                    return StreamEnd::Failed;
                }
            },
            None => events.next().await,
        };
        match next {
            None => {
                let left = events.undispatched();
                if left > 0 {
                    shared.finding(
                        FindingKind::MalformedSse,
                        Some(status),
                        format!("{left} bytes after the last event were never dispatched (no blank line ended them)"),
                    );
                }
                return StreamEnd::Ended;
            }
            Some(Ok(event)) => {
                if !on_event(event) {
                    return StreamEnd::Ended;
                }
            }
            Some(Err(StreamError::TooLong(n))) => {
                shared.finding(
                    FindingKind::BodyTooLong,
                    Some(status),
                    format!("SSE: {n} bytes without a complete event exceed the limit of {max} bytes; abandoned"),
                );
                return StreamEnd::Failed;
            }
            Some(Err(StreamError::Transport(why))) => {
                shared.finding(
                    FindingKind::BodyCut,
                    Some(status),
                    format!("SSE stream cut: {why}"),
                );
                return StreamEnd::Failed;
            }
            Some(Err(other @ StreamError::Utf8(_))) => {
                shared.finding(
                    FindingKind::MalformedSse,
                    Some(status),
                    format!("SSE: {other}"),
                );
                return StreamEnd::Failed;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::error_codes;

    /// A report shows the request as sent, never a credential: the bearer
    /// token `run --auth` sends is redacted in every exhibit.
    #[test]
    fn exhibits_redact_credentials() {
        use reqwest::header::{HeaderMap, HeaderValue};
        let mut headers = HeaderMap::new();
        headers.insert(
            "authorization",
            HeaderValue::from_static("Bearer eyJsecret"),
        );
        headers.insert("cookie", HeaderValue::from_static("session=secret"));
        headers.insert("origin", HeaderValue::from_static("http://a.invalid"));
        let exhibit = super::Exhibit::of_request(&headers, Some(b"{}"));
        let shown = format!("{exhibit:?}");
        assert!(!shown.contains("secret"), "{shown}");
        assert!(exhibit
            .request_headers
            .contains(&("authorization".into(), "(redacted)".into())));
        assert!(exhibit
            .request_headers
            .contains(&("origin".into(), "http://a.invalid".into())));
    }

    #[test]
    fn error_codes_are_read_from_responses_only() {
        assert_eq!(
            error_codes(br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"m"}}"#),
            [-32021]
        );
        assert_eq!(
            error_codes(
                br#"[{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"m"}},{"jsonrpc":"2.0","id":2,"result":{}}]"#
            ),
            [-32020]
        );
        // A result, a code that is no integer, and bytes that are not JSON
        // give none: the codec judges those frames.
        assert!(
            error_codes(br#"{"jsonrpc":"2.0","id":1,"result":{"error":{"code":1}}}"#).is_empty()
        );
        assert!(error_codes(br#"{"jsonrpc":"2.0","id":1,"error":{"code":"-32021"}}"#).is_empty());
        assert!(error_codes(b"{not json").is_empty());
    }
}
