//! The HTTP status an error answer must have, judged passively: every
//! Streamable HTTP exchange of the run (its sessions' and the probes') whose
//! response carried a JSON-RPC error with one of these codes.
//!
//! 2026-07-28 basic/index §_meta › Per-request protocol fields, MUST: "If
//! processing a request requires a capability the client did not include in
//! `io.modelcontextprotocol/clientCapabilities`, the server MUST return a
//! `MissingRequiredClientCapabilityError` (`-32021`) […]. On HTTP, the
//! response status MUST be `400 Bad Request`." The schema's comment on
//! `MissingRequiredClientCapabilityError` says the same.
//!
//! The runner cannot make a server need an undeclared capability on purpose,
//! so it never provokes a -32021; it judges the ones it sees. An SSE answer
//! is judged as a JSON one: 2026-07-28 basic/transports/streamable-http
//! §Sending Messages 6 lets a server answer any request with either, and
//! names no status of its own for an error answer, so the sentence above
//! decides it. A stream opened with 200 sent its status before the error it
//! carries, and breaks the sentence as a 200 JSON body does; a 400 stream
//! keeps it.

use harness::rules::RuleId;

use super::{essence, Filer};
use crate::transport::http::HttpFact;

/// Each error code whose answer over HTTP must be `400 Bad Request`, with the
/// rule that says so and the error's schema name.
///
/// Each of the three is the schema's "For HTTP, the response status code
/// MUST be 400 Bad Request" on that error; -32020 and -32022 also have a
/// probe that provokes one (mcp.http.header-mismatch-400,
/// mcp.http.protocol-version-400), and these hold every other answer with
/// the code to the same status.
const MUST_BE_400: &[(i64, RuleId, &str)] = &[
    (
        -32021,
        RuleId::McpHttpMissingCapability400,
        "MissingRequiredClientCapabilityError",
    ),
    (
        -32020,
        RuleId::McpHttpHeaderMismatchError400,
        "HeaderMismatchError",
    ),
    (
        -32022,
        RuleId::McpHttpUnsupportedVersionError400,
        "UnsupportedProtocolVersionError",
    ),
];

/// The rules of [`MUST_BE_400`], as the transport judge's table names them.
pub(super) const RULES: &[RuleId] = &[
    RuleId::McpHttpMissingCapability400,
    RuleId::McpHttpHeaderMismatchError400,
    RuleId::McpHttpUnsupportedVersionError400,
];

/// One record per rule of [`MUST_BE_400`] that applies to the revision.
pub(super) fn judge(judge: &mut Filer, facts: &[&HttpFact]) {
    for &(code, rule, name) in MUST_BE_400 {
        let (broken, seen) = breaches(facts, code, name);
        if seen == 0 {
            judge.not_observed(
                rule,
                format!("no exchange was answered with a {code} {name}"),
            );
        } else {
            let shown = vec![format!("{seen} exchanges answered with a {code} {name}")];
            judge.exhibit(
                facts
                    .iter()
                    .copied()
                    .filter(|f| f.error_codes.contains(&code) && f.status != 400),
            );
            judge.verdict(rule, broken, shown);
        }
    }
}

/// The exchanges carrying a `code` answer whose status is not 400, described,
/// and how many exchanges carried one at all.
fn breaches(facts: &[&HttpFact], code: i64, name: &str) -> (Vec<String>, usize) {
    let carrying: Vec<&HttpFact> = facts
        .iter()
        .copied()
        .filter(|f| f.error_codes.contains(&code))
        .collect();
    let broken = carrying
        .iter()
        .filter(|f| f.status != 400)
        .map(|f| {
            let how = if essence(f.content_type.as_deref()) == "text/event-stream" {
                "on an SSE stream opened with HTTP"
            } else {
                "with HTTP"
            };
            format!(
                "a {} to {} was answered with a {code} {name} {how} {}, not 400 Bad Request",
                f.method, f.url, f.status
            )
        })
        .collect();
    (broken, carrying.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(status: u16, content_type: &str, error_codes: Vec<i64>) -> HttpFact {
        HttpFact {
            status,
            content_type: Some(content_type.into()),
            frames: error_codes.len().max(1),
            ended_after_answer: None,
            error_codes,
            ..crate::runner::facts_for_tests::sse_answer()
        }
    }

    const NAME: &str = "MissingRequiredClientCapabilityError";

    #[test]
    fn a_400_answer_keeps_the_rule_and_counts_as_seen() {
        let json = fact(400, "application/json", vec![-32021]);
        let sse = fact(400, "text/event-stream", vec![-32021]);
        assert_eq!(breaches(&[&json, &sse], -32021, NAME), (Vec::new(), 2));
    }

    #[test]
    fn a_200_answer_breaks_it_on_json_and_on_sse() {
        let json = fact(200, "application/json", vec![-32021]);
        let sse = fact(200, "text/event-stream; charset=utf-8", vec![-32021]);
        let (broken, seen) = breaches(&[&json, &sse], -32021, NAME);
        assert_eq!(seen, 2);
        assert_eq!(broken.len(), 2, "{broken:?}");
        assert!(
            broken[0].contains("with HTTP 200, not 400"),
            "{}",
            broken[0]
        );
        assert!(
            broken[1].contains("on an SSE stream opened with HTTP 200"),
            "{}",
            broken[1]
        );
    }

    #[test]
    fn other_codes_and_results_are_not_seen() {
        let other = fact(200, "application/json", vec![-32602]);
        let result = fact(200, "application/json", Vec::new());
        assert_eq!(breaches(&[&other, &result], -32021, NAME), (Vec::new(), 0));
    }
}
