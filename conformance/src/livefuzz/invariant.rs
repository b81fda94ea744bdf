//! The invariants a live peer must keep whatever it is sent, each a named
//! finding kind tied to the rule of [`harness::rules`] that states it.
//!
//! Only what the specification backs is a finding: a departure from a
//! convention (which error code a bad frame gets: JSON-RPC 2.0 binds the codes'
//! meaning, not the choice between them) is not one, nor is a peer accepting a
//! frame our codec refuses for a SHOULD (duplicate member names, RFC 8259 §4)
//! or a MAY (depth and size limits, RFC 8259 §9).

use harness::rules::{self, Level, RuleId};
use harness::{lift, Direction, Message, Profile, Revision, Rule};

use crate::driver::{Class, Live, ProbeReport};

/// What kind of invariant a peer broke: the report model's, below the
/// fuzzer, so a record names a rule-less one as its check.
pub use crate::report::Invariant as Kind;

/// One invariant broken by one exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Breach {
    /// Which invariant.
    pub kind: Kind,
    /// The rule that states it, where the model has one.
    pub rule: Option<RuleId>,
    /// How binding it is.
    pub level: Level,
    /// Where the spec writes it, revision named.
    pub spec: String,
    /// What was seen, in words.
    pub detail: String,
}

impl Breach {
    fn of_rule(kind: Kind, rule: RuleId, revision: Revision, detail: String) -> Breach {
        let info = rule.info();
        Breach {
            kind,
            rule: Some(rule),
            level: info.level,
            spec: info.cite(revision).to_owned(),
            detail,
        }
    }
}

/// What one frame is to its receiver, decided by the reference codec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// It lifts and holds a request: an answer is due.
    Answer,
    /// It lifts and holds no request: nothing is due.
    Nothing,
    /// It does not lift for a reason the spec makes an error: an error
    /// response with `"id": null` is due.
    Error(Rule),
    /// It does not lift for a reason the spec leaves to the receiver (a
    /// duplicate name, a depth or size limit): anything goes.
    Unsettled,
}

/// What `frame` calls for.
#[must_use]
pub fn expect(frame: &[u8]) -> Expect {
    match lift(frame) {
        Ok(f) => {
            if f.messages()
                .iter()
                .any(|m| matches!(m, Message::Request(_)))
            {
                Expect::Answer
            } else {
                Expect::Nothing
            }
        }
        Err(refusal) => match refusal.rule() {
            Rule::DuplicateMember | Rule::JsonDepthLimit | Rule::JsonFrameTooLarge => {
                Expect::Unsettled
            }
            // A broken *response* is no rpc call: JSON-RPC 2.0 says what a
            // server answers to a call, nothing of what it does with a bad
            // response (MCP likewise), so dropping one is no finding.
            Rule::ResultAndError
            | Rule::ResponseIdMissing
            | Rule::ErrorType
            | Rule::ErrorCode
            | Rule::ErrorMessage
            | Rule::MethodWithResponse => Expect::Unsettled,
            // A frame shaped as a response (no `method`, a `result` or an
            // `error`) but refused for another reason (no `jsonrpc`, an id of
            // the wrong type): still no call. JSON-RPC 2.0 §5: "When a rpc
            // call is made, the Server MUST reply with a Response"; nothing
            // obliges a reply to a response, however broken.
            _ if harness::error_ids::response_shaped(frame) => Expect::Unsettled,
            rule => Expect::Error(rule),
        },
    }
}

/// Whether a breach at `level` is reported: MUST and MUST NOT always, the
/// rest only under `--strict`.
fn counts(level: Level, strict: bool) -> bool {
    strict || level.is_mandatory()
}

