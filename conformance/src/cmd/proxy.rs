//! `wirecheck proxy -- SERVER …`: what a host launches instead of a stdio
//! server. It starts the server, forwards every byte both ways unchanged, and
//! judges the conversation as it goes with the session judge, the same judge
//! and the same records as `wirecheck check` ([`super::check`]), so a
//! recording (`--record`) re-judged by `wirecheck check` gives the same
//! findings.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Duration;

use harness::session::{self, Judge};
use harness::{Direction, Outcome, Revision};

use super::args::OutputArgs;
use crate::proxy::{self, Seen};
use crate::report::sink::Sink;
use crate::report::{Command, Place, Record, Report, Subject};
use crate::transcript::{self, Entry, Transport};

/// Stand between a host and a stdio server, forward every byte unchanged, and
/// judge the conversation as it passes.
///
/// Put it where the host's configuration names the server: `"command":
/// "wirecheck", "args": ["proxy", "--record", "/tmp/s.jsonl", "--",
/// "node", "server.js"]`. Standard input and output are the protocol's,
/// forwarded byte for byte (a frame that does not lift too); the server's
/// standard error is passed through. Findings are written as they are made to
/// standard error, or to `--log FILE`, as in `wirecheck check`; at the end,
/// what the capture could not decide is "not observed", and `--out`, `--junit`
/// and `--markdown` are written.
///
/// Exit codes: 0 when no MUST is broken, 1 when one is (with --strict, also on
/// SHOULD-level findings), 2 when the server cannot be started or a file
/// cannot be written.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The revision (an MCP revision or jsonrpc-2.0), or `auto` to read it
    /// from the conversation's `initialize` (plain JSON-RPC 2.0 when the first
    /// 64 frames name none).
    #[arg(long, value_name = "R|auto", default_value = "auto")]
    revision: String,
    /// Fail (exit 1) on SHOULD-level findings too.
    #[arg(long)]
    strict: bool,
    /// Write the conversation to FILE in the transcript format
    /// (schemas/transcript.schema.json), for `wirecheck check` or a bug report.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Write the findings to FILE instead of standard error.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Also write the whole report as one JSON document to FILE at the end
    /// (schemas/report.schema.json; `wirecheck report` renders it again).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The longest frame judged, in bytes; a longer one is still forwarded.
    #[arg(long, default_value_t = harness::Limits::DEFAULT_MAX_FRAME_BYTES, value_name = "BYTES")]
    max_frame: usize,
    /// After the host closes the server's input, how long the server has to
    /// exit before it gets SIGTERM, then SIGKILL.
    #[arg(long, default_value = "5s", value_parser = super::run::duration, value_name = "DURATION")]
    shutdown_grace: Duration,
    #[command(flatten)]
    output: OutputArgs,
    /// The server and its arguments (no shell runs them).
    #[arg(last = true, required = true, value_name = "SERVER")]
    server: Vec<String>,
}

/// Runs `wirecheck proxy`.
pub fn run(args: &Args) -> super::Exit {
    let fixed = match args.revision.as_str() {
        "auto" => None,
        name => match name.parse::<Revision>() {
            Ok(r) => Some(r),
            Err(e) => {
                eprintln!("wirecheck proxy: --revision: {e}, or auto");
                return super::Exit::Trouble;
            }
        },
    };
    let (log, tty): (Box<dyn Write>, bool) = match &args.log {
        Some(path) => match File::create(path) {
            Ok(f) => (Box::new(BufWriter::new(f)), false),
            Err(e) => {
                eprintln!("wirecheck proxy: cannot write {}: {e}", path.display());
                return super::Exit::Trouble;
            }
        },
        None => {
            use std::io::IsTerminal as _;
            (Box::new(std::io::stderr()), std::io::stderr().is_terminal())
        }
    };
    let mut header = Report::new(Command::Proxy);
    header.strict = args.strict;
    let mut whole = args.out.as_ref().map(|_| Report::new(Command::Proxy));
    let exit = super::stream_to(header, &args.output, log, tty, |sink| {
        let mut tee = Tee {
            sink,
            whole: whole.as_mut(),
        };
        proxy_and_judge(args, fixed, &mut tee)
    });
    if let (Some(path), Some(mut report)) = (&args.out, whole) {
        report.strict = args.strict;
        if let Err(e) = super::write_json(&report, path) {
            eprintln!("wirecheck proxy: {e}");
            return super::Exit::Trouble;
        }
    }
    exit
}

/// The streamed view and, for `--out`, the whole report.
struct Tee<'a> {
    sink: &'a mut dyn Sink,
    whole: Option<&'a mut Report>,
}

impl Sink for Tee<'_> {
    fn accept(&mut self, record: Record) {
        if let Some(whole) = self.whole.as_deref_mut() {
            whole.accept(record.clone());
        }
        self.sink.accept(record);
    }
}

