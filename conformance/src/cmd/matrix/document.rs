//! `matrix.json`: the matrix's one source of truth
//! (`schemas/matrix.schema.json`). The pages are rendered from it, parts
//! made by `--shard` merge into it, `--against` compares two of them. A
//! cell carries every finding of its run (not only the worst), so a later
//! matrix can say what is new and what was fixed without the old runs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::report::{rule_id, Report};

/// This document's format; bumped on an incompatible change.
pub const FORMAT: u32 = 1;

/// The whole matrix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Matrix {
    /// [`FORMAT`].
    pub format: u32,
    /// The wirecheck version that made it.
    pub tool_version: String,
    /// The manifest, as named on the command line.
    pub manifest: String,
    /// When it started (RFC 3339, UTC); a timing, not compared.
    pub started: String,
    /// How long it took, in milliseconds; a timing, not compared.
    pub duration_ms: u64,
    /// `K/N` for a part made with `--shard`; absent for a whole matrix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// The fuzz column's budget per server, in seconds; absent without `--fuzz`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuzz_seconds: Option<u64>,
    /// Every revision any cell has, oldest first (`jsonrpc-2.0` first).
    pub revisions: Vec<String>,
    /// The servers judged, sorted by name.
    pub servers: Vec<ServerRow>,
}

/// One server and its runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerRow {
    /// Its name in the manifest.
    pub name: String,
    /// `npm`, `pypi`, `crates.io`, `builtin`.
    pub ecosystem: String,
    /// `name@version`.
    pub package: String,
    /// The pinned version.
    pub version: String,
    /// `mcp` or `jsonrpc-2.0`.
    pub profile: String,
    /// The revisions it claims.
    pub claims: Vec<String>,
    /// Its baseline, relative to the manifest's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<String>,
    /// One run per transport, in the manifest's order.
    pub runs: Vec<Run>,
    /// The short fuzz, when asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuzz: Option<Fuzz>,
}

/// One `wirecheck run` of a server over one transport.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    /// `stdio`, `streamable-http`, `sse`, `jsonrpc-http`.
    pub transport: String,
    /// `ran`, or `could-not-run` (never a failure).
    pub status: String,
    /// Why it could not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The run document, relative to the matrix's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<String>,
    /// Its transcripts folder, relative to the matrix's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcripts: Option<String>,
    /// Its standard error (the runner's summary), relative to the matrix's folder.
    pub log: String,
    /// One line that makes the same run again, from the manifest's folder.
    pub reproducer: String,
    /// How long it took, in milliseconds; a timing, not compared.
    pub duration_ms: u64,
    /// One cell per revision the run judged.
    pub cells: Vec<Cell>,
}

/// One cell: a server over a transport under a revision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// The revision (`2025-06-18`, `jsonrpc-2.0`), or `any` for records of
    /// the run as a whole (a stale baseline entry).
    pub revision: String,
    /// `fail`, `warning`, `pass`, `not-applicable` or `could-not-run`:
    /// the worst outcome, so a cell is red only for a broken MUST (or a stale
    /// baseline entry, which fails the run too).
    pub status: String,
    /// Records by outcome (`Outcome::NAMES`), and `total`.
    pub tally: BTreeMap<String, usize>,
    /// The worst finding, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worst: Option<Finding>,
    /// Every fail, warning and stale record.
    pub findings: Vec<Finding>,
}

/// A record that found something.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Finding {
    /// `fail`, `warning` or `stale`.
    pub outcome: String,
    /// The rule broken (the first violation's), or the check's.
    pub rule: String,
    /// `MUST`, `SHOULD`, … as the rule's text says.
    pub level: String,
    /// The vector or session it came from.
    pub vector: String,
    /// What was wrong, one line.
    pub message: String,
    /// The defect it shows (`rule/answer-shape`, the run document's
    /// fingerprint), where the record is a check of the peer's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defect: Option<String>,
}

