//! 2025-03-26 basic/authorization: the MCP server as its own authorization
//! server. That revision has no Protected Resource Metadata: a client finds
//! the authorization server's RFC 8414 metadata at the *authorization base
//! URL* (the server's URL without its path), and a server without metadata
//! serves the default endpoints there (`/authorize`, `/token`, `/register`).
//!
//! Probed from outside with requests that can authorize, issue or register
//! nothing: GETs of the metadata, a GET of `/authorize` without parameters,
//! a POST of an empty form to `/token`, a POST of client metadata that RFC
//! 7591 makes invalid to the registration endpoint.

use harness::rules::RuleId;
use harness::Revision;
use reqwest::Method;
use serde_json::{json, Value};

use crate::auth::client::{fetch, may_reach, strings, well_known_forms, Fetched};
use crate::auth::resource::origin;
use crate::auth::resource::AS_METADATA;
use crate::runner::filer::Filer;

/// The rules of this module, in the order their records are filed.
const RULES: [RuleId; 5] = [
    RuleId::McpAuthAsMetadataServed,
    RuleId::McpAuthAsMetadataRoot,
    RuleId::McpAuthAsMetadataFields,
    RuleId::McpAuthDefaultEndpoints,
    RuleId::McpAuthDynamicRegistration,
];

/// Where the metadata is looked for: at the authorization base URL first
/// (2025-03-26 §Authorization Base URL), then at RFC 8414 §3.1's
/// path-inserted form, where a server that kept its URL's path put it.
#[must_use]
pub fn metadata_locations(url: &str) -> Vec<String> {
    well_known_forms(url, AS_METADATA).map_or_else(Vec::new, |(root, inserted)| {
        std::iter::once(root).chain(inserted).collect()
    })
}

/// What an answer at an endpoint's place shows.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Endpoint {
    /// The endpoint is there, as the note says.
    There(String),
    /// It is not, or not as the protocol asks: why.
    Missing(String),
    /// The answer shows neither: why.
    Unclear(String),
}

/// A GET of `/authorize` without parameters. An authorization endpoint
/// answers an incomplete request with an error page, or a redirect carrying
/// the error (OAuth 2.1 §4.1.2.1); 404 and 405 (GET, which OAuth 2.1 §3.1
/// says it MUST support) show nothing there.
fn authorization_answer(status: u16) -> Endpoint {
    match status {
        404 | 405 => Endpoint::Missing(format!(
            "answered {status}: no authorization endpoint there"
        )),
        200..=400 => Endpoint::There(format!("answered {status}")),
        other => Endpoint::Unclear(format!(
            "answered {other}, which shows neither an authorization endpoint nor its absence"
        )),
    }
}

/// A POST of an empty form to `/token`: OAuth 2.1 §3.2.4's error response
/// (400, or 401 for a client that failed to authenticate, with a JSON
/// object holding `error`).
fn token_answer(answer: &Fetched) -> Endpoint {
    match (answer.status, answer.oauth_error()) {
        (400 | 401, Some(error)) => Endpoint::There(format!(
            "answered {} with `error` {error:?}",
            answer.status
        )),
        (500..=599, _) => Endpoint::Unclear(format!(
            "answered {}, which shows neither a token endpoint nor its absence",
            answer.status
        )),
        (other, _) => Endpoint::Missing(format!(
            "answered {other}, not OAuth 2.1 §3.2.4's error response (400 with a JSON object holding `error`) to a token request without parameters"
        )),
    }
}

