//! `wirecheck run`: the golden vectors against a live peer over stdio or HTTP.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use harness::{Outcome, Profile, Revision};

use super::args::{
    answer_timeout, duration, positive_duration, redacted_argv, PaceArgs, ProfileName, ReachArgs,
    ReportFiles, RevisionChoice, ServerEnv,
};
use super::OutputArgs;
use crate::baseline::Baseline;
use crate::driver::{DriverConfig, Liveness};
use crate::judge::Strictness;
use crate::report::{Command, Peer as ReportPeer, Place, Record, Report, RunInfo, Subject};
use crate::runner::{self, fixtures::Allowed, Config, KeptStderr, Peer, Revisions};
use crate::transport::stdio::PeerCommand;
use crate::transport::Limits;
use crate::transport::{HttpKind, Kind, Target};
use crate::vectors;

/// Play the golden vectors against a live server over stdio or HTTP.
///
/// With neither `--stdio` nor `--http`, starts the reference peer (`wirecheck
/// serve`) over stdio; `--reference-http` starts it over HTTP instead.
/// `--http URL` reaches a server already listening: Streamable HTTP for MCP
/// (the MCP endpoint), `--transport sse` for the 2024-11-05 HTTP+SSE
/// transport (the SSE stream's URL), JSON-RPC over HTTP with `--profile
/// jsonrpc-2.0`. Over HTTP the transport's own rules are judged too
/// (`run/<revision>/http/*` records). Every
/// vector a server receives under the revision is sent inside a live session
/// and the answer judged; a peer is never failed for lacking a tool, prompt
/// or resource it did not list, and no tool is called unless allowed.
///
/// Exit codes: 0 every required check passed, 1 one failed (or a baseline
/// entry is stale), 2 the run could not be made (the command does not start,
/// no handshake completes, the vectors or baseline do not load).
#[derive(Debug, Clone, clap::Args)]
// A person reads `run` more often than a script does: terminal by default.
#[command(mut_arg("format", |a| a.default_value("terminal")))]
pub struct Args {
    /// The server to run, as one shell-like line (`"node server.js --stdio"`);
    /// no shell runs it. Default: this binary's own `serve`.
    #[arg(long, value_name = "CMD ARGS…", conflicts_with_all = ["http", "reference_http"])]
    stdio: Option<String>,
    /// The server's HTTP endpoint (`http://127.0.0.1:3001/mcp`,
    /// `https://mcp.example.com/mcp`); loopback or any host.
    // Boxed, like `--transport` parsed to a byte: `run::Args` stays within
    // clippy's bound on the size gap between `Command` variants.
    #[arg(long, value_name = "URL", conflicts_with_all = ["reference_http", "server_env"], value_parser = boxed)]
    http: Option<Box<str>>,
    /// Start the reference peer over HTTP (`serve --http 127.0.0.1:0`, one
    /// per revision) and run over it.
    #[arg(long, conflicts_with = "server_env")]
    reference_http: bool,
    /// The stdio server's environment and directory (`--stdio`'s, or the
    /// reference peer's).
    #[command(flatten)]
    server: ServerEnv,
    /// `streamable-http`, `sse` or `jsonrpc-http`; default `streamable-http`
    /// for MCP, `jsonrpc-http` under `--profile jsonrpc-2.0`.
    #[arg(long, value_name = "T", value_parser = str::parse::<HttpKind>)]
    transport: Option<HttpKind>,
    /// A revision (`2025-06-18`), `auto` (what the peer answers) or `all`
    /// (every revision the peer accepts; a declined one is not applicable).
    #[arg(long, default_value = "all", value_name = "R|auto|all", value_parser = super::args::revision_choice())]
    revision: RevisionChoice,
    /// Over Streamable HTTP, how many revisions play at once (default: all).
    /// Each opens up to about eleven MCP sessions at a time (three of them
    /// holding a GET stream for about a second), so a five-revision run up
    /// to about 55; for a server that caps its sessions or has few workers,
    /// `1` plays the revisions one after another (the same checks and
    /// verdicts, slower).
    #[arg(long, value_name = "N")]
    parallel_revisions: Option<std::num::NonZeroUsize>,
    /// `jsonrpc-2.0` for a plain JSON-RPC 2.0 server (no handshake); `mcp`, the
    /// default, for an MCP server.
    #[arg(long, value_enum, value_name = "PROFILE")]
    profile: Option<ProfileName>,
    /// Another set of vectors on disk instead of the built-in ones.
    #[arg(long, value_name = "DIR")]
    vectors: Option<PathBuf>,
    /// The longest wait for any one answer (`5s`, `500ms`; at least
    /// 100ms). A request unanswered by then is judged unanswered (a MUST
    /// broken), so keep it well above the server's slowest answer.
    #[arg(long, default_value = "5s", value_parser = answer_timeout, value_name = "DURATION")]
    timeout: Duration,
    /// The longest wait for a fresh server process's first answer (`30s`):
    /// start-up (an SDK importing on a loaded machine) is not silence. A
    /// process that says nothing within it did not start: the run could not
    /// be made (exit 2). The report notes a start slower than `--timeout`.
    #[arg(long, default_value = "30s", value_parser = positive_duration, value_name = "DURATION")]
    startup_timeout: Duration,
    /// How long to keep listening after the liveness ping is answered. A
    /// well-formed request the server dispatches is waited for up to
    /// `--timeout` instead: a server handling requests concurrently may
    /// answer it after the ping.
    #[arg(long, default_value = "50ms", value_parser = duration, value_name = "DURATION")]
    grace: Duration,
    /// SHOULD-level findings fail the run.
    #[arg(long)]
    strict: bool,
    /// A baseline of known failures, each with its reason.
    #[arg(long, value_name = "FILE")]
    expected_failures: Option<PathBuf>,
    /// Write the defects that fail this run to FILE as a baseline that
    /// `--expected-failures` reads: one entry per defect, keyed by its
    /// fingerprint (the rule the server broke and the shape of its answer,
    /// stable across revisions and renamed probes) with the revisions it
    /// held under, sorted; known defects keep their reason. Each new
    /// entry's reason is a TODO naming the rule, level, citation and
    /// sentence: replace it by why, once read against the text by hand.
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,
    #[command(flatten)]
    pace: PaceArgs,
    /// A tool the runner may call (repeatable); never one the user did not name.
    #[arg(long = "allow-tool", value_name = "NAME")]
    allow_tool: Vec<String>,
    /// The arguments for the allowed tools, as a JSON object.
    #[arg(long, value_name = "JSON")]
    tool_args: Option<String>,
    #[command(flatten)]
    reach: ReachArgs,
    #[command(flatten)]
    files: ReportFiles,
    /// The largest frame accepted from the peer, in bytes.
    #[arg(long, default_value_t = Limits::default().max_frame, value_name = "BYTES")]
    max_frame: usize,
    /// The server at --http URL is an OAuth-protected resource: probe it as
    /// one (no token → 401 and its challenge, Protected Resource Metadata,
    /// expired, foreign, unsigned, audience-less tokens refused, 403 for an
    /// insufficient scope) and run the suite with a valid token as
    /// `Authorization: Bearer`. The tokens come from wirecheck's own
    /// authorization server, the one the server's metadata names or
    /// --auth-issuer; the server must trust it (`wirecheck auth-server`).
    /// Streamable HTTP only.
    #[arg(long, requires = "http")]
    auth: bool,
    /// With --auth, the issuer URL of the `wirecheck auth-server` the server
    /// trusts, instead of the one its Protected Resource Metadata names.
    #[arg(long, value_name = "URL", requires = "auth")]
    auth_issuer: Option<String>,
    /// Also write every session played as a transcript in DIR
    /// (`<revision>.<n>.jsonl`, created if needed), which `wirecheck check`
    /// judges again; the records of session-rule findings name the file.
    #[arg(long, value_name = "DIR")]
    transcripts: Option<PathBuf>,
    /// On the terminal, list every check that did not pass one by one, as
    /// it was judged, instead of grouping them by rule (what to fix first).
    #[arg(long, short)]
    verbose: bool,
    #[command(flatten)]
    output: OutputArgs,
}

