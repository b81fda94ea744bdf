//! MCP Streamable HTTP at `/mcp`, the server side.
//!
//! Sessions (2025-03-26 to 2025-11-25 basic/transports §Session Management):
//! an `initialize` answered with a result opens one and its response carries
//! `Mcp-Session-Id`; every later request needs it (400 without: "SHOULD
//! respond … with HTTP 400 Bad Request"), an unknown or terminated one gets
//! 404 ("MUST respond to requests containing that session ID with HTTP 404"),
//! and DELETE ends it. A request whose `_meta` names its protocol version is
//! 2026-07-28's session-free shape (2026-07-28 basic/transports/streamable-http
//! §Request Metadata): its headers are checked against its body and it is
//! answered by a fresh peer, an `Mcp-Session-Id` on it ignored (§Earlier
//! Streamable HTTP Revisions, SHOULD).

use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use harness::Revision;

use super::guard::{self, refuse};
use super::judged::{self, Session};
use super::params;
use super::{fresh_id, App, MAX_SESSIONS};
use crate::peer::{Peer, Serve};
use crate::sync::lock;

/// 2026-07-28 schema `HeaderMismatchError`.
const HEADER_MISMATCH: i64 = -32020;
/// 2026-07-28 schema `UnsupportedProtocolVersionError`.
const UNSUPPORTED_VERSION: i64 = -32022;
/// 2026-07-28 schema `MissingRequiredClientCapabilityError`.
const MISSING_CAPABILITY: i64 = -32021;

/// What routing needs of a body: a guess from `serde_json` (the peer's codec
/// judges the bytes themselves).
#[derive(Debug, Default)]
struct Outline {
    json: bool,
    batch: bool,
    requests: usize,
    /// The request id's exact text, echoed in a refusal as it came.
    id: Option<String>,
    method: Option<String>,
    meta_version: Option<String>,
    /// A `_meta` lacking the required `clientCapabilities` object (basic/index §_meta).
    meta_incomplete: bool,
    name: Option<String>,
}

impl Outline {
    fn of(body: &[u8]) -> Outline {
        // A message the codec reads is outlined as the peer and the rule
        // model read it: a repeated member by its first occurrence, where
        // `serde_json` keeps the last. Routing `{"_meta":[],"_meta":{…}}` by
        // serde's `_meta` sent it down the 2026-07-28 path to a peer that saw
        // no version and answered a legacy `ping` (found by `wirecheck fuzz
        // --http --revision 2026-07-28`).
        if let Ok(harness::Frame::Single(_)) = harness::lift(body) {
            return Outline::lifted(body);
        }
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) else {
            return Outline::lifted(body);
        };
        let is_request = |v: &serde_json::Value| v.get("method").is_some() && v.get("id").is_some();
        if let serde_json::Value::Array(items) = &value {
            return Outline {
                json: true,
                batch: true,
                requests: items
                    .iter()
                    .filter(|v| is_request(v))
                    .count()
                    .max(usize::from(items.is_empty())),
                ..Outline::default()
            };
        }
        let text = |v: Option<&serde_json::Value>| v.and_then(|v| v.as_str()).map(str::to_owned);
        let params = value.get("params");
        Outline {
            json: true,
            batch: false,
            requests: usize::from(is_request(&value) || !value.is_object()),
            // An id that is no string or number (`{}`, `[]`, `true`) is no id
            // to echo: a refusal carries `null` (JSON-RPC 2.0 §5, "If there
            // was an error in detecting the id in the Request object"), not
            // the object (found by `wirecheck fuzz --http --revision
            // 2026-07-28`: a header refusal echoed `"id":{}`).
            id: exact_id(body).or_else(|| {
                value
                    .get("id")
                    .filter(|id| id.is_string() || id.is_number())
                    .map(serde_json::Value::to_string)
            }),
            method: text(value.get("method")),
            meta_version: text(
                params
                    .and_then(|p| p.get("_meta"))
                    .and_then(|m| m.get("io.modelcontextprotocol/protocolVersion")),
            ),
            meta_incomplete: params
                .and_then(|p| p.get("_meta"))
                .and_then(serde_json::Value::as_object)
                .is_some_and(|m| {
                    !m.get("io.modelcontextprotocol/clientCapabilities")
                        .is_some_and(serde_json::Value::is_object)
                }),
            name: text(params.and_then(|p| p.get("name").or_else(|| p.get("uri")))),
        }
    }
}

