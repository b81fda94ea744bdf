//! `wirecheck check`: judge captured two-sided conversations (transcripts, see
//! [`crate::transcript`]) with the session judge ([`harness::session`]), one
//! JSON line per finding.

use std::fs::File;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};

use harness::session::{self, Finding, Judge, Unobserved};
use harness::Revision;

use super::Exit;
use crate::transcript::{Entry, Reader};

/// How to judge.
#[derive(Debug, Clone)]
pub struct Options {
    /// The revision; `None` reads it from each conversation (`--revision auto`).
    pub revision: Option<Revision>,
    /// Fail on SHOULD-level findings too.
    pub strict: bool,
    /// The longest transcript line read.
    pub max_line: usize,
}

/// Counts of one run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Transcripts judged.
    pub transcripts: usize,
    /// Findings breaking a MUST or MUST NOT.
    pub mandatory: usize,
    /// Findings breaking only SHOULD-level rules.
    pub advisory: usize,
    /// Checks the captures ended too early to decide.
    pub not_observed: usize,
}

/// One line of the report. Kept to this one type and [`write_record`] so the
/// shared report model can take it over.
#[derive(serde::Serialize)]
#[serde(untagged)]
enum Record<'a> {
    Finding {
        file: &'a str,
        revision: &'static str,
        outcome: &'static str,
        #[serde(flatten)]
        finding: &'a Finding,
    },
    NotObserved {
        file: &'a str,
        revision: &'static str,
        outcome: &'static str,
        #[serde(flatten)]
        unobserved: &'a Unobserved,
    },
}

/// Writes one report line.
fn write_record(out: &mut dyn Write, record: &Record<'_>) -> Result<(), String> {
    let mut line = serde_json::to_vec(record).map_err(|e| format!("cannot encode: {e}"))?;
    line.push(b'\n');
    out.write_all(&line)
        .map_err(|e| format!("cannot write output: {e}"))
}

fn open(path: &Path, max_line: usize) -> Result<Reader<BufReader<File>>, String> {
    let file = File::open(path).map_err(|e| format!("{}: cannot open: {e}", path.display()))?;
    Ok(Reader::new(BufReader::new(file), max_line))
}

/// The revision `path` speaks, read from its frames (see
/// [`session::detect_revision`]); plain JSON-RPC 2.0 when none names one.
fn detect(path: &Path, max_line: usize) -> Result<Revision, String> {
    let mut entries = Vec::new();
    for entry in open(path, max_line)? {
        match entry.map_err(|e| format!("{}: {e}", path.display()))? {
            Entry::Frame { from, bytes, .. } => entries.push((from, bytes)),
            Entry::Event { .. } => {}
        }
        // The handshake or the first request names the revision; stop looking
        // well before holding a whole capture in memory.
        if entries.len() >= 64 {
            break;
        }
    }
    Ok(
        session::detect_revision(entries.iter().map(|(d, b)| (*d, b.as_slice())))
            .unwrap_or(Revision::JsonRpc2),
    )
}

/// Judges every transcript in `files`, writing one JSON line per finding to
/// `out`. Stops at the first unreadable file or malformed line: a transcript
/// that cannot be read cannot be judged.
///
/// # Errors
/// A message naming the file and line.
pub fn run(files: &[PathBuf], options: &Options, out: &mut dyn Write) -> Result<Tally, String> {
    let mut tally = Tally::default();
    for path in files {
        let revision = match options.revision {
            Some(r) => r,
            None => detect(path, options.max_line)?,
        };
        let name = path.display().to_string();
        let mut judge = Judge::new(revision);
        let mut findings = Vec::new();
        for entry in open(path, options.max_line)? {
            let entry = entry.map_err(|e| format!("{name}: {e}"))?;
            judge.feed(entry.event(), entry.time(), &mut findings);
            for f in findings.drain(..) {
                emit(out, &name, revision, &f, &mut tally)?;
            }
        }
        let ending = judge.finish();
        for f in &ending.findings {
            emit(out, &name, revision, f, &mut tally)?;
        }
        for u in &ending.not_observed {
            tally.not_observed += 1;
            write_record(
                out,
                &Record::NotObserved {
                    file: &name,
                    revision: revision.name(),
                    outcome: "not-observed",
                    unobserved: u,
                },
            )?;
        }
        tally.transcripts += 1;
    }
    Ok(tally)
}

fn emit(
    out: &mut dyn Write,
    file: &str,
    revision: Revision,
    finding: &Finding,
    tally: &mut Tally,
) -> Result<(), String> {
    let mandatory = finding.violation.level.is_mandatory();
    if mandatory {
        tally.mandatory += 1;
    } else {
        tally.advisory += 1;
    }
    write_record(
        out,
        &Record::Finding {
            file,
            revision: revision.name(),
            outcome: if mandatory { "fail" } else { "warning" },
            finding,
        },
    )
}

/// The exit code for a tally: findings when a MUST was broken, or, with
/// `strict`, any SHOULD-level rule. Not observed never fails a run.
#[must_use]
pub fn exit_for(tally: Tally, strict: bool) -> Exit {
    if tally.mandatory > 0 || (strict && tally.advisory > 0) {
        Exit::Findings
    } else {
        Exit::Clean
    }
}

/// Runs against standard output, with a summary on standard error.
pub fn main(files: &[PathBuf], options: &Options, quiet: bool) -> Exit {
    if files.is_empty() {
        eprintln!("wirecheck check: no transcript given");
        return Exit::Trouble;
    }
    super::report_to_stdout(
        "check",
        quiet,
        |out| run(files, options, out),
        |t| {
            format!(
                "{} transcripts: {} findings breaking a MUST, {} breaking only SHOULD-level rules{}, {} not observed",
                t.transcripts,
                t.mandatory,
                t.advisory,
                if options.strict { " (--strict: these fail too)" } else { "" },
                t.not_observed
            )
        },
        |t| exit_for(*t, options.strict),
    )
}
