//! The reference peer: a server for plain JSON-RPC 2.0 and every MCP revision,
//! written on the reference codec, that answers as the specifications say.
//!
//! [`Peer`] is the pure core: no I/O, one inbound frame in, the outbound frames
//! out (notifications such as progress first, then the answer), so it can be
//! tested frame by frame and put behind any transport. [`stdio`] is the
//! newline-delimited transport `wirecheck serve` runs, [`http`] the HTTP ones
//! of `wirecheck serve --http`.
//!
//! Ids are echoed as the text they came as (`"1"` stays a string,
//! `9007199254740993` is not rounded): an answer's id is the lifted [`Id`],
//! lowered again, never a parsed number.

mod catalogue;
pub mod cursor;
pub mod defect;
pub mod http;
mod jsonrpc;
mod mcp;
pub mod stdio;
mod tasks;

use harness::codes;
use harness::error_ids::{self, Read};
use harness::ir::{ErrorObject, ErrorResponse, Success};
use harness::{lift, lift_batch_elements, lower_to_vec, Frame, Id, Message, Raw, Revision};
use serde_json::Value;

/// The names of the tools the reference peer offers. None of them reaches
/// outside the process (they echo, pretend to pay, count), so `wirecheck run`
/// against the reference peer calls them without `--allow-tool`.
#[must_use]
pub fn tool_names() -> Vec<&'static str> {
    catalogue::TOOLS.iter().map(|t| t.name).collect()
}

/// What the peer serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Serve {
    /// Plain JSON-RPC 2.0 with the methods of its §7 examples.
    JsonRpc,
    /// MCP, every revision: the revision is negotiated by `initialize`
    /// (lifecycle §Version Negotiation) or, for 2026-07-28, named per request.
    Negotiate,
    /// MCP at exactly this revision (never `JsonRpc2`).
    Mcp(Revision),
}

/// Why a call failed: the error object's code, message and data.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Failure {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl Failure {
    pub(crate) fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    pub(crate) fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(codes::INVALID_PARAMS, message)
    }

    pub(crate) fn method_not_found(method: &str) -> Self {
        Self::new(
            codes::METHOD_NOT_FOUND,
            format!("Method not found: {method}"),
        )
    }

    pub(crate) fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
}

/// The outcome of one call: a result as JSON text, or a failure.
pub(crate) type Answer = Result<Raw<'static>, Failure>;

/// The reference server's state machine. Feed it frames with [`Peer::handle`].
#[derive(Debug)]
pub struct Peer {
    serve: Serve,
    mcp: mcp::Session,
}

impl Peer {
    /// A peer that has seen nothing yet.
    #[must_use]
    pub fn new(serve: Serve) -> Self {
        Self {
            serve,
            mcp: mcp::Session::new(match serve {
                Serve::Mcp(revision) => Some(revision),
                Serve::JsonRpc | Serve::Negotiate => None,
            }),
        }
    }

    /// Declares `tools.listChanged` in the answer to `initialize` (and to
    /// 2026-07-28's `server/discover`), for a judged client that is to be sent
    /// `notifications/tools/list_changed` ([`crate::clientcheck`]).
    pub fn declare_tools_list_changed(&mut self) {
        self.mcp.tools_list_changed = true;
    }

    /// What the peer serves.
    #[must_use]
    pub fn serve(&self) -> Serve {
        self.serve
    }

    /// The revision frames are exchanged under: `JsonRpc2` for plain JSON-RPC,
    /// the fixed or negotiated MCP revision (2026-07-28 once a negotiating peer's
    /// client opened that way), `None` while a negotiating peer has not answered
    /// `initialize` or a 2026-07-28 request.
    #[must_use]
    pub fn revision(&self) -> Option<Revision> {
        match self.serve {
            Serve::JsonRpc => Some(Revision::JsonRpc2),
            Serve::Mcp(revision) => Some(revision),
            Serve::Negotiate => self.mcp.negotiated(),
        }
    }

    /// Handles one inbound frame (without its newline) and returns the frames
    /// to send back, in order. A notification, or a batch of them, gets none.
    pub fn handle(&mut self, frame: &[u8]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let first = frame
            .iter()
            .copied()
            .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
        if first == Some(b'[') {
            self.batch(frame, &mut out);
            return out;
        }
        match lift(frame) {
            Ok(Frame::Single(message)) => {
                if let Some(reply) = self.message(&message, false, &mut out) {
                    out.push(lower_to_vec(&Frame::Single(reply)));
                }
            }
            // `lift` gives a batch only for a frame that opens with `[`, which
            // went the element-wise way above.
            Ok(Frame::Batch(_)) => out.push(refusal_frame(
                self.unread_id(),
                codes::INVALID_REQUEST,
                "Invalid Request",
                None,
            )),
            Err(refusal) => out.push(lower_to_vec(&Frame::Single(refused(
                self.refusal_id(frame),
                &refusal,
            )))),
        }
        out
    }

