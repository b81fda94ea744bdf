//! `wirecheck fuzz`: generated and mutated frames against a live peer, judged
//! by invariants that hold whatever the input ([`crate::livefuzz`]).

use std::path::PathBuf;
use std::time::Duration;

use harness::{Outcome, Revision};

use super::{OutputArgs, PeerArgs};
use crate::livefuzz::{self, store, Config, Confirmation, Finding, Stats};
use crate::report::{Command, Report};
use crate::transport::stdio::PeerCommand;
use crate::transport::Target;

/// Fuzz a live peer over stdio or Streamable HTTP: every request answered once
/// with its id exactly, no notification answered, every frame it sends valid
/// under the revision, invalid frames answered with an error, the peer alive
/// after each (and over HTTP, no 5xx, reset or cut stream).
///
/// No request id is sent twice in a session. Findings are de-duplicated and
/// replayed on a fresh peer before they count: one no fresh peer shows again
/// is listed as suspected and never counted (a crash or hang counts: it
/// happened). Confirmed findings are minimized, folded into defects (one
/// rule broken, one shape of answer), and every finding is saved as a
/// transcript under `--out-dir` (`wirecheck replay` plays them again).
/// `--duration` is the whole run's time, confirming and shrinking included.
/// Exit codes as `run`: 0 nothing counted, 1 findings, 2 the run could not
/// be made.
#[derive(Debug, Clone, clap::Args)]
#[command(mut_arg("format", |a| a.default_value("terminal")))]
pub struct Args {
    /// The server to fuzz.
    #[command(flatten)]
    pub peer: PeerArgs,
    /// The revision the sessions open with.
    #[arg(long, default_value = "2025-11-25", value_name = "R", value_parser = super::args::mcp_revision())]
    pub revision: Revision,
    /// Same seed, same frames.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Stop after this many frames (at least 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub frames: Option<u64>,
    /// Fuzz sequences instead of frames: well-formed operations (walks of
    /// every page of the lists the server declares, cursors sent again,
    /// resource subscriptions and their end, over Streamable HTTP a session
    /// ended with DELETE and its id sent again), judged against what the
    /// spec says the state must be after each step; a failing sequence is
    /// shrunk and told as a numbered story.
    #[arg(long, conflicts_with_all = ["frames", "window", "jobs", "no_echo", "allow_tool"])]
    pub stateful: bool,
    /// With --stateful, stop after this many operations (at least 1).
    #[arg(long, value_name = "N", requires = "stateful", value_parser = clap::value_parser!(u64).range(1..))]
    pub ops: Option<u64>,
    /// The whole run's time (`60s`, `10m`), confirming and shrinking
    /// findings included: once something is found, the fuzzing stops a
    /// third of it early (at most --minimize-budget) to leave that time for
    /// them, and a finding the time runs out on is reported unminimized,
    /// saying so. With neither budget, 10s.
    #[arg(long, value_parser = super::args::positive_duration, value_name = "DURATION")]
    pub duration: Option<Duration>,
    /// A tool the fuzzer may call (repeatable); no other is ever called.
    #[arg(long = "allow-tool", value_name = "NAME")]
    pub allow_tool: Vec<String>,
    /// The longest wait for any one answer.
    #[arg(long, default_value = "2s", value_parser = super::args::positive_duration, value_name = "DURATION")]
    pub timeout: Duration,
    /// Where findings go. Default: `corpus/peers/<name>/` when run from a
    /// wirecheck checkout (its `corpus/peers` folder exists: findings grow the
    /// corpus), else `wirecheck-fuzz/<name>/` under the system's temporary
    /// folder, so nothing is written into a project unasked; the name is
    /// the command's. The folder is printed either way.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// SHOULD-level breaches are findings too.
    #[arg(long)]
    pub strict: bool,
    /// Confirm each finding on a fresh peer without shrinking it: its frames
    /// are reported as sent.
    #[arg(long)]
    pub no_minimize: bool,
    /// The most time spent confirming and shrinking findings, all together,
    /// after fuzzing; always inside `--duration` when one is given.
    /// Default 60s.
    #[arg(long, value_parser = super::args::duration, value_name = "DURATION")]
    pub minimize_budget: Option<Duration>,
    /// Frames sent back to back before one liveness ping; a window whose
    /// answers cannot be told apart, or that breaks something new, is sent
    /// again frame by frame. 1 pings after every frame.
    #[arg(long, default_value_t = 16, value_name = "N")]
    pub window: usize,
    /// Peers fuzzed at once (children over stdio, sessions over HTTP); the
    /// seed's frame stream is dealt out among them in turn.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub jobs: usize,
    /// Do not mutate frames the peer sent: the frames are then a function of
    /// the seed alone, the same whatever `--jobs` is.
    #[arg(long)]
    pub no_echo: bool,
    /// The run document, SARIF and HTML files, as `run` writes them.
    #[command(flatten)]
    pub files: super::args::ReportFiles,
    /// Where the report goes.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// A folder name for a peer: see [`peer_name`]; for an HTTP endpoint, its
/// scheme, host and port (`http://127.0.0.1:8080/mcp` → `http-127_0_0_1_8080`,
/// `https://mcp.example.com/mcp` → `https-mcp_example_com_443`).
#[must_use]
pub fn target_name(target: &Target) -> String {
    match target {
        Target::Stdio(command) => peer_name(command),
        Target::Http { url, .. } => {
            // The host and port only: never a password or a query's key.
            let (scheme, authority) = match reqwest::Url::parse(url) {
                Ok(parsed) => (
                    parsed.scheme().to_owned(),
                    format!(
                        "{}_{}",
                        parsed.host_str().unwrap_or_default(),
                        parsed.port_or_known_default().unwrap_or_default()
                    ),
                ),
                Err(_) => ("http".to_owned(), String::new()),
            };
            let safe: String = authority
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            format!("{scheme}-{safe}")
        }
    }
}

/// A folder name for a peer: its program's file name, plus the script's for
/// an interpreter (`node index.js` → `node-index`).
#[must_use]
pub fn peer_name(command: &PeerCommand) -> String {
    let stem = |s: &std::ffi::OsStr| {
        std::path::Path::new(s)
            .file_stem()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let mut name = stem(&command.program);
    if let Some(script) = command
        .args
        .iter()
        .find(|a| !a.to_string_lossy().starts_with('-'))
    {
        name = format!("{name}-{}", stem(script));
    }
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// What the run will do, said before it starts: how long in all, and how
/// much of it confirming and shrinking may take.
fn plan(config: &Config) -> String {
    let secs = |d: Duration| format!("{:.0}s", d.as_secs_f64());
    let minimizing = |d: Duration| {
        let fuzzing = livefuzz::fuzzing_time(d, true, true, config.minimize_budget);
        secs(d.saturating_sub(fuzzing))
    };
    // Every finding is confirmed on a fresh peer before it counts; only the
    // shrinking is left out by --no-minimize.
    let what = if config.minimize {
        "confirming and shrinking findings"
    } else {
        "confirming findings"
    };
    match (config.duration, config.frames) {
        (Some(d), frames) => format!(
            "{}{} in all: fuzzing, and once something is found the last {} of it {what}",
            secs(d),
            frames.map_or_else(String::new, |n| format!(
                " (or {n} frames, then confirming)"
            )),
            minimizing(d)
        ),
        (None, Some(n)) => format!(
            "{n} frames, then up to {} {what}",
            secs(config.minimize_budget)
        ),
        (None, None) => "fuzzing until interrupted".into(),
    }
}

/// Runs the fuzzer as `args` asks and reports what it found.
#[must_use]
pub fn run(args: &Args) -> Report {
    let mut report = Report::new(Command::Fuzz);
    report.strict = args.strict;
    if let Err(e) = execute(args, &mut report) {
        report.error = Some(e);
    }
    report
}

/// The default minimize budget: a minute, inside `--duration` when given
/// ([`livefuzz::fuzzing_time`] keeps a third of it for confirming).
const MINIMIZE_BUDGET_MAX: Duration = Duration::from_secs(60);

/// Where findings go without `--out-dir`: the checkout's corpus when `cwd`
/// is a wirecheck checkout (`corpus/peers` exists), else a folder of its own
/// under `temp`.
fn default_out_dir(cwd: &std::path::Path, temp: &std::path::Path, name: &str) -> PathBuf {
    let corpus = cwd.join("corpus").join("peers");
    if corpus.is_dir() {
        PathBuf::from("corpus/peers").join(name)
    } else {
        temp.join("wirecheck-fuzz").join(name)
    }
}

fn execute(args: &Args, report: &mut Report) -> Result<(), String> {
    let target = args.peer.target()?;
    let transport = target.kind();
    let revision = args.revision;
    let out_dir = args.out_dir.clone().unwrap_or_else(|| {
        default_out_dir(
            std::path::Path::new("."),
            &std::env::temp_dir(),
            &target_name(&target),
        )
    });
    let mut tools = args.allow_tool.clone();
    if args.peer.is_reference() {
        // The reference peer's tools stay inside it.
        tools.extend(crate::peer::tool_names().into_iter().map(String::from));
    }
    let mut config = Config::new(target, revision, args.timeout, args.strict, tools)?;
    config.http = args.peer.http_options()?;
    config.jobs = args.jobs.max(1);
    config.echo = !args.no_echo;
    config.seed = args.seed;
    config.frames = args.frames;
    config.duration = args.duration.or(if args.frames.is_none() {
        Some(Duration::from_secs(10))
    } else {
        None
    });
    config.minimize = !args.no_minimize;
    config.window = args.window.max(1);
    config.minimize_budget = args.minimize_budget.unwrap_or(MINIMIZE_BUDGET_MAX);
    if args.stateful {
        if args.ops.is_some() && args.duration.is_none() {
            config.duration = None;
        }
        return crate::stateful::command::execute(
            &config,
            args.ops,
            args.output.quiet,
            &out_dir,
            report,
        );
    }
    if !args.output.quiet {
        eprintln!(
            "wirecheck fuzz: {}; findings go to {}",
            plan(&config),
            out_dir.display()
        );
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let stop = crate::interrupt::stop_flag(&runtime);
    let quiet = args.output.quiet;
    let mut progress = |stats: &Stats, findings: usize| {
        if !quiet {
            eprintln!(
                "wirecheck fuzz: {} frames, {:.0} frames/s, {findings} distinct findings",
                stats.frames,
                stats.rate()
            );
        }
    };
    let (findings, stats) = runtime.block_on(livefuzz::fuzz(&config, &stop, &mut progress))?;
    eprintln!(
        "wirecheck fuzz: {} frames in {:.1}s ({:.0} frames/s over {transport}, {} job(s), window {}, {} windows sent again frame by frame), {} restarts, {} breaches, \
         {} distinct ones replayed on fresh peers ({} suspected: not shown again, or not replayed in time; {} confirmed but not fully shrunk: the time ran out), confirming and shrinking took {:.1}s{}",
        stats.frames,
        stats.fuzz_time.as_secs_f64(),
        stats.rate(),
        config.jobs,
        config.window,
        stats.rechecks,
        stats.restarts,
        stats.breaches,
        findings.len(),
        stats.suspected,
        stats.unshrunk,
        stats.minimize_time.as_secs_f64(),
        if stats.interrupted {
            " (interrupted)"
        } else {
            ""
        }
    );
    if let Some(why) = &stats.ended_early {
        eprintln!(
            "wirecheck fuzz: ended early after {} frames: {why}",
            stats.frames
        );
    }
    eprintln!("wirecheck fuzz: {}", closing(&findings));
    for finding in &findings {
        let name = store::file_name(finding.breach.kind, revision, &finding.key);
        let path = crate::transcript::save(&out_dir, &name, &saved(finding))?;
        report
            .records
            .push(finding.record(revision, transport, Some(path.display().to_string())));
    }
    // One record for the run as a whole when no finding stands for it: a run
    // cut short is not a clean bill, so it says what it could not reach.
    let whole_run = |outcome: Outcome, note: String| {
        crate::livefuzz::whole_run(
            format!("fuzz/{revision}"),
            revision,
            transport,
            outcome,
            note,
        )
    };
    // Memory is read from /proc of a child this run started; a peer over
    // HTTP is nobody's child here, so its growth is not observed, and said so.
    if stats.rss_kib.is_none() {
        let why = match config.target {
            Target::Http { .. } => "memory growth: the peer is reached over HTTP, no child of this run, so its memory cannot be sampled".to_owned(),
            Target::Stdio(_) => "memory growth: no sample of the peer's VmRSS was taken (a run shorter than the warm-up, or no /proc)".to_owned(),
        };
        let mut r = whole_run(Outcome::NotObserved { why: why.clone() }, why);
        r.place.vector = Some(format!("fuzz/{revision}/memory-growth"));
        report.records.push(r);
    } else if let Some((first, last)) = stats.rss_kib {
        eprintln!(
            "wirecheck fuzz: VmRSS {first} KiB → {last} KiB over {} samples (growth is judged per process, on its trend)",
            stats.rss_samples
        );
    }
    if findings.is_empty() && stats.frames == 0 {
        // Nothing was sent, so nothing was fuzzed: no verdict at all, as a
        // load that sent no request (exit 2), never "0 findings" and exit 0.
        let why = match (&stats.ended_early, stats.interrupted) {
            (Some(why), _) => format!("the peer could not be fuzzed: {why}"),
            (None, true) => "interrupted (Ctrl-C) before any was sent".to_owned(),
            (None, false) => "the time given ran out first (the peer's start took all of it); give --duration more".to_owned(),
        };
        return Err(format!("no frame was sent: {why}"));
    }
    if let Some(why) = &stats.ended_early {
        let why = format!("fuzzing ended early after {} frames: {why}", stats.frames);
        report
            .records
            .push(whole_run(Outcome::NotObserved { why: why.clone() }, why));
    } else if findings.is_empty() {
        report.records.push(whole_run(
            Outcome::Pass,
            format!(
                "{} frames (seed {}), no invariant broken",
                stats.frames, args.seed
            ),
        ));
    }
    Ok(())
}

/// The run's closing line: the findings that count (confirmed on a fresh
/// peer, or a crash, hang or memory growth that happened), the defects they
/// fold into (one invariant and rule broken, one shape of answer:
/// [`livefuzz::invariant::defect`]), and the suspected ones left uncounted.
#[must_use]
pub fn closing(findings: &[Finding]) -> String {
    let counted: Vec<&Finding> = findings.iter().filter(|f| f.counts()).collect();
    let defects: std::collections::BTreeSet<&str> =
        counted.iter().map(|f| f.defect.as_str()).collect();
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let (mut replayed, mut untried) = (0, 0);
    for f in findings {
        if let Confirmation::Suspected { replayed: r, .. } = f.confirmation {
            if r {
                replayed += 1;
            } else {
                untried += 1;
            }
        }
    }
    let mut why = Vec::new();
    if replayed > 0 {
        why.push(format!("{replayed} not shown again on a fresh peer"));
    }
    if untried > 0 {
        why.push(format!("{untried} not replayed in time"));
    }
    format!(
        "{}, {}{}",
        plural(counted.len(), "finding", "findings"),
        plural(defects.len(), "defect", "defects"),
        if why.is_empty() {
            String::new()
        } else {
            format!(
                " ({} not counted: {})",
                plural(
                    replayed + untried,
                    "suspected finding",
                    "suspected findings"
                ),
                why.join(", ")
            )
        }
    )
}

/// What a finding's file holds: the wire log of the run that confirmed it,
/// or, for one no fresh peer confirmed (found unconfirmed, or the time ran
/// out first), the frames it was found with as the client's, so that no
/// file is empty and `wirecheck replay` can play it.
fn saved(finding: &Finding) -> Vec<crate::transcript::Entry> {
    if !finding.log.is_empty() {
        return finding.log.clone();
    }
    finding
        .frames
        .iter()
        .map(|bytes| {
            crate::transcript::Entry::Frame(crate::transcript::Frame {
                from: harness::Direction::ClientToServer,
                bytes: bytes.clone(),
                t: None,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder per endpoint: the scheme kept, no credential in the name.
    #[test]
    fn an_endpoint_names_its_folder_by_scheme_host_and_port() {
        assert_eq!(
            target_name(&Target::streamable("http://127.0.0.1:8080/mcp")),
            "http-127_0_0_1_8080"
        );
        assert_eq!(
            target_name(&Target::streamable(
                "https://user:pa55@mcp.example.com/mcp?key=s3cret"
            )),
            "https-mcp_example_com_443"
        );
    }

    /// `--duration` is the whole run's, shrinking included (`--duration 20s`
    /// once ran 81 s), and the plan said at the start says so.
    #[test]
    fn the_plan_says_the_duration_is_the_whole_run() {
        let mut config = Config::new(
            Target::streamable("http://127.0.0.1:1/mcp"),
            Revision::Mcp2025_06_18,
            Duration::from_secs(2),
            false,
            Vec::new(),
        )
        .unwrap();
        config.duration = Some(Duration::from_secs(30));
        config.minimize_budget = MINIMIZE_BUDGET_MAX;
        assert_eq!(
            plan(&config),
            "30s in all: fuzzing, and once something is found the last 10s of it confirming and shrinking findings"
        );
        config.minimize_budget = Duration::from_secs(4);
        assert!(
            plan(&config).contains("the last 4s of it"),
            "{}",
            plan(&config)
        );
        config.duration = None;
        config.frames = Some(100);
        assert_eq!(
            plan(&config),
            "100 frames, then up to 4s confirming and shrinking findings"
        );
    }

    /// A finding the time ran out on (or found unconfirmed) has no wire log
    /// of a confirming run: its file held nothing, and replay had nothing to
    /// play. It holds the frames it was found with.
    #[test]
    fn an_unconfirmed_finding_is_saved_with_its_frames() {
        let frames = vec![b"{\"a\":1}".to_vec(), b"not json".to_vec()];
        let finding = Finding {
            breach: livefuzz::invariant::crash("it died".into()),
            shape: String::new(),
            key: "k".into(),
            frames: frames.clone(),
            log: Vec::new(),
            defect: "crash|-|died".into(),
            confirmation: Confirmation::Suspected {
                why: "the time ran out".into(),
                replayed: false,
            },
            index: 0,
        };
        let dir = std::env::temp_dir().join(format!("wirecheck-saved-{}", std::process::id()));
        let path =
            crate::transcript::save(&dir, "crash.2025-06-18.0.jsonl", &saved(&finding)).unwrap();
        assert_eq!(store::load_frames(&path).unwrap(), frames);
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn finding(
        kind: livefuzz::invariant::Kind,
        defect: &str,
        confirmation: Confirmation,
    ) -> Finding {
        Finding {
            breach: livefuzz::invariant::Breach {
                kind,
                rule: Some(harness::rules::RuleId::JsonrpcResponseRequired),
                level: harness::rules::Level::Must,
                spec: "JSON-RPC 2.0 §5".into(),
                detail: "d".into(),
            },
            shape: "request:other:integer".into(),
            key: format!("{}|{defect}", kind.name()),
            defect: defect.into(),
            frames: vec![b"{}".to_vec()],
            log: Vec::new(),
            confirmation,
            index: 0,
        }
    }

    /// A finding no fresh peer showed again is listed as suspected, with
    /// why, and never counted: not in the exit code, not in the closing
    /// line's findings or defects. A crash that happened counts unconfirmed.
    #[test]
    fn a_suspected_finding_is_listed_but_never_counted() {
        use livefuzz::invariant::Kind;
        let suspected = finding(
            Kind::AnsweredTwice,
            "answered-twice|x|success:id-integer success:id-integer",
            Confirmation::Suspected {
                why: "no fresh peer showed it again".into(),
                replayed: true,
            },
        );
        let record = suspected.record(Revision::Mcp2025_11_25, crate::transport::Kind::Stdio, None);
        assert!(
            matches!(&record.outcome, Outcome::NotObserved { why } if why.contains("suspected, not counted: no fresh peer showed it again")),
            "{:?}",
            record.outcome
        );
        let mut report = Report::new(Command::Fuzz);
        report.records.push(record);
        assert_eq!(report.exit_code(), crate::report::Exit::Clean);
        let crash = finding(
            Kind::Crash,
            "crash|-|died",
            Confirmation::AsFound("no fresh peer showed it again".into()),
        );
        report.records.push(crash.record(
            Revision::Mcp2025_11_25,
            crate::transport::Kind::Stdio,
            None,
        ));
        assert_eq!(report.exit_code(), crate::report::Exit::Findings);
    }

    /// Findings fold into defects: one invariant and rule broken, one shape
    /// of answer, whatever the frames that showed it.
    #[test]
    fn the_closing_line_counts_findings_and_defects() {
        use livefuzz::invariant::Kind;
        let unanswered = "unanswered|jsonrpc.response.required|no answer";
        let findings = vec![
            finding(Kind::Unanswered, unanswered, Confirmation::Minimized),
            finding(Kind::Unanswered, unanswered, Confirmation::CutShort),
            finding(
                Kind::Unanswered,
                unanswered,
                Confirmation::Unshrunk("--no-minimize".into()),
            ),
            finding(
                Kind::SilentDrop,
                "silent-drop|jsonrpc.response.required|no answer",
                Confirmation::Minimized,
            ),
            finding(
                Kind::AnsweredTwice,
                "answered-twice|x|y",
                Confirmation::Suspected {
                    why: "no fresh peer showed it again".into(),
                    replayed: true,
                },
            ),
            finding(
                Kind::IdNotEchoed,
                "id-not-echoed|x|y",
                Confirmation::Suspected {
                    why: "the time ran out".into(),
                    replayed: false,
                },
            ),
        ];
        assert_eq!(
            closing(&findings),
            "4 findings, 2 defects (2 suspected findings not counted: 1 not shown again on a fresh peer, 1 not replayed in time)"
        );
        assert_eq!(closing(&findings[..1]), "1 finding, 1 defect");
    }

    /// Findings are not written into the current folder's `corpus/peers/`
    /// unasked; only a wirecheck checkout's corpus gets them by default.
    #[test]
    fn findings_go_to_the_corpus_only_in_a_checkout() {
        let root = std::env::temp_dir().join(format!("wirecheck-outdir-{}", std::process::id()));
        let project = root.join("project");
        std::fs::create_dir_all(&project).unwrap();
        let temp = root.join("tmp");
        assert_eq!(
            default_out_dir(&project, &temp, "node-index"),
            temp.join("wirecheck-fuzz").join("node-index")
        );
        std::fs::create_dir_all(project.join("corpus/peers")).unwrap();
        assert_eq!(
            default_out_dir(&project, &temp, "node-index"),
            PathBuf::from("corpus/peers/node-index")
        );
        let _ = std::fs::remove_dir_all(&root);
    }
}
