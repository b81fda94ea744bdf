//! `wirecheck load`'s engine: S sessions, each keeping C requests in flight,
//! every answer judged (free of command-line parsing: [`crate::cmd::load`]
//! reads the flags).
//!
//! Why: servers deliver answers to the wrong request under concurrency
//! (concurrent requests sharing an id across sessions cross-wire; an empty
//! 200 hangs one request in a thousand), and load tools measure latency but
//! judge nothing. Here every session uses the same ids (legal: ids are the
//! sender's, per session), methods with different result shapes are
//! interleaved ([`plan`]), and each answer is judged ([`judge`]): its own id,
//! once, the shape of its own method, within `--timeout`. The session judge
//! ([`crate::watch::Watch`], session rules only) sees each session's frames
//! too, unless judging is off (`--no-judge`, the unjudged rate).
//!
//! Over stdio each session is a child process with pipelined requests
//! ([`stdio`]); over Streamable HTTP each is an MCP session with C POSTs at
//! once ([`http`]).
//!
//! An answer like one already judged in the same session state gets that
//! verdict without the rules run again ([`memo`]; [`Book`] keeps the state
//! the same). With `--out-dir`, each finding is shown again with the fewest
//! sessions and requests in flight that still show it ([`shrink`]) and saved
//! for `wirecheck replay` ([`saved`]).

pub mod http;
pub mod judge;
pub mod memo;
pub mod plan;
pub mod saved;
pub mod shrink;
pub mod stats;
pub mod stdio;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use harness::session::Finding as SessionFinding;
use harness::{Direction, Revision};
use tokio::time::Instant;

use crate::transcript::{Entry, Frame};
use crate::transport::{Limits, Target};
use crate::watch::Watch;
pub use judge::{Finding, Findings};
pub use stats::Stats;

/// How a load run is made.
#[derive(Debug, Clone)]
pub struct Config {
    /// The peer.
    pub target: Target,
    /// The revision every session opens with: `initialize` (2024-11-05 to
    /// 2025-11-25), or `server/discover` and no session (2026-07-28).
    pub revision: Revision,
    /// Sessions at once.
    pub sessions: usize,
    /// Requests in flight per session.
    pub concurrency: usize,
    /// How long requests are sent.
    pub duration: Option<Duration>,
    /// How many requests are sent in all (across sessions).
    pub requests: Option<u64>,
    /// The longest wait for one answer.
    pub timeout: Duration,
    /// Tools that may be called.
    pub tools: Vec<String>,
    /// Whether answers are judged (`false`: `--no-judge`, only matched by
    /// id and timed).
    pub judge: bool,
    /// The bounds the peer is held to.
    pub limits: Limits,
    /// A finding to stop at as soon as it shows (minimizing, replaying).
    pub stop_at: Option<StopAt>,
    /// Only these methods of the mix are sent under load (all when empty):
    /// `ping` alone is the workload an HTTP load tool can send too.
    pub only: Vec<String>,
    /// The access token every HTTP request carries as `Authorization:
    /// Bearer` (`--auth`).
    pub bearer: Option<String>,
    /// How the endpoint is reached: TLS trust, the user's headers.
    pub http: crate::transport::http::HttpOptions,
}

/// A finding a run looks for, and stops sending at once it shows: its rule
/// and the method of the request concerned.
#[derive(Debug, Clone)]
pub struct StopAt {
    /// The rule (or load check).
    pub rule: String,
    /// The method.
    pub method: String,
    /// Set when it showed.
    pub seen: Arc<AtomicBool>,
}

impl StopAt {
    /// Looks for `rule` on `method`.
    #[must_use]
    pub fn new(rule: &str, method: &str) -> Self {
        StopAt {
            rule: rule.to_owned(),
            method: method.to_owned(),
            seen: Arc::default(),
        }
    }

    /// Whether it showed.
    #[must_use]
    pub fn seen(&self) -> bool {
        self.seen.load(Ordering::Relaxed)
    }
}

/// What every session shares: the budget, the stop flag, the counters
/// progress is printed from.
pub struct Shared {
    /// Set by Ctrl-C.
    pub stop: Arc<AtomicBool>,
    /// Requests issued so far (against `--requests`).
    issued: AtomicU64,
    /// Answers so far (progress).
    pub answered: AtomicU64,
    /// Findings so far (progress).
    pub findings: AtomicU64,
    limit: Option<u64>,
    end: Option<Instant>,
    stop_at: Option<StopAt>,
    /// When the run started: every session's ids are aligned on it ([`Ids`]).
    pub start: Instant,
}

