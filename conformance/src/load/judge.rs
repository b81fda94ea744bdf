//! Every answer under load judged against its own request, and the findings
//! gathered by rule and method: under load one defect breaks a rule
//! thousands of times, so a finding is one rule on one method, counted, with
//! the first exchange that showed it.
//!
//! What is judged, and the sentence each verdict rests on:
//! - the answer to a request carries its id, and the result the shape of its
//!   own method: [`harness::rules::validate_reply`] (JSON-RPC 2.0 §5 and MCP
//!   basic §Responses for the id, the MCP schema for the result's required
//!   members, MCP basic/utilities/ping for `ping`'s empty result);
//! - exactly once: a second answer to an answered id is
//!   `session.response.duplicate`, an answer to an id never sent
//!   `session.response.unknown-id` (JSON-RPC 2.0 §5);
//! - within `--timeout`: [`UNANSWERED`], reported, never a verdict (see
//!   there);
//! - a peer that ended with requests in flight can no longer answer them:
//!   `jsonrpc.response.required`, a MUST, now certain.

use std::collections::BTreeMap;

use harness::rules::{Level, RuleId, Violation};
use harness::{Direction, Profile, Revision};

use crate::report::{Check, CheckId, OwnCheck, Place, Record, Subject};
use crate::transcript::Frame;
use crate::transport::Kind;

/// The check for a request with no answer within `--timeout`: reported as
/// not observed, never as a verdict. No sentence bounds how long a server
/// may take: JSON-RPC 2.0 §5's "the Server MUST reply with a Response"
/// cannot be shown broken by a wait that ends, and MCP's words on time
/// (basic/lifecycle §Timeouts) bind the *sender*, which SHOULD time out and
/// cancel (as this tool does), not the server. (It was a SHOULD warning
/// citing §Timeouts until the review found that sentence binds no server;
/// one such "warning" was a server whose answers were only longer than
/// `--max-frame`.)
pub const UNANSWERED: &str = OwnCheck::LoadUnanswered.name();

/// Where the sentence [`UNANSWERED`] cannot judge is written.
pub fn unanswered_spec(_revision: Revision) -> String {
    "JSON-RPC 2.0 §5".to_owned()
}

/// The sentence [`UNANSWERED`] would judge, and why it cannot.
pub const UNANSWERED_QUOTE: &str = "When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications. (JSON-RPC 2.0 §5; a wait that ends cannot show it broken, and MCP basic/lifecycle §Timeouts binds the sender, which SHOULD cancel: not observed.)";

/// One rule broken on one method, however many times.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The rule (or the load check) broken.
    pub rule: CheckId,
    /// Its level.
    pub level: Level,
    /// Where it is written, for the revision.
    pub spec: String,
    /// The method of the request concerned (`session` for the session
    /// judge's findings on the conversation as a whole).
    pub method: String,
    /// What the first one was, in words.
    pub detail: String,
    /// How many times it was broken.
    pub count: u64,
    /// The session (0-based) and request id of the first.
    pub first: (usize, Option<u64>),
    /// The request, as sent (empty when none is concerned).
    pub request: Vec<u8>,
    /// The answer, as received (empty when none came).
    pub answer: Vec<u8>,
    /// The violation, for a rule of the catalogue.
    pub violation: Option<Violation>,
}

/// The findings of a run, one per rule and method.
#[derive(Debug, Clone, Default)]
pub struct Findings {
    by: BTreeMap<(String, String), Finding>,
}

impl Findings {
    /// Counts `finding` in: the first of its rule and method is kept whole.
    pub fn add(&mut self, finding: Finding) {
        let key = (finding.rule.as_str().to_owned(), finding.method.clone());
        self.by
            .entry(key)
            .and_modify(|f| f.count += finding.count)
            .or_insert(finding);
    }

    /// Takes in another session's, keeping the earliest session's example.
    pub fn merge(&mut self, other: Findings) {
        for (_, f) in other.by {
            self.add(f);
        }
    }

    /// Each finding.
    pub fn iter(&self) -> impl Iterator<Item = &Finding> {
        self.by.values()
    }

    /// How many distinct findings.
    #[must_use]
    pub fn len(&self) -> usize {
        self.by.len()
    }

    /// Whether none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.by.is_empty()
    }

    /// Whether `rule` was broken on any method.
    #[must_use]
    pub fn breaks(&self, rule: &str) -> bool {
        self.by.keys().any(|(r, _)| r == rule)
    }
}

