//! The judge: whether what a peer sent back for a vector's frame conforms.
//!
//! Pure (no I/O), so the golden-vector test and the live runner (`wirecheck
//! run`) share one judge: the test hands it the reply a vector records, the
//! runner the frames a live peer actually sent, or the reason nothing came.
//! The verdict is the closed [`harness::Outcome`], with the details a report
//! shows: each frame's own violations, the exchange's, and where the reply
//! departs from the answer the vector describes.
//!
//! Only the rule model decides the verdict: every violation names a rule, its
//! level and where the spec writes it, so a MUST broken fails and a SHOULD
//! broken warns. The vector's `answer` (codes, pinned id, members) is what a
//! conforming peer sends, but a departure from it is a detail beside the
//! verdict, never the verdict: the answer does not say how binding each part
//! is (JSON-RPC 2.0 §6 only says a batch reply *should* be an array, and a
//! 2026-07-28 `tools/call` may answer `input_required` instead of `content`),
//! and the rules that do say are already in the model.
//!
//! The judge never consults a baseline: [`crate::baseline::Baseline::apply`]
//! turns a listed failure into a known one afterwards, the same way for every
//! caller.

mod answer;
mod audit;

use harness::rules::{self, Violation};
use harness::{lift, Direction, Message, Outcome, Profile};

pub use answer::{answer_codes, answer_fits, reply_fits};
pub use audit::{audit, Audit};

use crate::vectors::{Answer, Vector};

/// Why no frame came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Silence {
    /// The peer stayed open and sent nothing before the wait ended.
    TimedOut,
    /// The peer closed its side (exited, hung up) before answering.
    PeerClosed,
}

impl Silence {
    /// In words, for reasons and reports.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Silence::TimedOut => "the peer sent nothing before the wait ended",
            Silence::PeerClosed => "the peer closed before answering",
        }
    }
}

/// What came back after the vector's frame was sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Observed {
    /// The frames the peer sent, raw wire bytes, in arrival order: the reply
    /// and anything the peer sent of its own accord (a log notification).
    Frames(Vec<Vec<u8>>),
    /// Nothing, and why.
    Silence(Silence),
}

/// One frame the peer sent, judged on its own (as sent by the peer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameVerdict {
    /// The wire bytes.
    pub bytes: Vec<u8>,
    /// Whether the judge took it for the reply to the vector's frame.
    pub is_reply: bool,
    /// `validate` under the peer's profile.
    pub violations: Vec<Violation>,
}

/// The judge's verdict on a peer's reply, with its grounds.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    /// The verdict: fail on a mandatory violation, warning when only advisory
    /// rules broke, pass otherwise; not observed when the peer closed where
    /// silence was the expected answer.
    pub outcome: Outcome,
    /// Each frame the peer sent, judged on its own.
    pub frames: Vec<FrameVerdict>,
    /// The exchange's violations (`validate_reply`: the id echoed, a request
    /// answered, a notification not), when the vector's frame lifts and the
    /// reply does (or nothing came).
    pub exchange: Vec<Violation>,
    /// What a conforming peer answers, when the vector says.
    pub expected: Option<Answer>,
    /// Why nothing came, when nothing did.
    pub silence: Option<Silence>,
    /// Where the reply departs from `expected`: details, not the verdict.
    pub mismatches: Vec<String>,
}

impl Judgement {
    /// Every violation found: each frame's own, then the exchange's.
    pub fn violations(&self) -> impl Iterator<Item = &Violation> {
        self.frames
            .iter()
            .flat_map(|f| &f.violations)
            .chain(&self.exchange)
    }

    /// The frame taken for the reply, if one was.
    #[must_use]
    pub fn reply(&self) -> Option<&FrameVerdict> {
        self.frames.iter().find(|f| f.is_reply)
    }
}

/// The profile the peer's frames are judged under: the vector's revision, the
/// other sender.
#[must_use]
pub fn peer_profile(profile: Profile) -> Profile {
    Profile {
        revision: profile.revision,
        direction: match profile.direction {
            Direction::ClientToServer => Direction::ServerToClient,
            Direction::ServerToClient => Direction::ClientToServer,
        },
    }
}

