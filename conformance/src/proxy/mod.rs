//! `wirecheck proxy`'s plumbing, one module per transport: each forwards
//! every byte both ways unchanged and hands a copy, cut into frames, to
//! whoever judges them ([`crate::cmd::proxy`]). Judging never sits between a
//! byte and its destination.
//!
//! - [`stdio`]: a server started as a child, its standard input and output
//!   spliced to the proxy's own.
//! - [`http`]: a reverse proxy in front of a Streamable HTTP or HTTP+SSE
//!   server, each MCP session judged as its own conversation.

pub mod http;
pub mod stdio;

use harness::Direction;

pub use stdio::{stdio, Ended, Options};

/// What the observing side is told, in the order it happened on each side.
#[derive(Debug, PartialEq)]
pub enum Seen {
    /// A complete frame (its newline not included) and when it ended, in
    /// seconds from the start.
    Frame {
        /// Who sent it.
        from: Direction,
        /// Its exact bytes.
        bytes: Vec<u8>,
        /// Seconds from the start.
        t: f64,
    },
    /// The JSON body of an HTTP error status (the server refused a POST):
    /// judged as a frame from the server, under the allowance
    /// [`harness::error_ids::idless_error_allowed`] names for its status.
    Refused {
        /// Its exact bytes.
        bytes: Vec<u8>,
        /// The HTTP status it came with.
        status: u16,
        /// Seconds from the start.
        t: f64,
    },
    /// A frame longer than the bound: forwarded whole, not kept.
    TooLong {
        /// Who sent it.
        from: Direction,
        /// How long it was (at least this long, when its end was not seen).
        len: usize,
        /// Seconds from the start.
        t: f64,
    },
    /// A side closed its end (the client its output, the server its output).
    Closed {
        /// Who closed.
        from: Direction,
        /// Seconds from the start.
        t: f64,
    },
}
