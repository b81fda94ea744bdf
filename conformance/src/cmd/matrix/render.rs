//! The matrix's views: Markdown, one self-contained HTML page, and the
//! terminal's lines. "not applicable" and "could not run" are drawn grey,
//! never as failures; only a broken MUST (or a stale baseline entry) is red.

use std::fmt::Write as _;

use super::document::{Cell, Matrix, Run, ServerRow};
use crate::report::html::escape;
use crate::report::markdown::escape as md_escape;

/// A cell's tally in a few words: `561 pass, 2 fail, 15 warn, 20 n/a`.
#[must_use]
pub fn tally_words(cell: &Cell) -> String {
    if cell.status == "could-not-run" {
        return "could not run".into();
    }
    let n = |k: &str| cell.tally.get(k).copied().unwrap_or(0);
    let mut parts = Vec::new();
    for (key, label) in [
        ("pass", "pass"),
        ("fail", "fail"),
        ("stale", "stale"),
        ("warning", "warn"),
        ("known-failure", "known"),
    ] {
        if n(key) > 0 {
            parts.push(format!("{} {label}", n(key)));
        }
    }
    let na = n("not-applicable") + n("not-observed");
    if na > 0 {
        parts.push(format!("{na} n/a"));
    }
    if parts.is_empty() {
        "nothing judged".into()
    } else {
        parts.join(", ")
    }
}

fn worst_words(cell: &Cell) -> Option<String> {
    cell.worst
        .as_ref()
        .map(|w| format!("{} {} ({})", w.level, w.rule, w.vector))
}

fn cell_of<'a>(run: &'a Run, revision: &str) -> Option<&'a Cell> {
    run.cells.iter().find(|c| c.revision == revision)
}

