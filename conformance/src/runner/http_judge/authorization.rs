//! basic/authorization (2025-03-26 on; 2026-07-28 basic/authorization/*):
//! the server as an OAuth resource server, probed under `--auth` only, with
//! the tokens `crate::auth::client::prepare` minted from wirecheck's own
//! authorization server before the run's sessions.
//!
//! Each probe is the opening request of a session (`initialize`, or
//! 2026-07-28's `server/discover`) POSTed with one token, or none; and GETs
//! of the Protected Resource Metadata. The token probes mean something only
//! when the server accepted wirecheck's valid token: a server refusing
//! every token refuses the bad ones too and shows nothing, so they are then
//! not observed. 2025-03-26's server as its own authorization server (its
//! metadata at the base URL, else the default endpoints) is [`own_server`].

mod own_server;

use std::collections::BTreeMap;

use harness::rules::RuleId;
use harness::Revision;
use serde_json::Value;

use super::{Filer, Target};
use crate::auth::client::{
    get_json, may_reach, mint_token, post_opening, strings, well_known, Answer, INSUFFICIENT_SCOPE,
};
use crate::auth::issuer::Mint;
use crate::auth::resource::{bearer_params, origin, same_resource};

/// The scope a server should keep out of every scope list it shows
/// (2026-07-28 basic/authorization/index §Refresh Tokens).
const OFFLINE_ACCESS: &str = "offline_access";

/// The scopes of a `scope` parameter (RFC 6750 §3: space-delimited).
fn scope_list(value: &str) -> Vec<String> {
    value.split_whitespace().map(str::to_owned).collect()
}

/// A status as a note: `401`, or why there was none.
fn said(answer: &Result<Answer, String>) -> String {
    match answer {
        Ok(a) => format!("answered {}", a.status),
        Err(e) => e.clone(),
    }
}

/// Whether a metadata document's `resource` names the server at `url`: its
/// canonical URI (scheme and host without case, a trailing slash ignored), or,
/// for the document at the root well-known URI, the origin that URI was made
/// from (RFC 9728 §3.3).
fn names_the_server(resource: &str, url: &str, at_root: bool) -> bool {
    same_resource(resource, url)
        || (at_root && origin(url).is_some_and(|o| same_resource(resource, &o)))
}

