//! What the driver's own requests come back with: a request's answer or why
//! it got none, and the MCP handshake's outcome.

use harness::client::{read_reply, Reply, ReplyError};
use harness::{Id, Revision};

use crate::transport::SendError;

use super::probe::Received;

/// Why a request got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestError {
    /// It could not be sent.
    Send(SendError),
    /// No answer within the timeout.
    TimedOut,
    /// The peer's output ended first.
    Closed {
        /// The exit status as text, if known.
        status: Option<String>,
        /// The peer left a child holding stdout.
        leaky: bool,
    },
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestError::Send(e) => write!(f, "{e}"),
            RequestError::TimedOut => f.write_str("no answer within the timeout"),
            RequestError::Closed { status, leaky } => {
                write!(f, "the peer's output ended")?;
                if let Some(s) = status {
                    write!(f, " ({s})")?;
                }
                if *leaky {
                    f.write_str(", a child of it still holding stdout")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for RequestError {}

/// A request's answer, with what else arrived while waiting for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answered {
    /// The id the request was sent with.
    pub id: Id<'static>,
    /// The answer's exact bytes.
    pub bytes: Vec<u8>,
    /// Frames that arrived before it and were not it (notifications, the
    /// peer's own requests, strays, unreadable lines), in order.
    pub others: Vec<Received>,
}

impl Answered {
    /// The answer read with the reference codec.
    pub fn reply(&self) -> Result<Reply<'_>, ReplyError<'_>> {
        read_reply(&self.id, &self.bytes)
    }
}

/// The server's side of a handshake.
#[derive(Debug, Clone, PartialEq)]
pub struct Handshake {
    /// The method that opened the session: `initialize` or `server/discover`.
    pub method: &'static str,
    /// The whole answer's bytes.
    pub answer: Vec<u8>,
    /// The `result` member's exact text.
    pub result_text: String,
    /// The same, parsed.
    pub result: serde_json::Value,
    /// The protocol version the server chose (`initialize`), or the first of
    /// its `supportedVersions` (`server/discover`), if present and a string.
    pub protocol_version: Option<String>,
}

/// Why a handshake did not complete.
#[derive(Debug, Clone, PartialEq)]
pub enum HandshakeError {
    /// Plain JSON-RPC 2.0 has no handshake.
    NotApplicable(Revision),
    /// The request got no answer.
    Request(RequestError),
    /// The answer is not a success response to it (an error, another id, junk).
    Refused {
        /// The answer's bytes.
        answer: Vec<u8>,
        /// What is wrong with it.
        why: String,
    },
    /// `notifications/initialized` could not be sent.
    Initialized(SendError),
}

impl std::fmt::Display for HandshakeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HandshakeError::NotApplicable(r) => write!(f, "{r} has no handshake"),
            HandshakeError::Request(e) => write!(f, "handshake request failed: {e}"),
            HandshakeError::Refused { why, .. } => write!(f, "handshake refused: {why}"),
            HandshakeError::Initialized(e) => {
                write!(f, "cannot send notifications/initialized: {e}")
            }
        }
    }
}

impl std::error::Error for HandshakeError {}
