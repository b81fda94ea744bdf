//! The judged peer (`serve --judge`) driven frame by frame as a client would:
//! what the scenarios send, and how the client's answers are judged.

use harness::{Outcome, Revision};
use wirecheck::clientcheck::{Director, Scenario};
use wirecheck::peer::Serve;
use wirecheck::report::Record;

fn initialize(revision: &str, capabilities: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{revision}","capabilities":{capabilities},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
    )
}

const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// Feeds `frames` and returns every frame the peer sent, as text.
fn play(director: &mut Director, frames: &[&str]) -> Vec<String> {
    let mut sent = Vec::new();
    for f in frames {
        for out in director.handle(f.as_bytes(), None) {
            sent.push(String::from_utf8(out).expect("the peer writes UTF-8"));
        }
    }
    sent
}

fn scenario<'r>(records: &'r [Record], name: &str) -> &'r Outcome {
    let key = format!("scenario/{name}");
    &records
        .iter()
        .find(|r| r.place.vector.as_deref() == Some(key.as_str()))
        .unwrap_or_else(|| panic!("no record for {key}"))
        .outcome
}

fn rules(records: &[Record]) -> Vec<String> {
    records
        .iter()
        .filter_map(|r| r.check.as_ref().map(|c| c.rule.clone()))
        .collect()
}

