//! One load session over Streamable HTTP: an MCP session (its
//! `Mcp-Session-Id`) with C POSTs in flight at once, each POST's answer
//! judged as the answer to the request it carried.
//!
//! MCP 2025-11-25 basic/transports §Sending Messages to the Server: a POST
//! carrying a request is answered with `application/json` ("one JSON
//! object") or `text/event-stream` (a stream that carries the response).
//! Every body is read within the request's time and up to `--max-frame`
//! bytes; a stream is left once its response came, so a stream held open
//! costs one connection, never the run.
//!
//! Under 2026-07-28 there is no MCP session: each load session opens with
//! `server/discover` (no `Mcp-Session-Id`), and every POST carries the
//! request metadata headers (basic/transports/streamable-http §Request
//! Metadata). With `--auth` every request carries the run's token.

use std::sync::Mutex;
use std::time::Duration;

use harness::rules::RuleId;
use harness::{Direction, Revision};
use http_body_util::{BodyExt, Full};
use hyper::body::{Body as _, Bytes, Incoming};
use hyper::client::conn::http1::SendRequest;
use hyper::header::{
    HeaderMap, HeaderName, HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE, HOST,
};
use hyper::{Method, Request, Response, Uri};
use tokio::time::{Instant, Sleep};

use super::plan::{self, Call};
use super::{Book, Config, Findings, Ids, Shared, Stats};
use crate::sync::lock;
use crate::transport::error::error_chain;
use crate::transport::event_stream::{Splitter, SseEvent};
use crate::transport::http::standard_headers;

/// What one POST brought back.
#[derive(Debug, Default)]
struct Answer {
    status: u16,
    content_type: String,
    session_id: Option<String>,
    /// The JSON-RPC messages read, in order, up to and including the first
    /// response.
    frames: Vec<Vec<u8>>,
    /// Why the body ended without a response, if it did.
    trouble: Option<String>,
}

impl Answer {
    /// The status and content type, as a person reads them.
    fn described(&self) -> String {
        match self.status {
            0 => "no HTTP response".to_owned(),
            status if self.content_type.is_empty() => format!("HTTP {status} (no content type)"),
            status => format!("HTTP {status} ({})", self.content_type),
        }
    }

    /// An answer that is only `why` it is none.
    fn trouble(why: String) -> Self {
        Answer {
            trouble: Some(why),
            ..Answer::default()
        }
    }
}

/// Where a session's requests go, parsed once.
#[derive(Debug)]
struct Endpoint {
    /// What a connection is made to: an IP address as written (bare for
    /// IPv6), or a name resolved at each connection.
    host: String,
    port: u16,
    /// The request target: the path and query (RFC 9112 §3.2.1, origin form).
    target: Uri,
    /// RFC 9112 §3.2: "A client MUST send a Host header field in all
    /// HTTP/1.1 request messages"; the host and any port not the default.
    authority: HeaderValue,
}

impl Endpoint {
    /// `url`, which must be `http:` (the load client speaks no TLS).
    fn parse(url: &str) -> Result<Self, String> {
        let parsed = reqwest::Url::parse(url).map_err(|e| format!("{url}: not a URL: {e}"))?;
        if parsed.scheme() != "http" {
            return Err(format!(
                "{url}: `load` speaks plain http:// only (no TLS: it loads local servers)"
            ));
        }
        let (Some(host), Some(port)) = (parsed.host_str(), parsed.port_or_known_default()) else {
            return Err(format!("{url}: no host to connect to"));
        };
        let authority = match parsed.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        };
        let target = match parsed.query() {
            Some(query) => format!("{}?{query}", parsed.path()),
            None => parsed.path().to_owned(),
        };
        // An IPv6 address is bracketed in a URL and a Host header, bare to
        // connect to.
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        Ok(Endpoint {
            host,
            port,
            target: target
                .parse()
                .map_err(|e| format!("{url}: not a request target: {e}"))?,
            authority: HeaderValue::from_str(&authority)
                .map_err(|_| format!("{url}: not a Host header value: {authority}"))?,
        })
    }
}

