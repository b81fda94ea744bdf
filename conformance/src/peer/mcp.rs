//! The MCP profiles: one session's state and every request and notification
//! the reference peer serves, per revision.
//!
//! Which methods exist in a revision, and the members their params require, come
//! from the official schemas through the rule model's method table
//! ([`harness::rules::methods`]), so the peer cannot drift from what the rule
//! model judges: a method the revision does not define is -32601, params that
//! miss a required member or give one the wrong type are -32602.
//!
//! Every request is answered before the next frame is read, so a request is
//! never in flight when a `notifications/cancelled` arrives: cancellation is
//! accepted and ignored, as the spec allows for a request already completed
//! (2025-06-18 basic/utilities/cancellation §Behavior Requirements: receivers
//! "MAY ignore cancellation notifications if ... the request is already
//! complete"). Resources never change, so a subscription is recorded and never
//! fires `notifications/resources/updated`.
//!
//! The one request left open is 2026-07-28's `subscriptions/listen`: it is
//! acknowledged and then answered only when the client cancels it (no
//! response then) or the session ends ([`Session::close`]).

use std::collections::BTreeSet;

use harness::client::notification_document;
use harness::codes;
use harness::rules::schema::methods;
use harness::rules::schema::ty;
use harness::rules::{Kind, MethodDef, Sender};
use harness::{Id, Raw, Revision, ValueKind};
use serde_json::{json, Map, Value};

use super::catalogue::{self, PAGE_SIZE, TOOLS};
use super::cursor;
use super::tasks::Tasks;
use super::{is_integer, Answer, Failure};

/// The revisions that begin with an `initialize` handshake, oldest first.
const HANDSHAKE: [Revision; 4] = [
    Revision::Mcp2024_11_05,
    Revision::Mcp2025_03_26,
    Revision::Mcp2025_06_18,
    Revision::Mcp2025_11_25,
];

/// The `_meta` keys of 2026-07-28's per-request protocol fields
/// (2026-07-28 basic/index §Per-request protocol fields).
const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

// The log levels, least severe first: the rule model's one list.
use harness::rules::LOG_LEVELS as LEVELS;

/// Where a session is in its lifecycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Nothing negotiated yet.
    Fresh,
    /// `initialize` was answered with this revision. The client may send
    /// requests from now on (lifecycle §Initialization: it "SHOULD NOT send
    /// requests other than pings before the server has responded to the
    /// initialize request").
    Initialized(Revision),
}

/// One MCP session.
#[derive(Debug)]
pub(crate) struct Session {
    fixed: Option<Revision>,
    phase: Phase,
    /// The level `logging/setLevel` set, as an index into [`LEVELS`].
    log_level: Option<usize>,
    subscriptions: BTreeSet<String>,
    /// Resources unsubscribed from that a planted `subscription-leak` goes
    /// on announcing ([`super::defect`]); always empty otherwise.
    leaked: BTreeSet<String>,
    /// 2025-11-25's tasks.
    tasks: Tasks,
    /// The ids (as sent) of the `subscriptions/listen` requests still open.
    listening: Vec<String>,
    /// A negotiating peer's client opened the 2026-07-28 way: a request it
    /// served session-free was answered with a result. 2026-07-28
    /// basic/versioning §Backward Compatibility: "A dual-era server selects
    /// its behavior from how the client opens", and only "An `initialize`
    /// request selects legacy semantics"; until one comes, what follows is
    /// that client's too (a bare `ping`, a batch), not a legacy one's (found
    /// by `wirecheck fuzz --revision 2026-07-28` over stdio: after
    /// `server/discover`, `[…]` was answered with a batch and `ping` with a
    /// legacy `{}`).
    opened_modern: bool,
    /// Declare `tools.listChanged` (only when a judged client is to be sent
    /// `notifications/tools/list_changed`: server/tools §Capabilities makes
    /// the notification depend on it, and the plain peer never sends it).
    pub(crate) tools_list_changed: bool,
}

impl Session {
    pub(crate) fn new(fixed: Option<Revision>) -> Self {
        Self {
            fixed,
            phase: Phase::Fresh,
            log_level: None,
            subscriptions: BTreeSet::new(),
            leaked: BTreeSet::new(),
            tasks: Tasks::default(),
            listening: Vec::new(),
            opened_modern: false,
            tools_list_changed: false,
        }
    }

