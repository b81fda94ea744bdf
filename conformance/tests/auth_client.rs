//! Authorization, the client side, end to end: a small OAuth client written
//! here against the judged protected peer (`serve --http
//! --judge --auth`, in process through `wirecheck::clientcheck::auth`, and once
//! through the command line). Correct, it draws no finding at all; made wrong
//! in one way each (no PKCE, the challenge's scope ignored, no `resource`,
//! step-up retried without limit, proceeding without
//! `code_challenge_methods_supported`, a code redeemed whatever its `iss`,
//! a step-up dropping the scopes granted before, a bearer the authorization
//! server never issued), it draws exactly its own rule's finding and nothing
//! else.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use serde_json::{json, Value};
use wirecheck::auth::resource::bearer_params;
use wirecheck::clientcheck::auth::Scenario;
use wirecheck::report::Record;

/// One way the client is wrong, or none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Knobs {
    /// No `code_challenge`, no `code_verifier`.
    no_pkce: bool,
    /// Asks for the metadata's `scopes_supported`, not the 401's `scope`.
    ignores_challenge_scope: bool,
    /// No `resource` in either request.
    no_resource: bool,
    /// Steps up again after every 403 `insufficient_scope` (up to 12 times).
    unlimited_retries: bool,
    /// Goes on though the metadata names no `code_challenge_methods_supported`.
    ignores_pkce_metadata: bool,
    /// Redeems the code whatever issuer the redirect's `iss` names.
    ignores_iss: bool,
    /// Steps up asking only the 403's scopes, dropping those granted before.
    replaces_scope_on_step_up: bool,
    /// Closes the session (DELETE) with a bearer token of its own making,
    /// one the authorization server never issued.
    foreign_token: bool,
}

const REDIRECT: &str = "http://127.0.0.1:1/callback";
const VERSION: &str = "2025-11-25";

struct Client {
    http: reqwest::Client,
    url: String,
    knobs: Knobs,
    session: Option<String>,
    token: Option<String>,
    next_id: u64,
}

/// What one POST got.
struct Answer {
    status: u16,
    challenge: Option<BTreeMap<String, String>>,
    session: Option<String>,
}

impl Client {
    fn new(url: &str, knobs: Knobs) -> Self {
        Client {
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .timeout(Duration::from_secs(10))
                .build()
                .unwrap(),
            url: url.to_owned(),
            knobs,
            session: None,
            token: None,
            next_id: 0,
        }
    }

