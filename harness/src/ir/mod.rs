//! The IR: every shape JSON-RPC 2.0 allows, with every member kept in its place.
//!
//! A message is its modelled members (typed: [`Id`], method, params, result,
//! error) plus a [`Layout`]: the members in the order they came, where each is
//! either a modelled field or an unmodelled extra kept as [`Raw`] text. Lowering
//! walks the layout, so order and extras survive without the typed fields having
//! to know about them.

mod describe;
mod value;

pub use describe::describe;

use std::borrow::Cow;

pub(crate) use value::decimal_value;
pub use value::{Elements, Id, JsonStr, Members, Raw};

pub use crate::scan::ValueKind;

/// One wire frame: a single message or a batch (JSON-RPC 2.0 §6).
#[derive(Debug, Clone, PartialEq)]
pub enum Frame<'a> {
    /// One message.
    Single(Message<'a>),
    /// A non-empty array of messages. Batches hold requests or responses alike:
    /// the codec does not judge which way one travels.
    Batch(Vec<Message<'a>>),
}

impl Frame<'_> {
    /// A copy that owns its text.
    #[must_use]
    pub fn into_owned(self) -> Frame<'static> {
        match self {
            Frame::Single(m) => Frame::Single(m.into_owned()),
            Frame::Batch(ms) => Frame::Batch(ms.into_iter().map(Message::into_owned).collect()),
        }
    }

    /// The messages of the frame, one for a single message.
    #[must_use]
    pub fn messages(&self) -> &[Message<'_>] {
        match self {
            Frame::Single(m) => std::slice::from_ref(m),
            Frame::Batch(ms) => ms,
        }
    }
}

/// One JSON-RPC 2.0 message.
#[derive(Debug, Clone, PartialEq)]
pub enum Message<'a> {
    /// A call that expects a reply: it has an `id`, possibly `null` (§4).
    Request(Request<'a>),
    /// A call with no `id` member at all, which gets no reply (§4.1).
    Notification(Notification<'a>),
    /// A reply carrying `result` (§5).
    Success(Success<'a>),
    /// A reply carrying `error` (§5, §5.1).
    Error(ErrorResponse<'a>),
}

/// What kind of message a [`Message`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageKind {
    /// [`Message::Request`]
    Request,
    /// [`Message::Notification`]
    Notification,
    /// [`Message::Success`]
    Success,
    /// [`Message::Error`]
    Error,
}

impl MessageKind {
    /// The kind's name in reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            MessageKind::Request => "request",
            MessageKind::Notification => "notification",
            MessageKind::Success => "success",
            MessageKind::Error => "error",
        }
    }
}

impl<'a> Message<'a> {
    /// The kind of message.
    #[must_use]
    pub fn kind(&self) -> MessageKind {
        match self {
            Message::Request(_) => MessageKind::Request,
            Message::Notification(_) => MessageKind::Notification,
            Message::Success(_) => MessageKind::Success,
            Message::Error(_) => MessageKind::Error,
        }
    }

    /// The `id` member: `None` for a notification and for an error response
    /// that has none.
    #[must_use]
    pub fn id(&self) -> Option<&Id<'a>> {
        match self {
            Message::Request(r) => Some(&r.id),
            Message::Notification(_) => None,
            Message::Success(s) => Some(&s.id),
            Message::Error(e) => e.id.as_ref(),
        }
    }

    /// The method of a request or notification.
    #[must_use]
    pub fn method(&self) -> Option<Cow<'_, str>> {
        match self {
            Message::Request(r) => Some(r.method.decoded()),
            Message::Notification(n) => Some(n.method.decoded()),
            _ => None,
        }
    }

    /// The params of a request or notification, when present.
    #[must_use]
    pub fn params(&self) -> Option<&Raw<'a>> {
        match self {
            Message::Request(r) => r.params.as_ref(),
            Message::Notification(n) => n.params.as_ref(),
            _ => None,
        }
    }

    /// The envelope members in wire order.
    #[must_use]
    pub fn layout(&self) -> &Layout<'a> {
        match self {
            Message::Request(r) => &r.layout,
            Message::Notification(n) => &n.layout,
            Message::Success(s) => &s.layout,
            Message::Error(e) => &e.layout,
        }
    }

    /// A copy that owns its text.
    #[must_use]
    pub fn into_owned(self) -> Message<'static> {
        match self {
            Message::Request(r) => Message::Request(Request {
                id: r.id.into_owned(),
                method: r.method.into_owned(),
                params: r.params.map(Raw::into_owned),
                layout: r.layout.into_owned(),
            }),
            Message::Notification(n) => Message::Notification(Notification {
                method: n.method.into_owned(),
                params: n.params.map(Raw::into_owned),
                layout: n.layout.into_owned(),
            }),
            Message::Success(s) => Message::Success(Success {
                id: s.id.into_owned(),
                result: s.result.into_owned(),
                layout: s.layout.into_owned(),
            }),
            Message::Error(e) => Message::Error(ErrorResponse {
                id: e.id.map(Id::into_owned),
                error: e.error.into_owned(),
                layout: e.layout.into_owned(),
            }),
        }
    }
}

