//! `wirecheck proxy`: stands between a client and a server, forwards every
//! byte both ways unchanged, and judges the conversation as it goes with the
//! session judge, the same judge and the same records as `wirecheck check`
//! ([`super::check`]), so a recording (`--record`) re-judged by `wirecheck
//! check` gives the same findings.
//!
//! Two shapes: `wirecheck proxy -- SERVER …`, which a host launches instead
//! of a stdio server ([`crate::proxy::stdio`]), and `wirecheck proxy --listen
//! ADDR --upstream URL`, a reverse proxy in front of a Streamable HTTP or
//! HTTP+SSE server ([`crate::proxy::http`]), each MCP session judged (and
//! recorded) as a conversation of its own.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use harness::session::Finding;
use harness::{Direction, Outcome, Revision};
use reqwest::Url;

use super::args::OutputArgs;
use crate::proxy::http::{Conversation, HttpOptions, Observed};
use crate::proxy::{self, Seen};
use crate::report::sink::Sink;
use crate::report::{Command, Place, Record, Report, Subject};
use crate::transcript::{self, Entry, Transport};
use crate::transport::stdio::PeerCommand;
use crate::watch::{self, Watch};

/// Stand between a client and a server, forward every byte unchanged, and
/// judge the conversation as it passes.
///
/// stdio: put it where the host's configuration names the server:
/// `"command": "wirecheck", "args": ["proxy", "--record", "/tmp/s.jsonl",
/// "--", "node", "server.js"]`. Standard input and output are the protocol's,
/// forwarded byte for byte (a frame that does not lift too); the server's
/// standard error is passed through.
///
/// HTTP: `wirecheck proxy --listen 127.0.0.1:8808 --upstream
/// http://127.0.0.1:3000/mcp`, then point the client at the same path on the
/// proxy (`http://127.0.0.1:8808/mcp`): every request goes to the upstream's
/// origin at its own path and query. Runs until Ctrl-C (or SIGTERM), then
/// writes the report. Each MCP session is its own conversation: `--record
/// FILE` writes the first to FILE and the N-th to FILE-N (before the
/// extension).
///
/// Findings are written as they are made to standard error, or to `--log
/// FILE`, as in `wirecheck check`; at the end, what the capture could not
/// decide is "not observed", and `--out`, `--junit` and `--markdown` are
/// written.
///
/// Ctrl-C stops the stdio proxy at once: the server is stopped, what passed
/// is judged as a capture that stops there (a request still owed is "not
/// observed"), the report is written, and the exit is 2. (Over HTTP, Ctrl-C
/// or SIGTERM is how the proxy ends: its exit is the verdict's.)
///
/// Exit codes: 0 when no MUST is broken, 1 when one is (with --strict, also on
/// SHOULD-level findings), 2 when the server cannot be started, the address
/// cannot be bound, a file cannot be written, or Ctrl-C stopped the stdio
/// proxy.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The revision (an MCP revision or jsonrpc-2.0), or `auto` to read it
    /// from the conversation's `initialize` (plain JSON-RPC 2.0 when the first
    /// 64 frames name none).
    #[arg(long, value_name = "R|auto", default_value = "auto", value_parser = super::args::revision_or_auto())]
    revision: super::args::ReadRevision,
    /// Fail (exit 1) on SHOULD-level findings too.
    #[arg(long)]
    strict: bool,
    /// Write the conversation to FILE in the transcript format
    /// (schemas/transcript.schema.json), for `wirecheck check` or a bug report.
    /// Over HTTP, the N-th session after the first goes to FILE-N.
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
    /// Over HTTP it bounds each message's judging copy (a POST body, a JSON
    /// answer, one SSE event's data).
    #[arg(long, default_value_t = harness::Limits::DEFAULT_MAX_FRAME_BYTES, value_name = "BYTES")]
    max_frame: usize,
    /// After the host closes the server's input, how long the server has to
    /// exit before it gets SIGTERM, then SIGKILL (stdio only).
    #[arg(long, default_value = "5s", value_parser = super::args::duration, value_name = "DURATION")]
    shutdown_grace: Duration,
    /// Be an HTTP reverse proxy listening on IP:PORT (port 0 picks one; the
    /// address is printed as `listening on http://IP:PORT`). Loopback only
    /// unless --allow-remote.
    #[arg(
        long,
        value_name = "IP:PORT",
        requires = "upstream",
        conflicts_with_all = ["server", "server_env"]
    )]
    listen: Option<String>,
    /// The HTTP server to forward to (`http://HOST:PORT`, any path is only
    /// where the client is expected to post: requests keep their own path).
    #[arg(long, value_name = "URL", requires = "listen")]
    upstream: Option<String>,
    /// How the upstream is reached over `https://`, and headers added to
    /// every request forwarded to it.
    #[command(flatten)]
    reach: super::args::ReachArgs,
    /// Serve HTTPS on --listen.
    #[command(flatten)]
    tls: super::args::ServeTlsArgs,
    /// Let --listen bind a non-loopback address. The proxy has no
    /// authentication of its own: anyone who reaches it reaches the upstream.
    #[arg(long, requires = "listen")]
    allow_remote: bool,
    /// The most conversations (HTTP sessions) judged at once. When one more
    /// begins, the least recently active is judged up to there and closed, its
    /// report record saying so; the rest of it is still forwarded, neither
    /// judged nor recorded. Bounds the proxy's memory and open files against
    /// clients that open sessions and never delete them.
    #[arg(long, default_value_t = 1024, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), requires = "listen")]
    max_conversations: u32,
    #[command(flatten)]
    output: OutputArgs,
    /// The stdio server's environment and directory.
    #[command(flatten)]
    server_env: super::args::ServerEnv,
    /// The stdio server and its arguments (no shell runs them).
    #[arg(last = true, required_unless_present = "listen", value_name = "SERVER")]
    server: Vec<String>,
}

