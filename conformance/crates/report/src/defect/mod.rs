//! Defects: what the party under test did wrong, each once.
//!
//! A record is one check; a defect is one breach of the peer's, seen by
//! every check that shows it. Each record that did not pass (a failure, a
//! warning, or a failure the baseline knows) is attributed to the rule *the
//! peer* broke ([`breach`]), never the rule the probe's frame broke on
//! purpose: a silence where an answer was owed is JSON-RPC 2.0 §5's "MUST
//! reply", whatever the probe was about. Records with the same breach, the
//! same shape of answer ([`Shape`]) and the same standing fold into one
//! [`Defect`] across probes, revisions and transports; a session record
//! whose frame is an answer another defect already shows joins that defect.
//! Records keep their outcomes: this is how every view names what the checks
//! share, never a second verdict.

use harness::rules::{Level, RuleId};
use harness::{Outcome, Revision};

use super::check::{CheckId, OwnCheck};
use super::model::Report;
use super::record::{Record, Subject};

/// How binding the sentence a defect breaks is, as a reader is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Weight {
    /// MUST, REQUIRED, SHALL.
    Must,
    /// MUST NOT, SHALL NOT.
    MustNot,
    /// SHOULD, RECOMMENDED.
    Should,
    /// SHOULD NOT, NOT RECOMMENDED.
    ShouldNot,
    /// The text names the answer without a keyword (the §5.1 code table),
    /// or a MAY: reported as a convention, with the text it rests on.
    Convention,
    /// A MUST of a sentence the texts leave ambiguous: reported as a
    /// warning, never a failure, with the ambiguity said.
    Ambiguous,
}

impl Weight {
    /// The word a view prints: `MUST`, `SHOULD NOT`, `convention`, …
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Weight::Must => "MUST",
            Weight::MustNot => "MUST NOT",
            Weight::Should => "SHOULD",
            Weight::ShouldNot => "SHOULD NOT",
            Weight::Convention => "convention",
            Weight::Ambiguous => "ambiguous",
        }
    }

    /// Whether breaking it is a conformance failure.
    #[must_use]
    pub fn is_mandatory(self) -> bool {
        matches!(self, Weight::Must | Weight::MustNot)
    }

    fn of(level: Level, keyword_free: bool, warned: bool) -> Weight {
        match level {
            _ if keyword_free => Weight::Convention,
            Level::Must | Level::MustNot if warned => Weight::Ambiguous,
            Level::Must => Weight::Must,
            Level::MustNot => Weight::MustNot,
            Level::Should => Weight::Should,
            Level::ShouldNot => Weight::ShouldNot,
            Level::May => Weight::Convention,
        }
    }
}

/// Where a defect stands: failing the run, warning, or known to the
/// baseline (`--expected-failures`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Standing {
    /// A MUST broken: fails the run.
    Fail,
    /// A SHOULD or a convention: fails only under `--strict`.
    Warning,
    /// Listed in the baseline, with its reason.
    Known,
}

impl Standing {
    fn of(outcome: &Outcome) -> Option<Standing> {
        match outcome {
            Outcome::Fail => Some(Standing::Fail),
            Outcome::Warning => Some(Standing::Warning),
            Outcome::KnownFailure { .. } => Some(Standing::Known),
            _ => None,
        }
    }

    /// `FAIL`, `WARNING`, `KNOWN`.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Standing::Fail => "FAIL",
            Standing::Warning => "WARNING",
            Standing::Known => "KNOWN",
        }
    }
}

/// The shape of what the peer answered the probe with: what a defect's
/// checks share besides the rule, so "no reply" and "an error -32603" under
/// one rule are two defects.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Nothing answered the probe.
    NoReply,
    /// An error response with this code.
    Error(i64),
    /// An error response, its code not at issue (or not an integer).
    ErrorOther,
    /// A result.
    Result,
    /// An array (a batch's answer).
    Batch,
    /// A frame that is not a JSON-RPC response.
    Unreadable,
    /// An HTTP status, for a transport check.
    Http(u16),
    /// No answer belongs to the check (a run-level or session check).
    Unseen,
}

