//! One revision played, as named phases: **open** the first session (the
//! handshake, and the negotiation judged), **learn** what the peer offers,
//! **plan** the probes into sessions, **play** them beside the transport's
//! own probes, then judge the **conversation** the sessions made (the
//! session judge over every session, and the checks of the transport it ran
//! over, chosen from [`CONVERSATION_CHECKS`] by transport kind, as the HTTP
//! probes are from theirs).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use harness::{Outcome, Revision};

use super::peers::{Gathered, Peers, Session, EXIT_ON_EOF_GRACE};
use super::records::vector_record;
use super::trace::Trace;
use super::{
    case_probe, fixtures, http_judge, learn, never_started, no_jsonrpc_answer, plan, polite, pool,
    slow_start_note, stdio_shutdown, stdout_text, unanswered_because, Accepted, Catalogue, Opened,
    Peer, RunError, Runner, Wire,
};
use crate::driver::Driver;
use crate::report::Record;
use crate::sync::lock;
use crate::transcript::Entry;
use crate::transport::{Kind, Target};
use crate::vectors::Vector;

/// What the open phase left: the revision ended there (declined, refused,
/// unanswered), or its first session is open for the rest.
enum Open {
    Ended(Accepted),
    Session(Box<Session>),
}

/// The plan of a revision: the vectors to play, packed into sessions, with
/// the note each rewritten vector carries.
struct Plan<'r> {
    playable: Vec<&'r Vector>,
    sessions: Vec<plan::Session>,
    rewritten: BTreeMap<String, String>,
}

/// What a revision's conversation left for the checks over all of it.
struct Conversation<'a> {
    revision: Revision,
    logs: &'a [Vec<Entry>],
    traces: &'a [Trace],
    /// How long a process was given to exit once its input closed.
    exit_grace: Duration,
}

/// A check over a revision's whole conversation, made once its sessions
/// closed, for the transports `applies` names.
struct ConversationCheck {
    applies: fn(Kind) -> bool,
    check: fn(&Conversation<'_>) -> Option<Record>,
}

/// The conversation checks by transport kind. Over HTTP the transport's own
/// checks are [`http_judge`]'s probes, played beside the sessions.
const CONVERSATION_CHECKS: &[ConversationCheck] = &[
    // MCP basic/transports §stdio: no text on stdout that is not a message.
    ConversationCheck {
        applies: |kind| kind == Kind::Stdio,
        check: |c| {
            c.revision
                .is_mcp()
                .then(|| stdout_text::record(c.revision, c.logs))
                .flatten()
        },
    },
    // 2026-07-28 basic/transports/stdio §Shutdown: exit when input closes.
    ConversationCheck {
        applies: |kind| kind == Kind::Stdio,
        check: |c| stdio_shutdown::stdio_shutdown(c.revision, c.traces, c.exit_grace),
    },
];

impl Runner<'_, '_, '_> {
    /// Plays one revision's probes.
    pub(super) async fn revision(
        &mut self,
        revision: Revision,
        probes: &[&Vector],
    ) -> Result<Accepted, RunError> {
        let opened = super::open_first(self.config, revision).await?;
        self.revision_opened(revision, probes, opened).await
    }

