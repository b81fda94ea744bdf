//! 2026-07-28 logging: a server logs only while a request asks for it
//! (server/utilities/logging: the request's `_meta`
//! `io.modelcontextprotocol/logLevel`), and declares `logging` in its
//! `server/discover` answer (§Capabilities). Earlier revisions' `logging`
//! capability is the handshake's.
//!
//! Whether a request asks for log messages is read from the request in flight
//! itself, so this concern keeps no state.

use super::{meta_member, Concern, Cx, Direction, Notification, RuleId};

const PROTOCOL_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

/// The per-request log level.
#[derive(Default)]
pub(super) struct Logging;

impl Concern for Logging {
    fn rules() -> &'static [RuleId] {
        &[
            RuleId::McpR5LoggingPerRequest,
            RuleId::McpR5LoggingCapability,
        ]
    }

    /// A `notifications/message` from the server: declared, and asked for.
    fn notification(&mut self, cx: &mut Cx<'_>, n: &Notification<'_>) {
        if n.from != Direction::ServerToClient || n.method != "notifications/message" {
            return;
        }
        declared(cx, n);
        if !n.subscription {
            asked(cx, n);
        }
    }
}

/// 2026-07-28 server/utilities/logging §Capabilities: a server that logs
/// declared `logging` in its `server/discover` answer (earlier revisions:
/// the handshake's capability check against `initialize`).
fn declared(cx: &mut Cx<'_>, n: &Notification<'_>) {
    let Some(discovered) = cx.negotiated.discovered else {
        return;
    };
    if !cx.negotiated.server_has("logging") {
        cx.out.flag(
            RuleId::McpR5LoggingCapability,
            "the server sent `notifications/message`, but its `server/discover` answer did not declare `logging`".into(),
            vec![discovered, n.at],
        );
    }
}

/// 2026-07-28 server/utilities/logging: a `notifications/message` from the
/// server while a request in flight asked for log messages.
fn asked(cx: &mut Cx<'_>, n: &Notification<'_>) {
    let asked = cx
        .in_flight(Direction::ClientToServer)
        .values()
        .any(|o| meta_member(o.request.params(), PROTOCOL_LOG_LEVEL).is_some());
    if !asked {
        cx.out.flag(
            RuleId::McpR5LoggingPerRequest,
            "the server sent `notifications/message` while no request in flight carried `io.modelcontextprotocol/logLevel`".into(),
            vec![n.at],
        );
    }
}
