//! One report model for every command, and its views.
//!
//! A command (`roundtrip`, `classify`, and later `run`, `check`, `fuzz`,
//! `diff`) fills a [`Report`]: one [`Record`] per subject it judged, each with
//! where the subject came from, what it was, its [`Outcome`], what was found
//! and what the command produced. The views ([`json`], [`terminal`], [`junit`],
//! [`markdown`]) are functions of the report alone, as Autobahn renders its
//! HTML matrix from its per-case JSON: one source of truth, many views. This
//! module is pure data; reading and writing files is the commands' business.

pub mod document;
pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod sarif;
pub mod session;
pub mod sink;
pub mod terminal;
pub mod text;

use std::time::Duration;

pub use harness::rules::{Level, Violation};
pub use harness::Outcome;
use harness::{Direction, Profile, Revision};

/// The command whose report this is: it decides the JSON-lines shape and the
/// words of the summary, nothing else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// `wirecheck roundtrip`: lift and lower each frame.
    Roundtrip,
    /// `wirecheck classify`: judge each frame with the rule model.
    Classify,
    /// `wirecheck run`: the golden vectors played against a live peer.
    Run,
    /// `wirecheck check`: captured conversations judged by the session judge.
    Check,
    /// `wirecheck proxy`: a live conversation judged as it passes through.
    Proxy,
    /// `wirecheck run-client` (and `serve --judge`): a client judged by the
    /// reference peer it talks to.
    RunClient,
    /// `wirecheck fuzz`: generated frames against a live peer, each finding
    /// one record.
    Fuzz,
    /// `wirecheck replay`: saved findings played again, one record each.
    Replay,
    /// `wirecheck diff`: the same frames to several peers, one record per
    /// disagreement.
    Diff,
    /// `wirecheck load`: concurrent sessions against a live peer, every
    /// answer judged; one record per rule broken and method.
    Load,
}

impl Command {
    /// The subcommand's name, as the user types it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Command::Roundtrip => "roundtrip",
            Command::Classify => "classify",
            Command::Run => "run",
            Command::Check => "check",
            Command::Proxy => "proxy",
            Command::RunClient => "run-client",
            Command::Fuzz => "fuzz",
            Command::Replay => "replay",
            Command::Diff => "diff",
            Command::Load => "load",
        }
    }

    /// The command named `name`, as [`Command::name`] writes it.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        [
            Command::Roundtrip,
            Command::Classify,
            Command::Run,
            Command::Check,
            Command::Proxy,
            Command::RunClient,
            Command::Fuzz,
            Command::Replay,
            Command::Diff,
            Command::Load,
        ]
        .into_iter()
        .find(|c| c.name() == name)
    }
}

/// What a run means, as a process exit code: the same everywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Everything checked out.
    Clean = 0,
    /// An outcome that fails the run: a frame refused, a rule broken.
    Findings = 1,
    /// The command could not run: bad usage, unreadable input, unwritable output.
    Trouble = 2,
}

impl From<Exit> for std::process::ExitCode {
    fn from(exit: Exit) -> Self {
        std::process::ExitCode::from(exit as u8)
    }
}

/// Where a subject came from. Every member is optional because each command
/// knows a different part: a transcript has a file and a line, a vector an id
/// and a frame index, a live run a revision and a transport.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Place {
    /// The file, `None` for standard input.
    pub file: Option<String>,
    /// The 1-based line in the file.
    pub line: Option<usize>,
    /// The golden vector's id (`jsonrpc-2.0/request/id-null`).
    pub vector: Option<String>,
    /// The 0-based index of the frame within a vector or session (as the
    /// JSON documents carry it); people are shown [`Place::frame_number`].
    pub frame: Option<usize>,
    /// The revision the subject was judged under, when records differ in it.
    pub revision: Option<Revision>,
    /// The transport it travelled over (`stdio`, `streamable-http`).
    pub transport: Option<String>,
}

impl Place {
    /// The frame as people count, from 1 (`#1` is the first frame, as
    /// `classify` calls the first line 1): what every view for a person
    /// shows. The JSON documents keep the 0-based [`Place::frame`].
    #[must_use]
    pub fn frame_number(&self) -> Option<usize> {
        self.frame.map(|i| i.saturating_add(1))
    }

    /// A line of a transcript.
    #[must_use]
    pub fn at_line(file: Option<String>, line: usize) -> Self {
        Self {
            file,
            line: Some(line),
            ..Self::default()
        }
    }
}

