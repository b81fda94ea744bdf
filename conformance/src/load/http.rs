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
use hyper::body::Bytes;
use hyper::header::HeaderValue;
use tokio::time::Instant;

use super::plan::{self, Call};
use super::{Book, Config, Findings, Ids, Shared, Stats};
use crate::sync::lock;
use crate::transport::http::pipelined::{is_response, stamp, Answer, Client, Conn, Stamp};

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
    let mut client = Client::new(
        url,
        config.limits.max_frame,
        config.bearer.as_deref(),
        &config.http,
    )
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
        client.set_header(
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
        client.join_session(&id)?;
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
            client.set_header("mcp-protocol-version", v);
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
#[expect(
    clippy::too_many_arguments,
    reason = "each a fact of the POST being judged, named at the one call"
)]
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
}
