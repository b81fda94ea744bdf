//! The transports a command drives, as one type built from a [`Target`]:
//! `run`, `fuzz`, `diff` and `replay` are written once over [`Wire`], and
//! what only one transport has (a process's stderr and exit, an HTTP
//! exchange's facts) is asked of it here.

use std::time::Duration;

use tokio::time::Instant;

use super::http::{
    HttpFact, HttpFinding, HttpOptions, JsonRpcHttpPeer, SsePeer, StreamableHttpPeer,
};
use super::stdio::{EndedBy, StdioPeer};
use super::{Event, HttpKind, Kind, Limits, SendError, Target, Transport};

/// How many of the last lines of a silent process's stderr its run's error
/// quotes.
const STDERR_LINES: usize = 12;

/// How long a silent process is given to exit and finish its stderr before
/// the run's error quotes them ([`Wire::why_silent`]).
const SETTLE: Duration = Duration::from_millis(500);

/// One live connection to the peer, over whichever transport the run uses.
pub enum Wire {
    /// A child process's stdin and stdout.
    Stdio(StdioPeer),
    /// Streamable HTTP.
    Streamable(StreamableHttpPeer),
    /// HTTP+SSE.
    Sse(SsePeer),
    /// JSON-RPC over HTTP.
    JsonRpc(JsonRpcHttpPeer),
}

impl Wire {
    /// A fresh connection to `target`: its command started as a child, or
    /// the HTTP transport its kind names, bounded by `limits` and `options`
    /// (the HTTP+SSE stream is opened and its `endpoint` event awaited).
    ///
    /// # Errors
    /// The process does not start, the URL is no `http://` URL, or the
    /// HTTP+SSE stream does not open.
    pub async fn open(
        target: &Target,
        limits: Limits,
        options: HttpOptions,
    ) -> Result<Wire, String> {
        let text = |e: &dyn std::fmt::Display| e.to_string();
        Ok(match target {
            Target::Stdio(command) => {
                Wire::Stdio(StdioPeer::spawn(command, limits).map_err(|e| text(&e))?)
            }
            Target::Http { url, kind } => match kind {
                HttpKind::Streamable => Wire::Streamable(
                    StreamableHttpPeer::with_options(url, limits, options).map_err(|e| text(&e))?,
                ),
                HttpKind::Sse => Wire::Sse(
                    SsePeer::with_options(url, limits, options)
                        .await
                        .map_err(|e| text(&e))?,
                ),
                HttpKind::JsonRpc => Wire::JsonRpc(
                    JsonRpcHttpPeer::with_options(url, limits, options).map_err(|e| text(&e))?,
                ),
            },
        })
    }

    /// Which transport it is.
    #[must_use]
    pub fn kind(&self) -> Kind {
        match self {
            Wire::Stdio(_) => Kind::Stdio,
            Wire::Streamable(_) => Kind::Http(HttpKind::Streamable),
            Wire::Sse(_) => Kind::Http(HttpKind::Sse),
            Wire::JsonRpc(_) => Kind::Http(HttpKind::JsonRpc),
        }
    }

    /// The record's `transport`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }

    /// Every HTTP exchange so far (none over stdio).
    #[must_use]
    pub fn http_facts(&self) -> Vec<HttpFact> {
        match self {
            Wire::Stdio(_) => Vec::new(),
            Wire::Streamable(p) => p.http_facts(),
            Wire::Sse(p) => p.http_facts(),
            Wire::JsonRpc(p) => p.http_facts(),
        }
    }

    /// Every HTTP-level problem so far (none over stdio).
    #[must_use]
    pub fn http_findings(&self) -> Vec<HttpFinding> {
        match self {
            Wire::Stdio(_) => Vec::new(),
            Wire::Streamable(p) => p.http_findings(),
            Wire::Sse(p) => p.http_findings(),
            Wire::JsonRpc(p) => p.http_findings(),
        }
    }

    /// The tail of the peer's stderr: only a process has one.
    #[must_use]
    pub fn stderr_tail(&self) -> Vec<u8> {
        match self {
            Wire::Stdio(p) => {
                let (stderr, _) = p.stderr();
                stderr[stderr.len().saturating_sub(400)..].to_vec()
            }
            _ => Vec::new(),
        }
    }

