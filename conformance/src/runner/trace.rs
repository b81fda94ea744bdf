//! What one closed connection of a run showed ([`Trace`]): the HTTP
//! exchanges and findings its session made, or how its stdio process ended.
//! The transport judge ([`super::http_judge`]) and the stdio shutdown check
//! ([`super::stdio_shutdown`]) read them once a revision's sessions closed.

use crate::transport::http::{HttpFact, HttpFinding};
use crate::transport::stdio::EndedBy;
use crate::transport::wire::Wire;

/// What one closed connection showed.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    /// Every HTTP exchange.
    pub facts: Vec<HttpFact>,
    /// Every HTTP-level problem.
    pub findings: Vec<HttpFinding>,
    /// The `Mcp-Session-Id` issued at `initialize`, if any.
    pub session_id: Option<String>,
    /// The status of the DELETE that ended the session, if one was sent.
    pub delete_status: Option<u16>,
    /// What it took to end a stdio process once its input was closed.
    pub stdio_ended_by: Option<EndedBy>,
    /// The stdio process had said nothing when its input was closed: it may
    /// still have been starting, so how long it took to exit is no measure
    /// of how promptly it ends on end-of-file.
    pub stdio_never_heard: bool,
}

impl Trace {
    /// What `wire` saw so far.
    #[must_use]
    pub fn of(wire: &Wire) -> Trace {
        Trace {
            facts: wire.http_facts(),
            findings: wire.http_findings(),
            session_id: match wire {
                Wire::Streamable(p) => p.session_id(),
                _ => None,
            },
            delete_status: None,
            stdio_ended_by: None,
            stdio_never_heard: false,
        }
    }
}