/// A request (§4). Fields are public for reading and building; [`Layout`] keeps
/// the wire order, and lowering writes a modelled field the layout lacks at the
/// end, so a field set after lifting is never lost.
#[derive(Debug, Clone, PartialEq)]
pub struct Request<'a> {
    /// The id, `null` included.
    pub id: Id<'a>,
    /// The method name, as its string token.
    pub method: JsonStr<'a>,
    /// The params (an array or an object), absent when the member was absent.
    pub params: Option<Raw<'a>>,
    /// Member order and unmodelled members.
    pub layout: Layout<'a>,
}

impl Request<'static> {
    /// A new request, members in the canonical order `jsonrpc, id, method, params`.
    #[must_use]
    pub fn new(id: Id<'static>, method: &str, params: Option<Raw<'static>>) -> Self {
        let mut fields = vec![Field::Jsonrpc, Field::Id, Field::Method];
        if params.is_some() {
            fields.push(Field::Params);
        }
        Self {
            id,
            method: JsonStr::encode(method),
            params,
            layout: Layout::canonical(&fields),
        }
    }
}

/// A notification (§4.1): a request without an `id` member.
#[derive(Debug, Clone, PartialEq)]
pub struct Notification<'a> {
    /// The method name, as its string token.
    pub method: JsonStr<'a>,
    /// The params, absent when the member was absent.
    pub params: Option<Raw<'a>>,
    /// Member order and unmodelled members.
    pub layout: Layout<'a>,
}

impl Notification<'static> {
    /// A new notification, members in the order `jsonrpc, method, params`.
    #[must_use]
    pub fn new(method: &str, params: Option<Raw<'static>>) -> Self {
        let mut fields = vec![Field::Jsonrpc, Field::Method];
        if params.is_some() {
            fields.push(Field::Params);
        }
        Self {
            method: JsonStr::encode(method),
            params,
            layout: Layout::canonical(&fields),
        }
    }
}

/// A success response (§5).
#[derive(Debug, Clone, PartialEq)]
pub struct Success<'a> {
    /// The id of the request answered.
    pub id: Id<'a>,
    /// The result, of any JSON type.
    pub result: Raw<'a>,
    /// Member order and unmodelled members.
    pub layout: Layout<'a>,
}

impl Success<'static> {
    /// A new success response, members in the order `jsonrpc, id, result`.
    #[must_use]
    pub fn new(id: Id<'static>, result: Raw<'static>) -> Self {
        Self {
            id,
            result,
            layout: Layout::canonical(&[Field::Jsonrpc, Field::Id, Field::Result]),
        }
    }
}

/// An error response (§5, §5.1). The `id` is optional: JSON-RPC 2.0 requires it
/// (`null` when unknown) but MCP 2025-11-25 lets it be omitted, and the codec
/// lifts both; the rule model judges which revision allows what.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorResponse<'a> {
    /// The id, absent when the member was absent.
    pub id: Option<Id<'a>>,
    /// The error object.
    pub error: ErrorObject<'a>,
    /// Member order and unmodelled members.
    pub layout: Layout<'a>,
}

impl ErrorResponse<'static> {
    /// A new error response, members in the order `jsonrpc, id, error`.
    #[must_use]
    pub fn new(id: Option<Id<'static>>, error: ErrorObject<'static>) -> Self {
        let fields: &[Field] = if id.is_some() {
            &[Field::Jsonrpc, Field::Id, Field::Error]
        } else {
            &[Field::Jsonrpc, Field::Error]
        };
        Self {
            id,
            error,
            layout: Layout::canonical(fields),
        }
    }
}

/// The `error` member of an error response (§5.1), with its own layout so extras
/// inside it keep their place.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorObject<'a> {
    /// The code's exact text (integer syntax only).
    pub code_text: Cow<'a, str>,
    /// The code's value.
    pub code: i64,
    /// The message, as its string token.
    pub message: JsonStr<'a>,
    /// The data, of any JSON type, absent when absent (never `null` for absent).
    pub data: Option<Raw<'a>>,
    /// Member order and unmodelled members.
    pub layout: Layout<'a>,
}

impl ErrorObject<'static> {
    /// A new error object, members in the order `code, message, data`.
    #[must_use]
    pub fn new(code: i64, message: &str, data: Option<Raw<'static>>) -> Self {
        let mut fields = vec![Field::Code, Field::Message];
        if data.is_some() {
            fields.push(Field::Data);
        }
        Self {
            code_text: Cow::Owned(code.to_string()),
            code,
            message: JsonStr::encode(message),
            data,
            layout: Layout::canonical(&fields),
        }
    }
}

