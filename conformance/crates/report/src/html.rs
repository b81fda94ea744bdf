//! The HTML view (`--html FILE`): one self-contained page, no network, no
//! external assets and no script (inline CSS; `<details>` folds the wire
//! logs). A matrix of rules × revisions for one run, or rules × runs for
//! several (`wirecheck report A.json B.json …`), each cell showing its worst
//! outcome and linking by anchor to its records, their findings and wire logs.
//!
//! Peer text goes through [`printable`](super::text::printable) (bounded by
//! [`preview`]) and then
//! [`escape`], which turns every character HTML gives meaning to into an
//! entity, so a frame can add neither a tag nor an attribute. Anchors are
//! numbers, never peer text.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use harness::Revision;

use super::text::{preview, printable_str};
use super::{rule_id, HttpExchange, Outcome, Record, Report, Subject};

/// How many characters of a frame the page shows.
const PREVIEW_CHARS: usize = 4000;

/// What the colours and words of the matrix mean.
const LEGEND: &str = "<p class=\"legend\"><span class=\"fail\">fail</span> a MUST or MUST NOT broken \
(fails the run) · <span class=\"stale\">stale</span> a baseline entry that now passes (fails the run) · \
<span class=\"warning\">warning</span> a SHOULD or SHOULD NOT broken · \
<span class=\"pass\">pass</span> observed and kept · \
<span class=\"known-failure\">known-failure</span> listed in the baseline with its reason · \
<span class=\"not-observed\">not-observed</span> applies, but nothing to judge was seen (never a pass) · \
<span class=\"not-applicable\">not-applicable</span> does not apply to this peer. \
Rows: the worst first. A cell links to its records (passes are counted, not listed).</p>\n";