    /// The `id` of an error refusing the single frame `frame` as malformed:
    /// its own id when a receiver can read one this profile allows (MCP
    /// 2025-11-25 basic/index §Responses: "Error responses MUST include the
    /// same ID as the request they correspond to (except in error cases where
    /// the ID could not be read due a malformed request)"; JSON-RPC 2.0 §5
    /// allows null there too, `harness::error_ids` takes both), otherwise
    /// what [`Peer::unread_id`] says.
    fn refusal_id(&self, frame: &[u8]) -> Option<Id<'static>> {
        let revision = self.revision().unwrap_or(Revision::JsonRpc2);
        match error_ids::read_single(frame) {
            Read::Id(id) if !matches!(id, Id::Null) && error_ids::id_allowed(revision, &id) => {
                Some(id)
            }
            _ => self.unread_id(),
        }
    }

    /// Ends the session (the transport is closing) and returns the frames
    /// still owed: the teardown of every request left open (2026-07-28's
    /// `subscriptions/listen`, see the MCP profile).
    pub fn close(&mut self) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        self.mcp.close(&mut out);
        out
    }

    /// JSON-RPC 2.0 §6: a batch is answered per element, in one array; an
    /// all-notification batch gets nothing; an empty array or a batch that is
    /// not JSON gets one error (the §7 examples).
    fn batch(&mut self, frame: &[u8], out: &mut Vec<Vec<u8>>) {
        let elements = match lift_batch_elements(frame) {
            Ok(elements) => elements,
            Err(refusal) => {
                out.push(lower_to_vec(&Frame::Single(refused(
                    self.unread_id(),
                    &refusal,
                ))));
                return;
            }
        };
        if let Some(revision) = self.batchless_revision() {
            // 2025-06-18 removed batching (changelog: "Remove support for JSON-RPC
            // batching"); basic/index §Messages: "JSON-RPC messages MUST be UTF-8
            // encoded" and each message is a single Request, Notification or
            // Response: an array is not one, so it is an Invalid Request, answered
            // once with no id that could be read (see `unread_id`).
            out.push(refusal_frame(
                self.unread_id(),
                codes::INVALID_REQUEST,
                "Invalid Request",
                Some(serde_json::json!({
                    "reason": format!("MCP {revision} does not support JSON-RPC batches")
                })),
            ));
            return;
        }
        let mut replies = Vec::new();
        for element in elements {
            match element {
                Ok(message) => {
                    if let Some(reply) = self.message(&message, true, out) {
                        replies.push(reply);
                    }
                }
                Err(refusal) => replies.push(refused(self.unread_id(), &refusal)),
            }
        }
        if !replies.is_empty() {
            out.push(lower_to_vec(&Frame::Batch(replies)));
        }
    }

    /// The `id` of an error answering a frame whose id could not be read.
    ///
    /// JSON-RPC 2.0 §5: "If there was an error in detecting the id in the
    /// Request object (e.g. Parse error/Invalid Request), it MUST be Null". The
    /// MCP schemas up to 2025-06-18 require `JSONRPCError.id` and allow only a
    /// string or an integer, so there no answer is schema-valid and null (what
    /// JSON-RPC mandates) is sent. From 2025-11-25 `JSONRPCErrorResponse.id` is
    /// optional and basic/index §Responses excepts "error cases where the ID
    /// could not be read due a malformed request" from echoing it: the id is
    /// then omitted, which is valid under that revision's schema, where null
    /// is not.
    fn unread_id(&self) -> Option<Id<'static>> {
        match self.revision() {
            Some(revision) if revision >= Revision::Mcp2025_11_25 => None,
            // A negotiating peer before `initialize` may yet be any revision.
            _ => Some(Id::Null),
        }
    }

    /// The revision in force when it is one without batches, `None` when
    /// batches are answered (plain JSON-RPC 2.0, MCP 2024-11-05 and 2025-03-26,
    /// and a negotiating peer before `initialize`, which may yet be either).
    fn batchless_revision(&self) -> Option<Revision> {
        match self.revision() {
            // 2024-11-05 never mentions batches; it rests on JSON-RPC 2.0, whose
            // §6 it does not exclude, so a batch is answered as §6 says (the
            // vector `mcp/2024-11-05/batch/i_batch` leaves answering or refusing
            // to the receiver).
            None | Some(Revision::JsonRpc2 | Revision::Mcp2024_11_05 | Revision::Mcp2025_03_26) => {
                None
            }
            Some(revision) => Some(revision),
        }
    }

    /// Handles one message; the answer to a request, `None` for anything else
    /// (JSON-RPC 2.0 §4.1: "The Server MUST NOT reply to a Notification").
    fn message(
        &mut self,
        message: &Message<'_>,
        in_batch: bool,
        out: &mut Vec<Vec<u8>>,
    ) -> Option<Message<'static>> {
        let method = message.method()?;
        let params = message.params();
        match message {
            Message::Request(request) => {
                let answer = match self.serve {
                    Serve::JsonRpc => jsonrpc::call(&method, params),
                    Serve::Negotiate | Serve::Mcp(_) => match mcp_id_error(request) {
                        Some(failure) => Err(failure),
                        // `None`: the request stays open, answered later.
                        None => self
                            .mcp
                            .request(&request.id, &method, params, in_batch, out)?,
                    },
                };
                // Even an id MCP forbids (null, 1.5) was read, so it is echoed:
                // JSON-RPC 2.0 §5 wants null only when the id could not be read.
                Some(answer_message(request.id.clone().into_owned(), answer))
            }
            Message::Notification(_) => {
                match self.serve {
                    Serve::JsonRpc => jsonrpc::notify(&method, params),
                    Serve::Negotiate | Serve::Mcp(_) => self.mcp.notification(&method, params),
                }
                None
            }
            // `method()` is `None` for responses; unreachable here.
            Message::Success(_) | Message::Error(_) => None,
        }
    }
}

