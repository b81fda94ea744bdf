//! The driver against scripted peers: what each probe waits for, how frames
//! are classified, and the wire log it keeps.

use super::*;

/// A scripted peer's next frame, or the deadline's end when it has none.
async fn next_queued(out: &mut std::collections::VecDeque<Vec<u8>>, deadline: Instant) -> Event {
    match out.pop_front() {
        Some(frame) => Event::Frame(frame),
        None => {
            tokio::time::sleep_until(deadline).await;
            Event::TimedOut
        }
    }
}

/// A peer on one ordered stream (or not) that answers every `ping`
/// at once and, like a peer handling frames concurrently, writes a
/// message it owed the probe only after its answer to the first ping.
struct Scripted {
    ordered: bool,
    out: std::collections::VecDeque<Vec<u8>>,
    owed: Option<Vec<u8>>,
}

impl Transport for Scripted {
    async fn send(&mut self, frame: &[u8]) -> Result<(), SendError> {
        let sent: serde_json::Value = serde_json::from_slice(frame).unwrap();
        match sent.get("id") {
            Some(id) if sent["method"] == "ping" => {
                let pong = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}});
                self.out.push_back(pong.to_string().into_bytes());
                self.out.extend(self.owed.take());
            }
            _ => {
                self.owed = Some(
                    br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"late"}}"#
                        .to_vec(),
                );
            }
        }
        Ok(())
    }

    async fn recv(&mut self, deadline: Instant) -> Event {
        next_queued(&mut self.out, deadline).await
    }

    fn dropped(&self) -> u64 {
        0
    }

    fn one_stream_each_way(&self) -> bool {
        self.ordered
    }
}

/// Over one ordered stream, a probe that wants no reply ends at the
/// answer to a second liveness request, not at the end of the grace,
/// and what the peer wrote before that answer is still the probe's.
/// Elsewhere the grace is waited out as before.
#[tokio::test]
async fn the_grace_after_a_probe_wanting_no_reply_ends_at_a_second_liveness_answer() {
    let grace = Duration::from_millis(400);
    for ordered in [true, false] {
        let peer = Scripted {
            ordered,
            out: std::collections::VecDeque::new(),
            owed: None,
        };
        let config = DriverConfig {
            grace,
            ..DriverConfig::default()
        };
        let mut driver = Driver::new(peer, config);
        let report = driver
            .probe(
                br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                false,
            )
            .await;
        assert!(
            matches!(report.live, Live::Answered(_)),
            "{:?}",
            report.live
        );
        let late = report
            .frames
            .iter()
            .filter(|f| f.class != Class::LivenessAnswer)
            .count();
        assert_eq!(late, 1, "ordered {ordered}: {:?}", report.frames);
        let pongs = report
            .frames
            .iter()
            .filter(|f| f.class == Class::LivenessAnswer)
            .count();
        assert_eq!(pongs, if ordered { 2 } else { 1 }, "ordered {ordered}");
        assert_eq!(
            report.took < grace,
            ordered,
            "ordered {ordered}: {:?}",
            report.took
        );
    }
}

/// A peer handling requests concurrently, as the SDKs' servers do: it
/// answers `ping` at once and every other request `delay` later, out
/// of order; `drops` requests it never answers.
struct Concurrent {
    delay: Duration,
    drops: bool,
    /// Answers other requests under this id instead of theirs.
    wrong_id: Option<i64>,
    out: Vec<(Instant, Vec<u8>)>,
}

impl Transport for Concurrent {
    async fn send(&mut self, frame: &[u8]) -> Result<(), SendError> {
        let sent: serde_json::Value = serde_json::from_slice(frame).unwrap_or_default();
        let Some(id) = sent.get("id") else {
            return Ok(());
        };
        let id = match self.wrong_id {
            Some(wrong) if sent["method"] != "ping" => serde_json::json!(wrong),
            _ => id.clone(),
        };
        let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}});
        let at = if sent["method"] == "ping" {
            Instant::now()
        } else if self.drops {
            return Ok(());
        } else {
            Instant::now() + self.delay
        };
        self.out.push((at, answer.to_string().into_bytes()));
        self.out.sort_by_key(|(at, _)| *at);
        Ok(())
    }

    async fn recv(&mut self, deadline: Instant) -> Event {
        match self.out.first() {
            Some((at, _)) if *at <= deadline => {
                tokio::time::sleep_until(*at).await;
                Event::Frame(self.out.remove(0).1)
            }
            _ => {
                tokio::time::sleep_until(deadline).await;
                Event::TimedOut
            }
        }
    }

    fn dropped(&self) -> u64 {
        0
    }

    fn one_stream_each_way(&self) -> bool {
        true
    }
}

