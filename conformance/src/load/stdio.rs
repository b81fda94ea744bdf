//! One load session over stdio: a child process of its own, requests
//! pipelined on its input (C in flight), answers matched by id as they come.
//!
//! The child is the transport's ([`StdioPeer`]): its output is read on a
//! task of its own into a bounded queue, lines past `--max-frame` are
//! skipped, writes have a timeout, so a peer that floods, stalls or dies
//! costs this session and nothing else.

use std::collections::{HashMap, HashSet, VecDeque};
use std::time::Duration;

use harness::rules::RuleId;
use harness::Direction;
use tokio::time::Instant;

use super::plan::{self, Call};
use super::{Book, Config, Findings, Shared, Stats};
use crate::transport::stdio::{PeerCommand, StdioPeer};
use crate::transport::Event;

/// How often a session waiting for answers looks at the stop flag and the
/// clock.
const POLL: Duration = Duration::from_millis(50);

/// A request in flight.
struct Pending {
    call: usize,
    sent: Instant,
    frame: Vec<u8>,
}

/// Runs session `index` against a fresh child of `command`.
///
/// # Errors
/// The child does not start, or the handshake fails: the session could not
/// be made.
pub async fn session(
    config: &Config,
    command: &PeerCommand,
    index: usize,
    shared: &Shared,
) -> Result<(Stats, Findings), String> {
    let mut peer = StdioPeer::spawn(command, config.limits).map_err(|e| e.to_string())?;
    let mut book = Book::new(config, index, true);
    let opened = open(config, &mut peer, &mut book, shared).await;
    let calls = match opened {
        Ok(calls) => calls,
        Err(why) => {
            let ended = peer.shutdown(Duration::from_millis(500)).await;
            let stderr = String::from_utf8_lossy(&ended.stderr);
            let last: Vec<&str> = stderr.lines().rev().take(5).collect();
            return Err(format!(
                "session {}: {why}{}",
                index + 1,
                if last.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; the peer's last stderr lines: {}",
                        last.into_iter().rev().collect::<Vec<_>>().join(" | ")
                    )
                }
            ));
        }
    };
    load(config, &mut peer, &mut book, shared, &calls).await;
    let _ = peer.shutdown(Duration::from_millis(500)).await;
    Ok(book.finish())
}

/// Sends `frame` (request `id`) and waits for its answer, judging it; other
/// frames are the session judge's. For the handshake and the discovery.
async fn ask(
    config: &Config,
    peer: &mut StdioPeer,
    book: &mut Book,
    shared: &Shared,
    (id, method, frame): (u64, &str, &[u8]),
) -> Result<Vec<u8>, String> {
    book.frame(Direction::ClientToServer, frame);
    peer.send(frame)
        .await
        .map_err(|e| format!("cannot send `{method}`: {e}"))?;
    let deadline = Instant::now() + config.timeout;
    loop {
        match peer.recv(deadline).await {
            Event::Frame(bytes) => {
                book.frame(Direction::ServerToClient, &bytes);
                let answers = harness::lift(&bytes)
                    .ok()
                    .and_then(|f| super::response_id(&f))
                    .flatten()
                    == Some(id);
                if answers {
                    if book.judging() {
                        book.judge(method, id, frame, &bytes, shared);
                    }
                    return Ok(bytes);
                }
            }
            Event::TooLong { bytes_skipped } => {
                return Err(format!(
                    "the answer to `{method}` is longer than --max-frame ({bytes_skipped} bytes)"
                ))
            }
            Event::Closed { status, .. } => {
                return Err(format!(
                    "the peer closed its output before answering `{method}` (exit status {})",
                    status.map_or_else(|| "unknown".into(), |s| s.to_string())
                ))
            }
            Event::TimedOut => {
                return Err(format!(
                    "no answer to `{method}` within {:?} (--timeout)",
                    config.timeout
                ))
            }
        }
    }
}

