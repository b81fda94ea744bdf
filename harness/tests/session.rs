//! The session judge: the conversation property (clean by construction, one
//! defect gives exactly its rule), events that never make it panic, bounded
//! memory, the end of a capture, revision detection, and the rule table.

use std::collections::BTreeSet;

use arbitrary::Unstructured;
use harness::fuzzing::conversation::{
    check_conversation, check_never_panics, Conversation, Defect,
};
use harness::fuzzing::mutate::Rng;
use harness::rules::{CheckedBy, RuleId};
use harness::session::{self, detect_revision, Event, Judge, HISTORY_CAP};
use harness::{Direction, Revision};
use proptest::prelude::*;

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;

fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    (0..len).map(|_| rng.next_u64().to_le_bytes()[0]).collect()
}

/// The cases per property: `default`, or `PROPTEST_CASES` when set (proptest's
/// own variable, which an explicit count would otherwise override). Mutation
/// runs lower it: each mutant then costs seconds, not the 90 s of a full run.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(512)))]

    #[test]
    fn conversations_are_clean_and_each_defect_gives_its_rule(data in proptest::collection::vec(any::<u8>(), 64..1024)) {
        if let Ok(result) = check_conversation(&mut Unstructured::new(&data)) {
            result.map_err(|f| TestCaseError::fail(f.to_string()))?;
        }
    }

    #[test]
    fn the_judge_never_panics(data in proptest::collection::vec(any::<u8>(), 0..2048)) {
        prop_assert!(check_never_panics(&mut Unstructured::new(&data)).is_ok());
    }
}

#[test]
fn every_defect_kind_is_applied_and_caught_in_every_revision_it_fits() {
    let mut applied = BTreeSet::new();
    for seed in 0..3000 {
        let data = bytes(seed, 512);
        let mut u = Unstructured::new(&data);
        let Ok(conversation) = u.arbitrary::<Conversation>() else {
            continue;
        };
        assert!(
            conversation.judge().is_empty(),
            "seed {seed}: {:?}",
            conversation.judge()
        );
        for defect in Defect::ALL {
            let mut u = Unstructured::new(&data[data.len() / 2..]);
            let Ok(Some((broken, mut expected))) = conversation.with_defect(defect, &mut u) else {
                continue;
            };
            let mut got = broken.judge();
            got.sort_unstable();
            expected.sort_unstable();
            assert_eq!(
                got, expected,
                "seed {seed}, {defect:?} under {}",
                conversation.revision
            );
            applied.insert((format!("{defect:?}"), conversation.revision.name()));
        }
    }
    for defect in Defect::ALL {
        for revision in Revision::ALL {
            let fits = match defect {
                Defect::ReorderInitialize => {
                    revision.is_mcp() && revision != Revision::Mcp2026_07_28
                }
                Defect::ProgressOtherToken | Defect::LowerProgress => revision.is_mcp(),
                _ => true,
            };
            assert_eq!(
                applied.contains(&(format!("{defect:?}"), revision.name())),
                fits,
                "{defect:?} under {revision}"
            );
        }
    }
}

/// A planted bug must be found: a judge that ignored duplicate answers would
/// leave the `DuplicateAnswer` defect unreported. Here the duplicate is fed and
/// the finding asserted, so removing the check fails this test.
#[test]
fn a_duplicate_answer_is_reported_at_the_second_answer() {
    let mut judge = Judge::new(Revision::JsonRpc2);
    let mut out = Vec::new();
    let frames: [(Direction, &str); 3] = [
        (
            C,
            r#"{"jsonrpc":"2.0","id":1,"method":"sum","params":[1,2]}"#,
        ),
        (S, r#"{"jsonrpc":"2.0","id":1,"result":3}"#),
        (S, r#"{"jsonrpc":"2.0","id":1.0,"result":3}"#),
    ];
    for (n, (from, f)) in frames.iter().enumerate() {
        judge.feed(
            Event::Frame {
                from: *from,
                bytes: f.as_bytes(),
            },
            Some(n as f64 / 2.0),
            &mut out,
        );
    }
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].violation.rule, "session.response.duplicate");
    assert_eq!(
        out[0].frames.iter().map(|a| a.index).collect::<Vec<_>>(),
        [1, 2]
    );
    assert_eq!(out[0].frames[1].time, Some(1.0));
}

