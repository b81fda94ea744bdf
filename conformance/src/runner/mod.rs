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
//!
//! Its rooms: what a run is given (`config`), one revision as named phases
//! (`revision`: open → learn → plan → play beside the transport probes →
//! conversation checks), starting and probing peers and the one probe step,
//! send → observe → judge → record (`peers`, `observe`, `records`), what a
//! peer offers (`learn`, `fixtures`), the revision's negotiation
//! (`negotiation`), how vectors are spread over sessions (`plan`), and the
//! judges over a revision's whole conversation: sessions (`sessions`), HTTP
//! itself (`http_judge`), stdio's shutdown and stdout (`stdio_shutdown`,
//! `stdout_text`), their transport verdicts filed by one `filer`. This file
//! holds the run's loop over revisions.

pub mod batch;
pub mod case_probe;
mod config;
#[cfg(test)]
mod facts_for_tests;
mod filer;
pub mod fixtures;
pub mod http_answers;
pub mod http_judge;
mod learn;
pub mod negotiation;
mod observe;
mod peers;
pub mod plan;
pub mod polite;
mod pool;
mod records;
pub mod reference;
mod revision;
pub mod sessions;
mod stderr;
mod stdio_shutdown;
pub mod stdout_text;
pub mod trace;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use harness::rules::{Level, RuleId, Violation};
use harness::{Direction, Outcome, Revision};

use crate::driver::{Class, Driver, Handshake, HandshakeError, Live, Wants};
use crate::report::{Check, Place, Record, Subject};
use crate::transcript::Entry;
pub use crate::transport::wire::Wire;
pub use crate::transport::HttpKind;
use crate::transport::{Kind, Target, Transport as _};
use crate::vectors::Vector;
pub use config::{Auth, Config, Peer, Revisions, RunError};
use fixtures::Catalogue;
use learn::learn;
use peers::{Experiments, Gathered, Peers};
pub use records::negotiation_id;
use records::{negotiation_record, wire_since};
pub use stderr::KeptStderr;

/// How many sessions (peer processes) of one revision run at once.
const SESSIONS_AT_ONCE: usize = 4;

/// Called after each check: how many are done of how many planned, and the
/// check's record.
pub type Progress<'a> = dyn FnMut(usize, usize, &Record) + 'a;

// The runner's own checks name rules of the one catalogue.
const RULE_NEGOTIATION: RuleId = RuleId::McpLifecycleVersionServer;
const RULE_HANDSHAKE: RuleId = RuleId::McpLifecycleServerResponds;

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
            Peer::Given(Target::Http {
                url,
                kind: HttpKind::Streamable,
            }),
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
        experiments: Arc::default(),
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
    let played = async {
        if revisions_at_once(config) {
            // In groups of `--parallel-revisions`, in revision order: the
            // same records in the same order, fewer sessions open at once.
            let group = config
                .parallel_revisions
                .map_or(revisions.len(), std::num::NonZeroUsize::get)
                .max(1);
            for revisions in revisions.chunks(group) {
                runner
                    .revisions_at_once(revisions, vectors, &mut answered, &mut last_error)
                    .await?;
            }
            return Ok(());
        }
        // Each revision's first session is opened while the revision before
        // it is played (see `open_first`).
        let mut opening = None;
        for (n, revision) in revisions.iter().enumerate() {
            let probes = probes_of(vectors, *revision);
            let opened = match opening.take() {
                Some(opened) => opened?,
                None => open_first(config, *revision).await?,
            };
            let ahead = async {
                match revisions.get(n + 1) {
                    Some(r) => Some(open_first(config, *r).await),
                    None => None,
                }
            };
            let (result, ahead) =
                tokio::join!(runner.revision_opened(*revision, &probes, opened), ahead);
            opening = ahead;
            match result {
                Ok(accepted) => {
                    answered.insert(*revision, accepted);
                }
                Err(RunError::Handshake(e)) => last_error = Some(e),
                Err(e) => return Err(e),
            }
        }
        Ok(())
    };
    // The unknown-version session of the `version-latest` check depends on
    // no revision's outcome: played beside them, not after them.
    let unknown = async {
        match config.revisions {
            Revisions::All => Some(negotiation::ask_unknown(config).await),
            Revisions::Given(_) | Revisions::Auto => None,
        }
    };
    let (played, unknown) = tokio::join!(played, unknown);
    played?;
    if answered.is_empty() {
        return Err(RunError::Handshake(
            last_error.unwrap_or_else(|| "no revision tried".into()),
        ));
    }
    runner.cross_check(&answered);
    if let Some(unknown) = unknown {
        runner.latest(&answered, unknown?).await?;
    }
    Ok(runner.records)
}

