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

/// The rules of the findings: records with a check that failed or warned
/// (the client judge's own rules also record passes and what they did not
/// observe).
fn rules(records: &[Record]) -> Vec<String> {
    records
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Fail | Outcome::Warning))
        .filter_map(|r| r.check.as_ref().map(|c| c.rule.to_string()))
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

/// The outcome of the record of `rule` (one of the client judge's own, by
/// its id), and the violations' messages.
fn judged<'r>(records: &'r [Record], rule: &str) -> (&'r Outcome, Vec<String>) {
    let key = format!("client/{rule}");
    let record = records
        .iter()
        .find(|r| r.place.vector.as_deref() == Some(key.as_str()))
        .unwrap_or_else(|| panic!("no record for {key}"));
    let broken = record
        .violations
        .iter()
        .flatten()
        .map(|v| v.message.clone())
        .collect();
    (&record.outcome, broken)
}

/// A request of `method` with `params`, id `id`, as text.
fn request(id: u32, method: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}}}}}"#)
}

/// The `nextCursor` of the last frame the peer sent, which must be a result.
fn next_cursor(sent: &[String]) -> String {
    let last: serde_json::Value = serde_json::from_str(sent.last().expect("an answer")).unwrap();
    last["result"]["nextCursor"]
        .as_str()
        .unwrap_or_else(|| panic!("a second page: {last}"))
        .to_owned()
}

/// A judged 2025-06-18 session that listed the tools' first page: the
/// director and the cursor the peer issued.
fn listed_tools(revision: &str) -> (Director, String) {
    let mut d = Director::new(Serve::Negotiate, &[], "t");
    let init = initialize(revision, "{}");
    let sent = play(&mut d, &[&init, INITIALIZED, &request(2, "tools/list", "")]);
    let cursor = next_cursor(&sent);
    (d, cursor)
}

