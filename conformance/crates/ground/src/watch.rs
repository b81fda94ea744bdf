//! One conversation watched by the session judge ([`harness::session`]): the
//! one adapter through which `wirecheck check`, `wirecheck proxy`, the
//! runner's live sessions and the client judge feed it their transcript
//! entries.
//!
//! A conversation need not say its revision at once. Until it does, the
//! entries are held; judging starts at the server's `initialize` answer
//! ([`session::negotiated_revision`], the point from which the reading can no
//! longer change its mind), else after [`DETECT_WITHIN`] frames, else at the
//! end, under what the held frames name ([`session::detect_revision`]) or
//! plain JSON-RPC 2.0. The held entries are then judged in order, and every
//! later one as it comes: a judge fed a whole transcript at once and one fed
//! it live see the same entries in the same order, so they say the same.

use harness::session::{self, Ending, Finding, Judge};
use harness::{Direction, Revision};

use crate::transcript::{Entry, Transport};

/// How many frames may pass without naming a revision before the
/// conversation is judged as what they name, or as plain JSON-RPC 2.0.
pub const DETECT_WITHIN: usize = 64;

/// How many entries of any kind (frames and transport events) are held
/// before judging starts regardless: a capture of endless events between
/// few frames must not grow memory without bound.
pub const HOLD_AT_MOST: usize = DETECT_WITHIN * 16;

/// The session judge over one conversation. See the [module docs](self).
pub struct Watch {
    fixed: Option<Revision>,
    ordered: bool,
    session_rules_only: bool,
    judging: Option<(Judge, Revision)>,
    /// Entries held until the conversation names its revision.
    pending: Vec<Entry>,
    /// How many of `pending` are frames.
    pending_frames: usize,
}

impl Watch {
    /// A conversation judged under `fixed` from its first entry, or under
    /// the revision it names when `None`.
    #[must_use]
    pub fn new(fixed: Option<Revision>) -> Self {
        Self {
            fixed,
            ordered: true,
            session_rules_only: false,
            judging: None,
            pending: Vec::new(),
            pending_frames: 0,
        }
    }

    /// Whether each direction is one ordered stream (stdio: the default), or
    /// not (HTTP's POSTs and streams): see [`Judge::ordered`].
    #[must_use]
    pub fn ordered(mut self, ordered: bool) -> Self {
        self.ordered = ordered;
        self
    }

    /// Only the session rules, the frame and reply rules being judged
    /// elsewhere (the runner's vector records): see
    /// [`Judge::session_rules_only`].
    #[must_use]
    pub fn session_rules_only(mut self) -> Self {
        self.session_rules_only = true;
        self
    }

    /// The revision the conversation is judged under, once known.
    #[must_use]
    pub fn revision(&self) -> Option<Revision> {
        self.judging.as_ref().map(|(_, r)| *r)
    }

    /// Takes one entry. `judged` is called for each entry as it is judged
    /// (this one, or the held ones once the revision is known), with the
    /// revision and the findings the entry made certain (often none), which
    /// it may drain or filter.
    pub fn see(
        &mut self,
        entry: &Entry,
        judged: &mut dyn FnMut(Revision, &Entry, &mut Vec<Finding>),
    ) {
        if self.judging.is_some() {
            self.judge(entry, judged);
            return;
        }
        if matches!(entry, Entry::Frame(_)) {
            self.pending_frames += 1;
        }
        // Held (at most DETECT_WITHIN frames, HOLD_AT_MOST entries): a copy.
        self.pending.push(entry.clone());
        if let Some(r) = self
            .fixed
            .or_else(|| session::negotiated_revision(frames(&self.pending)))
        {
            self.start(r, judged);
        } else if self.pending_frames >= DETECT_WITHIN || self.pending.len() >= HOLD_AT_MOST {
            self.start(self.detected(), judged);
        }
    }

    /// Ends the conversation: judges what is still held (under the revision
    /// its frames name), then returns the revision and what only the end
    /// decides.
    pub fn finish(
        mut self,
        judged: &mut dyn FnMut(Revision, &Entry, &mut Vec<Finding>),
    ) -> (Revision, Ending) {
        if self.judging.is_none() {
            self.start(self.detected(), judged);
        }
        let (judge, revision) = self
            .judging
            .take()
            .unwrap_or_else(|| unreachable!("started just above"));
        (revision, judge.finish())
    }

    /// The entry that says the peer closed its end, for a conversation whose
    /// close is known only when it ends (the client judge's).
    #[must_use]
    pub fn closed() -> Entry {
        Entry::Event {
            event: Transport::Closed,
            from: None,
            t: None,
        }
    }

    /// The revision the held frames name, or plain JSON-RPC 2.0.
    fn detected(&self) -> Revision {
        self.fixed
            .or_else(|| session::detect_revision(frames(&self.pending)))
            .unwrap_or(Revision::JsonRpc2)
    }

    fn start(
        &mut self,
        revision: Revision,
        judged: &mut dyn FnMut(Revision, &Entry, &mut Vec<Finding>),
    ) {
        let judge = if self.session_rules_only {
            Judge::session_rules_only(revision)
        } else {
            Judge::new(revision)
        };
        self.judging = Some((judge.ordered(self.ordered), revision));
        self.pending_frames = 0;
        for entry in std::mem::take(&mut self.pending) {
            self.judge(&entry, judged);
        }
    }

    fn judge(
        &mut self,
        entry: &Entry,
        judged: &mut dyn FnMut(Revision, &Entry, &mut Vec<Finding>),
    ) {
        let Some((judge, revision)) = self.judging.as_mut() else {
            return;
        };
        let mut findings = Vec::new();
        judge.feed(entry.event(), entry.time(), &mut findings);
        judged(*revision, entry, &mut findings);
    }
}

/// The frames (not the events) among `entries`, as the revision is read from.
fn frames(entries: &[Entry]) -> impl Iterator<Item = (Direction, &[u8])> {
    entries.iter().filter_map(|e| match e {
        Entry::Frame(frame) => Some((frame.from, frame.bytes.as_slice())),
        Entry::Event { .. } => None,
    })
}

/// The bytes of `entry` when it is a frame: a finding's subject.
#[must_use]
pub fn bytes(entry: &Entry) -> &[u8] {
    match entry {
        Entry::Frame(frame) => &frame.bytes,
        Entry::Event { .. } => &[],
    }
}