/// A POST of invalid client metadata to a registration endpoint: RFC 7591
/// §3.2.2's error response, or a registration after all.
fn registration_answer(answer: &Fetched) -> Endpoint {
    let client_id = answer
        .json
        .as_ref()
        .and_then(|j| j.get("client_id"))
        .and_then(Value::as_str);
    match (answer.status, answer.oauth_error(), client_id) {
        (400, Some(error), _) => Endpoint::There(format!("answered 400 with `error` {error:?}")),
        (200..=299, _, Some(_)) => Endpoint::There(format!(
            "answered {} and registered the client though its `redirect_uris` is no array",
            answer.status
        )),
        (401 | 403, _, _) => Endpoint::Unclear(format!(
            "answered {}: the endpoint asks for an initial access token (RFC 7591 §3 allows it), which wirecheck does not have",
            answer.status
        )),
        (500..=599, _, _) => Endpoint::Unclear(format!(
            "answered {}, which shows neither a registration endpoint nor its absence",
            answer.status
        )),
        (other, _, _) => Endpoint::Missing(format!(
            "answered {other}, neither RFC 7591 §3.2.2's error response (400 with a JSON object holding `error`) nor a registration"
        )),
    }
}

/// The members RFC 8414 §2 marks REQUIRED that `document` lacks, each as a
/// finding.
fn missing_members(document: &Value) -> Vec<String> {
    let text = |member: &str| document.get(member).is_some_and(Value::is_string);
    // "If omitted, the default value is [\"authorization_code\", \"implicit\"]."
    let grants = if document.get("grant_types_supported").is_some() {
        strings(document, "grant_types_supported")
    } else {
        vec!["authorization_code".to_owned(), "implicit".to_owned()]
    };
    let uses_authorize = grants
        .iter()
        .any(|g| g == "authorization_code" || g == "implicit");
    let only_implicit = !grants.is_empty() && grants.iter().all(|g| g == "implicit");
    let mut missing = Vec::new();
    if !text("issuer") {
        missing.push("`issuer`");
    }
    if uses_authorize && !text("authorization_endpoint") {
        missing.push("`authorization_endpoint`");
    }
    if !only_implicit && !text("token_endpoint") {
        missing.push("`token_endpoint`");
    }
    if !document
        .get("response_types_supported")
        .is_some_and(Value::is_array)
    {
        missing.push("`response_types_supported`");
    }
    missing
        .into_iter()
        .map(|m| format!("the metadata has no {m}, which RFC 8414 §2 marks REQUIRED"))
        .collect()
}

impl Filer {
    /// Every probe of the server as its own authorization server.
    /// `public`: why the server is not protected, when it answered the
    /// opening request without a token.
    pub(in crate::runner::http_judge) async fn own_authorization_server(
        &mut self,
        revision: Revision,
        url: &str,
        issuer: &str,
        public: Option<&str>,
        timeout: std::time::Duration,
    ) {
        if let Some(why) = public {
            for rule in RULES {
                self.not_applicable(rule, why.to_owned());
            }
            return;
        }
        let locations = metadata_locations(url);
        let (Some(base), Some(root)) = (origin(url), locations.first().cloned()) else {
            for rule in RULES {
                self.not_observed(rule, format!("{url} has no origin"));
            }
            return;
        };
        // "to allow the MCP server to respond based on the MCP protocol
        // version" (§Server Metadata Discovery Headers).
        let headers = [
            ("accept", "application/json"),
            ("mcp-protocol-version", revision.name()),
        ];
        let (mut tried, mut answered, mut found) = (Vec::new(), false, None);
        for at in locations {
            match fetch(Method::GET, &at, &headers, None, timeout).await {
                Ok(got) if (200..300).contains(&got.status) && got.json.is_some() => {
                    found = Some((at, got));
                    break;
                }
                Ok(got) => {
                    answered = true;
                    tried.push(format!("{at}: {}, no JSON object", got.status));
                }
                Err(e) => tried.push(e),
            }
        }
        let reachable = [url, issuer];
        let Some((at, got)) = found else {
            let why = format!("no metadata found ({})", tried.join("; "));
            if !answered {
                for rule in RULES {
                    self.not_observed(rule, why.clone());
                }
                return;
            }
            self.verdict(
                RuleId::McpAuthAsMetadataServed,
                vec![format!(
                    "no Authorization Server Metadata at the authorization base URL or its path-inserted form ({})",
                    tried.join("; ")
                )],
                Vec::new(),
            );
            self.not_applicable(RuleId::McpAuthAsMetadataRoot, why.clone());
            self.not_applicable(RuleId::McpAuthAsMetadataFields, why);
            self.default_endpoints(&base, timeout).await;
            self.registration(&format!("{base}/register"), &reachable, timeout)
                .await;
            return;
        };
        let document = got.json.clone().unwrap_or_default();
        self.show(got.exchange.clone());
        self.verdict(
            RuleId::McpAuthAsMetadataServed,
            Vec::new(),
            vec![format!("served at {at}")],
        );
        let broken = if at == root {
            Vec::new()
        } else {
            vec![format!(
                "the metadata is served at {at}, not at the authorization base URL's {root} ({})",
                tried.join("; ")
            )]
        };
        self.show(got.exchange.clone());
        self.verdict(RuleId::McpAuthAsMetadataRoot, broken, Vec::new());
        self.show(got.exchange.clone());
        self.verdict(
            RuleId::McpAuthAsMetadataFields,
            missing_members(&document),
            vec![format!("the metadata at {at}")],
        );
        self.not_applicable(
            RuleId::McpAuthDefaultEndpoints,
            format!("the server serves Authorization Server Metadata ({at}): its endpoints are where that says"),
        );
        match document.get("registration_endpoint").and_then(Value::as_str) {
            Some(endpoint) => self.registration(endpoint, &reachable, timeout).await,
            None => self.verdict(
                RuleId::McpAuthDynamicRegistration,
                vec![format!(
                    "the metadata at {at} names no `registration_endpoint`: the server offers no Dynamic Client Registration"
                )],
                Vec::new(),
            ),
        }
    }