    async fn post(&mut self, method: &str, params: Value, notification: bool) -> Answer {
        let mut body = json!({"jsonrpc": "2.0", "method": method, "params": params});
        if !notification {
            self.next_id += 1;
            body["id"] = json!(self.next_id);
        }
        let mut request = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body.to_string());
        if let Some(session) = &self.session {
            request = request
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", VERSION);
        }
        if let Some(token) = &self.token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("the peer answers");
        let status = response.status().as_u16();
        let challenge = response
            .headers()
            .get("www-authenticate")
            .and_then(|v| v.to_str().ok())
            .and_then(bearer_params);
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let _ = response.text().await;
        Answer {
            status,
            challenge,
            session,
        }
    }

    async fn get_json(&self, url: &str) -> Value {
        self.http
            .get(url)
            .send()
            .await
            .expect("the metadata is served")
            .bytes()
            .await
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .expect("the metadata is JSON")
    }

    /// The authorization code flow for `scope` against `metadata`'s
    /// endpoints, the redirect followed headlessly; the token, or why none.
    async fn authorize(&self, metadata: &Value, scope: &str) -> Result<String, String> {
        let verifier = format!(
            "{}{}",
            wirecheck::auth::issuer::fresh_hex(),
            "-verifier-of-43-chars"
        );
        let mut url =
            reqwest::Url::parse(metadata["authorization_endpoint"].as_str().unwrap()).unwrap();
        {
            let mut q = url.query_pairs_mut();
            q.append_pair("response_type", "code")
                .append_pair("client_id", "wirecheck-test-client")
                .append_pair("redirect_uri", REDIRECT)
                .append_pair("state", "s")
                .append_pair("scope", scope);
            if !self.knobs.no_pkce {
                q.append_pair("code_challenge", &wirecheck::auth::server::s256(&verifier))
                    .append_pair("code_challenge_method", "S256");
            }
            if !self.knobs.no_resource {
                q.append_pair("resource", &self.url);
            }
        }
        let answer = self.http.get(url).send().await.map_err(|e| e.to_string())?;
        let location = answer
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .ok_or("no redirect")?;
        let back: BTreeMap<String, String> = reqwest::Url::parse(location)
            .unwrap()
            .query_pairs()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        // RFC 9207 §2.4: `iss` must be the issuer of the metadata used.
        let issuer = metadata["issuer"].as_str().unwrap_or_default();
        if !self.knobs.ignores_iss && back.get("iss").is_some_and(|iss| iss != issuer) {
            return Err(format!("the response names the issuer {:?}", back["iss"]));
        }
        let code = back
            .get("code")
            .ok_or_else(|| format!("refused: {back:?}"))?;
        let mut form = vec![
            ("grant_type", "authorization_code".to_owned()),
            ("code", code.clone()),
            ("redirect_uri", REDIRECT.to_owned()),
            ("client_id", "wirecheck-test-client".to_owned()),
        ];
        if !self.knobs.no_pkce {
            form.push(("code_verifier", verifier));
        }
        if !self.knobs.no_resource {
            form.push(("resource", self.url.clone()));
        }
        let body = form
            .iter()
            .map(|(k, v)| format!("{k}={}", urlencode(v)))
            .collect::<Vec<_>>()
            .join("&");
        let issued: Value = self
            .http
            .post(metadata["token_endpoint"].as_str().unwrap())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .map_err(|e| e.to_string())?
            .bytes()
            .await
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .ok_or("the token answer is no JSON")?;
        issued["access_token"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("no token: {issued}"))
    }

    /// The whole run: 401, discovery, authorization, the session, a
    /// `tools/call` (stepping up when refused for scope), DELETE.
    async fn run(mut self) {
        let init = json!({"protocolVersion": VERSION, "capabilities": {}, "clientInfo": {"name": "wirecheck-test", "version": "1"}});
        let first = self.post("initialize", init.clone(), false).await;
        assert_eq!(first.status, 401);
        let challenge = first.challenge.expect("a Bearer challenge");
        let prm = self.get_json(&challenge["resource_metadata"]).await;
        let issuer = prm["authorization_servers"][0].as_str().unwrap().to_owned();
        let metadata = self
            .get_json(&format!("{issuer}/.well-known/oauth-authorization-server"))
            .await;
        let pkce = metadata["code_challenge_methods_supported"]
            .as_array()
            .is_some_and(|m| m.iter().any(|m| m == "S256"));
        if !pkce && !self.knobs.ignores_pkce_metadata {
            return; // refuses to proceed
        }
        let mut scope = if self.knobs.ignores_challenge_scope {
            wirecheck::auth::client::strings(&prm, "scopes_supported").join(" ")
        } else {
            challenge["scope"].clone()
        };
        let Ok(token) = self.authorize(&metadata, &scope).await else {
            return;
        };
        self.token = Some(token);
        let opened = self.post("initialize", init, false).await;
        assert_eq!(opened.status, 200);
        self.session = opened.session;
        self.post("notifications/initialized", json!({}), true)
            .await;
        let limit = if self.knobs.unlimited_retries { 12 } else { 1 };
        let mut stepped = 0;
        loop {
            let called = self
                .post(
                    "tools/call",
                    json!({"name": "echo", "arguments": {"text": "hi"}}),
                    false,
                )
                .await;
            let asked = called.challenge.filter(|c| {
                called.status == 403
                    && c.get("error").map(String::as_str) == Some("insufficient_scope")
            });
            let Some(asked) = asked else { break };
            if stepped == limit {
                break;
            }
            stepped += 1;
            // The union of what was asked before and what the 403 names.
            let mut union: BTreeSet<String> = if self.knobs.replaces_scope_on_step_up {
                BTreeSet::new()
            } else {
                scope.split(' ').map(str::to_owned).collect()
            };
            union.extend(asked["scope"].split(' ').map(str::to_owned));
            scope = union.into_iter().collect::<Vec<_>>().join(" ");
            match self.authorize(&metadata, &scope).await {
                Ok(token) => self.token = Some(token),
                Err(_) => break,
            }
        }
        let mut delete = self.http.delete(&self.url);
        if let Some(session) = &self.session {
            delete = delete
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", VERSION);
        }
        if self.knobs.foreign_token {
            delete = delete.bearer_auth("wirecheck-test-token-of-another-issuer");
        } else if let Some(token) = &self.token {
            delete = delete.bearer_auth(token);
        }
        delete.send().await.expect("DELETE is answered");
    }
}

fn urlencode(text: &str) -> String {
    let mut url = reqwest::Url::parse("http://x/").unwrap();
    url.query_pairs_mut().append_pair("v", text);
    url.query().unwrap()[2..].to_owned()
}

/// Every record of one judged run of the client with `knobs` against the
/// protected peer playing `scenario`: the sessions' and the authorization's.
fn judged(knobs: Knobs, scenario: Option<Scenario>) -> Vec<Record> {
    judged_as(knobs, scenario, None)
}