impl Filer {
    /// Every authorization probe of one revision.
    pub(super) async fn authorization(&mut self, revision: Revision, target: &Target<'_>) {
        let Some(ready) = target.auth else { return };
        let url = target.url;
        let timeout = target.limits.write_timeout;
        // No token.
        let bare = post_opening(url, revision, None, timeout).await;
        let challenge = bare
            .as_ref()
            .ok()
            .filter(|a| a.status == 401)
            .map(|a| a.challenges.iter().find_map(|c| bearer_params(c)));
        // A server that answers the opening request without a token does not
        // protect it: authorization is OPTIONAL, and a server may guard other
        // requests only; the sentences ("When authorization is required and
        // not yet proven", 2025-03-26; the status-code table's "authorization
        // errors") bind only a request that needs a token. Nothing the probes
        // can see then breaks one, and a bad token accepted on a public
        // request shows nothing about token checking.
        let public = bare
            .as_ref()
            .ok()
            .filter(|a| (200..300).contains(&a.status))
            .map(|a| {
                format!(
                    "the opening request was answered {} without a token: the server does not protect it (authorization is OPTIONAL, and a server may protect other requests only, which the probes do not reach)",
                    a.status
                )
            });
        match (&bare, &public) {
            (Err(e), _) => self.not_observed(RuleId::McpAuthUnauthenticated401, e.clone()),
            (Ok(_), Some(why)) => {
                self.not_applicable(RuleId::McpAuthUnauthenticated401, why.clone());
            }
            (Ok(a), None) => {
                let broken = if a.status == 401 {
                    Vec::new()
                } else {
                    vec![format!(
                        "a request without an `Authorization` header was answered {}, not 401 Unauthorized",
                        a.status
                    )]
                };
                self.show(a.exchange.clone());
                self.verdict(
                    RuleId::McpAuthUnauthenticated401,
                    broken,
                    vec![format!("answered {}", a.status)],
                );
            }
        }
        let metadata_url = challenge
            .clone()
            .flatten()
            .and_then(|p| p.get("resource_metadata").cloned());
        match &challenge {
            None => self.not_applicable(
                RuleId::McpAuthChallengeResourceMetadata,
                format!(
                    "no 401 to judge: the request without a token {}",
                    said(&bare)
                ),
            ),
            Some(params) => {
                let broken = match (params, &metadata_url) {
                    (_, Some(_)) => Vec::new(),
                    (None, _) => {
                        vec!["the 401 carried no `WWW-Authenticate: Bearer` challenge".to_owned()]
                    }
                    (Some(_), None) => vec![
                        "the 401's `WWW-Authenticate: Bearer` challenge has no `resource_metadata`"
                            .to_owned(),
                    ],
                };
                let notes = bare
                    .as_ref()
                    .map(|a| a.challenges.clone())
                    .unwrap_or_default();
                if let Ok(a) = &bare {
                    self.show(a.exchange.clone());
                }
                self.verdict(RuleId::McpAuthChallengeResourceMetadata, broken, notes);
            }
        }
        match challenge.clone().flatten() {
            // "to indicate the scopes required": a server that names none
            // anywhere (no `scope` here, no `scopes_supported`) has none to
            // indicate.
            Some(_) if ready.scopes.is_empty() => self.not_applicable(
                RuleId::McpAuthChallengeScope,
                "the server names no scope anywhere (no `scope` in its challenge, no `scopes_supported` in its metadata): there are no required scopes to indicate".to_owned(),
            ),
            None => self.not_applicable(
                RuleId::McpAuthChallengeScope,
                format!(
                    "no 401 with a `Bearer` challenge to judge: the request without a token {}",
                    said(&bare)
                ),
            ),
            Some(params) => {
                let broken = if params.contains_key("scope") {
                    Vec::new()
                } else {
                    vec![
                        "the 401's `WWW-Authenticate: Bearer` challenge names no `scope`"
                            .to_owned(),
                    ]
                };
                if let Ok(a) = &bare {
                    self.show(a.exchange.clone());
                }
                self.verdict(
                    RuleId::McpAuthChallengeScope,
                    broken,
                    vec![format!("scope: {:?}", params.get("scope"))],
                );
            }
        }
        self.no_token_no_error(challenge.as_ref(), &bare);
        // A metadata URL at another host is never fetched (nothing but the
        // server under test and the issuer is contacted): not observed then,
        // never failed for metadata not looked at.
        let (metadata_url, elsewhere) = match metadata_url {
            Some(m) if !may_reach(&m, &[url, &ready.issuer]) => (None, Some(m)),
            other => (other, None),
        };
        // Every scope list the server shows, where: what
        // mcp.auth.no-offline-access-scope reads.
        let mut scope_lists: Vec<(String, Vec<String>)> = Vec::new();
        if let Some(scope) = challenge
            .clone()
            .flatten()
            .and_then(|p| p.get("scope").cloned())
        {
            scope_lists.push(("the 401's `scope`".to_owned(), scope_list(&scope)));
        }
        let document = self
            .resource_metadata(url, metadata_url, elsewhere, timeout, public.is_some())
            .await;
        if let Some((at, document)) = document {
            if document.get("scopes_supported").is_some() {
                scope_lists.push((
                    format!("the `scopes_supported` of the Protected Resource Metadata at {at}"),
                    strings(&document, "scopes_supported"),
                ));
            }
        }
        if RuleId::McpAuthAsMetadataServed
            .info()
            .revisions
            .contains(revision)
        {
            self.own_authorization_server(revision, url, &ready.issuer, public.as_deref(), timeout)
                .await;
        }
        if let Some(why) = public {
            self.tokens_unobserved(&why);
        } else if let Some(scope) = self.tokens(revision, target, ready).await {
            scope_lists.push(("the 403's `scope`".to_owned(), scope_list(&scope)));
        }
        self.offline_access(&scope_lists);
    }

