//! What a probe observed: the liveness request that follows it, what the
//! probe waits for, how each frame received relates to it, and how the
//! liveness check ended. The [`Driver`](super::Driver) fills a
//! [`ProbeReport`]; the runner and the fuzzer read it.

use std::time::Duration;

use harness::client::{read_reply, ReplyError};
use harness::ir::{Frame, Message};
use harness::{lift, Id, Revision};

use crate::transport::SendError;

/// The request that proves the peer is still reading after a probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Liveness {
    /// MCP `ping` (every MCP revision, basic/utilities/ping: the receiver MUST
    /// respond promptly with an empty response).
    Ping,
    /// Any other method; for plain JSON-RPC 2.0 an unknown one such as
    /// `wirecheck/liveness` serves, since a -32601 answer proves liveness too.
    Method(String),
}

impl Liveness {
    /// The liveness request's method.
    pub fn method(&self) -> &str {
        match self {
            Liveness::Ping => "ping",
            Liveness::Method(m) => m,
        }
    }
}

/// The rule a peer breaks when the liveness request after a probe goes
/// unanswered, by revision: where `ping` exists (2024-11-05 to 2025-11-25),
/// "The receiver MUST respond promptly with an empty response"
/// (`mcp.ping.respond`); elsewhere (plain JSON-RPC 2.0, whose liveness request
/// is an unknown method, and 2026-07-28, which has no `ping`) JSON-RPC 2.0
/// §5's "When a rpc call is made, the Server MUST reply with a Response"
/// (`jsonrpc.response.required`). Every judge of liveness asks this.
#[must_use]
pub fn liveness_rule(revision: Revision) -> harness::rules::RuleId {
    use harness::rules::RuleId;
    if RuleId::McpPingRespond.info().applies_to(revision) {
        RuleId::McpPingRespond
    } else {
        RuleId::JsonrpcResponseRequired
    }
}

/// What a probe waits for, which decides how long it listens after the
/// liveness answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wants {
    /// No reply (a notification, a response): the grace, or a second
    /// liveness answer where the transport keeps the order.
    NoReply,
    /// A reply the peer owes: a [dispatched](dispatched) request's may come
    /// after the liveness answer, so it is waited for up to the answer
    /// timeout; anything else's, the grace.
    Reply,
    /// A reply, looked for until the grace ends: where silence the text
    /// accepts is an answer too ("an error or no answer"), and for the
    /// fuzzer, whose hundreds of frames a second would otherwise wait a
    /// timeout on each a server drops (it confirms each finding on a fresh
    /// peer before keeping it).
    ReplyByGrace,
    /// A stream held open after its first notification, or any other
    /// answer the text accepts (2026-07-28 `subscriptions/listen`:
    /// acknowledged first, no result until teardown): as
    /// [`ReplyByGrace`](Self::ReplyByGrace), and where the probe has an
    /// exchange of its own, once the stream's opening notification
    /// ([`STREAM_OPENING`]) came on it the exchange staying open is that
    /// stream, not an answer still to come.
    Stream,
}

/// The notification that opens every held-open stream a vector accepts
/// ([`Wants::Stream`]): MCP 2026-07-28 basic/patterns/subscriptions
/// §Acknowledgment, the server "MUST send
/// `notifications/subscriptions/acknowledged` as the first message". Any
/// other frame on the probe's exchange leaves its answer still to come.
pub const STREAM_OPENING: &str = "notifications/subscriptions/acknowledged";

/// Whether `bytes` is the notification that opens a held-open stream.
pub(super) fn opens_stream(bytes: &[u8]) -> bool {
    matches!(
        lift(bytes),
        Ok(Frame::Single(Message::Notification(n))) if n.method.decoded() == STREAM_OPENING
    )
}

/// How a received frame relates to the probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Class {
    /// A response whose id is one the probe carried (or a batch of responses).
    ProbeAnswer,
    /// An error response with `"id": null` or no id: the answer to a frame the
    /// peer could not read, so the probe's, if anything's.
    NullIdError,
    /// The liveness request's answer.
    LivenessAnswer,
    /// A response to an id nobody is waiting for.
    Stray,
    /// A request or notification from the peer (or a batch with one).
    Unsolicited,
    /// A line that does not lift (malformed JSON, not JSON-RPC, a blank line).
    Unreadable,
    /// A line longer than the transport's bound, skipped.
    TooLong(u64),
    /// A frame answering another request: carried by an exchange that is
    /// neither the probe's nor the liveness request's (an earlier POST's
    /// late answer, say), whatever its id; or the late answer to one of the
    /// driver's own earlier requests whose wait had ended.
    OtherExchange,
}

/// A frame received during a probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    /// When, since the driver started.
    pub t: Duration,
    /// The exact bytes (empty for [`Class::TooLong`]).
    pub bytes: Vec<u8>,
    /// What it is to the probe.
    pub class: Class,
}

/// How the liveness check after a probe ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Live {
    /// Answered this long after it was sent.
    Answered(Duration),
    /// No answer within [`DriverConfig::answer_timeout`](super::DriverConfig::answer_timeout).
    Unresponsive,
    /// The peer's output ended first.
    Closed {
        /// The exit status as text, if known.
        status: Option<String>,
        /// The peer left a child holding stdout.
        leaky: bool,
    },
    /// The probe or the liveness request could not be sent.
    SendFailed(SendError),
}

