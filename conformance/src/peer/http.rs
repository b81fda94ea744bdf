//! The reference peer over HTTP (`wirecheck serve --http ADDR`).
//!
//! - MCP Streamable HTTP at `/mcp` ([`streamable`]; 2025-03-26 on, and the
//!   session-free shape of 2026-07-28);
//! - the 2024-11-05 HTTP+SSE transport at `/sse` and `/messages` ([`sse`]);
//! - with `--profile jsonrpc-2.0`, plain JSON-RPC 2.0 over HTTP at `/`
//!   ([`jsonrpc`]).
//!
//! Every frame goes through one [`Peer`](super::Peer) per MCP session (per
//! SSE client for HTTP+SSE; one for the JSON-RPC service, whose methods keep
//! no state). HTTP is axum on hyper; SSE is axum's encoder. Every endpoint
//! checks `Origin` (2025-11-25 basic/transports §Security Warning 1, MUST: "If
//! the `Origin` header is present and invalid, servers MUST respond with HTTP
//! 403 Forbidden"), and the listener is loopback unless `--allow-remote`
//! (§Security Warning 2, SHOULD: "bind only to localhost").
//!
//! With `--auth` every route needs a bearer token (`authorize`, checked by
//! `crate::auth::resource::Protection`), and the Protected Resource Metadata
//! is served at both well-known URIs without one, as are 2025-03-26's
//! authorization server metadata and default endpoints at the base URL
//! ([`own_authorization_server`]).

mod client_headers;
mod guard;
mod jsonrpc;
mod judged;
mod own_authorization_server;
mod params;
mod resume;
mod sse;
mod streamable;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use tokio::net::TcpListener;

use super::{Peer, Serve};
use crate::auth::resource::{Denial, Protection, PRM_PREFIX};
use crate::report::Record;
use crate::sync::lock;
use crate::transport::headers::UserHeader;
use crate::transport::Kind;
pub use judged::{Conversation, Conversations};

/// How many MCP sessions (or SSE clients) may be live at once: a client that
/// floods `initialize` meets 503, not an unbounded map.
const MAX_SESSIONS: usize = 4096;

/// What `wirecheck serve --http` serves, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// The profile and revision served.
    pub serve: Serve,
    /// The largest request body accepted, in bytes; a longer one is answered
    /// with 413 and -32700.
    pub max_frame: usize,
    /// Also accept an `Origin` equal to the request's `Host` (a peer served
    /// on a non-loopback address is reached by that address).
    pub allow_remote: bool,
}

/// The state every handler shares.
struct App {
    config: Config,
    /// Streamable HTTP sessions by `Mcp-Session-Id`. A terminated session is
    /// removed: an unknown id and an ended one both get 404.
    sessions: Mutex<HashMap<String, Arc<Mutex<judged::Session>>>>,
    /// Each Streamable HTTP session's SSE event ids and replay buffer.
    streams: Mutex<HashMap<String, resume::Log>>,
    /// HTTP+SSE clients by the `sessionId` of their endpoint URI.
    sse_clients: Mutex<HashMap<String, sse::Client>>,
    /// The JSON-RPC 2.0 service's one peer.
    jsonrpc: Mutex<Peer>,
    /// With `--judge`: every Streamable HTTP session is judged.
    judging: Option<judged::Judging>,
    /// With `--auth`: every request needs a bearer token (`crate::auth`).
    protection: Option<Protection>,
}