/// Judges what a peer sent back after receiving `vector`'s frame.
///
/// The reply is the first frame that is not wholly the peer's own requests
/// and notifications (a frame that does not lift counts: it may have meant to
/// answer). Every frame is validated as sent by the peer; the exchange rules
/// run on the vector's frame and that reply (or on its absence); and the reply
/// is held to the vector's `answer`, when it has one.
#[must_use]
pub fn reply(vector: &Vector, observed: &Observed) -> Judgement {
    let peer = peer_profile(vector.profile);
    let request = lift(&vector.frame).ok();
    let (frames, silence) = match observed {
        Observed::Frames(frames) => (frames.as_slice(), None),
        Observed::Silence(why) => (&[][..], Some(*why)),
    };
    let mut verdicts: Vec<FrameVerdict> = frames
        .iter()
        .map(|bytes| FrameVerdict {
            bytes: bytes.clone(),
            is_reply: false,
            violations: rules::validate(bytes, peer),
        })
        .collect();
    let reply_at = frames.iter().position(|b| !peer_initiated(b));
    if let Some(i) = reply_at {
        verdicts[i].is_reply = true;
    }
    let reply_frame = reply_at.map(|i| lift(&frames[i]));

    let exchange = match (&request, &reply_frame) {
        (Some(request), None) => rules::validate_reply(request, None, vector.profile),
        (Some(request), Some(Ok(reply))) => {
            rules::validate_reply(request, Some(reply), vector.profile)
        }
        // The vector's frame does not lift (there is no request to pair with),
        // or the reply does not (its own violations say so).
        (None, _) | (Some(_), Some(Err(_))) => Vec::new(),
    };

    let mut mismatches = Vec::new();
    if let Some(answer) = &vector.answer {
        match &reply_frame {
            Some(Err(refusal)) => {
                mismatches.push(format!("the reply does not lift: {refusal}"));
            }
            Some(Ok(reply)) => {
                mismatches.extend(reply_fits(answer, Some(reply)).err().unwrap_or_default())
            }
            None => mismatches.extend(reply_fits(answer, None).err().unwrap_or_default()),
        }
    }

    let mut judgement = Judgement {
        outcome: Outcome::Pass,
        frames: verdicts,
        exchange,
        expected: vector.answer.clone(),
        silence,
        mismatches,
    };
    judgement.outcome = decide(&judgement, vector.answer.as_ref());
    judgement
}

/// Whether a frame is wholly the peer's own requests and notifications, not an
/// answer. An empty batch and a frame that does not lift may be answers.
fn peer_initiated(bytes: &[u8]) -> bool {
    match lift(bytes) {
        Ok(frame) => {
            let ms = frame.messages();
            !ms.is_empty()
                && ms
                    .iter()
                    .all(|m| matches!(m, Message::Request(_) | Message::Notification(_)))
        }
        Err(_) => false,
    }
}

fn decide(j: &Judgement, answer: Option<&Answer>) -> Outcome {
    if j.violations().any(|v| v.level.is_mandatory()) {
        return Outcome::Fail;
    }
    // A peer that hung up never showed it would stay silent: silence was the
    // answer, but a closed peer is no evidence of it.
    if let (Some(Silence::PeerClosed), Some(Answer::Nothing) | None) = (j.silence, answer) {
        return Outcome::NotObserved {
            why: Silence::PeerClosed.describe().into(),
        };
    }
    if j.violations().next().is_some() {
        Outcome::Warning
    } else {
        Outcome::Pass
    }
}

