//! The human view: one line per record, the findings of those that did not
//! pass indented under them, and the tally. Colour is the caller's choice
//! ([`colour_wanted`]); every byte a peer supplied goes through
//! [`printable`](super::text::printable) first, so a frame cannot paint or
//! clear the reader's terminal.

use std::fmt::Write as _;

use super::text::{preview, printable_str};
use super::{Command, Place, Record, Report, Subject};

/// How many characters of a frame the view shows.
const PREVIEW_CHARS: usize = 120;

/// Whether to colour: only on a terminal, and never when `NO_COLOR` is set to
/// anything non-empty (<https://no-color.org>).
#[must_use]
pub fn colour_wanted(stdout_is_terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    stdout_is_terminal && no_color.is_none_or(std::ffi::OsStr::is_empty)
}

/// The report as text for a person, with ANSI colours when `colour`.
#[must_use]
pub fn render(report: &Report, colour: bool) -> String {
    let mut out = String::new();
    // Only the rule-by-rule commands, whose checks share findings; the
    // per-frame ones list every frame as it is.
    let rule_by_rule = matches!(
        report.command,
        Command::Run | Command::Check | Command::Proxy | Command::RunClient
    );
    let repeated = if rule_by_rule {
        super::repeated(report)
    } else {
        Vec::new()
    };
    let explained: Vec<usize> = repeated.iter().flat_map(|g| g.explains.clone()).collect();
    for (i, record) in report.records.iter().enumerate() {
        if listed(report.command, record) && !explained.contains(&i) {
            out.push_str(&record_lines(record, colour));
        }
    }
    for group in repeated.iter().filter(|g| !g.explains.is_empty()) {
        out.push_str(&repeated_lines(group, colour));
    }
    out.push_str(&closing(report, colour));
    if !explained.is_empty() {
        let _ = writeln!(
            out,
            "({} of these checks are listed once per finding above: one defect seen in several checks is one finding, with its count and places)",
            explained.len()
        );
    }
    out
}

/// `wirecheck run`'s view for a person: the peer's defects, each once.
///
/// A headline counts them by how binding their sentences are, then each
/// defect, most severe first: the rule the peer broke, its level (or
/// "convention" where the text names the answer without a keyword), the
/// sentence verbatim and where it is written, what the peer answered, what
/// to change where the text says, one example with the probe sent and the
/// answer got (bounded), and the other probes that show it. Defects the
/// baseline knows are one line each. Then what is not a defect of the peer:
/// stale baseline entries and checks not observed, grouped by rule; the
/// not-applicable checks counted by reason; the run; and the tally.
/// `--verbose` keeps the long form ([`render`]), every check as judged.
#[must_use]
pub fn to_fix(report: &Report, colour: bool) -> String {
    let paint = Paint(colour);
    let defects = super::defects(report);
    let mut out = String::new();
    out.push_str(&headline(report, &defects));
    let (known, open): (Vec<&super::Defect>, Vec<&super::Defect>) = defects
        .iter()
        .partition(|d| d.standing == super::Standing::Known);
    for defect in &open {
        out.push_str(&defect_lines(report, defect, &paint));
    }
    for defect in &known {
        out.push_str(&known_line(report, defect, &paint));
    }
    let mut groups: Vec<Group<'_>> = Vec::new();
    let mut inapplicable: Vec<(String, usize)> = Vec::new();
    for record in &report.records {
        match &record.outcome {
            super::Outcome::Pass
            | super::Outcome::Fail
            | super::Outcome::Warning
            | super::Outcome::KnownFailure { .. } => {}
            super::Outcome::NotApplicable { why } => {
                let reason = reason_shape(why);
                match inapplicable.iter_mut().find(|(r, _)| *r == reason) {
                    Some((_, n)) => *n += 1,
                    None => inapplicable.push((reason, 1)),
                }
            }
            outcome => {
                let rule = heading_rule(record);
                let rank = severity(outcome);
                match groups.iter_mut().find(|g| g.rank == rank && g.rule == rule) {
                    Some(g) => g.records.push(record),
                    None => groups.push(Group {
                        rank,
                        rule,
                        records: vec![record],
                    }),
                }
            }
        }
    }
    groups.sort_by(|a, b| {
        (a.rank, std::cmp::Reverse(a.records.len()), &a.rule).cmp(&(
            b.rank,
            std::cmp::Reverse(b.records.len()),
            &b.rule,
        ))
    });
    for group in &groups {
        out.push_str(&group_lines(group, &paint));
    }
    if !inapplicable.is_empty() {
        inapplicable.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let total: usize = inapplicable.iter().map(|(_, n)| n).sum();
        let _ = writeln!(
            out,
            "{} {total} {} not apply to this peer:",
            paint.sgr("2", &format!("{:<14}", "NOT-APPLICABLE")),
            if total == 1 {
                "check does"
            } else {
                "checks do"
            }
        );
        for (reason, n) in inapplicable.iter().take(REASONS_SHOWN) {
            let _ = writeln!(out, "    {n} × {}", printable_str(reason));
        }
        if inapplicable.len() > REASONS_SHOWN {
            let more = inapplicable.len() - REASONS_SHOWN;
            let _ = writeln!(
                out,
                "    … and {more} other reason{} (--verbose lists every check)",
                if more == 1 { "" } else { "s" }
            );
        }
    }
    out.push_str(&closing(report, colour));
    out
}

