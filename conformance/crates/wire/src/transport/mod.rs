//! Transports: how the runner moves frames to and from a live peer.
//!
//! A transport moves bytes and nothing else; every byte is judged by the
//! reference codec afterwards. Each wait is bounded, a frame longer than
//! [`Limits::max_frame`] is counted and skipped rather than buffered, and a peer
//! that floods is held to a fixed queue (what it cost is counted, never hidden).
//! The transports are [`stdio`] (MCP 2025-11-25, basic/transports, "stdio":
//! newline-delimited messages on the child's stdin and stdout, logs on
//! stderr, which the client MAY capture) and the HTTP ones of [`http`]
//! (Streamable HTTP, the 2024-11-05 HTTP+SSE transport, plain JSON-RPC 2.0
//! over HTTP); [`Kind`] names which.

use std::future::Future;
use std::process::ExitStatus;
use std::time::Duration;

use tokio::time::Instant;

pub mod error;
pub mod event_stream;
pub mod headers;
pub mod http;
mod kind;
pub mod lines;
pub mod pacer;
pub mod process;
pub mod stdio;
mod target;
pub mod tls;
pub mod wire;

pub use kind::{HttpKind, Kind};
pub use target::Target;

/// The bounds a transport holds a peer to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The longest frame kept, in bytes (the runner's `--max-frame`).
    pub max_frame: usize,
    /// How long one `send` may block on a peer that does not read.
    pub write_timeout: Duration,
    /// How many received frames wait unread before further ones are dropped.
    pub queue_cap: usize,
    /// How many bytes of the peer's stderr are kept.
    pub stderr_cap: usize,
    /// How long stdout may stay open after the peer's main process exited before
    /// the peer is reported as leaky (cargo-nextest's LEAK status).
    pub leak_grace: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_frame: 4 << 20,
            write_timeout: Duration::from_secs(5),
            queue_cap: 4096,
            stderr_cap: 64 << 10,
            leak_grace: Duration::from_millis(200),
        }
    }
}

/// What one wait for the peer's next frame ended with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// One line, without its newline (a final line with none counts).
    Frame(Vec<u8>),
    /// A line longer than [`Limits::max_frame`]: drained and counted, not kept.
    TooLong {
        /// Every byte of the line, newline excluded.
        bytes_skipped: u64,
    },
    /// The peer's output is over: stdout reached end of file, or the main
    /// process exited and something it left behind kept stdout open.
    Closed {
        /// How the main process ended; `None` while it still runs.
        status: Option<ExitStatus>,
        /// The main process exited but stdout stayed open past
        /// [`Limits::leak_grace`]: a child it forked still holds it.
        leaky: bool,
    },
    /// The deadline passed first.
    TimedOut,
}

/// Why a frame could not be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendError {
    /// The peer closed its input (or never had one open).
    Closed(String),
    /// The peer did not read the frame within [`Limits::write_timeout`]; the
    /// frame may be half written, so the input is closed and no more is sent.
    TimedOut(Duration),
    /// The run's [`pacer::Pacer`] admits no more frames: nothing was sent.
    Held(pacer::Halt),
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SendError::Closed(why) => write!(f, "peer's input is closed: {why}"),
            SendError::TimedOut(after) => {
                write!(f, "peer did not read the frame within {after:?}")
            }
            SendError::Held(halt) => write!(f, "not sent: {halt}"),
        }
    }
}

impl std::error::Error for SendError {}

/// A bidirectional frame transport the [driver](crate::driver) talks over.
pub trait Transport {
    /// Sends one frame; the transport adds the delimiter.
    fn send(&mut self, frame: &[u8]) -> impl Future<Output = Result<(), SendError>> + Send;
    /// Waits for the next event, no later than `deadline`.
    fn recv(&mut self, deadline: Instant) -> impl Future<Output = Event> + Send;
    /// How many received frames were dropped so far because the queue was full.
    fn dropped(&self) -> u64;

    /// On a transport that answers each sent frame in an exchange of its own
    /// (an HTTP POST and its response): the number of the exchange the last
    /// `send` opened. `None` on a shared stream (stdio, HTTP+SSE), where
    /// only ids say whose answer a frame is.
    fn sent_exchange(&self) -> Option<u64> {
        None
    }

    /// The exchange that carried the frame `recv` returned last, on a
    /// transport with exchanges: a frame answers the request of its own
    /// exchange, never another's, whatever order frames arrive in.
    fn received_from(&self) -> Option<u64> {
        None
    }

    /// Whether `exchange` may still carry frames (its end not yet read).
    fn exchange_open(&self, exchange: u64) -> bool {
        let _ = exchange;
        false
    }

    /// Whether the peer is a process this transport started, which may
    /// still be starting until it says its first word; a server reached over
    /// HTTP is already listening.
    fn starts_fresh(&self) -> bool {
        false
    }

    /// Whether every frame travels on one ordered stream each way, the peer
    /// reading what it is sent in the order sent (stdio): an answer the peer
    /// gives to one frame is then written before its answer to a later
    /// frame, unless it handles frames concurrently.
    fn one_stream_each_way(&self) -> bool {
        false
    }

    /// Hands the transport the run's pacer, to tell of each answer that
    /// says the server is busy (429, 503 over HTTP); a transport with no
    /// such answers ignores it.
    fn pace(&mut self, pacer: &pacer::Pacer) {
        let _ = pacer;
    }
}
