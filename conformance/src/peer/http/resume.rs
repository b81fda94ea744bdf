//! Event ids and replay for the reference peer's Streamable HTTP SSE streams
//! (2025-03-26 to 2025-11-25 basic/transports §Resumability and Redelivery).
//!
//! Every event the peer sends on a session's streams gets an id from the
//! session's one counter, so ids are "globally unique across all streams
//! within that session" (MUST), and the id names its stream (`<stream>-<n>`:
//! 2025-11-25 "Event IDs SHOULD encode sufficient information to identify the
//! originating stream"). A GET with `Last-Event-ID` replays what came after
//! that id *on its own stream* only ("MUST NOT replay messages that would
//! have been delivered on a different stream"), from a bounded buffer: the
//! oldest events are forgotten first, so a very late resume replays less,
//! never more.

use std::collections::VecDeque;

/// How many sent events a session keeps for replay.
const REPLAY_CAP: usize = 256;

/// One session's streams.
#[derive(Debug, Default)]
pub(super) struct Log {
    /// The last stream number handed out.
    streams: u64,
    /// The last event number handed out (session-wide).
    events: u64,
    sent: VecDeque<Sent>,
}

#[derive(Debug)]
struct Sent {
    id: String,
    stream: u64,
    data: String,
}

impl Log {
    /// A new stream's number.
    pub fn open(&mut self) -> u64 {
        self.streams += 1;
        self.streams
    }

    /// The id of the next event on `stream`, with `data` kept for replay
    /// (an empty `data` is a priming event: nothing to replay).
    pub fn event(&mut self, stream: u64, data: &str) -> String {
        self.events += 1;
        let id = format!("{stream}-{}", self.events);
        if !data.is_empty() {
            if self.sent.len() == REPLAY_CAP {
                self.sent.pop_front();
            }
            self.sent.push_back(Sent {
                id: id.clone(),
                stream,
                data: data.to_owned(),
            });
        }
        id
    }

    /// The `(id, data)` of every kept event sent after `last` on the stream
    /// `last` belongs to; `None` when `last` names no stream of this session.
    pub fn replay(&self, last: &str) -> Option<Vec<(String, String)>> {
        let (stream, number) = last.split_once('-')?;
        let stream: u64 = stream.parse().ok()?;
        let number: u64 = number.parse().ok()?;
        if stream == 0 || stream > self.streams || number > self.events {
            return None;
        }
        Some(
            self.sent
                .iter()
                .filter(|s| s.stream == stream)
                .filter(|s| {
                    s.id.split_once('-')
                        .and_then(|(_, n)| n.parse::<u64>().ok())
                        .is_some_and(|n| n > number)
                })
                .map(|s| (s.id.clone(), s.data.clone()))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_per_session_and_replay_keeps_to_its_stream() {
        let mut log = Log::default();
        let a = log.open();
        let b = log.open();
        let a1 = log.event(a, "a1");
        let b1 = log.event(b, "b1");
        let a2 = log.event(a, "a2");
        assert_ne!(a1, b1);
        assert_ne!(a1, a2);
        let replayed = log.replay(&a1).unwrap();
        assert_eq!(replayed, [(a2, "a2".to_owned())]);
        assert!(log.replay(&b1).unwrap().is_empty());
        assert!(log.replay("9-1").is_none());
        assert!(log.replay("junk").is_none());
    }

    #[test]
    fn the_buffer_is_bounded() {
        let mut log = Log::default();
        let s = log.open();
        let first = log.event(s, "x");
        for _ in 0..REPLAY_CAP * 2 {
            log.event(s, "y");
        }
        assert_eq!(log.replay(&first).unwrap().len(), REPLAY_CAP);
    }
}