/// The id of a single message as the peer's codec reads it, exactly.
fn exact_id(body: &[u8]) -> Option<String> {
    match harness::lift(body).ok()? {
        harness::Frame::Single(m) => m.id().map(|id| id.raw().to_owned()),
        harness::Frame::Batch(_) => None,
    }
}

impl Outline {
    /// The outline of a body `serde_json` refuses but the peer's codec
    /// reads (a number past `f64`, `1e400`; a lone surrogate escape,
    /// `"\udfff"`): JSON all the same, so it is routed like any other, into
    /// its session. Taking it for "not JSON" handed it to a fresh peer outside
    /// the session (found by `wirecheck fuzz --http`).
    fn lifted(body: &[u8]) -> Outline {
        use harness::{Frame, Message};
        let frame = match harness::lift(body) {
            Ok(frame) => frame,
            // Not JSON at all: the peer's -32700, out of any session.
            Err(refusal) if refusal.code() == harness::codes::PARSE_ERROR => {
                return Outline::default()
            }
            // JSON that is no valid message (a duplicate member, a lone
            // surrogate in a refused element): the session's peer answers
            // it under the session's revision, as it does any invalid
            // request serde could read.
            Err(_) => {
                return Outline {
                    json: true,
                    batch: crate::lines::is_batch_text(body),
                    ..Outline::default()
                }
            }
        };
        let is_request = |m: &Message<'_>| matches!(m, Message::Request(_));
        let m = match &frame {
            Frame::Batch(items) => {
                return Outline {
                    json: true,
                    batch: true,
                    requests: items.iter().filter(|m| is_request(m)).count(),
                    ..Outline::default()
                }
            }
            Frame::Single(m) => m,
        };
        let params = m.params();
        let meta = params.and_then(|p| p.get("_meta"));
        let version = meta
            .as_ref()
            .and_then(|m| m.get("io.modelcontextprotocol/protocolVersion"));
        let named = params.and_then(|p| p.get("name").or_else(|| p.get("uri")));
        let text = |r: Option<&harness::Raw<'_>>| {
            r.and_then(harness::Raw::as_string)
                .map(std::borrow::Cow::into_owned)
        };
        Outline {
            json: true,
            batch: false,
            requests: usize::from(is_request(m)),
            id: m.id().map(|id| id.raw().to_owned()),
            method: m.method().map(std::borrow::Cow::into_owned),
            meta_version: text(version.as_ref()),
            meta_incomplete: meta.as_ref().is_some_and(|m| {
                m.kind() == harness::ValueKind::Object
                    && m.get("io.modelcontextprotocol/clientCapabilities")
                        .is_none_or(|c| c.kind() != harness::ValueKind::Object)
            }),
            name: text(named.as_ref()),
        }
    }
}

#[expect(
    clippy::result_large_err,
    reason = "the refusal is the HTTP response itself, made once and handed straight to axum; boxing it buys nothing"
)]
fn header<'h>(headers: &'h HeaderMap, name: &str) -> Result<Option<&'h str>, Response> {
    match headers.get(name) {
        None => Ok(None),
        Some(value) => value.to_str().map(Some).map_err(|_| {
            refuse(
                StatusCode::BAD_REQUEST,
                harness::codes::INVALID_REQUEST,
                &format!("Bad Request: the {name} header is not visible ASCII"),
            )
        }),
    }
}

