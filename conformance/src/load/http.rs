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

use std::sync::Mutex;
use std::time::Duration;

use harness::rules::RuleId;
use harness::{Direction, Revision};
use reqwest::header::{HeaderMap, HeaderValue, ACCEPT, CONTENT_TYPE};
use tokio::time::Instant;

use super::plan::{self, Call};
use super::{Book, Config, Findings, Shared, Stats};
use crate::sync::lock;

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
}

/// One MCP session's HTTP side.
struct Client {
    http: reqwest::Client,
    /// Parsed once: a string would be parsed again by every POST.
    url: reqwest::Url,
    headers: HeaderMap,
    /// Whether `http` sends `headers` by default (under load, once the
    /// session is open), so a POST does not copy them each time.
    headers_by_default: bool,
    max: usize,
}

/// A client for `concurrency` POSTs at once, sending `headers` on each.
fn http_client(concurrency: usize, headers: HeaderMap) -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .pool_max_idle_per_host(concurrency.max(1))
        .tcp_nodelay(true)
        .default_headers(headers)
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {e}"))
}

impl Client {
    /// POSTs `body` and reads its answer until the first response, the end,
    /// the size bound or `deadline`.
    async fn post(&self, body: Vec<u8>, deadline: Instant) -> Answer {
        let mut request = self.http.post(self.url.clone());
        if !self.headers_by_default {
            request = request.headers(self.headers.clone());
        }
        let sent = request.body(body).send();
        let response = match tokio::time::timeout_at(deadline, sent).await {
            Err(_) => {
                return Answer {
                    trouble: Some("no response headers within --timeout".into()),
                    ..Answer::default()
                }
            }
            Ok(Err(e)) => {
                return Answer {
                    trouble: Some(format!("the POST failed: {}", error_chain(&e))),
                    ..Answer::default()
                }
            }
            Ok(Ok(r)) => r,
        };
        let mut answer = Answer {
            status: response.status().as_u16(),
            content_type: response
                .headers()
                .get(CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_ascii_lowercase(),
            session_id: response
                .headers()
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned),
            ..Answer::default()
        };
        let sse = answer.content_type.starts_with("text/event-stream");
        let mut response = response;
        let mut buf: Vec<u8> = Vec::new();
        loop {
            let chunk = match tokio::time::timeout_at(deadline, response.chunk()).await {
                Err(_) => {
                    answer.trouble = Some(format!(
                        "the body did not end within --timeout ({} bytes read)",
                        buf.len()
                    ));
                    return answer;
                }
                Ok(Err(e)) => {
                    answer.trouble = Some(format!("the body was cut: {}", error_chain(&e)));
                    return answer;
                }
                Ok(Ok(None)) => break,
                Ok(Ok(Some(chunk))) => chunk,
            };
            buf.extend_from_slice(&chunk);
            if buf.len() > self.max {
                answer.trouble = Some(format!(
                    "the body passed --max-frame ({} bytes) and was left unread",
                    self.max
                ));
                return answer;
            }
            if sse && events(&mut buf, &mut answer.frames) {
                // The response came: the rest of the stream is not ours to wait for.
                return answer;
            }
        }
        if sse {
            buf.extend_from_slice(b"\n\n");
            events(&mut buf, &mut answer.frames);
            if !answer.frames.iter().any(|f| is_response(f)) {
                answer.trouble = Some("the SSE stream ended without a response".into());
            }
        } else {
            let body = buf.trim_ascii();
            if !body.is_empty() {
                answer.frames.push(body.to_vec());
            }
        }
        answer
    }
}

/// Takes the whole SSE events out of `buf`, pushing each `data` as a frame;
/// true once a response is among them.
fn events(buf: &mut Vec<u8>, frames: &mut Vec<Vec<u8>>) -> bool {
    loop {
        let Some((end, sep)) = find_event_end(buf) else {
            return false;
        };
        let event: Vec<u8> = buf.drain(..end + sep).collect();
        let mut data: Vec<u8> = Vec::new();
        for line in event[..end].split(|b| *b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if let Some(rest) = line.strip_prefix(b"data:") {
                if !data.is_empty() {
                    data.push(b'\n');
                }
                data.extend_from_slice(rest.strip_prefix(b" ").unwrap_or(rest));
            }
        }
        if !data.is_empty() {
            let response = is_response(&data);
            frames.push(data);
            if response {
                return true;
            }
        }
    }
}

/// Where the first event in `buf` ends, and the blank line's length.
fn find_event_end(buf: &[u8]) -> Option<(usize, usize)> {
    let lf = buf.windows(2).position(|w| w == b"\n\n").map(|i| (i, 2));
    let crlf = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| (i, 4));
    match (lf, crlf) {
        (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
        (a, b) => a.or(b),
    }
}

