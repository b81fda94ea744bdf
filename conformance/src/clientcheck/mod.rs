//! Judging a client: the reference peer run for a client under
//! test, every frame both ways fed to the session judge, and scenarios that
//! make the peer do what a plain server seldom does (send list-changed
//! notifications, progress, log messages, requests of its own, errors) so the
//! client's handling of it is on the wire to be judged.
//!
//! [`Director`] is pure like [`Peer`]: one inbound frame in, the outbound
//! frames out, so `wirecheck serve --judge` puts it behind stdio exactly
//! where the plain peer sits, and tests drive it frame by frame.
//!
//! What the client owes is judged by rules the session judge already checks
//! (`harness::session`): each server request answered once with its id
//! (`jsonrpc.response.required`, `session.response.duplicate`,
//! `session.response.unknown-id`), only negotiated capabilities used
//! (`mcp.lifecycle.operation-respect`), no id reused in flight
//! (`mcp.base.id-unique-inflight`), no reply to a notification, and every
//! answer's shape (`mcp.ping.respond` and the schema's results). What only
//! the issuer knows, whether each cursor the client sent is one the peer
//! issued, is [`cursors`]' (a record per rule). The
//! scenarios add one record each: passed when the client reached it and
//! answered what it was sent, not observed when it never got there, not
//! applicable when the revision (or the client's declared capabilities)
//! rules it out.

pub mod auth;
mod cursors;
pub mod http;
mod scenarios;
pub mod stdio;

use harness::{Direction, Revision};

use crate::peer::http::{Conversation, Conversations};
use crate::peer::{Peer, Serve};
use crate::report::{Command, Record, Report};
use crate::transport::Kind;
use crate::watch::{self, Watch};
pub use scenarios::Scenario;

/// The one report model of a judged client, whatever the transport: the
/// records as the directors made them, each placed on `transport`, the
/// profile the first judged conversation ran under, and `error` when
/// serving stopped short.
#[must_use]
pub fn report(records: Vec<Record>, transport: Kind, error: Option<String>) -> Report {
    let mut report = Report::new(Command::RunClient);
    report.profile = records
        .iter()
        .find_map(|r| r.place.revision)
        .map(|revision| harness::Profile {
            revision,
            direction: Direction::ClientToServer,
        });
    for mut record in records {
        record.place.transport = Some(transport.into());
        report.records.push(record);
    }
    report.error = error;
    report
}

/// The reference peer with a judge on both directions and the selected
/// scenarios playing.
pub struct Director {
    peer: Peer,
    fixed: Option<Revision>,
    name: String,
    /// The session judge over both directions.
    watch: Watch,
    records: Vec<Record>,
    plays: scenarios::Plays,
    cursors: cursors::Cursors,
    /// The transport is one ordered stream each way (stdio), not HTTP.
    ordered: bool,
    /// Whether the client sent anything at all.
    heard: bool,
}

impl Director {
    /// A judged peer serving `serve`, playing `selected`; `name` names the
    /// conversation in its records (`stdio`, a client's name).
    #[must_use]
    pub fn new(serve: Serve, selected: &[Scenario], name: impl Into<String>) -> Self {
        let mut peer = Peer::new(serve);
        if selected.contains(&Scenario::ListChanged) {
            peer.declare_tools_list_changed();
        }
        let fixed = match serve {
            Serve::Mcp(r) => Some(r),
            Serve::JsonRpc => Some(Revision::JsonRpc2),
            Serve::Negotiate => None,
        };
        Self {
            peer,
            fixed,
            name: name.into(),
            watch: Watch::new(fixed),
            records: Vec::new(),
            plays: scenarios::Plays::new(selected),
            cursors: cursors::Cursors::default(),
            ordered: true,
            heard: false,
        }
    }

    /// Judged as `revision` from the first frame, whatever the peer
    /// negotiates: for 2026-07-28's session-free requests over HTTP, whose
    /// shape is that revision's alone and which a negotiating peer answers
    /// without ever naming a revision of its own.
    #[must_use]
    pub fn judged_as(mut self, revision: Revision) -> Self {
        self.fixed = Some(revision);
        self.watch = Watch::new(self.fixed).ordered(self.ordered);
        self
    }

    /// Judged over HTTP, whose POSTs and streams are no single ordered
    /// stream each way ([`Judge::ordered`]).
    #[must_use]
    pub fn unordered(mut self) -> Self {
        self.ordered = false;
        self.watch = Watch::new(self.fixed).ordered(self.ordered);
        self
    }