/// One MCP session's HTTP side: its endpoint and the headers every request
/// carries. HTTP/1.1 straight on hyper, one connection per request slot
/// ([`Conn`]), as load tools do: a general client's pool, redirect and
/// proxy layers and URL handling cost about half the client's time per
/// request (conformance/book/load.md). Redirects are not followed: a 3xx
/// is an answer without a response, judged as such.
struct Client {
    endpoint: Endpoint,
    /// Host, Content-Type and Accept, and the bearer token with `--auth`;
    /// the session id and protocol version once the session is open.
    headers: HeaderMap,
    max: usize,
}

/// The headers one request carries besides its session's: 2026-07-28's
/// `Mcp-Method` and `Mcp-Name`; none before that revision.
type Stamp = Vec<(HeaderName, HeaderValue)>;

/// The request metadata headers of a request of `method` with `params`
/// under `revision` ([`standard_headers`]): none before 2026-07-28.
fn stamp(revision: Revision, method: &str, params: Option<&serde_json::Value>) -> Stamp {
    if revision < Revision::Mcp2026_07_28 {
        return Stamp::new();
    }
    let name = params
        .and_then(|p| p.get("name").or_else(|| p.get("uri")))
        .and_then(serde_json::Value::as_str);
    standard_headers(method, name)
}

/// A request slot's connection, kept open from one of its requests to the
/// next (RFC 9112 §9.3, persistent connections) and made again when the
/// server closed it or a body was left unread.
#[derive(Default)]
struct Conn {
    sender: Option<Sender>,
    /// The task that reads and writes it.
    io: Option<Io>,
}

/// Where a connection's requests are handed to hyper.
type Sender = SendRequest<Full<Bytes>>;

/// A connection's task.
type Io = tokio::task::JoinHandle<hyper::Result<()>>;

impl Conn {
    /// Sends `request` on the kept connection, or on a new one; the
    /// response's head.
    ///
    /// A kept connection may have been closed by the server since its last
    /// answer: a request that was not written on it goes once more on a new
    /// connection, as a pooling client retries it.
    async fn send(
        &mut self,
        to: &Endpoint,
        request: Request<Full<Bytes>>,
    ) -> Result<Response<Incoming>, String> {
        let mut kept = self.sender.take();
        if let Some(sender) = &mut kept {
            if sender.ready().await.is_err() {
                kept = None; // closed while idle
            }
        }
        let reused = kept.is_some();
        let mut sender = match kept {
            Some(sender) => sender,
            None => self.connect(to).await?,
        };
        let request = match sender.try_send_request(request).await {
            Ok(response) => {
                self.sender = Some(sender);
                return Ok(response);
            }
            Err(mut e) => match e.take_message() {
                Some(unsent) if reused => unsent,
                _ => return Err(error_chain(e.error())),
            },
        };
        let mut sender = self.connect(to).await?;
        let response = sender
            .try_send_request(request)
            .await
            .map_err(|e| error_chain(e.error()))?;
        self.sender = Some(sender);
        Ok(response)
    }

    /// Closes the connection at once (a body left unread, a wait cut), as
    /// dropping a `reqwest` response did: its task, parked until the server
    /// writes again, would otherwise hold the socket open until then. The
    /// next request makes a new one.
    fn close(&mut self) {
        self.sender = None;
        if let Some(io) = self.io.take() {
            io.abort();
        }
    }

    /// A new connection to `to`, in place of the one before (closed).
    async fn connect(&mut self, to: &Endpoint) -> Result<Sender, String> {
        self.close();
        let (sender, io) = connect(to).await?;
        self.io = Some(io);
        Ok(sender)
    }
}

