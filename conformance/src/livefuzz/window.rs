//! A window of frames sent back to back and followed by one liveness `ping`,
//! and the answers that came back attributed to the frames they answer.
//!
//! One ping per window instead of one per frame is what makes a fuzz run fast
//! (the peer's round trip is paid once per window). It is sound for the same
//! reason one ping per frame is: a peer reads its input in order, so once the
//! ping is answered everything the window was going to get has been written
//! (MCP 2025-11-25, basic/utilities/ping: the receiver "MUST respond
//! promptly"). What it loses is *whose* answer a frame is when the id cannot
//! say: an error with `"id": null`, a response under an id nobody sent, two
//! frames of the window with one id and not one answer each. Such a window is
//! [`Attribution::Ambiguous`], and the caller sends it again frame by frame,
//! each with its own ping ([`super::peer::Live::exchange`]).

use std::collections::HashMap;
use std::time::Duration;

use harness::ir::{Frame, Message};
use harness::{lift, Id};

use super::invariant::{expect, Expect};
use crate::driver::{request_ids, Class, Live, ProbeReport, Received};

pub use crate::driver::{Bucket, IdHistory};

/// What a window observed, before attribution.
#[derive(Debug, Clone, Default)]
pub struct Observed {
    /// Every frame received, in order, the liveness answer included.
    pub frames: Vec<Received>,
    /// The liveness check's end.
    pub live: Option<Live>,
    /// Frames the transport dropped meanwhile.
    pub transport_dropped: u64,
    /// Why the window cannot be judged as a whole even if every answer is
    /// in (over HTTP: an exchange that was not a plain 2xx).
    pub unclear: Option<&'static str>,
}