/// What was judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// A frame's bytes, exactly as read: untrusted, maybe not UTF-8.
    Frame(Vec<u8>),
    /// A line longer than the bound, skipped unread: only its length is known.
    TooLong {
        /// Its length in bytes, without the newline.
        len: usize,
    },
}

/// What a record checked: a rule of the catalogue, or one of the few checks
/// no rule names (the runner's notes such as `stdio.peer-exited`, a fuzz
/// invariant, a vector judged by no rule), so a view or a baseline can tell
/// a rule's verdict from a note without parsing text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CheckId {
    /// A rule of the catalogue.
    Rule(harness::rules::RuleId),
    /// A check no rule of this wirecheck names, by its stable name.
    Other(String),
}

impl CheckId {
    /// The check named `text`: the rule with that id, else a check no rule
    /// names (a document may come from a wirecheck with other rules).
    #[must_use]
    pub fn parse(text: &str) -> CheckId {
        text.parse()
            .map_or_else(|_| CheckId::Other(text.to_owned()), CheckId::Rule)
    }

    /// The stable id as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            CheckId::Rule(rule) => rule.as_str(),
            CheckId::Other(name) => name,
        }
    }

    /// The rule, when the check is one.
    #[must_use]
    pub fn rule(&self) -> Option<harness::rules::RuleId> {
        match self {
            CheckId::Rule(rule) => Some(*rule),
            CheckId::Other(_) => None,
        }
    }
}

impl From<harness::rules::RuleId> for CheckId {
    fn from(rule: harness::rules::RuleId) -> Self {
        CheckId::Rule(rule)
    }
}

impl std::fmt::Display for CheckId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for CheckId {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for CheckId {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// For a rule-by-rule check (the session judge, the live runner): the one rule
/// this record is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// The rule's stable id, or the name of a check no rule names.
    pub rule: CheckId,
    /// Its level.
    pub level: Level,
    /// Where it is written (revision, page, section).
    pub spec: String,
}

/// A codec refusal as every report writes it, members in this order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Refusal {
    /// -32700 or -32600.
    pub code: i64,
    /// The rule broken (serialized as its stable id).
    pub rule: harness::rules::RuleId,
    /// Where, as a JSON Pointer.
    pub pointer: String,
    /// What was found.
    pub message: String,
    /// Where the rule is written.
    pub spec: &'static str,
    /// 1-based line within the frame.
    pub line: usize,
    /// 1-based column within the frame, in characters.
    pub column: usize,
}

impl From<&harness::Refusal> for Refusal {
    fn from(r: &harness::Refusal) -> Self {
        Self {
            code: r.code(),
            rule: r.rule().into(),
            pointer: r.pointer().to_owned(),
            message: r.message().to_owned(),
            spec: r.rule().spec(),
            line: r.line(),
            column: r.column(),
        }
    }
}

impl Refusal {
    /// The refusal of a line longer than `--max-frame`, which is never lifted.
    #[must_use]
    pub fn too_long(len: usize, max: usize) -> Self {
        let rule = harness::Rule::JsonFrameTooLarge;
        Self {
            code: rule.code(),
            rule: rule.into(),
            pointer: String::new(),
            message: format!("frame of {len} bytes exceeds --max-frame {max}"),
            spec: rule.spec(),
            line: 1,
            column: 1,
        }
    }

    /// The refusal as a violation of its rule, at MUST: every codec rule is
    /// a MUST (RFC 8259, JSON-RPC 2.0 §4, §5).
    #[must_use]
    pub fn as_violation(&self) -> Violation {
        Violation {
            rule: self.rule,
            level: Level::Must,
            spec: self.spec,
            pointer: self.pointer.clone(),
            message: self.message.clone(),
        }
    }
}