/// `3 defects: 1 MUST, 1 SHOULD, 1 convention; 122 checks` (and how many
/// the baseline knows), or that none was found in how many checks.
#[must_use]
pub fn headline(report: &Report, defects: &[super::Defect]) -> String {
    let open: Vec<&super::Defect> = defects
        .iter()
        .filter(|d| d.standing != super::Standing::Known)
        .collect();
    let checks: usize = open.iter().map(|d| d.checks.len()).sum();
    let known = defects.len() - open.len();
    let mut parts: Vec<String> = Vec::new();
    for (label, weights) in [
        ("MUST", &[super::Weight::Must, super::Weight::MustNot][..]),
        (
            "SHOULD",
            &[super::Weight::Should, super::Weight::ShouldNot][..],
        ),
        ("convention", &[super::Weight::Convention][..]),
        ("ambiguous", &[super::Weight::Ambiguous][..]),
    ] {
        let n = open.iter().filter(|d| weights.contains(&d.weight)).count();
        if n > 0 {
            let plural = if n > 1 && label == "convention" {
                "s"
            } else {
                ""
            };
            parts.push(format!("{n} {label}{plural}"));
        }
    }
    let known = if known == 0 {
        String::new()
    } else {
        format!(
            "; {known} known {} (baseline)",
            if known == 1 { "defect" } else { "defects" }
        )
    };
    if open.is_empty() {
        if report.tally().total() == 0 {
            return String::new();
        }
        let passed = report.tally().count("pass");
        return format!(
            "no defect found: {passed} {} passed{known}\n",
            if passed == 1 { "check" } else { "checks" }
        );
    }
    format!(
        "{} {}: {}; {checks} {}{known}\n",
        open.len(),
        if open.len() == 1 { "defect" } else { "defects" },
        parts.join(", "),
        if checks == 1 { "check" } else { "checks" }
    )
}

