//! 2026-07-28 probes of the headers a server validates against the body
//! beyond `Mcp-Method` and `Mcp-Name`: the `Mcp-Param-{Name}` headers of
//! `x-mcp-header` parameters (basic/transports/streamable-http §Server
//! Behavior for Custom Headers, §Server Validation), and the status of a
//! request missing a required `_meta` field (basic/index §_meta).
//!
//! The custom-header probes are `tools/call`s, and a server that wrongly
//! accepts one runs the tool. So they are sent only for a tool the user
//! allowed (`--allow-tool NAME`, with `--tool-args JSON`) whose definition,
//! as the server lists it, declares `x-mcp-header` on a property those
//! arguments give a value; otherwise each rule is not applicable, saying how
//! to enable it. The call is first made with every header right (the
//! control: a server that refuses it shows nothing by refusing the others),
//! then without one `Mcp-Param` header, with invalid characters in it, and,
//! for an integer property, with the integer written `N.0`.
//!
//! Each probe is one POST made here with exactly the headers it needs (the
//! transport derives no `Mcp-Param` header, and these must be left out or
//! spoiled on purpose), session-free as 2026-07-28 requests are.

use std::time::Duration;

use harness::rules::RuleId;
use harness::Revision;
use reqwest::header::HeaderValue;
use serde_json::{json, Value};

use super::{Filer, Target, HEADER_MISMATCH};
use crate::opening::discover_meta;
use crate::report::HttpExchange;
use crate::runner::fixtures::Allowed;
use crate::transport::event_stream::{Splitter, SseEvent};
use crate::transport::http::{header_safe, shown_exchange};

/// The one revision with custom headers (basic/transports §Custom Headers).
const REVISION: Revision = Revision::Mcp2026_07_28;
/// The most `tools/list` pages read while looking for the allowed tools.
const MAX_PAGES: usize = 16;
/// The most bytes of one probe's answer read.
const MAX_ANSWER: usize = 1 << 20;
/// `é` as raw UTF-8: bytes a header value carries only Base64-encoded.
const RAW_NON_ASCII: &[u8] = "é".as_bytes();

/// What one probe POST got: its status and the answer to its request.
struct Answer {
    status: u16,
    answer: Option<Value>,
    /// The exchange as sent and got, for the record to show.
    exchange: HttpExchange,
}

impl Answer {
    fn code(&self) -> Option<i64> {
        self.answer.as_ref()?.pointer("/error/code")?.as_i64()
    }

    fn shown(&self) -> String {
        let what = self.code().map_or_else(
            || {
                if self.answer.is_some() {
                    "a result".to_owned()
                } else {
                    "no answer".to_owned()
                }
            },
            |c| format!("error {c}"),
        );
        format!("{} with {what}", self.status)
    }

    fn refused_as_mismatch(&self) -> bool {
        self.status == 400 && self.code() == Some(HEADER_MISMATCH)
    }
}

/// One `x-mcp-header` parameter of a tool and the value the arguments give it.
struct Mirrored {
    path: Vec<String>,
    header: String,
    value: Value,
}

impl Mirrored {
    fn name(&self) -> String {
        format!("mcp-param-{}", self.header.to_ascii_lowercase())
    }

    /// The header value a client sends (§Value Encoding, Type conversion).
    fn encoded(&self) -> Vec<u8> {
        match &self.value {
            Value::String(s) => header_safe(s).into_bytes(),
            other => other.to_string().into_bytes(),
        }
    }

    /// The value as raw bytes outside visible ASCII: its own UTF-8 when it
    /// has such characters, else its header text followed by `é`.
    fn invalid(&self) -> Vec<u8> {
        match &self.value {
            Value::String(s) if !s.is_ascii() => s.clone().into_bytes(),
            _ => {
                let mut bytes = self.encoded();
                bytes.extend_from_slice(RAW_NON_ASCII);
                bytes
            }
        }
    }
}

/// The probes a spoiled header makes: which rule, and how the header is sent.
#[derive(Clone, Copy)]
enum Spoil {
    Missing,
    Invalid,
    Integer,
}

const PARAM_RULES: [RuleId; 3] = [
    RuleId::McpHttpParamHeaderMissingRefused,
    RuleId::McpHttpParamHeaderInvalidRefused,
    RuleId::McpHttpParamHeaderIntegerNumeric,
];

