//! Judging a client over Streamable HTTP (`wirecheck serve --http ADDR
//! --judge`, `wirecheck run-client --transport http`): each session's peer is
//! a judged [`Conversation`] opened by the server's [`Conversations`] (the
//! client check's director: the same judge and scenarios as over stdio), and
//! what the scenarios send outside an answer is routed the way the transport
//! allows. The peer only drives the two traits; what judges is built on the
//! peer (`crate::clientcheck`), never the other way.
//!
//! Where a server-to-client message may go (2025-06-18 basic/transports
//! §Sending Messages to the Server and §Listening for Messages from the
//! Server; the later revisions keep these items):
//! - the answer to a POSTed notification or response is 202 with no body
//!   (§Sending Messages 4, MUST), so what the scenarios send after
//!   `notifications/initialized` (ping, roots, sampling, elicitation) cannot
//!   ride on it;
//! - on a POST's SSE stream the server "MAY send JSON-RPC requests and
//!   notifications before sending the JSON-RPC response" (§Sending Messages
//!   6, MAY), and should close the stream after the response (SHOULD), so
//!   nothing goes after the answer there;
//! - on the GET stream the server "MAY send JSON-RPC requests and
//!   notifications", never a response (§Listening 4, MUST NOT), and "MUST
//!   send each of its JSON-RPC messages on only one of the connected streams"
//!   (§Multiple Connections 2).
//!
//! So a message the scenarios send outside an answer waits in the session's
//! outbox: it goes on the session's GET stream when one is open (both SDK
//! clients open one after `notifications/initialized`), otherwise before the
//! answer on the next POSTed request's stream. Each message goes once, on one
//! stream.

use std::sync::Mutex;
use std::time::Instant;

use futures::channel::mpsc;
use harness::{Frame, Message, Revision};

use crate::peer::{Peer, Serve};
use crate::report::Record;
use crate::sync::lock;

/// One judged conversation as the HTTP peer drives it: a peer that answers
/// every frame the client sends and judges both directions as it goes.
pub trait Conversation: Send {
    /// Handles one frame from the client, `t` seconds from the start, and
    /// returns the frames to send it, in order.
    fn handle(&mut self, frame: &[u8], t: Option<f64>) -> Vec<Vec<u8>>;

    /// The revision the peer itself serves (fixed, or negotiated once it
    /// answered `initialize`), which the transport checks the
    /// `MCP-Protocol-Version` header against.
    fn served_revision(&self) -> Option<Revision>;

    /// Ends the conversation and returns every record. `closed`: the client
    /// closed its end.
    fn finish(self: Box<Self>, closed: bool) -> Vec<Record>;
}

/// What opens a judged server's conversations, one per session.
pub trait Conversations: Send + Sync {
    /// A fresh conversation serving `serve`, named `name` in its records,
    /// judged over HTTP (no single ordered stream each way); with `judged_as`,
    /// judged as that revision from the first frame, whatever the peer
    /// negotiates.
    fn open(
        &self,
        serve: Serve,
        name: String,
        judged_as: Option<Revision>,
    ) -> Box<dyn Conversation>;
}

/// What a judged server keeps beside its sessions.
pub(super) struct Judging {
    pub conversations: Box<dyn Conversations>,
    /// Frames are timed from here, as over stdio from the first line.
    pub start: Instant,
    /// Sessions opened so far, to name each conversation (`http/1`, …).
    pub opened: Mutex<usize>,
    /// The records of sessions already ended (DELETE, a failed initialize),
    /// by session number.
    pub finished: Mutex<Vec<(usize, Vec<Record>)>>,
    /// 2026-07-28's session-free requests (no `Mcp-Session-Id`, the
    /// protocol version in each request's `_meta`): one conversation for the
    /// whole server, opened by the first. Its peer lives as long as the
    /// server, so what a 2026-07-28 server keeps between requests (tasks,
    /// subscriptions) it keeps too, where the plain peer answers each such
    /// request with a fresh one.
    pub session_free: Mutex<Option<(usize, Box<dyn Conversation>)>>,
    /// Told once a judged session is ended by the client's DELETE.
    pub deleted: tokio::sync::Notify,
    /// What the session-free POSTs carried in their headers.
    pub headers: Mutex<super::client_headers::HeaderLog>,
}

impl Judging {
    pub fn new(conversations: Box<dyn Conversations>) -> Self {
        Self {
            conversations,
            start: Instant::now(),
            opened: Mutex::new(0),
            finished: Mutex::default(),
            session_free: Mutex::new(None),
            deleted: tokio::sync::Notify::new(),
            headers: Mutex::default(),
        }
    }

    pub fn elapsed(&self) -> Option<f64> {
        Some(self.start.elapsed().as_secs_f64())
    }