impl Args {
    /// Where the report goes.
    #[must_use]
    pub fn output(&self) -> &OutputArgs {
        &self.output
    }

    /// Whether the terminal lists every check as judged (`--verbose`).
    #[must_use]
    pub fn verbose(&self) -> bool {
        self.verbose
    }

    /// Writes the files the run was asked for beside its standard output: the
    /// run document (`--out`), SARIF (`--sarif`), HTML (`--html`), a baseline
    /// of its failures (`--write-baseline`, only from a run that was made).
    ///
    /// # Errors
    /// A file that cannot be written, named.
    pub fn write_files(&self, report: &crate::report::Report) -> Result<(), String> {
        self.files.write(report)?;
        if let (Some(path), None) = (&self.write_baseline, &report.error) {
            let entries = crate::baseline::from_defects(report);
            super::write_file(path, crate::baseline::to_text(&entries).as_bytes())?;
            let todo = entries
                .iter()
                .filter(|e| e.reason.starts_with("TODO"))
                .count();
            eprintln!(
                "wirecheck run: wrote {} {}, one per defect, to {}{}",
                entries.len(),
                if entries.len() == 1 {
                    "entry"
                } else {
                    "entries"
                },
                path.display(),
                if todo > 0 {
                    format!(", {todo} with the reason TODO: read each against its sentence")
                } else {
                    String::new()
                }
            );
        }
        Ok(())
    }
}