/// A session's request ids, aligned with every other session's so that the
/// same id is in flight in several sessions at the same moment.
///
/// Ids are per session (MCP basic §Requests: "MUST NOT have been previously
/// used by the requestor within the same session"), so two sessions may use
/// the same one; a server that routes answers by id alone cross-wires only
/// when they are in flight together. A plain counter per session drifts
/// (one session stalls, the others run ahead) and the collisions stop; here
/// the run's time is cut in periods of [`Ids::PERIOD`] and the `n`th
/// request a session sends in period `p` has id `p × SPAN + n`: sessions
/// realign every period, and within one session ids only grow.
#[derive(Debug, Clone)]
pub struct Ids {
    start: Instant,
    period: u64,
    seq: u64,
    /// How many ids were issued in each period, to tell an id this session
    /// sent from one it never did.
    issued: Vec<u64>,
}

impl Ids {
    /// How often the sessions' ids realign.
    pub const PERIOD: Duration = Duration::from_millis(100);
    /// The most ids one session uses in a period (10 million a second).
    pub const SPAN: u64 = 1_000_000;

    /// The ids of a session of the run that started at `start`.
    #[must_use]
    pub fn new(start: Instant) -> Self {
        Ids {
            start,
            period: 0,
            seq: 0,
            issued: Vec::new(),
        }
    }

    /// The next id, and its place in its period (which call it is: the same
    /// place names different methods in neighbouring sessions).
    pub fn take(&mut self) -> (u64, u64) {
        // Periods count from 1: ids below SPAN are the handshake's and the
        // discovery's.
        let now = u64::try_from(self.start.elapsed().as_millis() / Self::PERIOD.as_millis())
            .unwrap_or(u64::MAX - 1)
            + 1;
        if now > self.period {
            self.period = now;
            self.seq = 0;
        } else if self.seq >= Self::SPAN {
            self.period += 1;
            self.seq = 0;
        }
        let index = usize::try_from(self.period).unwrap_or(usize::MAX);
        if self.issued.len() <= index {
            self.issued.resize(index + 1, 0);
        }
        let seq = self.seq;
        self.seq += 1;
        self.issued[index] = self.seq;
        (self.period * Self::SPAN + seq, seq)
    }

    /// Whether this session sent a request with `id` under load.
    #[must_use]
    pub fn issued(&self, id: u64) -> bool {
        let (period, seq) = (id / Self::SPAN, id % Self::SPAN);
        period >= 1
            && usize::try_from(period)
                .ok()
                .and_then(|p| self.issued.get(p))
                .is_some_and(|&n| seq < n)
    }
}

impl Shared {
    /// The budget of `config`, starting now.
    #[must_use]
    pub fn new(config: &Config, stop: Arc<AtomicBool>) -> Self {
        Shared {
            stop,
            issued: AtomicU64::new(0),
            answered: AtomicU64::new(0),
            findings: AtomicU64::new(0),
            limit: config.requests,
            end: config.duration.map(|d| Instant::now() + d),
            stop_at: config.stop_at.clone(),
            start: Instant::now(),
        }
    }

    /// Whether another request may be sent, taking it from the budget.
    pub fn take(&self) -> bool {
        if self.stopped()
            || self.stop_at.as_ref().is_some_and(StopAt::seen)
            || self.end.is_some_and(|end| Instant::now() >= end)
        {
            return false;
        }
        match self.limit {
            Some(n) => self.issued.fetch_add(1, Ordering::Relaxed) < n,
            None => true,
        }
    }