impl Filer {
    /// The custom-header and `_meta` probes of a 2026-07-28 run (the table
    /// runs them in the revisions of `mcp.http.meta-missing-400`).
    pub(super) async fn custom_headers(&mut self, target: &Target<'_>) {
        let url = target.url;
        let client = match target
            .client()
            .timeout(target.limits.write_timeout)
            // One connection per request, as the transport's own client
            // (no kept-alive connection reused after the server gave it up).
            .pool_max_idle_per_host(0)
            .build()
        {
            Ok(c) => c,
            Err(e) => {
                for rule in PARAM_RULES
                    .into_iter()
                    .chain([RuleId::McpHttpMetaMissing400])
                {
                    self.not_observed(rule, e.to_string());
                }
                return;
            }
        };
        let timeout = target.driver.answer_timeout.min(Duration::from_secs(5));
        self.meta_missing(&client, url, timeout).await;
        self.params(&client, url, target.allowed, timeout).await;
    }

    /// basic/index §_meta: a `server/discover` lacking
    /// `io.modelcontextprotocol/clientCapabilities` is 400 with -32602.
    async fn meta_missing(&mut self, client: &reqwest::Client, url: &str, timeout: Duration) {
        let rule = RuleId::McpHttpMetaMissing400;
        let mut meta = discover_meta(REVISION);
        meta.remove("io.modelcontextprotocol/clientCapabilities");
        let body = request("server/discover", json!({ "_meta": meta }));
        let headers = standard("server/discover", None);
        let answer = match post(client, url, &body, &headers, timeout).await {
            Ok(a) => a,
            Err(why) => return self.not_observed(rule, why),
        };
        let shown = format!(
            "a server/discover whose `_meta` lacks io.modelcontextprotocol/clientCapabilities was answered {}",
            answer.shown()
        );
        let broken =
            if answer.status == 400 && answer.code() == Some(harness::codes::INVALID_PARAMS) {
                Vec::new()
            } else {
                vec![format!("{shown}, not 400 with -32602 Invalid params")]
            };
        self.show(answer.exchange);
        self.verdict(rule, broken, vec![shown]);
    }

