//! The HTTP reverse proxy's plumbing (`wirecheck proxy --listen ADDR
//! --upstream URL`): every request is sent on to the upstream at the same
//! path and query, with its method, headers (less the hop-by-hop ones) and
//! body, and the upstream's status, headers and body come back the same way;
//! a copy of every JSON-RPC message in either direction is handed to the
//! observer, tagged with the conversation (MCP session) it belongs to.
//!
//! What is judged: a request's non-empty body (a POST's JSON-RPC message), an
//! `application/json` answer's body, and the data of each unnamed or
//! `message` event of a `text/event-stream` answer (a POST's SSE answer, the
//! GET stream, the 2024-11-05 `/sse` stream). Other bodies (a 404 page, a 202's
//! nothing) are forwarded and not judged: they carry no JSON-RPC message.
//!
//! What is changed: nothing, with one exception. A 2024-11-05 `endpoint` event
//! (basic/transports §HTTP with SSE, MUST: "the server MUST send an endpoint
//! event containing a URI for the client to use for sending messages") that
//! names an absolute URI on the upstream's origin would send the client's
//! POSTs around the proxy; its origin is replaced by the proxy's, the observer
//! is told so with the original URI, and the rest of the stream is untouched.
//! A relative URI (what most servers send) is forwarded as it is.
//!
//! Bodies stream: an answer is forwarded chunk by chunk as it arrives (only the
//! first event of an SSE stream waits for its end, in case it is the endpoint
//! event), and the judging copy keeps at most `max_frame` bytes of a message,
//! so an endless stream or a huge body costs bounded memory. A request body is
//! read before it is sent on when it is at most `max_frame` long (so it is
//! judged before anything the server answers to it); a longer one is streamed.
//!
//! Conversations: a request carrying `Mcp-Session-Id` belongs to that session;
//! one without it (`initialize`) to the session its answer names; a POST to an
//! HTTP+SSE endpoint URI, and that stream's events, to that endpoint; anything
//! else to one session-less conversation (2026-07-28's stateless shape, plain
//! JSON-RPC over HTTP).

use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::serve::ListenerExt as _;
use axum::Router;
use futures_util::{stream, Stream, StreamExt};
use harness::Direction;
use reqwest::Url;
use tokio::net::TcpListener;
use tokio::sync::mpsc;

use super::Seen;
use crate::sync::lock;
use crate::transport::error::error_chain;
use crate::transport::event_stream::Splitter;

/// The session header of Streamable HTTP (2025-03-26 on, basic/transports
/// §Session Management).
const SESSION: &str = "mcp-session-id";

/// How the HTTP proxy runs.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Where it listens (checked by the caller: loopback unless asked).
    pub listen: SocketAddr,
    /// The upstream server: requests go to its origin at their own path.
    pub upstream: Url,
    /// The longest message kept for judging; a longer one is still forwarded.
    pub max_frame: usize,
    /// How the upstream is reached: TLS trust, the user's own headers.
    pub reach: crate::transport::http::HttpOptions,
    /// Serve HTTPS with this certificate instead of HTTP.
    pub tls: Option<crate::transport::tls::Certified>,
}

/// Which conversation a message belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Conversation {
    /// A Streamable HTTP session, by its `Mcp-Session-Id`.
    Session(String),
    /// An HTTP+SSE client, by the path and query of its endpoint URI.
    Endpoint(String),
    /// Whatever names no session.
    Sessionless,
}

impl std::fmt::Display for Conversation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Conversation::Session(id) => write!(f, "session {id}"),
            Conversation::Endpoint(uri) => write!(f, "HTTP+SSE endpoint {uri}"),
            Conversation::Sessionless => f.write_str("no session"),
        }
    }
}

/// What the observer is told.
#[derive(Debug, PartialEq)]
pub enum Observed {
    /// The proxy is listening there.
    Listening(SocketAddr),
    /// A frame, a frame over the bound, in one conversation.
    Seen(Conversation, Seen),
    /// The client ended a session (a DELETE the upstream accepted).
    Ended(Conversation),
    /// Something the proxy did or met that is no frame: an endpoint URI
    /// rewritten, an upstream that could not be reached.
    Note(String),
}

