//! The live fuzzer behind `wirecheck fuzz`, `replay` and `diff`: frames a
//! peer was never meant to get, sent one at a time inside a live session
//! (no request id sent twice in it: [`ids`]), each answer judged by
//! invariants that hold whatever the input ([`invariant`]); every finding
//! de-duplicated by the invariant and the frame's shape, replayed on a fresh
//! peer before it counts (one no fresh peer shows again is only suspected)
//! and shrunk ([`minimize`]), folded into defects, and saved as a transcript
//! ([`store`]) a replay can play again.

mod budget;
pub mod ids;
pub mod invariant;
pub mod memory;
pub mod minimize;
pub mod peer;
mod record;
pub use record::whole_run;
mod replay;
pub mod source;
pub mod store;
pub mod window;

pub use replay::replay;

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use harness::ir::Id;
use harness::{lift, Message, Revision};
use tokio::time::Instant;

use crate::driver::{Class, ProbeReport};
use crate::transcript::Entry;
use crate::transport::{Limits, Target};
use crate::vectors::Vector;
use budget::attempt_floor;
pub use budget::{confirm_share, fuzzing_time, minimizing_ends, PER_FINDING};
use invariant::{expect, judge, shape, Breach, Expect, Kind};
use peer::{Live, Waits};
use source::Source;
use window::Attribution;

/// What a fuzz run is asked to do.
#[derive(Debug, Clone)]
pub struct Config {
    /// The peer: a command over stdio, or an HTTP endpoint.
    pub target: Target,
    /// The revision its sessions open with.
    pub revision: Revision,
    /// Same seed, same frames.
    pub seed: u64,
    /// Stop after this many frames.
    pub frames: Option<u64>,
    /// The whole run's time: fuzzing, then confirming and shrinking what
    /// it found, end within it ([`fuzzing_time`]). One exchange or peer
    /// start in flight at the end may still finish (bounded by `timeout`).
    pub duration: Option<Duration>,
    /// Tools the fuzzer may call.
    pub tools: Vec<String>,
    /// The longest wait for an answer.
    pub timeout: Duration,
    /// How long a confirming run listens after each ping.
    pub confirm_grace: Duration,
    /// SHOULD-level breaches count too.
    pub strict: bool,
    /// The transport's bounds.
    pub limits: Limits,
    /// How an HTTP peer is reached: TLS trust, the user's headers.
    pub http: crate::transport::http::HttpOptions,
    /// Confirm and shrink each finding (off: report it as found).
    pub minimize: bool,
    /// The most time spent confirming and shrinking all findings (inside
    /// `duration` when there is one); each gets an equal share of what is
    /// left, at most [`PER_FINDING`].
    pub minimize_budget: Duration,
    /// The golden vectors whose frames are mutated.
    pub vectors: Vec<Vector>,
    /// Frames sent back to back before one liveness ping ([`window`]); 1
    /// pings after every frame.
    pub window: usize,
    /// Peers fuzzed at once, the frame stream dealt out among them.
    pub jobs: usize,
    /// Mutate frames the peer sent too; off, the frames are a function of
    /// the seed alone, the same whatever [`jobs`](Self::jobs) is.
    pub echo: bool,
}

impl Config {
    /// A run against `target` under `revision` with the defaults `fuzz`, `diff`
    /// and `replay` start from: the built-in vectors, one session, minimizing on.
    ///
    /// # Errors
    /// The built-in vectors do not load.
    pub fn new(
        target: Target,
        revision: Revision,
        timeout: Duration,
        strict: bool,
        tools: Vec<String>,
    ) -> Result<Config, String> {
        let (vectors, errors) = crate::vectors::embedded();
        if let Some(e) = errors.first() {
            return Err(format!("the built-in vectors do not load: {e}"));
        }
        Ok(Config {
            target,
            revision,
            seed: 0,
            frames: None,
            duration: None,
            tools,
            timeout,
            confirm_grace: Duration::from_millis(100),
            strict,
            limits: Limits {
                write_timeout: timeout,
                ..Limits::default()
            },
            http: crate::transport::http::HttpOptions::default(),
            minimize: true,
            minimize_budget: Duration::from_secs(60),
            vectors,
            window: 1,
            jobs: 1,
            echo: true,
        })
    }
}

