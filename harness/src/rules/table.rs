//! `rule_table!`, which expands the catalogue's one table
//! ([`super::catalogue`]) into [`RuleId`](super::RuleId), the type of its
//! rows ([`RuleInfo`](super::RuleInfo)) and the rows themselves.

/// Expands the rule table. Two blocks, codec rules first (they are reported
/// first, in [`crate::Rule`]'s order):
///
/// - `codec { Variant = "id", code, level, "citation", "quote"; … }`: a [`Rule`](crate::Rule)
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
        /// One rule the model knows.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct RuleInfo {
            /// Stable id, namespaced: `jsonrpc.…`, `mcp.base.…`, `mcp.lifecycle.…`
            /// ([`RuleId::as_str`]).
            pub id: RuleId,
            /// How binding it is.
            pub level: Level,
            /// Where it is written, without the revision: `JSON-RPC 2.0 §4`,
            /// `MCP basic/index §Messages › Requests`. A revision that words it elsewhere
            /// follows after ` | `: `… | 2024-11-05: MCP basic/messages §Requests`. See
            /// [`RuleInfo::cite`].
            pub spec: &'static str,
            /// The sentence that says it, verbatim (or the schema fact, marked so).
            pub quote: &'static str,
            /// The revisions it applies to.
            pub revisions: Revisions,
            /// How it is checked.
            pub check: CheckedBy,
        }

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
        pub(super) static INFOS: [RuleInfo; COUNT] = [
            $( RuleInfo {
                id: RuleId::$cv,
                level: $clevel,
                spec: $cspec,
                quote: $cquote,
                revisions: Revisions::ALL,
                check: CheckedBy::Codec,
            }, )*
            $( RuleInfo {
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

            /// The rule's stable id.
            #[must_use]
            pub fn id(self) -> &'static str {
                RuleId::from(self).as_str()
            }

            /// Where the rule is written.
            #[must_use]
            pub fn spec(self) -> &'static str {
                RuleId::from(self).info().spec
            }

            /// Looks a rule up by its id.
            #[must_use]
            pub fn from_id(id: &str) -> Option<$crate::Rule> {
                id.parse::<RuleId>().ok()?.codec()
            }
        }
    };
}