/// A fresh id: 128 bits from the OS as 32 lowercase hex digits, visible ASCII
/// as 2025-11-25 §Session Management 1 requires ("SHOULD be globally unique
/// and cryptographically secure").
fn fresh_id() -> String {
    let mut bytes = [0u8; 16];
    // The OS source failing is not recoverable, and a guessable id is worse
    // than no server.
    getrandom::fill(&mut bytes).expect("the OS random source is available");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Checks `addr` is loopback unless remote serving was asked for.
pub fn check_addr(addr: &str, allow_remote: bool) -> Result<SocketAddr, String> {
    let parsed: SocketAddr = addr
        .parse()
        .map_err(|e| format!("--http {addr}: expected IP:PORT ({e})"))?;
    if !parsed.ip().is_loopback() && !allow_remote {
        return Err(format!(
            "--http {addr} is not a loopback address; the transports say servers running \
             locally SHOULD bind only to localhost: pass --allow-remote to serve on it anyway"
        ));
    }
    Ok(parsed)
}

/// The routes `app` serves. A judged server serves Streamable HTTP only:
/// the 2024-11-05 HTTP+SSE transport is not judged, so it is not offered.
fn router(app: Arc<App>) -> Router {
    let streamable = Router::new().route(
        "/mcp",
        post(streamable::post)
            .get(streamable::get)
            .delete(streamable::delete),
    );
    let routes = match app.config.serve {
        Serve::JsonRpc => Router::new().route("/", post(jsonrpc::post)),
        Serve::Negotiate | Serve::Mcp(_) if app.judging.is_some() => streamable,
        Serve::Negotiate | Serve::Mcp(_) => streamable
            .route("/sse", get(sse::open))
            .route("/messages", post(sse::message)),
    };
    let Some(protection) = &app.protection else {
        return routes.with_state(app);
    };
    // Every route above needs a token; the metadata, at both well-known
    // URIs (2025-11-25 basic/authorization §Protected Resource Metadata
    // Discovery Requirements), does not.
    let path = reqwest::Url::parse(&protection.audience)
        .map(|u| u.path().trim_end_matches('/').to_owned())
        .unwrap_or_default();
    let routes = routes.layer(axum::middleware::from_fn_with_state(
        Arc::clone(&app),
        authorize,
    ));
    let routes = routes.route(PRM_PREFIX, get(resource_metadata));
    let routes = if path.is_empty() {
        routes
    } else {
        routes.route(&format!("{PRM_PREFIX}{path}"), get(resource_metadata))
    };
    // The metadata URL the challenges name, when it is neither well-known
    // URI (a judged peer's own: a client that builds a well-known URI
    // instead of reading the challenge is then seen).
    let named = reqwest::Url::parse(&protection.metadata_url)
        .map(|u| u.path().to_owned())
        .unwrap_or_default();
    let routes =
        if named.is_empty() || named == PRM_PREFIX || named == format!("{PRM_PREFIX}{path}") {
            routes
        } else {
            routes.route(&named, get(resource_metadata))
        };
    // 2025-03-26's discovery, the server its own authorization server at
    // its base URL. Not for a judged peer: its setup is 2025-06-18 on's (the
    // Protected Resource Metadata naming wirecheck's authorization server),
    // and a client's requests here would muddle the log its rules read.
    let routes = if protection.judging.is_none() {
        own_authorization_server::routes(routes, protection)
    } else {
        routes
    };
    let routes = if protection.judging.is_some() {
        routes.layer(axum::middleware::from_fn_with_state(
            Arc::clone(&app),
            observe,
        ))
    } else {
        routes
    };
    routes.with_state(app)
}

/// The operation a 403 for insufficient scope refused, for the log.
#[derive(Debug, Clone)]
struct Refused(String);

/// Judging the client's authorization: every request and its answer goes to
/// the log (`crate::auth::observed`).
async fn observe(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let Some(judging) = app.protection.as_ref().and_then(|p| p.judging.as_ref()) else {
        return next.run(request).await;
    };
    let method = request.method().as_str().to_owned();
    let path = request.uri().path().to_owned();
    let query = request.uri().query().map(str::to_owned);
    // A block: the closure borrows the request (whose body is not `Sync`)
    // and must be gone before the await below.
    let (authorization, protocol_version) = {
        let header = |name: &str| -> Option<String> {
            request
                .headers()
                .get(name)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        };
        (header("authorization"), header("mcp-protocol-version"))
    };
    let response = next.run(request).await;
    judging.log.push(crate::auth::observed::Event::Resource {
        method,
        path,
        query,
        authorization,
        protocol_version,
        status: response.status().as_u16(),
        challenge: response
            .headers()
            .get(axum::http::header::WWW_AUTHENTICATE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned()),
        refused: response.extensions().get::<Refused>().map(|r| r.0.clone()),
    });
    response
}

/// Judging: a `tools/call` POSTed with a valid token that lacks the step-up
/// scope gets 403 `insufficient_scope` asking for it. The body is read to
/// find the method, then handed on whole.
async fn step_up(protection: &Protection, request: Request, next: Next) -> Response {
    let authorization = request
        .headers()
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let Some(challenge) = (request.method() == axum::http::Method::POST)
        .then(|| protection.step_up_challenge(authorization.as_deref()))
        .flatten()
    else {
        return next.run(request).await;
    };
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, 1 << 24).await else {
        return guard::refuse(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            harness::codes::PARSE_ERROR,
            "the body could not be read",
        );
    };
    let called = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .filter(|v| v.get("method").and_then(serde_json::Value::as_str) == Some("tools/call"))
        .map(|v| {
            let name = v
                .pointer("/params/name")
                .and_then(serde_json::Value::as_str)
                .unwrap_or_default();
            format!("tools/call {name}")
        });
    let Some(operation) = called else {
        return next
            .run(Request::from_parts(parts, axum::body::Body::from(bytes)))
            .await;
    };
    let mut response = guard::refuse(
        axum::http::StatusCode::FORBIDDEN,
        harness::codes::INVALID_REQUEST,
        "Forbidden: tools/call needs a further scope",
    );
    if let Ok(value) = axum::http::HeaderValue::from_str(&challenge) {
        response
            .headers_mut()
            .insert(axum::http::header::WWW_AUTHENTICATE, value);
    }
    response.extensions_mut().insert(Refused(operation));
    response
}