    /// 2026-07-28 §Refresh Tokens: no scope list the server showed names
    /// `offline_access`; not observed when it showed none.
    fn offline_access(&mut self, lists: &[(String, Vec<String>)]) {
        if lists.is_empty() {
            self.not_observed(
                RuleId::McpAuthNoOfflineAccessScope,
                "the server showed no scope list: no `scope` in a 401 or 403 challenge, no `scopes_supported` in Protected Resource Metadata".to_owned(),
            );
            return;
        }
        let broken = lists
            .iter()
            .filter(|(_, scopes)| scopes.iter().any(|s| s == OFFLINE_ACCESS))
            .map(|(at, _)| format!("{at} names `{OFFLINE_ACCESS}`"))
            .collect();
        let notes = lists
            .iter()
            .map(|(at, scopes)| format!("{at}: {:?}", scopes.join(" ")))
            .collect();
        self.verdict(RuleId::McpAuthNoOfflineAccessScope, broken, notes);
    }

    /// The Protected Resource Metadata: found at the 401's
    /// `resource_metadata`, or at either well-known URI.
    async fn resource_metadata(
        &mut self,
        url: &str,
        from_challenge: Option<String>,
        elsewhere: Option<String>,
        timeout: std::time::Duration,
        public: bool,
    ) -> Option<(String, Value)> {
        let roots = well_known(url);
        let root = roots.last().cloned();
        let mut tried = Vec::new();
        let mut found: Option<(String, Value)> = None;
        for candidate in from_challenge.into_iter().chain(roots) {
            match get_json(&candidate, timeout).await {
                Ok((_, Some(document))) => {
                    found = Some((candidate, document));
                    break;
                }
                Ok((status, None)) => tried.push(format!("{candidate}: {status}, no JSON object")),
                Err(e) => tried.push(e),
            }
        }
        let Some((at, document)) = found else {
            if let Some(elsewhere) = elsewhere {
                let why = format!(
                    "the 401 names its metadata at {elsewhere}, another host, which wirecheck does not contact; no well-known URI of the server served one ({})",
                    tried.join("; ")
                );
                self.not_observed(RuleId::McpAuthPrmServed, why.clone());
                self.not_observed(RuleId::McpAuthPrmAuthorizationServers, why.clone());
                self.not_observed(RuleId::McpAuthPrmResource, why);
                return None;
            }
            if public {
                // Answered without a token and no metadata anywhere: nothing
                // shows the server implements authorization, which the
                // discovery sentence binds.
                let why = "the server answered without a token and serves no Protected Resource Metadata: nothing shows it implements authorization".to_owned();
                self.not_applicable(RuleId::McpAuthPrmServed, why.clone());
                self.not_observed(RuleId::McpAuthPrmAuthorizationServers, why.clone());
                self.not_observed(RuleId::McpAuthPrmResource, why);
                return None;
            }
            self.verdict(
                RuleId::McpAuthPrmServed,
                vec![format!(
                    "no Protected Resource Metadata: neither the 401's `resource_metadata` nor a well-known URI served one ({})",
                    tried.join("; ")
                )],
                Vec::new(),
            );
            let why = "no Protected Resource Metadata was found".to_owned();
            self.not_observed(RuleId::McpAuthPrmAuthorizationServers, why.clone());
            self.not_observed(RuleId::McpAuthPrmResource, why);
            return None;
        };
        self.verdict(
            RuleId::McpAuthPrmServed,
            Vec::new(),
            vec![format!("served at {at}")],
        );
        let servers = strings(&document, "authorization_servers");
        let broken = if servers.is_empty() {
            vec![format!(
                "the Protected Resource Metadata at {at} names no authorization server (`authorization_servers`: {})",
                document.get("authorization_servers").map_or_else(|| "absent".to_owned(), Value::to_string)
            )]
        } else {
            Vec::new()
        };
        self.verdict(
            RuleId::McpAuthPrmAuthorizationServers,
            broken,
            vec![format!("authorization_servers: {servers:?}")],
        );
        let resource = document.get("resource").and_then(Value::as_str);
        let at_root = root.as_deref() == Some(at.as_str());
        let matches = resource.is_some_and(|r| names_the_server(r, url, at_root));
        let broken = if matches {
            Vec::new()
        } else {
            vec![format!(
                "the Protected Resource Metadata at {at} names the resource {}, not the server's URL {url}",
                resource.map_or_else(|| "(none)".to_owned(), |r| format!("`{r}`"))
            )]
        };
        self.verdict(
            RuleId::McpAuthPrmResource,
            broken,
            vec![format!("resource: {resource:?}")],
        );
        Some((at, document))
    }

