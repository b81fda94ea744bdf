//! The library judge's verdicts (`wirecheck::judge::reply`) on the shipped
//! vectors, fed the replies a live peer can send: what `wirecheck run` reports
//! for them. The golden-vector runner (`tests/vectors.rs`) judges only each
//! vector's one recorded reply; these are the other replies a peer sends to
//! the same frames, where the judge's text and weighing differ.

use harness::{Outcome, Revision};
use wirecheck::judge::{self, Judgement, Observed, Silence};
use wirecheck::vectors;

mod shipped;
use shipped::vector;

fn frames(texts: &[&str]) -> Observed {
    Observed::Frames(texts.iter().map(|t| t.as_bytes().to_vec()).collect())
}

fn rules(j: &Judgement) -> Vec<&'static str> {
    j.violations().map(|v| v.rule.as_str()).collect()
}

/// What a report prints for a silence: the reason a record is not observed.
#[test]
fn a_silence_is_reported_in_words() {
    assert_eq!(
        Silence::PeerClosed.describe(),
        "the peer closed before answering"
    );
    assert_eq!(
        Silence::TimedOut.describe(),
        "the peer sent nothing before the wait ended"
    );
    // A notification (JSON-RPC 2.0 §4.1: the server MUST NOT reply) met by a
    // peer that hung up: silence was the answer, but a closed peer is no
    // evidence of it, and the record says why in those words.
    let v = vector("jsonrpc-2.0/examples/notification");
    let j = judge::reply(&v, &Observed::Silence(Silence::PeerClosed));
    assert_eq!(
        j.outcome,
        Outcome::NotObserved {
            why: "the peer closed before answering".into()
        }
    );
}

/// A notification met with silence passes with nothing to note: the
/// "stream stayed open" note is a `subscriptions/listen` answer's alone.
#[test]
fn silence_after_a_notification_passes_with_no_note() {
    let v = vector("jsonrpc-2.0/examples/notification");
    let j = judge::reply(&v, &Observed::Silence(Silence::TimedOut));
    assert_eq!(j.outcome, Outcome::Pass, "{:?}", rules(&j));
    assert!(j.notes.is_empty(), "{:?}", j.notes);
    assert!(j.mismatches.is_empty(), "{:?}", j.mismatches);
}

/// A legacy `initialize` sent to a 2026-07-28 server, answered by a dual-era
/// server with a 2025-11-25 `InitializeResult` (2026-07-28 basic/versioning
/// §Compatibility Matrix: "The server answers `initialize` and serves the
/// client according to the negotiated legacy revision"): the result is judged
/// as 2025-11-25, so it owes none of 2026-07-28's result fields.
#[test]
fn a_dual_era_initialize_answer_is_judged_as_the_legacy_revision() {
    let v = vector("mcp/2026-07-28/lifecycle/initialize-gone");
    assert_eq!(v.profile.revision, Revision::Mcp2026_07_28);
    let result = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#;
    let j = judge::reply(&v, &frames(&[result]));
    assert_eq!(j.outcome, Outcome::Pass, "{:?}", rules(&j));
    assert!(rules(&j).is_empty(), "{:?}", rules(&j));
    assert_eq!(j.notes.len(), 1, "{:?}", j.notes);
    assert!(
        j.notes[0].contains("so the answer is judged as 2025-11-25"),
        "{:?}",
        j.notes
    );
}