#[test]
fn a_client_that_answers_the_ping_with_its_exact_id_passes() {
    let mut d = Director::new(Serve::Negotiate, &[Scenario::ServerRequests], "t");
    let init = initialize("2025-06-18", "{}");
    let sent = play(&mut d, &[&init, INITIALIZED]);
    // Only the ping: the client declared neither roots, sampling nor elicitation.
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert_eq!(
        sent[1],
        r#"{"jsonrpc":"2.0","id":"wirecheck-1","method":"ping"}"#
    );
    play(
        &mut d,
        &[r#"{"jsonrpc":"2.0","id":"wirecheck-1","result":{}}"#],
    );
    let records = d.finish(true);
    assert_eq!(scenario(&records, "server-requests"), &Outcome::Pass);
    assert!(rules(&records).is_empty(), "{:?}", rules(&records));
}

#[test]
fn declared_capabilities_get_their_requests_and_undeclared_ones_never() {
    let mut d = Director::new(Serve::Negotiate, &[Scenario::ServerRequests], "t");
    let init = initialize("2025-06-18", r#"{"roots":{},"elicitation":{}}"#);
    let sent = play(&mut d, &[&init, INITIALIZED]).join("\n");
    assert!(sent.contains(r#""method":"roots/list""#), "{sent}");
    assert!(sent.contains(r#""method":"elicitation/create""#), "{sent}");
    assert!(!sent.contains("sampling/createMessage"), "{sent}");
}

#[test]
fn an_answer_with_the_id_as_a_number_is_not_an_answer() {
    let mut d = Director::new(Serve::Negotiate, &[Scenario::ServerRequests], "t");
    let init = initialize("2025-06-18", "{}");
    play(&mut d, &[&init, INITIALIZED]);
    // The ping's id is the string "wirecheck-1"; a client that answers
    // another id answers nothing it was asked.
    play(&mut d, &[r#"{"jsonrpc":"2.0","id":1,"result":{}}"#]);
    let records = d.finish(true);
    assert_eq!(scenario(&records, "server-requests"), &Outcome::Fail);
    let broken = rules(&records);
    assert!(
        broken.contains(&"jsonrpc.response.required".to_owned()),
        "{broken:?}"
    );
}

#[test]
fn a_second_answer_to_one_request_is_a_duplicate() {
    let mut d = Director::new(Serve::Negotiate, &[Scenario::ServerRequests], "t");
    let init = initialize("2025-06-18", "{}");
    let pong = r#"{"jsonrpc":"2.0","id":"wirecheck-1","result":{}}"#;
    play(&mut d, &[&init, INITIALIZED, pong, pong]);
    let records = d.finish(true);
    assert_eq!(scenario(&records, "server-requests"), &Outcome::Fail);
    assert!(rules(&records).contains(&"session.response.duplicate".to_owned()));
}

#[test]
fn a_request_still_unanswered_when_the_capture_stops_is_not_observed() {
    let mut d = Director::new(Serve::Negotiate, &[Scenario::ServerRequests], "t");
    let init = initialize("2025-06-18", "{}");
    play(&mut d, &[&init, INITIALIZED]);
    let records = d.finish(false);
    assert!(matches!(
        scenario(&records, "server-requests"),
        Outcome::NotObserved { .. }
    ));
}

#[test]
fn list_changed_follows_the_first_tools_list_and_is_declared() {
    let mut d = Director::new(Serve::Negotiate, &[Scenario::ListChanged], "t");
    let init = initialize("2025-03-26", "{}");
    let sent = play(&mut d, &[&init]);
    assert!(
        sent[0].contains(r#""tools":{"listChanged":true}"#),
        "{}",
        sent[0]
    );
    let sent = play(
        &mut d,
        &[
            INITIALIZED,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        ],
    );
    assert_eq!(
        sent.last().map(String::as_str),
        Some(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#)
    );
    let records = d.finish(true);
    assert_eq!(scenario(&records, "list-changed"), &Outcome::Pass);
}

#[test]
fn a_scenario_the_client_never_reached_is_not_observed_never_passed() {
    let mut d = Director::new(Serve::Negotiate, &Scenario::ALL, "t");
    let init = initialize("2025-06-18", "{}");
    play(&mut d, &[&init, INITIALIZED]);
    let records = d.finish(false);
    for name in ["list-changed", "progress", "logging", "error-shapes"] {
        assert!(
            matches!(scenario(&records, name), Outcome::NotObserved { .. }),
            "{name}: {:?}",
            scenario(&records, name)
        );
    }
}

#[test]
fn progress_and_a_log_message_come_before_the_answer_and_errors_after_the_first_call() {
    let mut d = Director::new(Serve::Mcp(Revision::Mcp2025_06_18), &Scenario::ALL, "t");
    let init = initialize("2025-06-18", "{}");
    play(
        &mut d,
        &[
            &init,
            INITIALIZED,
            r#"{"jsonrpc":"2.0","id":"wirecheck-1","result":{}}"#,
        ],
    );
    play(
        &mut d,
        &[r#"{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"warning"}}"#],
    );
    let call = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"},"_meta":{"progressToken":"p"}}}"#;
    let sent = play(&mut d, &[call]);
    assert_eq!(sent.len(), 3, "{sent:?}");
    assert!(sent[0].contains(r#""level":"warning""#), "{}", sent[0]);
    assert!(sent[1].contains(r#""progressToken":"p""#), "{}", sent[1]);
    assert!(
        sent[2].starts_with(r#"{"jsonrpc":"2.0","id":3,"result""#),
        "{}",
        sent[2]
    );
    let mut codes = Vec::new();
    for id in 4..8 {
        let call = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"x"}}}}}}"#
        );
        let answer = play(&mut d, &[&call]).pop().expect("an answer");
        codes.push(if answer.contains("isError") {
            "isError".to_owned()
        } else {
            answer.split("\"code\":").nth(1).unwrap_or("?")[..6].to_owned()
        });
    }
    assert_eq!(codes, ["isError", "-32602", "-32603", "-32000"]);
    play(
        &mut d,
        &[r#"{"jsonrpc":"2.0","id":8,"method":"tools/list"}"#],
    );
    let records = d.finish(true);
    for name in Scenario::ALL {
        assert_eq!(
            scenario(&records, name.name()),
            &Outcome::Pass,
            "{}",
            name.name()
        );
    }
}

#[test]
fn stateless_2026_plays_no_server_requests() {
    let d = Director::new(Serve::Mcp(Revision::Mcp2026_07_28), &Scenario::ALL, "t");
    let records = d.finish(true);
    assert!(matches!(
        scenario(&records, "server-requests"),
        Outcome::NotApplicable { .. }
    ));
    assert!(matches!(
        scenario(&records, "list-changed"),
        Outcome::NotApplicable { .. }
    ));
}