/// [`refuse`], carrying the request's id when the body is one request whose id
/// could be read: JSON-RPC 2.0 §5 leaves the id out only "If there was an
/// error in detecting the id" (found by `wirecheck fuzz --http --revision
/// 2026-07-28`: `{"_meta":{…},"_meta":true}` is a request naming no version,
/// refused for its version header without the id it had).
fn refuse_request(outline: &Outline, status: StatusCode, code: i64, message: &str) -> Response {
    let request = outline.requests > 0 && !outline.batch;
    match outline.id.as_deref().filter(|_| request) {
        Some(id) => {
            let error = serde_json::json!({ "code": code, "message": message });
            let answer = format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{error}}}"#);
            guard::json_response(status, answer.into_bytes())
        }
        None => refuse(status, code, message),
    }
}

/// The refusal of a header that is not visible ASCII, as [`header`]'s, with
/// the request's id.
fn header_refusal(outline: &Outline, name: &str) -> Response {
    refuse_request(
        outline,
        StatusCode::BAD_REQUEST,
        harness::codes::INVALID_REQUEST,
        &format!("Bad Request: the {name} header is not visible ASCII"),
    )
}

/// POST `/mcp`: one JSON-RPC message (or, in 2025-03-26, a batch).
pub(super) async fn post(State(app): State<Arc<App>>, headers: HeaderMap, body: Body) -> Response {
    match post_checked(&app, &headers, body).await {
        Ok(response) | Err(response) => response,
    }
}

async fn post_checked(app: &App, headers: &HeaderMap, body: Body) -> Result<Response, Response> {
    guard::origin(&app.config, headers)?;
    // §Sending Messages 2: the client "MUST include an Accept header, listing
    // both application/json and text/event-stream"; without both, the server
    // could send neither answer it may choose: 406 Not Acceptable.
    if !(guard::accepts(headers, "application/json")
        && guard::accepts(headers, "text/event-stream"))
    {
        return Err(refuse(
            StatusCode::NOT_ACCEPTABLE,
            harness::codes::INVALID_REQUEST,
            "Not Acceptable: the Accept header must list application/json and text/event-stream",
        ));
    }
    guard::json_content_type(headers)?;
    let body = guard::body(headers, body, app.config.max_frame).await?;
    let outline = Outline::of(&body);
    if !outline.json {
        // "If the server cannot accept the input, it MUST return an HTTP error
        // status code (e.g., 400 Bad Request)": the peer's -32700 in the body.
        // A judged session it names judges the bytes it was sent.
        let session = header(headers, "mcp-session-id")?
            .and_then(|id| lock(&app.sessions).get(id).cloned())
            .filter(|_| app.judging.is_some());
        let t = app.judging.as_ref().and_then(judged::Judging::elapsed);
        let answer = match session {
            Some(session) => lock(&session).post(&body, true, t),
            None => Peer::new(app.config.serve).handle(&body),
        };
        return Err(frames_response(StatusCode::BAD_REQUEST, answer));
    }
    // Modern when the body names a version, or the header names 2026-07-28:
    // a dual-era server "MAY treat a request that omits the header as
    // protocol version 2025-03-26" (2026-07-28 basic/transports/
    // streamable-http §Protocol Version Header), so one that names the modern
    // revision is a modern request even when its body lacks the `_meta`
    // field (which `stateless` then refuses, as a modern-only server does).
    let modern_header = headers
        .get("mcp-protocol-version")
        .is_some_and(|v| v.as_bytes() == Revision::Mcp2026_07_28.name().as_bytes());
    let modern = (outline.meta_version.is_some() || modern_header)
        && outline.method.as_deref() != Some("initialize");
    if modern || only_2026(app) {
        return stateless(app, headers, &body, &outline);
    }
    let version = header(headers, "mcp-protocol-version")
        .map_err(|_| header_refusal(&outline, "mcp-protocol-version"))?;
    // 2025-06-18 §Protocol Version Header: "If the server receives a request
    // with an invalid or unsupported MCP-Protocol-Version, it MUST respond
    // with 400 Bad Request."
    let known = version.map(|v| {
        v.parse::<Revision>()
            .ok()
            .filter(|r| *r != Revision::JsonRpc2)
    });
    if let Some(None) = known {
        return Err(refuse_request(
            &outline,
            StatusCode::BAD_REQUEST,
            harness::codes::INVALID_REQUEST,
            &format!(
                "Bad Request: unsupported MCP-Protocol-Version `{}`",
                version.unwrap_or_default()
            ),
        ));
    }
    if outline.method.as_deref() == Some("initialize") && outline.requests == 1 {
        return Ok(initialize(app, &body));
    }
    let Some(id) = header(headers, "mcp-session-id")
        .map_err(|_| header_refusal(&outline, "mcp-session-id"))?
    else {
        return Err(refuse_request(
            &outline,
            StatusCode::BAD_REQUEST,
            harness::codes::INVALID_REQUEST,
            "Bad Request: Mcp-Session-Id header required (issued with the initialize result)",
        ));
    };
    let Some(session) = lock(&app.sessions).get(id).cloned() else {
        return Err(refuse_request(
            &outline,
            StatusCode::NOT_FOUND,
            harness::codes::INVALID_REQUEST,
            "Not Found: no such session (unknown, or terminated)",
        ));
    };
    let mut session = lock(&session);
    if let (Some(Some(sent)), Some(negotiated)) = (known, session.revision()) {
        if sent != negotiated {
            return Err(refuse_request(
                &outline,
                StatusCode::BAD_REQUEST,
                harness::codes::INVALID_REQUEST,
                &format!(
                    "Bad Request: MCP-Protocol-Version {} is not the session's {}",
                    sent.name(),
                    negotiated.name()
                ),
            ));
        }
    }
    let revision = session.revision();
    let t = app.judging.as_ref().and_then(judged::Judging::elapsed);
    let frames = session.post(&body, outline.requests > 0, t);
    drop(session);
    if frames.is_empty() {
        // §Sending Messages 4: "the server MUST return HTTP status code 202
        // Accepted with no body".
        return Ok(StatusCode::ACCEPTED.into_response());
    }
    // 2025-06-18 on, "The body of the POST request MUST be a single JSON-RPC
    // request, notification, or response": an array is input the server
    // "cannot accept", so an HTTP error status with the peer's -32600.
    let batchless = revision.is_some_and(|r| r >= Revision::Mcp2025_06_18);
    if outline.requests == 0 || (outline.batch && batchless) {
        return Err(frames_response(StatusCode::BAD_REQUEST, frames));
    }
    // 2025-11-25 §Sending Messages 6: a stream "SHOULD immediately send an SSE
    // event consisting of an event ID and an empty data field"; 2026-07-28
    // dropped resumption, and earlier revisions never asked for it.
    let prime = revision == Some(Revision::Mcp2025_11_25);
    Ok(stream_response(
        StatusCode::OK,
        frames,
        prime,
        Some((app, id)),
    ))
}

