//! The transport judge: what HTTP itself did during a revision's sessions,
//! and a few probes of its own, as records against the `mcp.http.*` and
//! `jsonrpc.http.*` rules of the catalogue.
//!
//! Frames are judged by the codec and the library judge as over stdio; this
//! module reads what no frame carries: each exchange's status, content type
//! and session id ([`HttpFact`]), what HTTP did wrong ([`HttpFinding`]), and
//! the answers to probes a client can make without calling anything (a
//! foreign `Origin`, no session id, a terminated session id, an unsupported
//! `MCP-Protocol-Version`, …). Every record is `run/<revision>/http/<rule>`
//! and names its transport.
//!
//! Laid out as the spec is: one module per section of the transport page
//! (`sending`, `listening`, `sessions`, `security`, `protocol_version`,
//! `resumability`, `multiple_connections`, `server_validation`,
//! `custom_headers`, `status_codes`), the authorization page under `--auth`
//! (`authorization`), the 2024-11-05 HTTP+SSE transport (`legacy_sse`) and
//! JSON-RPC over HTTP (`jsonrpc_http`). Each check is an
//! entry of one table (`PROBES`): the transport it is for, the revisions
//! it runs in, the rules it files and what it does. Which entries run is
//! decided in one place, [`judge`]'s loop, in the table's order (the order
//! of the records).

mod authorization;
mod custom_headers;
mod jsonrpc_http;
mod legacy_sse;
mod listening;
mod multiple_connections;
mod protocol_version;
mod resumability;
mod security;
mod sending;
mod server_validation;
mod sessions;
mod status_codes;

use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use harness::rules::RuleId;
use harness::{Outcome, Revision};
use reqwest::header::{HeaderName, HeaderValue};
use tokio::sync::watch;

use super::filer::{Filer, Seen};
use super::fixtures::Allowed;
use super::trace::Trace;
use super::Config;
use crate::driver::{Driver, DriverConfig};
use crate::report::{Check, CheckId, OwnCheck, Place, Record, Subject};
use crate::transport::http::{FindingKind, GetStream, HttpFact, HttpFinding, StreamableHttpPeer};
use crate::transport::wire::Wire;
use crate::transport::{HttpKind, Kind, Limits};

/// A finding as one line of a record's notes.
#[must_use]
pub fn describe(finding: &HttpFinding) -> String {
    match finding.status {
        Some(status) => format!("HTTP {:?} ({status}): {}", finding.kind, finding.detail),
        None => format!("HTTP {:?}: {}", finding.kind, finding.detail),
    }
}

/// What a probe needs of the run to reach the server: the URL and the few
/// options it reads, not the runner's whole [`Config`].
pub(super) struct Target<'a> {
    /// The endpoint: the MCP endpoint, the SSE stream, or the JSON-RPC URL.
    pub(super) url: &'a str,
    /// The transport's bounds, for the probes' own sessions and clients.
    pub(super) limits: Limits,
    /// How the probes' own drivers wait.
    pub(super) driver: &'a DriverConfig,
    /// How long a probe's session gets to close.
    pub(super) shutdown_grace: Duration,
    /// The tools the user allows to be called (the `tools/call` probes).
    pub(super) allowed: &'a Allowed,
    /// `--auth`: the tokens minted for the run (the authorization probes').
    pub(super) auth: Option<&'a crate::auth::client::Ready>,
    /// `Authorization: Bearer <valid token>` under `--auth`, on every request.
    pub(super) bearer: Option<HeaderValue>,
    /// How the probes' clients reach the server: TLS trust, the user's headers.
    pub(super) http: &'a crate::transport::http::HttpOptions,
}

impl<'a> Target<'a> {
    fn of(url: &'a str, config: &'a Config) -> Target<'a> {
        Target {
            url,
            limits: config.limits,
            driver: &config.driver,
            shutdown_grace: config.shutdown_grace,
            allowed: &config.allowed,
            auth: config.auth.as_ref().and_then(|a| a.ready.as_ref()),
            bearer: config.bearer(),
            http: &config.http,
        }
    }

    /// A client for a probe's own requests: no redirects, the bearer token
    /// under `--auth`.
    pub(super) fn client(&self) -> reqwest::ClientBuilder {
        let mut headers = reqwest::header::HeaderMap::new();
        if let Some(bearer) = &self.bearer {
            headers.insert(reqwest::header::AUTHORIZATION, bearer.clone());
        }
        let mut client = crate::transport::http::builder(self.http);
        if !headers.is_empty() {
            client = client.default_headers(headers);
        }
        client
    }
}