    /// The token rules when no token probe can show anything: not observed,
    /// each with `why`.
    fn tokens_unobserved(&mut self, why: &str) {
        for rule in [
            RuleId::McpAuthTokenExpired401,
            RuleId::McpAuthTokenSignature401,
            RuleId::McpAuthTokenIssuer401,
            RuleId::McpAuthTokenAudience401,
            RuleId::McpAuthTokenAudienceMissing401,
            RuleId::McpAuthInvalidTokenChallenge,
            RuleId::McpAuthInvalidTokenError,
            RuleId::McpAuthInsufficientScope403,
            RuleId::McpAuthInsufficientScopeChallenge,
            RuleId::McpAuthInsufficientScopeNamesScope,
            RuleId::McpAuthInsufficientScopeSingleChallenge,
        ] {
            self.not_observed(rule, why.to_owned());
        }
    }

    /// The token probes: the valid token first, then each bad one. The
    /// `scope` of the 403 the insufficient-scope token got, if any.
    async fn tokens(
        &mut self,
        revision: Revision,
        target: &Target<'_>,
        ready: &crate::auth::client::Ready,
    ) -> Option<String> {
        let url = target.url;
        let timeout = target.limits.write_timeout;
        let tokens = &ready.tokens;
        let probes = [
            (
                RuleId::McpAuthTokenExpired401,
                &tokens.expired,
                "a token whose `exp` passed an hour ago",
            ),
            (
                RuleId::McpAuthTokenSignature401,
                &tokens.unpublished_key,
                "a token signed with a key the issuer never published",
            ),
            (
                RuleId::McpAuthTokenIssuer401,
                &tokens.other_issuer,
                "a token whose `iss` names another issuer",
            ),
            (
                RuleId::McpAuthTokenAudience401,
                &tokens.wrong_audience,
                "a token whose `aud` names another resource",
            ),
            (
                RuleId::McpAuthTokenAudienceMissing401,
                &tokens.missing_audience,
                "a token without `aud`",
            ),
        ];
        let valid = post_opening(url, revision, Some(&tokens.valid), timeout).await;
        let accepted = valid.as_ref().is_ok_and(|a| (200..300).contains(&a.status));
        if !accepted {
            let why = format!(
                "the server refused wirecheck's valid token too ({}; issuer {}, aud {url}, scope {:?}): is it configured to trust that issuer?",
                said(&valid),
                ready.issuer,
                ready.scopes.join(" ")
            );
            for (rule, _, _) in &probes {
                self.not_observed(*rule, why.clone());
            }
            self.not_observed(RuleId::McpAuthInvalidTokenChallenge, why.clone());
            self.not_observed(RuleId::McpAuthInvalidTokenError, why.clone());
            self.not_observed(RuleId::McpAuthInsufficientScope403, why.clone());
            self.not_observed(RuleId::McpAuthInsufficientScopeChallenge, why.clone());
            self.not_observed(RuleId::McpAuthInsufficientScopeNamesScope, why.clone());
            self.not_observed(RuleId::McpAuthInsufficientScopeSingleChallenge, why);
            return None;
        }
        // Every 401 a bad token got, and its `Bearer` challenge's parameters
        // if it carried one.
        let mut refusals: Vec<(&str, Option<BTreeMap<String, String>>)> = Vec::new();
        for (rule, token, what) in probes {
            if !rule.info().revisions.contains(revision) {
                continue;
            }
            match post_opening(url, revision, Some(token), timeout).await {
                Err(e) => self.not_observed(rule, e),
                Ok(a) => {
                    if a.status == 401 {
                        let bearer = a.challenges.iter().find_map(|c| bearer_params(c));
                        refusals.push((what, bearer));
                    }
                    self.show(a.exchange.clone());
                    let broken = match a.status {
                        401 => Vec::new(),
                        200..=299 => vec![format!("{what} was accepted ({})", a.status)],
                        other => vec![format!("{what} was answered {other}, not 401")],
                    };
                    self.verdict(rule, broken, vec![format!("answered {}", a.status)]);
                }
            }
        }
        if refusals.is_empty() {
            self.not_observed(
                RuleId::McpAuthInvalidTokenChallenge,
                "no bad token was answered 401".to_owned(),
            );
        } else {
            let broken: Vec<String> = refusals
                .iter()
                .filter(|(_, bearer)| bearer.is_none())
                .map(|(what, _)| {
                    format!("the 401 to {what} carried no `WWW-Authenticate: Bearer` challenge")
                })
                .collect();
            self.verdict(
                RuleId::McpAuthInvalidTokenChallenge,
                broken,
                vec![format!("{} refusals with 401", refusals.len())],
            );
        }
        self.error_attribute(&refusals);
        self.scope(revision, target, ready).await
    }

