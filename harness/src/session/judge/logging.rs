//! 2026-07-28 logging: a server logs only while a request asks for it
//! (server/utilities/logging: the request's `_meta`
//! `io.modelcontextprotocol/logLevel`), and declares `logging` in its
//! `server/discover` answer (§Capabilities). Earlier revisions' `logging`
//! capability is the handshake's ([`Judge::capability`]).

use super::{meta_member, At, Direction, Finding, Judge, Raw, RuleId};
use crate::Revision;

const PROTOCOL_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

impl Judge {
    /// Whether the revision judged logs per request (2026-07-28): every hook
    /// here returns early when it does not.
    fn logging_per_request(&self) -> bool {
        self.revision == Revision::Mcp2026_07_28
    }

    /// Whether a request with `params` asks for the server's log messages
    /// while it is in flight (2026-07-28).
    pub(super) fn asks_log_level(&self, params: Option<&Raw<'_>>) -> bool {
        self.logging_per_request() && meta_member(params, PROTOCOL_LOG_LEVEL).is_some()
    }

    /// 2026-07-28 server/utilities/logging: a `notifications/message` `from`
    /// the server while a request in flight asked for log messages.
    pub(super) fn log_message(&self, from: Direction, at: At, out: &mut Vec<Finding>) {
        if !self.logging_per_request() || from != Direction::ServerToClient {
            return;
        }
        let asked = self.sides[0].in_flight.values().any(|o| o.log_level);
        if !asked {
            self.flag(
                RuleId::McpR5LoggingPerRequest,
                "the server sent `notifications/message` while no request in flight carried `io.modelcontextprotocol/logLevel`".into(),
                vec![at],
                out,
            );
        }
    }

    /// 2026-07-28 server/utilities/logging §Capabilities: a server that logs
    /// declared `logging` in its `server/discover` answer (earlier revisions:
    /// [`Self::capability`] against `initialize`).
    pub(super) fn logging_declared(&self, at: At, out: &mut Vec<Finding>) {
        if !self.logging_per_request() {
            return;
        }
        let Some(discovered) = self.handshake.discovered else {
            return;
        };
        let declared = self.handshake.server_has("logging");
        if !declared {
            self.flag(
                RuleId::McpR5LoggingCapability,
                "the server sent `notifications/message`, but its `server/discover` answer did not declare `logging`".into(),
                vec![discovered, at],
                out,
            );
        }
    }
}
