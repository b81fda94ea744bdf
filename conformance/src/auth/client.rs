//! What `wirecheck run --http URL --auth` does before its sessions: find the
//! authorization server (the server's Protected Resource Metadata, or
//! `--auth-issuer`), make sure it is wirecheck's (its metadata names a
//! `wirecheck_mint_endpoint`), and mint the tokens the run uses: the valid
//! one every session carries as `Authorization: Bearer`, and the bad ones
//! the authorization probes send.

use std::time::Duration;

use reqwest::header::HeaderMap;
use serde_json::{json, Value};

use super::issuer::{Mint, Signer};
use super::resource::{bearer_params, origin, PRM_PREFIX};
use harness::Revision;

/// The tokens of a run, each minted for the server's URL unless it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tokens {
    /// Valid: the right `aud`, `iss`, key, a live `exp`, every scope the
    /// server names.
    pub valid: String,
    /// Expired an hour ago.
    pub expired: String,
    /// `aud` another resource.
    pub wrong_audience: String,
    /// No `aud`.
    pub missing_audience: String,
    /// Signed with a key the issuer never published.
    pub unpublished_key: String,
    /// `iss` another issuer.
    pub other_issuer: String,
    /// A scope the server named none of; `None` when it named no scope.
    pub insufficient_scope: Option<String>,
}

/// What a run with `--auth` learnt before its sessions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ready {
    /// The authorization server's issuer URL.
    pub issuer: String,
    /// The scopes the server named (PRM `scopes_supported`, the 401's `scope`).
    pub scopes: Vec<String>,
    /// The tokens.
    pub tokens: Tokens,
    /// The issuer's mint endpoint, for a probe whose token depends on an
    /// answer (the scopes a 403 named).
    pub mint_url: String,
}

/// The resource another audience names: no server is it.
pub const OTHER_RESOURCE: &str = "https://wirecheck-other-resource.invalid/mcp";
/// The issuer another token names.
pub const OTHER_ISSUER: &str = "https://wirecheck-other-issuer.invalid";
/// The scope an insufficient token carries.
pub const INSUFFICIENT_SCOPE: &str = "wirecheck:insufficient";

/// The authorization probes' client: the one builder, Mozilla's roots for
/// an `https://` server (a private CA's server is reached by the run's own
/// transports, not yet by these probes).
fn client(timeout: Duration) -> Result<reqwest::Client, String> {
    crate::transport::http::builder(&crate::transport::http::HttpOptions::default())
        .timeout(timeout)
        .pool_max_idle_per_host(0)
        .build()
        .map_err(|e| e.to_string())
}

/// The two forms of a well-known URI for `url` (RFC 8414 §3.1, RFC 9728
/// §3.1): at its origin's root, and with its path inserted after `suffix`
/// (`None` when it has no path). `None` for a string that is no URL.
#[must_use]
pub fn well_known_forms(url: &str, suffix: &str) -> Option<(String, Option<String>)> {
    let parsed = reqwest::Url::parse(url).ok()?;
    let origin = parsed.origin().ascii_serialization();
    let path = parsed.path().trim_end_matches('/');
    let inserted = (!path.is_empty()).then(|| format!("{origin}{suffix}{path}"));
    Some((format!("{origin}{suffix}"), inserted))
}

/// The well-known URIs of `url`'s Protected Resource Metadata, in the order
/// 2025-11-25 basic/authorization §Protected Resource Metadata Discovery
/// Requirements lists them: the path form, then the root.
#[must_use]
pub fn well_known(url: &str) -> Vec<String> {
    well_known_forms(url, PRM_PREFIX).map_or_else(Vec::new, |(root, inserted)| {
        inserted.into_iter().chain([root]).collect()
    })
}

/// Whether wirecheck may fetch `candidate`, a URL a server named: on this
/// machine (a loopback host), or at the origin of one of `known` (the server
/// under test, the issuer the user named). The project reaches no network
/// but the registries and what the user points it at, so a URL a server
/// names elsewhere is never followed.
#[must_use]
pub fn may_reach(candidate: &str, known: &[&str]) -> bool {
    let Ok(parsed) = reqwest::Url::parse(candidate) else {
        return false;
    };
    let host = parsed.host_str().unwrap_or_default();
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    loopback
        || origin(candidate).is_some_and(|o| known.iter().any(|k| origin(k).as_ref() == Some(&o)))
}

