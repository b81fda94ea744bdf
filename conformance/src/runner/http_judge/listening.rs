//! §Listening for Messages from the Server (2025-03-26 to 2025-11-25
//! basic/transports §Streamable HTTP): a GET of the endpoint opens an SSE
//! stream or is answered 405, and the stream carries no response; under
//! 2026-07-28 a GET is answered 405 by a server that supports only that
//! revision (basic/transports/streamable-http §Backward Compatibility). The
//! GET stream the probe opens is then resumed (`resumability`).

use harness::rules::RuleId;
use harness::Revision;

use super::resumability::resume;
use super::{
    answer_pings, answered_ping, busy, connected, essence, handshaken, is_response, plural,
    server_frames, snippet, streamable, Filer, SessionsClosed, Target, GET_LISTEN,
};
use crate::driver::Driver;
use crate::transport::http::GetStream;
use crate::transport::wire::Wire;
use crate::transport::Transport as _;

impl Filer {
    /// The GET stream and resumption (2025-03-26 to 2025-11-25 §Listening for
    /// Messages from the Server, §Resumability and Redelivery; 2026-07-28: a
    /// GET is answered 405). A fresh session opens the GET stream and reads
    /// it for a moment, answers any `ping` on it, then resumes it with
    /// `Last-Event-ID` at its first event id.
    pub(super) async fn get_stream(
        &mut self,
        revision: Revision,
        target: &Target<'_>,
        sessions: &SessionsClosed,
    ) {
        let stream_rules = [
            RuleId::McpHttpGetStreamOr405,
            RuleId::McpHttpGetNoResponse,
            RuleId::McpHttpEventIdUnique,
            RuleId::McpHttpReplaySameStream,
        ];
        let listen = target.driver.answer_timeout.min(GET_LISTEN);
        let (mut driver, first) = match listened(revision, target, listen).await {
            Ok(opened) => opened,
            Err(why) => {
                for rule in stream_rules.into_iter().chain([RuleId::McpHttpGet405]) {
                    self.not_observed(rule, why.clone());
                }
                return;
            }
        };
        // The GET's exchange, shown with the records about it.
        let get = driver
            .transport()
            .http_facts()
            .into_iter()
            .rev()
            .find(|f| f.method == "GET");
        if revision == Revision::Mcp2026_07_28 {
            let dual = dual_era(target).await;
            match (dual, &first) {
                // "A server that supports only this revision and receives
                // such traffic from an older client SHOULD respond […] 405";
                // one that also speaks a legacy revision implements "the
                // behavior described in the corresponding revision", where a
                // GET may open a stream (streamable-http §Backward
                // Compatibility › Earlier Streamable HTTP Revisions).
                (Some(dual), _) => self.not_applicable(
                    RuleId::McpHttpGet405,
                    format!(
                        "{}: the SHOULD is for \"a server that supports only this revision\"; a dual-era server serves legacy traffic as the legacy revision does (MCP 2026-07-28 basic/transports/streamable-http §Backward Compatibility › Earlier Streamable HTTP Revisions)",
                        dual
                    ),
                ),
                (None, Err(why)) => self.not_observed(RuleId::McpHttpGet405, why.clone()),
                (None, Ok(g)) if busy(g.status).is_some() => {
                    let why = busy(g.status).unwrap_or_default();
                    self.not_observed(RuleId::McpHttpGet405, why);
                }
                (None, Ok(g)) => {
                    let broken = if g.status == 405 {
                        Vec::new()
                    } else {
                        vec![format!(
                            "a GET of the MCP endpoint was answered {}, not 405",
                            g.status
                        )]
                    };
                    let notes = vec![format!(
                        "answered {} (the SHOULD is for a server that supports only 2026-07-28)",
                        g.status
                    )];
                    self.exhibit(&get);
                    self.verdict(RuleId::McpHttpGet405, broken, notes);
                }
            }
            let (wire, _) = driver.into_parts();
            wire.close(target.shutdown_grace).await;
            return;
        }
        let first = match first {
            Ok(g) => g,
            Err(why) => {
                for rule in stream_rules {
                    self.not_observed(rule, format!("the GET stream: {why}"));
                }
                return;
            }
        };
        if let Some(why) = busy(first.status) {
            for rule in stream_rules {
                self.not_observed(rule, format!("the GET stream: {why}"));
            }
            let (wire, _) = driver.into_parts();
            wire.close(target.shutdown_grace).await;
            return;
        }
        let sse = essence(first.content_type.as_deref()) == "text/event-stream";
        let shown = format!(
            "GET answered {} with {}",
            first.status,
            first.content_type.as_deref().unwrap_or("no Content-Type")
        );
        let broken = if sse || first.status == 405 {
            Vec::new()
        } else {
            vec![format!(
                "{shown}: neither an SSE stream nor 405 Method Not Allowed"
            )]
        };
        self.exhibit(&get);
        self.verdict(RuleId::McpHttpGetStreamOr405, broken, vec![shown.clone()]);
        // The session's own frames so far: what its POST answers delivered.
        let posted: Vec<Vec<u8>> = server_frames(&driver);
        if sse {
            let responses: Vec<String> = first
                .events
                .iter()
                .filter(|e| is_response(&e.data))
                .map(|e| {
                    format!(
                        "a JSON-RPC response on a fresh GET stream: {}",
                        snippet(&e.data)
                    )
                })
                .collect();
            if first.events.is_empty() {
                self.not_observed(
                    RuleId::McpHttpGetNoResponse,
                    "the GET stream carried no message in the time read".into(),
                );
            } else {
                let read = first.events.len();
                let notes = vec![format!(
                    "{read} {} read from the GET stream",
                    plural(read, "message", "messages")
                )];
                self.exhibit(&get);
                self.verdict(RuleId::McpHttpGetNoResponse, responses, notes);
            }
            answer_pings(&mut driver, &first).await;
        } else {
            let why = format!("{shown}: the server offers no GET stream");
            self.not_applicable(RuleId::McpHttpGetNoResponse, why.clone());
            self.not_applicable(RuleId::McpHttpReplaySameStream, why);
        }
        // This session's event ids before its resume, whose replay repeats ids.
        let own_ids: Vec<String> = driver
            .transport()
            .http_facts()
            .iter()
            .flat_map(|f| f.event_ids.clone())
            .collect();
        let resumed = if sse {
            Some(resume(&mut driver, revision, target, &first, listen).await)
        } else {
            None
        };
        let facts = driver.transport().http_facts();
        let (wire, _) = driver.into_parts();
        wire.close(target.shutdown_grace).await;
        // Event ids over every stream of each session: the suite's sessions
        // (once they all closed) and this one.
        let traces = sessions.traces().await;
        let mut ids: Vec<Vec<String>> = traces
            .iter()
            .map(|t| t.facts.iter().flat_map(|f| f.event_ids.clone()).collect())
            .collect();
        ids.push(own_ids);
        self.event_ids(&ids);
        if let Some(resumed) = resumed {
            self.replay(resumed, &posted, &facts);
        }
    }
}

