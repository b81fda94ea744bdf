//! `wirecheck diff`: the same seeded frames to several peers, and where their
//! answers disagree, grouped by kind and by the frame's shape.

use std::collections::BTreeMap;
use std::time::Duration;

use harness::{lift, Message, Outcome, Revision};

use super::OutputArgs;
use crate::driver::{Class, ProbeReport};
use crate::livefuzz::invariant::{expect, judge, shape, Breach, Expect};
use crate::livefuzz::peer::{Live, Waits};
use crate::livefuzz::source::Source;
use crate::report::{Command, Place, Record, Report, Subject, Transport};
use crate::transport::Target;

/// Send the same frames to each peer (`--stdio` and `--http` repeated, stdio
/// peers first; with one, the reference peer is the second) and report where
/// they disagree (one errors where another answers, codes differ, one
/// drops, ids differ), each side judged: whether the text allows both
/// answers, one (the other breaking the sentence quoted) or neither. Peers
/// are named A, B, … (the legend on standard error). Exit 0 when every
/// answer is one the text allows (they may still disagree), 1 when a
/// disagreement shows a peer breaking a MUST, 2 when a peer cannot be run.
///
/// `--env` and `--cwd` apply alike to every peer started over stdio (each
/// `--stdio`, and the reference peer when it is the second); HTTP peers are
/// already running. To compare one server in two environments, give each
/// its own line (`--stdio "env MODE=a server"`).
#[derive(Debug, Clone, clap::Args)]
#[command(mut_arg("format", |a| a.default_value("terminal")))]
pub struct Args {
    /// A server, as one shell-like line (repeatable).
    #[arg(long, value_name = "CMD ARGS…", required_unless_present = "http")]
    pub stdio: Vec<String>,
    /// A server's MCP endpoint over Streamable HTTP (repeatable).
    #[arg(long, value_name = "URL")]
    pub http: Vec<String>,
    /// TLS trust and the user's headers, for every --http server.
    #[command(flatten)]
    pub reach: super::args::ReachArgs,
    /// The environment and directory of every stdio peer.
    #[command(flatten)]
    pub server: super::args::ServerEnv,
    /// The revision the sessions open with.
    #[arg(long, default_value = "2025-11-25", value_name = "R", value_parser = super::args::mcp_revision())]
    pub revision: Revision,
    /// Same seed, same frames.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// How many frames each peer gets.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub frames: u64,
    /// The longest wait for any one answer.
    #[arg(long, default_value = "2s", value_parser = super::args::positive_duration, value_name = "DURATION")]
    pub timeout: Duration,
    /// Where the report goes.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// What one peer said to one frame.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Said {
    /// Nothing.
    Dropped,
    /// Answers: each one's error code (`None` for a result) and id text.
    Answered(Vec<(Option<i64>, String)>),
    /// The peer did not stay alive.
    Dead,
}

fn said(report: &ProbeReport) -> Said {
    if !matches!(report.live, crate::driver::Live::Answered(_)) {
        return Said::Dead;
    }
    let answers: Vec<(Option<i64>, String)> = report
        .answers()
        .filter_map(|r| {
            let lifted = lift(&r.bytes).ok()?;
            let m = lifted.messages().first()?.clone().into_owned();
            let id = m
                .id()
                .map_or_else(|| "absent".to_owned(), |id| format!("{id:?}"));
            Some(match m {
                Message::Error(e) => (Some(e.error.code), id),
                _ => (None, id),
            })
        })
        .collect();
    if answers.is_empty() {
        Said::Dropped
    } else {
        Said::Answered(answers)
    }
}

/// One kind of disagreement on one shape of frame, with one reading of the
/// text: how many frames, the first frame, each peer's frames back to it,
/// and what each peer broke.
type Group = (u64, Vec<u8>, Vec<Vec<Vec<u8>>>, Vec<Vec<Breach>>);

/// The short name of the `i`th peer: `A`, `B`, … (`P27` past `Z`).
fn short(i: usize) -> String {
    u8::try_from(i).ok().filter(|i| *i < 26).map_or_else(
        || format!("P{}", i + 1),
        |i| char::from(b'A' + i).to_string(),
    )
}

/// Which answers the text allows, by what each peer broke: a MUST broken
/// is an answer the text does not allow.
fn reading(breaches: &[Vec<Breach>]) -> &'static str {
    let allowed = breaches
        .iter()
        .filter(|b| !b.iter().any(|b| b.level.is_mandatory()))
        .count();
    match allowed {
        n if n == breaches.len() => "both-allowed",
        0 => "neither-allowed",
        _ => "one-allowed",
    }
}