fn is_response(frame: &[u8]) -> bool {
    harness::lift(frame)
        .ok()
        .is_some_and(|f| super::response_id(&f).is_some())
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        out.push_str(": ");
        out.push_str(&s.to_string());
        source = s.source();
    }
    out
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
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    // §Sending Messages to the Server 2: "MUST include an Accept header,
    // listing both application/json and text/event-stream".
    headers.insert(
        ACCEPT,
        HeaderValue::from_static("application/json, text/event-stream"),
    );
    let http = http_client(config.concurrency, HeaderMap::new())?;
    let parsed = reqwest::Url::parse(url).map_err(|e| format!("{url}: not a URL: {e}"))?;
    let mut client = Client {
        http,
        url: parsed,
        headers,
        headers_by_default: false,
        max: config.limits.max_frame,
    };
    let book = Mutex::new(Book::new(config, index, false));
    let calls = open(config, &mut client, &book, shared)
        .await
        .map_err(|why| format!("session {} at {url}: {why}", index + 1))?;
    lock(&book).load(&calls);
    // The session's headers are known now: sent by default from here on.
    client.http = http_client(config.concurrency, client.headers.clone())?;
    client.headers_by_default = true;
    let next = Mutex::new(super::Ids::new(shared.start));
    let started = Instant::now();
    let workers = (0..config.concurrency.max(1))
        .map(|_| worker(config, &client, &book, shared, &calls, &next, index));
    futures::future::join_all(workers).await;
    let mut book = book
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    book.stats.elapsed = started.elapsed();
    book.stats.interrupted |= shared.stopped();
    // §Session Management 5: a client that no longer needs the session
    // SHOULD end it with DELETE. Best effort: its answer is not judged here.
    let _ = tokio::time::timeout(
        config.timeout,
        client
            .http
            .delete(client.url.clone())
            .headers(client.headers.clone())
            .send(),
    )
    .await;
    Ok(book.finish())
}

/// The handshake and the discovery, one POST at a time; returns the mix.
async fn open(
    config: &Config,
    client: &mut Client,
    book: &Mutex<Book>,
    shared: &Shared,
) -> Result<Vec<Call>, String> {
    let init = super::initialize(config.revision);
    let answer = ask(config, client, book, shared, (0, "initialize", &init)).await?;
    let result = super::handshake_result(&answer.0)?;
    if let Some(id) = answer.1 {
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
        .post(super::INITIALIZED.to_vec(), Instant::now() + config.timeout)
        .await;
    if let Some(why) = notified.trouble {
        return Err(format!("`notifications/initialized`: {why}"));
    }
    let capabilities = result.get("capabilities").cloned().unwrap_or_default();
    let mut listed = Vec::new();
    let index = lock(book).index;
    for (n, call) in plan::lists(&capabilities, index).iter().enumerate() {
        let id = n as u64 + 1;
        let frame = call.frame(id);
        // A list unanswered is a finding like any other, not the end of
        // the session: the capability makes the method legal, so it stays
        // in the mix, without items to get or read.
        let result = match ask(config, client, book, shared, (id, &call.method, &frame)).await {
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

/// One request of the handshake or discovery: its answer and the session
/// id the response carried.
async fn ask(
    config: &Config,
    client: &Client,
    book: &Mutex<Book>,
    shared: &Shared,
    (id, method, frame): (u64, &str, &[u8]),
) -> Result<(Vec<u8>, Option<String>), String> {
    lock(book).frame(Direction::ClientToServer, frame);
    let answer = client
        .post(frame.to_vec(), Instant::now() + config.timeout)
        .await;
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

/// One of the C POSTs in flight: sends, judges, sends again, until the
/// budget is spent.
async fn worker(
    config: &Config,
    client: &Client,
    book: &Mutex<Book>,
    shared: &Shared,
    calls: &[Call],
    next: &Mutex<super::Ids>,
    index: usize,
) {
    while shared.take() {
        let (id, n) = lock(next).take();
        let at = plan::pick(calls.len(), index, n);
        let call = &calls[at];
        let frame = call.frame(id);
        {
            let mut book = lock(book);
            book.request(id, at, &frame);
            book.stats.sent += 1;
        }
        let sent = Instant::now();
        let answer = client.post(frame.clone(), sent + config.timeout).await;
        let took = sent.elapsed();
        if shared.stopped() && answer.trouble.is_some() {
            return; // cut by Ctrl-C, not by the peer
        }
        let timed_out = judge_post(config, book, shared, (call, at), id, &frame, &answer, took);
        if timed_out {
            // MCP basic/lifecycle §Timeouts: the sender SHOULD cancel it.
            let cancel = super::cancelled(id);
            lock(book).frame(Direction::ClientToServer, &cancel);
            let _ = client.post(cancel, Instant::now() + config.timeout).await;
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

    #[test]
    fn sse_events_are_read_until_the_response() {
        let mut buf = b"event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\r\n\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n\ndata: left".to_vec();
        let mut frames = Vec::new();
        assert!(events(&mut buf, &mut frames));
        assert_eq!(frames.len(), 2, "{frames:?}");
        assert!(is_response(&frames[1]));
        assert_eq!(buf, b"data: left", "an unfinished event waits for its end");
        let mut none = b"data: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n".to_vec();
        assert!(!events(&mut none, &mut frames));
    }
}