    pub(crate) fn negotiated(&self) -> Option<Revision> {
        match self.phase {
            Phase::Fresh if self.opened_modern => Some(Revision::Mcp2026_07_28),
            Phase::Fresh => None,
            Phase::Initialized(revision) => Some(revision),
        }
    }

    /// Answers a request; notifications it causes (progress, log messages) are
    /// pushed to `out` before the answer is. `None`: the request stays open
    /// (`subscriptions/listen`) and is answered later, if at all.
    pub(crate) fn request(
        &mut self,
        id: &Id<'_>,
        method: &str,
        params: Option<&Raw<'_>>,
        in_batch: bool,
        out: &mut Vec<Vec<u8>>,
    ) -> Option<Answer> {
        let stateless = match self.fixed {
            Some(revision) => revision == Revision::Mcp2026_07_28,
            // A negotiating peer takes a request that names its revision in
            // `_meta` (or asks `server/discover`) before any `initialize` as a
            // 2026-07-28 client's (2026-07-28 basic/transports/stdio §Backward
            // Compatibility: such a client probes with `server/discover`).
            // A request naming its version in `_meta` is that client's
            // whatever came before (basic/versioning §Backward Compatibility:
            // "A request carrying modern per-request `_meta` is served
            // statelessly according to this revision"; "A dual-era server MAY
            // serve both eras concurrently on the same endpoint or process").
            None => {
                (method != "initialize" && meta(params, META_VERSION).is_some())
                    || (self.phase == Phase::Fresh
                        && ((self.opened_modern && method != "initialize")
                            || method == "server/discover"
                            || meta(params, META_VERSION).is_some()))
            }
        };
        if stateless {
            let answer = self.stateless(id, method, params, out);
            if self.fixed.is_none() && matches!(answer, Some(Ok(_))) {
                self.opened_modern = true;
            }
            return answer;
        }
        Some(self.session_request(method, params, in_batch, out))
    }

    /// A request of a revision with an `initialize` handshake.
    fn session_request(
        &mut self,
        method: &str,
        params: Option<&Raw<'_>>,
        in_batch: bool,
        out: &mut Vec<Vec<u8>>,
    ) -> Answer {
        let revision = match (self.phase, method) {
            (Phase::Fresh, "initialize") => return self.initialize(params, in_batch),
            // 2025-06-18 lifecycle §Initialization: the client may send pings
            // before the server has answered initialize.
            (Phase::Fresh, "ping") => return Ok(raw(&json!({}))),
            (Phase::Fresh, _) => {
                return Err(Failure::new(
                    codes::INVALID_REQUEST,
                    format!("Server not initialized: send initialize before {method}"),
                ))
            }
            (Phase::Initialized(_), "initialize") => {
                return Err(Failure::new(
                    codes::INVALID_REQUEST,
                    "Already initialized: initialize is sent once per session",
                ))
            }
            (Phase::Initialized(revision), _) => revision,
        };
        notification_with_id(method)?;
        let def = definition(revision, method)?;
        check_params(def, params)?;
        let value = self.dispatch(revision, method, params, None, out)?;
        Ok(raw(&value))
    }

    /// A 2026-07-28 request: no session, the revision and the client's
    /// capabilities named in `_meta` on every request.
    fn stateless(
        &mut self,
        id: &Id<'_>,
        method: &str,
        params: Option<&Raw<'_>>,
        out: &mut Vec<Vec<u8>>,
    ) -> Option<Answer> {
        let answer = self.stateless_answer(id, method, params, out);
        match answer {
            // 2026-07-28 basic/versioning §Backward Compatibility: "A server
            // that supports only modern versions SHOULD name the protocol
            // versions it supports in any error it returns to an `initialize`
            // request": a legacy client has nothing else to show its user.
            Some(Err(failure)) if method == "initialize" => Some(Err(name_versions(failure))),
            answer => answer,
        }
    }