/// The state every request shares.
struct App {
    client: reqwest::Client,
    upstream: Url,
    /// `http://ADDR` of the listener, for a rewritten endpoint URI.
    own_origin: String,
    max_frame: usize,
    tx: mpsc::Sender<Observed>,
    /// Path and query of every HTTP+SSE endpoint URI seen, so a POST there
    /// is put in its stream's conversation.
    endpoints: Mutex<HashSet<String>>,
    start: Instant,
}

impl App {
    fn t(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    async fn tell(&self, observed: Observed) {
        // The observer gone means the proxy is ending; forwarding goes on.
        let _ = self.tx.send(observed).await;
    }
}

/// Listens on `options.listen` and proxies to `options.upstream` until
/// SIGINT or SIGTERM; `observe` is called on this thread with everything seen,
/// in order per conversation. Open streams are cut at the end (an SSE stream
/// may never end by itself).
///
/// # Errors
/// The runtime cannot start, the address cannot be bound, or serving fails.
pub fn http(options: &HttpOptions, mut observe: impl FnMut(Observed)) -> Result<(), String> {
    // A redirect is the upstream's answer, for the client to see: the one
    // builder follows none.
    let client = crate::transport::http::builder(&options.reach)
        .no_proxy()
        .tcp_nodelay(true)
        .connect_timeout(Duration::from_secs(10))
        .build()
        .map_err(|e| format!("HTTP client: {e}"))?;
    // Bounded: a side that floods faster than its messages are judged is
    // slowed to the judge's pace rather than held in memory.
    let (tx, mut rx) = mpsc::channel(256);
    let options = options.clone();
    let server = thread::spawn(move || -> Result<(), String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("tokio runtime: {e}"))?;
        runtime.block_on(async move {
            let listener = TcpListener::bind(options.listen)
                .await
                .map_err(|e| format!("--listen {}: {e}", options.listen))?;
            let addr = listener
                .local_addr()
                .map_err(|e| format!("--listen {}: {e}", options.listen))?;
            let app = Arc::new(App {
                client,
                upstream: options.upstream,
                own_origin: format!(
                    "{}://{addr}",
                    if options.tls.is_some() {
                        "https"
                    } else {
                        "http"
                    }
                ),
                max_frame: options.max_frame,
                tx: tx.clone(),
                endpoints: Mutex::default(),
                start: Instant::now(),
            });
            // Installed before the address is told, so a signal sent as
            // soon as it is read ends the proxy with its report.
            let stop = crate::interrupt::sigint_or_sigterm()?;
            let _ = tx.send(Observed::Listening(addr)).await;
            drop(tx);
            let router = Router::new().fallback(forward).with_state(app);
            let served = async move {
                match &options.tls {
                    Some(certified) => {
                        let listener = crate::transport::tls::TlsListener::new(listener, certified)
                            .map_err(|e| format!("--listen {}: {e}", options.listen))?;
                        axum::serve(listener, router).await
                    }
                    // Without TCP_NODELAY a streamed answer (its head, then
                    // its body, written apart) waits on Nagle's algorithm
                    // for the client's delayed ACK: hundreds of µs a round
                    // trip on loopback.
                    None => {
                        let listener = listener.tap_io(|tcp| {
                            let _ = tcp.set_nodelay(true);
                        });
                        axum::serve(listener, router).await
                    }
                }
                .map_err(|e| format!("serving: {e}"))
            };
            tokio::select! {
                served = served => served,
                () = stop => Ok(()),
            }
        })
        // The runtime is dropped here, and with it every connection's task
        // and its sender: the observer's loop below ends.
    });
    while let Some(observed) = rx.blocking_recv() {
        observe(observed);
    }
    server
        .join()
        .map_err(|_| "the proxy's server thread panicked".to_owned())?
}