/// A breach seen while fuzzing, before it is confirmed.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// What was broken.
    pub breach: Breach,
    /// The frame that broke it.
    pub frame: Vec<u8>,
    /// Its shape ([`invariant::shape`]).
    pub shape: String,
    /// The frames sent before it in the same session (the latest few).
    pub before: Vec<Vec<u8>>,
    /// Which frame of the run it was (0-based).
    pub index: u64,
    /// Its defect ([`invariant::defect`]): the invariant, the rule and the
    /// shape of the peer's answer.
    pub defect: String,
}

/// A finding, ready for the report and the store.
#[derive(Debug, Clone)]
pub struct Finding {
    /// What was broken.
    pub breach: Breach,
    /// The shape of the breaking frame.
    pub shape: String,
    /// The de-duplication key: kind, rule, shape.
    pub key: String,
    /// The defect it shows ([`invariant::defect`]): findings of one defect
    /// differ only in the frame that showed it.
    pub defect: String,
    /// The frames that break it, last one breaking.
    pub frames: Vec<Vec<u8>>,
    /// The wire log of the confirming run (or of the fuzz session).
    pub log: Vec<Entry>,
    /// Whether a fresh peer broke it again, and how far it was shrunk.
    pub confirmation: Confirmation,
    /// Which frame of the run first broke it.
    pub index: u64,
}

/// How far confirming and shrinking a finding got, for its report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmation {
    /// A fresh peer broke it again; shrunk as far as the search went.
    Minimized,
    /// A fresh peer broke it again; the time ran out while shrinking, so
    /// its frames may not be the fewest or shortest.
    CutShort,
    /// A fresh peer broke it again; not shrunk, for the reason given
    /// (`--no-minimize`, or no time was left for it): its frames as sent.
    Unshrunk(String),
    /// It happened, and is counted whether or not a fresh peer repeats it:
    /// a crash or a hang (for the reason given), the peer's memory growth.
    AsFound(String),
    /// Suspected, never counted: no fresh peer showed it again (`replayed`),
    /// or none could replay it in time (Ctrl-C, the time ran out), for the
    /// reason given. A breach seen once in a fuzz session may be the
    /// session's own doing (an answer late past the loop's short grace), so
    /// it counts only once it is shown again.
    Suspected {
        /// Why, in words.
        why: String,
        /// Whether a fresh peer replayed it (and did not show it again).
        replayed: bool,
    },
}

impl Finding {
    /// Whether a fresh peer broke it again.
    #[must_use]
    pub fn confirmed(&self) -> bool {
        matches!(
            self.confirmation,
            Confirmation::Minimized | Confirmation::CutShort | Confirmation::Unshrunk(_)
        )
    }

    /// Whether it counts (the exit code, the summary, the defects): it was
    /// confirmed on a fresh peer, or it is a crash, a hang or a memory
    /// growth, which happened whether or not it comes back.
    #[must_use]
    pub fn counts(&self) -> bool {
        self.confirmed() || matches!(self.confirmation, Confirmation::AsFound(_))
    }
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Frames sent (liveness pings not counted).
    pub frames: u64,
    /// Wall time of the fuzzing (minimization not included).
    pub fuzz_time: Duration,
    /// Wall time of confirming and minimizing.
    pub minimize_time: Duration,
    /// Peers started again after a crash or hang.
    pub restarts: u64,
    /// Findings a fresh peer did not show again, or that the time ran out
    /// on before one could: reported as suspected, never counted.
    pub suspected: u64,
    /// Confirmed findings the time ran out on before they were shrunk, or
    /// while they were.
    pub unshrunk: u64,
    /// Breaches seen, before de-duplication.
    pub breaches: u64,
    /// Resident memory at the first and the last sample, KiB (the lowest
    /// first and the highest last over the jobs); `None` when the peer is
    /// no child of this run (HTTP) and memory was not observed.
    pub rss_kib: Option<(u64, u64)>,
    /// Memory samples taken, warm-up left out.
    pub rss_samples: u64,
    /// Whether the run was interrupted (Ctrl-C).
    pub interrupted: bool,
    /// Windows probed again frame by frame (ambiguous, a peer that died, or
    /// a breach not seen before).
    pub rechecks: u64,
    /// The longest a peer took to start and open its session in this run:
    /// what a confirmation on a fresh peer is given at least.
    pub slowest_start: Duration,
    /// Why the fuzzing stopped before its budget, when it did: a fresh peer
    /// that would not start or open a session. What was found until then is
    /// still confirmed, saved and reported.
    pub ended_early: Option<String>,
}

