//! The local authorization server over HTTP (`wirecheck auth-server`), on
//! loopback only: RFC 8414 metadata at `/.well-known/oauth-authorization-server`,
//! the JWKS at `/jwks`, an authorization endpoint that consents at once
//! (`/authorize`, authorization code with PKCE S256, redirect URIs on
//! loopback only), the token endpoint (`/token`), and wirecheck's mint
//! endpoint ([`MINT_PATH`]) the runner's probes take their tokens from.
//!
//! It is a test server: it trusts whoever reaches it, which is why it binds
//! loopback and nothing else.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine as _;
use serde::Deserialize;
use serde_json::json;
use sha2::Digest as _;
use tokio::net::TcpListener;

use super::issuer::{fresh_hex, Issuer, Mint, MINT_PATH, SCOPE};
use super::observed::{params, Event, Log};
use crate::sync::lock;

/// An authorization code waiting to be redeemed.
struct Pending {
    challenge: String,
    redirect_uri: String,
    resource: Option<String>,
    scope: String,
    client_id: String,
}

struct App {
    issuer: Issuer,
    codes: Mutex<HashMap<String, Pending>>,
    observing: Observing,
}

/// What a judging authorization server adds (`serve --http --judge
/// --auth`): every request recorded, and the two ways it can be made to
/// test a client.
#[derive(Debug, Clone, Default)]
pub struct Observing {
    /// Where every request is recorded; `None`: nowhere.
    pub log: Option<Log>,
    /// Its metadata leaves out `code_challenge_methods_supported`.
    pub no_pkce_metadata: bool,
    /// A scope it never grants, whoever asks.
    pub withhold: Option<String>,
    /// The `iss` its redirects name instead of its own issuer.
    pub wrong_iss: Option<String>,
}

/// A bound authorization server.
pub struct AuthServer {
    listener: TcpListener,
    app: Arc<App>,
}

impl AuthServer {
    /// Binds `addr` (loopback only) and makes the issuer
    /// `http://127.0.0.1:PORT` with fresh keys.
    pub async fn bind(addr: SocketAddr) -> Result<AuthServer, String> {
        Self::bind_observing(addr, Observing::default()).await
    }

    /// Binds as [`AuthServer::bind`], recording and behaving as `observing` asks.
    pub async fn bind_observing(
        addr: SocketAddr,
        observing: Observing,
    ) -> Result<AuthServer, String> {
        if !addr.ip().is_loopback() {
            return Err(format!(
                "{addr}: the authorization server binds loopback only (it mints any token it is asked for)"
            ));
        }
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|e| format!("{addr}: {e}"))?;
        let bound = listener.local_addr().map_err(|e| e.to_string())?;
        let issuer = Issuer::new(&format!("http://{bound}"))?;
        Ok(AuthServer {
            listener,
            app: Arc::new(App {
                issuer,
                codes: Mutex::default(),
                observing,
            }),
        })
    }

    /// The issuer identifier, `http://127.0.0.1:PORT`.
    #[must_use]
    pub fn issuer_url(&self) -> String {
        self.app.issuer.url().to_owned()
    }

    /// The JWKS it publishes.
    #[must_use]
    pub fn jwks(&self) -> serde_json::Value {
        self.app.issuer.jwks()
    }

    /// Serves until dropped.
    pub async fn serve(self) -> std::io::Result<()> {
        let port = self.listener.local_addr()?.port();
        let router = Router::new()
            .route("/.well-known/oauth-authorization-server", get(metadata))
            .route("/jwks", get(jwks))
            .route("/authorize", get(authorize))
            .route("/token", post(token))
            .route(MINT_PATH, post(mint))
            .layer(axum::middleware::from_fn_with_state(
                Arc::clone(&self.app),
                observe,
            ))
            .with_state(self.app)
            .layer(axum::middleware::from_fn_with_state(port, loopback_host));
        axum::serve(self.listener, router).await
    }
}