fn boxed(s: &str) -> Result<Box<str>, std::convert::Infallible> {
    Ok(s.into())
}

/// Runs the suite as `args` asks. The report names the run it is
/// ([`RunInfo`]): what was judged and how, whatever came of it.
#[must_use]
pub fn run(args: &Args) -> Report {
    let started = std::time::SystemTime::now();
    let clock = std::time::Instant::now();
    let stderr = Arc::new(KeptStderr::default());
    let pacer = args.pace.pacer();
    let (mut report, tls) = match tls_seen(args) {
        Ok(tls) => (judge(args, &stderr, &pacer), tls),
        Err(e) => {
            let mut report = Report::new(Command::Run);
            report.error = Some(e);
            (report, None)
        }
    };
    let paced = pacer.report();
    let pace = pacer.pace();
    let secrets = args.reach.headers();
    report.run = Some(RunInfo {
        pace: Some(crate::report::PaceInfo {
            mode: args.pace.mode().name().into(),
            rate: pace.rate,
            budget: pace.budget,
            requests: paced.sent,
            peak_per_second: paced.peak_per_second,
            stopped: paced.halted.map(|h| h.to_string()),
        }),
        tool_version: env!("CARGO_PKG_VERSION").into(),
        // The values of --header, --header-env and --env are secrets.
        argv: redacted_argv(&secrets),
        peer: ReportPeer {
            target: secrets.redact(&super::args::shown_url(&target(args))),
            transport: transport(args).into(),
            tls,
            env: args.server.keys(),
            cwd: args.server.cwd_text(),
            stderr: stderr.get(),
        },
        // A revision the peer declined has only not-applicable records.
        revisions: report
            .records
            .iter()
            .filter(|r| !matches!(r.outcome, Outcome::NotApplicable { .. }))
            .filter_map(|r| r.place.revision)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect(),
        // Plain JSON-RPC 2.0 has no revisions to ask for.
        asked: (!jsonrpc(args)).then(|| args.revision.name().to_owned()),
        vectors_digest: match &args.vectors {
            Some(dir) => vectors::dir_digest(dir).ok(),
            None => Some(vectors::embedded_digest()),
        },
        started: crate::report::rfc3339(started),
        duration: clock.elapsed(),
    });
    report
}