    /// Handles one frame from the client (without its newline), `t` seconds
    /// from the start, and returns the frames to send it, in order.
    pub fn handle(&mut self, frame: &[u8], t: Option<f64>) -> Vec<Vec<u8>> {
        self.heard = true;
        self.observe(Direction::ClientToServer, frame, t);
        let lifted = harness::lift(frame).ok();
        let message = match &lifted {
            Some(harness::Frame::Single(m)) => Some(m),
            _ => None,
        };
        // A negotiating peer names no revision for 2026-07-28's session-free
        // requests (no `initialize`): the conversation's own, then.
        let revision = self.peer.revision().or(self.fixed);
        if let Some(m) = message {
            self.cursors.sent(m, revision);
        }
        let mut out = match message.and_then(|m| self.plays.intercept(m, revision)) {
            Some(answer) => vec![answer],
            None => self.peer.handle(frame),
        };
        if let Some(m) = message {
            let revision = self.peer.revision().or(self.fixed);
            self.plays.after(m, revision, &mut out);
            self.cursors.answered(m, &out);
        }
        for f in &out {
            self.observe(Direction::ServerToClient, f, t);
        }
        out
    }

    /// The answer to a line over the transport's bound, judged as sent.
    pub fn too_long(&mut self, len: usize, max: usize, t: Option<f64>) -> Vec<u8> {
        self.heard = true;
        let frame = self.peer.too_long_frame(len, max);
        self.observe(Direction::ServerToClient, &frame, t);
        frame
    }

    /// Whether the client sent anything at all (a line over the bound
    /// counts): a client that sent nothing gave nothing to judge.
    #[must_use]
    pub fn heard(&self) -> bool {
        self.heard
    }

    /// The client closed its end: the peer's teardown frames, judged as sent.
    pub fn close(&mut self, t: Option<f64>) -> Vec<Vec<u8>> {
        let out = self.peer.close();
        for f in &out {
            self.observe(Direction::ServerToClient, f, t);
        }
        out
    }

    /// Ends the conversation and returns every record: the judge's findings
    /// as they were made, then what only the end decides, then one per
    /// scenario. `closed`: the client closed its end (a request of the
    /// peer's still unanswered is then unanswered, not merely unobserved).
    #[must_use]
    pub fn finish(mut self, closed: bool) -> Vec<Record> {
        if closed {
            self.observe_entry(&Watch::closed());
        }
        let Self {
            watch,
            records,
            name,
            ..
        } = &mut self;
        let (revision, ending) =
            std::mem::replace(watch, Watch::new(None)).finish(&mut |revision, entry, findings| {
                record(records, name, revision, entry, findings);
            });
        for f in &ending.findings {
            self.records.push(crate::report::session::finding(
                &self.name,
                revision,
                f,
                Vec::new(),
            ));
        }
        for u in &ending.not_observed {
            self.records
                .push(crate::report::session::unobserved(&self.name, revision, u));
        }
        self.records
            .extend(self.cursors.records(&self.name, revision));
        self.records
            .extend(self.plays.records(&self.name, revision, closed));
        self.records
    }

    /// The revision the peer itself serves (fixed, or negotiated once it
    /// answered `initialize`), which the HTTP transport checks the
    /// `MCP-Protocol-Version` header against.
    #[must_use]
    pub fn served_revision(&self) -> Option<Revision> {
        self.peer.revision()
    }

    /// The revision the conversation is judged under, once known.
    #[must_use]
    pub fn revision(&self) -> Option<Revision> {
        self.watch.revision()
    }

    fn observe(&mut self, from: Direction, bytes: &[u8], t: Option<f64>) {
        self.observe_entry(&crate::transcript::Entry::Frame(crate::transcript::Frame {
            from,
            bytes: bytes.to_vec(),
            t,
        }));
    }

    fn observe_entry(&mut self, entry: &crate::transcript::Entry) {
        let Self {
            watch,
            records,
            name,
            ..
        } = self;
        watch.see(entry, &mut |revision, entry, findings| {
            record(records, name, revision, entry, findings);
        });
    }
}

/// A record per finding the judge made at `entry`, its bytes the subject.
fn record(
    records: &mut Vec<Record>,
    name: &str,
    revision: Revision,
    entry: &crate::transcript::Entry,
    findings: &mut Vec<harness::session::Finding>,
) {
    for f in findings.drain(..) {
        records.push(crate::report::session::finding(
            name,
            revision,
            &f,
            watch::bytes(entry).to_vec(),
        ));
    }
}

/// A director is what the HTTP peer judges each session with.
impl Conversation for Director {
    fn handle(&mut self, frame: &[u8], t: Option<f64>) -> Vec<Vec<u8>> {
        Director::handle(self, frame, t)
    }

    fn served_revision(&self) -> Option<Revision> {
        Director::served_revision(self)
    }

    fn finish(self: Box<Self>, closed: bool) -> Vec<Record> {
        Director::finish(*self, closed)
    }
}

/// The selected scenarios open each judged HTTP session as a director
/// playing them, judged unordered (HTTP's POSTs and streams are no single
/// ordered stream each way).
impl Conversations for Vec<Scenario> {
    fn open(
        &self,
        serve: Serve,
        name: String,
        judged_as: Option<Revision>,
    ) -> Box<dyn Conversation> {
        let director = Director::new(serve, self, name).unordered();
        Box::new(match judged_as {
            Some(revision) => director.judged_as(revision),
            None => director,
        })
    }
}
