//! §Resumability and Redelivery (2025-03-26 to 2025-11-25
//! basic/transports §Streamable HTTP): event ids are unique within a
//! session, and what is replayed after `Last-Event-ID` is that stream's own.
//! Read from the run's sessions and the GET stream `listening` opened.

use std::time::Duration;

use harness::rules::RuleId;
use harness::Revision;

use super::{answered_ping, essence, is_response, snippet, streamable, Judge, Target};
use crate::driver::Driver;
use crate::runner::wire::Wire;
use crate::transport::http::GetStream;

impl Judge {
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
    /// id ([`resume`]): it must be that stream's own (a response, or a
    /// message one of the session's POST answers delivered, is another
    /// stream's).
    pub(super) fn replay(&mut self, resumed: Resumed, posted: &[Vec<u8>]) {
        let rule = RuleId::McpHttpReplaySameStream;
        let (last, resumed) = match resumed {
            Resumed::NoEventId => {
                return self.not_observed(
                    rule,
                    "the GET stream offered no event id to resume from (MAY)".into(),
                )
            }
            Resumed::Failed(why) => {
                return self.not_observed(rule, format!("the resumed GET: {why}"))
            }
            Resumed::Got { last, stream } => (last, stream),
        };
        if essence(resumed.content_type.as_deref()) != "text/event-stream" {
            let why = format!(
                "the GET with Last-Event-ID was answered {} with {}: no stream resumed (replay is MAY)",
                resumed.status,
                resumed.content_type.as_deref().unwrap_or("no Content-Type")
            );
            return self.not_observed(rule, why);
        }
        if resumed.events.is_empty() {
            return self.not_observed(rule, format!("nothing was replayed after {last:?}"));
        }
        let broken: Vec<String> = resumed
            .events
            .iter()
            .filter(|e| is_response(&e.data) || posted.contains(&e.data))
            .map(|e| {
                format!(
                    "replayed after {last:?} a message of another stream: {}",
                    snippet(&e.data)
                )
            })
            .collect();
        let notes = vec![format!(
            "resumed after {last:?}: {} messages replayed",
            resumed.events.len()
        )];
        self.verdict(rule, broken, notes);
    }
}

/// What resuming the GET stream at its first event id got.
pub(super) enum Resumed {
    /// The stream offered no event id to resume from.
    NoEventId,
    /// The resumed GET got no response.
    Failed(String),
    /// The resumed GET's answer, after `last`.
    Got { last: String, stream: GetStream },
}

/// Resumes the GET stream `first` at its first event id on `driver`'s
/// session, its GET answered within the answer timeout; judged by
/// [`Judge::replay`]. The replay is what the server holds when it takes
/// the GET ("replay messages that would have been sent after the last
/// event ID", §Resumability and Redelivery), so the stream is read until
/// a `ping` sent once the GET was answered is answered, or for `listen`
/// if that is sooner: the server has taken the GET by then, and what it
/// sends later is no replay.
pub(super) async fn resume(
    driver: &mut Driver<Wire>,
    revision: Revision,
    target: &Target<'_>,
    first: &GetStream,
    listen: Duration,
) -> Resumed {
    let Some(last) = first.events.iter().find_map(|e| e.id.clone()) else {
        return Resumed::NoEventId;
    };
    let opened = streamable(driver)
        .open_get_stream(Some(&last), target.driver.answer_timeout)
        .await;
    match opened {
        Ok(open) => {
            let window = async {
                tokio::select! {
                    () = tokio::time::sleep(listen) => {}
                    () = answered_ping(driver, revision, target) => {}
                }
            };
            let stream = open.read_within(window).await;
            Resumed::Got { last, stream }
        }
        Err(why) => Resumed::Failed(why),
    }
}
