//! MCP Streamable HTTP, the client side (2025-03-26 on; 2025-11-25
//! basic/transports §Streamable HTTP, 2026-07-28 basic/transports/streamable-http).

use std::sync::{Arc, Mutex};

use base64::Engine as _;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::Client;
use tokio::time::Instant;

use super::exchange::{FindingKind, HttpFact, HttpFinding, HttpOptions, Queue};
use super::post::{self, Flavor, Outline, Post};
use super::ConnectError;
use crate::transport::error::error_chain;
use crate::transport::{Event, Limits, SendError, Transport};
use ground::sync::lock;

/// What the client has learnt of the session.
#[derive(Debug, Default)]
struct Session {
    /// `Mcp-Session-Id` from the `initialize` response, sent on every later
    /// request (2025-11-25 §Session Management 2: clients "MUST include it").
    id: Option<String>,
    /// The negotiated revision, sent as `MCP-Protocol-Version` (2025-06-18 on,
    /// §Protocol Version Header: "MUST include" it "on all subsequent requests").
    version: Option<String>,
    /// Whether `version` goes out as the header: a negotiated 2024-11-05 or
    /// 2025-03-26 predates it; one set by hand always goes.
    send_version: bool,
    /// The `x-mcp-header` parameters of the tools listed so far.
    mirrors: super::mirror::Mirrors,
}

/// A peer reached over Streamable HTTP: one POST per frame.
pub struct StreamableHttpPeer {
    client: Client,
    url: String,
    limits: Limits,
    options: HttpOptions,
    session: Arc<Mutex<Session>>,
    extra: HeaderMap,
    queue: Queue,
    /// The exchange (POST) the last `send` opened.
    sent: Option<u64>,
}

impl StreamableHttpPeer {
    /// A transport to the MCP endpoint at `url`; nothing is sent yet.
    pub fn connect(url: &str, limits: Limits) -> Result<Self, ConnectError> {
        Self::with_options(url, limits, HttpOptions::default())
    }

    /// [`connect`](Self::connect) with explicit HTTP bounds.
    pub fn with_options(
        url: &str,
        limits: Limits,
        options: HttpOptions,
    ) -> Result<Self, ConnectError> {
        Ok(StreamableHttpPeer {
            client: client(url, &options)?,
            url: url.to_owned(),
            limits,
            options,
            session: Arc::default(),
            extra: HeaderMap::new(),
            queue: Queue::new(&limits),
            sent: None,
        })
    }

    /// The session id the server issued, if any.
    #[must_use]
    pub fn session_id(&self) -> Option<String> {
        lock(&self.session).id.clone()
    }

    /// Replaces the session id sent (`None` sends none): for the checks that a
    /// server requires it and refuses an unknown one.
    pub fn set_session_id(&mut self, id: Option<String>) {
        lock(&self.session).id = id;
    }

    /// The `MCP-Protocol-Version` sent, learnt from the `initialize` result.
    #[must_use]
    pub fn protocol_version(&self) -> Option<String> {
        lock(&self.session).version.clone()
    }

    /// Replaces the `MCP-Protocol-Version` sent (`None` sends none).
    pub fn set_protocol_version(&mut self, version: Option<String>) {
        let mut session = lock(&self.session);
        session.send_version = version.is_some();
        session.version = version;
    }

    /// Sends `name: value` on every later request, over whatever the transport
    /// would send (a foreign `Origin`, a wrong `Accept`).
    pub fn set_header(&mut self, name: HeaderName, value: HeaderValue) {
        self.extra.insert(name, value);
    }

    /// Ends the session with DELETE (2025-11-25 §Session Management 5) and
    /// returns the status; the session id is forgotten on a 2xx.
    pub async fn delete_session(&mut self) -> Result<u16, String> {
        let sent = self.headers(&Outline::default());
        let exhibit = super::exchange::Exhibit::of_request(&sent, None);
        let mut request = self.client.delete(&self.url).headers(sent);
        request = request.timeout(self.options.request_timeout);
        let response = request.send().await.map_err(|e| error_chain(&e))?;
        let shared = self.queue.shared();
        let status = super::exchange::record(
            shared, "DELETE", &self.url, exhibit, &response, false, false, None,
        )
        .status;
        if response.status().is_success() {
            lock(&self.session).id = None;
        }
        Ok(status)
    }