/// What a record found, one line per item, every peer-supplied byte made
/// printable: why it was not decided (not observed, not applicable), the rule
/// checked, each violation or the refusal, and the notes. The one wording the
/// terminal, JUnit and Markdown views share (each escapes it for its own
/// format on top).
#[must_use]
pub fn findings(record: &Record) -> Vec<String> {
    use text::printable_str;
    let mut lines = Vec::new();
    if let Some(why) = record.outcome.reason() {
        lines.push(printable_str(why));
    }
    if let Some(check) = &record.check {
        lines.push(format!(
            "{} {} ({})",
            check.level.name(),
            printable_str(check.rule.as_str()),
            printable_str(&check.spec)
        ));
    }
    match (&record.violations, &record.refusal) {
        (Some(violations), _) => lines.extend(violations.iter().map(|v| {
            format!(
                "{} {} at `{}`: {} ({})",
                v.level.name(),
                printable_str(rule_id(v)),
                printable_str(&v.pointer),
                printable_str(&v.message),
                printable_str(v.spec)
            )
        })),
        (None, Some(r)) => lines.push(format!(
            "refused {} {} at `{}` (line {}, column {}): {} ({})",
            r.code,
            r.rule,
            printable_str(&r.pointer),
            r.line,
            r.column,
            printable_str(&r.message),
            r.spec
        )),
        (None, None) => {}
    }
    lines.extend(
        record
            .notes
            .iter()
            .filter(|n| !repeats_reason(record, n))
            .map(|n| format!("note: {}", printable_str(n))),
    );
    lines
}

/// Whether `note` only says again why the record has its outcome: records
/// without a rule carry their reason as a note too, for the JSON view (which
/// shows an outcome's reason only beside a rule); a person reads it once.
#[must_use]
pub fn repeats_reason(record: &Record, note: &str) -> bool {
    record.outcome.reason() == Some(note)
}

/// One violation found, identically (rule, level, pointer, message), in
/// several records that did not pass: one defect, with how often and where it
/// was seen ([`repeated`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repeated {
    /// The violation, as the first record carrying it has it.
    pub violation: Violation,
    /// Where it was seen, one place per record, in report order.
    pub places: Vec<Place>,
    /// The indexes (into `Report::records`) of the records it alone explains:
    /// every violation of the record is a repeated one, and the record's
    /// heading rule is among them, so the verdict came from them.
    pub explains: Vec<usize>,
}

/// The violations that recur across records that did not pass (a missing
/// `_meta` field on every result, say), each once with its count and places:
/// a person reads one defect as one finding. Records are the checks and keep
/// their outcomes; this is how the views name what the checks share.
#[must_use]
pub fn repeated(report: &Report) -> Vec<Repeated> {
    type Key = (harness::rules::RuleId, Level, String, String);
    let key = |v: &Violation| -> Key { (v.rule, v.level, v.pointer.clone(), v.message.clone()) };
    let mut groups: Vec<(Key, Repeated)> = Vec::new();
    let failing = |r: &Record| matches!(r.outcome, Outcome::Fail | Outcome::Warning);
    for record in report.records.iter().filter(|r| failing(r)) {
        let mut seen: Vec<Key> = Vec::new();
        for v in record.violations.iter().flatten() {
            let k = key(v);
            if seen.contains(&k) {
                continue;
            }
            seen.push(k.clone());
            match groups.iter_mut().find(|(g, _)| *g == k) {
                Some((_, group)) => group.places.push(record.place.clone()),
                None => groups.push((
                    k,
                    Repeated {
                        violation: v.clone(),
                        places: vec![record.place.clone()],
                        explains: Vec::new(),
                    },
                )),
            }
        }
    }
    groups.retain(|(_, g)| g.places.len() > 1);
    for (i, record) in report
        .records
        .iter()
        .enumerate()
        .filter(|(_, r)| failing(r))
    {
        let Some(violations) = record.violations.as_ref().filter(|vs| !vs.is_empty()) else {
            continue;
        };
        let all_repeated = violations
            .iter()
            .all(|v| groups.iter().any(|(g, _)| *g == key(v)));
        let heading = record.check.as_ref().map(|c| c.rule.as_str());
        let Some(first) = violations.iter().find(|v| Some(v.rule.as_str()) == heading) else {
            continue;
        };
        if all_repeated {
            if let Some((_, group)) = groups.iter_mut().find(|(g, _)| *g == key(first)) {
                group.explains.push(i);
            }
        }
    }
    groups.into_iter().map(|(_, g)| g).collect()
}

/// A violation's rule id. The one place this crate reads `Violation::rule`,
/// so the move to a typed rule id touches one line.
#[must_use]
pub fn rule_id(v: &Violation) -> &str {
    v.rule.as_str()
}

/// What a command produced from the subject, besides its verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// `roundtrip`: the lowered frame, JSON text already.
    Lowered(Vec<u8>),
}

/// How a record's note begins when the runner sent the vector's request
/// under a fresh id: the long form says it; the grouped view, which shows
/// the request as sent, leaves it out.
pub const ID_REWRITE_NOTE: &str = "sent with request id ";

