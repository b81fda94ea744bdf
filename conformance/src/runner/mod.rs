//! The runner behind `wirecheck run`: the golden vectors played against a
//! live peer over stdio or HTTP ([`Wire`]), judged with the library judge,
//! one [`Record`] each.
//!
//! Per revision: a fresh peer process, the handshake (negotiation is itself a
//! check), what the peer offers ([`fixtures::Catalogue`]), then every vector a
//! server receives under the revision, sent with [`Driver::probe`] so a silent
//! drop costs one ping round trip, not a timeout. Vectors are spread over
//! sessions so no request id repeats within one ([`plan`]). A peer that exits
//! or stops answering is reported and replaced by a fresh process for the
//! rest; a peer that never starts, or never completes a handshake under any
//! revision, is a [`RunError`] (exit 2).

pub mod batch;
pub mod case_probe;
pub mod fixtures;
pub mod http_answers;
pub mod http_judge;
pub mod negotiation;
pub mod plan;
pub mod reference;
pub mod sessions;
mod stdio_shutdown;
pub mod stdout_text;
pub mod trace;
pub mod wire;

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

use futures::StreamExt as _;
use harness::rules::{Level, RuleId, Violation};
use harness::{Direction, Outcome, Raw, Revision};
use serde_json::Value;

use crate::driver::{Class, Driver, DriverConfig, Handshake, HandshakeError, Live, WireKind};
use crate::judge::{self, Observed, Silence, Strictness};
use crate::report::{Check, Place, Record, Subject, WireFrame};
use crate::sync::lock;
use crate::transport::http::{JsonRpcHttpPeer, SsePeer, StreamableHttpPeer};
use crate::transport::stdio::{PeerCommand, StdioPeer};
pub use crate::transport::HttpKind;
use crate::transport::{Kind, Limits, Transport as _};
use crate::vectors::{Answer, Basis, Vector};
use fixtures::{Allowed, Catalogue};
use trace::Trace;
pub use wire::Wire;

/// Which revisions a run plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revisions {
    /// This one.
    Given(Revision),
    /// The one the peer answers at `initialize` (or `server/discover`).
    Auto,
    /// Every MCP revision the peer accepts; a declined one is not applicable.
    All,
}

/// Everything a run needs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The peer to start, once per session.
    pub peer: Peer,
    /// Which revisions to play (ignored under `jsonrpc`).
    pub revisions: Revisions,
    /// Plain JSON-RPC 2.0 (`--profile jsonrpc-2.0`): no handshake, the
    /// `jsonrpc-2.0/` vectors.
    pub jsonrpc: bool,
    /// How the driver waits.
    pub driver: DriverConfig,
    /// The transport's bounds.
    pub limits: Limits,
    /// How long a peer gets to exit after its input closes, and again after SIGTERM.
    pub shutdown_grace: Duration,
    /// The tools the user allows to be called.
    pub allowed: Allowed,
    /// How conventions weigh (`--strict`: a departure is a warning).
    pub strictness: Strictness,
    /// Where each live session is written as a transcript (`--transcripts`).
    pub transcripts: Option<std::path::PathBuf>,
    /// `--auth`: the server is an OAuth-protected resource (Streamable HTTP).
    pub auth: Option<Auth>,
}

/// `--auth`: what the run learns of the server's authorization before its
/// sessions (`crate::auth::client::prepare`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Auth {
    /// `--auth-issuer URL`: the authorization server the server trusts, when
    /// its Protected Resource Metadata does not say (or should not be read).
    pub issuer: Option<String>,
    /// The issuer found and the tokens minted, once prepared.
    pub ready: Option<crate::auth::client::Ready>,
}

impl Config {
    /// `Authorization: Bearer <valid token>` when the run is prepared with one.
    #[must_use]
    pub fn bearer(&self) -> Option<reqwest::header::HeaderValue> {
        let ready = self.auth.as_ref()?.ready.as_ref()?;
        reqwest::header::HeaderValue::from_str(&format!("Bearer {}", ready.tokens.valid)).ok()
    }
}

/// The peer a run starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Peer {
    /// The user's command (`--stdio`), the same for every revision.
    Command(PeerCommand),
    /// The reference peer, this program's `serve`: started at exactly the
    /// revision under test, because the vectors describe a server of one
    /// revision (a server that also speaks 2025-11-25 may rightly answer a
    /// 2026-07-28 `initialize`, which a 2026-only server must refuse).
    Reference {
        /// This program.
        program: std::ffi::OsString,
    },
    /// A server already listening (`--http URL`), one HTTP session (or SSE
    /// stream) per runner session.
    Http {
        /// The endpoint: the MCP endpoint, the SSE stream, or the JSON-RPC URL.
        url: String,
        /// Which HTTP transport it speaks.
        kind: HttpKind,
    },
    /// The reference peer over HTTP (`--reference-http`): `serve --http
    /// 127.0.0.1:0` started once per revision, as [`Peer::Reference`] is.
    ReferenceHttp {
        /// This program.
        program: std::ffi::OsString,
        /// Which of its HTTP transports to drive.
        kind: HttpKind,
    },
}

impl Peer {
    /// What to run for a session under `revision` (`None`: any, negotiated);
    /// `None` for a peer reached over HTTP, which is not a process per session.
    #[must_use]
    pub fn command(&self, revision: Option<Revision>) -> Option<PeerCommand> {
        Some(match self {
            Peer::Command(c) => c.clone(),
            Peer::Http { .. } | Peer::ReferenceHttp { .. } => return None,
            Peer::Reference { program } => {
                let mut args = vec!["serve".into()];
                match revision {
                    Some(Revision::JsonRpc2) => {
                        args.extend(["--profile".into(), "jsonrpc-2.0".into()])
                    }
                    Some(r) => args.extend(["--revision".into(), r.name().into()]),
                    None => {}
                }
                PeerCommand {
                    program: program.clone(),
                    args,
                }
            }
        })
    }

    /// The transport the run speaks.
    #[must_use]
    pub fn kind(&self) -> Kind {
        match self {
            Peer::Command(_) | Peer::Reference { .. } => Kind::Stdio,
            Peer::Http { kind, .. } | Peer::ReferenceHttp { kind, .. } => Kind::Http(*kind),
        }
    }

    /// The `transport` every record of the run names.
    #[must_use]
    pub fn transport(&self) -> &'static str {
        self.kind().name()
    }
}

/// Why the run could not be made (exit 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// The peer command does not start.
    Start(String),
    /// No handshake completed under any revision tried.
    Handshake(String),
    /// A fresh peer process said nothing within the start-up timeout: it
    /// never finished starting, which is no protocol failure.
    Startup(String),
    /// Under `--profile jsonrpc-2.0` the peer never produced one JSON-RPC
    /// response (an HTML page on every POST, say): nothing it said can be
    /// judged as JSON-RPC, so no check passes or fails.
    NoJsonRpc(String),
    /// A session's transcript could not be written (`--transcripts`).
    Transcripts(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Start(e) => write!(f, "the peer does not start: {e}"),
            RunError::Handshake(e) => write!(f, "the peer never completed a handshake: {e}"),
            RunError::Startup(e) => write!(f, "the peer never finished starting: {e}"),
            RunError::NoJsonRpc(e) => {
                write!(f, "the peer never produced one JSON-RPC response: {e}")
            }
            RunError::Transcripts(e) => write!(f, "--transcripts: {e}"),
        }
    }
}

impl std::error::Error for RunError {}