/// The Markdown view (for a PR comment, a job summary). `changes` is the
/// `--against` section, already rendered.
#[must_use]
pub fn markdown(matrix: &Matrix, changes: Option<&str>) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# wirecheck matrix\n");
    let _ = writeln!(
        md,
        "`{}` · wirecheck {} · started {} · {:.0}s{}\n",
        matrix.manifest,
        matrix.tool_version,
        matrix.started,
        matrix.duration_ms as f64 / 1000.0,
        matrix
            .shard
            .as_deref()
            .map(|s| format!(" · shard {s}"))
            .unwrap_or_default()
    );
    let _ = writeln!(
        md,
        "Each cell: the tally and the worst finding. Grey outcomes (n/a, could not run) are not failures.\n"
    );
    let mut header = String::from("| server | version | transport |");
    let mut rule = String::from("|---|---|---|");
    for revision in &matrix.revisions {
        let _ = write!(header, " {revision} |");
        rule.push_str("---|");
    }
    if matrix.fuzz_seconds.is_some() {
        header.push_str(" fuzz |");
        rule.push_str("---|");
    }
    let _ = writeln!(md, "{header}\n{rule}");
    for server in &matrix.servers {
        for run in &server.runs {
            let _ = write!(
                md,
                "| {} | {} | {} |",
                md_escape(&server.name),
                md_escape(&server.version),
                run.transport
            );
            for revision in &matrix.revisions {
                match cell_of(run, revision) {
                    None => md.push_str(" |"),
                    Some(cell) => {
                        // The markup is ours; only what the servers and
                        // their documents supplied is escaped.
                        let _ = write!(
                            md,
                            " **{}** {}",
                            md_escape(&cell.status),
                            md_escape(&tally_words(cell))
                        );
                        if let Some(w) = worst_words(cell) {
                            let _ = write!(md, "<br>{}", md_escape(&w));
                        }
                        if let Some(doc) = &run.document {
                            let _ = write!(md, " [run]({})", md_escape(doc));
                        }
                        md.push_str(" |");
                    }
                }
            }
            if matrix.fuzz_seconds.is_some() {
                let fuzz = server.fuzz.as_ref().map_or("", |f| f.status.as_str());
                let _ = write!(md, " {fuzz} |");
            }
            md.push('\n');
        }
    }
    let could_not: Vec<(&ServerRow, &Run)> = matrix
        .servers
        .iter()
        .flat_map(|s| s.runs.iter().map(move |r| (s, r)))
        .filter(|(_, r)| r.reason.is_some())
        .collect();
    if !could_not.is_empty() {
        let _ = writeln!(md, "\n## Could not run\n");
        for (server, run) in could_not {
            let _ = writeln!(
                md,
                "- {} over {}: {}",
                md_escape(&server.name),
                run.transport,
                md_escape(run.reason.as_deref().unwrap_or_default())
            );
        }
    }
    let _ = writeln!(md, "\n## Reproduce\n");
    for server in &matrix.servers {
        for run in &server.runs {
            let _ = writeln!(
                md,
                "- {} over {}: `{}`",
                md_escape(&server.name),
                run.transport,
                run.reproducer.replace('`', "'")
            );
        }
    }
    if let Some(changes) = changes {
        let _ = writeln!(md, "\n{changes}");
    }
    md
}

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}\
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.35em .5em;vertical-align:top}\
th{background:#f4f4f4;text-align:left}td.fail{background:#fbd5d5}td.warning{background:#fdf0c8}\
td.pass{background:#d8f3dc}td.not-applicable,td.could-not-run{background:#eee;color:#666}\
.w{font-size:12px;color:#444;display:block}code{font-size:12px}small{color:#666}";

/// The one self-contained page: servers × transports down, revisions across,
/// each cell its tally, worst finding and a link to the run document.
#[must_use]
pub fn html(matrix: &Matrix, changes: Option<&str>) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!doctype html><html lang=en><meta charset=utf-8><title>wirecheck matrix</title><style>{STYLE}</style>\
         <h1>wirecheck matrix</h1><p><code>{}</code> · wirecheck {} · started {} · {:.0}s{}</p>\
         <p><small>Red: a MUST broken (or a stale baseline entry). Amber: only SHOULDs. Grey: not applicable or could not run, never a failure.</small></p>",
        escape(&matrix.manifest),
        escape(&matrix.tool_version),
        escape(&matrix.started),
        matrix.duration_ms as f64 / 1000.0,
        matrix
            .shard
            .as_deref()
            .map(|s| format!(" · shard {}", escape(s)))
            .unwrap_or_default()
    );
    h.push_str("<table><tr><th>server</th><th>transport</th>");
    for revision in &matrix.revisions {
        let _ = write!(h, "<th>{}</th>", escape(revision));
    }
    if matrix.fuzz_seconds.is_some() {
        h.push_str("<th>fuzz</th>");
    }
    h.push_str("</tr>");
    for server in &matrix.servers {
        for (i, run) in server.runs.iter().enumerate() {
            h.push_str("<tr>");
            if i == 0 {
                let _ = write!(
                    h,
                    "<td rowspan={}><b>{}</b><br><small>{} · {} · {}</small></td>",
                    server.runs.len(),
                    escape(&server.name),
                    escape(&server.package),
                    escape(&server.ecosystem),
                    escape(&server.profile)
                );
            }
            let _ = write!(
                h,
                "<td>{}<br><small><a href=\"{}\">log</a>{}</small></td>",
                escape(&run.transport),
                escape(&run.log),
                run.transcripts
                    .as_deref()
                    .map(|t| format!(" · <a href=\"{}/\">transcripts</a>", escape(t)))
                    .unwrap_or_default()
            );
            for revision in &matrix.revisions {
                let Some(cell) = cell_of(run, revision) else {
                    h.push_str("<td></td>");
                    continue;
                };
                let _ = write!(
                    h,
                    "<td class=\"{}\" title=\"{}\">{}",
                    escape(&cell.status),
                    escape(&run.reproducer),
                    escape(&tally_words(cell))
                );
                if let Some(w) = worst_words(cell) {
                    let _ = write!(h, "<span class=w>{}</span>", escape(&w));
                }
                if let Some(reason) = &run.reason {
                    let _ = write!(h, "<span class=w>{}</span>", escape(reason));
                }
                if let Some(doc) = &run.document {
                    let _ = write!(
                        h,
                        "<small><a href=\"{}\">run document</a></small>",
                        escape(doc)
                    );
                }
                h.push_str("</td>");
            }
            if matrix.fuzz_seconds.is_some() {
                match (&server.fuzz, i) {
                    (Some(f), 0) => {
                        let class = match f.status.as_str() {
                            "findings" => "fail",
                            "clean" => "pass",
                            other => other,
                        };
                        let _ = write!(
                            h,
                            "<td rowspan={} class=\"{}\" title=\"{}\">{}<span class=w>{}</span>{}</td>",
                            server.runs.len(),
                            escape(class),
                            escape(f.reproducer.as_deref().unwrap_or_default()),
                            escape(&f.status),
                            escape(&f.summary),
                            f.out_dir
                                .as_deref()
                                .map(|d| format!("<small><a href=\"{}/\">findings</a></small>", escape(d)))
                                .unwrap_or_default()
                        );
                    }
                    (None, 0) => {
                        let _ = write!(h, "<td rowspan={}></td>", server.runs.len());
                    }
                    _ => {}
                }
            }
            h.push_str("</tr>");
        }
    }
    h.push_str("</table><h2>Reproduce</h2><ul>");
    for server in &matrix.servers {
        for run in &server.runs {
            let _ = write!(
                h,
                "<li>{} over {}: <code>{}</code></li>",
                escape(&server.name),
                escape(&run.transport),
                escape(&run.reproducer)
            );
        }
    }
    h.push_str("</ul>");
    if let Some(changes) = changes {
        let _ = write!(
            h,
            "<h2>Since the last matrix</h2><pre>{}</pre>",
            escape(changes)
        );
    }
    h.push_str("</html>\n");
    h
}

/// One line per server × transport, for the terminal.
#[must_use]
pub fn terminal(matrix: &Matrix) -> String {
    let mut out = String::new();
    for server in &matrix.servers {
        for run in &server.runs {
            let cells: Vec<String> = run
                .cells
                .iter()
                .map(|c| format!("{} {} ({})", c.revision, c.status, tally_words(c)))
                .collect();
            let _ = writeln!(
                out,
                "{:<24} {:<16} {}",
                server.name,
                run.transport,
                run.reason
                    .as_deref()
                    .map_or_else(|| cells.join("; "), |r| format!("could not run: {r}"))
            );
        }
        if let Some(fuzz) = &server.fuzz {
            let _ = writeln!(
                out,
                "{:<24} {:<16} {} ({})",
                server.name, "fuzz", fuzz.status, fuzz.summary
            );
        }
    }
    out
}
