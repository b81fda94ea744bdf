//! The handshake and what it negotiated: 2024-11-05 to 2025-11-25's
//! `initialize` exchange (basic/lifecycle §Initialization: `initialize` first,
//! then `notifications/initialized`, nothing but pings before), the
//! capabilities both sides declared and what they allow (basic/lifecycle
//! §Operation, client/elicitation and client/sampling §Capabilities, the
//! server feature pages' §Capabilities), and 2026-07-28's `server/discover`
//! answer, which declares the server's capabilities there.
//!
//! What was negotiated ([`Negotiated`]) is the core's, since five concerns
//! read it; this concern alone writes it.

use super::{Answer, At, Concern, Cx, Direction, Ending, Message, Notification, Request, RuleId};
use super::{End, Key, Raw, Unobserved};
use crate::rules::client_caps::{self, Why};
use crate::session::capabilities::{declared, needed};
use crate::session::finding;
use crate::ValueKind;

/// The capabilities each side declared, and where: what every concern that
/// depends on a capability reads.
#[derive(Default)]
pub(super) struct Negotiated {
    /// The client's `initialize` request's id and where it was sent
    /// (2024-11-05 to 2025-11-25).
    pub(super) initialize: Option<(Key, At)>,
    /// Where the server answered `initialize` with a result.
    pub(super) answered: Option<At>,
    pub(super) client_caps: Option<Raw<'static>>,
    pub(super) server_caps: Option<Raw<'static>>,
    /// 2026-07-28: where the server answered `server/discover` with a result
    /// (its capabilities are then `server_caps`).
    pub(super) discovered: Option<At>,
}

impl Negotiated {
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

/// The handshake of 2024-11-05 to 2025-11-25 (basic/lifecycle
/// §Initialization), and the capabilities declared in every MCP revision.
#[derive(Default)]
pub(super) struct Handshake {
    initialized: bool,
    /// The first frame before `initialize` has been reported.
    first_flagged: bool,
    /// Normal operation before `notifications/initialized` has been reported.
    initialized_flagged: bool,
    /// The message being read came after `initialize`, under a revision with
    /// the handshake: it is held to the handshake's ordering rules.
    judged: bool,
}

/// Whether the revision has the `initialize` handshake: the one its rules
/// apply under (2024-11-05 to 2025-11-25).
fn lifecycle(cx: &Cx<'_>) -> bool {
    cx.applies(RuleId::McpLifecycleInitializeFirst)
}

impl Concern for Handshake {
    fn rules() -> &'static [RuleId] {
        &[
            RuleId::McpLifecycleInitializeFirst,
            RuleId::McpLifecycleInitializedNotification,
            RuleId::McpLifecycleClientPreInitRequests,
            RuleId::McpLifecycleServerPreInitializedRequests,
            RuleId::McpLifecycleOperationRespectR1,
            RuleId::McpLifecycleOperationRespect,
            RuleId::McpElicitationModeDeclared,
            RuleId::McpSamplingToolsDeclared,
            RuleId::McpSamplingIncludeContextDeclared,
            RuleId::McpToolsEmbeddedResourcesCapability,
            RuleId::McpCapabilitiesServerDeclares,
            RuleId::McpR5CapabilitiesDeclaredLists,
        ]
    }

    /// Frames before the client's `initialize` request: the first is reported
    /// (mcp.lifecycle.initialize-first), and none is held to the handshake's
    /// ordering rules, so a misplaced handshake is one finding, not a cascade.
    fn message(&mut self, cx: &mut Cx<'_>, from: Direction, m: &Message<'_>, at: At) {
        self.judged = lifecycle(cx) && !self.before_initialize(cx, from, m, at);
    }

    /// A request: its place in the handshake, the capability it needs, and
    /// the modes and options inside it; the client's first `initialize` is
    /// the handshake's.
    fn request(&mut self, cx: &mut Cx<'_>, r: &Request<'_>) {
        if self.judged {
            self.handshake_request(cx, r.from, r.method, r.at);
            capability(cx, r.from, r.method, r.at);
            client_features(cx, r.from, r.method, r.params, r.at);
        }
        if lifecycle(cx) && r.method == "initialize" && r.from == Direction::ClientToServer {
            cx.negotiated.initialize.get_or_insert((r.key, r.at));
        }
    }

