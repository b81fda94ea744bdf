//! HTTP client transports: the runner's side of MCP Streamable HTTP
//! (2025-03-26 on), the 2024-11-05 HTTP+SSE transport, and plain JSON-RPC 2.0
//! over HTTP.
//!
//! Each implements [`Transport`](super::Transport), so the runner drives them
//! unchanged. HTTP moves the bytes (reqwest; over `https://` with the one
//! [`Trust`](super::tls::Trust)) and the
//! one SSE parser ([`events`]) splits SSE; every JSON-RPC body and every SSE `data`
//! is surfaced as an [`Event::Frame`](super::Event::Frame) for the codec to
//! judge byte for byte.
//!
//! What HTTP itself did wrong (a wrong `Content-Type`, a 4xx/5xx with an HTML
//! page, malformed SSE, a redirect, a body past [`Limits::max_frame`], a stream
//! that never ends) is not a frame: it is an [`HttpFinding`] the runner reads
//! with `http_findings()`, beside the per-request [`HttpFact`]s (status,
//! content type, the headers of interest) its transport judge reads with
//! `http_facts()`. `Event` gains no variant, so its existing matches hold.
//!
//! HTTP is request-driven: with no request in flight and nothing queued,
//! nothing can arrive, so `recv` answers [`Event::TimedOut`] at once instead
//! of sleeping to the deadline (the SSE transport's stream is the exception
//! and waits).
//!
//! [`Limits::max_frame`]: super::Limits::max_frame

pub mod events;
mod exchange;
mod first_event;
mod jsonrpc;
pub mod mirror;
pub mod pipelined;
mod post;
mod session_id;
mod sse;
mod streamable;

pub use exchange::shown_exchange;
pub use exchange::{Exhibit, FindingKind, HttpFact, HttpFinding, HttpOptions, EXCERPT};
pub use first_event::{FirstEvent, MAX_FIRST_BLOCK};
pub use jsonrpc::JsonRpcHttpPeer;
pub use post::SSE_ENDED_UNANSWERED;
pub use session_id::session_id_concerns;
pub use sse::SsePeer;
pub use streamable::{
    builder, client, header_safe, standard_headers, GetStream, OpenGet, StreamEvent,
    StreamableHttpPeer, MAX_GET_EVENTS,
};

/// What HTTP said instead of an answer, for a "could not run" line: the
/// connection that failed, or the status, content type and a body excerpt
/// of what answered instead of JSON-RPC (`; …`). Empty when it said nothing.
#[must_use]
pub fn why_unanswered(findings: &[HttpFinding]) -> String {
    let worst = [
        FindingKind::Connect,
        FindingKind::ErrorStatus,
        FindingKind::WrongContentType,
        FindingKind::Redirect,
        FindingKind::NoAnswer,
        FindingKind::TimedOut,
    ]
    .iter()
    .find_map(|kind| findings.iter().find(|f| f.kind == *kind));
    match worst {
        Some(f) if f.kind == FindingKind::Connect => {
            format!(
                "; no HTTP response: {}",
                report::text::printable_str(&f.detail)
            )
        }
        // The detail names the status and content type itself.
        Some(f) => {
            let detail: String = f.detail.chars().take(200).collect();
            format!("; {}", report::text::printable_str(&detail))
        }
        None => String::new(),
    }
}

/// Why a client transport could not be set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConnectError {
    /// The URL is not an `http://` URL.
    BadUrl(String),
    /// The HTTP client could not be built.
    Client(String),
    /// The HTTP+SSE stream did not open, or its first event was not `endpoint`.
    Handshake(String),
}

impl std::fmt::Display for ConnectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConnectError::BadUrl(why) => write!(f, "bad URL: {why}"),
            ConnectError::Client(why) => write!(f, "HTTP client: {why}"),
            ConnectError::Handshake(why) => write!(f, "HTTP+SSE handshake: {why}"),
        }
    }
}

impl std::error::Error for ConnectError {}
