//! The client side: building request and notification documents, and reading a
//! reply frame as the answer to one request.
//!
//! A reply answers a request when its `id` [matches](Id::matches) the request's:
//! a string id and the number it spells are different ids, and a number is
//! compared by exact value, so a peer that echoes `"1"` for `1`, or rounds an id
//! past 2^53, is caught here rather than misrouted.

use std::fmt;

use crate::ir::{ErrorObject, Frame, Id, Message, MessageKind, Notification, Raw, Request};
use crate::{lift, lower_to_vec, Refusal};

/// The bytes of a request document (no trailing newline).
#[must_use]
pub fn request_document(id: Id<'static>, method: &str, params: Option<Raw<'static>>) -> Vec<u8> {
    lower_to_vec(&Frame::Single(Message::Request(Request::new(
        id, method, params,
    ))))
}

/// The bytes of a notification document (no trailing newline).
#[must_use]
pub fn notification_document(method: &str, params: Option<Raw<'static>>) -> Vec<u8> {
    lower_to_vec(&Frame::Single(Message::Notification(Notification::new(
        method, params,
    ))))
}

/// The answer a peer gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply<'a> {
    /// A success response: its `result`.
    Result(Raw<'a>),
    /// An error response: the peer's error, `data` and extras included.
    Error(ErrorObject<'a>),
}

/// Why a frame is not the answer to the request.
#[derive(Debug, Clone, PartialEq)]
pub enum ReplyError<'a> {
    /// The frame does not lift.
    Unreadable(Refusal),
    /// The frame is a batch, which a single request is never answered with.
    Batch,
    /// The frame is a request or a notification, not a response.
    NotAResponse(MessageKind),
    /// The frame answers a different id (or `null`).
    WrongId {
        /// The id of the request.
        expected: String,
        /// The id the frame carries.
        found: String,
    },
    /// An error response with no `id` (MCP 2025-11-25 allows it when the id could
    /// not be read): not attributable to this request. The error is kept.
    Unattributed(Box<ErrorObject<'a>>),
}

impl fmt::Display for ReplyError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplyError::Unreadable(r) => write!(f, "reply does not lift: {r}"),
            ReplyError::Batch => f.write_str("reply is a batch, not a single response"),
            ReplyError::NotAResponse(kind) => write!(f, "reply is a {}, not a response", kind.name()),
            ReplyError::WrongId { expected, found } => {
                write!(f, "reply is for id {found}, not for the request's id {expected}")
            }
            ReplyError::Unattributed(e) => write!(
                f,
                "error response with no id (code {}, message {}) cannot be attributed to the request",
                e.code, e.message.raw()
            ),
        }
    }
}

/// Reads `frame` as the reply to the request whose id is `expected`.
pub fn read_reply<'a>(expected: &Id<'_>, frame: &'a [u8]) -> Result<Reply<'a>, ReplyError<'a>> {
    let message = match lift(frame).map_err(ReplyError::Unreadable)? {
        Frame::Batch(_) => return Err(ReplyError::Batch),
        Frame::Single(message) => message,
    };
    let (id, reply) = match message {
        Message::Success(s) => (s.id, Reply::Result(s.result)),
        Message::Error(e) => match e.id {
            Some(id) => (id, Reply::Error(e.error)),
            None => return Err(ReplyError::Unattributed(Box::new(e.error))),
        },
        other => return Err(ReplyError::NotAResponse(other.kind())),
    };
    if expected.matches(&id) {
        Ok(reply)
    } else {
        Err(ReplyError::WrongId {
            expected: expected.raw().to_owned(),
            found: id.raw().to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_compact_and_ordered() {
        let params = Raw::parse(r#"{"name":"x","_meta":{"k":1}}"#)
            .unwrap()
            .into_owned();
        assert_eq!(
            request_document(Id::int(7), "tools/call", Some(params)),
            br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","_meta":{"k":1}}}"#
        );
        assert_eq!(
            notification_document("notifications/initialized", None),
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
        );
    }

    #[test]
    fn replies_match_by_id_and_type() {
        let ok = br#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        assert_eq!(
            read_reply(&Id::int(1), ok).unwrap(),
            Reply::Result(Raw::parse("{}").unwrap())
        );
        assert!(matches!(
            read_reply(&Id::string("1"), ok),
            Err(ReplyError::WrongId { .. })
        ));
        let err =
            br#"{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"no","data":[1]}}"#;
        match read_reply(&Id::string("a"), err).unwrap() {
            Reply::Error(e) => {
                assert_eq!(e.code, -32601);
                assert_eq!(e.data.unwrap().as_str(), "[1]");
            }
            other => panic!("{other:?}"),
        }
        let anonymous = br#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"bad"}}"#;
        assert!(matches!(
            read_reply(&Id::int(1), anonymous),
            Err(ReplyError::Unattributed(_))
        ));
        let null = br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}"#;
        assert!(matches!(
            read_reply(&Id::int(1), null),
            Err(ReplyError::WrongId { .. })
        ));
        let request = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        assert!(matches!(
            read_reply(&Id::int(1), request),
            Err(ReplyError::NotAResponse(MessageKind::Request))
        ));
        assert!(matches!(
            read_reply(&Id::int(1), b"[{}"),
            Err(ReplyError::Unreadable(_))
        ));
        let rounded = br#"{"jsonrpc":"2.0","id":9007199254740992,"result":null}"#;
        let big = Id::Number("9007199254740993".into());
        assert!(matches!(
            read_reply(&big, rounded),
            Err(ReplyError::WrongId { .. })
        ));
    }
}