/// A fresh session's GET stream and the session's driver.
///
/// The stream is opened between the `initialize` answer and
/// `notifications/initialized`, and `initialized` is sent once the server
/// has answered the GET: what the server sends when it hears `initialized`
/// (server-everything: `notifications/tools/list_changed`, once its
/// conditional tools are registered) then always finds the stream open.
/// Sent at once, as before, the two raced: the message was on the stream
/// when the GET reached the server first and lost when `initialized` did,
/// which a loaded machine decided (`mcp.http.get-no-response` passed on
/// one run and was not observed on the next). No message is owed on the
/// GET stream before `initialized`, and a GET is no request, which
/// basic/lifecycle asks the client to hold back until the `initialize`
/// answer only.
///
/// The GET is answered within the answer timeout, as any request (beside
/// the run's sessions a busy server may be slow to take it). The stream is
/// read for `listen` from the moment the server answered the `initialized`
/// POST, and until a `ping` sent then is answered and the grace passed, if
/// that is later ([`answered_ping`]): a server that handles a session's
/// messages in order has written what `initialized` made it send by then,
/// however loaded, so the window grows with the server's pace.
async fn listened(
    revision: Revision,
    target: &Target<'_>,
    listen: std::time::Duration,
) -> Result<(Driver<Wire>, Result<GetStream, String>), String> {
    let failed = |e: crate::driver::HandshakeError| format!("the probe's handshake failed: {e}");
    let mut driver = connected(target, None)?;
    let handshake = driver.handshake_answered(revision).await.map_err(failed)?;
    let opened = streamable(&mut driver)
        .open_get_stream(None, target.driver.answer_timeout)
        .await;
    driver.confirm_handshake(&handshake).await.map_err(failed)?;
    // The ping that ends the window goes out once `initialized` was taken.
    if let Some(initialized) = driver.transport().sent_exchange() {
        let within = target.driver.answer_timeout;
        streamable(&mut driver).answered(initialized, within).await;
    }
    let first = match opened {
        Ok(open) => {
            let window = async {
                tokio::join!(
                    tokio::time::sleep(listen),
                    answered_ping(&mut driver, revision, target)
                );
            };
            Ok(open.read_within(window).await)
        }
        Err(why) => Err(why),
    };
    Ok((driver, first))
}

/// Whether the server at the target URL also speaks a legacy revision: it answers a
/// legacy client's `initialize` (2025-11-25, no modern version header) with a
/// result ("Legacy | Dual-era | Works. The server answers `initialize`",
/// 2026-07-28 basic/versioning §Compatibility Matrix). What it answered, or
/// `None` for a server that refused (a modern-only one).
async fn dual_era(target: &Target<'_>) -> Option<String> {
    let driver = handshaken(Revision::Mcp2025_11_25, target, None)
        .await
        .ok()?;
    let (wire, _) = driver.into_parts();
    wire.close(target.shutdown_grace).await;
    Some("the server answered a legacy `initialize` with a result: it is dual-era".into())
}