    /// The `Mcp-Param-{Name}` probes, for an allowed tool that has such a
    /// parameter with a value in `--tool-args`.
    async fn params(
        &mut self,
        client: &reqwest::Client,
        url: &str,
        allowed: &Allowed,
        timeout: Duration,
    ) {
        let how = "allow a tool whose inputSchema declares `x-mcp-header` on a property, with arguments giving it a value (--allow-tool NAME --tool-args JSON): the probe is a tools/call, which runs the tool if the server wrongly accepts it";
        let Some(arguments) = allowed.arguments.as_ref() else {
            return self.params_not_applicable(&format!("no --tool-args were given; {how}"));
        };
        if allowed.tools.is_empty() {
            return self.params_not_applicable(&format!("no tool was allowed; {how}"));
        }
        let listed = match list_tools(client, url, timeout).await {
            Ok(tools) => tools,
            Err(why) => {
                for rule in PARAM_RULES {
                    self.not_observed(rule, why.clone());
                }
                return;
            }
        };
        let candidates: Vec<(String, Vec<Mirrored>)> = listed
            .iter()
            .filter_map(|tool| {
                let name = tool.get("name")?.as_str()?;
                if !allowed.tools.contains(name) {
                    return None;
                }
                let mut found = Vec::new();
                mirrored(
                    tool.get("inputSchema")?,
                    arguments,
                    &mut Vec::new(),
                    &mut found,
                );
                (!found.is_empty()).then(|| (name.to_owned(), found))
            })
            .collect();
        // A tool with an integer parameter serves all three probes.
        let is_integer = |m: &Mirrored| m.value.is_i64() || m.value.is_u64();
        let chosen = candidates
            .iter()
            .find(|(_, m)| m.iter().any(is_integer))
            .or_else(|| candidates.first());
        let Some((tool, mirrored)) = chosen else {
            return self.params_not_applicable(&format!(
                "none of the allowed tools the server lists declares `x-mcp-header` on a property --tool-args gives a value; {how}"
            ));
        };
        let call = |headers: Vec<(String, Vec<u8>)>| {
            let body = request(
                "tools/call",
                json!({"name": tool, "arguments": arguments, "_meta": meta()}),
            );
            async move { post(client, url, &body, &headers, timeout).await }
        };
        let correct: Vec<(String, Vec<u8>)> =
            mirrored.iter().map(|m| (m.name(), m.encoded())).collect();
        let control = match call(with(tool, correct.clone())).await {
            Ok(a) => a,
            Err(why) => {
                for rule in PARAM_RULES {
                    self.not_observed(rule, why.clone());
                }
                return;
            }
        };
        if !(200..300).contains(&control.status) {
            let why = format!(
                "the tools/call of {tool} with every header right was answered {}: a refusal of a spoiled header would show nothing",
                control.shown()
            );
            for rule in PARAM_RULES {
                self.not_observed(rule, why.clone());
            }
            return;
        }
        let integer = mirrored.iter().position(is_integer);
        for (spoil, rule) in [Spoil::Missing, Spoil::Invalid, Spoil::Integer]
            .into_iter()
            .zip(PARAM_RULES)
        {
            let target = match spoil {
                Spoil::Integer => match integer {
                    Some(i) => i,
                    None => {
                        self.not_applicable(rule, format!("the allowed tool {tool} has no integer `x-mcp-header` parameter with a value in --tool-args; {how}"));
                        continue;
                    }
                },
                // A string value shows invalid characters as a client would
                // have sent them; any value will do.
                Spoil::Invalid => mirrored
                    .iter()
                    .position(|m| m.value.is_string())
                    .unwrap_or(0),
                Spoil::Missing => 0,
            };
            let m = &mirrored[target];
            let mut headers = correct.clone();
            let sent = match spoil {
                Spoil::Missing => {
                    headers.remove(target);
                    format!("without its `Mcp-Param-{}` header", m.header)
                }
                Spoil::Invalid => {
                    headers[target].1 = m.invalid();
                    format!(
                        "with its `Mcp-Param-{}` carrying raw non-ASCII bytes ({:?}) for arguments.{}",
                        m.header,
                        String::from_utf8_lossy(&m.invalid()),
                        m.path.join(".")
                    )
                }
                Spoil::Integer => {
                    headers[target].1 = format!("{}.0", m.value).into_bytes();
                    format!(
                        "with `Mcp-Param-{}: {}.0` for the body's {}",
                        m.header, m.value, m.value
                    )
                }
            };
            let answer = match call(with(tool, headers)).await {
                Ok(a) => a,
                Err(why) => {
                    self.not_observed(rule, why);
                    continue;
                }
            };
            let shown = format!(
                "a tools/call of {tool} {sent} was answered {}",
                answer.shown()
            );
            let broken = match spoil {
                Spoil::Integer if answer.refused_as_mismatch() => {
                    vec![format!("{shown}: the integer was compared as a string")]
                }
                Spoil::Integer if !(200..300).contains(&answer.status) => {
                    vec![format!("{shown}, where the call with `{}` was accepted", String::from_utf8_lossy(&m.encoded()))]
                }
                Spoil::Integer => Vec::new(),
                _ if (200..300).contains(&answer.status) => {
                    vec![format!("{shown}: accepted")]
                }
                _ if !answer.refused_as_mismatch() => vec![format!(
                    "{shown}: refused, but not with 400 and -32020 HeaderMismatch, which the section requires \"if any validation fails\""
                )],
                _ => Vec::new(),
            };
            self.show(answer.exchange);
            self.verdict(rule, broken, vec![shown]);
        }
    }

    fn params_not_applicable(&mut self, why: &str) {
        for rule in PARAM_RULES {
            self.not_applicable(rule, why.to_owned());
        }
    }
}

/// Reads every `tools/list` page on `driver`'s session, so that its
/// transport learns the tools' `x-mcp-header` parameters and mirrors them on
/// the session's `tools/call`s, as a client must.
pub(super) async fn learn_tools(
    driver: &mut crate::driver::Driver<crate::transport::wire::Wire>,
    timeout: Duration,
) {
    let mut cursor: Option<Value> = None;
    for _ in 0..MAX_PAGES {
        let params = cursor
            .take()
            .map(|c| harness::Raw::from_value(&json!({ "cursor": c })));
        let Ok(answered) = driver.request("tools/list", params, timeout).await else {
            return;
        };
        let next = serde_json::from_slice::<Value>(&answered.bytes)
            .ok()
            .and_then(|v| v.pointer("/result/nextCursor").cloned());
        match next {
            Some(next) if !next.is_null() => cursor = Some(next),
            _ => return,
        }
    }
}