/// Hop-by-hop headers, which a proxy does not forward (RFC 9110 §7.6.1: "a
/// proxy or gateway MUST ... remove any header or trailer field ... listed in
/// Connection", and the fields it names as hop-by-hop), plus `Host`, which
/// names the upstream on the way there.
fn hop_by_hop(headers: &HeaderMap) -> HashSet<HeaderName> {
    let mut names: HashSet<HeaderName> = [
        header::CONNECTION,
        HeaderName::from_static("keep-alive"),
        HeaderName::from_static("proxy-connection"),
        header::PROXY_AUTHENTICATE,
        header::PROXY_AUTHORIZATION,
        header::TE,
        header::TRAILER,
        header::TRANSFER_ENCODING,
        header::UPGRADE,
    ]
    .into_iter()
    .collect();
    for value in headers.get_all(header::CONNECTION) {
        for name in value.to_str().unwrap_or_default().split(',') {
            if let Ok(name) = HeaderName::try_from(name.trim()) {
                names.insert(name);
            }
        }
    }
    names
}

/// `headers` less the hop-by-hop ones and `also`.
fn end_to_end(headers: &HeaderMap, also: &[HeaderName]) -> HeaderMap {
    let skip = hop_by_hop(headers);
    let mut out = HeaderMap::with_capacity(headers.len());
    for (name, value) in headers {
        if !skip.contains(name) && !also.contains(name) {
            out.append(name.clone(), value.clone());
        }
    }
    out
}

/// The upstream URL for a request's path and query: the upstream's origin,
/// the request's own path and query.
fn upstream_url(upstream: &Url, path_and_query: &str) -> Url {
    let mut url = upstream.clone();
    let (path, query) = path_and_query
        .split_once('?')
        .map_or((path_and_query, None), |(p, q)| (p, Some(q)));
    url.set_path(path);
    url.set_query(query);
    url
}

/// A `text/plain` answer made by the proxy itself.
fn own_answer(status: StatusCode, text: String) -> Response {
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        )],
        text,
    )
        .into_response()
}

/// A request's body: whole when it is at most the bound, else what was read
/// and the rest still to stream.
enum RequestBody {
    Whole(Bytes),
    Long {
        read: Vec<u8>,
        rest: axum::body::BodyDataStream,
    },
}

async fn read_body(body: Body, max: usize) -> Result<RequestBody, axum::Error> {
    let mut stream = body.into_data_stream();
    let mut read = Vec::new();
    while let Some(chunk) = stream.next().await {
        read.extend_from_slice(&chunk?);
        if read.len() > max {
            return Ok(RequestBody::Long { read, rest: stream });
        }
    }
    Ok(RequestBody::Whole(Bytes::from(read)))
}