/// The traces of a revision's sessions, handed over once every session
/// has closed: the transport judge's probes make their requests while the
/// sessions still play, and a probe that reads the sessions too
/// (`listening`'s event ids) waits for them here, after its own requests.
/// A probe that reads a stream for a window reads it beside the sessions
/// too: each window lasts until a liveness answer on its own session came
/// (`answered_ping`), so a server slowed by the sessions' traffic makes it
/// longer, never cuts what it sees.
#[derive(Clone)]
pub(super) struct SessionsClosed {
    traces: watch::Receiver<Option<Arc<Vec<Trace>>>>,
}

/// The sending end of [`SessionsClosed`]: [`SessionsClose::closed`] hands
/// the traces over; dropped unsent, the probes read no session.
pub(super) struct SessionsClose(watch::Sender<Option<Arc<Vec<Trace>>>>);

/// A [`SessionsClose`] and the [`SessionsClosed`] it hands over to.
pub(super) fn sessions_close() -> (SessionsClose, SessionsClosed) {
    let (tx, rx) = watch::channel(None);
    (SessionsClose(tx), SessionsClosed { traces: rx })
}

impl SessionsClose {
    /// Every session has closed, leaving `traces`.
    pub(super) fn closed(self, traces: Vec<Trace>) {
        let _ = self.0.send(Some(Arc::new(traces)));
    }
}

impl SessionsClosed {
    /// The sessions' traces, once they have all closed.
    pub(super) async fn traces(&self) -> Arc<Vec<Trace>> {
        let mut rx = self.traces.clone();
        let closed = rx.wait_for(Option::is_some).await;
        closed.ok().and_then(|t| t.clone()).unwrap_or_default()
    }
}

/// What the entries of the table read: the run's sessions, and the
/// exchanges the probes so far made.
pub(super) struct Evidence<'t> {
    /// What each closed session showed.
    traces: &'t [Trace],
    /// Every HTTP exchange of the run's sessions.
    sessions: Vec<&'t HttpFact>,
    /// Every HTTP-level problem of the run's sessions.
    findings: Vec<&'t HttpFinding>,
    /// The exchanges the probes so far returned (the 2026-07-28 request
    /// probes'), judged with the sessions' by the entries after them.
    probed: Vec<HttpFact>,
}

impl Evidence<'_> {
    /// The sessions' exchanges, then those the probes so far returned.
    fn facts(&self) -> Vec<&HttpFact> {
        self.sessions.iter().copied().chain(&self.probed).collect()
    }
}

/// One check of the transport judge, as the table lists it.
pub(super) struct Probe {
    /// The transport whose runs it judges.
    kind: HttpKind,
    /// In which revisions it runs.
    applies: Applies,
    /// The rules whose records it files (held to in debug builds).
    rules: &'static [RuleId],
    /// What it does.
    run: Run,
}

/// In which revisions a [`Probe`] runs. Whatever runs, a record is filed
/// only for a rule of the revision ([`Filer::verdict`]).
#[derive(Debug, Clone, Copy)]
enum Applies {
    /// Under every revision its transport is played.
    Always,
    /// Under the revisions of this rule.
    RevisionsOf(RuleId),
    /// Under the revisions of this rule, when the run says the server is
    /// protected (`--auth`) and its tokens were minted.
    AuthorizedRevisionsOf(RuleId),
}

impl Applies {
    fn to(self, revision: Revision, target: &Target<'_>) -> bool {
        match self {
            Applies::Always => true,
            Applies::RevisionsOf(rule) => rule.info().revisions.contains(revision),
            Applies::AuthorizedRevisionsOf(rule) => {
                target.auth.is_some() && rule.info().revisions.contains(revision)
            }
        }
    }
}

/// A probe that makes requests of its own: the exchanges it returns are
/// read by the entries after it. It runs on a judge of its own, beside the
/// revision's sessions and the other such probes ([`judge`]), so it reads
/// nothing another entry filed; the sessions only once they closed.
type Requests =
    for<'a> fn(&'a mut Filer, &'a Target<'a>, &'a SessionsClosed) -> BoxFuture<'a, Vec<HttpFact>>;