/// Only the answer to `initialize` is the legacy revision's: the peer's own
/// frames beside it are still judged under the vector's revision. 2026-07-28
/// removed `ping` (changelog item 5) and server requests on stdio, so a
/// server's ping sent before that answer, allowed before 2026-07-28
/// (2025-11-25 basic/lifecycle §Initialization: "The server SHOULD NOT send
/// requests other than pings and logging"), fails on that frame, not on the
/// answer.
#[test]
fn the_peers_own_frames_beside_a_dual_era_answer_keep_the_vectors_revision() {
    let v = vector("mcp/2026-07-28/lifecycle/initialize-gone");
    let ping = r#"{"jsonrpc":"2.0","id":"s1","method":"ping"}"#;
    let result = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#;
    let j = judge::reply(&v, &frames(&[ping, result]));
    assert!(!j.frames[0].is_reply && j.frames[1].is_reply);
    assert!(
        j.frames[1].violations.is_empty(),
        "{:?}",
        j.frames[1].violations
    );
    let on_ping: Vec<_> = j.frames[0]
        .violations
        .iter()
        .map(|v| v.rule.as_str())
        .collect();
    assert_eq!(
        on_ping,
        [
            "mcp.method.other-revision",
            "mcp.r5.stdio.no-server-requests"
        ]
    );
    assert_eq!(j.outcome, Outcome::Fail, "{on_ping:?}");
}

/// A 2026-07-28 `server/discover` answered with its result is a modern
/// answer: no note about a dual-era server's legacy revision beside it.
#[test]
fn a_modern_answer_gets_no_legacy_note() {
    let v = vector("mcp/2026-07-28/lifecycle/discover");
    let result = r#"{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"example-server","version":"1.0.0"}},"resultType":"complete","ttlMs":60000,"cacheScope":"public"}}"#;
    let j = judge::reply(&v, &frames(&[result]));
    assert_eq!(
        j.outcome,
        Outcome::Pass,
        "{:?} {:?}",
        rules(&j),
        j.mismatches
    );
    assert!(j.notes.is_empty(), "{:?}", j.notes);
}

/// `subscriptions/listen` where the server may open the stream or refuse
/// (a server without the capability answers an error): an answer that lists
/// the stream among its alternatives is a stream answer all the same, so the
/// acknowledgement followed by an open request passes, and the response the
/// stream owes (2026-07-28 basic/patterns/subscriptions: it comes at
/// teardown) is not demanded yet.
#[test]
fn a_stream_among_alternatives_may_stay_open() {
    let mut v = vector("mcp/2026-07-28/resources/subscriptions-listen");
    let stream = v.answer.clone().expect("the listen vector has an answer");
    assert!(matches!(stream, vectors::Answer::Stream { .. }));
    v.answer = Some(vectors::Answer::AnyOf(vec![
        stream,
        vectors::Answer::Error {
            codes: Vec::new(),
            id: Some("4".into()),
            data_required: Vec::new(),
        },
    ]));
    let ack = r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":4},"notifications":{"resourcesListChanged":true}}}"#;
    let j = judge::reply(&v, &frames(&[ack]));
    assert_eq!(
        j.outcome,
        Outcome::Pass,
        "{:?} {:?}",
        rules(&j),
        j.mismatches
    );
    assert!(j.exchange.is_empty(), "{:?}", rules(&j));
    assert_eq!(
        j.notes,
        ["the stream stayed open, as it should; no response is due before teardown"]
    );
}

/// `subscriptions/listen` without its REQUIRED `notifications` filter: a
/// server may refuse it (-32602, the convention) or read the missing filter as
/// an empty one (2026-07-28 basic/patterns/subscriptions §Notification Filter:
/// "All fields are optional. Omitting a field is equivalent to not subscribing
/// to that notification type") and keep the stream open, acknowledged first;
/// its response is then due at teardown (§Graceful Closure), not before. Both
/// pass. (Found by the rich conformant server, `peers/conformant/rich_mcp.py`:
/// the open stream was failed as "got no reply" under `jsonrpc.response.required`.)
#[test]
fn a_listen_without_its_filter_may_be_refused_or_kept_open() {
    let v = vector("mcp/2026-07-28/resources/subscriptions-listen-without-notifications");
    let ack = r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":4},"notifications":{}}}"#;
    let open = judge::reply(&v, &frames(&[ack]));
    assert_eq!(
        open.outcome,
        Outcome::Pass,
        "{:?} {:?}",
        rules(&open),
        open.mismatches
    );
    assert!(open.exchange.is_empty(), "{:?}", rules(&open));
    let refused = judge::reply(
        &v,
        &frames(&[
            r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"notifications is required"}}"#,
        ]),
    );
    assert_eq!(refused.outcome, Outcome::Pass, "{:?}", refused.mismatches);
    // Neither an acknowledgment nor an answer: the request went unanswered.
    let silent = judge::reply(&v, &Observed::Silence(Silence::TimedOut));
    assert_eq!(silent.outcome, Outcome::Fail, "{:?}", rules(&silent));
}