/// A 2026-07-28 `subscriptions/listen` stays open until the client cancels it
/// or the server ends it (basic/patterns/subscriptions §Cancellation): an
/// elapsed wait leaves it open, not unanswered, while a plain request in
/// flight then is; and its graceful answer later is no answer to nothing.
#[test]
fn a_subscription_outlives_an_elapsed_wait() {
    let mut judge = Judge::new(Revision::Mcp2026_07_28);
    let mut out = Vec::new();
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}"#;
    let listen = format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"subscriptions/listen","params":{{"notifications":{{}},{meta}}}}}"#
    );
    let call = format!(r#"{{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{{{meta}}}}}"#);
    let mut feed = |event: Event<'_>, out: &mut Vec<_>| judge.feed(event, None, out);
    for f in [&listen, &call] {
        feed(
            Event::Frame {
                from: C,
                bytes: f.as_bytes(),
            },
            &mut out,
        );
    }
    feed(Event::WaitElapsed, &mut out);
    let unanswered: Vec<String> = out
        .iter()
        .filter(|f| f.violation.rule.as_str() == "jsonrpc.response.required")
        .map(|f| f.violation.message.clone())
        .collect();
    assert_eq!(unanswered.len(), 1, "{unanswered:?}");
    assert!(unanswered[0].contains("tools/list"), "{unanswered:?}");
    out.clear();
    feed(
        Event::Frame {
            from: S,
            bytes: br#"{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":4}}}"#,
        },
        &mut out,
    );
    assert!(
        !out.iter()
            .any(|f| f.violation.rule.as_str().starts_with("session.response")),
        "{out:?}"
    );
}

/// Who broke a rule: the sender of the frame that made it certain, or, for
/// an answer owed when the stream ended, the side that was asked.
#[test]
fn a_finding_is_blamed_on_who_broke_it() {
    use harness::session::{blame, At};
    let at = |index| At { index, time: None };
    let senders = [Some(C), Some(S), None];
    let sender = |i: u64| usize::try_from(i).ok().and_then(|i| senders[i]);
    assert_eq!(blame(&[at(0), at(1)], sender), Some(S));
    assert_eq!(blame(&[at(1), at(0)], sender), Some(C));
    // The client's request at 0, the stream closed at 2: the server owed it.
    assert_eq!(blame(&[at(0), at(2)], sender), Some(S));
    assert_eq!(blame(&[at(1), at(2)], sender), Some(C));
    assert_eq!(blame(&[at(2)], sender), None);
    assert_eq!(blame(&[], sender), None);
}