/// What a [`Probe`] does.
enum Run {
    /// Reads what the run's exchanges showed (and the probes' so far).
    Reads(fn(&mut Filer, &Evidence<'_>)),
    /// Makes requests of its own, each answered within the answer timeout
    /// (a stream read until a liveness answer came, and for a moment).
    Requests(Requests),
}

/// A [`Run::Requests`] from the
/// body of an async closure over the judge, the target and the sessions'
/// traces once closed.
macro_rules! requests {
    (|$judge:ident, $target:ident, $sessions:ident| $body:expr) => {
        Run::Requests(requests!(@fn |$judge, $target, $sessions| $body))
    };
    (@fn |$judge:ident, $target:ident, $sessions:ident| $body:expr) => {{
        fn run<'a>(
            $judge: &'a mut Filer,
            $target: &'a Target<'a>,
            $sessions: &'a SessionsClosed,
        ) -> BoxFuture<'a, Vec<HttpFact>> {
            Box::pin(async move { $body })
        }
        run as Requests
    }};
}

/// Every check of the transport judge, in the order they run (the order of
/// the records), each for one transport.
const PROBES: &[Probe] = &[
    // Streamable HTTP (2025-03-26 on).
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::Always,
        rules: &[
            RuleId::McpHttpNotification202,
            RuleId::McpHttpRequestContentType,
        ],
        run: Run::Reads(|j, e| j.streamable_facts(&e.facts(), &e.findings)),
    },
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::Always,
        rules: &[
            RuleId::McpHttpSessionIdVisibleAscii,
            RuleId::McpHttpSessionIdSecure,
        ],
        run: Run::Reads(|j, e| j.session_ids(&e.findings, e.traces)),
    },
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::Always,
        rules: &[RuleId::McpHttpSseStreamAnswers],
        run: Run::Reads(|j, e| j.sse_answers(&e.facts(), &e.findings)),
    },
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::Always,
        rules: &[RuleId::McpHttpOrigin403, RuleId::McpHttpOriginValidate],
        run: requests!(|j, t, _e| {
            let status = security::streamable_origin(j.revision, t).await;
            j.origin(status);
            Vec::new()
        }),
    },
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::RevisionsOf(RuleId::McpHttpSessionRequired400),
        rules: &[
            RuleId::McpHttpSessionRequired400,
            RuleId::McpHttpSessionTerminated404,
        ],
        run: requests!(|j, t, _e| {
            j.sessions(j.revision, t).await;
            Vec::new()
        }),
    },
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::RevisionsOf(RuleId::McpHttpProtocolVersion400),
        rules: &[RuleId::McpHttpProtocolVersion400],
        run: requests!(|j, t, _e| {
            j.protocol_version(j.revision, t).await;
            Vec::new()
        }),
    },
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::Always,
        rules: &[
            RuleId::McpHttpGetStreamOr405,
            RuleId::McpHttpGetNoResponse,
            RuleId::McpHttpEventIdUnique,
            RuleId::McpHttpReplaySameStream,
            RuleId::McpHttpGet405,
        ],
        run: requests!(|j, t, sessions| {
            j.get_stream(j.revision, t, sessions).await;
            Vec::new()
        }),
    },
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::Always,
        rules: &[RuleId::McpHttpSsePrimingEvent],
        run: Run::Reads(|j, e| sending::priming(j, &e.facts())),
    },
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::RevisionsOf(RuleId::McpHttpNoBroadcast),
        // A second GET refused otherwise than with 405 is filed under its
        // own vector of get-stream-or-405.
        rules: &[RuleId::McpHttpNoBroadcast, RuleId::McpHttpGetStreamOr405],
        run: requests!(|j, t, _e| {
            multiple_connections::broadcast(j, j.revision, t).await;
            Vec::new()
        }),
    },
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::RevisionsOf(RuleId::McpHttpHeaderBodyMatch),
        rules: &[
            RuleId::McpHttpHeaderBodyMatch,
            RuleId::McpHttpHeaderMismatch400,
        ],
        run: requests!(|j, t, _e| {
            j.header_mismatch(j.revision, t).await;
            Vec::new()
        }),
    },
    // The three 2026-07-28 request probes, whose exchanges the entries
    // after them read with the sessions'.
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::RevisionsOf(RuleId::McpHttpMethodNotFound404),
        rules: &[
            RuleId::McpHttpVersionHeaderMismatch400,
            RuleId::McpHttpHeaderNamesAnyCase,
        ],
        run: requests!(|j, t, _e| j.version_mismatch(j.revision, t).await),
    },
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::RevisionsOf(RuleId::McpHttpMethodNotFound404),
        rules: &[RuleId::McpHttpMethodNotFound404],
        run: requests!(|j, t, _e| j.method_not_found(j.revision, t).await),
    },
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::RevisionsOf(RuleId::McpHttpMethodNotFound404),
        rules: &[RuleId::McpHttpNameHeaderDecoded],
        run: requests!(|j, t, _e| j.name_decoded(j.revision, t).await),
    },
    // Judged only where the request probes ran, over their exchanges too.
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::RevisionsOf(RuleId::McpHttpMethodNotFound404),
        rules: &[RuleId::McpHttpSseNoBuffering],
        run: Run::Reads(|j, e| j.sse_buffering(&e.facts())),
    },
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::RevisionsOf(RuleId::McpHttpMethodNotFound404),
        rules: &[RuleId::McpHttpEndpointPost],
        run: Run::Reads(|j, e| j.endpoint_post(&e.facts())),
    },
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::Always,
        rules: &[RuleId::McpHttpSseEndsAfterResponse],
        run: Run::Reads(|j, e| j.sse_ends_after_response(&e.facts())),
    },
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::Always,
        rules: status_codes::RULES,
        run: Run::Reads(|j, e| status_codes::judge(j, &e.facts())),
    },
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::RevisionsOf(RuleId::McpHttpMetaMissing400),
        rules: &[
            RuleId::McpHttpParamHeaderMissingRefused,
            RuleId::McpHttpParamHeaderInvalidRefused,
            RuleId::McpHttpParamHeaderIntegerNumeric,
            RuleId::McpHttpMetaMissing400,
        ],
        run: requests!(|j, t, _e| {
            j.custom_headers(t).await;
            Vec::new()
        }),
    },
    // basic/authorization, under `--auth` only.
    Probe {
        kind: HttpKind::Streamable,
        applies: Applies::AuthorizedRevisionsOf(RuleId::McpAuthUnauthenticated401),
        rules: &[
            RuleId::McpAuthUnauthenticated401,
            RuleId::McpAuthChallengeResourceMetadata,
            RuleId::McpAuthPrmServed,
            RuleId::McpAuthPrmAuthorizationServers,
            RuleId::McpAuthPrmResource,
            RuleId::McpAuthTokenExpired401,
            RuleId::McpAuthTokenSignature401,
            RuleId::McpAuthTokenIssuer401,
            RuleId::McpAuthTokenAudience401,
            RuleId::McpAuthTokenAudienceMissing401,
            RuleId::McpAuthInvalidTokenChallenge,
            RuleId::McpAuthInvalidTokenError,
            RuleId::McpAuthNoTokenNoError,
            RuleId::McpAuthChallengeScope,
            RuleId::McpAuthInsufficientScope403,
            RuleId::McpAuthInsufficientScopeChallenge,
            RuleId::McpAuthInsufficientScopeNamesScope,
            RuleId::McpAuthNoOfflineAccessScope,
            RuleId::McpAuthInsufficientScopeSingleChallenge,
            RuleId::McpAuthAsMetadataServed,
            RuleId::McpAuthAsMetadataRoot,
            RuleId::McpAuthAsMetadataFields,
            RuleId::McpAuthDefaultEndpoints,
            RuleId::McpAuthDynamicRegistration,
        ],
        run: requests!(|j, t, _e| {
            j.authorization(j.revision, t).await;
            Vec::new()
        }),
    },
    // HTTP+SSE (2024-11-05).
    Probe {
        kind: HttpKind::Sse,
        applies: Applies::Always,
        rules: &[RuleId::McpHttpSseMessageEvent],
        run: Run::Reads(|j, e| j.sse_message_events(&e.facts(), &e.findings)),
    },
    Probe {
        kind: HttpKind::Sse,
        applies: Applies::Always,
        rules: &[RuleId::McpHttpSseTwoEndpoints],
        run: Run::Reads(|j, e| j.sse_endpoints(&e.facts())),
    },
    Probe {
        kind: HttpKind::Sse,
        applies: Applies::Always,
        rules: &[RuleId::McpHttpSseOriginValidate],
        run: requests!(|j, t, _e| {
            let status = security::sse_origin(t).await;
            j.origin(status);
            Vec::new()
        }),
    },
    // JSON-RPC 2.0 over HTTP.
    Probe {
        kind: HttpKind::JsonRpc,
        applies: Applies::Always,
        rules: &[
            RuleId::JsonRpcHttpNullBody,
            RuleId::JsonRpcHttpEmptyArrayBody,
        ],
        run: Run::Reads(|j, e| j.jsonrpc_bodies(&e.facts(), &e.findings)),
    },
];

