//! §Sending Messages to the Server (2025-03-26 to 2025-11-25
//! basic/transports §Streamable HTTP; 2026-07-28 basic/transports/
//! streamable-http §Sending Messages and §Receiving Messages): what the
//! server answers a POST with, judged passively over every exchange of the
//! run (its sessions' and, where they ran, the probes'): 202 for a
//! notification or response, `application/json` or `text/event-stream` for a
//! request, an SSE stream that carries its response, opens with a priming
//! event, ends after its response and is not buffered, and a single endpoint
//! that takes POST.

use harness::rules::RuleId;

use super::{describe, essence, snippet, Filer};
use crate::transport::http::{FindingKind, HttpFact, HttpFinding, SSE_ENDED_UNANSWERED};

impl Filer {
    /// The rules every Streamable HTTP exchange of the run is held to.
    pub(super) fn streamable_facts(&mut self, facts: &[&HttpFact], findings: &[&HttpFinding]) {
        let posts = facts.iter().filter(|f| f.method == "POST");
        let (requests, others): (Vec<&&HttpFact>, Vec<&&HttpFact>) =
            posts.partition(|f| f.expected_answer);
        let not_202: Vec<&HttpFact> = others
            .iter()
            .map(|f| **f)
            .filter(|f| (200..300).contains(&f.status) && f.status != 202)
            .collect();
        let mut broken: Vec<String> = not_202
            .iter()
            .map(|f| {
                format!(
                    "a notification or response POSTed to {} was answered {}, not 202 Accepted",
                    f.url, f.status
                )
            })
            .collect();
        broken.extend(
            findings
                .iter()
                .filter(|f| f.kind == FindingKind::UnexpectedBody)
                .map(|f| describe(f)),
        );
        let refused = others.iter().filter(|f| f.status >= 400).count();
        let notes = if refused > 0 {
            vec![format!(
                "{refused} notification POSTs were refused with an HTTP error status (allowed)"
            )]
        } else {
            Vec::new()
        };
        if others.is_empty() {
            self.not_observed(
                RuleId::McpHttpNotification202,
                "no notification was POSTed".into(),
            );
        } else {
            self.exhibit(not_202);
            self.verdict(RuleId::McpHttpNotification202, broken, notes);
        }

        // "If the input contains any number of JSON-RPC requests": a POST
        // holding none (`[]`, a frame that is no JSON) is outside the
        // sentence, whatever is owed to it (its silence is the vector's).
        let requests: Vec<_> = requests.into_iter().filter(|f| f.holds_request).collect();
        let mistyped: Vec<&HttpFact> = requests
            .iter()
            .map(|f| **f)
            .filter(|f| (200..300).contains(&f.status))
            .filter(|f| {
                !matches!(
                    essence(f.content_type.as_deref()).as_str(),
                    "application/json" | "text/event-stream"
                )
            })
            .collect();
        let mut broken: Vec<String> = mistyped
            .iter()
            .map(|f| {
                format!(
                    "a request POSTed to {} was answered {} with Content-Type {}",
                    f.url,
                    f.status,
                    f.content_type.as_deref().unwrap_or("(none)")
                )
            })
            .collect();
        broken.extend(
            findings
                .iter()
                .filter(|f| f.kind == FindingKind::WrongContentType)
                .map(|f| describe(f)),
        );
        broken.dedup();
        // Evidence is a request answered 2xx (whose Content-Type the rule
        // is about): none seen is not observed, never a pass.
        let answered = requests
            .iter()
            .filter(|f| (200..300).contains(&f.status))
            .count();
        if answered == 0 && broken.is_empty() {
            self.not_observed(
                RuleId::McpHttpRequestContentType,
                "no request POST was answered 2xx".into(),
            );
        } else {
            let seen = vec![format!("{answered} request POSTs answered 2xx")];
            self.exhibit(mistyped);
            self.verdict(RuleId::McpHttpRequestContentType, broken, seen);
        }
    }