/// The check id of a stdio server's text on stdout (the runner's
/// `stdout_text` files it): the terminal view leads with it, since text on
/// stdout explains the other findings of the run.
pub const STDOUT_TEXT_CHECK: &str = "stdio.stdout-text";

/// One frame on the wire, for a record that judged an exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireFrame {
    /// Who sent it.
    pub from: Direction,
    /// Its bytes, exactly as sent.
    pub frame: Vec<u8>,
    /// When, from the start of the session, if it was timed.
    pub at: Option<Duration>,
}

/// One HTTP exchange a transport record rests on, as a person reads it:
/// the request as sent and the response as it came, bodies bounded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpExchange {
    /// `POST`, `GET` or `DELETE`.
    pub method: String,
    /// The URL requested.
    pub url: String,
    /// The request headers as sent, names lowercase; credentials redacted.
    pub request_headers: Vec<(String, String)>,
    /// The start of the request body.
    pub request_body: Option<String>,
    /// The response status.
    pub status: u16,
    /// The response headers a rule reads, `content-type` first.
    pub response_headers: Vec<(String, String)>,
    /// The start of the response body (over SSE, its first message).
    pub response_body: Option<String>,
}

impl HttpExchange {
    /// `POST http://…/mcp`, and the request body's start when it had one.
    #[must_use]
    pub fn request_line(&self) -> String {
        match &self.request_body {
            Some(body) => format!("{} {} {}", self.method, self.url, body),
            None => format!("{} {}", self.method, self.url),
        }
    }

    /// `HTTP 400 (application/json) {…}`: the status, the content type and
    /// the body's start, as a person reads the answer.
    #[must_use]
    pub fn response_line(&self) -> String {
        let mut line = format!("HTTP {}", self.status);
        if let Some((_, ct)) = self
            .response_headers
            .iter()
            .find(|(n, _)| n == "content-type")
        {
            line.push_str(&format!(" ({ct})"));
        }
        match &self.response_body {
            Some(body) => {
                line.push(' ');
                line.push_str(body);
            }
            None => line.push_str(" with no body"),
        }
        line
    }
}

/// The judgement of one subject.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Where it came from.
    pub place: Place,
    /// What it was.
    pub subject: Subject,
    /// What was concluded.
    pub outcome: Outcome,
    /// The single rule checked, for rule-by-rule records.
    pub check: Option<Check>,
    /// The rules broken, when rules were judged (empty: none broken); `None`
    /// when the command only lifted the subject.
    pub violations: Option<Vec<Violation>>,
    /// The codec's refusal, when the subject did not lift.
    pub refusal: Option<Refusal>,
    /// What the command produced.
    pub payload: Option<Payload>,
    /// The exchange the verdict rests on, in order; empty for a lone frame.
    pub wire: Vec<WireFrame>,
    /// The HTTP exchanges a transport verdict rests on (bounded), where the
    /// wire log of frames cannot show it: statuses, headers, bodies.
    pub http: Vec<HttpExchange>,
    /// What a person should know that the outcome does not say: where a reply
    /// departs from the expected answer, a convention not met, a peer that
    /// exited. Peer-supplied text in them is escaped by every view.
    pub notes: Vec<String>,
    /// Rules broken here that are run-level ambiguities
    /// ([`RuleId::run_level_ambiguity`](harness::rules::RuleId::run_level_ambiguity)): no part of the
    /// outcome; the report says each once ([`Report::ambiguities`]).
    pub ambiguities: Vec<harness::rules::RuleId>,
}

impl Record {
    /// A record with nothing found yet.
    #[must_use]
    pub fn new(place: Place, subject: Subject, outcome: Outcome) -> Self {
        Self {
            place,
            subject,
            outcome,
            check: None,
            violations: None,
            refusal: None,
            payload: None,
            wire: Vec::new(),
            http: Vec::new(),
            notes: Vec::new(),
            ambiguities: Vec::new(),
        }
    }

