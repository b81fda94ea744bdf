//! `load`'s HTTP client: Streamable HTTP with many POSTs of one MCP session
//! in flight at once, each on a connection of its own, each answer read
//! until the response to the request it carried.
//!
//! MCP 2025-11-25 basic/transports §Sending Messages to the Server: a POST
//! carrying a request is answered with `application/json` ("one JSON
//! object") or `text/event-stream` (a stream that carries the response).
//! Every body is read within the request's time and up to `--max-frame`
//! bytes; a stream is left once its response came, so a stream held open
//! costs one connection, never the run. The session id, the protocol
//! version, the request metadata headers ([`standard_headers`]), the SSE
//! parser ([`Splitter`]) and the error text ([`error_chain`]) are the
//! transports'; only the connections are its own ([`conn`]), for speed.

mod conn;

use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Body as _, Bytes, Incoming};
use hyper::header::{HeaderMap, HeaderName, HeaderValue, AUTHORIZATION, CONTENT_TYPE, HOST};
use hyper::{Method, Request};
use tokio::time::{Instant, Sleep};

use harness::Revision;

use super::streamable::{post_headers, standard_headers};
use crate::transport::error::error_chain;
use crate::transport::event_stream::{Splitter, SseEvent};
pub use conn::Conn;
use conn::Endpoint;

/// What one POST brought back.
#[derive(Debug, Default)]
pub struct Answer {
    /// The response status; 0 when no response came.
    pub status: u16,
    /// The response's `Content-Type`, lowercase (empty: none).
    pub content_type: String,
    /// The `Mcp-Session-Id` the response carried.
    pub session_id: Option<String>,
    /// The JSON-RPC messages read, in order, up to and including the first
    /// response.
    pub frames: Vec<Vec<u8>>,
    /// Why the body ended without a response, if it did.
    pub trouble: Option<String>,
}

impl Answer {
    /// The status and content type, as a person reads them.
    pub fn described(&self) -> String {
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

/// One MCP session's HTTP side: its endpoint and the headers every request
/// carries. HTTP/1.1 straight on hyper, one connection per request slot
/// ([`Conn`]), as load tools do: a general client's pool, redirect and
/// proxy layers and URL handling cost about half the client's time per
/// request (conformance/book/load.md). Redirects are not followed: a 3xx
/// is an answer without a response, judged as such.
pub struct Client {
    endpoint: Endpoint,
    /// Host, Content-Type and Accept, and the bearer token with `--auth`;
    /// the session id and protocol version once the session is open.
    headers: HeaderMap,
    max: usize,
}

/// The headers one request carries besides its session's: 2026-07-28's
/// `Mcp-Method` and `Mcp-Name`; none before that revision.
pub type Stamp = Vec<(HeaderName, HeaderValue)>;

/// The request metadata headers of a request of `method` with `params`
/// under `revision` ([`standard_headers`]): none before 2026-07-28.
pub fn stamp(revision: Revision, method: &str, params: Option<&serde_json::Value>) -> Stamp {
    if revision < Revision::Mcp2026_07_28 {
        return Stamp::new();
    }
    let name = params
        .and_then(|p| p.get("name").or_else(|| p.get("uri")))
        .and_then(serde_json::Value::as_str);
    standard_headers(method, name)
}

impl Client {
    /// The client of the endpoint at `url`, with the headers every request
    /// carries from the start: the user's own (`reach`'s) among them, and
    /// TLS with `reach`'s trust over `https://`.
    pub fn new(
        url: &str,
        max: usize,
        bearer: Option<&str>,
        reach: &super::HttpOptions,
    ) -> Result<Self, String> {
        let endpoint = Endpoint::parse(url, &reach.trust)?;
        let mut headers = reach.headers.header_map();
        headers.insert(HOST, endpoint.authority.clone());
        headers.extend(post_headers());
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

    /// Sends `name: value` on every later request (the protocol version
    /// header, once known).
    pub fn set_header(&mut self, name: &'static str, value: HeaderValue) {
        self.headers.insert(name, value);
    }

    /// Joins the session the server issued at `initialize`: its id on every
    /// later request (§Session Management 2: the client "MUST include it in
    /// the `Mcp-Session-Id` header on all of its subsequent HTTP requests").
    pub fn join_session(&mut self, id: &str) -> Result<(), String> {
        let value = HeaderValue::from_str(id)
            .map_err(|_| format!("the Mcp-Session-Id {id:?} is not a header value"))?;
        self.headers.insert("mcp-session-id", value);
        Ok(())
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
    pub async fn post(
        &self,
        conn: &mut Conn,
        body: Bytes,
        stamp: &Stamp,
        deadline: Instant,
    ) -> Answer {
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
    pub async fn delete(&self, conn: &mut Conn, wait: Duration) {
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

/// Whether `frame` is one response (a success or an error, not a batch):
/// what ends the reading of a POST's answer.
pub fn is_response(frame: &[u8]) -> bool {
    use harness::ir::{Frame, Message};
    matches!(
        harness::lift(frame),
        Ok(Frame::Single(Message::Success(_) | Message::Error(_)))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
