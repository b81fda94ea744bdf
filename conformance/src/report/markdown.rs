//! The Markdown summary (`--markdown FILE`), for a CI job summary or a pull
//! request comment: the tally as a table, then every record that fails the run.
//!
//! Peer text is made [`printable`](super::text::printable), then escaped for
//! Markdown and for the HTML that Markdown renderers pass through, so a frame
//! cannot add a link, an image, a table cell or a tag to the page.

use std::fmt::Write as _;

use super::text::printable_str;
use super::{rule_id, Record, Report};

/// The most failing records listed; the rest are counted.
const MAX_LISTED: usize = 200;

/// The report as a Markdown document.
#[must_use]
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# wirecheck {}\n", report.command.name());
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
    let failing: Vec<&Record> = report.failing().collect();
    if failing.is_empty() {
        out.push_str("\nNo record fails the run.\n");
        return out;
    }
    let _ = writeln!(out, "\n## Failing records ({})\n", failing.len());
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
    if failing.len() > MAX_LISTED {
        let _ = writeln!(out, "\n… and {} more.", failing.len() - MAX_LISTED);
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
    if let Some(frame) = p.frame {
        let _ = write!(s, " #{frame}");
    }
    s
}

fn findings(record: &Record) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(why) = record.outcome.reason() {
        lines.push(printable_str(why));
    }
    if let Some(check) = &record.check {
        lines.push(format!(
            "{} {} ({})",
            check.level.name(),
            printable_str(&check.rule),
            printable_str(&check.spec)
        ));
    }
    match (&record.violations, &record.refusal) {
        (Some(vs), _) => lines.extend(vs.iter().map(|v| {
            format!(
                "{} {} at {}: {}",
                v.level.name(),
                printable_str(rule_id(v)),
                printable_str(&v.pointer),
                printable_str(&v.message)
            )
        })),
        (None, Some(r)) => lines.push(format!(
            "refused {} {} at {}: {}",
            r.code,
            r.rule,
            printable_str(&r.pointer),
            printable_str(&r.message)
        )),
        (None, None) => {}
    }
    lines
}

/// Text safe inside a Markdown list item or table cell: HTML's three
/// specials as entities, Markdown's punctuation behind a backslash.
fn escape(text: &str) -> String {
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