/// Over `https://`, what the server's TLS showed, from a handshake of its
/// own before the run: a certificate the run would refuse is said once, with
/// its cause and the two ways past it, instead of as every probe's failure.
fn tls_seen(args: &Args) -> Result<Option<crate::report::TlsSeen>, String> {
    let Some(url) = args.http.as_deref().filter(|u| u.starts_with("https://")) else {
        return Ok(None);
    };
    // Behind a proxy the transports connect through it (reqwest reads these)
    // and a handshake of our own straight to the server could not be made:
    // the run goes on and its document says nothing of TLS.
    let proxied = ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|p| !p.is_empty()));
    if proxied {
        return Ok(None);
    }
    let options = args.reach.options()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("tokio runtime: {e}"))?;
    runtime
        .block_on(crate::transport::tls::inspect(
            url,
            &options.trust,
            options.connect_timeout,
        ))
        .map(Some)
        .map_err(|e| {
            if options.trust.verifies() {
                format!("{e} (a server whose certificate a private CA signed: --cacert FILE; a self-signed test server: --insecure)")
            } else {
                e
            }
        })
}

/// The peer judged, as a person names it: its command line, its URL, or the
/// built-in reference peer.
fn target(args: &Args) -> String {
    match (&args.stdio, &args.http) {
        (Some(line), _) => line.clone(),
        (None, Some(url)) => url.to_string(),
        (None, None) if args.reference_http => {
            "wirecheck serve --http (the built-in reference peer)".into()
        }
        (None, None) => "wirecheck serve (the built-in reference peer)".into(),
    }
}

/// The transport the run speaks, as [`prepare`] chooses it.
fn transport(args: &Args) -> Kind {
    if args.http.is_none() && !args.reference_http {
        return Kind::Stdio;
    }
    Kind::Http(match args.transport {
        Some(kind) => kind,
        None if jsonrpc(args) => HttpKind::JsonRpc,
        None => HttpKind::Streamable,
    })
}

fn judge(args: &Args, stderr: &Arc<KeptStderr>, pacer: &crate::transport::pacer::Pacer) -> Report {
    let mut report = Report::new(Command::Run);
    report.strict = args.strict;
    // A baseline that does not load is said before anything is played: a
    // whole run is not spent to learn the file was malformed.
    let baseline = match args.expected_failures.as_deref().map(Baseline::load) {
        None => None,
        Some(Ok(baseline)) => {
            // A reason still the TODO --write-baseline wrote was never read
            // against the spec text: said, since the failure it hides may
            // be the tool's and not the server's.
            let todo = baseline
                .entries
                .iter()
                .filter(|e| e.reason.starts_with("TODO"))
                .count();
            if todo > 0 {
                eprintln!(
                    "wirecheck run: warning: {todo} of {} entries of {} still have a TODO reason: read each failure against the sentence it cites, then write why",
                    baseline.entries.len(),
                    baseline.path.display()
                );
            }
            Some(baseline)
        }
        Some(Err(e)) => {
            report.error = Some(e.to_string());
            return report;
        }
    };
    let played = match prepare(args, stderr, pacer) {
        Ok((config, vectors)) => execute(&config, &vectors),
        Err(e) => Err(Interrupted::Not(e)),
    };
    match played {
        Ok(records) => {
            for record in &records {
                report.note_ambiguities(record);
            }
            report.records = records;
        }
        Err(Interrupted::Not(e)) => {
            report.error = Some(e);
            return report;
        }
        // Interrupted: what was judged so far is shown (and written to
        // --out), the run is no verdict.
        Err(Interrupted::Yes(records)) => {
            for record in &records {
                report.note_ambiguities(record);
            }
            report.error = Some(format!(
                "interrupted (Ctrl-C) after {} checks: the report holds what was judged before; the run is not whole",
                records.len()
            ));
            report.records = records;
        }
    }
    // A polite run leaves checks out and a halted one stops short: a known
    // failure they did not play again is not stale.
    let whole = report.error.is_none()
        && args.pace.mode() == crate::runner::polite::Mode::Full
        && pacer.halted().is_none();
    if let Some(baseline) = &baseline {
        apply(baseline, &mut report.records, whole);
    }
    // Stopped by the server's 429 or 503, or by --budget, before any check
    // was judged: nothing was observed, and that is no clean run.
    if report.error.is_none() && pacer.halted().is_some() && !report.records.iter().any(judged) {
        report.error = Some(format!(
            "the run stopped before any check was judged: {}",
            pacer.halted().map(|h| h.to_string()).unwrap_or_default()
        ));
    }
    if jsonrpc(args) {
        report.profile = Some(Profile {
            revision: Revision::JsonRpc2,
            direction: harness::Direction::ClientToServer,
        });
    }
    report
}