/// Whether a request naming protocol version `version` in its body is one
/// the session-free peer implements, so that its headers are worth checking
/// against its body. One it does not implement is answered by the peer with
/// the UnsupportedProtocolVersionError, whatever its headers: 2026-07-28
/// basic/versioning §Protocol Version Negotiation (MUST) asks for that error
/// for any version the server does not implement, and a header that cannot
/// carry the version (a control character, a lone surrogate, leading
/// spaces) leaves the client nothing to correct but the version; the -32020
/// of §Server Validation (also MUST) would not tell it which versions to
/// retry with. Both sentences bind here; the lead has the conflict (found by
/// `wirecheck fuzz --http --revision 2026-07-28`).
fn implements(version: &str) -> bool {
    version == Revision::Mcp2026_07_28.name()
}

/// Whether the peer serves exactly 2026-07-28, which has no sessions, so
/// every POST is checked and answered the session-free way.
fn only_2026(app: &App) -> bool {
    app.config.serve == Serve::Mcp(Revision::Mcp2026_07_28)
}

/// `initialize`: a fresh peer; a result opens a session whose id rides on
/// the response (§Session Management 1).
fn initialize(app: &App, body: &[u8]) -> Response {
    let mut session = match &app.judging {
        Some(judging) => {
            let (number, conversation) = judging.open(app.config.serve);
            Session::judged(number, conversation)
        }
        None => Session::Plain(Peer::new(app.config.serve)),
    };
    let t = app.judging.as_ref().and_then(judged::Judging::elapsed);
    let frames = session.post(body, true, t);
    let succeeded = frames.len() == 1
        && serde_json::from_slice::<serde_json::Value>(&frames[0])
            .is_ok_and(|v| v.get("result").is_some());
    if !succeeded {
        // No session opened; a judged one's records are kept all the same.
        if let (Some(judging), Session::Judged(j)) = (&app.judging, session) {
            judging.ended(*j, false);
        }
        return frames_response(StatusCode::OK, frames);
    }
    let id = fresh_id();
    {
        let mut sessions = lock(&app.sessions);
        if sessions.len() >= MAX_SESSIONS {
            return refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                harness::codes::INTERNAL_ERROR,
                "Service Unavailable: too many live sessions",
            );
        }
        sessions.insert(id.clone(), Arc::new(Mutex::new(session)));
    }
    let mut response = frames_response(StatusCode::OK, frames);
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert("mcp-session-id", value);
    }
    response
}

