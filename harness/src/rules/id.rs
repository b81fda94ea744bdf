//! Typed rule ids: [`RuleId`], one variant per rule, generated with its facts
//! from the one table in `catalogue.rs` by `rule_table!` (defined there), and
//! what every id can do: its facts, its spelling, parsing and serde.
//!
//! The table is the only place a rule is written: its id, level, citation,
//! quote, revisions and check sit in one row, and the macro expands the rows into
//! the enum, its wire spelling, its [`RuleInfo`], and the codec's [`Rule`](crate::Rule) facts
//! (`Rule::ALL`, `Rule::code`, `From<Rule> for RuleId`). A check that names a rule
//! that has no row does not compile, and neither does a codec [`Rule`](crate::Rule) variant
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

use super::catalogue::{RuleId, RuleInfo, INFOS};

impl RuleId {
    /// The rule's facts: level, citation, quote, revisions, check.
    #[must_use]
    pub fn info(self) -> &'static RuleInfo {
        &INFOS[self as usize]
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

impl RuleId {
    /// The note for a rule no conforming peer can always keep because the
    /// texts it rests on contradict each other, said once per run instead of
    /// as a warning per exchange; `None` for every other rule.
    ///
    /// Ambiguity A2, `mcp.base.error-id-null`: an error answering a request
    /// whose id could not be read, or a refused batch, carries `"id": null`,
    /// as JSON-RPC 2.0 §5 requires ("it MUST be Null"), while no MCP schema's
    /// error response allows a null id (2024-11-05 to 2025-06-18
    /// `JSONRPCError` `id: RequestId`; 2025-11-25 on `JSONRPCErrorResponse`
    /// `id?: RequestId`).
    #[must_use]
    pub fn run_level_ambiguity(self) -> Option<&'static str> {
        match self {
            RuleId::McpBaseErrorIdNull => Some(
                "ambiguity A2 (mcp.base.error-id-null): an error answering a frame whose id could not be read, or a refused batch, carries \"id\": null as JSON-RPC 2.0 §5 requires (\"it MUST be Null\"), though no MCP schema's error response allows a null id; a conforming server cannot avoid it, so it is said once per run and warns no exchange",
            ),
            _ => None,
        }
    }

    /// Whether an error response breaks this rule by having no `id` member
    /// (what [`crate::error_ids::idless_error_allowed`] lifts for an HTTP
    /// refusal's body).
    #[must_use]
    pub fn broken_by_an_idless_error(self) -> bool {
        matches!(
            self,
            RuleId::JsonrpcResponseIdRequired | RuleId::McpBaseErrorIdAbsent
        )
    }
}