/// The invariants `report` (the exchange of `frame`) breaks under `revision`.
#[must_use]
pub fn judge(frame: &[u8], report: &ProbeReport, revision: Revision, strict: bool) -> Vec<Breach> {
    let mut out = Vec::new();
    let server = Profile {
        revision,
        direction: Direction::ServerToClient,
    };
    // The probe's method, when it is one request: what its answer is judged
    // against (a 2026-07-28 `initialize` answered as a legacy revision, a
    // `subscriptions/listen` that stays open).
    // With it, whether the request names its protocol version in `_meta`: a
    // 2026-07-28 request without that per-request version is a legacy
    // request to a dual-era server, which answers it as the latest revision
    // before (basic/versioning: a server may serve both eras); a pure
    // 2026-07-28 server refuses it with an error, which any revision's rules
    // read alike.
    let (method, names_version) = match lift(frame) {
        Ok(harness::Frame::Single(Message::Request(r))) => {
            let named = r
                .params
                .as_ref()
                .and_then(|p| p.get("_meta"))
                .is_some_and(|m| m.get("io.modelcontextprotocol/protocolVersion").is_some());
            (Some(r.method.decoded().into_owned()), named)
        }
        _ => (None, false),
    };
    let legacy_request = revision == Revision::Mcp2026_07_28 && method.is_some() && !names_version;
    for received in &report.frames {
        if received.bytes.is_empty() {
            continue;
        }
        let mut profile = server;
        if legacy_request && received.class == Class::ProbeAnswer {
            profile.revision = Revision::Mcp2025_11_25;
        }
        if let (Some(method), true) = (&method, received.class == Class::ProbeAnswer) {
            if let Ok(harness::Frame::Single(Message::Success(s))) = lift(&received.bytes) {
                profile.revision =
                    harness::session::answer_revision(profile.revision, method, &s.result);
            }
        }
        for v in rules::validate(&received.bytes, profile) {
            // A rule no conforming peer can keep (the texts contradict each
            // other: an Invalid Request's error MUST carry `"id": null`, which
            // no MCP schema allows) weighs on no exchange, as in `run`'s
            // judge ([`crate::judge::Judgement::weighed`]): the one decision
            // is the rule's own, `RuleId::run_level_ambiguity`.
            if v.rule.run_level_ambiguity().is_some() {
                continue;
            }
            if counts(v.level, strict) {
                out.push(Breach::of_rule(
                    Kind::PeerFrame,
                    v.rule,
                    revision,
                    format!(
                        "{}{}",
                        v.message,
                        crate::report::text::at_pointer(&v.pointer)
                    ),
                ));
            }
        }
    }
    match &report.live {
        Live::Answered(_) => {}
        Live::Unresponsive => out.push(Breach {
            kind: Kind::Hang,
            rule: Some(crate::driver::liveness_rule(revision)),
            level: Level::Must,
            spec: crate::driver::liveness_rule(revision)
                .info()
                .cite(revision)
                .to_owned(),
            detail: "the liveness ping got no answer within the timeout".into(),
        }),
        Live::Closed { status, .. } => out.push(crash(format!(
            "the peer's output ended ({})",
            status.as_deref().unwrap_or("still running")
        ))),
        Live::SendFailed(e) => out.push(crash(format!("cannot send: {e}"))),
    }
    let answers: Vec<&[u8]> = report
        .frames
        .iter()
        .filter(|r| r.class == Class::ProbeAnswer)
        .map(|r| r.bytes.as_slice())
        .collect();
    let null_errors: Vec<&[u8]> = report
        .frames
        .iter()
        .filter(|r| r.class == Class::NullIdError)
        .map(|r| r.bytes.as_slice())
        .collect();
    let alive = matches!(report.live, Live::Answered(_));
    match expect(frame) {
        Expect::Unsettled => {}
        Expect::Error(rule) => {
            if null_errors.is_empty() && answers.is_empty() && alive {
                out.push(Breach::of_rule(
                    Kind::SilentDrop,
                    RuleId::JsonrpcResponseRequired,
                    revision,
                    format!(
                        "refused by the codec ({}, {}), and the peer sent nothing back; \
                         JSON-RPC 2.0 §5.1 names {} for it and §7 shows the answer",
                        rule.id(),
                        rule.spec(),
                        rule.code()
                    ),
                ));
            }
            // Which ids the error may carry is `harness::error_ids`' to say.
            let read = harness::error_ids::read_single(frame);
            for bytes in &null_errors {
                let carried = match lift(bytes) {
                    Ok(harness::Frame::Single(Message::Error(e))) => e.id,
                    _ => None,
                };
                let allowed = carried.as_ref().is_none_or(|c| {
                    harness::error_ids::error_may_carry(revision, &read, true, Some(c))
                });
                if let (false, Some(id)) = (allowed, error_id(bytes)) {
                    {
                        out.push(Breach::of_rule(
                            Kind::ErrorIdNotNull,
                            RuleId::JsonrpcResponseIdRequired,
                            revision,
                            format!("the error for an unreadable frame has id {id}"),
                        ));
                    }
                }
            }
        }
        expected @ (Expect::Answer | Expect::Nothing) => {
            let Ok(request) = lift(frame) else {
                return out;
            };
            let client = Profile {
                revision,
                direction: Direction::ClientToServer,
            };
            // A notification's "answer" has no id to match: an id-null error.
            // A response under another id (a rounded one) is still this
            // frame's answer when nothing else came: judged as an echo, not
            // as a silence.
            let strays: Vec<&[u8]> = report
                .frames
                .iter()
                .filter(|r| r.class == Class::Stray)
                .map(|r| r.bytes.as_slice())
                .collect();
            let reply_bytes = answers
                .first()
                .or(null_errors.first())
                .or(strays.first().filter(|_| expected == Expect::Answer))
                .copied()
                .filter(|_| alive);
            if alive
                && expected == Expect::Answer
                && answers.len() > 1
                && !matches!(request, harness::Frame::Batch(_))
            {
                out.push(Breach::of_rule(
                    Kind::AnsweredTwice,
                    RuleId::JsonrpcResponseRequired,
                    revision,
                    format!("{} answers to one request", answers.len()),
                ));
            }
            if !alive && reply_bytes.is_none() {
                return out;
            }
            let reply = reply_bytes.and_then(|b| lift(b).ok());
            if reply_bytes.is_some() && reply.is_none() {
                // Unliftable replies were judged as peer frames above.
                return out;
            }
            // A request its revision makes invalid (an id of 1.5, a null id
            // under MCP) may be refused as an invalid request, whose error
            // carries `"id": null` when the id is unusable (JSON-RPC 2.0 §5):
            // for it only an answer is due, not the echo.
            let invalid = rules::validate_frame(&request, client)
                .iter()
                .any(|v| v.level.is_mandatory());
            for v in rules::validate_reply(&request, reply.as_ref(), client) {
                if !counts(v.level, strict) {
                    continue;
                }
                if invalid && v.rule != RuleId::JsonrpcResponseRequired {
                    continue;
                }
                // A stream kept open is answered at its end, not now.
                let open = reply.is_none()
                    && method
                        .as_deref()
                        .is_some_and(|m| harness::session::long_lived(revision, m));
                if open && v.rule == RuleId::JsonrpcResponseRequired {
                    continue;
                }
                let kind = match v.rule.as_str() {
                    "jsonrpc.response.required" => Kind::Unanswered,
                    "jsonrpc.response.id-echo"
                    | "mcp.base.response-id-match"
                    | "mcp.base.result-response-id"
                    | "mcp.base.error-response-id" => Kind::IdNotEchoed,
                    "jsonrpc.notification.no-reply" | "mcp.base.notification-no-response" => {
                        Kind::NotificationAnswered
                    }
                    _ => Kind::Reply,
                };
                out.push(Breach::of_rule(
                    kind,
                    v.rule,
                    revision,
                    format!(
                        "{}{}",
                        v.message,
                        crate::report::text::at_pointer(&v.pointer)
                    ),
                ));
            }
        }
    }
    out.sort_by_key(|b| (b.kind, b.rule));
    out.dedup_by(|a, b| a.kind == b.kind && a.rule == b.rule);
    out
}