    /// OAuth 2.1 §5.3.2: the `Bearer` challenge of the 401 to a request that
    /// carried no token names no error (`challenge`: `None` without a 401,
    /// `Some(None)` for a 401 without a `Bearer` challenge).
    fn no_token_no_error(
        &mut self,
        challenge: Option<&Option<BTreeMap<String, String>>>,
        bare: &Result<Answer, String>,
    ) {
        let rule = RuleId::McpAuthNoTokenNoError;
        let Some(Some(params)) = challenge else {
            self.not_applicable(
                rule,
                format!(
                    "no 401 with a `Bearer` challenge to judge: the request without a token {}",
                    said(bare)
                ),
            );
            return;
        };
        let named: Vec<&str> = ["error", "error_description", "error_uri"]
            .into_iter()
            .filter(|a| params.contains_key(*a))
            .collect();
        let broken = if named.is_empty() {
            Vec::new()
        } else {
            vec![format!(
                "the 401 to a request without any token names error information ({}): the request lacked authentication, it failed none",
                named
                    .iter()
                    .map(|a| format!("{a}={:?}", params[*a]))
                    .collect::<Vec<_>>()
                    .join(", ")
            )]
        };
        if let Ok(a) = bare {
            self.show(a.exchange.clone());
        }
        self.verdict(rule, broken, vec![format!("challenge: {params:?}")]);
    }

    /// OAuth 2.1 §5.3.1: each `Bearer` challenge of a 401 refusing a bad
    /// token names an `error` (its value noted, not judged: extensions may
    /// define codes). A 401 without a challenge is
    /// mcp.auth.invalid-token-challenge's.
    fn error_attribute(&mut self, refusals: &[(&str, Option<BTreeMap<String, String>>)]) {
        let rule = RuleId::McpAuthInvalidTokenError;
        let challenged: Vec<(&str, Option<&String>)> = refusals
            .iter()
            .filter_map(|(what, bearer)| bearer.as_ref().map(|p| (*what, p.get("error"))))
            .collect();
        if challenged.is_empty() {
            self.not_observed(
                rule,
                "no bad token was answered 401 with a `Bearer` challenge".to_owned(),
            );
            return;
        }
        let broken = challenged
            .iter()
            .filter(|(_, error)| error.is_none())
            .map(|(what, _)| {
                format!("the `Bearer` challenge of the 401 to {what} names no `error`")
            })
            .collect();
        let notes = challenged
            .iter()
            .map(|(what, error)| format!("{what}: error {error:?}"))
            .collect();
        self.verdict(rule, broken, notes);
    }