    /// [`Session::stateless`] before an `initialize` error names the versions.
    fn stateless_answer(
        &mut self,
        id: &Id<'_>,
        method: &str,
        params: Option<&Raw<'_>>,
        out: &mut Vec<Vec<u8>>,
    ) -> Option<Answer> {
        let revision = Revision::Mcp2026_07_28;
        // The `_meta` fields first, whatever the method: 2026-07-28 basic/index
        // §Per-request protocol fields: "A request missing
        // any required field is malformed; the server MUST reject it with
        // JSON-RPC error code -32602".
        let Some(version) = meta(params, META_VERSION) else {
            return Some(Err(Failure::invalid_params(format!(
                "_meta.{META_VERSION} is required on every request"
            ))));
        };
        let Some(version) = version.as_string() else {
            return Some(Err(Failure::invalid_params(format!(
                "_meta.{META_VERSION} must be a string"
            ))));
        };
        if version != revision.name() {
            // 2026-07-28 schema `UnsupportedProtocolVersionError`: -32022 with
            // `data.supported` and `data.requested` (both required).
            return Some(Err(Failure::new(
                -32022,
                format!("Unsupported protocol version: {version}"),
            )
            .with_data(
                json!({"supported": [revision.name()], "requested": version}),
            )));
        }
        if meta(params, META_CAPABILITIES).is_none_or(|c| c.kind() != ValueKind::Object) {
            return Some(Err(Failure::invalid_params(format!(
                "_meta.{META_CAPABILITIES} is required on every request and must be an object"
            ))));
        }
        // Only a well-formed request is judged by its method: `initialize` is not
        // a 2026-07-28 method, -32601 like any other unknown one.
        let checked = notification_with_id(method)
            .and_then(|()| definition(revision, method))
            .and_then(|def| check_params(def, params).map(|()| def));
        let def = match checked {
            Ok(def) => def,
            Err(failure) => return Some(Err(failure)),
        };
        if method == "subscriptions/listen" {
            self.listen(id, out);
            return None;
        }
        let level = match meta(params, META_LOG_LEVEL).map(|l| level_index(&l)) {
            None => None,
            Some(Ok(level)) => Some(level),
            Some(Err(failure)) => return Some(Err(failure)),
        };
        let mut value = match self.dispatch(revision, method, params, level, out) {
            Ok(value) => value,
            Err(failure) => return Some(Err(failure)),
        };
        if let Value::Object(members) = &mut value {
            // 2026-07-28 schema `Result.resultType`: "Servers implementing this
            // protocol version MUST include this field."
            members
                .entry("resultType")
                .or_insert_with(|| json!("complete"));
            // basic/index §Per-response protocol fields: servers SHOULD name
            // themselves in every result's `_meta`.
            // server/utilities/caching: where the schema asks for them. The
            // catalogue is fixed and holds nothing user-specific, so an hour,
            // shared by anyone ("Servers MUST provide a ttlMs value that is >= 0").
            let has = |name: &str| def.result.is_some_and(|r| r.iter().any(|m| m.name == name));
            if has("ttlMs") {
                members.entry("ttlMs").or_insert_with(|| json!(3_600_000));
            }
            if has("cacheScope") {
                members
                    .entry("cacheScope")
                    .or_insert_with(|| json!("public"));
            }
            let meta = members.entry("_meta").or_insert_with(|| json!({}));
            if let Value::Object(meta) = meta {
                meta.insert(META_SERVER_INFO.to_owned(), server_info());
            }
        }
        Some(Ok(raw(&value)))
    }

    /// `initialize` (lifecycle §Initialization, §Version Negotiation).
    fn initialize(&mut self, params: Option<&Raw<'_>>, in_batch: bool) -> Answer {
        if in_batch {
            // 2025-03-26 lifecycle §Initialization: "The initialize request MUST
            // NOT be part of a JSON-RPC batch".
            return Err(Failure::new(
                codes::INVALID_REQUEST,
                "initialize must not be part of a JSON-RPC batch",
            ));
        }
        let requested = params
            .and_then(|p| p.get("protocolVersion"))
            .and_then(|v| v.as_string().map(|s| s.into_owned()));
        // §Version Negotiation: "If the server supports the requested protocol
        // version, it MUST respond with the same version. Otherwise, the server
        // MUST respond with another protocol version it supports. This SHOULD be
        // the latest version supported by the server." The latest revision is
        // stateless and has no initialize, so a negotiating peer offers the
        // latest one that does.
        let chosen = self.fixed.unwrap_or_else(|| {
            HANDSHAKE
                .into_iter()
                .find(|r| requested.as_deref() == Some(r.name()))
                .unwrap_or(Revision::Mcp2025_11_25)
        });
        let def = definition(chosen, "initialize")?;
        check_params(def, params)?;
        self.phase = Phase::Initialized(chosen);
        Ok(raw(&json!({
            "protocolVersion": chosen.name(),
            "capabilities": capabilities(chosen, self.tools_list_changed),
            "serverInfo": server_info(),
            "instructions": "The wirecheck reference peer: tools echo, pay and long_job, the code_review prompt, and file:///project/README.md.",
        })))
    }