/// How many sessions (peer processes) of one revision run at once.
const SESSIONS_AT_ONCE: usize = 4;

/// Called after each check: how many are done of how many planned, and the
/// check's record.
pub type Progress<'a> = dyn FnMut(usize, usize, &Record) + 'a;

// The runner's own checks name rules of the one catalogue.
const RULE_NEGOTIATION: RuleId = RuleId::McpLifecycleVersionServer;
const RULE_HANDSHAKE: RuleId = RuleId::McpLifecycleServerResponds;
/// Not a rule: a stdio server may exit (MCP basic/lifecycle §Shutdown), so
/// its exit is recorded as a warning for a person to read, never as a
/// violation; the requests it left unanswered fail in their own records.
const CHECK_EXITED: &str = "stdio.peer-exited";

/// Whether `vector` is a probe: a frame a server receives, with the answer a
/// conforming server gives.
#[must_use]
pub fn is_probe(vector: &Vector) -> bool {
    vector.profile.direction == Direction::ClientToServer && vector.answer.is_some()
}

/// Plays `vectors` against the peer of `config`.
///
/// # Errors
/// The peer does not start, or completes no handshake.
pub async fn run(
    config: &Config,
    vectors: &[Vector],
    progress: &mut Progress<'_>,
) -> Result<Vec<Record>, RunError> {
    let prepared;
    let config = match (&config.auth, &config.peer) {
        (
            Some(auth),
            Peer::Http {
                url,
                kind: HttpKind::Streamable,
            },
        ) if auth.ready.is_none() => {
            let revision = match config.revisions {
                Revisions::Given(r) => r,
                Revisions::All | Revisions::Auto => Revision::Mcp2025_11_25,
            };
            let ready = crate::auth::client::prepare(
                url,
                auth.issuer.as_deref(),
                revision,
                config.limits.write_timeout,
            )
            .await
            .map_err(RunError::Start)?;
            let mut with = config.clone();
            with.auth = Some(Auth {
                issuer: auth.issuer.clone(),
                ready: Some(ready),
            });
            prepared = with;
            &prepared
        }
        _ => config,
    };
    let mut runner = Runner {
        config,
        records: Vec::new(),
        progress,
        done: 0,
        total: 0,
    };
    if config.jsonrpc {
        let probes = probes_of(vectors, Revision::JsonRpc2);
        runner.total = probes.len() + 1;
        runner.revision(Revision::JsonRpc2, &probes).await?;
        runner.id_reused_after_answer().await?;
        return Ok(runner.records);
    }
    let revisions = match config.revisions {
        Revisions::Given(r) => vec![r],
        Revisions::All => Revision::MCP.to_vec(),
        Revisions::Auto => vec![runner.auto().await?],
    };
    runner.total = revisions
        .iter()
        .map(|r| probes_of(vectors, *r).len() + 1)
        .sum();
    let mut answered: BTreeMap<Revision, Accepted> = BTreeMap::new();
    let mut last_error = None;
    for revision in &revisions {
        let probes = probes_of(vectors, *revision);
        match runner.revision(*revision, &probes).await {
            Ok(accepted) => {
                answered.insert(*revision, accepted);
            }
            Err(RunError::Handshake(e)) => last_error = Some(e),
            Err(e) => return Err(e),
        }
    }
    if answered.is_empty() {
        return Err(RunError::Handshake(
            last_error.unwrap_or_else(|| "no revision tried".into()),
        ));
    }
    runner.cross_check(&answered);
    if config.revisions == Revisions::All {
        runner.latest().await?;
    }
    Ok(runner.records)
}

fn probes_of(vectors: &[Vector], revision: Revision) -> Vec<&Vector> {
    vectors
        .iter()
        .filter(|v| v.profile.revision == revision && is_probe(v))
        .collect()
}

/// What the peer did with a revision asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Accepted {
    /// It took it.
    Yes,
    /// It answered with this other version instead.
    Other(String),
    /// It refused the handshake, or broke the negotiation rule.
    No,
}

struct Runner<'c, 'p, 'q> {
    config: &'c Config,
    records: Vec<Record>,
    progress: &'p mut Progress<'q>,
    done: usize,
    total: usize,
}

/// A live session and what its handshake said.
struct Session {
    driver: Driver<Wire>,
    handshake: Option<Handshake>,
}

/// The least a stdio process is given to exit on EOF where the revision
/// judges it: a Python SDK server exits in 0.11 to 0.17 s by hand, but was
/// seen still running after 500 ms on a loaded 2-core machine (issue 28's
/// zoo, mcp-server-time and mcp-server-git).
const EXIT_ON_EOF_GRACE: Duration = Duration::from_secs(2);

/// Starting, ending and probing peer processes: shared by sessions that run
/// at the same time, so it only reads the configuration.
#[derive(Clone, Copy)]
struct Peers<'c> {
    config: &'c Config,
    /// The HTTP endpoint, for a peer reached over HTTP.
    url: Option<&'c str>,
    /// What each closed HTTP connection saw, for the transport judge.
    traces: &'c Mutex<Vec<Trace>>,
    /// Each closed session's wire log, for the session judge.
    logs: &'c Mutex<Vec<Vec<crate::driver::WireEvent>>>,
    /// How long a closed stdio process is given to exit before a signal.
    exit_grace: Duration,
}

/// What the sessions of one revision leave behind for the judges after
/// them: each HTTP connection's trace, each session's wire log.
#[derive(Default)]
struct Gathered {
    traces: Mutex<Vec<Trace>>,
    logs: Mutex<Vec<Vec<crate::driver::WireEvent>>>,
}

impl<'c> Peers<'c> {
    /// Peers of `config` at `url`, leaving what they saw in `gathered`.
    fn over(config: &'c Config, url: Option<&'c str>, gathered: &'c Gathered) -> Self {
        Peers {
            config,
            url,
            traces: &gathered.traces,
            logs: &gathered.logs,
            exit_grace: config.shutdown_grace,
        }
    }