impl Stats {
    /// Frames per second of fuzzing.
    #[must_use]
    pub fn rate(&self) -> f64 {
        self.frames as f64 / self.fuzz_time.as_secs_f64().max(1e-9)
    }
}

/// A fresh peer for the fuzz loop. A start can fail on a loaded machine (a
/// slow runtime misses the handshake's timeout), so it is tried three times
/// before the run gives up.
///
/// # Errors
/// The last attempt's reason, with how many were made.
async fn start_again(config: &Config, waits: &Waits) -> Result<Live, String> {
    let mut last = String::new();
    for _ in 0..3 {
        match Live::start(
            &config.target,
            config.revision,
            waits,
            config.limits,
            &config.http,
        )
        .await
        {
            Ok(live) => return Ok(live),
            Err(e) => last = e,
        }
    }
    Err(format!("a fresh peer would not start, three times: {last}"))
}

/// Frames per session before the peer is started afresh: a long session
/// gives more and more of the generator's ids fresh spellings ([`ids`]: MCP
/// forbids reuse), and a fresh one costs a handshake. The id history itself
/// is O(1) per frame ([`window::IdHistory`]).
const SESSION_FRAMES: u64 = 5000;

/// How many earlier frames a candidate keeps for the minimizer.
const CONTEXT: usize = 32;

/// How often a child's resident memory is sampled.
const RSS_EVERY: Duration = Duration::from_millis(100);

/// A process's first second is warm-up: a runtime's heap settles there, and
/// its samples are left out of the trend.
const RSS_WARMUP: Duration = Duration::from_secs(1);

/// The frames of the run's stream that job `job` of `jobs` sends: the stream
/// of one seed, dealt out in turn (frame `i` to job `i mod jobs`), so the
/// same seed sends the same frames in total whatever `--jobs` is (when the
/// peers' own frames are not mutated: `echo` off).
struct Dealt {
    source: Source,
    job: u64,
    jobs: u64,
    next: u64,
}

impl Dealt {
    /// The next frame of this job and its index in the whole run's stream.
    fn next_frame(&mut self) -> (u64, Vec<u8>) {
        loop {
            let i = self.next;
            self.next += 1;
            let frame = self.source.next_frame().1;
            if i % self.jobs == self.job {
                return (i, frame);
            }
        }
    }

    /// How many of the first `total` frames of the stream are this job's.
    fn share(&self, total: u64) -> u64 {
        total / self.jobs + u64::from(self.job < total % self.jobs)
    }
}

/// One peer process's memory samples, in time order.
#[derive(Debug, Default)]
struct Series {
    pid: Option<u32>,
    since: Option<Instant>,
    samples: Vec<memory::Sample>,
}

/// The memory samples of one job: one series per child process (a restart
/// is a new process, whose memory starts afresh).
#[derive(Debug, Default)]
struct Memory {
    current: Series,
    done: Vec<Vec<memory::Sample>>,
    first_last: Option<(u64, u64)>,
    count: u64,
}

impl Memory {
    fn sample(&mut self, live: &Live) {
        let (Some(pid), Some(kib)) = (live.pid(), live.rss_kib()) else {
            return;
        };
        let now = Instant::now();
        if self.current.pid != Some(pid) {
            self.close();
            self.current.pid = Some(pid);
            self.current.since = Some(now);
        }
        let since = self.current.since.unwrap_or(now);
        if now.duration_since(since) < RSS_WARMUP {
            return;
        }
        self.count += 1;
        self.first_last = Some(self.first_last.map_or((kib, kib), |(f, _)| (f, kib)));
        self.current.samples.push(memory::Sample {
            t: now.duration_since(since).as_secs_f64(),
            kib,
        });
    }

    fn close(&mut self) {
        let samples = std::mem::take(&mut self.current.samples);
        if !samples.is_empty() {
            self.done.push(samples);
        }
        self.current = Series::default();
    }

