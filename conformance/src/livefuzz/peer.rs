//! One live session with the peer under test: spawned over stdio, opened with
//! the same handshake `wirecheck run` makes ([`Driver::handshake`]), then fed
//! one frame at a time, each followed by a liveness `ping` ([`Driver::probe`]).
//!
//! The ping is what makes a fuzz run fast and its verdicts sound together: a
//! peer reads its input in order, so once the ping is answered everything the
//! frame was going to get has been written (MCP 2025-11-25, basic/utilities/ping:
//! the receiver "MUST respond promptly"). A peer that answers out of order can
//! still fool one probe; every finding is therefore reproduced against a fresh
//! peer with a longer grace before it is reported ([`super::minimize`]).

use std::time::Duration;

use harness::ir::{Id, Raw};
use harness::Revision;

use tokio::time::Instant;

use super::window::{IdHistory, Observed};
use crate::driver::{
    Class, Driver, DriverConfig, Live as Verdict, Liveness, ProbeReport, Received, WireEvent,
};
use crate::transport::stdio::{PeerCommand, StdioPeer};
use crate::transport::{Event, Limits, Transport};

/// The first id the driver allocates: far above the ids fuzzed frames carry and
/// below 2^53, so no peer rounds it (as `wirecheck run` does).
pub const FIRST_ID: i64 = 1 << 40;

/// How a session waits.
#[derive(Debug, Clone)]
pub struct Waits {
    /// The longest wait for any answer (the liveness ping's included).
    pub answer_timeout: Duration,
    /// How long to listen after the ping is answered when the frame's own
    /// answer has not come: zero while fuzzing (speed), longer when a finding
    /// is reproduced (soundness).
    pub grace: Duration,
}

/// A running peer with an open session.
#[derive(Debug)]
pub struct Live {
    driver: Driver<StdioPeer>,
    /// Every request id a window sent, so no ping of ours reuses one.
    history: IdHistory,
    answer_timeout: Duration,
}

impl Live {
    /// Starts `command` and opens a session for `revision`.
    ///
    /// # Errors
    /// The peer does not start, or the handshake does not complete.
    pub async fn start(
        command: &PeerCommand,
        revision: Revision,
        waits: &Waits,
        limits: Limits,
    ) -> Result<Live, String> {
        let transport = StdioPeer::spawn(command, limits).map_err(|e| e.to_string())?;
        let config = DriverConfig {
            answer_timeout: waits.answer_timeout,
            grace: waits.grace,
            liveness: Liveness::Ping,
            first_id: FIRST_ID,
            // A fuzz run sends millions of frames: the log is per finding,
            // kept by the caller, so the driver's own stays small.
            max_log_frames: 4096,
            ..DriverConfig::default()
        };
        let mut driver = Driver::new(transport, config);
        driver
            .handshake(revision)
            .await
            .map_err(|e| format!("{revision}: {e}"))?;
        Ok(Live {
            driver,
            history: IdHistory::default(),
            answer_timeout: waits.answer_timeout,
        })
    }

    /// Sends `frame` and a ping, and returns what came back.
    pub async fn exchange(&mut self, frame: &[u8], expects_answer: bool) -> ProbeReport {
        self.driver.probe(frame, expects_answer).await
    }

