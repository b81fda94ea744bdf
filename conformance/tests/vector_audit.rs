//! The golden vectors' self-check (`wirecheck::judge::audit` and the answer
//! checks it uses): a vector whose `answer` does not suit its own frame, or
//! names an error code its revision lacks, is reported to the contributor
//! who wrote it, in words, before any peer is judged against it. The vector
//! runner (`tests/vectors.rs`) shows every shipped vector holds; these are the
//! broken vectors it never meets.

use harness::lift;
use harness::rules::Level;
use wirecheck::judge::{self, answer_fits};
use wirecheck::vectors::{Answer, Codec};

mod shipped;
use shipped::vector;

fn result(id: &str) -> Answer {
    Answer::Result {
        id: Some(id.into()),
        required: Vec::new(),
        example: None,
    }
}

fn error(id: &str, code: i64) -> Answer {
    Answer::Error {
        codes: vec![code],
        id: Some(id.into()),
        data_required: Vec::new(),
    }
}

/// What `answer_fits` says of `answer` for the frame `text`: `Ok` or its words.
fn fits(text: &str, answer: &Answer) -> Result<(), String> {
    let frame = lift(text.as_bytes()).expect("the test's frame lifts");
    answer_fits(&frame, answer)
}

const REQUEST_7: &str = r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#;
const NOTIFICATION: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// An answer's error codes, wherever they sit (an alternative, a batch
/// element), are the ones its audit checks against the revision: a code the
/// spec reserves but never defines (-32100: JSON-RPC 2.0 §5.1 reserves
/// -32768..-32000, and leaves only -32099..-32000 to servers) is named as a
/// broken vector; a defined one is not.
#[test]
fn the_audit_checks_every_code_an_answer_names() {
    let mut v = vector("jsonrpc-2.0/request/id-integer");
    assert!(
        judge::audit(&v).problems.is_empty(),
        "{:?}",
        judge::audit(&v).problems
    );
    let answer = Answer::AnyOf(vec![
        result("7"),
        error("7", -32601),
        Answer::Batch(vec![error("7", -32100)]),
    ]);
    assert_eq!(judge::answer_codes(&answer), [-32601, -32100]);
    v.answer = Some(answer);
    let problems = judge::audit(&v).problems;
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("answer code -32100 is not a "),
        "{problems:?}"
    );
}

/// A notification gets no reply (JSON-RPC 2.0 §4.1): a vector that answers
/// one is told so, and what it answered with.
#[test]
fn a_notification_answered_is_a_broken_vector() {
    assert_eq!(fits(NOTIFICATION, &Answer::Nothing), Ok(()));
    let e = fits(NOTIFICATION, &result("7")).unwrap_err();
    assert!(
        e.starts_with("a notification is answered with Result"),
        "{e}"
    );
}

/// A request gets exactly one response (JSON-RPC 2.0 §4, §5), carrying the
/// request's id: no answer, a batch of answers, or another id is a broken
/// vector; an answer that pins no id, or the request's, suits it; so does a
/// stream, whose response comes at teardown (2026-07-28
/// basic/patterns/subscriptions).
#[test]
fn a_request_is_answered_once_with_its_own_id() {
    for wrong in [Answer::Nothing, Answer::Batch(vec![result("7")])] {
        assert_eq!(
            fits(REQUEST_7, &wrong),
            Err("a request must be answered with one response".into()),
            "{wrong:?}"
        );
    }
    assert_eq!(
        fits(REQUEST_7, &error("8", -32601)),
        Err("the answer carries id 8, the request 7".into())
    );
    assert_eq!(fits(REQUEST_7, &error("7", -32601)), Ok(()));
    assert_eq!(fits(REQUEST_7, &result("7")), Ok(()));
    let stream = Answer::Stream {
        notification: "notifications/subscriptions/acknowledged".into(),
        meta_required: Vec::new(),
    };
    assert_eq!(fits(REQUEST_7, &stream), Ok(()));
}

/// "Any of" suits the frame when one alternative does, and when none does
/// the vector is told why each fails.
#[test]
fn any_of_suits_when_one_alternative_does() {
    assert_eq!(
        fits(
            REQUEST_7,
            &Answer::AnyOf(vec![Answer::Nothing, result("7")])
        ),
        Ok(())
    );
    let e = fits(
        REQUEST_7,
        &Answer::AnyOf(vec![Answer::Nothing, error("9", -32601)]),
    )
    .unwrap_err();
    assert_eq!(
        e,
        "no alternative suits the frame: a request must be answered with one response; \
         the answer carries id 9, the request 7"
    );
}

