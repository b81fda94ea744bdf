//! Starting, ending and probing peer processes and sessions: what the
//! sessions of one revision share, and the one probe step ([`Peers::play`]:
//! send, observe, judge, record).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use harness::rules::{Level, RuleId, Violation};
use harness::{Outcome, Revision};

use super::config::{Config, Peer, RunError};
use super::observe::observe;
use super::plan;
use super::records::{answer_record, place, vector_record, wire_since};
use super::trace::Trace;
use super::{never_started, said_nothing, slow_start_note, unanswered_because, Wire};
use crate::driver::{Driver, Handshake, HandshakeError, Live, ProbeReport};
use crate::judge::{self};
use crate::report::{Check, CheckId, OwnCheck, Record, Subject};
use crate::sync::lock;
use crate::transcript::Entry;
use crate::transcript::Frame;
use crate::transport::http::{HttpFact, HttpFinding};
use crate::transport::{Kind, Target, Transport as _};
use crate::vectors::Vector;

/// A live session and what its handshake said.
pub(super) struct Session {
    pub(super) driver: Driver<Wire>,
    pub(super) handshake: Option<Handshake>,
}

/// The least a stdio process is given to exit on EOF where the revision
/// judges it: a Python SDK server exits in 0.11 to 0.17 s by hand, but was
/// seen still running after 500 ms on a loaded 2-core machine (the zoo's
/// mcp-server-time and mcp-server-git).
pub(super) const EXIT_ON_EOF_GRACE: Duration = Duration::from_secs(2);

/// Starting, ending and probing peer processes: shared by sessions that run
/// at the same time, so it only reads the configuration.
#[derive(Clone, Copy)]
pub(super) struct Peers<'c> {
    pub(super) config: &'c Config,
    /// The HTTP endpoint, for a peer reached over HTTP.
    pub(super) url: Option<&'c str>,
    /// What each closed HTTP connection saw, for the transport judge.
    pub(super) traces: &'c Mutex<Vec<Trace>>,
    /// Each closed session's wire log, for the session judge, with the
    /// place in the plan of the session it was closed for.
    pub(super) logs: &'c Mutex<Vec<(usize, Vec<crate::transcript::Entry>)>>,
    /// How long a closed stdio process is given to exit before a signal.
    pub(super) exit_grace: Duration,
    /// The place in the plan of the session these peers play: the session
    /// judge reads the logs in plan order, not in the order sessions that
    /// ran at once happened to close, so a report reads the same each run.
    pub(super) order: usize,
    /// Opening frames' exchanges kept for the revisions after the one that
    /// played them ([`plan::opening_experiment`]); `None`: none kept.
    pub(super) experiments: Option<&'c Experiments>,
}

/// One probe's exchange, which each of the vectors sent with that frame is
/// judged on: read off the connection once the probe ended, so it can be
/// judged after the connection was closed.
pub(super) struct Exchange {
    /// The transport it went over.
    kind: Kind,
    /// Whether the probe waited for an answer ([`plan::expects_answer`]).
    expects_answer: bool,
    report: ProbeReport,
    /// The HTTP exchanges made, and HTTP-level problems found, while it ran.
    facts: Vec<HttpFact>,
    findings: Vec<HttpFinding>,
    /// The wire log of the probe.
    wire: Vec<Frame>,
    /// The note on a peer slow to say its first word.
    slow: Option<String>,
    /// The end of the peer's standard error, read when the peer failed.
    tail: Vec<u8>,
    /// Under a pace that stops on them: whether a 429 or 503 came while
    /// the probe ran. The server said it was busy, so what the probe saw is
    /// no verdict on how it answers.
    busy: bool,
}

/// An opening session played and closed: its exchange, and what its
/// process left for the revision's judges.
pub(super) struct Played {
    exchange: Exchange,
    trace: Trace,
    log: Vec<Entry>,
}

/// The opening sessions a run played, by experiment: a later revision
/// sending the same frame to the same fresh process judges the kept
/// exchange instead of starting its own ([`plan::opening_experiment`] says
/// why that is the same experiment).
#[derive(Default)]
pub(super) struct Experiments {
    played: Mutex<Vec<(plan::Experiment, Arc<Played>)>>,
}

impl Experiments {
    fn get(&self, experiment: &plan::Experiment) -> Option<Arc<Played>> {
        lock(&self.played)
            .iter()
            .find(|(e, _)| e == experiment)
            .map(|(_, p)| Arc::clone(p))
    }