/// A wrong error code where a sentence names the right one is a warning citing
/// that sentence, never a silent note or a failure; the right code passes.
#[test]
fn a_wrong_error_code_where_a_sentence_names_one_warns() {
    let judged = |id: &str, reply: &str| {
        let v = vector(id);
        let j = judge::reply(&v, &frames(&[reply]));
        (j.outcome, j.mismatches)
    };
    let error = |id: &str, code: i64| {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":"m"}}}}"#)
    };
    for revision in ["2024-11-05", "2025-06-18", "2026-07-28"] {
        // -32603 for a request missing its params (§5.1: -32602).
        let missing = format!("mcp/{revision}/tools/call-without-name");
        assert_eq!(
            judged(&missing, &error("2", -32603)).0,
            Outcome::Warning,
            "{missing}"
        );
        assert_eq!(
            judged(&missing, &error("2", -32602)).0,
            Outcome::Pass,
            "{missing}"
        );
        // An unknown tool answered with an `isError` result (server/tools
        // §Error Handling: a protocol error, -32602 in its example).
        let tool = format!("mcp/{revision}/tools/call-unknown-tool");
        let result = if revision == "2026-07-28" {
            r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"type":"text","text":"no such tool"}],"isError":true}}"#
        } else {
            r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"no such tool"}],"isError":true}}"#
        };
        assert_eq!(judged(&tool, result).0, Outcome::Warning, "{tool}");
        // -32602 for a method that does not exist (JSON-RPC 2.0 §5.1: -32601).
        let unknown = format!("mcp/{revision}/base/method-unknown");
        assert_eq!(judged(&unknown, &error("1", -32601)).0, Outcome::Pass);
        let (outcome, mismatches) = judged(&unknown, &error("1", -32602));
        assert_eq!(outcome, Outcome::Warning, "{unknown}: {mismatches:?}");
    }
    // -32700 for a request that is valid JSON: a warning on the exchange.
    let v = vector("jsonrpc-2.0/request/method-unknown");
    let j = judge::reply(&v, &frames(&[&error("1", -32700)]));
    assert_eq!(j.outcome, Outcome::Warning);
    assert!(
        rules(&j).contains(&"jsonrpc.error.code-meaning"),
        "{:?}",
        rules(&j)
    );
}

/// `{"id":1,"method":"echo","result":{}}` breaks no keyword (JSON-RPC 2.0 is
/// silent on extra members), so a server that reads it as a call of `echo` and
/// answers -32601 passes, as one refusing it with -32600.
#[test]
fn an_object_with_method_and_result_may_be_read_as_a_call() {
    let v = vector("jsonrpc-2.0/request/method-with-result");
    for reply in [
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#,
    ] {
        let j = judge::reply(&v, &frames(&[reply]));
        assert_eq!(
            j.outcome,
            Outcome::Pass,
            "{reply}: {:?} {:?}",
            j.mismatches,
            rules(&j)
        );
    }
}