/// A batch is answered with one response per request in it, in any order
/// (JSON-RPC 2.0 §6), and a batch of notifications with nothing at all.
#[test]
fn a_batch_is_answered_per_request_in_any_order() {
    let notifications = format!("[{NOTIFICATION},{NOTIFICATION}]");
    assert_eq!(fits(&notifications, &Answer::Nothing), Ok(()));

    let mixed = format!(
        r#"[{{"jsonrpc":"2.0","id":1,"method":"ping"}},{NOTIFICATION},{{"jsonrpc":"2.0","id":2,"method":"ping"}}]"#
    );
    assert_eq!(
        fits(&mixed, &Answer::Batch(vec![result("2"), result("1")])),
        Ok(())
    );
    assert_eq!(
        fits(&mixed, &Answer::Nothing),
        Err("a batch with 2 request(s) is answered with Nothing".into())
    );
    let short = fits(&mixed, &Answer::Batch(vec![result("1")])).unwrap_err();
    assert!(
        short.starts_with("a batch with 2 request(s) is answered with Batch"),
        "{short}"
    );
    let unpaired = fits(&mixed, &Answer::Batch(vec![result("1"), result("3")])).unwrap_err();
    assert!(
        unpaired.starts_with("no answer in the batch fits "),
        "{unpaired}"
    );
}

/// A vector names each rule with the model's level and reference, so the two
/// cannot drift apart: a vector that got either wrong is told which, and what
/// the model says.
#[test]
fn a_rule_named_with_another_level_or_reference_is_a_broken_vector() {
    let v = vector("jsonrpc-2.0/request/id-integer");
    let rule = v.rules[0].clone();
    assert_eq!(
        (rule.id.as_str(), rule.level, rule.spec.as_str()),
        ("jsonrpc.id-type", Level::Must, "JSON-RPC 2.0 §4")
    );

    let mut weaker = v.clone();
    weaker.rules[0].level = Level::Should;
    assert_eq!(
        judge::audit(&weaker).problems,
        [
            r#"rule `jsonrpc.id-type` is MUST "JSON-RPC 2.0 §4" in the model, SHOULD "JSON-RPC 2.0 §4" in the vector"#
        ]
    );

    let mut elsewhere = v;
    elsewhere.rules[0].spec = "JSON-RPC 2.0 §5".into();
    assert_eq!(
        judge::audit(&elsewhere).problems,
        [
            r#"rule `jsonrpc.id-type` is MUST "JSON-RPC 2.0 §4" in the model, MUST "JSON-RPC 2.0 §5" in the vector"#
        ]
    );
}

/// A batch reply (JSON-RPC 2.0 §6) keeps the answer when each expected
/// response has a response of its own that fits, in any order: a batch whose
/// second response is an error where a result was due does not, and says which.
#[test]
fn each_response_of_a_batch_answer_is_paired_with_one_that_fits() {
    let answer = Answer::Batch(vec![result("1"), result("2")]);
    let good =
        lift(br#"[{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","id":1,"result":{}}]"#)
            .expect("the reply lifts");
    assert_eq!(judge::reply_fits(&answer, Some(&good)), Ok(()));
    let bad = lift(
        br#"[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"m"}}]"#,
    )
    .expect("the reply lifts");
    let problems = judge::reply_fits(&answer, Some(&bad)).unwrap_err();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("no response in the batch is "),
        "{problems:?}"
    );
}

/// A clean vector promises the answer its frame gets, so the audit holds the
/// answer to the frame: a request "answered" with nothing is a broken vector.
#[test]
fn a_clean_vectors_answer_must_suit_its_frame() {
    let mut v = vector("jsonrpc-2.0/request/id-integer");
    v.answer = Some(Answer::Nothing);
    assert_eq!(
        judge::audit(&v).problems,
        ["a request must be answered with one response"]
    );
}

