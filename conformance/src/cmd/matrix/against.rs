//! `--against OLD.json`: what changed since an earlier matrix. A finding is
//! new when the same server, transport, revision and vector had no finding of
//! its outcome before; fixed when it had one and the cell ran again without
//! it. The rule a finding is filed under is said, never part of its identity:
//! a check filed under another rule (the server's breach rather than the
//! probe's rule) is the same finding. A cell that could not run now fixes
//! nothing: it is listed apart.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::document::{Finding, Matrix};

/// Where a finding was, and which.
type Key = (String, String, String, String, String);

/// A cell that ran: server, transport, revision.
type Ran = BTreeSet<(String, String, String)>;

/// The changes between two matrices.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Findings not there before: (server, transport, revision, level rule, vector).
    pub new: Vec<Key>,
    /// Findings gone from a cell that ran both times.
    pub fixed: Vec<Key>,
    /// `server: old → new` for a version that moved, `server: new` / `gone`.
    pub versions: Vec<String>,
    /// `server transport revision` cells that could not run now but ran before.
    pub lost: Vec<String>,
}

/// Each finding by its identity (server, transport, revision, outcome,
/// vector), with how it is said (the level and rule in the 4th place).
fn identified(matrix: &Matrix) -> (BTreeMap<Key, Key>, Ran) {
    let mut keys = BTreeMap::new();
    let mut ran = BTreeSet::new();
    for server in &matrix.servers {
        for run in &server.runs {
            for cell in &run.cells {
                if cell.status == "could-not-run" {
                    continue;
                }
                ran.insert((
                    server.name.clone(),
                    run.transport.clone(),
                    cell.revision.clone(),
                ));
                for Finding {
                    outcome,
                    rule,
                    level,
                    vector,
                    message: _,
                    defect: _,
                } in &cell.findings
                {
                    let at = |what: String| {
                        (
                            server.name.clone(),
                            run.transport.clone(),
                            cell.revision.clone(),
                            what,
                            vector.clone(),
                        )
                    };
                    keys.insert(at(outcome.clone()), at(format!("{level} {rule}")));
                }
            }
        }
    }
    (keys, ran)
}

/// Compares `new` with `old`.
#[must_use]
pub fn compare(old: &Matrix, new: &Matrix) -> Changes {
    let (old_keys, old_ran) = identified(old);
    let (new_keys, new_ran) = identified(new);
    let cell = |k: &Key| (k.0.clone(), k.1.clone(), k.2.clone());
    let mut changes = Changes {
        // Never seen before, in whatever cell: new (even where the old cell
        // could not run, since nobody saw it there).
        new: new_keys
            .iter()
            .filter(|(id, _)| !old_keys.contains_key(*id))
            .map(|(_, said)| said.clone())
            .collect(),
        fixed: old_keys
            .iter()
            .filter(|(id, _)| !new_keys.contains_key(*id) && new_ran.contains(&cell(id)))
            .map(|(_, said)| said.clone())
            .collect(),
        ..Changes::default()
    };
    let old_versions: BTreeMap<&str, &str> = old
        .servers
        .iter()
        .map(|s| (s.name.as_str(), s.version.as_str()))
        .collect();
    let new_versions: BTreeMap<&str, &str> = new
        .servers
        .iter()
        .map(|s| (s.name.as_str(), s.version.as_str()))
        .collect();
    for (name, version) in &new_versions {
        match old_versions.get(name) {
            None => changes.versions.push(format!("{name}: new, {version}")),
            Some(old) if old != version => {
                changes.versions.push(format!("{name}: {old} → {version}"))
            }
            Some(_) => {}
        }
    }
    for name in old_versions.keys() {
        if !new_versions.contains_key(name) {
            changes.versions.push(format!("{name}: not in this matrix"));
        }
    }
    for c in old_ran.difference(&new_ran) {
        if new.servers.iter().any(|s| s.name == c.0) {
            changes.lost.push(format!("{} {} {}", c.0, c.1, c.2));
        }
    }
    changes
}