pub(crate) fn crash(detail: String) -> Breach {
    Breach {
        kind: Kind::Crash,
        rule: None,
        level: Level::Must,
        spec: "MCP basic/utilities/ping (the peer must stay able to answer)".into(),
        detail,
    }
}

/// The id member's text of a lone error response, if it has one.
fn error_id(bytes: &[u8]) -> Option<String> {
    match lift(bytes).ok()? {
        harness::Frame::Single(Message::Error(e)) => e.id.map(|id| match id {
            harness::Id::Null => "null".to_owned(),
            harness::Id::Number(n) => n.into_owned(),
            harness::Id::String(s) => format!("{s:?}"),
        }),
        _ => None,
    }
}

/// The shape of a frame, for de-duplication: what kind of message it is, which
/// method (when the revision defines it), what kind of id. Two frames of one
/// shape that break one invariant are one finding.
#[must_use]
pub fn shape(frame: &[u8], revision: Revision) -> String {
    let lifted = match lift(frame) {
        Ok(f) => f,
        Err(refusal) => return format!("refused:{}", refusal.rule().id()),
    };
    let known = |m: &str| {
        rules::schema::methods()
            .iter()
            .any(|d| d.revision == revision && d.method == m)
    };
    let parts: Vec<String> = lifted
        .messages()
        .iter()
        .map(|m| {
            // Which notification was answered matters little: one finding.
            let notification = m.kind() == harness::MessageKind::Notification;
            let method = m
                .method()
                .filter(|_| !notification)
                .map(|name| {
                    if known(&name) {
                        name.into_owned()
                    } else {
                        "other".into()
                    }
                })
                .unwrap_or_default();
            let id = match m.id() {
                None => "none",
                Some(harness::Id::Null) => "null",
                Some(harness::Id::String(_)) => "string",
                Some(harness::Id::Number(n)) => number_shape(n),
            };
            format!("{:?}:{method}:{id}", m.kind()).to_lowercase()
        })
        .collect();
    if matches!(lifted, harness::Frame::Batch(_)) {
        format!("batch[{}]", parts.join(","))
    } else {
        parts.join(",")
    }
}