    /// Whether Ctrl-C came.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// One session's ledger: its numbers, its findings, its session judge.
pub struct Book {
    index: usize,
    revision: Revision,
    judging: bool,
    /// Its numbers.
    pub stats: Stats,
    /// Its findings.
    pub findings: Findings,
    watch: Option<Watch>,
    started: Instant,
    /// The load's mix, once the discovery made it: a deferred request's
    /// frame is made again from it.
    calls: Vec<plan::Call>,
    /// Whether requests under load reach the session judge only with their
    /// answers (see [`Book::request`]); off for good once the session
    /// cancels or refuses something, or the revision is one [`memo`] is not
    /// made for.
    deferring: bool,
    /// Requests under load not yet fed to the session judge: id → call of
    /// the mix. Ids only grow within a session, so this is send order.
    deferred: BTreeMap<u64, usize>,
    /// Verdicts on answers already judged ([`memo`]).
    memo: memo::Memo,
    stop_at: Option<StopAt>,
}

/// The checks the engine makes itself; the session judge's verdicts on them
/// would say the same twice.
const JUDGED_HERE: [harness::rules::RuleId; 2] = [
    harness::rules::RuleId::SessionResponseDuplicate,
    harness::rules::RuleId::SessionResponseUnknownId,
];

impl Book {
    /// The ledger of session `index` (0-based); `ordered` as the transport
    /// is ([`Watch::ordered`]).
    #[must_use]
    pub fn new(config: &Config, index: usize, ordered: bool) -> Self {
        Book {
            index,
            revision: config.revision,
            judging: config.judge,
            stats: Stats {
                sessions: 1,
                ..Stats::default()
            },
            findings: Findings::default(),
            watch: config.judge.then(|| {
                Watch::new(Some(config.revision))
                    .ordered(ordered)
                    .session_rules_only()
            }),
            started: Instant::now(),
            calls: Vec::new(),
            deferring: false,
            deferred: BTreeMap::new(),
            memo: memo::Memo::default(),
            stop_at: config.stop_at.clone(),
        }
    }

    /// The load's mix is `calls`: from now on requests are deferred (see
    /// [`Book::request`]) when judging.
    ///
    /// 2026-07-28 is left out: its answers may ask for input and be retried
    /// (`resultType`), state the memo is not made to reason about.
    pub fn load(&mut self, calls: &[plan::Call]) {
        self.calls = calls.to_vec();
        self.deferring = self.judging && self.revision < Revision::Mcp2026_07_28;
    }

    /// Request `id` of the load, call `call` of the mix, sent as `frame`.
    ///
    /// While deferring, it reaches the session judge just before its answer
    /// (or before any other frame, or at the end), not now: an answer
    /// recalled by the [`memo`] then skips the session judge along with
    /// its request, and the judge's state is the same as if it had seen
    /// both (the pair left nothing in flight; a list answer like the last
    /// one changes no list). The order the judge sees differs from the
    /// wire's only among requests and answers, which no session rule reads
    /// while no cancellation was sent (deferring stops at the first) and no
    /// notification came (each flushes the deferred requests first).
    pub fn request(&mut self, id: u64, call: usize, frame: &[u8]) {
        if self.deferring {
            self.deferred.insert(id, call);
        } else {
            self.frame(Direction::ClientToServer, frame);
        }
    }

    /// Feeds the deferred requests to the session judge, in send order.
    fn flush(&mut self) {
        for (id, call) in std::mem::take(&mut self.deferred) {
            let frame = self.calls[call].frame(id);
            self.feed(Direction::ClientToServer, &frame);
        }
    }

    /// Whether answers are judged.
    #[must_use]
    pub fn judging(&self) -> bool {
        self.judging
    }

    /// The revision judged under.
    #[must_use]
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// A frame on the wire, either way, other than a request of the load
    /// ([`Book::request`]) and its answer ([`Book::answered`]): the session
    /// judge's, after the deferred requests. It may change what the session
    /// judge would say of a later answer, so the [`memo`] forgets; one the
    /// client sends (a cancellation, a refusal) ends deferring for good.
    pub fn frame(&mut self, from: Direction, bytes: &[u8]) {
        if self.watch.is_none() {
            return;
        }
        self.flush();
        self.memo.forget();
        if from == Direction::ClientToServer {
            self.deferring = false;
        }
        self.feed(from, bytes);
    }

    /// Feeds one frame to the session judge, counting in what it found;
    /// whether it found anything.
    fn feed(&mut self, from: Direction, bytes: &[u8]) -> bool {
        let Some(watch) = self.watch.as_mut() else {
            return false;
        };
        let entry = Entry::Frame(Frame {
            from,
            bytes: bytes.to_vec(),
            t: Some(self.started.elapsed().as_secs_f64()),
        });
        let mut found = Vec::new();
        watch.see(&entry, &mut |_, entry, findings| {
            for f in findings.drain(..) {
                found.push((f, crate::watch::bytes(entry).to_vec()));
            }
        });
        let any = !found.is_empty();
        for (f, bytes) in found {
            self.session_finding(&f, bytes);
        }
        any
    }