/// The short fuzz of one server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fuzz {
    /// `clean`, `findings`, `not-applicable` or `could-not-run`.
    pub status: String,
    /// The fuzzer's summary line, or why it did not run.
    pub summary: String,
    /// Where its findings and log went, relative to the matrix's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out_dir: Option<String>,
    /// One line that fuzzes it again, from the manifest's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproducer: Option<String>,
}

/// How bad an outcome is for a cell's colour; higher is worse. Not
/// applicable and not observed rank under pass: they are never red, and a
/// cell with one pass is green.
fn rank(status: &str) -> u8 {
    match status {
        "fail" | "stale" => 4,
        "warning" => 3,
        "pass" | "known-failure" => 2,
        "not-observed" | "not-applicable" => 1,
        _ => 0,
    }
}

/// Whether a record's outcome is a finding the matrix lists.
fn is_finding(outcome: &str) -> bool {
    matches!(outcome, "fail" | "warning" | "stale")
}

impl Cell {
    /// The cells of a run document: one per revision its records name, in
    /// `revisions` order, and `any` for records that name none.
    #[must_use]
    pub fn of_report(report: &Report) -> Vec<Cell> {
        let mut by_revision: BTreeMap<String, Cell> = BTreeMap::new();
        for record in &report.records {
            let revision = record
                .place
                .revision
                .map_or_else(|| "any".to_string(), |r| r.name().to_string());
            let cell = by_revision.entry(revision.clone()).or_insert_with(|| Cell {
                revision,
                status: "not-applicable".into(),
                tally: BTreeMap::new(),
                worst: None,
                findings: Vec::new(),
            });
            let outcome = record.outcome.name();
            *cell.tally.entry(outcome.to_string()).or_default() += 1;
            *cell.tally.entry("total".into()).or_default() += 1;
            let status = match outcome {
                "stale" => "fail",
                "known-failure" => "pass",
                "not-observed" => "not-applicable",
                other => other,
            };
            if rank(status) > rank(&cell.status) {
                cell.status = status.to_string();
            }
            if is_finding(outcome) {
                cell.findings.push(finding(record));
            }
        }
        let mut cells: Vec<Cell> = by_revision.into_values().collect();
        for cell in &mut cells {
            cell.worst = cell
                .findings
                .iter()
                .max_by_key(|f| (rank(&f.outcome), std::cmp::Reverse((*f).clone())))
                .cloned();
        }
        cells.sort_by_key(|c| revision_order(&c.revision));
        cells
    }
}

/// Where a revision sorts: `jsonrpc-2.0` first, MCP revisions by date,
/// `any` last.
#[must_use]
pub fn revision_order(revision: &str) -> (u8, String) {
    match revision {
        "jsonrpc-2.0" => (0, String::new()),
        "any" => (2, String::new()),
        other => (1, other.to_string()),
    }
}

fn finding(record: &crate::report::Record) -> Finding {
    let first = record.violations.as_ref().and_then(|v| v.first());
    // The rule the peer broke, as the run's defects name it; a record no
    // defect holds (a stale entry) by its own.
    let breach = crate::report::breach(record);
    let (rule, level) = match (&breach, first, &record.check, &record.refusal) {
        (Some((rule, level)), ..) => (rule.to_string(), level.name().to_string()),
        (None, Some(v), _, _) => (rule_id(v).to_string(), v.level.name().to_string()),
        (None, None, Some(check), _) => (check.rule.to_string(), check.level.name().to_string()),
        (None, None, None, Some(r)) => (r.rule.as_str().to_string(), "MUST".to_string()),
        (None, None, None, None) => (String::new(), String::new()),
    };
    let defect = breach.map(|(rule, _)| {
        format!(
            "{}/{}",
            crate::report::family(&rule),
            crate::report::Shape::of(record).slug()
        )
    });
    let message = first.map_or_else(
        || {
            record
                .outcome
                .reason()
                .map(crate::report::text::printable_str)
                .unwrap_or_default()
        },
        |v| crate::report::text::printable_str(&v.message),
    );
    Finding {
        outcome: record.outcome.name().to_string(),
        rule,
        level,
        vector: record.place.vector.clone().unwrap_or_default(),
        message,
        defect,
    }
}