impl Shape {
    /// Of one frame the peer sent.
    fn of_frame(bytes: &[u8]) -> Shape {
        match serde_json::from_slice::<serde_json::Value>(bytes) {
            Ok(serde_json::Value::Array(_)) => Shape::Batch,
            Ok(serde_json::Value::Object(o)) => match (o.get("error"), o.get("result")) {
                (Some(e), _) => e
                    .get("code")
                    .and_then(serde_json::Value::as_i64)
                    .map_or(Shape::ErrorOther, Shape::Error),
                (None, Some(_)) => Shape::Result,
                (None, None) => Shape::Unreadable,
            },
            _ => Shape::Unreadable,
        }
    }

    /// Of what answered the check's probe. An error's code is part of the
    /// shape only where the check names the codes it expected: a wrong
    /// code is then the defect, where elsewhere (an id not echoed, a batch
    /// answered by one object) the code is beside the point.
    #[must_use]
    pub fn of(record: &Record) -> Shape {
        match Shape::answered(record) {
            Shape::Error(_) if expected_codes(record).is_none() => Shape::ErrorOther,
            shape => shape,
        }
    }

    fn answered(record: &Record) -> Shape {
        if !record.wire.is_empty() {
            return record
                .answers()
                .first()
                .map_or(Shape::NoReply, |w| Shape::of_frame(&w.bytes));
        }
        if let Some(x) = record.http.first() {
            return Shape::Http(x.status);
        }
        match &record.subject {
            Subject::Frame(bytes) if !bytes.is_empty() => Shape::of_frame(bytes),
            _ => Shape::Unseen,
        }
    }

    /// The stable part of a fingerprint: `no-reply`, `error-32603`, …
    #[must_use]
    pub fn slug(&self) -> String {
        match self {
            Shape::NoReply => "no-reply".into(),
            Shape::Error(code) => format!("error{code}"),
            Shape::ErrorOther => "error".into(),
            Shape::Result => "result".into(),
            Shape::Batch => "batch".into(),
            Shape::Unreadable => "unreadable".into(),
            Shape::Http(status) => format!("http-{status}"),
            Shape::Unseen => "-".into(),
        }
    }

    /// In words: `no reply`, `an error -32603`, …; `None` when no answer
    /// belongs to the check.
    #[must_use]
    pub fn describe(&self) -> Option<String> {
        Some(match self {
            Shape::NoReply => "no reply".into(),
            Shape::Error(code) => format!("an error {code}"),
            Shape::ErrorOther => "an error".into(),
            Shape::Result => "a result".into(),
            Shape::Batch => "an array".into(),
            Shape::Unreadable => "a frame that is not a JSON-RPC response".into(),
            Shape::Http(status) => format!("HTTP {status}"),
            Shape::Unseen => return None,
        })
    }
}

/// The rule the peer broke in `record`, and how binding it is. `None` for a
/// record that is no defect (a pass, not observed, not applicable, stale).
#[must_use]
pub fn breach(record: &Record) -> Option<(CheckId, Level)> {
    Standing::of(&record.outcome)?;
    let shape = Shape::of(record);
    let violations = record.violations.as_deref().unwrap_or_default();
    let names = |rule: RuleId| {
        violations.iter().any(|v| v.rule == rule)
            || record
                .check
                .as_ref()
                .is_some_and(|c| c.rule == rule.as_str())
    };
    // A silence where an answer was owed breaks §5's MUST reply, whatever
    // the probe was about; where MCP requires batches to be received, a
    // batch of requests left unanswered breaks that.
    if shape == Shape::NoReply && names(RuleId::JsonrpcResponseRequired) {
        if record.place.revision == Some(Revision::Mcp2025_03_26) && is_batch_of_objects(record) {
            return Some((RuleId::McpBatchMustReceive.into(), Level::Must));
        }
        return Some((RuleId::JsonrpcResponseRequired.into(), Level::Must));
    }
    // A batch the probe made invalid on purpose (an element that is no
    // Request), answered by one object where its valid calls were owed
    // responses of their own: the calls went unanswered (§5), whatever rule
    // the invalid element broke.
    let probe_rule = record
        .check
        .as_ref()
        .and_then(|c| c.rule.rule())
        .is_some_and(|r| r.codec().is_some());
    if probe_rule
        && is_batch(record)
        && matches!(shape, Shape::Error(_) | Shape::ErrorOther | Shape::Result)
        && !violations.iter().any(|v| v.level.is_mandatory())
        && record.outcome != Outcome::Warning
    {
        return Some((RuleId::JsonrpcResponseRequired.into(), Level::Must));
    }
    // A sender's rule found on the peer's own answer: an id no request may
    // carry, echoed back in an error, where JSON-RPC 2.0 §5 wants null for
    // an Invalid Request.
    let on_answer = |rule: RuleId| {
        record.answers().iter().any(|w| {
            harness::lift(&w.bytes)
                .err()
                .is_some_and(|r| RuleId::from(r.rule()) == rule)
        })
    };
    if let Some(check) = &record.check {
        if check.rule == RuleId::IdType.as_str()
            && on_answer(RuleId::IdType)
            && record
                .place
                .revision
                .is_some_and(|r| RuleId::JsonrpcResponseIdRequired.info().applies_to(r))
        {
            return Some((RuleId::JsonrpcResponseIdRequired.into(), Level::Must));
        }
        return Some((check.rule.clone(), check.level));
    }
    let weighed = |level: Level| match record.outcome {
        Outcome::Fail => level.is_mandatory(),
        _ => true,
    };
    if let Some(v) = violations.iter().find(|v| weighed(v.level)) {
        return Some((v.rule.into(), v.level));
    }
    if let Some(r) = &record.refusal {
        return Some((r.rule.into(), Level::Must));
    }
    Some((OwnCheck::Unnamed.into(), Level::Must))
}

