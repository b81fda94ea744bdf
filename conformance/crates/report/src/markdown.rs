//! The Markdown summary (`--markdown FILE`), for a CI job summary or a pull
//! request comment: the tally as a table, then every record that fails the run.
//!
//! Peer text is made [`printable`](super::text::printable), then escaped for
//! Markdown and for the HTML that Markdown renderers pass through, so a frame
//! cannot add a link, an image, a table cell or a tag to the page.

use std::fmt::Write as _;

use super::text::printable_str;
use super::{findings, Record, Report};

/// The most failing records listed; the rest are counted. A streamed report
/// keeps no more than these ([`super::sink`]).
pub const MAX_LISTED: usize = 200;

/// The report as a Markdown document.
#[must_use]
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# wirecheck {}\n", report.command.name());
    if let Some(run) = &report.run {
        let _ = writeln!(out, "Judged: {}.\n", escape(&printable_str(&run.line())));
    }
    if let Some(p) = report.profile {
        let _ = writeln!(
            out,
            "Judged under {} from the {}{}.\n",
            p.revision,
            p.direction.sender(),
            if report.strict { ", strict" } else { "" }
        );
    }
    if let Some(error) = &report.error {
        let _ = writeln!(
            out,
            "**Stopped early:** {}\n",
            escape(&printable_str(error))
        );
    }
    out.push_str("| outcome | records |\n| --- | ---: |\n");
    let tally = report.tally();
    for (name, count) in tally.rows() {
        let _ = writeln!(out, "| {name} | {count} |");
    }
    let _ = writeln!(out, "| **total** | **{}** |", tally.total());
    // A rule-by-rule command's failing checks are the peer's defects, each
    // told once; the records left are those no defect holds (stale entries).
    let defects = super::defects_of(report);
    if report.command.judges_rules() {
        out.push_str(&defects_section(report, &defects));
    } else {
        out.push_str(&repeated_section(report));
    }
    let folded = super::held(&defects);
    // Counted from the tally, not the kept records: a streamed report keeps
    // only the first MAX_LISTED failing ones.
    let failing: Vec<&Record> = report
        .records
        .iter()
        .enumerate()
        .filter(|(i, r)| !folded.contains(i) && r.outcome.fails_run(report.strict))
        .map(|(_, r)| r)
        .collect();
    let failing_count = if report.command.judges_rules() {
        failing.len()
    } else {
        tally.failing(report.strict)
    };
    if failing_count == 0 {
        if defects.is_empty() {
            out.push_str("\nNo record fails the run.\n");
        }
        return out;
    }
    let _ = writeln!(out, "\n## Failing records ({failing_count})\n");
    for record in failing.iter().take(MAX_LISTED) {
        let _ = writeln!(
            out,
            "- {} — {}",
            escape(&place(record)),
            record.outcome.name()
        );
        for finding in findings(record) {
            let _ = writeln!(out, "  - {}", escape(&finding));
        }
    }
    let listed = failing.len().min(MAX_LISTED);
    if failing_count > listed {
        let _ = writeln!(out, "\n… and {} more.", failing_count - listed);
    }
    out
}

/// Several runs side by side: one row per rule, one column per run, each
/// cell the worst outcome of that run's records about the rule (see
/// [`super::html`] for the same matrix with every record linked).
#[must_use]
pub fn render_many(runs: &[(String, &Report)]) -> String {
    use std::collections::BTreeMap;
    let mut out = String::from("# wirecheck runs compared\n\n| run | peer | pass | fail | warning | total |\n| --- | --- | ---: | ---: | ---: | ---: |\n");
    let mut rows: BTreeMap<String, Vec<Option<&super::Outcome>>> = BTreeMap::new();
    for (col, (label, report)) in runs.iter().enumerate() {
        let t = report.tally();
        let peer = report
            .run
            .as_ref()
            .map_or_else(String::new, |r| printable_str(&r.peer.target));
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            escape(&printable_str(label)),
            escape(&peer),
            t.count("pass"),
            t.count("fail"),
            t.count("warning"),
            t.total()
        );
        for record in &report.records {
            for rule in super::html::rules_of(record) {
                let cells = rows.entry(rule).or_insert_with(|| vec![None; runs.len()]);
                let cell = &mut cells[col];
                if cell.is_none_or(|o| {
                    super::html::severity(o) < super::html::severity(&record.outcome)
                }) {
                    *cell = Some(&record.outcome);
                }
            }
        }
    }
    out.push_str(&defects_compared(runs));
    out.push_str("\n| rule |");
    for (label, _) in runs {
        let _ = write!(out, " {} |", escape(&printable_str(label)));
    }
    out.push_str("\n| --- |");
    out.push_str(&" --- |".repeat(runs.len()));
    out.push('\n');
    for (rule, cells) in &rows {
        let _ = write!(out, "| {} |", escape(&printable_str(rule)));
        for cell in cells {
            let _ = write!(out, " {} |", cell.map_or("", |o| o.name()));
        }
        out.push('\n');
    }
    out
}