/// A vector says what the codec makes of its frame, and the audit holds it to
/// that: a frame said to lift that is refused, a frame said to be refused that
/// lifts, and a refusal at another member than the vector names are each a
/// broken vector, with both sides in words.
#[test]
fn the_codec_keeps_the_refusal_or_lift_the_vector_names() {
    let refused = vector("jsonrpc-2.0/request/version-number");
    assert_eq!(
        refused.codec,
        Codec::Refuses {
            rule: "jsonrpc.version-invalid".parse().expect("a rule id"),
            pointer: "/jsonrpc".into(),
        }
    );
    assert!(
        judge::audit(&refused).problems.is_empty(),
        "{:?}",
        judge::audit(&refused).problems
    );

    let mut elsewhere = refused.clone();
    elsewhere.codec = Codec::Refuses {
        rule: "jsonrpc.version-invalid".parse().expect("a rule id"),
        pointer: "/id".into(),
    };
    assert_eq!(
        judge::audit(&elsewhere).problems,
        ["expected refusal jsonrpc.version-invalid at `/id`, got jsonrpc.version-invalid at `/jsonrpc`"]
    );

    let mut said_to_lift = refused;
    said_to_lift.codec = Codec::Lifts;
    let problems = judge::audit(&said_to_lift).problems;
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("expected to lift, refused: ")),
        "{problems:?}"
    );

    let mut said_to_be_refused = vector("jsonrpc-2.0/request/id-integer");
    said_to_be_refused.codec = Codec::Refuses {
        rule: "json.syntax".parse().expect("a rule id"),
        pointer: String::new(),
    };
    assert_eq!(
        judge::audit(&said_to_be_refused).problems,
        ["expected a refusal, but the frame lifts"]
    );
}

/// Vectors of near-identical frames must not expect contradictory answers, or a
/// server is failed by one for what another accepts. Frames are grouped by
/// profile and sender after one normalisation, an `initialize` naming a version
/// that is no revision (each such version is "not supported" alike: 2099-01-01,
/// 1.0.0), and every vector of a group carries one answer and one set of needs.
#[test]
fn near_identical_frames_expect_one_answer() {
    use std::collections::BTreeMap;
    let (all, errors) = wirecheck::vectors::embedded();
    assert!(errors.is_empty(), "{errors:?}");
    let normalised = |frame: &[u8]| -> Vec<u8> {
        let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(frame) else {
            return frame.to_vec();
        };
        if value.get("method").and_then(|m| m.as_str()) == Some("initialize") {
            if let Some(v) = value.pointer_mut("/params/protocolVersion") {
                // A string naming no revision; a number breaks the schema instead.
                let unsupported = v
                    .as_str()
                    .is_some_and(|s| !s.parse::<harness::Revision>().is_ok_and(|r| r.is_mcp()));
                if unsupported {
                    *v = serde_json::Value::String("<unsupported>".into());
                }
            }
            return serde_json::to_vec(&value).unwrap_or_default();
        }
        frame.to_vec()
    };
    let mut groups: BTreeMap<(String, String, Vec<u8>), Vec<&wirecheck::vectors::Vector>> =
        BTreeMap::new();
    for v in &all {
        let key = (
            v.profile.revision.name().to_owned(),
            format!("{:?}", v.profile.direction),
            normalised(&v.frame),
        );
        groups.entry(key).or_default().push(v);
    }
    let mut problems = Vec::new();
    for vs in groups.values() {
        let first = vs[0];
        for v in &vs[1..] {
            if v.answer != first.answer || v.needs != first.needs {
                problems.push(format!(
                    "{} and {}: one frame, {:?} / {:?} against {:?} / {:?}",
                    first.id, v.id, first.answer, first.needs, v.answer, v.needs
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A vector whose frame names the reference peer's prompt (`code_review`) says
/// so in `needs`, so the runner binds it to a prompt the peer listed or records
/// it not applicable; it never assumes the reference peer's prompt (the
/// 2024-11-05 completion vectors once did).
#[test]
fn a_frame_naming_the_reference_prompt_needs_it() {
    let (all, errors) = wirecheck::vectors::embedded();
    assert!(errors.is_empty(), "{errors:?}");
    let missing: Vec<&str> = all
        .iter()
        .filter(|v| v.profile.direction == harness::Direction::ClientToServer)
        .filter(|v| {
            let text = String::from_utf8_lossy(&v.frame);
            text.contains(r#""name":"code_review""#) && v.needs.prompt.is_none()
        })
        .map(|v| v.id.as_str())
        .collect();
    assert!(missing.is_empty(), "{missing:?}");
}
