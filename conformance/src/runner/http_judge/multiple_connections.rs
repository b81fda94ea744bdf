//! §Multiple Connections (2025-03-26 to 2025-11-25 basic/transports
//! §Streamable HTTP): what a server does across its SSE streams, one message
//! on one stream only. (The priming event that opens a POST's stream, once
//! here, is §Sending Messages to the Server's: see `sending`.)
//!
//! The broadcast probe holds two GET streams of one fresh session open at
//! once (the second asked for once the first is open) and, while they are
//! open, POSTs a `ping` whose answer may come as a
//! stream of its own: any server message seen on two of those streams was
//! broadcast. "The client MAY remain connected to multiple SSE streams
//! simultaneously" (§Multiple Connections 1), and a GET is answered with
//! `text/event-stream` or 405 (§Listening for Messages from the Server 3):
//! no other refusal of the second GET (a 409, say) is one the page allows.

use std::collections::BTreeMap;

use harness::rules::RuleId;
use harness::Revision;
use serde_json::Value;
use tokio::time::Instant;

use super::{
    answer_pings, busy, essence, handshaken, is_response, snippet, streamable, Filer, Target,
    GET_LISTEN,
};
use crate::transport::http::events::Events;
use crate::transport::http::{GetStream, OpenGet, StreamEvent, MAX_GET_EVENTS};

/// The `ping` the probe POSTs while both GET streams are open.
const PING_ID: &str = "wirecheck-broadcast-ping";

/// `mcp.http.no-broadcast`: two GET streams and a POST's, at once.
pub(super) async fn broadcast(judge: &mut Filer, revision: Revision, target: &Target<'_>) {
    let url = target.url;
    let rule = RuleId::McpHttpNoBroadcast;
    let listen = target.driver.answer_timeout.min(GET_LISTEN);
    let answer_timeout = target.driver.answer_timeout;
    let grace = target.driver.grace;
    let mut driver = match handshaken(revision, target, None).await {
        Ok(d) => d,
        Err(why) => return judge.not_observed(rule, why),
    };
    let peer = streamable(&mut driver);
    // The version header exists from 2025-06-18 on (§Protocol Version Header),
    // as the transport sends it.
    let version = peer
        .protocol_version()
        .filter(|_| revision >= Revision::Mcp2025_06_18);
    let session = peer.session_id();
    let peer = &*peer;
    // Each GET is answered within the answer timeout, as any request. The
    // second goes out once the first has its stream (its headers came), so
    // it asks while that stream is open, whichever server: sent at once, a
    // server that allows one stream (a 409 to the other) could let both
    // through its check before either was registered, and the refusal came
    // and went between runs. The `ping` goes out once both were answered, so
    // both are open when the server handles it; the streams are read for
    // `listen` from then, and until the ping's own stream has its answer
    // and the run's `--grace` has passed, if that is later (a server slowed
    // by the run's sessions makes the window longer).
    let one = peer.open_get_stream(None, answer_timeout).await;
    let two = peer.open_get_stream(None, answer_timeout).await;
    let (answered, done) = tokio::sync::watch::channel(false);
    let post = async {
        let posted = post_ping(target, url, session.as_deref(), version.as_deref()).await;
        let _ = answered.send(true);
        posted
    };
    let read = |opened: Result<OpenGet, String>| {
        let mut done = done.clone();
        async move {
            // The ping's answer, then the grace for what the server wrote
            // on a GET stream before it (nothing orders two connections).
            let answered = async {
                let _ = done.wait_for(|answered| *answered).await;
                tokio::time::sleep(grace).await;
            };
            let window = async {
                tokio::join!(tokio::time::sleep(listen), answered);
            };
            match opened {
                Ok(open) => Ok(open.read_within(window).await),
                Err(why) => Err(why),
            }
        }
    };
    let (one, two, posted) = tokio::join!(read(one), read(two), post);
    let mut streams: Vec<(String, Vec<Vec<u8>>)> = Vec::new();
    let mut notes = Vec::new();
    for (name, got) in [("GET stream 1", &one), ("GET stream 2", &two)] {
        match got {
            Ok(g) if is_sse(g) => {
                notes.push(format!("{name}: {} messages", g.events.len()));
                streams.push((name.to_owned(), datas(&g.events)));
            }
            Ok(g) => notes.push(format!("{name}: answered {} with no stream", g.status)),
            Err(why) => notes.push(format!("{name}: {why}")),
        }
    }
    match posted {
        Ok(frames) => {
            notes.push(format!("the ping's POST: {} messages", frames.len()));
            streams.push(("the ping's POST stream".into(), frames));
        }
        Err(why) => notes.push(format!("the ping's POST: {why}")),
    }
    for got in [&one, &two].into_iter().flatten() {
        answer_pings(&mut driver, got).await;
    }
    // The two GETs' exchanges, shown with the records about them.
    let gets: Vec<_> = driver
        .transport()
        .http_facts()
        .into_iter()
        .filter(|f| f.method == "GET")
        .collect();
    let (wire, _) = driver.into_parts();
    wire.close(target.shutdown_grace).await;
    // The refused GET is the one the second-GET record is about.
    judge.exhibit(gets.iter().filter(|f| !(200..300).contains(&f.status)));
    if let Some(status) = second_get_refused(&one, &two) {
        second_get_refusal(judge, status);
    }
    judge.shown.clear();
    let open = streams.len();
    let seen = Seen::of(&streams);
    notes.extend(seen.unjudged.iter().take(4).cloned());
    if open < 2 {
        let why = format!(
            "fewer than two streams open at once ({}); a server without a GET stream answers 405",
            notes.join("; ")
        );
        return judge.not_observed(rule, why);
    }
    if seen.judged == 0 {
        let why = format!(
            "no server request or progress notification on any of the {open} streams in the time read ({})",
            notes.join("; ")
        );
        return judge.not_observed(rule, why);
    }
    notes.insert(
        0,
        format!(
            "{} server requests and progress notifications over {open} streams",
            seen.judged
        ),
    );
    judge.exhibit(&gets);
    judge.verdict(rule, seen.broken, notes);
}