/// The transport records of one revision: every entry of `PROBES` for
/// `kind` that applies to `revision`, in order, then what HTTP did wrong
/// that no rule names.
///
/// The entries that make requests of their own run first, at once, each on
/// a judge of its own (each probe its own fresh session, as the sessions
/// are: nothing one sends reaches another's) while the revision's sessions
/// still play; the entries that read the sessions' exchanges run once
/// `sessions` has them. The records are then taken in the table's order,
/// each entry's as it filed them, so they are the records and the order of
/// the entries run one after another.
pub(super) async fn judge(
    revision: Revision,
    kind: HttpKind,
    url: &str,
    sessions: &SessionsClosed,
    config: &Config,
) -> Vec<Record> {
    let target = Target::of(url, config);
    let entries: Vec<&Probe> = PROBES
        .iter()
        .filter(|p| p.kind == kind && p.applies.to(revision, &target))
        .collect();
    let entries = &entries;
    let target = &target;
    let requested =
        futures::future::join_all(entries.iter().enumerate().map(|(n, probe)| async move {
            let run = match probe.run {
                Run::Reads(_) => return None,
                Run::Requests(run) => run,
            };
            let mut own = Filer::new(revision, Kind::Http(kind));
            if config.polite() {
                // Left out, each rule said once (an entry may file a rule an
                // earlier one files too), with why (`polite::HTTP_PROBES_LEFT_OUT`).
                let why = super::polite::http_probe_left_out(probe.rules);
                let earlier = |rule: &RuleId| {
                    entries[..n]
                        .iter()
                        .any(|e| matches!(e.run, Run::Requests(_)) && e.rules.contains(rule))
                };
                for rule in probe.rules.iter().filter(|r| !earlier(r)) {
                    own.not_applicable(*rule, why.clone());
                }
                return Some((own.records, Vec::new()));
            }
            let probed = run(&mut own, target, sessions).await;
            Some((own.records, probed))
        }))
        .await;
    let traces = sessions.traces().await;
    let mut judge = Filer::new(revision, Kind::Http(kind));
    let mut evidence = Evidence {
        traces: &traces,
        sessions: traces.iter().flat_map(|t| &t.facts).collect(),
        findings: traces.iter().flat_map(|t| &t.findings).collect(),
        probed: Vec::new(),
    };
    for (probe, requested) in entries.iter().zip(requested) {
        let before = judge.records.len();
        match (&probe.run, requested) {
            (Run::Reads(read), _) => read(&mut judge, &evidence),
            (Run::Requests(_), Some((records, probed))) => {
                judge.records.extend(records);
                evidence.probed.extend(probed);
            }
            (Run::Requests(_), None) => {}
        }
        // An exchange shown for a record the probe did not file goes no further.
        judge.shown.clear();
        debug_assert!(
            judge.records[before..]
                .iter()
                .all(|r| r.check.as_ref().is_some_and(|c| probe
                    .rules
                    .iter()
                    .any(|rule| c.rule == CheckId::Rule(*rule)))),
            "a transport probe filed a record for a rule its table entry does not name"
        );
    }
    exchanges(&mut judge, &evidence.findings);
    judge.records
}