/// As [`judged`], the authorization records judged under `revision` when
/// given (the client here speaks 2025-11-25; the flow itself names no
/// revision).
fn judged_as(
    knobs: Knobs,
    scenario: Option<Scenario>,
    revision: Option<harness::Revision>,
) -> Vec<Record> {
    use wirecheck::clientcheck::http::{serve, Stop};
    use wirecheck::peer::http::{Config, Server};
    use wirecheck::peer::Serve;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let config = Config {
            serve: Serve::Negotiate,
            max_frame: harness::Limits::DEFAULT_MAX_FRAME_BYTES,
            allow_remote: false,
        };
        let no_scenarios: Vec<wirecheck::clientcheck::Scenario> = Vec::new();
        let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
        let mut server = Server::bind_judged(loopback, config, no_scenarios)
            .await
            .unwrap();
        let (auth, issuing) = wirecheck::clientcheck::auth::protect(&mut server, scenario)
            .await
            .unwrap();
        tokio::spawn(issuing.serve());
        let client = tokio::spawn(Client::new(&server.mcp_url(), knobs).run());
        let done = async {
            client.await.expect("the client does not panic");
            Stop::Told { closed: true }
        };
        let (mut records, ended) = serve(server, done, false).await;
        ended.expect("the peer served to the end");
        let revision = revision
            .unwrap_or_else(|| wirecheck::clientcheck::auth::revision(None, &records, Some(&auth)));
        records.extend(auth.records(revision));
        records
    })
}

/// The findings (failures and warnings) as `rule` ids, and the outcome of
/// each `auth/` record by its rule.
fn findings(records: &[Record]) -> BTreeSet<String> {
    records
        .iter()
        .filter(|r| {
            matches!(
                r.outcome,
                harness::Outcome::Fail | harness::Outcome::Warning
            )
        })
        .map(|r| {
            r.check
                .as_ref()
                .map_or_else(|| format!("{:?}", r.place), |c| c.rule.as_str().to_owned())
        })
        .collect()
}

fn auth_outcomes(records: &[Record]) -> BTreeMap<String, &'static str> {
    records
        .iter()
        .filter_map(|r| {
            let rule = r.check.as_ref()?.rule.as_str().to_owned();
            rule.starts_with("mcp.auth.client-")
                .then(|| (rule, r.outcome.name()))
        })
        .collect()
}

fn set(rules: &[&str]) -> BTreeSet<String> {
    rules.iter().map(|r| (*r).to_owned()).collect()
}

#[test]
fn a_correct_client_draws_no_finding_and_every_rule_sees_it() {
    let records = judged(Knobs::default(), None);
    assert_eq!(findings(&records), set(&[]), "{records:#?}");
    let outcomes = auth_outcomes(&records);
    assert_eq!(outcomes.len(), 12, "{outcomes:?}");
    for (rule, outcome) in &outcomes {
        let expected = if rule == "mcp.auth.client-pkce-refuse" || rule == "mcp.auth.client-iss" {
            "not-applicable"
        } else {
            "pass"
        };
        assert_eq!(*outcome, expected, "{rule}");
    }
}

#[test]
fn a_client_sending_a_token_not_issued_is_caught_by_the_issued_token_rule_alone() {
    let records = judged(
        Knobs {
            foreign_token: true,
            ..Knobs::default()
        },
        None,
    );
    assert_eq!(
        findings(&records),
        set(&["mcp.auth.client-issued-token"]),
        "{records:#?}"
    );
}

#[test]
fn a_client_without_pkce_is_caught_by_the_pkce_rule_alone() {
    let records = judged(
        Knobs {
            no_pkce: true,
            ..Knobs::default()
        },
        None,
    );
    assert_eq!(findings(&records), set(&["mcp.auth.client-pkce"]));
}

#[test]
fn a_client_ignoring_the_challenges_scope_is_warned_by_the_scope_rule_alone() {
    let records = judged(
        Knobs {
            ignores_challenge_scope: true,
            ..Knobs::default()
        },
        None,
    );
    assert_eq!(
        findings(&records),
        set(&["mcp.auth.client-challenge-scope"])
    );
    assert_eq!(
        auth_outcomes(&records)["mcp.auth.client-challenge-scope"],
        "warning"
    );
}

#[test]
fn a_client_without_resource_is_caught_by_the_resource_rule_alone() {
    let records = judged(
        Knobs {
            no_resource: true,
            ..Knobs::default()
        },
        None,
    );
    assert_eq!(findings(&records), set(&["mcp.auth.client-resource"]));
}

