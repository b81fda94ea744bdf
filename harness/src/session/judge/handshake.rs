//! The handshake and what it negotiated: 2024-11-05 to 2025-11-25's
//! `initialize` exchange (basic/lifecycle §Initialization: `initialize` first,
//! then `notifications/initialized`, nothing but pings before), the
//! capabilities both sides declared and what they allow (basic/lifecycle
//! §Operation, client/elicitation and client/sampling §Capabilities, the
//! server feature pages' §Capabilities), and 2026-07-28's `server/discover`
//! answer, which declares the server's capabilities there.

use super::{At, Direction, Ending, Finding, Judge, Key, Message, Open, Raw, RuleId, Unobserved};
use crate::rules::client_caps::{self, Why};
use crate::session::capabilities::{declared, needed};
use crate::session::finding;
use crate::{Revision, ValueKind};

/// The handshake of 2024-11-05 to 2025-11-25 (basic/lifecycle §Initialization).
#[derive(Default)]
pub(super) struct Handshake {
    /// The `initialize` request's id and where it was sent.
    pub(super) request: Option<(Key, At)>,
    /// Where the server answered `initialize` with a result.
    pub(super) answered: Option<At>,
    initialized: bool,
    /// The first frame before `initialize` has been reported.
    first_flagged: bool,
    /// Normal operation before `notifications/initialized` has been reported.
    initialized_flagged: bool,
    pub(super) client_caps: Option<Raw<'static>>,
    pub(super) server_caps: Option<Raw<'static>>,
    /// 2026-07-28: where the server answered `server/discover` with a result
    /// (its capabilities are then `server_caps`).
    pub(super) discovered: Option<At>,
}

impl Handshake {
    /// Where the server's capabilities were declared: its `initialize` answer
    /// (2024-11-05 to 2025-11-25) or its `server/discover` answer (2026-07-28).
    pub(super) fn declared_at(&self) -> Option<(At, &'static str)> {
        match (self.answered, self.discovered) {
            (Some(at), _) => Some((at, "`initialize`")),
            (None, Some(at)) => Some((at, "`server/discover`")),
            (None, None) => None,
        }
    }

    /// Whether the server's declared capabilities hold `capability` as an
    /// object.
    pub(super) fn server_has(&self, capability: &str) -> bool {
        self.server_caps
            .as_ref()
            .and_then(|c| c.get(capability))
            .is_some_and(|v| v.kind() == ValueKind::Object)
    }
}

impl Judge {
    /// The end of the capture: a handshake answered but never followed by
    /// `notifications/initialized` (basic/lifecycle §Initialization).
    pub(super) fn initialized_end(&self, end: &mut Ending) {
        let hs = &self.handshake;
        if self.lifecycle() && hs.answered.is_some() && !hs.initialized && !hs.initialized_flagged {
            let frames: Vec<At> = hs.answered.into_iter().collect();
            match self.ended {
                Some((why, ended)) => end.findings.extend(finding(
                    RuleId::McpLifecycleInitializedNotification,
                    self.revision,
                    String::new(),
                    format!("{why} and the client never sent `notifications/initialized`"),
                    frames.into_iter().chain([ended]).collect(),
                )),
                None => end.not_observed.push(Unobserved {
                    rule: RuleId::McpLifecycleInitializedNotification,
                    frames,
                    why: "the capture ended before `notifications/initialized`".into(),
                }),
            }
        }
    }

    /// A request after `initialize` (the caller knows the revision has the
    /// handshake): its place in the handshake, the capability it needs, and
    /// the modes and options inside it.
    pub(super) fn lifecycle_request(
        &mut self,
        from: Direction,
        method: &str,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        self.handshake_request(from, method, at, out);
        self.capability(from, method, at, out);
        self.client_features(from, method, params, at, out);
    }

    /// A notification after `initialize` (the caller knows the revision has
    /// the handshake): the client's `notifications/initialized`, and the
    /// capability a notification needs.
    pub(super) fn lifecycle_notification(
        &mut self,
        from: Direction,
        method: &str,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        if from == Direction::ClientToServer && method == "notifications/initialized" {
            self.handshake.initialized = true;
        }
        self.capability(from, method, at, out);
    }

    /// A request in flight from here on: the client's first `initialize` is
    /// the handshake's.
    pub(super) fn initialize_sent(&mut self, from: Direction, method: &str, key: Key, at: At) {
        if self.lifecycle() && method == "initialize" && from == Direction::ClientToServer {
            self.handshake.request.get_or_insert((key, at));
        }
    }