impl ErrorObject<'_> {
    /// A copy that owns its text.
    #[must_use]
    pub fn into_owned(self) -> ErrorObject<'static> {
        ErrorObject {
            code_text: Cow::Owned(self.code_text.into_owned()),
            code: self.code,
            message: self.message.into_owned(),
            data: self.data.map(Raw::into_owned),
            layout: self.layout.into_owned(),
        }
    }
}

/// A modelled member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// `jsonrpc`
    Jsonrpc,
    /// `id`
    Id,
    /// `method`
    Method,
    /// `params`
    Params,
    /// `result`
    Result,
    /// `error`
    Error,
    /// `error.code`
    Code,
    /// `error.message`
    Message,
    /// `error.data`
    Data,
}

impl Field {
    /// The member name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Field::Jsonrpc => "jsonrpc",
            Field::Id => "id",
            Field::Method => "method",
            Field::Params => "params",
            Field::Result => "result",
            Field::Error => "error",
            Field::Code => "code",
            Field::Message => "message",
            Field::Data => "data",
        }
    }

    /// The member name as a JSON string token.
    pub(crate) fn token(self) -> &'static str {
        match self {
            Field::Jsonrpc => "\"jsonrpc\"",
            Field::Id => "\"id\"",
            Field::Method => "\"method\"",
            Field::Params => "\"params\"",
            Field::Result => "\"result\"",
            Field::Error => "\"error\"",
            Field::Code => "\"code\"",
            Field::Message => "\"message\"",
            Field::Data => "\"data\"",
        }
    }

    /// The modelled envelope member a decoded name stands for.
    pub(crate) fn envelope(name: &str) -> Option<Field> {
        Some(match name {
            "jsonrpc" => Field::Jsonrpc,
            "id" => Field::Id,
            "method" => Field::Method,
            "params" => Field::Params,
            "result" => Field::Result,
            "error" => Field::Error,
            _ => return None,
        })
    }

    /// The modelled `error` member a decoded name stands for.
    pub(crate) fn error_member(name: &str) -> Option<Field> {
        Some(match name {
            "code" => Field::Code,
            "message" => Field::Message,
            "data" => Field::Data,
            _ => return None,
        })
    }
}

/// The members of an object in wire order: each a modelled field or an extra.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Layout<'a> {
    /// The slots, in order.
    pub slots: Vec<Slot<'a>>,
    /// The `jsonrpc` value's exact token (envelopes only; `"2.0"` when built).
    pub jsonrpc: Option<JsonStr<'a>>,
}

impl<'a> Layout<'a> {
    fn canonical(fields: &[Field]) -> Layout<'static> {
        Layout {
            slots: fields
                .iter()
                .map(|&f| Slot {
                    key: JsonStr(Cow::Borrowed(f.token())),
                    value: SlotValue::Field(f),
                })
                .collect(),
            jsonrpc: fields
                .contains(&Field::Jsonrpc)
                .then_some(JsonStr(Cow::Borrowed("\"2.0\""))),
        }
    }

    /// The unmodelled members, in order.
    pub fn extras(&self) -> impl Iterator<Item = (&JsonStr<'a>, &Raw<'a>)> {
        self.slots.iter().filter_map(|s| match &s.value {
            SlotValue::Extra(raw) => Some((&s.key, raw)),
            SlotValue::Field(_) => None,
        })
    }

    /// Adds an unmodelled member at the end.
    pub fn push_extra(&mut self, name: &str, value: Raw<'a>) {
        self.slots.push(Slot {
            key: JsonStr::encode(name),
            value: SlotValue::Extra(value),
        });
    }

    fn into_owned(self) -> Layout<'static> {
        Layout {
            slots: self
                .slots
                .into_iter()
                .map(|s| Slot {
                    key: s.key.into_owned(),
                    value: match s.value {
                        SlotValue::Field(f) => SlotValue::Field(f),
                        SlotValue::Extra(r) => SlotValue::Extra(r.into_owned()),
                    },
                })
                .collect(),
            jsonrpc: self.jsonrpc.map(JsonStr::into_owned),
        }
    }
}

/// One member of an object: its name token exactly as it came, and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Slot<'a> {
    /// The member name, as its exact string token.
    pub key: JsonStr<'a>,
    /// A modelled field (its value lives in the typed struct) or an extra.
    pub value: SlotValue<'a>,
}

/// What a [`Slot`] holds.
#[derive(Debug, Clone, PartialEq)]
pub enum SlotValue<'a> {
    /// A modelled member; its value is in the typed struct.
    Field(Field),
    /// An unmodelled member, kept as text.
    Extra(Raw<'a>),
}
