//! Request ids looked up in O(1) whatever a session's length: which ids a
//! session has sent ([`IdHistory`]), bucketed so that ids [`Id::matches`]
//! takes for one always meet ([`Bucket`]).

use std::collections::HashMap;

use harness::Id;

/// A hashable stand-in for an id that [`Id::matches`] agrees with: ids that
/// match always share a bucket (strings by decoded value, numbers by their
/// significant digits), and ids in one bucket are told apart by `matches`.
/// A lookup is O(1) whatever the session's length.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Bucket {
    /// A string id, decoded (lone surrogates collapse: `matches` decides).
    String(String),
    /// A number id's significant digits (`1`, `1.0`, `1e0`, `10e-1`: `1`).
    Number(String),
    /// `null`.
    Null,
}

impl Bucket {
    /// The bucket of `id`.
    #[must_use]
    pub fn of(id: &Id<'_>) -> Bucket {
        match id {
            Id::String(s) => Bucket::String(s.decoded().into_owned()),
            Id::Number(n) => {
                let mantissa = n.split(['e', 'E']).next().unwrap_or("");
                let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
                Bucket::Number(digits.trim_matches('0').to_owned())
            }
            Id::Null => Bucket::Null,
        }
    }
}

/// Every id sent in a session, looked up in O(1) (MCP 2025-11-25,
/// basic/index, "Requests", MUST NOT reuse an id within a session: our own
/// ids must avoid every id a fuzzed frame carried). A list scanned with
/// [`Id::matches`] cost a session of unique ids O(n) per request, and made
/// a long fuzz session slower with every frame.
#[derive(Debug, Default)]
pub struct IdHistory {
    seen: HashMap<Bucket, Vec<Id<'static>>>,
}

impl IdHistory {
    /// Records `id`; whether it was sent before.
    pub fn insert(&mut self, id: &Id<'_>) -> bool {
        let slot = self.seen.entry(Bucket::of(id)).or_default();
        if slot.iter().any(|u| u.matches(id)) {
            return true;
        }
        slot.push(id.clone().into_owned());
        false
    }

    /// Whether `id` was sent before.
    #[must_use]
    pub fn contains(&self, id: &Id<'_>) -> bool {
        self.seen
            .get(&Bucket::of(id))
            .is_some_and(|slot| slot.iter().any(|u| u.matches(id)))
    }
}
