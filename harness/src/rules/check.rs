//! Per-frame checks: what one frame shows under a profile, without the session
//! around it. Each check names its rule by id; [`Report::flag`] drops the ones
//! that do not apply to the revision, so the revision ranges live in the
//! catalogue only.

use super::schema::{self, has_type, is_integer, type_names, Kind, Member, Sender};
use super::{at, meta, Report, RuleId};
use crate::codes;
use crate::ir::{ErrorResponse, Frame, Id, Message, Raw, Success, ValueKind};
use crate::profile::{Direction, Profile, Revision};

/// The `_meta` keys 2026-07-28 requires on every client request.
pub(super) const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub(super) const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// Checks one lifted frame.
pub(super) fn frame(frame: &Frame<'_>, profile: Profile, out: &mut Report) {
    match frame {
        Frame::Single(m) => message(m, "", profile, out),
        Frame::Batch(messages) => {
            batch(messages, out);
            for (i, m) in messages.iter().enumerate() {
                message(m, &at("", &i.to_string()), profile, out);
            }
        }
    }
}

/// Rules on the batch as a whole. Plain JSON-RPC 2.0 allows batches (§6);
/// 2025-03-26 requires receiving them; the other revisions do not have them.
fn batch(messages: &[Message<'_>], out: &mut Report) {
    let calls = messages
        .iter()
        .filter(|m| matches!(m, Message::Request(_) | Message::Notification(_)))
        .count();
    // Only a sender's batch of calls: an array of responses answers a batch,
    // which JSON-RPC 2.0 §6 asks for ("The Server should respond with an
    // Array containing the corresponding Response objects"), and 2024-11-05
    // has no sentence against it.
    if calls != 0 {
        out.flag(
            RuleId::McpBatchNoneR1,
            String::new(),
            "a batch: 2024-11-05 does not define batches".to_owned(),
        );
    }
    out.flag(
        RuleId::McpBatchRemoved,
        String::new(),
        "a batch: batching was removed in 2025-06-18".to_owned(),
    );
    for (i, m) in messages.iter().enumerate() {
        if matches!(m, Message::Request(_)) && m.method().as_deref() == Some("initialize") {
            out.flag(
                RuleId::McpBatchInitializeNotInBatch,
                at("", &i.to_string()),
                "`initialize` inside a batch".to_owned(),
            );
        }
    }
    if calls != 0 && calls != messages.len() {
        out.flag(
            RuleId::McpBatchHttpPostBodyR2,
            String::new(),
            format!(
                "a batch mixing {calls} requests or notifications with {} responses",
                messages.len() - calls
            ),
        );
    }
}

fn message(m: &Message<'_>, base: &str, profile: Profile, out: &mut Report) {
    let revision = profile.revision;
    match m {
        Message::Request(r) => {
            request_id(&r.id, &at(base, "id"), revision, out);
            call(m, base, Kind::Request, profile, out);
            if revision.is_mcp() && profile.direction == Direction::ServerToClient {
                out.flag(
                    RuleId::McpR5StdioNoServerRequests,
                    base.to_owned(),
                    format!("the server sent a request (`{}`); 2026-07-28 has no server-to-client requests", m.method().unwrap_or_default()),
                );
            }
            if profile.direction == Direction::ClientToServer {
                per_request_meta(r.params.as_ref(), base, out);
                if let Some(caps) = r
                    .params
                    .as_ref()
                    .and_then(|p| p.get("_meta"))
                    .and_then(|m| m.get(CLIENT_CAPABILITIES).map(Raw::into_owned))
                {
                    let pointer = at(&at(&at(base, "params"), "_meta"), CLIENT_CAPABILITIES);
                    super::server_requests::extensions(&caps, &pointer, out);
                }
            }
        }
        Message::Notification(n) => {
            call(m, base, Kind::Notification, profile, out);
            super::subscriptions::notification(
                n.method.decoded().as_ref(),
                n.params.as_ref(),
                base,
                profile,
                out,
            );
        }
        Message::Success(s) => success(s, base, profile, out),
        Message::Error(e) => error(e, base, profile, out),
    }
    if profile.direction == Direction::ClientToServer
        && matches!(m, Message::Success(_) | Message::Error(_))
    {
        out.flag(
            RuleId::McpR5StdioNoServerRequests,
            base.to_owned(),
            "the client sent a response; in 2026-07-28 the client MUST NOT write responses"
                .to_owned(),
        );
    }
}

/// A request's id: never null in MCP, an integer when a number.
fn request_id(id: &Id<'_>, pointer: &str, revision: Revision, out: &mut Report) {
    match id {
        Id::Null => {
            out.flag(
                RuleId::JsonrpcRequestIdNotNull,
                pointer.to_owned(),
                "request id is null".to_owned(),
            );
            out.flag(
                RuleId::McpBaseIdNotNull,
                pointer.to_owned(),
                "request id is null".to_owned(),
            );
        }
        Id::Number(text) => {
            let integral = is_integer(text);
            if revision.is_mcp() && !integral {
                out.flag(
                    RuleId::McpBaseIdType,
                    pointer.to_owned(),
                    format!("request id {text} is not an integer"),
                );
            } else if !integral || text.contains('.') {
                out.flag(
                    RuleId::JsonrpcRequestIdNoFraction,
                    pointer.to_owned(),
                    format!("request id {text} has a fractional part"),
                );
            }
        }
        Id::String(_) => {}
    }
}

/// A request or notification: its method name, params and `_meta`.
fn call(m: &Message<'_>, base: &str, kind: Kind, profile: Profile, out: &mut Report) {
    let method = m.method().unwrap_or_default();
    if method.starts_with("rpc.") {
        out.flag(
            RuleId::JsonrpcRequestMethodRpcReserved,
            at(base, "method"),
            format!("method `{method}` begins with `rpc.`"),
        );
    }
    let params = m.params();
    if let Some(p) = params {
        if p.kind() == ValueKind::Array {
            out.flag(
                RuleId::McpBaseParamsObject,
                at(base, "params"),
                "params is an array; MCP params are an object".to_owned(),
            );
        }
        meta::walk(p, &at(base, "params"), profile.revision, out);
        if let Some(token) = p
            .get("_meta")
            .and_then(|m| m.get("progressToken").map(Raw::into_owned))
        {
            if !has_type(&token, schema::ty::STRING | schema::ty::INTEGER) {
                out.flag(
                    RuleId::McpProgressTokenType,
                    at(&at(&at(base, "params"), "_meta"), "progressToken"),
                    format!(
                        "progress token {} is not a string or integer",
                        token.as_str()
                    ),
                );
            }
        }
    }
    if profile.revision.is_mcp() {
        method_table(&method, kind, params, base, profile, out);
    }
    if profile.revision == Revision::Mcp2025_11_25 {
        super::tasks::call(&method, params, base, out);
    }
    if kind == Kind::Request && profile.direction == Direction::ServerToClient {
        super::server_requests::request(&method, params, base, out);
    }
}

/// The method against the revision's schema: defined, for this sender, with the
/// params it requires. An unknown method is no violation: JSON-RPC lets any name
/// be sent, MCP forbids no extension methods, and the receiver's -32601 is the
/// conformant answer. A method another revision (or the other side) defines is
/// reported at SHOULD NOT; see `mcp.method.other-revision`.
fn method_table(
    method: &str,
    kind: Kind,
    params: Option<&Raw<'_>>,
    base: &str,
    profile: Profile,
    out: &mut Report,
) {
    let revision = profile.revision;
    let sender = Sender::from(profile.direction);
    let Some(def) = schema::find(revision, sender, method) else {
        let other = match sender {
            Sender::Client => Sender::Server,
            Sender::Server => Sender::Client,
        };
        if schema::find(revision, other, method).is_some() {
            // 2026-07-28 server requests are reported as such (a MUST NOT).
            if !(revision == Revision::Mcp2026_07_28 && kind == Kind::Request) {
                out.flag(
                    RuleId::McpMethodDirection,
                    at(base, "method"),
                    format!(
                        "`{method}` is sent by the {} in {revision}, not the {}",
                        other_name(other),
                        other_name(sender)
                    ),
                );
            }
        } else {
            let mut elsewhere: Vec<&str> = schema::revisions_defining(method)
                .map(|d| d.revision.name())
                .collect();
            elsewhere.dedup();
            if !elsewhere.is_empty() {
                out.flag(
                    RuleId::McpMethodOtherRevision,
                    at(base, "method"),
                    format!(
                        "`{method}` is not a method of {revision}; it is defined in {}",
                        elsewhere.join(", ")
                    ),
                );
            }
        }
        return;
    };
    match (def.kind, kind) {
        (Kind::Notification, Kind::Request) => out.flag(
            RuleId::McpBaseNotificationNoId,
            at(base, "id"),
            format!("`{method}` is a notification but carries an id"),
        ),
        (Kind::Request, Kind::Notification) => out.flag(
            RuleId::McpBaseIdType,
            base.to_owned(),
            format!("`{method}` is a request but has no id (sent as a notification)"),
        ),
        _ => {}
    }
    let rule = if method == "initialize" {
        RuleId::McpLifecycleClientSendsInitialize
    } else {
        RuleId::McpSchemaRequestParams
    };
    let pointer = at(base, "params");
    match params {
        Some(p) if p.kind() != ValueKind::Object => {} // reported as params-object or refused
        Some(p) => members(p, def.params, Part::Params, rule, &pointer, method, out),
        None => {
            let missing: Vec<&str> = required(def.params, revision, Part::Params).collect();
            if !missing.is_empty() {
                out.flag(
                    rule,
                    base.to_owned(),
                    format!("`{method}` requires params with {}", quoted(&missing)),
                );
            } else if def.params_required && revision != Revision::Mcp2026_07_28 {
                out.flag(rule, base.to_owned(), format!("`{method}` requires params"));
            }
        }
    }
    if method == "initialize" {
        if let Some(info) = params.and_then(|p| p.get("clientInfo").map(Raw::into_owned)) {
            implementation(&info, "clientInfo", rule, &pointer, out);
        }
    }
    if method == "notifications/subscriptions/acknowledged" {
        let has_id = params
            .and_then(|p| {
                p.get("_meta")
                    .and_then(|m| m.get(SUBSCRIPTION_ID).map(Raw::into_owned))
            })
            .is_some();
        if !has_id {
            out.flag(
                RuleId::McpR5SubscriptionIdMeta,
                pointer,
                format!(
                    "`notifications/subscriptions/acknowledged` lacks `_meta` `{SUBSCRIPTION_ID}`"
                ),
            );
        }
    }
}

/// An `Implementation` (`clientInfo`, `serverInfo`): the schema requires its
/// `name` and `version` as strings in every revision.
pub(crate) fn implementation(
    info: &Raw<'_>,
    member: &str,
    rule: RuleId,
    pointer: &str,
    out: &mut Report,
) {
    for name in ["name", "version"] {
        if !info
            .get(name)
            .is_some_and(|v| v.kind() == ValueKind::String)
        {
            out.flag(
                rule,
                at(pointer, member),
                format!("`{member}.{name}` must be a string"),
            );
        }
    }
}

fn other_name(sender: Sender) -> &'static str {
    match sender {
        Sender::Client => "client",
        Sender::Server => "server",
    }
}

