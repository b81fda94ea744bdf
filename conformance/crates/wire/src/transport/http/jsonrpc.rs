//! Plain JSON-RPC 2.0 over HTTP, the client side: one POST per frame or
//! batch, the answer in the body.
//!
//! JSON-RPC 2.0 defines no HTTP binding; this follows common practice:
//! `Content-Type: application/json` both ways, a notification or
//! an all-notification batch answered with 204 or an empty 200 (reported as
//! facts), and a body of `null` or `[]` reported as the finding it is (§4.1:
//! "The Server MUST NOT reply to a Notification"; §6: "the Server MUST NOT
//! return an empty Array and should return nothing at all").

use std::sync::Arc;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::Client;
use tokio::time::Instant;

use super::exchange::{HttpFact, HttpFinding, HttpOptions, Queue};
use super::post::{self, Flavor, Outline, Post};
use super::streamable::client;
use super::ConnectError;
use crate::transport::{Event, Limits, SendError, Transport};
use ground::sync::lock;

/// A JSON-RPC 2.0 service reached over HTTP.
pub struct JsonRpcHttpPeer {
    client: Client,
    url: String,
    limits: Limits,
    options: HttpOptions,
    extra: HeaderMap,
    queue: Queue,
    /// The exchange (POST) the last `send` opened.
    sent: Option<u64>,
}

impl JsonRpcHttpPeer {
    /// A transport to the service at `url`; nothing is sent yet.
    pub fn connect(url: &str, limits: Limits) -> Result<Self, ConnectError> {
        Self::with_options(url, limits, HttpOptions::default())
    }

    /// [`connect`](Self::connect) with explicit HTTP bounds.
    pub fn with_options(
        url: &str,
        limits: Limits,
        options: HttpOptions,
    ) -> Result<Self, ConnectError> {
        Ok(JsonRpcHttpPeer {
            client: client(url, &options)?,
            url: url.to_owned(),
            limits,
            options,
            extra: HeaderMap::new(),
            queue: Queue::new(&limits),
            sent: None,
        })
    }

    /// Sends `name: value` on every later request.
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

impl Transport for JsonRpcHttpPeer {
    fn pace(&mut self, pacer: &crate::transport::pacer::Pacer) {
        self.queue.pace(pacer);
    }

    async fn send(&mut self, frame: &[u8]) -> Result<(), SendError> {
        let mut headers = HeaderMap::new();
        headers.insert("content-type", HeaderValue::from_static("application/json"));
        headers.insert("accept", HeaderValue::from_static("application/json"));
        for (name, value) in &self.extra {
            headers.insert(name.clone(), value.clone());
        }
        let outline = Outline::of(frame);
        let post = Post {
            client: self.client.clone(),
            url: self.url.clone(),
            headers,
            body: frame.to_vec(),
            expected_answer: outline.requests > 0,
            holds_request: outline.calls > 0,
            max_frame: self.limits.max_frame,
            deadline: Instant::now() + self.options.request_timeout,
            flavor: Flavor::JsonRpc,
        };
        self.sent = Some(
            self.queue
                .spawn(|sink| post::run(post, sink, |_, _| {}, Arc::new(|_: &[u8]| {}))),
        );
        Ok(())
    }

    fn sent_exchange(&self) -> Option<u64> {
        self.sent
    }

    fn received_from(&self) -> Option<u64> {
        self.queue.origin()
    }

    fn exchange_open(&self, exchange: u64) -> bool {
        self.queue.is_open(exchange)
    }

    async fn recv(&mut self, deadline: Instant) -> Event {
        self.queue.recv(deadline, false).await
    }

    fn dropped(&self) -> u64 {
        self.queue
            .shared()
            .dropped
            .load(std::sync::atomic::Ordering::Relaxed)
    }
}