/// What one probe observed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeReport {
    /// Whether the caller expected the probe to be answered (it holds a request).
    pub expects_answer: bool,
    /// The liveness request's id.
    pub liveness_id: Id<'static>,
    /// The liveness check's end.
    pub live: Live,
    /// Every frame received, in order.
    pub frames: Vec<Received>,
    /// Frames received past [`DriverConfig::max_frames_per_probe`](super::DriverConfig::max_frames_per_probe), not kept.
    pub frames_over_cap: u64,
    /// Frames the transport dropped (full queue) while the probe ran: a verdict
    /// of "unanswered" is unsafe when this is not zero.
    pub transport_dropped: u64,
    /// From the probe's send to the end of listening.
    pub took: Duration,
    /// Ids in the probe that were already sent in this session: a duplicate
    /// the peer may refuse, and the runner's doing, not the peer's.
    pub reused_ids: Vec<Id<'static>>,
    /// The exchange that carried the probe, on a transport with exchanges
    /// ([`Transport::sent_exchange`](crate::transport::Transport::sent_exchange)).
    pub exchange: Option<u64>,
}

impl Class {
    /// Whether a frame of this class may be the probe's answer: one under
    /// its id, an error for a frame whose id could not be read, or a
    /// response under a wrong id (a JavaScript server rounding an id past
    /// 2^53), which the judges read as such.
    #[must_use]
    pub fn may_answer(&self) -> bool {
        matches!(self, Class::ProbeAnswer | Class::NullIdError | Class::Stray)
    }
}

impl ProbeReport {
    /// The frames that may be the probe's answer ([`Class::may_answer`]).
    pub fn answers(&self) -> impl Iterator<Item = &Received> {
        self.frames.iter().filter(|r| r.class.may_answer())
    }

    /// The frames of one class.
    pub fn of(&self, class: &Class) -> impl Iterator<Item = &Received> {
        let class = class.clone();
        self.frames.iter().filter(move |r| r.class == class)
    }

    /// Whether anything answered the probe (by id, or an id-null error).
    #[must_use]
    pub fn answered(&self) -> bool {
        self.frames
            .iter()
            .any(|r| matches!(r.class, Class::ProbeAnswer | Class::NullIdError))
    }
}

/// Whether `frame` is one request a peer reads whole and hands to its
/// method's handler: a single JSON-RPC 2.0 request whose id MCP allows (a
/// string or an integer: 2025-11-25 basic/index, "Requests", MUST) and whose
/// params, if any, are an object. Its answer may follow the answer to a
/// later request (JSON-RPC 2.0 sets no order, and the SDKs' servers handle
/// requests concurrently, answering `ping` before a slow `resources/read`),
/// so the liveness answer does not say it will never come. A frame refused
/// while it is read (not JSON, not a request, an id or params MCP forbids,
/// a batch) is answered, if at all, by the reading layer, in order.
pub(super) fn dispatched(frame: &[u8]) -> bool {
    let Ok(Frame::Single(Message::Request(request))) = lift(frame) else {
        return false;
    };
    let id_allowed = match &request.id {
        Id::String(_) => true,
        Id::Number(text) => {
            let digits = text.strip_prefix('-').unwrap_or(text);
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        }
        Id::Null => false,
    };
    let params_allowed = request
        .params
        .as_ref()
        .is_none_or(|p| p.kind() == harness::ValueKind::Object);
    id_allowed && params_allowed
}

/// The request ids a peer can read in `frame` (one, or a batch's), valid
/// frame or not ([`harness::error_ids::readable_request_ids`], the one
/// place): an Invalid Request's error may echo its readable id (JSON-RPC 2.0
/// §5), which then answers the probe, and the id counts as used; the live
/// fuzzer never puts two frames sharing one in a window, where that error
/// would be credited to the other frame.
#[must_use]
pub fn request_ids(frame: &[u8]) -> Vec<Id<'static>> {
    harness::error_ids::readable_request_ids(frame)
        .into_iter()
        .filter_map(|read| match read {
            harness::error_ids::Read::Id(id) => Some(id),
            _ => None,
        })
        .collect()
}

/// What `bytes` is to a probe with `probe_ids` and a liveness request `live`.
pub fn classify(bytes: &[u8], probe_ids: &[Id<'static>], live: Option<&Id<'static>>) -> Class {
    let Ok(frame) = lift(bytes) else {
        return Class::Unreadable;
    };
    if let Frame::Batch(messages) = &frame {
        let all_responses = messages
            .iter()
            .all(|m| matches!(m, Message::Success(_) | Message::Error(_)));
        // A batch answers a batch; the judge checks it element by element.
        return if all_responses {
            Class::ProbeAnswer
        } else {
            Class::Unsolicited
        };
    }
    if live.is_some_and(|id| read_reply(id, bytes).is_ok()) {
        return Class::LivenessAnswer;
    }
    let mut null_id = false;
    for id in probe_ids {
        match read_reply(id, bytes) {
            Ok(_) => return Class::ProbeAnswer,
            Err(ReplyError::Unattributed(_)) => null_id = true,
            Err(ReplyError::WrongId { found, .. }) if found == "null" => null_id = true,
            Err(ReplyError::NotAResponse(_)) => return Class::Unsolicited,
            Err(_) => {}
        }
    }
    match frame.messages().first() {
        Some(Message::Error(e)) if e.id.is_none() || matches!(e.id, Some(Id::Null)) => {
            Class::NullIdError
        }
        _ if null_id => Class::NullIdError,
        Some(Message::Success(_) | Message::Error(_)) => Class::Stray,
        _ => Class::Unsolicited,
    }
}