    fn session_finding(&mut self, f: &SessionFinding, bytes: Vec<u8>) {
        if JUDGED_HERE.contains(&f.violation.rule) {
            return;
        }
        let mut finding = judge::of_violation(f.violation.clone());
        finding.method = "session".into();
        finding.answer = bytes;
        self.add(finding, None);
    }

    /// Counts `finding` in, as this session's, about request `id`.
    pub fn add(&mut self, mut finding: Finding, id: Option<u64>) {
        finding.first = (self.index, id);
        if let Some(stop) = &self.stop_at {
            if finding.rule == stop.rule.as_str() && finding.method == stop.method {
                stop.seen.store(true, Ordering::Relaxed);
            }
        }
        self.findings.add(finding);
    }

    /// An answer to request `id` (call `call` of the mix, `method`, sent as
    /// `request`) that took `took`: timed, and judged when judging; `reply`
    /// is `answer` lifted.
    ///
    /// Judged in full: the request (if deferred) and the answer go to the
    /// session judge, the pair to the reply rules ([`judge::lifted`]). An
    /// answer like one already judged in this session state gets that
    /// verdict instead ([`memo`]), its request never fed.
    pub fn answered(
        &mut self,
        (method, call): (&str, usize),
        id: u64,
        request: &[u8],
        (answer, reply): (&[u8], &harness::Frame<'_>),
        took: Duration,
        shared: &Shared,
    ) {
        self.stats.answered += 1;
        shared.answered.fetch_add(1, Ordering::Relaxed);
        match self.stats.latency.get_mut(method) {
            Some(l) => l.add(took),
            None => self
                .stats
                .latency
                .entry(method.to_owned())
                .or_default()
                .add(took),
        }
        if matches!(reply, harness::Frame::Single(harness::Message::Error(_))) {
            self.stats.errors += 1;
        }
        if !self.judging {
            return;
        }
        if self.deferring && self.deferred.contains_key(&id) {
            if let Some(verdict) = self.memo.recall(call, id, answer, reply) {
                let found = verdict.to_vec();
                self.deferred.remove(&id);
                self.stats.recalled += 1;
                self.found(method, id, request, answer, found, shared);
                return;
            }
        }
        let deferred = self.deferred.remove(&id).is_some();
        let mut quiet = true;
        if deferred {
            quiet &= !self.feed(Direction::ClientToServer, request);
        }
        quiet &= !self.feed(Direction::ServerToClient, answer);
        let found = judge::lifted(self.revision, request, reply);
        if deferred && quiet && memo::memorable(method, reply) {
            // A list answer judged in full may be another list than the
            // latest of its kind: what was remembered under that one (the
            // list's own answers, what is judged against it) is forgotten.
            if method.ends_with("/list") {
                let calls = &self.calls;
                self.memo.forget_calls(|c| {
                    calls
                        .get(c)
                        .is_none_or(|c| judge::rests_on_list(&c.method, method))
                });
            }
            self.memo.remember(call, id, answer, reply, &found);
        } else if !quiet {
            self.memo.forget();
        }
        self.found(method, id, request, answer, found, shared);
    }

    /// Judges an answer without timing it (the handshake, the discovery).
    pub fn judge(&mut self, method: &str, id: u64, request: &[u8], answer: &[u8], shared: &Shared) {
        let found = judge::answer(self.revision, request, answer);
        self.found(method, id, request, answer, found, shared);
    }

    fn found(
        &mut self,
        method: &str,
        id: u64,
        request: &[u8],
        answer: &[u8],
        found: Vec<harness::rules::Violation>,
        shared: &Shared,
    ) {
        for v in found {
            shared.findings.fetch_add(1, Ordering::Relaxed);
            let mut f = judge::of_violation(v);
            f.method = method.to_owned();
            f.request = request.to_vec();
            f.answer = answer.to_vec();
            self.add(f, Some(id));
        }
    }

    /// A request `id` with no answer: `detail` says what came instead.
    pub fn unanswered(&mut self, method: &str, id: u64, request: &[u8], detail: String) {
        self.stats.unanswered += 1;
        let mut f = judge::unanswered(self.revision, detail);
        f.method = method.to_owned();
        f.request = request.to_vec();
        self.add(f, Some(id));
    }

    /// A rule of the catalogue broken about request `id` of `method`.
    pub fn broke(
        &mut self,
        rule: harness::rules::RuleId,
        method: &str,
        id: Option<u64>,
        request: &[u8],
        answer: &[u8],
        detail: String,
    ) {
        let mut f = judge::of_rule(rule, self.revision, detail);
        f.method = method.to_owned();
        f.request = request.to_vec();
        f.answer = answer.to_vec();
        self.add(f, id);
    }

    /// Ends the session: what only the end decides.
    #[must_use]
    pub fn finish(mut self) -> (Stats, Findings) {
        self.flush();
        if let Some(watch) = self.watch.take() {
            let mut found = Vec::new();
            let (_, ending) = watch.finish(&mut |_, entry, findings| {
                for f in findings.drain(..) {
                    found.push((f, crate::watch::bytes(entry).to_vec()));
                }
            });
            for (f, bytes) in found {
                self.session_finding(&f, bytes);
            }
            for f in &ending.findings {
                self.session_finding(f, Vec::new());
            }
        }
        (self.stats, self.findings)
    }
}

/// The id of a response we sent (a non-negative integer), and whether the
/// frame is a response at all; `None` for anything else.
#[must_use]
pub fn response_id(frame: &harness::ir::Frame<'_>) -> Option<Option<u64>> {
    use harness::ir::{Frame, Message};
    match frame {
        Frame::Single(m @ (Message::Success(_) | Message::Error(_))) => {
            Some(m.id().and_then(|id| match id {
                harness::ir::Id::Number(n) => n.parse::<u64>().ok(),
                _ => None,
            }))
        }
        _ => None,
    }
}

/// The `notifications/cancelled` a sender SHOULD send for a request whose
/// time ran out (MCP basic/lifecycle §Timeouts).
#[must_use]
pub fn cancelled(id: u64) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": id, "reason": "wirecheck load: no answer within --timeout"},
    }))
    .unwrap_or_default()
}