/// What a peer's answer breaks, in words: each rule once with its level,
/// citation and sentence, or that the text allows it.
fn judged(name: &str, breaches: &[Breach]) -> String {
    let mut said: Vec<String> = Vec::new();
    for b in breaches {
        let rule = b.rule.map_or("", |r| r.as_str());
        if said.iter().any(|s| s.contains(&format!(" {rule} "))) {
            continue;
        }
        let sentence = b
            .rule
            .map(|r| format!(": \"{}\"", r.info().sentence()))
            .unwrap_or_default();
        said.push(format!(
            "breaks {rule} ({}, {}){sentence} ({})",
            b.level.name(),
            b.spec,
            b.detail
        ));
    }
    if said.is_empty() {
        format!("{name}'s answer is one the text allows")
    } else {
        format!("{name}'s answer {}", said.join("; "))
    }
}

/// How two answers disagree, if they do.
fn disagreement(a: &Said, b: &Said) -> Option<&'static str> {
    match (a, b) {
        _ if a == b => None,
        (Said::Dead, _) | (_, Said::Dead) => Some("one-dies"),
        (Said::Dropped, _) | (_, Said::Dropped) => Some("one-drops"),
        (Said::Answered(x), Said::Answered(y)) => {
            let errs = |v: &[(Option<i64>, String)]| {
                v.iter().map(|(c, _)| c.is_some()).collect::<Vec<_>>()
            };
            let codes = |v: &[(Option<i64>, String)]| v.iter().map(|(c, _)| *c).collect::<Vec<_>>();
            if errs(x) != errs(y) {
                Some("one-errors-one-answers")
            } else if codes(x) != codes(y) {
                Some("codes-differ")
            } else {
                Some("ids-differ")
            }
        }
    }
}

/// Runs the comparison as `args` asks.
#[must_use]
pub fn run(args: &Args) -> Report {
    let mut report = Report::new(Command::Diff);
    if let Err(e) = execute(args, &mut report) {
        report.error = Some(e);
    }
    report
}

