//! §Resumability and Redelivery (2025-03-26 to 2025-11-25
//! basic/transports §Streamable HTTP): event ids are unique within a
//! session, and what is replayed after `Last-Event-ID` is that stream's own.
//! Read from the run's sessions and the GET stream `listening` opened.

use std::time::Duration;

use harness::rules::RuleId;
use harness::{Direction, Revision};
use serde_json::Value;

use super::{answered_ping, essence, is_response, plural, snippet, streamable, Filer, Target};
use crate::driver::Driver;
use crate::transcript::{Entry, Frame};
use crate::transport::http::GetStream;
use crate::transport::http::HttpFact;
use crate::transport::wire::Wire;

impl Filer {
    /// `mcp.http.event-id-unique` over each session's event ids.
    pub(super) fn event_ids(&mut self, sessions: &[Vec<String>]) {
        let total: usize = sessions.iter().map(Vec::len).sum();
        if total == 0 {
            self.not_observed(
                RuleId::McpHttpEventIdUnique,
                "no SSE event carried an id (event ids are MAY)".into(),
            );
            return;
        }
        let mut broken = Vec::new();
        for ids in sessions {
            let mut seen = std::collections::BTreeSet::new();
            for id in ids {
                if !seen.insert(id) && broken.len() < 8 {
                    broken.push(format!("event id {id:?} was sent twice within one session"));
                }
            }
        }
        let notes = vec![format!(
            "{total} event ids over {} sessions",
            sessions.len()
        )];
        self.verdict(RuleId::McpHttpEventIdUnique, broken, notes);
    }

    /// What was replayed when the GET stream was resumed at its first event
    /// id ([`resume`]): it must be that stream's own. A response is another
    /// stream's (a GET stream carries none), unless it answers a request
    /// the probe sent after the resumed stream opened: that one is no
    /// replay. A server request or progress notification that one of the
    /// session's POST answers delivered is another stream's too (by its id,
    /// or token and value, as the broadcast probe tells one message). Other
    /// notifications identical to one a POST answer delivered may be two
    /// messages, so they are noted, never judged.
    ///
    /// `facts` are the session's HTTP exchanges: a failure shows the POST
    /// that first delivered the message (found by its event id) and the
    /// resumed GET, with `Last-Event-ID`.
    pub(super) fn replay(&mut self, resumed: Resumed, posted: &[Vec<u8>], facts: &[HttpFact]) {
        let rule = RuleId::McpHttpReplaySameStream;
        let (last, resumed, live) = match resumed {
            Resumed::NoEventId => {
                return self.not_observed(
                    rule,
                    "the GET stream offered no event id to resume from (MAY)".into(),
                )
            }
            Resumed::Failed(why) => {
                return self.not_observed(rule, format!("the resumed GET: {why}"))
            }
            Resumed::Got { last, stream, live } => (last, stream, live),
        };
        if essence(resumed.content_type.as_deref()) != "text/event-stream" {
            let why = format!(
                "the GET with Last-Event-ID was answered {} with {}: no stream resumed (replay is MAY)",
                resumed.status,
                resumed.content_type.as_deref().unwrap_or("no Content-Type")
            );
            return self.not_observed(rule, why);
        }
        let posted: Vec<(String, &[u8])> = posted
            .iter()
            .filter_map(|frame| {
                let value = serde_json::from_slice::<Value>(frame).ok()?;
                Some((identity(&value)?, frame.as_slice()))
            })
            .collect();
        let mut broken = Vec::new();
        let mut notes = Vec::new();
        let mut replayed = 0usize;
        // The POST shown with the record, once one is found.
        let mut exhibited: Option<&HttpFact> = None;
        for event in &resumed.events {
            let value = serde_json::from_slice::<Value>(&event.data).ok();
            let answers_live = value
                .as_ref()
                .and_then(|v| v.get("id"))
                .is_some_and(|id| live.contains(id));
            if is_response(&event.data) && answers_live {
                notes.push(format!(
                    "the answer to the probe's own ping sent after the resume came on the resumed stream (no replay; not judged here): {}",
                    snippet(&event.data)
                ));
                continue;
            }
            replayed += 1;
            let delivered = value
                .as_ref()
                .and_then(identity)
                .is_some_and(|key| posted.iter().any(|(k, _)| *k == key));
            if !(is_response(&event.data) || delivered) {
                if notes.len() < 4 {
                    notes.push(format!("replayed: {}", snippet(&event.data)));
                }
                continue;
            }
            // Where it went first: the one POST whose stream carried its
            // event id (ids repeated across streams, which
            // `mcp.http.event-id-unique` judges, name no stream).
            let origin = event.id.as_ref().and_then(|id| {
                let mut carried = facts
                    .iter()
                    .filter(|f| f.method == "POST" && f.event_ids.contains(id));
                match (carried.next(), carried.next()) {
                    (Some(post), None) => Some(post),
                    _ => None,
                }
            });
            if exhibited.is_none() {
                if let Some(post) = origin {
                    self.exhibit([post]);
                    exhibited = Some(post);
                }
            }
            let first = match (origin, &event.id) {
                (Some(post), Some(id)) => {
                    let shown = if exhibited.is_some_and(|e| std::ptr::eq(e, post)) {
                        ", the POST shown"
                    } else {
                        ""
                    };
                    format!(" (its event id {id:?} was first sent on a POST's stream{shown})")
                }
                _ => String::new(),
            };
            broken.push(format!(
                "replayed after {last:?} on the resumed GET stream a message of another stream{first}: {}",
                snippet(&event.data)
            ));
        }
        if replayed == 0 {
            let mut why = format!("nothing was replayed after {last:?}");
            for note in &notes {
                why.push_str("; ");
                why.push_str(note);
            }
            return self.not_observed(rule, why);
        }
        notes.insert(
            0,
            format!(
                "resumed after {last:?}: {replayed} {} replayed",
                plural(replayed, "message", "messages")
            ),
        );
        broken.truncate(8);
        if !broken.is_empty() {
            // The resumed GET, with its Last-Event-ID, beside the POST.
            self.exhibit(facts.iter().rev().find(|f| f.method == "GET"));
        }
        self.verdict(rule, broken, notes);
    }
}

