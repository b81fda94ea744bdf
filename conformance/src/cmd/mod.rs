//! The subcommands of the `wirecheck` binary. Each owns its arguments and
//! returns a [`Report`]; [`emit`] renders it the same way for all of them.

pub mod args;
pub mod classify;
pub mod roundtrip;
pub mod run;

use std::io::Write as _;
use std::path::Path;

use crate::report::{self, Exit, Report};
pub use args::{Format, InputArgs, OutputArgs};

/// Writes `report` where `output` asks: its view on standard output, the
/// JUnit and Markdown files, the summary on standard error; returns the exit
/// code. Records made before an error are written before it is reported.
pub fn emit(report: &Report, output: &OutputArgs) -> Exit {
    let name = report.command.name();
    let mut trouble = false;
    let mut complain = |what: String| {
        eprintln!("wirecheck {name}: {what}");
        trouble = true;
    };
    if let Err(e) = to_stdout(report, output.format) {
        complain(format!("cannot write output: {e}"));
    }
    if let Some(error) = &report.error {
        complain(error.clone());
    }
    if let Some(path) = &output.junit {
        match report::junit::render(report) {
            Ok(xml) => {
                if let Err(e) = write_file(path, xml.as_bytes()) {
                    complain(e);
                }
            }
            Err(e) => complain(format!("cannot render JUnit XML: {e}")),
        }
    }
    if let Some(path) = &output.markdown {
        if let Err(e) = write_file(path, report::markdown::render(report).as_bytes()) {
            complain(e);
        }
    }
    if trouble {
        return Exit::Trouble;
    }
    // The terminal view ends with its own tally; JSON lines keep standard
    // output for records and put the summary on standard error.
    if !output.quiet && output.format == Format::Json {
        eprintln!("wirecheck {name}: {}", report::json::summary(report));
    }
    report.exit_code()
}

fn to_stdout(report: &Report, format: Format) -> std::io::Result<()> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match format {
        Format::Json => report::json::write_lines(report, &mut out)?,
        Format::Terminal => {
            use std::io::IsTerminal as _;
            let colour = report::terminal::colour_wanted(
                std::io::stdout().is_terminal(),
                std::env::var_os("NO_COLOR").as_deref(),
            );
            out.write_all(report::terminal::render(report, colour).as_bytes())?;
        }
    }
    out.flush()
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Writes `report` as JSON lines to `path` (`wirecheck run --out`).
///
/// # Errors
/// The file cannot be written.
pub fn write_json(report: &Report, path: &Path) -> Result<(), String> {
    let mut bytes = Vec::new();
    report::json::write_lines(report, &mut bytes)
        .map_err(|e| format!("cannot render the report: {e}"))?;
    write_file(path, &bytes)
}