/// `under 2024-11-05, 2025-03-26 over stdio`.
fn where_held(defect: &super::Defect) -> String {
    let mut out = String::new();
    if !defect.revisions.is_empty() {
        let names: Vec<&str> = defect.revisions.iter().map(|r| r.name()).collect();
        let _ = write!(out, " under {}", names.join(", "));
    }
    if !defect.transports.is_empty() {
        let _ = write!(
            out,
            " over {}",
            printable_str(
                &defect
                    .transports
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        );
    }
    out
}

/// One defect as text, as the first screen shows it (for the views that
/// carry a defect's whole story: JUnit's output, Markdown).
#[must_use]
pub fn defect_block(report: &Report, defect: &super::Defect, colour: bool) -> String {
    defect_lines(report, defect, &Paint(colour))
}

/// One defect: its heading, sentence, answer, fix, example and the other
/// probes that show it.
fn defect_lines(report: &Report, defect: &super::Defect, paint: &Paint) -> String {
    let mut out = String::new();
    let count = defect.checks.len();
    let code = match defect.standing {
        super::Standing::Fail => "31",
        super::Standing::Warning => "33",
        super::Standing::Known => "2",
    };
    let _ = writeln!(
        out,
        "{} {}: {count} check{}{}",
        paint.sgr(code, &format!("{:<14}", defect.standing.label())),
        printable_str(if defect.rule.as_str().is_empty() {
            "(no rule)"
        } else {
            defect.rule.as_str()
        }),
        if count == 1 { "" } else { "s" },
        where_held(defect)
    );
    let cite = defect.cite(report);
    let weight = match defect.weight {
        super::Weight::Convention => "convention (no RFC 2119 keyword in the text)".to_owned(),
        super::Weight::Ambiguous => {
            "MUST, where the texts are ambiguous: a warning, never a failure".to_owned()
        }
        w => w.name().to_owned(),
    };
    let _ = writeln!(out, "    {weight}: {}", printable_str(&cite));
    if let Some(sentence) = defect.sentence() {
        let _ = writeln!(out, "    \"{sentence}\"");
    }
    if !defect.restated.is_empty() {
        let named: Vec<&str> = defect.restated.iter().map(super::CheckId::as_str).collect();
        let _ = writeln!(
            out,
            "    restated, in the revisions' own words, by {}",
            printable_str(&named.join(", "))
        );
    }
    let example = &report.records[defect.checks[0]];
    // What was wrong in the example, in the breach's own words; the other
    // rules it broke follow as `also`.
    let mut said = false;
    for v in example.violations.iter().flatten() {
        let at = super::text::at_pointer(&v.pointer);
        if defect.is_of(v.rule) && !said {
            let _ = writeln!(out, "    {}{at}", printable_str(&v.message));
            said = true;
        } else if !defect.is_of(v.rule) {
            let _ = writeln!(
                out,
                "    also {} {}{at}: {}",
                v.level.name(),
                printable_str(super::rule_id(v)),
                printable_str(&v.message),
            );
        }
    }
    if let Some(why) = example.outcome.reason() {
        let _ = writeln!(out, "    {}", printable_str(why));
    }
    for note in example
        .notes
        .iter()
        .filter(|n| !n.starts_with(super::ID_REWRITE_NOTE) && !super::repeats_reason(example, n))
    {
        let _ = writeln!(out, "    note: {}", printable_str(note));
    }
    if let Some(fix) = defect.fix() {
        let _ = writeln!(out, "    fix: {}", printable_str(&fix));
    }
    out.push_str(&example_lines(example));
    let others = defect.other_probes(report);
    out.push_str(&also_line(&others));
    let also = defect.also_shown_by(report);
    if !also.is_empty() {
        let _ = writeln!(
            out,
            "    the same defect, as other checks see it: {}",
            printable_str(&also.join(", "))
        );
    }
    out
}

/// `    also: a, b, c, d and 7 more (--verbose lists each)`: the other probes
/// that show it, the first few named; nothing when there are none.
fn also_line<S: AsRef<str>>(others: &[S]) -> String {
    if others.is_empty() {
        return String::new();
    }
    let named: Vec<String> = others
        .iter()
        .take(OTHERS_NAMED)
        .map(|v| printable_str(v.as_ref()))
        .collect();
    let rest = others.len().saturating_sub(OTHERS_NAMED);
    format!(
        "    also: {}{}\n",
        named.join(", "),
        if rest > 0 {
            format!(" and {rest} more (--verbose lists each)")
        } else {
            String::new()
        }
    )
}

/// A defect the baseline knows: one line, with the first line of its reason.
fn known_line(report: &Report, defect: &super::Defect, paint: &Paint) -> String {
    let count = defect.checks.len();
    let reason = report.records[defect.checks[0]]
        .outcome
        .reason()
        .unwrap_or_default();
    let reason: String = reason.chars().take(100).collect();
    format!(
        "{} {} ({}): {count} check{}{} — {}\n",
        paint.sgr("2", &format!("{:<14}", "KNOWN")),
        printable_str(defect.rule.as_str()),
        defect.weight.name(),
        if count == 1 { "" } else { "s" },
        where_held(defect),
        printable_str(&reason)
    )
}

/// `e.g. place`, then `sent:` and `got:` from the example's wire log, or
/// its HTTP exchange, or the frame the check is about.
fn example_lines(first: &Record) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "    e.g. {}", where_(&first.place));
    let sent = first
        .wire
        .iter()
        .find(|w| w.from == harness::Direction::ClientToServer);
    match (sent, &first.subject) {
        (Some(w), _) => {
            let _ = writeln!(out, "    sent: {}", preview(&w.bytes, PREVIEW_CHARS));
        }
        (None, Subject::Frame(bytes)) if !bytes.is_empty() => {
            let _ = writeln!(out, "    frame: {}", preview(bytes, PREVIEW_CHARS));
        }
        _ => {}
    }
    if !first.wire.is_empty() {
        let answers = first.answers();
        match answers.first() {
            None => {
                let _ = writeln!(out, "    got:  nothing");
            }
            Some(w) => {
                let more = if answers.len() > 1 {
                    format!(" (and {} more frames)", answers.len() - 1)
                } else {
                    String::new()
                };
                let _ = writeln!(out, "    got:  {}{more}", preview(&w.bytes, PREVIEW_CHARS));
            }
        }
    } else if let Some(x) = first.http.first() {
        let line = |text: String| preview(text.as_bytes(), PREVIEW_CHARS);
        let _ = writeln!(out, "    sent: {}", line(x.request_line()));
        let _ = writeln!(out, "    got:  {}", line(x.response_line()));
    }
    out
}