/// The rule a defect is filed under for `rule`: the sentence that the
/// catalogue says other rules restate (JSON-RPC 2.0's "id MUST be the same",
/// which MCP restates per revision as `mcp.base.response-id-match`, then
/// `mcp.base.error-response-id`), so one defect seen under several
/// revisions is one, whichever revision's wording each check cites.
#[must_use]
pub fn family(rule: &CheckId) -> CheckId {
    use std::sync::OnceLock;
    static RESTATED: OnceLock<Vec<(RuleId, RuleId)>> = OnceLock::new();
    let restated = RESTATED.get_or_init(|| {
        let mut pairs = Vec::new();
        for head in RuleId::ALL {
            let quote = head.info().quote;
            let Some(at) = quote.find("restates it: ") else {
                continue;
            };
            let list = &quote[at + "restates it: ".len()..];
            let list = &list[..list.find(')').unwrap_or(list.len())];
            for id in list.split(',') {
                if let Ok(other) = id.trim().trim_end_matches('.').parse::<RuleId>() {
                    pairs.push((other, head));
                }
            }
        }
        pairs
    });
    match rule.rule() {
        Some(r) => restated
            .iter()
            .find(|(other, _)| *other == r)
            .map_or_else(|| rule.clone(), |(_, head)| CheckId::Rule(*head)),
        None => rule.clone(),
    }
}

/// Whether the probe was a non-empty array (a batch, valid or not).
fn is_batch(record: &Record) -> bool {
    record
        .wire
        .iter()
        .find(|w| w.from == harness::Direction::ClientToServer)
        .is_some_and(|sent| {
            matches!(
                serde_json::from_slice::<serde_json::Value>(&sent.bytes),
                Ok(serde_json::Value::Array(items)) if !items.is_empty()
            )
        })
}

/// Whether the probe was a batch of objects (requests, notifications).
fn is_batch_of_objects(record: &Record) -> bool {
    let Some(sent) = record
        .wire
        .iter()
        .find(|w| w.from == harness::Direction::ClientToServer)
    else {
        return false;
    };
    matches!(
        serde_json::from_slice::<serde_json::Value>(&sent.bytes),
        Ok(serde_json::Value::Array(items)) if !items.is_empty() && items.iter().all(serde_json::Value::is_object)
    )
}

/// One defect of the peer: the rule it broke, the shape of its answer, and
/// every check that shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defect {
    /// The rule the peer broke (its stable id), or a check no rule names.
    pub rule: CheckId,
    /// How binding the sentence is, as a reader is told.
    pub weight: Weight,
    /// Failing, warning, or known to the baseline.
    pub standing: Standing,
    /// What the peer answered.
    pub shape: Shape,
    /// The checks that show it, as indexes into `Report::records`: the
    /// example first (the smallest probe), then in report order.
    pub checks: Vec<usize>,
    /// The revisions it holds under, oldest first.
    pub revisions: Vec<Revision>,
    /// The transports it holds over, in the order met.
    pub transports: Vec<crate::Transport>,
    /// The error codes the probes expected, where the answer was an error
    /// with another code (`-32602 (Invalid params)`).
    pub expected_codes: Option<String>,
    /// The rules the checks cited that restate [`Defect::rule`] in a
    /// revision's own words ([`family`]), each once.
    pub restated: Vec<CheckId>,
}