fn proxy_and_judge(
    args: &Args,
    fixed: Option<Revision>,
    sink: &mut dyn Sink,
) -> Result<(), String> {
    let record = match &args.record {
        Some(path) => {
            Some(BufWriter::new(File::create(path).map_err(|e| {
                format!("cannot write {}: {e}", path.display())
            })?))
        }
        None => None,
    };
    let name = args.record.as_ref().map_or_else(
        || shell_words::join(&args.server),
        |p| p.display().to_string(),
    );
    let mut judging = Judging {
        fixed,
        name,
        judge: None,
        pending: Vec::new(),
        record,
        record_error: None,
        sink,
    };
    let options = proxy::Options {
        max_frame: args.max_frame,
        shutdown_grace: args.shutdown_grace,
    };
    let ended = proxy::stdio(
        &args.server,
        std::io::stdin(),
        std::io::stdout(),
        &options,
        |seen| judging.see(seen),
    )?;
    judging.finish();
    if let Some(status) = ended.status.filter(|s| !s.success()) {
        eprintln!("wirecheck proxy: the server exited with {status}");
    }
    if ended.terminated {
        eprintln!(
            "wirecheck proxy: the server had not exited {:?} after the conversation ended (its input or its output closed); terminated",
            args.shutdown_grace
        );
    }
    match judging.record_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The judging side: records each frame, holds frames back until the
/// conversation names its revision, then feeds the session judge.
struct Judging<'a> {
    fixed: Option<Revision>,
    name: String,
    judge: Option<(Judge, Revision)>,
    pending: Vec<Entry>,
    record: Option<BufWriter<File>>,
    record_error: Option<String>,
    sink: &'a mut dyn Sink,
}

/// The frames (not the events) among `entries`, as the revision is read from.
fn pending_frames(entries: &[Entry]) -> impl Iterator<Item = (Direction, &[u8])> {
    entries.iter().filter_map(|e| match e {
        Entry::Frame { from, bytes, .. } => Some((*from, bytes.as_slice())),
        Entry::Event { .. } => None,
    })
}

/// How many frames may pass without naming a revision before the
/// conversation is judged as plain JSON-RPC 2.0 (as `wirecheck check` reads).
const DETECT_WITHIN: usize = 64;

impl Judging<'_> {
    fn see(&mut self, seen: Seen) {
        let entry = match seen {
            Seen::Frame { from, bytes, t } => Entry::Frame {
                from,
                bytes,
                t: Some(t),
            },
            // The server's close ends the conversation; the client's close is
            // the shutdown request, after which the server may still answer,
            // so it is neither judged nor recorded (a re-judged recording
            // then sees what the live judge saw).
            Seen::Closed {
                from: Direction::ServerToClient,
                t,
            } => Entry::Event {
                event: Transport::Closed,
                from: Some(Direction::ServerToClient),
                t: Some(t),
            },
            Seen::Closed { .. } => return,
            Seen::TooLong { from, len, t } => {
                self.too_long(from, len, t);
                return;
            }
        };
        self.write(&entry);
        if self.judge.is_some() {
            self.judge_entry(&entry);
            return;
        }
        self.pending.push(entry);
        // Judging starts where `wirecheck check` would have decided the
        // revision from the same frames: at the server's `initialize` answer,
        // else after DETECT_WITHIN frames, else at the end.
        if let Some(r) = self
            .fixed
            .or_else(|| session::negotiated_revision(pending_frames(&self.pending)))
        {
            self.start(r);
        } else if pending_frames(&self.pending).count() >= DETECT_WITHIN {
            self.start(self.detected());
        }
    }

    /// The revision the held frames name, as `wirecheck check` reads it.
    fn detected(&self) -> Revision {
        self.fixed
            .or_else(|| session::detect_revision(pending_frames(&self.pending)))
            .unwrap_or(Revision::JsonRpc2)
    }

    fn start(&mut self, revision: Revision) {
        self.judge = Some((Judge::new(revision), revision));
        for entry in std::mem::take(&mut self.pending) {
            self.judge_entry(&entry);
        }
    }

    fn judge_entry(&mut self, entry: &Entry) {
        let Some((judge, revision)) = self.judge.as_mut() else {
            return;
        };
        let mut findings = Vec::new();
        judge.feed(entry.event(), entry.time(), &mut findings);
        let bytes = match entry {
            Entry::Frame { bytes, .. } => bytes.as_slice(),
            Entry::Event { .. } => &[],
        };
        for f in &findings {
            self.sink.accept(super::check::finding_record(
                &self.name,
                *revision,
                f,
                bytes.to_vec(),
            ));
        }
    }

    /// A frame over `--max-frame` is forwarded but neither recorded nor
    /// judged; the record says so rather than leaving a silent gap.
    fn too_long(&mut self, from: Direction, len: usize, t: f64) {
        let why = format!(
            "a frame of {len} bytes from the {} at t={t:.3}s is over --max-frame: forwarded, neither recorded nor judged",
            from.sender()
        );
        let mut record = Record::new(
            Place {
                file: Some(self.name.clone()),
                ..Place::default()
            },
            Subject::Frame(Vec::new()),
            Outcome::NotObserved { why: why.clone() },
        );
        // The JSON view shows an outcome only beside a rule; the notes carry
        // it for every view.
        record.notes.push(why);
        record.notes.push("raise --max-frame to judge it".into());
        self.sink.accept(record);
    }

    fn write(&mut self, entry: &Entry) {
        if self.record_error.is_some() {
            return;
        }
        if let Some(out) = self.record.as_mut() {
            // Flushed per entry: a recording is read while the host runs, and
            // must hold everything up to a crash.
            if let Err(e) = transcript::write_entry(out, entry).and_then(|()| out.flush()) {
                self.record_error = Some(format!("cannot write the recording: {e}"));
                self.record = None;
            }
        }
    }

    fn finish(&mut self) {
        if self.judge.is_none() {
            self.start(self.detected());
        }
        let Some((judge, revision)) = self.judge.take() else {
            return;
        };
        let ending = judge.finish();
        for f in &ending.findings {
            self.sink.accept(super::check::finding_record(
                &self.name,
                revision,
                f,
                Vec::new(),
            ));
        }
        for u in &ending.not_observed {
            self.sink
                .accept(super::check::unobserved_record(&self.name, revision, u));
        }
    }
}