/// How many not-applicable reasons the grouped view lists.
const REASONS_SHOWN: usize = 6;

/// How many other vectors of a group the grouped view names.
const OTHERS_NAMED: usize = 4;

/// Records that did not pass, of one outcome class and one rule.
struct Group<'a> {
    rank: u8,
    rule: String,
    records: Vec<&'a Record>,
}

/// Fails (and stale baseline entries, which fail the run) before warnings,
/// then what was not observed, then failures the baseline already knows.
fn severity(outcome: &super::Outcome) -> u8 {
    match outcome {
        super::Outcome::Fail => 0,
        super::Outcome::Stale { .. } => 1,
        super::Outcome::Warning => 2,
        super::Outcome::NotObserved { .. } => 3,
        _ => 4,
    }
}

/// The rule a record is about: its check's, else its first violation's.
fn heading_rule(record: &Record) -> String {
    record
        .check
        .as_ref()
        .map(|c| c.rule.to_string())
        .or_else(|| {
            record
                .violations
                .as_ref()
                .and_then(|v| v.first())
                .map(|v| super::rule_id(v).to_owned())
        })
        .unwrap_or_default()
}

/// A reason with its numbers blanked (`event 12` and `event 40` read as one
/// reason), so the not-applicable checks count by kind.
fn reason_shape(why: &str) -> String {
    // Only numbers standing alone: a rule id's `-r5` or a revision's date
    // stays as written.
    let mut out = String::with_capacity(why.len());
    let mut blanking = false;
    let mut previous = ' ';
    for c in why.chars() {
        if c.is_ascii_digit() && (blanking || previous == ' ') {
            if !blanking {
                out.push('N');
            }
            blanking = true;
        } else {
            blanking = false;
            out.push(c);
        }
        previous = c;
    }
    out
}

fn group_lines(group: &Group<'_>, paint: &Paint) -> String {
    let first = group.records[0];
    let mut out = String::new();
    let mut revisions: Vec<harness::Revision> = group
        .records
        .iter()
        .filter_map(|r| r.place.revision)
        .collect();
    revisions.sort();
    revisions.dedup();
    let revisions: Vec<&str> = revisions.iter().map(|r| r.name()).collect();
    let count = group.records.len();
    let _ = writeln!(
        out,
        "{} {}: {count} check{}{}",
        paint.outcome(first),
        printable_str(if group.rule.is_empty() {
            "(no rule)"
        } else {
            &group.rule
        }),
        if count == 1 { "" } else { "s" },
        if revisions.is_empty() {
            String::new()
        } else {
            format!(" under {}", revisions.join(", "))
        }
    );
    if let Some(check) = &first.check {
        let _ = writeln!(
            out,
            "    {}: {}",
            check.level.name(),
            printable_str(&check.spec)
        );
    }
    if let Some(why) = first.outcome.reason() {
        let _ = writeln!(out, "    {}", printable_str(why));
    }
    // What was wrong: the violations, without the rule printed again when it
    // is the heading's, nor an empty pointer.
    for v in first.violations.iter().flatten() {
        let rule = super::rule_id(v);
        let at = super::text::at_pointer(&v.pointer);
        if rule == group.rule {
            let _ = writeln!(out, "    {}{at}", printable_str(&v.message));
        } else {
            let _ = writeln!(
                out,
                "    also {} {}{at}: {} ({})",
                v.level.name(),
                printable_str(rule),
                printable_str(&v.message),
                printable_str(v.spec)
            );
        }
    }
    if let Some(r) = &first.refusal {
        let _ = writeln!(
            out,
            "    refused {} {}: {}",
            r.code,
            r.rule,
            printable_str(&r.message)
        );
    }
    // The request is shown as sent below: its id rewrite needs no note.
    for note in first
        .notes
        .iter()
        .filter(|n| !n.starts_with(super::ID_REWRITE_NOTE) && !super::repeats_reason(first, n))
    {
        let _ = writeln!(out, "    note: {}", printable_str(note));
    }
    out.push_str(&example_lines(first));
    // Each other vector once, and not the example's again (a session rule
    // broken in three sessions names one vector three times).
    let mut others: Vec<String> = Vec::new();
    for vector in group.records[1..]
        .iter()
        .filter_map(|r| r.place.vector.clone())
    {
        if first.place.vector.as_ref() != Some(&vector) && !others.contains(&vector) {
            others.push(vector);
        }
    }
    out.push_str(&also_line(&others));
    out
}

