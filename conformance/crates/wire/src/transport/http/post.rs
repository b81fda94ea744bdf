//! One POSTed frame and its response: the exchange Streamable HTTP and plain
//! JSON-RPC over HTTP share, with the rules where they differ.

use std::sync::Arc;

use reqwest::header::HeaderMap;
use reqwest::Client;
use tokio::time::Instant;

use super::exchange::{
    count_frame, essence, excerpt, note_event_id, read_bounded, read_sse, record, snippet,
    update_fact, Exhibit, FindingKind, Sink, StreamEnd,
};
use crate::transport::error::error_chain;
use crate::transport::Event;

/// The detail of the [`FindingKind::NoAnswer`] a POST's SSE stream gets when
/// it ends with no response: the transport judge tells it from the others.
pub const SSE_ENDED_UNANSWERED: &str = "SSE stream ended without a JSON-RPC response";

/// Which transport's rules judge the response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// MCP Streamable HTTP: JSON or SSE; 202 for notifications and responses.
    Streamable,
    /// JSON-RPC 2.0 over HTTP: JSON only; 204 or an empty 200 for notifications.
    JsonRpc,
}

/// Sees each frame before it is queued.
pub type OnFrame = Arc<dyn Fn(&[u8]) + Send + Sync>;

/// Everything one POST needs, moved onto its task.
pub struct Post {
    pub client: Client,
    pub url: String,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
    pub expected_answer: bool,
    /// Whether the body holds a JSON-RPC request ([`Outline::calls`]).
    pub holds_request: bool,
    pub max_frame: usize,
    pub deadline: Instant,
    pub flavor: Flavor,
}

/// Runs the POST and queues every frame its response carries; `on_response`
/// sees the headers first (to keep a session id) and `on_frame` each frame
/// before it is queued (to learn the negotiated version).
pub async fn run(
    post: Post,
    sink: Sink,
    on_response: impl FnOnce(&HeaderMap, u16) + Send,
    on_frame: OnFrame,
) {
    exchange(post, &sink, on_response, &*on_frame).await;
    sink.done().await;
}

async fn exchange(
    post: Post,
    sink: &Sink,
    on_response: impl FnOnce(&HeaderMap, u16),
    on_frame: &(dyn Fn(&[u8]) + Send + Sync),
) {
    let shared = &*sink.shared;
    let holds = post.holds_request;
    let exhibit = Exhibit::of_request(&post.headers, Some(&post.body));
    let sent = post
        .client
        .post(&post.url)
        .headers(post.headers)
        .body(post.body)
        .send();
    let response = match tokio::time::timeout_at(post.deadline, sent).await {
        Err(_) => {
            shared.finding(
                FindingKind::TimedOut,
                None,
                "no response headers within the request timeout",
            );
            return;
        }
        Ok(Err(e)) => {
            shared.finding(FindingKind::Connect, None, error_chain(&e));
            return;
        }
        Ok(Ok(response)) => response,
    };
    let recorded = record(
        shared,
        "POST",
        &post.url,
        exhibit,
        &response,
        post.expected_answer,
        holds,
        sink.exchange,
    );
    let (status, content_type, index) = (recorded.status, recorded.content_type, recorded.index);
    on_response(response.headers(), status);
    let media = essence(content_type.as_deref());
    let frame = |bytes: Vec<u8>| {
        on_frame(&bytes);
        count_frame(shared, index, &bytes);
        sink.event(Event::Frame(bytes));
    };
    if (300..400).contains(&status) {
        let location = response
            .headers()
            .get("location")
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .unwrap_or_default();
        shared.finding(
            FindingKind::Redirect,
            Some(status),
            format!("redirect to `{location}` not followed: a transport endpoint answers in place"),
        );
        return;
    }
    if post.flavor == Flavor::Streamable && media.as_deref() == Some("text/event-stream") {
        let mut answered = false;
        let mut previous_id = String::new();
        let end = read_sse(
            response,
            post.max_frame,
            Some(post.deadline),
            (shared, Some(index)),
            status,
            |event| {
                match event.event.as_str() {
                    "" | "message" => {}
                    other => shared.finding(
                        FindingKind::UnexpectedEventType,
                        Some(status),
                        format!("SSE event type `{other}` on a POST response stream"),
                    ),
                }
                // The parser carries the last id forward to events without
                // one (the SSE standard's lastEventId): only a change is an id
                // this event carried.
                if !event.id.is_empty() && event.id != previous_id {
                    note_event_id(shared, index, &event.id);
                }
                previous_id.clone_from(&event.id);
                // An event with an id and empty data primes a reconnect
                // (2025-11-25 §Sending Messages 6): no message in it.
                if !event.data.is_empty() {
                    answered |= is_response(event.data.as_bytes());
                    frame(event.data.into_bytes());
                }
                true
            },
        )
        .await;
        if answered {
            // Ended by the server, or still open when the request's time ran
            // out; a stream cut before that shows neither.
            let ended = match end {
                StreamEnd::Ended => Some(true),
                StreamEnd::Failed if Instant::now() >= post.deadline => Some(false),
                StreamEnd::Failed => None,
            };
            update_fact(shared, index, |f| f.ended_after_answer = ended);
        }
        if post.expected_answer && !answered {
            shared.finding(FindingKind::NoAnswer, Some(status), SSE_ENDED_UNANSWERED);
        }
        return;
    }
    let body = match read_bounded(response, post.max_frame, post.deadline).await {
        Ok(body) => body,
        Err(e) => {
            e.report(shared, status, post.max_frame);
            return;
        }
    };
    if !body.is_empty() {
        update_fact(shared, index, |f| {
            f.exhibit.response_body = Some(excerpt(&body))
        });
    }
    let success = (200..300).contains(&status);
    let json = media.as_deref() == Some("application/json");
    if !success && !json {
        shared.finding(
            FindingKind::ErrorStatus,
            Some(status),
            format!(
                "HTTP {status} with {} body: {}",
                content_type.as_deref().unwrap_or("an untyped"),
                snippet(&body)
            ),
        );
        return;
    }
    let empty = body.iter().all(u8::is_ascii_whitespace);
    if empty {
        if post.expected_answer {
            shared.finding(
                FindingKind::NoAnswer,
                Some(status),
                format!("HTTP {status} with no body to a request"),
            );
        }
        return;
    }
    if post.flavor == Flavor::Streamable && status == 202 {
        shared.finding(
            FindingKind::UnexpectedBody,
            Some(status),
            format!("202 Accepted must have no body; got {}", snippet(&body)),
        );
    }
    if !json {
        shared.finding(
            FindingKind::WrongContentType,
            Some(status),
            format!(
                "a JSON-RPC body sent as {}",
                content_type.as_deref().unwrap_or("no Content-Type")
            ),
        );
    }
    if post.flavor == Flavor::JsonRpc {
        match body.trim_ascii() {
            b"null" => {
                shared.finding(
                    FindingKind::NullBody,
                    Some(status),
                    "body `null`: not a JSON-RPC message",
                );
                return;
            }
            b"[]" => {
                shared.finding(
                    FindingKind::EmptyBatchBody,
                    Some(status),
                    "body `[]`: JSON-RPC 2.0 §6 sends nothing rather than an empty array",
                );
                return;
            }
            _ => {}
        }
    }
    frame(body);
}