#[test]
fn a_client_retrying_without_limit_is_warned_by_the_retry_rule_alone() {
    let retried = judged(
        Knobs {
            unlimited_retries: true,
            ..Knobs::default()
        },
        Some(Scenario::StepUpRefused),
    );
    assert_eq!(findings(&retried), set(&["mcp.auth.client-retry-limit"]));
    // The correct client steps up once, is refused again, and stops.
    let limited = judged(Knobs::default(), Some(Scenario::StepUpRefused));
    assert_eq!(findings(&limited), set(&[]));
    assert_eq!(
        auth_outcomes(&limited)["mcp.auth.client-retry-limit"],
        "pass"
    );
}

#[test]
fn a_client_proceeding_without_pkce_metadata_is_caught_by_the_refusal_rule_alone() {
    let proceeded = judged(
        Knobs {
            ignores_pkce_metadata: true,
            ..Knobs::default()
        },
        Some(Scenario::NoPkceMetadata),
    );
    assert_eq!(findings(&proceeded), set(&["mcp.auth.client-pkce-refuse"]));
    let refused = judged(Knobs::default(), Some(Scenario::NoPkceMetadata));
    assert_eq!(findings(&refused), set(&[]));
    let outcomes = auth_outcomes(&refused);
    assert_eq!(outcomes["mcp.auth.client-pkce-refuse"], "pass");
    assert_eq!(outcomes["mcp.auth.client-pkce"], "not-observed");
}

#[test]
fn a_client_redeeming_a_code_whatever_its_iss_is_caught_by_the_iss_rule_alone() {
    let r5 = Some(harness::Revision::Mcp2026_07_28);
    let redeemed = judged_as(
        Knobs {
            ignores_iss: true,
            ..Knobs::default()
        },
        Some(Scenario::WrongIss),
        r5,
    );
    assert_eq!(findings(&redeemed), set(&["mcp.auth.client-iss"]));
    let refused = judged_as(Knobs::default(), Some(Scenario::WrongIss), r5);
    assert_eq!(findings(&refused), set(&[]));
    assert_eq!(auth_outcomes(&refused)["mcp.auth.client-iss"], "pass");
    // Before 2026-07-28 the text has no such sentence: no record.
    let earlier = judged(Knobs::default(), Some(Scenario::WrongIss));
    assert!(!auth_outcomes(&earlier).contains_key("mcp.auth.client-iss"));
}

#[test]
fn a_client_stepping_up_without_its_granted_scopes_is_warned_by_the_step_up_scope_rule_alone() {
    let r5 = Some(harness::Revision::Mcp2026_07_28);
    let replaced = judged_as(
        Knobs {
            replaces_scope_on_step_up: true,
            ..Knobs::default()
        },
        None,
        r5,
    );
    assert_eq!(findings(&replaced), set(&["mcp.auth.client-step-up-scope"]));
    assert_eq!(
        auth_outcomes(&replaced)["mcp.auth.client-step-up-scope"],
        "warning"
    );
    let kept = judged_as(Knobs::default(), None, r5);
    assert_eq!(findings(&kept), set(&[]));
    let outcomes = auth_outcomes(&kept);
    assert_eq!(outcomes.len(), 14, "{outcomes:?}");
    assert_eq!(outcomes["mcp.auth.client-step-up-scope"], "pass");
}

/// The command line: `serve --http 127.0.0.1:0 --judge --auth --report FILE`
/// ends at the client's DELETE and writes the authorization records with the
/// sessions'.
#[test]
fn serve_judge_auth_writes_the_authorization_records() {
    use std::io::BufRead as _;
    let dir = std::env::temp_dir().join(format!("wirecheck-auth-client-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join("report.json");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_wirecheck"))
        // One scenario that sends only a notification: the client here
        // answers no server request (the ping of `server-requests`).
        .args([
            "serve",
            "--http",
            "127.0.0.1:0",
            "--judge",
            "--scenario",
            "list-changed",
        ])
        .args(["--auth", "--report"])
        .arg(&report)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut base = None;
    for _ in 0..2 {
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        if let Some(b) = line.trim().strip_prefix("listening on ") {
            base = Some(b.to_owned());
        }
    }
    let url = format!("{}/mcp", base.expect("the peer says where it listens"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(Client::new(&url, Knobs::default()).run());
    let status = child.wait().unwrap();
    let written: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert!(status.success(), "{status}: {written}");
    let _ = std::fs::remove_dir_all(&dir);
    let text = written.to_string();
    let passed = written["records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["check"]["rule"]
                .as_str()
                .is_some_and(|r| r.starts_with("mcp.auth.client-"))
                && r["outcome"]["outcome"] == "pass"
        })
        .count();
    assert_eq!(passed, 11, "{text}");
    assert!(!text.contains("eyJ"), "no token is written to the report");
}
