//! Plain JSON-RPC 2.0 over HTTP at `/`, the server side: one frame or batch
//! per POST, the answer in the body as `application/json`; a notification or
//! an all-notification batch gets 204 and no body (JSON-RPC 2.0 §4.1: "The
//! Server MUST NOT reply to a Notification"; §6: "should return nothing at
//! all").

use std::sync::Arc;

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use super::guard;
use super::App;
use crate::sync::lock;

/// POST `/`.
pub(super) async fn post(State(app): State<Arc<App>>, headers: HeaderMap, body: Body) -> Response {
    if let Err(refused) = guard::origin(&app.config, &headers) {
        return refused;
    }
    if let Err(refused) = guard::json_content_type(&headers) {
        return refused;
    }
    let body = match guard::body(&headers, body, app.config.max_frame).await {
        Ok(body) => body,
        Err(refused) => return refused,
    };
    let mut frames = lock(&app.jsonrpc).handle(&body);
    // The JSON-RPC peer answers one frame with at most one (a batch's answers
    // are one array).
    match frames.len() {
        0 => StatusCode::NO_CONTENT.into_response(),
        _ => guard::json_response(StatusCode::OK, frames.remove(0)),
    }
}
