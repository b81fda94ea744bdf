//! `wirecheck diff`: the same seeded frames to several peers, and where their
//! answers disagree, grouped by kind and by the frame's shape.

use std::collections::BTreeMap;
use std::time::Duration;

use harness::{lift, Message, Outcome};

use super::OutputArgs;
use crate::driver::{Class, ProbeReport};
use crate::livefuzz::invariant::{expect, shape, Expect};
use crate::livefuzz::peer::{Live, Target, Waits};
use crate::livefuzz::source::Source;
use crate::report::{Command, Place, Record, Report, Subject};

/// Send the same frames to each peer (`--stdio` and `--http` repeated, stdio
/// peers first; with one, the reference peer is the second) and report where
/// they disagree: one errors
/// where another answers, codes differ, one drops, ids differ. Exit 0 when
/// all agree, 1 when any disagree, 2 when a peer cannot be run.
#[derive(Debug, Clone, clap::Args)]
#[command(mut_arg("format", |a| a.default_value("terminal")))]
pub struct Args {
    /// A server, as one shell-like line (repeatable).
    #[arg(long, value_name = "CMD ARGS…", required_unless_present = "http")]
    pub stdio: Vec<String>,
    /// A server's MCP endpoint over Streamable HTTP (repeatable).
    #[arg(long, value_name = "URL")]
    pub http: Vec<String>,
    /// The revision the sessions open with.
    #[arg(long, default_value = "2025-11-25", value_name = "R")]
    pub revision: String,
    /// Same seed, same frames.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// How many frames each peer gets.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub frames: u64,
    /// The longest wait for any one answer.
    #[arg(long, default_value = "2s", value_parser = super::run::positive_duration, value_name = "DURATION")]
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
        .frames
        .iter()
        .filter(|r| {
            matches!(
                r.class,
                Class::ProbeAnswer | Class::NullIdError | Class::Stray
            )
        })
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

/// One kind of disagreement on one shape of frame: how many frames, the
/// first frame, and each peer's frames back to it.
type Group = (u64, Vec<u8>, Vec<Vec<Vec<u8>>>);

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
    let revision = super::fuzz::revision(&args.revision)?;
    let mut commands = Vec::new();
    for line in &args.stdio {
        commands.push((
            line.clone(),
            Target::Stdio(super::args::peer_command(Some(line))?),
        ));
    }
    for url in &args.http {
        commands.push((url.clone(), Target::streamable(url.clone())));
    }
    if commands.len() == 1 {
        commands.push((
            "wirecheck serve".into(),
            Target::Stdio(super::args::peer_command(None)?),
        ));
    }
    let config = super::fuzz::config(
        commands[0].1.clone(),
        revision,
        args.timeout,
        false,
        Vec::new(),
    )?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let stop = super::fuzz::ctrl_c(&runtime);
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
                Live::start(command, revision, &waits, config.limits).await?,
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
            for (i, slot) in peers.iter_mut().enumerate() {
                let Some(live) = slot.as_mut() else {
                    saids.push(Said::Dead);
                    raws.push(Vec::new());
                    continue;
                };
                let probe = live.exchange(&frame, expects).await;
                let s = said(&probe);
                if s == Said::Dead {
                    if let Some(dead) = slot.take() {
                        dead.stop().await;
                    }
                    *slot = Live::start(&commands[i].1, revision, &waits, config.limits)
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
                saids.push(s);
            }
            for other in &saids[1..] {
                if let Some(kind) = disagreement(&saids[0], other) {
                    let entry = groups
                        .entry((kind.to_owned(), shape(&frame, revision)))
                        .or_insert_with(|| (0, frame.clone(), raws.clone()));
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
    let mut kinds: Vec<&str> = commands.iter().map(|(_, t)| t.transport()).collect();
    kinds.dedup();
    let transports = kinds.join("+");
    for ((kind, shape), (count, frame, raws)) in groups {
        let mut record = Record::new(
            Place {
                vector: Some(format!("diff/{kind}/{shape}")),
                revision: Some(revision),
                transport: Some(transports.clone()),
                ..Place::default()
            },
            Subject::Frame(frame),
            Outcome::Fail,
        );
        record.notes.push(format!("{count} frame(s) of this shape"));
        for ((name, _), frames) in commands.iter().zip(&raws) {
            let said: Vec<String> = frames
                .iter()
                .map(|f| String::from_utf8_lossy(f).into_owned())
                .collect();
            record.notes.push(format!(
                "{name}: {}",
                if said.is_empty() {
                    "(nothing)".to_owned()
                } else {
                    said.join(" | ")
                }
            ));
        }
        report.records.push(record);
    }
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
