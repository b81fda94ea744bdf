//! Defects as a server author meets them: attribution to the rule broken,
//! folding, and what to change.

use super::*;
use crate::{Check, Command, Place};
use ground::transcript::Frame;
use harness::rules::Violation;
use harness::Direction;

fn frame(from: Direction, text: &str) -> Frame {
    Frame::untimed(from, text.as_bytes().to_vec())
}

/// A probe of `rule` (the rule its frame breaks on purpose) that got
/// `answer` (or nothing) before the runner's liveness ping was answered.
fn probe(
    vector: &str,
    revision: Revision,
    rule: RuleId,
    sent: &str,
    answer: Option<&str>,
) -> Record {
    let mut r = Record::new(
        Place {
            vector: Some(vector.into()),
            revision: Some(revision),
            transport: Some(ground::transport::Kind::Stdio.into()),
            ..Place::default()
        },
        Subject::Frame(sent.as_bytes().to_vec()),
        Outcome::Fail,
    );
    r.check = Some(Check {
        rule: rule.into(),
        level: rule.info().level,
        spec: rule.info().cite(revision).into(),
    });
    r.wire = vec![
        frame(Direction::ClientToServer, sent),
        frame(
            Direction::ClientToServer,
            r#"{"jsonrpc":"2.0","id":99,"method":"ping"}"#,
        ),
    ];
    if let Some(answer) = answer {
        r.wire.push(frame(Direction::ServerToClient, answer));
    }
    r.wire.push(frame(
        Direction::ServerToClient,
        r#"{"jsonrpc":"2.0","id":99,"result":{}}"#,
    ));
    r
}

fn silent(r: &mut Record) {
    r.violations = Some(vec![Violation {
        rule: RuleId::JsonrpcResponseRequired,
        level: Level::Must,
        spec: "JSON-RPC 2.0 §5",
        pointer: String::new(),
        message: "got no reply".into(),
    }]);
}

/// A silence is the server's breach of §5's MUST reply, whatever rule
/// the probe's frame broke on purpose: probes of several rules, under
/// several revisions, are one defect headed by the rule the server
/// broke, with its sentence; a notification the server sent meanwhile
/// answers nothing.
#[test]
fn silences_to_many_probes_are_one_defect_of_the_server() {
    let mut report = Report::new(Command::Run);
    for (vector, revision, rule, sent) in [
        (
            "mcp/2024-11-05/malformed/params-number",
            Revision::Mcp2024_11_05,
            RuleId::ParamsType,
            r#"{"jsonrpc":"2.0","id":7,"method":"ping","params":3}"#,
        ),
        (
            "mcp/2025-11-25/malformed/version-1.0",
            Revision::Mcp2025_11_25,
            RuleId::VersionInvalid,
            r#"{"jsonrpc":"1.0","id":8,"method":"ping"}"#,
        ),
        (
            "mcp/2025-11-25/base/id-null",
            Revision::Mcp2025_11_25,
            RuleId::JsonrpcResponseIdEcho,
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
        ),
    ] {
        let list_changed = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
        let mut r = probe(vector, revision, rule, sent, Some(list_changed));
        silent(&mut r);
        report.records.push(r);
    }
    let defects = defects(&report);
    assert_eq!(defects.len(), 1, "{defects:#?}");
    let d = &defects[0];
    assert_eq!(d.rule, RuleId::JsonrpcResponseRequired.as_str());
    assert_eq!(d.shape, Shape::NoReply);
    assert_eq!(d.weight, Weight::Must);
    assert_eq!(d.checks.len(), 3);
    assert_eq!(
        d.revisions,
        [Revision::Mcp2024_11_05, Revision::Mcp2025_11_25]
    );
    assert_eq!(d.fingerprint(), "jsonrpc.response.required/no-reply");
    assert_eq!(
        d.sentence(),
        Some(RuleId::JsonrpcResponseRequired.info().quote)
    );
    // The smallest probe is the example.
    assert_eq!(
        report.records[d.checks[0]].place.vector.as_deref(),
        Some("mcp/2025-11-25/malformed/version-1.0")
    );
    assert!(d.fix().is_some());
}

/// Where MCP requires batches to be received (2025-03-26), a batch of
/// requests left unanswered breaks that sentence, a defect of its own.
#[test]
fn an_unanswered_batch_under_2025_03_26_breaks_must_receive() {
    let mut report = Report::new(Command::Run);
    let mut batch = probe(
        "mcp/2025-03-26/batch/batch-requests",
        Revision::Mcp2025_03_26,
        RuleId::JsonrpcResponseRequired,
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
        None,
    );
    silent(&mut batch);
    let mut malformed = probe(
        "mcp/2025-03-26/malformed/batch-of-a-number",
        Revision::Mcp2025_03_26,
        RuleId::JsonrpcResponseRequired,
        "[1]",
        None,
    );
    silent(&mut malformed);
    report.records = vec![batch, malformed];
    let rules: Vec<String> = defects(&report).iter().map(Defect::fingerprint).collect();
    assert_eq!(
        rules,
        [
            "jsonrpc.response.required/no-reply",
            "mcp.batch.must-receive/no-reply"
        ]
    );
}