/// Whether `record` is a verdict (pass, fail, warning, or a baseline's):
/// something was observed and judged.
fn judged(record: &Record) -> bool {
    !matches!(
        record.outcome,
        Outcome::NotObserved { .. } | Outcome::NotApplicable { .. }
    )
}

/// Whether the run is of a plain JSON-RPC 2.0 server (`--profile jsonrpc-2.0`).
fn jsonrpc(args: &Args) -> bool {
    args.profile == Some(ProfileName::JsonRpc2)
}

fn prepare(
    args: &Args,
    stderr: &Arc<KeptStderr>,
    pacer: &crate::transport::pacer::Pacer,
) -> Result<(Config, Vec<vectors::Vector>), String> {
    let jsonrpc = jsonrpc(args);
    let revisions = match args.revision {
        RevisionChoice::All => Revisions::All,
        RevisionChoice::Auto => Revisions::Auto,
        RevisionChoice::Given(r) => Revisions::Given(r),
    };
    let peer_choice = if args.stdio.is_some() || args.http.is_some() {
        PeerChoice::Command
    } else {
        PeerChoice::Reference
    };
    let kind: HttpKind = match args.transport {
        Some(kind) => kind,
        None if jsonrpc => HttpKind::JsonRpc,
        None => HttpKind::Streamable,
    };
    if jsonrpc != (kind == HttpKind::JsonRpc) && (args.http.is_some() || args.reference_http) {
        return Err(format!(
            "--transport {} {} --profile jsonrpc-2.0",
            kind.name(),
            if jsonrpc { "does not carry" } else { "needs" }
        ));
    }
    if args.auth && kind != HttpKind::Streamable {
        return Err(format!(
            "--auth judges an OAuth-protected Streamable HTTP server; not over {}",
            kind.name()
        ));
    }
    args.reach.need_http(args.http.is_some())?;
    if args.auth && args.reach.headers().has("authorization") {
        return Err("--auth sends its own tokens as `Authorization`; drop the --header or --header-env that sets it".into());
    }
    if args.transport.is_some() && args.http.is_none() && !args.reference_http {
        return Err("--transport needs --http URL or --reference-http".into());
    }
    let this = || {
        std::env::current_exe()
            .map(std::path::PathBuf::into_os_string)
            .map_err(|e| format!("cannot find this binary to start `serve`: {e}"))
    };
    let peer = match (&args.stdio, &args.http) {
        (Some(line), _) => Peer::Given(Target::Stdio(
            args.server
                .apply(PeerCommand::parse(line).map_err(|e| e.to_string())?)?,
        )),
        (None, Some(url)) => Peer::Given(Target::Http {
            url: url.to_string(),
            kind,
        }),
        (None, None) if args.reference_http => Peer::ReferenceHttp {
            program: this()?,
            kind,
        },
        (None, None) => Peer::Reference {
            base: args.server.apply(PeerCommand::new(this()?, Vec::new()))?,
        },
    };
    let (vectors, errors) = match &args.vectors {
        Some(dir) => vectors::load_all(dir),
        None => vectors::embedded(),
    };
    if let Some(first) = errors.first() {
        return Err(format!(
            "{} vector files do not load; the first: {first}",
            errors.len()
        ));
    }
    if let Some(url) = &args.http {
        let asked = |v: &&vectors::Vector| match revisions {
            _ if jsonrpc => v.profile.revision == Revision::JsonRpc2,
            Revisions::Given(r) => v.profile.revision == r,
            Revisions::All => v.profile.revision.is_mcp(),
            Revisions::Auto => v.profile.revision == Revision::Mcp2025_11_25,
        };
        // Each probe is its frame and a liveness request.
        let probes = vectors.iter().filter(|v| runner::is_probe(v)).filter(asked);
        let requests = probes.count() * 2;
        if let Some(line) = super::args::notice(url, args.pace.mode.is_some(), requests) {
            eprintln!("{line}");
        }
    }
    let arguments = match &args.tool_args {
        None => None,
        Some(text) => {
            // Parsed now so a typo is caught before any peer starts.
            let value: serde_json::Value =
                serde_json::from_str(text).map_err(|e| format!("--tool-args is not JSON: {e}"))?;
            if !value.is_object() {
                return Err("--tool-args must be a JSON object".into());
            }
            Some(value)
        }
    };
    let driver = DriverConfig {
        answer_timeout: args.timeout,
        startup_timeout: args.startup_timeout,
        grace: args.grace,
        liveness: if jsonrpc {
            // A -32601 answer proves liveness as well as a result does.
            Liveness::Method("wirecheck/liveness".into())
        } else {
            Liveness::Ping
        },
        // Far above the ids vectors carry, below 2^53 so no peer rounds it.
        first_id: 1 << 40,
        ..DriverConfig::default()
    };
    let limits = Limits {
        max_frame: args.max_frame,
        write_timeout: args.timeout,
        ..Limits::default()
    };
    Ok((
        Config {
            peer,
            revisions,
            jsonrpc,
            driver,
            limits,
            shutdown_grace: Duration::from_millis(500),
            allowed: Allowed {
                tools: match &peer_choice {
                    // Our own peer's tools are known to stay inside it.
                    PeerChoice::Reference => crate::peer::tool_names()
                        .into_iter()
                        .map(String::from)
                        .chain(args.allow_tool.iter().cloned())
                        .collect(),
                    PeerChoice::Command => args.allow_tool.iter().cloned().collect(),
                },
                arguments,
            },
            strictness: if args.strict {
                Strictness::Strict
            } else {
                Strictness::Default
            },
            transcripts: args.transcripts.clone(),
            parallel_revisions: args.parallel_revisions,
            http: args.reach.options()?,
            stderr: Arc::clone(stderr),
            mode: args.pace.mode(),
            pacer: pacer.clone(),
            auth: args.auth.then(|| runner::Auth {
                issuer: args.auth_issuer.clone(),
                ready: None,
            }),
        },
        vectors,
    ))
}