fn concurrent(delay: Duration, drops: bool) -> Driver<Concurrent> {
    let peer = Concurrent {
        delay,
        drops,
        wrong_id: None,
        out: Vec::new(),
    };
    let config = DriverConfig {
        answer_timeout: Duration::from_millis(1500),
        ..DriverConfig::default()
    };
    Driver::new(peer, config)
}

/// A request the peer dispatches to its handler may be answered after
/// the liveness request sent behind it (JSON-RPC 2.0 sets no order; a
/// server handling requests concurrently answers `ping` first): its
/// answer is waited for up to the answer timeout, not the grace, so
/// a slow handler on a loaded machine is never "unanswered" (server-
/// memory's `resources/read` was failed on one run, passed on the next).
#[tokio::test]
async fn a_dispatched_request_answered_after_the_liveness_answer_is_answered() {
    let delay = Duration::from_millis(400);
    let mut driver = concurrent(delay, false);
    let report = driver
        .probe(
            br#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"x"}}"#,
            true,
        )
        .await;
    assert!(report.answered(), "{:?}", report.frames);
    assert!(
        matches!(report.live, Live::Answered(_)),
        "{:?}",
        report.live
    );
    // Done at the answer, not at the answer timeout.
    assert!(
        report.took < Duration::from_millis(1200),
        "{:?}",
        report.took
    );
    // An answer under a wrong id ends the wait as well, whether it comes
    // before the liveness answer or after: it is the probe's, misnamed.
    for delay in [Duration::ZERO, delay] {
        let mut driver = concurrent(delay, false);
        driver.transport.wrong_id = Some(9_007_199_254_740_992);
        let report = driver
            .probe(
                br#"{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/list"}"#,
                true,
            )
            .await;
        assert_eq!(report.of(&Class::Stray).count(), 1, "{:?}", report.frames);
        assert!(
            report.took < Duration::from_millis(1200),
            "{:?}",
            report.took
        );
    }
}

/// What is never answered still ends: a dispatched request at the
/// answer timeout; a frame the peer cannot dispatch (refused while it
/// is read, in order) at the grace, as before, so a peer dropping
/// malformed frames costs no timeout per frame.
#[tokio::test]
async fn unanswered_probes_end_at_the_answer_timeout_or_the_grace() {
    let mut driver = concurrent(Duration::ZERO, true);
    let report = driver
        .probe(br#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#, true)
        .await;
    assert!(!report.answered());
    assert!(
        report.took >= Duration::from_millis(1400),
        "{:?}",
        report.took
    );
    for malformed in [
        &br#"{"jsonrpc":"2.0","id":true,"method":"tools/list"}"#[..],
        br#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#,
        br#"{"jsonrpc":"2.0","id":8,"method":"tools/list","params":[]}"#,
        br#"{"jsonrpc":"2.0","id":9,"method":"tools/list""#,
        br#"[{"jsonrpc":"2.0","id":10,"method":"tools/list"}]"#,
    ] {
        let report = driver.probe(malformed, true).await;
        assert!(!report.answered());
        assert!(
            report.took < Duration::from_millis(500),
            "{}: {:?}",
            String::from_utf8_lossy(malformed),
            report.took
        );
    }
}

/// A peer that answers its `hold`th request only once the next one
/// arrives (a loaded machine: the answer after the wait), then in order.
struct LateAnswer {
    hold: usize,
    pings: usize,
    held: Option<Vec<u8>>,
    out: std::collections::VecDeque<Vec<u8>>,
}

impl Transport for LateAnswer {
    async fn send(&mut self, frame: &[u8]) -> Result<(), SendError> {
        let sent: serde_json::Value = serde_json::from_slice(frame).unwrap();
        if let Some(id) = sent.get("id") {
            self.pings += 1;
            let pong = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}});
            let pong = pong.to_string().into_bytes();
            if self.pings == self.hold {
                self.held = Some(pong);
            } else {
                self.out.extend(self.held.take());
                self.out.push_back(pong);
            }
        }
        Ok(())
    }

    async fn recv(&mut self, deadline: Instant) -> Event {
        next_queued(&mut self.out, deadline).await
    }

    fn dropped(&self) -> u64 {
        0
    }

    fn one_stream_each_way(&self) -> bool {
        true
    }
}