/// The rules each table entry that makes requests of its own files, in the
/// table's order: what polite mode leaves out.
#[cfg(test)]
pub(super) fn requesting() -> impl Iterator<Item = &'static [RuleId]> {
    PROBES
        .iter()
        .filter(|p| matches!(p.run, Run::Requests(_)))
        .map(|p| p.rules)
}

/// What HTTP did wrong that no rule above covers (a redirect, an HTML
/// error page, a cut body): notes for a person to read beside a pass,
/// never a warning, since no sentence binds it (the zoo's hand-check
/// found it warned under a MUST label) and the vectors it cost an answer
/// are judged in their own records.
fn exchanges(judge: &mut Filer, findings: &[&HttpFinding]) {
    let named = [
        FindingKind::UnexpectedBody,
        FindingKind::WrongContentType,
        FindingKind::SessionIdNotVisibleAscii,
        FindingKind::UnexpectedEventType,
        FindingKind::NullBody,
        FindingKind::EmptyBatchBody,
        // A request without an answer fails its vector's record.
        FindingKind::NoAnswer,
    ];
    let rest: Vec<String> = findings
        .iter()
        .filter(|f| !named.contains(&f.kind))
        .map(|f| describe(f))
        .collect();
    if rest.is_empty() {
        return;
    }
    let mut record = Record::new(
        Place {
            vector: Some(format!("run/{}/http/exchanges", judge.revision)),
            revision: Some(judge.revision),
            transport: Some(judge.kind.into()),
            ..Place::default()
        },
        Subject::Frame(Vec::new()),
        Outcome::Pass,
    );
    record.check = Some(Check {
        rule: OwnCheck::HttpExchanges.into(),
        level: harness::rules::Level::May,
        spec: "not a rule: HTTP trouble no transport sentence names, for a person to read".into(),
    });
    record.violations = Some(Vec::new());
    let total = rest.len();
    record.notes = rest.into_iter().take(40).collect();
    if total > 40 {
        record.notes.push(format!("… {} more", total - 40));
    }
    judge.records.push(record);
}