    /// The client's `notifications/initialized`, and the capability a
    /// notification needs.
    fn notification(&mut self, cx: &mut Cx<'_>, n: &Notification<'_>) {
        if !self.judged {
            return;
        }
        if n.from == Direction::ClientToServer && n.method == "notifications/initialized" {
            self.initialized = true;
        }
        capability(cx, n.from, n.method, n.at);
    }

    /// An answer to the client: judged against the capabilities the server
    /// declared; then the server's first `server/discover` result
    /// (2026-07-28) or its `initialize` result declares its capabilities.
    fn answer(&mut self, cx: &mut Cx<'_>, a: &Answer<'_>) {
        if a.asker == Direction::ClientToServer {
            server_declares(cx, a);
            declared_lists(cx, a);
        }
        let Message::Success(s) = a.reply else {
            return;
        };
        // `server/discover` is 2026-07-28's (basic/lifecycle there): the
        // revisions of the rule that holds lists to what it declared.
        let discovery = cx.applies(RuleId::McpR5CapabilitiesDeclaredLists);
        let negotiated = &mut *cx.negotiated;
        let is_discover = a.open.request.method().as_deref() == Some("server/discover");
        if discovery
            && a.asker == Direction::ClientToServer
            && is_discover
            && negotiated.discovered.is_none()
        {
            negotiated.discovered = Some(a.at);
            negotiated.server_caps = s.result.get("capabilities").map(Raw::into_owned);
        }
        let is_init = negotiated
            .initialize
            .is_some_and(|(init, _)| init == a.key && a.asker == Direction::ClientToServer);
        if is_init && negotiated.answered.is_none() {
            negotiated.answered = Some(a.at);
            negotiated.server_caps = s.result.get("capabilities").map(Raw::into_owned);
        }
    }

