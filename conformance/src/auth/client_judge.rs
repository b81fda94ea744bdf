//! The client's authorization judged from what the protected peer and the
//! authorization server saw ([`observed`](super::observed)): one record per
//! client-side `mcp.auth.client-*` rule of the revision, each a pass, a
//! fail (a MUST broken), a warning (a SHOULD broken), or not observed when
//! the client never did what the rule looks at. Pure: the log in, records
//! out, so the tests drive it event by event.

use std::collections::{BTreeMap, BTreeSet};

use harness::rules::RuleId;
use harness::{Outcome, Revision};

use super::observed::Event;
use super::resource::{bearer_params, same_resource, PRM_PREFIX};

/// What the judged setup offered the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// The MCP endpoint, `http://IP:PORT/mcp`: the canonical server URI.
    pub server_url: String,
    /// The path of the metadata URL the 401 names (not a well-known one).
    pub challenge_path: String,
    /// The scopes the 401 names.
    pub challenge_scopes: Vec<String>,
    /// The authorization server's metadata leaves out
    /// `code_challenge_methods_supported`.
    pub no_pkce_metadata: bool,
    /// The authorization server's redirects name another issuer in `iss`.
    pub wrong_iss: bool,
}

/// The RFC 8414 metadata path of an issuer without a path.
pub const AS_METADATA: &str = "/.well-known/oauth-authorization-server";
/// The OpenID Connect Discovery path of an issuer without a path.
pub const OIDC_METADATA: &str = "/.well-known/openid-configuration";

/// More refusals of one operation for insufficient scope than this break
/// mcp.auth.client-retry-limit ("no more than a few times").
pub const RETRY_LIMIT: usize = 5;

/// Broken instances quoted per rule; the rest are counted.
const QUOTED: usize = 5;

/// The parameter names of a request, for a finding's message: which were
/// sent shows what is missing without quoting a value (a code, a verifier).
fn names(params: &BTreeMap<String, String>) -> String {
    let names: Vec<&str> = params.keys().map(String::as_str).collect();
    if names.is_empty() {
        "no parameter".into()
    } else {
        names.join(", ")
    }
}

/// One rule's observations: how many were judged, and the broken ones.
#[derive(Default)]
struct Seen {
    judged: usize,
    broken: Vec<String>,
    /// What was counted, for the record's notes.
    counts: Vec<String>,
}

impl Seen {
    fn check(&mut self, problem: Option<String>) {
        self.judged += 1;
        if let Some(p) = problem {
            self.broken.push(p);
        }
    }
}

/// A verdict: the outcome's reason when nothing was judged, or the broken.
enum Verdict {
    NotObserved(String),
    NotApplicable(String),
    Judged(Seen),
}

/// The judge's view of the log.
struct View<'a> {
    events: &'a [Event],
    setup: &'a Setup,
    mcp_path: String,
}