/// A 2026-07-28 request: headers checked against the body (§Server
/// Validation: "Servers that process the request body MUST reject requests
/// where the values specified in the headers do not match the corresponding
/// values in the request body", with 400 and -32020), then a fresh peer.
#[expect(
    clippy::result_large_err,
    reason = "the refusal is the HTTP response itself, made once and handed straight to axum; boxing it buys nothing"
)]
fn stateless(
    app: &App,
    headers: &HeaderMap,
    body: &[u8],
    outline: &Outline,
) -> Result<Response, Response> {
    let mismatch = |why: String| {
        let mut error = serde_json::json!({ "code": HEADER_MISMATCH, "message": format!("Header mismatch: {why}") });
        // "A server that supports only modern versions SHOULD name the
        // protocol versions it supports in any error it returns to an
        // `initialize` request, on any transport" (2026-07-28
        // basic/versioning §Backward Compatibility): a legacy client has no
        // other way to learn them.
        if outline.method.as_deref() == Some("initialize") {
            let modern = Revision::Mcp2026_07_28.name();
            error["message"] =
                format!("Header mismatch: {why} (this server speaks only MCP {modern})").into();
            error["data"] = serde_json::json!({ "supported": [modern] });
        }
        // The id spliced in as its exact text (`1e400`, `9007199254740993`
        // survive), which a `serde_json::Value` would not keep.
        let id = outline.id.as_deref().unwrap_or("null");
        let answer = format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{error}}}"#);
        guard::json_response(StatusCode::BAD_REQUEST, answer.into_bytes())
    };
    if let Some(judging) = &app.judging {
        let request = (outline.requests > 0 && !outline.batch)
            .then(|| {
                outline
                    .method
                    .as_deref()
                    .map(|m| (m, outline.name.as_deref()))
            })
            .flatten();
        lock(&judging.headers).see(headers, request);
    }
    // §Server Validation: "A header value contains invalid characters" is a
    // validation failure like a missing or different one: -32020 with the
    // request's id, not a bare -32600 without one.
    let mirrored = |name: &str| {
        headers.get(name).map(|value| {
            value.to_str().map_err(|_| {
                mismatch(format!(
                    "the {name} header contains characters outside visible ASCII"
                ))
            })
        })
    };
    let meta = outline.meta_version.as_deref().unwrap_or_default();
    // A body naming no version at all (a legacy client's `initialize`) is
    // still refused for its headers (2026-07-28 basic/versioning, the
    // Legacy-client row: "rejected per server validation with `400`").
    let checked = outline.meta_version.as_deref().is_none_or(implements);
    if checked {
        match mirrored("mcp-protocol-version").transpose()? {
            None => {
                return Err(mismatch(
                    "the MCP-Protocol-Version header is missing".into(),
                ))
            }
            Some(sent) if sent != meta => {
                return Err(mismatch(format!(
                    "MCP-Protocol-Version header value '{sent}' does not match body value '{meta}'"
                )))
            }
            Some(_) => {}
        }
    }
    if outline.requests > 0 && checked {
        let method = outline.method.as_deref().unwrap_or_default();
        match mirrored("mcp-method").transpose()? {
            None => return Err(mismatch("the Mcp-Method header is missing".into())),
            Some(sent) if sent != method => {
                return Err(mismatch(format!(
                    "Mcp-Method header value '{sent}' does not match body value '{method}'"
                )))
            }
            Some(_) => {}
        }
        if matches!(method, "tools/call" | "resources/read" | "prompts/get") {
            let name = outline.name.as_deref().unwrap_or_default();
            match mirrored("mcp-name")
                .transpose()?
                .map(|v| params::decode_sentinel(v, "Mcp-Name"))
            {
                None => return Err(mismatch("the Mcp-Name header is missing".into())),
                Some(Err(why)) => return Err(mismatch(why)),
                Some(Ok(sent)) if sent != name => {
                    return Err(mismatch(format!(
                        "Mcp-Name header value '{sent}' does not match body value '{name}'"
                    )))
                }
                Some(Ok(_)) => {}
            }
        }
        params::check(headers, body).map_err(mismatch)?;
    }
    let frames = match &app.judging {
        Some(judging) => judging.session_free(app.config.serve, body),
        None => Peer::new(app.config.serve).handle(body),
    };
    if frames.is_empty() {
        return Ok(StatusCode::ACCEPTED.into_response());
    }
    // §Protocol Version Header: an unimplemented version "MUST respond with
    // 400 Bad Request and an UnsupportedProtocolVersionError"; an unimplemented
    // method "MUST respond with 404 Not Found and a JSON-RPC error with code
    // -32601".
    // basic/index §_meta: a request missing a required `_meta` field gets
    // -32602 and, "On HTTP, the response status MUST be `400 Bad Request`";
    // so does a MissingRequiredClientCapabilityError (-32021).
    let status = match frames.last().and_then(|f| error_code(f)) {
        Some(UNSUPPORTED_VERSION | HEADER_MISMATCH | MISSING_CAPABILITY) => StatusCode::BAD_REQUEST,
        Some(harness::codes::INVALID_PARAMS) if outline.meta_incomplete => StatusCode::BAD_REQUEST,
        Some(harness::codes::METHOD_NOT_FOUND) => StatusCode::NOT_FOUND,
        _ => StatusCode::OK,
    };
    Ok(frames_response(status, frames))
}