/// The per-request `_meta` of 2026-07-28 (basic/index §_meta).
fn meta() -> Value {
    Value::Object(discover_meta(REVISION))
}

fn request(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": format!("wirecheck-headers-{method}"), "method": method, "params": params})
}

/// §Protocol Version Header and §Standard Request Headers, as a client sends them.
fn standard(method: &str, name: Option<&str>) -> Vec<(String, Vec<u8>)> {
    let mut headers = vec![
        (
            "mcp-protocol-version".to_owned(),
            REVISION.name().as_bytes().to_vec(),
        ),
        ("mcp-method".to_owned(), method.as_bytes().to_vec()),
    ];
    if let Some(name) = name {
        headers.push(("mcp-name".to_owned(), header_safe(name).into_bytes()));
    }
    headers
}

/// `params` after the standard headers of a `tools/call` of `tool`.
fn with(tool: &str, params: Vec<(String, Vec<u8>)>) -> Vec<(String, Vec<u8>)> {
    let mut headers = standard("tools/call", Some(tool));
    headers.extend(params);
    headers
}

/// The `x-mcp-header` properties of `schema` reachable through `properties`
/// alone (§Schema Extension) whose value `arguments` gives, not `null`.
fn mirrored(schema: &Value, arguments: &Value, path: &mut Vec<String>, out: &mut Vec<Mirrored>) {
    if let (false, Some(header)) = (
        path.is_empty(),
        schema.get("x-mcp-header").and_then(Value::as_str),
    ) {
        let mut value = Some(arguments);
        for key in path.iter() {
            value = value.and_then(|v| v.get(key));
        }
        if let Some(value) = value.filter(|v| !v.is_null()) {
            out.push(Mirrored {
                path: path.clone(),
                header: header.to_owned(),
                value: value.clone(),
            });
        }
    }
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, property) in properties {
        path.push(name.clone());
        mirrored(property, arguments, path, out);
        path.pop();
    }
}

/// Every tool the server lists, page after page.
async fn list_tools(
    client: &reqwest::Client,
    url: &str,
    timeout: Duration,
) -> Result<Vec<Value>, String> {
    let mut tools = Vec::new();
    let mut cursor: Option<Value> = None;
    for _ in 0..MAX_PAGES {
        let mut params = json!({"_meta": meta()});
        if let Some(cursor) = cursor.take() {
            params["cursor"] = cursor;
        }
        let body = request("tools/list", params);
        let answer = post(client, url, &body, &standard("tools/list", None), timeout).await?;
        let Some(result) = answer.answer.as_ref().and_then(|a| a.get("result")) else {
            return Err(format!(
                "tools/list, to find the allowed tools' x-mcp-header parameters, was answered {}",
                answer.shown()
            ));
        };
        if let Some(listed) = result.get("tools").and_then(Value::as_array) {
            tools.extend(listed.iter().cloned());
        }
        match result.get("nextCursor") {
            Some(next) if !next.is_null() => cursor = Some(next.clone()),
            _ => return Ok(tools),
        }
    }
    Ok(tools)
}