    /// [`Runner::revision`] with its first session already opened.
    pub(super) async fn revision_opened(
        &mut self,
        revision: Revision,
        probes: &[&Vector],
        opened: Opened,
    ) -> Result<Accepted, RunError> {
        let Opened { endpoint, first } = opened;
        let busy_before = self.config.pacer.busy_answers();
        let gathered = Gathered::default();
        let experiments = Arc::clone(&self.experiments);
        let peers = Peers::for_revision(self.config, endpoint.url.as_deref(), &gathered, revision)
            .sharing(&experiments);
        let mut first = match self.open(revision, probes, &peers, first).await? {
            Open::Ended(accepted) => return Ok(accepted),
            Open::Session(session) => *session,
        };
        let catalogue = learn(&mut first.driver, first.handshake.as_ref(), self.config).await;
        let own = self.own_probes(revision, &catalogue);
        let bound = self.bind(revision, probes, &catalogue);
        let playable: Vec<&Vector> = own
            .iter()
            .chain(bound.as_is)
            .chain(bound.bound.iter())
            .collect();
        // Vectors not about ids get fresh ones, so they need no session of
        // their own (each is a peer process, the run's main cost).
        let refreshed = plan::fresh_ids(&playable);
        let plan = Plan::of(revision, self.config.peer.kind(), &refreshed);
        let played = self
            .play(revision, &plan, first.driver, &peers, &gathered)
            .await?;
        let logs = gathered.take_logs();
        if revision == Revision::JsonRpc2 {
            if let Some(why) = no_jsonrpc_answer(&logs, &played.said) {
                return Err(RunError::NoJsonRpc(why));
            }
        }
        // A 429 or 503 waited out leaves a request unanswered in its
        // session: the judges over whole conversations say so, and judge
        // nothing of what a busy server did.
        let busy = self.config.pacer.pace().stop_when_busy
            && self.config.pacer.busy_answers() > busy_before;
        let before = self.records.len();
        self.judge_sessions(revision, &logs)?;
        let traces = lock(&gathered.traces);
        self.conversation(&Conversation {
            revision,
            logs: &logs,
            traces: &traces,
            exit_grace: self.config.shutdown_grace.max(EXIT_ON_EOF_GRACE),
        });
        drop(traces);
        self.total += played.transport_records.len();
        for record in played.transport_records {
            self.push(record);
        }
        if busy {
            for record in &mut self.records[before..] {
                if matches!(record.outcome, Outcome::Fail | Outcome::Warning) {
                    record.outcome = Outcome::NotObserved {
                        why: "not judged: the server answered 429 or 503 during these sessions, so what they show was cut short by a busy server".into(),
                    };
                }
            }
        }
        Ok(Accepted::Yes)
    }