#[test]
fn a_cursor_sent_back_byte_for_byte_passes() {
    let (mut d, cursor) = listed_tools("2025-06-18");
    let sent = play(
        &mut d,
        &[&request(
            3,
            "tools/list",
            &format!(r#""cursor":"{cursor}""#),
        )],
    );
    assert!(sent[0].contains(r#""tools":["#), "{sent:?}");
    let records = d.finish(true);
    let (outcome, broken) = judged(&records, "mcp.pagination.cursor-opaque");
    assert_eq!(outcome, &Outcome::Pass, "{broken:?}");
    assert!(rules(&records).is_empty(), "{:?}", rules(&records));
    // 2025-06-18 has no tasks/list: no record of the tasks rule.
    assert!(records
        .iter()
        .all(|r| r.place.vector.as_deref() != Some("client/mcp.tasks.cursor-opaque")));
}

#[test]
fn a_cursor_parsed_modified_or_made_up_fails_and_names_it() {
    for (n, mangle) in [
        // counted on to a page the peer never issued a cursor for
        |c: &str| c.replacen(".2.", ".3.", 1),
        // re-cased, trimmed, re-encoded: each a different token
        |c: &str| c.to_uppercase(),
        |c: &str| c[..c.len() - 1].to_owned(),
        |c: &str| c.replace('.', "%2E"),
        // the cursor of another list
        |c: &str| c.replacen("tools", "prompts", 1),
    ]
    .iter()
    .enumerate()
    {
        let (mut d, cursor) = listed_tools("2025-06-18");
        let bad = mangle(&cursor);
        let sent = play(
            &mut d,
            &[&request(3, "tools/list", &format!(r#""cursor":"{bad}""#))],
        );
        // The peer refuses it, as a server should (§Error Handling).
        assert!(sent[0].contains("-32602"), "{n}: {sent:?}");
        let records = d.finish(true);
        let (outcome, broken) = judged(&records, "mcp.pagination.cursor-opaque");
        assert_eq!(outcome, &Outcome::Fail, "{n}: {bad}");
        assert_eq!(broken.len(), 1, "{broken:?}");
        assert!(broken[0].contains(&format!("{bad:?}")), "{broken:?}");
        assert!(broken[0].contains("never issues"), "{broken:?}");
    }
}

#[test]
fn a_cursor_kept_from_an_earlier_session_fails_before_2026_and_not_after() {
    // 2025-06-18 pagination §Implementation Guidelines: "Don't persist
    // cursors across sessions".
    let (first, cursor) = listed_tools("2025-06-18");
    drop(first.finish(true));
    let mut d = Director::new(Serve::Negotiate, &[], "t");
    let init = initialize("2025-06-18", "{}");
    play(
        &mut d,
        &[
            &init,
            INITIALIZED,
            &request(2, "tools/list", &format!(r#""cursor":"{cursor}""#)),
        ],
    );
    let records = d.finish(true);
    let (outcome, broken) = judged(&records, "mcp.pagination.cursor-opaque");
    assert_eq!(outcome, &Outcome::Fail);
    assert!(
        broken[0].contains("not issued in this session"),
        "{broken:?}"
    );

    // 2026-07-28 drops that item: the same kept cursor is opaque still.
    let mut d = Director::new(Serve::Mcp(Revision::Mcp2026_07_28), &[], "t");
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}"#;
    let sent = play(&mut d, &[&request(1, "tools/list", meta)]);
    let kept = next_cursor(&sent);
    drop(d.finish(true));
    let mut d = Director::new(Serve::Mcp(Revision::Mcp2026_07_28), &[], "t");
    let sent = play(
        &mut d,
        &[&request(
            1,
            "tools/list",
            &format!(r#""cursor":"{kept}",{meta}"#),
        )],
    );
    assert!(sent[0].contains(r#""tools":["#), "{sent:?}");
    let records = d.finish(true);
    let (outcome, broken) = judged(&records, "mcp.pagination.cursor-opaque");
    assert_eq!(outcome, &Outcome::Pass, "{broken:?}");
}

#[test]
fn tasks_list_cursors_are_judged_and_may_come_from_an_earlier_connection() {
    let task = r#""name":"long_job","arguments":{"steps":1},"task":{"ttl":60000}"#;
    let start = |d: &mut Director| {
        let init = initialize("2025-11-25", "{}");
        play(d, &[&init, INITIALIZED]);
        for id in 10..13 {
            play(d, &[&request(id, "tools/call", task)]);
        }
        next_cursor(&play(d, &[&request(20, "tasks/list", "")]))
    };
    let mut d = Director::new(Serve::Negotiate, &[], "t");
    let cursor = start(&mut d);
    let sent = play(
        &mut d,
        &[&request(
            21,
            "tasks/list",
            &format!(r#""cursor":"{cursor}""#),
        )],
    );
    assert!(sent[0].contains(r#""tasks":["#), "{sent:?}");
    let records = d.finish(true);
    assert_eq!(
        judged(&records, "mcp.tasks.cursor-opaque").0,
        &Outcome::Pass
    );
    // Kept from that connection: allowed (the tasks page forbids parsing
    // and modifying, not keeping); counted on: broken.
    let mut d = Director::new(Serve::Negotiate, &[], "t");
    start(&mut d);
    let counted_on = cursor.replacen(".2.", ".3.", 1);
    play(
        &mut d,
        &[
            &request(21, "tasks/list", &format!(r#""cursor":"{cursor}""#)),
            &request(22, "tasks/list", &format!(r#""cursor":"{counted_on}""#)),
        ],
    );
    let records = d.finish(true);
    let (outcome, broken) = judged(&records, "mcp.tasks.cursor-opaque");
    assert_eq!(outcome, &Outcome::Fail);
    assert_eq!(broken.len(), 1, "only the counted-on cursor: {broken:?}");
    assert!(broken[0].contains(&format!("{counted_on:?}")), "{broken:?}");
}

#[test]
fn a_client_that_sends_no_cursor_is_not_observed_never_passed() {
    let (d, _) = listed_tools("2025-11-25");
    let records = d.finish(true);
    for rule in ["mcp.pagination.cursor-opaque", "mcp.tasks.cursor-opaque"] {
        assert!(
            matches!(judged(&records, rule).0, Outcome::NotObserved { .. }),
            "{rule}"
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

/// Over Streamable HTTP: a judged server on 127.0.0.1:0 and a client scripted
/// here with reqwest, frame by frame, as a client under test would speak.
mod over_http {
    use std::time::Duration;

    use futures_util::StreamExt as _;
    use harness::Outcome;
    use reqwest::StatusCode;
    use wirecheck::clientcheck::http::{self as judged, Stop};
    use wirecheck::clientcheck::Scenario;
    use wirecheck::peer::http::{Config, Server};
    use wirecheck::peer::Serve;
    use wirecheck::report::Record;

    use super::{initialize, rules, scenario, INITIALIZED};

    /// A judged server and what ends it.
    struct Judged {
        url: String,
        http: reqwest::Client,
        session: Option<String>,
        stop: tokio::sync::oneshot::Sender<Stop>,
        served: tokio::task::JoinHandle<Vec<Record>>,
    }

    async fn judged(scenarios: &[Scenario]) -> Judged {
        let config = Config {
            serve: Serve::Negotiate,
            max_frame: 1 << 20,
            allow_remote: false,
        };
        let server =
            Server::bind_judged("127.0.0.1:0".parse().unwrap(), config, scenarios.to_vec())
                .await
                .expect("binds loopback");
        let url = format!("http://{}/mcp", server.addr);
        let (stop, told) = tokio::sync::oneshot::channel();
        let served = tokio::spawn(async move {
            let (records, ended) = judged::serve(
                server,
                async { told.await.unwrap_or(Stop::Told { closed: true }) },
                false,
            )
            .await;
            ended.expect("serving ends when told");
            records
        });
        Judged {
            url,
            http: reqwest::Client::new(),
            session: None,
            stop,
            served,
        }
    }

    impl Judged {
        /// POSTs `body` as the client; returns the status and every JSON-RPC
        /// message of the response (the JSON body, or each SSE `data`).
        async fn post(&mut self, body: &str) -> (StatusCode, Vec<serde_json::Value>) {
            let mut request = self
                .http
                .post(&self.url)
                .header("accept", "application/json, text/event-stream")
                .header("content-type", "application/json")
                .body(body.to_owned());
            if let Some(id) = &self.session {
                request = request
                    .header("mcp-session-id", id)
                    .header("mcp-protocol-version", "2025-06-18");
            }
            let response = request.send().await.expect("the server answers");
            let status = response.status();
            if let Some(id) = response.headers().get("mcp-session-id") {
                self.session = Some(id.to_str().unwrap().to_owned());
            }
            let sse = response
                .headers()
                .get("content-type")
                .is_some_and(|v| v.to_str().unwrap().starts_with("text/event-stream"));
            let text = response.text().await.unwrap();
            let messages = if sse {
                data_lines(&text)
            } else if text.is_empty() {
                Vec::new()
            } else {
                vec![serde_json::from_str(&text).expect("a JSON body")]
            };
            (status, messages)
        }

        /// Opens the GET stream and reads its first `n` messages.
        async fn listen(&self, n: usize) -> Vec<serde_json::Value> {
            let response = self
                .http
                .get(&self.url)
                .header("accept", "text/event-stream")
                .header("mcp-session-id", self.session.as_deref().unwrap())
                .header("mcp-protocol-version", "2025-06-18")
                .send()
                .await
                .expect("the server answers");
            assert_eq!(response.status(), StatusCode::OK);
            let mut body = response.bytes_stream();
            let mut text = String::new();
            let read = async {
                while data_lines(&text).len() < n {
                    let chunk = body.next().await.expect("the stream stays open").unwrap();
                    text.push_str(std::str::from_utf8(&chunk).unwrap());
                }
            };
            tokio::time::timeout(Duration::from_secs(10), read)
                .await
                .expect("the GET stream carries the scenario's requests");
            data_lines(&text)
        }

        async fn delete(&self) -> StatusCode {
            self.http
                .delete(&self.url)
                .header("mcp-session-id", self.session.as_deref().unwrap())
                .send()
                .await
                .unwrap()
                .status()
        }

        /// Stops the server (`closed`: the client is gone) and returns its records.
        async fn finish(self, closed: bool) -> Vec<Record> {
            self.stop.send(Stop::Told { closed }).unwrap();
            self.served.await.unwrap()
        }
    }

    fn data_lines(sse: &str) -> Vec<serde_json::Value> {
        sse.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(|d| serde_json::from_str(d).expect("each event is JSON"))
            .collect()
    }

    /// initialize, then notifications/initialized (202: no body may carry
    /// the scenario's requests).
    async fn handshake(j: &mut Judged) {
        let (status, answer) = j.post(&initialize("2025-06-18", "{}")).await;
        assert_eq!(status, StatusCode::OK);
        assert!(answer[0]["result"].is_object(), "{answer:?}");
        assert!(j.session.is_some(), "the initialize result opens a session");
        let (status, body) = j.post(INITIALIZED).await;
        assert_eq!((status, body.len()), (StatusCode::ACCEPTED, 0));
    }

    const PONG: &str = r#"{"jsonrpc":"2.0","id":"wirecheck-1","result":{}}"#;

    #[tokio::test]
    async fn a_good_client_answers_the_ping_on_the_get_stream_once_and_passes() {
        let mut j = judged(&[Scenario::ServerRequests]).await;
        handshake(&mut j).await;
        let sent = j.listen(1).await;
        assert_eq!(sent[0]["method"], "ping");
        assert_eq!(sent[0]["id"], "wirecheck-1");
        assert_eq!(j.post(PONG).await.0, StatusCode::ACCEPTED);
        assert_eq!(j.delete().await, StatusCode::NO_CONTENT);
        let records = j.finish(true).await;
        assert_eq!(scenario(&records, "server-requests"), &Outcome::Pass);
        assert!(rules(&records).is_empty(), "{:?}", rules(&records));
        assert!(records.iter().all(|r| r
            .place
            .transport
            .as_ref()
            .map(ToString::to_string)
            .as_deref()
            == Some("streamable-http")));
    }

    #[tokio::test]
    async fn answering_the_ping_twice_is_found_as_a_duplicate() {
        let mut j = judged(&[Scenario::ServerRequests]).await;
        handshake(&mut j).await;
        j.listen(1).await;
        j.post(PONG).await;
        j.post(PONG).await;
        let records = j.finish(true).await;
        assert_eq!(scenario(&records, "server-requests"), &Outcome::Fail);
        assert!(
            rules(&records).contains(&"session.response.duplicate".to_owned()),
            "{:?}",
            rules(&records)
        );
    }

    #[tokio::test]
    async fn answering_with_a_wrong_id_leaves_the_ping_unanswered() {
        let mut j = judged(&[Scenario::ServerRequests]).await;
        handshake(&mut j).await;
        j.listen(1).await;
        j.post(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#).await;
        // The client ends its session: a request still unanswered is unanswered.
        assert_eq!(j.delete().await, StatusCode::NO_CONTENT);
        let records = j.finish(true).await;
        assert_eq!(scenario(&records, "server-requests"), &Outcome::Fail);
        assert!(
            rules(&records).contains(&"jsonrpc.response.required".to_owned()),
            "{:?}",
            rules(&records)
        );
    }

    #[tokio::test]
    async fn without_a_get_stream_the_requests_go_before_the_next_answer() {
        let mut j = judged(&[Scenario::ServerRequests]).await;
        handshake(&mut j).await;
        let (status, sent) = j
            .post(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(sent.len(), 2, "{sent:?}");
        assert_eq!(sent[0]["method"], "ping");
        assert_eq!(sent[1]["id"], 2);
        assert!(sent[1]["result"]["tools"].is_array(), "{sent:?}");
        j.post(PONG).await;
        let records = j.finish(true).await;
        assert_eq!(scenario(&records, "server-requests"), &Outcome::Pass);
        assert!(rules(&records).is_empty(), "{:?}", rules(&records));
    }

    /// A 2026-07-28 request: no session, the revision in its `_meta` and
    /// headers (2026-07-28 basic/transports/streamable-http §Request Metadata).
    async fn session_free(
        j: &Judged,
        id: u32,
        method: &str,
        name: Option<&str>,
    ) -> serde_json::Value {
        let mut params = serde_json::json!({"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {},
        }});
        let mut request = j
            .http
            .post(&j.url)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", method);
        if let Some(name) = name {
            params["name"] = name.into();
            params["arguments"] = serde_json::json!({"text": "x"});
            request = request.header("mcp-name", name);
        }
        let body =
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let text = request
            .body(body.to_string())
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        serde_json::from_str(&text).unwrap_or_else(|_| data_lines(&text).pop().expect("an answer"))
    }

    #[tokio::test]
    async fn session_free_2026_requests_are_one_judged_conversation() {
        let j = judged(&[Scenario::ErrorShapes]).await;
        let first = session_free(&j, 1, "tools/call", Some("echo")).await;
        assert_eq!(first["result"]["resultType"], "complete", "{first}");
        // The error-shapes scenario's tool execution error, in 2026-07-28's
        // spelling (resultType, serverInfo): no finding against the peer.
        let second = session_free(&j, 2, "tools/call", Some("echo")).await;
        assert_eq!(second["result"]["isError"], true, "{second}");
        assert_eq!(second["result"]["resultType"], "complete", "{second}");
        // A method 2026-07-28 no longer has: the client's, found.
        session_free(&j, 3, "logging/setLevel", None).await;
        let records = j.finish(true).await;
        assert_eq!(
            rules(&records),
            ["mcp.method.other-revision"],
            "only the client's removed method is a finding"
        );
        assert!(records
            .iter()
            .all(|r| r.place.revision == Some(harness::Revision::Mcp2026_07_28)));
    }

    #[tokio::test]
    async fn a_2026_client_posting_without_required_headers_is_found() {
        let j = judged(&[Scenario::ErrorShapes]).await;
        // A good request first: every header there.
        session_free(&j, 1, "tools/call", Some("echo")).await;
        // Then one without MCP-Protocol-Version or Mcp-Name, its Mcp-Param
        // value raw UTF-8: the peer refuses it (400 -32020), and the judge
        // holds it against the client.
        let body = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "route", "arguments": {"region": "é"}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}}});
        let refused = j
            .http
            .post(&j.url)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .header("mcp-method", "tools/call")
            .header(
                "mcp-param-region",
                reqwest::header::HeaderValue::from_bytes("é".as_bytes()).unwrap(),
            )
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
        let records = j.finish(true).await;
        let found = rules(&records);
        for rule in [
            "mcp.http.client-version-header",
            "mcp.http.client-standard-headers",
            "mcp.http.client-sentinel-encoding",
        ] {
            assert!(found.iter().any(|r| r == rule), "{rule}: {found:?}");
            let record = records
                .iter()
                .find(|r| r.check.as_ref().is_some_and(|c| c.rule == rule))
                .unwrap();
            assert_eq!(record.outcome, Outcome::Fail, "{rule}");
        }
    }

    #[tokio::test]
    async fn a_scenario_the_client_never_reached_is_not_observed() {
        let mut j = judged(&Scenario::ALL).await;
        let (status, _) = j.post(&initialize("2025-06-18", "{}")).await;
        assert_eq!(status, StatusCode::OK);
        // Stopped while the client may still be there (a signal).
        let records = j.finish(false).await;
        for s in Scenario::ALL {
            assert!(
                matches!(scenario(&records, s.name()), Outcome::NotObserved { .. }),
                "{}: {:?}",
                s.name(),
                scenario(&records, s.name())
            );
        }
    }
}

/// The binary: `serve --http --judge` writes its report when the client
/// deletes its session or at SIGTERM; `run-client --transport http` fails
/// plainly when the client never connects.
mod binary {
    use std::io::BufRead as _;
    use std::process::{Command, Stdio};

    use super::{initialize, INITIALIZED};

    fn report_path(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!(
            "wirecheck-client-judge-{}-{name}.json",
            std::process::id()
        ))
    }

    /// Starts `serve --http 127.0.0.1:0 --judge --report FILE`; returns it
    /// and its `/mcp` URL.
    fn serve(report: &std::path::Path) -> (std::process::Child, String) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wirecheck"))
            .args([
                "serve",
                "--http",
                "127.0.0.1:0",
                "--judge",
                "--scenario",
                "server-requests",
                "--report",
            ])
            .arg(report)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        // The rest (the tally at the end) is read, so the pipe stays open.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected stderr: {line}"))
            .to_owned();
        (child, format!("{url}/mcp"))
    }

    async fn post(
        http: &reqwest::Client,
        url: &str,
        session: Option<&str>,
        body: &str,
    ) -> reqwest::Response {
        let mut request = http
            .post(url)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .body(body.to_owned());
        if let Some(id) = session {
            request = request.header("mcp-session-id", id);
        }
        request.send().await.unwrap()
    }

    fn outcomes(report: &std::path::Path) -> Vec<(String, String)> {
        let doc: serde_json::Value =
            serde_json::from_slice(&std::fs::read(report).expect("the report was written"))
                .unwrap();
        let _ = std::fs::remove_file(report);
        doc["records"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let what = r["vector"]
                    .as_str()
                    .or(r["check"]["rule"].as_str())
                    .unwrap_or("?");
                (
                    what.to_owned(),
                    r["outcome"]["outcome"].as_str().unwrap_or("?").to_owned(),
                )
            })
            .collect()
    }

    #[tokio::test]
    async fn the_report_is_written_when_the_client_deletes_its_session() {
        let report = report_path("delete");
        let (mut child, url) = serve(&report);
        let http = reqwest::Client::new();
        let init = post(&http, &url, None, &initialize("2025-06-18", "{}")).await;
        let session = init.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        assert_eq!(
            post(&http, &url, Some(&session), INITIALIZED)
                .await
                .status(),
            202
        );
        // No GET stream: the ping rides before the answer to this request.
        let listed = post(
            &http,
            &url,
            Some(&session),
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        )
        .await
        .text()
        .await
        .unwrap();
        assert!(
            listed.contains(r#""id":"wirecheck-1","method":"ping""#),
            "{listed}"
        );
        // Answered twice: a MUST broken, so exit 1.
        let pong = r#"{"jsonrpc":"2.0","id":"wirecheck-1","result":{}}"#;
        post(&http, &url, Some(&session), pong).await;
        post(&http, &url, Some(&session), pong).await;
        let deleted = http
            .delete(&url)
            .header("mcp-session-id", &session)
            .send()
            .await
            .unwrap();
        assert_eq!(deleted.status(), 204);
        let status = tokio::task::spawn_blocking(move || child.wait().unwrap())
            .await
            .unwrap();
        assert_eq!(status.code(), Some(1));
        let seen = outcomes(&report);
        assert!(
            seen.contains(&("session.response.duplicate".into(), "fail".into())),
            "{seen:?}"
        );
        assert!(
            seen.contains(&("scenario/server-requests".into(), "fail".into())),
            "{seen:?}"
        );
    }

    #[tokio::test]
    async fn the_report_is_written_at_sigterm() {
        let report = report_path("sigterm");
        let (child, url) = serve(&report);
        let http = reqwest::Client::new();
        let init = post(&http, &url, None, &initialize("2025-06-18", "{}")).await;
        assert_eq!(init.status(), 200);
        let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
        let mut child = child;
        let status = tokio::task::spawn_blocking(move || child.wait().unwrap())
            .await
            .unwrap();
        assert_eq!(status.code(), Some(0));
        let seen = outcomes(&report);
        // Stopped before `notifications/initialized`: the handshake's end,
        // the cursors and the scenario are not observed, and nothing is failed.
        assert_eq!(
            seen,
            [
                (
                    "mcp.lifecycle.initialized-notification".to_owned(),
                    "not-observed".to_owned()
                ),
                (
                    "client/mcp.pagination.cursor-opaque".to_owned(),
                    "not-observed".to_owned()
                ),
                (
                    "scenario/server-requests".to_owned(),
                    "not-observed".to_owned()
                )
            ]
        );
    }

    #[test]
    fn run_client_over_http_says_when_the_client_never_connected() {
        let out = Command::new(env!("CARGO_BIN_EXE_wirecheck"))
            .args([
                "run-client",
                "--transport",
                "http",
                "--timeout",
                "10s",
                "--",
                "true",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(text.contains("never opened a session"), "{text}");
    }
}
