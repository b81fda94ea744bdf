//! The 2024-11-05 HTTP+SSE transport, the client side (2024-11-05
//! basic/transports §HTTP with SSE): GET the SSE endpoint, read its first
//! event, `endpoint`, POST every message to the URI it names, and read the
//! answers as `message` events on the stream.

use std::sync::Arc;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::{Client, Url};
use tokio::sync::oneshot;
use tokio::time::{timeout_at, Instant};

use super::exchange::{
    count_frame, essence, read_bounded, read_sse, record, snippet, Exhibit, FindingKind, HttpFact,
    HttpFinding, HttpOptions, Queue, StreamEnd,
};
use super::streamable::client;
use super::ConnectError;
use crate::transport::error::error_chain;
use crate::transport::{Event, Limits, SendError, Transport};
use ground::sync::lock;

/// A peer reached over HTTP+SSE.
pub struct SsePeer {
    client: Client,
    endpoint: String,
    limits: Limits,
    extra: HeaderMap,
    queue: Queue,
}

impl SsePeer {
    /// Opens the SSE stream at `url` and waits, until `limits.write_timeout`,
    /// for its `endpoint` event (§HTTP with SSE: "When a client connects, the
    /// server MUST send an endpoint event").
    pub async fn connect(url: &str, limits: Limits) -> Result<Self, ConnectError> {
        Self::with_options(url, limits, HttpOptions::default()).await
    }

    /// [`connect`](Self::connect) with explicit HTTP bounds.
    pub async fn with_options(
        url: &str,
        limits: Limits,
        options: HttpOptions,
    ) -> Result<Self, ConnectError> {
        let client = client(url, &options)?;
        let base = Url::parse(url).map_err(|e| ConnectError::BadUrl(e.to_string()))?;
        let deadline = Instant::now() + limits.write_timeout;
        let mut sent = HeaderMap::new();
        sent.insert("accept", HeaderValue::from_static("text/event-stream"));
        let opened = client.get(url).headers(sent.clone()).send();
        let response = match timeout_at(deadline, opened).await {
            Err(_) => return Err(ConnectError::Handshake("no response to GET".into())),
            Ok(Err(e)) => return Err(ConnectError::Handshake(error_chain(&e))),
            Ok(Ok(response)) => response,
        };
        let mut queue = Queue::new(&limits);
        let shared = Arc::clone(&queue.sink().shared);
        let exhibit = Exhibit::of_request(&sent, None);
        let recorded = record(&shared, "GET", url, exhibit, &response, false, false, None);
        let (status, content_type) = (recorded.status, recorded.content_type);
        // The stream's frames are counted against the GET that opened it.
        let stream_fact = recorded.index;
        if essence(content_type.as_deref()).as_deref() != Some("text/event-stream") {
            let body = read_bounded(response, 4096, deadline)
                .await
                .unwrap_or_default();
            return Err(ConnectError::Handshake(format!(
                "GET answered {status} with {}, not an SSE stream: {}",
                content_type.as_deref().unwrap_or("no Content-Type"),
                snippet(&body)
            )));
        }
        let (endpoint_tx, endpoint_rx) = oneshot::channel::<String>();
        let sink = queue.sink();
        let max_frame = limits.max_frame;
        queue.spawn_stream(async move {
            let mut endpoint_tx = Some(endpoint_tx);
            let end =
                read_sse(
                    response,
                    max_frame,
                    None,
                    (&sink.shared, None),
                    status,
                    |event| {
                        if let Some(tx) = endpoint_tx.take() {
                            if event.event == "endpoint" {
                                let _ = tx.send(event.data);
                                return true;
                            }
                            sink.shared.finding(
                                FindingKind::UnexpectedEventType,
                                Some(status),
                                format!("first SSE event is `{}`, not `endpoint`", event.event),
                            );
                            return false;
                        }
                        match event.event.as_str() {
                    "" | "message" => {
                        count_frame(&sink.shared, stream_fact, event.data.as_bytes());
                        sink.event(Event::Frame(event.data.into_bytes()));
                    }
                    other => sink.shared.finding(
                        FindingKind::UnexpectedEventType,
                        Some(status),
                        format!("SSE event type `{other}`; server messages are `message` events"),
                    ),
                }
                        true
                    },
                )
                .await;
            if end == StreamEnd::Ended {
                sink.shared.finding(
                    FindingKind::BodyCut,
                    Some(status),
                    "the server ended the SSE stream",
                );
            }
            sink.event(Event::Closed {
                status: None,
                leaky: false,
            });
        });
        let endpoint = match timeout_at(deadline, endpoint_rx).await {
            Ok(Ok(endpoint)) => endpoint,
            Ok(Err(_)) => {
                let why = lock(&shared.findings)
                    .last()
                    .map_or_else(|| "stream ended".to_owned(), |f| f.detail.clone());
                return Err(ConnectError::Handshake(format!("no endpoint event: {why}")));
            }
            Err(_) => return Err(ConnectError::Handshake("no endpoint event in time".into())),
        };
        let endpoint = base
            .join(endpoint.trim())
            .map_err(|e| ConnectError::Handshake(format!("endpoint `{endpoint}`: {e}")))?;
        // The spec only says "a URI"; one on another origin would have the
        // runner POST wherever a hostile peer points it, so it is refused.
        if endpoint.origin() != base.origin() {
            return Err(ConnectError::Handshake(format!(
                "endpoint `{endpoint}` is on another origin than the stream `{base}`"
            )));
        }
        Ok(SsePeer {
            client,
            endpoint: endpoint.into(),
            limits,
            extra: HeaderMap::new(),
            queue,
        })
    }

