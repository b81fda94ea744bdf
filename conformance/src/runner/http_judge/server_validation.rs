//! §Server Validation and §Value Encoding (2026-07-28
//! basic/transports/streamable-http), probes the earlier revisions have no
//! counterpart of: an `Mcp-Method` header naming another method than the
//! body's is refused with 400 and -32020, and a Base64-encoded `Mcp-Name` is
//! decoded before it is compared. Also the one-request probe the
//! §Protocol Version Header probes share ([`one_request`]).
//!
//! Each probe is one request no server acts on (`server/discover`, a method
//! no server has), except the name probe: a `tools/call`, sent only for a
//! tool the user allowed with `--allow-tool` (with `--tool-args`), and
//! not-applicable otherwise, as every tool call of the runner is.

use std::time::Duration;

use base64::Engine as _;
use harness::{Raw, Revision};
use reqwest::header::{HeaderName, HeaderValue};

use super::{handshaken, probe_exchange, streamable, Filer, Target, HEADER_MISMATCH};
use crate::transport::http::HttpFact;
use harness::rules::RuleId;

/// What one probe request got: its HTTP status, the JSON-RPC error code of
/// the answer if it was one, and every exchange of the probe's session (its
/// handshake's too), for the rules judged on any exchange.
pub(super) struct Answer {
    pub(super) status: u16,
    /// The probe request's own exchange, for the record to show.
    pub(super) exchange: HttpFact,
    pub(super) code: Option<i64>,
    pub(super) facts: Vec<HttpFact>,
}

/// Sends `method` with `params` on a fresh handshaken session, `headers`
/// set over those the transport derives from the body.
pub(super) async fn one_request(
    revision: Revision,
    target: &Target<'_>,
    method: &str,
    params: Option<serde_json::Value>,
    headers: &[(&'static str, String)],
) -> Result<Answer, String> {
    let mut driver = handshaken(revision, target, None).await?;
    for (name, value) in headers {
        let value = HeaderValue::from_str(value).map_err(|e| e.to_string())?;
        streamable(&mut driver).set_header(HeaderName::from_static(name), value);
    }
    if method == "tools/call" {
        // Its `Mcp-Param-*` headers are the tool's: the transport learns them here.
        let timeout = target.driver.answer_timeout.min(Duration::from_secs(5));
        super::custom_headers::learn_tools(&mut driver, timeout).await;
    }
    let before = driver.transport().http_facts().len();
    let answered = driver
        .request(
            method,
            params.as_ref().map(Raw::from_value),
            target.driver.answer_timeout.min(Duration::from_secs(5)),
        )
        .await;
    let facts = driver.transport().http_facts();
    let exchange = probe_exchange(&facts, before).cloned();
    let (wire, _) = driver.into_parts();
    wire.close(target.shutdown_grace).await;
    let exchange = exchange.ok_or_else(|| format!("the {method} probe got no HTTP response"))?;
    // The answer matched by id, else the first error the HTTP answer carried:
    // an error may come without an id (2026-07-28 schema `HeaderMismatchError`:
    // `id?: RequestId`) or with id null, and the driver matches neither to the
    // request, though its code is what the probe asks about. Whether its id is
    // right is the codec's to judge, not this probe's.
    let code = answered
        .ok()
        .and_then(|a| {
            serde_json::from_slice::<serde_json::Value>(&a.bytes)
                .ok()?
                .pointer("/error/code")?
                .as_i64()
        })
        .or_else(|| exchange.error_codes.first().copied());
    Ok(Answer {
        status: exchange.status,
        exchange,
        code,
        facts,
    })
}

pub(super) fn code_text(code: Option<i64>) -> String {
    code.map_or_else(|| "no JSON-RPC error".to_owned(), |c| format!("error {c}"))
}

impl Filer {
    /// 2026-07-28 §Server Validation: a `server/discover` whose `Mcp-Method`
    /// header names another method must be refused with 400 and -32020.
    pub(super) async fn header_mismatch(&mut self, revision: Revision, target: &Target<'_>) {
        let (matching, refusal) = (
            RuleId::McpHttpHeaderBodyMatch,
            RuleId::McpHttpHeaderMismatch400,
        );
        let mut driver = match handshaken(revision, target, None).await {
            Ok(d) => d,
            Err(why) => {
                self.not_observed(matching, why.clone());
                return self.not_observed(refusal, why);
            }
        };
        // Set over the header the transport derives from the body.
        streamable(&mut driver).set_header(
            HeaderName::from_static("mcp-method"),
            HeaderValue::from_static("tools/list"),
        );
        let before = driver.transport().http_facts().len();
        let answered = driver
            .request(
                "server/discover",
                None,
                target.driver.answer_timeout.min(Duration::from_secs(5)),
            )
            .await;
        let exchange = probe_exchange(&driver.transport().http_facts(), before).cloned();
        let (wire, _) = driver.into_parts();
        wire.close(target.shutdown_grace).await;
        let Some(exchange) = exchange else {
            let why = "the mismatched request got no HTTP response".to_owned();
            self.not_observed(matching, why.clone());
            return self.not_observed(refusal, why);
        };
        let status = exchange.status;
        let shown = format!("`Mcp-Method: tools/list` on a server/discover was answered {status}");
        self.exhibit([&exchange]);
        if (200..300).contains(&status) {
            self.verdict(
                matching,
                vec![format!("{shown}: the mismatch was accepted")],
                Vec::new(),
            );
            return self.not_applicable(refusal, format!("{shown}: not refused"));
        }
        self.verdict(matching, Vec::new(), vec![shown.clone()]);
        self.exhibit([&exchange]);
        let code = answered.ok().and_then(|a| {
            serde_json::from_slice::<serde_json::Value>(&a.bytes)
                .ok()?
                .pointer("/error/code")?
                .as_i64()
        });
        let mut broken = Vec::new();
        if status != 400 {
            broken.push(format!("{shown}, not 400 Bad Request"));
        }
        if code != Some(HEADER_MISMATCH) {
            broken.push(match code {
                Some(code) => format!(
                    "the refusal's JSON-RPC error code is {code}, not -32020 HeaderMismatch"
                ),
                None => "the refusal carries no JSON-RPC error response for the request".to_owned(),
            });
        }
        self.verdict(refusal, broken, vec![shown]);
    }

    /// §Value Encoding: `Mcp-Name: =?base64?…?=` of the body's name matches it.
    pub(super) async fn name_decoded(
        &mut self,
        revision: Revision,
        target: &Target<'_>,
    ) -> Vec<HttpFact> {
        let rule = RuleId::McpHttpNameHeaderDecoded;
        // A `tools/call` goes only to a tool the user allowed, even one named
        // for no server: the runner never calls a tool on its own.
        let Some(tool) = target.allowed.tools.iter().next() else {
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
        let arguments = target
            .allowed
            .arguments
            .clone()
            .unwrap_or_else(|| serde_json::json!({}));
        let params = serde_json::json!({ "name": tool, "arguments": arguments });
        let headers = [("mcp-name", encoded.clone())];
        let answer = match one_request(revision, target, "tools/call", Some(params), &headers).await
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
        self.exhibit([&answer.exchange]);
        self.verdict(rule, broken, vec![shown]);
        answer.facts
    }
}