/// The driver's own liveness request answered after its probe ended
/// is no answer to the next probe: it was server-everything's false
/// "the notification `notifications/cancelled` was answered" under
/// load (the late answer to the previous probe's second liveness
/// request, taken for a stray reply to the notification).
#[tokio::test]
async fn a_late_answer_to_the_drivers_own_request_is_nobody_elses() {
    let notification = br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#;
    let late = |hold| LateAnswer {
        hold,
        pings: 0,
        held: None,
        out: std::collections::VecDeque::new(),
    };
    // The second liveness request of a probe wanting no reply.
    let mut driver = Driver::new(late(2), DriverConfig::default());
    let first = driver.probe(notification, false).await;
    assert!(matches!(first.live, Live::Answered(_)), "{:?}", first.live);
    assert_theirs(&driver.probe(notification, false).await);
    // A request of the driver's own that timed out (a fixture's).
    let mut driver = Driver::new(late(1), DriverConfig::default());
    let timed_out = driver
        .request("ping", None, Duration::from_millis(100))
        .await;
    assert!(
        matches!(timed_out, Err(RequestError::TimedOut)),
        "{timed_out:?}"
    );
    assert_theirs(&driver.probe(notification, false).await);
}

fn assert_theirs(report: &ProbeReport) {
    let classes: Vec<&Class> = report.frames.iter().map(|f| &f.class).collect();
    assert!(
        classes.contains(&&Class::OtherExchange)
            && classes
                .iter()
                .all(|c| matches!(c, Class::LivenessAnswer | Class::OtherExchange)),
        "{classes:?}"
    );
    assert!(
        matches!(report.live, Live::Answered(_)),
        "{:?}",
        report.live
    );
}

/// A false finding once seen: a plain JSON-RPC server (or a 2026-07-28 one, which
/// has no `ping`) that stops answering breaks JSON-RPC 2.0 §5, not MCP's
/// ping rule, which its revision does not have.
#[test]
fn an_unanswered_liveness_request_breaks_the_revisions_own_rule() {
    use harness::rules::RuleId;
    for revision in Revision::ALL {
        let rule = liveness_rule(revision);
        assert!(rule.info().applies_to(revision), "{revision}: {rule}");
        let expected = match revision {
            Revision::JsonRpc2 | Revision::Mcp2026_07_28 => RuleId::JsonrpcResponseRequired,
            _ => RuleId::McpPingRespond,
        };
        assert_eq!(rule, expected, "{revision}");
    }
}