    /// A fresh judged session's number and conversation.
    pub fn open(&self, serve: Serve) -> (usize, Box<dyn Conversation>) {
        self.open_as(serve, None)
    }

    fn open_as(&self, serve: Serve, judged_as: Option<Revision>) -> (usize, Box<dyn Conversation>) {
        let number = {
            let mut opened = lock(&self.opened);
            *opened += 1;
            *opened
        };
        let conversation = self
            .conversations
            .open(serve, format!("http/{number}"), judged_as);
        (number, conversation)
    }

    /// Handles one session-free request in the server's one session-free
    /// conversation.
    pub fn session_free(&self, serve: Serve, body: &[u8]) -> Vec<Vec<u8>> {
        let t = self.elapsed();
        let mut held = lock(&self.session_free);
        let (_, conversation) =
            held.get_or_insert_with(|| self.open_as(serve, Some(Revision::Mcp2026_07_28)));
        conversation.handle(body, t)
    }

    /// Keeps an ended session's records.
    pub fn ended(&self, judged: Judged, closed: bool) {
        let records = judged.conversation.finish(closed);
        lock(&self.finished).push((judged.number, records));
    }
}

/// What answers one Streamable HTTP session: the plain peer, or a judged one.
pub(super) enum Session {
    Plain(Peer),
    Judged(Box<Judged>),
}

/// A judged session: its conversation, and what waits for a stream.
pub(super) struct Judged {
    /// The session's number, in the order sessions opened.
    pub number: usize,
    pub conversation: Box<dyn Conversation>,
    outbox: Vec<Vec<u8>>,
    listener: Option<mpsc::UnboundedSender<Vec<u8>>>,
}

/// What one POST gets: the frames for its own response, in order (empty: 202).
pub(super) type Answer = Vec<Vec<u8>>;

impl Session {
    pub fn judged(number: usize, conversation: Box<dyn Conversation>) -> Self {
        Session::Judged(Box::new(Judged {
            number,
            conversation,
            outbox: Vec::new(),
            listener: None,
        }))
    }

    /// The revision the session's peer serves, once known.
    pub fn revision(&self) -> Option<Revision> {
        match self {
            Session::Plain(peer) => peer.revision(),
            Session::Judged(j) => j.conversation.served_revision(),
        }
    }

    /// Handles one POSTed body; `request`: the body holds a request, so its
    /// response may be an SSE stream.
    pub fn post(&mut self, body: &[u8], request: bool, t: Option<f64>) -> Answer {
        match self {
            Session::Plain(peer) => peer.handle(body),
            Session::Judged(j) => j.post(body, request, t),
        }
    }
}

impl Judged {
    fn post(&mut self, body: &[u8], request: bool, t: Option<f64>) -> Answer {
        let frames = self.conversation.handle(body, t);
        let (mut answer, aside) = if request {
            // The answer is the last response; what follows it goes aside.
            let cut = frames
                .iter()
                .rposition(|f| is_response(f))
                .map_or(0, |i| i + 1);
            let mut frames = frames;
            let aside = frames.split_off(cut);
            (frames, aside)
        } else {
            // A refusal of what was posted stays on the POST (its HTTP error
            // status); every message of the server's own goes aside.
            frames.into_iter().partition(|f| is_response(f))
        };
        for frame in aside {
            self.deliver(frame);
        }
        if request && !self.outbox.is_empty() && self.listener.is_none() {
            // No GET stream: the waiting messages go before this answer.
            let mut waiting = std::mem::take(&mut self.outbox);
            waiting.append(&mut answer);
            answer = waiting;
        }
        answer
    }

    /// Sends `frame` on the GET stream if one is open, or keeps it.
    fn deliver(&mut self, frame: Vec<u8>) {
        if let Some(listener) = &self.listener {
            match listener.unbounded_send(frame) {
                Ok(()) => return,
                Err(closed) => {
                    self.listener = None;
                    self.outbox.push(closed.into_inner());
                    return;
                }
            }
        }
        self.outbox.push(frame);
    }

    /// A GET stream opened: what waits goes on it now, and what comes later.
    /// A second GET stream replaces the first (one stream per message).
    pub fn listen(&mut self) -> mpsc::UnboundedReceiver<Vec<u8>> {
        let (sender, receiver) = mpsc::unbounded();
        for frame in self.outbox.drain(..) {
            // The receiver is alive: it is returned below.
            let _ = sender.unbounded_send(frame);
        }
        self.listener = Some(sender);
        receiver
    }
}

fn is_response(frame: &[u8]) -> bool {
    matches!(
        harness::lift(frame),
        Ok(Frame::Single(Message::Success(_) | Message::Error(_)))
    ) || frame.first() == Some(&b'[')
}
