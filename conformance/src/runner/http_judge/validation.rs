//! 2026-07-28 probes of basic/transports/streamable-http that the earlier
//! revisions have no counterpart of: the `MCP-Protocol-Version` header against
//! the body's `_meta`, the 404 for an unknown method, a Base64-encoded
//! `Mcp-Name`, and `X-Accel-Buffering` on SSE answers.
//!
//! Each probe is one request no server acts on (`server/discover`, a method
//! no server has), except the name probe: a `tools/call`, sent only for a
//! tool the user allowed with `--allow-tool` (with `--tool-args`), and
//! not-applicable otherwise, as every tool call of the runner is.

use std::time::Duration;

use base64::Engine as _;
use harness::{Raw, Revision};
use reqwest::header::{HeaderName, HeaderValue};

use super::{essence, handshaken, probe_status, streamable, Config, Judge, HEADER_MISMATCH};
use crate::transport::http::HttpFact;
use harness::rules::RuleId;

/// 2026-07-28 schema `UnsupportedProtocolVersionError`.
const UNSUPPORTED_VERSION: i64 = -32022;
/// A method no server implements.
const NO_SUCH_METHOD: &str = "wirecheck/no-such-method";

/// What one probe request got: its HTTP status, the JSON-RPC error code of
/// the answer if it was one, and every exchange of the probe's session (its
/// handshake's too), for the rules judged on any exchange.
struct Answer {
    status: u16,
    code: Option<i64>,
    facts: Vec<HttpFact>,
}

/// Sends `method` with `params` on a fresh handshaken session, `headers`
/// set over those the transport derives from the body.
async fn probe(
    revision: Revision,
    url: &str,
    config: &Config,
    method: &str,
    params: Option<serde_json::Value>,
    headers: &[(&'static str, String)],
) -> Result<Answer, String> {
    let mut driver = handshaken(revision, url, config, None).await?;
    for (name, value) in headers {
        let value = HeaderValue::from_str(value).map_err(|e| e.to_string())?;
        streamable(&mut driver).set_header(HeaderName::from_static(name), value);
    }
    if method == "tools/call" {
        // Its `Mcp-Param-*` headers are the tool's: the transport learns them here.
        let timeout = config.driver.answer_timeout.min(Duration::from_secs(5));
        super::custom_headers::learn_tools(&mut driver, timeout).await;
    }
    let before = driver.transport().http_facts().len();
    let answered = driver
        .request(
            method,
            params.as_ref().map(Raw::from_value),
            config.driver.answer_timeout.min(Duration::from_secs(5)),
        )
        .await;
    let facts = driver.transport().http_facts();
    let status = probe_status(&facts, before);
    let (wire, _) = driver.into_parts();
    wire.close(config.shutdown_grace).await;
    let status = status.ok_or_else(|| format!("the {method} probe got no HTTP response"))?;
    let code = answered.ok().and_then(|a| {
        serde_json::from_slice::<serde_json::Value>(&a.bytes)
            .ok()?
            .pointer("/error/code")?
            .as_i64()
    });
    Ok(Answer {
        status,
        code,
        facts,
    })
}

fn code_text(code: Option<i64>) -> String {
    code.map_or_else(|| "no JSON-RPC error".to_owned(), |c| format!("error {c}"))
}

impl Judge {
    /// The three 2026-07-28 request probes; the exchanges they made.
    pub(super) async fn validation(
        &mut self,
        revision: Revision,
        url: &str,
        config: &Config,
    ) -> Vec<HttpFact> {
        let mut facts = self.version_mismatch(revision, url, config).await;
        facts.extend(self.method_not_found(revision, url, config).await);
        facts.extend(self.name_decoded(revision, url, config).await);
        facts
    }

    /// §Protocol Version Header: a header naming another version than the
    /// body's `_meta` is refused with 400 and -32020.
    async fn version_mismatch(
        &mut self,
        revision: Revision,
        url: &str,
        config: &Config,
    ) -> Vec<HttpFact> {
        let rule = RuleId::McpHttpVersionHeaderMismatch400;
        let headers = [("mcp-protocol-version", "2025-11-25".to_owned())];
        let answer = match probe(revision, url, config, "server/discover", None, &headers).await {
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
        self.header_names_any_case(&answer, &shown);
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
    async fn method_not_found(
        &mut self,
        revision: Revision,
        url: &str,
        config: &Config,
    ) -> Vec<HttpFact> {
        let rule = RuleId::McpHttpMethodNotFound404;
        let answer = match probe(revision, url, config, NO_SUCH_METHOD, None, &[]).await {
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
        self.verdict(rule, broken, vec![shown]);
        answer.facts
    }

    /// §Value Encoding: `Mcp-Name: =?base64?…?=` of the body's name matches it.
    async fn name_decoded(
        &mut self,
        revision: Revision,
        url: &str,
        config: &Config,
    ) -> Vec<HttpFact> {
        let rule = RuleId::McpHttpNameHeaderDecoded;
        // A `tools/call` goes only to a tool the user allowed, even one named
        // for no server: the runner never calls a tool on its own.
        let Some(tool) = config.allowed.tools.iter().next() else {
            self.not_applicable(
                rule,
                "the probe is a tools/call, and no tool was allowed (--allow-tool NAME)".into(),
            );
            return Vec::new();
        };
        let encoded = format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(tool)
        );
        let arguments = config
            .allowed
            .arguments
            .clone()
            .unwrap_or_else(|| serde_json::json!({}));
        let params = serde_json::json!({ "name": tool, "arguments": arguments });
        let headers = [("mcp-name", encoded.clone())];
        let answer = match probe(revision, url, config, "tools/call", Some(params), &headers).await
        {
            Ok(a) => a,
            Err(why) => {
                self.not_observed(rule, why);
                return Vec::new();
            }
        };
        let shown = format!(
            "a tools/call of {tool} with `Mcp-Name: {encoded}` was answered {} with {}",
            answer.status,
            code_text(answer.code)
        );
        if answer.status == 404 && answer.code == Some(harness::codes::METHOD_NOT_FOUND) {
            self.not_applicable(rule, format!("{shown}: the server has no tools/call"));
            return answer.facts;
        }
        let broken = if answer.code == Some(HEADER_MISMATCH) {
            vec![format!("{shown}: the encoded name was compared undecoded")]
        } else {
            Vec::new()
        };
        self.verdict(rule, broken, vec![shown]);
        answer.facts
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
