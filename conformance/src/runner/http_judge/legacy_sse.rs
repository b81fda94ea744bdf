//! The 2024-11-05 HTTP+SSE transport (basic/transports §HTTP with SSE): the
//! server's messages are SSE `message` events, and it provides two
//! endpoints, the SSE stream and the POST endpoint its `endpoint` event
//! names. Judged passively over the run's own exchanges; the stream's
//! `Origin` check is `security`'s.

use harness::rules::RuleId;

use super::{describe, essence, Filer};
use crate::transport::http::{FindingKind, HttpFact, HttpFinding};

impl Filer {
    /// 2024-11-05 basic/transports §HTTP with SSE, MUST: server messages
    /// are SSE `message` events. Evidence is an event past `endpoint`.
    pub(super) fn sse_message_events(&mut self, facts: &[&HttpFact], findings: &[&HttpFinding]) {
        let broken: Vec<String> = findings
            .iter()
            .filter(|f| f.kind == FindingKind::UnexpectedEventType)
            .map(|f| describe(f))
            .collect();
        // Evidence is an event the stream carried past `endpoint`:
        // a stream that carried none showed nothing (never a pass).
        let events: usize = facts
            .iter()
            .filter(|f| f.method == "GET")
            .map(|f| f.frames)
            .sum::<usize>()
            + broken.len();
        if events == 0 {
            self.not_observed(
                RuleId::McpHttpSseMessageEvent,
                "the SSE stream carried no event after `endpoint`".into(),
            );
        } else {
            let seen = vec![format!("{events} events after `endpoint`")];
            self.verdict(RuleId::McpHttpSseMessageEvent, broken, seen);
        }
    }

    /// 2024-11-05 basic/transports §HTTP with SSE, MUST: "The server MUST
    /// provide two endpoints: An SSE endpoint […]; A regular HTTP POST
    /// endpoint". The run's own exchanges show both: the stream's GET and
    /// the POSTs to the URI its `endpoint` event named.
    pub(super) fn sse_endpoints(&mut self, facts: &[&HttpFact]) {
        let rule = RuleId::McpHttpSseTwoEndpoints;
        let gets: Vec<&&HttpFact> = facts.iter().filter(|f| f.method == "GET").collect();
        let posts: Vec<&&HttpFact> = facts.iter().filter(|f| f.method == "POST").collect();
        if gets.is_empty() || posts.is_empty() {
            return self.not_observed(
                rule,
                format!(
                    "the run made {} stream GETs and {} POSTs; both are needed",
                    gets.len(),
                    posts.len()
                ),
            );
        }
        let mut broken: Vec<String> = gets
            .iter()
            .filter(|f| {
                f.status != 200 || essence(f.content_type.as_deref()) != "text/event-stream"
            })
            .map(|f| {
                format!(
                    "the SSE endpoint {} answered a GET {} with Content-Type {}",
                    f.url,
                    f.status,
                    f.content_type.as_deref().unwrap_or("(none)")
                )
            })
            .collect();
        let accepted = posts
            .iter()
            .filter(|f| (200..300).contains(&f.status))
            .count();
        if accepted == 0 {
            broken.push(format!(
                "none of the {} POSTs to the endpoint event's URI was accepted (2xx)",
                posts.len()
            ));
        }
        let seen = vec![format!(
            "{} stream GETs; {accepted} of {} POSTs accepted",
            gets.len(),
            posts.len()
        )];
        self.verdict(rule, broken, seen);
    }
}