/// The row label of records that name no rule (a frame that broke none).
const NO_RULE: &str = "(no rule broken)";

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left}\
td.c a{display:block;text-decoration:none;color:inherit}\
.pass{background:#d9f2d9}.fail,.stale{background:#f6c6c6}.warning{background:#fbe7b5}\
.not-observed,.not-applicable,.known-failure{background:#e8e8e8}\
pre{white-space:pre-wrap;word-break:break-all;background:#f7f7f7;padding:.5em;margin:.2em 0}\
section{border-top:1px solid #ccc;margin-top:1em}";

/// One run's page: rules × the revisions its records were judged under.
#[must_use]
pub fn render(report: &Report) -> String {
    let mut columns: Vec<Option<Revision>> = Vec::new();
    for record in &report.records {
        let rev = revision_of(report, record);
        if !columns.contains(&rev) {
            columns.push(rev);
        }
    }
    columns.sort_by_key(|r| r.map(|r| r as usize));
    let labels = columns
        .iter()
        .map(|r| r.map_or_else(|| "(no revision)".to_owned(), |r| r.name().to_owned()))
        .collect();
    let mut grid = Grid::new(labels);
    for record in &report.records {
        let col = columns
            .iter()
            .position(|c| *c == revision_of(report, record))
            .unwrap_or_default();
        grid.add(col, record);
    }
    let mut head = String::new();
    describe(&mut head, report);
    page(
        &format!("wirecheck {}", report.command.name()),
        &head,
        &grid,
    )
}

/// Several runs side by side: rules × runs, each run under its `label`.
#[must_use]
pub fn render_many(runs: &[(String, &Report)]) -> String {
    let mut grid = Grid::new(runs.iter().map(|(l, _)| printable_str(l)).collect());
    let mut head = String::from("<table><tr><th>run</th><th>peer</th><th>tally</th></tr>");
    for (col, (label, report)) in runs.iter().enumerate() {
        for record in &report.records {
            grid.add(col, record);
        }
        let peer = report.run.as_ref().map_or_else(String::new, |r| {
            format!(
                "{} over {}",
                printable_str(&r.peer.target),
                printable_str(&r.peer.transport.to_string())
            )
        });
        let _ = write!(
            head,
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&printable_str(label)),
            escape(&peer),
            escape(&tally_text(report))
        );
    }
    head.push_str("</table>");
    page("wirecheck runs compared", &head, &grid)
}

fn revision_of(report: &Report, record: &Record) -> Option<Revision> {
    record.place.revision.or(report.profile.map(|p| p.revision))
}

/// The rows (rule ids, sorted) and, per row, each column's records.
struct Grid<'a> {
    columns: Vec<String>,
    rows: BTreeMap<String, Vec<Vec<&'a Record>>>,
}

impl<'a> Grid<'a> {
    fn new(columns: Vec<String>) -> Self {
        Self {
            columns,
            rows: BTreeMap::new(),
        }
    }

    fn add(&mut self, col: usize, record: &'a Record) {
        let width = self.columns.len();
        for rule in rules_of(record) {
            let row = self
                .rows
                .entry(rule)
                .or_insert_with(|| vec![Vec::new(); width]);
            if let Some(cell) = row.get_mut(col) {
                cell.push(record);
            }
        }
    }
}

/// The rules a record is about: for a check that found a defect, the rule
/// the peer broke ([`super::breach`]), never the rule the probe's frame
/// broke on purpose; else its check's, else those it broke.
pub(super) fn rules_of(record: &Record) -> Vec<String> {
    if let Some((rule, _)) = super::breach(record).filter(|_| record.check.is_some()) {
        return vec![rule.to_string()];
    }
    if let Some(check) = &record.check {
        return vec![check.rule.to_string()];
    }
    let mut rules: Vec<String> = record
        .violations
        .iter()
        .flatten()
        .map(|v| rule_id(v).to_owned())
        .collect();
    if rules.is_empty() {
        if let Some(r) = &record.refusal {
            rules.push(r.rule.as_str().to_owned());
        }
    }
    rules.dedup();
    if rules.is_empty() {
        rules.push(NO_RULE.to_owned());
    }
    rules
}

/// How bad an outcome is, for a cell's colour: the worst record decides.
pub(super) fn severity(outcome: &Outcome) -> u8 {
    match outcome {
        Outcome::Fail => 6,
        Outcome::Stale { .. } => 5,
        Outcome::Warning => 4,
        Outcome::KnownFailure { .. } => 3,
        Outcome::NotObserved { .. } => 2,
        Outcome::NotApplicable { .. } => 1,
        Outcome::Pass => 0,
    }
}

fn page(title: &str, head: &str, grid: &Grid<'_>) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
         <title>{t}</title><style>{STYLE}</style></head><body>\n<h1>{t}</h1>\n{head}\n",
        t = escape(title)
    );
    out.push_str(LEGEND);
    out.push_str("<table class=\"matrix\"><tr><th>rule</th><th>level</th>");
    for label in &grid.columns {
        let _ = write!(out, "<th>{}</th>", escape(label));
    }
    out.push_str("</tr>\n");
    // What to fix first: the rows whose worst cell is worst come first, then
    // by rule; the anchors stay the rows' places in the grid.
    let mut order: Vec<(usize, &String, &Vec<Vec<&Record>>)> = grid
        .rows
        .iter()
        .enumerate()
        .map(|(r, (rule, cells))| (r, rule, cells))
        .collect();
    let worst = |cells: &Vec<Vec<&Record>>| {
        cells
            .iter()
            .flatten()
            .map(|rec| severity(&rec.outcome))
            .max()
            .unwrap_or_default()
    };
    order.sort_by_key(|(_, rule, cells)| (std::cmp::Reverse(worst(cells)), *rule));
    for (r, rule, cells) in &order {
        let level = cells
            .iter()
            .flatten()
            .find_map(|rec| rec.check.as_ref().map(|c| c.level.name()))
            .unwrap_or("");
        let _ = write!(
            out,
            "<tr><th>{}</th><td>{}</td>",
            escape(&printable_str(rule)),
            escape(level)
        );
        for (c, cell) in cells.iter().enumerate() {
            match cell.iter().max_by_key(|rec| severity(&rec.outcome)) {
                None => out.push_str("<td></td>"),
                Some(worst) => {
                    let name = worst.outcome.name();
                    let count = if cell.len() > 1 {
                        format!(" ({} checks)", cell.len())
                    } else {
                        String::new()
                    };
                    // Passes are counted, not listed: no section to link to.
                    if worst.outcome == Outcome::Pass {
                        let _ = write!(out, "<td class=\"c {name}\">{name}{count}</td>");
                    } else {
                        let _ = write!(
                            out,
                            "<td class=\"c {name}\"><a href=\"#c{r}-{c}\">{name}{count}</a></td>"
                        );
                    }
                }
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    for (r, rule, cells) in &order {
        for (c, cell) in cells.iter().enumerate() {
            if cell.iter().all(|rec| rec.outcome == Outcome::Pass) {
                continue;
            }
            let _ = writeln!(
                out,
                "<section id=\"c{r}-{c}\"><h2>{} — {}</h2>",
                escape(&printable_str(rule)),
                escape(&grid.columns[c])
            );
            for record in cell.iter().filter(|rec| rec.outcome != Outcome::Pass) {
                record_html(&mut out, record);
            }
            out.push_str("</section>\n");
        }
    }
    out.push_str("</body></html>\n");
    out
}

fn describe(out: &mut String, report: &Report) {
    out.push_str("<p>");
    if let Some(run) = &report.run {
        let _ = write!(
            out,
            "Peer <code>{}</code> over {}, started {}, {} ms, wirecheck {}.<br>",
            escape(&printable_str(&run.peer.target)),
            escape(&printable_str(&run.peer.transport.to_string())),
            escape(&printable_str(&run.started)),
            run.duration.as_millis(),
            escape(&printable_str(&run.tool_version))
        );
        let revisions: Vec<&str> = run.revisions.iter().map(|r| r.name()).collect();
        let _ = write!(
            out,
            "Revisions judged: {}{}.<br>",
            escape(&revisions.join(", ")),
            run.asked
                .as_ref()
                .map(|a| format!(" (asked: {})", escape(&printable_str(a))))
                .unwrap_or_default()
        );
        if let Some(digest) = &run.vectors_digest {
            let _ = write!(out, "Vectors: sha256 <code>{}</code>.<br>", escape(digest));
        }
    }
    let _ = write!(out, "{}", escape(&tally_text(report)));
    if let Some(error) = &report.error {
        let _ = write!(
            out,
            "<br><strong>Stopped early:</strong> {}",
            escape(&printable_str(error))
        );
    }
    out.push_str("</p>");
    if report.command.judges_rules() {
        defects_table(out, report);
    }
}

/// The peer's defects, each once, above the matrix: its standing, rule,
/// level, "1 defect / 7 checks", the sentence and what to change.
fn defects_table(out: &mut String, report: &Report) {
    let defects = super::defects(report);
    if defects.is_empty() {
        return;
    }
    let headline = super::terminal::headline(report, &defects);
    let _ = writeln!(
        out,
        "<h2>Defects</h2><p>{}</p><table class=\"defects\"><tr><th>defect</th><th>level</th><th>checks</th><th>sentence</th><th>fix</th></tr>",
        escape(headline.trim_end())
    );
    for d in &defects {
        let class = match d.standing {
            super::Standing::Fail => "fail",
            super::Standing::Warning => "warning",
            super::Standing::Known => "known-failure",
        };
        let n = d.checks.len();
        let _ = writeln!(
            out,
            "<tr><td class=\"c {class}\">{} <code>{}</code></td><td>{}</td><td>1 defect / {n} check{}</td><td>{}<br>“{}”</td><td>{}</td></tr>",
            d.standing.label(),
            escape(&printable_str(d.rule.as_str())),
            escape(d.weight.name()),
            if n == 1 { "" } else { "s" },
            escape(&printable_str(&d.cite(report))),
            escape(d.sentence().unwrap_or_default()),
            escape(&printable_str(&d.fix().unwrap_or_default())),
        );
    }
    out.push_str("</table>\n");
}

fn tally_text(report: &Report) -> String {
    let rows: Vec<String> = report
        .tally()
        .rows()
        .filter(|(_, n)| *n > 0)
        .map(|(name, n)| format!("{n} {name}"))
        .collect();
    if rows.is_empty() {
        "nothing judged".to_owned()
    } else {
        rows.join(", ")
    }
}

fn record_html(out: &mut String, record: &Record) {
    let name = record.outcome.name();
    let _ = write!(
        out,
        "<div class=\"rec\"><p><span class=\"{name}\">{name}</span> {}</p><ul>",
        escape(&place(record))
    );
    if let Some(why) = record.outcome.reason() {
        let _ = write!(out, "<li>{}</li>", escape(&printable_str(why)));
    }
    if let Some(check) = &record.check {
        let _ = write!(
            out,
            "<li>{} {} ({})</li>",
            check.level.name(),
            escape(&printable_str(check.rule.as_str())),
            escape(&printable_str(&check.spec))
        );
    }
    for v in record.violations.iter().flatten() {
        // A transport finding points into no frame: no empty "at".
        let at = if v.pointer.is_empty() {
            String::new()
        } else {
            format!(" at <code>{}</code>", escape(&printable_str(&v.pointer)))
        };
        let _ = write!(
            out,
            "<li>{} {}{at}: {} ({})</li>",
            v.level.name(),
            escape(&printable_str(rule_id(v))),
            escape(&printable_str(&v.message)),
            escape(&printable_str(v.spec))
        );
    }
    if let Some(r) = &record.refusal {
        let _ = write!(
            out,
            "<li>refused {} {} at <code>{}</code>: {}</li>",
            r.code,
            escape(r.rule.as_str()),
            escape(&printable_str(&r.pointer)),
            escape(&printable_str(&r.message))
        );
    }
    for note in &record.notes {
        let _ = write!(out, "<li>note: {}</li>", escape(&printable_str(note)));
    }
    out.push_str("</ul>");
    // A transport record's subject is empty: its evidence is the HTTP
    // exchange below, not an empty frame box.
    let subject = match &record.subject {
        Subject::Frame(bytes) if bytes.is_empty() => None,
        Subject::Frame(bytes) => Some(preview(bytes, PREVIEW_CHARS)),
        Subject::TooLong { len } => Some(format!("({len} bytes, not read)")),
    };
    if let Some(subject) = subject {
        let _ = write!(out, "<pre>{}</pre>", escape(&subject));
    }
    for x in &record.http {
        http_exchange_html(out, x);
    }
    if !record.wire.is_empty() {
        let _ = write!(
            out,
            "<details><summary>wire log ({} frames)</summary><table><tr><th>#</th><th>from</th><th>at</th><th>frame</th></tr>",
            record.wire.len()
        );
        // Bounded, so a flood of frames or one huge frame keeps the page
        // small: the run document holds the whole log.
        for (i, event) in record.wire.iter().enumerate().take(MAX_WIRE_ROWS) {
            let at = event
                .t
                .map_or_else(String::new, |secs| format!("{:.3} ms", secs * 1e3));
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{at}</td><td><pre>{}</pre></td></tr>",
                i + 1,
                event.from.sender(),
                escape(&preview(&event.bytes, MAX_WIRE_CHARS))
            );
        }
        if record.wire.len() > MAX_WIRE_ROWS {
            let _ = write!(
                out,
                "<tr><td colspan=\"4\">… {} more frames (the run document, <code>--out</code>, holds them all)</td></tr>",
                record.wire.len() - MAX_WIRE_ROWS
            );
        }
        out.push_str("</table></details>");
    }
    out.push_str("</div>\n");
}

/// One HTTP exchange: the request line, the headers sent, the body's start;
/// then the status, the headers a rule reads and the response body's start.
fn http_exchange_html(out: &mut String, x: &HttpExchange) {
    // Each piece made printable on its own (peer text may hold any byte);
    // the newlines between them are the box's own.
    let p = |text: &str| printable_str(text);
    let mut lines = vec![format!("{} {}", p(&x.method), p(&x.url))];
    lines.extend(
        x.request_headers
            .iter()
            .map(|(name, value)| format!("{}: {}", p(name), p(value))),
    );
    if let Some(body) = &x.request_body {
        lines.push(String::new());
        lines.push(p(body));
    }
    lines.push(String::new());
    lines.push(format!("→ HTTP {}", x.status));
    lines.extend(
        x.response_headers
            .iter()
            .map(|(name, value)| format!("{}: {}", p(name), p(value))),
    );
    lines.push(String::new());
    lines.push(
        x.response_body
            .as_deref()
            .map_or_else(|| "(no body)".to_owned(), p),
    );
    let _ = write!(
        out,
        "<div class=\"http\"><b>HTTP exchange</b><pre>{}</pre></div>",
        escape(&lines.join("\n"))
    );
}

/// The most frames of one record's wire log the page shows.
const MAX_WIRE_ROWS: usize = 24;

/// The most characters of one frame the page shows.
const MAX_WIRE_CHARS: usize = 2_000;

fn place(record: &Record) -> String {
    let p = &record.place;
    let mut s = match (&p.vector, &p.file) {
        (Some(v), _) => printable_str(v),
        (None, Some(f)) => printable_str(f),
        (None, None) => String::new(),
    };
    if let Some(line) = p.line {
        let _ = write!(s, ":{line}");
    }
    if let Some(frame) = p.frame_number() {
        let _ = write!(s, " #{frame}");
    }
    if let Some(t) = &p.transport {
        let _ = write!(s, " over {}", printable_str(&t.to_string()));
    }
    s
}

/// Text safe as HTML element content or a quoted attribute value: the five
/// characters HTML gives meaning to become entities (HTML §13.1.4 forbids
/// none of the rest in text), so no tag, attribute or entity can start.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
