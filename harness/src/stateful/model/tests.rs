use serde_json::json;

use super::*;

fn model(revision: Revision, caps: serde_json::Value) -> Model {
    Model::new(revision, Caps::of(revision, &caps, true))
}

fn page(items: &[&str], next: Option<&str>) -> Answer {
    let tools: Vec<_> = items.iter().map(|n| json!({"name": n})).collect();
    let mut result = json!({"tools": tools});
    if let Some(next) = next {
        result["nextCursor"] = json!(next);
    }
    Answer::Result(result)
}

#[test]
fn a_name_repeated_across_pages_of_one_walk_warns() {
    let mut m = model(Revision::Mcp2025_11_25, json!({"tools": {}}));
    let mut walk = m.walk(List::Tools);
    let (b, next, _) = m.page(&mut walk, None, &page(&["echo", "add"], Some("c1")));
    assert!(b.is_empty());
    assert_eq!(next.as_deref(), Some("c1"));
    let (b, next, words) = m.page(&mut walk, Some("c1"), &page(&["echo"], None));
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].rule, RuleId::McpListsItemsUnique);
    assert!(!b[0].rule.info().level.is_mandatory());
    assert!(words.contains("repeats `echo`"), "{words}");
    assert!(next.is_none());
    assert!(m.walk_done(walk).is_empty());
}

#[test]
fn a_repeat_after_a_list_change_announced_during_the_walk_is_not_judged() {
    let mut m = model(
        Revision::Mcp2025_11_25,
        json!({"tools": {"listChanged": true}}),
    );
    let mut walk = m.walk(List::Tools);
    let _ = m.page(&mut walk, None, &page(&["echo", "add"], Some("c1")));
    let _ = m.notification("notifications/tools/list_changed", None);
    let (b, _, _) = m.page(&mut walk, Some("c1"), &page(&["echo"], None));
    assert!(b.is_empty(), "{b:?}");
}

#[test]
fn a_refused_issued_cursor_and_a_taken_bogus_one_warn() {
    let mut m = model(Revision::Mcp2025_06_18, json!({"tools": {}}));
    let mut walk = m.walk(List::Tools);
    let _ = m.page(&mut walk, None, &page(&["a"], Some("c1")));
    let _ = m.page(&mut walk, Some("c1"), &page(&["b"], None));
    let _ = m.walk_done(walk);
    let cursor = m.revisit_cursor(List::Tools).unwrap();
    let refused = Answer::Error {
        code: -32602,
        message: "gone".into(),
    };
    let b = m.revisited(List::Tools, &cursor, &refused);
    assert_eq!(b[0].rule, RuleId::McpPaginationStableCursor);
    // A list change announced since: the cursor may go.
    let _ = m.notification("notifications/tools/list_changed", None);
    assert!(m.revisited(List::Tools, &cursor, &refused).is_empty());
    let bogus = m.bogus_cursor();
    assert!(m.bogus_answered(List::Tools, &bogus, &refused).is_empty());
    let b = m.bogus_answered(List::Tools, &bogus, &page(&["a"], None));
    assert_eq!(b[0].rule, RuleId::McpErrorInvalidCursor);
}

#[test]
fn walks_that_differ_warn_only_when_list_changed_was_declared() {
    for (declared, expected) in [(true, 1), (false, 0)] {
        let mut m = model(
            Revision::Mcp2025_11_25,
            json!({"tools": {"listChanged": declared}}),
        );
        for items in [&["a", "b"][..], &["a"][..]] {
            let mut walk = m.walk(List::Tools);
            let _ = m.page(&mut walk, None, &page(items, None));
            let b = m.walk_done(walk);
            if items.len() == 1 {
                assert_eq!(b.len(), expected, "declared {declared}");
            }
        }
    }
}

#[test]
fn an_update_after_an_answered_unsubscribe_and_a_later_request_warns() {
    let mut m = model(
        Revision::Mcp2025_11_25,
        json!({"resources": {"subscribe": true}}),
    );
    let uri = "file:///r";
    let updated = json!({"uri": uri});
    let ok = Answer::Result(json!({}));
    m.subscribed(uri, &ok);
    assert!(m
        .notification("notifications/resources/updated", Some(&updated))
        .is_empty());
    m.unsubscribed(uri, &ok);
    // It may have crossed the unsubscription: not yet.
    assert!(m
        .notification("notifications/resources/updated", Some(&updated))
        .is_empty());
    m.request_sent();
    let b = m.notification("notifications/resources/updated", Some(&updated));
    assert_eq!(b[0].rule, RuleId::McpResourcesNoUpdateAfterUnsubscribe);
    // 2024-11-05 has no schema page saying anything of it.
    let mut old = model(
        Revision::Mcp2024_11_05,
        json!({"resources": {"subscribe": true}}),
    );
    old.subscribed(uri, &ok);
    old.unsubscribed(uri, &ok);
    old.request_sent();
    assert!(old
        .notification("notifications/resources/updated", Some(&updated))
        .is_empty());
}

#[test]
fn an_ended_session_answering_is_a_failure_and_405_is_not() {
    let mut m = model(Revision::Mcp2025_03_26, json!({}));
    assert!(m.reused(200).is_empty(), "nothing was ended");
    m.session_ended(405);
    assert!(m.reused(200).is_empty(), "405: the server keeps sessions");
    m.session_ended(204);
    let b = m.reused(200);
    assert_eq!(b[0].rule, RuleId::McpHttpSessionTerminated404);
    assert!(b[0].rule.info().level.is_mandatory());
    assert!(m.reused(404).is_empty());
}