/// Found on the reference peer's own live sessions: after a request with id
/// null was answered with an error (id null), the error answering an
/// unreadable batch (id null too) was taken for a second answer. Each frame
/// whose id cannot be read gets its own `"id": null` error (JSON-RPC 2.0 §5).
#[test]
fn errors_with_id_null_are_never_duplicates() {
    let mut judge = Judge::new(Revision::JsonRpc2);
    let mut out = Vec::new();
    let frames: [(Direction, &str); 4] = [
        (C, r#"{"jsonrpc":"2.0","id":null,"method":"sum"}"#),
        (
            S,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#,
        ),
        (C, r#"{"jsonrpc":"2.0","method":1}"#),
        (
            S,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#,
        ),
    ];
    for (from, f) in frames {
        judge.feed(
            Event::Frame {
                from,
                bytes: f.as_bytes(),
            },
            None,
            &mut out,
        );
    }
    let rules: Vec<&str> = out.iter().map(|f| f.violation.rule.as_str()).collect();
    assert!(!rules.contains(&"session.response.duplicate"), "{rules:?}");
    // A success with id null after the answered one is still a second answer.
    judge.feed(
        Event::Frame {
            from: S,
            bytes: br#"{"jsonrpc":"2.0","id":null,"result":3}"#,
        },
        None,
        &mut out,
    );
    assert!(
        out.iter()
            .any(|f| f.violation.rule.as_str() == "session.response.duplicate"),
        "{out:?}"
    );
}

#[test]
fn an_unanswered_request_is_a_finding_only_when_the_stream_ended() {
    let request = br#"{"jsonrpc":"2.0","id":"a","method":"sum"}"#;
    let mut stopped = Judge::new(Revision::JsonRpc2);
    let mut out = Vec::new();
    stopped.feed(
        Event::Frame {
            from: C,
            bytes: request,
        },
        None,
        &mut out,
    );
    let ending = stopped.finish();
    assert!(out.is_empty() && ending.findings.is_empty());
    assert_eq!(ending.not_observed.len(), 1);
    assert_eq!(ending.not_observed[0].rule, "jsonrpc.response.required");

    for event in [Event::Closed, Event::WaitElapsed] {
        let mut judge = Judge::new(Revision::JsonRpc2);
        judge.feed(
            Event::Frame {
                from: C,
                bytes: request,
            },
            None,
            &mut out,
        );
        judge.feed(event, Some(30.0), &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].violation.rule, "jsonrpc.response.required");
        assert_eq!(out[0].frames[1].time, Some(30.0));
        // A late answer is not judged again.
        judge.feed(
            Event::Frame {
                from: S,
                bytes: br#"{"jsonrpc":"2.0","id":"a","result":3}"#,
            },
            None,
            &mut out,
        );
        assert_eq!(out.len(), 1);
        let ending = judge.finish();
        assert!(ending.findings.is_empty() && ending.not_observed.is_empty());
        out.clear();
    }
}

#[test]
fn frames_that_do_not_lift_are_their_refusal() {
    let mut judge = Judge::new(Revision::Mcp2025_06_18);
    let mut out = Vec::new();
    judge.feed(
        Event::Frame {
            from: C,
            bytes: b"{\"jsonrpc\":",
        },
        None,
        &mut out,
    );
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].violation.rule, "json.syntax");
    assert_eq!(out[0].frames[0].index, 0);
}

#[test]
fn memory_is_bounded_by_what_is_in_flight() {
    let mut judge = Judge::new(Revision::Mcp2026_07_28);
    let mut out = Vec::new();
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}"#;
    let n = 3 * HISTORY_CAP / 2;
    for i in 0..n {
        let req = format!(
            r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"t",{meta}}}}}"#
        );
        let ans = format!(
            r#"{{"jsonrpc":"2.0","id":{i},"result":{{"resultType":"complete","content":[],"_meta":{{"io.modelcontextprotocol/serverInfo":{{"name":"s","version":"1"}}}}}}}}"#
        );
        judge.feed(
            Event::Frame {
                from: C,
                bytes: req.as_bytes(),
            },
            None,
            &mut out,
        );
        assert_eq!(judge.in_flight(), 1);
        judge.feed(
            Event::Frame {
                from: S,
                bytes: ans.as_bytes(),
            },
            None,
            &mut out,
        );
    }
    assert!(out.is_empty(), "{:?}", out.first());
    assert_eq!(judge.in_flight(), 0);
    assert_eq!(judge.remembered(), HISTORY_CAP);
}

#[test]
fn judging_is_deterministic() {
    let data = bytes(7, 2048);
    let run = || {
        let mut u = Unstructured::new(&data);
        let revision = Revision::Mcp2025_03_26;
        let mut judge = Judge::new(revision);
        let mut out = Vec::new();
        while let Ok(frame) = u.arbitrary::<&[u8]>() {
            if u.is_empty() {
                break;
            }
            judge.feed(
                Event::Frame {
                    from: C,
                    bytes: frame,
                },
                None,
                &mut out,
            );
        }
        judge.feed(Event::Closed, None, &mut out);
        (out, judge.finish())
    };
    assert_eq!(run(), run());
}