/// Whether the run's revisions are played at once rather than one after
/// another: over Streamable HTTP, where each revision's sessions are MCP
/// sessions of their own (each with the session id its `initialize`
/// answer gave) on a server already listening, or on a reference server of
/// the revision's own, as the sessions of one revision already are beside
/// each other. What one revision plays reaches no session of another, so
/// its verdicts cannot depend on another's; most of a revision's time is
/// waiting (the transport judge's GET streams are read for a moment),
/// which then overlaps. Over stdio a revision may judge an
/// opening frame another revision played ([`plan::opening_experiment`]),
/// and its processes cost CPU, not waits: kept one after another.
fn revisions_at_once(config: &Config) -> bool {
    // Polite mode is one client: one revision, one session at a time.
    config.peer.kind() == Kind::Http(HttpKind::Streamable) && !config.polite()
}

/// How many sessions of one revision run at once: one in polite mode.
fn sessions_at_once(config: &Config) -> usize {
    if config.polite() {
        1
    } else {
        SESSIONS_AT_ONCE
    }
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
    /// Nothing is known: the pacer stopped the run (`--budget`, a 429 or
    /// 503) before the revision's handshake was judged.
    NotRun,
}

struct Runner<'c, 'p, 'q> {
    config: &'c Config,
    records: Vec<Record>,
    progress: &'p mut Progress<'q>,
    done: usize,
    total: usize,
    /// The opening sessions the run's revisions played, judged again under
    /// each later revision that sends the same frame to the same fresh
    /// process ([`plan::opening_experiment`]).
    experiments: Arc<Experiments>,
}

/// What a revision played on a runner of its own left to take
/// ([`Runner::revisions_at_once`]).
struct Alone {
    /// Its records, each already told to the run's progress.
    records: Vec<Record>,
    /// The checks it added to the plan as it learnt of them.
    total: usize,
    /// The checks it counted done, with or without a record.
    done: usize,
}

/// Where a revision's sessions connect: the HTTP URL, and the reference
/// server behind it when the runner started one (kept alive by holding it).
struct Endpoint {
    url: Option<String>,
    _server: Option<reference::Server>,
}