fn execute(config: &Config, vectors: &[vectors::Vector]) -> Result<Vec<Record>, Interrupted> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Interrupted::Not(format!("cannot start the async runtime: {e}")))?;
    let bar = progress_bar();
    let started = std::time::Instant::now();
    // One lasting line per revision as the run moves past it, above the
    // bar: a run of several revisions says it is alive, and how each went.
    let mut revisions = RevisionLines::default();
    // What was judged so far, for a run interrupted with Ctrl-C.
    let mut judged: Vec<Record> = Vec::new();
    let mut tick = |done: usize, total: usize, record: &Record| {
        if let Some(bar) = &bar {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            bar.set_message(crate::report::text::printable_str(
                record.place.vector.as_deref().unwrap_or_default(),
            ));
            if let Some(line) = revisions.record(record, started.elapsed()) {
                bar.println(line);
            }
        }
        judged.push(record.clone());
    };
    let result = runtime.block_on(async {
        tokio::select! {
            result = runner::run(config, vectors, &mut tick) => Some(result),
            _ = tokio::signal::ctrl_c() => None,
        }
    });
    if let Some(bar) = bar {
        if let Some(line) = revisions.finish(started.elapsed()) {
            bar.println(line);
        }
        bar.finish_and_clear();
    }
    match result {
        Some(result) => result.map_err(|e| Interrupted::Not(e.to_string())),
        // The peers are stopped as the runner is dropped (each process is
        // killed with its group); what was judged is reported, and the run
        // is no verdict (exit 2).
        None => Err(Interrupted::Yes(judged)),
    }
}