/// Refuses a request whose `Host` is not this server's own loopback
/// address: a web page that rebinds its name to 127.0.0.1 (DNS rebinding)
/// reaches the port but names itself in `Host`, and must not mint tokens a
/// local server trusts.
async fn loopback_host(
    State(port): State<u16>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let ours = ["127.0.0.1", "localhost", "[::1]"]
        .iter()
        .any(|name| host.eq_ignore_ascii_case(&format!("{name}:{port}")));
    if ours {
        next.run(request).await
    } else {
        oauth_error(
            StatusCode::FORBIDDEN,
            "invalid_request",
            "the Host is not this authorization server's loopback address",
        )
    }
}

/// Records each request and its status, when observing.
async fn observe(
    State(app): State<Arc<App>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let Some(log) = &app.observing.log else {
        return next.run(request).await;
    };
    let method = request.method().as_str().to_owned();
    let path = request.uri().path().to_owned();
    let query = params(request.uri().query().unwrap_or_default());
    let response = next.run(request).await;
    log.push(Event::Issuer {
        method,
        path,
        params: query,
        status: response.status().as_u16(),
    });
    response
}

/// The most authorization codes waiting to be redeemed: each `/authorize`
/// adds one, so a client looping on it cannot grow the map without end.
const MAX_PENDING_CODES: usize = 1024;

async fn metadata(State(app): State<Arc<App>>) -> Response {
    let mut metadata = app.issuer.metadata();
    if app.observing.no_pkce_metadata {
        if let Some(m) = metadata.as_object_mut() {
            m.remove("code_challenge_methods_supported");
        }
    }
    Json(metadata).into_response()
}

async fn jwks(State(app): State<Arc<App>>) -> Response {
    Json(app.issuer.jwks()).into_response()
}

async fn mint(State(app): State<Arc<App>>, Json(asked): Json<Mint>) -> Response {
    match app.issuer.mint(&asked) {
        Ok(token) => Json(json!({ "access_token": token, "token_type": "Bearer" })).into_response(),
        Err(e) => oauth_error(StatusCode::INTERNAL_SERVER_ERROR, "server_error", &e),
    }
}

/// An OAuth error response (RFC 6749 §5.2).
fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    (
        status,
        [(header::CACHE_CONTROL, "no-store")],
        Json(json!({ "error": error, "error_description": description })),
    )
        .into_response()
}

#[derive(Deserialize)]
struct AuthorizeQuery {
    response_type: Option<String>,
    client_id: Option<String>,
    redirect_uri: Option<String>,
    code_challenge: Option<String>,
    code_challenge_method: Option<String>,
    state: Option<String>,
    resource: Option<String>,
    scope: Option<String>,
}

/// Whether `uri` is a loopback `http` URI or any `https` one (2025-06-18
/// basic/authorization §Communication Security: "All redirect URIs MUST be
/// either `localhost` or use HTTPS").
fn redirect_allowed(uri: &str) -> bool {
    reqwest::Url::parse(uri).is_ok_and(|url| match url.scheme() {
        "https" => true,
        "http" => matches!(url.host_str(), Some("localhost" | "127.0.0.1" | "[::1]")),
        _ => false,
    })
}

/// An RFC 7591 client registration, as the 2025-03-26 reference peer
/// serves it at `/register` (basic/authorization §Dynamic Client
/// Registration): the status and the body. Any client id is good at
/// wirecheck's authorization server, so registering only checks the
/// metadata (RFC 7591 §2: `redirect_uris` an array of redirect URIs, each
/// loopback `http` or `https`) and names a fresh id.
#[must_use]
pub fn registration(body: &[u8]) -> (StatusCode, serde_json::Value) {
    let refused = |error: &str, why: &str| {
        (
            StatusCode::BAD_REQUEST,
            json!({ "error": error, "error_description": why }),
        )
    };
    let Ok(serde_json::Value::Object(mut metadata)) = serde_json::from_slice(body) else {
        return refused(
            "invalid_client_metadata",
            "the body is no JSON object of client metadata",
        );
    };
    let uris = match metadata.get("redirect_uris") {
        Some(serde_json::Value::Array(uris)) if !uris.is_empty() => uris,
        _ => {
            return refused(
                "invalid_redirect_uri",
                "`redirect_uris` must be a non-empty array (RFC 7591 §2)",
            )
        }
    };
    if !uris
        .iter()
        .all(|u| u.as_str().is_some_and(redirect_allowed))
    {
        return refused(
            "invalid_redirect_uri",
            "each redirect URI must be loopback http or https",
        );
    }
    metadata.insert("client_id".into(), json!(fresh_hex()));
    metadata.insert("client_id_issued_at".into(), json!(super::issuer::now()));
    metadata.insert("token_endpoint_auth_method".into(), json!("none"));
    metadata.insert("grant_types".into(), json!(["authorization_code"]));
    metadata.insert("response_types".into(), json!(["code"]));
    (StatusCode::CREATED, serde_json::Value::Object(metadata))
}