    /// A successful answer to `asker`'s request `key`: the server's first
    /// `server/discover` result (2026-07-28) or its `initialize` result
    /// declares its capabilities.
    pub(super) fn handshake_answered(
        &mut self,
        asker: Direction,
        key: Key,
        is_discover: bool,
        result: &Raw<'_>,
        at: At,
    ) {
        if self.revision == Revision::Mcp2026_07_28
            && asker == Direction::ClientToServer
            && is_discover
            && self.handshake.discovered.is_none()
        {
            self.handshake.discovered = Some(at);
            self.handshake.server_caps = result.get("capabilities").map(Raw::into_owned);
        }
        let is_init = self
            .handshake
            .request
            .is_some_and(|(init, _)| init == key && asker == Direction::ClientToServer);
        if is_init && self.handshake.answered.is_none() {
            self.handshake.answered = Some(at);
            self.handshake.server_caps = result.get("capabilities").map(Raw::into_owned);
        }
    }

    /// Whether the revision has the `initialize` handshake.
    pub(super) fn lifecycle(&self) -> bool {
        self.revision.is_mcp() && self.revision < Revision::Mcp2026_07_28
    }

    /// Frames before the client's `initialize` request: the first is reported
    /// (mcp.lifecycle.initialize-first), and none is held to the handshake's
    /// ordering rules, so a misplaced handshake is one finding, not a cascade.
    /// Returns whether `m` came before `initialize`.
    pub(super) fn before_initialize(
        &mut self,
        from: Direction,
        m: &Message<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) -> bool {
        if self.handshake.request.is_some() {
            return false;
        }
        if let (Direction::ClientToServer, Message::Request(r)) = (from, m) {
            if r.method.decoded() == "initialize" {
                if let Some(caps) = r.params.as_ref().and_then(|p| p.get("capabilities")) {
                    self.handshake.client_caps = Some(caps.into_owned());
                }
                return false;
            }
        }
        if !self.handshake.first_flagged {
            self.handshake.first_flagged = true;
            let what = m.method().map_or_else(
                || format!("a {}", m.kind().name()),
                |method| format!("`{method}`"),
            );
            self.flag(
                RuleId::McpLifecycleInitializeFirst,
                format!(
                    "the {} sent {what} before the client's `initialize` request",
                    from.sender()
                ),
                vec![at],
                out,
            );
        }
        true
    }

    /// The ordering rules of basic/lifecycle §Initialization for a request.
    pub(super) fn handshake_request(
        &mut self,
        from: Direction,
        method: &str,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        if method == "ping" || method == "initialize" {
            return;
        }
        let hs = &self.handshake;
        match from {
            Direction::ClientToServer if hs.answered.is_none() => self.flag(
                RuleId::McpLifecycleClientPreInitRequests,
                format!("the client sent `{method}` before the server answered `initialize`"),
                vec![at],
                out,
            ),
            // Normal operation began without the notification the spec requires
            // first: certain here, not only at the end.
            Direction::ClientToServer if !hs.initialized && !hs.initialized_flagged => {
                let frames = hs.answered.into_iter().chain([at]).collect();
                self.handshake.initialized_flagged = true;
                self.flag(
                    RuleId::McpLifecycleInitializedNotification,
                    format!("the client sent `{method}` after `initialize` was answered but before `notifications/initialized`"),
                    frames,
                    out,
                );
            }
            Direction::ServerToClient if !hs.initialized => self.flag(
                RuleId::McpLifecycleServerPreInitializedRequests,
                format!(
                    "the server sent `{method}` before the client's `notifications/initialized`"
                ),
                vec![at],
                out,
            ),
            _ => {}
        }
    }

    /// basic/lifecycle §Operation: only capabilities that were negotiated.
    pub(super) fn capability(&self, from: Direction, method: &str, at: At, out: &mut Vec<Finding>) {
        let Some(answered) = self.handshake.answered else {
            return;
        };
        let Some(need) = needed(method, from, self.revision) else {
            return;
        };
        let caps = match need.holder {
            Direction::ClientToServer => self.handshake.client_caps.as_ref(),
            Direction::ServerToClient => self.handshake.server_caps.as_ref(),
        };
        if declared(caps, need) {
            return;
        }
        let wanted = need.flag.map_or_else(
            || format!("`{}`", need.capability),
            |flag| format!("`{}.{flag}`", need.capability),
        );
        let message = format!(
            "the {} sent `{method}`, which needs {wanted}, but the {} did not declare it",
            from.sender(),
            need.holder.sender()
        );
        for id in [
            RuleId::McpLifecycleOperationRespectR1,
            RuleId::McpLifecycleOperationRespect,
        ] {
            self.flag(id, message.clone(), vec![answered, at], out);
        }
    }