#[test]
fn the_revision_is_read_from_the_handshake_or_the_meta() {
    let init = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#;
    let answer = br#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-03-26"}}"#;
    assert_eq!(
        detect_revision([(C, &init[..])]),
        Some(Revision::Mcp2025_06_18)
    );
    assert_eq!(
        detect_revision([(C, &init[..]), (S, &answer[..])]),
        Some(Revision::Mcp2025_03_26)
    );
    let r5 = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
    assert_eq!(
        detect_revision([(C, &r5[..])]),
        Some(Revision::Mcp2026_07_28)
    );
    let plain = br#"{"jsonrpc":"2.0","id":1,"method":"sum"}"#;
    assert_eq!(detect_revision([(C, &plain[..])]), None);
}

/// The rule variants the judge's sources name (`RuleId::McpProgressIncrease`).
fn variants_in(source: &str) -> BTreeSet<String> {
    let code = source.split("#[cfg(test)]").next().unwrap_or_default();
    code.split("RuleId::")
        .skip(1)
        .map(|rest| {
            rest.chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect::<String>()
        })
        .filter(|v| !v.is_empty())
        .collect()
}

/// Every rule the catalogue marks `Session` is one the judge can report (its
/// source names it), except `session.batch.any-order`, which is a MAY and never
/// a finding; every other rule that needs a conversation is `Unchecked` with a
/// reason. The 29 rules that were once all "needs the session" are each in one
/// of the two.
#[test]
fn every_session_rule_is_judged_or_keeps_a_reason() {
    // The judge's core and each of its feature modules (session/judge/*.rs).
    let named: BTreeSet<String> = [
        include_str!("../src/session/judge.rs"),
        include_str!("../src/session/judge/cancellation.rs"),
        include_str!("../src/session/judge/elicitation.rs"),
        include_str!("../src/session/judge/handshake.rs"),
        include_str!("../src/session/judge/lists.rs"),
        include_str!("../src/session/judge/logging.rs"),
        include_str!("../src/session/judge/mrtr.rs"),
        include_str!("../src/session/judge/subscriptions.rs"),
        include_str!("../src/session/judge/tasks.rs"),
    ]
    .into_iter()
    .flat_map(variants_in)
    .collect();
    let judged: Vec<RuleId> = session::judged_rules().collect();
    for rule in &judged {
        if *rule == RuleId::SessionBatchAnyOrder {
            continue;
        }
        assert!(
            named.contains(&format!("{rule:?}")),
            "`{rule}` is marked Session but the judge never names it"
        );
    }
    let unchecked: Vec<RuleId> = RuleId::ALL
        .into_iter()
        .filter(|r| matches!(r.info().check, CheckedBy::Unchecked(_)))
        .collect();
    for rule in &unchecked {
        let CheckedBy::Unchecked(reason) = rule.info().check else {
            unreachable!()
        };
        assert!(!reason.is_empty(), "`{rule}` has no reason");
    }
    let former = judged
        .iter()
        .filter(|r| !r.as_str().starts_with("session."))
        .count();
    assert_eq!(
        former + unchecked.len(),
        65,
        "the catalogue's 29 rules once marked as needing the session (less mcp.lifecycle.version-server, now judged by the live runner: CheckedBy::Runner), mcp.tasks.unknown-id, mcp.tasks.id-unique, the 7 session rules of the stream and task sentences (mcp.r5.subscription.acknowledged-first, mcp.capabilities.server-declares, mcp.r5.capabilities.declared-lists, mcp.tools.embedded-resources-capability, mcp.elicitation.mode-declared, mcp.sampling.tools-declared, mcp.sampling.include-context-declared) and the 12 added for its server-side sentences (mcp.lists.changed-notification, mcp.r5.tools.deterministic-order, mcp.r5.cache.scope-pages, mcp.r5.logging.capability, mcp.pagination.stable-cursor, mcp.prompts.get-invalid-params, mcp.completion.standard-errors, mcp.tasks.tool-forbidden, mcp.tasks.tool-required, mcp.elicitation.complete-known-id, mcp.r5.stdio.cancel-no-further, mcp.r5.mrtr.missing-input-reasked), and the 12 of the 2025-11-25 tasks and 2026-07-28 MRTR sentences (mcp.progress.task-token-lifetime, mcp.tasks.capability-declared, mcp.tasks.request-capability, mcp.tasks.cancel-terminal-rejected, mcp.tasks.result-blocks, mcp.tasks.result-completed-success, mcp.tasks.list-retrievable, mcp.tasks.poll-interval, mcp.cancel.task-uses-tasks-cancel, mcp.cancel.request-id-required, mcp.r5.mrtr.extra-input-ignored, mcp.r5.mrtr.input-responses-validated), and the 4 of the client's side of a 2026-07-28 retry (mcp.r5.sampling.tool-choice-none, mcp.r5.sampling.tool-choice-required, mcp.r5.roots.file-uri, mcp.r5.mrtr.retry-only), less mcp.error.invalid-cursor (Unchecked, now judged by the live runner: CheckedBy::Runner), and mcp.r5.subscription.teardown-signalled of the stream sentences, each placed once"
    );
}