    /// The end of the capture: a handshake answered but never followed by
    /// `notifications/initialized` (basic/lifecycle §Initialization).
    fn finish(&mut self, cx: &End<'_>, end: &mut Ending) {
        let answered = cx.negotiated.answered;
        if cx.applies(RuleId::McpLifecycleInitializedNotification)
            && answered.is_some()
            && !self.initialized
            && !self.initialized_flagged
        {
            let frames: Vec<At> = answered.into_iter().collect();
            match cx.ended {
                Some((why, ended)) => end.findings.extend(finding(
                    RuleId::McpLifecycleInitializedNotification,
                    cx.revision,
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
}

impl Handshake {
    /// Whether `m` came before the client's `initialize` request; the first
    /// such is reported. The `initialize` request's capabilities are the
    /// client's.
    fn before_initialize(
        &mut self,
        cx: &mut Cx<'_>,
        from: Direction,
        m: &Message<'_>,
        at: At,
    ) -> bool {
        if cx.negotiated.initialize.is_some() {
            return false;
        }
        if let (Direction::ClientToServer, Message::Request(r)) = (from, m) {
            if r.method.decoded() == "initialize" {
                if let Some(caps) = r.params.as_ref().and_then(|p| p.get("capabilities")) {
                    cx.negotiated.client_caps = Some(caps.into_owned());
                }
                return false;
            }
        }
        if !self.first_flagged {
            self.first_flagged = true;
            let what = m.method().map_or_else(
                || format!("a {}", m.kind().name()),
                |method| format!("`{method}`"),
            );
            cx.out.flag(
                RuleId::McpLifecycleInitializeFirst,
                format!(
                    "the {} sent {what} before the client's `initialize` request",
                    from.sender()
                ),
                vec![at],
            );
        }
        true
    }

    /// The ordering rules of basic/lifecycle §Initialization for a request.
    fn handshake_request(&mut self, cx: &mut Cx<'_>, from: Direction, method: &str, at: At) {
        if method == "ping" || method == "initialize" {
            return;
        }
        let answered = cx.negotiated.answered;
        match from {
            Direction::ClientToServer if answered.is_none() => cx.out.flag(
                RuleId::McpLifecycleClientPreInitRequests,
                format!("the client sent `{method}` before the server answered `initialize`"),
                vec![at],
            ),
            // Normal operation began without the notification the spec requires
            // first: certain here, not only at the end.
            Direction::ClientToServer if !self.initialized && !self.initialized_flagged => {
                let frames = answered.into_iter().chain([at]).collect();
                self.initialized_flagged = true;
                cx.out.flag(
                    RuleId::McpLifecycleInitializedNotification,
                    format!("the client sent `{method}` after `initialize` was answered but before `notifications/initialized`"),
                    frames,
                );
            }
            Direction::ServerToClient if !self.initialized => cx.out.flag(
                RuleId::McpLifecycleServerPreInitializedRequests,
                format!(
                    "the server sent `{method}` before the client's `notifications/initialized`"
                ),
                vec![at],
            ),
            _ => {}
        }
    }
}

/// basic/lifecycle §Operation: only capabilities that were negotiated.
fn capability(cx: &mut Cx<'_>, from: Direction, method: &str, at: At) {
    let Some(answered) = cx.negotiated.answered else {
        return;
    };
    let Some(need) = needed(method, from, cx.revision) else {
        return;
    };
    let caps = match need.holder {
        Direction::ClientToServer => cx.negotiated.client_caps.as_ref(),
        Direction::ServerToClient => cx.negotiated.server_caps.as_ref(),
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
        cx.out.flag(id, message.clone(), vec![answered, at]);
    }
}

/// 2025-11-25: a server request to the client that needs a mode or an
/// option inside a declared capability (client/elicitation §Capabilities,
/// client/sampling §Tools in Sampling and §Capabilities). The feature
/// itself is [`capability`]'s.
fn client_features(
    cx: &mut Cx<'_>,
    from: Direction,
    method: &str,
    params: Option<&Raw<'_>>,
    at: At,
) {
    let Some(answered) = cx.negotiated.answered else {
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
        let caps = cx.negotiated.client_caps.as_ref();
        let feature = client_caps::Need {
            member: None,
            ..need
        };
        // A feature not declared at all is mcp.lifecycle.operation-respect's.
        if client_caps::declares(caps, feature) && !client_caps::declares(caps, need) {
            cx.out.flag(
                rule,
                format!(
                    "the server sent `{method}`, which needs {}, but the client did not declare it",
                    need.name()
                ),
                vec![answered, at],
            );
        }
    }
}

/// Server feature pages §Capabilities: a server that answers a feature's
/// request with a result supports the feature, so it declared it; and
/// server/tools §Embedded Resources: one that embeds resources in a tool
/// result SHOULD implement `resources`.
fn server_declares(cx: &mut Cx<'_>, a: &Answer<'_>) {
    let (open, at) = (a.open, a.at);
    let Message::Success(s) = a.reply else { return };
    let Some((declared_at, answer)) = cx.negotiated.declared_at() else {
        return;
    };
    let caps = cx.negotiated.server_caps.as_ref();
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
        cx.out.flag(
            RuleId::McpToolsEmbeddedResourcesCapability,
            format!("a `tools/call` result embeds a resource, but the server's {answer} answer did not declare `resources`"),
            vec![declared_at, open.at, at],
        );
    }
    let Some(need) = needed(&method, Direction::ClientToServer, cx.revision) else {
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
    cx.out.flag(
        RuleId::McpCapabilitiesServerDeclares,
        format!(
            "the server answered `{method}` with a result but its {answer} answer did not declare `{}`",
            need.capability
        ),
        vec![declared_at, open.at, at],
    );
}

/// 2026-07-28 server/tools, server/prompts, server/resources §Capabilities:
/// a server that declared the feature in `server/discover` responds to its
/// list request; -32601 (Method not found) is no such response.
fn declared_lists(cx: &mut Cx<'_>, a: &Answer<'_>) {
    let (open, at) = (a.open, a.at);
    let Message::Error(e) = a.reply else { return };
    let Some(discovered) = cx.negotiated.discovered else {
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
    let declared = cx.negotiated.server_has(capability);
    if declared {
        cx.out.flag(
            RuleId::McpR5CapabilitiesDeclaredLists,
            format!("the server declared `{capability}` in `server/discover` but answered `{method}` with -32601 (Method not found)"),
            vec![discovered, open.at, at],
        );
    }
}