/// The Protected Resource Metadata (RFC 9728).
async fn resource_metadata(State(app): State<Arc<App>>) -> Response {
    match &app.protection {
        Some(p) => axum::Json(p.metadata()).into_response(),
        None => axum::http::StatusCode::NOT_FOUND.into_response(),
    }
}

/// The bearer token check in front of every protected route: 401 with a
/// `WWW-Authenticate` challenge naming the metadata, or 403
/// `insufficient_scope` (`crate::auth::resource`).
async fn authorize(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let Some(protection) = &app.protection else {
        return next.run(request).await;
    };
    let header = request
        .headers()
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    let refusal = match protection.check(header) {
        Ok(()) if protection.judging.is_some() => return step_up(protection, request, next).await,
        Ok(()) => return next.run(request).await,
        Err(refusal) => refusal,
    };
    // The body is read before the refusal goes out: a connection closed
    // with a request body still unread is reset (TCP RST), and the reset
    // can destroy the 401 on its way (the Python SDK's client saw
    // "Server disconnected without sending a response" now and then).
    let _ = axum::body::to_bytes(request.into_body(), app.config.max_frame).await;
    let (status, message) = match &refusal {
        Denial::Unauthorized(None) => (
            axum::http::StatusCode::UNAUTHORIZED,
            "Unauthorized: a bearer token is required".to_owned(),
        ),
        Denial::Unauthorized(Some(why)) => (
            axum::http::StatusCode::UNAUTHORIZED,
            format!("Unauthorized: {why}"),
        ),
        Denial::InsufficientScope => (
            axum::http::StatusCode::FORBIDDEN,
            "Forbidden: the token lacks the scope this server requires".to_owned(),
        ),
    };
    let mut response = guard::refuse(status, harness::codes::INVALID_REQUEST, &message);
    if let Some(challenge) = protection
        .challenge(&refusal)
        .and_then(|c| axum::http::HeaderValue::from_str(&c).ok())
    {
        response
            .headers_mut()
            .insert(axum::http::header::WWW_AUTHENTICATE, challenge);
    }
    response
}

/// A bound server: its address, and the future that serves until dropped.
pub struct Server {
    /// The address actually bound (port 0 resolved).
    pub addr: SocketAddr,
    listener: TcpListener,
    app: Arc<App>,
    /// HTTPS with this certificate (`--tls-cert`), or plain HTTP.
    tls: Option<crate::transport::tls::Certified>,
    /// A header every request must carry (`--require-header-env`).
    required: Option<UserHeader>,
}

impl Server {
    /// Binds `addr` (checked with [`check_addr`] first by the caller).
    pub async fn bind(addr: SocketAddr, config: Config) -> std::io::Result<Server> {
        Self::bind_with(addr, config, None).await
    }

    /// Binds `addr` as a judged server: every Streamable HTTP session is a
    /// [`Conversation`] `conversations` opens (the client check's scenarios
    /// playing: `wirecheck serve --http ADDR --judge`). MCP only.
    pub async fn bind_judged(
        addr: SocketAddr,
        config: Config,
        conversations: impl Conversations + 'static,
    ) -> std::io::Result<Server> {
        let judging = judged::Judging::new(Box::new(conversations));
        Self::bind_with(addr, config, Some(judging)).await
    }