    /// mcp.auth.default-endpoints: `/authorize` and `/token` at `base`.
    async fn default_endpoints(&mut self, base: &str, timeout: std::time::Duration) {
        let authorize = fetch(
            Method::GET,
            &format!("{base}/authorize"),
            &[("accept", "text/html, application/json")],
            None,
            timeout,
        )
        .await
        .map(|got| (authorization_answer(got.status), got));
        let token = fetch(
            Method::POST,
            &format!("{base}/token"),
            &[
                ("content-type", "application/x-www-form-urlencoded"),
                ("accept", "application/json"),
            ],
            Some(""),
            timeout,
        )
        .await
        .map(|got| (token_answer(&got), got));
        let (mut broken, mut unclear, mut notes) = (Vec::new(), Vec::new(), Vec::new());
        for (path, answer) in [("/authorize", authorize), ("/token", token)] {
            match answer {
                Err(e) => unclear.push(e),
                Ok((seen, got)) => {
                    self.show(got.exchange);
                    match seen {
                        Endpoint::There(n) => notes.push(format!("{path}: {n}")),
                        Endpoint::Missing(w) => broken.push(format!("{path}: {w}")),
                        Endpoint::Unclear(w) => unclear.push(format!("{path}: {w}")),
                    }
                }
            }
        }
        let rule = RuleId::McpAuthDefaultEndpoints;
        if broken.is_empty() && !unclear.is_empty() {
            self.not_observed(rule, unclear.join("; "));
        } else {
            self.verdict(rule, broken, notes);
        }
    }