    /// [`Peers::over`] for the sessions of `revision`: where the revision
    /// judges how promptly a process exits on EOF (2026-07-28 stdio
    /// §Shutdown, SHOULD "exit promptly"), the grace is at least
    /// [`EXIT_ON_EOF_GRACE`], so a loaded machine's scheduling is not taken
    /// for a slow exit; a process that exits costs nothing of it.
    fn for_revision(
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

/// Where a revision's sessions connect: the HTTP URL, and the reference
/// server behind it when the runner started one (kept alive by holding it).
struct Endpoint {
    url: Option<String>,
    _server: Option<reference::Server>,
}

impl Runner<'_, '_, '_> {
    /// The endpoint for sessions under `revision` (`None`: negotiated).
    async fn endpoint(&self, revision: Option<Revision>) -> Result<Endpoint, RunError> {
        Ok(match &self.config.peer {
            Peer::Command(_) | Peer::Reference { .. } => Endpoint {
                url: None,
                _server: None,
            },
            Peer::Http { url, .. } => Endpoint {
                url: Some(url.clone()),
                _server: None,
            },
            Peer::ReferenceHttp { program, kind } => {
                let server = reference::start(program, revision)
                    .await
                    .map_err(RunError::Start)?;
                Endpoint {
                    url: Some(format!("{}{}", server.base, kind.reference_path())),
                    _server: Some(server),
                }
            }
        })
    }

    fn push(&mut self, record: Record) {
        self.done += 1;
        (self.progress)(self.done, self.total, &record);
        self.records.push(record);
    }

    /// Plain JSON-RPC 2.0 (issue 27, divergence 5): a request whose id was
    /// used by a request already answered is still a request. JSON-RPC 2.0
    /// forbids no such reuse (§4 asks only for a String, Number or Null id;
    /// MCP's "MUST NOT have been previously used" is MCP's own), and §5 "When
    /// a rpc call is made, the Server MUST reply with a Response". The same
    /// request is sent twice on one fresh peer, the second after the first
    /// was answered; a server that drops the second fails.
    async fn id_reused_after_answer(&mut self) -> Result<(), RunError> {
        let revision = Revision::JsonRpc2;
        let endpoint = self.endpoint(Some(revision)).await?;
        let gathered = Gathered::default();
        let peers = Peers::over(self.config, endpoint.url.as_deref(), &gathered);
        let frame = REUSE_PROBE.as_bytes();
        let transport = self.config.peer.transport();
        let answered = |report: &crate::driver::ProbeReport| {
            report.frames.iter().any(|r| {
                r.class == Class::ProbeAnswer
                    && matches!(
                        harness::lift(&r.bytes),
                        Ok(harness::Frame::Single(m)) if m.id().is_some_and(|id| id.raw() == REUSE_ID)
                    )
            })
        };
        let session = match peers.open(revision, Some(revision)).await? {
            Ok(session) => session,
            Err((driver, _)) => {
                peers.close(driver).await;
                return Ok(());
            }
        };
        let mut driver = session.driver;
        let first = driver.probe_with(frame, true, true).await;
        let outcome = if !answered(&first) {
            Outcome::NotObserved {
                why: "the first request got no response, so its id was never free to reuse".into(),
            }
        } else {
            let second = driver.probe_with(frame, true, true).await;
            match (&second.live, answered(&second)) {
                (_, true) => Outcome::Pass,
                (Live::Answered(_), false) => Outcome::Fail,
                _ => Outcome::NotObserved {
                    why: "the peer stopped answering after the second request".into(),
                },
            }
        };
        let wire = wire_since(&driver, 0);
        peers.close(driver).await;
        let mut record = Record::new(
            Place {
                vector: Some(REUSE_RECORD.into()),
                revision: Some(revision),
                transport: Some(transport.into()),
                ..Place::default()
            },
            Subject::Frame(frame.to_vec()),
            outcome.clone(),
        );
        let rule = RuleId::JsonrpcResponseRequired;
        record.check = Some(Check {
            rule: rule.as_str().into(),
            level: Level::Must,
            spec: rule.info().cite(revision).to_owned(),
        });
        record.violations = Some(Vec::new());
        if outcome == Outcome::Fail {
            record.notes.push(format!(
                "the request was sent again with id {REUSE_ID} after its first answer, and got no response: JSON-RPC 2.0 forbids no reuse of an answered id, and §5 says the Server MUST reply to a call"
            ));
        }
        record.wire = wire;
        self.push(record);
        Ok(())
    }
}

/// The id [`Runner::id_reused_after_answer`] sends twice.
const REUSE_ID: &str = "\"wirecheck-reuse\"";
/// Its request: a method no server is likely to have, so any server answers
/// it (an error -32601 is a Response as good as a result).
const REUSE_PROBE: &str =
    r#"{"jsonrpc":"2.0","id":"wirecheck-reuse","method":"wirecheck/id-reuse"}"#;
/// The record's name.
const REUSE_RECORD: &str = "run/jsonrpc-2.0/id-reused-after-answer";

impl Peers<'_> {
    /// A fresh connection: a process over stdio, a new HTTP session, or a new
    /// HTTP+SSE stream.
    async fn spawn(&self, revision: Option<Revision>) -> Result<Driver<Wire>, RunError> {
        let limits = self.config.limits;
        let start = |e: &dyn std::fmt::Display| RunError::Start(e.to_string());
        let wire = match (&self.config.peer, self.url) {
            (Peer::Http { kind, .. } | Peer::ReferenceHttp { kind, .. }, Some(url)) => match kind {
                HttpKind::Streamable => {
                    let mut peer =
                        StreamableHttpPeer::connect(url, limits).map_err(|e| start(&e))?;
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
                    Wire::Streamable(peer)
                }
                HttpKind::Sse => {
                    Wire::Sse(SsePeer::connect(url, limits).await.map_err(|e| start(&e))?)
                }
                HttpKind::JsonRpc => {
                    Wire::JsonRpc(JsonRpcHttpPeer::connect(url, limits).map_err(|e| start(&e))?)
                }
            },
            (peer, _) => {
                let command = peer
                    .command(revision)
                    .ok_or_else(|| RunError::Start("an HTTP peer without a URL".into()))?;
                Wire::Stdio(StdioPeer::spawn(&command, limits).map_err(|e| start(&e))?)
            }
        };
        Ok(Driver::new(wire, self.config.driver.clone()))
    }

    /// Ends a connection, keeping what HTTP showed for the transport judge.
    async fn close(&self, driver: Driver<Wire>) {
        let never_heard = driver.transport().starts_fresh() && !driver.heard();
        let (wire, log) = driver.into_parts();
        let mut trace = Trace::of(&wire);
        trace.stdio_never_heard = never_heard;
        (trace.delete_status, trace.stdio_ended_by) = wire.close_reporting(self.exit_grace).await;
        lock(self.traces).push(trace);
        lock(self.logs).push(log);
    }