    /// The URI the `endpoint` event named, resolved against the stream's URL.
    #[must_use]
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Sends `name: value` on every later POST.
    pub fn set_header(&mut self, name: HeaderName, value: HeaderValue) {
        self.extra.insert(name, value);
    }

    /// Every HTTP exchange so far.
    #[must_use]
    pub fn http_facts(&self) -> Vec<HttpFact> {
        lock(&self.queue.shared().facts).clone()
    }

    /// Every HTTP-level problem so far.
    #[must_use]
    pub fn http_findings(&self) -> Vec<HttpFinding> {
        lock(&self.queue.shared().findings).clone()
    }
}

impl Transport for SsePeer {
    fn pace(&mut self, pacer: &crate::transport::pacer::Pacer) {
        self.queue.pace(pacer);
    }

    /// POSTs the frame and waits (within the write timeout) for the server to
    /// accept it; the answer comes on the stream.
    async fn send(&mut self, frame: &[u8]) -> Result<(), SendError> {
        let mut sent = self.extra.clone();
        sent.insert("content-type", HeaderValue::from_static("application/json"));
        let exhibit = Exhibit::of_request(&sent, Some(frame));
        let posted = self
            .client
            .post(&self.endpoint)
            .headers(sent)
            .body(frame.to_vec())
            .send();
        let deadline = Instant::now() + self.limits.write_timeout;
        let response = match timeout_at(deadline, posted).await {
            Err(_) => return Err(SendError::TimedOut(self.limits.write_timeout)),
            Ok(Err(e)) => return Err(SendError::Closed(error_chain(&e))),
            Ok(Ok(response)) => response,
        };
        let shared = self.queue.shared();
        let recorded = record(
            shared,
            "POST",
            &self.endpoint,
            exhibit,
            &response,
            false,
            false,
            None,
        );
        let (status, content_type) = (recorded.status, recorded.content_type);
        let body = read_bounded(response, 4096, deadline).await;
        if !(200..300).contains(&status) {
            let text = body.as_deref().map(snippet).unwrap_or_default();
            shared.finding(
                FindingKind::ErrorStatus,
                Some(status),
                format!(
                    "POST to the endpoint answered {status} ({}): {text}",
                    content_type.as_deref().unwrap_or("no Content-Type")
                ),
            );
        }
        Ok(())
    }

    async fn recv(&mut self, deadline: Instant) -> Event {
        self.queue.recv(deadline, true).await
    }

    fn dropped(&self) -> u64 {
        self.queue
            .shared()
            .dropped
            .load(std::sync::atomic::Ordering::Relaxed)
    }
}
