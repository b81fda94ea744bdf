//! The 2024-11-05 HTTP+SSE transport, the server side (2024-11-05
//! basic/transports §HTTP with SSE): GET `/sse` opens a client's stream, whose
//! first event is `endpoint` with `/messages?sessionId=…` ("the server MUST
//! send an endpoint event containing a URI for the client to use for sending
//! messages"); each POST there is 202 and its answers go out as `message`
//! events ("Server messages are sent as SSE message events").

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::{stream, StreamExt};
use tokio::sync::mpsc;

use super::guard::{self, refuse};
use super::streamable::sse_event;
use super::{fresh_id, App, MAX_SESSIONS};
use crate::peer::Peer;
use crate::sync::lock;

/// How many answers wait for a slow SSE reader before its POSTs get 503.
const STREAM_QUEUE: usize = 1024;

/// One connected client: its peer, and the way to its stream.
pub(super) struct Client {
    peer: Arc<Mutex<Peer>>,
    tx: mpsc::Sender<Vec<u8>>,
}

/// Removes the client when its stream is dropped (the client went away).
struct Gone {
    app: Arc<App>,
    id: String,
}

impl Drop for Gone {
    fn drop(&mut self) {
        lock(&self.app.sse_clients).remove(&self.id);
    }
}

/// GET `/sse`.
pub(super) async fn open(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    if let Err(refused) = guard::origin(&app.config, &headers) {
        return refused;
    }
    let id = fresh_id();
    let (tx, rx) = mpsc::channel(STREAM_QUEUE);
    {
        let mut clients = lock(&app.sse_clients);
        if clients.len() >= MAX_SESSIONS {
            return refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                harness::codes::INTERNAL_ERROR,
                "Service Unavailable: too many SSE clients",
            );
        }
        let peer = Arc::new(Mutex::new(Peer::new(app.config.serve)));
        clients.insert(id.clone(), Client { peer, tx });
    }
    let endpoint = Event::default()
        .event("endpoint")
        .data(format!("/messages?sessionId={id}"));
    let gone = Gone {
        app: Arc::clone(&app),
        id,
    };
    let messages = stream::unfold((rx, gone), |(mut rx, gone)| async move {
        let frame = rx.recv().await?;
        Some((Ok::<_, Infallible>(sse_event(&frame)), (rx, gone)))
    });
    let events = stream::once(async move { Ok::<_, Infallible>(endpoint) }).chain(messages);
    Sse::new(events).into_response()
}

/// POST `/messages?sessionId=…`.
pub(super) async fn message(
    State(app): State<Arc<App>>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    if let Err(refused) = guard::origin(&app.config, &headers) {
        return refused;
    }
    if let Err(refused) = guard::json_content_type(&headers) {
        return refused;
    }
    let client = query.get("sessionId").and_then(|id| {
        lock(&app.sse_clients)
            .get(id)
            .map(|c| (Arc::clone(&c.peer), c.tx.clone()))
    });
    let Some((peer, tx)) = client else {
        return refuse(
            StatusCode::NOT_FOUND,
            harness::codes::INVALID_REQUEST,
            "Not Found: no SSE stream is open for this sessionId",
        );
    };
    let body = match guard::body(&headers, body, app.config.max_frame).await {
        Ok(body) => body,
        Err(refused) => return refused,
    };
    let frames = lock(&peer).handle(&body);
    for frame in frames {
        if tx.try_send(frame).is_err() {
            return refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                harness::codes::INTERNAL_ERROR,
                "Service Unavailable: the SSE stream is not being read",
            );
        }
    }
    (StatusCode::ACCEPTED, "Accepted").into_response()
}
