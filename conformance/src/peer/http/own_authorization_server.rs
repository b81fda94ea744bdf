//! The protected reference peer as 2025-03-26's MCP server, its own
//! authorization server (basic/authorization §Server Metadata Discovery):
//! RFC 8414 metadata at its authorization base URL and the default
//! endpoints there, each without a token.
//!
//! It issues no token itself. `/authorize` redirects to the authorization
//! server it trusts with the same query (the "third-party" shape the page
//! describes); `/token` passes the form on to that server's token endpoint,
//! adding the peer's own URL as `resource` when the client sent none (2025-03-26
//! has no RFC 8707: a token its flow issues is for this server); `/register`
//! registers a client (RFC 7591), which that server, taking any client id,
//! then serves. A planted `--auth-defect` leaves a part out
//! (`crate::auth::resource::Protection::as_metadata_path` and the rest).

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

use super::App;
use crate::auth::resource::Protection;

/// How long the trusted authorization server's token endpoint is waited for.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(10);

/// `routes` with the authorization server's, as `protection` serves them.
pub(super) fn routes(routes: Router<Arc<App>>, protection: &Protection) -> Router<Arc<App>> {
    let mut routes = routes.route("/authorize", get(authorize));
    if let Some(path) = protection.as_metadata_path() {
        routes = routes.route(&path, get(metadata));
    }
    if protection.serves_token() {
        routes = routes.route("/token", post(token));
    }
    if protection.serves_registration() {
        routes = routes.route("/register", post(register));
    }
    routes
}

async fn metadata(State(app): State<Arc<App>>) -> Response {
    match &app.protection {
        Some(p) => axum::Json(p.as_metadata()).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// On to the trusted authorization server's `/authorize`, query and all.
async fn authorize(State(app): State<Arc<App>>, request: Request) -> Response {
    let Some(p) = &app.protection else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let query = request
        .uri()
        .query()
        .map(|q| format!("?{q}"))
        .unwrap_or_default();
    let location = format!("{}/authorize{query}", p.issuer);
    (StatusCode::FOUND, [(header::LOCATION, location)]).into_response()
}

/// The form, with `resource` = `audience` when it names none.
fn with_resource(form: &str, audience: &str) -> String {
    if crate::auth::observed::params(form).contains_key("resource") {
        return form.to_owned();
    }
    let mut encoder = reqwest::Url::parse("http://x/").expect("a valid URL");
    encoder.query_pairs_mut().append_pair("resource", audience);
    let pair = encoder.query().unwrap_or_default();
    if form.is_empty() {
        pair.to_owned()
    } else {
        format!("{form}&{pair}")
    }
}

/// The form passed on to the trusted authorization server's `/token`, its
/// answer relayed as it came.
async fn token(State(app): State<Arc<App>>, form: String) -> Response {
    let Some(p) = &app.protection else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let url = format!("{}/token", p.issuer);
    match forward(&url, with_resource(&form, &p.audience)).await {
        Ok(response) => response,
        Err(e) => (
            StatusCode::BAD_GATEWAY,
            [(header::CACHE_CONTROL, "no-store")],
            axum::Json(serde_json::json!({
                "error": "temporarily_unavailable",
                "error_description": format!("the authorization server: {e}"),
            })),
        )
            .into_response(),
    }
}

async fn forward(url: &str, form: String) -> Result<Response, String> {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(FORWARD_TIMEOUT)
        .build()
        .map_err(|e| e.to_string())?;
    let got = client
        .post(url)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = StatusCode::from_u16(got.status().as_u16()).map_err(|e| e.to_string())?;
    let content_type = got.headers().get(header::CONTENT_TYPE).cloned();
    let body = got.bytes().await.map_err(|e| e.to_string())?;
    let mut response = (status, [(header::CACHE_CONTROL, "no-store")], body).into_response();
    if let Some(content_type) = content_type {
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, content_type);
    }
    Ok(response)
}

async fn register(body: axum::body::Bytes) -> Response {
    let (status, document) = crate::auth::server::registration(&body);
    (
        status,
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(document),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::with_resource;

    #[test]
    fn a_token_request_without_resource_is_for_this_server() {
        let url = "http://127.0.0.1:5/mcp";
        assert_eq!(
            with_resource("", url),
            "resource=http%3A%2F%2F127.0.0.1%3A5%2Fmcp"
        );
        assert_eq!(
            with_resource("grant_type=authorization_code", url),
            "grant_type=authorization_code&resource=http%3A%2F%2F127.0.0.1%3A5%2Fmcp"
        );
        let asked = "resource=http%3A%2F%2Fother";
        assert_eq!(with_resource(asked, url), asked);
    }
}
