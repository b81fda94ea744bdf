//! §Protocol Version Header (2025-06-18 on, basic/transports §Streamable
//! HTTP; 2026-07-28 basic/transports/streamable-http): an unsupported
//! `MCP-Protocol-Version` is refused with 400; from 2026-07-28 a header
//! naming another version than the body's `_meta` is refused with 400 and
//! -32020, read whatever the case of its name (§Case Sensitivity), and an
//! unknown method is 404 with -32601.

use harness::rules::RuleId;
use harness::Revision;
use reqwest::header::{HeaderName, HeaderValue};

use super::server_validation::{code_text, one_request, Answer};
use super::{handshaken, ping, streamable, Filer, Target, HEADER_MISMATCH};
use crate::transport::http::HttpFact;

/// 2026-07-28 schema `UnsupportedProtocolVersionError`.
const UNSUPPORTED_VERSION: i64 = -32022;
/// A method no server implements.
const NO_SUCH_METHOD: &str = "wirecheck/no-such-method";
/// A protocol version no server supports.
const BOGUS_VERSION: &str = "1999-01-01";

impl Filer {
    /// An unsupported `MCP-Protocol-Version` on a request of a live session.
    pub(super) async fn protocol_version(&mut self, revision: Revision, target: &Target<'_>) {
        let rule = RuleId::McpHttpProtocolVersion400;
        let mut driver = match handshaken(revision, target, None).await {
            Ok(d) => d,
            Err(why) => return self.not_observed(rule, why),
        };
        streamable(&mut driver).set_protocol_version(Some(BOGUS_VERSION.into()));
        // 2026-07-28 requests carry their version in `_meta`, and the
        // transport derives the header from it: set it over that too.
        streamable(&mut driver).set_header(
            HeaderName::from_static("mcp-protocol-version"),
            HeaderValue::from_static(BOGUS_VERSION),
        );
        let seen = ping(&mut driver, revision, target).await;
        match self.status(seen) {
            Ok(400) => self.verdict(rule, Vec::new(), Vec::new()),
            Ok(status) => self.verdict(
                rule,
                vec![format!("a request with `MCP-Protocol-Version: {BOGUS_VERSION}` was answered {status}, not 400")],
                Vec::new(),
            ),
            Err(why) => self.not_observed(rule, why),
        }
        let (wire, _) = driver.into_parts();
        wire.close(target.shutdown_grace).await;
    }

    /// §Protocol Version Header: a header naming another version than the
    /// body's `_meta` is refused with 400 and -32020.
    pub(super) async fn version_mismatch(
        &mut self,
        revision: Revision,
        target: &Target<'_>,
    ) -> Vec<HttpFact> {
        let rule = RuleId::McpHttpVersionHeaderMismatch400;
        let headers = [("mcp-protocol-version", "2025-11-25".to_owned())];
        let answer = match one_request(revision, target, "server/discover", None, &headers).await {
            Ok(a) => a,
            Err(why) => {
                self.not_observed(rule, why);
                return Vec::new();
            }
        };
        let shown = format!(
            "a server/discover with `MCP-Protocol-Version: 2025-11-25` and `_meta` 2026-07-28 was answered {} with {}",
            answer.status,
            code_text(answer.code)
        );
        self.exhibit([&answer.exchange]);
        self.header_names_any_case(&answer, &shown);
        self.exhibit([&answer.exchange]);
        let broken = match (answer.status, answer.code) {
            (400, Some(HEADER_MISMATCH)) => Vec::new(),
            (400, Some(UNSUPPORTED_VERSION)) => {
                let note = format!("{shown}: refused as an unsupported version, which the next sentence of the section requires; the page orders neither check");
                self.verdict(rule, Vec::new(), vec![note]);
                return answer.facts;
            }
            (200..=299, _) => vec![format!("{shown}: the mismatch was accepted")],
            _ => vec![format!("{shown}, not 400 with -32020 HeaderMismatch")],
        };
        self.verdict(rule, broken, vec![shown]);
        answer.facts
    }

    /// §Case Sensitivity, MUST: "Clients and servers MUST use
    /// case-insensitive comparisons for header names." The runner's client
    /// writes header names in lowercase (the `http` crate keeps them so, and
    /// hyper writes them as kept), not as the page spells them
    /// (`MCP-Protocol-Version`), so a server that refused the mismatch probe
    /// *as a mismatch* found the lowercase `mcp-protocol-version`. One that
    /// took the mismatch shows nothing about names: not observed.
    fn header_names_any_case(&mut self, answer: &Answer, shown: &str) {
        let rule = RuleId::McpHttpHeaderNamesAnyCase;
        match (answer.status, answer.code) {
            (400, Some(HEADER_MISMATCH | UNSUPPORTED_VERSION)) => self.verdict(
                rule,
                Vec::new(),
                vec![format!(
                    "{shown}: the lowercase `mcp-protocol-version` was read"
                )],
            ),
            _ => self.not_observed(
                rule,
                format!("{shown}: no refusal shows the lowercase header name was read"),
            ),
        }
    }

    /// §Protocol Version Header: an unknown method is 404 with -32601.
    pub(super) async fn method_not_found(
        &mut self,
        revision: Revision,
        target: &Target<'_>,
    ) -> Vec<HttpFact> {
        let rule = RuleId::McpHttpMethodNotFound404;
        let answer = match one_request(revision, target, NO_SUCH_METHOD, None, &[]).await {
            Ok(a) => a,
            Err(why) => {
                self.not_observed(rule, why);
                return Vec::new();
            }
        };
        let shown = format!(
            "a request for {NO_SUCH_METHOD} was answered {} with {}",
            answer.status,
            code_text(answer.code)
        );
        let mut broken = Vec::new();
        if answer.status != 404 {
            broken.push(format!("{shown}: not 404 Not Found"));
        }
        if answer.code != Some(harness::codes::METHOD_NOT_FOUND) {
            broken.push(format!("{shown}: not -32601 Method not found"));
        }
        self.exhibit([&answer.exchange]);
        self.verdict(rule, broken, vec![shown]);
        answer.facts
    }
}