    /// Opens the GET stream of the session as it stands (2025-11-25
    /// §Listening for Messages from the Server), resuming after
    /// `last_event_id` when given (§Resumability and Redelivery 2), up to the
    /// response's headers, which come within `within`: the server has taken
    /// the stream, and nothing of it is read yet ([`OpenGet::read_within`]
    /// reads it). The exchange is recorded as a `GET` fact with its event ids.
    ///
    /// # Errors
    /// No response came (the connection failed, or `within` passed first).
    pub async fn open_get_stream(
        &self,
        last_event_id: Option<&str>,
        within: std::time::Duration,
    ) -> Result<OpenGet, String> {
        let mut headers = self.headers(&Outline::default());
        headers.remove("content-type");
        // §Listening for Messages 2: "listing text/event-stream".
        headers.insert("accept", HeaderValue::from_static("text/event-stream"));
        if let Some(id) = last_event_id.and_then(|id| HeaderValue::from_str(id).ok()) {
            headers.insert("last-event-id", id);
        }
        let deadline = Instant::now() + within;
        let exhibit = super::exchange::Exhibit::of_request(&headers, None);
        let sent = self.client.get(&self.url).headers(headers).send();
        let response = match tokio::time::timeout_at(deadline, sent).await {
            Err(_) => return Err(format!("no response headers within {within:?}")),
            Ok(Err(e)) => return Err(error_chain(&e)),
            Ok(Ok(response)) => response,
        };
        let shared = Arc::clone(&self.queue.sink().shared);
        let recorded = super::exchange::record(
            &shared, "GET", &self.url, exhibit, &response, false, false, None,
        );
        Ok(OpenGet {
            response,
            shared,
            recorded,
            deadline,
            max_frame: self.limits.max_frame,
        })
    }

    /// Waits until the server answered the exchange `exchange` (its
    /// response's headers came), for at most `within`; whether it did. Two
    /// POSTs of one session are two requests the server may take in either
    /// order: a request that must come after a notification waits for the
    /// notification's answer first.
    pub async fn answered(&self, exchange: u64, within: std::time::Duration) -> bool {
        let shared = self.queue.shared();
        let deadline = Instant::now() + within;
        loop {
            let recorded = shared.recorded.notified();
            tokio::pin!(recorded);
            recorded.as_mut().enable();
            if lock(&shared.facts)
                .iter()
                .any(|f| f.exchange == Some(exchange))
            {
                return true;
            }
            if tokio::time::timeout_at(deadline, recorded).await.is_err() {
                return false;
            }
        }
    }

    /// Every HTTP exchange so far.
    #[must_use]
    pub fn http_facts(&self) -> Vec<HttpFact> {
        lock(&self.queue.shared().facts).clone()
    }

    /// Every HTTP-level problem so far.
    #[must_use]
    pub fn http_findings(&self) -> Vec<HttpFinding> {
        lock(&self.queue.shared().findings).clone()
    }

    fn headers(&self, outline: &Outline) -> HeaderMap {
        let mut headers = post_headers();
        let session = lock(&self.session);
        if let Some(id) = session
            .id
            .as_deref()
            .and_then(|id| HeaderValue::from_str(id).ok())
        {
            headers.insert("mcp-session-id", id);
        }
        // 2026-07-28 §Request Metadata: the header "MUST match" the `_meta`
        // version, so a frame naming one sends that one.
        let learnt = session.version.as_deref().filter(|_| session.send_version);
        // `initialize` is a legacy client's opening, and no legacy client
        // sends a modern (per-request-metadata) version as its header: a
        // dual-era server "selects its behavior from how the client opens"
        // (2026-07-28 basic/versioning §Backward Compatibility), so such a
        // header would make it judge a legacy opening as modern.
        let legacy_opening =
            outline.method.as_deref() == Some("initialize") && outline.meta_version.is_none();
        let learnt = learnt.filter(|v| !(legacy_opening && is_modern(v)));
        let version = outline.meta_version.as_deref().or(learnt);
        if let Some(version) = version.and_then(|v| HeaderValue::from_str(v).ok()) {
            headers.insert("mcp-protocol-version", version);
        }
        if let (Some(_), Some(method)) = (&outline.meta_version, outline.method.as_deref()) {
            for (name, value) in standard_headers(method, outline.name.as_deref()) {
                headers.insert(name, value);
            }
        }
        drop(session);
        for (name, value) in &self.extra {
            headers.insert(name.clone(), value.clone());
        }
        headers
    }
}

