//! A plain, stable description of the IR, for snapshots and `--explain` output:
//! what the codec understood a frame to be, member by member.

use serde_json::{json, Map, Value};

use super::{ErrorObject, Frame, Id, Layout, Message, SlotValue};

/// Describes a frame as JSON: its kind, its modelled members (as their exact
/// text) and its member order with extras.
#[must_use]
pub fn describe(frame: &Frame<'_>) -> Value {
    match frame {
        Frame::Single(m) => describe_message(m),
        Frame::Batch(ms) => json!({ "batch": ms.iter().map(describe_message).collect::<Vec<_>>() }),
    }
}

fn id(id: &Id<'_>) -> Value {
    match id {
        Id::String(s) => json!({ "string": s.raw() }),
        Id::Number(n) => json!({ "number": n.as_ref() }),
        Id::Null => json!("null"),
    }
}

fn order(layout: &Layout<'_>) -> Value {
    Value::Array(
        layout
            .slots
            .iter()
            .map(|slot| match &slot.value {
                SlotValue::Field(f) => json!(f.name()),
                SlotValue::Extra(raw) => json!({ "extra": slot.key.raw(), "value": raw.as_str() }),
            })
            .collect(),
    )
}

fn error(e: &ErrorObject<'_>) -> Value {
    let mut m = Map::new();
    m.insert("code".into(), json!(e.code_text.as_ref()));
    m.insert("message".into(), json!(e.message.raw()));
    if let Some(d) = &e.data {
        m.insert("data".into(), json!(d.as_str()));
    }
    m.insert("order".into(), order(&e.layout));
    Value::Object(m)
}

fn describe_message(message: &Message<'_>) -> Value {
    let mut m = Map::new();
    m.insert("kind".into(), json!(message.kind().name()));
    if let Some(i) = message.id() {
        m.insert("id".into(), id(i));
    }
    match message {
        Message::Request(r) => {
            m.insert("method".into(), json!(r.method.raw()));
            if let Some(p) = &r.params {
                m.insert("params".into(), json!(p.as_str()));
            }
        }
        Message::Notification(n) => {
            m.insert("method".into(), json!(n.method.raw()));
            if let Some(p) = &n.params {
                m.insert("params".into(), json!(p.as_str()));
            }
        }
        Message::Success(s) => {
            m.insert("result".into(), json!(s.result.as_str()));
        }
        Message::Error(e) => {
            m.insert("error".into(), error(&e.error));
        }
    }
    m.insert("order".into(), order(message.layout()));
    Value::Object(m)
}
