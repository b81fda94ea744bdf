//! Exchange checks: a request frame and the reply frame that came back (or
//! `None` when nothing did). The request's sender is the profile's direction;
//! the reply travels the other way.

use super::check::{implementation, members, Part, CLIENT_CAPABILITIES, PROTOCOL_VERSION};
use super::schema::{self, Sender};
use super::{at, Report, RuleId};
use crate::ir::{Frame, Id, Message, Raw, Request, ValueKind};
use crate::profile::{Profile, Revision};

/// Methods that may answer with an `InputRequiredResult` (2026-07-28 basic/patterns/mrtr).
const MRTR_METHODS: [&str; 3] = ["prompts/get", "resources/read", "tools/call"];

/// Checks one exchange.
pub(super) fn exchange(
    request: &Frame<'_>,
    reply: Option<&Frame<'_>>,
    profile: Profile,
    out: &mut Report,
) {
    match request {
        Frame::Single(Message::Notification(n)) => {
            if reply.is_some() {
                let method = n.method.decoded();
                for id in [
                    RuleId::JsonrpcNotificationNoReply,
                    RuleId::McpBaseNotificationNoResponse,
                ] {
                    out.flag(
                        id,
                        String::new(),
                        format!("the notification `{method}` was answered"),
                    );
                }
            }
        }
        Frame::Single(Message::Request(r)) => match reply {
            None => out.flag(
                RuleId::JsonrpcResponseRequired,
                String::new(),
                format!(
                    "the request `{}` (id {}) got no reply",
                    r.method.decoded(),
                    r.id
                ),
            ),
            Some(reply) => single(r, reply, profile, out),
        },
        // A response is not something one replies to.
        Frame::Single(_) => {}
        Frame::Batch(calls) => batch(calls, reply, profile, out),
    }
}

/// A single request and its reply: the reply is one response (or, wrongly, a
/// batch of them, whose element answering the request is judged).
fn single(request: &Request<'_>, reply: &Frame<'_>, profile: Profile, out: &mut Report) {
    let (index, response) = match reply {
        Frame::Single(m) => (None, m),
        Frame::Batch(ms) => match ms.iter().enumerate().find(|(_, m)| answers(m, &request.id)) {
            Some((i, m)) => (Some(i), m),
            None => {
                out.flag(
                    RuleId::JsonrpcResponseRequired,
                    String::new(),
                    format!(
                        "no response in the reply carries the request's id {}",
                        request.id
                    ),
                );
                return;
            }
        },
    };
    let base = index.map_or_else(String::new, |i| at("", &i.to_string()));
    if matches!(response, Message::Request(_) | Message::Notification(_)) {
        out.flag(
            RuleId::JsonrpcResponseRequired,
            base,
            format!(
                "the request `{}` (id {}) was answered with a {}, not a response",
                request.method.decoded(),
                request.id,
                response.kind().name()
            ),
        );
        return;
    }
    if !answers(response, &request.id) && !id_may_differ(&request.id, response, profile) {
        id_mismatch(&request.id, response, &base, out);
    }
    if let Message::Error(e) = response {
        // The request lifted, so it is valid JSON: -32700 says it was not.
        if e.error.code == crate::codes::PARSE_ERROR {
            out.flag(
                RuleId::JsonrpcErrorCodeMeaning,
                at(&at(&base, "error"), "code"),
                format!(
                    "-32700 (Parse error: \"Invalid JSON was received\") answers the request `{}`, which is valid JSON",
                    request.method.decoded()
                ),
            );
        }
    }
    pair(request, response, &base, profile, out);
}