    fn keep(&self, experiment: plan::Experiment, played: Arc<Played>) {
        let mut kept = lock(&self.played);
        if !kept.iter().any(|(e, _)| *e == experiment) {
            kept.push((experiment, played));
        }
    }
}

/// What the sessions of one revision leave behind for the judges after
/// them: each HTTP connection's trace, each session's wire log.
#[derive(Default)]
pub(super) struct Gathered {
    pub(super) traces: Mutex<Vec<Trace>>,
    pub(super) logs: Mutex<Vec<(usize, Vec<crate::transcript::Entry>)>>,
}

impl Gathered {
    /// Every session's wire log, in plan order (the order sessions closed
    /// within one place of the plan: a session and the fresh process that
    /// replaced its peer after a failure).
    pub(super) fn take_logs(&self) -> Vec<Vec<crate::transcript::Entry>> {
        let mut logs = std::mem::take(&mut *lock(&self.logs));
        logs.sort_by_key(|(order, _)| *order);
        logs.into_iter().map(|(_, log)| log).collect()
    }
}

impl<'c> Peers<'c> {
    /// Peers of `config` at `url`, leaving what they saw in `gathered`.
    pub(super) fn over(config: &'c Config, url: Option<&'c str>, gathered: &'c Gathered) -> Self {
        Peers {
            config,
            url,
            traces: &gathered.traces,
            logs: &gathered.logs,
            exit_grace: config.shutdown_grace,
            order: 0,
            experiments: None,
        }
    }

    /// These peers, keeping opening sessions' exchanges in `experiments`
    /// and judging a kept one instead of playing it again.
    pub(super) fn sharing(self, experiments: &'c Experiments) -> Self {
        Peers {
            experiments: Some(experiments),
            ..self
        }
    }

    /// These peers for the session at `order` in the plan.
    pub(super) fn at(self, order: usize) -> Self {
        Peers { order, ..self }
    }

    /// [`Peers::over`] for the sessions of `revision`: where the revision
    /// judges how promptly a process exits on EOF (2026-07-28 stdio
    /// §Shutdown, SHOULD "exit promptly"), the grace is at least
    /// [`EXIT_ON_EOF_GRACE`], so a loaded machine's scheduling is not taken
    /// for a slow exit; a process that exits costs nothing of it.
    pub(super) fn for_revision(
        config: &'c Config,
        url: Option<&'c str>,
        gathered: &'c Gathered,
        revision: Revision,
    ) -> Self {
        let mut peers = Self::over(config, url, gathered);
        if RuleId::McpR5StdioExitOnEof
            .info()
            .revisions
            .contains(revision)
        {
            peers.exit_grace = peers.exit_grace.max(EXIT_ON_EOF_GRACE);
        }
        peers
    }
}