/// POSTs `body` with exactly `headers` (and the content type and accept a
/// client sends); reads the answer to its request from a JSON body or an
/// SSE stream, up to `timeout`.
async fn post(
    client: &reqwest::Client,
    url: &str,
    body: &Value,
    headers: &[(String, Vec<u8>)],
    timeout: Duration,
) -> Result<Answer, String> {
    let mut builder = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (name, value) in headers {
        let value = HeaderValue::from_bytes(value).map_err(|e| e.to_string())?;
        builder = builder.header(name.as_str(), value);
    }
    let method = body["method"].as_str().unwrap_or_default().to_owned();
    let id = body["id"].clone();
    let exchange = async {
        let mut response = builder
            .body(body.to_string())
            .send()
            .await
            .map_err(|e| format!("the {method} probe got no HTTP response: {e}"))?;
        let status = response.status().as_u16();
        let headers_got = response.headers().clone();
        let content_type = headers_got
            .get("content-type")
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        let sse = content_type.as_deref().is_some_and(|ct| {
            ct.trim_start()
                .to_ascii_lowercase()
                .starts_with("text/event-stream")
        });
        let mut bytes = Vec::new();
        let mut events = Splitter::new(MAX_ANSWER);
        let mut answer = None;
        // An SSE stream may stay open after its answer: read until it comes.
        let mut ended = false;
        while answer.is_none() && bytes.len() <= MAX_ANSWER {
            let Ok(Some(chunk)) = response.chunk().await else {
                ended = true;
                break;
            };
            bytes.extend_from_slice(&chunk);
            if sse {
                answer = answer_among(events.feed(&chunk), &id);
            }
        }
        answer = match (sse, ended) {
            (false, _) => answer_to(&bytes, &id),
            // A stream that ended mid-event is read as if its blank line came.
            (true, true) if answer.is_none() => answer_among(events.feed(b"\n\n"), &id),
            (true, _) => answer,
        };
        let request_headers = [
            ("content-type".to_owned(), "application/json".to_owned()),
            (
                "accept".to_owned(),
                "application/json, text/event-stream".to_owned(),
            ),
        ]
        .into_iter()
        .chain(
            headers
                .iter()
                .map(|(n, v)| (n.clone(), String::from_utf8_lossy(v).into_owned())),
        )
        .collect();
        let exchange = shown_exchange(
            "POST",
            url,
            request_headers,
            Some(body.to_string().as_bytes()),
            status,
            &headers_got,
            &bytes,
        );
        Ok(Answer {
            status,
            answer,
            exchange,
        })
    };
    tokio::time::timeout(timeout, exchange)
        .await
        .map_err(|_| format!("the {method} probe got no answer within {timeout:?}"))?
}

/// The response to request `id` if `message` (a JSON body, or one SSE
/// event's data) is it. An error without an id (a refusal before the id was
/// read) counts as the answer.
fn answer_to(message: &[u8], id: &Value) -> Option<Value> {
    serde_json::from_slice::<Value>(message).ok().filter(|v| {
        v.get("method").is_none()
            && (v.get("id") == Some(id)
                || (v.get("error").is_some() && v.get("id").is_none_or(Value::is_null)))
    })
}

/// The response to request `id` among SSE `events`, the first that is it.
fn answer_among(events: Vec<SseEvent>, id: &Value) -> Option<Value> {
    events
        .into_iter()
        .find_map(|e| answer_to(&e.data.ok()?, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrored_parameters_are_found_through_properties_only_with_their_values() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "count": {"type": "integer", "x-mcp-header": "Count"},
            "nested": {"type": "object", "properties": {"flag": {"type": "boolean", "x-mcp-header": "Flag"}}},
            "list": {"type": "array", "items": {"type": "string", "x-mcp-header": "Item"}}
        }});
        let args = json!({"region": "Hello, 世界", "count": null, "nested": {"flag": true}, "list": ["a"]});
        let mut found = Vec::new();
        mirrored(&schema, &args, &mut Vec::new(), &mut found);
        let names: Vec<&str> = found.iter().map(|m| m.header.as_str()).collect();
        // `count` is null (no header expected), `Item` is under `items`.
        assert_eq!(names, ["Flag", "Region"]);
        assert_eq!(found[0].encoded(), b"true");
        assert_eq!(found[1].encoded(), b"=?base64?SGVsbG8sIOS4lueVjA==?=");
        assert_eq!(found[1].invalid(), "Hello, 世界".as_bytes());
        let plain = Mirrored {
            path: vec!["r".into()],
            header: "R".into(),
            value: json!("us"),
        };
        assert_eq!(plain.invalid(), "usé".as_bytes());
    }

    #[test]
    fn the_answer_is_read_from_json_or_from_its_sse_event() {
        let id = json!("wirecheck-headers-tools/call");
        let answer = br#"{"jsonrpc":"2.0","id":"wirecheck-headers-tools/call","error":{"code":-32020,"message":"m"}}"#;
        assert!(answer_to(answer, &id).is_some());
        let stream = format!("event: message\ndata: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}}\n\nevent: message\ndata: {}\n\n", String::from_utf8_lossy(answer));
        let found = answer_among(Splitter::new(MAX_ANSWER).feed(stream.as_bytes()), &id).unwrap();
        assert_eq!(found.pointer("/error/code"), Some(&json!(-32020)));
        // Another request's answer is not this one's.
        assert!(answer_to(br#"{"jsonrpc":"2.0","id":7,"result":{}}"#, &id).is_none());
    }
}
