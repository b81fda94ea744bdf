//! `wirecheck replay`: the findings `wirecheck fuzz` saved, played against a
//! peer again: which still break (a regression suite for the peer's own CI).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use harness::Outcome;

use super::{OutputArgs, PeerArgs};
use crate::livefuzz::{self, store, Finding};
use crate::load;
use crate::report::{Command, Place, Record, Report, Subject};

/// Replay saved findings (`DIR/*.jsonl`; `load.*.json` of `load`,
/// `stateful.*.json` of `fuzz --stateful`) against a peer over stdio or
/// Streamable HTTP (a fresh session per finding); each one
/// that still breaks fails, each fixed one passes. Exit codes as `run`.
#[derive(Debug, Clone, clap::Args)]
#[command(mut_arg("format", |a| a.default_value("terminal")))]
pub struct Args {
    /// The folder `wirecheck fuzz --out-dir` or `wirecheck load --out-dir`
    /// wrote.
    pub dir: PathBuf,
    /// The server the findings are played against.
    #[command(flatten)]
    pub peer: PeerArgs,
    /// A tool the frames may call (repeatable), as for `fuzz`.
    #[arg(long = "allow-tool", value_name = "NAME")]
    pub allow_tool: Vec<String>,
    /// The longest wait for any one answer.
    #[arg(long, default_value = "2s", value_parser = super::args::positive_duration, value_name = "DURATION")]
    pub timeout: Duration,
    /// SHOULD-level breaches count too.
    #[arg(long)]
    pub strict: bool,
    /// With --auth, `load` findings are played with a token; a folder that
    /// holds fuzz findings is refused with --auth (`fuzz` fuzzes no
    /// protected server).
    #[command(flatten)]
    pub auth: super::args::AuthArgs,
    /// Where the report goes.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Replays every finding under `args.dir`.
#[must_use]
pub fn run(args: &Args) -> Report {
    let mut report = Report::new(Command::Replay);
    report.strict = args.strict;
    if let Err(e) = execute(args, &mut report) {
        report.error = Some(e);
    }
    report
}

/// The load findings `wirecheck load --out-dir` saved under `args.dir`
/// (`load.<revision>.<hash>.json`), each run again at its saved size: one
/// that shows again is its record (a failure, a warning, or not observed, as
/// in the load run), one that does not within [`load::shrink::TRIES`] runs
/// (concurrency defects come and go) passes.
fn replay_load(
    args: &Args,
    target: &crate::transport::Target,
    (runtime, stop): (&tokio::runtime::Runtime, &Arc<AtomicBool>),
    report: &mut Report,
) -> Result<(), String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(&args.dir)
        .map_err(|e| format!("cannot read {}: {e}", args.dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| load::saved::is_load_file(p))
        .collect();
    files.sort();
    let transport = target.kind();
    for path in files {
        let file = Some(path.display().to_string());
        let saved = load::saved::Reproducer::load(&path)?;
        if let Some(tool) = saved.tools.iter().find(|t| !args.allow_tool.contains(t)) {
            return Err(format!(
                "{}: the load called tool {tool:?}, not allowed by --allow-tool",
                path.display()
            ));
        }
        let base = load::Config {
            target: target.clone(),
            revision: saved.revision()?,
            sessions: 1,
            concurrency: 1,
            duration: None,
            requests: None,
            timeout: args.timeout,
            tools: saved.tools.clone(),
            judge: true,
            limits: crate::transport::Limits::default(),
            stop_at: None,
            only: saved.only.clone(),
            bearer: None,
            http: args.peer.http_options()?,
        };
        let base = load::Config {
            bearer: args
                .auth
                .bearer(runtime, target, base.revision, args.timeout)?,
            ..base
        };
        let config = saved.config(&base)?;
        let until = tokio::time::Instant::now() + Duration::from_secs(3600);
        let mut runs = 0;
        let like = (saved.rule.as_str(), saved.method.as_str());
        let shown = runtime.block_on(load::shrink::shows(&config, like, until, stop, &mut runs));
        let size = format!(
            "{} session(s) × {} in flight",
            config.sessions, config.concurrency
        );
        match shown {
            load::shrink::Trial::Unmade(why) => {
                return Err(format!(
                    "{}: the load could not be made, so whether the finding still shows is unknown: {why}",
                    path.display()
                ));
            }
            load::shrink::Trial::Shown(f) => {
                let mut record = load::judge::record(&f, config.revision, transport);
                record.place.file = file;
                record.notes.push(format!("still shows, with {size}"));
                report.records.push(record);
            }
            load::shrink::Trial::NotShown => {
                let mut record = Record::new(
                    Place {
                        file,
                        vector: Some(format!("replay/load/{}/{}", saved.method, saved.rule)),
                        revision: Some(config.revision),
                        transport: Some(transport.into()),
                        ..Place::default()
                    },
                    Subject::Frame(Vec::new()),
                    Outcome::Pass,
                );
                // The rule it was saved for, checked again and held: a
                // record of that check, as the one that found it.
                record.check = load::judge::check(&saved.rule, config.revision);
                record.notes.push(format!(
                    "{} on {} no longer shows: {runs} run(s) of {size}",
                    saved.rule, saved.method
                ));
                report.records.push(record);
            }
        }
    }
    Ok(())
}

fn execute(args: &Args, report: &mut Report) -> Result<(), String> {
    let target = args.peer.target()?;
    let transport = target.kind();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&args.dir)
        .map_err(|e| format!("cannot read {}: {e}", args.dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    if args.auth.auth && !files.is_empty() {
        return Err(format!(
            "--auth plays `load` findings with a token; {} holds fuzz findings, which `fuzz` never made against a protected server",
            args.dir.display()
        ));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    // Ctrl-C ends the replay as could not run (each finding replayed so far
    // keeps its record), never as "no longer shows".
    let stop = crate::interrupt::stop_flag(&runtime);
    replay_load(args, &target, (&runtime, &stop), report)?;
    // The one configuration of a replayed finding, frame or stateful.
    let fuzz_config = |revision| -> Result<crate::livefuzz::Config, String> {
        let mut config = crate::livefuzz::Config::new(
            target.clone(),
            revision,
            args.timeout,
            args.strict,
            args.allow_tool.clone(),
        )?;
        config.http = args.peer.http_options()?;
        Ok(config)
    };
    crate::stateful::saved::replay(&args.dir, &fuzz_config, &runtime, report)?;
    for path in files {
        if stop.load(Ordering::Relaxed) {
            return Err(crate::interrupt::INTERRUPTED.to_owned());
        }
        let file = Some(path.display().to_string());
        let Some((kind, revision)) = store::parse_name(&path) else {
            return Err(format!(
                "{}: not a finding's name (<kind>.<revision>.<hash>.jsonl)",
                path.display()
            ));
        };
        let frames = store::load_frames(&path)?;
        let config = fuzz_config(revision)?;
        if frames
            .iter()
            .any(|f| !livefuzz::source::safe(f, &config.tools))
        {
            return Err(format!(
                "{}: a frame calls a tool not allowed by --allow-tool",
                path.display()
            ));
        }
        let (breaches, log) = runtime.block_on(livefuzz::replay(&config, &frames, kind))?;
        match breaches.into_iter().next() {
            Some(breach) => {
                let shape = livefuzz::invariant::shape(
                    frames.last().map_or(&[][..], Vec::as_slice),
                    revision,
                );
                let finding = Finding {
                    key: livefuzz::key(&breach, &shape),
                    defect: livefuzz::invariant::defect(&breach, ""),
                    breach,
                    shape,
                    frames,
                    log,
                    confirmation: livefuzz::Confirmation::Minimized,
                    index: 0,
                };
                let mut record = finding.record(revision, transport, file);
                record.notes.push("still breaks".into());
                report.records.push(record);
            }
            None => {
                let mut record = Record::new(
                    Place {
                        file,
                        vector: Some(format!("replay/{}", kind.name())),
                        revision: Some(revision),
                        transport: Some(transport.into()),
                        ..Place::default()
                    },
                    Subject::Frame(frames.last().cloned().unwrap_or_default()),
                    Outcome::Pass,
                );
                record
                    .notes
                    .push(format!("{} no longer breaks", kind.name()));
                report.records.push(record);
            }
        }
    }
    Ok(())
}
