//! Typed rule ids: [`RuleId`], one variant per rule, generated with its facts
//! from the one table in `catalogue.rs` by [`rule_table!`].
//!
//! The table is the only place a rule is written: its id, level, citation,
//! quote, revisions and check sit in one row, and the macro expands the rows into
//! the enum, its wire spelling, its [`RuleInfo`], and the codec's [`Rule`] facts
//! (`Rule::ALL`, `Rule::code`, `From<Rule> for RuleId`). A check that names a rule
//! that has no row does not compile, and neither does a codec [`Rule`] variant
//! without its row: every generated `match` is exhaustive, with no wildcard arm.
//!
//! ```
//! use harness::rules::RuleId;
//! assert_eq!(RuleId::McpBaseIdNotNull.as_str(), "mcp.base.id-not-null");
//! ```
//!
//! A misspelt rule is a compile error, not a silent miss:
//!
//! ```compile_fail
//! let _ = harness::rules::RuleId::McpBaseIdNotNul;
//! ```

use std::fmt;
use std::str::FromStr;

use super::RuleInfo;
#[cfg(doc)]
use crate::Rule;

/// Expands the rule table. Two blocks, codec rules first (they are reported
/// first, in [`Rule`]'s order):
///
/// - `codec { Variant = "id", code, level, "citation", "quote"; … }`: a [`Rule`]
///   variant of the same name, under every revision, checked by the codec;
///   `code` is the JSON-RPC error code a server answers it with, `level` the
///   text's (MUST for most; RFC 8259's SHOULD for unique names and MAY for a
///   receiver's limits, which are no fault of the sender).
/// - `rules { Variant = "id", level, "citation", "quote", revisions, check; … }`.
macro_rules! rule_table {
    (
        codec { $( $cv:ident = $cid:literal, $code:expr, $clevel:expr, $cspec:literal, $cquote:literal; )* }
        rules { $( $v:ident = $id:literal, $level:expr, $spec:literal, $quote:literal, $revs:expr, $check:expr; )* }
    ) => {
        /// A rule the model knows, by name. Its stable wire spelling is
        /// [`RuleId::as_str`] (also `Display`, `FromStr` and serde); its facts are
        /// [`RuleId::info`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum RuleId {
            $( #[doc = concat!("`", $cid, "` (codec refusal, ", $cspec, ")")] $cv, )*
            $( #[doc = concat!("`", $id, "` (", $spec, ")")] $v, )*
        }

        const COUNT: usize = [$( stringify!($cv), )* $( stringify!($v), )*].len();
        const CODEC_COUNT: usize = [$( stringify!($cv), )*].len();

        /// The facts of every rule, in [`RuleId`] order (so `id as usize` indexes it).
        pub(super) static INFOS: [$crate::rules::RuleInfo; COUNT] = [
            $( $crate::rules::RuleInfo {
                id: RuleId::$cv,
                level: $clevel,
                spec: $cspec,
                quote: $cquote,
                revisions: $crate::rules::Revisions::ALL,
                check: $crate::rules::Check::Codec,
            }, )*
            $( $crate::rules::RuleInfo {
                id: RuleId::$v,
                level: $level,
                spec: $spec,
                quote: $quote,
                revisions: $revs,
                check: $check,
            }, )*
        ];

        impl RuleId {
            /// Every rule: the codec's refusal rules first, then the catalogue,
            /// in table order.
            pub const ALL: [RuleId; COUNT] = [$( RuleId::$cv, )* $( RuleId::$v, )*];

            /// The stable id reports and vectors name: `jsonrpc.id-type`,
            /// `mcp.base.id-not-null`, …
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( RuleId::$cv => $cid, )*
                    $( RuleId::$v => $id, )*
                }
            }

            /// The codec refusal rule this is, if it is one.
            #[must_use]
            pub const fn codec(self) -> Option<$crate::Rule> {
                match self {
                    $( RuleId::$cv => Some($crate::Rule::$cv), )*
                    _ => None,
                }
            }

            pub(super) fn parse(s: &str) -> Option<RuleId> {
                match s {
                    $( $cid => Some(RuleId::$cv), )*
                    $( $id => Some(RuleId::$v), )*
                    _ => None,
                }
            }
        }

        // Exhaustive over `Rule`: a new codec rule without its row is an error here.
        impl From<$crate::Rule> for RuleId {
            fn from(rule: $crate::Rule) -> Self {
                match rule {
                    $( $crate::Rule::$cv => RuleId::$cv, )*
                }
            }
        }

        impl $crate::Rule {
            /// Every rule, for tables and exhaustive tests.
            pub const ALL: [$crate::Rule; CODEC_COUNT] = [$( $crate::Rule::$cv, )*];

            /// The JSON-RPC error code a server answers this refusal with: -32700
            /// for text that is not JSON, -32600 for JSON that is not a valid
            /// message.
            #[must_use]
            pub fn code(self) -> i64 {
                match self {
                    $( $crate::Rule::$cv => $code, )*
                }
            }
        }
    };
}
pub(super) use rule_table;

pub use super::catalogue::RuleId;

impl RuleId {
    /// The rule's facts: level, citation, quote, revisions, check.
    #[must_use]
    pub fn info(self) -> &'static RuleInfo {
        &super::catalogue::INFOS[self as usize]
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An id no rule has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRule(pub String);

impl fmt::Display for UnknownRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown rule id `{}`", self.0)
    }
}

impl std::error::Error for UnknownRule {}

impl FromStr for RuleId {
    type Err = UnknownRule;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RuleId::parse(s).ok_or_else(|| UnknownRule(s.to_owned()))
    }
}

impl serde::Serialize for RuleId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for RuleId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl PartialEq<str> for RuleId {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for RuleId {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}