/// Whether `version` names a modern revision (per-request metadata, no
/// `initialize`): 2026-07-28 and after.
fn is_modern(version: &str) -> bool {
    version
        .parse::<harness::Revision>()
        .is_ok_and(|r| r >= harness::Revision::Mcp2026_07_28)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A false finding once seen: in a 2026-07-28 run every POST carries
    /// `MCP-Protocol-Version: 2026-07-28`, but a legacy `initialize` goes
    /// out as a legacy client sends it, without a modern version header.
    #[test]
    fn a_legacy_initialize_carries_no_modern_version_header() {
        let mut peer =
            StreamableHttpPeer::connect("http://127.0.0.1:9/mcp", Limits::default()).unwrap();
        peer.set_protocol_version(Some("2026-07-28".into()));
        let header = |peer: &StreamableHttpPeer, frame: &[u8]| {
            peer.headers(&Outline::of(frame))
                .get("mcp-protocol-version")
                .map(|v| v.to_str().unwrap().to_owned())
        };
        let initialize = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
        assert_eq!(header(&peer, initialize), None);
        let list = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        assert_eq!(header(&peer, list).as_deref(), Some("2026-07-28"));
        // A legacy session's negotiated version still goes on every request.
        peer.set_protocol_version(Some("2025-11-25".into()));
        assert_eq!(header(&peer, initialize).as_deref(), Some("2025-11-25"));
    }
}

/// A GET of the MCP endpoint whose response headers came, its body not yet
/// read ([`StreamableHttpPeer::open_get_stream`]).
pub struct OpenGet {
    response: reqwest::Response,
    shared: Arc<super::exchange::Shared>,
    recorded: super::exchange::Recorded,
    /// The end of the wait for the response's headers, counted from the
    /// request: a refusal's body is read until then.
    deadline: Instant,
    max_frame: usize,
}

impl OpenGet {
    /// Reads the stream until `window` resolves (the caller's: a moment,
    /// and until a liveness answer came), [`MAX_GET_EVENTS`] events came, or
    /// the server ended it; a refusal's body is kept for the record instead,
    /// read until the headers' deadline. What had arrived when the window
    /// ends is read first, never dropped for it.
    pub async fn read_within(self, window: impl std::future::Future<Output = ()>) -> GetStream {
        let OpenGet {
            response,
            shared,
            recorded,
            deadline,
            max_frame,
        } = self;
        let shared = &*shared;
        let mut stream = GetStream {
            status: recorded.status,
            content_type: recorded.content_type.clone(),
            events: Vec::new(),
        };
        let sse = super::exchange::essence(recorded.content_type.as_deref()).as_deref()
            == Some("text/event-stream");
        if !sse {
            // A refusal's body (a 405's, a 409's) is shown with the record.
            let body = super::exchange::read_bounded(response, 4096, deadline)
                .await
                .unwrap_or_default();
            if !body.is_empty() {
                super::exchange::update_fact(shared, recorded.index, |f| {
                    f.exhibit.response_body = Some(super::exchange::excerpt(&body));
                });
            }
            return stream;
        }
        let mut previous = String::new();
        let events = &mut stream.events;
        let read = super::exchange::read_sse(
            response,
            max_frame,
            None,
            (shared, Some(recorded.index)),
            recorded.status,
            |event| {
                // The parser carries the last id forward to events that have
                // none (the SSE standard's lastEventId): only a change is an
                // id this event carried.
                let id = (!event.id.is_empty() && event.id != previous).then(|| event.id.clone());
                previous = event.id;
                if let Some(id) = &id {
                    super::exchange::note_event_id(shared, recorded.index, id);
                }
                if !event.data.is_empty() {
                    events.push(StreamEvent {
                        id,
                        data: event.data.into_bytes(),
                    });
                }
                events.len() < MAX_GET_EVENTS
            },
        );
        // Biased, the stream first: when its data and the window's end are
        // ready in the same poll, the data is read (unbiased, a coin decided,
        // and a message the server sent as it answered the window's ping was
        // lost half the time).
        tokio::select! {
            biased;
            _ = read => {}
            () = window => {}
        }
        stream
    }
}