/// The endpoint of `config`'s peer for sessions under `revision` (`None`:
/// negotiated).
async fn endpoint(config: &Config, revision: Option<Revision>) -> Result<Endpoint, RunError> {
    Ok(match &config.peer {
        Peer::Given(Target::Stdio(_)) | Peer::Reference { .. } => Endpoint {
            url: None,
            _server: None,
        },
        Peer::Given(Target::Http { url, .. }) => Endpoint {
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

/// A revision's endpoint and its first session, opened (or its handshake
/// failed) before the revision is played.
struct Opened {
    endpoint: Endpoint,
    first: Result<peers::Session, (Driver<Wire>, HandshakeError)>,
}

/// Opens the first session of `revision`: a fresh process (or HTTP
/// session) and the handshake. It leaves nothing for the revision's judges
/// until it is closed, so it can be opened ahead of the revision, while the
/// one before it is played ([`run`]): a slow-starting server's start-up is
/// then no longer paid between revisions, with every other session waiting.
async fn open_first(config: &Config, revision: Revision) -> Result<Opened, RunError> {
    let endpoint = endpoint(config, Some(revision)).await?;
    // Spawning and the handshake gather nothing: what a session leaves for
    // the judges is gathered when it is closed, by the revision's own peers.
    let nothing = Gathered::default();
    let peers = Peers::for_revision(config, endpoint.url.as_deref(), &nothing, revision);
    let first = peers.open(revision, Some(revision)).await?;
    Ok(Opened { endpoint, first })
}

impl Runner<'_, '_, '_> {
    /// The endpoint for sessions under `revision` (`None`: negotiated).
    async fn endpoint(&self, revision: Option<Revision>) -> Result<Endpoint, RunError> {
        endpoint(self.config, revision).await
    }

    fn push(&mut self, mut record: Record) {
        // Once the pacer stopped, what is judged may rest on a conversation
        // cut short: not run, never a verdict (see `polite::after_halt`).
        if let Some(halt) = self.config.halted() {
            if let Some(outcome) = polite::after_halt(&record.outcome, &halt) {
                record.outcome = outcome;
            }
        }
        self.done += 1;
        (self.progress)(self.done, self.total, &record);
        self.records.push(record);
    }

    /// Plain JSON-RPC 2.0: a request whose id was
    /// used by a request already answered is still a request. JSON-RPC 2.0
    /// forbids no such reuse (§4 asks only for a String, Number or Null id;
    /// MCP's "MUST NOT have been previously used" is MCP's own), and §5 "When
    /// a rpc call is made, the Server MUST reply with a Response". The same
    /// request is sent twice on one fresh peer, the second after the first
    /// was answered; a server that drops the second fails.
    async fn id_reused_after_answer(&mut self) -> Result<(), RunError> {
        let revision = Revision::JsonRpc2;
        if self.config.polite() {
            let mut record = Record::new(
                Place {
                    vector: Some(REUSE_RECORD.into()),
                    revision: Some(revision),
                    transport: Some(self.config.peer.kind().into()),
                    ..Place::default()
                },
                Subject::Frame(REUSE_PROBE.as_bytes().to_vec()),
                Outcome::NotApplicable {
                    why: polite::ID_REUSE.into(),
                },
            );
            let rule = RuleId::JsonrpcResponseRequired;
            record.check = Some(Check {
                rule: rule.into(),
                level: Level::Must,
                spec: rule.info().cite(revision).to_owned(),
            });
            self.push(record);
            return Ok(());
        }
        let endpoint = self.endpoint(Some(revision)).await?;
        let gathered = Gathered::default();
        let peers = Peers::over(self.config, endpoint.url.as_deref(), &gathered);
        let frame = REUSE_PROBE.as_bytes();
        let transport = self.config.peer.kind();
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
        let first = driver.probe_with(frame, Wants::Reply, true).await;
        let outcome = if !answered(&first) {
            Outcome::NotObserved {
                why: "the first request got no response, so its id was never free to reuse".into(),
            }
        } else {
            let second = driver.probe_with(frame, Wants::Reply, true).await;
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
            rule: rule.into(),
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

    /// Plays every one of `revisions` at once ([`revisions_at_once`] says
    /// when), each on a runner of its own, their records taken in revision
    /// order as soon as every revision before has been: the same records in
    /// the same order as played one after another. A revision that could
    /// not be run ends the run as it would have there.
    async fn revisions_at_once(
        &mut self,
        revisions: &[Revision],
        vectors: &[Vector],
        answered: &mut BTreeMap<Revision, Accepted>,
        last_error: &mut Option<String>,
    ) -> Result<(), RunError> {
        let config = self.config;
        let experiments = Arc::clone(&self.experiments);
        let experiments = &experiments;
        // Each record is told to `progress` as soon as its revision judged
        // it, whichever revision that is, so a run interrupted with Ctrl-C
        // still reports what was judged so far (`cmd::run`); the run's
        // records are kept in revision order all the same.
        let told = RefCell::new((&mut *self.progress, self.done, self.total));
        let told = &told;
        let jobs = revisions.iter().map(|revision| async move {
            let probes = probes_of(vectors, *revision);
            let mut tell = |_: usize, _: usize, record: &Record| {
                let mut told = told.borrow_mut();
                let (progress, done, total) = &mut *told;
                *done += 1;
                progress(*done, *total, record);
            };
            let mut alone = Runner {
                config,
                records: Vec::new(),
                progress: &mut tell,
                done: 0,
                total: 0,
                experiments: Arc::clone(experiments),
            };
            let result = match open_first(config, *revision).await {
                Ok(opened) => alone.revision_opened(*revision, &probes, opened).await,
                Err(e) => Err(e),
            };
            let played = Alone {
                records: alone.records,
                total: alone.total,
                done: alone.done,
            };
            Ok::<_, RunError>((*revision, result, played))
        });
        let mut failed = None;
        // All at once: each revision plays sessions of its own, and none
        // waits for another's.
        pool::in_order(jobs, revisions.len(), |(revision, result, played)| {
            if failed.is_some() {
                return;
            }
            told.borrow_mut().2 += played.total;
            self.total += played.total;
            self.done += played.done;
            self.records.extend(played.records);
            match result {
                Ok(accepted) => {
                    answered.insert(revision, accepted);
                }
                Err(RunError::Handshake(e)) => *last_error = Some(e),
                Err(e) => failed = Some(e),
            }
        })
        .await?;
        failed.map_or(Ok(()), Err)
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
        let answers: Vec<Vec<u8>> = crate::driver::server_frames(driver.log())
            .map(<[u8]>::to_vec)
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
        let transport = self.config.peer.kind();
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
            self.config.peer.kind(),
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
                    self.config.peer.kind(),
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
                self.push(record);
            }
        }
    }
}

/// Why a plain JSON-RPC run could not be made: the peer sent no frame that
/// is a JSON-RPC response in any session (an HTML page on every POST once
/// drew "13 pass 125 fail"). `None` once one response came.
/// `said` is what HTTP said instead (`; HTTP 501 with text/html …`), if
/// anything.
fn no_jsonrpc_answer(logs: &[Vec<Entry>], said: &str) -> Option<String> {
    let frames: Vec<&[u8]> = logs
        .iter()
        .flat_map(|log| crate::driver::server_frames(log))
        .collect();
    // A response the codec refuses (a JSON-RPC 1.0 reply without `jsonrpc`,
    // a lenient server's fallback) is still an answer to judge: only output
    // with no response shape at all (an HTML page) leaves the run unmade.
    let answers = |bytes: &[u8]| {
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
        None if !said.is_empty() => format!("it sent no frame{said}"),
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

/// Why a fresh process's handshake failing is no verdict on it: it said
/// nothing at all within the start-up timeout, so it never finished
/// starting: a start-up that never completes is "could not run".
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
    crate::auth::client::strings(&handshake.result, "supportedVersions")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JSON-RPC 1.0-style answer
    /// (no `jsonrpc`) is a response the codec refuses, still an answer to
    /// judge; an HTML page is none, and the run is not made.
    #[test]
    fn a_refused_response_is_an_answer_and_html_is_none() {
        let log = |bytes: &[u8]| {
            vec![vec![Entry::Frame(crate::transcript::Frame {
                from: Direction::ServerToClient,
                bytes: bytes.to_vec(),
                t: None,
            })]]
        };
        assert_eq!(
            no_jsonrpc_answer(&log(br#"{"id":1,"result":19,"error":null}"#), ""),
            None
        );
        assert!(no_jsonrpc_answer(&log(b"<html><body>hi</body></html>"), "").is_some());
    }
}