/// A malformed frame (the MUST it breaks binds its sender) answered with an
/// error to the right id but another JSON-RPC 2.0 §5.1 code: the error was
/// owed and came; the code's meaning is a table without a keyword, so the
/// departure warns under `jsonrpc.error.code-meaning` and never fails
/// (seen on the jayson and json-rpc-2.0 libraries: `"hello"` answered -32700,
/// `"params": true` answered -32602). A result, or silence, still fails.
#[test]
fn a_malformed_frame_answered_with_another_codes_error_warns() {
    let cases = [
        ("jsonrpc-2.0/request/frame-string", "null", -32700),
        ("jsonrpc-2.0/request/params-bool", "null", -32603),
        ("mcp/2025-06-18/malformed/version-missing", "2702", -32603),
    ];
    for (id, reply_id, code) in cases {
        let v = vector(id);
        let error = format!(
            r#"{{"jsonrpc":"2.0","id":{reply_id},"error":{{"code":{code},"message":"m"}}}}"#
        );
        let j = judge::reply(&v, &frames(&[&error]));
        assert_eq!(
            j.outcome,
            Outcome::Warning,
            "{id}: {:?} {:?}",
            rules(&j),
            j.mismatches
        );
        assert!(
            rules(&j).contains(&"jsonrpc.error.code-meaning"),
            "{id}: {:?}",
            rules(&j)
        );
        let right = format!(
            r#"{{"jsonrpc":"2.0","id":{reply_id},"error":{{"code":-32600,"message":"m"}}}}"#
        );
        assert_eq!(
            judge::reply(&v, &frames(&[&right])).outcome,
            Outcome::Pass,
            "{id}"
        );
        let result = format!(r#"{{"jsonrpc":"2.0","id":{reply_id},"result":{{}}}}"#);
        assert_eq!(
            judge::reply(&v, &frames(&[&result])).outcome,
            Outcome::Fail,
            "{id}"
        );
        let silent = judge::reply(&v, &Observed::Silence(Silence::TimedOut));
        assert_eq!(silent.outcome, Outcome::Fail, "{id}");
    }
}

/// `jsonrpc.error.code-meaning` binds the code of an error a server gives,
/// not the choice to give one: an `initialize` without `clientInfo` accepted
/// (a lenient server, as the slow-start conformant server is) passes by
/// default and warns only under `--strict`, as a convention; refused with
/// another code it warns; refused with -32602 it passes.
#[test]
fn params_accepted_where_a_code_is_named_are_a_convention_not_a_warning() {
    use wirecheck::judge::Strictness;
    let v = vector("mcp/2025-03-26/lifecycle/initialize-without-client-info");
    let accepted = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-03-26","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#;
    let lenient = judge::reply_with(&v, &frames(&[accepted]), Strictness::Default);
    assert_eq!(
        lenient.outcome,
        Outcome::Pass,
        "{:?} {:?}",
        rules(&lenient),
        lenient.mismatches
    );
    assert!(
        lenient
            .notes
            .iter()
            .any(|n| n.contains("no sentence requires a refusal")),
        "{:?}",
        lenient.notes
    );
    let strict = judge::reply_with(&v, &frames(&[accepted]), Strictness::Strict);
    assert_eq!(strict.outcome, Outcome::Warning);
    let error = |code: i64| {
        format!(r#"{{"jsonrpc":"2.0","id":0,"error":{{"code":{code},"message":"m"}}}}"#)
    };
    assert_eq!(
        judge::reply(&v, &frames(&[&error(-32603)])).outcome,
        Outcome::Warning
    );
    assert_eq!(
        judge::reply(&v, &frames(&[&error(-32602)])).outcome,
        Outcome::Pass
    );
}

/// From 2025-03-26 the malformed probes pin no id (an error may carry the
/// readable id, null, or none), so the one place (`harness::error_ids`)
/// decides: another id fails.
#[test]
fn an_error_to_a_malformed_frame_carries_its_readable_id_or_null() {
    let v = vector("mcp/2025-06-18/malformed/version-missing");
    let error = |id: &str| {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32600,"message":"m"}}}}"#)
    };
    for ok in ["2702", "null"] {
        let j = judge::reply(&v, &frames(&[&error(ok)]));
        assert_ne!(
            j.outcome,
            Outcome::Fail,
            "{ok}: {:?} {:?}",
            rules(&j),
            j.mismatches
        );
    }
    let j = judge::reply(&v, &frames(&[&error("42")]));
    assert_eq!(
        j.outcome,
        Outcome::Fail,
        "{:?} {:?}",
        rules(&j),
        j.mismatches
    );
}