    async fn bind_with(
        addr: SocketAddr,
        config: Config,
        judging: Option<judged::Judging>,
    ) -> std::io::Result<Server> {
        let listener = TcpListener::bind(addr).await?;
        Ok(Server {
            addr: listener.local_addr()?,
            listener,
            tls: None,
            required: None,
            app: Arc::new(App {
                config,
                sessions: Mutex::default(),
                streams: Mutex::default(),
                sse_clients: Mutex::default(),
                jsonrpc: Mutex::new(Peer::new(config.serve)),
                judging,
                protection: None,
            }),
        })
    }

    /// Requires a bearer token of every request (`--auth`), checked by
    /// `protection`. Before [`Server::serve`] only.
    pub fn protect(&mut self, protection: Protection) {
        if let Some(app) = Arc::get_mut(&mut self.app) {
            app.protection = Some(protection);
        }
    }

    /// Serves HTTPS with `certified` instead of HTTP. Before
    /// [`Server::serve`] only.
    pub fn serve_tls(&mut self, certified: crate::transport::tls::Certified) {
        self.tls = Some(certified);
    }

    /// Answers 401 to every request without `required` (its name and exact
    /// value): a deployed server's static API key or bearer token, which
    /// `run --header-env` must bring. Before [`Server::serve`] only.
    pub fn require(&mut self, required: UserHeader) {
        self.required = Some(required);
    }

    /// `https://ADDR` over TLS, else `http://ADDR`.
    #[must_use]
    pub fn origin(&self) -> String {
        let scheme = if self.tls.is_some() { "https" } else { "http" };
        format!("{scheme}://{}", self.addr)
    }

    /// The URL of its Streamable HTTP endpoint, `http://ADDR/mcp`.
    #[must_use]
    pub fn mcp_url(&self) -> String {
        match self.app.config.serve {
            Serve::JsonRpc => self.origin(),
            _ => format!("{}/mcp", self.origin()),
        }
    }

    /// What reads a judged server's records, kept past [`Server::serve`].
    #[must_use]
    pub fn judge(&self) -> Option<JudgeHandle> {
        self.app
            .judging
            .is_some()
            .then(|| JudgeHandle(Arc::clone(&self.app)))
    }

    /// Serves until the process ends (or the future is dropped).
    pub async fn serve(self) -> std::io::Result<()> {
        let mut router = router(self.app);
        if let Some(required) = self.required {
            router = requiring(router, required);
        }
        match &self.tls {
            Some(certified) => {
                let listener = crate::transport::tls::TlsListener::new(self.listener, certified)?;
                axum::serve(listener, router).await
            }
            None => axum::serve(self.listener, router).await,
        }
    }
}

/// `router` answering 401 to a request without `required`, before any
/// route: nothing of the server is reached without the key.
fn requiring(router: Router, required: UserHeader) -> Router {
    router.layer(axum::middleware::from_fn(
        move |request: Request, next: Next| {
            let carried = request
                .headers()
                .get(required.name())
                .is_some_and(|v| v.as_bytes() == required.value());
            async move {
                if carried {
                    next.run(request).await
                } else {
                    (
                        axum::http::StatusCode::UNAUTHORIZED,
                        "this server requires a header the request did not carry (or carried with another value)\n",
                    )
                        .into_response()
                }
            }
        },
    ))
}

/// A judged server's records, from outside it.
pub struct JudgeHandle(Arc<App>);

impl JudgeHandle {
    /// Resolves when the client ends a judged session with DELETE.
    pub async fn deleted(&self) {
        if let Some(judging) = &self.0.judging {
            judging.deleted.notified().await;
        }
    }

    /// Ends every live session and returns every session's records, in the
    /// order the sessions opened. `closed`: the client is gone (it exited),
    /// so a request of the peer's still unanswered stays unanswered.
    #[must_use]
    pub fn finish(&self, closed: bool) -> Vec<Record> {
        let Some(judging) = &self.0.judging else {
            return Vec::new();
        };
        let live: Vec<_> = lock(&self.0.sessions).drain().collect();
        lock(&self.0.streams).clear();
        for (_, session) in live {
            let session = match Arc::try_unwrap(session) {
                Ok(session) => session
                    .into_inner()
                    .unwrap_or_else(std::sync::PoisonError::into_inner),
                // A handler still holds it: take its state all the same.
                Err(shared) => std::mem::replace(
                    &mut *lock(&shared),
                    judged::Session::Plain(Peer::new(self.0.config.serve)),
                ),
            };
            if let judged::Session::Judged(j) = session {
                judging.ended(*j, closed);
            }
        }
        if let Some((number, conversation)) = lock(&judging.session_free).take() {
            lock(&judging.finished).push((number, conversation.finish(closed)));
        }
        let mut ended = std::mem::take(&mut *lock(&judging.finished));
        ended.sort_by_key(|(number, _)| *number);
        let mut records: Vec<Record> = ended.into_iter().flat_map(|(_, r)| r).collect();
        records.extend(lock(&judging.headers).records());
        for record in &mut records {
            record.place.transport = Some(Kind::STREAMABLE_HTTP.into());
        }
        records
    }
}