/// One finding seen in several checks: its outcome and count, the
/// violation, and every place it was seen.
#[must_use]
pub fn repeated_lines(group: &super::Repeated, colour: bool) -> String {
    let paint = Paint(colour);
    let v = &group.violation;
    let (name, code) = if v.level.is_mandatory() {
        ("FAIL", "31")
    } else {
        ("WARNING", "33")
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {} ({} checks)",
        paint.sgr(code, &format!("{name:<14}")),
        printable_str(super::rule_id(v)),
        group.places.len()
    );
    let _ = writeln!(
        out,
        "    {} {}{}: {} ({})",
        v.level.name(),
        printable_str(super::rule_id(v)),
        super::text::at_pointer(&v.pointer),
        printable_str(&v.message),
        printable_str(v.spec)
    );
    let places: Vec<String> = group.places.iter().map(where_).collect();
    let _ = writeln!(out, "    seen in: {}", places.join("; "));
    out
}

/// Whether the view lists `record`: a rule-by-rule command (`run`, `check`)
/// makes hundreds of passing checks, so a person sees what did not pass and
/// the tally counts the rest (JSON lists every record); the per-frame
/// commands list every frame.
#[must_use]
pub fn listed(command: Command, record: &Record) -> bool {
    !matches!(
        command,
        Command::Run | Command::Check | Command::Proxy | Command::RunClient
    ) || record.outcome != super::Outcome::Pass
}

/// One record's lines: the outcome and place, and for one that did not pass
/// its findings and frame, indented.
#[must_use]
pub fn record_lines(record: &Record, colour: bool) -> String {
    let paint = Paint(colour);
    let mut out = String::new();
    let _ = writeln!(out, "{} {}", paint.outcome(record), where_(&record.place));
    if record.outcome == super::Outcome::Pass {
        return out;
    }
    for line in super::findings(record) {
        let _ = writeln!(out, "    {line}");
    }
    let subject = match &record.subject {
        Subject::Frame(bytes) if bytes.is_empty() => None,
        Subject::Frame(bytes) => Some(preview(bytes, PREVIEW_CHARS)),
        Subject::TooLong { len } => Some(format!("({len} bytes, not read)")),
    };
    if let Some(subject) = subject {
        let _ = writeln!(out, "    frame: {subject}");
    }
    out
}

/// The closing tally (every record, kept or not), and the error if any.
#[must_use]
pub fn closing(report: &Report, colour: bool) -> String {
    closing_of(report, colour, report.error.is_some())
}

/// [`closing`] of a run that could not be made (`unmade`) though `report`
/// holds no error: its error is said elsewhere, on standard error.
#[must_use]
pub fn closing_of(report: &Report, colour: bool, unmade: bool) -> String {
    let paint = Paint(colour);
    let mut out = String::new();
    for line in report.ambiguity_lines() {
        let _ = writeln!(out, "{}", printable_str(&line));
    }
    if let Some(run) = &report.run {
        let _ = writeln!(out, "judged: {}", printable_str(&run.line()));
    }
    let _ = write!(out, "wirecheck {}:", report.command.name());
    let tally = report.tally();
    for (name, count) in tally.rows().filter(|(_, n)| *n > 0) {
        let _ = write!(out, " {count} {name}");
    }
    if tally.total() == 0 && unmade {
        out.push_str(" could not run (exit 2)");
    } else if tally.total() == 0 {
        out.push_str(" nothing to judge");
    } else if unmade {
        // Records, then an error (Ctrl-C, a write that failed): the tally
        // is of what was judged before it, and says so where it is read.
        out.push_str(" (not whole, exit 2: what was judged before it stopped)");
    }
    if matches!(
        report.command,
        Command::Run | Command::Check | Command::Proxy | Command::RunClient
    ) && tally.count("pass") > 0
    {
        out.push_str(" (passes counted, not listed: --format json lists every check)");
    }
    out.push('\n');
    if let Some(error) = &report.error {
        let _ = writeln!(out, "{}", paint.red(&printable_str(error)));
    }
    out
}

