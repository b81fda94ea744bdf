//! What a record checked: a rule of the catalogue or a check no rule names,
//! typed, so a view or a baseline tells a rule's verdict from a note.

use harness::rules::Level;

/// What a record checked: a rule of the catalogue, or one of the few checks
/// no rule names (the tool's own, such as `stdio.peer-exited` or a fuzz
/// invariant, or a vector judged by no rule), so a view or a baseline can
/// tell a rule's verdict from a note without parsing text.
///
/// Two ids are the same check when they name the same rule, or when they
/// are spelt alike: a name read back as [`CheckId::Other`] from a document
/// is the same check as the named variant that wrote it, and ids sort as
/// their spelling sorts (rules first, in catalogue order).
#[derive(Debug, Clone)]
pub enum CheckId {
    /// A rule of the catalogue.
    Rule(harness::rules::RuleId),
    /// One of wirecheck's own checks, which no rule of the catalogue names.
    Own(OwnCheck),
    /// A vector the catalogue judges by no rule, by the vector's id.
    Vector(String),
    /// A name this wirecheck does not know, read from a document another
    /// version wrote: kept as read, so the document still loads.
    Other(String),
}

/// What identifies a check: its rule, else its spelling.
#[derive(PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Key<'a> {
    Rule(harness::rules::RuleId),
    Named(&'a str),
}

impl CheckId {
    /// The check named `text`: the rule with that id, else one of
    /// wirecheck's own checks, else a name kept as read (a document may
    /// come from a wirecheck with other rules and checks).
    #[must_use]
    pub fn parse(text: &str) -> CheckId {
        if let Ok(rule) = text.parse() {
            return CheckId::Rule(rule);
        }
        OwnCheck::from_name(text).map_or_else(|| CheckId::Other(text.to_owned()), CheckId::Own)
    }

    /// The stable id as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            CheckId::Rule(rule) => rule.as_str(),
            CheckId::Own(own) => own.name(),
            CheckId::Vector(name) | CheckId::Other(name) => name,
        }
    }

    /// The rule, when the check is one.
    #[must_use]
    pub fn rule(&self) -> Option<harness::rules::RuleId> {
        match self {
            CheckId::Rule(rule) => Some(*rule),
            CheckId::Own(_) | CheckId::Vector(_) | CheckId::Other(_) => None,
        }
    }

    fn key(&self) -> Key<'_> {
        match self {
            CheckId::Rule(rule) => Key::Rule(*rule),
            _ => Key::Named(self.as_str()),
        }
    }
}

impl PartialEq for CheckId {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for CheckId {}

impl std::hash::Hash for CheckId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl PartialOrd for CheckId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for CheckId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl From<harness::rules::RuleId> for CheckId {
    fn from(rule: harness::rules::RuleId) -> Self {
        CheckId::Rule(rule)
    }
}

impl From<OwnCheck> for CheckId {
    fn from(own: OwnCheck) -> Self {
        CheckId::Own(own)
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

/// One of wirecheck's own checks: what the runner, `load` and `fuzz` judge
/// that no rule of the catalogue names, each with its one spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OwnCheck {
    /// A stdio peer exited, or stopped reading, during the run. Not a rule:
    /// a stdio server may exit (MCP basic/lifecycle §Shutdown), so its exit
    /// is a warning for a person to read, never a violation; the requests
    /// it left unanswered fail in their own records.
    PeerExited,
    /// A stdio server wrote text that is no frame on stdout.
    StdoutText,
    /// HTTP trouble no transport sentence names, for a person to read.
    HttpExchanges,
    /// A session the session judge could not judge.
    SessionUnjudged,
    /// `load`: a request unanswered within its time.
    LoadUnanswered,
    /// A fuzz invariant broken where no rule states it.
    Fuzz(Invariant),
    /// A failing record that names no check, no violation and no refusal:
    /// its defect is filed under the empty name.
    Unnamed,
}

impl OwnCheck {
    /// Every own check, in order.
    pub const ALL: [OwnCheck; 18] = [
        OwnCheck::PeerExited,
        OwnCheck::StdoutText,
        OwnCheck::HttpExchanges,
        OwnCheck::SessionUnjudged,
        OwnCheck::LoadUnanswered,
        OwnCheck::Fuzz(Invariant::Unanswered),
        OwnCheck::Fuzz(Invariant::AnsweredTwice),
        OwnCheck::Fuzz(Invariant::IdNotEchoed),
        OwnCheck::Fuzz(Invariant::NotificationAnswered),
        OwnCheck::Fuzz(Invariant::Reply),
        OwnCheck::Fuzz(Invariant::PeerFrame),
        OwnCheck::Fuzz(Invariant::SilentDrop),
        OwnCheck::Fuzz(Invariant::ErrorIdNotNull),
        OwnCheck::Fuzz(Invariant::Crash),
        OwnCheck::Fuzz(Invariant::Hang),
        OwnCheck::Fuzz(Invariant::MemoryGrowth),
        OwnCheck::Fuzz(Invariant::HttpFailure),
        OwnCheck::Unnamed,
    ];