impl View<'_> {
    /// `(index, parameters)` of each authorization request.
    fn authorizations(&self) -> Vec<(usize, &BTreeMap<String, String>)> {
        self.events
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match e {
                Event::Issuer { path, params, .. } if path == "/authorize" => Some((i, params)),
                _ => None,
            })
            .collect()
    }

    /// `(index, parameters, verifier matched, issued)` of each token request.
    #[expect(
        clippy::type_complexity,
        reason = "a token request's facts as the judge reads them, in one place"
    )]
    fn tokens(&self) -> Vec<(usize, &BTreeMap<String, String>, Option<bool>, Option<&str>)> {
        self.events
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match e {
                Event::Token {
                    params,
                    verifier_matched,
                    issued,
                    ..
                } => Some((i, params, *verifier_matched, issued.as_deref())),
                _ => None,
            })
            .collect()
    }

    /// The tokens issued, and where the first was.
    fn issued(&self) -> (Vec<&str>, Option<usize>) {
        let tokens = self.tokens();
        let first = tokens.iter().find(|t| t.3.is_some()).map(|t| t.0);
        (tokens.iter().filter_map(|t| t.3).collect(), first)
    }

    /// `(index, method, path, query, authorization)` of the requests to the
    /// MCP server from `from` on.
    #[expect(
        clippy::type_complexity,
        reason = "a request's `resource` facts as the judge reads them, in one place"
    )]
    fn resource_from(&self, from: usize) -> Vec<(usize, &str, &str, Option<&str>, Option<&str>)> {
        self.events
            .iter()
            .enumerate()
            .skip(from)
            .filter_map(|(i, e)| match e {
                Event::Resource {
                    method,
                    path,
                    query,
                    authorization,
                    ..
                } => Some((
                    i,
                    method.as_str(),
                    path.as_str(),
                    query.as_deref(),
                    authorization.as_deref(),
                )),
                _ => None,
            })
            .collect()
    }

    /// The first 401 the MCP server answered, its index and challenge.
    fn first_401(&self) -> Option<(usize, Option<BTreeMap<String, String>>)> {
        self.events.iter().enumerate().find_map(|(i, e)| match e {
            Event::Resource {
                status: 401,
                challenge,
                ..
            } => Some((i, challenge.as_deref().and_then(bearer_params))),
            _ => None,
        })
    }

    fn pkce(&self) -> Verdict {
        let (auths, tokens) = (self.authorizations(), self.tokens());
        if auths.is_empty() && tokens.is_empty() {
            return Verdict::NotObserved(
                "the client sent no authorization or token request".into(),
            );
        }
        let mut seen = Seen::default();
        for (_, params) in &auths {
            seen.check((!params.contains_key("code_challenge")).then(|| {
                format!(
                    "an authorization request carried no `code_challenge` (it sent {})",
                    names(params)
                )
            }));
        }
        for (_, params, matched, _) in &tokens {
            if params.get("grant_type").map(String::as_str) != Some("authorization_code") {
                continue;
            }
            seen.check(match (params.contains_key("code_verifier"), matched) {
                (false, _) => Some(format!(
                    "a token request redeeming a code carried no `code_verifier` (it sent {})",
                    names(params)
                )),
                (true, Some(false)) => Some(
                    "a token request's `code_verifier` does not match the `code_challenge` of the code it redeems"
                        .into(),
                ),
                _ => None,
            });
        }
        Verdict::Judged(seen)
    }

    fn pkce_s256(&self) -> Verdict {
        let challenged: Vec<_> = self
            .authorizations()
            .into_iter()
            .filter(|(_, p)| p.contains_key("code_challenge"))
            .collect();
        if challenged.is_empty() {
            return Verdict::NotObserved(
                "no authorization request carried a `code_challenge`".into(),
            );
        }
        let mut seen = Seen::default();
        for (_, params) in challenged {
            let method = params.get("code_challenge_method").map(String::as_str);
            seen.check((method != Some("S256")).then(|| {
                format!(
                    "an authorization request's `code_challenge_method` is {}, not `S256`",
                    method.map_or("absent (`plain`)".to_owned(), |m| format!("`{m}`"))
                )
            }));
        }
        Verdict::Judged(seen)
    }

    fn pkce_refuse(&self) -> Verdict {
        if !self.setup.no_pkce_metadata {
            return Verdict::NotApplicable(
                "the authorization server's metadata named `code_challenge_methods_supported`; `--auth-scenario no-pkce-metadata` leaves it out".into(),
            );
        }
        let fetched = self.events.iter().position(|e| {
            matches!(e, Event::Issuer { path, status: 200, .. } if path == AS_METADATA || path == OIDC_METADATA)
        });
        let Some(fetched) = fetched else {
            return Verdict::NotObserved(
                "the client never fetched the authorization server's metadata".into(),
            );
        };
        let proceeded = self.events.iter().skip(fetched).find_map(|e| match e {
            Event::Issuer { path, .. } if path == "/authorize" => Some("an authorization request"),
            Event::Token { .. } => Some("a token request"),
            _ => None,
        });
        let mut seen = Seen::default();
        seen.check(proceeded.map(|what| {
            format!("the metadata named no `code_challenge_methods_supported`, and the client went on to send {what}")
        }));
        Verdict::Judged(seen)
    }

    fn iss(&self) -> Verdict {
        if !self.setup.wrong_iss {
            return Verdict::NotApplicable(
                "the authorization server's redirects named its own issuer; `--auth-scenario wrong-iss` names another".into(),
            );
        }
        let Some(first) = self.authorizations().first().map(|a| a.0) else {
            return Verdict::NotObserved("the client sent no authorization request".into());
        };
        let redeemed = self.tokens().into_iter().any(|t| t.0 > first);
        let mut seen = Seen::default();
        seen.check(redeemed.then(|| {
            "the authorization response's `iss` named another issuer than the metadata's, and the client sent its code to the token endpoint".to_owned()
        }));
        Verdict::Judged(seen)
    }

    /// Every authorization and token request's `resource`, `None` when absent.
    fn resources(&self) -> Vec<(&'static str, Option<&str>)> {
        let mut sent: Vec<(usize, &'static str, Option<&str>)> = self
            .authorizations()
            .into_iter()
            .map(|(i, p)| {
                (
                    i,
                    "an authorization request",
                    p.get("resource").map(String::as_str),
                )
            })
            .collect();
        sent.extend(
            self.tokens()
                .into_iter()
                .map(|(i, p, _, _)| (i, "a token request", p.get("resource").map(String::as_str))),
        );
        sent.sort_by_key(|s| s.0);
        sent.into_iter().map(|(_, what, r)| (what, r)).collect()
    }

    fn resource(&self) -> Verdict {
        let sent = self.resources();
        if sent.is_empty() {
            return Verdict::NotObserved(
                "the client sent no authorization or token request".into(),
            );
        }
        let mut seen = Seen::default();
        for (what, resource) in sent {
            seen.check(
                resource
                    .is_none()
                    .then(|| format!("{what} carried no `resource`")),
            );
        }
        Verdict::Judged(seen)
    }

    fn resource_canonical(&self) -> Verdict {
        let sent: Vec<_> = self
            .resources()
            .into_iter()
            .filter_map(|(what, r)| r.map(|r| (what, r)))
            .collect();
        if sent.is_empty() {
            return Verdict::NotObserved("the client sent no `resource`".into());
        }
        let mut seen = Seen::default();
        for (what, resource) in sent {
            seen.check((!same_resource(resource, &self.setup.server_url)).then(|| {
                format!(
                    "{what}'s `resource` is {resource:?}, not the server's canonical URI {:?}",
                    self.setup.server_url
                )
            }));
        }
        Verdict::Judged(seen)
    }

    fn bearer(&self) -> Verdict {
        let (_, Some(first)) = self.issued() else {
            return Verdict::NotObserved(
                "the authorization server issued the client no token".into(),
            );
        };
        let after: Vec<_> = self
            .resource_from(first)
            .into_iter()
            .filter(|r| r.2 == self.mcp_path)
            .collect();
        if after.is_empty() {
            return Verdict::NotObserved(
                "the client sent the MCP endpoint nothing after it got its token".into(),
            );
        }
        let mut seen = Seen::default();
        for (_, method, _, _, authorization) in after {
            let bearer = authorization.and_then(|v| {
                let (scheme, token) = v.trim().split_once(' ')?;
                (scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty()).then_some(())
            });
            seen.check(bearer.is_none().then(|| {
                format!(
                    "a {method} to the MCP endpoint after the client had its token carried {}",
                    if authorization.is_some() {
                        "an `Authorization` header that is no `Bearer` token"
                    } else {
                        "no `Authorization` header"
                    }
                )
            }));
        }
        Verdict::Judged(seen)
    }

    fn token_not_in_query(&self) -> Verdict {
        let (issued, Some(first)) = self.issued() else {
            return Verdict::NotObserved(
                "the authorization server issued the client no token".into(),
            );
        };
        let after = self.resource_from(first);
        if after.is_empty() {
            return Verdict::NotObserved(
                "the client sent the MCP server nothing after it got its token".into(),
            );
        }
        let mut seen = Seen::default();
        for (_, method, path, query, _) in after {
            let query = query.unwrap_or_default();
            let named = super::observed::params(query).contains_key("access_token");
            let carried = issued.iter().any(|t| query.contains(t));
            seen.check((named || carried).then(|| {
                format!("a {method} to {path} carried an access token in its query string")
            }));
        }
        Verdict::Judged(seen)
    }

    /// Every bearer sent to the MCP server, from the first request on (a
    /// token brought from elsewhere before the flow breaks it too), is one
    /// the authorization server issued.
    fn issued_token(&self) -> Verdict {
        let (issued, _) = self.issued();
        let mut seen = Seen::default();
        for (_, method, path, _, authorization) in self.resource_from(0) {
            let Some(token) = authorization.and_then(|v| {
                let (scheme, token) = v.trim().split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
            }) else {
                continue;
            };
            // The token itself is never quoted: a finding is written to
            // reports.
            seen.check((!issued.contains(&token)).then(|| {
                format!("a {method} to {path} carried a bearer token the authorization server never issued")
            }));
        }
        if seen.judged == 0 {
            return Verdict::NotObserved(
                "no request to the MCP server carried a bearer token".into(),
            );
        }
        Verdict::Judged(seen)
    }

    /// Whether `path` is one of the server's Protected Resource Metadata URLs.
    fn is_prm(&self, path: &str) -> bool {
        path == self.setup.challenge_path
            || path == PRM_PREFIX
            || path.starts_with(&format!("{PRM_PREFIX}/"))
    }

    fn discovery(&self, revision: Revision) -> Verdict {
        let Some((challenged, _)) = self.first_401() else {
            return Verdict::NotObserved("the MCP server never answered the client 401".into());
        };
        let authorize = self
            .authorizations()
            .into_iter()
            .map(|a| a.0)
            .find(|&i| i > challenged);
        let end = authorize.unwrap_or(self.events.len());
        let first = self
            .resource_from(challenged)
            .into_iter()
            .find(|r| r.0 < end && r.1 == "GET" && self.is_prm(r.2));
        let mut seen = Seen::default();
        match (first, authorize) {
            (None, None) => {
                return Verdict::NotObserved(
                    "after the 401 the client fetched no resource metadata and sent no authorization request".into(),
                )
            }
            (None, Some(_)) => seen.check(Some(
                "after the 401 the client went to the authorization server without fetching the server's Protected Resource Metadata".into(),
            )),
            (Some((_, _, path, _, _)), _) => {
                let header_first = revision == Revision::Mcp2025_06_18 || path == self.setup.challenge_path;
                seen.check((!header_first).then(|| {
                    format!(
                        "the 401 named the metadata URL {}, and the client fetched {path} first: it must use the URL from `WWW-Authenticate` when present",
                        self.setup.challenge_path
                    )
                }));
            }
        }
        Verdict::Judged(seen)
    }

    fn as_metadata(&self) -> Verdict {
        let Some(authorize) = self.authorizations().first().map(|a| a.0) else {
            return Verdict::NotObserved("the client sent no authorization request".into());
        };
        let fetched = self.events[..authorize]
            .iter()
            .any(|e| matches!(e, Event::Issuer { method, path, .. } if method == "GET" && path == AS_METADATA));
        let mut seen = Seen::default();
        seen.check((!fetched).then(|| {
            format!("the client sent its authorization request without first requesting the issuer's {AS_METADATA}")
        }));
        Verdict::Judged(seen)
    }

    fn challenge_scope(&self) -> Verdict {
        let Some((challenged, _)) = self.first_401() else {
            return Verdict::NotObserved("the MCP server never answered the client 401".into());
        };
        let Some((_, params)) = self.authorizations().into_iter().find(|a| a.0 > challenged) else {
            return Verdict::NotObserved(
                "the client sent no authorization request after the 401".into(),
            );
        };
        let asked: BTreeSet<&str> = params
            .get("scope")
            .map(|s| s.split(' ').filter(|s| !s.is_empty()).collect())
            .unwrap_or_default();
        let missing: Vec<&str> = self
            .setup
            .challenge_scopes
            .iter()
            .map(String::as_str)
            .filter(|s| !asked.contains(s))
            .collect();
        let mut seen = Seen::default();
        seen.check((!missing.is_empty()).then(|| {
            format!(
                "the 401 named scope {:?}; the client's first authorization request asked {} (without {})",
                self.setup.challenge_scopes.join(" "),
                params.get("scope").map_or("no scope".to_owned(), |s| format!("{s:?}")),
                missing.join(", ")
            )
        }));
        Verdict::Judged(seen)
    }

    fn step_up_scope(&self) -> Verdict {
        let words = |s: &str| -> BTreeSet<String> {
            s.split(' ')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        };
        let mut seen = Seen::default();
        let mut granted: BTreeSet<String> = BTreeSet::new();
        // The scopes of the last 403 `insufficient_scope` not yet followed
        // by an authorization request.
        let mut challenged: Option<BTreeSet<String>> = None;
        for e in self.events {
            match e {
                Event::Resource {
                    refused: Some(_),
                    challenge: Some(c),
                    ..
                } => {
                    let params = bearer_params(c).unwrap_or_default();
                    challenged = Some(words(params.get("scope").map_or("", String::as_str)));
                }
                Event::Issuer { path, params, .. } if path == "/authorize" => {
                    let Some(needed) = challenged.take() else {
                        continue;
                    };
                    let asked = words(params.get("scope").map_or("", String::as_str));
                    let missing: Vec<&str> = needed
                        .union(&granted)
                        .filter(|s| !asked.contains(*s))
                        .map(String::as_str)
                        .collect();
                    seen.check((!missing.is_empty()).then(|| {
                        format!(
                            "re-authorizing after a 403 insufficient_scope, the client asked {} without {}",
                            params.get("scope").map_or("no scope".to_owned(), |s| format!("{s:?}")),
                            missing.join(", ")
                        )
                    }));
                }
                Event::Token {
                    granted: Some(g), ..
                } => granted.extend(words(g)),
                _ => {}
            }
        }
        if seen.judged == 0 {
            return Verdict::NotObserved(
                "no 403 insufficient_scope was followed by an authorization request".into(),
            );
        }
        Verdict::Judged(seen)
    }

    fn retry_limit(&self) -> Verdict {
        let mut refused: BTreeMap<&str, usize> = BTreeMap::new();
        for e in self.events {
            if let Event::Resource {
                refused: Some(op), ..
            } = e
            {
                *refused.entry(op.as_str()).or_default() += 1;
            }
        }
        if refused.is_empty() {
            return Verdict::NotObserved(
                "the peer refused no request for insufficient scope (it does so to `tools/call`)"
                    .into(),
            );
        }
        let mut seen = Seen::default();
        for (op, n) in refused {
            seen.counts
                .push(format!("`{op}` refused {n} time(s) for insufficient scope"));
            seen.check((n > RETRY_LIMIT).then(|| {
                format!("`{op}` was refused with 403 insufficient_scope {n} times and sent again each time (more than {RETRY_LIMIT})")
            }));
        }
        Verdict::Judged(seen)
    }
}