/// `file:line`, `file #frame`, `vector #frame`, or `standard input:line`;
/// frames counted from 1 ([`Place::frame_number`]).
fn where_(place: &Place) -> String {
    let mut out = String::new();
    if let Some(vector) = &place.vector {
        out.push_str(&printable_str(vector));
    } else {
        out.push_str(
            &place
                .file
                .as_deref()
                .map_or_else(|| "standard input".to_owned(), printable_str),
        );
        if let Some(line) = place.line {
            let _ = write!(out, ":{line}");
        }
    }
    // A session judged by `check` or `proxy` is a file (or a conversation)
    // and the frame where the finding became certain.
    if let Some(frame) = place.frame_number() {
        let _ = write!(out, " #{frame}");
    }
    if let Some(revision) = place.revision {
        let _ = write!(out, " [{revision}]");
    }
    if let Some(transport) = &place.transport {
        let _ = write!(out, " over {}", printable_str(&transport.to_string()));
    }
    out
}

/// ANSI SGR colours, or none.
struct Paint(bool);

impl Paint {
    fn outcome(&self, record: &Record) -> String {
        let name = record.outcome.name().to_uppercase();
        let code = match record.outcome {
            super::Outcome::Pass => "32",
            super::Outcome::Fail | super::Outcome::Stale { .. } => "31",
            super::Outcome::Warning => "33",
            _ => "2",
        };
        self.sgr(code, &format!("{name:<14}"))
    }

    fn red(&self, text: &str) -> String {
        self.sgr("31", text)
    }

    fn sgr(&self, code: &str, text: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CheckId, Command, Outcome, Record, Refusal, Subject};
    use super::*;

    /// A server that logs to stdout: its one stdout-text finding leads the
    /// fails, ahead of a rule broken more often, since it explains them.
    #[test]
    fn stdout_text_leads_the_first_screen() {
        let mut report = Report::new(Command::Run);
        let fail = |rule: CheckId| {
            let mut r = Record::new(
                Place::default(),
                Subject::Frame(b"{}".to_vec()),
                Outcome::Fail,
            );
            r.check = Some(super::super::Check {
                rule,
                level: harness::rules::Level::Must,
                spec: "s".into(),
            });
            r
        };
        for _ in 0..3 {
            report
                .records
                .push(fail(CheckId::parse("jsonrpc.response.required")));
        }
        report
            .records
            .push(fail(crate::OwnCheck::StdoutText.into()));
        let text = to_fix(&report, false);
        let stdout_at = text.find("stdio.stdout-text").expect("listed");
        let other_at = text.find("jsonrpc.response.required").expect("listed");
        assert!(stdout_at < other_at, "{text}");
    }

    /// The closing tally of a command that could not be made says so:
    /// "could not run" with nothing judged, "not whole" with records (a
    /// Ctrl-C after some), never a tally that reads as a whole run.
    #[test]
    fn an_unmade_commands_tally_says_so() {
        let mut report = Report::new(Command::Check);
        assert!(closing_of(&report, false, false).contains("nothing to judge"));
        assert!(closing_of(&report, false, true).contains("could not run (exit 2)"));
        report.records.push(Record::new(
            Place::default(),
            Subject::Frame(b"{}".to_vec()),
            Outcome::Pass,
        ));
        assert!(!closing_of(&report, false, false).contains("not whole"));
        let cut = closing_of(&report, false, true);
        assert!(cut.contains("1 pass"), "{cut}");
        assert!(cut.contains("not whole, exit 2"), "{cut}");
    }