/// The shape of what the peer answered in `report`, for folding findings
/// into defects: `no answer`, a peer that died or hung, or each answer's
/// kind and id kind (`error:id-null`, `success:id-integer`, a batch's in
/// brackets). Two frames of different shapes answered alike are one defect.
#[must_use]
pub fn answer_shape(report: &ProbeReport) -> String {
    match &report.live {
        Live::Answered(_) => {}
        Live::Unresponsive => return "unresponsive".into(),
        Live::Closed { .. } | Live::SendFailed(_) => return "died".into(),
    }
    let one = |m: &Message<'_>| {
        let id = match m.id() {
            None => "none",
            Some(harness::Id::Null) => "null",
            Some(harness::Id::String(_)) => "string",
            Some(harness::Id::Number(n)) => number_shape(n),
        };
        format!("{}:id-{id}", m.kind().name())
    };
    let answers: Vec<String> = report
        .answers()
        .map(|r| match lift(&r.bytes) {
            Ok(harness::Frame::Single(m)) => one(&m),
            Ok(harness::Frame::Batch(ms)) => format!(
                "batch[{}]",
                ms.iter().map(&one).collect::<Vec<_>>().join(",")
            ),
            Err(_) => "unreadable".into(),
        })
        .collect();
    if answers.is_empty() {
        "no answer".into()
    } else {
        answers.join(" ")
    }
}

/// A finding's defect: the invariant and rule it breaks and the shape of
/// the peer's answer. Findings of one defect differ only in the frame that
/// showed it.
#[must_use]
pub fn defect(breach: &Breach, answer: &str) -> String {
    format!(
        "{}|{}|{answer}",
        breach.kind.name(),
        breach.rule.map_or("-", |r| r.as_str())
    )
}

