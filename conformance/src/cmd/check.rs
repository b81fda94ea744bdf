//! `wirecheck check`: judge captured two-sided conversations (transcripts, see
//! [`crate::transcript`]) with the session judge ([`harness::session`]): one
//! record per finding, through the one report model.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, SyncSender};

use harness::session::{self, Finding};
use harness::{Direction, Revision};

use super::args::OutputArgs;
use crate::report::sink::Sink;
use crate::report::{Command, Report};
use crate::transcript::{Entry, Reader};
use crate::watch::{self, Watch};

/// Judge captured two-sided conversations with the session judge.
///
/// Each TRANSCRIPT has one JSON object per line: {"from":"client"|"server",
/// "frame":"<exact text>"} (or "frame_hex"), or {"event":"closed"|"wait-elapsed"},
/// each with an optional "t" in seconds (schemas/transcript.schema.json). One
/// record per finding: the rule, its level and reference, the index of the
/// frame where it became certain, every frame involved (with times) in
/// `notes`, and what was found. A request still unanswered when the capture
/// simply stops is "not observed", never a pass or a failure. Frames are
/// counted from 1 in the terminal view and the notes (JSON's `frame` is the
/// 0-based index). `-` reads a transcript from standard input; Ctrl-C ends
/// the check there: what was read is judged and reported, as a capture that
/// stops there, and the exit is 2.
///
/// Exit codes: 0 when no MUST is broken, 1 when one is (with --strict, also
/// on SHOULD-level findings), 2 on usage or I/O errors, or Ctrl-C.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The revision (an MCP revision or jsonrpc-2.0), or `auto` to read it from
    /// `initialize` or the per-request `_meta` (plain JSON-RPC 2.0 when neither names one).
    #[arg(long, value_name = "R|auto", default_value = "auto", value_parser = super::args::revision_or_auto())]
    revision: super::args::ReadRevision,
    /// Fail (exit 1) on SHOULD-level findings too.
    #[arg(long)]
    strict: bool,
    /// Keep only what one side broke: `server` (e.g. for `wirecheck run
    /// --transcripts`, whose probes break rules on purpose) or `client`. A
    /// finding is the sender's of the frame that made it certain; an answer
    /// owed when the capture ended is the side's that was asked.
    #[arg(long, value_enum, value_name = "SIDE")]
    side: Option<Side>,
    /// The longest transcript line read, in bytes.
    #[arg(long, default_value_t = crate::transcript::DEFAULT_MAX_LINE, value_name = "BYTES")]
    max_line: usize,
    /// Transcript files; `-` for standard input.
    #[arg(value_name = "TRANSCRIPT", required = true)]
    transcripts: Vec<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
}

/// A side of the conversation (`--side`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    /// What the server sent or owed.
    Server,
    /// What the client sent or owed.
    Client,
}

impl Side {
    fn direction(self) -> Direction {
        match self {
            Side::Server => Direction::ServerToClient,
            Side::Client => Direction::ClientToServer,
        }
    }
}

impl Args {
    /// Where the report goes.
    #[must_use]
    pub fn output(&self) -> &OutputArgs {
        &self.output
    }
}

/// The empty report the records belong to.
#[must_use]
pub fn header(args: &Args) -> Report {
    let mut report = Report::new(Command::Check);
    report.strict = args.strict;
    report
}

/// Runs `wirecheck check` with its arguments.
pub fn run(args: &Args) -> super::Exit {
    super::stream(header(args), args.output(), |sink| judge_all(args, sink))
}

/// Judges every transcript `args` names, each finding into `sink`. Stops at
/// the first unreadable file or malformed line: a transcript that cannot be
/// read cannot be judged, and the error names the file and line.
fn judge_all(args: &Args, sink: &mut dyn Sink) -> Result<(), String> {
    let fixed = args.revision.fixed();
    let entries = read_all(args.transcripts.clone(), args.max_line)?;
    for path in &args.transcripts {
        judge_one(path, fixed, args, &entries, sink)?;
    }
    Ok(())
}

/// What the reading thread hands over, in order.
enum Next {
    /// One more entry of the transcript being read, or why it cannot be read.
    Entry(Result<Entry, String>),
    /// The transcript being read has ended (the next begins after this).
    Ended,
    /// Ctrl-C: nothing more is read.
    Interrupted,
}

/// Reads `paths` one after another on a thread of its own, entry by entry,
/// so that Ctrl-C reaches the judging side even while a read waits (a
/// transcript on standard input may never end). Bounded: the reader is
/// slowed to the judge's pace, memory stays flat.
fn read_all(paths: Vec<PathBuf>, max_line: usize) -> Result<Receiver<Next>, String> {
    let (tx, rx) = mpsc::sync_channel(1024);
    let interrupt = tx.clone();
    crate::interrupt::on_ctrl_c(move || {
        let _ = interrupt.send(Next::Interrupted);
    })?;
    std::thread::Builder::new()
        .name("check-reader".into())
        .spawn(move || read_each(&paths, max_line, &tx))
        .map_err(|e| format!("cannot start the reading thread: {e}"))?;
    Ok(rx)
}