/// The answers of a window, frame by frame, or why they cannot be told apart.
#[derive(Debug)]
pub enum Attribution {
    /// One report per frame, as if each had been probed on its own.
    Clear(Vec<ProbeReport>),
    /// Whose answer some frame is cannot be told: probe frame by frame.
    Ambiguous(&'static str),
}

/// The ids a received response carries: one, or a batch's; `None` when it
/// is not all responses (the peer's own request or notification).
fn response_ids(frame: &Frame<'_>) -> Option<Vec<Option<Id<'static>>>> {
    frame
        .messages()
        .iter()
        .map(|m| match m {
            Message::Success(_) | Message::Error(_) => Some(m.id().map(|i| i.clone().into_owned())),
            _ => None,
        })
        .collect()
}

/// Attributes what a window of `frames` observed, the liveness request
/// carrying `liveness_id`.
#[must_use]
pub fn attribute(frames: &[Vec<u8>], liveness_id: &Id<'_>, observed: Observed) -> Attribution {
    let Some(live) = observed.live.clone() else {
        return Attribution::Ambiguous("no liveness verdict");
    };
    if !matches!(live, Live::Answered(_)) {
        return Attribution::Ambiguous("the peer did not stay alive");
    }
    if let Some(why) = observed.unclear {
        return Attribution::Ambiguous(why);
    }
    if observed.transport_dropped > 0 {
        return Attribution::Ambiguous("the transport dropped frames");
    }
    // Which frames carry each id, in window order.
    let mut carriers: HashMap<Bucket, Vec<(Id<'static>, usize)>> = HashMap::new();
    for (i, frame) in frames.iter().enumerate() {
        for id in request_ids(frame) {
            carriers.entry(Bucket::of(&id)).or_default().push((id, i));
        }
    }
    let mut per_frame: Vec<Vec<Received>> = vec![Vec::new(); frames.len()];
    // Answers to an id, in arrival order: assigned to its carriers in order
    // once their counts are known to agree.
    let mut by_id: HashMap<usize, (Vec<usize>, Vec<Received>)> = HashMap::new();
    let mut null_errors: Vec<Received> = Vec::new();
    let mut rest: Vec<Received> = Vec::new();
    let last = frames.len().saturating_sub(1);
    for received in observed.frames {
        // A late answer to a request of an earlier window (marked so by the
        // session, which knows what it still owes): no frame's here.
        if received.class == Class::OtherExchange {
            rest.push(received);
            continue;
        }
        if matches!(received.class, Class::TooLong(_)) {
            return Attribution::Ambiguous("a line too long to read");
        }
        let Ok(lifted) = lift(&received.bytes) else {
            return Attribution::Ambiguous("an unreadable line");
        };
        let Some(ids) = response_ids(&lifted) else {
            // The peer's own request or notification: no frame's answer; it
            // is judged as a peer frame all the same.
            rest.push(Received {
                class: Class::Unsolicited,
                ..received
            });
            continue;
        };
        if matches!(lifted, Frame::Single(_)) {
            match &ids[0] {
                Some(id) if id.matches(liveness_id) => {
                    rest.push(received);
                    continue;
                }
                None | Some(Id::Null) if !matches!(lifted.messages()[0], Message::Success(_)) => {
                    null_errors.push(Received {
                        class: Class::NullIdError,
                        ..received
                    });
                    continue;
                }
                _ => {}
            }
        }
        // Whose is it? Every element's id must name the carriers of one id
        // (one frame, or several frames sharing it).
        let mut owner: Option<Vec<usize>> = None;
        for id in ids.iter().flatten() {
            let slots: Vec<usize> = carriers
                .get(&Bucket::of(id))
                .map(|list| {
                    list.iter()
                        .filter(|(c, _)| c.matches(id))
                        .map(|(_, f)| *f)
                        .collect()
                })
                .unwrap_or_default();
            if slots.is_empty() {
                continue;
            }
            match &owner {
                None => owner = Some(slots),
                Some(o) if *o == slots => {}
                Some(_) => return Attribution::Ambiguous("a batch answering several frames"),
            }
        }
        let Some(slots) = owner else {
            return Attribution::Ambiguous("a response to an id the window did not send");
        };
        by_id
            .entry(slots[0])
            .or_insert_with(|| (slots, Vec::new()))
            .1
            .push(Received {
                class: Class::ProbeAnswer,
                ..received
            });
    }
    for (slots, answers) in by_id.into_values() {
        let mut distinct = slots.clone();
        distinct.dedup();
        if distinct.len() == 1 {
            // One frame carries the id (a batch perhaps twice): all its
            // answers are that frame's, and the judge counts them.
            per_frame[distinct[0]].extend(answers);
        } else if answers.len() == slots.len() {
            // Frames sharing an id, one answer each: in order.
            for (slot, answer) in slots.iter().zip(answers) {
                per_frame[*slot].push(answer);
            }
        } else {
            return Attribution::Ambiguous("frames sharing an id, not one answer each");
        }
    }
    // An error with `"id": null` answers a frame that could not be read or
    // whose id is unusable, and may answer one the spec leaves to the peer
    // (a duplicate name): either every such frame got one, in order, or
    // every frame that needs one did and none of the others were sent.
    let needs: Vec<usize> = (0..frames.len())
        .filter(|&i| match expect(&frames[i]) {
            Expect::Error(_) => true,
            Expect::Answer => per_frame[i].is_empty(),
            Expect::Nothing | Expect::Unsettled => false,
        })
        .collect();
    let may: Vec<usize> = (0..frames.len())
        .filter(|&i| needs.contains(&i) || expect(&frames[i]) == Expect::Unsettled)
        .collect();
    if !null_errors.is_empty() {
        let slots = if null_errors.len() == may.len() {
            &may
        } else if null_errors.len() == needs.len() && may.len() == needs.len() {
            &needs
        } else {
            return Attribution::Ambiguous("null-id errors not one per frame that may get one");
        };
        for (slot, error) in slots.iter().zip(null_errors) {
            per_frame[*slot].push(error);
        }
    }
    if let Some(slot) = per_frame.get_mut(last) {
        slot.extend(rest);
    }
    let reports = frames
        .iter()
        .zip(per_frame)
        .map(|(frame, received)| ProbeReport {
            expects_answer: expect(frame) != Expect::Nothing,
            liveness_id: liveness_id.clone().into_owned(),
            live: live.clone(),
            frames: received,
            frames_over_cap: 0,
            transport_dropped: 0,
            took: Duration::ZERO,
            reused_ids: Vec::new(),
            exchange: None,
        })
        .collect();
    Attribution::Clear(reports)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A malformed frame whose id a server can read uses
    /// that id, so it never shares a window with a request of the same id.
    #[test]
    fn a_malformed_frames_readable_id_is_one_of_its_ids() {
        assert_eq!(
            request_ids(br#"{"jsonrpc":"1.0","id":5,"method":"x"}"#),
            vec![Id::int(5)]
        );
        assert!(request_ids(b"{not json").is_empty());
    }

    fn got(frames: &[&str]) -> Observed {
        Observed {
            frames: frames
                .iter()
                .map(|f| Received {
                    t: Duration::ZERO,
                    bytes: f.as_bytes().to_vec(),
                    class: Class::Unsolicited,
                })
                .collect(),
            live: Some(Live::Answered(Duration::ZERO)),
            transport_dropped: 0,
            unclear: None,
        }
    }

    fn window(frames: &[&str]) -> Vec<Vec<u8>> {
        frames.iter().map(|f| f.as_bytes().to_vec()).collect()
    }

    const PING: &str = r#"{"jsonrpc":"2.0","id":99,"result":{}}"#;

    #[test]
    fn answers_go_to_the_frames_whose_ids_they_carry() {
        let frames = window(&[
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            "{not json",
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":"1","method":"ping"}"#,
        ]);
        let observed = got(&[
            r#"{"jsonrpc":"2.0","id":"1","result":{}}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            PING,
        ]);
        let Attribution::Clear(reports) = attribute(&frames, &Id::int(99), observed) else {
            panic!("attributable");
        };
        let texts = |i: usize| -> Vec<String> {
            reports[i]
                .frames
                .iter()
                .map(|r| String::from_utf8_lossy(&r.bytes).into_owned())
                .collect()
        };
        assert_eq!(texts(0), [r#"{"jsonrpc":"2.0","id":1,"result":{}}"#]);
        assert!(texts(1)[0].contains("-32700"));
        assert!(texts(2).is_empty(), "the notification got nothing");
        assert_eq!(texts(3)[0], r#"{"jsonrpc":"2.0","id":"1","result":{}}"#);
        assert_eq!(texts(3)[1], PING, "the ping's answer is judged once, last");
    }

    #[test]
    fn a_null_id_error_that_could_be_anyones_is_ambiguous() {
        // Two unreadable frames, one error: which one was dropped?
        let frames = window(&["{not json", "[]"]);
        let observed = got(&[
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#,
            PING,
        ]);
        assert!(matches!(
            attribute(&frames, &Id::int(99), observed),
            Attribution::Ambiguous(_)
        ));
        // None at all is clear: both were dropped.
        let observed = got(&[PING]);
        let Attribution::Clear(reports) = attribute(&frames, &Id::int(99), observed) else {
            panic!("both dropped is clear");
        };
        assert!(reports[0].frames.is_empty());
    }

    #[test]
    fn a_dead_peer_or_an_unknown_id_is_ambiguous() {
        let frames = window(&[r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#]);
        let mut observed = got(&[r#"{"jsonrpc":"2.0","id":7,"result":{}}"#, PING]);
        assert!(matches!(
            attribute(&frames, &Id::int(99), observed.clone()),
            Attribution::Ambiguous("a response to an id the window did not send")
        ));
        observed.live = Some(Live::Unresponsive);
        assert!(matches!(
            attribute(&frames, &Id::int(99), observed),
            Attribution::Ambiguous(_)
        ));
    }

    #[test]
    fn ids_that_match_share_a_bucket() {
        let n = |t: &str| Id::Number(std::borrow::Cow::Owned(t.to_owned()));
        for (a, b) in [("1", "1.0"), ("100", "1e2"), ("-0", "0"), ("10e-1", "1")] {
            assert!(n(a).matches(&n(b)));
            assert_eq!(Bucket::of(&n(a)), Bucket::of(&n(b)), "{a} {b}");
        }
        let mut history = IdHistory::default();
        assert!(!history.insert(&n("9007199254740993")));
        assert!(!history.contains(&n("9007199254740992")));
        assert!(history.contains(&n("9007199254740993")));
        assert!(!history.contains(&Id::string("9007199254740993")));
        assert!(history.insert(&n("9007199254740993")));
    }
}