/// The request that opens a session, id 0, and its method: `initialize`
/// (2024-11-05 to 2025-11-25), or 2026-07-28's `server/discover`, whose
/// `_meta` ([`meta`]) every later request carries too (basic/index: the
/// protocol version, client info and capabilities on every request).
#[must_use]
pub fn opening(revision: Revision) -> (&'static str, Vec<u8>) {
    match meta(revision) {
        Some(meta) => (
            "server/discover",
            serde_json::to_vec(&serde_json::json!({
                "jsonrpc": "2.0",
                "id": 0,
                "method": "server/discover",
                "params": {"_meta": meta},
            }))
            .unwrap_or_default(),
        ),
        None => ("initialize", initialize(revision)),
    }
}

/// The `_meta` every request of a session-free revision (2026-07-28)
/// carries; `None` for the revisions with an `initialize` handshake.
#[must_use]
pub fn meta(revision: Revision) -> Option<serde_json::Value> {
    (revision >= Revision::Mcp2026_07_28)
        .then(|| serde_json::Value::Object(crate::opening::discover_meta(revision)))
}

/// `calls` as `revision` sends them: with its per-request `_meta`, and
/// without `ping`, which 2026-07-28 no longer has.
///
/// # Errors
/// Nothing is left to send.
pub fn for_revision(calls: Vec<plan::Call>, revision: Revision) -> Result<Vec<plan::Call>, String> {
    let Some(meta) = meta(revision) else {
        return Ok(calls);
    };
    let calls: Vec<plan::Call> = calls
        .into_iter()
        .filter(|c| c.method != "ping")
        .map(|c| c.with_meta(&meta))
        .collect();
    if calls.is_empty() {
        return Err(format!(
            "{} has no `ping`, and the server declares no list to ask for: nothing to send under load",
            revision.name()
        ));
    }
    Ok(calls)
}

/// The `initialize` request, id 0: every session starts with the same ids.
#[must_use]
pub fn initialize(revision: Revision) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": crate::opening::initialize_params(revision),
    }))
    .unwrap_or_default()
}

