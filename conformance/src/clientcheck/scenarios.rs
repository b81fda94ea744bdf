//! The scenarios a judged peer plays, each a named script per revision, and
//! the one record each ends with.
//!
//! Every scenario waits for the client to do something first (list tools,
//! call one, set a level, finish the handshake): a client that never does is
//! "not observed", never passed. Nothing is ever asked of a client that it
//! did not declare: roots, sampling and elicitation requests go only to a
//! client whose `initialize` declared that capability (basic/lifecycle
//! §Capability Negotiation, every handshake revision).

use harness::ir::{ErrorObject, ErrorResponse, Success};
use harness::{client::notification_document, client::request_document};
use harness::{lower_to_vec, Frame, Id, Message, Outcome, Raw, Revision};
use serde_json::{json, Value};

use crate::report::{Place, Record, Subject};

/// A scenario, by the name `--scenario` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scenario {
    /// After the answer to the client's first `tools/list`, send
    /// `notifications/tools/list_changed` (the peer then declares
    /// `tools.listChanged`; server/tools §List Changed Notification).
    ListChanged,
    /// During a `tools/call` that carries `_meta.progressToken`, send
    /// `notifications/progress` before the answer (basic/utilities/progress).
    Progress,
    /// During a `tools/call` after the client set a level (`logging/setLevel`
    /// or 2026-07-28's per-request `_meta`), send `notifications/message` at
    /// that level (server/utilities/logging).
    Logging,
    /// After `notifications/initialized`: `ping` to the client, and
    /// `roots/list`, `sampling/createMessage`, `elicitation/create` where it
    /// declared the capability.
    ServerRequests,
    /// The client's `tools/call`s after its first successful one are answered
    /// with each error the revision allows for a call, one per call.
    ErrorShapes,
}

impl Scenario {
    /// Every scenario, in the order they are reported.
    pub const ALL: [Scenario; 5] = [
        Scenario::ListChanged,
        Scenario::Progress,
        Scenario::Logging,
        Scenario::ServerRequests,
        Scenario::ErrorShapes,
    ];

    /// Its name, as `--scenario` takes it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Scenario::ListChanged => "list-changed",
            Scenario::Progress => "progress",
            Scenario::Logging => "logging",
            Scenario::ServerRequests => "server-requests",
            Scenario::ErrorShapes => "error-shapes",
        }
    }

    /// Why the scenario cannot be played under `revision`, if it cannot.
    #[must_use]
    pub fn not_applicable(self, revision: Revision) -> Option<&'static str> {
        match (self, revision) {
            (_, Revision::JsonRpc2) => Some("plain JSON-RPC 2.0 has no MCP scenarios"),
            // 2026-07-28 is stateless: a server speaks to the client only
            // inside a request (subscriptions/listen, input-required), which
            // these scenarios do not play yet.
            (Scenario::ListChanged, Revision::Mcp2026_07_28) => Some(
                "2026-07-28 delivers list changes on a subscriptions/listen stream, which this scenario does not open",
            ),
            (Scenario::ServerRequests, Revision::Mcp2026_07_28) => Some(
                "2026-07-28 has no server-initiated requests outside a request (the input-required flow is not played yet)",
            ),
            _ => None,
        }
    }
}

/// One request the peer sent the client.
#[derive(Debug)]
struct Sent {
    id: String,
    method: &'static str,
    answers: u32,
    error: Option<i64>,
}