/// Whether a GET's answer is an SSE stream.
fn is_sse(g: &GetStream) -> bool {
    essence(g.content_type.as_deref()) == "text/event-stream"
}

/// The status the server refused one of the two GETs sent at once with,
/// when the other got a stream and the refusal is neither a stream nor 405.
/// Which of the two the server serves first is its own race: either order
/// is the same finding.
fn second_get_refused(
    one: &Result<GetStream, String>,
    two: &Result<GetStream, String>,
) -> Option<u16> {
    // A busy server's 429 or 503 is no refusal of the second stream.
    let refusal = |got: &Result<GetStream, String>| match got {
        Ok(g) if !is_sse(g) && g.status != 405 && busy(g.status).is_none() => Some(g.status),
        _ => None,
    };
    let streamed = |got: &Result<GetStream, String>| got.as_ref().is_ok_and(is_sse);
    match (streamed(one), streamed(two)) {
        (true, false) => refusal(two),
        (false, true) => refusal(one),
        _ => None,
    }
}

/// The second GET refused with `status`, neither a stream nor 405, while
/// the first got a stream: mcp.http.get-stream-or-405's, filed under its own
/// vector (the GET probe files that rule's record for one stream).
fn second_get_refusal(judge: &mut Filer, status: u16) {
    judge.verdict(
        RuleId::McpHttpGetStreamOr405,
        vec![format!(
            "a second GET of the session, while the first stream was open, was answered {status}: neither an SSE stream nor 405 (§Multiple Connections 1: the client MAY hold several streams)"
        )],
        Vec::new(),
    );
    if let Some(record) = judge.records.last_mut() {
        if record.check.as_ref().map(|c| c.rule.as_str())
            == Some(RuleId::McpHttpGetStreamOr405.as_str())
        {
            record.place.vector = Some(format!(
                "run/{}/http/get-stream-or-405/second-get",
                judge.revision
            ));
        }
    }
}

