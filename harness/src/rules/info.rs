//! The words drawn from what the model knows of one rule ([`RuleInfo`], a
//! row of the catalogue's table): whether it applies under a revision, its
//! citation under a revision, the sentence without commentary.

use std::sync::OnceLock;

use super::catalogue::{RuleInfo, INFOS};
use crate::profile::Revision;

impl RuleInfo {
    /// Whether the rule applies under `revision`.
    #[must_use]
    pub fn applies_to(&self, revision: Revision) -> bool {
        self.revisions.contains(revision)
    }

    /// The specification's own words: [`RuleInfo::quote`] without the
    /// catalogue's commentary, which follows the sentence in parentheses
    /// (`… Request Object. (Same value means same JSON type …)`). What a
    /// report quotes to a reader as the sentence broken.
    #[must_use]
    pub fn sentence(&self) -> &'static str {
        let quote = self.quote;
        // Commentary opens right after a sentence's end, or with one of the
        // catalogue's own openings wherever it stands.
        let after_end = [". (", ".\" (", "? (", ".) (", ".` ("]
            .iter()
            .filter_map(|m| quote.find(m).map(|i| i + m.len() - 2))
            .min();
        let marked = [
            " (No keyword",
            " (No RFC 2119",
            " (Lowercase",
            " (no keyword",
        ]
        .iter()
        .filter_map(|m| quote.find(m))
        .min();
        let cut = match (after_end, marked) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b).unwrap_or(quote.len()),
        };
        quote[..cut].trim_end()
    }

    /// Whether the text states the answer without an RFC 2119 keyword (the
    /// JSON-RPC 2.0 §5.1 code table, the tools page's list of protocol
    /// errors, a lowercase "should"): a reading reported as a convention,
    /// never as a SHOULD, whatever level the verdict weighs it at. The
    /// catalogue says so in the rule's commentary.
    #[must_use]
    pub fn keyword_free(&self) -> bool {
        let commentary = &self.quote[self.sentence().len()..];
        [
            "No keyword",
            "no keyword",
            "No RFC 2119 keyword",
            "Lowercase \"should\"",
        ]
        .iter()
        .any(|m| commentary.contains(m))
    }

    /// The reference as `revision` words it, with the revision named: `MCP
    /// 2025-06-18 basic/index §Messages › Requests`, `MCP 2024-11-05
    /// basic/messages §Requests`; JSON-RPC 2.0 and RFC references are returned as
    /// they are, since they have one revision.
    #[must_use]
    pub fn cite(&self, revision: Revision) -> &'static str {
        static CITES: OnceLock<Vec<[&'static str; 6]>> = OnceLock::new();
        let cites = CITES.get_or_init(|| {
            INFOS
                .iter()
                .map(|r| {
                    Revision::ALL.map(|rev| {
                        let mut parts = r.spec.split(" | ");
                        let default = parts.next().unwrap_or(r.spec);
                        let here = parts
                            .find_map(|p| p.strip_prefix(rev.name())?.strip_prefix(": "))
                            .unwrap_or(default);
                        // A reference already dated (`MCP 2025-06-18 changelog`) is
                        // one page of one revision: kept as written.
                        let dated =
                            |rest: &str| Revision::MCP.iter().any(|r| rest.starts_with(r.name()));
                        match here.strip_prefix("MCP ") {
                            // Built once for the whole table and kept for the life of
                            // the process: bounded, and it keeps `Violation` plain data.
                            Some(rest) if rev.is_mcp() && !dated(rest) => {
                                &*Box::leak(format!("MCP {} {rest}", rev.name()).into_boxed_str())
                            }
                            _ => here,
                        }
                    })
                })
                .collect()
        });
        // `INFOS` is in `RuleId` order, so the id indexes the row.
        cites
            .get(self.id as usize)
            .map_or(self.spec, |row| row[revision as usize])
    }
}