    /// Handles a notification. None is answered (JSON-RPC 2.0 §4.1) and none
    /// changes what the peer does: `notifications/initialized` ends a handshake
    /// after which the peer, which sends no requests of its own, has nothing
    /// it was waiting to do; `notifications/cancelled` finds no request in
    /// flight (see the module docs); anything else, invalid ones included, is
    /// ignored (cancellation §Behavior Requirements).
    /// The exception is 2026-07-28's open `subscriptions/listen`: a
    /// `notifications/cancelled` naming it ends it, with no response
    /// (2026-07-28 basic/patterns/cancellation §Behavior Requirements: servers
    /// SHOULD "Not send a response for the cancelled request").
    pub(crate) fn notification(&mut self, method: &str, params: Option<&Raw<'_>>) {
        if method != "notifications/cancelled" {
            return;
        }
        if let Some(request) = params.and_then(|p| p.get("requestId")) {
            let request = request.as_str().to_owned();
            self.listening.retain(|open| *open != request);
        }
    }

    /// Ends the session: each open subscription is torn down. 2026-07-28
    /// basic/patterns/cancellation: "A server MUST send
    /// `notifications/cancelled` referencing a `subscriptions/listen` request
    /// ID when it tears down that subscription stream", and
    /// basic/patterns/subscriptions §Graceful Closure: it "SHOULD respond to
    /// the original `subscriptions/listen` request with a completion result".
    /// Both are sent, the notification first, while the request is still the
    /// open one it references.
    pub(crate) fn close(&mut self, out: &mut Vec<Vec<u8>>) {
        for id in std::mem::take(&mut self.listening) {
            let params = format!(
                r#"{{"requestId":{id},"reason":"the server is shutting down","_meta":{{"{SUBSCRIPTION_ID}":{id}}}}}"#
            );
            out.push(notification_document(
                "notifications/cancelled",
                Raw::parse(&params).map(Raw::into_owned).ok(),
            ));
            let info = server_info();
            out.push(
                format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"complete","_meta":{{"{SUBSCRIPTION_ID}":{id},"{META_SERVER_INFO}":{info}}}}}}}"#
                )
                .into_bytes(),
            );
        }
    }

    /// `subscriptions/listen` (2026-07-28 basic/patterns/subscriptions): the
    /// acknowledgment, and the request kept open. The catalogue never
    /// changes, so no notification type could ever fire: the acknowledgment
    /// honours none ("Notification types the server does not support are
    /// omitted").
    fn listen(&mut self, id: &Id<'_>, out: &mut Vec<Vec<u8>>) {
        // §Acknowledgment: the first message, carrying the request's id as the
        // subscription id, written as the id's own text.
        let ack = format!(
            r#"{{"_meta":{{"{SUBSCRIPTION_ID}":{}}},"notifications":{{}}}}"#,
            id.raw()
        );
        out.push(notification_document(
            "notifications/subscriptions/acknowledged",
            Raw::parse(&ack).map(Raw::into_owned).ok(),
        ));
        self.listening.push(id.raw().to_owned());
    }

    /// Serves `method` under `revision`; `log_level` is a per-request level
    /// (2026-07-28 `_meta`), else the session's.
    fn dispatch(
        &mut self,
        revision: Revision,
        method: &str,
        params: Option<&Raw<'_>>,
        log_level: Option<usize>,
        out: &mut Vec<Vec<u8>>,
    ) -> Result<Value, Failure> {
        for uri in &self.leaked {
            let params = json!({"uri": uri}).to_string();
            out.push(notification_document(
                "notifications/resources/updated",
                Raw::parse(&params).map(Raw::into_owned).ok(),
            ));
        }
        // basic/utilities/progress §Progress Flow: "Progress tokens MUST be a
        // string or integer value".
        let progress = meta(params, "progressToken");
        if let Some(token) = &progress {
            let integer = token.kind() == ValueKind::Number && is_integer(token.as_str());
            if token.kind() != ValueKind::String && !integer {
                return Err(Failure::invalid_params(
                    "_meta.progressToken must be a string or an integer",
                ));
            }
        }
        let cursor = || {
            params
                .and_then(|p| p.get("cursor"))
                .and_then(|c| c.as_string().map(|s| s.into_owned()))
        };
        match method {
            "ping" => Ok(json!({})),
            "server/discover" => Ok(json!({
                "supportedVersions": [Revision::Mcp2026_07_28.name()],
                "capabilities": capabilities(revision, self.tools_list_changed),
                "instructions": "The wirecheck reference peer.",
            })),
            "tools/list" => {
                let tools = TOOLS
                    .iter()
                    .filter(|t| t.offered_in(revision))
                    .map(|t| {
                        let mut tool = json!({"name": t.name, "description": t.description, "inputSchema": (t.input_schema)()});
                        // 2025-11-25 basic/utilities/tasks §Tool-Level Negotiation.
                        if let (Some(support), true) = (t.task_support, revision == Revision::Mcp2025_11_25) {
                            tool["execution"] = json!({"taskSupport": support});
                        }
                        tool
                    })
                    .collect();
                page(tools, "tools", cursor())
            }
            "tools/call" => {
                let level = log_level.or(self.log_level);
                match task_requested(revision, params)? {
                    None => call_tool(revision, params, progress.as_ref(), level, out),
                    Some(ttl) => {
                        // The call's own notifications (progress, logs) belong
                        // to the request the task replaced; they are dropped.
                        let outcome =
                            call_tool(revision, params, progress.as_ref(), level, &mut Vec::new());
                        Ok(self.tasks.create(ttl, outcome))
                    }
                }
            }
            "prompts/list" => page(vec![catalogue::prompt_listing()], "prompts", cursor()),
            "prompts/get" => get_prompt(params),
            "resources/list" => page(vec![catalogue::resource_listing()], "resources", cursor()),
            "resources/templates/list" => page(
                vec![catalogue::template_listing()],
                "resourceTemplates",
                cursor(),
            ),
            "resources/read" => {
                let uri = string_param(params, "uri");
                if uri.as_deref() == Some(catalogue::README_URI) {
                    Ok(json!({"contents": [{
                        "uri": catalogue::README_URI,
                        "mimeType": "text/markdown",
                        "text": catalogue::README_TEXT,
                    }]}))
                } else {
                    Err(not_found(revision, uri.as_deref().unwrap_or("")))
                }
            }
            "resources/subscribe" | "resources/unsubscribe" => {
                // Any URI may be subscribed to: a resource may appear later,
                // and the subscription is what the client asked for.
                let uri = string_param(params, "uri").unwrap_or_default();
                if method == "resources/subscribe" {
                    self.subscriptions.insert(uri);
                } else {
                    if super::defect::planted(super::defect::StateDefect::SubscriptionLeak) {
                        self.leaked.insert(uri.clone());
                    }
                    self.subscriptions.remove(&uri);
                }
                Ok(json!({}))
            }
            "logging/setLevel" => {
                let level = params
                    .and_then(|p| p.get("level"))
                    .ok_or_else(|| Failure::invalid_params("level is required"))?;
                self.log_level = Some(level_index(&level)?);
                Ok(json!({}))
            }
            "completion/complete" => complete(params),
            "tasks/get" => self.tasks.get(string_param(params, "taskId").as_deref()),
            "tasks/result" => self.tasks.result(string_param(params, "taskId").as_deref()),
            "tasks/cancel" => self.tasks.cancel(string_param(params, "taskId").as_deref()),
            "tasks/list" => page(self.tasks.list(), "tasks", cursor()),
            // Defined by the revision's schema, not served here: "not
            // available" is -32601 (JSON-RPC 2.0 §5.1).
            _ => Err(Failure::method_not_found(method)),
        }
    }
}