    fn hostile() -> Report {
        let mut report = Report::new(Command::Roundtrip);
        let mut record = Record::new(
            Place::at_line(Some("evil\x1b]0;title\x07.jsonl".into()), 1),
            Subject::Frame(b"{\"m\":\"\x1b[2J\x1b[31mred\xff\"}".to_vec()),
            Outcome::Fail,
        );
        let mut refusal = Refusal::too_long(1, 0);
        refusal.message = "found \u{1b}[2J".into();
        record.refusal = Some(refusal);
        report.records.push(record);
        report
    }

    #[test]
    fn peer_text_cannot_reach_the_terminal_as_escapes() {
        let plain = render(&hostile(), false);
        assert!(!plain.contains('\x1b'), "{plain}");
        assert!(!plain.contains('\x07'), "{plain}");
        assert!(
            plain.contains("\\u{001B}[2J\\u{001B}[31mred\\xFF"),
            "{plain}"
        );
        assert!(
            plain.contains("evil\\u{001B}]0;title\\u{0007}.jsonl:1"),
            "{plain}"
        );
        // With colour on, the only escapes are the view's own SGR codes.
        let coloured = render(&hostile(), true);
        let escapes: Vec<&str> = coloured.split('\x1b').skip(1).collect();
        assert!(!escapes.is_empty());
        for e in escapes {
            assert!(e.starts_with("[31m") || e.starts_with("[0m"), "{e:?}");
        }
    }

    /// A false finding once seen: one missing field on every result is one finding,
    /// listed once with its count and every place, not once per check; a
    /// check with a finding of its own is still listed.
    #[test]
    fn one_defect_in_many_checks_is_one_finding() {
        use super::super::Check;
        use harness::rules::{Level, RuleId, Violation};
        let finding = |rule: RuleId, message: &str| Violation {
            rule,
            level: rule.info().level,
            spec: "MCP 2026-07-28 basic/index",
            pointer: "/result/_meta".into(),
            message: message.into(),
        };
        let mut report = Report::new(Command::Run);
        for (vector, extra) in [("a", false), ("b", false), ("c", false), ("d", true)] {
            let mut record = Record::new(
                Place {
                    vector: Some(format!("mcp/2026-07-28/x/{vector}")),
                    ..Place::default()
                },
                Subject::Frame(b"{}".to_vec()),
                Outcome::Warning,
            );
            record.check = Some(Check {
                rule: crate::CheckId::parse("mcp.r5.meta.server-info"),
                level: Level::Should,
                spec: "MCP 2026-07-28 basic/index".into(),
            });
            let mut vs = vec![finding(RuleId::McpR5MetaServerInfo, "no serverInfo")];
            if extra {
                vs.push(finding(RuleId::McpToolsNameFormat, "a name of its own"));
            }
            record.violations = Some(vs);
            report.records.push(record);
        }
        let text = render(&report, false);
        assert_eq!(text.matches("no serverInfo").count(), 2, "{text}");
        assert!(
            text.contains("WARNING        mcp.r5.meta.server-info (4 checks)"),
            "{text}"
        );
        assert!(
            text.contains("seen in: mcp/2026-07-28/x/a; mcp/2026-07-28/x/b; mcp/2026-07-28/x/c; mcp/2026-07-28/x/d"),
            "{text}"
        );
        // The check with a finding of its own keeps its own lines.
        assert!(text.contains("WARNING        mcp/2026-07-28/x/d"), "{text}");
        assert!(
            !text.contains("WARNING        mcp/2026-07-28/x/a"),
            "{text}"
        );
        assert!(text.contains("wirecheck run: 4 warning"), "{text}");
    }

    #[test]
    fn colour_only_on_a_terminal_without_no_color() {
        use std::ffi::OsStr;
        assert!(colour_wanted(true, None));
        assert!(!colour_wanted(false, None));
        assert!(!colour_wanted(true, Some(OsStr::new("1"))));
        assert!(colour_wanted(true, Some(OsStr::new(""))));
    }

    #[test]
    fn passes_are_one_line_and_the_tally_closes() {
        let mut report = Report::new(Command::Roundtrip);
        report.records.push(Record::new(
            Place::at_line(None, 2),
            Subject::Frame(b"{}".to_vec()),
            Outcome::Pass,
        ));
        assert_eq!(
            render(&report, false),
            "PASS           standard input:2\nwirecheck roundtrip: 1 pass\n"
        );
    }
}