pub(super) fn essence(content_type: Option<&str>) -> String {
    content_type
        .and_then(|ct| ct.split(';').next())
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// 2026-07-28 schema `HeaderMismatchError`.
pub(super) const HEADER_MISMATCH: i64 = -32020;

/// How long a GET stream is read at least (the first window, and the
/// broadcast probe's), and a resumed one at most.
pub(super) const GET_LISTEN: Duration = Duration::from_secs(1);

/// Why a GET answered `status` shows nothing of what the server offers:
/// 429 Too Many Requests and 503 Service Unavailable say it was busy
/// (RFC 9110 §15.6.4, RFC 6585 §4), which a probe beside the run's
/// sessions may meet. Neither is a stream or a 405, but no conformance
/// verdict rests on a server's refusal to be loaded: not observed.
pub(super) fn busy(status: u16) -> Option<String> {
    matches!(status, 429 | 503).then(|| {
        format!(
            "answered {status}: the server was busy, so what it offers was not seen (--parallel-revisions 1 plays one revision at a time)"
        )
    })
}

/// Whether `data` holds a JSON-RPC response (or a batch with one). A routing
/// guess; the codec judges the bytes.
pub(super) fn is_response(data: &[u8]) -> bool {
    let one = |v: &serde_json::Value| {
        v.get("method").is_none() && (v.get("result").is_some() || v.get("error").is_some())
    };
    match serde_json::from_slice::<serde_json::Value>(data) {
        Ok(serde_json::Value::Array(items)) => items.iter().any(one),
        Ok(value) => one(&value),
        Err(_) => false,
    }
}

/// `one` for 1, else `many`: "1 message", "2 messages".
pub(super) fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// The first bytes of a message, for a report.
pub(super) fn snippet(data: &[u8]) -> String {
    let text = String::from_utf8_lossy(&data[..data.len().min(160)]).into_owned();
    if data.len() > 160 {
        format!("{text}…")
    } else {
        text
    }
}

/// Every frame the server sent on `driver`'s session so far.
pub(super) fn server_frames(driver: &Driver<Wire>) -> Vec<Vec<u8>> {
    crate::driver::server_frames(driver.log())
        .map(<[u8]>::to_vec)
        .collect()
}

/// Answers each `ping` the GET stream carried: the receiver "MUST respond
/// promptly" (basic/utilities/ping), whichever side asked.
pub(super) async fn answer_pings(driver: &mut Driver<Wire>, stream: &GetStream) {
    use crate::transport::Transport as _;
    for event in &stream.events {
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(&event.data) else {
            continue;
        };
        if value.get("method").and_then(serde_json::Value::as_str) != Some("ping") {
            continue;
        }
        let Some(id) = value.get("id") else { continue };
        let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}});
        let _ = streamable(driver).send(answer.to_string().as_bytes()).await;
    }
}

/// The Streamable HTTP peer inside a driver this module built.
pub(super) fn streamable(driver: &mut Driver<Wire>) -> &mut StreamableHttpPeer {
    match driver.transport_mut() {
        Wire::Streamable(p) => p,
        // Only `handshaken` builds these drivers, always over Streamable HTTP.
        _ => unreachable!("the transport judge's own drivers are Streamable HTTP"),
    }
}

/// A driver of a fresh Streamable HTTP connection, nothing sent yet, the
/// `Origin` header set when given.
pub(super) fn connected(target: &Target<'_>, origin: Option<&str>) -> Result<Driver<Wire>, String> {
    let mut peer = StreamableHttpPeer::with_options(target.url, target.limits, target.http.clone())
        .map_err(|e| e.to_string())?;
    if let Some(bearer) = &target.bearer {
        peer.set_header(reqwest::header::AUTHORIZATION, bearer.clone());
    }
    if let Some(origin) = origin.and_then(|o| HeaderValue::from_str(o).ok()) {
        peer.set_header(HeaderName::from_static("origin"), origin);
    }
    Ok(Driver::new(Wire::Streamable(peer), target.driver.clone()))
}