/// The runs compared by defect: a row per defect fingerprint, a cell per
/// run with its standing and how many checks show it; a defect shown by
/// other probes in another run is the same row, never a blank cell.
fn defects_compared(runs: &[(String, &Report)]) -> String {
    use std::collections::BTreeMap;
    let mut rows: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (col, (_, report)) in runs.iter().enumerate() {
        if !report.command.judges_rules() {
            continue;
        }
        for d in super::defects(report) {
            let cells = rows
                .entry(d.fingerprint())
                .or_insert_with(|| vec![String::new(); runs.len()]);
            let n = d.checks.len();
            cells[col] = format!(
                "{} ({n} check{})",
                d.standing.label().to_lowercase(),
                if n == 1 { "" } else { "s" }
            );
        }
    }
    if rows.is_empty() {
        return String::new();
    }
    let mut out = String::from("\n| defect |");
    for (label, _) in runs {
        let _ = write!(out, " {} |", escape(&printable_str(label)));
    }
    out.push_str("\n| --- |");
    out.push_str(&" --- |".repeat(runs.len()));
    out.push('\n');
    for (fingerprint, cells) in &rows {
        let _ = write!(out, "| {} |", escape(&printable_str(fingerprint)));
        for cell in cells {
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }
    out
}

/// The peer's defects, each once: the headline, then per defect its
/// standing, rule, level, count and where it held, the sentence quoted,
/// what to change, and its smallest example; "1 defect / 7 checks", never a
/// count of checks read as failures.
fn defects_section(report: &Report, defects: &[super::Defect]) -> String {
    if defects.is_empty() {
        return String::new();
    }
    let headline = super::terminal::headline(report, defects);
    let mut out = format!("\n## Defects\n\n{}\n", escape(headline.trim_end()));
    for d in defects {
        let n = d.checks.len();
        let revisions: Vec<&str> = d.revisions.iter().map(|r| r.name()).collect();
        let _ = writeln!(
            out,
            "\n### {} `{}` ({}): 1 defect / {n} check{}{}\n",
            d.standing.label(),
            escape(&printable_str(d.rule.as_str())),
            d.weight.name(),
            if n == 1 { "" } else { "s" },
            if revisions.is_empty() {
                String::new()
            } else {
                format!(" under {}", revisions.join(", "))
            }
        );
        let _ = writeln!(out, "{}\n", escape(&printable_str(&d.cite(report))));
        if let Some(sentence) = d.sentence() {
            let _ = writeln!(out, "> {}\n", escape(sentence));
        }
        if let Some(fix) = d.fix() {
            let _ = writeln!(out, "Fix: {}\n", escape(&printable_str(&fix)));
        }
        let example = &report.records[d.checks[0]];
        if let Some(v) = example
            .violations
            .iter()
            .flatten()
            .find(|v| d.is_of(v.rule))
        {
            let _ = writeln!(out, "- {}", escape(&printable_str(&v.message)));
        }
        let _ = writeln!(out, "- e.g. {}", escape(&place(example)));
        if let Some(sent) = example
            .wire
            .iter()
            .find(|w| w.from == harness::Direction::ClientToServer)
        {
            let _ = writeln!(
                out,
                "  - sent: {}",
                escape(&super::text::preview(&sent.bytes, 200))
            );
            let got = example.answers().first().map_or_else(
                || "nothing".to_owned(),
                |w| super::text::preview(&w.bytes, 200),
            );
            let _ = writeln!(out, "  - got: {}", escape(&got));
        }
        let others = d.other_probes(report);
        if !others.is_empty() {
            let _ = writeln!(
                out,
                "- also: {}",
                escape(&printable_str(&others.join(", ")))
            );
        }
    }
    out
}

/// The findings seen in several checks (a missing field on every result),
/// each once with its count and places ([`super::repeated`]); empty when none.
fn repeated_section(report: &Report) -> String {
    let groups = super::repeated(report);
    if groups.is_empty() {
        return String::new();
    }
    let mut out = String::from("\n## Findings seen in several checks\n\n");
    for g in &groups {
        let v = &g.violation;
        let places: Vec<String> = g
            .places
            .iter()
            .map(|p| {
                let mut s = p.vector.as_deref().map_or_else(String::new, printable_str);
                if let Some(r) = p.revision {
                    let _ = write!(s, " [{r}]");
                }
                s
            })
            .collect();
        let _ = writeln!(
            out,
            "- {} {}{}: {} ({}) — {} checks: {}",
            v.level.name(),
            escape(super::rule_id(v)),
            if v.pointer.is_empty() {
                String::new()
            } else {
                format!(" at `{}`", escape(&printable_str(&v.pointer)))
            },
            escape(&printable_str(&v.message)),
            escape(v.spec),
            g.places.len(),
            escape(&places.join("; "))
        );
    }
    out
}

fn place(record: &Record) -> String {
    let p = &record.place;
    let mut s = match (&p.vector, &p.file) {
        (Some(v), _) => printable_str(v),
        (None, Some(f)) => printable_str(f),
        (None, None) => "standard input".to_owned(),
    };
    if let Some(line) = p.line {
        let _ = write!(s, ":{line}");
    }
    if let Some(frame) = p.frame_number() {
        let _ = write!(s, " #{frame}");
    }
    s
}

/// Text safe inside a Markdown list item or table cell, the one Markdown
/// escaper of every view: [`printable`](super::text::printable) first (no
/// control character, no line break ends the item or the row), then HTML's
/// three specials as entities and Markdown's punctuation behind a backslash.
#[must_use]
pub fn escape(text: &str) -> String {
    let text = printable_str(text);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '(' | ')' | '|' | '#' | '!' | '~' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Command, Outcome, Place, Record, Refusal, Report, Subject};
    use super::*;

    /// One defect in many checks is named once, with its sentence, its
    /// count and the other probes that show it.
    #[test]
    fn a_finding_seen_in_several_checks_is_listed_once_with_its_count() {
        use harness::rules::{RuleId, Violation};
        let mut report = Report::new(Command::Run);
        for vector in ["a", "b"] {
            let mut record = Record::new(
                Place {
                    vector: Some(format!("mcp/x/{vector}")),
                    ..Place::default()
                },
                Subject::Frame(b"{}".to_vec()),
                Outcome::Warning,
            );
            record.violations = Some(vec![Violation {
                rule: RuleId::McpR5MetaServerInfo,
                level: RuleId::McpR5MetaServerInfo.info().level,
                spec: "MCP 2026-07-28 basic/index",
                pointer: "/result/_meta".into(),
                message: "no serverInfo".into(),
            }]);
            report.records.push(record);
        }
        let md = render(&report);
        assert!(md.contains("## Defects"), "{md}");
        assert!(md.contains("1 defect: 1 SHOULD; 2 checks"), "{md}");
        assert!(md.contains("1 defect / 2 checks"), "{md}");
        assert!(!md.contains("## Failing records"), "{md}");
        assert_eq!(md.matches("no serverInfo").count(), 1, "{md}");
        let sentence = RuleId::McpR5MetaServerInfo.info().sentence();
        assert!(md.contains(&format!("> {}", escape(sentence))), "{md}");
        assert!(md.contains("- also: mcp/x/b"), "{md}");
    }

    #[test]
    fn tally_table_and_failing_records_only() {
        let mut report = Report::new(Command::Roundtrip);
        report.records.push(Record::new(
            Place::at_line(None, 1),
            Subject::Frame(b"{}".to_vec()),
            Outcome::Pass,
        ));
        let mut bad = Record::new(
            Place::at_line(Some("a|b.jsonl".into()), 2),
            Subject::TooLong { len: 9 },
            Outcome::Fail,
        );
        let mut refusal = Refusal::too_long(9, 8);
        refusal.message = "<img src=x onerror=alert(1)> [x](javascript:1) \u{1b}[2J".into();
        bad.refusal = Some(refusal);
        report.records.push(bad);
        let md = render(&report);
        assert!(md.contains("| pass | 1 |\n| fail | 1 |\n"), "{md}");
        assert!(md.contains("| **total** | **2** |"), "{md}");
        assert!(md.contains("## Failing records (1)"), "{md}");
        assert!(md.contains("- a\\|b.jsonl:2 — fail"), "{md}");
        assert!(
            !md.contains("standard input:1"),
            "passes are not listed: {md}"
        );
        assert!(!md.contains("<img"), "{md}");
        assert!(!md.contains("](javascript"), "{md}");
        assert!(!md.contains('\x1b'), "{md}");
        assert!(
            md.contains("&lt;img src=x onerror=alert\\(1\\)&gt;"),
            "{md}"
        );
    }
}