/// The data of each event.
fn datas(events: &[StreamEvent]) -> Vec<Vec<u8>> {
    events.iter().map(|e| e.data.clone()).collect()
}

/// What the streams showed of one message on several of them.
#[derive(Debug, Default)]
struct Seen {
    /// Messages that say which message they are: server requests (their
    /// id) and progress notifications (token and value, which MUST increase,
    /// so a repeat is one message twice).
    judged: usize,
    broken: Vec<String>,
    /// Identical notifications of other kinds on two streams: may be two
    /// messages, so noted only.
    unjudged: Vec<String>,
}

impl Seen {
    fn of(streams: &[(String, Vec<Vec<u8>>)]) -> Seen {
        let mut seen = Seen::default();
        let mut judged: BTreeMap<String, (usize, String)> = BTreeMap::new();
        let mut other: BTreeMap<&[u8], usize> = BTreeMap::new();
        for (n, (name, frames)) in streams.iter().enumerate() {
            for frame in frames {
                let Ok(value) = serde_json::from_slice::<Value>(frame) else {
                    continue;
                };
                let Some(key) = identity(&value) else {
                    if value.get("method").is_some() {
                        if let Some(&before) = other.get(frame.as_slice()) {
                            if before != n && seen.unjudged.len() < 8 {
                                seen.unjudged.push(format!("an identical notification on {} and {name} (not judged: it may be two messages): {}", streams[before].0, snippet(frame)));
                            }
                        } else {
                            other.insert(frame, n);
                        }
                    }
                    continue;
                };
                match judged.get(&key) {
                    Some((before, first)) if *before != n => {
                        if seen.broken.len() < 8 {
                            seen.broken.push(format!(
                                "one message on {first} and {name}: {}",
                                snippet(frame)
                            ));
                        }
                    }
                    Some(_) => {}
                    None => {
                        seen.judged += 1;
                        judged.insert(key, (n, name.clone()));
                    }
                }
            }
        }
        seen
    }
}

/// What makes a server message one message: a request's id, a progress
/// notification's token and value. `None` for anything else (responses
/// included: they belong to their request's stream, another rule's).
pub(super) fn identity(value: &Value) -> Option<String> {
    let method = value.get("method")?.as_str()?;
    if let Some(id) = value.get("id") {
        return Some(format!("request {id}"));
    }
    if method == "notifications/progress" {
        let params = value.get("params")?;
        return Some(format!(
            "progress {} {}",
            params.get("progressToken")?,
            params.get("progress")?
        ));
    }
    None
}