/// Every request, whatever its method and path.
async fn forward(State(app): State<Arc<App>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let path_and_query = parts
        .uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    let url = upstream_url(&app.upstream, &path_and_query);
    let known = if lock(&app.endpoints).contains(&path_and_query) {
        Some(Conversation::Endpoint(path_and_query.clone()))
    } else {
        parts
            .headers
            .get(SESSION)
            .and_then(|v| v.to_str().ok())
            .map(|id| Conversation::Session(id.to_owned()))
    };
    let body = match read_body(body, app.max_frame).await {
        Ok(b) => b,
        Err(e) => {
            return own_answer(
                StatusCode::BAD_REQUEST,
                format!("wirecheck proxy: reading the request body: {e}\n"),
            )
        }
    };
    let t = app.t();
    let sent = match &body {
        RequestBody::Whole(bytes) if bytes.is_empty() => None,
        RequestBody::Whole(bytes) => Some(Seen::Frame {
            from: Direction::ClientToServer,
            bytes: bytes.to_vec(),
            t,
        }),
        RequestBody::Long { read, .. } => Some(Seen::TooLong {
            from: Direction::ClientToServer,
            len: parts
                .headers
                .get(header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok()?.parse().ok())
                .unwrap_or(read.len()),
            t,
        }),
    };
    // Judged before it is sent on when its conversation is known, so the
    // judge sees it before any answer on another stream (an HTTP+SSE answer,
    // a GET stream's request).
    let mut sent = match (known.clone(), sent) {
        (Some(c), Some(seen)) => {
            app.tell(Observed::Seen(c, seen)).await;
            None
        }
        (_, sent) => sent,
    };
    // A whole body is sent with its length (reqwest sets it); a long one
    // streams under the client's own Content-Length, when it gave one.
    let (also, upstream_body) = match body {
        RequestBody::Whole(bytes) if bytes.is_empty() => (vec![header::HOST], None),
        RequestBody::Whole(bytes) => (
            vec![header::HOST, header::CONTENT_LENGTH],
            Some(reqwest::Body::from(bytes)),
        ),
        RequestBody::Long { read, rest } => (
            vec![header::HOST],
            Some(reqwest::Body::wrap_stream(
                stream::once(async move { Ok(Bytes::from(read)) }).chain(rest),
            )),
        ),
    };
    let mut outgoing = app
        .client
        .request(parts.method.clone(), url.clone())
        .headers(end_to_end(&parts.headers, &also));
    if let Some(b) = upstream_body {
        outgoing = outgoing.body(b);
    }
    let answer = outgoing.send().await;
    let answered_session = answer.as_ref().ok().and_then(|a| {
        a.headers()
            .get(SESSION)
            .and_then(|v| v.to_str().ok())
            .map(|id| Conversation::Session(id.to_owned()))
    });
    let conversation = known
        .or(answered_session)
        .unwrap_or(Conversation::Sessionless);
    if let Some(seen) = sent.take() {
        app.tell(Observed::Seen(conversation.clone(), seen)).await;
    }
    let answer = match answer {
        Ok(a) => a,
        Err(e) => {
            let why = format!(
                "{} {url}: the upstream did not answer: {}",
                parts.method,
                error_chain(&e)
            );
            app.tell(Observed::Note(why.clone())).await;
            return own_answer(StatusCode::BAD_GATEWAY, format!("wirecheck proxy: {why}\n"));
        }
    };
    if parts.method == axum::http::Method::DELETE && answer.status().is_success() {
        app.tell(Observed::Ended(conversation.clone())).await;
    }
    let status = answer.status();
    let headers = end_to_end(answer.headers(), &[]);
    let kind = Kind::of(&headers);
    let body = Body::from_stream(judged(Arc::clone(&app), answer, kind, conversation, url));
    let mut response = Response::new(body);
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    response
}

/// How an answer's body is read for judging.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Json,
    EventStream,
    Other,
}

impl Kind {
    fn of(headers: &HeaderMap) -> Kind {
        let media = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .map(|m| m.trim().to_ascii_lowercase())
            .unwrap_or_default();
        match media.as_str() {
            "application/json" => Kind::Json,
            "text/event-stream" => Kind::EventStream,
            m if m.ends_with("+json") => Kind::Json,
            _ => Kind::Other,
        }
    }
}

/// The judging side of one answer's body, as the bytes pass.
struct Reading {
    app: Arc<App>,
    conversation: Conversation,
    kind: Kind,
    /// The answer's HTTP status.
    status: u16,
    /// A JSON body so far, up to the bound, and its whole length.
    json: Vec<u8>,
    json_len: usize,
    /// The answer's `Content-Length`: hyper stops polling a body that has
    /// sent that many bytes, so its end is seen there, not at a `None`.
    expected: Option<usize>,
    /// The JSON body has been handed over.
    json_done: bool,
    events: Splitter,
    /// The first event of an SSE stream, held until it ends (it may be the
    /// endpoint event to rewrite); `None` once it has gone through.
    held: Option<Vec<u8>>,
    url: Url,
}