/// The handshake and the discovery: `initialize`, `initialized`, then each
/// list the capabilities declare, once; returns the load's mix.
async fn open(
    config: &Config,
    peer: &mut StdioPeer,
    book: &mut Book,
    shared: &Shared,
) -> Result<Vec<Call>, String> {
    let (method, init) = super::opening(config.revision);
    let answer = ask(config, peer, book, shared, (0, method, &init)).await?;
    let result = super::handshake_result(method, &answer)?;
    if method == "initialize" {
        book.frame(Direction::ClientToServer, super::INITIALIZED);
        peer.send(super::INITIALIZED)
            .await
            .map_err(|e| format!("cannot send `notifications/initialized`: {e}"))?;
    }
    let capabilities = result.get("capabilities").cloned().unwrap_or_default();
    let mut listed = Vec::new();
    let lists = super::for_revision(plan::lists(&capabilities, book.index), config.revision)
        .unwrap_or_default();
    for (n, call) in lists.iter().enumerate() {
        let id = n as u64 + 1;
        let frame = call.frame(id);
        // A list unanswered is a finding like any other, not the end of
        // the session: the capability makes the method legal, so it stays
        // in the mix, without items to get or read.
        let result = match ask(config, peer, book, shared, (id, &call.method, &frame)).await {
            Ok(answer) => serde_json::from_slice::<serde_json::Value>(&answer)
                .map(|v| v["result"].clone())
                .unwrap_or_default(),
            Err(why) => {
                book.unanswered(&call.method, id, &frame, why);
                serde_json::Value::Null
            }
        };
        listed.push((call.method.clone(), result));
    }
    let mix = super::for_revision(plan::mix(&listed, &config.tools), config.revision)?;
    plan::only(mix, &config.only)
}

/// The load: C requests in flight until the budget is spent, then the last
/// answers waited for (each no longer than its own time).
async fn load(
    config: &Config,
    peer: &mut StdioPeer,
    book: &mut Book,
    shared: &Shared,
    calls: &[Call],
) {
    let mut ids = super::Ids::new(shared.start);
    let mut inflight: HashMap<u64, Pending> = HashMap::new();
    // Send order; requests answered since are skipped when met.
    let mut order: VecDeque<u64> = VecDeque::new();
    let mut expired: HashSet<u64> = HashSet::new();
    let mut sending = true;
    let started = Instant::now();
    let concurrency = config.concurrency.max(1);
    book.load(calls);
    loop {
        // The requests that fill the window go out in one write: newline-
        // delimited frames are the wire format either way, and one write per
        // frame cost a fifth of the client's time.
        let mut batch: Vec<u8> = Vec::new();
        let mut batched: Vec<u64> = Vec::new();
        while sending && inflight.len() < concurrency {
            if !shared.take() {
                sending = false;
                break;
            }
            let (id, n) = ids.take();
            let at = plan::pick(calls.len(), book.index, n);
            let frame = calls[at].frame(id);
            book.request(id, at, &frame);
            if !batch.is_empty() {
                batch.push(b'\n');
            }
            batch.extend_from_slice(&frame);
            batched.push(id);
            inflight.insert(
                id,
                Pending {
                    call: at,
                    sent: Instant::now(),
                    frame,
                },
            );
            order.push_back(id);
        }
        if !batch.is_empty() {
            match peer.send(&batch).await {
                Ok(()) => book.stats.sent += batched.len() as u64,
                Err(e) => {
                    for id in batched {
                        if let Some(p) = inflight.remove(&id) {
                            let method = &calls[p.call].method;
                            book.unanswered(method, id, &p.frame, format!("not sent: {e}"));
                        }
                    }
                    sending = false;
                }
            }
        }
        if shared.stopped() {
            book.stats.interrupted = true;
            break;
        }
        while order.front().is_some_and(|id| !inflight.contains_key(id)) {
            order.pop_front();
        }
        let Some(oldest) = order.front().and_then(|id| inflight.get(id)) else {
            if sending {
                continue;
            }
            break;
        };
        let expires = oldest.sent + config.timeout;
        let deadline = expires.min(Instant::now() + POLL);
        match peer.recv(deadline).await {
            Event::Frame(bytes) => {
                let now = Instant::now();
                // A request from the server is refused, since this client
                // serves nothing (JSON-RPC 2.0 §5: every call is answered).
                let reply = answer(
                    book,
                    shared,
                    calls,
                    &mut inflight,
                    &mut expired,
                    &ids,
                    &bytes,
                    now,
                );
                if let Some(reply) = reply {
                    book.frame(Direction::ClientToServer, &reply);
                    let _ = peer.send(&reply).await;
                }
            }
            Event::TooLong { .. } => {
                // Skipped unread, at --max-frame: a limit of this receiver
                // (RFC 8259 §9, a MAY), no fault of the sender's. The
                // request it answered runs out of time and says so.
                book.stats.too_long += 1;
            }
            Event::Closed { status, .. } => {
                let why = format!(
                    "the peer closed its output with {} request(s) in flight (exit status {})",
                    inflight.len(),
                    status.map_or_else(|| "unknown".into(), |s| s.to_string())
                );
                for (id, p) in inflight.drain() {
                    book.broke(
                        RuleId::JsonrpcResponseRequired,
                        &calls[p.call].method,
                        Some(id),
                        &p.frame,
                        &[],
                        why.clone(),
                    );
                }
                break;
            }
            Event::TimedOut => {
                let now = Instant::now();
                let late: Vec<u64> = inflight
                    .iter()
                    .filter(|(_, p)| p.sent + config.timeout <= now)
                    .map(|(id, _)| *id)
                    .collect();
                for id in late {
                    let Some(p) = inflight.remove(&id) else {
                        continue;
                    };
                    book.unanswered(
                        &calls[p.call].method,
                        id,
                        &p.frame,
                        format!(
                            "no answer within {:?} (--timeout), {} request(s) in flight",
                            config.timeout,
                            inflight.len() + 1
                        ),
                    );
                    expired.insert(id);
                    let cancel = super::cancelled(id);
                    book.frame(Direction::ClientToServer, &cancel);
                    let _ = peer.send(&cancel).await;
                }
            }
        }
    }
    book.stats.elapsed = started.elapsed();
}

