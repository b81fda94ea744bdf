//! Generators and oracles, shared by every caller that checks the codec: the
//! cargo-fuzz targets (`fuzz/`), the proptest properties and the corpus replay
//! (`harness/tests/`). This module holds no fuzz target itself: a target is a
//! few lines that hand its input to one function here.

pub mod conversation;
pub mod generate;
pub mod mutate;
pub mod oracle;

pub use generate::{GenFrame, GenId};
pub use mutate::{mutate, mutate_json};
pub use oracle::{
    check_refusal, check_reply_matching, check_roundtrip, check_rules, id_twins, strip_whitespace,
    Failure, RoundTrip,
};

use arbitrary::{Arbitrary, Unstructured};

use crate::client::{read_reply, ReplyError};
use crate::ir::{ErrorObject, ErrorResponse, Frame, Id, Message, Raw, Success};
use crate::{lift, lower_to_vec};

/// The structured property: a generated frame lifts into the kinds it was
/// generated as, and then satisfies [`check_roundtrip`].
pub fn check_generated(frame: &GenFrame) -> Result<(), Failure> {
    let lifted = lift(frame.text.as_bytes()).map_err(|refusal| Failure {
        property: "generated-frame-lifts",
        detail: format!("{refusal}\n  frame: {}", frame.text),
    })?;
    let kinds: Vec<_> = lifted.messages().iter().map(Message::kind).collect();
    if kinds != frame.kinds || matches!(lifted, Frame::Batch(_)) != frame.batch {
        return Err(Failure {
            property: "generated-kind",
            detail: format!(
                "generated {:?} (batch: {}), lifted {:?}\n  frame: {}",
                frame.kinds, frame.batch, kinds, frame.text
            ),
        });
    }
    check_roundtrip(frame.text.as_bytes()).map(|_| ())
}

/// The reply-matching property for one generated id: a success and an error
/// reply built for it are accepted for it and refused for each of its twins.
pub fn check_generated_reply(id: &GenId, result_first: bool) -> Result<(), Failure> {
    let id = generated_id(id)?;
    let twins = id_twins(&id);
    let success = Message::Success(Success::new(id.clone(), Raw("{}".into())));
    let error = Message::Error(ErrorResponse::new(
        Some(id.clone()),
        ErrorObject::new(-32601, "Method not found", None),
    ));
    let order = if result_first {
        [success, error]
    } else {
        [error, success]
    };
    for message in order {
        let bytes = lower_to_vec(&Frame::Single(message));
        check_reply_matching(&bytes, &id, &twins)?;
    }
    Ok(())
}

fn generated_id(id: &GenId) -> Result<Id<'static>, Failure> {
    let Ok(Raw(text)) = Raw::parse(&id.0) else {
        return Err(Failure {
            property: "generated-id-parses",
            detail: id.0.clone(),
        });
    };
    Ok(match text.as_bytes().first() {
        Some(b'"') => Id::String(crate::ir::JsonStr(text.into_owned().into())),
        Some(b'n') => Id::Null,
        _ => Id::Number(text.into_owned().into()),
    })
}

/// The input of the `reply_matching` target: an id to build replies for, and a
/// generated frame a peer might send back.
#[derive(Debug, Clone)]
pub struct ReplyCase {
    /// The id of the request.
    pub id: GenId,
    /// Whether the success reply is checked before the error reply.
    pub result_first: bool,
    /// A frame the peer sends back: any kind, any id spelling, extras anywhere.
    pub peer: GenFrame,
}

impl<'a> Arbitrary<'a> for ReplyCase {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(ReplyCase {
            id: u.arbitrary()?,
            result_first: u.arbitrary()?,
            peer: u.arbitrary()?,
        })
    }
}