    /// The steepest sustained growth among the series, if any.
    fn growth(mut self) -> (Option<memory::Growth>, Option<(u64, u64)>, u64) {
        self.close();
        let limits = memory::Thresholds::default();
        let worst = self
            .done
            .iter()
            .filter_map(|s| memory::sustained_growth(s, &limits))
            .max_by(|a, b| a.slope_kib_per_s.total_cmp(&b.slope_kib_per_s));
        (worst, self.first_last, self.count)
    }
}

/// What is told of progress: the run's stats so far, its distinct findings.
type Progress<'a> = &'a mut dyn FnMut(&Stats, usize);

/// What the jobs of a run share while it goes: each job's stats so far and
/// its distinct candidates, and when progress was last shown.
struct Board<'a> {
    jobs: RefCell<Vec<(Stats, usize)>>,
    next_tick: Cell<Instant>,
    progress: RefCell<Progress<'a>>,
    /// When the run began: `--duration` counts from here.
    started: Instant,
    /// Whether any job has found something, so every job leaves the share
    /// of the time kept for confirming it ([`fuzzing_time`]).
    found: Cell<bool>,
}

impl Board<'_> {
    /// Records job `job`'s stats; shows the run's progress about once a
    /// second, frames and frames/s summed over the jobs.
    fn update(&self, job: usize, stats: &Stats, candidates: usize) {
        if let Some(slot) = self.jobs.borrow_mut().get_mut(job) {
            *slot = (stats.clone(), candidates);
        }
        let now = Instant::now();
        if now < self.next_tick.get() {
            return;
        }
        self.next_tick.set(now + Duration::from_secs(1));
        let jobs = self.jobs.borrow();
        let total = merge_stats(jobs.iter().map(|(s, _)| s));
        let found = jobs.iter().map(|(_, n)| n).sum();
        (self.progress.borrow_mut())(&total, found);
    }
}

/// The stats of several jobs as one run's: counts summed, the fuzzing's wall
/// time the longest job's (they ran at once), so frames/s is summed too.
fn merge_stats<'a>(all: impl Iterator<Item = &'a Stats>) -> Stats {
    let mut total = Stats::default();
    for s in all {
        total.frames += s.frames;
        total.fuzz_time = total.fuzz_time.max(s.fuzz_time);
        total.restarts += s.restarts;
        total.breaches += s.breaches;
        total.rechecks += s.rechecks;
        total.slowest_start = total.slowest_start.max(s.slowest_start);
        total.interrupted |= s.interrupted;
        total.rss_samples += s.rss_samples;
        if total.ended_early.is_none() {
            total.ended_early.clone_from(&s.ended_early);
        }
        total.rss_kib = match (total.rss_kib, s.rss_kib) {
            (None, x) | (x, None) => x,
            (Some((f, l)), Some((f2, l2))) => Some((f.min(f2), l.max(l2))),
        };
    }
    total
}

/// What one job brought back.
struct JobRun {
    candidates: Vec<Candidate>,
    stats: Stats,
    growth: Option<memory::Growth>,
}