/// Which object of a method the schema members describe.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    /// A request's or notification's `params`.
    Params,
    /// A request's result.
    Result,
}

/// The required members of a params or result object. In 2026-07-28 the
/// params' `_meta` and the result's `resultType` are left out: their own rules
/// (`mcp.r5.meta.required-fields`, `mcp.base.result-type-required`) report
/// them, once.
pub(super) fn required(
    members: &[Member],
    revision: Revision,
    part: Part,
) -> impl Iterator<Item = &'static str> + '_ {
    let own_rule = move |name: &str| {
        revision == Revision::Mcp2026_07_28
            && match part {
                Part::Params => name == "_meta",
                Part::Result => name == "resultType",
            }
    };
    members
        .iter()
        .filter(move |m| m.required && !own_rule(m.name))
        .map(|m| m.name)
}

/// Checks an object against the schema's members: each required one present,
/// each present one of the pinned types.
pub(super) fn members(
    object: &Raw<'_>,
    schema: &[Member],
    part: Part,
    rule: RuleId,
    pointer: &str,
    what: &str,
    out: &mut Report,
) {
    for name in required(schema, out.revision, part) {
        if object.get(name).is_none() {
            out.flag(
                rule,
                pointer.to_owned(),
                format!("`{what}`: `{name}` is required"),
            );
        }
    }
    for m in schema {
        if let Some(value) = object.get(m.name) {
            if !has_type(&value, m.types) {
                out.flag(
                    rule,
                    at(pointer, m.name),
                    format!(
                        "`{what}`: `{}` must be {}, found {}",
                        m.name,
                        type_names(m.types),
                        value.kind().name()
                    ),
                );
            }
        }
    }
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// 2026-07-28: every client request carries its protocol version and client
/// capabilities in `params._meta`.
fn per_request_meta(params: Option<&Raw<'_>>, base: &str, out: &mut Report) {
    if !out.applies(RuleId::McpR5MetaRequiredFields) {
        return;
    }
    let meta = params.and_then(|p| p.get("_meta").map(Raw::into_owned));
    let pointer = match &meta {
        Some(_) => at(&at(base, "params"), "_meta"),
        None if params.is_some() => at(base, "params"),
        None => base.to_owned(),
    };
    let missing = |key: &str, kind: ValueKind| {
        !meta
            .as_ref()
            .and_then(|m| m.get(key).map(|v| v.kind() == kind))
            .unwrap_or(false)
    };
    for (key, kind) in [
        (PROTOCOL_VERSION, ValueKind::String),
        (CLIENT_CAPABILITIES, ValueKind::Object),
    ] {
        if missing(key, kind) {
            out.flag(
                RuleId::McpR5MetaRequiredFields,
                pointer.clone(),
                format!("client request lacks `_meta` `{key}` ({})", kind.name()),
            );
        }
    }
    if missing(CLIENT_INFO, ValueKind::Object) {
        out.flag(
            RuleId::McpR5MetaClientInfo,
            pointer,
            format!("client request lacks `_meta` `{CLIENT_INFO}`"),
        );
    }
}

fn success(s: &Success<'_>, base: &str, profile: Profile, out: &mut Report) {
    let pointer = at(base, "result");
    if profile.revision.is_mcp() && s.result.kind() != ValueKind::Object {
        out.flag(
            RuleId::McpBaseResultObject,
            pointer.clone(),
            format!("result is {}, not an object", s.result.kind().name()),
        );
        return;
    }
    meta::walk(&s.result, &pointer, profile.revision, out);
    if profile.direction == Direction::ServerToClient {
        super::server_requests::input_requests(&s.result, &pointer, out);
    }
    if out.applies(RuleId::McpR5ExtensionIdentifier) {
        // `server/discover` answers with the server's capabilities; a frame
        // shows a result, not which request it answers, so any result's
        // `capabilities` is read (only DiscoverResult has one in 2026-07-28).
        if let Some(caps) = s.result.get("capabilities") {
            super::server_requests::extensions(&caps, &at(&pointer, "capabilities"), out);
        }
    }
    if profile.direction == Direction::ServerToClient
        && out.applies(RuleId::McpBaseResultTypeRequired)
    {
        match s.result.get("resultType") {
            None => out.flag(
                RuleId::McpBaseResultTypeRequired,
                pointer.clone(),
                "result lacks `resultType`".to_owned(),
            ),
            Some(t) => match t.as_string().as_deref() {
                Some("complete") => {}
                Some("input_required") => {
                    if s.result.get("inputRequests").is_none()
                        && s.result.get("requestState").is_none()
                    {
                        out.flag(
                            RuleId::McpR5MrtrInputRequiredContent,
                            pointer.clone(),
                            "an `input_required` result has neither `inputRequests` nor `requestState`".to_owned(),
                        );
                    }
                }
                _ => out.flag(
                    RuleId::McpBaseResultTypeValues,
                    at(&pointer, "resultType"),
                    format!(
                        "`resultType` {} is neither \"complete\" nor \"input_required\"",
                        t.as_str()
                    ),
                ),
            },
        }
        let has_info = s
            .result
            .get("_meta")
            .is_some_and(|m| m.get(SERVER_INFO).is_some());
        if !has_info {
            out.flag(
                RuleId::McpR5MetaServerInfo,
                pointer,
                format!("result lacks `_meta` `{SERVER_INFO}`"),
            );
        }
    }
}

fn error(e: &ErrorResponse<'_>, base: &str, profile: Profile, out: &mut Report) {
    match &e.id {
        None => {
            let message =
                "error response has no `id` (null when the request's id could not be read)";
            for id in [
                RuleId::JsonrpcResponseIdRequired,
                RuleId::McpBaseErrorIdAbsent,
            ] {
                out.flag(id, base.to_owned(), message.to_owned());
            }
        }
        Some(Id::Null) => out.flag(
            RuleId::McpBaseErrorIdNull,
            at(base, "id"),
            "error response id is null, which no MCP schema allows".to_owned(),
        ),
        Some(_) => {}
    }
    if !single_sentence(e.error.message.decoded().as_ref()) {
        out.flag(
            RuleId::JsonrpcErrorMessageSingleSentence,
            at(&at(base, "error"), "message"),
            "the error message is more than one sentence (a line break, or a stop followed by a new sentence)".to_owned(),
        );
    }
    let code = e.error.code;
    let pointer = at(&at(base, "error"), "code");
    let revision = profile.revision;
    match code {
        -32002 | -32042 => out.flag(
            RuleId::McpErrorRetiredCodes,
            pointer.clone(),
            format!("code {code} is retired in {revision}"),
        ),
        -32019..=-32000 => out.flag(
            RuleId::McpErrorLegacyRange,
            pointer.clone(),
            format!("code {code} is in the legacy range -32000..-32019"),
        ),
        _ => {}
    }
    // A retired code (-32042) is reported as retired, not again as unassigned.
    if codes::range_of(code, revision) == codes::CodeRange::McpReserved
        && codes::lookup(code, revision).is_none()
        && code != -32042
    {
        out.flag(
            RuleId::McpErrorReservedRange,
            pointer,
            format!("code {code} is in -32020..-32099, reserved for codes the specification defines, and {revision} defines none such"),
        );
    }
    let data = e.error.data.as_ref();
    let data_pointer = at(&at(base, "error"), "data");
    match code {
        -32022 => {
            let supported_ok = data
                .and_then(|d| d.get("supported").map(Raw::into_owned))
                .is_some_and(|s| {
                    s.kind() == ValueKind::Array
                        && s.elements().all(|v| v.kind() == ValueKind::String)
                });
            let requested_ok = data
                .and_then(|d| d.get("requested").map(|v| v.kind() == ValueKind::String))
                .unwrap_or(false);
            if !supported_ok || !requested_ok {
                out.flag(
                    RuleId::McpErrorCodeUnsupportedVersion,
                    data_pointer,
                    "-32022 needs `data.supported` (an array of version strings) and `data.requested` (a string)".to_owned(),
                );
            }
        }
        -32021 => {
            let ok = data
                .and_then(|d| {
                    d.get("requiredCapabilities")
                        .map(|v| v.kind() == ValueKind::Object)
                })
                .unwrap_or(false);
            if !ok {
                out.flag(
                    RuleId::McpErrorCodeMissingClientCapability,
                    data_pointer,
                    "-32021 needs `data.requiredCapabilities` (an object)".to_owned(),
                );
            }
        }
        -32042 => {
            let elicitations = data.and_then(|d| d.get("elicitations").map(Raw::into_owned));
            let ok = elicitations.as_ref().is_some_and(|list| {
                list.kind() == ValueKind::Array
                    && list.elements().all(|el| {
                        el.get("mode")
                            .and_then(|m| m.as_string().map(|s| s == "url"))
                            .unwrap_or(false)
                            && el
                                .get("elicitationId")
                                .is_some_and(|i| i.kind() == ValueKind::String)
                    })
            });
            if !ok {
                out.flag(
                    RuleId::McpErrorCodeUrlElicitationRequired,
                    data_pointer,
                    "-32042 needs `data.elicitations`: URL-mode elicitations, each with an `elicitationId`".to_owned(),
                );
            }
        }
        _ => {}
    }
}

/// JSON-RPC 2.0 §5.1: "a concise single sentence". Only what is certainly
/// not one sentence is flagged: a line break, or a full stop, `!` or `?`
/// followed by a space and a capital letter ("Bad params. Expected x").
/// Length is not judged: no sentence of the specification says how long is
/// concise.
fn single_sentence(message: &str) -> bool {
    if message.contains(['\n', '\r']) {
        return false;
    }
    let chars: Vec<char> = message.trim_end().chars().collect();
    !chars
        .windows(3)
        .any(|w| matches!(w[0], '.' | '!' | '?') && w[1] == ' ' && w[2].is_uppercase())
}