/// The first request of a session under `revision`, as a POST body and its
/// headers: `initialize`, or 2026-07-28's `server/discover`.
#[must_use]
pub fn opening(revision: Revision) -> (Value, Vec<(&'static str, String)>) {
    if revision == Revision::Mcp2026_07_28 {
        let body = json!({
            "jsonrpc": "2.0", "id": "wirecheck-auth", "method": "server/discover",
            "params": { "_meta": crate::opening::discover_meta(revision) },
        });
        let headers = vec![
            ("mcp-protocol-version", revision.name().to_owned()),
            ("mcp-method", "server/discover".to_owned()),
        ];
        (body, headers)
    } else {
        let body = json!({
            "jsonrpc": "2.0", "id": "wirecheck-auth", "method": "initialize",
            "params": crate::opening::initialize_params(revision),
        });
        (body, Vec::new())
    }
}

/// What one POST of the opening got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The status.
    pub status: u16,
    /// Every `WWW-Authenticate` value.
    pub challenges: Vec<String>,
    /// The exchange as sent and got (the token redacted), for the record
    /// the answer decides.
    pub exchange: crate::report::HttpExchange,
}

/// How long the start of an answer's body is waited for, for the exchange
/// a record shows: a 2xx may be an SSE stream that stays open.
const BODY_WAIT: Duration = Duration::from_secs(1);

/// POSTs the opening of `revision` to `url` with `token` as the bearer
/// (none when `None`), reading only the status and `WWW-Authenticate`.
pub async fn post_opening(
    url: &str,
    revision: Revision,
    token: Option<&str>,
    timeout: Duration,
) -> Result<Answer, String> {
    let (body, headers) = opening(revision);
    let mut sent: Vec<(String, String)> = vec![
        ("content-type".into(), "application/json".into()),
        (
            "accept".into(),
            "application/json, text/event-stream".into(),
        ),
    ];
    sent.extend(headers.iter().map(|(n, v)| ((*n).to_owned(), v.clone())));
    if token.is_some() {
        sent.push(("authorization".into(), "(redacted)".into()));
    }
    let mut request = client(timeout)?
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body.to_string());
    for (name, value) in headers {
        request = request.header(name, value);
    }
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let mut response = request
        .send()
        .await
        .map_err(|e| format!("POST {url}: {e}"))?;
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let challenges = challenges(&headers);
    // The body's start only, within a moment: an accepted opening may be
    // answered on an SSE stream that stays open.
    let mut start = Vec::new();
    let _ = tokio::time::timeout(BODY_WAIT, async {
        while start.len() < crate::transport::http::EXCERPT {
            match response.chunk().await {
                Ok(Some(chunk)) => start.extend_from_slice(&chunk),
                _ => break,
            }
        }
    })
    .await;
    let exchange = crate::transport::http::shown_exchange(
        "POST",
        url,
        sent,
        Some(body.to_string().as_bytes()),
        status,
        &headers,
        &start,
    );
    Ok(Answer {
        status,
        challenges,
        exchange,
    })
}

/// Every `WWW-Authenticate` value of a response, as text.
#[must_use]
pub fn challenges(headers: &HeaderMap) -> Vec<String> {
    headers
        .get_all("www-authenticate")
        .iter()
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .collect()
}

/// A JSON document fetched with GET: the status, and the body when it is a
/// JSON object.
pub async fn get_json(url: &str, timeout: Duration) -> Result<(u16, Option<Value>), String> {
    let response = client(timeout)?
        .get(url)
        .header("accept", "application/json")
        .send()
        .await
        .map_err(|e| format!("GET {url}: {e}"))?;
    let status = response.status().as_u16();
    let body = response
        .bytes()
        .await
        .map_err(|e| format!("GET {url}: {e}"))?;
    let value = serde_json::from_slice::<Value>(&body)
        .ok()
        .filter(Value::is_object);
    Ok((status, value.filter(|_| (200..300).contains(&status))))
}