/// Whether a frame holds a JSON-RPC response (or a batch with one): an object
/// with `result` or `error`. A routing guess only; the codec judges the frame.
fn is_response(frame: &[u8]) -> bool {
    let is_one = |v: &serde_json::Value| v.get("result").is_some() || v.get("error").is_some();
    match serde_json::from_slice::<serde_json::Value>(frame) {
        Ok(serde_json::Value::Array(items)) => items.iter().any(is_one),
        Ok(value) => is_one(&value),
        Err(_) => false,
    }
}

/// What the transport needs to know of a frame it sends: whether it holds a
/// request, and its method, `_meta` version and name for the headers.
#[derive(Debug, Default)]
pub struct Outline {
    /// How many answers are due: requests, and frames a server refuses with
    /// an error (not JSON, `[]`, a non-object element).
    pub requests: usize,
    /// How many JSON-RPC requests it holds (objects with a `method` and an
    /// `id`): what MCP basic/transports' "If the input contains any number of
    /// JSON-RPC requests" is about.
    pub calls: usize,
    pub method: Option<String>,
    pub meta_version: Option<String>,
    pub name: Option<String>,
}

impl Outline {
    /// A routing guess only (the codec judges the frame itself): a frame that
    /// is not JSON counts as a request, so its answer is waited for.
    pub fn of(frame: &[u8]) -> Outline {
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(frame) else {
            return Outline {
                requests: 1,
                ..Outline::default()
            };
        };
        let is_call = |v: &serde_json::Value| v.get("method").is_some() && v.get("id").is_some();
        let is_request = |v: &serde_json::Value| is_call(v) || !v.is_object();
        match &value {
            serde_json::Value::Array(items) => Outline {
                // An empty array is answered with an error (JSON-RPC 2.0 §7).
                requests: items
                    .iter()
                    .filter(|v| is_request(v))
                    .count()
                    .max(usize::from(items.is_empty())),
                calls: items.iter().filter(|v| is_call(v)).count(),
                ..Outline::default()
            },
            one => {
                let params = one.get("params");
                let text =
                    |v: Option<&serde_json::Value>| v.and_then(|v| v.as_str()).map(str::to_owned);
                Outline {
                    requests: usize::from(is_request(one)),
                    calls: usize::from(is_call(one)),
                    method: text(one.get("method")),
                    meta_version: text(
                        params
                            .and_then(|p| p.get("_meta"))
                            .and_then(|m| m.get("io.modelcontextprotocol/protocolVersion")),
                    ),
                    name: text(params.and_then(|p| p.get("name").or_else(|| p.get("uri")))),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Outline;

    #[test]
    fn a_body_holds_a_request_only_with_a_method_and_an_id() {
        let calls = |b: &[u8]| Outline::of(b).calls;
        assert_eq!(calls(br#"{"jsonrpc":"2.0","id":1,"method":"x"}"#), 1);
        assert_eq!(
            calls(br#"[{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":"a","method":"x"}]"#),
            1
        );
        for none in [
            &b"[]"[..],
            b"[1]",
            b"{",
            br#"{"jsonrpc":"2.0","method":"n"}"#,
            br#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        ] {
            assert_eq!(calls(none), 0, "{}", String::from_utf8_lossy(none));
            // An answer is still due to most of them (`[]`, `[1]`, `{`).
        }
        assert_eq!(Outline::of(b"[]").requests, 1);
    }
}