fn error_code(frame: &[u8]) -> Option<i64> {
    serde_json::from_slice::<serde_json::Value>(frame)
        .ok()?
        .pointer("/error/code")?
        .as_i64()
}

/// One frame as an `application/json` body; several (notifications such as
/// progress, then the answer) as an SSE stream of `message` events, which
/// ends after the answer (§Sending Messages 6: "After the JSON-RPC response
/// has been sent, the server SHOULD terminate the SSE stream").
pub(super) fn frames_response(status: StatusCode, frames: Vec<Vec<u8>>) -> Response {
    stream_response(status, frames, false, None)
}

/// [`frames_response`], with the SSE stream opened by a priming event (an id
/// unique within the session) when `prime`. axum writes no `data:` line for
/// empty data, so the event is `id:` alone: the SSE standard still records it
/// as the last event id, which is what priming is for. Within a session
/// (`session`: the app and the session id) every event carries an id from
/// the session's [`resume::Log`], kept for replay.
fn stream_response(
    status: StatusCode,
    mut frames: Vec<Vec<u8>>,
    prime: bool,
    session: Option<(&App, &str)>,
) -> Response {
    if frames.len() == 1 {
        return guard::json_response(status, frames.remove(0));
    }
    let mut streams = session.map(|(app, _)| lock(&app.streams));
    let mut log = streams
        .as_mut()
        .zip(session)
        .map(|(streams, (_, id))| streams.entry(id.to_owned()).or_default());
    let stream = log.as_mut().map(|log| log.open());
    let mut id_for = |data: &str| match (log.as_mut(), stream) {
        (Some(log), Some(stream)) => log.event(stream, data),
        _ => fresh_id(),
    };
    let mut events: Vec<Result<Event, Infallible>> = Vec::new();
    if prime {
        events.push(Ok(Event::default().id(id_for("")).data("")));
    }
    for frame in &frames {
        let event = sse_event(frame);
        events.push(Ok(if session.is_some() {
            event.id(id_for(&sse_data(frame)))
        } else {
            event
        }));
    }
    drop(streams);
    let mut response = (status, Sse::new(futures_util::stream::iter(events))).into_response();
    // 2026-07-28 §Receiving Messages: "servers SHOULD include the
    // X-Accel-Buffering: no header".
    response
        .headers_mut()
        .insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

/// A frame as an SSE `message` event. The codec's frames are JSON, so UTF-8;
/// a raw CR can only be whitespace between tokens (one inside a string is not
/// JSON). SSE ends a line at a CR, so it would come back as LF; it goes as a
/// space instead, the same whitespace either way, one byte for one byte.
pub(super) fn sse_event(frame: &[u8]) -> Event {
    Event::default().event("message").data(sse_data(frame))
}

/// The `data` [`sse_event`] sends for `frame`.
fn sse_data(frame: &[u8]) -> String {
    String::from_utf8_lossy(frame).replace('\r', " ")
}

/// How many `ping` requests a fresh GET stream carries before it closes.
const GET_PINGS: usize = 2;

/// GET `/mcp` (2025-03-26 to 2025-11-25 §Listening for Messages from the
/// Server): an SSE stream for the session named. A fresh one carries
/// [`GET_PINGS`] `ping` requests (the server "MAY send JSON-RPC requests and
/// notifications on the stream", never a response) with event ids, then
/// closes with a `retry` ("The server MAY close the SSE stream at any
/// time"); with `Last-Event-ID` it replays what came after that id on that
/// id's stream, then closes (§Resumability and Redelivery). 2026-07-28 has no
/// GET stream: 405 ("HTTP GET or DELETE to the MCP endpoint: respond with
/// 405 Method Not Allowed").
pub(super) async fn get(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    if let Err(refused) = guard::origin(&app.config, &headers) {
        return refused;
    }
    if only_2026(&app) {
        return no_get_stream();
    }
    match get_stream(&app, &headers) {
        Ok(response) | Err(response) => response,
    }
}

#[expect(
    clippy::result_large_err,
    reason = "the refusal is the HTTP response itself, made once and handed straight to axum; boxing it buys nothing"
)]
fn get_stream(app: &Arc<App>, headers: &HeaderMap) -> Result<Response, Response> {
    // §Listening for Messages 2: the client "MUST include an Accept header,
    // listing text/event-stream".
    if !guard::accepts(headers, "text/event-stream") {
        return Err(refuse(
            StatusCode::NOT_ACCEPTABLE,
            harness::codes::INVALID_REQUEST,
            "Not Acceptable: the Accept header must list text/event-stream",
        ));
    }
    let Some(session) = header(headers, "mcp-session-id")? else {
        return Err(refuse(
            StatusCode::BAD_REQUEST,
            harness::codes::INVALID_REQUEST,
            "Bad Request: Mcp-Session-Id header required (issued with the initialize result)",
        ));
    };
    let Some(shared) = lock(&app.sessions).get(session).cloned() else {
        return Err(refuse(
            StatusCode::NOT_FOUND,
            harness::codes::INVALID_REQUEST,
            "Not Found: no such session (unknown, or terminated)",
        ));
    };
    let last = header(headers, "last-event-id")?;
    if last.is_none() {
        // The session's lock is let go before the stream log's is taken.
        let frames = match &mut *lock(&shared) {
            Session::Judged(judged) => Some(judged.listen()),
            Session::Plain(_) => None,
        };
        if let Some(frames) = frames {
            return Ok(listening(app, session, frames));
        }
    }
    let mut streams = lock(&app.streams);
    let log = streams.entry(session.to_owned()).or_default();
    let mut events: Vec<Result<Event, Infallible>> = Vec::new();
    if let Some(last) = last {
        // An id of no stream of this session replays nothing.
        for (id, data) in log.replay(last).unwrap_or_default() {
            events.push(Ok(Event::default().event("message").id(id).data(data)));
        }
    } else {
        let stream = log.open();
        for _ in 0..GET_PINGS {
            let ping = serde_json::json!({
                "jsonrpc": "2.0",
                "id": format!("wirecheck-get-ping-{}", fresh_id()),
                "method": "ping",
            })
            .to_string();
            let id = log.event(stream, &ping);
            events.push(Ok(Event::default().event("message").id(id).data(ping)));
        }
    }
    drop(streams);
    if let Some(Ok(last)) = events.pop() {
        events.push(Ok(last.retry(std::time::Duration::from_secs(1))));
    }
    let mut response = Sse::new(futures_util::stream::iter(events)).into_response();
    response
        .headers_mut()
        .insert("x-accel-buffering", HeaderValue::from_static("no"));
    Ok(response)
}