/// The client-side authorization rules, in the order their records come.
pub const RULES: [RuleId; 14] = [
    RuleId::McpAuthClientDiscovery,
    RuleId::McpAuthClientAsMetadata,
    RuleId::McpAuthClientPkce,
    RuleId::McpAuthClientPkceS256,
    RuleId::McpAuthClientPkceRefuse,
    RuleId::McpAuthClientIss,
    RuleId::McpAuthClientResource,
    RuleId::McpAuthClientResourceCanonical,
    RuleId::McpAuthClientChallengeScope,
    RuleId::McpAuthClientBearer,
    RuleId::McpAuthClientTokenNotInQuery,
    RuleId::McpAuthClientIssuedToken,
    RuleId::McpAuthClientStepUpScope,
    RuleId::McpAuthClientRetryLimit,
];

/// One record per rule of [`RULES`] that applies to `revision`.
#[must_use]
pub fn judge(events: &[Event], setup: &Setup, revision: Revision) -> Vec<crate::report::Record> {
    let mcp_path = reqwest::Url::parse(&setup.server_url)
        .map(|u| u.path().to_owned())
        .unwrap_or_else(|_| "/mcp".into());
    let view = View {
        events,
        setup,
        mcp_path,
    };
    RULES
        .into_iter()
        .filter(|rule| rule.info().applies_to(revision))
        .map(|rule| {
            let verdict = match rule {
                RuleId::McpAuthClientDiscovery => view.discovery(revision),
                RuleId::McpAuthClientAsMetadata => view.as_metadata(),
                RuleId::McpAuthClientPkce => view.pkce(),
                RuleId::McpAuthClientPkceS256 => view.pkce_s256(),
                RuleId::McpAuthClientPkceRefuse => view.pkce_refuse(),
                RuleId::McpAuthClientIss => view.iss(),
                RuleId::McpAuthClientResource => view.resource(),
                RuleId::McpAuthClientResourceCanonical => view.resource_canonical(),
                RuleId::McpAuthClientChallengeScope => view.challenge_scope(),
                RuleId::McpAuthClientBearer => view.bearer(),
                RuleId::McpAuthClientTokenNotInQuery => view.token_not_in_query(),
                RuleId::McpAuthClientIssuedToken => view.issued_token(),
                RuleId::McpAuthClientStepUpScope => view.step_up_scope(),
                _ => view.retry_limit(),
            };
            record(rule, revision, verdict)
        })
        .collect()
}