/// -32600 for a notification method sent as a request (basic/index
/// §Notifications: "Notifications MUST NOT include an ID").
fn notification_with_id(method: &str) -> Result<(), Failure> {
    if method.starts_with("notifications/") {
        return Err(Failure::new(
            codes::INVALID_REQUEST,
            format!("{method} is a notification and must not carry an id"),
        ));
    }
    Ok(())
}

/// The schema's definition of a client request in `revision`, or -32601.
fn definition(revision: Revision, method: &str) -> Result<&'static MethodDef, Failure> {
    methods()
        .iter()
        .find(|d| {
            d.revision == revision
                && d.sender == Sender::Client
                && d.kind == Kind::Request
                && d.method == method
        })
        .ok_or_else(|| Failure::method_not_found(method))
}

/// -32602 when `params` lacks a member the schema requires or gives one the
/// wrong JSON type.
fn check_params(def: &MethodDef, params: Option<&Raw<'_>>) -> Result<(), Failure> {
    let Some(params) = params else {
        if def.params_required || def.params.iter().any(|m| m.required) {
            return Err(Failure::invalid_params(format!(
                "{} requires params",
                def.method
            )));
        }
        return Ok(());
    };
    if params.kind() != ValueKind::Object {
        return Err(Failure::invalid_params("params must be an object"));
    }
    for member in def.params {
        match params.get(member.name) {
            None if member.required => {
                return Err(Failure::invalid_params(format!(
                    "params.{} is required",
                    member.name
                )))
            }
            Some(value) if member.types != 0 && !fits(&value, member.types) => {
                return Err(Failure::invalid_params(format!(
                    "params.{} has the wrong type ({})",
                    member.name,
                    value.kind().name()
                )))
            }
            _ => {}
        }
    }
    Ok(())
}

