//! What a judged client's 2026-07-28 POSTs carried in their headers
//! (`serve --http --judge`): the `MCP-Protocol-Version` header on every POST,
//! `Mcp-Method` and `Mcp-Name` on the requests that need them, and the Base64
//! sentinel of `Mcp-Name` and `Mcp-Param-*` values (basic/transports/
//! streamable-http §Protocol Version Header, §Standard Request Headers,
//! §Value Encoding). One record per rule for the whole server, made only
//! when the client sent a session-free (2026-07-28) POST at all, so a run of
//! an earlier revision gets none.

use axum::http::HeaderMap;
use harness::rules::RuleId;
use harness::{Outcome, Revision};

use crate::report::{Record, RuleTally};

/// The most violations kept per rule; the rest are counted.
const KEEP: usize = 20;

/// What one rule saw over the server's life.
type Tally = RuleTally<KEEP>;

/// The header facts of every session-free POST, per rule.
#[derive(Debug, Default)]
pub(super) struct HeaderLog {
    version: Tally,
    standard: Tally,
    encoding: Tally,
}

impl HeaderLog {
    /// One session-free POST: its headers, and its body's method and name
    /// (`None`: a notification or response, which names no method header).
    pub fn see(&mut self, headers: &HeaderMap, request: Option<(&str, Option<&str>)>) {
        let what = request.map_or_else(
            || "a notification or response".to_owned(),
            |(m, _)| format!("a {m} request"),
        );
        self.version.check(
            (!headers.contains_key("mcp-protocol-version"))
                .then(|| format!("{what} was POSTed without an MCP-Protocol-Version header")),
        );
        if let Some((method, name)) = request {
            let named = matches!(method, "tools/call" | "resources/read" | "prompts/get");
            let missing: Vec<&str> = [
                (!headers.contains_key("mcp-method")).then_some("Mcp-Method"),
                (named && name.is_some() && !headers.contains_key("mcp-name"))
                    .then_some("Mcp-Name"),
            ]
            .into_iter()
            .flatten()
            .collect();
            self.standard.check(
                (!missing.is_empty())
                    .then(|| format!("{what} carried no {} header", missing.join(" or "))),
            );
        }
        for (name, value) in headers {
            let name = name.as_str();
            if name != "mcp-name" && !name.starts_with("mcp-param-") {
                continue;
            }
            self.encoding.check(
                encoding_fault(value.as_bytes())
                    .map(|fault| format!("{what}'s {name} header {fault}")),
            );
        }
    }

    /// One record per rule, if any session-free POST was seen.
    pub fn records(&self) -> Vec<Record> {
        if self.version.seen() == 0 {
            return Vec::new();
        }
        [
            (RuleId::McpHttpClientVersionHeader, &self.version, "POSTs"),
            (
                RuleId::McpHttpClientStandardHeaders,
                &self.standard,
                "requests",
            ),
            (
                RuleId::McpHttpClientSentinelEncoding,
                &self.encoding,
                "Mcp-Name or Mcp-Param-* headers",
            ),
        ]
        .into_iter()
        .map(|(rule, tally, what)| record(rule, tally, what))
        .collect()
    }
}

/// Why a mirrored header value breaks §Value Encoding, if it does: raw bytes
/// outside visible ASCII, space and tab (those go Base64), or the sentinel's
/// markers in another case ("MUST appear exactly as shown (lowercase)").
fn encoding_fault(value: &[u8]) -> Option<String> {
    if !value.iter().all(|b| matches!(b, 0x20..=0x7e | b'\t')) {
        return Some(format!(
            "carries raw bytes outside visible ASCII ({:?}), where the value must be Base64-encoded as =?base64?…?=",
            String::from_utf8_lossy(value)
        ));
    }
    let lower = value.to_ascii_lowercase();
    let sentinel = |v: &[u8]| v.starts_with(b"=?base64?") && v.ends_with(b"?=");
    (sentinel(&lower) && !sentinel(value)).then(|| {
        format!(
            "writes the sentinel's markers in another case ({:?}): they are case-sensitive and lowercase",
            String::from_utf8_lossy(value)
        )
    })
}

fn record(rule: RuleId, tally: &Tally, what: &str) -> Record {
    let revision = Revision::Mcp2026_07_28;
    let info = rule.info();
    let outcome = if tally.seen() == 0 {
        Outcome::NotObserved {
            why: format!("the client sent no {what}"),
        }
    } else if !tally.is_broken() {
        Outcome::Pass
    } else if info.level.is_mandatory() {
        Outcome::Fail
    } else {
        Outcome::Warning
    };
    let suffix = rule
        .as_str()
        .rsplit_once('.')
        .map_or(rule.as_str(), |(_, s)| s);
    let broken = tally.quoted();
    let mut record = Record::of_transport_rule(
        format!("http/{suffix}"),
        revision,
        Some(crate::transport::Kind::STREAMABLE_HTTP),
        rule,
        outcome,
        broken,
    );
    record.notes = vec![format!(
        "{} {what} of the client's session-free (2026-07-28) POSTs judged",
        tally.seen()
    )];
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn outcome(log: &HeaderLog, i: usize) -> Outcome {
        log.records()[i].outcome.clone()
    }

    #[test]
    fn headers_a_client_must_send_are_judged_per_post() {
        let mut log = HeaderLog::default();
        assert!(log.records().is_empty(), "no 2026-07-28 POST, no record");
        let mut good = HeaderMap::new();
        good.insert(
            "mcp-protocol-version",
            HeaderValue::from_static("2026-07-28"),
        );
        good.insert("mcp-method", HeaderValue::from_static("tools/call"));
        good.insert("mcp-name", HeaderValue::from_static("=?base64?IGVjaG8g?="));
        log.see(&good, Some(("tools/call", Some(" echo "))));
        assert_eq!(
            (0..3).map(|i| outcome(&log, i)).collect::<Vec<_>>(),
            [Outcome::Pass, Outcome::Pass, Outcome::Pass]
        );
        let mut bad = HeaderMap::new();
        bad.insert("mcp-method", HeaderValue::from_static("tools/call"));
        bad.insert(
            "mcp-param-region",
            HeaderValue::from_bytes("é".as_bytes()).unwrap(),
        );
        log.see(&bad, Some(("tools/call", Some("echo"))));
        assert_eq!(outcome(&log, 0), Outcome::Fail, "no MCP-Protocol-Version");
        assert_eq!(outcome(&log, 1), Outcome::Fail, "no Mcp-Name");
        assert_eq!(outcome(&log, 2), Outcome::Fail, "raw non-ASCII");
        assert!(encoding_fault(b"=?BASE64?eA==?=").is_some());
        assert!(encoding_fault(b"us-west1").is_none());
    }

    #[test]
    fn a_notification_needs_the_version_header_alone() {
        let mut log = HeaderLog::default();
        let mut sent = HeaderMap::new();
        sent.insert(
            "mcp-protocol-version",
            HeaderValue::from_static("2026-07-28"),
        );
        log.see(&sent, None);
        assert_eq!(outcome(&log, 0), Outcome::Pass);
        assert!(matches!(outcome(&log, 1), Outcome::NotObserved { .. }));
        assert!(matches!(outcome(&log, 2), Outcome::NotObserved { .. }));
    }
}