    /// 2025-03-26 and 2025-06-18 §Sending Messages to the Server 6: a
    /// request's SSE stream carries its response before it ends.
    pub(super) fn sse_answers(&mut self, facts: &[&HttpFact], findings: &[&HttpFinding]) {
        let rule = RuleId::McpHttpSseStreamAnswers;
        let streams = facts
            .iter()
            .filter(|f| f.method == "POST" && f.expected_answer)
            .filter(|f| essence(f.content_type.as_deref()) == "text/event-stream")
            .count();
        if streams == 0 {
            return self.not_observed(rule, "no request was answered with an SSE stream".into());
        }
        let broken = findings
            .iter()
            .filter(|f| f.kind == FindingKind::NoAnswer && f.detail == SSE_ENDED_UNANSWERED)
            .map(|f| describe(f))
            .collect();
        let seen = vec![format!("{streams} requests answered with an SSE stream")];
        self.verdict(rule, broken, seen);
    }

    /// 2026-07-28 basic/transports/streamable-http, MUST: "The server MUST
    /// provide a single HTTP endpoint path […] that supports POST." Every
    /// POST of the run went to the one URL given; none may be refused as a
    /// method the path does not allow, and some must be taken.
    pub(super) fn endpoint_post(&mut self, facts: &[&HttpFact]) {
        let rule = RuleId::McpHttpEndpointPost;
        let posts: Vec<&&HttpFact> = facts.iter().filter(|f| f.method == "POST").collect();
        if posts.is_empty() {
            return self.not_observed(rule, "the run POSTed nothing".into());
        }
        let mut broken: Vec<String> = posts
            .iter()
            .filter(|f| f.status == 405)
            .map(|f| format!("a POST to {} was answered 405 Method Not Allowed", f.url))
            .collect();
        broken.dedup();
        let accepted = posts
            .iter()
            .filter(|f| (200..300).contains(&f.status))
            .count();
        if accepted == 0 {
            broken.push(format!(
                "none of the {} POSTs was answered 2xx",
                posts.len()
            ));
        }
        let seen = vec![format!("{accepted} of {} POSTs answered 2xx", posts.len())];
        self.verdict(rule, broken, seen);
    }

    /// How each request's SSE stream ended: 2025-11-25 §Sending Messages to
    /// the Server 6, SHOULD: "After the JSON-RPC _response_ has been sent,
    /// the server SHOULD terminate the SSE stream"; 2026-07-28 §Receiving
    /// Messages: "The final JSON-RPC _response_ SHOULD terminate the stream".
    pub(super) fn sse_ends_after_response(&mut self, facts: &[&HttpFact]) {
        let streams: Vec<&&HttpFact> = facts
            .iter()
            .filter(|f| f.method == "POST" && f.expected_answer)
            .filter(|f| essence(f.content_type.as_deref()) == "text/event-stream")
            .collect();
        let rule = RuleId::McpHttpSseEndsAfterResponse;
        let ended = streams
            .iter()
            .filter(|f| f.ended_after_answer == Some(true))
            .count();
        let open: Vec<String> = streams
            .iter()
            .filter(|f| f.ended_after_answer == Some(false))
            .map(|f| {
                format!(
                    "an SSE stream answering a POST to {} was still open at the request timeout, after its response",
                    f.url
                )
            })
            .collect();
        if ended == 0 && open.is_empty() {
            return self.not_observed(
                rule,
                "no request stream that carried a response was seen to end or to outlast the request timeout".into(),
            );
        }
        let seen = vec![format!(
            "{ended} request streams ended after their response, {} stayed open",
            open.len()
        )];
        self.verdict(rule, open, seen);
    }