/// A fresh Streamable HTTP session with its handshake done, the `Origin`
/// header set when given.
pub(super) async fn handshaken(
    revision: Revision,
    target: &Target<'_>,
    origin: Option<&str>,
) -> Result<Driver<Wire>, String> {
    let mut driver = connected(target, origin)?;
    match driver.handshake(revision).await {
        Ok(_) => Ok(driver),
        Err(e) if origin.is_some() => {
            // The refusal is the point; the status is in the facts.
            let _ = e;
            Ok(driver)
        }
        Err(e) => Err(format!("the probe's handshake failed: {e}")),
    }
}

/// A liveness answer on `driver`'s session: a [`ping`] sent now, and
/// answered (or refused, or timed out), then the run's `--grace`. A server
/// that handles a session's messages in order has handled everything the
/// session sent before it, whatever its load, so a stream window that lasts
/// until then grows with the server's pace, where a fixed one would measure
/// it. The grace is for a message it wrote on another connection before
/// the answer: nothing orders two connections.
pub(super) async fn answered_ping(
    driver: &mut Driver<Wire>,
    revision: Revision,
    target: &Target<'_>,
) {
    let _ = ping(driver, revision, target).await;
    tokio::time::sleep(target.driver.grace).await;
}

/// The exchange of a `ping` sent on `driver`'s session as it stands.
pub(super) async fn ping(
    driver: &mut Driver<Wire>,
    revision: Revision,
    target: &Target<'_>,
) -> Seen {
    let before = driver.transport().http_facts().len();
    // A 2026-07-28 server may route by method before it checks the version,
    // and `ping` is not among its methods (a 404 -32601 would hide the
    // check); `server/discover` is.
    let method = if revision == Revision::Mcp2026_07_28 {
        "server/discover"
    } else {
        "ping"
    };
    // Whether it is answered does not matter here: the status does.
    let _ = driver
        .request(
            method,
            None,
            target.driver.answer_timeout.min(Duration::from_secs(5)),
        )
        .await;
    driver
        .transport()
        .http_facts()
        .get(before..)
        .unwrap_or_default()
        .iter()
        // The handshake's notification may finish later than it started.
        .find(|f| f.method == "POST" && f.expected_answer)
        .cloned()
        .ok_or_else(|| "the ping got no HTTP response".to_owned())
}