/// `answer`'s body, forwarded chunk by chunk while a copy is judged.
fn judged(
    app: Arc<App>,
    answer: reqwest::Response,
    kind: Kind,
    conversation: Conversation,
    url: Url,
) -> impl Stream<Item = Result<Bytes, std::io::Error>> + Send + 'static {
    let max = app.max_frame;
    let status = answer.status().as_u16();
    let expected = answer
        .content_length()
        .and_then(|n| usize::try_from(n).ok());
    let reading = Reading {
        app,
        conversation,
        kind,
        status,
        json: Vec::new(),
        json_len: 0,
        expected,
        json_done: false,
        events: Splitter::new(max),
        held: (kind == Kind::EventStream).then(Vec::new),
        url,
    };
    stream::unfold(
        Some((answer.bytes_stream().boxed(), reading)),
        |state| async move {
            let (mut upstream, mut reading) = state?;
            loop {
                match upstream.next().await {
                    Some(Ok(chunk)) => {
                        if let Some(out) = reading.chunk(chunk).await {
                            return Some((Ok(out), Some((upstream, reading))));
                        }
                    }
                    Some(Err(e)) => {
                        let why = format!("the upstream's body broke off: {}", error_chain(&e));
                        reading.app.tell(Observed::Note(why.clone())).await;
                        return Some((Err(std::io::Error::other(why)), None));
                    }
                    None => {
                        let rest = reading.end().await;
                        return rest.map(|b| (Ok(b), None));
                    }
                }
            }
        },
    )
}

impl Reading {
    /// Judges a chunk; what to forward now (`None` while the first event
    /// is held).
    async fn chunk(&mut self, chunk: Bytes) -> Option<Bytes> {
        match self.kind {
            Kind::Other => Some(chunk),
            Kind::Json => {
                self.json_len += chunk.len();
                if self.json.len() + chunk.len() <= self.app.max_frame {
                    self.json.extend_from_slice(&chunk);
                }
                if self.expected == Some(self.json_len) {
                    self.json_body().await;
                }
                Some(chunk)
            }
            Kind::EventStream => {
                let events = self.events.feed(&chunk);
                let mut out = Some(chunk.clone());
                for event in events {
                    if let Some(mut held) = self.held.take() {
                        held.extend_from_slice(&chunk[..event.end]);
                        if event.name == "endpoint" {
                            if let Ok(data) = &event.data {
                                held = self.endpoint(held, data).await;
                            }
                        }
                        held.extend_from_slice(&chunk[event.end..]);
                        out = Some(Bytes::from(held));
                    }
                    if !event.is_message() {
                        continue;
                    }
                    let t = self.app.t();
                    let seen = match event.data {
                        Ok(data) if data.is_empty() => continue,
                        Ok(bytes) => Seen::Frame {
                            from: Direction::ServerToClient,
                            bytes,
                            t,
                        },
                        Err(len) => Seen::TooLong {
                            from: Direction::ServerToClient,
                            len,
                            t,
                        },
                    };
                    self.app
                        .tell(Observed::Seen(self.conversation.clone(), seen))
                        .await;
                }
                match self.held.as_mut() {
                    // Still inside the first event: hold it, up to the bound.
                    Some(held) if held.len() + chunk.len() <= self.app.max_frame => {
                        held.extend_from_slice(&chunk);
                        None
                    }
                    Some(_) => {
                        let mut held = self.held.take().unwrap_or_default();
                        held.extend_from_slice(&chunk);
                        Some(Bytes::from(held))
                    }
                    None => out,
                }
            }
        }
    }

    /// The endpoint event (its raw bytes `raw`, its data `uri`): its
    /// conversation is learned, and an absolute URI on the upstream's origin
    /// is pointed at the proxy.
    async fn endpoint(&mut self, raw: Vec<u8>, uri: &[u8]) -> Vec<u8> {
        let text = String::from_utf8_lossy(uri).into_owned();
        let Ok(resolved) = self.url.join(&text) else {
            self.app
                .tell(Observed::Note(format!(
                    "the endpoint event's URI {text:?} does not resolve against {}; forwarded as it is",
                    self.url
                )))
                .await;
            return raw;
        };
        if resolved.origin() != self.app.upstream.origin() {
            self.app
                .tell(Observed::Note(format!(
                    "the endpoint event names {resolved}, not on the upstream's origin: the client's POSTs will not pass through the proxy"
                )))
                .await;
            return raw;
        }
        let path_and_query = match resolved.query() {
            Some(q) => format!("{}?{q}", resolved.path()),
            None => resolved.path().to_owned(),
        };
        lock(&self.app.endpoints).insert(path_and_query.clone());
        self.conversation = Conversation::Endpoint(path_and_query.clone());
        if Url::parse(&text).is_err() {
            // Relative: it already resolves against the proxy.
            return raw;
        }
        let rewritten = format!("{}{path_and_query}", self.app.own_origin);
        self.app
            .tell(Observed::Note(format!(
                "the endpoint event names {text}, on the upstream: forwarded as {rewritten} so the client posts through the proxy (the only bytes the proxy changes; the original is what is judged and recorded)"
            )))
            .await;
        replace_once(&raw, text.as_bytes(), rewritten.as_bytes())
    }

