//! The words a rule's facts are written in: how binding it is ([`Level`]),
//! the revisions it applies to ([`Revisions`]) and how it is checked
//! ([`CheckedBy`]). A leaf: the catalogue's table is written in them, and nothing
//! here reaches back into the rule model or the codec.

use std::fmt;
use std::str::FromStr;

use crate::profile::Revision;

/// How binding a rule is (RFC 2119 keywords, as the specification writes them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// MUST, REQUIRED, SHALL.
    Must,
    /// MUST NOT, SHALL NOT.
    MustNot,
    /// SHOULD, RECOMMENDED.
    Should,
    /// SHOULD NOT, NOT RECOMMENDED.
    ShouldNot,
    /// MAY, OPTIONAL.
    May,
}

impl Level {
    /// Every level, strongest first.
    pub const ALL: [Level; 5] = [
        Level::Must,
        Level::MustNot,
        Level::Should,
        Level::ShouldNot,
        Level::May,
    ];

    /// The keyword as the specification writes it: `MUST`, `MUST NOT`, …
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Level::Must => "MUST",
            Level::MustNot => "MUST NOT",
            Level::Should => "SHOULD",
            Level::ShouldNot => "SHOULD NOT",
            Level::May => "MAY",
        }
    }

    /// Whether breaking the rule is a conformance failure (MUST, MUST NOT), as
    /// opposed to a finding that only `--strict` fails on.
    #[must_use]
    pub fn is_mandatory(self) -> bool {
        matches!(self, Level::Must | Level::MustNot)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| {
                format!("unknown level `{s}`; expected MUST, MUST NOT, SHOULD, SHOULD NOT or MAY")
            })
    }
}

impl serde::Serialize for Level {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Level {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A set of revisions, as a bit per [`Revision`], so the catalogue can be a
/// `const` table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Revisions(u8);

impl Revisions {
    /// Plain JSON-RPC 2.0 and every MCP revision.
    pub const ALL: Revisions = Revisions::range(Revision::JsonRpc2, Revision::Mcp2026_07_28);
    /// Every MCP revision.
    pub const MCP: Revisions = Revisions::range(Revision::Mcp2024_11_05, Revision::Mcp2026_07_28);

    const fn bit(r: Revision) -> u8 {
        1 << (r as u8)
    }

    /// One revision.
    #[must_use]
    pub const fn only(r: Revision) -> Revisions {
        Revisions(Self::bit(r))
    }

    /// `from` through `to`, both included.
    #[must_use]
    pub const fn range(from: Revision, to: Revision) -> Revisions {
        let mut bits = 0u8;
        let mut i = from as u8;
        while i <= to as u8 {
            bits |= 1 << i;
            i += 1;
        }
        Revisions(bits)
    }

    /// The revisions in either set.
    #[must_use]
    pub const fn with(self, other: Revisions) -> Revisions {
        Revisions(self.0 | other.0)
    }

    /// Whether `r` is in the set.
    #[must_use]
    pub const fn contains(self, r: Revision) -> bool {
        self.0 & Self::bit(r) != 0
    }

    /// The revisions in the set, oldest first.
    pub fn iter(self) -> impl Iterator<Item = Revision> {
        Revision::ALL.into_iter().filter(move |&r| self.contains(r))
    }
}

/// How a rule is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CheckedBy {
    /// By the codec: a frame breaking it does not lift ([`crate::Refusal`]).
    Codec,
    /// On one frame, by [`validate_frame`](super::validate_frame).
    Frame,
    /// On a request and its reply, by [`validate_reply`](super::validate_reply).
    Reply,
    /// On a whole conversation, by the session judge ([`crate::session`]):
    /// earlier frames, ids in flight, what was negotiated.
    Session,
    /// By the live runner's transport judge (`wirecheck run --http`): HTTP
    /// statuses and headers, which no frame carries; over stdio, whether the
    /// server process exits once its input is closed.
    Transport,
    /// By the live runner (`wirecheck run`, any transport) comparing what a
    /// peer answered in *separate* sessions: no one conversation shows it (a
    /// server's answer to a version it does not support is judged against
    /// the versions it accepted when each was asked in its own session); or
    /// with a probe only the runner can make, since it alone knows what it
    /// made up (a cursor no server issued, a tool name in another case than
    /// the server listed), where a capture cannot tell it from a peer's
    /// earlier connection. Judging a client (`wirecheck serve --judge`), the
    /// same holds the other way: only the reference peer knows every cursor
    /// it issues.
    Runner,
    /// Not checked: no conversation on the wire can show it (it needs the
    /// peer's internals, what it supports, what it stored), or the session
    /// judge does not check it yet. The reason says which, and what it would take.
    Unchecked(&'static str),
}

impl CheckedBy {
    /// Whether [`validate`](super::validate), [`validate_frame`](super::validate_frame) or [`validate_reply`](super::validate_reply) can
    /// report it: one frame or one exchange shows it.
    #[must_use]
    pub fn is_per_frame(self) -> bool {
        matches!(self, CheckedBy::Codec | CheckedBy::Frame | CheckedBy::Reply)
    }
}
