//! `wirecheck report`: render run documents again, one or several side by side.

use std::path::PathBuf;

use crate::report::{html, markdown, sarif, Exit, Report};

/// Render run documents (`wirecheck run --out FILE`) as HTML, Markdown or SARIF.
///
/// With one document, the HTML page is its rules × revisions matrix; with
/// several, rules × runs, so releases of an SDK can be compared. A line per
/// document (its tally) goes to standard output.
///
/// Exit codes: 0 no document has a failing record, 1 one has, 2 a document
/// could not be read or a file written.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The run documents.
    #[arg(required = true, value_name = "REPORT.json")]
    documents: Vec<PathBuf>,
    /// Write a self-contained HTML page to FILE.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Write a Markdown summary to FILE.
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
    /// Write SARIF 2.1.0 to FILE, one run per document.
    #[arg(long, value_name = "FILE")]
    sarif: Option<PathBuf>,
    /// Write JUnit XML to FILE: a test suite per document, a test case per defect.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// On the terminal, every check as judged rather than each defect once.
    #[arg(long, short)]
    verbose: bool,
    /// Print only each document's tally line, not its defects.
    #[arg(long, short)]
    quiet: bool,
}

/// Reads the documents and writes the views asked for.
#[must_use]
pub fn run(args: &Args) -> Exit {
    let mut runs: Vec<(String, Report)> = Vec::new();
    for path in &args.documents {
        match Report::read_json(path) {
            Ok(report) => runs.push((path.display().to_string(), report)),
            Err(e) => {
                eprintln!("wirecheck report: {e}");
                return Exit::Trouble;
            }
        }
    }
    let labelled: Vec<(String, &Report)> = runs.iter().map(|(l, r)| (l.clone(), r)).collect();
    let mut trouble = false;
    let mut write = |path: &Option<PathBuf>, render: &dyn Fn() -> Vec<u8>| {
        if let Some(path) = path {
            if let Err(e) = super::write_file(path, &render()) {
                eprintln!("wirecheck report: {e}");
                trouble = true;
            }
        }
    };
    write(&args.html, &|| {
        match labelled.as_slice() {
            [(_, one)] => html::render(one),
            many => html::render_many(many),
        }
        .into_bytes()
    });
    write(&args.markdown, &|| {
        match labelled.as_slice() {
            [(_, one)] => markdown::render(one),
            many => markdown::render_many(many),
        }
        .into_bytes()
    });
    write(&args.sarif, &|| {
        let reports: Vec<&Report> = labelled.iter().map(|(_, r)| *r).collect();
        let mut out = serde_json::to_vec_pretty(&sarif::render_many(&reports))
            .expect("a JSON value always serialises");
        out.push(b'\n');
        out
    });
    write(&args.junit, &|| {
        let reports: Vec<&Report> = labelled.iter().map(|(_, r)| *r).collect();
        crate::report::junit::render_many(&reports)
            .unwrap_or_else(|e| format!("<!-- {e} -->"))
            .into_bytes()
    });
    let colour = crate::report::terminal::colour_wanted(
        std::io::IsTerminal::is_terminal(&std::io::stdout()),
        std::env::var_os("NO_COLOR").as_deref(),
    );
    for (label, report) in &runs {
        if !args.quiet {
            let view = if args.verbose {
                crate::report::terminal::render(report, colour)
            } else {
                crate::report::terminal::to_fix(report, colour)
            };
            println!("== {}", crate::report::text::printable_str(label));
            print!("{view}");
        }
        println!(
            "{}: {}",
            crate::report::text::printable_str(label),
            crate::report::json::summary(report)
        );
    }
    if trouble {
        Exit::Trouble
    } else if runs.iter().any(|(_, r)| r.exit_code() != Exit::Clean) {
        Exit::Findings
    } else {
        Exit::Clean
    }
}