    /// A valid token with none of the scopes the server named: 403, and
    /// from 2025-11-25 its `insufficient_scope` challenge and the scopes it
    /// names. That challenge's `scope`, if any.
    async fn scope(
        &mut self,
        revision: Revision,
        target: &Target<'_>,
        ready: &crate::auth::client::Ready,
    ) -> Option<String> {
        let Some(token) = &ready.tokens.insufficient_scope else {
            let why = "the server named no scope (Protected Resource Metadata `scopes_supported`, the 401's `scope`), so no token lacking one could be made".to_owned();
            self.not_applicable(RuleId::McpAuthInsufficientScope403, why.clone());
            self.not_applicable(RuleId::McpAuthInsufficientScopeChallenge, why.clone());
            self.not_applicable(RuleId::McpAuthInsufficientScopeNamesScope, why.clone());
            self.not_applicable(RuleId::McpAuthInsufficientScopeSingleChallenge, why);
            return None;
        };
        let answer = post_opening(
            target.url,
            revision,
            Some(token),
            target.limits.write_timeout,
        )
        .await;
        let a = match answer {
            Err(e) => {
                self.not_observed(RuleId::McpAuthInsufficientScope403, e.clone());
                self.not_observed(RuleId::McpAuthInsufficientScopeChallenge, e.clone());
                self.not_observed(RuleId::McpAuthInsufficientScopeNamesScope, e.clone());
                self.not_observed(RuleId::McpAuthInsufficientScopeSingleChallenge, e);
                return None;
            }
            Ok(a) => a,
        };
        if (200..300).contains(&a.status) {
            let why = format!(
                "the server accepted a token with none of its named scopes ({}) for this request: it needs none of them here",
                ready.scopes.join(" ")
            );
            self.not_applicable(RuleId::McpAuthInsufficientScope403, why.clone());
            self.not_applicable(RuleId::McpAuthInsufficientScopeChallenge, why.clone());
            self.not_applicable(RuleId::McpAuthInsufficientScopeNamesScope, why.clone());
            self.not_applicable(RuleId::McpAuthInsufficientScopeSingleChallenge, why);
            return None;
        }
        let broken = if a.status == 403 {
            Vec::new()
        } else {
            vec![format!(
                "a valid token lacking the server's scopes ({}) was answered {}, not 403 Forbidden",
                ready.scopes.join(" "),
                a.status
            )]
        };
        self.show(a.exchange.clone());
        self.verdict(
            RuleId::McpAuthInsufficientScope403,
            broken,
            vec![format!("answered {}", a.status)],
        );
        if a.status != 403 {
            let why = format!("no 403 to judge: answered {}", a.status);
            self.not_applicable(RuleId::McpAuthInsufficientScopeChallenge, why.clone());
            self.not_applicable(RuleId::McpAuthInsufficientScopeNamesScope, why.clone());
            self.not_applicable(RuleId::McpAuthInsufficientScopeSingleChallenge, why);
            return None;
        }
        let params = a.challenges.iter().find_map(|c| bearer_params(c));
        let error = params.as_ref().and_then(|p| p.get("error").cloned());
        let scope = params.as_ref().and_then(|p| p.get("scope").cloned());
        let broken = if error.as_deref() == Some("insufficient_scope") {
            Vec::new()
        } else {
            vec![format!(
                "the 403 carried no `WWW-Authenticate: Bearer error=\"insufficient_scope\"` (WWW-Authenticate: {:?})",
                a.challenges
            )]
        };
        self.show(a.exchange.clone());
        self.verdict(
            RuleId::McpAuthInsufficientScopeChallenge,
            broken,
            a.challenges.clone(),
        );
        // "the scopes needed": the refused token holds only
        // INSUFFICIENT_SCOPE, so a `scope` naming nothing else names none
        // it needs. Whether the named ones suffice is not probed.
        let needed = scope
            .as_deref()
            .map(scope_list)
            .unwrap_or_default()
            .into_iter()
            .any(|s| s != INSUFFICIENT_SCOPE);
        let broken = match (&scope, needed) {
            (_, true) => Vec::new(),
            (None, _) => vec![format!(
                "the 403's `WWW-Authenticate` names no `scope` (WWW-Authenticate: {:?})",
                a.challenges
            )],
            (Some(named), false) => vec![format!(
                "the 403's `scope` ({named:?}) names no scope but `{INSUFFICIENT_SCOPE}`, the one the refused token holds"
            )],
        };
        self.show(a.exchange.clone());
        self.verdict(
            RuleId::McpAuthInsufficientScopeNamesScope,
            broken,
            vec![format!("scope: {scope:?}")],
        );
        if RuleId::McpAuthInsufficientScopeSingleChallenge
            .info()
            .revisions
            .contains(revision)
        {
            self.single_challenge(revision, target, ready, scope.as_deref())
                .await;
        }
        scope
    }