/// `[1]` answered with one error, not an array holding it: JSON-RPC 2.0 §6
/// asks for the array at SHOULD ("The Server should respond with an Array
/// containing the corresponding Response objects"), so the shape warns
/// under `jsonrpc.batch.respond-array`, never the probe's MUST; a wrong code
/// beside it warns under §5.1 too. Silence stays a failure.
#[test]
fn one_error_for_a_batch_of_one_invalid_element_warns_at_the_arrays_should() {
    for id in [
        "jsonrpc-2.0/examples/batch-invalid-not-empty",
        "mcp/2025-03-26/malformed/batch-of-a-number",
    ] {
        let v = vector(id);
        let single = |code: i32| {
            format!(r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":{code},"message":"m"}}}}"#)
        };
        let j = judge::reply(&v, &frames(&[&single(-32600)]));
        assert_eq!(
            j.outcome,
            Outcome::Warning,
            "{id}: {:?} {:?}",
            rules(&j),
            j.mismatches
        );
        // (Under MCP the null id is ambiguity A2's, said once per run.)
        let said: Vec<_> = rules(&j)
            .into_iter()
            .filter(|r| *r != "mcp.base.error-id-null")
            .collect();
        assert_eq!(said, ["jsonrpc.batch.respond-array"], "{id}");
        let j = judge::reply(&v, &frames(&[&single(-32700)]));
        assert_eq!(
            j.outcome,
            Outcome::Warning,
            "{id}: {:?} {:?}",
            rules(&j),
            j.mismatches
        );
        assert!(
            rules(&j).contains(&"jsonrpc.error.code-meaning"),
            "{id}: {:?}",
            rules(&j)
        );
        let array = format!("[{}]", single(-32600));
        assert_eq!(
            judge::reply(&v, &frames(&[&array])).outcome,
            Outcome::Pass,
            "{id}"
        );
        let result = r#"{"jsonrpc":"2.0","id":null,"result":1}"#;
        assert_eq!(
            judge::reply(&v, &frames(&[result])).outcome,
            Outcome::Fail,
            "{id}"
        );
        let silent = judge::reply(&v, &Observed::Silence(Silence::TimedOut));
        assert_eq!(silent.outcome, Outcome::Fail, "{id}");
    }
}

/// 2024-11-05 has no `completions` capability: a server that has no
/// `completion/complete` answers -32601 (JSON-RPC 2.0 §5.1 "The method does
/// not exist / is not available") before reading the params, and passes;
/// from 2025-03-26 the probe goes only to a server declaring `completions`,
/// whose -32601 there still warns.
#[test]
fn a_server_without_completion_answers_its_missing_ref_with_method_not_found() {
    let not_found =
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#;
    let j = judge::reply(
        &vector("mcp/2024-11-05/completion/complete-without-ref"),
        &frames(&[not_found]),
    );
    assert_eq!(
        j.outcome,
        Outcome::Pass,
        "{:?} {:?}",
        rules(&j),
        j.mismatches
    );
    let j = judge::reply(
        &vector("mcp/2025-03-26/completion/complete-without-ref"),
        &frames(&[not_found]),
    );
    assert_eq!(
        j.outcome,
        Outcome::Warning,
        "{:?} {:?}",
        rules(&j),
        j.mismatches
    );
}

/// A server silent to a malformed call fails, under the rule it broke:
/// JSON-RPC 2.0 §5's "the Server MUST reply with a Response", not the rule
/// the probe's frame breaks (that binds the sender, wirecheck).
#[test]
fn silence_to_a_malformed_call_fails_under_the_servers_rule() {
    for id in [
        "jsonrpc-2.0/request/frame-string",
        "mcp/2025-06-18/malformed/version-missing",
        "mcp/2025-03-26/malformed/batch-of-a-number",
    ] {
        let j = judge::reply(&vector(id), &Observed::Silence(Silence::TimedOut));
        assert_eq!(j.outcome, Outcome::Fail, "{id}");
        assert_eq!(rules(&j), ["jsonrpc.response.required"], "{id}");
        assert!(j.mismatches.is_empty(), "{id}: {:?}", j.mismatches);
    }
}

/// From 2025-06-18 batches are gone, and an array of requests met with
/// silence warns (A5, `mcp.batch.refused-after-removal`, SHOULD): `[]` and
/// `[1]` are arrays too, held to no more (the zoo's hand-check found them
/// failed at MUST beside the array of requests' warning). An error answers
/// them; -32600 is still the code, another warns under §5.1.
#[test]
fn after_batches_were_removed_every_array_is_held_to_the_same_should() {
    for revision in ["2025-06-18", "2025-11-25", "2026-07-28"] {
        for probe in ["batch-empty", "batch-of-a-number"] {
            let id = format!("mcp/{revision}/malformed/{probe}");
            let v = vector(&id);
            let silent = judge::reply(&v, &Observed::Silence(Silence::TimedOut));
            assert_eq!(silent.outcome, Outcome::Warning, "{id}");
            let error = |code: i32| {
                format!(r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":{code},"message":"m"}}}}"#)
            };
            let said = |j: &Judgement| -> Vec<&'static str> {
                rules(j)
                    .into_iter()
                    .filter(|r| *r != "mcp.base.error-id-null")
                    .collect()
            };
            let right = judge::reply(&v, &frames(&[&error(-32600)]));
            assert!(said(&right).is_empty(), "{id}: {:?}", rules(&right));
            let wrong = judge::reply(&v, &frames(&[&error(-32700)]));
            assert_eq!(wrong.outcome, Outcome::Warning, "{id}");
            assert_eq!(said(&wrong), ["jsonrpc.error.code-meaning"], "{id}");
        }
    }
}

/// The zoo's JSON-RPC servers, hand-checked: §5.1 names -32602 "Invalid method
/// parameter(s)" as well as -32600 for params that are no Structured value, so
/// both pass; a parser that reads a byte that is not UTF-8 as U+FFFD (RFC 8259
/// §9: it "MAY accept non-JSON forms") answers the request, and passes; a
/// request with a member JSON-RPC does not define, refused as an Invalid
/// Request with id null, passes (§5).
#[test]
fn answers_the_text_allows_beside_the_usual_one_pass() {
    let cases = [
        (
            "jsonrpc-2.0/request/params-bool",
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params"}}"#,
        ),
        (
            "mcp/2025-06-18/malformed/params-string",
            r#"{"jsonrpc":"2.0","id":2705,"error":{"code":-32602,"message":"Invalid params"}}"#,
        ),
        (
            "jsonrpc-2.0/request/not-utf8",
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#,
        ),
        (
            "jsonrpc-2.0/request/unknown-member",
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request"}}"#,
        ),
    ];
    for (id, reply) in cases {
        let j = judge::reply(&vector(id), &frames(&[reply]));
        assert_eq!(
            j.outcome,
            Outcome::Pass,
            "{id}: {:?} {:?}",
            rules(&j),
            j.mismatches
        );
    }
}

/// `[1,2,3]` and a batch holding a batch answered with one -32600 (the zoo's
/// json-rpc-2.0 and jsonrpcserver): no Request object goes unanswered, only
/// §6's array is missing ("should respond with an Array"): a warning under
/// `jsonrpc.batch.respond-array`, never the probe's MUST.
#[test]
fn one_error_for_a_batch_of_invalid_elements_warns_at_the_arrays_should() {
    let single =
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#;
    for id in [
        "jsonrpc-2.0/examples/batch-invalid",
        "jsonrpc-2.0/batch/nested-batch",
    ] {
        let j = judge::reply(&vector(id), &frames(&[single]));
        assert_eq!(
            j.outcome,
            Outcome::Warning,
            "{id}: {:?} {:?}",
            rules(&j),
            j.mismatches
        );
        assert!(
            rules(&j).contains(&"jsonrpc.batch.respond-array"),
            "{id}: {:?}",
            rules(&j)
        );
    }
}

/// A server silent to a malformed call breaks JSON-RPC 2.0 §5's "the Server
/// MUST reply with a Response"; the finding says which rule the frame broke
/// (the sender's fault), so a report shows why an error was the answer.
#[test]
fn silence_to_a_malformed_call_names_the_rule_its_frame_breaks() {
    for id in [
        "jsonrpc-2.0/request/frame-string",
        "mcp/2025-06-18/malformed/version-missing",
    ] {
        let v = vector(id);
        let Some(vectors::Basis::MandatedBy { rule, .. }) = &v.basis else {
            panic!("{id}: the answer is mandated");
        };
        let j = judge::reply(&v, &Observed::Silence(Silence::TimedOut));
        let said = j
            .violations()
            .find(|v| v.rule.as_str() == "jsonrpc.response.required")
            .unwrap_or_else(|| panic!("{id}: {:?}", rules(&j)));
        assert!(
            said.message
                .contains(&format!("the frame breaks {rule} (the sender's fault)")),
            "{id}: {}",
            said.message
        );
    }
}

/// JSON-RPC 2.0 §7's rpc call Batch answered with the first call's result
/// alone: the other calls go unanswered (§5: "When a rpc call is made, the
/// Server MUST reply with a Response"), so the reply departs from the answer
/// the probe's MUST mandates and fails; it is no batch of one whose array
/// alone is missing (§6's SHOULD).
#[test]
fn one_result_for_the_batch_of_section_7_fails() {
    let v = vector("jsonrpc-2.0/examples/batch-mixed");
    let j = judge::reply(&v, &frames(&[r#"{"jsonrpc":"2.0","result":7,"id":"1"}"#]));
    assert_eq!(
        j.outcome,
        Outcome::Fail,
        "{:?} {:?}",
        rules(&j),
        j.mismatches
    );
    assert!(!j.mismatches.is_empty(), "{:?}", rules(&j));
    assert!(
        !rules(&j).contains(&"jsonrpc.batch.respond-array"),
        "{:?}",
        rules(&j)
    );
}

/// An array mixing a request and a response under MCP 2025-03-26 (basic/
/// transports: an array of requests or one of responses, not both), answered
/// by a per-element array or an error: the request's result sent alone is
/// that array's one response without the array, which JSON-RPC 2.0 §6 asks
/// for at SHOULD ("The Server should respond with an Array containing the
/// corresponding Response objects"): a warning under
/// `jsonrpc.batch.respond-array`, though the answer is a convention.
#[test]
fn the_one_result_of_an_array_offered_among_alternatives_warns_at_the_arrays_should() {
    let v = vector("mcp/2025-03-26/batch/batch-mixed-requests-and-responses");
    assert!(matches!(v.answer, Some(vectors::Answer::AnyOf(_))));
    let j = judge::reply(
        &v,
        &frames(&[r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#]),
    );
    assert_eq!(
        j.outcome,
        Outcome::Warning,
        "{:?} {:?}",
        rules(&j),
        j.mismatches
    );
    assert!(
        rules(&j).contains(&"jsonrpc.batch.respond-array"),
        "{:?}",
        rules(&j)
    );
    assert!(j.mismatches.is_empty(), "{:?}", j.mismatches);
}