    /// Open: the first session's handshake, judged; the revision ends here
    /// when the peer declined or refused it, or never answered.
    async fn open(
        &mut self,
        revision: Revision,
        vectors: &[&Vector],
        peers: &Peers<'_>,
        first: Result<Session, (Driver<Wire>, crate::driver::HandshakeError)>,
    ) -> Result<Open, RunError> {
        let probes = vectors.len();
        let mut first = match first {
            Ok(session) => session,
            // The pacer stopped before or during the handshake: nothing of
            // this revision is judged, and each of its checks says so.
            Err((driver, _)) if self.config.halted().is_some() => {
                peers.close(driver).await;
                self.not_run(revision, vectors);
                return Ok(Open::Ended(Accepted::NotRun));
            }
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
                    self.done += probes;
                    return Ok(Open::Ended(Accepted::No));
                }
                let accepted = self.handshake_failed(revision, &driver, &e);
                peers.close(driver).await;
                self.done += probes;
                return match accepted {
                    Some(a) => Ok(Open::Ended(a)),
                    None => Err(RunError::Handshake(format!("{revision}: {e}{because}"))),
                };
            }
        };
        let slow = first
            .driver
            .slow_start()
            .map(|d| slow_start_note(d, self.config));
        let accepted = match first.handshake.as_ref() {
            Some(h) => self.negotiation(revision, h, Some(&first.driver)),
            None => Accepted::Yes,
        };
        // The negotiation record is the first process's first answer.
        if let (Some(note), Some(record)) = (slow, self.records.last_mut()) {
            record.notes.push(note);
        }
        if accepted != Accepted::Yes {
            peers.close(first.driver).await;
            self.done += probes;
            return Ok(Open::Ended(accepted));
        }
        Ok(Open::Session(Box::new(first)))
    }

    /// Each of `vectors` recorded as not run: the pacer stopped before
    /// `revision` could be played.
    fn not_run(&mut self, revision: Revision, vectors: &[&Vector]) {
        let Some(halt) = self.config.halted() else {
            return;
        };
        let transport = self.config.peer.kind();
        for vector in vectors {
            let why = polite::not_run(&halt);
            let outcome = Outcome::NotObserved { why };
            self.push(vector_record(vector, revision, outcome, transport));
        }
    }

    /// The runner's own probes of what the peer offers: the case probes
    /// first (a server that ignores case answers them by running the tool,
    /// so they go before the calls of the tools themselves, after which a
    /// peer may be gone), then the calls of the tools the user allowed.
    fn own_probes(&mut self, revision: Revision, catalogue: &Catalogue) -> Vec<Vector> {
        let allowed = &self.config.allowed;
        let mut own = case_probe::probes(revision, catalogue, allowed);
        let unprobed = if self.config.polite() && !own.is_empty() {
            own.clear();
            Some(polite::CASE_PROBE.to_owned())
        } else {
            case_probe::unprobed(revision, catalogue, allowed)
        };
        if let Some(why) = unprobed {
            let outcome = if why.starts_with(polite::LEFT_OUT) {
                Outcome::NotApplicable { why }
            } else {
                Outcome::NotObserved { why }
            };
            let record = vector_record(
                &case_probe::record_vector(revision),
                revision,
                outcome,
                self.config.peer.kind(),
            );
            self.push(record);
        }
        own.extend(fixtures::tool_probes(revision, catalogue, allowed));
        self.total += own.len();
        own
    }

    /// Bind: each vector bound to what the peer offers, or not applicable
    /// here (said at once, with why).
    fn bind<'v>(
        &mut self,
        revision: Revision,
        probes: &[&'v Vector],
        catalogue: &Catalogue,
    ) -> Bound<'v> {
        let kind = self.config.peer.kind();
        let transport = self.config.peer.kind();
        let mut bound = Bound::default();
        for vector in probes {
            let polite = self.config.polite().then(|| polite::left_out(vector));
            let fit = match plan::unfit(kind, vector).or(polite.flatten()) {
                Some(why) => Err(why),
                None => fixtures::bind(vector, catalogue, &self.config.allowed),
            };
            match fit {
                Err(why) => {
                    let record =
                        vector_record(vector, revision, Outcome::NotApplicable { why }, transport);
                    self.push(record);
                }
                Ok(None) => bound.as_is.push(*vector),
                Ok(Some(v)) => bound.bound.push(v),
            }
        }
        bound
    }

    /// Play: the planned sessions, up to [`super::SESSIONS_AT_ONCE`] at a time (the
    /// first reusing the handshake's process), beside the transport judge's
    /// probes, which make their requests while the sessions play (each its
    /// own fresh session) and read the sessions once all have closed.
    async fn play(
        &mut self,
        revision: Revision,
        plan: &Plan<'_>,
        first: Driver<Wire>,
        peers: &Peers<'_>,
        gathered: &Gathered,
    ) -> Result<Played, RunError> {
        let mut first = Some(first);
        let jobs: Vec<(plan::Session, Option<Driver<Wire>>)> = plan
            .sessions
            .iter()
            .cloned()
            .map(|s| {
                let reuse = if s.opening { None } else { first.take() };
                (s, reuse)
            })
            .collect();
        let playable = &plan.playable;
        let sessions = jobs.into_iter().enumerate().map(|(n, (session, reuse))| {
            peers.at(n + 1).session(revision, session, playable, reuse)
        });
        let http = match (peers.url, &self.config.peer) {
            (
                Some(url),
                Peer::Given(Target::Http { kind, .. }) | Peer::ReferenceHttp { kind, .. },
            ) => Some((url, *kind)),
            _ => None,
        };
        let (close, closed) = http_judge::sessions_close();
        let config = self.config;
        let judging = async {
            match http {
                Some((url, kind)) => http_judge::judge(revision, kind, url, &closed, config).await,
                None => Vec::new(),
            }
        };
        let rewritten = &plan.rewritten;
        let playing = async {
            let played =
                pool::in_order(sessions, super::sessions_at_once(self.config), |records| {
                    for mut record in records {
                        let note = record
                            .place
                            .vector
                            .as_deref()
                            .and_then(|v| rewritten.get(v));
                        record.notes.extend(note.cloned());
                        self.push(record);
                    }
                })
                .await;
            // What HTTP said instead of answers, for a run that may prove
            // unmade (a plain JSON-RPC peer that never answered), before
            // the traces go to the transport judge.
            let said = if revision == Revision::JsonRpc2 {
                crate::transport::http::why_unanswered(
                    &lock(&gathered.traces)
                        .iter()
                        .flat_map(|t| t.findings.iter().cloned())
                        .collect::<Vec<_>>(),
                )
            } else {
                String::new()
            };
            if http.is_some() {
                close.closed(std::mem::take(&mut *lock(&gathered.traces)));
            }
            (played, said)
        };
        let ((played, said), transport_records) = tokio::join!(playing, judging);
        played?;
        Ok(Played {
            said,
            transport_records,
        })
    }

    /// The checks over the whole conversation for the run's transport.
    fn conversation(&mut self, conversation: &Conversation<'_>) {
        let kind = self.config.peer.kind();
        for check in CONVERSATION_CHECKS.iter().filter(|c| (c.applies)(kind)) {
            if let Some(record) = (check.check)(conversation) {
                self.total += 1;
                self.push(record);
            }
        }
    }

    /// The session judge over every session `revision` played (see
    /// [`super::sessions`]), each written as a transcript under `--transcripts`.
    fn judge_sessions(&mut self, revision: Revision, logs: &[Vec<Entry>]) -> Result<(), RunError> {
        let dir = self.config.transcripts.as_deref();
        let transport = self.config.peer.kind();
        for (n, log) in logs.iter().enumerate() {
            let judged = super::sessions::judge_log(revision, n, log, dir, transport)
                .map_err(RunError::Transcripts)?;
            self.total += judged.records.len();
            for record in judged.records {
                self.push(record);
            }
        }
        Ok(())
    }
}