    /// The record of one catalogue `rule` judged on a transport rather than
    /// on a frame (the runner's transport judge, the HTTP client judge): at
    /// `vector`, with each of `broken` as a violation at the rule's level and
    /// the reference it has in `revision`.
    #[must_use]
    pub fn of_transport_rule(
        vector: String,
        revision: Revision,
        transport: &str,
        rule: harness::rules::RuleId,
        outcome: Outcome,
        broken: Vec<String>,
    ) -> Self {
        let info = rule.info();
        let spec = info.cite(revision);
        let mut record = Record::new(
            Place {
                vector: Some(vector),
                revision: Some(revision),
                transport: Some(transport.into()),
                ..Place::default()
            },
            Subject::Frame(Vec::new()),
            outcome,
        );
        record.check = Some(Check {
            rule: rule.into(),
            level: info.level,
            spec: spec.into(),
        });
        record.violations = Some(
            broken
                .into_iter()
                .map(|message| Violation {
                    rule,
                    level: info.level,
                    spec,
                    pointer: String::new(),
                    message,
                })
                .collect(),
        );
        record
    }
}

/// What one rule saw over a conversation: how many times it was checked,
/// the first `KEEP` violations quoted, and how many more there were (the
/// client judge's per-rule records: its cursors, its HTTP headers).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleTally<const KEEP: usize> {
    seen: usize,
    broken: Vec<String>,
    more: usize,
}

impl<const KEEP: usize> RuleTally<KEEP> {
    /// Counts one check; `broken`: why it failed, if it did.
    pub fn check(&mut self, broken: Option<String>) {
        self.seen += 1;
        match broken {
            Some(_) if self.broken.len() >= KEEP => self.more += 1,
            Some(why) => self.broken.push(why),
            None => {}
        }
    }

    /// How many times the rule was checked.
    #[must_use]
    pub fn seen(&self) -> usize {
        self.seen
    }

    /// Whether any check failed.
    #[must_use]
    pub fn is_broken(&self) -> bool {
        !self.broken.is_empty()
    }

    /// The violations quoted, then `… and N more` past the first `KEEP`.
    #[must_use]
    pub fn quoted(&self) -> Vec<String> {
        let mut broken = self.broken.clone();
        if self.more > 0 {
            broken.push(format!("… and {} more", self.more));
        }
        broken
    }
}

/// How many records had each outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    counts: [usize; Outcome::NAMES.len()],
}

impl Tally {
    /// Counts one outcome.
    pub fn add(&mut self, outcome: &Outcome) {
        let slot = Outcome::NAMES
            .iter()
            .position(|n| *n == outcome.name())
            .expect("every outcome's name is in Outcome::NAMES");
        self.counts[slot] += 1;
    }

    /// Counts `n` records of the outcome named `name`; an unknown name is
    /// ignored (callers take names from [`Tally::rows`]).
    pub fn add_named(&mut self, name: &str, n: usize) {
        if let Some(slot) = Outcome::NAMES.iter().position(|o| *o == name) {
            self.counts[slot] += n;
        }
    }

    /// Records with the outcome named `name` (one of [`Outcome::NAMES`]).
    #[must_use]
    pub fn count(&self, name: &str) -> usize {
        Outcome::NAMES
            .iter()
            .position(|n| *n == name)
            .map_or(0, |slot| self.counts[slot])
    }

    /// Every record.
    #[must_use]
    pub fn total(&self) -> usize {
        self.counts.iter().sum()
    }

    /// Each outcome's name and count, in [`Outcome::NAMES`] order.
    pub fn rows(&self) -> impl Iterator<Item = (&'static str, usize)> + '_ {
        Outcome::NAMES
            .iter()
            .copied()
            .zip(self.counts.iter().copied())
    }

    /// Records whose outcome fails the run.
    #[must_use]
    pub fn failing(&self, strict: bool) -> usize {
        // Which outcomes fail a run is `Outcome::fails_run`'s to say, not ours.
        representatives()
            .iter()
            .zip(self.counts)
            .filter(|(o, _)| o.fails_run(strict))
            .map(|(_, n)| n)
            .sum()
    }

    /// 0 when nothing fails the run, 1 when something does (with `strict`,
    /// warnings too, as h2spec's `--strict` fails on SHOULD-level cases).
    #[must_use]
    pub fn exit_code(&self, strict: bool) -> Exit {
        if self.failing(strict) > 0 {
            Exit::Findings
        } else {
            Exit::Clean
        }
    }
}

/// One outcome of each kind, in [`Outcome::NAMES`] order.
fn representatives() -> [Outcome; Outcome::NAMES.len()] {
    [
        Outcome::Pass,
        Outcome::Fail,
        Outcome::Warning,
        Outcome::NotObserved { why: String::new() },
        Outcome::NotApplicable { why: String::new() },
        Outcome::KnownFailure {
            reason: String::new(),
        },
        Outcome::Stale {
            reason: String::new(),
        },
    ]
}

/// The peer a live run judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peer {
    /// The command line that started it (stdio), or its URL (HTTP).
    pub target: String,
    /// The transport spoken (`stdio`, `streamable-http`).
    pub transport: String,
}