impl Peers<'_> {
    /// A fresh connection: a process over stdio, a new HTTP session, or a new
    /// HTTP+SSE stream.
    pub(super) async fn spawn(&self, revision: Option<Revision>) -> Result<Driver<Wire>, RunError> {
        let limits = self.config.limits;
        let target = match (&self.config.peer, self.url) {
            (
                Peer::Given(Target::Http { kind, .. }) | Peer::ReferenceHttp { kind, .. },
                Some(url),
            ) => Target::Http {
                url: url.to_owned(),
                kind: *kind,
            },
            (peer, _) => Target::Stdio(
                peer.command(revision)
                    .ok_or_else(|| RunError::Start("an HTTP peer without a URL".into()))?,
            ),
        };
        let mut wire = Wire::open(&target, limits, self.config.http.clone())
            .await
            .map_err(RunError::Start)?;
        if let Wire::Streamable(peer) = &mut wire {
            if let Some(bearer) = self.config.bearer() {
                peer.set_header(reqwest::header::AUTHORIZATION, bearer);
            }
            if revision == Some(Revision::Mcp2026_07_28) {
                // 2026-07-28 has no handshake to learn the header's
                // version from, and basic/transports/streamable-http
                // §Protocol Version Header says the client MUST send
                // it on every request. Without it a dual-era server
                // "MAY treat a request that omits the header as
                // protocol version 2025-03-26", and every probe of a
                // body's missing `_meta` would meet legacy semantics.
                // A frame naming its own version still sends that one.
                peer.set_protocol_version(Some(Revision::Mcp2026_07_28.name().into()));
            }
        }
        Ok(Driver::new(wire, self.config.driver.clone()).paced(&self.config.pacer))
    }

    /// Ends a connection, keeping what HTTP showed for the transport judge.
    pub(super) async fn close(&self, driver: Driver<Wire>) {
        self.close_serving(driver, 1).await;
    }

    /// [`Peers::close`] for a session that was the session of `vectors`
    /// vectors (its own and its twins', [`plan::share_twins`]): the session
    /// judge reads its log once for each, as it read each vector's own
    /// session before they shared one, so what a server breaks in it is
    /// reported as often as before. The process is one, and so is its trace.
    pub(super) async fn close_serving(&self, driver: Driver<Wire>, vectors: usize) {
        let (trace, log) = self.end(driver).await;
        self.gather(trace, log, vectors);
    }

    /// Ends a connection: what it showed the transport judge, and its log.
    async fn end(&self, driver: Driver<Wire>) -> (Trace, Vec<Entry>) {
        let never_heard = driver.transport().starts_fresh() && !driver.heard();
        let (wire, log) = driver.into_parts();
        let mut trace = Trace::of(&wire);
        trace.stdio_never_heard = never_heard;
        let closed = wire.close_reporting(self.exit_grace).await;
        (trace.delete_status, trace.stdio_ended_by) = (closed.delete_status, closed.ended_by);
        self.config
            .stderr
            .add(&closed.stderr, closed.stderr_dropped);
        (trace, log)
    }

    /// Leaves a closed connection's trace and log for the revision's judges,
    /// the log once for each of the `vectors` it served.
    fn gather(&self, trace: Trace, log: Vec<Entry>, vectors: usize) {
        lock(self.traces).push(trace);
        let mut logs = lock(self.logs);
        for _ in 1..vectors {
            logs.push((self.order, log.clone()));
        }
        logs.push((self.order, log));
    }

    /// A fresh process with its handshake under `revision` done, or why the
    /// handshake failed; `serving` is the revision the process is started for.
    pub(super) async fn open(
        &self,
        revision: Revision,
        serving: Option<Revision>,
    ) -> Result<Result<Session, (Driver<Wire>, HandshakeError)>, RunError> {
        let mut driver = self.spawn(serving).await?;
        if !revision.is_mcp() {
            return Ok(Ok(Session {
                driver,
                handshake: None,
            }));
        }
        Ok(match driver.handshake(revision).await {
            Ok(handshake) => Ok(Session {
                driver,
                handshake: Some(handshake),
            }),
            Err(e) => Err((driver, e)),
        })
    }

    /// Plays one session's vectors: the `opening` one as the first frame of
    /// a fresh process, the others after a handshake (on `reuse` when given).
    /// A peer that fails is replaced for the rest.
    pub(super) async fn session(
        self,
        revision: Revision,
        session: plan::Session,
        playable: &[&Vector],
        reuse: Option<Driver<Wire>>,
    ) -> Result<Vec<Record>, RunError> {
        let mut records = Vec::new();
        let vectors: Vec<&Vector> = session.vectors.iter().map(|i| playable[*i]).collect();
        let twins: Vec<&Vector> = session.twins.iter().map(|i| playable[*i]).collect();
        let alike: Vec<&Vector> = vectors.iter().chain(&twins).copied().collect();
        if self.config.halted().is_some() {
            if let Some(d) = reuse {
                self.close(d).await;
            }
            records.extend(alike.iter().filter_map(|v| self.not_run(v, revision)));
            return Ok(records);
        }
        if session.opening {
            // One vector, judged for its twins too, whose own frame opens a
            // fresh process (no handshake first); an exchange a revision
            // before this one already had is judged again, not played again:
            // the same experiment, [`plan::opening_experiment`] says why.
            let experiment = self.experiments.and_then(|_| {
                plan::opening_experiment(
                    &session,
                    playable,
                    self.config.peer.command(Some(revision)),
                    self.exit_grace,
                )
            });
            let kept = experiment
                .as_ref()
                .and_then(|e| self.experiments.and_then(|x| x.get(e)));
            let played = match kept {
                Some(played) => played,
                None => Arc::new(self.play_opening(&alike, revision).await?),
            };
            self.judge_played(&played, &alike, revision, &mut records);
            if let (Some(experiment), Some(experiments)) = (experiment, self.experiments) {
                experiments.keep(experiment, played);
            }
            return Ok(records);
        }
        if !twins.is_empty() {
            // One vector, judged for its twins too, after the runner's
            // handshake on a fresh process.
            let driver = match reuse {
                Some(d) => Some(d),
                None => self.reopen(revision).await?,
            };
            let Some(driver) = driver else {
                records.extend(alike.iter().map(|v| self.unrestarted(v, revision)));
                return Ok(records);
            };
            if let Some(d) = self
                .play_alike(driver, &alike, revision, &mut records)
                .await?
            {
                self.close_serving(d, alike.len()).await;
            }
            return Ok(records);
        }
        let mut driver = match reuse {
            Some(d) => Some(d),
            None => self.reopen(revision).await?,
        };
        for vector in vectors {
            if let Some(record) = self.not_run(vector, revision) {
                records.push(record);
                continue;
            }
            let Some(d) = driver.take() else {
                records.push(self.unrestarted(vector, revision));
                continue;
            };
            driver = match self.play(d, vector, revision, &mut records).await? {
                Some(d) => Some(d),
                None => self.reopen(revision).await?,
            };
        }
        if let Some(d) = driver {
            self.close(d).await;
        }
        Ok(records)
    }

    /// The record of a vector not played because the run's pacer stopped
    /// admitting frames; `None` while it admits them.
    fn not_run(&self, vector: &Vector, revision: Revision) -> Option<Record> {
        let halt = self.config.halted()?;
        let why = super::polite::not_run(&halt);
        let outcome = Outcome::NotObserved { why };
        Some(vector_record(
            vector,
            revision,
            outcome,
            self.config.peer.kind(),
        ))
    }

    /// The record of a vector left unplayed: its session's process could
    /// not be started again after a failure.
    fn unrestarted(&self, vector: &Vector, revision: Revision) -> Record {
        vector_record(
            vector,
            revision,
            Outcome::NotObserved {
                why: "the peer could not be restarted after it failed".into(),
            },
            self.config.peer.kind(),
        )
    }

    /// A fresh process after a crash, or `None` when its handshake fails.
    pub(super) async fn reopen(
        &self,
        revision: Revision,
    ) -> Result<Option<Driver<Wire>>, RunError> {
        Ok(match self.open(revision, Some(revision)).await? {
            Ok(s) => Some(s.driver),
            Err((mut driver, e)) => {
                let never = never_started(&driver, &e, self.config);
                let because = unanswered_because(&mut driver, &e).await;
                self.close(driver).await;
                if let Some(why) = never {
                    return Err(RunError::Startup(format!("{revision}: {why}{because}")));
                }
                None
            }
        })
    }

    /// Whether a fresh process answers the liveness request sent alone, within
    /// the start-up wait: a start-up that completes, so an earlier process's
    /// silence was the probe's, a failure to judge, not "could not run".
    pub(super) async fn answers_alone(&self, revision: Revision) -> Result<bool, RunError> {
        let mut driver = self.spawn(Some(revision)).await?;
        let method = self.config.driver.liveness.method().to_owned();
        let _ = driver
            .request(&method, None, self.config.driver.answer_timeout)
            .await;
        let heard = driver.heard();
        self.close(driver).await;
        Ok(heard)
    }

    /// Sends one probe and records its judgement; the driver back when the
    /// peer is still fit for more, `None` after it exited or stopped answering
    /// (then the failure is recorded too, and the process ended); an error
    /// when a fresh process never said a word (it never finished starting).
    pub(super) async fn play(
        &self,
        driver: Driver<Wire>,
        vector: &Vector,
        revision: Revision,
        records: &mut Vec<Record>,
    ) -> Result<Option<Driver<Wire>>, RunError> {
        self.play_alike(driver, &[vector], revision, records).await
    }

    /// [`Peers::play`] for vectors that send the same frame and wait alike
    /// for its answer ([`plan::share_twins`]): the first one's frame is sent
    /// once, and each is judged on that one exchange and recorded.
    pub(super) async fn play_alike(
        &self,
        driver: Driver<Wire>,
        alike: &[&Vector],
        revision: Revision,
        records: &mut Vec<Record>,
    ) -> Result<Option<Driver<Wire>>, RunError> {
        let Some(vector) = alike.first().copied() else {
            return Ok(Some(driver));
        };
        let (exchange, driver) = self.probe(driver, vector, revision).await?;
        self.judge_exchange(&exchange, alike, revision, records);
        let Some(failure) = self.failure(&exchange, revision) else {
            return Ok(Some(driver));
        };
        if exchange.busy || self.config.halted().is_some() {
            // A busy server's silence, or a liveness request the pacer held
            // back, is no failure of the peer; its session ends here.
            self.close_serving(driver, alike.len()).await;
            return Ok(None);
        }
        self.close_serving(driver, alike.len()).await;
        self.crash_records(&failure, &exchange, alike, revision, records);
        Ok(None)
    }

    /// An opening session: a fresh process sent the first of `alike`'s
    /// frame (they all send it) before anything else, probed, then closed.
    async fn play_opening(
        &self,
        alike: &[&Vector],
        revision: Revision,
    ) -> Result<Played, RunError> {
        let vector = alike
            .first()
            .copied()
            .ok_or_else(|| RunError::Start("an opening session without a vector".into()))?;
        let driver = self.spawn(Some(revision)).await?;
        let (exchange, driver) = self.probe(driver, vector, revision).await?;
        let (trace, log) = self.end(driver).await;
        Ok(Played {
            exchange,
            trace,
            log,
        })
    }

    /// Judges and records each of `alike` on a closed opening session, as
    /// [`Peers::play_alike`] does on a live one, and leaves its trace and log
    /// for this revision's judges (the log once for each vector).
    fn judge_played(
        &self,
        played: &Played,
        alike: &[&Vector],
        revision: Revision,
        records: &mut Vec<Record>,
    ) {
        self.judge_exchange(&played.exchange, alike, revision, records);
        let unjudged = played.exchange.busy || self.config.halted().is_some();
        if let Some(failure) = self
            .failure(&played.exchange, revision)
            .filter(|_| !unjudged)
        {
            self.crash_records(&failure, &played.exchange, alike, revision, records);
        }
        self.gather(played.trace.clone(), played.log.clone(), alike.len());
    }

    /// Sends `vector`'s frame and reads what came back into an [`Exchange`];
    /// an error when a fresh process never said a word (it never finished
    /// starting), the process then ended.
    async fn probe(
        &self,
        mut driver: Driver<Wire>,
        vector: &Vector,
        revision: Revision,
    ) -> Result<(Exchange, Driver<Wire>), RunError> {
        let before = driver.log().len();
        let busy_before = self.config.pacer.busy_answers();
        let facts_before = driver.transport().http_facts().len();
        let findings_before = driver.transport().http_findings().len();
        let expects_answer = plan::expects_answer(vector);
        // Over Streamable HTTP a handshake frame may open no session (it is
        // refused), and then no ping can follow it: the end of its own
        // exchange is the answer.
        let liveness =
            !(matches!(driver.transport(), Wire::Streamable(_)) && plan::is_opening(vector));
        let report = driver
            .probe_with(&vector.frame, plan::wants(vector), liveness)
            .await;
        let never_heard = driver.transport().starts_fresh() && !driver.heard();
        // A process that said nothing at all may never have started, or may
        // have hung on this very probe (its first frame: plain JSON-RPC has
        // no handshake, and an opening vector none either): a second fresh
        // process asked only the liveness request tells the two apart.
        if never_heard
            && matches!(report.live, Live::Unresponsive)
            && !self.answers_alone(revision).await?
        {
            let because = driver.transport_mut().why_silent("").await;
            self.close(driver).await;
            return Err(RunError::Startup(format!(
                "{revision}: {}{because}",
                said_nothing(self.config)
            )));
        }
        let slow = driver.slow_start().map(|d| slow_start_note(d, self.config));
        let wire = wire_since(&driver, before);
        let transport = driver.transport();
        let facts = transport.http_facts();
        let findings = transport.http_findings();
        let tail = match report.live {
            Live::Answered(_) => Vec::new(),
            _ => transport.stderr_tail(),
        };
        let exchange = Exchange {
            kind: transport.kind(),
            expects_answer,
            facts: facts.get(facts_before..).unwrap_or_default().to_vec(),
            findings: findings.get(findings_before..).unwrap_or_default().to_vec(),
            report,
            wire,
            slow,
            tail,
            busy: self.config.pacer.pace().stop_when_busy
                && self.config.pacer.busy_answers() > busy_before,
        };
        Ok((exchange, driver))
    }

    /// Judges and records each of `alike` (vectors sending the exchange's
    /// frame) on `exchange`.
    fn judge_exchange(
        &self,
        exchange: &Exchange,
        alike: &[&Vector],
        revision: Revision,
        records: &mut Vec<Record>,
    ) {
        let transport = self.config.peer.kind();
        if exchange.busy {
            for vector in alike {
                let outcome = Outcome::NotObserved {
                    why: "not judged: the server answered 429 or 503 while the probe ran, so it said it was busy, not how it answers".into(),
                };
                let mut record = vector_record(vector, revision, outcome, transport);
                record.wire = exchange.wire.clone();
                records.push(record);
            }
            return;
        }
        for vector in alike {
            // Observe: what the exchange showed, read before the judge gives a
            // verdict (over HTTP, how its answer is read; and whether what was
            // seen decides the verdict instead).
            let seen = observe(
                exchange.kind,
                &exchange.facts,
                vector,
                revision,
                &exchange.report,
                exchange.expects_answer,
            );
            // Judge.
            let judgement = judge::reply_with(vector, &seen.observed, self.config.strictness);
            // Record.
            records.push(answer_record(
                vector,
                revision,
                transport,
                seen,
                &judgement,
                exchange.slow.clone(),
                &exchange.findings,
                exchange.wire.clone(),
            ));
        }
    }

    /// How the peer failed after `exchange`, as its records under `revision`
    /// say it; `None` when it answered the liveness request.
    fn failure(&self, exchange: &Exchange, revision: Revision) -> Option<Failure> {
        // The server MAY shut down on its own (MCP 2025-11-25, basic/lifecycle,
        // "Shutdown", stdio), so an exit is a warning here; a request it left
        // unanswered has already failed in its own record. A peer that stops
        // answering the ping breaks a MUST (basic/utilities/ping).
        let mut failure = match &exchange.report.live {
            Live::Answered(_) => return None,
            Live::Closed { status, leaky } if self.config.peer.kind() == Kind::Stdio => Failure {
                rule: None,
                level: Level::May,
                outcome: Outcome::Warning,
                spec: "MCP basic/lifecycle §Shutdown (stdio): the server may close its output and exit",
                message: format!(
                    "the peer's output ended after this frame ({}{}); a fresh process runs the rest",
                    status.as_deref().unwrap_or("still running"),
                    if *leaky { ", a child holding stdout" } else { "" }
                ),
            },
            // Over HTTP only the HTTP+SSE stream can end; the server may
            // close it too (its session ends), so this is a warning as well.
            Live::Closed { .. } => Failure {
                rule: None,
                level: Level::May,
                outcome: Outcome::Warning,
                spec: "MCP 2024-11-05 basic/transports §HTTP with SSE: the server's SSE stream carries every answer",
                message: "the server ended the SSE stream after this frame; a fresh stream runs the rest".to_owned(),
            },
            Live::Unresponsive | Live::SendFailed(_) => Failure {
                rule: Some(crate::driver::liveness_rule(revision)),
                level: Level::Must,
                outcome: Outcome::Fail,
                spec: crate::driver::liveness_rule(revision).info().cite(revision),
                message: "the peer stopped answering the liveness request after this frame; a fresh process runs the rest".to_owned(),
            },
        };
        if !exchange.tail.is_empty() {
            failure.message.push_str("; stderr ends: ");
            failure
                .message
                .push_str(&String::from_utf8_lossy(&exchange.tail));
        }
        Some(failure)
    }

    /// The record of the peer's `failure` after `exchange`, once for each of
    /// `alike`.
    fn crash_records(
        &self,
        failure: &Failure,
        exchange: &Exchange,
        alike: &[&Vector],
        revision: Revision,
        records: &mut Vec<Record>,
    ) {
        let transport = self.config.peer.kind();
        for vector in alike {
            let mut crash = Record::new(
                place(vector, revision, transport),
                Subject::Frame(vector.frame.clone()),
                failure.outcome.clone(),
            );
            crash.check = Some(Check {
                rule: failure
                    .rule
                    .map_or(OwnCheck::PeerExited.into(), CheckId::Rule),
                level: failure.level,
                spec: failure.spec.into(),
            });
            crash.violations = Some(match failure.rule {
                Some(rule) => vec![Violation {
                    rule,
                    level: failure.level,
                    spec: failure.spec,
                    pointer: String::new(),
                    message: failure.message.clone(),
                }],
                None => {
                    crash.notes.push(failure.message.clone());
                    Vec::new()
                }
            });
            crash.wire = exchange.wire.clone();
            records.push(crash);
        }
    }
}

/// How a peer failed after a probe: the check its records carry.
struct Failure {
    rule: Option<RuleId>,
    level: Level,
    outcome: Outcome,
    spec: &'static str,
    message: String,
}