/// POSTs a `ping` on the session and reads what comes back within the
/// answer timeout: one JSON body, or the data of each event of an SSE
/// stream until the ping's answer came or the stream ended.
async fn post_ping(
    target: &Target<'_>,
    url: &str,
    session: Option<&str>,
    version: Option<&str>,
) -> Result<Vec<Vec<u8>>, String> {
    let listen = target.driver.answer_timeout;
    let body = format!(r#"{{"jsonrpc":"2.0","id":"{PING_ID}","method":"ping"}}"#);
    let mut request = target
        .client()
        .build()
        .map_err(|e| e.to_string())?
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body);
    if let Some(id) = session {
        request = request.header("mcp-session-id", id);
    }
    if let Some(v) = version {
        request = request.header("mcp-protocol-version", v);
    }
    let deadline = Instant::now() + listen;
    let response = match tokio::time::timeout_at(deadline, request.send()).await {
        Err(_) => return Err(format!("no response headers within {listen:?}")),
        Ok(Err(e)) => return Err(e.to_string()),
        Ok(Ok(r)) => r,
    };
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    if essence(content_type.as_deref()) != "text/event-stream" {
        let status = response.status().as_u16();
        return match tokio::time::timeout_at(deadline, response.bytes()).await {
            Ok(Ok(bytes)) if !bytes.is_empty() => Ok(vec![bytes.to_vec()]),
            _ => Err(format!("answered {status} with no body read")),
        };
    }
    // The transports' bound: a stream that dispatches nothing is dropped.
    let bound = target.limits.max_frame.saturating_add(4096);
    let mut events = Events::new(Box::pin(response.bytes_stream()), bound);
    let mut frames = Vec::new();
    while frames.len() < MAX_GET_EVENTS {
        match tokio::time::timeout_at(deadline, events.next()).await {
            Ok(Some(Ok(event))) if !event.data.is_empty() => {
                let answer = is_response(event.data.as_bytes());
                frames.push(event.data.into_bytes());
                if answer {
                    break;
                }
            }
            Ok(Some(Ok(_))) => {}
            _ => break,
        }
    }
    Ok(frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn streams(of: &[(&str, &[&str])]) -> Vec<(String, Vec<Vec<u8>>)> {
        of.iter()
            .map(|(name, frames)| {
                (
                    (*name).to_owned(),
                    frames.iter().map(|f| f.as_bytes().to_vec()).collect(),
                )
            })
            .collect()
    }

    const PING_A: &str = r#"{"jsonrpc":"2.0","id":"a","method":"ping"}"#;
    const PING_B: &str = r#"{"jsonrpc":"2.0","id":"b","method":"ping"}"#;

    fn get(status: u16, content_type: &str) -> Result<GetStream, String> {
        Ok(GetStream {
            status,
            content_type: Some(content_type.into()),
            events: Vec::new(),
        })
    }

    /// Whichever of the two GETs the server served first, the other's
    /// refusal is the finding (it once was only when the first sent won,
    /// so the record came and went between runs of one server).
    #[test]
    fn a_second_get_refused_is_found_whichever_won() {
        let sse = get(200, "text/event-stream");
        let conflict = get(409, "application/json");
        assert_eq!(second_get_refused(&sse, &conflict), Some(409));
        assert_eq!(second_get_refused(&conflict, &sse), Some(409));
        // 405 is the refusal the page allows; two streams, or none, no finding.
        assert_eq!(second_get_refused(&sse, &get(405, "text/plain")), None);
        assert_eq!(second_get_refused(&sse, &sse), None);
        assert_eq!(second_get_refused(&conflict, &conflict), None);
        assert_eq!(second_get_refused(&sse, &Err("reset".into())), None);
        // A busy server's 429 or 503 refuses no stream in particular.
        assert_eq!(second_get_refused(&sse, &get(503, "text/plain")), None);
        assert_eq!(second_get_refused(&get(429, "text/plain"), &sse), None);
    }

    #[test]
    fn y_each_message_on_one_stream() {
        let seen = Seen::of(&streams(&[("one", &[PING_A]), ("two", &[PING_B])]));
        assert_eq!((seen.judged, seen.broken.len()), (2, 0));
    }

    #[test]
    fn n_a_request_on_two_streams() {
        let seen = Seen::of(&streams(&[("one", &[PING_A]), ("two", &[PING_B, PING_A])]));
        assert_eq!(seen.broken.len(), 1, "{seen:?}");
        assert!(seen.broken[0].contains("one and two"), "{seen:?}");
    }

    #[test]
    fn n_a_progress_notification_on_two_streams() {
        let p = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":5}}"#;
        let seen = Seen::of(&streams(&[("one", &[p]), ("post", &[p])]));
        assert_eq!(seen.broken.len(), 1, "{seen:?}");
    }

    #[test]
    fn i_an_identical_notification_is_noted_not_judged() {
        let n = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
        let seen = Seen::of(&streams(&[("one", &[n]), ("two", &[n])]));
        assert_eq!(
            (seen.judged, seen.broken.len(), seen.unjudged.len()),
            (0, 0, 1)
        );
    }

    #[test]
    fn a_repeat_on_one_stream_is_no_broadcast() {
        // Another rule's concern (an id reused), not this one's.
        let seen = Seen::of(&streams(&[("one", &[PING_A, PING_A]), ("two", &[])]));
        assert!(seen.broken.is_empty(), "{seen:?}");
    }
}