fn record(rule: RuleId, revision: Revision, verdict: Verdict) -> crate::report::Record {
    let info = rule.info();
    let (outcome, broken, notes) = match verdict {
        Verdict::NotObserved(why) => (Outcome::NotObserved { why }, Vec::new(), Vec::new()),
        Verdict::NotApplicable(why) => (Outcome::NotApplicable { why }, Vec::new(), Vec::new()),
        Verdict::Judged(seen) => {
            let outcome = if seen.broken.is_empty() {
                Outcome::Pass
            } else if info.level.is_mandatory() {
                Outcome::Fail
            } else {
                Outcome::Warning
            };
            let more = seen.broken.len().saturating_sub(QUOTED);
            let mut notes = vec![format!("{} judged", seen.judged)];
            notes.extend(seen.counts);
            if more > 0 {
                notes.push(format!("{more} more like these"));
            }
            let broken = seen.broken.into_iter().take(QUOTED).collect();
            (outcome, broken, notes)
        }
    };
    let suffix = rule
        .as_str()
        .strip_prefix("mcp.auth.")
        .unwrap_or(rule.as_str());
    let mut record = crate::report::Record::of_transport_rule(
        format!("auth/{suffix}"),
        revision,
        Some(crate::transport::Kind::STREAMABLE_HTTP),
        rule,
        outcome,
        broken,
    );
    record.notes = notes;
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> Setup {
        Setup {
            server_url: "http://127.0.0.1:9/mcp".into(),
            challenge_path: "/wirecheck/resource-metadata".into(),
            challenge_scopes: vec!["mcp".into(), "wirecheck:challenged".into()],
            no_pkce_metadata: false,
            wrong_iss: false,
        }
    }

    fn resource(
        method: &str,
        path: &str,
        query: Option<&str>,
        auth: Option<&str>,
        status: u16,
    ) -> Event {
        Event::Resource {
            method: method.into(),
            path: path.into(),
            query: query.map(str::to_owned),
            authorization: auth.map(str::to_owned),
            protocol_version: None,
            status,
            challenge: (status == 401).then(|| {
                "Bearer resource_metadata=\"http://127.0.0.1:9/wirecheck/resource-metadata\", scope=\"mcp wirecheck:challenged\"".into()
            }),
            refused: None,
        }
    }

    fn issuer(path: &str, params: &[(&str, &str)]) -> Event {
        Event::Issuer {
            method: "GET".into(),
            path: path.into(),
            params: params
                .iter()
                .map(|(k, v)| ((*k).into(), (*v).into()))
                .collect(),
            status: 200,
        }
    }

    fn token(params: &[(&str, &str)], issued: &str) -> Event {
        Event::Token {
            params: params
                .iter()
                .map(|(k, v)| ((*k).into(), (*v).into()))
                .collect(),
            verifier_matched: Some(true),
            issued: Some(issued.into()),
            granted: None,
        }
    }

    /// A whole flow, right in every rule but as `bend` changes it.
    fn flow(bend: impl Fn(&mut Vec<Event>)) -> BTreeMap<String, Outcome> {
        let url = "http://127.0.0.1:9/mcp";
        let mut events = vec![
            resource("POST", "/mcp", None, None, 401),
            resource("GET", "/wirecheck/resource-metadata", None, None, 200),
            issuer(AS_METADATA, &[]),
            issuer(
                "/authorize",
                &[
                    ("code_challenge", "c"),
                    ("code_challenge_method", "S256"),
                    ("resource", url),
                    ("scope", "mcp wirecheck:challenged"),
                ],
            ),
            token(
                &[
                    ("grant_type", "authorization_code"),
                    ("code_verifier", "v"),
                    ("resource", url),
                ],
                "TOKEN",
            ),
            resource("POST", "/mcp", None, Some("Bearer TOKEN"), 200),
        ];
        bend(&mut events);
        judge(&events, &setup(), Revision::Mcp2025_11_25)
            .into_iter()
            .map(|r| (r.check.unwrap().rule.as_str().to_owned(), r.outcome))
            .collect()
    }

    fn broken(outcomes: &BTreeMap<String, Outcome>) -> Vec<&str> {
        outcomes
            .iter()
            .filter(|(_, o)| matches!(o, Outcome::Fail | Outcome::Warning))
            .map(|(r, _)| r.as_str())
            .collect()
    }

    #[test]
    fn a_right_flow_breaks_nothing_and_each_bend_breaks_its_rule() {
        assert!(broken(&flow(|_| {})).is_empty());
        // A request without the header once the token was issued.
        let unbearered = flow(|e| e.push(resource("DELETE", "/mcp", None, None, 200)));
        assert_eq!(broken(&unbearered), ["mcp.auth.client-bearer"]);
        // The token in the query string (with the header too).
        let queried = flow(|e| {
            e.push(resource(
                "GET",
                "/mcp",
                Some("access_token=TOKEN"),
                Some("Bearer TOKEN"),
                200,
            ));
        });
        assert_eq!(broken(&queried), ["mcp.auth.client-token-not-in-query"]);
        // The path-form well-known URI fetched before the challenge's URL.
        let guessed = flow(|e| {
            e.insert(
                1,
                resource(
                    "GET",
                    "/.well-known/oauth-protected-resource/mcp",
                    None,
                    None,
                    200,
                ),
            );
        });
        assert_eq!(broken(&guessed), ["mcp.auth.client-discovery"]);
        // No RFC 8414 metadata request before the authorization request.
        let unfetched = flow(|e| {
            e.remove(2);
        });
        assert_eq!(broken(&unfetched), ["mcp.auth.client-as-metadata"]);
        // `plain`, and a resource naming another server.
        let plain = flow(|e| {
            if let Event::Issuer { params, .. } = &mut e[3] {
                params.insert("code_challenge_method".into(), "plain".into());
            }
        });
        assert_eq!(broken(&plain), ["mcp.auth.client-pkce-s256"]);
        let elsewhere = flow(|e| {
            if let Event::Token { params, .. } = &mut e[4] {
                params.insert("resource".into(), "http://127.0.0.1:9/".into());
            }
        });
        assert_eq!(broken(&elsewhere), ["mcp.auth.client-resource-canonical"]);
    }

    #[test]
    fn nothing_seen_is_not_observed_never_a_pass() {
        let outcomes: Vec<Outcome> = judge(&[], &setup(), Revision::Mcp2026_07_28)
            .into_iter()
            .map(|r| r.outcome)
            .collect();
        assert_eq!(outcomes.len(), RULES.len());
        assert!(outcomes.iter().all(|o| matches!(
            o,
            Outcome::NotObserved { .. } | Outcome::NotApplicable { .. }
        )));
        // 2025-03-26 has only the three rules its text holds.
        assert_eq!(judge(&[], &setup(), Revision::Mcp2025_03_26).len(), 3);
    }
}