/// What a run document says about the run besides its records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunInfo {
    /// The wirecheck version that made it.
    pub tool_version: String,
    /// The command line wirecheck was run with, one argument each.
    pub argv: Vec<String>,
    /// Who was judged.
    pub peer: Peer,
    /// The revisions judged, oldest first.
    pub revisions: Vec<Revision>,
    /// The revisions asked for, as given (`--revision`: `all`, `auto` or
    /// one), when the document says it.
    pub asked: Option<String>,
    /// The SHA-256 of the vectors played (every file under `jsonrpc-2.0/`
    /// and `mcp/`, by path), when the document says it: two runs with the
    /// same digest played the same probes.
    pub vectors_digest: Option<String>,
    /// When the run started, as RFC 3339 UTC text ([`rfc3339`]).
    pub started: String,
    /// How long it took.
    pub duration: Duration,
}

impl RunInfo {
    /// The run in one line: what was judged, how, under which revisions,
    /// how long it took, and by which wirecheck.
    #[must_use]
    pub fn line(&self) -> String {
        let revisions: Vec<&str> = self.revisions.iter().map(|r| r.name()).collect();
        let mut out = format!(
            "{} over {}; revisions {}",
            self.peer.target,
            self.peer.transport,
            if revisions.is_empty() {
                "none judged".to_owned()
            } else {
                revisions.join(", ")
            }
        );
        if let Some(asked) = &self.asked {
            out.push_str(&format!(" (--revision {asked})"));
        }
        out.push_str(&format!(
            "; started {}, {:.1} s; wirecheck {}",
            self.started,
            self.duration.as_secs_f64(),
            self.tool_version
        ));
        if let Some(digest) = &self.vectors_digest {
            // By characters: a document read back may hold any text here.
            let short: String = digest.chars().take(12).collect();
            out.push_str(&format!(", vectors sha256:{short}"));
        }
        out
    }
}

/// `t` as RFC 3339 UTC text to the second (`2026-12-03T21:05:45Z`): the
/// proleptic Gregorian date of the Unix day (Howard Hinnant's
/// `civil_from_days`), no date library. The one clock text of the project:
/// the run document's start, the matrix's, a reference-peer task's times.
#[must_use]
pub fn rfc3339(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Everything one command found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The command that made it.
    pub command: Command,
    /// The profile judged under, when the command judges rules.
    pub profile: Option<Profile>,
    /// Whether warnings fail the run.
    pub strict: bool,
    /// One per subject, in input order; when streamed ([`sink::Stream`]), only
    /// those a view still needs, the rest being counted in `dropped`.
    pub records: Vec<Record>,
    /// Records counted but not kept: written out as they were made.
    pub dropped: Tally,
    /// Who ran what against whom, for a live run's document.
    pub run: Option<RunInfo>,
    /// Why the command stopped early (an unreadable file): exit 2, whatever
    /// the records say. Records made before it are kept.
    pub error: Option<String>,
    /// Each run-level ambiguity met, with how many records met it, in the
    /// order first met: said once, never as a warning per exchange.
    pub ambiguities: Vec<(harness::rules::RuleId, usize)>,
}

impl Report {
    /// An empty report of `command`.
    #[must_use]
    pub fn new(command: Command) -> Self {
        Self {
            command,
            profile: None,
            strict: false,
            records: Vec::new(),
            dropped: Tally::default(),
            run: None,
            error: None,
            ambiguities: Vec::new(),
        }
    }

    /// Counts the run-level ambiguities `record` met.
    pub fn note_ambiguities(&mut self, record: &Record) {
        for rule in &record.ambiguities {
            match self.ambiguities.iter_mut().find(|(r, _)| r == rule) {
                Some((_, n)) => *n += 1,
                None => self.ambiguities.push((*rule, 1)),
            }
        }
    }