/// [`read_all`]'s thread: stops at the first error (the judge stops there
/// too) or when nobody listens any more.
fn read_each(paths: &[PathBuf], max_line: usize, tx: &SyncSender<Next>) {
    for path in paths {
        let reader = match open(path, max_line) {
            Ok(reader) => reader,
            Err(e) => {
                let _ = tx.send(Next::Entry(Err(e)));
                return;
            }
        };
        let name = display_name(path);
        for entry in reader {
            let failed = entry.is_err();
            let next = Next::Entry(entry.map_err(|e| format!("{name}: {e}")));
            if tx.send(next).is_err() || failed {
                return;
            }
        }
        if tx.send(Next::Ended).is_err() {
            return;
        }
    }
}

/// Judges one transcript under `fixed`, or under the revision its frames
/// name (read as [`Watch`] reads it, the same live in `wirecheck proxy`).
fn judge_one(
    path: &Path,
    fixed: Option<Revision>,
    args: &Args,
    entries: &Receiver<Next>,
    sink: &mut dyn Sink,
) -> Result<(), String> {
    let name = display_name(path);
    let mut watch = Watch::new(fixed);
    // Who sent each event, for `--side` (a byte per entry, not the frames).
    let mut senders: Vec<Option<Direction>> = Vec::new();
    let sender = |senders: &[Option<Direction>], index: u64| {
        usize::try_from(index)
            .ok()
            .and_then(|i| senders.get(i).copied().flatten())
    };
    let keep = |senders: &[Option<Direction>], f: &Finding| match args.side {
        None => true,
        Some(side) => session::blame(&f.frames, |i| sender(senders, i)) == Some(side.direction()),
    };
    let mut frames = 0usize;
    let mut interrupted = false;
    loop {
        let entry = match entries.recv() {
            Ok(Next::Entry(entry)) => entry?,
            Ok(Next::Ended) => break,
            Ok(Next::Interrupted) => {
                interrupted = true;
                break;
            }
            // The reader stops after an error it sends first; gone without
            // one, it failed: what it had not read cannot be judged.
            Err(_) => return Err(format!("{name}: the reading thread stopped before the end")),
        };
        frames += usize::from(matches!(entry, Entry::Frame(_)));
        if args.side.is_some() {
            senders.push(match &entry {
                Entry::Frame(frame) => Some(frame.from),
                Entry::Event { .. } => None,
            });
        }
        watch.see(&entry, &mut |revision, entry, findings| {
            kept(sink, &name, revision, entry, findings, &|f| {
                keep(&senders, f)
            });
        });
    }
    if interrupted {
        // Judged up to here, then ended as a capture that simply stops.
        sink.accept(crate::report::session::interrupted(&name, frames));
    }
    // Nothing observed is never a pass: a transcript without a frame cannot
    // be judged, as `wirecheck run` with nothing to play.
    if frames == 0 && !interrupted {
        return Err(format!(
            "{name}: no frame to judge (the transcript holds none)"
        ));
    }
    let (revision, ending) = watch.finish(&mut |revision, entry, findings| {
        kept(sink, &name, revision, entry, findings, &|f| {
            keep(&senders, f)
        });
    });
    for f in ending.findings.iter().filter(|f| keep(&senders, f)) {
        sink.accept(crate::report::session::finding(
            &name,
            revision,
            f,
            Vec::new(),
        ));
    }
    for u in &ending.not_observed {
        // What the capture ended before: owed by the side the first frame
        // involved was sent to.
        let owed = u
            .frames
            .first()
            .and_then(|a| sender(&senders, a.index))
            .map(Direction::reverse);
        if args.side.is_none_or(|side| owed == Some(side.direction())) {
            sink.accept(crate::report::session::unobserved(&name, revision, u));
        }
    }
    if interrupted {
        return Err(crate::report::session::interrupted_error(&name, frames));
    }
    Ok(())
}

/// A record per finding the judge made at `entry` that `keep` keeps: it
/// became certain there, so the entry's bytes are the record's subject.
fn kept(
    sink: &mut dyn Sink,
    name: &str,
    revision: Revision,
    entry: &Entry,
    findings: &mut Vec<Finding>,
    keep: &dyn Fn(&Finding) -> bool,
) {
    for f in findings.drain(..) {
        if keep(&f) {
            sink.accept(crate::report::session::finding(
                name,
                revision,
                &f,
                watch::bytes(entry).to_vec(),
            ));
        }
    }
}

/// How a transcript is named in the report and its errors.
fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "standard input".to_owned()
    } else {
        path.display().to_string()
    }
}

/// A transcript's reader: the file, or standard input for `-`.
fn open(path: &Path, max_line: usize) -> Result<Reader<BufReader<Box<dyn Read>>>, String> {
    let source: Box<dyn Read> = if path == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        Box::new(File::open(path).map_err(|e| format!("{}: cannot open: {e}", path.display()))?)
    };
    Ok(Reader::new(BufReader::new(source), max_line))
}