/// A vector's recorded reply as the judge's input: a recorded silence is a
/// peer that stayed open and said nothing.
#[must_use]
pub fn recorded(reply: &crate::vectors::Reply) -> Observed {
    match reply {
        crate::vectors::Reply::Nothing => Observed::Silence(Silence::TimedOut),
        crate::vectors::Reply::Frame(text) => Observed::Frames(vec![text.as_bytes().to_vec()]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vectors::{Codec, Verdict};
    use harness::Revision;

    /// A plain JSON-RPC 2.0 vector a client sends, with the answer it expects.
    fn vector(frame: &str, answer: Answer) -> Vector {
        Vector {
            id: "jsonrpc-2.0/test/x".into(),
            path: "x.json".into(),
            verdict: Verdict::Accept,
            description: "test".into(),
            profile: Profile {
                revision: Revision::JsonRpc2,
                direction: Direction::ClientToServer,
            },
            frame: frame.as_bytes().to_vec(),
            rules: Vec::new(),
            codec: Codec::Lifts,
            violations: Vec::new(),
            advisories: Vec::new(),
            answer: Some(answer),
            exchange: None,
            ambiguity: None,
        }
    }

    fn result(id: &str) -> Answer {
        Answer::Result {
            id: Some(id.into()),
            required: Vec::new(),
            example: None,
        }
    }

    fn frames(texts: &[&str]) -> Observed {
        Observed::Frames(texts.iter().map(|t| t.as_bytes().to_vec()).collect())
    }

    const REQUEST: &str = r#"{"jsonrpc":"2.0","id":1,"method":"x"}"#;
    const NOTIFICATION: &str = r#"{"jsonrpc":"2.0","method":"x"}"#;

    fn rules(j: &Judgement) -> Vec<&'static str> {
        j.violations().map(|v| v.rule.as_str()).collect()
    }

    #[test]
    fn a_matching_reply_passes_and_the_peers_own_frames_are_not_the_reply() {
        let v = vector(REQUEST, result("1"));
        let log = r#"{"jsonrpc":"2.0","method":"log","params":{}}"#;
        let j = reply(
            &v,
            &frames(&[log, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#]),
        );
        assert_eq!(j.outcome, Outcome::Pass, "{:?}", rules(&j));
        assert_eq!(j.frames.len(), 2);
        assert!(!j.frames[0].is_reply && j.frames[1].is_reply);
        assert!(j.mismatches.is_empty(), "{:?}", j.mismatches);
    }

    #[test]
    fn a_request_met_with_silence_fails_on_the_exchange_rule() {
        let v = vector(REQUEST, result("1"));
        for why in [Silence::TimedOut, Silence::PeerClosed] {
            let j = reply(&v, &Observed::Silence(why));
            assert_eq!(j.outcome, Outcome::Fail);
            assert!(!j.exchange.is_empty() && j.exchange.iter().any(|v| v.level.is_mandatory()));
            assert_eq!(j.mismatches, ["expected a result, got no reply"]);
            assert_eq!(j.silence, Some(why));
        }
    }

    #[test]
    fn silence_after_a_notification_passes_unless_the_peer_hung_up() {
        let v = vector(NOTIFICATION, Answer::Nothing);
        let waited = reply(&v, &Observed::Silence(Silence::TimedOut));
        assert_eq!(waited.outcome, Outcome::Pass, "{:?}", rules(&waited));
        let closed = reply(&v, &Observed::Silence(Silence::PeerClosed));
        assert_eq!(
            closed.outcome,
            Outcome::NotObserved {
                why: Silence::PeerClosed.describe().into()
            }
        );
        let answered = reply(&v, &frames(&[r#"{"jsonrpc":"2.0","id":null,"result":{}}"#]));
        assert_eq!(answered.outcome, Outcome::Fail, "{:?}", rules(&answered));
    }

    #[test]
    fn an_id_echoed_with_another_type_fails() {
        let v = vector(REQUEST, result("1"));
        let j = reply(&v, &frames(&[r#"{"jsonrpc":"2.0","id":"1","result":{}}"#]));
        assert_eq!(j.outcome, Outcome::Fail);
        assert!(!j.exchange.is_empty(), "{:?}", rules(&j));
        assert_eq!(j.mismatches, [r#"id "1", expected 1"#]);
    }

    #[test]
    fn a_reply_that_does_not_lift_fails_on_its_own_violation() {
        let v = vector(REQUEST, result("1"));
        let j = reply(&v, &frames(&["{not json"]));
        assert_eq!(j.outcome, Outcome::Fail);
        assert_eq!(rules(&j), ["json.syntax"]);
        assert!(j.exchange.is_empty());
        assert!(j.mismatches[0].starts_with("the reply does not lift"));
    }

    #[test]
    fn a_departure_from_the_answer_alone_is_a_detail_not_the_verdict() {
        // JSON-RPC 2.0 §6: a batch reply *should* be an array; the answer wants
        // one, the model warns (SHOULD), and the mismatch is reported beside.
        let v = vector(
            r#"[{"jsonrpc":"2.0","id":1,"method":"x"}]"#,
            Answer::Batch(vec![result("1")]),
        );
        let j = reply(&v, &frames(&[r#"{"jsonrpc":"2.0","id":1,"result":{}}"#]));
        assert_eq!(j.outcome, Outcome::Warning, "{:?}", rules(&j));
        assert_eq!(
            j.mismatches,
            ["expected a batch response, got a single response"]
        );
    }
}