/// What one request of a probe's own got: the status, the body when it is
/// a JSON object, and the exchange for the record it decides.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The status.
    pub status: u16,
    /// The body, when it is a JSON object.
    pub json: Option<Value>,
    /// The exchange as sent and got.
    pub exchange: crate::report::HttpExchange,
}

impl Fetched {
    /// The OAuth `error` code of a JSON error body (RFC 6749 §5.2, RFC 7591
    /// §3.2.2), if the body is one.
    #[must_use]
    pub fn oauth_error(&self) -> Option<&str> {
        self.json.as_ref()?.get("error")?.as_str()
    }
}

/// Sends one request carrying no token (no redirect followed) and reads its
/// answer whole: for the probes of what a server serves beside its MCP
/// endpoint (metadata, the default authorization endpoints).
pub async fn fetch(
    method: reqwest::Method,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
    timeout: Duration,
) -> Result<Fetched, String> {
    let mut request = client(timeout)?.request(method.clone(), url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    if let Some(body) = body {
        request = request.body(body.to_owned());
    }
    let failed = |e: reqwest::Error| format!("{method} {url}: {e}");
    let response = request.send().await.map_err(failed)?;
    let status = response.status().as_u16();
    let response_headers = response.headers().clone();
    let bytes = response.bytes().await.map_err(failed)?;
    let json = serde_json::from_slice::<Value>(&bytes)
        .ok()
        .filter(Value::is_object);
    let sent = headers
        .iter()
        .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
        .collect();
    let exchange = crate::transport::http::shown_exchange(
        method.as_str(),
        url,
        sent,
        body.map(str::as_bytes),
        status,
        &response_headers,
        &bytes,
    );
    Ok(Fetched {
        status,
        json,
        exchange,
    })
}

/// The strings of an array member.
#[must_use]
pub fn strings(document: &Value, member: &str) -> Vec<String> {
    document
        .get(member)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Finds the authorization server and mints the run's tokens for `url`.
pub async fn prepare(
    url: &str,
    issuer: Option<&str>,
    revision: Revision,
    timeout: Duration,
) -> Result<Ready, String> {
    let mut scopes: Vec<String> = Vec::new();
    let mut found = issuer.map(str::to_owned);
    let unauthenticated = post_opening(url, revision, None, timeout).await?;
    let mut candidates = Vec::new();
    for challenge in &unauthenticated.challenges {
        if let Some(params) = bearer_params(challenge) {
            if let Some(scope) = params.get("scope") {
                scopes.extend(
                    scope
                        .split(' ')
                        .filter(|s| !s.is_empty())
                        .map(str::to_owned),
                );
            }
            if let Some(md) = params.get("resource_metadata") {
                candidates.push(md.clone());
            }
        }
    }
    candidates.extend(well_known(url));
    let known: Vec<&str> = std::iter::once(url).chain(issuer).collect();
    candidates.retain(|c| may_reach(c, &known));
    for candidate in &candidates {
        if let Ok((_, Some(document))) = get_json(candidate, timeout).await {
            scopes.extend(strings(&document, "scopes_supported"));
            if found.is_none() {
                found = strings(&document, "authorization_servers")
                    .into_iter()
                    .next();
            }
            break;
        }
    }
    scopes.sort();
    scopes.dedup();
    let issuer = found.ok_or_else(|| {
        format!(
            "--auth: the server names no authorization server (no Protected Resource Metadata with \
             `authorization_servers` at {}); pass --auth-issuer URL of the `wirecheck auth-server` it trusts",
            candidates.join(", ")
        )
    })?;
    let issuer = issuer.trim_end_matches('/').to_owned();
    if !may_reach(&issuer, &known) {
        return Err(format!(
            "--auth: the server names the authorization server {issuer}, not on this machine; \
             wirecheck contacts no host a server names: run `wirecheck auth-server --port N`, \
             configure the server to trust it, and pass --auth-issuer http://127.0.0.1:N"
        ));
    }
    let metadata_url = format!("{issuer}/.well-known/oauth-authorization-server");
    let (_, metadata) = get_json(&metadata_url, timeout).await?;
    let mint_url = metadata
        .as_ref()
        .and_then(|m| m.get("wirecheck_mint_endpoint"))
        .and_then(Value::as_str)
        .ok_or_else(|| {
            format!(
                "--auth: the authorization server {issuer} is not wirecheck's ({metadata_url} names no \
                 `wirecheck_mint_endpoint`): run `wirecheck auth-server --port N`, configure the server \
                 to trust its issuer, and pass --auth-issuer http://127.0.0.1:N"
            )
        })?
        .to_owned();
    if origin(&mint_url) != origin(&issuer) {
        return Err(format!(
            "--auth: {metadata_url} names a mint endpoint at another origin ({mint_url}); \
             wirecheck mints only at the issuer it was given"
        ));
    }
    let mint = |asked: Mint| mint_token(&mint_url, asked, timeout);
    let scope = (!scopes.is_empty()).then(|| scopes.join(" "));
    let good = Mint {
        aud: Some(url.to_owned()),
        scope: scope.clone(),
        ..Mint::default()
    };
    let tokens = Tokens {
        valid: mint(good.clone()).await?,
        expired: mint(Mint {
            expires_in: Some(-3600),
            ..good.clone()
        })
        .await?,
        wrong_audience: mint(Mint {
            aud: Some(OTHER_RESOURCE.into()),
            ..good.clone()
        })
        .await?,
        missing_audience: mint(Mint {
            aud: None,
            ..good.clone()
        })
        .await?,
        unpublished_key: mint(Mint {
            key: Signer::Unpublished,
            ..good.clone()
        })
        .await?,
        other_issuer: mint(Mint {
            iss: Some(OTHER_ISSUER.into()),
            ..good.clone()
        })
        .await?,
        insufficient_scope: match scope {
            Some(_) => Some(
                mint(Mint {
                    scope: Some(INSUFFICIENT_SCOPE.into()),
                    ..good.clone()
                })
                .await?,
            ),
            None => None,
        },
    };
    Ok(Ready {
        issuer,
        scopes,
        tokens,
        mint_url,
    })
}

/// A token of wirecheck's authorization server, asked of its mint endpoint.
pub async fn mint_token(mint_url: &str, asked: Mint, timeout: Duration) -> Result<String, String> {
    let response = client(timeout)?
        .post(mint_url)
        .header("content-type", "application/json")
        .body(serde_json::to_string(&asked).map_err(|e| e.to_string())?)
        .send()
        .await
        .map_err(|e| format!("--auth: POST {mint_url}: {e}"))?;
    let bytes = response
        .bytes()
        .await
        .map_err(|e| format!("--auth: {mint_url}: {e}"))?;
    let body: Value =
        serde_json::from_slice(&bytes).map_err(|e| format!("--auth: {mint_url}: {e}"))?;
    body.get("access_token")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| format!("--auth: {mint_url} minted no token: {body}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_and_known_origins_are_reached() {
        let known = ["http://10.0.0.5:8080/mcp", "https://as.example:9443"];
        assert!(may_reach("http://127.0.0.1:4000/x", &known));
        assert!(may_reach("http://localhost:4000/x", &known));
        assert!(may_reach("http://[::1]:4000/x", &known));
        assert!(may_reach(
            "http://10.0.0.5:8080/.well-known/oauth-protected-resource",
            &known
        ));
        assert!(may_reach("https://as.example:9443/.well-known/x", &known));
        // A host the server names, or another port of a known host: never.
        assert!(!may_reach("https://attacker.example/metadata", &known));
        assert!(!may_reach("http://10.0.0.5:9999/x", &known));
        assert!(!may_reach("not a url", &known));
    }

    #[test]
    fn the_well_known_uris_are_the_path_form_then_the_root() {
        assert_eq!(
            well_known("http://127.0.0.1:5/public/mcp"),
            [
                "http://127.0.0.1:5/.well-known/oauth-protected-resource/public/mcp",
                "http://127.0.0.1:5/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(
            well_known("http://127.0.0.1:5/"),
            ["http://127.0.0.1:5/.well-known/oauth-protected-resource"]
        );
    }
}