fn fits(value: &Raw<'_>, types: u8) -> bool {
    let bit = match value.kind() {
        ValueKind::Object => ty::OBJECT,
        ValueKind::Array => ty::ARRAY,
        ValueKind::String => ty::STRING,
        ValueKind::Number if is_integer(value.as_str()) => ty::NUMBER | ty::INTEGER,
        ValueKind::Number => ty::NUMBER,
        ValueKind::Bool => ty::BOOLEAN,
        ValueKind::Null => ty::NULL,
    };
    types & bit != 0
}

/// `params._meta[key]`.
fn meta<'p>(params: Option<&'p Raw<'_>>, key: &str) -> Option<Raw<'p>> {
    let params = params?;
    let meta = params.get("_meta")?;
    // `Raw::get` borrows from the value it is called on; own the small member.
    meta.get(key).map(Raw::into_owned)
}

fn string_param(params: Option<&Raw<'_>>, name: &str) -> Option<String> {
    params?.get(name)?.as_string().map(|s| s.into_owned())
}

fn raw(value: &Value) -> Raw<'static> {
    Raw::from_value(value)
}

fn server_info() -> Value {
    json!({"name": "wirecheck", "version": env!("CARGO_PKG_VERSION")})
}

/// Exactly what the peer implements, in the revision's vocabulary.
fn capabilities(revision: Revision, tools_list_changed: bool) -> Value {
    let mut caps = Map::new();
    let tools = if tools_list_changed {
        json!({"listChanged": true})
    } else {
        json!({})
    };
    caps.insert("tools".into(), tools);
    caps.insert("prompts".into(), json!({}));
    // resources/subscribe exists until 2026-07-28, which replaced it with
    // subscriptions/listen (a request, not a capability).
    let resources = if revision < Revision::Mcp2026_07_28 {
        json!({"subscribe": true})
    } else {
        json!({})
    };
    caps.insert("resources".into(), resources);
    caps.insert("logging".into(), json!({}));
    // The `completions` capability first appears in the 2025-03-26 schema.
    if revision >= Revision::Mcp2025_03_26 {
        caps.insert("completions".into(), json!({}));
    }
    // Tasks exist only in 2025-11-25 (basic/utilities/tasks §Server
    // Capabilities): list, cancel and task-augmented tools/call, all served.
    if revision == Revision::Mcp2025_11_25 {
        caps.insert(
            "tasks".into(),
            json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}),
        );
    }
    Value::Object(caps)
}

/// Resource not found: -32002 until 2026-07-28, which says "servers MUST
/// return a JSON-RPC error with code -32602" (server/resources §Error Handling).
fn not_found(revision: Revision, uri: &str) -> Failure {
    let code = if revision >= Revision::Mcp2026_07_28 {
        codes::INVALID_PARAMS
    } else {
        -32002
    };
    Failure::new(code, "Resource not found").with_data(json!({"uri": uri}))
}

fn level_index(level: &Raw<'_>) -> Result<usize, Failure> {
    level
        .as_string()
        .and_then(|l| LEVELS.iter().position(|known| *known == l))
        // server/utilities/logging §Error Handling: "Invalid log level: -32602".
        .ok_or_else(|| Failure::invalid_params(format!("unknown log level {level}")))
}