/// `--auth`: the issuer to trust (`None`: start one), and the planted defect.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuthOptions {
    /// `--auth-issuer URL`: a running authorization server's issuer.
    pub issuer: Option<String>,
    /// `--auth-defect NAME` (hidden, for tests).
    pub defect: Option<crate::auth::resource::Defect>,
}

/// `wirecheck serve --http ADDR`: binds, prints `listening on http://ADDR`
/// (`https://` with `tls`) on stderr (so a caller that asked for port 0
/// learns the port), and serves. With `auth`, protected: `authorization
/// server ISSUER` on stderr too.
pub fn run(
    config: Config,
    addr: &str,
    auth: Option<&AuthOptions>,
    tls: Option<crate::transport::tls::Certified>,
    required: Option<UserHeader>,
) -> Result<(), String> {
    let addr = check_addr(addr, config.allow_remote)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("tokio runtime: {e}"))?;
    runtime.block_on(async {
        let mut server = Server::bind(addr, config)
            .await
            .map_err(|e| format!("--http {addr}: {e}"))?;
        if let Some(certified) = tls {
            server.serve_tls(certified);
        }
        if let Some(required) = required {
            server.require(required);
        }
        let mut issuing = None;
        if let Some(auth) = auth {
            let (issuer, keys) = match &auth.issuer {
                Some(issuer) => {
                    let issuer = issuer.trim_end_matches('/').to_owned();
                    (issuer.clone(), fetch_keys(&issuer).await?)
                }
                None => {
                    let local = crate::auth::server::AuthServer::bind(std::net::SocketAddr::from(
                        ([127, 0, 0, 1], 0),
                    ))
                    .await?;
                    let keys = serde_json::from_value(local.jwks()).map_err(|e| e.to_string())?;
                    let issuer = local.issuer_url();
                    issuing = Some(local);
                    (issuer, keys)
                }
            };
            let audience = server.mcp_url();
            let origin = server.origin();
            let path = audience.strip_prefix(&origin).unwrap_or_default();
            eprintln!("authorization server {issuer}");
            server.protect(Protection {
                issuer,
                metadata_url: format!("{origin}{PRM_PREFIX}{path}"),
                audience,
                keys,
                defect: auth.defect,
                judging: None,
            });
        }
        eprintln!("listening on {}", server.origin());
        match issuing {
            Some(local) => tokio::select! {
                served = server.serve() => served.map_err(|e| format!("serving: {e}")),
                served = local.serve() => served.map_err(|e| format!("the authorization server: {e}")),
            },
            None => server.serve().await.map_err(|e| format!("serving: {e}")),
        }
    })
}

/// The JWKS of `issuer`, through its RFC 8414 metadata's `jwks_uri`.
async fn fetch_keys(issuer: &str) -> Result<jsonwebtoken::jwk::JwkSet, String> {
    let timeout = std::time::Duration::from_secs(10);
    let metadata_url = format!("{issuer}/.well-known/oauth-authorization-server");
    let (_, metadata) = crate::auth::client::get_json(&metadata_url, timeout).await?;
    let jwks_uri = metadata
        .as_ref()
        .and_then(|m| m.get("jwks_uri"))
        .and_then(serde_json::Value::as_str)
        .ok_or_else(|| format!("--auth-issuer: {metadata_url} names no jwks_uri"))?
        .to_owned();
    let (_, jwks) = crate::auth::client::get_json(&jwks_uri, timeout).await?;
    serde_json::from_value(jwks.ok_or_else(|| format!("--auth-issuer: {jwks_uri} is no JWKS"))?)
        .map_err(|e| format!("--auth-issuer: {jwks_uri}: {e}"))
}