/// A finding of a catalogue rule.
#[must_use]
pub fn of_rule(rule: RuleId, revision: Revision, detail: String) -> Finding {
    let info = rule.info();
    Finding {
        rule: rule.into(),
        level: info.level,
        spec: info.cite(revision).to_owned(),
        method: String::new(),
        detail: detail.clone(),
        count: 1,
        first: (0, None),
        request: Vec::new(),
        answer: Vec::new(),
        violation: Some(Violation {
            rule,
            level: info.level,
            spec: info.cite(revision),
            pointer: String::new(),
            message: detail,
        }),
    }
}

/// A finding of a violation [`harness::rules`] reported.
#[must_use]
pub fn of_violation(v: Violation) -> Finding {
    Finding {
        rule: v.rule.into(),
        level: v.level,
        spec: v.spec.to_owned(),
        method: String::new(),
        detail: v.message.clone(),
        count: 1,
        first: (0, None),
        request: Vec::new(),
        answer: Vec::new(),
        violation: Some(v),
    }
}

/// A frame that does not lift: its refusal's rule (a frame that is not
/// JSON-RPC answers nothing).
#[must_use]
pub fn of_refusal(refusal: &harness::Refusal) -> Finding {
    let rule = RuleId::from(refusal.rule());
    of_violation(Violation {
        rule,
        level: rule.info().level,
        spec: refusal.rule().spec(),
        pointer: refusal.pointer().to_owned(),
        message: refusal.message().to_owned(),
    })
}

/// The check a saved finding's `rule` names, as its records carry it: a
/// catalogue rule's level and citation, or [`UNANSWERED`]'s; `None` for a
/// name this wirecheck does not know (a file from another version).
#[must_use]
pub fn check(rule: &str, revision: Revision) -> Option<Check> {
    match CheckId::parse(rule) {
        CheckId::Rule(id) => {
            let info = id.info();
            Some(Check {
                rule: CheckId::Rule(id),
                level: info.level,
                spec: info.cite(revision).to_owned(),
            })
        }
        CheckId::Own(OwnCheck::LoadUnanswered) => Some(Check {
            rule: OwnCheck::LoadUnanswered.into(),
            level: Level::Must,
            spec: unanswered_spec(revision),
        }),
        CheckId::Own(_) | CheckId::Vector(_) | CheckId::Other(_) => None,
    }
}

/// A request unanswered within its time ([`UNANSWERED`]).
#[must_use]
pub fn unanswered(revision: Revision, detail: String) -> Finding {
    Finding {
        rule: OwnCheck::LoadUnanswered.into(),
        level: Level::Must,
        spec: unanswered_spec(revision),
        method: String::new(),
        detail,
        count: 1,
        first: (0, None),
        request: Vec::new(),
        answer: Vec::new(),
        violation: None,
    }
}

/// The rules an answer to `request` breaks: its id, its result's shape for
/// the request's method. An answer that does not lift breaks its refusal's
/// rule (a frame that is not JSON-RPC answers nothing).
#[must_use]
pub fn answer(revision: Revision, request: &[u8], reply: &[u8]) -> Vec<Violation> {
    match harness::lift(reply) {
        Ok(reply) => lifted(revision, request, &reply),
        Err(refusal) => of_refusal(&refusal).violation.into_iter().collect(),
    }
}

/// [`answer`] for a reply already lifted (each answer is lifted once).
#[must_use]
pub fn lifted(revision: Revision, request: &[u8], reply: &harness::Frame<'_>) -> Vec<Violation> {
    let Ok(request) = harness::lift(request) else {
        // Our own frame: it always lifts; nothing to judge against if not.
        return Vec::new();
    };
    harness::rules::validate_reply(
        &request,
        Some(reply),
        Profile {
            revision,
            direction: Direction::ClientToServer,
        },
    )
}

/// Whether the session judge's verdict on an answer to `method` may change
/// with a new answer to `list` (its latest list of that kind): the list
/// itself (compared with the one before), and what is judged against it
/// (harness `session::judge::lists`: a prompt got or completed against the
/// latest prompt list, a tool's output against the latest tool list). Any
/// other `…/list` is taken to change everything.
#[must_use]
pub fn rests_on_list(method: &str, list: &str) -> bool {
    match list {
        "prompts/list" => matches!(
            method,
            "prompts/list" | "prompts/get" | "completion/complete"
        ),
        "tools/list" => matches!(method, "tools/list" | "tools/call"),
        "resources/list" => method == "resources/list",
        _ => list.ends_with("/list"),
    }
}

/// The rule that an answer carries its request's id, as the revision words it.
#[must_use]
pub fn id_rule(revision: Revision) -> RuleId {
    match revision {
        Revision::JsonRpc2 => RuleId::JsonrpcResponseIdEcho,
        Revision::Mcp2024_11_05 | Revision::Mcp2025_03_26 | Revision::Mcp2025_06_18 => {
            RuleId::McpBaseResponseIdMatch
        }
        _ => RuleId::McpBaseResultResponseId,
    }
}