/// What makes a server message one message, for telling a replayed message
/// from another stream's: a request's id, a progress notification's token
/// and value ([`multiple_connections::identity`]).
fn identity(value: &Value) -> Option<String> {
    super::multiple_connections::identity(value)
}

/// What resuming the GET stream at its first event id got.
pub(super) enum Resumed {
    /// The stream offered no event id to resume from.
    NoEventId,
    /// The resumed GET got no response.
    Failed(String),
    /// The resumed GET's answer, after `last`, and the ids of the requests
    /// the probe sent once it was open (their answers are no replay).
    Got {
        last: String,
        stream: GetStream,
        live: Vec<Value>,
    },
}

/// Resumes the GET stream `first` at its first event id on `driver`'s
/// session, its GET answered within the answer timeout; judged by
/// [`Filer::replay`]. What the first stream carried after that id is owed
/// again, so while any is, the stream is read for `listen`. Otherwise the
/// replay is what the server holds when it takes the GET ("replay messages
/// that would have been sent after the last event ID", §Resumability and
/// Redelivery), and the stream is read until a `ping` sent once the GET was
/// answered is answered (and the grace), or for `listen` if that is sooner.
pub(super) async fn resume(
    driver: &mut Driver<Wire>,
    revision: Revision,
    target: &Target<'_>,
    first: &GetStream,
    listen: Duration,
) -> Resumed {
    let Some(at) = first.events.iter().position(|e| e.id.is_some()) else {
        return Resumed::NoEventId;
    };
    let last = first.events[at].id.clone().unwrap_or_default();
    let owed = first.events.len() - at - 1;
    let opened = streamable(driver)
        .open_get_stream(Some(&last), target.driver.answer_timeout)
        .await;
    let open = match opened {
        Ok(open) => open,
        Err(why) => return Resumed::Failed(why),
    };
    let before = driver.log().len();
    let stream = if owed > 0 {
        open.read_within(tokio::time::sleep(listen)).await
    } else {
        let window = async {
            tokio::select! {
                () = tokio::time::sleep(listen) => {}
                () = answered_ping(driver, revision, target) => {}
            }
        };
        open.read_within(window).await
    };
    let live = driver.log()[before.min(driver.log().len())..]
        .iter()
        .filter_map(|entry| match entry {
            Entry::Frame(Frame {
                from: Direction::ClientToServer,
                bytes,
                ..
            }) => serde_json::from_slice::<Value>(bytes)
                .ok()?
                .get("id")
                .cloned(),
            _ => None,
        })
        .collect();
    Resumed::Got { last, stream, live }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::http::StreamEvent;
    use crate::transport::{HttpKind, Kind};
    use harness::Outcome;

    const CHANGED: &str = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
    const ROOTS: &str = r#"{"jsonrpc":"2.0","id":"s1","method":"roots/list"}"#;

    /// The outcome of the replay rule's one record, and its text.
    fn replayed(events: &[&str], posted: &[&str], live: &[Value]) -> (Outcome, String) {
        let mut judge = Filer::new(Revision::Mcp2025_11_25, Kind::Http(HttpKind::Streamable));
        let stream = GetStream {
            status: 200,
            content_type: Some("text/event-stream".into()),
            events: events
                .iter()
                .map(|data| StreamEvent {
                    id: None,
                    data: data.as_bytes().to_vec(),
                })
                .collect(),
        };
        let resumed = Resumed::Got {
            last: "g1".into(),
            stream,
            live: live.to_vec(),
        };
        let posted: Vec<Vec<u8>> = posted.iter().map(|p| p.as_bytes().to_vec()).collect();
        judge.replay(resumed, &posted, &[]);
        assert_eq!(judge.records.len(), 1);
        let record = &judge.records[0];
        (record.outcome.clone(), format!("{record:?}"))
    }

    /// A response replayed on a resumed GET stream is another stream's
    /// (server-everything's store replays the probe's earlier ping answer),
    /// but the answer to a ping the probe sent after the resumed stream
    /// opened is a live message, no replay.
    #[test]
    fn a_replayed_response_is_another_streams_unless_it_answers_a_later_ping() {
        let earlier = r#"{"jsonrpc":"2.0","id":7,"result":{}}"#;
        let (outcome, text) = replayed(&[earlier], &[earlier], &[serde_json::json!(9)]);
        assert_eq!(outcome, Outcome::Fail, "{text}");
        let later = r#"{"jsonrpc":"2.0","id":9,"result":{}}"#;
        let (outcome, text) = replayed(&[later], &[], &[serde_json::json!(9)]);
        assert!(matches!(outcome, Outcome::NotObserved { .. }), "{text}");
        assert!(text.contains("no replay"), "{text}");
        let (outcome, text) = replayed(&[later, CHANGED], &[], &[serde_json::json!(9)]);
        assert_eq!(outcome, Outcome::Pass, "{text}");
    }

    /// A server request a POST answer delivered, replayed on the GET, is
    /// one message on two streams; a notification identical to one a POST
    /// answer delivered may be a second message, so it is never a failure.
    #[test]
    fn a_replayed_request_is_judged_by_its_id_and_an_identical_notification_never() {
        let (outcome, text) = replayed(&[ROOTS], &[ROOTS], &[]);
        assert_eq!(outcome, Outcome::Fail, "{text}");
        let (outcome, text) = replayed(&[CHANGED], &[CHANGED], &[]);
        assert_eq!(outcome, Outcome::Pass, "{text}");
        let (outcome, text) = replayed(&[ROOTS], &[], &[]);
        assert_eq!(outcome, Outcome::Pass, "{text}");
    }
}