/// A new connection to `to`, its reading and writing run by a task of its
/// own until its [`SendRequest`] is dropped.
async fn connect(to: &Endpoint) -> Result<(Sender, Io), String> {
    let stream = tokio::net::TcpStream::connect((to.host.as_str(), to.port))
        .await
        .map_err(|e| format!("cannot connect to {}:{}: {e}", to.host, to.port))?;
    // A request is one small write: sent at once, not held for Nagle.
    stream
        .set_nodelay(true)
        .map_err(|e| format!("cannot set TCP_NODELAY: {e}"))?;
    let (sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .map_err(|e| error_chain(&e))?;
    Ok((sender, tokio::spawn(connection)))
}

impl Client {
    /// The client of the endpoint at `url`, with the headers every request
    /// carries from the start.
    fn new(url: &str, max: usize, bearer: Option<&str>) -> Result<Self, String> {
        let endpoint = Endpoint::parse(url)?;
        let mut headers = HeaderMap::new();
        headers.insert(HOST, endpoint.authority.clone());
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        // §Sending Messages to the Server 2: "MUST include an Accept header,
        // listing both application/json and text/event-stream".
        headers.insert(
            ACCEPT,
            HeaderValue::from_static("application/json, text/event-stream"),
        );
        if let Some(token) = bearer {
            // MCP basic/authorization §Token Requirements: "MUST use the
            // Authorization request header field", "included in every HTTP
            // request from client to server".
            let value = HeaderValue::from_str(&format!("Bearer {token}"))
                .map_err(|_| "the access token is not a header value".to_owned())?;
            headers.insert(AUTHORIZATION, value);
        }
        Ok(Client {
            endpoint,
            headers,
            max,
        })
    }

    /// A request to the endpoint with the session's headers and `stamp`.
    fn request(&self, method: Method, body: Bytes, stamp: &Stamp) -> Request<Full<Bytes>> {
        let mut request = Request::new(Full::new(body));
        *request.method_mut() = method;
        *request.uri_mut() = self.endpoint.target.clone();
        let mut headers = self.headers.clone();
        for (name, value) in stamp {
            headers.insert(name.clone(), value.clone());
        }
        *request.headers_mut() = headers;
        request
    }

    /// POSTs `body` with `stamp` on `conn` and reads its answer until the
    /// first response, the end, the size bound or `deadline`.
    async fn post(&self, conn: &mut Conn, body: Bytes, stamp: &Stamp, deadline: Instant) -> Answer {
        // One timer for the whole exchange: every step is bounded by the
        // same deadline.
        let timer = tokio::time::sleep_until(deadline);
        tokio::pin!(timer);
        let sent = conn.send(&self.endpoint, self.request(Method::POST, body, stamp));
        let response = tokio::select! {
            biased;
            response = sent => response,
            () = &mut timer => Err(String::new()),
        };
        let response = match response {
            Ok(response) => response,
            Err(why) => {
                conn.close();
                return Answer::trouble(if why.is_empty() {
                    "no response headers within --timeout".into()
                } else {
                    format!("the POST failed: {why}")
                });
            }
        };
        let (head, body) = response.into_parts();
        let mut answer = Answer {
            status: head.status.as_u16(),
            content_type: head
                .headers
                .get(CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_ascii_lowercase(),
            session_id: head
                .headers
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned),
            ..Answer::default()
        };
        if !self.read(body, &mut answer, timer).await {
            // Left before its end: the connection is not ready for another
            // request (reqwest dropped it the same way).
            conn.close();
        }
        answer
    }

    /// Reads `body` into `answer`'s frames; whether it was read to its end.
    async fn read(
        &self,
        mut body: Incoming,
        answer: &mut Answer,
        mut timer: std::pin::Pin<&mut Sleep>,
    ) -> bool {
        // A JSON body is kept whole; an event stream is cut into events as it
        // comes, only the bytes since the last event's end held.
        let mut events = answer
            .content_type
            .starts_with("text/event-stream")
            .then(|| Splitter::new(self.max));
        let mut buf: Vec<u8> = Vec::new();
        let mut pending = 0;
        loop {
            let frame = tokio::select! {
                biased;
                frame = body.frame() => frame,
                () = &mut timer => {
                    answer.trouble = Some(format!(
                        "the body did not end within --timeout ({} bytes read)",
                        buf.len().max(pending)
                    ));
                    return false;
                }
            };
            let chunk = match frame {
                None => break,
                Some(Err(e)) => {
                    answer.trouble = Some(format!("the body was cut: {}", error_chain(&e)));
                    return false;
                }
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(chunk) => chunk,
                    Err(_trailers) => continue,
                },
            };
            let held = match &mut events {
                None => {
                    buf.extend_from_slice(&chunk);
                    buf.len()
                }
                Some(splitter) => {
                    let cut = splitter.feed(&chunk);
                    pending = cut
                        .last()
                        .map_or(pending + chunk.len(), |e| chunk.len() - e.end);
                    if cut.iter().any(|e| e.data.is_err()) {
                        // An event's data passed the bound: the body did.
                        usize::MAX
                    } else if take(cut, &mut answer.frames) {
                        // The response came: the rest of the stream is not ours to wait for.
                        return body.is_end_stream();
                    } else {
                        pending
                    }
                }
            };
            if held > self.max {
                answer.trouble = Some(format!(
                    "the body passed --max-frame ({} bytes) and was left unread",
                    self.max
                ));
                return false;
            }
        }
        if let Some(splitter) = &mut events {
            // A stream that ended mid-event is read as if its blank line came.
            take(splitter.feed(b"\n\n"), &mut answer.frames);
            if !answer.frames.iter().any(|f| is_response(f)) {
                answer.trouble = Some("the SSE stream ended without a response".into());
            }
        } else {
            trim(&mut buf);
            if !buf.is_empty() {
                answer.frames.push(buf);
            }
        }
        true
    }

    /// §Session Management 5: a client that no longer needs the session
    /// SHOULD end it with DELETE. Best effort: its answer is not judged.
    async fn delete(&self, conn: &mut Conn, wait: Duration) {
        let request = self.request(Method::DELETE, Bytes::new(), &Stamp::new());
        let _ = tokio::time::timeout(wait, conn.send(&self.endpoint, request)).await;
    }
}