    /// Sends `frames` back to back, then one liveness ping, and returns the
    /// ping's id with everything received until it was answered (or the
    /// peer died, or the answer timeout passed). Bypasses the driver's wire
    /// log: a window's frames are kept by the caller.
    pub async fn window(&mut self, frames: &[Vec<u8>]) -> (Id<'static>, Observed) {
        for frame in frames {
            for id in request_ids(frame) {
                self.history.insert(&id);
            }
        }
        let (liveness_id, ping) = loop {
            let (id, ping) = self.driver.liveness_request();
            if !self.history.contains(&id) {
                break (id, ping);
            }
        };
        let started = Instant::now();
        let dropped_before = self.driver.transport().dropped();
        let mut observed = Observed::default();
        let transport = self.driver.transport_mut();
        for frame in frames.iter().chain(std::iter::once(&ping)) {
            if let Err(e) = transport.send(frame).await {
                observed.live = Some(Verdict::SendFailed(e));
                break;
            }
        }
        let deadline = Instant::now() + self.answer_timeout;
        loop {
            let t = started.elapsed();
            match transport.recv(deadline).await {
                Event::Frame(bytes) => {
                    let liveness = harness::client::read_reply(&liveness_id, &bytes).is_ok();
                    observed.frames.push(Received {
                        t,
                        bytes,
                        class: if liveness {
                            Class::LivenessAnswer
                        } else {
                            Class::Unsolicited
                        },
                    });
                    if liveness && observed.live.is_none() {
                        observed.live = Some(Verdict::Answered(t));
                        break;
                    }
                }
                Event::TooLong { bytes_skipped } => observed.frames.push(Received {
                    t,
                    bytes: Vec::new(),
                    class: Class::TooLong(bytes_skipped),
                }),
                Event::Closed { status, leaky } => {
                    if observed.live.is_none() {
                        observed.live = Some(Verdict::Closed {
                            status: status.map(|s| s.to_string()),
                            leaky,
                        });
                    }
                    break;
                }
                Event::TimedOut => {
                    if observed.live.is_none() {
                        observed.live = Some(Verdict::Unresponsive);
                    }
                    break;
                }
            }
        }
        observed.transport_dropped = transport.dropped() - dropped_before;
        (liveness_id, observed)
    }

    /// Tells the peer to stop working on `id` (MCP basic/utilities/cancellation:
    /// "either side can send a cancellation notification"), so a request that
    /// timed out does not keep running.
    pub async fn cancel(&mut self, id: &Id<'_>) {
        let Ok(null) = Raw::parse("null") else { return };
        let text = String::from_utf8_lossy(&harness::lower_to_vec(&harness::Frame::Single(
            harness::Message::Success(harness::ir::Success::new(
                id.clone().into_owned(),
                null.into_owned(),
            )),
        )))
        .into_owned();
        // The id's exact spelling, cut from a lowered frame rather than
        // re-serialized, so a big integer is sent back as it came.
        let Some(raw_id) = id_text(&text) else { return };
        let params = format!(r#"{{"requestId":{raw_id},"reason":"wirecheck: timed out"}}"#);
        if let Ok(raw) = Raw::parse(&params) {
            let _ = self
                .driver
                .notify("notifications/cancelled", Some(raw.into_owned()))
                .await;
        }
    }

    /// The peer's resident memory in KiB, from `/proc/<pid>/status` (`VmRSS`).
    #[must_use]
    pub fn rss_kib(&self) -> Option<u64> {
        let pid = self.driver.transport().pid()?;
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
    }

    /// The wire log since the session opened (handshake included).
    #[must_use]
    pub fn log(&self) -> &[WireEvent] {
        self.driver.log()
    }

    /// Ends the peer (close its input, SIGTERM, SIGKILL: the transport's way).
    pub async fn stop(self) -> Vec<WireEvent> {
        let (transport, log) = self.driver.into_parts();
        transport.shutdown(Duration::from_millis(200)).await;
        log
    }
}

/// The ids of the requests in `frame` (one, or a batch's), if it lifts.
fn request_ids(frame: &[u8]) -> Vec<Id<'static>> {
    let Ok(lifted) = harness::lift(frame) else {
        return Vec::new();
    };
    lifted
        .messages()
        .iter()
        .filter(|m| matches!(m, harness::Message::Request(_)))
        .filter_map(|m| m.id().map(|id| id.clone().into_owned()))
        .collect()
}

/// The id member's text in a lowered response `{"jsonrpc":"2.0","id":…,"result":null}`.
fn id_text(lowered: &str) -> Option<&str> {
    let start = lowered.find("\"id\":")? + 5;
    let end = lowered.rfind(",\"result\"")?;
    lowered.get(start..end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_is_cut_from_the_lowered_frame_as_spelled() {
        assert_eq!(
            id_text(r#"{"jsonrpc":"2.0","id":9007199254740993,"result":null}"#),
            Some("9007199254740993")
        );
        assert_eq!(
            id_text(r#"{"jsonrpc":"2.0","id":"a,\"result\"","result":null}"#),
            Some(r#""a,\"result\"""#)
        );
    }
}