/// One page of `items` under `key`, with opaque cursors the peer issued
/// ([`cursor`]; server/utilities/pagination: "Invalid cursors SHOULD result in
/// an error with code -32602").
fn page(items: Vec<Value>, key: &str, cursor: Option<String>) -> Result<Value, Failure> {
    let pages = items.len().div_ceil(PAGE_SIZE).max(1);
    let number = match cursor.as_deref() {
        None => 1,
        Some(c) => cursor::page_of(key, c)
            .filter(|n| (2..=pages).contains(n))
            .ok_or_else(|| Failure::invalid_params(format!("Invalid cursor: {c}")))?,
    };
    let mut skip = (number - 1) * PAGE_SIZE;
    if number > 1 && super::defect::planted(super::defect::StateDefect::RepeatingCursor) {
        skip -= 1;
    }
    let slice: Vec<Value> = items.into_iter().skip(skip).take(PAGE_SIZE).collect();
    let mut result = Map::new();
    result.insert(key.to_owned(), Value::Array(slice));
    if number < pages {
        result.insert("nextCursor".into(), json!(cursor::issue(key, number + 1)));
    }
    Ok(Value::Object(result))
}

fn call_tool(
    revision: Revision,
    params: Option<&Raw<'_>>,
    progress: Option<&Raw<'_>>,
    log_level: Option<usize>,
    out: &mut Vec<Vec<u8>>,
) -> Result<Value, Failure> {
    let name = string_param(params, "name").unwrap_or_default();
    let arguments = params
        .and_then(|p| p.get("arguments"))
        .and_then(|a| a.to_value())
        .unwrap_or_else(|| json!({}));
    let Some(tool) = TOOLS
        .iter()
        .find(|t| t.name == name && t.offered_in(revision))
    else {
        // server/tools §Error Handling: unknown tools are a protocol error; the
        // spec's example is -32602 "Unknown tool".
        return Err(Failure::invalid_params(format!("Unknown tool: {name}")));
    };
    // logging: "info" when the client asked for it (setLevel or `_meta`).
    if log_level.is_some_and(|l| l <= 1) {
        let data = json!({"level": "info", "logger": "wirecheck", "data": {"tool": tool.name}});
        out.push(notification_document(
            "notifications/message",
            Some(raw(&data)),
        ));
    }
    match tool.name {
        "echo" => match arguments.get("text").and_then(Value::as_str) {
            Some(text) => Ok(json!({"content": [{"type": "text", "text": text}]})),
            // server/tools §Error Handling: invalid input is a tool execution
            // error, reported in the result with isError so the model sees it.
            None => Ok(json!({
                "content": [{"type": "text", "text": "echo takes a string `text` argument"}],
                "isError": true,
            })),
        },
        catalogue::ROUTE => match arguments.get("region").and_then(Value::as_str) {
            Some(region) => {
                let count = arguments
                    .get("count")
                    .map_or_else(String::new, |c| format!(", count {c}"));
                Ok(
                    json!({"content": [{"type": "text", "text": format!("region {region}{count}")}]}),
                )
            }
            None => Ok(json!({
                "content": [{"type": "text", "text": "route takes a string `region` argument"}],
                "isError": true,
            })),
        },
        "pay" => Err(
            Failure::new(codes::INTERNAL_ERROR, "Internal error").with_data(json!({
                "reason": "payment backend unavailable",
                "retryable": false,
            })),
        ),
        _ => {
            let steps = match arguments.get("steps") {
                None => 3,
                Some(n) => match n.as_u64().filter(|n| (1..=100).contains(n)) {
                    Some(n) => n,
                    None => {
                        return Ok(json!({
                            "content": [{"type": "text", "text": "long_job takes an integer `steps` from 1 to 100"}],
                            "isError": true,
                        }))
                    }
                },
            };
            if let Some(token) = progress {
                for step in 1..=steps {
                    // progress §Progress Flow: the value MUST increase with each
                    // notification; `message` exists from 2025-03-26 on.
                    let message = if revision >= Revision::Mcp2025_03_26 {
                        format!(r#","message":"step {step} of {steps}""#)
                    } else {
                        String::new()
                    };
                    let text = format!(
                        r#"{{"progressToken":{},"progress":{step},"total":{steps}{message}}}"#,
                        token.as_str()
                    );
                    let params = Raw::parse(&text).map(Raw::into_owned).ok();
                    out.push(notification_document("notifications/progress", params));
                }
            }
            Ok(json!({"content": [{"type": "text", "text": format!("done: {steps} steps")}]}))
        }
    }
}

/// Whether a `tools/call` asks for a task, and its requested `ttl`.
///
/// 2025-11-25 basic/utilities/tasks §Tool-Level Negotiation: a tool whose
/// `execution.taskSupport` is absent or `"forbidden"` must not be invoked as a
/// task, and "Servers SHOULD return a `-32601` (Method not found) error if a
/// client attempts to do so"; one that `"required"` it "MUST return a `-32601`"
/// when not invoked as a task (no tool here requires it). Before 2025-11-25 a
/// `task` member means nothing and the call is served normally (§Task Support
/// and Handling: receivers without the capability "MUST process requests of
/// that type normally").
fn task_requested(
    revision: Revision,
    params: Option<&Raw<'_>>,
) -> Result<Option<Option<u64>>, Failure> {
    let Some(task) = params.and_then(|p| p.get("task")) else {
        return Ok(None);
    };
    if revision != Revision::Mcp2025_11_25 {
        return Ok(None);
    }
    let name = string_param(params, "name").unwrap_or_default();
    let supported = TOOLS
        .iter()
        .find(|t| t.name == name)
        .is_some_and(|t| t.task_support.is_some_and(|s| s != "forbidden"));
    if !supported {
        return Err(Failure::new(
            codes::METHOD_NOT_FOUND,
            format!("Tool {name} cannot be invoked as a task"),
        ));
    }
    Ok(Some(
        task.get("ttl").and_then(|t| t.as_str().parse::<u64>().ok()),
    ))
}

/// The failure answering a legacy `initialize`, naming the versions the
/// server supports in `data.supported` (kept when already there).
fn name_versions(mut failure: Failure) -> Failure {
    let supported = json!([Revision::Mcp2026_07_28.name()]);
    match &mut failure.data {
        Some(Value::Object(data)) => {
            data.entry("supported").or_insert(supported);
        }
        _ => failure.data = Some(json!({"supported": supported})),
    }
    failure.message = format!(
        "{} (this server speaks only MCP {})",
        failure.message,
        Revision::Mcp2026_07_28.name()
    );
    failure
}

fn get_prompt(params: Option<&Raw<'_>>) -> Result<Value, Failure> {
    let name = string_param(params, "name").unwrap_or_default();
    if name != catalogue::PROMPT {
        // server/prompts §Error Handling: "Invalid prompt name: -32602".
        return Err(Failure::invalid_params(format!("Unknown prompt: {name}")));
    }
    let arguments = params
        .and_then(|p| p.get("arguments"))
        .and_then(|a| a.to_value())
        .unwrap_or_else(|| json!({}));
    let Value::Object(arguments) = arguments else {
        return Err(Failure::invalid_params("arguments must be an object"));
    };
    // The schema's `GetPromptRequest.arguments` maps names to strings.
    if arguments.values().any(|v| !v.is_string()) {
        return Err(Failure::invalid_params("prompt arguments must be strings"));
    }
    let Some(code) = arguments.get("code").and_then(Value::as_str) else {
        // server/prompts §Error Handling: "Missing required arguments: -32602".
        return Err(Failure::invalid_params("argument `code` is required"));
    };
    let language = arguments
        .get("language")
        .and_then(Value::as_str)
        .unwrap_or("this");
    Ok(json!({
        "description": "Code review",
        "messages": [{
            "role": "user",
            "content": {"type": "text", "text": format!("Please review {language} code:\n{code}")},
        }],
    }))
}

/// completion/complete for the prompt's arguments and the template's `path`
/// (server/utilities/completion).
fn complete(params: Option<&Raw<'_>>) -> Result<Value, Failure> {
    let params = params.and_then(Raw::to_value).unwrap_or(Value::Null);
    let reference = &params["ref"];
    let argument = params["argument"]["name"].as_str().unwrap_or_default();
    let prefix = params["argument"]["value"].as_str().unwrap_or_default();
    let candidates: &[&str] = match (reference["type"].as_str(), argument) {
        (Some("ref/prompt"), _) if reference["name"] != catalogue::PROMPT => {
            return Err(Failure::invalid_params("Unknown prompt"))
        }
        (Some("ref/prompt"), "language") => catalogue::LANGUAGES,
        (Some("ref/prompt"), _) => &[],
        (Some("ref/resource"), _) if reference["uri"] != "file:///project/{path}" => {
            return Err(Failure::invalid_params("Unknown resource template"))
        }
        (Some("ref/resource"), "path") => &["README.md"],
        (Some("ref/resource"), _) => &[],
        _ => {
            return Err(Failure::invalid_params(
                "ref must be a ref/prompt or a ref/resource",
            ))
        }
    };
    let values: Vec<&str> = candidates
        .iter()
        .copied()
        .filter(|c| c.starts_with(prefix))
        .collect();
    Ok(json!({"completion": {"values": values, "total": values.len(), "hasMore": false}}))
}