/// Why `execute` returned no whole run.
enum Interrupted {
    /// The run could not be made.
    Not(String),
    /// Ctrl-C: the records judged before it.
    Yes(Vec<Record>),
}

/// The progress lines of a run, one per revision: said when the run's
/// records move on to another revision (and for the last, at the end).
#[derive(Default)]
struct RevisionLines {
    /// The revision being judged, and its counts: checks, fails, warnings.
    current: Option<(harness::Revision, [usize; 3])>,
    said: Vec<harness::Revision>,
}

impl RevisionLines {
    /// Counts `record`; the line of the revision it moved past, if any.
    fn record(&mut self, record: &Record, elapsed: Duration) -> Option<String> {
        let revision = record.place.revision?;
        let mut line = None;
        match &mut self.current {
            Some((r, counts)) if *r == revision => count(counts, record),
            _ => {
                line = self.finish(elapsed);
                let mut counts = [0; 3];
                count(&mut counts, record);
                self.current = Some((revision, counts));
            }
        }
        line
    }

    /// The line of the revision being judged, once per revision.
    fn finish(&mut self, elapsed: Duration) -> Option<String> {
        let (revision, [checks, fails, warnings]) = self.current.take()?;
        if self.said.contains(&revision) {
            return None;
        }
        self.said.push(revision);
        Some(format!(
            "wirecheck run: {revision}: {checks} checks judged, {fails} fail, {warnings} warning ({:.1} s)",
            elapsed.as_secs_f64()
        ))
    }
}

fn count(counts: &mut [usize; 3], record: &Record) {
    counts[0] += 1;
    match record.outcome {
        harness::Outcome::Fail => counts[1] += 1,
        harness::Outcome::Warning => counts[2] += 1,
        _ => {}
    }
}

/// A progress bar on standard error when it is a terminal; none otherwise.
fn progress_bar() -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal as _;
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(0);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}") {
        bar.set_style(style);
    }
    Some(bar)
}

