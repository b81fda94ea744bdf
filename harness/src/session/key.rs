//! Ids and progress tokens reduced to 64-bit keys, and the bounded memory of
//! ids already finished.
//!
//! A key agrees with [`Id::matches`]: strings hash their UTF-16 code units (so
//! `"\u0031"` and `"1"` are one key), numbers their exact decimal value (so `1`
//! and `1.0` are one key, `"1"` and `1` are not). In-flight entries keep the
//! request itself and are compared with `Id::matches` on lookup, so a hash
//! collision there can only miss, never pair the wrong request. The finished-id
//! history keeps keys alone: that is what keeps memory flat, at the price of a
//! 2^-64 chance per pair of a false "id reused".

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::ir::{decimal_value, Id, Raw};
use crate::scan::ValueKind;

/// An id's (or token's) identity as a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Key(u64);

impl Key {
    /// The key [`Id::matches`] agrees with.
    pub(crate) fn of(id: &Id<'_>) -> Key {
        let mut h = std::hash::DefaultHasher::new();
        match id {
            Id::String(s) => {
                h.write_u8(0);
                string_units(s.raw(), &mut h);
            }
            Id::Number(n) => {
                h.write_u8(1);
                number(n, &mut h);
            }
            Id::Null => h.write_u8(2),
        }
        Key(h.finish())
    }

    /// A progress token (a string or integer value), keyed like an id.
    pub(crate) fn of_token(token: &Raw<'_>) -> Key {
        let mut h = std::hash::DefaultHasher::new();
        match token.kind() {
            ValueKind::String => {
                h.write_u8(0);
                string_units(token.as_str(), &mut h);
            }
            ValueKind::Number => {
                h.write_u8(1);
                number(token.as_str(), &mut h);
            }
            // Any other type is refused per frame (mcp.progress.token-type); keyed
            // by text so the judge still follows it.
            _ => {
                h.write_u8(3);
                token.as_str().hash(&mut h);
            }
        }
        Key(h.finish())
    }

    /// The id's text without string quotes: `"1"` and `1` share it. Used only to
    /// pair an answer whose id changed type with the request it meant.
    pub(crate) fn loose(id: &Id<'_>) -> Key {
        let mut h = std::hash::DefaultHasher::new();
        match id {
            Id::String(s) => s.decoded().hash(&mut h),
            Id::Number(n) => n.hash(&mut h),
            Id::Null => h.write_u8(2),
        }
        Key(h.finish())
    }
}

fn string_units(token: &str, h: &mut impl Hasher) {
    let body = token.get(1..token.len().saturating_sub(1)).unwrap_or("");
    if body.contains('\\') {
        for unit in crate::ir::JsonStr(std::borrow::Cow::Borrowed(token)).units() {
            h.write_u16(unit);
        }
    } else {
        for unit in body.encode_utf16() {
            h.write_u16(unit);
        }
    }
}

fn number(text: &str, h: &mut impl Hasher) {
    match decimal_value(text) {
        Some(value) => value.hash(h),
        None => text.hash(h),
    }
}

/// Keys are hashes already: the maps use them as they are.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A map keyed by [`Key`], iterated in no particular order (callers sort).
pub(crate) type KeyMap<V> = HashMap<Key, V, BuildHasherDefault<KeyHasher>>;

/// How a finished request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Past {
    /// Answered at this event index; `input_required` when the answer was a
    /// 2026-07-28 `InputRequiredResult` (so a retry must take a new id);
    /// `task` when it was a 2025-11-25 `CreateTaskResult` (so the request
    /// lives on as a task, cancelled by `tasks/cancel`).
    Answered {
        index: u64,
        input_required: bool,
        task: bool,
    },
    /// Given up on: the stream closed or the wait ran out first. A late answer
    /// is not judged again.
    GaveUp,
}

/// The ids one side finished, newest kept: at most [`History::CAP`], the oldest
/// forgotten first. Beyond the cap, reuse of a very old id and a very late
/// duplicate answer go unseen; the cap is what keeps memory flat.
pub(crate) struct History {
    past: KeyMap<Past>,
    order: VecDeque<Key>,
}

impl History {
    /// Finished ids remembered per side.
    pub(crate) const CAP: usize = 65_536;

    pub(crate) fn new() -> Self {
        Self {
            past: KeyMap::default(),
            order: VecDeque::new(),
        }
    }

    pub(crate) fn get(&self, key: Key) -> Option<Past> {
        self.past.get(&key).copied()
    }

    pub(crate) fn insert(&mut self, key: Key, past: Past) {
        if self.past.insert(key, past).is_none() {
            self.order.push_back(key);
            if self.order.len() > Self::CAP {
                if let Some(old) = self.order.pop_front() {
                    self.past.remove(&old);
                }
            }
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.past.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(text: &str) -> Id<'static> {
        let frame = format!(r#"{{"jsonrpc":"2.0","id":{text},"result":{{}}}}"#);
        let lifted = crate::lift(frame.as_bytes()).expect("lifts");
        lifted.messages()[0]
            .id()
            .cloned()
            .expect("has id")
            .into_owned()
    }

    #[test]
    fn keys_agree_with_id_matches() {
        assert_eq!(Key::of(&id("1")), Key::of(&id("1.0")));
        assert_eq!(Key::of(&id("100")), Key::of(&id("1e2")));
        assert_eq!(Key::of(&id(r#""1""#)), Key::of(&id(r#""\u0031""#)));
        assert_ne!(Key::of(&id("1")), Key::of(&id(r#""1""#)));
        assert_eq!(Key::loose(&id("1")), Key::loose(&id(r#""1""#)));
        assert_ne!(
            Key::of(&id("9007199254740993")),
            Key::of(&id("9007199254740992"))
        );
    }

    #[test]
    fn history_forgets_the_oldest_beyond_its_cap() {
        let mut h = History::new();
        for n in 0..=History::CAP as u64 {
            h.insert(Key(n), Past::GaveUp);
        }
        assert_eq!(h.len(), History::CAP);
        assert_eq!(h.get(Key(0)), None);
        assert_eq!(h.get(Key(History::CAP as u64)), Some(Past::GaveUp));
    }
}