#[test]
fn frames_are_classified_against_the_probe() {
    let probe = vec![Id::int(1), Id::string("a")];
    let live = Id::int(7);
    let c = |b: &[u8]| classify(b, &probe, Some(&live));
    assert_eq!(
        c(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
        Class::ProbeAnswer
    );
    assert_eq!(
        c(br#"{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"x"}}"#),
        Class::ProbeAnswer
    );
    assert_eq!(
        c(br#"{"jsonrpc":"2.0","id":"1","result":{}}"#),
        Class::Stray
    );
    assert_eq!(
        c(br#"{"jsonrpc":"2.0","id":7,"result":{}}"#),
        Class::LivenessAnswer
    );
    assert_eq!(
        c(br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#),
        Class::NullIdError
    );
    assert_eq!(
        c(br#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"x"}}"#),
        Class::NullIdError
    );
    assert_eq!(
        c(br#"{"jsonrpc":"2.0","method":"notifications/message"}"#),
        Class::Unsolicited
    );
    assert_eq!(
        c(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
        Class::Unsolicited
    );
    assert_eq!(
        c(br#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#),
        Class::ProbeAnswer
    );
    assert_eq!(c(b"not json"), Class::Unreadable);
    assert_eq!(c(b""), Class::Unreadable);
    assert_eq!(
        classify(
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#,
            &[],
            None
        ),
        Class::NullIdError
    );
}

#[test]
fn probe_ids_come_from_requests_only() {
    let ids = request_ids(br#"[{"jsonrpc":"2.0","id":3,"method":"a"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":"x","result":1}]"#);
    assert_eq!(ids, vec![Id::int(3)]);
    assert!(request_ids(b"{oops").is_empty());
}

/// A peer answering each frame in its own exchange (as Streamable HTTP
/// answers each POST) that writes `first` on the probe's exchange, if
/// anything, and holds it open for ever: like a 2026-07-28 server given
/// `subscriptions/listen` (its acknowledgement, no result until teardown),
/// or one whose answer is still to come.
struct HeldOpen {
    first: Option<&'static [u8]>,
    exchanges: u64,
    out: std::collections::VecDeque<(u64, Vec<u8>)>,
    from: Option<u64>,
}

impl Transport for HeldOpen {
    async fn send(&mut self, frame: &[u8]) -> Result<(), SendError> {
        self.exchanges += 1;
        let sent: serde_json::Value = serde_json::from_slice(frame).unwrap();
        if sent["method"] == "ping" {
            let pong = serde_json::json!({"jsonrpc": "2.0", "id": sent["id"], "result": {}});
            self.out
                .push_back((self.exchanges, pong.to_string().into_bytes()));
        } else if let Some(first) = self.first {
            self.out.push_back((self.exchanges, first.to_vec()));
        }
        Ok(())
    }

    async fn recv(&mut self, deadline: Instant) -> Event {
        match self.out.pop_front() {
            Some((exchange, frame)) => {
                self.from = Some(exchange);
                Event::Frame(frame)
            }
            None => {
                tokio::time::sleep_until(deadline).await;
                Event::TimedOut
            }
        }
    }

    fn dropped(&self) -> u64 {
        0
    }

    fn sent_exchange(&self) -> Option<u64> {
        Some(self.exchanges)
    }

    fn received_from(&self) -> Option<u64> {
        self.from
    }

    fn exchange_open(&self, exchange: u64) -> bool {
        // The first exchange (the probe's) is held open for ever.
        exchange == 1
    }
}

/// A probe whose accepted answer is a stream held open ([`Wants::Stream`])
/// ends at the grace once its exchange has carried the stream's opening
/// notification: the exchange staying open is that stream, not an answer
/// still coming (a Python SDK server's `subscriptions/listen` cost a whole
/// answer timeout per run). Before it came (nothing yet, or another
/// notification first), the open exchange is still waited on up to the
/// answer timeout: an answer may still come, and silence is never
/// concluded early.
#[tokio::test]
async fn a_held_open_stream_ends_the_probe_at_the_grace_once_it_opened() {
    let config = DriverConfig {
        answer_timeout: Duration::from_secs(2),
        grace: Duration::from_millis(20),
        ..DriverConfig::default()
    };
    let listen = br#"{"jsonrpc":"2.0","id":4,"method":"subscriptions/listen","params":{"notifications":{"resourcesListChanged":true}}}"#;
    let ack: &'static [u8] = br#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":4}}}"#;
    let log: &'static [u8] = br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#;
    for first in [Some(ack), None, Some(log)] {
        let peer = HeldOpen {
            first,
            exchanges: 0,
            out: std::collections::VecDeque::new(),
            from: None,
        };
        let mut driver = Driver::new(peer, config.clone());
        let report = driver.probe_with(listen, Wants::Stream, true).await;
        assert!(matches!(report.live, Live::Answered(_)), "{report:?}");
        if first == Some(ack) {
            assert_eq!(report.of(&Class::Unsolicited).count(), 1, "{report:?}");
            assert!(
                report.took < Duration::from_millis(500),
                "the held-open stream had opened: waited {:?}",
                report.took
            );
        } else {
            assert!(
                report.took >= config.answer_timeout,
                "the stream never opened on the exchange: waited {:?}",
                report.took
            );
        }
    }
}

/// A session's ids are looked up in O(1): a fuzz session sends thousands of
/// requests under ids never used before (none is reused), and a list
/// scanned for each new id made every frame slower than the last (the
/// reference peer fuzzed at half the rate over 20 s). 30,000 fresh ids took
/// tens of seconds that way; here well under one.
#[test]
fn fresh_ids_stay_cheap_in_a_long_session() {
    let peer = Scripted {
        ordered: true,
        out: std::collections::VecDeque::new(),
        owed: None,
    };
    let mut driver = Driver::new(peer, DriverConfig::default());
    let started = std::time::Instant::now();
    let mut last = None;
    for _ in 0..30_000 {
        last = Some(driver.fresh_id());
    }
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(driver.used.contains(&last.unwrap()));
}