/// The most events [`OpenGet::read_within`] reads from one stream.
pub const MAX_GET_EVENTS: usize = 64;

/// What one GET of the MCP endpoint showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GetStream {
    /// The response status.
    pub status: u16,
    /// The response's `Content-Type`, as sent.
    pub content_type: Option<String>,
    /// The SSE events with data read, in order (none unless the answer was
    /// `text/event-stream`).
    pub events: Vec<StreamEvent>,
}

/// One SSE event of a GET stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamEvent {
    /// The event id it carried, if it carried one.
    pub id: Option<String>,
    /// The event's data: a JSON-RPC message, for the codec to judge.
    pub data: Vec<u8>,
}

/// The headers every POST of a JSON-RPC message carries: its
/// `Content-Type`, and the `Accept` §Sending Messages to the Server 2 asks
/// for ("MUST include an Accept header, listing both application/json and
/// text/event-stream"). The runner's transport and `load`'s client both
/// start from these.
#[must_use]
pub fn post_headers() -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert("content-type", HeaderValue::from_static("application/json"));
    headers.insert(
        "accept",
        HeaderValue::from_static("application/json, text/event-stream"),
    );
    headers
}

/// 2026-07-28 basic/transports/streamable-http §Standard Request Headers
/// ("REQUIRED for compliance"): `Mcp-Method` from the request's `method`,
/// and on `tools/call`, `resources/read` and `prompts/get` `Mcp-Name` from
/// its `name` (`params.name`, or `params.uri`), each in the Base64 sentinel
/// form where the value is not plain ASCII (§Value Encoding, MUST).
#[must_use]
pub fn standard_headers(method: &str, name: Option<&str>) -> Vec<(HeaderName, HeaderValue)> {
    let value = |v: &str| HeaderValue::from_str(&header_safe(v)).ok();
    let mut headers = Vec::new();
    if let Some(v) = value(method) {
        headers.push((HeaderName::from_static("mcp-method"), v));
    }
    if matches!(method, "tools/call" | "resources/read" | "prompts/get") {
        if let Some(v) = name.and_then(value) {
            headers.push((HeaderName::from_static("mcp-name"), v));
        }
    }
    headers
}

/// 2026-07-28 §Value Encoding: a value that is not plain visible ASCII (or
/// space/tab inside), or that looks like the sentinel, "MUST use Base64
/// encoding of the UTF-8 representation" as `=?base64?…?=`.
#[must_use]
pub fn header_safe(value: &str) -> String {
    let visible = value
        .bytes()
        .all(|b| matches!(b, 0x21..=0x7e | b' ' | b'\t'));
    let padded = value.starts_with([' ', '\t']) || value.ends_with([' ', '\t']);
    let sentinel = value.starts_with("=?base64?") && value.ends_with("?=");
    let plain = visible && !padded && !sentinel;
    if plain {
        value.to_owned()
    } else {
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(value)
        )
    }
}

/// The HTTP client the transports share: no redirects followed, bounded
/// connects, `http://` or `https://`, built on [`builder`].
pub fn client(url: &str, options: &HttpOptions) -> Result<Client, ConnectError> {
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(ConnectError::BadUrl(format!(
            "`{url}`: not an http:// or https:// URL"
        )));
    }
    builder(options)
        // A fresh connection per request, as curl makes one per run: a
        // kept-alive connection the server gave up on (idle past its
        // keep-alive while a `subscriptions/listen` stream stayed open, or
        // closed after one request) resets the POST written into it, and a
        // POST cannot be retried safely, so the probe would read as "got no
        // reply" (a false finding once seen). Loopback connects are cheap.
        .pool_max_idle_per_host(0)
        .build()
        .map_err(|e| ConnectError::Client(error_chain(&e)))
}