/// Runs the fuzzer as `config` asks until its budget is spent or `stop` is
/// set; `progress` is called about once a second with the stats so far and
/// the number of distinct findings.
///
/// With [`Config::jobs`] above one, that many peers are fuzzed at once (as
/// many children over stdio, as many sessions over HTTP), the run's frame
/// stream dealt out among them in turn; their findings are merged and
/// de-duplicated by key (the one met first in the stream is kept), then
/// confirmed and minimized one at a time.
///
/// # Errors
/// A peer does not start or no session opens.
pub async fn fuzz(
    config: &Config,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Stats, usize),
) -> Result<(Vec<Finding>, Stats), String> {
    let jobs = config.jobs.max(1);
    let started = Instant::now();
    let board = Board {
        jobs: RefCell::new(vec![(Stats::default(), 0); jobs]),
        next_tick: Cell::new(started + Duration::from_secs(1)),
        progress: RefCell::new(progress),
        started,
        found: Cell::new(false),
    };
    let runs = (0..jobs).map(|job| fuzz_job(config, job, stop, &board));
    let mut merged: Vec<Candidate> = Vec::new();
    let mut all_stats = Vec::with_capacity(jobs);
    let mut growths = Vec::new();
    for run in futures_util::future::join_all(runs).await {
        let run = run?;
        merged.extend(run.candidates);
        all_stats.push(run.stats);
        growths.extend(run.growth);
    }
    let mut stats = merge_stats(all_stats.iter());
    merged.sort_by_key(|c| c.index);
    let mut seen = BTreeSet::new();
    let candidates: Vec<Candidate> = merged
        .into_iter()
        .filter(|c| seen.insert(key(&c.breach, &c.shape)))
        .collect();
    let mut findings = Vec::new();
    let minimizing = Instant::now();
    let until = minimizing_ends(started, config.duration, minimizing, config.minimize_budget);
    // Every candidate is replayed on a fresh peer before it counts: first
    // all of them (a confirmation is a peer start or two), then what time
    // is left shrinks the confirmed ones.
    let total = candidates.len();
    let mut confirmed: Vec<(Candidate, minimize::Minimized)> = Vec::new();
    for (n, candidate) in candidates.into_iter().enumerate() {
        let left = until.saturating_duration_since(Instant::now());
        let share = confirm_share(left, total - n, stats.slowest_start);
        let tried = if stop.load(Ordering::Relaxed) {
            None
        } else {
            Some(minimize::confirm(config, &candidate, Instant::now() + share).await)
        };
        let (why, replayed) = match tried {
            Some(minimize::Minimizing::Confirmed(m)) => {
                confirmed.push((candidate, m));
                continue;
            }
            Some(minimize::Minimizing::NotReproduced) => (
                "no fresh peer showed it again (its frame replayed alone, and after the frames sent before it)",
                true,
            ),
            Some(minimize::Minimizing::OutOfTime) => (
                "the time (--duration or --minimize-budget) ran out before a fresh peer could replay it",
                false,
            ),
            None => (
                "interrupted (Ctrl-C) before it was replayed on a fresh peer",
                false,
            ),
        };
        // A crash or hang happened, whether or not it comes back; anything
        // else seen once may be the fuzz session's own doing (an answer
        // later than its short grace), and counts only once shown again.
        let confirmation = if matches!(candidate.breach.kind, Kind::Crash | Kind::Hang) {
            Confirmation::AsFound(why.to_owned())
        } else {
            stats.suspected += 1;
            Confirmation::Suspected {
                why: why.to_owned(),
                replayed,
            }
        };
        findings.push(as_found(candidate, confirmation));
    }
    let total = confirmed.len();
    for (n, (candidate, found)) in confirmed.into_iter().enumerate() {
        let left = until.saturating_duration_since(Instant::now());
        let share = (left / u32::try_from(total - n).unwrap_or(u32::MAX)).min(PER_FINDING);
        let (found, confirmation) = if !config.minimize {
            (found, Confirmation::Unshrunk("--no-minimize".into()))
        } else if stop.load(Ordering::Relaxed) {
            stats.unshrunk += 1;
            (
                found,
                Confirmation::Unshrunk("interrupted (Ctrl-C) before it was shrunk".into()),
            )
        } else if share < attempt_floor(stats.slowest_start) {
            stats.unshrunk += 1;
            (
                found,
                Confirmation::Unshrunk(
                    "the time (--duration or --minimize-budget) ran out before it was shrunk"
                        .into(),
                ),
            )
        } else {
            let shrunk = minimize::shrink(config, &candidate, found, Instant::now() + share).await;
            let confirmation = if shrunk.cut_short {
                stats.unshrunk += 1;
                Confirmation::CutShort
            } else {
                Confirmation::Minimized
            };
            (shrunk, confirmation)
        };
        findings.push(Finding {
            breach: found.breach,
            key: key(&candidate.breach, &candidate.shape),
            defect: candidate.defect,
            shape: candidate.shape,
            frames: found.frames,
            log: found.log,
            confirmation,
            index: candidate.index,
        });
    }
    findings.sort_by_key(|f| f.index);
    if let Some(growth) = growths
        .into_iter()
        .max_by(|a, b| a.slope_kib_per_s.total_cmp(&b.slope_kib_per_s))
    {
        findings.push(Finding {
            breach: Breach {
                kind: Kind::MemoryGrowth,
                rule: None,
                level: harness::rules::Level::Should,
                spec: "resource use (no rule: reported for the peer's authors)".into(),
                detail: growth.describe(),
            },
            shape: String::new(),
            key: "memory-growth".into(),
            defect: "memory-growth".into(),
            frames: Vec::new(),
            log: Vec::new(),
            confirmation: Confirmation::AsFound("the resident memory kept growing".into()),
            index: stats.frames,
        });
    }
    stats.minimize_time = minimizing.elapsed();
    Ok((findings, stats))
}