/// `buf` without the whitespace around it, in place (no copy of the frame).
fn trim(buf: &mut Vec<u8>) {
    let start = buf.len() - buf.trim_ascii_start().len();
    let kept = buf.trim_ascii().len();
    buf.truncate(start + kept);
    buf.drain(..start);
}

/// Pushes the `data` of each event that carries some as a frame; true once a
/// response is among them. An event whose data passed the bound is left out
/// ([`Client::read`] reports the body's bound passed).
fn take(events: Vec<SseEvent>, frames: &mut Vec<Vec<u8>>) -> bool {
    for event in events {
        let Ok(data) = event.data else { continue };
        if data.is_empty() {
            continue;
        }
        let response = is_response(&data);
        frames.push(data);
        if response {
            return true;
        }
    }
    false
}

fn is_response(frame: &[u8]) -> bool {
    harness::lift(frame)
        .ok()
        .is_some_and(|f| super::response_id(&f).is_some())
}

/// Runs session `index` against the endpoint at `url`.
///
/// # Errors
/// The session could not be opened (nothing listening, `initialize`
/// refused).
pub async fn session(
    config: &Config,
    url: &str,
    index: usize,
    shared: &Shared,
) -> Result<(Stats, Findings), String> {
    let mut client = Client::new(url, config.limits.max_frame, config.bearer.as_deref())
        .map_err(|why| format!("session {} at {url}: {why}", index + 1))?;
    // The handshake's connection, kept for the DELETE at the end.
    let mut conn = Conn::default();
    let book = Mutex::new(Book::new(config, index, false));
    let calls = open(config, &mut client, &mut conn, &book, shared)
        .await
        .map_err(|why| format!("session {} at {url}: {why}", index + 1))?;
    lock(&book).load(&calls);
    let stamps: Vec<Stamp> = calls
        .iter()
        .map(|c| stamp(config.revision, &c.method, c.params.as_ref()))
        .collect();
    let next = Mutex::new(Ids::new(shared.start));
    let started = Instant::now();
    let workers = (0..config.concurrency.max(1)).map(|_| {
        worker(
            config,
            &client,
            &book,
            shared,
            (&calls, &stamps),
            &next,
            index,
        )
    });
    futures::future::join_all(workers).await;
    let mut book = book
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    book.stats.elapsed = started.elapsed();
    book.stats.interrupted |= shared.stopped();
    if config.revision < Revision::Mcp2026_07_28 {
        client.delete(&mut conn, config.timeout).await;
    }
    Ok(book.finish())
}