/// A finding as a report record: failed at MUST, warned at SHOULD, with its
/// count, the first exchange that showed it, and the sentence.
#[must_use]
pub fn record(f: &Finding, revision: Revision, transport: Kind) -> Record {
    // As the session judge's records: a MAY breaks no keyword, so it is a
    // pass with a note, never a warning.
    let outcome = match f.level {
        // Silence within a wait that ended shows nothing (see UNANSWERED).
        _ if f.rule == UNANSWERED => harness::Outcome::NotObserved {
            why: format!(
                "{} request(s) got no answer within --timeout, the first: {} (the answer may still come; no sentence bounds a server's time)",
                f.count, f.detail
            ),
        },
        level if level.is_mandatory() => harness::Outcome::Fail,
        Level::May => harness::Outcome::Pass,
        _ => harness::Outcome::Warning,
    };
    let mut record = Record::new(
        Place {
            vector: Some(format!("load/{}/{}", f.method, f.rule)),
            revision: Some(revision),
            transport: Some(transport.into()),
            ..Place::default()
        },
        Subject::Frame(f.answer.clone()),
        outcome,
    );
    record.check = Some(Check {
        rule: f.rule.clone(),
        level: f.level,
        spec: f.spec.clone(),
    });
    record.violations = f.violation.clone().map(|v| vec![v]);
    record.notes.push(f.detail.clone());
    let (session, id) = f.first;
    record.notes.push(format!(
        "{} time(s) under load; the first in session {}{}",
        f.count,
        session + 1,
        id.map_or_else(String::new, |id| format!(", request id {id}"))
    ));
    let quote = match &f.rule {
        CheckId::Rule(rule) => rule.info().quote,
        CheckId::Own(_) | CheckId::Vector(_) | CheckId::Other(_) => UNANSWERED_QUOTE,
    };
    record.notes.push(format!("spec: \"{quote}\""));
    for (from, bytes) in [
        (Direction::ClientToServer, &f.request),
        (Direction::ServerToClient, &f.answer),
    ] {
        if !bytes.is_empty() {
            record.wire.push(Frame::untimed(from, bytes.clone()));
        }
    }
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: Revision = Revision::Mcp2025_11_25;

    fn rules(v: &[Violation]) -> Vec<&str> {
        v.iter().map(|v| v.rule.as_str()).collect()
    }

    /// The shapes a cross-wired answer shows: `ping`'s `{}` delivered to a
    /// `tools/list`, a `tools/list` result delivered to a `ping`.
    #[test]
    fn a_cross_wired_answer_breaks_its_methods_shape() {
        let list = br#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#;
        let ping = br#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#;
        let empty = br#"{"jsonrpc":"2.0","id":5,"result":{}}"#;
        let tools = br#"{"jsonrpc":"2.0","id":5,"result":{"tools":[]}}"#;
        assert_eq!(answer(R, list, tools), Vec::new());
        assert_eq!(answer(R, ping, empty), Vec::new());
        assert_eq!(rules(&answer(R, list, empty)), ["mcp.schema.result"]);
        assert_eq!(rules(&answer(R, ping, tools)), ["mcp.ping.respond"]);
    }

    #[test]
    fn an_answer_with_another_id_breaks_the_id_rule() {
        let ping = br#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#;
        let other = br#"{"jsonrpc":"2.0","id":6,"result":{}}"#;
        assert_eq!(rules(&answer(R, ping, other)), [id_rule(R).as_str()]);
        assert_eq!(
            rules(&answer(R, ping, b"{not json")),
            ["json.syntax"],
            "garbage answers nothing"
        );
    }

    #[test]
    fn findings_are_counted_per_rule_and_method_with_the_first_kept() {
        let mut all = Findings::default();
        for session in 0..3 {
            let mut f = unanswered(R, format!("session {session}"));
            f.method = "ping".into();
            f.first = (session, Some(9));
            all.add(f);
        }
        assert_eq!(all.len(), 1);
        let f = all.iter().next().unwrap();
        assert_eq!(
            (f.count, f.first, f.detail.as_str()),
            (3, (0, Some(9)), "session 0")
        );
        let record = record(f, R, Kind::Stdio);
        assert!(
            matches!(&record.outcome, harness::Outcome::NotObserved { why } if why.starts_with("3 request(s)")),
            "silence is no verdict: {:?}",
            record.outcome
        );
        assert_eq!(record.check.as_ref().unwrap().rule, UNANSWERED);
        assert!(
            record.notes[1].starts_with("3 time(s)"),
            "{:?}",
            record.notes
        );
    }
}