/// A batch made invalid on purpose by one element, answered with one
/// error for the whole: the valid call in it went unanswered (§5), the
/// server's breach, never the rule the invalid element broke.
#[test]
fn a_batch_answered_by_one_object_leaves_its_calls_unanswered() {
    let mut report = Report::new(Command::Run);
    report.records.push(probe(
        "jsonrpc-2.0/batch/element-not-object",
        Revision::JsonRpc2,
        RuleId::FrameType,
        r#"[{"jsonrpc":"2.0","id":1,"method":"a"},2]"#,
        Some(r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"m"},"id":null}"#),
    ));
    let d = &defects(&report)[0];
    assert_eq!(d.fingerprint(), "jsonrpc.response.required/error");
    assert!(d
        .fix()
        .unwrap()
        .contains("an array holding a response for each call"));
}

/// A sender's rule found on the server's own answer (an array id echoed
/// in an error) is filed under what binds the server: §5's "it MUST be
/// Null".
#[test]
fn a_senders_rule_on_the_answer_is_filed_under_the_servers_sentence() {
    let mut report = Report::new(Command::Run);
    let r = probe(
        "jsonrpc-2.0/request/id-array",
        Revision::JsonRpc2,
        RuleId::IdType,
        r#"{"jsonrpc":"2.0","id":[1],"method":"echo"}"#,
        Some(r#"{"jsonrpc":"2.0","id":[1],"error":{"code":-32601,"message":"m"}}"#),
    );
    report.records.push(r);
    let d = &defects(&report)[0];
    assert_eq!(d.rule, RuleId::JsonrpcResponseIdRequired.as_str());
    assert!(d.sentence().unwrap().ends_with("it MUST be Null."));
}

/// One defect under several revisions is one, though each revision's
/// check cites the rule in its own words: filed under the sentence they
/// restate, the restatements named.
#[test]
fn restatements_of_one_sentence_across_revisions_are_one_defect() {
    let mut report = Report::new(Command::Run);
    for (revision, rule) in [
        (Revision::Mcp2025_06_18, RuleId::McpBaseResponseIdMatch),
        (Revision::Mcp2025_11_25, RuleId::McpBaseErrorResponseId),
    ] {
        report.records.push(probe(
            &format!("mcp/{revision}/exchange/id-rounded"),
            revision,
            rule,
            r#"{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/list"}"#,
            Some(
                r#"{"jsonrpc":"2.0","id":9007199254740992,"error":{"code":-32601,"message":"m"}}"#,
            ),
        ));
    }
    let defects = defects(&report);
    assert_eq!(defects.len(), 1, "{defects:#?}");
    assert_eq!(defects[0].rule, RuleId::JsonrpcResponseIdEcho.as_str());
    assert_eq!(defects[0].fingerprint(), "jsonrpc.response.id-echo/error");
    assert_eq!(
        defects[0].restated,
        [
            CheckId::Rule(RuleId::McpBaseResponseIdMatch),
            CheckId::Rule(RuleId::McpBaseErrorResponseId)
        ]
    );
    assert_eq!(
        family(&CheckId::Rule(RuleId::McpPingRespond)),
        CheckId::Rule(RuleId::McpPingRespond)
    );
}

/// The session judge's record of an answer a probe already showed
/// (the rounded id as "an id no request carried") joins the probe's
/// defect; a wrong code is a convention, told by its code.
#[test]
fn a_session_record_of_the_same_answer_joins_the_probes_defect() {
    let rounded =
        r#"{"jsonrpc":"2.0","id":9007199254740992,"error":{"code":-32601,"message":"m"}}"#;
    let mut report = Report::new(Command::Run);
    report.records.push(probe(
        "jsonrpc-2.0/request/id-past-2-53",
        Revision::JsonRpc2,
        RuleId::JsonrpcResponseIdEcho,
        r#"{"jsonrpc":"2.0","id":9007199254740993,"method":"echo"}"#,
        Some(rounded),
    ));
    let mut session = Record::new(
        Place {
            vector: Some("run/jsonrpc-2.0/session/session.response.unknown-id".into()),
            revision: Some(Revision::JsonRpc2),
            frame: Some(42),
            ..Place::default()
        },
        Subject::Frame(rounded.as_bytes().to_vec()),
        Outcome::Fail,
    );
    session.check = Some(Check {
        rule: RuleId::SessionResponseUnknownId.into(),
        level: Level::Must,
        spec: "JSON-RPC 2.0 §5".into(),
    });
    report.records.push(session);
    let mut code = probe(
        "jsonrpc-2.0/request/method-null",
        Revision::JsonRpc2,
        RuleId::JsonrpcErrorCodeMeaning,
        r#"{"jsonrpc":"2.0","id":3,"method":null}"#,
        Some(r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"m"}}"#),
    );
    code.outcome = Outcome::Warning;
    code.notes
        .push("error code -32601, expected one of [-32600]".into());
    report.records.push(code);
    let defects = defects(&report);
    assert_eq!(defects.len(), 2, "{defects:#?}");
    assert_eq!(defects[0].checks, [0, 1]);
    assert_eq!(
        defects[0].also_shown_by(&report),
        ["session.response.unknown-id"]
    );
    assert_eq!(defects[1].weight, Weight::Convention);
    assert_eq!(defects[1].shape, Shape::Error(-32601));
    assert_eq!(
        defects[1].fix().as_deref(),
        Some("answer with -32600 (Invalid Request) instead of -32601 (Method not found)")
    );
}