    /// One line per run-level ambiguity met: its note and how often.
    #[must_use]
    pub fn ambiguity_lines(&self) -> Vec<String> {
        self.ambiguities
            .iter()
            .filter_map(|(rule, n)| {
                let note = rule.run_level_ambiguity()?;
                let times = if *n == 1 { "once" } else { "times" };
                let count = if *n == 1 {
                    String::new()
                } else {
                    format!("{n} ")
                };
                Some(format!("note: {note} (met {count}{times})"))
            })
            .collect()
    }

    /// Every record counted by outcome, kept or not.
    #[must_use]
    pub fn tally(&self) -> Tally {
        let mut tally = self.dropped;
        for record in &self.records {
            tally.add(&record.outcome);
        }
        tally
    }

    /// 0 clean, 1 a failing outcome, 2 the command could not finish.
    #[must_use]
    pub fn exit_code(&self) -> Exit {
        if self.error.is_some() {
            Exit::Trouble
        } else {
            self.tally().exit_code(self.strict)
        }
    }

    /// The kept records whose outcome fails the run (see [`Report::dropped`]).
    pub fn failing(&self) -> impl Iterator<Item = &Record> {
        self.records
            .iter()
            .filter(|r| r.outcome.fails_run(self.strict))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report_of(outcomes: &[Outcome], strict: bool) -> Report {
        let mut report = Report::new(Command::Classify);
        report.strict = strict;
        for (i, o) in outcomes.iter().enumerate() {
            report.records.push(Record::new(
                Place::at_line(None, i + 1),
                Subject::Frame(b"{}".to_vec()),
                o.clone(),
            ));
        }
        report
    }

    #[test]
    fn strict_fails_on_warnings_only() {
        let warning = [Outcome::Pass, Outcome::Warning];
        assert_eq!(report_of(&warning, false).exit_code(), Exit::Clean);
        assert_eq!(report_of(&warning, true).exit_code(), Exit::Findings);
        assert_eq!(
            report_of(&[Outcome::Fail], false).exit_code(),
            Exit::Findings
        );
        assert_eq!(report_of(&[], true).exit_code(), Exit::Clean);
    }

    #[test]
    fn not_observed_never_fails_and_stale_always_does() {
        let quiet = [Outcome::NotObserved { why: "x".into() }];
        assert_eq!(report_of(&quiet, true).exit_code(), Exit::Clean);
        let stale = [Outcome::Stale { reason: "r".into() }];
        assert_eq!(report_of(&stale, false).exit_code(), Exit::Findings);
    }

    #[test]
    fn an_error_is_trouble_whatever_the_records_say() {
        let mut report = report_of(&[Outcome::Pass], false);
        report.error = Some("cannot open x".into());
        assert_eq!(report.exit_code(), Exit::Trouble);
    }

    #[test]
    fn the_tally_counts_every_outcome() {
        let report = report_of(
            &[
                Outcome::Pass,
                Outcome::Pass,
                Outcome::Fail,
                Outcome::KnownFailure { reason: "r".into() },
            ],
            false,
        );
        let tally = report.tally();
        assert_eq!(tally.total(), 4);
        assert_eq!(tally.count("pass"), 2);
        assert_eq!(tally.count("fail"), 1);
        assert_eq!(tally.count("known-failure"), 1);
        assert_eq!(tally.count("stale"), 0);
        assert_eq!(tally.failing(true), 1);
        assert_eq!(tally.rows().count(), Outcome::NAMES.len());
    }
}

/// The HTTP exchange a transport record rests on, shown by every view that
/// shows evidence, and kept by the run document.
#[cfg(test)]
mod http_exchange_tests {
    use super::*;