    /// 2026-07-28: the request refused for insufficient scope, again with a
    /// token holding what the 403 named beside what the refused token held
    /// (the union a client accumulating scopes asks for): a second 403 shows
    /// the first challenge left out a scope the request needs.
    async fn single_challenge(
        &mut self,
        revision: Revision,
        target: &Target<'_>,
        ready: &crate::auth::client::Ready,
        named: Option<&str>,
    ) {
        let rule = RuleId::McpAuthInsufficientScopeSingleChallenge;
        let mut scopes = named.map(scope_list).unwrap_or_default();
        if !scopes.iter().any(|s| s != INSUFFICIENT_SCOPE) {
            self.not_applicable(
                rule,
                "the 403 named no scope the refused token lacked: there is nothing to ask for and retry with".to_owned(),
            );
            return;
        }
        if !scopes.iter().any(|s| s == INSUFFICIENT_SCOPE) {
            scopes.push(INSUFFICIENT_SCOPE.to_owned());
        }
        let timeout = target.limits.write_timeout;
        let asked = Mint {
            aud: Some(target.url.to_owned()),
            scope: Some(scopes.join(" ")),
            ..Mint::default()
        };
        let token = match mint_token(&ready.mint_url, asked, timeout).await {
            Ok(token) => token,
            Err(e) => {
                self.not_observed(rule, e);
                return;
            }
        };
        let a = match post_opening(target.url, revision, Some(&token), timeout).await {
            Ok(a) => a,
            Err(e) => {
                self.not_observed(rule, e);
                return;
            }
        };
        let held = scopes.join(" ");
        match a.status {
            200..=299 => {
                self.show(a.exchange.clone());
                self.verdict(
                    rule,
                    Vec::new(),
                    vec![format!("a token with the scopes {held:?} was answered {}", a.status)],
                );
            }
            403 => {
                let again = a
                    .challenges
                    .iter()
                    .find_map(|c| bearer_params(c))
                    .and_then(|p| p.get("scope").cloned());
                self.show(a.exchange.clone());
                self.verdict(
                    rule,
                    vec![format!(
                        "a token holding every scope the 403 named ({held:?}) was refused with 403 again (its `scope`: {again:?}): the first challenge did not name all the request needed"
                    )],
                    a.challenges,
                );
            }
            other => self.not_observed(
                rule,
                format!("the retry with a token holding the scopes {held:?} was answered {other}, neither accepted nor refused for scope"),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::names_the_server;

    #[test]
    fn the_resource_is_the_servers_url_or_at_the_root_its_origin() {
        let url = "http://127.0.0.1:5/mcp";
        assert!(names_the_server("http://127.0.0.1:5/mcp", url, false));
        assert!(names_the_server("HTTP://127.0.0.1:5/mcp/", url, false));
        assert!(!names_the_server("http://127.0.0.1:5", url, false));
        assert!(names_the_server("http://127.0.0.1:5", url, true));
        assert!(!names_the_server("http://127.0.0.1:5/other", url, true));
        assert!(!names_the_server("http://127.0.0.1:6/mcp", url, true));
    }
}