/// A judged session's GET stream: open until the session ends, carrying
/// what the scenarios send outside an answer ([`judged`]), each event with
/// an id from the session's log, kept for replay like any other.
fn listening(
    app: &Arc<App>,
    session: &str,
    frames: futures::channel::mpsc::UnboundedReceiver<Vec<u8>>,
) -> Response {
    let stream = lock(&app.streams)
        .entry(session.to_owned())
        .or_default()
        .open();
    let app = Arc::clone(app);
    let session = session.to_owned();
    let events = futures_util::StreamExt::map(frames, move |frame| {
        let data = sse_data(&frame);
        let id = lock(&app.streams)
            .entry(session.clone())
            .or_default()
            .event(stream, &data);
        Ok::<_, Infallible>(Event::default().event("message").id(id).data(data))
    });
    let mut response = Sse::new(events).into_response();
    response
        .headers_mut()
        .insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

/// 405 to a GET where there is no GET stream.
fn no_get_stream() -> Response {
    let mut response = refuse(
        StatusCode::METHOD_NOT_ALLOWED,
        harness::codes::INVALID_REQUEST,
        "Method Not Allowed: this server offers no GET stream",
    );
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("POST"));
    response
}

/// DELETE `/mcp`: ends the session named (§Session Management 5).
pub(super) async fn delete(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    if let Err(refused) = guard::origin(&app.config, &headers) {
        return refused;
    }
    if only_2026(&app) {
        // 2026-07-28 §Earlier Streamable HTTP Revisions: "HTTP GET or DELETE to
        // the MCP endpoint: respond with 405 Method Not Allowed" (SHOULD).
        let mut response = refuse(
            StatusCode::METHOD_NOT_ALLOWED,
            harness::codes::INVALID_REQUEST,
            "Method Not Allowed: 2026-07-28 has no sessions to end",
        );
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("POST"));
        return response;
    }
    let id = match header(&headers, "mcp-session-id") {
        Ok(Some(id)) => id,
        Ok(None) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                harness::codes::INVALID_REQUEST,
                "Bad Request: DELETE names the session to end in Mcp-Session-Id",
            )
        }
        Err(refused) => return refused,
    };
    if crate::peer::defect::planted(crate::peer::defect::StateDefect::ZombieSession)
        && lock(&app.sessions).contains_key(id)
    {
        return StatusCode::NO_CONTENT.into_response();
    }
    lock(&app.streams).remove(id);
    let removed = lock(&app.sessions).remove(id);
    if let Some(session) = removed {
        if let Some(judging) = &app.judging {
            // The client ended the conversation: judged as closed, as at the
            // end of stdio input. A handler still holding the session has
            // answered by the time the lock is had.
            let session = std::mem::replace(
                &mut *lock(&session),
                Session::Plain(Peer::new(app.config.serve)),
            );
            if let Session::Judged(j) = session {
                judging.ended(*j, true);
                judging.deleted.notify_one();
            }
        }
        StatusCode::NO_CONTENT.into_response()
    } else {
        refuse(
            StatusCode::NOT_FOUND,
            harness::codes::INVALID_REQUEST,
            "Not Found: no such session (unknown, or terminated)",
        )
    }
}
