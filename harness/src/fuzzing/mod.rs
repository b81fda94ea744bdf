//! Generators and oracles, shared by every caller that checks the codec: the
//! cargo-fuzz targets (`fuzz/`), the proptest properties and the corpus replay
//! (`harness/tests/`). This module holds no fuzz target itself: a target is a
//! few lines that hand its input to one function here.

pub mod generate;
pub mod oracle;

pub use generate::{GenFrame, GenId};
pub use oracle::{
    check_refusal, check_reply_matching, check_roundtrip, id_twins, strip_whitespace, Failure,
    Outcome,
};

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
    let Ok(Raw(text)) = Raw::parse(&id.0) else {
        return Err(Failure {
            property: "generated-id-parses",
            detail: id.0.clone(),
        });
    };
    let id: Id<'static> = match text.as_bytes().first() {
        Some(b'"') => Id::String(crate::ir::JsonStr(text.into_owned().into())),
        Some(b'n') => Id::Null,
        _ => Id::Number(text.into_owned().into()),
    };
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