/// `notifications/initialized`.
pub const INITIALIZED: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// The result of the answer to the opening request `method` (`initialize`,
/// or 2026-07-28's `server/discover`), or why there is none.
///
/// # Errors
/// The answer is an error, or its result is not an object.
pub fn handshake_result(method: &str, answer: &[u8]) -> Result<serde_json::Value, String> {
    let value: serde_json::Value = serde_json::from_slice(answer).map_err(|e| {
        format!(
            "the `{method}` answer is not JSON ({e}): {}",
            crate::report::text::printable(&answer[..answer.len().min(200)])
        )
    })?;
    if let Some(error) = value.get("error") {
        return Err(format!("`{method}` was refused: {error}"));
    }
    match value.get("result") {
        Some(r) if r.is_object() => Ok(r.clone()),
        _ => Err(format!("the `{method}` answer has no result object")),
    }
}

/// Runs the load as `config` asks; `progress` is called about every two
/// seconds with the answers and findings so far. Returns the merged numbers
/// and findings, and why some session could not run, if one could not.
pub async fn run(
    config: &Config,
    stop: Arc<AtomicBool>,
    progress: &mut (dyn FnMut(u64, u64, Duration) + Send),
) -> (Stats, Findings, Option<String>) {
    let shared = Arc::new(Shared::new(config, stop));
    let started = Instant::now();
    let mut sessions = tokio::task::JoinSet::new();
    for index in 0..config.sessions.max(1) {
        let config = config.clone();
        let shared = Arc::clone(&shared);
        sessions.spawn(async move {
            match &config.target {
                Target::Stdio(command) => stdio::session(&config, command, index, &shared).await,
                Target::Http { url, .. } => http::session(&config, url, index, &shared).await,
            }
        });
    }
    let mut stats = Stats::default();
    let mut findings = Findings::default();
    let mut trouble = None;
    let mut tick = tokio::time::interval(Duration::from_secs(2));
    tick.tick().await;
    loop {
        tokio::select! {
            joined = sessions.join_next() => match joined {
                None => break,
                Some(Ok(Ok((s, f)))) => {
                    stats.merge(s);
                    findings.merge(f);
                }
                Some(Ok(Err(why))) => {
                    trouble.get_or_insert(why);
                }
                Some(Err(e)) => {
                    trouble.get_or_insert(format!("a session ended abnormally: {e}"));
                }
            },
            _ = tick.tick() => progress(
                shared.answered.load(Ordering::Relaxed),
                shared.findings.load(Ordering::Relaxed),
                started.elapsed(),
            ),
        }
    }
    stats.interrupted |= shared.stopped();
    (stats, findings, trouble)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One session, one request, judged, to an address nothing answers:
    /// the tests' starting point, each changing what it needs.
    pub(super) fn config() -> Config {
        Config {
            target: Target::streamable("http://127.0.0.1:1/mcp"),
            revision: Revision::Mcp2025_11_25,
            sessions: 1,
            concurrency: 1,
            duration: None,
            requests: Some(1),
            timeout: Duration::from_secs(1),
            tools: Vec::new(),
            judge: true,
            limits: crate::transport::Limits::default(),
            stop_at: None,
            only: Vec::new(),
            bearer: None,
            http: crate::transport::http::HttpOptions::default(),
        }
    }

    /// One scripted session: the handshake, then each `(call, answer)`
    /// with `{id}` in the answer replaced by the request's id, through a
    /// book that defers and remembers (`memo`) or one that feeds every frame
    /// as it comes. Returns (rule, method, count) per finding, and how many
    /// answers were recalled.
    fn scripted(memo: bool, script: &[(usize, &str)]) -> (Vec<(String, String, u64)>, u64) {
        let config = config();
        let shared = Shared::new(&config, Arc::default());
        let mut book = Book::new(&config, 0, true);
        book.frame(Direction::ClientToServer, &initialize(config.revision));
        book.frame(
            Direction::ServerToClient,
            br#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"prompts":{}},"serverInfo":{"name":"t","version":"0"}}}"#,
        );
        book.frame(Direction::ClientToServer, INITIALIZED);
        let calls = plan::mix(
            &[
                ("tools/list".to_owned(), serde_json::json!({"tools": []})),
                (
                    "prompts/list".to_owned(),
                    serde_json::json!({"prompts": [{"name": "p"}]}),
                ),
            ],
            &[],
        );
        if memo {
            book.load(&calls);
        }
        for (n, (call, answer)) in script.iter().enumerate() {
            let id = Ids::SPAN + n as u64;
            let request = calls[*call].frame(id);
            book.request(id, *call, &request);
            if answer.is_empty() {
                continue; // never answered
            }
            let answer = answer.replace("{id}", &id.to_string());
            let reply = harness::lift(answer.as_bytes()).unwrap();
            let method = (calls[*call].method.as_str(), *call);
            let took = Duration::from_micros(5);
            book.answered(
                method,
                id,
                &request,
                (answer.as_bytes(), &reply),
                took,
                &shared,
            );
        }
        let (stats, findings) = book.finish();
        let found = findings
            .iter()
            .map(|f| (f.rule.to_string(), f.method.clone(), f.count))
            .collect();
        (found, stats.recalled)
    }

    /// The memo changes how often the rules run, never what they say: a
    /// tool list that changes without `list_changed` and changes back, a
    /// crossed `ping`, a prompt got after its list, a notification between,
    /// a request left unanswered, a prompt got after its list changed.
    #[test]
    fn remembered_verdicts_are_the_verdicts_of_judging_in_full() {
        let (ping, tools, prompts, get) = (0, 1, 2, 3);
        let a = r#"{"jsonrpc":"2.0","id":{id},"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}}"#;
        let b = r#"{"jsonrpc":"2.0","id":{id},"result":{"tools":[{"name":"b","inputSchema":{"type":"object"}}]}}"#;
        let empty = r#"{"jsonrpc":"2.0","id":{id},"result":{}}"#;
        let listed = r#"{"jsonrpc":"2.0","id":{id},"result":{"prompts":[{"name":"p"}]}}"#;
        let got = r#"{"jsonrpc":"2.0","id":{id},"result":{"messages":[]}}"#;
        let script = [
            (ping, empty),
            (tools, a),
            (ping, empty),
            (tools, a),
            (prompts, listed),
            (get, got),
            (tools, a),
            (get, got),
            (tools, b), // changed, no notification: a SHOULD broken
            (tools, b),
            (ping, a),  // crossed: ping's answer is a tool list
            (tools, a), // changed back
            (tools, a),
            (ping, empty),
            (get, got),
            (get, ""), // never answered: left to the end
            (ping, empty),
            // The prompt list changes (no `listChanged` declared, so no
            // notification is owed) and no longer holds `p`: a result for
            // it is judged against the new list, not remembered.
            (
                prompts,
                r#"{"jsonrpc":"2.0","id":{id},"result":{"prompts":[]}}"#,
            ),
            (get, got),
        ];
        let (full, none) = scripted(false, &script);
        let (remembered, recalled) = scripted(true, &script);
        assert_eq!(none, 0, "nothing recalled without the memo");
        assert!(recalled >= 5, "the memo was used: {recalled}");
        assert_eq!(remembered, full);
        let rules: Vec<&str> = full.iter().map(|(r, _, _)| r.as_str()).collect();
        assert!(
            rules.contains(&"mcp.lists.changed-notification")
                && rules.contains(&"mcp.ping.respond"),
            "the script shows what it means to: {full:?}"
        );
        let changed = full
            .iter()
            .find(|(r, _, _)| r == "mcp.lists.changed-notification")
            .map(|f| f.2);
        assert_eq!(changed, Some(2), "changed, then changed back");
    }

    #[test]
    fn sessions_use_the_same_ids_at_the_same_time_and_never_one_twice() {
        let start = Instant::now();
        let (mut a, mut b) = (Ids::new(start), Ids::new(start));
        let first: Vec<u64> = (0..5).map(|_| a.take().0).collect();
        let (id, seq) = b.take();
        assert_eq!((id, seq), (first[0], 0), "one id in both sessions");
        assert!(first.windows(2).all(|w| w[0] < w[1]), "{first:?}");
        assert!(first[0] >= Ids::SPAN, "clear of the discovery's ids");
        assert!(a.issued(first[4]) && !a.issued(first[4] + 1) && !a.issued(3));
        // A session that stalled realigns at the next period.
        std::thread::sleep(Ids::PERIOD);
        let (x, y) = (a.take(), b.take());
        assert_eq!((x.0, x.1), (y.0, 0));
        assert!(x.0 > first[4]);
    }
}