fn number_shape(n: &str) -> &'static str {
    let digits = n.trim_start_matches('-');
    if n.contains(['.', 'e', 'E']) {
        "number-spelled"
    } else if digits.len() > 15 && digits.parse::<u64>().map_or(true, |v| v > (1 << 53)) {
        "integer-past-2^53"
    } else {
        "integer"
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::driver::Received;

    fn report(answers: &[&str]) -> ProbeReport {
        ProbeReport {
            expects_answer: true,
            liveness_id: harness::Id::string("live"),
            live: Live::Answered(Duration::from_millis(1)),
            frames: answers
                .iter()
                .map(|a| Received {
                    t: Duration::ZERO,
                    bytes: a.as_bytes().to_vec(),
                    class: Class::ProbeAnswer,
                })
                .collect(),
            frames_over_cap: 0,
            transport_dropped: 0,
            took: Duration::from_millis(1),
            reused_ids: Vec::new(),
            exchange: None,
        }
    }

    fn rules_of(breaches: &[Breach]) -> Vec<&'static str> {
        breaches
            .iter()
            .filter_map(|b| b.rule.map(RuleId::as_str))
            .collect()
    }

    const R5: Revision = Revision::Mcp2026_07_28;

    /// The ids an error answering `answer`'s frame could carry: what the
    /// vector pins, `null`, and the frame's readable id.
    fn error_answers(answer: &crate::vectors::Answer, ids: &mut Vec<String>) -> bool {
        use crate::vectors::Answer;
        match answer {
            Answer::Error {
                id, data_required, ..
            } if data_required.is_empty() => {
                ids.extend(id.clone());
                true
            }
            Answer::AnyOf(items) => {
                let mut any = false;
                for a in items {
                    any |= error_answers(a, ids);
                }
                any
            }
            _ => false,
        }
    }

    /// `fuzz` judges with `run`'s stances: wherever `run` passes a golden
    /// vector's frame answered by an error (its id the pinned one, `null`, or
    /// the frame's readable id; its code any of JSON-RPC 2.0's), with or
    /// without `--strict`, the fuzz invariants find nothing. JSON-RPC 2.0
    /// §5: "If there was an error in detecting the id in the Request object
    /// (e.g. Parse error/Invalid Request), it MUST be Null." No MCP schema
    /// allows that null (ambiguity A2): `run` weighs it on no exchange, and
    /// `fuzz --strict` used to count it on every Invalid Request answered
    /// with `"id": null`, against the reference peer too.
    #[test]
    fn fuzz_and_run_take_one_stance_on_an_errors_id() {
        for strict in [false, true] {
            one_stance(strict);
        }
    }

    fn one_stance(strict: bool) {
        use crate::judge::{reply_with, Observed, Strictness};
        let strictness = if strict {
            Strictness::Strict
        } else {
            Strictness::Default
        };
        let (vectors, _) = crate::vectors::embedded();
        let mut diverge = Vec::new();
        let mut checked = 0;
        for v in vectors.iter().filter(|v| {
            v.profile.direction == Direction::ClientToServer && v.profile.revision.is_mcp()
        }) {
            let Some(answer) = &v.answer else { continue };
            let mut ids = vec!["null".to_owned()];
            if !error_answers(answer, &mut ids) {
                continue;
            }
            if let harness::error_ids::Read::Id(id) = harness::error_ids::read_single(&v.frame) {
                ids.push(id.raw().to_owned());
            }
            let probe_ids = crate::driver::request_ids(&v.frame);
            for id in &ids {
                for code in [-32700, -32600, -32601, -32602, -32603] {
                    let bytes = format!(
                        r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":"m"}}}}"#
                    );
                    let run = reply_with(
                        v,
                        &Observed::Frames(vec![bytes.clone().into_bytes()]),
                        strictness,
                    );
                    if run.outcome != harness::Outcome::Pass {
                        continue;
                    }
                    checked += 1;
                    let mut got = report(&[&bytes]);
                    got.frames[0].class =
                        crate::driver::classify(bytes.as_bytes(), &probe_ids, None);
                    for b in judge(&v.frame, &got, v.profile.revision, strict) {
                        diverge.push(format!("{}: {bytes}: {} {:?}", v.id, b.kind.name(), b.rule));
                    }
                }
            }
        }
        assert!(checked > 50, "{checked}");
        assert!(
            diverge.is_empty(),
            "run passes (strict: {strict}), fuzz finds:\n{}",
            diverge.join("\n")
        );
    }

    #[test]
    fn a_2026_initialize_answered_as_legacy_owes_no_2026_result_fields() {
        let initialize = br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1","capabilities":{},"clientInfo":{"name":"f","version":"0"}}}"#;
        let legacy = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"p","version":"0"}}}"#;
        let found = judge(initialize, &report(&[legacy]), R5, true);
        let rules = rules_of(&found);
        assert!(
            !rules.contains(&"mcp.base.result-type-required"),
            "{found:#?}"
        );
        assert!(!rules.contains(&"mcp.r5.meta.server-info"), "{found:#?}");
        // Any other 2026-07-28 request's result still owes them.
        let listed = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        let bare = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#;
        let rules = rules_of(&judge(listed, &report(&[bare]), R5, true)).join(" ");
        assert!(rules.contains("mcp.base.result-type-required"), "{rules}");
    }

    /// A request without 2026-07-28's per-request version is a legacy
    /// request: a dual-era server (the reference peer) answers it as
    /// 2025-11-25 does, owing none of 2026-07-28's result fields (the fuzz
    /// found it "invalid" on the reference peer once its frames reached one).
    #[test]
    fn a_2026_request_without_its_version_is_answered_as_legacy() {
        let legacy = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        let bare = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#;
        let found = judge(legacy, &report(&[bare]), R5, true);
        assert!(
            !rules_of(&found).contains(&"mcp.base.result-type-required"),
            "{found:#?}"
        );
    }

    #[test]
    fn a_dropped_response_shaped_frame_is_no_silent_drop_but_a_dropped_call_is() {
        // JSON-RPC 2.0 §5 obliges a reply to a call only: a response refused
        // for its missing `jsonrpc` or its id's type is no call.
        for frame in [
            r#"{"id":1,"result":{}}"#,
            r#"{"jsonrpc":"1.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":true,"error":{"code":-1,"message":"m"}}"#,
            r#"[{"id":1,"result":{}},{"id":2,"error":{"code":1,"message":"m"}}]"#,
            // An id no double holds (found by fuzzing the rich conformant
            // server): still read as a response.
            r#"{"jsonrpc":[],"id":1233191283e27223,"error":-32602}"#,
        ] {
            assert_eq!(expect(frame.as_bytes()), Expect::Unsettled, "{frame}");
            let found = judge(frame.as_bytes(), &report(&[]), R5, false);
            assert!(
                found.iter().all(|b| b.kind != Kind::SilentDrop),
                "{frame}: {found:#?}"
            );
        }
        // Calls refused for the same reasons are owed an error.
        for frame in [
            r#"{"id":1,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":true,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":1}"#,
            r#"[{"id":1,"result":{}},{"id":2,"method":"ping"}]"#,
        ] {
            let found = judge(frame.as_bytes(), &report(&[]), R5, false);
            assert!(
                found.iter().any(|b| b.kind == Kind::SilentDrop),
                "{frame}: {found:#?}"
            );
        }
    }

    #[test]
    fn a_listen_left_open_is_not_unanswered_but_a_call_is() {
        let listen = br#"{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{}}"#;
        let found = judge(listen, &report(&[]), R5, false);
        assert!(
            found.iter().all(|b| b.kind != Kind::Unanswered),
            "{found:#?}"
        );
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#;
        let found = judge(call, &report(&[]), R5, false);
        assert!(
            found.iter().any(|b| b.kind == Kind::Unanswered),
            "{found:#?}"
        );
        // Before 2026-07-28 the method is nobody's stream: owed an answer.
        let found = judge(listen, &report(&[]), Revision::Mcp2025_11_25, false);
        assert!(
            found.iter().any(|b| b.kind == Kind::Unanswered),
            "{found:#?}"
        );
    }
}