/// Consents at once: redirects to `redirect_uri` with a code (and `state`,
/// `iss`), or answers 400 for a request it cannot redirect.
async fn authorize(State(app): State<Arc<App>>, Query(q): Query<AuthorizeQuery>) -> Response {
    let Some(redirect_uri) = q.redirect_uri.filter(|u| redirect_allowed(u)) else {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "redirect_uri missing, or neither loopback http nor https",
        );
    };
    let iss = app
        .observing
        .wrong_iss
        .clone()
        .unwrap_or_else(|| app.issuer.url().to_owned());
    let refuse = |error: &str| {
        let mut url = reqwest::Url::parse(&redirect_uri).expect("checked above");
        url.query_pairs_mut()
            .append_pair("error", error)
            .append_pair("iss", &iss);
        if let Some(state) = &q.state {
            url.query_pairs_mut().append_pair("state", state);
        }
        (StatusCode::FOUND, [(header::LOCATION, url.to_string())]).into_response()
    };
    if q.response_type.as_deref() != Some("code") {
        return refuse("unsupported_response_type");
    }
    let (Some(challenge), Some("S256")) = (q.code_challenge, q.code_challenge_method.as_deref())
    else {
        return refuse("invalid_request");
    };
    let code = fresh_hex();
    if lock(&app.codes).len() >= MAX_PENDING_CODES {
        return refuse("temporarily_unavailable");
    }
    lock(&app.codes).insert(
        code.clone(),
        Pending {
            challenge,
            redirect_uri: redirect_uri.clone(),
            resource: q.resource,
            scope: granted(q.scope, app.observing.withhold.as_deref()),
            client_id: q.client_id.unwrap_or_default(),
        },
    );
    let mut url = reqwest::Url::parse(&redirect_uri).expect("checked above");
    url.query_pairs_mut()
        .append_pair("code", &code)
        .append_pair("iss", &iss);
    if let Some(state) = &q.state {
        url.query_pairs_mut().append_pair("state", state);
    }
    (StatusCode::FOUND, [(header::LOCATION, url.to_string())]).into_response()
}

/// The scope granted for `asked`: what was asked ([`SCOPE`] when nothing
/// was), less a withheld scope (RFC 6749 §3.3: the server may grant less).
fn granted(asked: Option<String>, withhold: Option<&str>) -> String {
    let asked = asked
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| SCOPE.to_owned());
    let kept: Vec<&str> = asked
        .split(' ')
        .filter(|s| !s.is_empty() && Some(*s) != withhold)
        .collect();
    if kept.is_empty() {
        SCOPE.to_owned()
    } else {
        kept.join(" ")
    }
}

#[derive(Deserialize)]
struct TokenForm {
    grant_type: Option<String>,
    code: Option<String>,
    redirect_uri: Option<String>,
    code_verifier: Option<String>,
    client_id: Option<String>,
    resource: Option<String>,
}

/// The PKCE S256 challenge of `verifier` (RFC 7636 §4.2).
#[must_use]
pub fn s256(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier))
}

