//! The run document (`--out report.json`): one JSON document per run, the
//! source of truth the other views can be rendered from again later
//! (`wirecheck report`), as Autobahn renders its HTML from its per-case JSON.
//! Described by `conformance/schemas/report.schema.json`.
//!
//! Frames are written as exact text when they are UTF-8 (`frame`, JSON-escaped
//! by serde_json, so NUL is `\u0000` and nothing is lost) and as lowercase hex
//! otherwise (`frame_hex`): a lone surrogate's bytes (`ED A0 80`) are not
//! UTF-8 and take the second form, so the document is valid JSON whatever the
//! peer sent, and reading it back gives the same bytes.
//!
//! The members are plain serde structs with `deny_unknown_fields`, so reading
//! a document is as strict as the schema, and a typo is an error.

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use harness::{Direction, Profile, Revision};
use serde::{Deserialize, Serialize};

use ground::transcript::Frame;

use super::{
    Check, CheckId, Command, HttpExchange, Level, Outcome, PaceInfo, Payload, Peer, Place, Record,
    Refusal, Report, RunInfo, Stderr, Subject, Tally, TlsSeen, Violation,
};

/// The document format's version: bumped when a member changes meaning.
/// 2 adds `defects`, the peer's defects each once with the records that show
/// it; a document of format 1 (records only) is still read, its defects
/// found again from its records.
pub const FORMAT: u32 = 2;

/// The oldest format this wirecheck reads.
const OLDEST_FORMAT: u32 = 1;

/// The report as a run document, pretty-printed JSON ending in a newline.
#[must_use]
pub fn to_vec(report: &Report) -> Vec<u8> {
    let doc = Doc::from(report);
    let mut out = serde_json::to_vec_pretty(&doc).expect("plain data always serialises");
    out.push(b'\n');
    out
}

/// Reads a run document back; the error says what is wrong, and where.
pub fn from_slice(bytes: &[u8]) -> Result<Report, String> {
    let doc: Doc = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    doc.into_report()
}

impl Report {
    /// Loads a run document written by [`to_vec`] (`--out`), for
    /// `wirecheck report`. Records are kept, so memory grows with the file.
    pub fn read_json(path: &std::path::Path) -> Result<Report, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        from_slice(&bytes).map_err(|e| format!("{}: not a run document: {e}", path.display()))
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    format: u32,
    tool: Tool,
    command: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    run: Option<RunDoc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    profile: Option<ProfileDoc>,
    strict: bool,
    tally: TallyDoc,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// Run-level ambiguities met, each once ([`Report::ambiguities`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    ambiguities: Vec<AmbiguityDoc>,
    /// The peer's defects, each once (a rule-by-rule command's): derived
    /// from the records, so written for readers and not read back.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    defects: Vec<DefectDoc>,
    records: Vec<RecordDoc>,
}

/// One defect as the document carries it ([`super::Defect`]).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DefectDoc {
    fingerprint: String,
    rule: String,
    level: String,
    standing: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    answer: Option<String>,
    spec: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sentence: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fix: Option<String>,
    revisions: Vec<String>,
    transports: Vec<String>,
    /// Indexes into `records`, the example first.
    records: Vec<usize>,
}

