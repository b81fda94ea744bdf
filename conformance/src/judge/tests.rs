//! The judge's verdicts on vectors and replies, each against the sentence
//! that decides it.

use super::*;
use crate::vectors::{Codec, Verdict};
use harness::Revision;

/// A plain JSON-RPC 2.0 vector a client sends, with the answer it expects
/// as a convention (the weakest basis: it never changes the verdict).
fn vector(frame: &str, answer: Answer) -> Vector {
    with_basis(frame, answer, Basis::Convention("test".into()))
}

fn with_basis(frame: &str, answer: Answer, basis: Basis) -> Vector {
    Vector {
        id: "jsonrpc-2.0/test/x".into(),
        path: "x.json".into(),
        verdict: Verdict::Accept,
        description: "test".into(),
        profile: Profile {
            revision: Revision::JsonRpc2,
            direction: Direction::ClientToServer,
        },
        frame: frame.as_bytes().to_vec(),
        rules: Vec::new(),
        codec: Codec::Lifts,
        violations: Vec::new(),
        advisories: Vec::new(),
        answer: Some(answer),
        basis: Some(basis),
        needs: crate::vectors::Needs::default(),
        exchange: None,
        ambiguity: None,
    }
}

fn mandated(level: Level) -> Basis {
    Basis::MandatedBy {
        rule: harness::rules::RuleId::JsonrpcResponseIdEcho,
        level,
    }
}

fn error(codes: &[i64]) -> Answer {
    Answer::Error {
        codes: codes.to_vec(),
        id: Some("1".into()),
        data_required: Vec::new(),
    }
}

fn result(id: &str) -> Answer {
    Answer::Result {
        id: Some(id.into()),
        required: Vec::new(),
        example: None,
    }
}

fn frames(texts: &[&str]) -> Observed {
    Observed::Frames(texts.iter().map(|t| t.as_bytes().to_vec()).collect())
}

const REQUEST: &str = r#"{"jsonrpc":"2.0","id":1,"method":"x"}"#;
const NOTIFICATION: &str = r#"{"jsonrpc":"2.0","method":"x"}"#;

fn rules(j: &Judgement) -> Vec<&'static str> {
    j.violations().map(|v| v.rule.as_str()).collect()
}

/// An Invalid Request whose id is readable
/// may be answered with that id or with null (JSON-RPC 2.0 §5), never
/// with another id; a frame with no readable id only with null.
#[test]
fn an_invalid_request_may_echo_its_readable_id() {
    let null_error = Answer::Error {
        codes: vec![-32600],
        id: Some("null".into()),
        data_required: Vec::new(),
    };
    let v = with_basis(
        r#"{"jsonrpc":"1.0","id":1,"method":"echo"}"#,
        null_error.clone(),
        mandated(Level::Must),
    );
    let answered = |id: &str| {
        let sent =
            format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32600,"message":"m"}}}}"#);
        reply(&v, &frames(&[&sent])).outcome
    };
    assert_eq!(answered("1"), Outcome::Pass);
    assert_eq!(answered("null"), Outcome::Pass);
    assert_eq!(answered("2"), Outcome::Fail);
    let unreadable = with_basis(
        r#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#,
        null_error,
        mandated(Level::Must),
    );
    let echoed = reply(
        &unreadable,
        &frames(&[r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"m"}}"#]),
    );
    assert_eq!(echoed.outcome, Outcome::Fail);
}