/// The handshake and the discovery, one POST at a time; returns the mix.
async fn open(
    config: &Config,
    client: &mut Client,
    conn: &mut Conn,
    book: &Mutex<Book>,
    shared: &Shared,
) -> Result<Vec<Call>, String> {
    let (method, opening) = super::opening(config.revision);
    if config.revision >= Revision::Mcp2026_07_28 {
        // §Protocol Version Header: "Every POST request to the MCP endpoint
        // MUST include an `MCP-Protocol-Version` header", matching the
        // `_meta` version every request carries.
        client.headers.insert(
            "mcp-protocol-version",
            HeaderValue::from_static(config.revision.name()),
        );
    }
    let answer = ask(config, (client, conn), book, shared, (0, method, &opening)).await?;
    let result = super::handshake_result(method, &answer.0)?;
    if method == "initialize" {
        initialized(config, client, conn, book, answer.1, &result).await?;
    }
    let capabilities = result.get("capabilities").cloned().unwrap_or_default();
    let mut listed = Vec::new();
    let index = lock(book).index;
    let lists =
        super::for_revision(plan::lists(&capabilities, index), config.revision).unwrap_or_default();
    for (n, call) in lists.iter().enumerate() {
        let id = n as u64 + 1;
        let frame = call.frame(id);
        // A list unanswered is a finding like any other, not the end of
        // the session: the capability makes the method legal, so it stays
        // in the mix, without items to get or read.
        let asked = ask(
            config,
            (client, conn),
            book,
            shared,
            (id, &call.method, &frame),
        )
        .await;
        let result = match asked {
            Ok((answer, _)) => serde_json::from_slice::<serde_json::Value>(&answer)
                .map(|v| v["result"].clone())
                .unwrap_or_default(),
            Err(why) => {
                lock(book).unanswered(&call.method, id, &frame, why);
                serde_json::Value::Null
            }
        };
        listed.push((call.method.clone(), result));
    }
    let mix = super::for_revision(plan::mix(&listed, &config.tools), config.revision)?;
    plan::only(mix, &config.only)
}

/// The rest of a 2025-03-26 to 2025-11-25 handshake: the session id and the
/// negotiated version on every later request, then
/// `notifications/initialized`.
async fn initialized(
    config: &Config,
    client: &mut Client,
    conn: &mut Conn,
    book: &Mutex<Book>,
    session: Option<String>,
    result: &serde_json::Value,
) -> Result<(), String> {
    if let Some(id) = session {
        let value = HeaderValue::from_str(&id)
            .map_err(|_| format!("the Mcp-Session-Id {id:?} is not a header value"))?;
        client.headers.insert("mcp-session-id", value);
    }
    // §Protocol Version Header (2025-06-18 on): the negotiated version on
    // every later request.
    let negotiated = result
        .get("protocolVersion")
        .and_then(serde_json::Value::as_str)
        .unwrap_or(config.revision.name())
        .to_owned();
    if negotiated
        .parse::<Revision>()
        .is_ok_and(|r| r >= Revision::Mcp2025_06_18)
    {
        if let Ok(v) = HeaderValue::from_str(&negotiated) {
            client.headers.insert("mcp-protocol-version", v);
        }
    }
    lock(book).frame(Direction::ClientToServer, super::INITIALIZED);
    let notified = client
        .post(
            conn,
            Bytes::from_static(super::INITIALIZED),
            &Stamp::new(),
            Instant::now() + config.timeout,
        )
        .await;
    match notified.trouble {
        Some(why) => Err(format!("`notifications/initialized`: {why}")),
        None => Ok(()),
    }
}