    /// §Receiving Messages: every POST answered with an SSE stream carries
    /// `X-Accel-Buffering: no`.
    pub(super) fn sse_buffering(&mut self, facts: &[&HttpFact]) {
        let rule = RuleId::McpHttpSseNoBuffering;
        let streams: Vec<&&HttpFact> = facts
            .iter()
            .filter(|f| f.method == "POST")
            .filter(|f| essence(f.content_type.as_deref()) == "text/event-stream")
            .collect();
        if streams.is_empty() {
            return self.not_observed(rule, "no POST was answered with an SSE stream".into());
        }
        let broken = streams
            .iter()
            .filter(|f| {
                !f.headers
                    .iter()
                    .any(|(n, v)| n == "x-accel-buffering" && v.trim().eq_ignore_ascii_case("no"))
            })
            .map(|f| {
                format!(
                    "the SSE answer to a POST to {} carried no `X-Accel-Buffering: no`",
                    f.url
                )
            })
            .collect();
        let seen = vec![format!(
            "{} POSTs answered with an SSE stream",
            streams.len()
        )];
        self.verdict(rule, broken, seen);
    }
}

/// `mcp.http.sse-priming-event` over every POST of the run answered with an
/// SSE stream whose first event block the transport read.
pub(super) fn priming(judge: &mut Filer, facts: &[&HttpFact]) {
    let rule = RuleId::McpHttpSsePrimingEvent;
    let streams: Vec<&HttpFact> = facts
        .iter()
        .copied()
        .filter(|f| f.method == "POST" && (200..300).contains(&f.status))
        .filter(|f| essence(f.content_type.as_deref()) == "text/event-stream")
        .collect();
    let (broken, judged) = priming_breaches(&streams);
    if judged == 0 {
        let why = if streams.is_empty() {
            "no POST was answered with an SSE stream".to_owned()
        } else {
            format!(
                "{} POSTs were answered with an SSE stream, none with a whole first event block read",
                streams.len()
            )
        };
        return judge.not_observed(rule, why);
    }
    let notes = vec![format!(
        "{judged} POST SSE streams judged on their first event"
    )];
    judge.verdict(rule, broken, notes);
}

/// Of `streams`, the breaches (a first event that is no priming event) and
/// how many were judged.
fn priming_breaches(streams: &[&HttpFact]) -> (Vec<String>, usize) {
    let mut broken = Vec::new();
    let mut judged = 0;
    for first in streams.iter().filter_map(|f| f.first_event.as_ref()) {
        judged += 1;
        let has_id = first.id.as_deref().is_some_and(|id| !id.is_empty());
        let empty = first.data.as_deref().is_none_or(str::is_empty);
        if !(has_id && empty) && broken.len() < 8 {
            broken.push(format!(
                "a POST's SSE stream opened with an event of id {:?} and data {:?}, not an event id with empty data",
                first.id.as_deref().unwrap_or(""),
                snippet(first.data.as_deref().unwrap_or("").as_bytes())
            ));
        }
    }
    (broken, judged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::http::FirstEvent;

    fn fact(first_event: Option<FirstEvent>) -> HttpFact {
        HttpFact {
            first_event,
            ..crate::runner::facts_for_tests::sse_answer()
        }
    }

    fn first(id: Option<&str>, data: Option<&str>) -> Option<FirstEvent> {
        Some(FirstEvent {
            id: id.map(str::to_owned),
            data: data.map(str::to_owned),
        })
    }

    #[test]
    fn priming_events() {
        let primed = [
            fact(first(Some("7"), None)),
            fact(first(Some("7"), Some(""))),
        ];
        let refs: Vec<&HttpFact> = primed.iter().collect();
        assert_eq!(
            priming_breaches(&refs),
            (Vec::new(), 2),
            "y_: id, no or empty data"
        );
        let unprimed = [
            fact(first(None, Some("{}"))),
            fact(first(Some("1"), Some("{}"))),
            fact(first(Some(""), None)),
        ];
        let refs: Vec<&HttpFact> = unprimed.iter().collect();
        let (broken, judged) = priming_breaches(&refs);
        assert_eq!((broken.len(), judged), (3, 3), "n_: {broken:?}");
        let unread = [fact(None)];
        let refs: Vec<&HttpFact> = unread.iter().collect();
        assert_eq!(
            priming_breaches(&refs),
            (Vec::new(), 0),
            "nothing read: not judged"
        );
    }
}
