//! The one filer of a revision's transport checks: the HTTP probes of
//! [`super::http_judge`] and the stdio checks made once a revision's
//! sessions closed ([`super::stdio_shutdown`]) file their verdicts here, each
//! as `run/<revision>/<http|stdio>/<rule>` with the exchanges it rests on.
//! A verdict on a rule the catalogue does not hold under the revision is
//! dropped here, in one place.

use harness::rules::RuleId;
use harness::{Outcome, Revision};

use crate::report::{HttpExchange, Record};
use crate::transport::http::HttpFact;
use crate::transport::Kind;

/// The records of a revision's transport checks as they are filed.
pub(crate) struct Filer {
    pub(crate) revision: Revision,
    pub(crate) kind: Kind,
    pub(crate) records: Vec<Record>,
    /// The exchanges the next record rests on ([`Filer::exhibit`]).
    pub(crate) shown: Vec<HttpExchange>,
}

/// The most exchanges one record shows: enough to see the defect, never the
/// whole run.
const MAX_SHOWN: usize = 3;

/// What a report shows of `fact`.
pub(crate) fn exchange_of(fact: &HttpFact) -> HttpExchange {
    let response_headers = fact
        .content_type
        .iter()
        .map(|ct| ("content-type".to_owned(), ct.clone()))
        .chain(fact.headers.iter().cloned())
        .collect();
    HttpExchange {
        method: fact.method.clone(),
        url: fact.url.clone(),
        request_headers: fact.exhibit.request_headers.clone(),
        request_body: fact.exhibit.request_body.clone(),
        status: fact.status,
        response_headers,
        response_body: fact.exhibit.response_body.clone(),
    }
}

/// What a probe saw: the status, or why there was none.
type Status = Result<u16, String>;

/// What a probe's request got: its exchange, or why there was none.
pub(crate) type Seen = Result<HttpFact, String>;

impl Filer {
    /// A filer of `revision`'s checks over `kind` with no record yet.
    pub(crate) fn new(revision: Revision, kind: Kind) -> Filer {
        Filer {
            revision,
            kind,
            records: Vec::new(),
            shown: Vec::new(),
        }
    }

    /// Shows `facts` (the first [`MAX_SHOWN`]) with the next record filed:
    /// the exchanges its verdict rests on.
    pub(crate) fn exhibit<'f>(&mut self, facts: impl IntoIterator<Item = &'f HttpFact>) {
        let room = MAX_SHOWN.saturating_sub(self.shown.len());
        self.shown
            .extend(facts.into_iter().take(room).map(exchange_of));
    }

    /// Shows `exchange` with the next record filed (one a probe made
    /// outside a transport, so no fact holds it).
    pub(crate) fn show(&mut self, exchange: HttpExchange) {
        if self.shown.len() < MAX_SHOWN {
            self.shown.push(exchange);
        }
    }

    /// The status of what a probe's request got, its exchange shown with the
    /// next record filed.
    pub(crate) fn status(&mut self, seen: Seen) -> Status {
        seen.map(|fact| {
            self.exhibit([&fact]);
            fact.status
        })
    }

    fn record(
        &mut self,
        rule: RuleId,
        outcome: Outcome,
        violations: Vec<String>,
        notes: Vec<String>,
    ) {
        let suffix = rule
            .as_str()
            .rsplit_once('.')
            .map_or(rule.as_str(), |(_, s)| s);
        let area = match self.kind {
            Kind::Stdio => "stdio",
            Kind::Http(_) => "http",
        };
        let mut record = Record::of_transport_rule(
            format!("run/{}/{area}/{suffix}", self.revision),
            self.revision,
            Some(self.kind),
            rule,
            outcome,
            violations,
        );
        record.notes = notes;
        record.http = std::mem::take(&mut self.shown);
        self.records.push(record);
    }

    /// Pass when nothing broke the rule, else a failure at its level (a
    /// SHOULD fails as a warning, as the library judge does).
    pub(crate) fn verdict(&mut self, rule: RuleId, broken: Vec<String>, notes: Vec<String>) {
        if !rule.info().revisions.contains(self.revision) {
            // The exchange shown for this record is no later record's.
            self.shown.clear();
            return;
        }
        let outcome = if broken.is_empty() {
            Outcome::Pass
        } else if rule.info().level.is_mandatory() {
            Outcome::Fail
        } else {
            Outcome::Warning
        };
        self.record(rule, outcome, broken, notes);
    }

    pub(crate) fn not_applicable(&mut self, rule: RuleId, why: String) {
        if rule.info().revisions.contains(self.revision) {
            self.record(rule, Outcome::NotApplicable { why }, Vec::new(), Vec::new());
        } else {
            self.shown.clear();
        }
    }

    pub(crate) fn not_observed(&mut self, rule: RuleId, why: String) {
        if rule.info().revisions.contains(self.revision) {
            self.record(rule, Outcome::NotObserved { why }, Vec::new(), Vec::new());
        } else {
            self.shown.clear();
        }
    }
}
