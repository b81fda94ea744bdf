//! `lower`: the IR back to wire bytes.
//!
//! Each object is written by walking its [`Layout`]: the member names exactly as
//! they came, each value either a modelled field's text or an extra's text. No
//! whitespace is written between the tokens lowering owns; values are copied as
//! they are.

use crate::ir::{ErrorObject, Field, Frame, Layout, Message, SlotValue};

/// Writes `frame` to `out`.
pub fn lower(frame: &Frame<'_>, out: &mut Vec<u8>) {
    match frame {
        Frame::Single(message) => lower_message(message, out),
        Frame::Batch(messages) => {
            out.push(b'[');
            for (i, message) in messages.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                lower_message(message, out);
            }
            out.push(b']');
        }
    }
}

/// Writes `frame` to a new buffer.
#[must_use]
pub fn lower_to_vec(frame: &Frame<'_>) -> Vec<u8> {
    let mut out = Vec::with_capacity(size_hint(frame));
    lower(frame, &mut out);
    out
}

/// Writes one message to `out`.
pub fn lower_message(message: &Message<'_>, out: &mut Vec<u8>) {
    let layout = message.layout();
    write_object(layout, present(message), out, |field, out| {
        let text: &str = match (message, field) {
            (_, Field::Jsonrpc) => layout.jsonrpc.as_ref().map_or("\"2.0\"", |j| j.raw()),
            (Message::Request(r), Field::Id) => r.id.raw(),
            (Message::Success(s), Field::Id) => s.id.raw(),
            (Message::Error(e), Field::Id) => match &e.id {
                Some(id) => id.raw(),
                None => return false,
            },
            (Message::Request(r), Field::Method) => r.method.raw(),
            (Message::Notification(n), Field::Method) => n.method.raw(),
            (Message::Request(r), Field::Params) => match &r.params {
                Some(p) => p.as_str(),
                None => return false,
            },
            (Message::Notification(n), Field::Params) => match &n.params {
                Some(p) => p.as_str(),
                None => return false,
            },
            (Message::Success(s), Field::Result) => s.result.as_str(),
            (Message::Error(e), Field::Error) => {
                write_error(&e.error, out);
                return true;
            }
            // A field this kind of message does not model (`"result"` on a
            // request cannot lift): nothing to write.
            _ => return false,
        };
        out.extend_from_slice(text.as_bytes());
        true
    });
}

fn write_error(error: &ErrorObject<'_>, out: &mut Vec<u8>) {
    let mut fields = vec![Field::Code, Field::Message];
    if error.data.is_some() {
        fields.push(Field::Data);
    }
    write_object(&error.layout, &fields, out, |field, out| {
        let text: &str = match field {
            Field::Code => &error.code_text,
            Field::Message => error.message.raw(),
            Field::Data => match &error.data {
                Some(d) => d.as_str(),
                None => return false,
            },
            _ => return false,
        };
        out.extend_from_slice(text.as_bytes());
        true
    });
}

/// The modelled fields a message has values for, in canonical order.
fn present(message: &Message<'_>) -> &'static [Field] {
    use Field::{Error, Id, Jsonrpc, Method, Params, Result};
    match message {
        Message::Request(r) if r.params.is_some() => &[Jsonrpc, Id, Method, Params],
        Message::Request(_) => &[Jsonrpc, Id, Method],
        Message::Notification(n) if n.params.is_some() => &[Jsonrpc, Method, Params],
        Message::Notification(_) => &[Jsonrpc, Method],
        Message::Success(_) => &[Jsonrpc, Id, Result],
        Message::Error(e) if e.id.is_some() => &[Jsonrpc, Id, Error],
        Message::Error(_) => &[Jsonrpc, Error],
    }
}

/// Writes an object's members in layout order; `value` writes a modelled field's
/// value and says whether it had one. A present field the layout lacks (set
/// after lifting) is written at the end, so it is never silently dropped.
fn write_object(
    layout: &Layout<'_>,
    present: &[Field],
    out: &mut Vec<u8>,
    mut value: impl FnMut(Field, &mut Vec<u8>) -> bool,
) {
    out.push(b'{');
    let mut written = 0u16;
    let mut first = true;
    let member = |key: &str, out: &mut Vec<u8>, first: &mut bool| {
        if !*first {
            out.push(b',');
        }
        *first = false;
        out.extend_from_slice(key.as_bytes());
        out.push(b':');
    };
    for slot in &layout.slots {
        match &slot.value {
            SlotValue::Extra(raw) => {
                member(slot.key.raw(), out, &mut first);
                out.extend_from_slice(raw.as_str().as_bytes());
            }
            SlotValue::Field(field) => {
                let bit = 1u16 << (*field as u16);
                if written & bit != 0 {
                    continue;
                }
                let mark = out.len();
                let was_first = first;
                member(slot.key.raw(), out, &mut first);
                if value(*field, out) {
                    written |= bit;
                } else {
                    out.truncate(mark);
                    first = was_first;
                }
            }
        }
    }
    for &field in present {
        if written & (1u16 << (field as u16)) == 0 {
            let mark = out.len();
            let was_first = first;
            member(field.token(), out, &mut first);
            if !value(field, out) {
                out.truncate(mark);
                first = was_first;
            }
        }
    }
    out.push(b'}');
}

fn size_hint(frame: &Frame<'_>) -> usize {
    frame
        .messages()
        .iter()
        .map(|m| {
            let layout = m.layout();
            let modelled = match m {
                Message::Request(r) => r.params.as_ref().map_or(0, |p| p.as_str().len()) + 32,
                Message::Notification(n) => n.params.as_ref().map_or(0, |p| p.as_str().len()) + 32,
                Message::Success(s) => s.result.as_str().len() + 16,
                Message::Error(e) => {
                    e.error.message.raw().len()
                        + e.error.data.as_ref().map_or(0, |d| d.as_str().len())
                        + 32
                }
            };
            modelled
                + 16
                + layout
                    .slots
                    .iter()
                    .map(|s| {
                        s.key.raw().len()
                            + 2
                            + match &s.value {
                                SlotValue::Extra(raw) => raw.as_str().len(),
                                SlotValue::Field(_) => 0,
                            }
                    })
                    .sum::<usize>()
        })
        .sum::<usize>()
        + 2
}