/// A finding no fresh peer confirmed, reported with the frames as sent.
fn as_found(candidate: Candidate, confirmation: Confirmation) -> Finding {
    let key = key(&candidate.breach, &candidate.shape);
    let mut frames = candidate.before;
    frames.push(candidate.frame);
    Finding {
        breach: candidate.breach,
        shape: candidate.shape,
        key,
        defect: candidate.defect,
        frames,
        log: Vec::new(),
        confirmation,
        index: candidate.index,
    }
}

/// One job of a run: its own peer, its share of the frame stream, its
/// candidates (de-duplicated within the job) and stats.
async fn fuzz_job(
    config: &Config,
    job: usize,
    stop: &AtomicBool,
    board: &Board<'_>,
) -> Result<JobRun, String> {
    let waits = Waits {
        answer_timeout: config.timeout,
        grace: Duration::ZERO,
    };
    let starting = Instant::now();
    let mut live = Live::start(
        &config.target,
        config.revision,
        &waits,
        config.limits,
        &config.http,
    )
    .await?;
    let slowest_start = starting.elapsed();
    let jobs = config.jobs.max(1) as u64;
    let mut source = Dealt {
        source: Source::new(
            config.seed,
            config.revision,
            &config.vectors,
            &config.tools,
            config.echo,
        ),
        job: job as u64,
        jobs,
        next: 0,
    };
    let budget = config.frames.map(|n| source.share(n));
    let mut stats = Stats {
        slowest_start,
        ..Stats::default()
    };
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut before: Vec<Vec<u8>> = Vec::new();
    let mut session_frames = 0u64;
    let mut held: Option<(u64, Vec<u8>)> = None;
    let started = Instant::now();
    let mut next_tick = started + Duration::from_secs(1);
    let mut memory = Memory::default();
    let mut next_sample = started;
    loop {
        if stop.load(Ordering::Relaxed) {
            stats.interrupted = true;
            break;
        }
        // `--duration` is the whole run's: once anything is found, the
        // fuzzing leaves the end of it for confirming (always: a finding
        // counts once a fresh peer shows it again) and shrinking.
        let fuzzing = config
            .duration
            .map(|d| fuzzing_time(d, true, board.found.get(), config.minimize_budget));
        if budget.is_some_and(|n| stats.frames >= n)
            || fuzzing.is_some_and(|d| board.started.elapsed() >= d)
        {
            break;
        }
        let left = budget.map_or(u64::MAX, |n| n - stats.frames);
        let to_rotation = SESSION_FRAMES - session_frames;
        let n =
            usize::try_from(left.min(to_rotation).min(config.window.max(1) as u64)).unwrap_or(1);
        // Two frames of a window that share a request id could not be told
        // apart by their answers: the second waits for the next window.
        let mut batch: Vec<Vec<u8>> = Vec::with_capacity(n);
        let mut indices: Vec<u64> = Vec::with_capacity(n);
        let mut ids = window::IdHistory::default();
        while batch.len() < n {
            let (index, frame) = match held.take() {
                Some(held) => held,
                None => {
                    let (index, frame) = source.next_frame();
                    // No request id is sent twice in a session: a second
                    // use gets a fresh id of its kind ([`ids`]).
                    let Some(frame) = live.own_ids(&frame) else {
                        continue;
                    };
                    (index, frame)
                }
            };
            let carried = crate::driver::request_ids(&frame);
            if !batch.is_empty() && carried.iter().any(|id| ids.contains(id)) {
                held = Some((index, frame));
                break;
            }
            for id in &carried {
                ids.insert(id);
            }
            batch.push(frame);
            indices.push(index);
        }
        let (reports, fresh) = match exchange(&mut live, &batch, config, &seen, &mut stats, &waits)
            .await
        {
            Ok(done) => done,
            Err(e) => {
                // The peer died in this window and no fresh one starts
                // to tell which frame did it: the window is the finding.
                let frame = batch.first().cloned().unwrap_or_default();
                let breach = invariant::crash(format!(
                        "the peer stopped answering within a window of {} frames starting with this one, and {e}",
                        batch.len()
                    ));
                let shape = shape(&frame, config.revision);
                if seen.insert(key(&breach, &shape)) {
                    board.found.set(true);
                    candidates.push(Candidate {
                        defect: invariant::defect(&breach, "died"),
                        breach,
                        frame,
                        shape,
                        before: before.clone(),
                        index: indices.first().copied().unwrap_or_default(),
                    });
                }
                stats.frames += batch.len() as u64;
                stats.breaches += 1;
                stats.ended_early = Some(e);
                break;
            }
        };
        if let Some(fresh) = fresh {
            std::mem::replace(&mut live, fresh).stop().await;
            before.clear();
            session_frames = 0;
        }
        let mut restart = false;
        for ((frame, report, breaches), index) in reports.into_iter().zip(indices) {
            stats.frames += 1;
            session_frames += 1;
            for received in &report.frames {
                if matches!(received.class, Class::Unsolicited | Class::ProbeAnswer) {
                    source.source.saw(&received.bytes);
                }
            }
            for breach in breaches {
                stats.breaches += 1;
                restart |= matches!(breach.kind, Kind::Crash | Kind::Hang);
                if breach.kind == Kind::Unanswered && !restart {
                    for id in cancellable_ids(&frame) {
                        live.cancel(&id).await;
                    }
                }
                let shape = shape(&frame, config.revision);
                let key = key(&breach, &shape);
                if seen.insert(key) {
                    board.found.set(true);
                    candidates.push(Candidate {
                        defect: invariant::defect(&breach, &invariant::answer_shape(&report)),
                        breach,
                        frame: frame.clone(),
                        shape,
                        before: before.clone(),
                        index,
                    });
                }
            }
            if before.len() == CONTEXT {
                before.remove(0);
            }
            before.push(frame);
        }
        if restart || session_frames >= SESSION_FRAMES {
            // The fresh peer first: if none will start, the old one is still
            // there to be stopped, and the run ends with what it found.
            let starting = Instant::now();
            let fresh = start_again(config, &waits).await;
            stats.slowest_start = stats.slowest_start.max(starting.elapsed());
            match fresh {
                Ok(fresh) => std::mem::replace(&mut live, fresh).stop().await,
                Err(e) => {
                    stats.ended_early = Some(e);
                    break;
                }
            };
            stats.restarts += u64::from(restart);
            before.clear();
            session_frames = 0;
        }
        let now = Instant::now();
        if now >= next_sample {
            next_sample = now + RSS_EVERY;
            memory.sample(&live);
        }
        if now >= next_tick {
            next_tick += Duration::from_secs(1);
            stats.fuzz_time = started.elapsed();
            stats.rss_samples = memory.count;
            board.update(job, &stats, candidates.len());
        }
    }
    stats.fuzz_time = started.elapsed();
    memory.sample(&live);
    live.stop().await;
    let (growth, first_last, count) = memory.growth();
    stats.rss_kib = first_last;
    stats.rss_samples = count;
    board.update(job, &stats, candidates.len());
    Ok(JobRun {
        candidates,
        stats,
        growth,
    })
}