/// One request of the handshake or discovery: its answer and the session
/// id the response carried.
async fn ask(
    config: &Config,
    (client, conn): (&Client, &mut Conn),
    book: &Mutex<Book>,
    shared: &Shared,
    (id, method, frame): (u64, &str, &[u8]),
) -> Result<(Vec<u8>, Option<String>), String> {
    lock(book).frame(Direction::ClientToServer, frame);
    // The opening and the lists: none of them a named method (`Mcp-Name` is
    // for tools/call, resources/read and prompts/get), so no params to read.
    let answer = client
        .post(
            conn,
            Bytes::copy_from_slice(frame),
            &stamp(config.revision, method, None),
            Instant::now() + config.timeout,
        )
        .await;
    if answer.status == 401 {
        // MCP basic/authorization §Error Handling: 401, "Authorization
        // required or token invalid". Not a verdict under load: the run
        // cannot be made without a token it takes.
        return Err(match config.bearer {
            None => format!(
                "`{method}` was answered HTTP 401: the server is OAuth-protected; load it with --auth (and --auth-issuer URL of the `wirecheck auth-server` it trusts)"
            ),
            Some(_) => format!("`{method}` was answered HTTP 401: the server refused --auth's token"),
        });
    }
    let mut book = lock(book);
    for f in &answer.frames {
        book.frame(Direction::ServerToClient, f);
    }
    let Some(reply) = answer.frames.iter().find(|f| is_response(f)) else {
        return Err(format!(
            "no answer to `{method}`: {}{}",
            answer.described(),
            answer.trouble.map(|t| format!(", {t}")).unwrap_or_default()
        ));
    };
    if book.judging() {
        book.judge(method, id, frame, reply, shared);
    }
    Ok((reply.clone(), answer.session_id))
}

/// One of the C POSTs in flight, on a connection of its own: sends, judges,
/// sends again, until the budget is spent.
async fn worker(
    config: &Config,
    client: &Client,
    book: &Mutex<Book>,
    shared: &Shared,
    (calls, stamps): (&[Call], &[Stamp]),
    next: &Mutex<Ids>,
    index: usize,
) {
    let mut conn = Conn::default();
    while shared.take() {
        let (id, n) = lock(next).take();
        let at = plan::pick(calls.len(), index, n);
        let call = &calls[at];
        let frame = Bytes::from(call.frame(id));
        {
            let mut book = lock(book);
            book.request(id, at, &frame);
            book.stats.sent += 1;
        }
        let sent = Instant::now();
        // The body shares the frame's bytes: no copy.
        let answer = client
            .post(&mut conn, frame.clone(), &stamps[at], sent + config.timeout)
            .await;
        let took = sent.elapsed();
        if shared.stopped() && answer.trouble.is_some() {
            return; // cut by Ctrl-C, not by the peer
        }
        let timed_out = judge_post(config, book, shared, (call, at), id, &frame, &answer, took);
        // 2026-07-28 §Cancellation: "Closing the SSE response stream MUST be
        // treated by the server as cancellation", and the POST cut at its
        // deadline closed its connection; no notification is expected.
        if timed_out && config.revision < Revision::Mcp2026_07_28 {
            // MCP basic/lifecycle §Timeouts: the sender SHOULD cancel it.
            let cancel = super::cancelled(id);
            lock(book).frame(Direction::ClientToServer, &cancel);
            let _ = client
                .post(
                    &mut conn,
                    Bytes::from(cancel),
                    &Stamp::new(),
                    Instant::now() + config.timeout,
                )
                .await;
        }
    }
}