/// What is wrong with an MCP request's id, whatever its method (basic/index
/// §Requests: "Requests MUST include a string or integer ID. Unlike base
/// JSON-RPC, the ID MUST NOT be null").
fn mcp_id_error(request: &harness::ir::Request<'_>) -> Option<Failure> {
    let bad_id = match &request.id {
        Id::Null => true,
        Id::Number(n) => !is_integer(n),
        Id::String(_) => false,
    };
    bad_id.then(|| {
        Failure::new(
            codes::INVALID_REQUEST,
            format!(
                "MCP request ids must be a string or an integer; found {}",
                request.id.raw()
            ),
        )
    })
}

/// Whether a number's value is an integer, however it is written (`1`, `1.0`,
/// `1e2`), as JSON Schema's `integer` and the rule model count it.
pub(crate) fn is_integer(number: &str) -> bool {
    if !number.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        return true;
    }
    number
        .parse::<f64>()
        .is_ok_and(|n| n.is_finite() && n.fract() == 0.0)
}

/// The response carrying `answer` for the request with `id`.
fn answer_message(id: Id<'static>, answer: Answer) -> Message<'static> {
    match answer {
        Ok(result) => Message::Success(Success::new(id, result)),
        Err(failure) => Message::Error(ErrorResponse::new(Some(id), error_object(failure))),
    }
}

fn error_object(failure: Failure) -> ErrorObject<'static> {
    ErrorObject::new(
        failure.code,
        &failure.message,
        failure.data.as_ref().map(Raw::from_value),
    )
}

/// The error answering a frame or element the codec refused: -32700 or
/// -32600 with the id [`Peer::unread_id`] says, the broken rule and where in
/// `data`.
fn refused(id: Option<Id<'static>>, refusal: &harness::Refusal) -> Message<'static> {
    let message = if refusal.code() == codes::PARSE_ERROR {
        "Parse error"
    } else {
        "Invalid Request"
    };
    let data = serde_json::json!({
        "rule": refusal.rule().id(),
        "pointer": refusal.pointer(),
        "detail": refusal.message(),
    });
    Message::Error(ErrorResponse::new(
        id,
        error_object(Failure::new(refusal.code(), message).with_data(data)),
    ))
}

fn refusal_frame(
    id: Option<Id<'static>>,
    code: i64,
    message: &str,
    data: Option<Value>,
) -> Vec<u8> {
    let mut failure = Failure::new(code, message);
    failure.data = data;
    lower_to_vec(&Frame::Single(Message::Error(ErrorResponse::new(
        id,
        error_object(failure),
    ))))
}

impl Peer {
    /// The error for a line longer than the transport's bound, which is never
    /// lifted: -32700 (the frame cannot be parsed), with no id that could be
    /// read ([`Peer::unread_id`]).
    #[must_use]
    pub fn too_long_frame(&self, len: usize, max: usize) -> Vec<u8> {
        let rule = harness::Rule::JsonFrameTooLarge;
        refusal_frame(
            self.unread_id(),
            rule.code(),
            "Parse error",
            Some(serde_json::json!({
                "rule": rule.id(),
                "pointer": "",
                "detail": format!("frame of {len} bytes exceeds the limit of {max} bytes"),
            })),
        )
    }
}