/// The exchange of the probe among `facts`: the first POST after index
/// `before` that expected an answer.
pub(super) fn probe_exchange(facts: &[HttpFact], before: usize) -> Option<&HttpFact> {
    facts
        .get(before..)
        .unwrap_or_default()
        .iter()
        .find(|f| f.method == "POST" && f.expected_answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream(ended_after_answer: Option<bool>) -> HttpFact {
        HttpFact {
            ended_after_answer,
            ..crate::runner::facts_for_tests::sse_answer()
        }
    }

    /// The outcome of `rule`'s record among `judge`'s.
    fn outcome_of(judge: &Filer, rule: RuleId) -> Outcome {
        let records: Vec<&Record> = judge
            .records
            .iter()
            .filter(|r| r.check.as_ref().is_some_and(|c| c.rule == rule.as_str()))
            .collect();
        assert_eq!(records.len(), 1, "{rule:?}");
        records[0].outcome.clone()
    }

    fn judge_of(revision: Revision, kind: HttpKind) -> Filer {
        Filer {
            revision,
            kind: Kind::Http(kind),
            records: Vec::new(),
            shown: Vec::new(),
        }
    }

    /// An exchange shown for a record a rule outside the revision would have
    /// filed goes to no later record (the review found it could).
    #[test]
    fn an_exhibit_never_carries_over_to_another_record() {
        let mut j = judge_of(Revision::Mcp2025_03_26, HttpKind::Streamable);
        j.exhibit([&crate::runner::facts_for_tests::sse_answer()]);
        // 403 is a rule of 2025-11-25 on: no record under 2025-03-26.
        j.verdict(RuleId::McpHttpOrigin403, vec!["x".into()], Vec::new());
        j.verdict(RuleId::McpHttpOriginValidate, Vec::new(), Vec::new());
        assert_eq!(j.records.len(), 1);
        assert!(j.records[0].http.is_empty(), "{:?}", j.records[0].http);
        // Shown with the next record filed, it is that record's.
        j.exhibit([&crate::runner::facts_for_tests::sse_answer()]);
        j.verdict(RuleId::McpHttpOriginValidate, Vec::new(), Vec::new());
        assert_eq!(j.records[1].http.len(), 1);
    }

    /// A transport check that saw nothing of
    /// what its rule is about is not observed, never a pass.
    #[test]
    fn transport_checks_without_evidence_are_not_observed() {
        let unseen = |o: &Outcome| matches!(o, Outcome::NotObserved { .. });
        let mut j = judge_of(Revision::JsonRpc2, HttpKind::JsonRpc);
        j.jsonrpc_bodies(&[], &[]);
        assert!(unseen(&outcome_of(&j, RuleId::JsonRpcHttpNullBody)));
        assert!(unseen(&outcome_of(&j, RuleId::JsonRpcHttpEmptyArrayBody)));
        let body = HttpFact {
            content_type: Some("application/json".into()),
            ..crate::runner::facts_for_tests::sse_answer()
        };
        let mut j = judge_of(Revision::JsonRpc2, HttpKind::JsonRpc);
        j.jsonrpc_bodies(&[&body], &[]);
        assert_eq!(outcome_of(&j, RuleId::JsonRpcHttpNullBody), Outcome::Pass);

        let mut j = judge_of(Revision::Mcp2024_11_05, HttpKind::Sse);
        let endpoint_only = HttpFact {
            method: "GET".into(),
            frames: 0,
            ..crate::runner::facts_for_tests::sse_answer()
        };
        j.sse_message_events(&[&endpoint_only], &[]);
        assert!(unseen(&outcome_of(&j, RuleId::McpHttpSseMessageEvent)));
        let mut j = judge_of(Revision::Mcp2024_11_05, HttpKind::Sse);
        let carried = HttpFact {
            frames: 3,
            ..endpoint_only
        };
        j.sse_message_events(&[&carried], &[]);
        assert_eq!(
            outcome_of(&j, RuleId::McpHttpSseMessageEvent),
            Outcome::Pass
        );

        let mut j = judge_of(Revision::Mcp2025_11_25, HttpKind::Streamable);
        let refused = HttpFact {
            status: 400,
            content_type: Some("text/html".into()),
            ..crate::runner::facts_for_tests::sse_answer()
        };
        j.streamable_facts(&[&refused], &[]);
        assert!(unseen(&outcome_of(&j, RuleId::McpHttpRequestContentType)));
        let mut j = judge_of(Revision::Mcp2025_11_25, HttpKind::Streamable);
        j.streamable_facts(&[&body], &[]);
        assert_eq!(
            outcome_of(&j, RuleId::McpHttpRequestContentType),
            Outcome::Pass
        );
    }

    /// `[]` answered 202 with no body holds no request: MCP
    /// basic/transports' Content-Type sentence ("If the input contains any
    /// number of JSON-RPC requests") does not reach it (the silence is the
    /// empty-batch vector's to judge); a request answered so breaks it.
    #[test]
    fn a_post_holding_no_request_is_outside_the_content_type_rule() {
        let accepted_empty = HttpFact {
            status: 202,
            content_type: None,
            frames: 0,
            holds_request: false,
            ..crate::runner::facts_for_tests::sse_answer()
        };
        let mut j = judge_of(Revision::Mcp2025_06_18, HttpKind::Streamable);
        j.streamable_facts(&[&accepted_empty], &[]);
        assert!(matches!(
            outcome_of(&j, RuleId::McpHttpRequestContentType),
            Outcome::NotObserved { .. }
        ));
        let accepted_request = HttpFact {
            holds_request: true,
            ..accepted_empty
        };
        let mut j = judge_of(Revision::Mcp2025_06_18, HttpKind::Streamable);
        j.streamable_facts(&[&accepted_request], &[]);
        assert_eq!(
            outcome_of(&j, RuleId::McpHttpRequestContentType),
            Outcome::Fail
        );
    }

    fn ends_verdict(facts: &[HttpFact]) -> Outcome {
        let mut judge = Filer::new(Revision::Mcp2025_11_25, Kind::Http(HttpKind::Streamable));
        let facts: Vec<&HttpFact> = facts.iter().collect();
        judge.sse_ends_after_response(&facts);
        assert_eq!(judge.records.len(), 1);
        judge.records.remove(0).outcome
    }

    #[test]
    fn a_stream_open_after_its_response_warns_and_a_cut_one_shows_nothing() {
        assert_eq!(ends_verdict(&[stream(Some(true))]), Outcome::Pass);
        assert_eq!(
            ends_verdict(&[stream(Some(true)), stream(Some(false))]),
            Outcome::Warning
        );
        assert!(matches!(
            ends_verdict(&[stream(None)]),
            Outcome::NotObserved { .. }
        ));
    }
}