    /// The body ended: a JSON body is judged whole if it was not yet; a
    /// first event still held goes out.
    async fn end(&mut self) -> Option<Bytes> {
        self.json_body().await;
        self.held.take().filter(|h| !h.is_empty()).map(Bytes::from)
    }

    /// A JSON body is judged once, whole (or counted, past the bound).
    async fn json_body(&mut self) {
        if self.kind == Kind::Json && self.json_len > 0 && !self.json_done {
            self.json_done = true;
            let t = self.app.t();
            let seen = if self.json_len == self.json.len() && self.status >= 400 {
                Seen::Refused {
                    bytes: std::mem::take(&mut self.json),
                    status: self.status,
                    t,
                }
            } else if self.json_len == self.json.len() {
                Seen::Frame {
                    from: Direction::ServerToClient,
                    bytes: std::mem::take(&mut self.json),
                    t,
                }
            } else {
                Seen::TooLong {
                    from: Direction::ServerToClient,
                    len: self.json_len,
                    t,
                }
            };
            self.app
                .tell(Observed::Seen(self.conversation.clone(), seen))
                .await;
        }
    }
}

/// `haystack` with the first `from` replaced by `to`.
fn replace_once(haystack: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    match haystack.windows(from.len()).position(|w| w == from) {
        Some(at) => [&haystack[..at], to, &haystack[at + from.len()..]].concat(),
        None => haystack.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hop_by_hop_headers_and_those_connection_names_are_dropped() {
        let mut h = HeaderMap::new();
        h.insert(
            header::CONNECTION,
            HeaderValue::from_static("keep-alive, x-hop"),
        );
        h.insert("x-hop", HeaderValue::from_static("1"));
        h.insert(
            header::TRANSFER_ENCODING,
            HeaderValue::from_static("chunked"),
        );
        h.insert(SESSION, HeaderValue::from_static("abc"));
        h.append("x-many", HeaderValue::from_static("1"));
        h.append("x-many", HeaderValue::from_static("2"));
        h.insert(header::HOST, HeaderValue::from_static("proxy"));
        let out = end_to_end(&h, &[header::HOST]);
        let names: Vec<&str> = out.keys().map(HeaderName::as_str).collect();
        assert_eq!(names, [SESSION, "x-many"]);
        assert_eq!(out.get_all("x-many").iter().count(), 2);
    }

    #[test]
    fn the_request_keeps_its_path_and_query_on_the_upstream_origin() {
        let up = Url::parse("http://127.0.0.1:9/base").unwrap();
        assert_eq!(
            upstream_url(&up, "/messages?sessionId=a%20b").as_str(),
            "http://127.0.0.1:9/messages?sessionId=a%20b"
        );
        assert_eq!(upstream_url(&up, "/mcp").as_str(), "http://127.0.0.1:9/mcp");
    }

    #[test]
    fn only_the_uri_is_replaced_in_the_endpoint_event() {
        let raw = b"event: endpoint\ndata: http://127.0.0.1:9/m?s=1\n\n";
        assert_eq!(
            replace_once(
                raw,
                b"http://127.0.0.1:9/m?s=1",
                b"http://127.0.0.1:5/m?s=1"
            ),
            b"event: endpoint\ndata: http://127.0.0.1:5/m?s=1\n\n"
        );
    }

    #[test]
    fn media_types_decide_what_is_judged() {
        let mut h = HeaderMap::new();
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("Application/JSON; charset=utf-8"),
        );
        assert_eq!(Kind::of(&h), Kind::Json);
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/event-stream"),
        );
        assert_eq!(Kind::of(&h), Kind::EventStream);
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html"));
        assert_eq!(Kind::of(&h), Kind::Other);
    }
}