/// Whether `response` is an error whose id [`crate::error_ids`] (the one
/// place deciding which ids an error may carry) allows though it is not the
/// request's: null for an id the profile forbids (MCP: null, 1.5), since
/// such a request may be refused as one whose "ID could not be read"; null
/// for a request the server itself refuses as an Invalid Request (-32600),
/// JSON-RPC 2.0 §5's own example of "an error in detecting the id" (whether
/// the refusal was due is the answer's question, judged apart).
fn id_may_differ(request: &Id<'_>, response: &Message<'_>, profile: Profile) -> bool {
    use crate::error_ids::{error_may_carry, Read};
    let Message::Error(e) = response else {
        return false;
    };
    let refused_as_invalid = e.error.code == crate::codes::INVALID_REQUEST;
    error_may_carry(
        profile.revision,
        &Read::Id(request.clone()),
        refused_as_invalid,
        response.id(),
    )
}

/// Whether `response` carries `id`.
fn answers(response: &Message<'_>, id: &Id<'_>) -> bool {
    matches!(response, Message::Success(_) | Message::Error(_))
        && response.id().is_some_and(|rid| id.matches(rid))
}

/// The id-echo rule each revision words its own way; the table keeps the one
/// that applies.
fn id_mismatch(request: &Id<'_>, response: &Message<'_>, base: &str, out: &mut Report) {
    let (ids, what): (&[RuleId], _) = match response {
        Message::Success(_) => (
            &[
                RuleId::JsonrpcResponseIdEcho,
                RuleId::McpBaseResponseIdMatch,
                RuleId::McpBaseResultResponseId,
            ],
            "result",
        ),
        Message::Error(_) => (
            &[
                RuleId::JsonrpcResponseIdEcho,
                RuleId::McpBaseResponseIdMatch,
                RuleId::McpBaseErrorResponseId,
            ],
            "error",
        ),
        _ => return,
    };
    let message = match response.id() {
        None => format!(
            "the {what} response to id {request} has no id, though the request's id was readable"
        ),
        Some(got) => format!(
            "the {what} response to id {request} {}",
            describe_mismatch(request, got)
        ),
    };
    let pointer = if response.id().is_some() {
        at(base, "id")
    } else {
        base.to_owned()
    };
    for &id in ids {
        out.flag(id, pointer.clone(), message.clone());
    }
}

/// Names the kind of mismatch the SDKs have shipped: a type change (`"1"` as
/// `1`), a number rounded through a double, or just another id.
fn describe_mismatch(sent: &Id<'_>, got: &Id<'_>) -> String {
    match (sent, got) {
        (Id::String(_), Id::Number(_)) | (Id::Number(_), Id::String(_)) => format!(
            "carries {} {got}: the id's type changed from {} to {}",
            got.kind().name(),
            sent.kind().name(),
            got.kind().name()
        ),
        (Id::Number(a), Id::Number(b))
            if a.parse::<f64>()
                .ok()
                .is_some_and(|x| b.parse::<f64>().ok() == Some(x)) =>
        {
            format!("carries {got}: the id was rounded (both read as the same double)")
        }
        _ => format!("carries {got}"),
    }
}