fn execute(args: &Args, report: &mut Report) -> Result<(), String> {
    let revision = args.revision;
    let mut commands = Vec::new();
    let stdio = |line: Option<&str>| -> Result<Target, String> {
        let command = super::args::peer_command(line)?;
        args.server.apply(command).map(Target::Stdio)
    };
    for line in &args.stdio {
        commands.push((line.clone(), stdio(Some(line))?));
    }
    for url in &args.http {
        commands.push((url.clone(), Target::streamable(url.clone())));
    }
    if commands.len() == 1 {
        commands.push(("wirecheck serve".into(), stdio(None)?));
    }
    if !args.server.is_empty() && commands.iter().all(|(_, t)| !matches!(t, Target::Stdio(_))) {
        return Err(
            "--env and --cwd apply to peers started over stdio; every peer here is over HTTP"
                .into(),
        );
    }
    let mut config = crate::livefuzz::Config::new(
        commands[0].1.clone(),
        revision,
        args.timeout,
        false,
        Vec::new(),
    )?;
    args.reach.need_http(!args.http.is_empty())?;
    config.http = args.reach.options()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let stop = crate::interrupt::stop_flag(&runtime);
    let waits = Waits {
        answer_timeout: args.timeout,
        // Peers are compared, so each gets time to say all it will say.
        grace: Duration::from_millis(5),
    };
    let mut groups: BTreeMap<(String, String), Group> = BTreeMap::new();
    runtime.block_on(async {
        let mut peers = Vec::new();
        for (_, command) in &commands {
            peers.push(Some(
                Live::start(command, revision, &waits, config.limits, &config.http).await?,
            ));
        }
        let mut source = Source::new(args.seed, revision, &config.vectors, &[], false);
        for _ in 0..args.frames {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            let (_, frame) = source.next_frame();
            let expects = expect(&frame) != Expect::Nothing;
            let mut saids = Vec::new();
            let mut raws = Vec::new();
            let mut breaches: Vec<Vec<Breach>> = Vec::new();
            for (i, slot) in peers.iter_mut().enumerate() {
                let Some(live) = slot.as_mut() else {
                    saids.push(Said::Dead);
                    raws.push(Vec::new());
                    breaches.push(Vec::new());
                    continue;
                };
                // No request id sent twice in a session (as `fuzz` sends):
                // a reused id would make the peer's answers look crossed.
                // Each session holds the same frames, so each rewrites alike.
                let sent = live.own_ids(&frame).unwrap_or_else(|| frame.clone());
                let probe = live.exchange(&sent, expects).await;
                let s = said(&probe);
                if s == Said::Dead {
                    if let Some(dead) = slot.take() {
                        dead.stop().await;
                    }
                    *slot = Live::start(
                        &commands[i].1,
                        revision,
                        &waits,
                        config.limits,
                        &config.http,
                    )
                    .await
                    .ok();
                }
                raws.push(
                    probe
                        .frames
                        .iter()
                        .filter(|r| r.class != Class::LivenessAnswer)
                        .map(|r| r.bytes.clone())
                        .collect(),
                );
                // Each side judged as `fuzz` judges an answer.
                breaches.push(if s == Said::Dead {
                    Vec::new()
                } else {
                    judge(&sent, &probe, revision, false)
                });
                saids.push(s);
            }
            for other in &saids[1..] {
                if let Some(kind) = disagreement(&saids[0], other) {
                    let read = reading(&breaches);
                    let entry = groups
                        .entry((format!("{kind}/{read}"), shape(&frame, revision)))
                        .or_insert_with(|| (0, frame.clone(), raws.clone(), breaches.clone()));
                    entry.0 += 1;
                    break;
                }
            }
        }
        for live in peers.into_iter().flatten() {
            live.stop().await;
        }
        Ok::<(), String>(())
    })?;
    // Stdio peers come first, so each transport is named once
    // (`stdio+streamable-http`).
    let transports = Transport::of(commands.iter().map(|(_, t)| t.kind()));
    let legend: Vec<String> = commands
        .iter()
        .enumerate()
        .map(|(i, (name, _))| format!("{} = {}", short(i), name))
        .collect();
    let mut readings: BTreeMap<&'static str, (usize, u64)> = BTreeMap::new();
    for ((kind, shape), (count, frame, raws, broken)) in groups {
        let read = reading(&broken);
        let entry = readings.entry(read).or_default();
        entry.0 += 1;
        entry.1 += count;
        // A disagreement where the text allows every answer is no failure
        // of either peer; where a peer breaks a sentence, that sentence's
        // level decides.
        let outcome = if broken.iter().flatten().any(|b| b.level.is_mandatory()) {
            Outcome::Fail
        } else if broken.iter().flatten().next().is_some() {
            Outcome::Warning
        } else {
            Outcome::Pass
        };
        let mut record = Record::new(
            Place {
                vector: Some(format!("diff/{kind}/{shape}")),
                revision: Some(revision),
                transport: Some(transports.clone()),
                ..Place::default()
            },
            Subject::Frame(frame),
            outcome,
        );
        record.notes.push(format!(
            "{count} frame{} of this shape; {}",
            if count == 1 { "" } else { "s" },
            match read {
                "both-allowed" => "the text allows each answer",
                "one-allowed" => "the text allows only some of the answers",
                _ => "the text allows none of the answers",
            }
        ));
        for (i, frames) in raws.iter().enumerate() {
            let said: Vec<String> = frames
                .iter()
                .map(|f| crate::report::text::preview(f, 200))
                .collect();
            record.notes.push(format!(
                "{} said: {}",
                short(i),
                if said.is_empty() {
                    "(nothing)".to_owned()
                } else {
                    said.join(" | ")
                }
            ));
        }
        for (i, b) in broken.iter().enumerate() {
            record.notes.push(judged(&short(i), b));
        }
        report.records.push(record);
    }
    let disagreements: u64 = readings.values().map(|(_, n)| n).sum();
    let said: Vec<String> = readings
        .iter()
        .map(|(read, (groups, frames))| format!("{read}: {frames} frames in {groups} groups"))
        .collect();
    eprintln!(
        "wirecheck diff: {}; {} frames, {disagreements} disagreements{}",
        legend.join(", "),
        args.frames,
        if said.is_empty() {
            String::new()
        } else {
            format!(" ({})", said.join("; "))
        }
    );
    if report.records.is_empty() {
        let mut pass = Record::new(
            Place {
                vector: Some(format!("diff/{revision}")),
                revision: Some(revision),
                ..Place::default()
            },
            Subject::Frame(Vec::new()),
            Outcome::Pass,
        );
        pass.notes
            .push(format!("{} frames, no disagreement", args.frames));
        report.records.push(pass);
    }
    Ok(())
}