    /// What the transport saw that explains a peer that never answered, for
    /// the run's "could not run" line: a process's stderr tail; over HTTP the
    /// connection that failed, or the status, content type and a body excerpt
    /// of what answered instead of JSON-RPC. Empty when it saw nothing.
    /// A stdio process gets [`SETTLE`] to exit and have its stderr read
    /// to the end, so a peer that died at start is quoted whole.
    /// `said` is what the error says already (an exit status it names is not
    /// repeated).
    pub async fn why_silent(&mut self, said: &str) -> String {
        if let Wire::Stdio(p) = self {
            let status = p
                .settle(SETTLE)
                .await
                .filter(|s| !said.contains(s.as_str()));
            let tail = String::from_utf8_lossy(&self.stderr_tail()).into_owned();
            let lines: Vec<&str> = tail.lines().filter(|l| !l.trim().is_empty()).collect();
            let mut out = status.map_or_else(String::new, |s| format!("; it exited ({s})"));
            if lines.is_empty() {
                return out;
            }
            // The last lines, each on its own (escaped: the peer's text).
            out.push_str("; its stderr ends:");
            for line in &lines[lines.len().saturating_sub(STDERR_LINES)..] {
                out.push_str("\n    | ");
                out.push_str(&report::text::printable_str(line));
            }
            return out;
        }
        crate::transport::http::why_unanswered(&self.http_findings())
    }

    /// Ends the connection: a process is stopped (within `grace`, twice); a
    /// Streamable HTTP session is ended with DELETE, as a client that no
    /// longer needs it SHOULD (2025-11-25 basic/transports §Session
    /// Management 5), and its status is returned for the transport judge.
    pub async fn close(self, grace: Duration) -> Option<u16> {
        self.close_reporting(grace).await.delete_status
    }

    /// [`Wire::close`], with what it took to end a stdio process (its input
    /// closed, then signals) for the transport judge, and what the process
    /// wrote to stderr, for the run document.
    pub async fn close_reporting(self, grace: Duration) -> Closed {
        match self {
            Wire::Stdio(p) => {
                let ended = p.shutdown(grace).await;
                Closed {
                    delete_status: None,
                    ended_by: Some(ended.ended_by),
                    stderr: ended.stderr,
                    stderr_dropped: ended.stderr_dropped,
                }
            }
            Wire::Streamable(mut p) if p.session_id().is_some() => Closed {
                delete_status: p.delete_session().await.ok(),
                ..Closed::default()
            },
            _ => Closed::default(),
        }
    }
}

/// What [`Wire::close_reporting`] saw as the connection ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Closed {
    /// The status of the Streamable HTTP session's DELETE.
    pub delete_status: Option<u16>,
    /// What it took to end a stdio process.
    pub ended_by: Option<EndedBy>,
    /// The first [`Limits::stderr_cap`] bytes the process wrote to stderr.
    pub stderr: Vec<u8>,
    /// Its stderr bytes past the cap, counted and dropped.
    pub stderr_dropped: u64,
}

impl Transport for Wire {
    async fn send(&mut self, frame: &[u8]) -> Result<(), SendError> {
        match self {
            Wire::Stdio(p) => p.send(frame).await,
            Wire::Streamable(p) => p.send(frame).await,
            Wire::Sse(p) => p.send(frame).await,
            Wire::JsonRpc(p) => p.send(frame).await,
        }
    }

    async fn recv(&mut self, deadline: Instant) -> Event {
        match self {
            Wire::Stdio(p) => p.recv(deadline).await,
            Wire::Streamable(p) => p.recv(deadline).await,
            Wire::Sse(p) => p.recv(deadline).await,
            Wire::JsonRpc(p) => p.recv(deadline).await,
        }
    }

    fn sent_exchange(&self) -> Option<u64> {
        match self {
            Wire::Streamable(p) => p.sent_exchange(),
            Wire::JsonRpc(p) => p.sent_exchange(),
            Wire::Stdio(_) | Wire::Sse(_) => None,
        }
    }

    fn received_from(&self) -> Option<u64> {
        match self {
            Wire::Streamable(p) => p.received_from(),
            Wire::JsonRpc(p) => p.received_from(),
            Wire::Stdio(_) | Wire::Sse(_) => None,
        }
    }

    fn exchange_open(&self, exchange: u64) -> bool {
        match self {
            Wire::Streamable(p) => p.exchange_open(exchange),
            Wire::JsonRpc(p) => p.exchange_open(exchange),
            Wire::Stdio(_) | Wire::Sse(_) => false,
        }
    }

    fn starts_fresh(&self) -> bool {
        matches!(self, Wire::Stdio(_))
    }

    fn one_stream_each_way(&self) -> bool {
        matches!(self, Wire::Stdio(_))
    }

    fn pace(&mut self, pacer: &super::pacer::Pacer) {
        match self {
            Wire::Stdio(_) => {}
            Wire::Streamable(p) => p.pace(pacer),
            Wire::Sse(p) => p.pace(pacer),
            Wire::JsonRpc(p) => p.pace(pacer),
        }
    }

    fn dropped(&self) -> u64 {
        match self {
            Wire::Stdio(p) => p.dropped(),
            Wire::Streamable(p) => p.dropped(),
            Wire::Sse(p) => p.dropped(),
            Wire::JsonRpc(p) => p.dropped(),
        }
    }
}