    /// mcp.auth.dynamic-registration: `endpoint` answers invalid client
    /// metadata as a registration endpoint does.
    async fn registration(
        &mut self,
        endpoint: &str,
        reachable: &[&str],
        timeout: std::time::Duration,
    ) {
        let rule = RuleId::McpAuthDynamicRegistration;
        if !may_reach(endpoint, reachable) {
            self.not_observed(
                rule,
                format!(
                    "the registration endpoint {endpoint} is at a host wirecheck does not contact"
                ),
            );
            return;
        }
        // RFC 7591 §2: `redirect_uris` is an array; a string makes the
        // request invalid, so nothing is registered.
        let body = json!({
            "client_name": "wirecheck probe (invalid on purpose)",
            "redirect_uris": "http://127.0.0.1/wirecheck-not-an-array",
        })
        .to_string();
        let headers = [
            ("content-type", "application/json"),
            ("accept", "application/json"),
        ];
        match fetch(Method::POST, endpoint, &headers, Some(&body), timeout).await {
            Err(e) => self.not_observed(rule, e),
            Ok(got) => {
                self.show(got.exchange.clone());
                match registration_answer(&got) {
                    Endpoint::There(n) => {
                        self.verdict(rule, Vec::new(), vec![format!("{endpoint}: {n}")]);
                    }
                    Endpoint::Missing(w) => {
                        self.verdict(rule, vec![format!("{endpoint}: {w}")], Vec::new());
                    }
                    Endpoint::Unclear(w) => self.not_observed(rule, format!("{endpoint}: {w}")),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, body: Value) -> Fetched {
        Fetched {
            status,
            json: body.is_object().then_some(body),
            exchange: crate::report::HttpExchange {
                method: "POST".into(),
                url: "http://127.0.0.1:1/x".into(),
                request_headers: Vec::new(),
                request_body: None,
                status,
                response_headers: Vec::new(),
                response_body: None,
            },
        }
    }

    #[test]
    fn the_metadata_is_looked_for_at_the_base_url_then_path_inserted() {
        assert_eq!(
            metadata_locations("http://127.0.0.1:5/v1/mcp/"),
            [
                "http://127.0.0.1:5/.well-known/oauth-authorization-server",
                "http://127.0.0.1:5/.well-known/oauth-authorization-server/v1/mcp"
            ]
        );
        assert_eq!(
            metadata_locations("http://127.0.0.1:5"),
            ["http://127.0.0.1:5/.well-known/oauth-authorization-server"]
        );
    }

    #[test]
    fn rfc_8414s_required_members_follow_the_grant_types() {
        let full = json!({
            "issuer": "http://127.0.0.1:5", "authorization_endpoint": "http://127.0.0.1:5/authorize",
            "token_endpoint": "http://127.0.0.1:5/token", "response_types_supported": ["code"],
        });
        assert!(missing_members(&full).is_empty());
        let mut no_token = full.clone();
        no_token.as_object_mut().unwrap().remove("token_endpoint");
        assert_eq!(missing_members(&no_token).len(), 1);
        // Client credentials only: no authorization endpoint needed.
        let machine = json!({
            "issuer": "i", "token_endpoint": "t", "response_types_supported": [],
            "grant_types_supported": ["client_credentials"],
        });
        assert!(missing_members(&machine).is_empty());
        // Implicit only: no token endpoint needed.
        let implicit = json!({
            "issuer": "i", "authorization_endpoint": "a", "response_types_supported": ["token"],
            "grant_types_supported": ["implicit"],
        });
        assert!(missing_members(&implicit).is_empty());
        assert_eq!(missing_members(&json!({})).len(), 4);
    }

    #[test]
    fn each_endpoint_is_there_missing_or_unclear_by_its_answer() {
        assert!(matches!(authorization_answer(302), Endpoint::There(_)));
        assert!(matches!(authorization_answer(400), Endpoint::There(_)));
        assert!(matches!(authorization_answer(404), Endpoint::Missing(_)));
        assert!(matches!(authorization_answer(401), Endpoint::Unclear(_)));
        let error = json!({"error": "invalid_request"});
        assert!(matches!(
            token_answer(&answer(400, error.clone())),
            Endpoint::There(_)
        ));
        assert!(matches!(
            token_answer(&answer(404, json!(null))),
            Endpoint::Missing(_)
        ));
        assert!(matches!(
            token_answer(&answer(400, json!(null))),
            Endpoint::Missing(_)
        ));
        assert!(matches!(
            token_answer(&answer(503, json!(null))),
            Endpoint::Unclear(_)
        ));
        assert!(matches!(
            registration_answer(&answer(400, json!({"error": "invalid_client_metadata"}))),
            Endpoint::There(_)
        ));
        assert!(matches!(
            registration_answer(&answer(201, json!({"client_id": "c"}))),
            Endpoint::There(_)
        ));
        assert!(matches!(
            registration_answer(&answer(401, error)),
            Endpoint::Unclear(_)
        ));
        assert!(matches!(
            registration_answer(&answer(404, json!(null))),
            Endpoint::Missing(_)
        ));
    }
}