    /// The check's stable name, as every record and baseline writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            OwnCheck::PeerExited => "stdio.peer-exited",
            OwnCheck::StdoutText => "stdio.stdout-text",
            OwnCheck::HttpExchanges => "http.exchanges",
            OwnCheck::SessionUnjudged => "run.session-unjudged",
            OwnCheck::LoadUnanswered => "load.unanswered",
            OwnCheck::Fuzz(invariant) => invariant.name(),
            OwnCheck::Unnamed => "",
        }
    }

    /// The own check named `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<OwnCheck> {
        OwnCheck::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// What kind of invariant a fuzzed peer broke (`fuzz`'s findings): here,
/// below the fuzzer, so a record can name the rule-less ones as checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Invariant {
    /// A request got no answer (JSON-RPC 2.0 §5: "the Server MUST reply").
    Unanswered,
    /// A request got more than one answer.
    AnsweredTwice,
    /// The answer's id is not the request's (type and value, exactly).
    IdNotEchoed,
    /// A notification was answered (JSON-RPC 2.0 §4.1 MUST NOT).
    NotificationAnswered,
    /// Another rule of the exchange (a result missing a required member).
    Reply,
    /// A frame the peer sent breaks a rule on its own (does not lift, or
    /// breaks its revision's rules).
    PeerFrame,
    /// An unreadable or invalid frame got nothing back (JSON-RPC 2.0 §5, §7).
    SilentDrop,
    /// An unreadable frame's error does not carry `"id": null`.
    ErrorIdNotNull,
    /// The peer exited, or stopped reading.
    Crash,
    /// The peer stopped answering the liveness ping.
    Hang,
    /// The peer's resident memory kept growing over the run.
    MemoryGrowth,
    /// Over HTTP, HTTP itself failed: a 5xx, a reset, a body or stream cut
    /// short, malformed SSE, an exchange past the timeout.
    HttpFailure,
}

impl Invariant {
    /// The kind's stable name (file names, report ids).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Invariant::Unanswered => "unanswered",
            Invariant::AnsweredTwice => "answered-twice",
            Invariant::IdNotEchoed => "id-not-echoed",
            Invariant::NotificationAnswered => "notification-answered",
            Invariant::Reply => "reply-rule",
            Invariant::PeerFrame => "peer-frame-invalid",
            Invariant::SilentDrop => "silent-drop",
            Invariant::ErrorIdNotNull => "error-id-not-null",
            Invariant::Crash => "crash",
            Invariant::Hang => "hang",
            Invariant::MemoryGrowth => "memory-growth",
            Invariant::HttpFailure => "http-failure",
        }
    }

    /// The kind named `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Invariant> {
        OwnCheck::ALL.into_iter().find_map(|c| match c {
            OwnCheck::Fuzz(invariant) if invariant.name() == name => Some(invariant),
            _ => None,
        })
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