/// Takes one frame from the peer: an answer to a request in flight (timed
/// and judged), a late one, a second one, or one to no request. Returns the
/// refusal to send back when the frame is a request from the server.
#[expect(
    clippy::too_many_arguments,
    reason = "each a fact of the answer being judged, named at the one call"
)]
fn answer(
    book: &mut Book,
    shared: &Shared,
    calls: &[Call],
    inflight: &mut HashMap<u64, Pending>,
    expired: &mut HashSet<u64>,
    ids: &super::Ids,
    bytes: &[u8],
    now: Instant,
) -> Option<Vec<u8>> {
    let frame = match harness::lift(bytes) {
        Ok(frame) => frame,
        Err(refusal) => {
            book.frame(Direction::ServerToClient, bytes);
            // Not JSON-RPC: it answers no request that can be named.
            if book.judging() {
                let mut f = super::judge::of_refusal(&refusal);
                f.method = "any".into();
                f.answer = bytes.to_vec();
                book.add(f, None);
            }
            return None;
        }
    };
    let Some(id) = super::response_id(&frame) else {
        book.frame(Direction::ServerToClient, bytes);
        return refusal(&frame);
    };
    let answers = id.and_then(|id| inflight.remove(&id).map(|p| (id, p)));
    if answers.is_none() {
        // Not an answer to a request in flight: the session judge's now
        // (an answer to one is fed with its request, by `answered`).
        book.frame(Direction::ServerToClient, bytes);
    }
    match answers {
        Some((id, p)) => {
            let method = (calls[p.call].method.as_str(), p.call);
            book.answered(method, id, &p.frame, (bytes, &frame), now - p.sent, shared);
        }
        // An id of the handshake or discovery (below the load's first)
        // answered now came after its time ran out there.
        None if id.is_some_and(|id| expired.remove(&id) || id < super::Ids::SPAN) => {
            book.stats.late += 1;
        }
        None if book.judging() => {
            let (rule, why) = match id {
                Some(id) if ids.issued(id) => (
                    RuleId::SessionResponseDuplicate,
                    format!("a second answer to request id {id}, already answered"),
                ),
                _ => (
                    RuleId::SessionResponseUnknownId,
                    "an answer whose id this session never sent".to_owned(),
                ),
            };
            book.broke(rule, "any", id, &[], bytes, why);
        }
        None => {}
    }
    None
}

/// The error answering a request the server sent, if `frame` is one.
fn refusal(frame: &harness::ir::Frame<'_>) -> Option<Vec<u8>> {
    let harness::ir::Frame::Single(harness::ir::Message::Request(request)) = frame else {
        return None;
    };
    Some(
        format!(
            r#"{{"jsonrpc":"2.0","id":{},"error":{{"code":-32601,"message":"wirecheck load serves no requests"}}}}"#,
            request.id.raw()
        )
        .into_bytes(),
    )
}