/// Every `could-not-run` cell of a run that could not be made: one per
/// claimed revision (or the profile's one), so the row still shows where
/// it would have been.
#[must_use]
pub fn could_not_run_cells(claims: &[String], profile: &str) -> Vec<Cell> {
    let revisions: Vec<String> = if profile == "jsonrpc-2.0" {
        vec!["jsonrpc-2.0".into()]
    } else if claims.is_empty() {
        vec!["any".into()]
    } else {
        claims.to_vec()
    };
    revisions
        .into_iter()
        .map(|revision| Cell {
            revision,
            status: "could-not-run".into(),
            tally: BTreeMap::new(),
            worst: None,
            findings: Vec::new(),
        })
        .collect()
}

impl Matrix {
    /// Recomputes `revisions` from the cells and sorts the servers.
    pub fn normalise(&mut self) {
        self.servers.sort_by(|a, b| a.name.cmp(&b.name));
        let mut revisions: Vec<String> = self
            .servers
            .iter()
            .flat_map(|s| s.runs.iter())
            .flat_map(|r| r.cells.iter().map(|c| c.revision.clone()))
            .collect();
        revisions.sort_by_key(|r| revision_order(r));
        revisions.dedup();
        self.revisions = revisions;
    }

    /// The document as pretty JSON with a final newline.
    #[must_use]
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = serde_json::to_vec_pretty(self).expect("a matrix always serialises");
        out.push(b'\n');
        out
    }

    /// Reads a matrix document.
    ///
    /// # Errors
    /// It cannot be read or is not a matrix of this format.
    pub fn read(path: &std::path::Path) -> Result<Matrix, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let matrix: Matrix = serde_json::from_slice(&bytes)
            .map_err(|e| format!("{}: not a matrix document: {e}", path.display()))?;
        if matrix.format != FORMAT {
            return Err(format!(
                "{}: matrix format {}, this wirecheck reads {FORMAT}",
                path.display(),
                matrix.format
            ));
        }
        Ok(matrix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Command, Place, Record, Subject};
    use harness::{Outcome, Revision};

    fn record(revision: Option<Revision>, outcome: Outcome) -> Record {
        Record::new(
            Place {
                vector: Some("v".into()),
                revision,
                ..Place::default()
            },
            Subject::Frame(Vec::new()),
            outcome,
        )
    }

    #[test]
    fn a_cell_is_red_only_for_a_broken_must_and_never_for_not_applicable() {
        let mut report = Report::new(Command::Run);
        let r = Some(Revision::Mcp2025_03_26);
        let j = Some(Revision::JsonRpc2);
        report.records = vec![
            record(r, Outcome::NotApplicable { why: "no".into() }),
            record(r, Outcome::NotObserved { why: "no".into() }),
            record(j, Outcome::Pass),
            record(j, Outcome::Warning),
            record(j, Outcome::NotApplicable { why: "no".into() }),
            record(None, Outcome::Fail),
        ];
        let cells = Cell::of_report(&report);
        let status: Vec<(&str, &str)> = cells
            .iter()
            .map(|c| (c.revision.as_str(), c.status.as_str()))
            .collect();
        assert_eq!(
            status,
            [
                ("jsonrpc-2.0", "warning"),
                ("2025-03-26", "not-applicable"),
                ("any", "fail")
            ]
        );
        assert_eq!(cells[0].tally["total"], 3);
        assert_eq!(cells[0].worst.as_ref().unwrap().outcome, "warning");
        assert!(cells[1].worst.is_none());
    }
}