/// The vectors bound to what the peer offers: as they are, or bound anew.
#[derive(Default)]
struct Bound<'v> {
    as_is: Vec<&'v Vector>,
    bound: Vec<Vector>,
}

/// What playing left besides the records pushed as they came.
struct Played {
    /// What HTTP said instead of answers (plain JSON-RPC), if anything.
    said: String,
    /// The transport judge's records.
    transport_records: Vec<Record>,
}

impl<'r> Plan<'r> {
    /// Plan: the vectors with their fresh ids (`refreshed`), the note each
    /// rewritten one carries, packed into sessions for the transport.
    fn of(revision: Revision, kind: Kind, refreshed: &'r [plan::Refreshed<'_>]) -> Plan<'r> {
        let rewritten = refreshed
            .iter()
            .filter_map(|r| {
                let (old, new) = r.rewritten.as_ref()?;
                let why = if revision.is_mcp() {
                    "a request id MUST NOT be reused within a session (MCP basic/index §Requests)"
                } else {
                    "an id used twice in a session would make its echo look like an answer given twice"
                };
                Some((
                    r.vector.id.clone(),
                    format!(
                        "{}{new} instead of {old}: the vector is not about ids, and {why}",
                        crate::report::ID_REWRITE_NOTE
                    ),
                ))
            })
            .collect();
        let playable: Vec<&'r Vector> = refreshed.iter().map(|r| r.vector.as_ref()).collect();
        let sessions = plan::sessions(kind, &playable);
        Plan {
            playable,
            sessions,
            rewritten,
        }
    }
}