/// Redeems a code: the verifier must match its challenge, the redirect URI
/// and client its request's; the token's `aud` is the `resource` asked.
async fn token(State(app): State<Arc<App>>, body: String) -> Response {
    let sent = params(&body);
    // Every member a string: the form's parameters as a JSON object read
    // into the same fields axum's `Form` would fill.
    let form: TokenForm = match serde_json::to_value(&sent).and_then(serde_json::from_value) {
        Ok(form) => form,
        Err(e) => {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                &format!("the form: {e}"),
            )
        }
    };
    let (response, matched, issued) = redeem(&app, form);
    if let Some(log) = &app.observing.log {
        let (issued, granted) = issued.unzip();
        log.push(Event::Token {
            params: sent,
            verifier_matched: matched,
            issued,
            granted,
        });
    }
    response
}

/// Redeems a code: the response, whether the verifier matched the code's
/// challenge (`None`: no known code, or no verifier), and the token issued
/// with the scope granted.
fn redeem(app: &App, form: TokenForm) -> (Response, Option<bool>, Option<(String, String)>) {
    let refused = |matched, error: &str, why: &str| {
        (
            oauth_error(StatusCode::BAD_REQUEST, error, why),
            matched,
            None,
        )
    };
    if form.grant_type.as_deref() != Some("authorization_code") {
        return refused(None, "unsupported_grant_type", "only authorization_code");
    }
    let Some(pending) = form.code.and_then(|c| lock(&app.codes).remove(&c)) else {
        return refused(None, "invalid_grant", "unknown or used code");
    };
    let matched = form
        .code_verifier
        .as_deref()
        .map(|v| s256(v) == pending.challenge);
    let verified = matched == Some(true);
    if !verified
        || form.redirect_uri.as_deref() != Some(pending.redirect_uri.as_str())
        || form.client_id.as_deref().unwrap_or_default() != pending.client_id
    {
        return refused(
            matched,
            "invalid_grant",
            "code_verifier, redirect_uri or client_id does not match the authorization request",
        );
    }
    let Some(resource) = form.resource.or(pending.resource) else {
        return refused(
            matched,
            "invalid_target",
            "no resource: MCP clients MUST send the resource parameter (RFC 8707)",
        );
    };
    match app.issuer.mint(&Mint {
        aud: Some(resource),
        scope: Some(pending.scope.clone()),
        ..Mint::default()
    }) {
        Ok(token) => (
            (
                [(header::CACHE_CONTROL, "no-store")],
                Json(json!({
                    "access_token": token,
                    "token_type": "Bearer",
                    "expires_in": 3600,
                    "scope": pending.scope,
                })),
            )
                .into_response(),
            matched,
            Some((token, pending.scope)),
        ),
        Err(e) => (
            oauth_error(StatusCode::INTERNAL_SERVER_ERROR, "server_error", &e),
            matched,
            None,
        ),
    }
}

/// `wirecheck auth-server --port N`: binds `127.0.0.1:N`, prints the issuer
/// URL on stdout, and serves until killed.
pub fn run(port: u16) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("tokio runtime: {e}"))?;
    runtime.block_on(async {
        let server = AuthServer::bind(SocketAddr::from(([127, 0, 0, 1], port))).await?;
        println!("{}", server.issuer_url());
        eprintln!(
            "authorization server {} (metadata at /.well-known/oauth-authorization-server)",
            server.issuer_url()
        );
        server.serve().await.map_err(|e| format!("serving: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_registration_names_a_client_only_for_valid_redirect_uris() {
        let (status, body) = registration(br#"{"redirect_uris": ["http://127.0.0.1:9/cb"]}"#);
        assert_eq!(status, StatusCode::CREATED);
        assert!(body["client_id"].is_string(), "{body}");
        let bad: [&[u8]; 4] = [
            br#"{"redirect_uris": "http://127.0.0.1:9/cb"}"#,
            br#"{"redirect_uris": ["http://example.com/cb"]}"#,
            br#"{}"#,
            b"not json",
        ];
        for bad in bad {
            let (status, body) = registration(bad);
            assert_eq!(status, StatusCode::BAD_REQUEST);
            assert!(body["error"].is_string(), "{body}");
        }
    }

    #[test]
    fn s256_is_rfc_7636s_example() {
        // RFC 7636 Appendix B.
        assert_eq!(
            s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }
}