/// Each record through the baseline, then a stale record for every entry
/// that matched no subject of this run.
fn apply(baseline: &Baseline, records: &mut Vec<Record>, whole: bool) {
    // By defect first, on the checks as judged: every check of a listed
    // defect is known (or stale, where the defect now only warns), whichever
    // probes showed it.
    let judged = Report {
        records: std::mem::take(records),
        ..Report::new(Command::Run)
    };
    let defects = crate::report::defects(&judged);
    *records = judged.records;
    for d in &defects {
        let Some(entry) = baseline.defect(&d.fingerprint()) else {
            continue;
        };
        for &i in &d.checks {
            let reason = entry.reason.clone();
            records[i].outcome = match records[i].outcome {
                Outcome::Fail => Outcome::KnownFailure { reason },
                _ => Outcome::Stale { reason },
            };
        }
    }
    for record in records.iter_mut() {
        if let Some(id) = &record.place.vector {
            record.outcome = baseline.apply(id, None, record.outcome.clone());
        }
    }
    // An entry no check of an interrupted run matched may match one it never
    // played: staleness is said of a whole run only.
    if !whole {
        return;
    }
    let ids: Vec<String> = records
        .iter()
        .filter_map(|r| r.place.vector.clone())
        .collect();
    let stale: Vec<Record> = baseline
        .unmatched(&ids)
        .into_iter()
        .map(|entry| {
            Record::new(
                Place {
                    vector: Some(entry.id.clone()),
                    file: Some(baseline.path.display().to_string()),
                    ..Place::default()
                },
                Subject::Frame(Vec::new()),
                Outcome::Stale {
                    reason: format!("no check of this run matches: {}", entry.reason),
                },
            )
        })
        .collect();
    records.extend(stale);
    let found: Vec<String> = defects
        .iter()
        .map(crate::report::Defect::fingerprint)
        .collect();
    let mut revisions: Vec<&str> = records
        .iter()
        .filter_map(|r| r.place.revision.map(Revision::name))
        .collect();
    revisions.dedup();
    let gone: Vec<Record> = baseline
        .unmatched_defects(&found, &revisions)
        .into_iter()
        .map(|entry| {
            Record::new(
                Place {
                    vector: entry.defect.clone(),
                    file: Some(baseline.path.display().to_string()),
                    ..Place::default()
                },
                Subject::Frame(Vec::new()),
                Outcome::Stale {
                    reason: format!(
                        "the run shows no such defect (under {}): {}",
                        if entry.revisions.is_empty() {
                            "any revision".to_owned()
                        } else {
                            entry.revisions.join(", ")
                        },
                        entry.reason
                    ),
                },
            )
        })
        .collect();
    records.extend(gone);
}

/// Whose tools may be called without `--allow-tool`: only the reference
/// peer's, which stay inside it.
enum PeerChoice {
    Reference,
    Command,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A baseline entry no check of an interrupted run matched is not said
    /// stale: the run may never have played its probe.
    #[test]
    fn staleness_is_said_of_a_whole_run_only() {
        let baseline = Baseline::parse(
            r#"[{"id": "mcp/2025-11-25/base/never-played", "reason": "known"}]"#,
            std::path::Path::new("baseline.json"),
        )
        .unwrap();
        let stale = |whole| {
            let mut records = Vec::new();
            apply(&baseline, &mut records, whole);
            records
                .iter()
                .filter(|r| matches!(r.outcome, Outcome::Stale { .. }))
                .count()
        };
        assert_eq!(stale(true), 1);
        assert_eq!(stale(false), 0);
    }
}

#[cfg(test)]
mod revision_lines_tests {
    use super::*;
    use harness::{Outcome, Revision};

    fn record(revision: Revision, outcome: Outcome) -> Record {
        Record::new(
            Place {
                revision: Some(revision),
                ..Place::default()
            },
            Subject::Frame(Vec::new()),
            outcome,
        )
    }

    /// A line per revision, said as the records move past it and for the
    /// last at the end, with its counts; never twice for one revision.
    #[test]
    fn a_line_per_revision_as_the_run_moves_on() {
        let mut lines = RevisionLines::default();
        let t = Duration::from_millis(1500);
        assert_eq!(
            lines.record(&record(Revision::Mcp2024_11_05, Outcome::Pass), t),
            None
        );
        assert_eq!(
            lines.record(&record(Revision::Mcp2024_11_05, Outcome::Fail), t),
            None
        );
        let said = lines.record(&record(Revision::Mcp2025_03_26, Outcome::Warning), t);
        assert_eq!(
            said.as_deref(),
            Some("wirecheck run: 2024-11-05: 2 checks judged, 1 fail, 0 warning (1.5 s)")
        );
        assert_eq!(
            lines.record(&record(Revision::Mcp2024_11_05, Outcome::Pass), t),
            Some("wirecheck run: 2025-03-26: 1 checks judged, 0 fail, 1 warning (1.5 s)".into())
        );
        assert_eq!(lines.finish(t), None, "2024-11-05 was said already");
        assert_eq!(lines.finish(t), None);
    }
}