    /// A fresh process with its handshake under `revision` done, or why the
    /// handshake failed; `serving` is the revision the process is started for.
    async fn open(
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
    async fn session(
        self,
        revision: Revision,
        session: plan::Session,
        playable: &[&Vector],
        reuse: Option<Driver<Wire>>,
    ) -> Result<Vec<Record>, RunError> {
        let mut records = Vec::new();
        let vectors: Vec<&Vector> = session.vectors.iter().map(|i| playable[*i]).collect();
        if session.opening {
            // The vector's own frame opens the session: no handshake first.
            let driver = self.spawn(Some(revision)).await?;
            if let Some(d) = self
                .play(driver, vectors[0], revision, &mut records)
                .await?
            {
                self.close(d).await;
            }
            return Ok(records);
        }
        let mut driver = match reuse {
            Some(d) => Some(d),
            None => self.reopen(revision).await?,
        };
        for vector in vectors {
            let Some(d) = driver.take() else {
                records.push(vector_record(
                    vector,
                    revision,
                    Outcome::NotObserved {
                        why: "the peer could not be restarted after it failed".into(),
                    },
                    self.config.peer.transport(),
                ));
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

    /// A fresh process after a crash, or `None` when its handshake fails.
    async fn reopen(&self, revision: Revision) -> Result<Option<Driver<Wire>>, RunError> {
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
    async fn answers_alone(&self, revision: Revision) -> Result<bool, RunError> {
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
    async fn play(
        &self,
        mut driver: Driver<Wire>,
        vector: &Vector,
        revision: Revision,
        records: &mut Vec<Record>,
    ) -> Result<Option<Driver<Wire>>, RunError> {
        let before = driver.log().len();
        let facts_before = driver.transport().http_facts().len();
        let findings_before = driver.transport().http_findings().len();
        let expects_answer = !matches!(vector.answer, Some(Answer::Nothing) | None);
        // Over Streamable HTTP a handshake frame may open no session (it is
        // refused), and then no ping can follow it: the end of its own
        // exchange is the answer.
        let liveness =
            !(matches!(driver.transport(), Wire::Streamable(_)) && plan::is_opening(vector));
        let report = driver
            .probe_with(&vector.frame, expects_answer, liveness)
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
        // Observe: what the exchange showed, read before the judge gives a
        // verdict (over HTTP, how its answer is read; and whether what was
        // seen decides the verdict instead).
        let seen = observe(
            &driver,
            vector,
            revision,
            &report,
            facts_before,
            expects_answer,
        );
        // Judge.
        let judgement = judge::reply_with(vector, &seen.observed, self.config.strictness);
        // Record.
        let wire = wire_since(&driver, before);
        let transport = self.config.peer.transport();
        let findings = driver.transport().http_findings();
        records.push(answer_record(
            vector,
            revision,
            transport,
            seen,
            &judgement,
            slow,
            findings.get(findings_before..).unwrap_or_default(),
            wire.clone(),
        ));

        // The server MAY shut down on its own (MCP 2025-11-25, basic/lifecycle,
        // "Shutdown", stdio), so an exit is a warning here; a request it left
        // unanswered has already failed in its own record. A peer that stops
        // answering the ping breaks a MUST (basic/utilities/ping).
        let failure = match &report.live {
            Live::Answered(_) => return Ok(Some(driver)),
            Live::Closed { status, leaky } if self.config.peer.kind() == Kind::Stdio => (
                None,
                Level::May,
                Outcome::Warning,
                "MCP basic/lifecycle §Shutdown (stdio): the server may close its output and exit",
                format!(
                    "the peer's output ended after this frame ({}{}); a fresh process runs the rest",
                    status.as_deref().unwrap_or("still running"),
                    if *leaky { ", a child holding stdout" } else { "" }
                ),
            ),
            // Over HTTP only the HTTP+SSE stream can end; the server may
            // close it too (its session ends), so this is a warning as well.
            Live::Closed { .. } => (
                None,
                Level::May,
                Outcome::Warning,
                "MCP 2024-11-05 basic/transports §HTTP with SSE: the server's SSE stream carries every answer",
                "the server ended the SSE stream after this frame; a fresh stream runs the rest".to_owned(),
            ),
            Live::Unresponsive | Live::SendFailed(_) => (
                Some(crate::driver::liveness_rule(revision)),
                Level::Must,
                Outcome::Fail,
                crate::driver::liveness_rule(revision).info().cite(revision),
                "the peer stopped answering the liveness request after this frame; a fresh process runs the rest".to_owned(),
            ),
        };
        let tail = driver.transport().stderr_tail();
        self.close(driver).await;
        let (rule, level, outcome, spec, mut message) = failure;
        if !tail.is_empty() {
            message.push_str("; stderr ends: ");
            message.push_str(&String::from_utf8_lossy(&tail));
        }
        let mut crash = Record::new(
            place(vector, revision, transport),
            Subject::Frame(vector.frame.clone()),
            outcome,
        );
        crash.check = Some(Check {
            rule: rule.map_or(CHECK_EXITED, RuleId::as_str).into(),
            level,
            spec: spec.into(),
        });
        crash.violations = Some(match rule {
            Some(rule) => vec![Violation {
                rule,
                level,
                spec,
                pointer: String::new(),
                message,
            }],
            None => {
                crash.notes.push(message);
                Vec::new()
            }
        });
        crash.wire = wire;
        records.push(crash);
        Ok(None)
    }
}

impl Runner<'_, '_, '_> {
    /// `--revision auto`: the version the peer answers to the newest
    /// `initialize` revision, or 2026-07-28 when it only speaks `server/discover`.
    async fn auto(&mut self) -> Result<Revision, RunError> {
        let mut why = String::new();
        let endpoint = self.endpoint(None).await?;
        let gathered = Gathered::default();
        let peers = Peers::over(self.config, endpoint.url.as_deref(), &gathered);
        for ask in [Revision::Mcp2025_11_25, Revision::Mcp2026_07_28] {
            let (driver, answer) = match peers.open(ask, None).await? {
                Ok(s) => {
                    let v = s.handshake.as_ref().and_then(|h| {
                        if h.method == "initialize" {
                            h.protocol_version.clone()
                        } else {
                            supported(h)
                                .contains(&ask.name().to_owned())
                                .then(|| ask.name().into())
                        }
                    });
                    (s.driver, v)
                }
                Err((mut driver, e)) => {
                    let because = unanswered_because(&mut driver, &e).await;
                    if let Some(never) = never_started(&driver, &e, self.config) {
                        peers.close(driver).await;
                        return Err(RunError::Startup(format!("{never}{because}")));
                    }
                    why = format!("{e}{because}");
                    (driver, None)
                }
            };
            peers.close(driver).await;
            if let Some(r) = answer
                .and_then(|v| v.parse::<Revision>().ok())
                .filter(|r| r.is_mcp())
            {
                return Ok(r);
            }
        }
        Err(RunError::Handshake(why))
    }

    /// Plays one revision's probes.
    async fn revision(
        &mut self,
        revision: Revision,
        probes: &[&Vector],
    ) -> Result<Accepted, RunError> {
        let endpoint = self.endpoint(Some(revision)).await?;
        let gathered = Gathered::default();
        let peers = Peers::for_revision(self.config, endpoint.url.as_deref(), &gathered, revision);
        let first = match peers.open(revision, Some(revision)).await? {
            Ok(session) => session,
            Err((mut driver, e)) => {
                let because = unanswered_because(&mut driver, &e).await;
                if let Some(why) = never_started(&driver, &e, self.config) {
                    // A fresh process that answers the liveness request alone
                    // did start: the handshake request itself went unanswered
                    // (rust-mcp-filesystem drops `server/discover`), a failure
                    // of this revision (JSON-RPC 2.0 §5, "the Server MUST reply
                    // with a Response"), never "could not run" for the others.
                    if !peers.answers_alone(revision).await? {
                        peers.close(driver).await;
                        return Err(RunError::Startup(format!("{revision}: {why}{because}")));
                    }
                    self.handshake_failed(revision, &driver, &e);
                    peers.close(driver).await;
                    self.done += probes.len();
                    return Ok(Accepted::No);
                }
                let accepted = self.handshake_failed(revision, &driver, &e);
                peers.close(driver).await;
                self.done += probes.len();
                return match accepted {
                    Some(a) => Ok(a),
                    None => Err(RunError::Handshake(format!("{revision}: {e}{because}"))),
                };
            }
        };
        let mut first = Some(first);
        let slow = first
            .as_mut()
            .and_then(|s| s.driver.slow_start())
            .map(|d| slow_start_note(d, self.config));
        let accepted = match first.as_ref().and_then(|s| s.handshake.as_ref()) {
            Some(h) => self.negotiation(revision, h, first.as_ref().map(|s| &s.driver)),
            None => Accepted::Yes,
        };
        // The negotiation record is the first process's first answer.
        if let (Some(note), Some(record)) = (slow, self.records.last_mut()) {
            record.notes.push(note);
        }
        if accepted != Accepted::Yes {
            if let Some(s) = first.take() {
                peers.close(s.driver).await;
            }
            self.done += probes.len();
            return Ok(accepted);
        }
        let catalogue = match first.as_mut() {
            Some(s) => learn(&mut s.driver, s.handshake.as_ref(), self.config).await,
            None => Catalogue::default(),
        };
        // The case probes first: a server that ignores case answers them by
        // running the tool, so they go before the calls of the tools
        // themselves, after which a peer may be gone.
        let mut own = case_probe::probes(revision, &catalogue, &self.config.allowed);
        if let Some(why) = case_probe::unprobed(revision, &catalogue, &self.config.allowed) {
            let transport = self.config.peer.transport();
            let record = vector_record(
                &case_probe::record_vector(revision),
                revision,
                Outcome::NotObserved { why },
                transport,
            );
            self.push(record);
        }
        own.extend(fixtures::tool_probes(
            revision,
            &catalogue,
            &self.config.allowed,
        ));
        self.total += own.len();
        let mut as_is: Vec<&Vector> = Vec::new();
        let mut bound: Vec<Vector> = Vec::new();
        let transport = self.config.peer.transport();
        for vector in probes {
            let unfit = if self.config.peer.kind() == Kind::Stdio {
                stdio_unfit(vector)
            } else {
                None
            };
            let fit = match unfit {
                Some(why) => Err(why),
                None => fixtures::bind(vector, &catalogue, &self.config.allowed),
            };
            match fit {
                Err(why) => {
                    let record =
                        vector_record(vector, revision, Outcome::NotApplicable { why }, transport);
                    self.push(record);
                }
                Ok(None) => as_is.push(*vector),
                Ok(Some(v)) => bound.push(v),
            }
        }
        let playable: Vec<&Vector> = own.iter().chain(as_is).chain(bound.iter()).collect();
        // Vectors not about ids get fresh ones, so they need no session of
        // their own (each is a peer process, the run's main cost).
        let refreshed = plan::fresh_ids(&playable);
        let rewritten: BTreeMap<&str, String> = refreshed
            .iter()
            .filter_map(|r| {
                let (old, new) = r.rewritten.as_ref()?;
                let why = if revision.is_mcp() {
                    "a request id MUST NOT be reused within a session (MCP basic/index §Requests)"
                } else {
                    "an id used twice in a session would make its echo look like an answer given twice"
                };
                Some((
                    r.vector.id.as_str(),
                    format!(
                        "{}{new} instead of {old}: the vector is not about ids, and {why}",
                        crate::report::ID_REWRITE_NOTE
                    ),
                ))
            })
            .collect();
        let playable: Vec<&Vector> = refreshed.iter().map(|r| r.vector.as_ref()).collect();
        // The first session reuses the handshake's process; the rest start
        // their own. Sessions are independent processes, so up to
        // `SESSIONS_AT_ONCE` run at the same time (their records kept in
        // plan order); each waits mostly on its peer, not on a core.
        let mut first = first.map(|s| s.driver);
        let jobs: Vec<(plan::Session, Option<Driver<Wire>>)> = plan::pack(&playable)
            .into_iter()
            .map(|s| {
                let reuse = if s.opening { None } else { first.take() };
                (s, reuse)
            })
            .collect();
        let playable = &playable;
        let mut results = futures::stream::iter(
            jobs.into_iter()
                .map(|(session, reuse)| peers.session(revision, session, playable, reuse)),
        )
        .buffered(SESSIONS_AT_ONCE);
        while let Some(records) = results.next().await {
            for mut record in records? {
                let note = record
                    .place
                    .vector
                    .as_deref()
                    .and_then(|v| rewritten.get(v));
                record.notes.extend(note.cloned());
                self.push(record);
            }
        }
        drop(results);
        let logs = std::mem::take(&mut *lock(&gathered.logs));
        if revision == Revision::JsonRpc2 {
            if let Some(why) = no_jsonrpc_answer(&logs) {
                return Err(RunError::NoJsonRpc(why));
            }
        }
        self.judge_sessions(revision, &logs)?;
        if self.config.peer.kind() == Kind::Stdio && revision.is_mcp() {
            if let Some(record) = stdout_text::record(revision, &logs) {
                self.total += 1;
                self.push(record);
            }
        }
        if self.config.peer.kind() == Kind::Stdio {
            let traces = lock(&gathered.traces);
            if let Some(record) = stdio_shutdown::stdio_shutdown(
                revision,
                &traces,
                self.config.shutdown_grace.max(EXIT_ON_EOF_GRACE),
            ) {
                self.total += 1;
                self.push(record);
            }
        }
        if let (Some(url), Peer::Http { kind, .. } | Peer::ReferenceHttp { kind, .. }) =
            (peers.url, &self.config.peer)
        {
            let traces = std::mem::take(&mut *lock(&gathered.traces));
            let records = http_judge::judge(revision, *kind, url, &traces, self.config).await;
            self.total += records.len();
            for record in records {
                self.push(record);
            }
        }
        Ok(Accepted::Yes)
    }

    /// The session judge over every session `revision` played (see
    /// [`sessions`]), each written as a transcript under `--transcripts`.
    fn judge_sessions(
        &mut self,
        revision: Revision,
        logs: &[Vec<crate::driver::WireEvent>],
    ) -> Result<(), RunError> {
        let dir = self.config.transcripts.as_deref();
        let transport = self.config.peer.transport();
        for (n, log) in logs.iter().enumerate() {
            let judged = sessions::judge_log(revision, n, log, dir, transport)
                .map_err(RunError::Transcripts)?;
            self.total += judged.records.len();
            for record in judged.records {
                self.push(record);
            }
        }
        Ok(())
    }

    /// The record of a handshake that did not complete: a refusal declines
    /// the revision (some servers answer an unsupported version with an
    /// error, as the spec's own lifecycle example shows); no answer at all is
    /// a failure. `None` when the handshake never completed.
    fn handshake_failed(
        &mut self,
        revision: Revision,
        driver: &Driver<Wire>,
        e: &HandshakeError,
    ) -> Option<Accepted> {
        let answers: Vec<Vec<u8>> = driver
            .log()
            .iter()
            .filter(|e| e.from == Direction::ServerToClient)
            .filter_map(|e| match &e.kind {
                WireKind::Frame(bytes) => Some(bytes.clone()),
                _ => None,
            })
            .collect();
        let legacy = http_answers::legacy_refusal(driver.transport(), revision, &answers);
        let (outcome, accepted, subject) = match (legacy, e) {
            (Some(why), _) => (
                Outcome::NotApplicable { why },
                Some(Accepted::No),
                answers.concat(),
            ),
            (None, HandshakeError::Refused { answer, why }) => (
                Outcome::NotApplicable {
                    why: format!("the peer declined {revision}: {why}"),
                },
                Some(Accepted::No),
                answer.clone(),
            ),
            (None, other) => (Outcome::Fail, None, other.to_string().into_bytes()),
        };
        let transport = self.config.peer.transport();
        // An unanswered handshake request breaks JSON-RPC 2.0 §5 ("the Server
        // MUST reply with a Response") whatever the revision; the lifecycle's
        // "respond with its own capabilities" is about the answer that came.
        let unanswered = matches!(
            e,
            HandshakeError::Request(crate::driver::RequestError::TimedOut)
        );
        let rule = if unanswered {
            RuleId::JsonrpcResponseRequired
        } else {
            RULE_HANDSHAKE
        };
        let mut record = negotiation_record(revision, outcome, subject, rule, transport);
        if accepted.is_none() {
            record.violations = Some(vec![Violation {
                rule,
                level: Level::Must,
                spec: rule.info().cite(revision),
                pointer: String::new(),
                message: e.to_string(),
            }]);
        }
        record.wire = wire_since(driver, 0);
        self.push(record);
        accepted
    }

    /// The negotiation check of a completed handshake (MCP 2025-11-25,
    /// basic/lifecycle, "Version Negotiation", MUST: "If the server supports
    /// the requested protocol version, it MUST respond with the same version.
    /// Otherwise, the server MUST respond with another protocol version it
    /// supports"; 2026-07-28, server/discover: `supportedVersions`).
    fn negotiation(
        &mut self,
        revision: Revision,
        handshake: &Handshake,
        driver: Option<&Driver<Wire>>,
    ) -> Accepted {
        let (outcome, accepted) = if handshake.method == "server/discover" {
            let versions = supported(handshake);
            if versions.is_empty() {
                (Outcome::Fail, Accepted::No)
            } else if versions.iter().any(|v| v == revision.name()) {
                (Outcome::Pass, Accepted::Yes)
            } else {
                (
                    Outcome::NotApplicable {
                        why: format!("the peer supports {versions:?}, not {revision}"),
                    },
                    Accepted::Other(versions[0].clone()),
                )
            }
        } else {
            match &handshake.protocol_version {
                Some(v) if v == revision.name() => (Outcome::Pass, Accepted::Yes),
                Some(v) => (
                    Outcome::NotApplicable {
                        why: format!(
                            "asked for {revision}, the peer answered {v}: it declined {revision}"
                        ),
                    },
                    Accepted::Other(v.clone()),
                ),
                None => (Outcome::Fail, Accepted::No),
            }
        };
        let mut record = negotiation_record(
            revision,
            outcome.clone(),
            handshake.answer.clone(),
            RULE_NEGOTIATION,
            self.config.peer.transport(),
        );
        let mut violations = harness::rules::validate(
            &handshake.answer,
            harness::Profile {
                revision,
                direction: Direction::ServerToClient,
            },
        );
        if outcome == Outcome::Fail {
            violations.push(Violation {
                rule: RULE_NEGOTIATION,
                level: Level::Must,
                spec: "MCP 2025-11-25, basic/lifecycle, Version Negotiation (MUST)",
                pointer: "/result/protocolVersion".into(),
                message: "the handshake answer names no protocol version".into(),
            });
        }
        if record.outcome == Outcome::Pass && violations.iter().any(|v| v.level.is_mandatory()) {
            record.outcome = Outcome::Fail;
        }
        record.violations = Some(violations);
        if let Some(d) = driver {
            record.wire = wire_since(d, 0);
        }
        self.push(record);
        accepted
    }

    /// Under `--revision all`: a peer that answered version V to another
    /// revision claimed to support V, so it MUST answer V when asked for V
    /// (basic/lifecycle, "Version Negotiation").
    fn cross_check(&mut self, answered: &BTreeMap<Revision, Accepted>) {
        for (asked, accepted) in answered {
            let Accepted::Other(v) = accepted else {
                continue;
            };
            let Ok(offered) = v.parse::<Revision>() else {
                continue;
            };
            if matches!(
                answered.get(&offered),
                Some(Accepted::Other(_) | Accepted::No)
            ) {
                let mut record = negotiation_record(
                    *asked,
                    Outcome::Fail,
                    v.clone().into_bytes(),
                    RULE_NEGOTIATION,
                    self.config.peer.transport(),
                );
                record.violations = Some(vec![Violation {
                    rule: RULE_NEGOTIATION,
                    level: Level::Must,
                    spec: "MCP 2025-11-25, basic/lifecycle, Version Negotiation (MUST)",
                    pointer: "/result/protocolVersion".into(),
                    message: format!(
                        "answered {v} to {asked}, but did not accept {v} when asked for it"
                    ),
                }]);
                self.records.push(record);
            }
        }
    }
}

/// Why a plain JSON-RPC run could not be made: the peer sent no frame that
/// is a JSON-RPC response in any session (issue 27, false finding 13: an HTML
/// page on every POST drew "13 pass 125 fail"). `None` once one response came.
fn no_jsonrpc_answer(logs: &[Vec<crate::driver::WireEvent>]) -> Option<String> {
    let frames: Vec<&Vec<u8>> = logs
        .iter()
        .flatten()
        .filter(|e| e.from == Direction::ServerToClient)
        .filter_map(|e| match &e.kind {
            WireKind::Frame(bytes) => Some(bytes),
            _ => None,
        })
        .collect();
    // A response the codec refuses (a JSON-RPC 1.0 reply without `jsonrpc`,
    // a lenient server's fallback) is still an answer to judge: only output
    // with no response shape at all (an HTML page) leaves the run unmade.
    let answers = |bytes: &Vec<u8>| {
        harness::error_ids::response_shaped(bytes)
            || harness::lift(bytes).is_ok_and(|frame| {
                frame.messages().iter().any(|m| {
                    matches!(
                        m,
                        harness::ir::Message::Success(_) | harness::ir::Message::Error(_)
                    )
                })
            })
    };
    if frames.iter().any(|b| answers(b)) {
        return None;
    }
    Some(match frames.first() {
        None => "it sent nothing at all".into(),
        Some(first) => {
            let text = String::from_utf8_lossy(first);
            let shown: String = text.chars().take(120).collect();
            format!(
                "none of the {} frames it sent is a JSON-RPC response; the first: {shown:?}",
                frames.len()
            )
        }
    })
}

/// What one probe's exchange showed, read before the judge gives its
/// verdict: what the judge reads, the notes on how it was read, and the
/// verdict when what was seen decides it instead of the judge.
struct Observation {
    /// The frames the judge reads, or the silence.
    observed: Observed,
    /// The verdict decided by what was seen, whatever the judge says: a
    /// -32020 refusal of a body that truly mismatched its header is the
    /// transport's own answer (a pass); silence proves nothing when the
    /// liveness ping after it died too, or when the queue overflowed (the
    /// answer may be among the dropped): not observed.
    decided: Option<Outcome>,
    /// A notification refused over Streamable HTTP with an HTTP error status
    /// ([`http_answers::refused_notification`]): its body is not a reply.
    refusal: Option<String>,
    /// A batch answered one response per SSE event, gathered into one array
    /// ([`batch::gathered_batch`]).
    gathered: Option<String>,
    /// The -32020 header-mismatch refusal that decided the verdict
    /// ([`http_answers::header_mismatch_answer`]).
    mismatch: Option<String>,
}

/// Reads what `vector`'s probe got (`report`, and the HTTP exchanges since
/// `facts_before`) into what the judge reads, before it judges.
fn observe(
    driver: &Driver<Wire>,
    vector: &Vector,
    revision: Revision,
    report: &crate::driver::ProbeReport,
    facts_before: usize,
    expects_answer: bool,
) -> Observation {
    let mut frames: Vec<Vec<u8>> = report
        .frames
        .iter()
        .filter(|r| {
            !matches!(
                r.class,
                Class::LivenessAnswer | Class::TooLong(_) | Class::OtherExchange
            )
        })
        .map(|r| r.bytes.clone())
        .collect();
    // Text a stdio server wrote between messages (a log line) is no answer:
    // it breaks the stdio sentence once, judged over the whole revision
    // ([`stdout_text::record`]), and the judge reads the messages alone.
    if matches!(driver.transport(), Wire::Stdio(_)) && revision.is_mcp() {
        frames.retain(|f| !crate::lines::is_stdout_text(f));
    }
    let facts = driver.transport().http_facts();
    let new_facts = facts.get(facts_before..).unwrap_or_default();
    let gathered = batch::gathered_batch(
        driver.transport(),
        revision,
        &vector.frame,
        report,
        new_facts,
    );
    let gathered_note = gathered.as_ref().map(|(_, note)| note.clone());
    if let Some((batch, _)) = gathered {
        frames = batch;
    }
    let silence = match report.live {
        Live::Closed { .. } | Live::SendFailed(_) => Silence::PeerClosed,
        Live::Answered(_) | Live::Unresponsive => Silence::TimedOut,
    };
    let refusal = http_answers::refused_notification(
        driver.transport(),
        report.exchange,
        new_facts,
        &frames,
        expects_answer,
        revision,
    );
    if refusal.is_some() {
        // The refusal's body is HTTP's answer, not a JSON-RPC reply.
        frames.clear();
    }
    let expects_error = matches!(vector.answer, Some(Answer::Error { .. }));
    let status = report.exchange.and_then(|x| {
        new_facts
            .iter()
            .find(|f| f.exchange == Some(x))
            .map(|f| f.status)
    });
    let mismatch = http_answers::header_mismatch_answer(
        driver.transport(),
        revision,
        expects_error,
        &vector.frame,
        status,
        &frames,
    );
    let observed = if frames.is_empty() {
        Observed::Silence(silence)
    } else {
        Observed::Frames(frames)
    };
    let decided = match (silence_unseen(report, &observed, expects_answer), &mismatch) {
        (Some(why), _) => Some(Outcome::NotObserved { why }),
        (None, Some(_)) => Some(Outcome::Pass),
        (None, None) => None,
    };
    Observation {
        observed,
        decided,
        refusal,
        gathered: gathered_note,
        mismatch,
    }
}

/// The record of `vector`'s answer: the verdict `seen` decided, else the
/// judge's, with the notes on how the answer was read.
#[allow(clippy::too_many_arguments)]
fn answer_record(
    vector: &Vector,
    revision: Revision,
    transport: &str,
    seen: Observation,
    judgement: &judge::Judgement,
    slow: Option<String>,
    findings: &[crate::transport::http::HttpFinding],
    wire: Vec<WireFrame>,
) -> Record {
    // The judge's mismatches explain its verdict; where what was seen
    // decided instead (a -32020 refusal, silence that shows nothing), they
    // would contradict the record.
    let decided_before = seen.decided.is_some();
    let outcome = seen.decided.unwrap_or_else(|| judgement.outcome.clone());
    let mut record = vector_record(vector, revision, outcome, transport);
    let violations: Vec<Violation> = if decided_before {
        Vec::new()
    } else {
        judgement.weighed().cloned().collect()
    };
    record.check = Some(answer_check(
        vector,
        revision,
        &record.outcome,
        !judgement.mismatches.is_empty(),
        &violations,
    ));
    record.violations = Some(violations);
    record.ambiguities.clone_from(&judgement.ambiguities);
    record.notes = judgement
        .mismatches
        .iter()
        .filter(|_| !decided_before)
        .chain(&judgement.notes)
        .cloned()
        .collect();
    record.notes.extend(seen.refusal);
    record.notes.extend(seen.gathered);
    record.notes.extend(seen.mismatch);
    record.notes.extend(slow);
    record
        .notes
        .extend(findings.iter().map(http_judge::describe));
    record.wire = wire;
    record
}

/// Why the silence after a probe shows nothing, so its verdict is not
/// observed: the transport dropped frames while it ran (the answer may be
/// among them), or, for a frame that should get no reply, the liveness ping
/// after it was not answered either (a peer that died or hung says nothing
/// whatever it was sent; only a live peer's silence is an answer).
fn silence_unseen(
    report: &crate::driver::ProbeReport,
    observed: &Observed,
    expects_answer: bool,
) -> Option<String> {
    if !matches!(observed, Observed::Silence(_)) {
        return None;
    }
    if report.transport_dropped > 0 {
        return Some(format!(
            "{} frames were dropped while this probe ran (the peer flooded)",
            report.transport_dropped
        ));
    }
    let dead = match &report.live {
        Live::Answered(_) => return None,
        Live::Unresponsive => "the peer stopped answering".to_owned(),
        Live::Closed { status, .. } => format!(
            "the peer's output ended ({})",
            status.as_deref().unwrap_or("still running")
        ),
        Live::SendFailed(e) => format!("a frame could not be sent: {e}"),
    };
    (!expects_answer).then(|| {
        format!(
            "no reply is due, but the liveness ping after the frame got no answer either ({dead}): silence from a peer that is not answering shows nothing"
        )
    })
}

/// Why a fresh process's handshake failing is no verdict on it: it said
/// nothing at all within the start-up timeout, so it never finished
/// starting (issue 27: a start-up that never completes is "could not run").
fn never_started(driver: &Driver<Wire>, e: &HandshakeError, config: &Config) -> Option<String> {
    use crate::driver::RequestError;
    let timed_out = matches!(e, HandshakeError::Request(RequestError::TimedOut));
    (timed_out && driver.transport().starts_fresh() && !driver.heard())
        .then(|| said_nothing(config))
}

/// What the transport saw that explains a handshake that failed, for the
/// run's error ([`Wire::why_silent`]); nothing when the peer answered (a
/// refusal says its own cause).
async fn unanswered_because(driver: &mut Driver<Wire>, e: &HandshakeError) -> String {
    if matches!(e, HandshakeError::Refused { .. }) {
        return String::new();
    }
    driver.transport_mut().why_silent(&e.to_string()).await
}

/// A fresh process that never said a word, as the run's error says it.
fn said_nothing(config: &Config) -> String {
    format!(
        "the process said nothing within {:?} (the longer of --startup-timeout and --timeout)",
        config
            .driver
            .startup_timeout
            .max(config.driver.answer_timeout)
    )
}

/// The note on a record whose peer took longer than `--timeout` to say its
/// first word: its start-up was waited out, not taken for silence.
fn slow_start_note(first: Duration, config: &Config) -> String {
    format!(
        "slow start: the peer process said its first word {:.1} s after it started, longer than --timeout {:?}; a fresh process's first answer waits up to --startup-timeout {:?}",
        first.as_secs_f64(),
        config.driver.answer_timeout,
        config.driver.startup_timeout
    )
}

/// `supportedVersions` of a `server/discover` answer.
fn supported(handshake: &Handshake) -> Vec<String> {
    handshake
        .result
        .get("supportedVersions")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Why `vector`'s frame cannot travel over stdio as it is: the transport is
/// newline-delimited, and messages "MUST NOT contain embedded newlines" (MCP
/// 2025-11-25, basic/transports, "stdio"). Re-spacing the frame would change
/// the bytes under test, so it is not applicable here instead.
fn stdio_unfit(vector: &Vector) -> Option<String> {
    vector
        .frame
        .iter()
        .any(|b| *b == b'\n' || *b == b'\r')
        .then(|| "the frame holds a line break, which newline-delimited stdio cannot carry".into())
}

/// A vector's record: the vector is the check, named by the first rule it
/// exercises (its level and where it is written), so every finding carries
/// a rule id, a level and a spec reference even when nothing broke.
fn vector_record(vector: &Vector, revision: Revision, outcome: Outcome, transport: &str) -> Record {
    let mut record = Record::new(
        place(vector, revision, transport),
        Subject::Frame(vector.frame.clone()),
        outcome,
    );
    record.check = Some(vector_check(vector));
    record
}

/// The check of an answer judged against `vector`: the rule whose level gave
/// the `outcome`, so a record never shows a SHOULD rule failing or a MUST rule
/// warning. A fail or a warning is headed by the rule that mandates the answer
/// (its basis) when the reply departed from it (`answer_departed`) and its
/// level is the verdict's, else by the most severe of the `violations` at the
/// verdict's level. Any other record, a pass included, by the basis, else the
/// most severe violation, else the vector's first rule. The first rule alone
/// would name what the *request* breaks (`mcp.base.id-not-null` for a request
/// with a null id), not what the peer's answer is held to.
fn answer_check(
    vector: &Vector,
    revision: Revision,
    outcome: &Outcome,
    answer_departed: bool,
    violations: &[Violation],
) -> Check {
    let gave_verdict = |level: Level| match outcome {
        Outcome::Fail => level.is_mandatory(),
        Outcome::Warning => matches!(level, Level::Should | Level::ShouldNot),
        _ => false,
    };
    let basis = match &vector.basis {
        Some(Basis::MandatedBy { rule, level }) => {
            let spec = vector
                .rules
                .iter()
                .find(|r| r.id == *rule)
                .map_or_else(|| rule.info().cite(revision).to_owned(), |r| r.spec.clone());
            Some(Check {
                rule: rule.as_str().into(),
                level: *level,
                spec,
            })
        }
        _ => None,
    };
    if matches!(outcome, Outcome::Fail | Outcome::Warning) {
        if let Some(b) = basis
            .as_ref()
            .filter(|b| answer_departed && gave_verdict(b.level))
        {
            return b.clone();
        }
        if let Some(v) = violations
            .iter()
            .filter(|v| gave_verdict(v.level))
            .min_by_key(|v| v.level)
        {
            return Check {
                rule: v.rule.as_str().into(),
                level: v.level,
                spec: v.spec.into(),
            };
        }
    }
    if let Some(b) = basis {
        return b;
    }
    // `Level` orders strongest first; the first of equals is kept.
    if let Some(v) = violations.iter().min_by_key(|v| v.level) {
        return Check {
            rule: v.rule.as_str().into(),
            level: v.level,
            spec: v.spec.into(),
        };
    }
    vector_check(vector)
}

fn vector_check(vector: &Vector) -> Check {
    match vector.rules.first() {
        Some(rule) => Check {
            rule: rule.id.as_str().into(),
            level: rule.level,
            spec: rule.spec.clone(),
        },
        None => Check {
            rule: vector.id.clone(),
            level: Level::Must,
            spec: vector.description.clone(),
        },
    }
}

fn place(vector: &Vector, revision: Revision, transport: &str) -> Place {
    Place {
        vector: Some(vector.id.clone()),
        revision: Some(revision),
        transport: Some(transport.into()),
        ..Place::default()
    }
}

/// The id of a revision's negotiation check, for baselines.
#[must_use]
pub fn negotiation_id(revision: Revision) -> String {
    format!("run/{revision}/negotiation")
}

fn negotiation_record(
    revision: Revision,
    outcome: Outcome,
    subject: Vec<u8>,
    rule: RuleId,
    transport: &str,
) -> Record {
    let mut record = Record::new(
        Place {
            vector: Some(negotiation_id(revision)),
            revision: Some(revision),
            transport: Some(transport.into()),
            ..Place::default()
        },
        Subject::Frame(subject),
        outcome,
    );
    record.check = Some(Check {
        rule: rule.as_str().into(),
        level: rule.info().level,
        spec: rule.info().cite(revision).into(),
    });
    record
}

/// The frames of the driver's wire log from entry `from` on.
fn wire_since(driver: &Driver<Wire>, from: usize) -> Vec<WireFrame> {
    crate::driver::wire_frames(&driver.log()[from.min(driver.log().len())..])
}

/// The most pages of one list the runner reads.
const MAX_PAGES: usize = 16;

/// What the peer offers: its capabilities, then its tools, prompts and
/// resources, each list read only when its capability is declared.
async fn learn(
    driver: &mut Driver<Wire>,
    handshake: Option<&Handshake>,
    config: &Config,
) -> Catalogue {
    let Some(handshake) = handshake else {
        return Catalogue::default();
    };
    let mut catalogue = Catalogue::from_handshake(&handshake.result);
    for (capability, method, member, key) in [
        ("tools", "tools/list", "tools", "name"),
        ("prompts", "prompts/list", "prompts", "name"),
        ("resources", "resources/list", "resources", "uri"),
    ] {
        if !catalogue.declares(capability) {
            continue;
        }
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let params = cursor
                .as_ref()
                .map(|c| Raw::from_value(&serde_json::json!({ "cursor": c })));
            let Ok(answered) = driver
                .request(method, params, config.driver.answer_timeout)
                .await
            else {
                break;
            };
            let Ok(harness::client::Reply::Result(raw)) = answered.reply() else {
                break;
            };
            let Ok(result) = serde_json::from_str::<Value>(raw.as_str()) else {
                break;
            };
            for item in result
                .get(member)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                match member {
                    "resources" => {
                        if let Some(uri) = item.get(key).and_then(Value::as_str) {
                            catalogue.resources.insert(uri.to_owned());
                        }
                    }
                    list => catalogue.learn_item(list, item),
                }
            }
            let issued = catalogue.cursors.entry(method.to_owned()).or_default();
            match result.get("nextCursor").and_then(Value::as_str) {
                Some(next) if issued.insert(next.to_owned()) => {
                    cursor = Some(next.to_owned());
                }
                _ => break,
            }
        }
    }
    catalogue
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Review of issue 27's false finding 13: a JSON-RPC 1.0-style answer
    /// (no `jsonrpc`) is a response the codec refuses, still an answer to
    /// judge; an HTML page is none, and the run is not made.
    #[test]
    fn a_refused_response_is_an_answer_and_html_is_none() {
        let log = |bytes: &[u8]| {
            vec![vec![crate::driver::WireEvent {
                from: Direction::ServerToClient,
                t: Duration::ZERO,
                kind: WireKind::Frame(bytes.to_vec()),
            }]]
        };
        assert_eq!(
            no_jsonrpc_answer(&log(br#"{"id":1,"result":19,"error":null}"#)),
            None
        );
        assert!(no_jsonrpc_answer(&log(b"<html><body>hi</body></html>")).is_some());
    }

    fn violation(rule: RuleId) -> Violation {
        Violation {
            rule,
            level: rule.info().level,
            spec: rule.info().cite(Revision::Mcp2025_06_18),
            pointer: String::new(),
            message: "m".into(),
        }
    }

    /// False finding 12: a record's heading is the rule whose level gave its
    /// verdict. A batch vector whose answer a SHOULD mandates, failed by a
    /// MUST that rides along, is headed by that MUST, not by a SHOULD row
    /// "failing"; a departure from the SHOULD answer alone is headed by it.
    #[test]
    fn the_heading_rule_is_the_one_that_gave_the_verdict() {
        let vector = crate::vectors::embedded()
            .0
            .into_iter()
            .find(|v| v.id == "mcp/2025-06-18/batch/batch")
            .expect("the shipped batch vector");
        let must = violation(RuleId::McpBaseResponseIdMatch);
        let should = violation(RuleId::McpBatchAcceptedAfterRemoval);
        let r = Revision::Mcp2025_06_18;
        let failed = answer_check(&vector, r, &Outcome::Fail, true, &[should.clone(), must]);
        assert_eq!(
            (failed.rule.as_str(), failed.level),
            ("mcp.base.response-id-match", Level::Must)
        );
        let warned = answer_check(&vector, r, &Outcome::Warning, true, &[should]);
        assert_eq!(
            (warned.rule.as_str(), warned.level),
            ("mcp.batch.refused-after-removal", Level::Should)
        );
        let passed = answer_check(&vector, r, &Outcome::Pass, false, &[]);
        assert_eq!(passed.rule, "mcp.batch.refused-after-removal");
    }
}