impl Changes {
    /// The Markdown section (the terminal prints it as it is).
    #[must_use]
    pub fn markdown(&self, old: &str) -> String {
        let mut md = format!("## Since {old}\n\n");
        if self.new.is_empty()
            && self.fixed.is_empty()
            && self.versions.is_empty()
            && self.lost.is_empty()
        {
            md.push_str("Nothing changed.\n");
            return md;
        }
        let list = |md: &mut String, title: &str, items: Vec<String>| {
            if !items.is_empty() {
                let _ = writeln!(md, "### {title} ({})\n", items.len());
                for item in items {
                    let _ = writeln!(md, "- {item}");
                }
                md.push('\n');
            }
        };
        let words = |k: &Key| format!("{} {} {}: {} ({})", k.0, k.1, k.2, k.3, k.4);
        list(
            &mut md,
            "New findings",
            self.new.iter().map(words).collect(),
        );
        list(
            &mut md,
            "Fixed findings",
            self.fixed.iter().map(words).collect(),
        );
        list(&mut md, "Server versions", self.versions.clone());
        list(&mut md, "Ran before, could not run now", self.lost.clone());
        md
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::matrix::document::{Cell, Run, ServerRow};

    fn finding(rule: &str) -> Finding {
        Finding {
            defect: None,
            outcome: "fail".into(),
            rule: rule.into(),
            level: "MUST".into(),
            vector: format!("v/{}", rule.split('.').next().unwrap_or(rule)),
            message: String::new(),
        }
    }

    fn matrix(version: &str, status: &str, rules: &[&str]) -> Matrix {
        Matrix {
            format: 1,
            tool_version: "0".into(),
            manifest: "m".into(),
            started: String::new(),
            duration_ms: 0,
            shard: None,
            fuzz_seconds: None,
            revisions: vec!["2025-06-18".into()],
            servers: vec![ServerRow {
                name: "s".into(),
                ecosystem: "npm".into(),
                package: format!("s@{version}"),
                version: version.into(),
                profile: "mcp".into(),
                claims: Vec::new(),
                baseline: None,
                runs: vec![Run {
                    transport: "stdio".into(),
                    status: "ran".into(),
                    reason: None,
                    document: None,
                    transcripts: None,
                    log: String::new(),
                    reproducer: String::new(),
                    duration_ms: 0,
                    cells: vec![Cell {
                        revision: "2025-06-18".into(),
                        status: status.into(),
                        tally: BTreeMap::new(),
                        worst: None,
                        findings: rules.iter().map(|r| finding(r)).collect(),
                    }],
                }],
                fuzz: None,
            }],
        }
    }

    /// A check filed under another rule since (the server's breach rather
    /// than the probe's rule) is the same finding: neither new nor fixed.
    #[test]
    fn a_finding_filed_under_another_rule_is_the_same_finding() {
        let old = matrix("1.0.0", "fail", &["a.probe-rule"]);
        let new = matrix("1.0.0", "fail", &["a.server-rule"]);
        let changes = compare(&old, &new);
        assert!(
            changes.new.is_empty() && changes.fixed.is_empty(),
            "{changes:?}"
        );
        assert_eq!(
            changes.markdown("old.json"),
            "## Since old.json\n\nNothing changed.\n"
        );
    }

    #[test]
    fn new_fixed_and_versions_are_told_apart() {
        let old = matrix("1.0.0", "fail", &["a", "b"]);
        let new = matrix("1.1.0", "fail", &["b", "c"]);
        let changes = compare(&old, &new);
        assert_eq!(changes.new.len(), 1);
        assert_eq!(changes.new[0].3, "MUST c");
        assert_eq!(changes.fixed.len(), 1);
        assert_eq!(changes.fixed[0].3, "MUST a");
        assert_eq!(changes.versions, ["s: 1.0.0 → 1.1.0"]);
        let md = changes.markdown("old.json");
        assert!(md.contains("### New findings (1)") && md.contains("### Fixed findings (1)"));
    }

    #[test]
    fn a_cell_that_could_not_run_fixes_nothing() {
        let old = matrix("1.0.0", "fail", &["a"]);
        let new = matrix("1.0.0", "could-not-run", &[]);
        let changes = compare(&old, &new);
        assert!(changes.fixed.is_empty());
        assert_eq!(changes.lost, ["s stdio 2025-06-18"]);
        assert_eq!(compare(&old, &old), Changes::default());
    }
}