/// Sends `batch` as one window ([`window`]) and returns a report per frame
/// with the breaches judged in it, and the peer that should go on when the
/// window's had to be replaced.
///
/// A window whose answers cannot be attributed, whose peer did not stay
/// alive, or whose verdicts hold a breach not seen before is probed again
/// frame by frame, each frame with its own ping, and those reports are the
/// ones judged: a window only speeds up what is already known, it never
/// decides a new finding. A live peer is probed again in the same session,
/// each frame under fresh request ids ([`ids`]: an answer to the window's
/// sending is then no answer to the probe's), and the frames returned are
/// the ones sent; a dead one is replaced first.
async fn exchange(
    live: &mut Live,
    batch: &[Vec<u8>],
    config: &Config,
    seen: &BTreeSet<String>,
    stats: &mut Stats,
    waits: &Waits,
) -> Result<(Vec<Judged>, Option<Live>), String> {
    // A window judged as a whole had no HTTP trouble (it would be unclear
    // otherwise): the session judge alone decides it.
    let judged = |frame: &[u8], report: ProbeReport| {
        let breaches = judge(frame, &report, config.revision, config.strict);
        (frame.to_vec(), report, breaches)
    };
    if batch.len() == 1 {
        let frame = &batch[0];
        let report = live.exchange(frame, expect(frame) != Expect::Nothing).await;
        let breaches = live.judge(frame, &report, config.revision, config.strict);
        return Ok((vec![(frame.clone(), report, breaches)], None));
    }
    let (liveness_id, observed) = live.window(batch).await;
    let verdict = observed.live.clone();
    let alive = matches!(verdict, Some(crate::driver::Live::Answered(_)));
    if let Attribution::Clear(reports) = window::attribute(batch, &liveness_id, observed) {
        let reports: Vec<Judged> = batch
            .iter()
            .zip(reports)
            .map(|(frame, report)| judged(frame, report))
            .collect();
        let known = reports.iter().all(|(frame, _, breaches)| {
            breaches
                .iter()
                .all(|b| seen.contains(&key(b, &shape(frame, config.revision))))
        });
        if known {
            return Ok((reports, None));
        }
    }
    stats.rechecks += 1;
    let mut fresh = None;
    if !alive {
        stats.restarts += 1;
        fresh = Some(start_again(config, waits).await?);
    }
    let target = fresh.as_mut().unwrap_or(live);
    let mut reports: Vec<Judged> = Vec::with_capacity(batch.len());
    for frame in batch {
        // The window sent it already: in the same session it goes again
        // under a fresh id, so an answer to the first sending is not taken
        // for a second answer, or for this one.
        let Some(frame) = target.own_ids(frame) else {
            break;
        };
        let report = target
            .exchange(&frame, expect(&frame) != Expect::Nothing)
            .await;
        // Judged at once: over HTTP what the transport saw since the last
        // probe is this frame's.
        let breaches = target.judge(&frame, &report, config.revision, config.strict);
        let dead = !matches!(report.live, crate::driver::Live::Answered(_));
        reports.push((frame, report, breaches));
        if dead {
            // The rest of the window goes to the next session; what the
            // dead peer did is reported on this frame.
            break;
        }
    }
    // A window whose peer died, when no frame kills a fresh one: it still
    // happened (a crash or hang is reported unconfirmed), on the last frame.
    if let (false, Some(verdict), Some((frame, last, breaches))) =
        (alive, verdict, reports.last_mut())
    {
        if matches!(last.live, crate::driver::Live::Answered(_)) {
            last.live = verdict;
            let http: Vec<Breach> = breaches
                .drain(..)
                .filter(|b| b.kind == Kind::HttpFailure)
                .collect();
            *breaches = judge(frame, last, config.revision, config.strict);
            breaches.extend(http);
        }
    }
    Ok((reports, fresh))
}

/// One frame as it was sent (its ids made fresh when it was sent again),
/// its report, and what it breaks.
type Judged = (Vec<u8>, ProbeReport, Vec<Breach>);

/// A finding's de-duplication key.
#[must_use]
pub fn key(breach: &Breach, shape: &str) -> String {
    format!(
        "{}|{}|{shape}",
        breach.kind.name(),
        breach.rule.map_or("-", |r| r.as_str())
    )
}

/// The ids of the requests in `frame` that a cancellation can name (string or
/// integer, MCP's `RequestId`): only a frame that lifts, unlike
/// [`crate::driver::request_ids`], which reads what a peer could.
fn cancellable_ids(frame: &[u8]) -> Vec<Id<'static>> {
    let Ok(lifted) = lift(frame) else {
        return Vec::new();
    };
    lifted
        .messages()
        .iter()
        .filter(|m| matches!(m, Message::Request(_)))
        .filter_map(|m| m.id().cloned().map(Id::into_owned))
        .filter(|id| !matches!(id, Id::Null))
        .collect()
}

#[cfg(test)]
mod tests;