impl Defect {
    /// A key stable across runs, revisions and renamed probes: the rule and
    /// the shape of the answer (`jsonrpc.response.required/no-reply`).
    #[must_use]
    pub fn fingerprint(&self) -> String {
        format!("{}/{}", self.rule, self.shape.slug())
    }

    /// Whether `rule` is the defect's, in any revision's words.
    #[must_use]
    pub fn is_of(&self, rule: RuleId) -> bool {
        family(&CheckId::Rule(rule)) == self.rule
    }

    /// The rule's facts, when the defect names a catalogue rule.
    #[must_use]
    pub fn info(&self) -> Option<&'static harness::rules::RuleInfo> {
        self.rule.rule().map(RuleId::info)
    }

    /// The sentence broken, verbatim from the catalogue.
    #[must_use]
    pub fn sentence(&self) -> Option<&'static str> {
        self.info().map(harness::rules::RuleInfo::sentence)
    }

    /// Where the sentence is written, as the first revision it holds under
    /// words it (`MCP 2025-06-18 basic/index §Messages › Batching`).
    #[must_use]
    pub fn cite(&self, report: &Report) -> String {
        let example = &report.records[self.checks[0]];
        match (self.info(), self.revisions.first()) {
            (Some(info), Some(&revision)) => info.cite(revision).to_owned(),
            (Some(info), None) => info.spec.split(" | ").next().unwrap_or("").to_owned(),
            (None, _) => example
                .check
                .as_ref()
                .map(|c| c.spec.clone())
                .unwrap_or_default(),
        }
    }

    /// The probes that show it besides the example, each once.
    #[must_use]
    pub fn other_probes<'r>(&self, report: &'r Report) -> Vec<&'r str> {
        let example = report.records[self.checks[0]].place.vector.as_deref();
        let mut others: Vec<&str> = Vec::new();
        for &i in &self.checks[1..] {
            if let Some(v) = report.records[i].place.vector.as_deref() {
                if Some(v) != example && !others.contains(&v) {
                    others.push(v);
                }
            }
        }
        others
    }

    /// The session judge's checks of other rules that show it too (its
    /// record of the same answer), each rule once. A probe's own rule is
    /// never listed: it names what the probe sent, not what the peer did.
    #[must_use]
    pub fn also_shown_by(&self, report: &Report) -> Vec<String> {
        let mut rules: Vec<String> = Vec::new();
        for &i in &self.checks {
            let record = &report.records[i];
            if !record.wire.is_empty() || !record.http.is_empty() {
                continue;
            }
            if let Some(check) = &record.check {
                if check.rule != self.rule && !rules.iter().any(|r| *r == check.rule.as_str()) {
                    rules.push(check.rule.to_string());
                }
            }
        }
        rules
    }

    /// What to change, in one line, where the text says what to do instead.
    #[must_use]
    pub fn fix(&self) -> Option<String> {
        let rule = self.rule.rule()?;
        let code = |c: i64| format!("{c} ({})", code_name(c));
        Some(match (rule, &self.shape) {
            (RuleId::JsonrpcResponseRequired, Shape::NoReply) => "answer every frame that carries an `id` (a malformed one too: with an error whose `id` is the request's, or null when it cannot be read); stay silent only for notifications".into(),
            (RuleId::JsonrpcResponseRequired, _) => "answer a batch with an array holding a response for each call it carries (an error for each element that is no valid Request), not one object for the whole batch".into(),
            (RuleId::McpBatchMustReceive, _) => "accept a JSON-RPC batch (an array of requests and notifications) and answer it with an array of the responses".into(),
            (RuleId::JsonrpcResponseIdEcho | RuleId::SessionResponseUnknownId, _) => "echo each request's `id` exactly as received (same JSON type and digits: read numbers past 2^53 without rounding them)".into(),
            (RuleId::JsonrpcResponseIdRequired, _) => "answer an Invalid Request whose `id` cannot be used with `\"id\": null`".into(),
            (RuleId::JsonrpcErrorMessageSingleSentence, _) => "keep `error.message` to one short sentence; put details (a validation report, a stack) in `error.data`".into(),
            (RuleId::JsonrpcBatchRespondArray, _) => "answer a batch with an array of responses, even when it holds one".into(),
            (RuleId::McpErrorInvalidCursor, Shape::Result) => format!("answer a cursor the server never issued with an error, code {}", code(-32602)),
            (RuleId::McpToolsUnknownToolError, Shape::Result) => format!("answer a call to a tool that does not exist with a JSON-RPC error ({}), not a tool result with isError", code(-32602)),
            (RuleId::McpBatchRefusedAfterRemoval, Shape::NoReply) => format!("answer an array frame with an error ({}), since this revision has no batches", code(-32600)),
            (_, Shape::Error(got)) => {
                let expected = self.expected_codes.as_deref()?;
                format!("answer with {} instead of {}", expected, code(*got))
            }
            _ => return None,
        })
    }
}