    /// 2025-11-25: a server request to the client that needs a mode or an
    /// option inside a declared capability (client/elicitation §Capabilities,
    /// client/sampling §Tools in Sampling and §Capabilities). The feature
    /// itself is [`Self::capability`]'s.
    pub(super) fn client_features(
        &self,
        from: Direction,
        method: &str,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let Some(answered) = self.handshake.answered else {
            return;
        };
        if from != Direction::ServerToClient {
            return;
        }
        for need in client_caps::needs(method, params) {
            let rule = match need.why {
                Why::Feature => continue,
                Why::ElicitationMode => RuleId::McpElicitationModeDeclared,
                Why::SamplingTools => RuleId::McpSamplingToolsDeclared,
                Why::SamplingContext => RuleId::McpSamplingIncludeContextDeclared,
            };
            let caps = self.handshake.client_caps.as_ref();
            let feature = client_caps::Need {
                member: None,
                ..need
            };
            // A feature not declared at all is mcp.lifecycle.operation-respect's.
            if client_caps::declares(caps, feature) && !client_caps::declares(caps, need) {
                self.flag(
                    rule,
                    format!(
                        "the server sent `{method}`, which needs {}, but the client did not declare it",
                        need.name()
                    ),
                    vec![answered, at],
                    out,
                );
            }
        }
    }

    /// Server feature pages §Capabilities: a server that answers a feature's
    /// request with a result supports the feature, so it declared it; and
    /// server/tools §Embedded Resources: one that embeds resources in a tool
    /// result SHOULD implement `resources`.
    pub(super) fn server_declares(
        &self,
        open: &Open,
        reply: &Message<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let Message::Success(s) = reply else { return };
        let Some((declared_at, answer)) = self.handshake.declared_at() else {
            return;
        };
        let caps = self.handshake.server_caps.as_ref();
        let method = open.request.method().unwrap_or_default();
        let embeds = method == "tools/call"
            && s.result.get("content").is_some_and(|c| {
                c.elements().any(|item| {
                    item.get("type")
                        .and_then(|t| t.as_string().map(|t| t == "resource"))
                        == Some(true)
                })
            });
        if embeds
            && !caps
                .and_then(|c| c.get("resources"))
                .is_some_and(|r| r.kind() == ValueKind::Object)
        {
            self.flag(
                RuleId::McpToolsEmbeddedResourcesCapability,
                format!("a `tools/call` result embeds a resource, but the server's {answer} answer did not declare `resources`"),
                vec![declared_at, open.at, at],
                out,
            );
        }
        let Some(need) = needed(&method, Direction::ClientToServer, self.revision) else {
            return;
        };
        if need.holder != Direction::ServerToClient || need.capability == "logging" {
            // Logging is the server's own notifications' (mcp.lifecycle.operation-respect).
            return;
        }
        let feature = crate::session::capabilities::Need { flag: None, ..need };
        if declared(caps, feature) {
            return;
        }
        self.flag(
            RuleId::McpCapabilitiesServerDeclares,
            format!(
                "the server answered `{method}` with a result but its {answer} answer did not declare `{}`",
                need.capability
            ),
            vec![declared_at, open.at, at],
            out,
        );
    }

    /// 2026-07-28 server/tools, server/prompts, server/resources §Capabilities:
    /// a server that declared the feature in `server/discover` responds to its
    /// list request; -32601 (Method not found) is no such response.
    pub(super) fn declared_lists(
        &self,
        open: &Open,
        reply: &Message<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let Message::Error(e) = reply else { return };
        let Some(discovered) = self.handshake.discovered else {
            return;
        };
        if e.error.code != crate::codes::METHOD_NOT_FOUND {
            return;
        }
        let method = open.request.method().unwrap_or_default();
        let capability = match method.as_ref() {
            "tools/list" => "tools",
            "prompts/list" => "prompts",
            "resources/list" => "resources",
            _ => return,
        };
        let declared = self.handshake.server_has(capability);
        if declared {
            self.flag(
                RuleId::McpR5CapabilitiesDeclaredLists,
                format!("the server declared `{capability}` in `server/discover` but answered `{method}` with -32601 (Method not found)"),
                vec![discovered, open.at, at],
                out,
            );
        }
    }
}