impl DefectDoc {
    fn of(report: &Report, d: &super::Defect) -> Self {
        DefectDoc {
            fingerprint: d.fingerprint(),
            rule: d.rule.to_string(),
            level: d.weight.name().into(),
            standing: match d.standing {
                super::Standing::Fail => "fail",
                super::Standing::Warning => "warning",
                super::Standing::Known => "known-failure",
            }
            .into(),
            answer: d.shape.describe(),
            spec: d.cite(report),
            sentence: d.sentence().map(str::to_owned),
            fix: d.fix(),
            revisions: d.revisions.iter().map(|r| r.name().to_owned()).collect(),
            transports: d.transports.iter().map(ToString::to_string).collect(),
            records: d.checks.clone(),
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct AmbiguityDoc {
    rule: String,
    count: usize,
    note: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Tool {
    name: String,
    version: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RunDoc {
    tool_version: String,
    argv: Vec<String>,
    peer: PeerDoc,
    revisions: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    asked: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    vectors_digest: Option<String>,
    started: String,
    duration_us: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pace: Option<PaceDoc>,
}

/// `run.pace`: the run's mode, its bounds, and what it sent.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PaceDoc {
    mode: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rate: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    budget: Option<u64>,
    requests: u64,
    peak_per_second: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stopped: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PeerDoc {
    target: String,
    transport: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tls: Option<TlsSeen>,
    // Each skipped when empty, so a document of a run without them reads
    // as it did before they existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    env: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cwd: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stderr: Option<StderrDoc>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StderrDoc {
    text: String,
    #[serde(default, skip_serializing_if = "is_zero")]
    dropped_bytes: u64,
}

/// Whether a count is nothing (serde's `skip_serializing_if` passes a
/// reference).
fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileDoc {
    revision: String,
    from: String,
}

/// The tally as `{"pass":N,…}`, every outcome named, in `Outcome::NAMES` order.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct TallyDoc {
    pass: usize,
    fail: usize,
    warning: usize,
    not_observed: usize,
    not_applicable: usize,
    known_failure: usize,
    stale: usize,
    total: usize,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    vector: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    frame_index: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    revision: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    transport: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    check: Option<CheckDoc>,
    outcome: OutcomeDoc,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    violations: Option<Vec<ViolationDoc>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    refused: Option<RefusalDoc>,
    /// The subject: exactly one of `frame`, `frame_hex`, `frame_len`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    frame: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    frame_hex: Option<String>,
    /// A line too long to read: its length only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    frame_len: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lowered: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    wire: Vec<WireDoc>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    http: Vec<HttpDoc>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    notes: Vec<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckDoc {
    rule: String,
    level: Level,
    spec: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct OutcomeDoc {
    outcome: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    why: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ViolationDoc {
    rule: String,
    level: Level,
    spec: String,
    pointer: String,
    message: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RefusalDoc {
    code: i64,
    rule: String,
    pointer: String,
    message: String,
    spec: String,
    line: usize,
    column: usize,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireDoc {
    from: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at_us: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    frame: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    frame_hex: Option<String>,
}

/// An [`HttpExchange`] as the document holds it: headers as `[name, value]`
/// pairs, in the order sent or read.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct HttpDoc {
    method: String,
    url: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    request_headers: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    request_body: Option<String>,
    status: u16,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    response_headers: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    response_body: Option<String>,
}

impl From<&HttpExchange> for HttpDoc {
    fn from(x: &HttpExchange) -> Self {
        HttpDoc {
            method: x.method.clone(),
            url: x.url.clone(),
            request_headers: x.request_headers.clone(),
            request_body: x.request_body.clone(),
            status: x.status,
            response_headers: x.response_headers.clone(),
            response_body: x.response_body.clone(),
        }
    }
}

impl From<HttpDoc> for HttpExchange {
    fn from(d: HttpDoc) -> Self {
        HttpExchange {
            method: d.method,
            url: d.url,
            request_headers: d.request_headers,
            request_body: d.request_body,
            status: d.status,
            response_headers: d.response_headers,
            response_body: d.response_body,
        }
    }
}

/// Bytes as exact text when UTF-8, else hex: `(frame, frame_hex)`.
fn bytes_out(bytes: &[u8]) -> (Option<String>, Option<String>) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (Some(text.to_owned()), None),
        Err(_) => (None, Some(hex(bytes))),
    }
}

fn bytes_in(text: Option<String>, hex: Option<String>, what: &str) -> Result<Vec<u8>, String> {
    match (text, hex) {
        (Some(t), None) => Ok(t.into_bytes()),
        (None, Some(h)) => unhex(&h).ok_or_else(|| format!("{what}: frame_hex is not hex")),
        _ => Err(format!("{what}: exactly one of frame and frame_hex")),
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

/// A frame's time (seconds, finite and not negative, as a transcript holds
/// it) in whole microseconds; a time past any clock's is the largest.
fn secs_to_micros(secs: f64) -> u64 {
    Duration::try_from_secs_f64(secs).map_or(u64::MAX, micros)
}

impl From<&Report> for Doc {
    fn from(report: &Report) -> Self {
        let t = report.tally();
        Doc {
            format: FORMAT,
            tool: Tool {
                name: "wirecheck".into(),
                version: env!("CARGO_PKG_VERSION").into(),
            },
            command: report.command.name().into(),
            run: report.run.as_ref().map(|r| RunDoc {
                tool_version: r.tool_version.clone(),
                argv: r.argv.clone(),
                peer: PeerDoc {
                    target: r.peer.target.clone(),
                    transport: r.peer.transport.to_string(),
                    tls: r.peer.tls.clone(),
                    env: r.peer.env.clone(),
                    cwd: r.peer.cwd.clone(),
                    stderr: r.peer.stderr.as_ref().map(|e| StderrDoc {
                        text: e.text.clone(),
                        dropped_bytes: e.dropped,
                    }),
                },
                revisions: r.revisions.iter().map(|r| r.name().to_owned()).collect(),
                asked: r.asked.clone(),
                vectors_digest: r.vectors_digest.clone(),
                started: r.started.clone(),
                duration_us: micros(r.duration),
                pace: r.pace.as_ref().map(|p| PaceDoc {
                    mode: p.mode.clone(),
                    rate: p.rate,
                    budget: p.budget,
                    requests: p.requests,
                    peak_per_second: p.peak_per_second,
                    stopped: p.stopped.clone(),
                }),
            }),
            profile: report.profile.map(|p| ProfileDoc {
                revision: p.revision.name().into(),
                from: p.direction.sender().into(),
            }),
            strict: report.strict,
            tally: TallyDoc {
                pass: t.count("pass"),
                fail: t.count("fail"),
                warning: t.count("warning"),
                not_observed: t.count("not-observed"),
                not_applicable: t.count("not-applicable"),
                known_failure: t.count("known-failure"),
                stale: t.count("stale"),
                total: t.total(),
            },
            error: report.error.clone(),
            ambiguities: report
                .ambiguities
                .iter()
                .map(|(rule, count)| AmbiguityDoc {
                    rule: rule.as_str().into(),
                    count: *count,
                    note: rule.run_level_ambiguity().unwrap_or_default().into(),
                })
                .collect(),
            defects: if report.command.judges_rules() {
                super::defects(report)
                    .iter()
                    .map(|d| DefectDoc::of(report, d))
                    .collect()
            } else {
                Vec::new()
            },
            records: report.records.iter().map(RecordDoc::from).collect(),
        }
    }
}

impl From<&Record> for RecordDoc {
    fn from(r: &Record) -> Self {
        let (frame, frame_hex, frame_len) = match &r.subject {
            Subject::Frame(bytes) => {
                let (t, h) = bytes_out(bytes);
                (t, h, None)
            }
            Subject::TooLong { len } => (None, None, Some(*len)),
        };
        RecordDoc {
            file: r.place.file.clone(),
            line: r.place.line,
            vector: r.place.vector.clone(),
            frame_index: r.place.frame,
            revision: r.place.revision.map(|v| v.name().to_owned()),
            transport: r.place.transport.as_ref().map(ToString::to_string),
            check: r.check.as_ref().map(|c| CheckDoc {
                rule: c.rule.to_string(),
                level: c.level,
                spec: c.spec.clone(),
            }),
            outcome: OutcomeDoc {
                outcome: r.outcome.name().into(),
                why: match &r.outcome {
                    Outcome::NotObserved { why } | Outcome::NotApplicable { why } => {
                        Some(why.clone())
                    }
                    _ => None,
                },
                reason: match &r.outcome {
                    Outcome::KnownFailure { reason } | Outcome::Stale { reason } => {
                        Some(reason.clone())
                    }
                    _ => None,
                },
            },
            violations: r.violations.as_ref().map(|vs| {
                vs.iter()
                    .map(|v| ViolationDoc {
                        rule: v.rule.as_str().to_owned(),
                        level: v.level,
                        spec: v.spec.into(),
                        pointer: v.pointer.clone(),
                        message: v.message.clone(),
                    })
                    .collect()
            }),
            refused: r.refusal.as_ref().map(|f| RefusalDoc {
                code: f.code,
                rule: f.rule.as_str().to_owned(),
                pointer: f.pointer.clone(),
                message: f.message.clone(),
                spec: f.spec.into(),
                line: f.line,
                column: f.column,
            }),
            frame,
            frame_hex,
            frame_len,
            // The lowered frame is our codec's JSON text, always UTF-8.
            lowered: r
                .payload
                .as_ref()
                .map(|Payload::Lowered(b)| String::from_utf8_lossy(b).into_owned()),
            wire: r
                .wire
                .iter()
                .map(|w| {
                    let (frame, frame_hex) = bytes_out(&w.bytes);
                    WireDoc {
                        from: w.from.sender().into(),
                        at_us: w.t.map(secs_to_micros),
                        frame,
                        frame_hex,
                    }
                })
                .collect(),
            http: r.http.iter().map(HttpDoc::from).collect(),
            notes: r.notes.clone(),
        }
    }
}

impl Doc {
    fn into_report(self) -> Result<Report, String> {
        if !(OLDEST_FORMAT..=FORMAT).contains(&self.format) {
            return Err(format!(
                "format {} (this wirecheck reads {OLDEST_FORMAT} to {FORMAT})",
                self.format
            ));
        }
        let command = Command::from_name(&self.command)
            .ok_or_else(|| format!("unknown command `{}`", self.command))?;
        let mut report = Report::new(command);
        report.strict = self.strict;
        report.error = self.error;
        for a in self.ambiguities {
            report.ambiguities.push((rule_id(&a.rule)?, a.count));
        }
        report.profile = self
            .profile
            .map(|p| -> Result<Profile, String> {
                Ok(Profile {
                    revision: p.revision.parse()?,
                    direction: p.from.parse::<Direction>()?,
                })
            })
            .transpose()?;
        report.run = self
            .run
            .map(|r| -> Result<RunInfo, String> {
                Ok(RunInfo {
                    tool_version: r.tool_version,
                    argv: r.argv,
                    peer: Peer {
                        target: r.peer.target,
                        transport: crate::Transport::parse(&r.peer.transport),
                        tls: r.peer.tls,
                        env: r.peer.env,
                        cwd: r.peer.cwd,
                        stderr: r.peer.stderr.map(|e| Stderr {
                            text: e.text,
                            dropped: e.dropped_bytes,
                        }),
                    },
                    revisions: r
                        .revisions
                        .iter()
                        .map(|v| v.parse::<Revision>())
                        .collect::<Result<_, _>>()?,
                    asked: r.asked,
                    vectors_digest: r.vectors_digest,
                    started: r.started,
                    duration: Duration::from_micros(r.duration_us),
                    pace: r.pace.map(|p| PaceInfo {
                        mode: p.mode,
                        rate: p.rate,
                        budget: p.budget,
                        requests: p.requests,
                        peak_per_second: p.peak_per_second,
                        stopped: p.stopped,
                    }),
                })
            })
            .transpose()?;
        for (i, r) in self.records.into_iter().enumerate() {
            let record = r.into_record().map_err(|e| format!("records[{i}]: {e}"))?;
            report.records.push(record);
        }
        let t = self.tally;
        let counted = report.tally();
        let stated = [
            t.pass,
            t.fail,
            t.warning,
            t.not_observed,
            t.not_applicable,
            t.known_failure,
            t.stale,
        ];
        let mut dropped = Tally::default();
        for ((name, have), want) in counted.rows().zip(stated) {
            // A streamed document may count records it did not keep; it can
            // never hold more than it counts.
            let missing = want
                .checked_sub(have)
                .ok_or_else(|| format!("tally says {want} {name}, records hold {have}"))?;
            dropped.add_named(name, missing);
        }
        report.dropped = dropped;
        if report.tally().total() != t.total {
            return Err(format!("tally total {} does not add up", t.total));
        }
        Ok(report)
    }
}

impl RecordDoc {
    fn into_record(self) -> Result<Record, String> {
        let subject = match (self.frame, self.frame_hex, self.frame_len) {
            (None, None, Some(len)) => Subject::TooLong { len },
            (t, h, None) => Subject::Frame(bytes_in(t, h, "subject")?),
            _ => return Err("frame_len with a frame".into()),
        };
        let o = self.outcome;
        let why = || o.why.clone().ok_or(format!("{} needs why", o.outcome));
        let reason = || {
            o.reason
                .clone()
                .ok_or(format!("{} needs reason", o.outcome))
        };
        let outcome = match o.outcome.as_str() {
            "pass" => Outcome::Pass,
            "fail" => Outcome::Fail,
            "warning" => Outcome::Warning,
            "not-observed" => Outcome::NotObserved { why: why()? },
            "not-applicable" => Outcome::NotApplicable { why: why()? },
            "known-failure" => Outcome::KnownFailure { reason: reason()? },
            "stale" => Outcome::Stale { reason: reason()? },
            other => return Err(format!("unknown outcome `{other}`")),
        };
        let place = Place {
            file: self.file,
            line: self.line,
            vector: self.vector,
            frame: self.frame_index,
            revision: self.revision.map(|r| r.parse()).transpose()?,
            transport: self.transport.as_deref().map(crate::Transport::parse),
        };
        let mut record = Record::new(place, subject, outcome);
        // A vector judged by no rule names itself as its check.
        let vector = record.place.vector.clone();
        record.check = self.check.map(|c| Check {
            rule: match CheckId::parse(&c.rule) {
                CheckId::Other(name) if vector.as_ref() == Some(&name) => CheckId::Vector(name),
                read => read,
            },
            level: c.level,
            spec: c.spec,
        });
        record.violations = self
            .violations
            .map(|vs| {
                vs.into_iter()
                    .map(|v| {
                        Ok(Violation {
                            rule: rule_id(&v.rule)?,
                            level: v.level,
                            spec: intern(&v.spec)?,
                            pointer: v.pointer,
                            message: v.message,
                        })
                    })
                    .collect::<Result<Vec<_>, String>>()
            })
            .transpose()?;
        record.refusal = self
            .refused
            .map(|f| -> Result<Refusal, String> {
                Ok(Refusal {
                    code: f.code,
                    rule: rule_id(&f.rule)?,
                    pointer: f.pointer,
                    message: f.message,
                    spec: intern(&f.spec)?,
                    line: f.line,
                    column: f.column,
                })
            })
            .transpose()?;
        record.payload = self.lowered.map(|l| Payload::Lowered(l.into_bytes()));
        for (i, w) in self.wire.into_iter().enumerate() {
            record.wire.push(Frame {
                from: w.from.parse()?,
                bytes: bytes_in(w.frame, w.frame_hex, &format!("wire[{i}]"))?,
                t: w.at_us.map(|us| Duration::from_micros(us).as_secs_f64()),
            });
        }
        record.http = self.http.into_iter().map(HttpExchange::from).collect();
        record.notes = self.notes;
        Ok(record)
    }
}

/// The most distinct rule ids and citations a process interns beyond those
/// the rule model knows: a document from a newer wirecheck with new rules
/// still loads, and a hostile one cannot grow memory without bound.
const MAX_INTERNED: usize = 4096;

/// `text` as the `&'static str` that [`Violation`] and [`Refusal`] hold.
///
/// Ids and citations the rule model knows are its own statics. Others are
/// leaked once each, at most [`MAX_INTERNED`] of them: `Violation` keeps
/// `&'static str` so the hot path of every judge allocates nothing, and a
/// loaded document is the one place that needs owned text there.
/// A rule id read back from a document: one of this wirecheck's rules, or an
/// error naming it (a document written by a newer wirecheck may know more).
fn rule_id(text: &str) -> Result<harness::rules::RuleId, String> {
    text.parse()
        .map_err(|_| format!("unknown rule id `{text}` (written by another wirecheck version?)"))
}

fn intern(text: &str) -> Result<&'static str, String> {
    static KNOWN: OnceLock<HashSet<&'static str>> = OnceLock::new();
    static EXTRA: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let known = KNOWN.get_or_init(|| {
        let mut set = HashSet::new();
        for r in harness::rules::rules() {
            set.insert(r.spec);
            for rev in Revision::ALL {
                set.insert(r.cite(rev));
            }
        }
        set
    });
    if let Some(k) = known.get(text) {
        return Ok(k);
    }
    let mut extra = EXTRA
        .get_or_init(|| Mutex::new(HashSet::new()))
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(k) = extra.get(text) {
        return Ok(k);
    }
    if extra.len() >= MAX_INTERNED {
        return Err(format!(
            "more than {MAX_INTERNED} distinct rule ids and citations this wirecheck does not know"
        ));
    }
    let leaked: &'static str = Box::leak(text.to_owned().into_boxed_str());
    extra.insert(leaked);
    Ok(leaked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_refuses_junk() {
        assert_eq!(hex(b"\x00\xff"), "00ff");
        assert_eq!(unhex("00ff").unwrap(), b"\x00\xff");
        assert!(unhex("0").is_none());
        assert!(unhex("zz").is_none());
        assert!(unhex("é0").is_none());
    }

    #[test]
    fn known_rules_intern_to_the_model_s_own_text() {
        let spec = harness::rules::rules()[0].spec;
        // A copy, as a parsed document holds: the model's own text comes back.
        let copy = spec.to_string();
        assert!(!std::ptr::eq(copy.as_str(), spec));
        assert!(std::ptr::eq(intern(&copy).unwrap(), spec));
        let new = intern("MCP 2099-01-01 future §Page").unwrap();
        assert!(std::ptr::eq(
            intern("MCP 2099-01-01 future §Page").unwrap(),
            new
        ));
        // Rule ids are typed: one this wirecheck does not know is refused by name.
        assert!(rule_id("mcp.base.id-type").is_ok());
        assert!(rule_id("mcp.future.rule")
            .unwrap_err()
            .contains("mcp.future.rule"));
    }

    /// The peer's environment keys, directory and stderr read back as
    /// written; a peer with none of them is written as before they existed.
    #[test]
    fn a_peer_s_environment_directory_and_stderr_round_trip_and_are_absent_when_empty() {
        let mut report = Report::new(Command::Run);
        report.run = Some(RunInfo {
            tool_version: "0".into(),
            argv: Vec::new(),
            peer: Peer::new("srv", crate::Transport::parse("stdio")),
            pace: None,
            revisions: Vec::new(),
            asked: None,
            vectors_digest: None,
            started: "2026-12-01T08:00:00Z".into(),
            duration: Duration::ZERO,
        });
        let plain = String::from_utf8(to_vec(&report)).unwrap();
        for member in ["\"env\"", "\"cwd\"", "\"stderr\""] {
            assert!(!plain.contains(member), "{plain}");
        }
        let run = report.run.as_mut().unwrap();
        run.peer.env = vec!["API_KEY".into()];
        run.peer.cwd = Some("/srv".into());
        run.peer.stderr = Stderr::of(b"up \xff\n", 7);
        let back = from_slice(&to_vec(&report)).unwrap();
        let peer = &back.run.as_ref().unwrap().peer;
        assert_eq!(peer, &report.run.as_ref().unwrap().peer);
        assert_eq!(peer.stderr.as_ref().unwrap().text, "up \u{fffd}\n");
    }
}