#[test]
fn the_session_rules_alone_leave_frame_rules_out() {
    // `"id":null` on a request breaks mcp.base.id-not-null, a frame rule.
    let frame = br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#;
    let judged = |mut judge: Judge| {
        let mut out = Vec::new();
        judge.feed(
            Event::Frame {
                from: C,
                bytes: frame,
            },
            None,
            &mut out,
        );
        out.into_iter()
            .map(|f| f.violation.rule)
            .collect::<Vec<_>>()
    };
    let full = judged(Judge::new(Revision::Mcp2025_06_18));
    assert!(full.contains(&RuleId::McpBaseIdNotNull), "{full:?}");
    let session = judged(Judge::session_rules_only(Revision::Mcp2025_06_18));
    assert!(!session.contains(&RuleId::McpBaseIdNotNull), "{session:?}");
}

/// Over HTTP a request answered after a cancellation does not show the
/// cancellation was read (each request is its own POST): the stdio rule is
/// not judged by an unordered judge, and the end says so.
#[test]
fn an_unordered_judge_leaves_the_stdio_cancellation_rule_unjudged() {
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}"#;
    let answer = |id: u32| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"complete","_meta":{{"io.modelcontextprotocol/serverInfo":{{"name":"s","version":"1"}}}},"content":[]}}}}"#
        )
    };
    let frames = [
        (
            Direction::ClientToServer,
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t",{meta}}}}}"#
            ),
        ),
        (
            Direction::ClientToServer,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#
                .to_owned(),
        ),
        (
            Direction::ClientToServer,
            format!(
                r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"t",{meta}}}}}"#
            ),
        ),
        (Direction::ServerToClient, answer(2)),
        (Direction::ServerToClient, answer(1)),
    ];
    let judged = |judge: Judge| {
        let mut judge = judge;
        let mut found = Vec::new();
        for (from, bytes) in &frames {
            judge.feed(
                Event::Frame {
                    from: *from,
                    bytes: bytes.as_bytes(),
                },
                None,
                &mut found,
            );
        }
        let end = judge.finish();
        found.extend(end.findings);
        let rules: Vec<RuleId> = found.iter().map(|f| f.violation.rule).collect();
        let unobserved: Vec<RuleId> = end.not_observed.iter().map(|u| u.rule).collect();
        (rules, unobserved)
    };
    let (stdio, _) = judged(Judge::new(Revision::Mcp2026_07_28));
    assert!(
        stdio.contains(&RuleId::McpR5StdioCancelNoFurther),
        "{stdio:?}"
    );
    let (http, unobserved) = judged(Judge::new(Revision::Mcp2026_07_28).ordered(false));
    assert!(
        !http.contains(&RuleId::McpR5StdioCancelNoFurther),
        "{http:?}"
    );
    // The crossing is still the SHOULD it is, on any transport.
    assert!(http.contains(&RuleId::McpCancelReceiverShould), "{http:?}");
    assert!(
        unobserved.contains(&RuleId::McpR5StdioCancelNoFurther),
        "{unobserved:?}"
    );
}
