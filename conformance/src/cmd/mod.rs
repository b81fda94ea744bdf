//! The subcommands of the `wirecheck` binary. Each owns its arguments and
//! returns a [`Report`]; [`emit`] renders it the same way for all of them.

pub mod args;
pub mod auth_server;
pub mod check;
pub mod classify;
pub mod diff;
pub mod fuzz;
pub mod load;
pub mod matrix;
pub mod proxy;
pub mod replay;
pub mod report;
pub mod roundtrip;
pub mod run;
pub mod run_client;
pub mod serve;

use std::path::Path;

use crate::report::sink::{Keep, Lines, Sink, Stream};
use crate::report::{Exit, Report};
pub use args::{Format, InputArgs, OutputArgs, PeerArgs};

/// Runs a command whose records `produce` makes, writing each where `output`
/// asks as it is made ([`Stream`]): its view on standard output, then the
/// JUnit and Markdown files, the summary on standard error; returns the exit
/// code. `header` is the empty report the records belong to.
pub fn stream(
    header: Report,
    output: &OutputArgs,
    produce: impl FnOnce(&mut dyn Sink) -> Result<(), String>,
) -> Exit {
    use std::io::IsTerminal as _;
    let stdout = std::io::stdout();
    let tty = stdout.is_terminal();
    stream_to(
        header,
        output,
        Box::new(std::io::BufWriter::new(stdout.lock())),
        tty,
        produce,
    )
}

/// [`stream`] onto another destination than standard output (`wirecheck
/// proxy`, whose standard output is the protocol's): `tty` says whether it is
/// a terminal, for colour.
pub fn stream_to(
    header: Report,
    output: &OutputArgs,
    out: Box<dyn std::io::Write + '_>,
    tty: bool,
    produce: impl FnOnce(&mut dyn Sink) -> Result<(), String>,
) -> Exit {
    let lines = match output.format {
        Format::Json => Lines::Json,
        Format::Terminal => Lines::Terminal {
            colour: crate::report::terminal::colour_wanted(
                tty,
                std::env::var_os("NO_COLOR").as_deref(),
            ),
        },
    };
    let keep = Keep {
        all: output.junit.is_some(),
        failing: output.markdown.is_some(),
    };
    let mut sink = Stream::new(header, out, lines, keep);
    let read = produce(&mut sink);
    let (mut report, written) = sink.finish_as(read.is_err());
    report.error = read.err();
    finish(&report, output, written)
}

/// Writes a whole `report` where `output` asks, as [`stream`] does.
pub fn emit(report: &Report, output: &OutputArgs) -> Exit {
    // The error is said once, on standard error, when the records are out
    // ([`finish`]); the header carrying it too would print it on standard
    // output as well.
    // The ambiguities met are counted again as the records pass through
    // the sink; the header carrying the count too would double it.
    let header = Report {
        records: Vec::new(),
        error: None,
        ambiguities: Vec::new(),
        ..report.clone()
    };
    stream(header, output, |sink| {
        for record in &report.records {
            sink.accept(record.clone());
        }
        report.error.clone().map_or(Ok(()), Err)
    })
}

/// `wirecheck run`'s report: on the terminal, what to fix grouped by rule
/// ([`crate::report::terminal::to_fix`]) unless `verbose` asks for every
/// check as judged; JSON lines as [`emit`] writes them.
pub fn emit_run(report: &Report, output: &OutputArgs, verbose: bool) -> Exit {
    use std::io::{IsTerminal as _, Write as _};
    if verbose || output.format != Format::Terminal {
        return emit(report, output);
    }
    let stdout = std::io::stdout();
    let colour = crate::report::terminal::colour_wanted(
        stdout.is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
    );
    // The error is said once, on standard error, by `finish`.
    let view = Report {
        error: None,
        ..report.clone()
    };
    let text = if report.error.is_some() && report.records.is_empty() {
        // Nothing was judged: no tally to show, only what was tried.
        let tried = report
            .run
            .as_ref()
            .map(|r| format!("tried: {}\n", crate::report::text::printable_str(&r.line())))
            .unwrap_or_default();
        format!("{tried}wirecheck run: could not run (exit 2); why, on standard error:\n")
    } else if report.error.is_some() {
        // Some records, then an error (Ctrl-C): the view says the run is
        // not whole where its reader looks, not only on standard error.
        format!(
            "{}wirecheck run: not whole (exit 2): what was judged before it stopped; why, on standard error\n",
            crate::report::terminal::to_fix(&view, colour)
        )
    } else {
        crate::report::terminal::to_fix(&view, colour)
    };
    let mut out = stdout.lock();
    let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    finish(report, output, written)
}

/// Everything after the records: the files, the summary, the exit code.
fn finish(report: &Report, output: &OutputArgs, written: std::io::Result<()>) -> Exit {
    let name = report.command.name();
    let mut trouble = false;
    let mut complain = |what: String| {
        eprintln!("wirecheck {name}: {what}");
        trouble = true;
    };
    if let Err(e) = written {
        complain(format!("cannot write output: {e}"));
    }
    if let Some(error) = &report.error {
        complain(error.clone());
    }
    if let Some(path) = &output.junit {
        match crate::report::junit::render(report) {
            Ok(xml) => {
                if let Err(e) = write_file(path, xml.as_bytes()) {
                    complain(e);
                }
            }
            Err(e) => complain(format!("cannot render JUnit XML: {e}")),
        }
    }
    if let Some(path) = &output.markdown {
        if let Err(e) = write_file(path, crate::report::markdown::render(report).as_bytes()) {
            complain(e);
        }
    }
    if trouble {
        return Exit::Trouble;
    }
    // The terminal view ends with its own tally; JSON lines keep standard
    // output for records and put the summary on standard error.
    if !output.quiet && output.format == Format::Json {
        eprintln!("wirecheck {name}: {}", crate::report::json::summary(report));
    }
    report.exit_code()
}

pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Writes `report` as one run document to `path` (`wirecheck run --out`):
/// the source of truth every other view can be made from again
/// (`schemas/report.schema.json`, read back by `wirecheck report`).
///
/// # Errors
/// The file cannot be written.
pub fn write_json(report: &Report, path: &Path) -> Result<(), String> {
    write_file(path, &crate::report::document::to_vec(report))
}