    /// A refused-origin probe as the transport judge files it: a 200 where
    /// 403 was due, with a body holding markup.
    fn origin_record() -> Record {
        let mut record = Record::of_transport_rule(
            "run/2025-11-25/http/origin-403".into(),
            Revision::Mcp2025_11_25,
            "streamable-http",
            harness::rules::RuleId::McpHttpOrigin403,
            Outcome::Fail,
            vec!["a request with a foreign Origin was answered 200, not 403 Forbidden".into()],
        );
        record.http.push(HttpExchange {
            method: "POST".into(),
            url: "http://127.0.0.1:9/mcp".into(),
            request_headers: vec![
                ("origin".into(), "http://evil.invalid".into()),
                ("authorization".into(), "(redacted)".into()),
            ],
            request_body: Some(r#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#.into()),
            status: 200,
            response_headers: vec![("content-type".into(), "text/html".into())],
            response_body: Some("<h1>hello</h1>".into()),
        });
        record
    }

    fn report_of(record: Record) -> Report {
        let mut report = Report::new(Command::Run);
        report.records.push(record);
        report
    }

    #[test]
    fn the_html_page_shows_the_exchange_escaped_and_no_empty_frame_box() {
        let page = html::render(&report_of(origin_record()));
        assert!(page.contains("HTTP exchange"), "{page}");
        assert!(page.contains("POST http://127.0.0.1:9/mcp"));
        assert!(page.contains("origin: http://evil.invalid"));
        assert!(page.contains("→ HTTP 200"));
        assert!(page.contains("content-type: text/html"));
        // Peer text is escaped, never markup.
        assert!(page.contains("&lt;h1&gt;hello&lt;/h1&gt;"));
        assert!(!page.contains("<h1>hello"));
        // The transport record's empty subject is not drawn as a frame.
        assert!(!page.contains("<pre></pre>"), "{page}");
        // Nor is its empty pointer.
        assert!(!page.contains("at <code></code>"), "{page}");
    }

    #[test]
    fn the_terminal_shows_what_was_sent_and_got_over_http() {
        let text = terminal::to_fix(&report_of(origin_record()), false);
        assert!(
            text.contains("sent: POST http://127.0.0.1:9/mcp {"),
            "{text}"
        );
        assert!(
            text.contains("got:  HTTP 200 (text/html) <h1>hello</h1>"),
            "{text}"
        );
    }

    #[test]
    fn the_run_document_keeps_the_exchange() {
        let report = report_of(origin_record());
        let bytes = document::to_vec(&report);
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.contains(r#""status": 200"#), "{text}");
        let back = document::from_slice(&bytes).unwrap();
        assert_eq!(back.records[0].http, report.records[0].http);
    }

    /// A hostile peer's flood (many frames, each huge) does not make the
    /// page as large as the flood: it stays under a cap.
    #[test]
    fn the_html_page_stays_small_whatever_the_wire_logs_hold() {
        let mut report = Report::new(Command::Run);
        for i in 0..50 {
            let mut record = origin_record();
            record.place.vector = Some(format!("run/2025-11-25/flood/{i}"));
            record.wire = (0..100)
                .map(|_| WireFrame {
                    from: harness::Direction::ServerToClient,
                    frame: vec![b'x'; 16 * 1024],
                    at: None,
                })
                .collect();
            report.records.push(record);
        }
        // 50 records × 100 frames × 16 KiB: 80 MiB of frames.
        let page = html::render(&report);
        assert!(page.len() < 3 * 1024 * 1024, "{} bytes", page.len());
        assert!(page.contains("… 76 more frames"));
    }

    #[test]
    fn an_exchange_without_a_body_says_so() {
        let mut x = origin_record().http.remove(0);
        x.response_body = None;
        assert_eq!(x.response_line(), "HTTP 200 (text/html) with no body");
    }
}

#[cfg(test)]
mod check_id_tests {
    use super::*;
    use harness::rules::RuleId;

    /// A record's check is typed: a rule of the catalogue reads back as that
    /// rule, a note no rule names as itself, and both print their stable id.
    #[test]
    fn check_ids_tell_a_rule_from_a_note() {
        let rule = CheckId::parse("mcp.http.origin-403");
        assert_eq!(rule, CheckId::Rule(RuleId::McpHttpOrigin403));
        assert_eq!(rule.rule(), Some(RuleId::McpHttpOrigin403));
        let note = CheckId::parse("stdio.peer-exited");
        assert_eq!(note, CheckId::Other("stdio.peer-exited".into()));
        assert_eq!(note.rule(), None);
        assert_eq!(note.to_string(), "stdio.peer-exited");
        assert!(rule == "mcp.http.origin-403");
    }

    #[test]
    fn the_run_document_reads_a_rule_check_back_as_the_rule() {
        let mut report = Report::new(Command::Run);
        let mut record = Record::new(Place::default(), Subject::Frame(Vec::new()), Outcome::Pass);
        record.check = Some(Check {
            rule: RuleId::McpPingRespond.into(),
            level: harness::rules::Level::Must,
            spec: "MCP 2025-11-25 basic/utilities/ping".into(),
        });
        report.records.push(record);
        let back = document::from_slice(&document::to_vec(&report)).unwrap();
        let check = back.records[0].check.as_ref().unwrap();
        assert_eq!(check.rule, CheckId::Rule(RuleId::McpPingRespond));
    }
}