#[cfg(test)]
mod check_id_tests {
    use super::*;
    use crate::{document, Command, Outcome, Place, Record, Report, Subject};
    use harness::rules::RuleId;

    /// A record's check is typed: a rule of the catalogue reads back as that
    /// rule, a note no rule names as itself, and both print their stable id.
    #[test]
    fn check_ids_tell_a_rule_from_a_note() {
        let rule = CheckId::parse("mcp.http.origin-403");
        assert_eq!(rule, CheckId::Rule(RuleId::McpHttpOrigin403));
        assert_eq!(rule.rule(), Some(RuleId::McpHttpOrigin403));
        let note = CheckId::parse("stdio.peer-exited");
        assert!(matches!(note, CheckId::Own(OwnCheck::PeerExited)));
        assert_eq!(note.rule(), None);
        assert_eq!(note.to_string(), "stdio.peer-exited");
        assert!(rule == "mcp.http.origin-403");
        // Compared with a name, as `&str` and as `str`: equal to its own only.
        assert!(rule == *"mcp.http.origin-403" && note == *"stdio.peer-exited");
        assert!(rule != *"stdio.peer-exited" && note != *"mcp.http.origin-403");
        assert!(rule != "stdio.peer-exited" && note != "mcp.http.origin-403");
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

    /// Every own check reads back from its spelling as itself, through the
    /// run document too, and writes the same text.
    #[test]
    fn every_own_check_reads_back() {
        let mut report = Report::new(Command::Run);
        for own in OwnCheck::ALL {
            let read = CheckId::parse(own.name());
            assert!(
                matches!(read, CheckId::Own(o) if o == own),
                "{}",
                own.name()
            );
            assert_eq!(read.to_string(), own.name());
            let mut record =
                Record::new(Place::default(), Subject::Frame(Vec::new()), Outcome::Pass);
            record.check = Some(Check {
                rule: own.into(),
                level: harness::rules::Level::Must,
                spec: "s".into(),
            });
            report.records.push(record);
        }
        let text = String::from_utf8(document::to_vec(&report)).unwrap();
        for own in OwnCheck::ALL {
            let member = format!("\"rule\": \"{}\"", own.name());
            assert!(text.contains(&member), "{member}");
        }
        let back = document::from_slice(text.as_bytes()).unwrap();
        let read: Vec<CheckId> = back
            .records
            .into_iter()
            .map(|r| r.check.unwrap().rule)
            .collect();
        for (read, own) in read.iter().zip(OwnCheck::ALL) {
            assert!(matches!(read, CheckId::Own(o) if *o == own), "{read:?}");
        }
    }

    /// A name no rule or own check of this wirecheck has (a document another
    /// version wrote) still loads, kept as read, and is the same check as
    /// one spelt alike.
    #[test]
    fn an_unknown_check_name_still_loads() {
        let mut report = Report::new(Command::Run);
        let mut record = Record::new(Place::default(), Subject::Frame(Vec::new()), Outcome::Fail);
        record.check = Some(Check {
            rule: CheckId::Other("stdio.banner-sent".into()),
            level: harness::rules::Level::Must,
            spec: "s".into(),
        });
        report.records.push(record);
        let back = document::from_slice(&document::to_vec(&report)).unwrap();
        let rule = &back.records[0].check.as_ref().unwrap().rule;
        assert!(matches!(rule, CheckId::Other(name) if name == "stdio.banner-sent"));
        assert_eq!(CheckId::Other("x/y".into()), CheckId::Vector("x/y".into()));
        assert_eq!(
            CheckId::Other("stdio.peer-exited".into()),
            CheckId::Own(OwnCheck::PeerExited)
        );
    }
}