/// Ambiguity A2 (an error with `"id": null`,
/// which no MCP schema allows, for a frame whose id could not be read)
/// weighs on no verdict; the judgement names it, for the run to say once.
#[test]
fn ambiguity_a2_is_named_but_never_a_warning() {
    let mut v = vector(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","#,
        Answer::Error {
            codes: vec![-32700],
            id: Some("null".into()),
            data_required: Vec::new(),
        },
    );
    v.profile.revision = Revision::Mcp2025_06_18;
    let j = reply(
        &v,
        &frames(&[r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}"#]),
    );
    assert_eq!(j.outcome, Outcome::Pass, "{:?}", rules(&j));
    assert_eq!(j.ambiguities, [harness::rules::RuleId::McpBaseErrorIdNull]);
    assert!(rules(&j).contains(&"mcp.base.error-id-null"));
    assert_eq!(j.weighed().count(), 0);
}

#[test]
fn a_matching_reply_passes_and_the_peers_own_frames_are_not_the_reply() {
    let v = vector(REQUEST, result("1"));
    let log = r#"{"jsonrpc":"2.0","method":"log","params":{}}"#;
    let j = reply(
        &v,
        &frames(&[log, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#]),
    );
    assert_eq!(j.outcome, Outcome::Pass, "{:?}", rules(&j));
    assert_eq!(j.frames.len(), 2);
    assert!(!j.frames[0].is_reply && j.frames[1].is_reply);
    assert!(j.mismatches.is_empty(), "{:?}", j.mismatches);
}

#[test]
fn a_request_met_with_silence_fails_on_the_exchange_rule() {
    let v = vector(REQUEST, result("1"));
    for why in [Silence::TimedOut, Silence::PeerClosed] {
        let j = reply(&v, &Observed::Silence(why));
        assert_eq!(j.outcome, Outcome::Fail);
        assert!(!j.exchange.is_empty() && j.exchange.iter().any(|v| v.level.is_mandatory()));
        assert_eq!(j.mismatches, ["expected a result, got no reply"]);
        assert_eq!(j.silence, Some(why));
    }
}

/// An `i_` vector's ambiguity softens a failure to a warning, but not a
/// silence where a reply is owed under every reading (JSON-RPC 2.0 §5:
/// "When a rpc call is made, the Server MUST reply with a Response"):
/// a request with id 1.0 is a well-formed call if 1.0 is an integer and
/// an Invalid Request if not, answered either way. Unless the ambiguity
/// is whether a reply is owed at all (`reply_in_question`).
#[test]
fn silence_fails_an_ambiguous_request_unless_the_reply_itself_is_in_question() {
    let mut v = vector(r#"{"jsonrpc":"2.0","id":1.0,"method":"m"}"#, result("1.0"));
    v.verdict = Verdict::ImplementationDefined;
    v.ambiguity = Some(crate::vectors::Ambiguity {
        reference: "A1".into(),
        question: "Is 1.0 an integer id?".into(),
        quotes: vec!["a".into(), "b".into()],
        stance: "either answer".into(),
        reply_in_question: false,
    });
    let silent = reply(&v, &Observed::Silence(Silence::TimedOut));
    assert_eq!(silent.outcome, Outcome::Fail, "{:?}", silent.notes);
    // The peer's own notification is no reply either.
    let log = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#;
    let chatty = reply(&v, &frames(&[log]));
    assert_eq!(chatty.outcome, Outcome::Fail, "{:?}", chatty.notes);
    // A wrong answer is the ambiguity's to soften.
    let wrong = reply(&v, &frames(&[r#"{"jsonrpc":"2.0","id":2,"result":{}}"#]));
    assert_eq!(wrong.outcome, Outcome::Warning, "{:?}", rules(&wrong));
    if let Some(a) = v.ambiguity.as_mut() {
        a.reply_in_question = true;
    }
    let silent = reply(&v, &Observed::Silence(Silence::TimedOut));
    assert_eq!(silent.outcome, Outcome::Warning, "{:?}", silent.notes);
    // Where silence is among the accepted answers it passes as ever.
    let mut quiet = vector(
        r#"{"jsonrpc":"2.0","id":1.0,"method":"m"}"#,
        Answer::AnyOf(vec![result("1.0"), Answer::Nothing]),
    );
    quiet.verdict = Verdict::ImplementationDefined;
    let silent = reply(&quiet, &Observed::Silence(Silence::TimedOut));
    assert_ne!(silent.outcome, Outcome::Fail, "{:?}", silent.notes);
}

#[test]
fn silence_after_a_notification_passes_unless_the_peer_hung_up() {
    let v = vector(NOTIFICATION, Answer::Nothing);
    let waited = reply(&v, &Observed::Silence(Silence::TimedOut));
    assert_eq!(waited.outcome, Outcome::Pass, "{:?}", rules(&waited));
    let closed = reply(&v, &Observed::Silence(Silence::PeerClosed));
    assert_eq!(
        closed.outcome,
        Outcome::NotObserved {
            why: Silence::PeerClosed.describe().into()
        }
    );
    let answered = reply(&v, &frames(&[r#"{"jsonrpc":"2.0","id":null,"result":{}}"#]));
    assert_eq!(answered.outcome, Outcome::Fail, "{:?}", rules(&answered));
}

#[test]
fn an_id_echoed_with_another_type_fails() {
    let v = vector(REQUEST, result("1"));
    let j = reply(&v, &frames(&[r#"{"jsonrpc":"2.0","id":"1","result":{}}"#]));
    assert_eq!(j.outcome, Outcome::Fail);
    assert!(!j.exchange.is_empty(), "{:?}", rules(&j));
    assert_eq!(j.mismatches, [r#"id "1", expected 1"#]);
}

#[test]
fn a_reply_that_does_not_lift_fails_on_its_own_violation() {
    let v = vector(REQUEST, result("1"));
    let j = reply(&v, &frames(&["{not json"]));
    assert_eq!(j.outcome, Outcome::Fail);
    assert_eq!(rules(&j), ["json.syntax"]);
    assert!(j.exchange.is_empty());
    assert!(j.mismatches[0].starts_with("the reply does not lift"));
}

#[test]
fn a_departure_from_the_answer_weighs_as_much_as_its_basis() {
    // -32601 expected, -32602 sent: the reply is otherwise clean.
    let sent = frames(&[r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"m"}}"#]);
    let judge = |basis, strictness| {
        reply_with(
            &with_basis(REQUEST, error(&[-32601]), basis),
            &sent,
            strictness,
        )
    };
    let must = judge(mandated(Level::Must), Strictness::Default);
    assert_eq!(must.outcome, Outcome::Fail, "{:?}", rules(&must));
    assert_eq!(
        must.mismatches,
        ["error code -32602, expected one of [-32601]"]
    );
    assert_eq!(
        judge(mandated(Level::Should), Strictness::Default).outcome,
        Outcome::Warning
    );
    let convention = judge(Basis::Convention("usual code".into()), Strictness::Default);
    assert_eq!(convention.outcome, Outcome::Pass);
    assert_eq!(
        convention.notes,
        ["the answer expected here is a convention, not a requirement (usual code)"]
    );
    assert_eq!(
        judge(Basis::Convention("usual code".into()), Strictness::Strict).outcome,
        Outcome::Warning
    );
    assert_eq!(
        judge(mandated(Level::May), Strictness::Default).outcome,
        Outcome::Pass
    );
}

#[test]
fn a_batch_reply_that_is_not_an_array_warns_at_should() {
    // JSON-RPC 2.0 §6: a batch reply *should* be an array; the one
    // response it holds, sent alone, warns under that SHOULD whatever
    // level the vector's answer is mandated at.
    for level in [Level::Should, Level::Must] {
        let v = with_basis(
            r#"[{"jsonrpc":"2.0","id":1,"method":"x"}]"#,
            Answer::Batch(vec![result("1")]),
            mandated(level),
        );
        let j = reply(&v, &frames(&[r#"{"jsonrpc":"2.0","id":1,"result":{}}"#]));
        assert_eq!(j.outcome, Outcome::Warning, "{:?}", rules(&j));
        assert!(j.mismatches.is_empty(), "{:?}", j.mismatches);
        assert!(
            rules(&j).contains(&"jsonrpc.batch.respond-array"),
            "{:?}",
            rules(&j)
        );
    }
}

#[test]
fn any_of_is_kept_by_one_alternative() {
    let answer = Answer::AnyOf(vec![result("1"), error(&[-32602])]);
    let v = with_basis(REQUEST, answer, mandated(Level::Must));
    for sent in [
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"m"}}"#,
    ] {
        let j = reply(&v, &frames(&[sent]));
        assert_eq!(j.outcome, Outcome::Pass, "{sent}: {:?}", j.mismatches);
    }
    let j = reply(
        &v,
        &frames(&[r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"m"}}"#]),
    );
    assert_eq!(j.outcome, Outcome::Fail);
    assert!(
        j.mismatches[0].starts_with("fits none of the accepted answers"),
        "{:?}",
        j.mismatches
    );
    // "an error or no answer", after a notification.
    let either = with_basis(
        NOTIFICATION,
        Answer::AnyOf(vec![Answer::Nothing, error(&[])]),
        mandated(Level::Must),
    );
    let j = reply(&either, &Observed::Silence(Silence::TimedOut));
    assert!(j.mismatches.is_empty(), "{:?}", j.mismatches);
}

/// A false finding once seen: a reply the codec refuses is weighed at its rule's
/// level: duplicate names (RFC 8259 §4, SHOULD) warn, a nesting past the
/// codec's own limit (RFC 8259 §9, MAY) is a note beside a pass (a
/// warning under `--strict`), and a reply that breaks a MUST still fails.
#[test]
fn a_refused_reply_weighs_as_its_rules_level() {
    let v = vector(REQUEST, result("1"));
    let duplicate = reply(
        &v,
        &frames(&[r#"{"jsonrpc":"2.0","id":1,"id":1,"result":{}}"#]),
    );
    assert_eq!(
        duplicate.outcome,
        Outcome::Warning,
        "{:?}",
        rules(&duplicate)
    );
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"a":{}{}}}}}"#,
        "[".repeat(600),
        "]".repeat(600)
    );
    // Even where the answer is mandated the codec cannot read the reply:
    // no failure, and no pass either (what the reply says was never
    // compared with the answer, so it was not observed).
    let must = with_basis(REQUEST, result("1"), mandated(Level::Must));
    let j = reply(&must, &frames(&[&deep]));
    assert!(
        matches!(j.outcome, Outcome::NotObserved { .. }),
        "{:?} {:?}",
        rules(&j),
        j.mismatches
    );
    assert!(
        j.notes.iter().any(|n| n.starts_with("json.depth-limit")),
        "{:?}",
        j.notes
    );
    assert_eq!(
        reply_with(&v, &frames(&[&deep]), Strictness::Strict).outcome,
        Outcome::Warning
    );
    let broken = reply(&v, &frames(&[r#"{"jsonrpc":"2.0","id":1}"#]));
    assert_eq!(broken.outcome, Outcome::Fail, "{:?}", rules(&broken));
}

/// A departure an `i_` vector's ambiguity allows for is a warning (a
/// silence where every reading owes a reply is not:
/// `silence_fails_an_ambiguous_request_unless_the_reply_itself_is_in_question`).
#[test]
fn an_implementation_defined_vector_never_fails() {
    let mut v = with_basis(REQUEST, error(&[-32601]), mandated(Level::Must));
    v.verdict = Verdict::ImplementationDefined;
    let j = reply(
        &v,
        &frames(&[r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"m"}}"#]),
    );
    assert_eq!(j.outcome, Outcome::Warning, "{:?}", rules(&j));
    assert!(
        j.notes.iter().any(|n| n.contains("never fails")),
        "{:?}",
        j.notes
    );
}

#[test]
fn a_stream_is_opened_by_its_notification_and_then_stays_open() {
    let listen = r#"{"jsonrpc":"2.0","id":4,"method":"subscriptions/listen","params":{}}"#;
    let v = with_basis(
        listen,
        Answer::Stream {
            notification: "notifications/subscriptions/acknowledged".into(),
            meta_required: vec!["io.modelcontextprotocol/subscriptionId".into()],
        },
        mandated(Level::Must),
    );
    let ack = r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":4},"notifications":{}}}"#;
    let open = reply(&v, &frames(&[ack]));
    assert_eq!(open.silence, None);
    // Frames alone, then the wait ended: the runner reports the frames,
    // and the response the stream owes is not yet due.
    assert!(open.mismatches.is_empty(), "{:?}", open.mismatches);
    assert_eq!(open.outcome, Outcome::Pass, "{:?}", rules(&open));
    assert!(open.exchange.is_empty(), "{:?}", rules(&open));
    assert_eq!(
        open.notes,
        ["the stream stayed open, as it should; no response is due before teardown"]
    );
    let bare = r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{}}}"#;
    let j = reply(&v, &frames(&[bare]));
    assert_eq!(j.outcome, Outcome::Fail);
    assert_eq!(
        j.mismatches,
        ["notifications/subscriptions/acknowledged lacks `_meta` `io.modelcontextprotocol/subscriptionId`"]
    );
    let answered = reply(&v, &frames(&[r#"{"jsonrpc":"2.0","id":4,"result":{}}"#]));
    assert_eq!(answered.outcome, Outcome::Fail);
}

/// JSON-RPC 2.0 §5: "When a rpc call is made, the Server MUST reply
/// with a Response". A call met with silence breaks that sentence once:
/// where the answer rests on a codec rule at MUST but the frame still
/// lifts, the exchange rules already report `jsonrpc.response.required`,
/// and the judge's own finding for a silent malformed call does not say
/// it a second time.
#[test]
fn a_silent_call_breaks_the_response_rule_once() {
    let v = with_basis(
        REQUEST,
        error(&[-32600]),
        Basis::MandatedBy {
            rule: RuleId::FrameType,
            level: Level::Must,
        },
    );
    assert!(codec_must(&v) && lift(&v.frame).is_ok());
    let j = reply(&v, &Observed::Silence(Silence::TimedOut));
    assert_eq!(j.outcome, Outcome::Fail);
    assert_eq!(rules(&j), ["jsonrpc.response.required"]);
    assert!(j.mismatches.is_empty(), "{:?}", j.mismatches);
}

/// An empty array is no batch whose one response may come alone
/// (JSON-RPC 2.0 §6: the Server "MUST NOT return an empty Array"): a
/// lone error with another code than the answer's other alternative
/// departs from the answer at its basis' level (MUST: a failure), not
/// from §6's SHOULD on the array.
#[test]
fn an_empty_array_in_the_answer_is_no_batch_of_one() {
    let v = with_basis(
        REQUEST,
        Answer::AnyOf(vec![Answer::Batch(Vec::new()), error(&[-32601])]),
        mandated(Level::Must),
    );
    let j = reply(
        &v,
        &frames(&[r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"m"}}"#]),
    );
    assert_eq!(j.outcome, Outcome::Fail, "{:?}", rules(&j));
    assert!(
        !rules(&j).contains(&"jsonrpc.batch.respond-array"),
        "{:?}",
        rules(&j)
    );
    assert!(
        j.mismatches[0].starts_with("fits none of the accepted answers"),
        "{:?}",
        j.mismatches
    );
}

/// A batch of two calls, answered per call or refused with an array of
/// one -32600: the refusal sent alone is §6's array missing (JSON-RPC 2.0
/// §6: "The Server should respond with an Array", a warning), but one
/// result sent alone leaves the other call unanswered (§5: "When a rpc
/// call is made, the Server MUST reply with a Response"), a departure
/// from the answer at its MUST.
#[test]
fn one_result_for_a_batch_of_two_calls_is_no_batch_of_one_sent_bare() {
    let v = with_basis(
        r#"[{"jsonrpc":"2.0","id":1,"method":"x"},{"jsonrpc":"2.0","id":2,"method":"x"}]"#,
        Answer::AnyOf(vec![
            Answer::Batch(vec![result("1"), result("2")]),
            Answer::Batch(vec![Answer::Error {
                codes: vec![-32600],
                id: Some("null".into()),
                data_required: Vec::new(),
            }]),
        ]),
        mandated(Level::Must),
    );
    let refused = reply(
        &v,
        &frames(&[r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"m"}}"#]),
    );
    assert_eq!(refused.outcome, Outcome::Warning, "{:?}", rules(&refused));
    assert!(
        rules(&refused).contains(&"jsonrpc.batch.respond-array"),
        "{:?}",
        rules(&refused)
    );
    let one = reply(&v, &frames(&[r#"{"jsonrpc":"2.0","id":1,"result":{}}"#]));
    assert_eq!(one.outcome, Outcome::Fail, "{:?}", rules(&one));
    // Both alternatives depart the same way: said once, with no
    // "fits none of the accepted answers" over a single departure.
    assert_eq!(
        one.mismatches,
        ["expected a batch response, got a single response"],
        "{:?}",
        one.mismatches
    );
}
