//! `wirecheck load`: judged concurrency against a live peer
//! ([`crate::load`] is the engine; this reads the flags and makes the report).

use std::time::Duration;

use harness::rules::RuleId;
use harness::{Outcome, Revision};

use super::args::AuthArgs;
use super::{OutputArgs, PeerArgs};
use crate::load::{self, judge, Config, Findings, Stats};
use crate::report::{Check, CheckId, Command, OwnCheck, Place, Record, Report, Subject};
use crate::transport::{Kind, Limits, Target};

/// Load a live peer with concurrent sessions and judge every answer: that it
/// answers its own request (id), exactly once, with the result shape of its
/// own method, within --timeout.
///
/// Over stdio each session is a process of its own with C requests
/// pipelined; over Streamable HTTP each is an MCP session with C POSTs in
/// flight. Every session uses the same request ids (ids are per session) and
/// the methods are interleaved so that an answer delivered to the wrong
/// request shows by its shape: `ping`, the lists the server's capabilities
/// declare, `prompts/get` and `resources/read` of what it listed, and
/// `tools/call` only for tools named with --allow-tool.
///
/// Throughput and p50/p95/p99 latency per method go to standard error.
/// Exit codes: 0 nothing broken, 1 a MUST broken (or, with --strict, a
/// SHOULD), 2 the run could not be made or was interrupted (Ctrl-C: what was
/// judged is still reported).
#[derive(Debug, Clone, clap::Args)]
#[command(mut_arg("format", |a| a.default_value("terminal")))]
pub struct Args {
    /// The server to load.
    #[command(flatten)]
    pub peer: PeerArgs,
    /// The revision every session opens with: 2024-11-05 to 2025-11-25 with
    /// `initialize`; 2026-07-28 with `server/discover`, its `_meta` (and over
    /// HTTP its request headers) on every request, no session and no `ping`.
    #[arg(long, default_value = "2025-11-25", value_name = "R", value_parser = super::args::mcp_revision())]
    pub revision: Revision,
    /// Sessions at once (processes over stdio, MCP sessions over HTTP; at
    /// least 1).
    #[arg(long, default_value_t = 4, value_name = "S", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub sessions: usize,
    /// Requests in flight per session (at least 1).
    #[arg(long, default_value_t = 8, value_name = "C", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub concurrency: usize,
    /// How long the load lasts (`10s`, `1m`), opening the sessions
    /// included: requests are sent for what is left of it; default 10s
    /// unless --requests is given.
    #[arg(long, value_parser = super::args::positive_duration, value_name = "DURATION")]
    pub duration: Option<Duration>,
    /// How many requests in all, across sessions (at least 1: a load of
    /// none would judge nothing).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub requests: Option<u64>,
    /// The longest wait for one answer; a request unanswered by then is
    /// cancelled and reported as not observed (no sentence bounds a
    /// server's time, so silence is never a verdict).
    #[arg(long, default_value = "5s", value_parser = super::args::positive_duration, value_name = "DURATION")]
    pub timeout: Duration,
    /// A tool that may be called under load (repeatable, called with empty
    /// arguments); no other is ever called.
    #[arg(long = "allow-tool", value_name = "NAME")]
    pub allow_tool: Vec<String>,
    /// Only this method of the mix under load (repeatable; the handshake
    /// and the discovery are made as always): `--only ping` is the workload
    /// an HTTP load tool (wrk, oha) can send too, for comparing latencies.
    #[arg(long, value_name = "METHOD")]
    pub only: Vec<String>,
    /// Time the answers, matched by id, without judging them: the unjudged
    /// rate, to show what judging costs.
    #[arg(long)]
    pub no_judge: bool,
    /// After the judged run, the same load again unjudged, and both rates
    /// side by side on standard error: what judging costs. The second run's
    /// answers are not judged and add no record.
    #[arg(long, conflicts_with = "no_judge")]
    pub with_unjudged: bool,
    /// SHOULD-level breaches fail the run too.
    #[arg(long)]
    pub strict: bool,
    /// Each finding shown again with the fewest sessions, then the fewest
    /// requests in flight, that still show it, and saved here as
    /// `load.<revision>.<hash>.json` for `wirecheck replay DIR`.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<std::path::PathBuf>,
    /// The most time spent showing findings again (with --out-dir).
    #[arg(long, default_value = "60s", value_parser = super::args::duration, value_name = "DURATION")]
    pub minimize_within: Duration,
    /// The largest frame (or HTTP body) read from the peer, in bytes.
    #[arg(long, default_value_t = Limits::default().max_frame, value_name = "BYTES")]
    pub max_frame: usize,
    /// An OAuth-protected server's token.
    #[command(flatten)]
    pub auth: AuthArgs,
    /// The run document, SARIF and HTML files, as `run` writes them.
    #[command(flatten)]
    pub files: super::args::ReportFiles,
    /// Where the report goes.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Runs the load as `args` asks and reports what it judged.
#[must_use]
pub fn run(args: &Args) -> Report {
    let mut report = Report::new(Command::Load);
    report.strict = args.strict;
    if let Err(e) = execute(args, &mut report) {
        report.error = Some(e);
    }
    report
}

fn execute(args: &Args, report: &mut Report) -> Result<(), String> {
    let target = args.peer.target()?;
    let transport = target.kind();
    let revision = args.revision;
    if matches!(target, Target::Http { .. }) && revision == Revision::Mcp2024_11_05 {
        return Err("--http speaks Streamable HTTP, which starts with 2025-03-26".into());
    }
    let mut config = Config {
        target,
        revision,
        sessions: args.sessions,
        concurrency: args.concurrency,
        duration: args.duration.or(if args.requests.is_none() {
            Some(Duration::from_secs(10))
        } else {
            None
        }),
        requests: args.requests,
        timeout: args.timeout,
        tools: args.allow_tool.clone(),
        judge: !args.no_judge,
        limits: Limits {
            max_frame: args.max_frame,
            write_timeout: args.timeout,
            ..Limits::default()
        },
        stop_at: None,
        only: args.only.clone(),
        bearer: None,
        http: args.peer.http_options()?,
    };
    let quiet = args.output.quiet;
    if !quiet {
        eprintln!(
            "wirecheck load: {} session(s) × {} in flight over {transport}, {}{}",
            config.sessions,
            config.concurrency,
            match (config.duration, config.requests) {
                (Some(d), Some(n)) => format!("for {:.0}s or {n} requests", d.as_secs_f64()),
                (Some(d), None) => format!("for {:.0}s", d.as_secs_f64()),
                (None, Some(n)) => format!("{n} requests"),
                (None, None) => "until interrupted".into(),
            },
            if config.judge {
                ", every answer judged"
            } else {
                ", unjudged (--no-judge)"
            }
        );
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    config.bearer = args
        .auth
        .bearer(&runtime, &config.target, revision, args.timeout)?;
    let stop = crate::interrupt::stop_flag(&runtime);
    let mut progress = |answered: u64, findings: u64, elapsed: Duration| {
        if !quiet {
            let rate = answered as f64 / elapsed.as_secs_f64().max(1e-9);
            eprintln!(
                "wirecheck load: {answered} answers in {:.0}s ({rate:.0}/s), {findings} breaches",
                elapsed.as_secs_f64()
            );
        }
    };
    let (stats, findings, trouble) = runtime.block_on(load::run(&config, stop, &mut progress));
    if stats.sent == 0 && !stats.interrupted && trouble.is_none() {
        // The budget runs from before the handshake: one spent opening the
        // sessions sent nothing under load, and nothing was judged.
        return Err(format!(
            "no request was sent under load: the sessions' opening took all of {}; give --duration or --requests more",
            match (config.duration, config.requests) {
                (Some(d), _) => format!("--duration {d:?}"),
                (None, Some(n)) => format!("--requests {n}"),
                (None, None) => "the budget".into(),
            }
        ));
    }
    // With nothing answered and a reason, the reason is all there is to say.
    let unmade = trouble.is_some() && stats.answered == 0 && findings.is_empty();
    if !quiet && !unmade {
        eprint!("{}", summary(&stats, &config, transport));
    }
    let mut saved = Vec::new();
    if let Some(dir) = &args.out_dir {
        if !stats.interrupted && trouble.is_none() {
            let stop = crate::interrupt::stop_flag(&runtime);
            saved = runtime.block_on(minimize(
                &config,
                &findings,
                dir,
                args.minimize_within,
                &stop,
                quiet,
            ));
        }
    }
    if let Some(why) = trouble.as_ref().filter(|_| unmade) {
        // Nothing was answered, so nothing was judged: the run could not be
        // made, said as that alone, never as checks not observed.
        return Err(why.clone());
    }
    records(report, &config, &stats, &findings, transport);
    for (f, note) in saved {
        let vector = format!("load/{}/{}", f.method, f.rule);
        if let Some(record) = report
            .records
            .iter_mut()
            .find(|r| r.place.vector.as_deref() == Some(vector.as_str()))
        {
            record.notes.push(note);
        }
    }
    if args.with_unjudged && !stats.interrupted && trouble.is_none() {
        let unjudged = Config {
            judge: false,
            ..config.clone()
        };
        let stop = crate::interrupt::stop_flag(&runtime);
        let (plain, _, _) = runtime.block_on(load::run(&unjudged, stop, &mut |_, _, _| {}));
        if !quiet {
            eprint!("{}", summary(&plain, &unjudged, transport));
        }
        eprintln!("wirecheck load: {}", cost(&stats, &plain));
    }
    if stats.interrupted {
        return Err(format!(
            "{}: {} answers judged before it stopped",
            crate::interrupt::INTERRUPTED,
            stats.answered
        ));
    }
    if let Some(why) = trouble {
        return Err(why);
    }
    Ok(())
}

/// Each finding shown again at the smallest size that shows it
/// ([`load::shrink`]) and saved under `dir` ([`load::saved`]), all within
/// `within`: the note each finding's record gets.
async fn minimize(
    config: &Config,
    findings: &Findings,
    dir: &std::path::Path,
    within: Duration,
    stop: &std::sync::Arc<std::sync::atomic::AtomicBool>,
    quiet: bool,
) -> Vec<(load::Finding, String)> {
    let until = tokio::time::Instant::now() + within;
    let mut notes = Vec::new();
    // Verdicts first (MUST, then SHOULD), what was not observed last: the
    // time may run out.
    let mut order: Vec<&load::Finding> = findings.iter().collect();
    order.sort_by_key(|f| (f.rule == judge::UNANSWERED, !f.level.is_mandatory()));
    for f in order {
        let shown = load::shrink::shrink(config, f, until, stop).await;
        let reproducer = load::saved::Reproducer::of(&shown, config);
        let note = match reproducer.save(dir) {
            Ok(path) => format!(
                "shown again with {} session(s) × {} in flight ({} run(s){}); saved as {} for `wirecheck replay`",
                shown.sessions,
                shown.concurrency,
                shown.runs,
                if shown.cut_short {
                    ", cut short by --minimize-within: a smaller load may show it"
                } else {
                    ""
                },
                path.display()
            ),
            Err(e) => format!("not saved: {e}"),
        };
        if !quiet {
            eprintln!("wirecheck load: {} on {}: {note}", f.rule, f.method);
        }
        notes.push((f.clone(), note));
    }
    notes
}

/// The judged rate beside the unjudged one.
fn cost(judged: &Stats, plain: &Stats) -> String {
    let (j, p) = (judged.rate(), plain.rate());
    if p <= 0.0 {
        return "no unjudged answer came: no comparison".into();
    }
    format!(
        "judged {j:.0} req/s, unjudged {p:.0} req/s: the judged rate is {:.0}% of the unjudged (judging costs {:.0}%)",
        100.0 * j / p,
        100.0 * (1.0 - j / p)
    )
}

/// The figures, for standard error.
fn summary(stats: &Stats, config: &Config, transport: Kind) -> String {
    format!(
        "wirecheck load: {} sent, {} answered in {:.1}s: {:.0} {} req/s over {transport} ({} session(s) × {}); {} errors, {} unanswered, {} late, {} lines past --max-frame skipped{}\n{}",
        stats.sent,
        stats.answered,
        stats.elapsed.as_secs_f64(),
        stats.rate(),
        if config.judge { "judged" } else { "unjudged" },
        stats.sessions,
        config.concurrency,
        stats.errors,
        stats.unanswered,
        stats.late,
        stats.too_long,
        if config.judge {
            format!(
                "; {} answer(s) judged in full, {} like one judged before (same verdict)",
                stats.answered - stats.recalled,
                stats.recalled
            )
        } else {
            String::new()
        },
        stats.table()
    )
}

/// The checks every judged answer went through, each with the rule it
/// rests on: a pass when answers were judged and none broke it.
fn judged_checks(revision: Revision) -> Vec<CheckId> {
    vec![
        judge::id_rule(revision).into(),
        RuleId::McpSchemaResult.into(),
        RuleId::McpPingRespond.into(),
        RuleId::SessionResponseDuplicate.into(),
        RuleId::SessionResponseUnknownId.into(),
        OwnCheck::LoadUnanswered.into(),
    ]
}

fn records(
    report: &mut Report,
    config: &Config,
    stats: &Stats,
    findings: &Findings,
    transport: Kind,
) {
    for f in findings.iter() {
        report
            .records
            .push(judge::record(f, config.revision, transport));
    }
    let figures = format!(
        "{} answers from {} session(s) × {} in flight, {:.0} req/s",
        stats.answered,
        stats.sessions,
        config.concurrency,
        stats.rate()
    );
    for check in judged_checks(config.revision) {
        if findings.breaks(check.as_str()) {
            continue;
        }
        let outcome = if !config.judge {
            Outcome::NotObserved {
                why: "--no-judge: answers were timed, not judged".into(),
            }
        } else if stats.answered == 0 {
            Outcome::NotObserved {
                why: "no answer came under load".into(),
            }
        } else if check == CheckId::from(RuleId::McpPingRespond)
            && stats.latency.get("ping").is_none_or(|l| l.count() == 0)
        {
            // A check with nothing to judge is not observed, never a pass.
            Outcome::NotObserved {
                why: "no `ping` was sent under load: 2026-07-28 removed it (its changelog, item 5: \"Remove `ping`\"), or --only left it out".into(),
            }
        } else {
            Outcome::Pass
        };
        let (level, spec) = match &check {
            CheckId::Rule(rule) => (
                rule.info().level,
                rule.info().cite(config.revision).to_owned(),
            ),
            // The sentence it would judge is JSON-RPC 2.0 §5's MUST, as its
            // findings say ([`judge::check`]); it is never a verdict.
            CheckId::Own(_) | CheckId::Vector(_) | CheckId::Other(_) => (
                harness::rules::Level::Must,
                judge::unanswered_spec(config.revision),
            ),
        };
        let mut record = Record::new(
            Place {
                vector: Some(format!("load/{check}")),
                revision: Some(config.revision),
                transport: Some(transport.into()),
                ..Place::default()
            },
            Subject::Frame(Vec::new()),
            outcome,
        );
        record.check = Some(Check {
            rule: check,
            level,
            spec,
        });
        record.notes.push(figures.clone());
        report.records.push(record);
    }
}