/// The error shapes a `tools/call` may be answered with, per revision: the
/// same four kinds from 2024-11-05 to 2026-07-28, since server/tools §Error
/// Handling has named the two kinds (protocol errors, and tool execution
/// errors in the result with `isError: true`) in every revision; 2026-07-28
/// changes how a result and a server-defined code are spelled.
/// An answer to a call: a result, or an error's code, message and data.
type Shape = Result<Value, (i64, &'static str, Option<Value>)>;

fn error_shapes(revision: Option<Revision>) -> [(&'static str, Shape); 4] {
    let modern = revision == Some(Revision::Mcp2026_07_28);
    let mut tool_error = json!({"content": [{"type": "text", "text": "wirecheck error-shapes: a tool execution error"}], "isError": true});
    if modern {
        // 2026-07-28 basic/index §Result Responses, MUST: "The `result` MUST
        // include a `resultType` field"; §Per-response protocol fields,
        // SHOULD: the server names itself in every result's `_meta` (as the
        // peer's own results do, `peer::mcp`).
        tool_error["resultType"] = json!("complete");
        tool_error["_meta"] = json!({"io.modelcontextprotocol/serverInfo": {"name": "wirecheck", "version": env!("CARGO_PKG_VERSION")}});
    }
    let server_defined = if modern {
        // 2026-07-28 basic/index §Error Codes: -32000 to -32019 is legacy
        // ("new implementations SHOULD NOT use codes from this sub-range"),
        // -32020 to -32099 the specification's own ("MUST NOT emit any code
        // … not defined"), and new codes "SHOULD be allocated outside the
        // JSON-RPC reserved range": an application-defined code, then.
        (
            "-31000 application-defined",
            Err((-31000, "Application error", None)),
        )
    } else {
        // JSON-RPC 2.0 §5.1: "-32000 to -32099 Server error: Reserved for
        // implementation-defined server-errors."
        ("-32000 server-defined", Err((-32000, "Server error", None)))
    };
    [
        // server/tools §Error Handling: "Tool Execution Errors: Reported in
        // tool results with `isError: true`".
        ("tool execution error (isError: true)", Ok(tool_error)),
        // §Error Handling › Protocol Errors: "Unknown tools", "Invalid
        // arguments", the example "-32602".
        (
            "-32602 with data",
            Err((
                -32602,
                "Invalid params",
                Some(json!({"reason": "wirecheck error-shapes"})),
            )),
        ),
        // JSON-RPC 2.0 §5.1: -32603 Internal error; data may be omitted.
        ("-32603 without data", Err((-32603, "Internal error", None))),
        server_defined,
    ]
}

/// What the scenarios saw and did.
#[derive(Debug)]
pub(crate) struct Plays {
    selected: Vec<Scenario>,
    client_caps: Option<Value>,
    // list-changed
    list_changed_sent: bool,
    relisted: bool,
    // progress
    progress_sent: u32,
    // logging
    level: Option<String>,
    logs_sent: u32,
    // server-requests
    requests_played: bool,
    sent: Vec<Sent>,
    // error-shapes
    calls_answered: u32,
    shapes_sent: Vec<&'static str>,
    frames_after_shapes: u32,
}

fn is_success(frame: &[u8]) -> bool {
    matches!(harness::lift(frame), Ok(Frame::Single(Message::Success(_))))
}

fn has_method(frames: &[Vec<u8>], method: &str) -> bool {
    frames.iter().any(|f| {
        matches!(harness::lift(f), Ok(Frame::Single(Message::Notification(n))) if n.method.decoded() == method)
    })
}

impl Plays {
    pub(crate) fn new(selected: &[Scenario]) -> Self {
        Self {
            selected: selected.to_vec(),
            client_caps: None,
            list_changed_sent: false,
            relisted: false,
            progress_sent: 0,
            level: None,
            logs_sent: 0,
            requests_played: false,
            sent: Vec::new(),
            calls_answered: 0,
            shapes_sent: Vec::new(),
            frames_after_shapes: 0,
        }
    }

    fn on(&self, s: Scenario) -> bool {
        self.selected.contains(&s)
    }

    /// Selected, and playable under the revision in force.
    fn applies(&self, s: Scenario, revision: Option<Revision>) -> bool {
        self.on(s) && revision.is_some_and(|r| s.not_applicable(r).is_none())
    }

    /// The answer a scenario gives instead of the peer's, if any.
    pub(crate) fn intercept(
        &mut self,
        message: &Message<'_>,
        revision: Option<Revision>,
    ) -> Option<Vec<u8>> {
        if !self.shapes_sent.is_empty() {
            self.frames_after_shapes += 1;
        }
        let Message::Request(request) = message else {
            return None;
        };
        if !self.on(Scenario::ErrorShapes)
            || request.method.decoded() != "tools/call"
            || self.calls_answered == 0
        {
            return None;
        }
        let shapes = error_shapes(revision);
        let (name, shape) = shapes.get(self.shapes_sent.len())?.clone();
        self.shapes_sent.push(name);
        let id = request.id.clone().into_owned();
        let reply = match shape {
            Ok(result) => Message::Success(Success::new(id, Raw::from_value(&result))),
            Err((code, text, data)) => Message::Error(ErrorResponse::new(
                Some(id),
                ErrorObject::new(code, text, data.as_ref().map(Raw::from_value)),
            )),
        };
        Some(lower_to_vec(&Frame::Single(reply)))
    }

    /// What the scenarios add after the peer's answer to `message`.
    pub(crate) fn after(
        &mut self,
        message: &Message<'_>,
        revision: Option<Revision>,
        out: &mut Vec<Vec<u8>>,
    ) {
        let applies = |s: Scenario| self.applies(s, revision);
        match message {
            Message::Success(_) | Message::Error(_) => self.answered(message),
            Message::Notification(n) if n.method.decoded() == "notifications/initialized" => {
                if applies(Scenario::ServerRequests) && !self.requests_played {
                    self.requests_played = true;
                    self.server_requests(revision.unwrap_or(Revision::Mcp2025_11_25), out);
                }
            }
            Message::Notification(_) => {}
            Message::Request(r) => {
                let method = r.method.decoded();
                let params = r.params.as_ref();
                let answered_ok = out.last().is_some_and(|f| is_success(f));
                match method.as_ref() {
                    "initialize" => {
                        self.client_caps = params
                            .and_then(|p| p.get("capabilities"))
                            .and_then(|c| c.to_value());
                    }
                    "tools/list" if applies(Scenario::ListChanged) && answered_ok => {
                        if self.list_changed_sent {
                            self.relisted = true;
                        } else {
                            self.list_changed_sent = true;
                            out.push(notification_document(
                                "notifications/tools/list_changed",
                                None,
                            ));
                        }
                    }
                    "logging/setLevel" if answered_ok => {
                        self.level = params
                            .and_then(|p| p.get("level"))
                            .and_then(|l| l.as_string().map(|s| s.into_owned()));
                    }
                    "tools/call" => {
                        self.during_call(params, revision, out);
                        if answered_ok && self.shapes_sent.is_empty() {
                            self.calls_answered += 1;
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// progress and logging: notifications the call's answer follows.
    fn during_call(
        &mut self,
        params: Option<&Raw<'_>>,
        revision: Option<Revision>,
        out: &mut Vec<Vec<u8>>,
    ) {
        let progress_on = self.applies(Scenario::Progress, revision);
        let logging_on = self.applies(Scenario::Logging, revision);
        let meta = params.and_then(|p| p.get("_meta"));
        // The answer is the last frame; what the call causes goes before it.
        let at = out.len().saturating_sub(1);
        if progress_on {
            if let Some(token) = meta.as_ref().and_then(|m| m.get("progressToken")) {
                if !has_method(out, "notifications/progress") {
                    let text = format!(
                        r#"{{"progressToken":{},"progress":1,"total":1}}"#,
                        token.as_str()
                    );
                    let params = Raw::parse(&text).ok().map(Raw::into_owned);
                    out.insert(at, notification_document("notifications/progress", params));
                }
                self.progress_sent += 1;
            }
        }
        let per_request = meta
            .as_ref()
            .and_then(|m| m.get("io.modelcontextprotocol/logLevel"))
            .and_then(|l| l.as_string().map(|s| s.into_owned()));
        let level = per_request.or_else(|| self.level.clone());
        if logging_on {
            if let Some(level) = level {
                if !has_method(out, "notifications/message") {
                    // At the level the client set: the least severe message it
                    // asked to receive (logging §Log Levels).
                    let params = json!({"level": level, "logger": "wirecheck", "data": "wirecheck logging scenario"});
                    out.insert(
                        at,
                        notification_document(
                            "notifications/message",
                            Some(Raw::from_value(&params)),
                        ),
                    );
                }
                self.logs_sent += 1;
            }
        }
    }

    fn server_requests(&mut self, revision: Revision, out: &mut Vec<Vec<u8>>) {
        let declared = |name: &str| {
            self.client_caps
                .as_ref()
                .and_then(|c| c.get(name))
                .is_some_and(Value::is_object)
        };
        // basic/utilities/ping: either party may ping; no capability needed.
        let mut plan: Vec<(&'static str, Option<Value>)> = vec![("ping", None)];
        if declared("roots") {
            plan.push(("roots/list", None));
        }
        if declared("sampling") {
            plan.push((
                "sampling/createMessage",
                Some(json!({
                    "messages": [{"role": "user", "content": {"type": "text", "text": "wirecheck sampling scenario: say ok"}}],
                    "maxTokens": 16
                })),
            ));
        }
        // elicitation arrives with 2025-06-18.
        if declared("elicitation") && revision >= Revision::Mcp2025_06_18 {
            plan.push((
                "elicitation/create",
                Some(json!({
                    "message": "wirecheck elicitation scenario",
                    "requestedSchema": {"type": "object", "properties": {"answer": {"type": "string"}}}
                })),
            ));
        }
        for (n, (method, params)) in plan.into_iter().enumerate() {
            // String ids the client must echo as strings, exactly.
            let id = format!("wirecheck-{}", n + 1);
            out.push(request_document(
                Id::string(&id),
                method,
                params.as_ref().map(Raw::from_value),
            ));
            self.sent.push(Sent {
                id: format!("\"{id}\""),
                method,
                answers: 0,
                error: None,
            });
        }
    }

    fn answered(&mut self, message: &Message<'_>) {
        let Some(id) = message.id() else { return };
        if let Some(sent) = self.sent.iter_mut().find(|s| s.id == id.raw()) {
            sent.answers += 1;
            if let Message::Error(e) = message {
                sent.error = Some(e.error.code);
            }
        }
    }

    /// One record per selected scenario.
    pub(crate) fn records(&self, name: &str, revision: Revision, closed: bool) -> Vec<Record> {
        Scenario::ALL
            .into_iter()
            .filter(|s| self.on(*s))
            .map(|s| {
                let (outcome, notes) = match s.not_applicable(revision) {
                    Some(why) => (Outcome::NotApplicable { why: why.into() }, Vec::new()),
                    None => self.verdict(s, closed),
                };
                let mut record = Record::new(
                    Place {
                        file: Some(name.to_owned()),
                        vector: Some(format!("scenario/{}", s.name())),
                        revision: Some(revision),
                        ..Place::default()
                    },
                    Subject::Frame(Vec::new()),
                    outcome,
                );
                record.notes = notes;
                record
            })
            .collect()
    }

    fn verdict(&self, s: Scenario, closed: bool) -> (Outcome, Vec<String>) {
        let not_observed = |why: &str| (Outcome::NotObserved { why: why.into() }, Vec::new());
        match s {
            Scenario::ListChanged if !self.list_changed_sent => {
                not_observed("the client never listed tools, so no list_changed was sent")
            }
            Scenario::ListChanged => (
                Outcome::Pass,
                vec![format!(
                    "sent notifications/tools/list_changed after the first tools/list; the client {} (server/tools: re-listing is the client's choice, not judged)",
                    if self.relisted { "listed tools again" } else { "did not list tools again" }
                )],
            ),
            Scenario::Progress if self.progress_sent == 0 => {
                not_observed("the client sent no tools/call with _meta.progressToken")
            }
            Scenario::Progress => (
                Outcome::Pass,
                vec![format!("progress sent during {} call(s)", self.progress_sent)],
            ),
            Scenario::Logging if self.logs_sent == 0 => not_observed(
                "the client never set a log level (logging/setLevel or _meta) before a tools/call",
            ),
            Scenario::Logging => (
                Outcome::Pass,
                vec![format!("log messages sent during {} call(s)", self.logs_sent)],
            ),
            Scenario::ServerRequests if !self.requests_played => {
                not_observed("the client never sent notifications/initialized")
            }
            Scenario::ServerRequests => {
                let notes = self
                    .sent
                    .iter()
                    .map(|r| match (r.answers, r.error) {
                        (0, _) => format!("{} (id {}): unanswered", r.method, r.id),
                        (1, None) => format!("{} (id {}): answered once", r.method, r.id),
                        (1, Some(c)) => format!("{} (id {}): answered once, error {c}", r.method, r.id),
                        (n, _) => format!("{} (id {}): answered {n} times", r.method, r.id),
                    })
                    .collect();
                if self.sent.iter().all(|r| r.answers == 1) {
                    (Outcome::Pass, notes)
                } else if self.sent.iter().any(|r| r.answers > 1) || closed {
                    // The judge's records name the rule (duplicate, or
                    // unanswered once the client closed its end).
                    (Outcome::Fail, notes)
                } else {
                    (
                        Outcome::NotObserved {
                            why: "a request of the peer's was still unanswered when the capture stopped".into(),
                        },
                        notes,
                    )
                }
            }
            Scenario::ErrorShapes if self.shapes_sent.is_empty() => not_observed(
                "the client made no tools/call after its first successful one",
            ),
            Scenario::ErrorShapes => {
                let all = self.shapes_sent.len() == error_shapes(None).len();
                let notes = vec![format!(
                    "answered tools/call with: {}; the client sent {} frame(s) after the first",
                    self.shapes_sent.join(", "),
                    self.frames_after_shapes
                )];
                if all && self.frames_after_shapes > 0 {
                    (Outcome::Pass, notes)
                } else {
                    (
                        Outcome::NotObserved {
                            why: format!(
                                "{} of {} error shapes delivered, or the client went silent after them",
                                self.shapes_sent.len(),
                                error_shapes(None).len()
                            ),
                        },
                        notes,
                    )
                }
            }
        }
    }
}