/// Judges one POST's answer to request `id`; true when its time ran out.
#[allow(clippy::too_many_arguments)]
fn judge_post(
    config: &Config,
    book: &Mutex<Book>,
    shared: &Shared,
    (call, at): (&Call, usize),
    id: u64,
    frame: &[u8],
    answer: &Answer,
    took: Duration,
) -> bool {
    let mut book = lock(book);
    // The POST's response answers the request it carried, whatever id it
    // shows: a wrong id is the id rule's (judged with the rest). The frames
    // before it (notifications on its stream) are the session judge's
    // first; the response goes to it with its request, by `answered`; any
    // after it (none are read) would follow.
    for bytes in &answer.frames {
        let lifted = harness::lift(bytes);
        match lifted {
            Ok(reply) if super::response_id(&reply).is_some() => {
                let method = (call.method.as_str(), at);
                book.answered(method, id, frame, (bytes, &reply), took, shared);
                return false;
            }
            _ => book.frame(Direction::ServerToClient, bytes),
        }
    }
    let what = answer.described();
    match &answer.trouble {
        None if (200..300).contains(&answer.status)
            && !answer.content_type.starts_with("text/event-stream") =>
        {
            // A 2xx that carried no response: neither an SSE stream nor
            // "one JSON object" (the typescript-sdk#2433 empty 200).
            if book.judging() {
                book.broke(
                    RuleId::McpHttpRequestContentType,
                    &call.method,
                    Some(id),
                    frame,
                    answer.frames.first().map_or(&[][..], Vec::as_slice),
                    format!(
                        "the POST of request id {id} was answered {what} with no JSON-RPC response"
                    ),
                );
            }
            book.stats.unanswered += 1;
            false
        }
        trouble => {
            let why = trouble
                .clone()
                .unwrap_or_else(|| "no JSON-RPC response in the body".into());
            book.unanswered(
                &call.method,
                id,
                frame,
                format!(
                    "no answer within {:?} (--timeout): {what}, {why}",
                    config.timeout
                ),
            );
            took >= config.timeout
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::tests::config;

    /// What one POST's answer is found to break.
    fn judged(answer: &Answer, took: Duration) -> (Vec<String>, bool, Stats) {
        let config = config();
        let shared = Shared::new(&config, std::sync::Arc::default());
        let mut open = Book::new(&config, 0, false);
        // The session as `open` leaves it: the session judge has seen the
        // handshake and the request.
        open.frame(
            Direction::ClientToServer,
            &super::super::initialize(config.revision),
        );
        open.frame(
            Direction::ServerToClient,
            br#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"t","version":"0"}}}"#,
        );
        open.frame(Direction::ClientToServer, super::super::INITIALIZED);
        let call = &plan::mix(&[], &[])[0];
        let frame = call.frame(7);
        open.frame(Direction::ClientToServer, &frame);
        let book = Mutex::new(open);
        let timed_out = judge_post(&config, &book, &shared, (call, 0), 7, &frame, answer, took);
        let (stats, findings) = book.into_inner().unwrap().finish();
        let rules = findings.iter().map(|f| f.rule.to_string()).collect();
        (rules, timed_out, stats)
    }

    /// typescript-sdk#2433: a POST carrying a request answered with an
    /// empty 200 carries no answer; the transport's MUST is broken.
    #[test]
    fn an_empty_200_breaks_the_content_type_rule() {
        let empty = Answer {
            status: 200,
            content_type: "application/json".into(),
            ..Answer::default()
        };
        let (rules, timed_out, stats) = judged(&empty, Duration::from_millis(3));
        assert_eq!(rules, ["mcp.http.request-content-type"]);
        assert!(!timed_out);
        assert_eq!((stats.answered, stats.unanswered), (0, 1));
    }

    #[test]
    fn a_post_with_its_answer_is_judged_and_one_without_is_unanswered() {
        let answered = Answer {
            status: 200,
            content_type: "application/json".into(),
            frames: vec![br#"{"jsonrpc":"2.0","id":7,"result":{}}"#.to_vec()],
            ..Answer::default()
        };
        let (rules, _, stats) = judged(&answered, Duration::from_millis(3));
        assert!(rules.is_empty(), "{rules:?}");
        assert_eq!(stats.answered, 1);
        let wrong_id = Answer {
            frames: vec![br#"{"jsonrpc":"2.0","id":8,"result":{}}"#.to_vec()],
            ..answered
        };
        let (rules, _, _) = judged(&wrong_id, Duration::from_millis(3));
        assert_eq!(rules, ["mcp.base.result-response-id"]);
        let silent = Answer {
            trouble: Some("no response headers within --timeout".into()),
            ..Answer::default()
        };
        let (rules, timed_out, _) = judged(&silent, Duration::from_secs(1));
        assert_eq!(rules, [super::super::judge::UNANSWERED]);
        assert!(timed_out, "cancelled once its time ran out");
    }

    /// 2026-07-28 §Standard Request Headers: `Mcp-Method` on every
    /// request, `Mcp-Name` from `params.name` (or `params.uri` for
    /// resources/read) on the three named methods, Base64 when not plain
    /// ASCII; nothing before 2026-07-28.
    #[test]
    fn a_2026_request_is_stamped_with_its_method_and_name() {
        let shown = |revision, method, params: serde_json::Value| {
            stamp(revision, method, Some(&params))
                .into_iter()
                .map(|(n, v)| format!("{n}: {}", v.to_str().unwrap()))
                .collect::<Vec<_>>()
        };
        let modern = Revision::Mcp2026_07_28;
        assert_eq!(
            shown(
                modern,
                "resources/read",
                serde_json::json!({"uri": "file:///a"})
            ),
            ["mcp-method: resources/read", "mcp-name: file:///a"]
        );
        assert_eq!(
            shown(modern, "prompts/get", serde_json::json!({"name": "café"})),
            ["mcp-method: prompts/get", "mcp-name: =?base64?Y2Fmw6k=?="]
        );
        assert_eq!(
            shown(modern, "tools/list", serde_json::json!({"name": "x"})),
            ["mcp-method: tools/list"]
        );
        assert!(shown(
            Revision::Mcp2025_11_25,
            "prompts/get",
            serde_json::json!({"name": "a"})
        )
        .is_empty());
    }

    #[test]
    fn an_endpoint_is_parsed_once_into_what_a_request_needs() {
        let e = Endpoint::parse("http://127.0.0.1:8080/mcp?x=1").unwrap();
        assert_eq!((e.host.as_str(), e.port), ("127.0.0.1", 8080));
        assert_eq!(e.target, "/mcp?x=1");
        assert_eq!(e.authority, "127.0.0.1:8080");
        let v6 = Endpoint::parse("http://[::1]/mcp").unwrap();
        assert_eq!(
            (v6.host.as_str(), v6.port),
            ("::1", 80),
            "bare to connect to"
        );
        assert_eq!(v6.authority, "[::1]", "the default port is not named");
        assert!(Endpoint::parse("https://example.com/mcp")
            .unwrap_err()
            .contains("plain http:// only"));
        assert!(Endpoint::parse("not a url")
            .unwrap_err()
            .contains("not a URL"));
    }

    #[test]
    fn a_json_body_is_trimmed_in_place() {
        let mut body = b"\r\n {\"id\":1} \n".to_vec();
        trim(&mut body);
        assert_eq!(body, br#"{"id":1}"#);
        let mut blank = b" \n".to_vec();
        trim(&mut blank);
        assert!(blank.is_empty());
    }

    #[test]
    fn sse_events_are_read_until_the_response() {
        let stream = b"event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\r\n\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n\ndata: left";
        let mut splitter = Splitter::new(1024);
        let mut frames = Vec::new();
        assert!(take(splitter.feed(stream), &mut frames));
        assert_eq!(frames.len(), 2, "{frames:?}");
        assert!(is_response(&frames[1]));
        // An unfinished event waits for its end; an event without data is none.
        assert!(!take(splitter.feed(b"\r"), &mut frames));
        assert_eq!(frames.len(), 2);
        assert!(!take(
            splitter.feed(
                b"\r: a comment\n\nid: 1\n\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n"
            ),
            &mut frames
        ));
        assert_eq!(frames[2], b"left", "{frames:?}");
        assert_eq!(frames.len(), 4);
    }
}