/// The client side on one case. Replies lowered for the case's id match only it
/// ([`check_generated_reply`]). The peer's frame, read as a reply: a single
/// response carrying an id is accepted for the id it carries (whatever its
/// spelling, extras or `_meta`) and refused for each of that id's twins; any
/// other frame is refused for the case's id, for the reason that fits it.
pub fn check_reply_case(case: &ReplyCase) -> Result<(), Failure> {
    check_generated_reply(&case.id, case.result_first)?;
    let expected = generated_id(&case.id)?;
    let bytes = case.peer.text.as_bytes();
    let frame = lift(bytes).map_err(|refusal| Failure {
        property: "generated-frame-lifts",
        detail: format!("{refusal}\n  frame: {}", case.peer.text),
    })?;
    let answered = match &frame {
        Frame::Single(Message::Success(s)) => Some(s.id.clone()),
        Frame::Single(Message::Error(e)) => e.id.clone(),
        _ => None,
    };
    if let Some(id) = answered {
        return check_reply_matching(bytes, &id, &id_twins(&id));
    }
    let verdict = read_reply(&expected, bytes);
    let fits = match (&frame, &verdict) {
        (Frame::Batch(_), Err(ReplyError::Batch)) => true,
        (Frame::Single(Message::Error(_)), Err(ReplyError::Unattributed(_))) => true,
        (Frame::Single(m), Err(ReplyError::NotAResponse(kind))) => m.kind() == *kind,
        _ => false,
    };
    if fits {
        Ok(())
    } else {
        Err(Failure {
            property: "reply-refused-for-the-right-reason",
            detail: format!("{verdict:?}\n  frame: {}", case.peer.text),
        })
    }
}

/// The fuzz targets, by the name of their folder in `fuzz/fuzz_targets/` and
/// `corpus/*/`. The table lets the corpus replay hand each file to the oracle
/// its target calls, exactly as the target would.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Any bytes through [`check_roundtrip`].
    RoundtripBytes,
    /// A [`GenFrame`] through [`check_generated`].
    RoundtripStructured,
    /// Any bytes through [`check_refusal`].
    LiftRefusals,
    /// A [`ReplyCase`] through [`check_reply_case`].
    ReplyMatching,
    /// Any bytes through [`check_rules`].
    Rules,
    /// A generated conversation, or arbitrary events, through
    /// [`conversation::check_session_input`].
    Session,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 6] = [
        Target::RoundtripBytes,
        Target::RoundtripStructured,
        Target::LiftRefusals,
        Target::ReplyMatching,
        Target::Rules,
        Target::Session,
    ];

    /// The target's name: its file in `fuzz/fuzz_targets/`, its corpus folders.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Target::RoundtripBytes => "roundtrip_bytes",
            Target::RoundtripStructured => "roundtrip_structured",
            Target::LiftRefusals => "lift_refusals",
            Target::ReplyMatching => "reply_matching",
            Target::Rules => "rules",
            Target::Session => "session",
        }
    }

    /// The folder under `corpus/seeds/` holding the target's seeds. The targets
    /// that read wire bytes share one set, `frames`, so a seed added there seeds
    /// them all; a structured target reads `arbitrary` bytes of its own.
    #[must_use]
    pub fn seeds(self) -> &'static str {
        match self {
            Target::RoundtripBytes | Target::LiftRefusals | Target::Rules => "frames",
            Target::RoundtripStructured | Target::ReplyMatching | Target::Session => self.name(),
        }
    }

    /// The target named `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Runs one fuzz input through the target's oracle, building structured
    /// input the way `libfuzzer-sys` does (`arbitrary_take_rest`). `Ok(false)`
    /// when the bytes build no structured input (libFuzzer skips those too).
    pub fn check(self, input: &[u8]) -> Result<bool, Failure> {
        match self {
            Target::RoundtripBytes => check_roundtrip(input).map(|_| true),
            Target::LiftRefusals => check_refusal(input).map(|_| true),
            Target::Rules => check_rules(input).map(|()| true),
            Target::Session => conversation::check_session_input(input),
            Target::RoundtripStructured => {
                match GenFrame::arbitrary_take_rest(Unstructured::new(input)) {
                    Ok(frame) => check_generated(&frame).map(|()| true),
                    Err(_) => Ok(false),
                }
            }
            Target::ReplyMatching => {
                match ReplyCase::arbitrary_take_rest(Unstructured::new(input)) {
                    Ok(case) => check_reply_case(&case).map(|()| true),
                    Err(_) => Ok(false),
                }
            }
        }
    }
}