/// The name JSON-RPC 2.0 §5.1 (or an MCP revision) gives a code, from the
/// one table of known codes.
fn code_name(code: i64) -> &'static str {
    harness::codes::KNOWN_CODES
        .iter()
        .find(|k| k.code == code)
        .map_or("a server error", |k| k.name)
}

/// The codes a record says were expected (`expected one of [-32602]`,
/// `expected an error response ([-32600, -32602])`), named.
fn expected_codes(record: &Record) -> Option<String> {
    let texts = record.notes.iter().map(String::as_str).chain(
        record
            .violations
            .iter()
            .flatten()
            .map(|v| v.message.as_str()),
    );
    for text in texts {
        for marker in ["expected one of [", "expected an error response (["] {
            let Some(start) = text.find(marker).map(|i| i + marker.len()) else {
                continue;
            };
            let Some(len) = text[start..].find(']') else {
                continue;
            };
            let codes: Vec<i64> = text[start..start + len]
                .split(',')
                .filter_map(|c| c.trim().parse().ok())
                .collect();
            if !codes.is_empty() {
                let named: Vec<String> = codes
                    .iter()
                    .map(|&c| format!("{c} ({})", code_name(c)))
                    .collect();
                return Some(named.join(" or "));
            }
        }
    }
    None
}

/// The length of the probe a record sent, to pick the smallest example.
fn probe_len(record: &Record) -> usize {
    record
        .wire
        .iter()
        .find(|w| w.from == harness::Direction::ClientToServer)
        .map(|w| w.bytes.len())
        .or_else(|| record.http.first().map(|x| x.request_line().len()))
        .unwrap_or(usize::MAX)
}

/// The peer's defects in `report`, most severe first: failures, then
/// warnings, then those the baseline knows; within each, the stronger
/// sentence, then the most checks.
#[must_use]
pub fn defects(report: &Report) -> Vec<Defect> {
    let mut found: Vec<Defect> = Vec::new();
    for (i, record) in report.records.iter().enumerate() {
        let Some(standing) = Standing::of(&record.outcome) else {
            continue;
        };
        let Some((cited, level)) = breach(record) else {
            continue;
        };
        let rule = family(&cited);
        let keyword_free = rule.rule().is_some_and(|r| r.info().keyword_free());
        let weight = Weight::of(level, keyword_free, standing == Standing::Warning);
        let shape = Shape::of(record);
        let defect = match found
            .iter_mut()
            .find(|d| d.rule == rule && d.shape == shape && d.standing == standing)
        {
            Some(d) => d,
            None => {
                found.push(Defect {
                    rule,
                    weight,
                    standing,
                    shape,
                    checks: Vec::new(),
                    revisions: Vec::new(),
                    transports: Vec::new(),
                    expected_codes: None,
                    restated: Vec::new(),
                });
                found.last_mut().expect("just pushed")
            }
        };
        if cited != defect.rule && !defect.restated.contains(&cited) {
            defect.restated.push(cited);
        }
        defect.checks.push(i);
        if let Some(r) = record.place.revision {
            if !defect.revisions.contains(&r) {
                defect.revisions.push(r);
            }
        }
        if let Some(t) = &record.place.transport {
            if !defect.transports.contains(t) {
                defect.transports.push(t.clone());
            }
        }
    }
    fold_session_records(report, &mut found);
    for d in &mut found {
        d.revisions.sort();
        // The smallest probe is the example; the rest stay in report order.
        let smallest = d
            .checks
            .iter()
            .enumerate()
            .min_by_key(|(_, &i)| probe_len(&report.records[i]))
            .map_or(0, |(at, _)| at);
        let example = d.checks.remove(smallest);
        d.checks.insert(0, example);
        if matches!(d.shape, Shape::Error(_)) {
            d.expected_codes = d
                .checks
                .iter()
                .find_map(|&i| expected_codes(&report.records[i]));
        }
    }
    // Within a standing, a stdio server's text on stdout first: it explains
    // answers that look broken elsewhere.
    let key = |d: &Defect| {
        (
            d.standing,
            d.rule != CheckId::Own(OwnCheck::StdoutText),
            d.weight,
            std::cmp::Reverse(d.checks.len()),
            d.fingerprint(),
        )
    };
    found.sort_by_key(key);
    found
}