/// The start of every HTTP client of the tool (the transports, the runner's
/// own probes, the authorization client, the proxy's upstream): redirects
/// are the server's answer and never followed, connects are bounded, TLS
/// trusts [`HttpOptions::trust`], and the user's headers go on every
/// request that does not set them itself.
pub fn builder(options: &HttpOptions) -> reqwest::ClientBuilder {
    Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(options.connect_timeout)
        .use_preconfigured_tls(options.trust.client_config())
        .default_headers(options.headers.header_map())
}

impl Transport for StreamableHttpPeer {
    fn pace(&mut self, pacer: &crate::transport::pacer::Pacer) {
        self.queue.pace(pacer);
    }

    async fn send(&mut self, frame: &[u8]) -> Result<(), SendError> {
        let outline = Outline::of(frame);
        let initialize = outline.method.as_deref() == Some("initialize") && outline.requests == 1;
        let mut headers = self.headers(&outline);
        if outline.meta_version.is_some() {
            for (name, value) in super::mirror::headers(frame, &lock(&self.session).mirrors) {
                headers.insert(name, value);
            }
        }
        let post = Post {
            client: self.client.clone(),
            url: self.url.clone(),
            headers,
            body: frame.to_vec(),
            expected_answer: outline.requests > 0,
            holds_request: outline.calls > 0,
            max_frame: self.limits.max_frame,
            deadline: Instant::now() + self.options.request_timeout,
            flavor: Flavor::Streamable,
        };
        let shared = Arc::clone(&self.queue.sink().shared);
        let session = Arc::clone(&self.session);
        let learn = Arc::clone(&self.session);
        let (seen_tx, seen_rx) = tokio::sync::oneshot::channel::<()>();
        let seen_tx = Mutex::new(Some(seen_tx));
        let on_response = move |headers: &HeaderMap, status: u16| {
            let Some(id) = headers.get("mcp-session-id") else {
                return;
            };
            if !id.as_bytes().iter().all(|b| (0x21..=0x7e).contains(b)) {
                shared.finding(
                    FindingKind::SessionIdNotVisibleAscii,
                    Some(status),
                    format!(
                        "Mcp-Session-Id {:?}",
                        String::from_utf8_lossy(id.as_bytes())
                    ),
                );
            }
            // §Session Management 1: assigned "on the HTTP response containing
            // the InitializeResult"; one on a later response is recorded in the
            // facts, not adopted.
            if initialize && (200..300).contains(&status) {
                lock(&session).id = Some(String::from_utf8_lossy(id.as_bytes()).into_owned());
            }
        };
        let on_frame: post::OnFrame = Arc::new(move |bytes: &[u8]| {
            super::mirror::learn(bytes, &mut lock(&learn).mirrors);
            if !initialize {
                return;
            }
            let version = serde_json::from_slice::<serde_json::Value>(bytes)
                .ok()
                .and_then(|v| {
                    v.pointer("/result/protocolVersion")?
                        .as_str()
                        .map(str::to_owned)
                });
            if let Some(version) = version {
                let mut session = lock(&learn);
                // Unknown revisions go out too: the server decides what it supports.
                session.send_version = version
                    .parse::<harness::Revision>()
                    .map_or(true, |r| r >= harness::Revision::Mcp2025_06_18);
                session.version = Some(version);
            }
            // The answer is in and learnt from: `send` may return.
            if let Some(tx) = lock(&seen_tx).take() {
                let _ = tx.send(());
            }
        });
        self.sent = Some(
            self.queue
                .spawn(|sink| post::run(post, sink, on_response, on_frame)),
        );
        if initialize {
            // The session id rides on this response's headers and the version
            // in its body, and every later request must carry both (§Session
            // Management 2, §Protocol Version Header): nothing else goes out
            // before the answer (or the end of the exchange) arrives.
            let _ = tokio::time::timeout(self.options.request_timeout, seen_rx).await;
        }
        Ok(())
    }

    async fn recv(&mut self, deadline: Instant) -> Event {
        self.queue.recv(deadline, false).await
    }

    fn sent_exchange(&self) -> Option<u64> {
        self.sent
    }

    fn received_from(&self) -> Option<u64> {
        self.queue.origin()
    }

    fn exchange_open(&self, exchange: u64) -> bool {
        self.queue.is_open(exchange)
    }

    fn dropped(&self) -> u64 {
        self.queue
            .shared()
            .dropped
            .load(std::sync::atomic::Ordering::Relaxed)
    }
}