/// Batch requests. Only plain JSON-RPC 2.0 and 2025-03-26 have batches: there
/// each request gets its response. Elsewhere the batch itself is the fault
/// (reported per frame), any error answer is accepted, and an array answer
/// means the elements were processed.
fn batch(calls: &[Message<'_>], reply: Option<&Frame<'_>>, profile: Profile, out: &mut Report) {
    let revision = profile.revision;
    if !matches!(revision, Revision::JsonRpc2 | Revision::Mcp2025_03_26) {
        if matches!(reply, Some(Frame::Batch(_))) {
            out.flag(
                RuleId::McpBatchAcceptedAfterRemoval,
                String::new(),
                format!("a batch was answered with an array: its elements were processed under {revision}"),
            );
        }
        let asks = calls.iter().any(|m| matches!(m, Message::Request(_)));
        if reply.is_none() && asks {
            out.flag(
                RuleId::McpBatchRefusedAfterRemoval,
                String::new(),
                format!("a batch holding requests got no answer under {revision}"),
            );
        }
        return;
    }
    let requests: Vec<(usize, &Request<'_>)> = calls
        .iter()
        .enumerate()
        .filter_map(|(i, m)| match m {
            Message::Request(r) => Some((i, r)),
            _ => None,
        })
        .collect();
    if revision == Revision::Mcp2025_03_26
        && invalid_batch_r2(calls)
        && matches!(reply, Some(Frame::Single(Message::Error(_))))
    {
        // A batch 2025-03-26 itself makes invalid, refused whole with one
        // error: the receiver received it and answered the fault, as the
        // vectors accept (`n_batch-with-initialize`, `n_batch-mixed-…`).
        return;
    }
    let Some(reply) = reply else {
        for (i, r) in &requests {
            out.flag(
                RuleId::JsonrpcResponseRequired,
                at("", &i.to_string()),
                format!(
                    "the request `{}` (id {}) got no reply",
                    r.method.decoded(),
                    r.id
                ),
            );
        }
        return;
    };
    let responses: Vec<(String, &Message<'_>)> = match reply {
        Frame::Single(m) => {
            let refused_whole =
                matches!(m, Message::Error(e) if e.id.as_ref().is_none_or(|id| *id == Id::Null));
            if refused_whole {
                out.flag(
                    RuleId::McpBatchMustReceive,
                    String::new(),
                    "the batch was refused whole with one error".to_owned(),
                );
            }
            out.flag(
                RuleId::JsonrpcBatchRespondArray,
                String::new(),
                "a batch was answered with a single object, not an array".to_owned(),
            );
            if refused_whole {
                return;
            }
            vec![(String::new(), m)]
        }
        Frame::Batch(ms) => ms
            .iter()
            .enumerate()
            .map(|(i, m)| (at("", &i.to_string()), m))
            .collect(),
    };
    let mut used = vec![false; responses.len()];
    for (i, r) in &requests {
        // Each response answers one request: a batch that repeats an id (its
        // sender's fault) is paired one to one, never twice to one response.
        match (0..responses.len()).find(|&k| !used[k] && answers(responses[k].1, &r.id)) {
            Some(j) => {
                used[j] = true;
                pair(r, responses[j].1, &responses[j].0, profile, out);
            }
            None => out.flag(
                RuleId::JsonrpcBatchOneResponsePerRequest,
                at("", &i.to_string()),
                format!(
                    "no response for the request `{}` (id {})",
                    r.method.decoded(),
                    r.id
                ),
            ),
        }
    }
    let notifications = calls
        .iter()
        .filter(|m| matches!(m, Message::Notification(_)))
        .count();
    for ((pointer, m), used) in responses.iter().zip(used) {
        if used || !matches!(m, Message::Success(_) | Message::Error(_)) {
            continue;
        }
        let id = m
            .id()
            .map_or_else(|| "none".to_owned(), ToString::to_string);
        let message = if notifications > 0 {
            format!("response with id {id} answers no request of the batch (notifications get no response)")
        } else {
            format!("response with id {id} answers no request of the batch")
        };
        out.flag(
            RuleId::JsonrpcResponseIdEcho,
            at(pointer, "id"),
            message.clone(),
        );
        out.flag(RuleId::McpBaseResponseIdMatch, at(pointer, "id"), message);
    }
}

/// Whether a 2025-03-26 batch is one the revision itself makes invalid, so that
/// refusing it whole is no failure to receive batches (`mcp.batch.must-receive`):
/// it holds `initialize` ("The initialize request MUST NOT be part of a JSON-RPC
/// batch", basic/lifecycle §Initialization), or it mixes requests or
/// notifications with responses (basic/transports §Sending Messages to the
/// Server: "An array batching one or more requests and/or notifications" or
/// "An array batching one or more responses", not both; ambiguity A6).
fn invalid_batch_r2(calls: &[Message<'_>]) -> bool {
    let initialize = calls
        .iter()
        .any(|m| matches!(m, Message::Request(_)) && m.method().as_deref() == Some("initialize"));
    let asks = calls
        .iter()
        .filter(|m| matches!(m, Message::Request(_) | Message::Notification(_)))
        .count();
    initialize || (asks != 0 && asks != calls.len())
}

/// A request and the response that answers it (by id, or the only one there is).
fn pair(
    request: &Request<'_>,
    response: &Message<'_>,
    base: &str,
    profile: Profile,
    out: &mut Report,
) {
    let revision = profile.revision;
    if !revision.is_mcp() {
        return;
    }
    let method = request.method.decoded();
    let method = method.as_ref();
    let params = request.params.as_ref();
    // A legacy `initialize` carries no `_meta` protocol fields; the versioning
    // page's rule for it (mcp.r5.legacy-initialize-error) governs instead.
    if revision == Revision::Mcp2026_07_28
        && profile.direction == crate::Direction::ClientToServer
        && method != "initialize"
        && stateless_rules(method, params, response, base, out)
    {
        return;
    }
    super::answers::log_level(method, params, response, base, revision, out);
    match response {
        Message::Success(s) => {
            let pointer = at(base, "result");
            if s.result.kind() != ValueKind::Object {
                return; // mcp.base.result-object, per frame
            }
            super::answers::ttl(&s.result, &pointer, out);
            result(method, params, &s.result, &pointer, profile, out);
        }
        Message::Error(e) => {
            let code = e.error.code;
            let pointer = at(&at(base, "error"), "code");
            if revision == Revision::Mcp2026_07_28 {
                if method == "resources/read" && code == -32002 {
                    out.flag(
                        RuleId::McpErrorCodeResourceNotFound32602,
                        pointer.clone(),
                        "`resources/read` answered -32002; 2026-07-28 uses -32602 for a resource not found".to_owned(),
                    );
                }
                if method == "server/discover" && code == crate::codes::METHOD_NOT_FOUND {
                    out.flag(
                        RuleId::McpR5DiscoverRequired,
                        pointer.clone(),
                        "`server/discover` answered -32601 (Method not found)".to_owned(),
                    );
                }
                if method == "initialize"
                    && !names_versions(e.error.message.decoded().as_ref(), e.error.data.as_ref())
                {
                    out.flag(
                        RuleId::McpR5LegacyInitializeError,
                        at(base, "error"),
                        "the error answering `initialize` names no protocol version the server supports".to_owned(),
                    );
                }
            }
        }
        _ => {}
    }
}

/// 2026-07-28: a client request lacking its `_meta` protocol fields MUST get
/// -32602; one naming a version no revision has MUST get -32022. Returns
/// whether the request was one of those (its result is then not judged).
///
/// When both faults are present (no capabilities and an unknown version) the
/// specification does not say which code wins; wirecheck takes the missing
/// field first, as "malformed" is decided before the version is read.
fn stateless_rules(
    method: &str,
    params: Option<&Raw<'_>>,
    response: &Message<'_>,
    base: &str,
    out: &mut Report,
) -> bool {
    let meta = params.and_then(|p| p.get("_meta").map(Raw::into_owned));
    let field = |key: &str, kind: ValueKind| {
        meta.as_ref()
            .and_then(|m| m.get(key).map(Raw::into_owned))
            .filter(|v| v.kind() == kind)
    };
    let version = field(PROTOCOL_VERSION, ValueKind::String);
    let capabilities = field(CLIENT_CAPABILITIES, ValueKind::Object);
    let code = match response {
        Message::Error(e) => Some(e.error.code),
        _ => None,
    };
    let pointer = match response {
        Message::Error(_) => at(&at(base, "error"), "code"),
        _ => base.to_owned(),
    };
    if version.is_none() || capabilities.is_none() {
        if code != Some(crate::codes::INVALID_PARAMS) {
            out.flag(
                RuleId::McpR5MetaMissingRequired,
                pointer,
                format!(
                    "`{method}` lacks a required `_meta` protocol field but was answered {}",
                    answered(code)
                ),
            );
        }
        return true;
    }
    let version = version
        .and_then(|v| v.as_string().map(|s| s.into_owned()))
        .unwrap_or_default();
    let known = version.parse::<Revision>().is_ok_and(Revision::is_mcp);
    if !known {
        let supported = match response {
            Message::Error(e) => e
                .error
                .data
                .as_ref()
                .and_then(|d| d.get("supported").map(|s| s.kind() == ValueKind::Array))
                .unwrap_or(false),
            _ => false,
        };
        if code != Some(-32022) || !supported {
            out.flag(
                RuleId::McpR5VersionUnsupported,
                pointer,
                format!("`{method}` asked for protocol version `{version}`, which no MCP revision has, and was answered {}", answered(code)),
            );
        }
        return true;
    }
    false
}

fn answered(code: Option<i64>) -> String {
    code.map_or_else(|| "with a result".to_owned(), |c| format!("with code {c}"))
}

/// Whether an error names a protocol version: `data.supported`, or a revision's
/// date anywhere in the message or data.
fn names_versions(message: &str, data: Option<&Raw<'_>>) -> bool {
    if data.is_some_and(|d| d.get("supported").is_some()) {
        return true;
    }
    let text = data.map_or("", Raw::as_str);
    Revision::MCP
        .iter()
        .any(|r| message.contains(r.name()) || text.contains(r.name()))
}

/// A success result against what the request's method requires.
fn result(
    method: &str,
    params: Option<&Raw<'_>>,
    result: &Raw<'_>,
    pointer: &str,
    profile: Profile,
    out: &mut Report,
) {
    let revision = profile.revision;
    let input_required = result
        .get("resultType")
        .and_then(|t| t.as_string().map(|s| s == "input_required"))
        .unwrap_or(false);
    if revision == Revision::Mcp2026_07_28 && input_required {
        if !MRTR_METHODS.contains(&method) {
            out.flag(
                RuleId::McpR5MrtrInputRequiredMethods,
                at(pointer, "resultType"),
                format!(
                    "`{method}` answered with an `input_required` result; only {} may",
                    MRTR_METHODS.join(", ")
                ),
            );
        }
        super::answers::input_requests(params, result, pointer, out);
        return;
    }
    // 2025-11-25: a task-augmented request is answered with a `CreateTaskResult`
    // (when the receiver supports tasks for it; otherwise with the method's own
    // result), so the method's result shape is not required of it.
    if revision == Revision::Mcp2025_11_25 && params.is_some_and(|p| p.get("task").is_some()) {
        if let Some(task) = result.get("task") {
            let status = task.get("status");
            if status.as_ref().and_then(Raw::as_string).as_deref() != Some("working") {
                // A `task` that is no object has no `status` to point at: the task
                // itself is the fault (found by the `rules` fuzz target:
                // corpus/regressions/rules/rules-pointer-resolves-task-not-an-object.json).
                let task_pointer = at(pointer, "task");
                let place = if task.kind() == ValueKind::Object {
                    at(&task_pointer, "status")
                } else {
                    task_pointer
                };
                out.flag(
                    RuleId::McpTasksInitialWorking,
                    place,
                    format!(
                        "a created task has status {}, not \"working\"",
                        status.as_ref().map_or("(none)", Raw::as_str)
                    ),
                );
            }
        }
        return;
    }
    super::content::result(method, result, pointer, out);
    match method {
        "ping" => {
            let extra: Vec<String> = result
                .members()
                .map(|(k, _)| k.decoded().into_owned())
                .filter(|k| k != "_meta")
                .collect();
            if !extra.is_empty() {
                out.flag(
                    RuleId::McpPingRespond,
                    pointer.to_owned(),
                    format!(
                        "`ping` must be answered with an empty result; found {}",
                        extra.join(", ")
                    ),
                );
            }
        }
        "tasks/get" | "tasks/list" | "tasks/cancel" | "tasks/result" => {
            super::tasks::result(method, params, result, pointer, out);
        }
        "tools/call" => structured_content_text(result, pointer, out),
        "roots/list" => super::server_requests::roots_result(result, pointer, out),
        "sampling/createMessage" => super::tool_choice::reply(params, result, pointer, out),
        "tools/list" => {
            tools(result, pointer, out);
            super::tool_headers::tools_list(result, pointer, out);
            super::json_schema::tools_list(result, pointer, out);
        }
        "completion/complete" => {
            let count = result
                .get("completion")
                .and_then(|c| c.get("values").map(|v| v.elements().count()))
                .unwrap_or(0);
            if count > 100 {
                // One of the two applies, by revision: the table decides.
                for rule in [RuleId::McpCompletionMax100, RuleId::McpCompletionMax100R1] {
                    out.flag(
                        rule,
                        at(&at(pointer, "completion"), "values"),
                        format!("{count} completion values; the revision says at most 100"),
                    );
                }
            }
        }
        _ => {}
    }
    let Some(def) = schema::find(revision, Sender::from(profile.direction), method) else {
        return; // not a method of this revision: reported per frame, if at all
    };
    let Some(shape) = def.result else { return };
    let rule = if method == "initialize" {
        RuleId::McpLifecycleServerResponds
    } else {
        RuleId::McpSchemaResult
    };
    members(result, shape, Part::Result, rule, pointer, method, out);
    if method == "initialize" {
        if let Some(info) = result.get("serverInfo") {
            implementation(&info, "serverInfo", rule, pointer, out);
        }
    }
}

/// 2025-06-18 on: structured content SHOULD come with its JSON in a text block.
fn structured_content_text(result: &Raw<'_>, pointer: &str, out: &mut Report) {
    let Some(structured) = result.get("structuredContent") else {
        return;
    };
    let Some(expected) = structured.to_value() else {
        return;
    };
    let serialized = result.get("content").is_some_and(|content| {
        content.elements().any(|block| {
            block
                .get("type")
                .and_then(|t| t.as_string().map(|s| s == "text"))
                .unwrap_or(false)
                && block
                    .get("text")
                    .and_then(|t| {
                        t.as_string()
                            .and_then(|s| serde_json::from_str::<serde_json::Value>(&s).ok())
                    })
                    .is_some_and(|v| v == expected)
        })
    });
    if !serialized {
        out.flag(
            RuleId::McpToolsStructuredContentText,
            at(pointer, "content"),
            "`structuredContent` has no text block carrying the same JSON".to_owned(),
        );
    }
}

/// 2025-11-25 on: each listed tool's `inputSchema` is an object, and its name
/// is 1 to 128 of `A-Z a-z 0-9 _ - .`, unique within the list.
fn tools(result: &Raw<'_>, pointer: &str, out: &mut Report) {
    let Some(list) = result.get("tools") else {
        return;
    };
    let list_pointer = at(pointer, "tools");
    let mut seen = std::collections::HashSet::new();
    for (i, tool) in list.elements().enumerate() {
        let here = at(&list_pointer, &i.to_string());
        if !tool
            .get("inputSchema")
            .is_some_and(|s| s.kind() == ValueKind::Object)
        {
            out.flag(
                RuleId::McpToolsInputSchemaNotNull,
                at(&here, "inputSchema"),
                "a tool's `inputSchema` must be a JSON Schema object".to_owned(),
            );
        }
        let Some(name) = tool
            .get("name")
            .and_then(|n| n.as_string().map(|s| s.into_owned()))
        else {
            continue; // a missing name is the schema's to report
        };
        let length = name.chars().count();
        let allowed = name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
        if !(1..=128).contains(&length) || !allowed {
            out.flag(
                RuleId::McpToolsNameFormat,
                at(&here, "name"),
                format!("tool name {name:?} is not 1 to 128 of A-Z a-z 0-9 _ - ."),
            );
        }
        if !seen.insert(name.clone()) {
            out.flag(
                RuleId::McpToolsNameUnique,
                at(&here, "name"),
                format!("tool name {name:?} is listed twice"),
            );
        }
    }
}