/// The defects of a rule-by-rule command's report ([`defects`]); none for
/// a per-frame command's, whose records are one per frame or finding.
#[must_use]
pub fn defects_of(report: &Report) -> Vec<Defect> {
    if report.command.judges_rules() {
        defects(report)
    } else {
        Vec::new()
    }
}

/// The records (indexes into `Report::records`) that `defects` hold: a
/// view shows them through their defect, never one by one as well.
#[must_use]
pub fn held(defects: &[Defect]) -> std::collections::HashSet<usize> {
    defects
        .iter()
        .flat_map(|d| d.checks.iter().copied())
        .collect()
}

/// A session judge's record whose frame is an answer a probe of another
/// defect got (an id rounded past 2^53 is "not echoed" to the probe and
/// "an id no request carried" to the session judge): one defect, so the
/// session record joins the probe's.
fn fold_session_records(report: &Report, found: &mut Vec<Defect>) {
    let answered_in = |d: &Defect, bytes: &[u8]| {
        d.checks
            .iter()
            .any(|&i| report.records[i].answers().iter().any(|w| w.bytes == bytes))
    };
    let mut i = 0;
    while i < found.len() {
        let frames: Option<Vec<&[u8]>> = found[i]
            .checks
            .iter()
            .map(|&c| {
                let r = &report.records[c];
                match (&r.subject, r.wire.is_empty()) {
                    (Subject::Frame(b), true) if !b.is_empty() => Some(b.as_slice()),
                    _ => None,
                }
            })
            .collect();
        let target = frames.and_then(|frames| {
            (0..found.len()).find(|&j| {
                j != i
                    && found[j].standing == found[i].standing
                    && frames.iter().all(|f| answered_in(&found[j], f))
            })
        });
        // Else a session record of a rule a probe's defect already names
        // (the probe saw the answer, the session judge the same answer in
        // its conversation): the largest such defect sharing a revision.
        let target = target.or_else(|| {
            if !is_session_defect(report, &found[i]) {
                return None;
            }
            (0..found.len())
                .filter(|&j| {
                    j != i
                        && found[j].rule == found[i].rule
                        && found[j].standing == found[i].standing
                        && !is_session_defect(report, &found[j])
                        && found[j]
                            .revisions
                            .iter()
                            .any(|r| found[i].revisions.contains(r))
                })
                .max_by_key(|&j| found[j].checks.len())
        });
        match target {
            Some(j) => {
                let merged = found.remove(i);
                let j = if j > i { j - 1 } else { j };
                let into = &mut found[j];
                into.checks.extend(merged.checks);
                for r in merged.revisions {
                    if !into.revisions.contains(&r) {
                        into.revisions.push(r);
                    }
                }
                for r in merged.restated {
                    if !into.restated.contains(&r) {
                        into.restated.push(r);
                    }
                }
                for t in merged.transports {
                    if !into.transports.contains(&t) {
                        into.transports.push(t);
                    }
                }
            }
            None => i += 1,
        }
    }
}

/// Whether every check of a defect is a session judge's record: no probe's
/// exchange of its own, a place in a conversation.
fn is_session_defect(report: &Report, defect: &Defect) -> bool {
    defect.checks.iter().all(|&c| {
        let r = &report.records[c];
        r.wire.is_empty()
            && r.http.is_empty()
            && r.place
                .vector
                .as_deref()
                .is_some_and(|v| v.contains("/session/"))
    })
}

#[cfg(test)]
mod tests;