/// Runs `wirecheck proxy`.
pub fn run(args: &Args) -> super::Exit {
    let fixed = args.revision.fixed();
    // A bad address or URL is a usage error before anything is opened.
    if let Err(e) = args.reach.need_http(args.listen.is_some()) {
        eprintln!("wirecheck proxy: {e}");
        return super::Exit::Trouble;
    }
    if args.tls.tls_cert.is_some() && args.listen.is_none() {
        eprintln!("wirecheck proxy: --tls-cert and --tls-key serve HTTPS on --listen");
        return super::Exit::Trouble;
    }
    let http = match (&args.listen, &args.upstream) {
        (Some(listen), Some(upstream)) => match http_options(listen, upstream, args) {
            Ok(o) => Some(o),
            Err(e) => {
                eprintln!("wirecheck proxy: {e}");
                return super::Exit::Trouble;
            }
        },
        _ => None,
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
        match &http {
            Some(options) => proxy_http(args, options, fixed, &mut tee),
            None => proxy_and_judge(args, fixed, &mut tee),
        }
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

/// Checks `--listen` (loopback unless `allow_remote`: 2025-11-25
/// basic/transports §Security Warning 2, SHOULD: "When running locally,
/// servers SHOULD bind only to localhost (127.0.0.1)"; the proxy is such a
/// server to its client) and `--upstream` (`http://` or `https://`).
fn http_options(listen: &str, upstream: &str, args: &Args) -> Result<HttpOptions, String> {
    let addr: SocketAddr = listen
        .parse()
        .map_err(|e| format!("--listen {listen}: expected IP:PORT ({e})"))?;
    if !addr.ip().is_loopback() && !args.allow_remote {
        return Err(format!(
            "--listen {listen} is not a loopback address; servers running locally SHOULD \
             bind only to localhost, and the proxy has no authentication: pass --allow-remote \
             to listen on it anyway"
        ));
    }
    let url = Url::parse(upstream).map_err(|e| format!("--upstream {upstream}: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(format!(
            "--upstream {upstream}: expected an http:// or https:// URL with a host"
        ));
    }
    Ok(HttpOptions {
        listen: addr,
        upstream: url,
        max_frame: args.max_frame,
        reach: args.reach.options()?,
        tls: args.tls.certified()?,
    })
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
    let name = args.record.as_ref().map_or_else(
        || shell_words::join(&args.server),
        |p| p.display().to_string(),
    );
    let mut judging = Judging::new(fixed, name, args.record.as_deref());
    if let Some(e) = judging.record_error.take() {
        return Err(e);
    }
    let options = proxy::Options {
        max_frame: args.max_frame,
        shutdown_grace: args.shutdown_grace,
        interruptible: true,
    };
    let command = match args.server.split_first() {
        Some((program, rest)) => PeerCommand::new(program, rest.iter().map(Into::into).collect()),
        None => PeerCommand::default(),
    };
    let command = args.server_env.apply(command)?;
    let ended = proxy::stdio(
        &command,
        std::io::stdin(),
        std::io::stdout(),
        &options,
        |seen| judging.see(seen, sink),
    )?;
    if ended.interrupted {
        // Cut short by Ctrl-C: judged up to there, then ended as a capture
        // that simply stops (nothing said closed), so what was owed is not
        // observed; no verdict (exit 2).
        sink.accept(crate::report::session::interrupted(
            &judging.name,
            judging.frames,
        ));
        judging.finish(sink);
        eprintln!("wirecheck proxy: interrupted (Ctrl-C): the server was stopped");
        if let Some(e) = judging.record_error.take() {
            eprintln!("wirecheck proxy: {e}");
        }
        return Err(crate::report::session::interrupted_error(
            &judging.name,
            judging.frames,
        ));
    }
    judging.finish(sink);
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

/// Where the `n`-th conversation (1-based) is recorded: `base` for the
/// first, `stem-n.ext` beside it for the others.
fn record_path(base: &Path, n: usize) -> PathBuf {
    if n == 1 {
        return base.to_path_buf();
    }
    let stem = base
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match base.extension() {
        Some(ext) => format!("{stem}-{n}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{n}"),
    };
    base.with_file_name(name)
}

/// The HTTP reverse proxy: one [`Judging`] per conversation, each finished
/// when its session is deleted or, for the rest, when the proxy stops.
fn proxy_http(
    args: &Args,
    options: &HttpOptions,
    fixed: Option<Revision>,
    sink: &mut dyn Sink,
) -> Result<(), String> {
    // Each with its number (by first appearance, so the report ends in a
    // stable order) and when it was last active, for eviction.
    let mut live: BTreeMap<Conversation, Live> = BTreeMap::new();
    let mut closed_early: BTreeSet<Conversation> = BTreeSet::new();
    let max_live = usize::try_from(args.max_conversations).unwrap_or(usize::MAX);
    let mut count = 0usize;
    let mut tick = 0u64;
    let mut record_errors = Vec::new();
    let upstream = options.upstream.clone();
    proxy::http::http(options, |observed| match observed {
        Observed::Listening(addr) => {
            let scheme = if options.tls.is_some() {
                "https"
            } else {
                "http"
            };
            eprintln!(
                "listening on {scheme}://{addr} (forwarding to {}; point the client at {scheme}://{addr}{})",
                upstream.origin().ascii_serialization(),
                upstream.path()
            );
        }
        Observed::Note(text) => eprintln!("wirecheck proxy: {text}"),
        Observed::Seen(conversation, seen) => {
            if closed_early.contains(&conversation) {
                return;
            }
            tick += 1;
            if !live.contains_key(&conversation) && live.len() >= max_live {
                if let Some(idle) = least_recent(&live) {
                    if let Some(mut evicted) = live.remove(&idle) {
                        sink.accept(closed_early_record(&evicted.judging.name, max_live));
                        evicted.judging.finish(sink);
                        record_errors.extend(evicted.judging.record_error);
                    }
                    closed_early.insert(idle);
                }
            }
            let entry = live.entry(conversation.clone()).or_insert_with(|| {
                count += 1;
                let path = args.record.as_deref().map(|p| record_path(p, count));
                let name = path.as_ref().map_or_else(
                    || format!("{upstream} ({conversation})"),
                    |p| p.display().to_string(),
                );
                if let Some(p) = &path {
                    eprintln!(
                        "wirecheck proxy: {conversation} is recorded to {}",
                        p.display()
                    );
                }
                Live {
                    number: count,
                    active: tick,
                    judging: Judging::new(fixed, name, path.as_deref()).unordered(),
                }
            });
            entry.active = tick;
            entry.judging.see(seen, sink);
        }
        Observed::Ended(conversation) => {
            if let Some(mut ended) = live.remove(&conversation) {
                ended.judging.finish(sink);
                record_errors.extend(ended.judging.record_error);
            }
        }
    })?;
    let mut rest: Vec<Live> = live.into_values().collect();
    rest.sort_by_key(|l| l.number);
    for mut l in rest {
        l.judging.finish(sink);
        record_errors.extend(l.judging.record_error);
    }
    match record_errors.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// A conversation the HTTP proxy is judging.
struct Live {
    /// Its number, by first appearance.
    number: usize,
    /// When it was last seen, in frames seen by the proxy.
    active: u64,
    judging: Judging,
}

/// The conversation seen least recently, the one closed early when one more
/// than `--max-conversations` begins.
fn least_recent(live: &BTreeMap<Conversation, Live>) -> Option<Conversation> {
    live.iter()
        .min_by_key(|(_, l)| l.active)
        .map(|(c, _)| c.clone())
}

/// What the report says of a conversation closed early: judged up to here,
/// then no longer watched, so its silence after this is no evidence.
fn closed_early_record(name: &str, max_live: usize) -> Record {
    let why = format!(
        "{name} was the least recently active of --max-conversations {max_live} when another began: judged up to here; the rest is forwarded, neither judged nor recorded"
    );
    let mut record = Record::new(
        Place {
            file: Some(name.to_owned()),
            ..Place::default()
        },
        Subject::Frame(Vec::new()),
        Outcome::NotObserved { why: why.clone() },
    );
    record.notes.push(why);
    record
        .notes
        .push("raise --max-conversations to judge it whole".into());
    record
}

/// The judging side: records each frame and hands it to the conversation's
/// [`Watch`], which holds frames back until the conversation names its
/// revision, then feeds the session judge.
struct Judging {
    name: String,
    /// Frames seen so far (judged, or held until the revision is known).
    frames: usize,
    /// `None` once finished.
    watch: Option<Watch>,
    /// Whether the proxy was given the revision (`--revision`), not `auto`.
    fixed: bool,
    record: Option<BufWriter<File>>,
    record_error: Option<String>,
    /// The bodies of HTTP error statuses not yet judged, with their status,
    /// in order: their findings are weighed by the transport's allowance.
    refusals: std::collections::VecDeque<(Vec<u8>, u16)>,
}

impl Judging {
    /// Judging over HTTP, whose POSTs and streams are no single ordered
    /// stream each way ([`harness::session::Judge::ordered`]).
    fn unordered(mut self) -> Self {
        self.watch = self.watch.map(|w| w.ordered(false));
        self
    }

    /// Judging for one conversation named `name`, recorded to `record` when
    /// given (a file that cannot be created is kept in `record_error`).
    fn new(fixed: Option<Revision>, name: String, record: Option<&Path>) -> Self {
        let (record, record_error) = match record.map(File::create) {
            None => (None, None),
            Some(Ok(f)) => (Some(BufWriter::new(f)), None),
            Some(Err(e)) => (
                None,
                Some(format!(
                    "cannot write {}: {e}",
                    record
                        .map(Path::display)
                        .map(|d| d.to_string())
                        .unwrap_or_default()
                )),
            ),
        };
        Self {
            name,
            frames: 0,
            watch: Some(Watch::new(fixed)),
            fixed: fixed.is_some(),
            record,
            record_error,
            refusals: std::collections::VecDeque::new(),
        }
    }

    fn see(&mut self, seen: Seen, sink: &mut dyn Sink) {
        let entry = match seen {
            Seen::Frame { from, bytes, t } => Entry::Frame(transcript::Frame {
                from,
                bytes,
                t: Some(t),
            }),
            Seen::Refused { bytes, status, t } => {
                self.refusals.push_back((bytes.clone(), status));
                Entry::Frame(transcript::Frame {
                    from: Direction::ServerToClient,
                    bytes,
                    t: Some(t),
                })
            }
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
                self.too_long(from, len, t, sink);
                return;
            }
        };
        self.frames += usize::from(matches!(entry, Entry::Frame(_)));
        self.write(&entry);
        // Judging starts where `wirecheck check` would have decided the
        // revision from the same frames (see [`Watch`]).
        let Some(mut watch) = self.watch.take() else {
            return;
        };
        watch.see(&entry, &mut |revision, entry, findings| {
            self.judged(revision, entry, findings, sink);
        });
        self.watch = Some(watch);
    }

    /// Records what the judge found at `entry`, after the one allowance every
    /// judge asks of an HTTP error status's body.
    fn judged(
        &mut self,
        revision: Revision,
        entry: &Entry,
        findings: &mut Vec<Finding>,
        sink: &mut dyn Sink,
    ) {
        let bytes = watch::bytes(entry);
        // The body of an HTTP error status may be an error without `id`
        // (seen on a real server): the one allowance every judge asks.
        let refused = self
            .refusals
            .front()
            .filter(|(b, _)| b == bytes)
            .map(|(_, s)| *s);
        if let Some(status) = refused {
            self.refusals.pop_front();
            // The proxy fronts an MCP HTTP server: a conversation that named
            // no revision (judged as plain JSON-RPC, `--revision auto`) still
            // travels over its transport, whose newest text allows the body.
            let transport_revision = match (self.fixed, revision) {
                (false, Revision::JsonRpc2) => Revision::Mcp2025_11_25,
                (_, r) => r,
            };
            if harness::error_ids::idless_error_allowed(transport_revision, status) {
                findings.retain(|f| !f.violation.rule.broken_by_an_idless_error());
            }
        }
        for f in findings.iter() {
            sink.accept(crate::report::session::finding(
                &self.name,
                revision,
                f,
                bytes.to_vec(),
            ));
        }
    }

    /// A frame over `--max-frame` is forwarded but neither recorded nor
    /// judged; the record says so rather than leaving a silent gap.
    fn too_long(&mut self, from: Direction, len: usize, t: f64, sink: &mut dyn Sink) {
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
        // The notes carry the why for every view, as every record without
        // a rule does.
        record.notes.push(why);
        record.notes.push("raise --max-frame to judge it".into());
        sink.accept(record);
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

    fn finish(&mut self, sink: &mut dyn Sink) {
        let Some(watch) = self.watch.take() else {
            return;
        };
        let (revision, ending) = watch.finish(&mut |revision, entry, findings| {
            self.judged(revision, entry, findings, sink);
        });
        for f in &ending.findings {
            sink.accept(crate::report::session::finding(
                &self.name,
                revision,
                f,
                Vec::new(),
            ));
        }
        for u in &ending.not_observed {
            sink.accept(crate::report::session::unobserved(&self.name, revision, u));
        }
    }
}
