//! The rule model: the catalogue is one consistent table, every check is
//! exercised by a case that fails if the check is removed, clean frames stay
//! clean, and the generated method table matches the official schemas.

use std::collections::BTreeSet;

use harness::rules::{self, CheckedBy, Level, RuleId, Violation};
use harness::{lift, Profile, Revision};

fn profile(revision: &str, from: &str) -> Profile {
    Profile {
        revision: revision.parse().unwrap(),
        direction: from.parse().unwrap(),
    }
}

fn frame(revision: &str, from: &str, text: &str) -> Vec<Violation> {
    rules::validate(text.as_bytes(), profile(revision, from))
}

fn exchange(revision: &str, from: &str, request: &str, reply: Option<&str>) -> Vec<Violation> {
    let request = lift(request.as_bytes()).expect("request lifts");
    let reply = reply.map(|r| lift(r.as_bytes()).expect("reply lifts"));
    rules::validate_reply(&request, reply.as_ref(), profile(revision, from))
}

fn ids(violations: &[Violation]) -> Vec<&'static str> {
    violations.iter().map(|v| v.rule.as_str()).collect()
}

/// One case per rule a check can report: the rule it must report, the profile,
/// and the frame (or request and reply).
struct Case {
    rule: &'static str,
    revision: &'static str,
    from: &'static str,
    frame: &'static str,
    /// `None`: a per-frame case. `Some(reply)`: an exchange, `reply` `None` when
    /// nothing came back.
    reply: Option<Option<&'static str>>,
    pointer: &'static str,
}

const fn f(
    rule: &'static str,
    revision: &'static str,
    from: &'static str,
    frame: &'static str,
    pointer: &'static str,
) -> Case {
    Case {
        rule,
        revision,
        from,
        frame,
        reply: None,
        pointer,
    }
}

const fn x(
    rule: &'static str,
    revision: &'static str,
    request: &'static str,
    reply: Option<&'static str>,
    pointer: &'static str,
) -> Case {
    Case {
        rule,
        revision,
        from: "client",
        frame: request,
        reply: Some(reply),
        pointer,
    }
}

/// An exchange whose request the server sent (`roots/list`, `sampling/createMessage`):
/// the profile's direction is the request's sender, as in the vectors.
const fn xs(
    rule: &'static str,
    revision: &'static str,
    request: &'static str,
    reply: Option<&'static str>,
    pointer: &'static str,
) -> Case {
    Case {
        from: "server",
        ..x(rule, revision, request, reply, pointer)
    }
}

/// A 2026-07-28 client `_meta` carrying every protocol field.
macro_rules! r5_meta {
    () => {
        r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}"#
    };
}

const R5_SERVER_META: &str =
    r#""_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}"#;

const CASES: &[Case] = &[
    // ---- per frame: JSON-RPC 2.0
    f(
        "jsonrpc.request.method-rpc-reserved",
        "jsonrpc-2.0",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}"#,
        "/method",
    ),
    f(
        "jsonrpc.request.id-not-null",
        "jsonrpc-2.0",
        "client",
        r#"{"jsonrpc":"2.0","id":null,"method":"a"}"#,
        "/id",
    ),
    f(
        "jsonrpc.request.id-no-fraction",
        "jsonrpc-2.0",
        "client",
        r#"{"jsonrpc":"2.0","id":1.5,"method":"a"}"#,
        "/id",
    ),
    f(
        "jsonrpc.request.id-no-fraction",
        "2025-06-18",
        "client",
        r#"{"jsonrpc":"2.0","id":1.0,"method":"ping"}"#,
        "/id",
    ),
    f(
        "jsonrpc.response.id-required",
        "2024-11-05",
        "server",
        r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#,
        "",
    ),
    f(
        "jsonrpc.response.id-required",
        "jsonrpc-2.0",
        "server",
        r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#,
        "",
    ),
    f(
        "mcp.base.error-id-absent",
        "2025-06-18",
        "server",
        r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#,
        "",
    ),
    // ---- per frame: MCP base
    f(
        "mcp.base.id-type",
        "2025-06-18",
        "client",
        r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
        "/id",
    ),
    f(
        "mcp.base.id-type",
        "2025-06-18",
        "client",
        r#"{"jsonrpc":"2.0","id":1e-1,"method":"ping"}"#,
        "/id",
    ),
    f(
        "mcp.base.id-type",
        "2024-11-05",
        "client",
        r#"{"jsonrpc":"2.0","method":"tools/list"}"#,
        "",
    ),
    f(
        "mcp.base.id-not-null",
        "2025-11-25",
        "client",
        r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
        "/id",
    ),
    f(
        "mcp.base.error-id-null",
        "2025-11-25",
        "server",
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
        "/id",
    ),
    f(
        "mcp.base.result-object",
        "2025-06-18",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"result":5}"#,
        "/result",
    ),
    f(
        "mcp.base.params-object",
        "2025-06-18",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[]}"#,
        "/params",
    ),
    f(
        "mcp.base.notification-no-id",
        "2025-06-18",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"method":"notifications/initialized"}"#,
        "/id",
    ),
    f(
        "mcp.base.result-type-required",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        "/result",
    ),
    f(
        "mcp.base.result-type-values",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"partial"}}"#,
        "/result/resultType",
    ),
    // ---- per frame: error codes
    f(
        "mcp.error.reserved-range",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32050,"message":"x"}}"#,
        "/error/code",
    ),
    f(
        "mcp.error.legacy-range",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"x"}}"#,
        "/error/code",
    ),
    f(
        "mcp.error.retired-codes",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"Resource not found"}}"#,
        "/error/code",
    ),
    f(
        "mcp.error.retired-codes",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32042,"message":"x"}}"#,
        "/error/code",
    ),
    f(
        "mcp.error.code.unsupported-version",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"1900-01-01"}}}"#,
        "/error/data",
    ),
    f(
        "mcp.error.code.missing-client-capability",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"x"}}"#,
        "/error/data",
    ),
    f(
        "mcp.error.code.url-elicitation-required",
        "2025-11-25",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32042,"message":"x","data":{"elicitations":[{"mode":"form"}]}}}"#,
        "/error/data",
    ),
    // ---- per frame: batches
    f(
        "mcp.batch.none-r1",
        "2024-11-05",
        "client",
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#,
        "",
    ),
    f(
        "mcp.batch.initialize-not-in-batch",
        "2025-03-26",
        "client",
        r#"[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"c","version":"1"}}},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#,
        "/0",
    ),
    f(
        "mcp.batch.http-post-body-r2",
        "2025-03-26",
        "client",
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":7,"result":{}}]"#,
        "",
    ),
    f(
        "mcp.batch.removed",
        "2025-06-18",
        "client",
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
        "",
    ),
    f(
        "mcp.batch.removed",
        "2026-07-28",
        "client",
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
        "",
    ),
    // ---- per frame: lifecycle, progress, 2026-07-28 fields
    f(
        "mcp.lifecycle.client-sends-initialize",
        "2025-11-25",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}"#,
        "/params",
    ),
    f(
        "mcp.lifecycle.client-sends-initialize",
        "2024-11-05",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"c"}}}"#,
        "/params/clientInfo",
    ),
    f(
        "mcp.progress.token-type",
        "2025-06-18",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"progressToken":true}}}"#,
        "/params/_meta/progressToken",
    ),
    f(
        "mcp.r5.meta.required-fields",
        "2026-07-28",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{}}}"#,
        "/params/_meta",
    ),
    f(
        "mcp.r5.meta.client-info",
        "2026-07-28",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
        "/params/_meta",
    ),
    f(
        "mcp.r5.meta.server-info",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}"#,
        "/result",
    ),
    f(
        "mcp.r5.stdio.no-server-requests",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}"#,
        "",
    ),
    f(
        "mcp.r5.stdio.no-server-requests",
        "2026-07-28",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}"#,
        "",
    ),
    f(
        "mcp.r5.subscription-id-meta",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{}}}"#,
        "/params",
    ),
    f(
        "mcp.r5.mrtr.input-required-content",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}"#,
        "/result",
    ),
    // ---- per frame: methods and params
    f(
        "mcp.method.other-revision",
        "2026-07-28",
        "client",
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"#,
            r5_meta!(),
            "}}"
        ),
        "/method",
    ),
    f(
        "mcp.method.other-revision",
        "2025-06-18",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"method":"tasks/list"}"#,
        "/method",
    ),
    f(
        "mcp.method.direction",
        "2025-06-18",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}"#,
        "/method",
    ),
    f(
        "mcp.schema.request-params",
        "2025-06-18",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#,
        "/params",
    ),
    f(
        "mcp.schema.request-params",
        "2025-06-18",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":7}}"#,
        "/params/uri",
    ),
    f(
        "mcp.schema.request-params",
        "2026-07-28",
        "client",
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"#,
            r5_meta!(),
            "}}"
        ),
        "/params",
    ),
    // ---- per frame: `_meta` keys
    f(
        "mcp.meta.prefix-format",
        "2025-06-18",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"1bad/x":1}}}"#,
        "/params/_meta/1bad~1x",
    ),
    f(
        "mcp.meta.name-format",
        "2025-06-18",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"-x":1}}}"#,
        "/params/_meta/-x",
    ),
    f(
        "mcp.meta.reserved-prefix-r3",
        "2025-06-18",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[],"_meta":{"tools.mcp.com/x":1}}}"#,
        "/result/_meta/tools.mcp.com~1x",
    ),
    f(
        "mcp.meta.reserved-prefix-r4",
        "2025-11-25",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"","_meta":{"io.modelcontextprotocol/unknown":1}}]}}"#,
        "/result/content/0/_meta/io.modelcontextprotocol~1unknown",
    ),
    f(
        "mcp.meta.otel-exception",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"baggage":1}}}"#,
        "/params/_meta/baggage",
    ),
    f(
        "mcp.meta.otel-exception",
        "2026-07-28",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"traceparent":"bogus","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}}"#,
        "/params/_meta/traceparent",
    ),
    // ---- exchanges: JSON-RPC 2.0
    x(
        "jsonrpc.response.id-echo",
        "jsonrpc-2.0",
        r#"{"jsonrpc":"2.0","id":"1","method":"a"}"#,
        Some(r#"{"jsonrpc":"2.0","id":1,"result":0}"#),
        "/id",
    ),
    x(
        "jsonrpc.response.required",
        "jsonrpc-2.0",
        r#"{"jsonrpc":"2.0","id":1,"method":"a"}"#,
        None,
        "",
    ),
    x(
        "jsonrpc.response.required",
        "2026-07-28",
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"#,
            r5_meta!(),
            "}}"
        ),
        None,
        "",
    ),
    x(
        "jsonrpc.response.required",
        "2025-06-18",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        Some(
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#,
        ),
        "",
    ),
    x(
        "mcp.schema.result",
        "2026-07-28",
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{},"#,
            r5_meta!(),
            "}}"
        ),
        Some(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}"#),
        "/result",
    ),
    x(
        "mcp.tools.input-schema-not-null",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        Some(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":null}]}}"#),
        "/result/tools/0/inputSchema",
    ),
    x(
        "mcp.tools.name-format",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"get weather","inputSchema":{"type":"object"}}]}}"#,
        ),
        "/result/tools/0/name",
    ),
    x(
        "mcp.tools.name-unique",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"a","inputSchema":{"type":"object"}}]}}"#,
        ),
        "/result/tools/1/name",
    ),
    x(
        "jsonrpc.response.required",
        "jsonrpc-2.0",
        r#"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"}]"#,
        None,
        "/0",
    ),
    x(
        "jsonrpc.response.required",
        "2025-06-18",
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        Some(r#"[{"jsonrpc":"2.0","id":2,"result":{}}]"#),
        "",
    ),
    x(
        "mcp.lifecycle.server-responds",
        "2024-11-05",
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2024-11-05","capabilities":{},"serverInfo":{"name":"s"}}}"#,
        ),
        "/result/serverInfo",
    ),
    x(
        "mcp.tasks.initial-working",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","task":{"ttl":1000}}}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"a","status":"completed","createdAt":"2025-11-25T00:00:00Z","lastUpdatedAt":"2025-11-25T00:00:00Z","ttl":1000}}}"#,
        ),
        "/result/task/status",
    ),
    x(
        "jsonrpc.notification.no-reply",
        "jsonrpc-2.0",
        r#"{"jsonrpc":"2.0","method":"update"}"#,
        Some(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found"}}"#),
        "",
    ),
    x(
        "jsonrpc.notification.no-reply",
        "2024-11-05",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        Some(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found"}}"#),
        "",
    ),
    x(
        "jsonrpc.batch.respond-array",
        "jsonrpc-2.0",
        r#"[{"jsonrpc":"2.0","id":1,"method":"a"}]"#,
        Some(r#"{"jsonrpc":"2.0","id":1,"result":0}"#),
        "",
    ),
    x(
        "jsonrpc.batch.one-response-per-request",
        "jsonrpc-2.0",
        r#"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":2,"method":"b"}]"#,
        Some(r#"[{"jsonrpc":"2.0","id":1,"result":0}]"#),
        "/1",
    ),
    // ---- exchanges: MCP ids
    x(
        "mcp.base.response-id-match",
        "2025-03-26",
        r#"{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}"#,
        Some(r#"{"jsonrpc":"2.0","id":9007199254740992,"result":{}}"#),
        "/id",
    ),
    x(
        "mcp.base.response-id-match",
        "2025-03-26",
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]"#,
        Some(r#"[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{}}]"#),
        "/1/id",
    ),
    x(
        "mcp.base.result-response-id",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":"1","method":"ping"}"#,
        Some(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
        "/id",
    ),
    x(
        "mcp.base.error-response-id",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#,
        Some(r#"{"jsonrpc":"2.0","error":{"code":-32602,"message":"Unknown tool"}}"#),
        "",
    ),
    x(
        "mcp.base.notification-no-response",
        "2025-06-18",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        Some(r#"{"jsonrpc":"2.0","id":null,"result":{}}"#),
        "",
    ),
    // ---- exchanges: batches
    x(
        "mcp.batch.must-receive",
        "2025-03-26",
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#,
        Some(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#),
        "",
    ),
    x(
        "jsonrpc.error.code-meaning",
        "jsonrpc-2.0",
        r#"{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]}"#,
        Some(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32700,"message":"Parse error"}}"#),
        "/error/code",
    ),
    x(
        "mcp.batch.refused-after-removal",
        "2025-11-25",
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
        None,
        "",
    ),
    x(
        "mcp.batch.accepted-after-removal",
        "2025-06-18",
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
        Some(r#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#),
        "",
    ),
    // ---- exchanges: results
    x(
        "mcp.lifecycle.server-responds",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}"#,
        ),
        "/result",
    ),
    x(
        "mcp.ping.respond",
        "2025-06-18",
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        Some(r#"{"jsonrpc":"2.0","id":1,"result":{"pong":true}}"#),
        "/result",
    ),
    x(
        "mcp.schema.result",
        "2025-06-18",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        Some(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
        "/result",
    ),
    x(
        "mcp.schema.result",
        "2025-06-18",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#,
        Some(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":"no"}}"#),
        "/result/isError",
    ),
    x(
        "mcp.schema.result",
        "2026-07-28",
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"#,
            r5_meta!(),
            "}}"
        ),
        Some(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[]}}"#),
        "/result",
    ),
    x(
        "mcp.tools.structured-content-text",
        "2025-06-18",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#,
        Some(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"a":1}}}"#),
        "/result/content",
    ),
    x(
        "mcp.completion.max-100-r1",
        "2025-06-18",
        r#"{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}}"#,
        Some(HUNDRED_AND_ONE),
        "/result/completion/values",
    ),
    x(
        "mcp.completion.max-100",
        "2026-07-28",
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""},"#,
            r5_meta!(),
            "}}"
        ),
        Some(HUNDRED_AND_ONE),
        "/result/completion/values",
    ),
    // ---- exchanges: 2026-07-28
    x(
        "mcp.error.code.resource-not-found-32602",
        "2026-07-28",
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///x","#,
            r5_meta!(),
            "}}"
        ),
        Some(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"Resource not found"}}"#),
        "/error/code",
    ),
    x(
        "mcp.r5.meta.missing-required",
        "2026-07-28",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{}}}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"public"}}"#,
        ),
        "",
    ),
    x(
        "mcp.r5.version.unsupported",
        "2026-07-28",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
        Some(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad version"}}"#),
        "/error/code",
    ),
    x(
        "mcp.r5.discover.required",
        "2026-07-28",
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"#,
            r5_meta!(),
            "}}"
        ),
        Some(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#),
        "/error/code",
    ),
    x(
        "mcp.r5.legacy-initialize-error",
        "2026-07-28",
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        Some(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#),
        "/error",
    ),
    x(
        "mcp.r5.mrtr.input-required-methods",
        "2026-07-28",
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"#,
            r5_meta!(),
            "}}"
        ),
        Some(
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s"}}"#,
        ),
        "/result/resultType",
    ),
    // ---- closing the gap: sentences the inventory listed as not yet checked
    f(
        "jsonrpc.error.message-single-sentence",
        "jsonrpc-2.0",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params. Expected an object."}}"#,
        "/error/message",
    ),
    f(
        "mcp.r5.subscription-id-notifications",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}}"#,
        "/params",
    ),
    f(
        "mcp.r5.logging.not-on-subscription",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x","_meta":{"io.modelcontextprotocol/subscriptionId":1}}}"#,
        "/params/_meta/io.modelcontextprotocol~1subscriptionId",
    ),
    x(
        "mcp.logging.invalid-level",
        "2025-06-18",
        r#"{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"verbose"}}"#,
        Some(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
        "",
    ),
    x(
        "mcp.r5.cache.ttl-non-negative",
        "2026-07-28",
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"#,
            r5_meta!(),
            "}}"
        ),
        Some(
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[],"ttlMs":-1,"cacheScope":"public"}}"#,
        ),
        "/result/ttlMs",
    ),
    x(
        "mcp.r5.mrtr.input-requests-declared",
        "2026-07-28",
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","#,
            r5_meta!(),
            "}}"
        ),
        Some(
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"ask":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}}}}"#,
        ),
        "/result/inputRequests/ask",
    ),
    x(
        "mcp.r5.mrtr.include-context-declared",
        "2026-07-28",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"s":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"includeContext":"allServers"}}}}}"#,
        ),
        "/result/inputRequests/s",
    ),
    // ---- tasks, content, tool headers, server requests: each frame is its rule's
    // vector (named beside it) so the case and the vector cannot drift apart
    // 2025-11-25/methods/n_tasks-result-without-related-task
    x(
        "mcp.tasks.result-related-task",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":5,"method":"tasks/result","params":{"taskId":"t1"}}"#,
        Some(r#"{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"hello"}]}}"#),
        "/result",
    ),
    // 2025-11-25/methods/n_tasks-get-related-task-followed (its request frame)
    f(
        "mcp.tasks.related-task-redundant",
        "2025-11-25",
        "client",
        r#"{"jsonrpc":"2.0","id":6,"method":"tasks/get","params":{"taskId":"t1","_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t2"}}}}"#,
        "/params/_meta/io.modelcontextprotocol~1related-task",
    ),
    // 2025-11-25/methods/y_tasks-get-result-related-task
    x(
        "mcp.tasks.related-task-result-redundant",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":6,"method":"tasks/get","params":{"taskId":"t1"}}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":6,"result":{"taskId":"t1","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":60000,"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t1"}}}}"#,
        ),
        "/result/_meta/io.modelcontextprotocol~1related-task",
    ),
    // 2025-11-25/methods/n_tasks-get-result-other-task
    x(
        "mcp.tasks.task-id-source-of-truth",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":6,"method":"tasks/get","params":{"taskId":"t1"}}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":6,"result":{"taskId":"t2","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:05:00Z","ttl":60000}}"#,
        ),
        "/result/taskId",
    ),
    // 2025-11-25/methods/n_tasks-cancel-result-working
    x(
        "mcp.tasks.cancel-result-cancelled",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":7,"method":"tasks/cancel","params":{"taskId":"t1"}}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":7,"result":{"taskId":"t1","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:05:00Z","ttl":60000}}"#,
        ),
        "/result/status",
    ),
    // 2025-11-25/methods/y_tasks-get-result-failed-without-message
    x(
        "mcp.tasks.failed-status-message",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":6,"method":"tasks/get","params":{"taskId":"t1"}}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":6,"result":{"taskId":"t1","status":"failed","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:05:00Z","ttl":60000}}"#,
        ),
        "/result",
    ),
    // 2025-11-25/prompts/n_get-result-image-not-base64
    x(
        "mcp.content.base64",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"code_review","arguments":{"code":"def f(): pass"}}}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":2,"result":{"messages":[{"role":"user","content":{"type":"image","data":"not base64!","mimeType":"image/png"}}]}}"#,
        ),
        "/result/messages/0/content/data",
    ),
    // 2025-11-25/prompts/n_get-result-embedded-resource-without-mime-type
    x(
        "mcp.content.embedded-resource",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"code_review","arguments":{"code":"def f(): pass"}}}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":2,"result":{"messages":[{"role":"user","content":{"type":"resource","resource":{"uri":"resource://example","text":"Resource content"}}}]}}"#,
        ),
        "/result/messages/0/content/resource",
    ),
    // 2025-11-25/resources/n_list-result-uri-without-scheme
    x(
        "mcp.resources.uri-scheme",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":1,"result":{"resources":[{"uri":"/project/README.md","name":"README.md"}]}}"#,
        ),
        "/result/resources/0/uri",
    ),
    // 2026-07-28/tools/n_list-result-x-mcp-header-not-a-token
    x(
        "mcp.r5.tools.x-mcp-header",
        "2026-07-28",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"route","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Re gion"}}}}],"resultType":"complete","ttlMs":60000,"cacheScope":"public"}}"#,
        ),
        "/result/tools/0/inputSchema/properties/region/x-mcp-header",
    ),
    // 2025-11-25/elicitation/n_request-url-mode-without-elicitation-id
    f(
        "mcp.elicitation.mode-params",
        "2025-11-25",
        "server",
        r#"{"jsonrpc":"2.0","id":9,"method":"elicitation/create","params":{"mode":"url","message":"Sign in","url":"https://example.com/connect"}}"#,
        "/params",
    ),
    // 2025-11-25/sampling/n_request-tool-result-mixed
    f(
        "mcp.sampling.tool-results-only",
        "2025-11-25",
        "server",
        r#"{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Search for mcp"}},{"role":"assistant","content":[{"type":"tool_use","id":"u1","name":"search","input":{"q":"mcp"}}]},{"role":"user","content":[{"type":"tool_result","toolUseId":"u1","content":[{"type":"text","text":"found"}]},{"type":"text","text":"and more"}]}],"maxTokens":100,"tools":[{"name":"search","inputSchema":{"type":"object"}}]}}"#,
        "/params/messages/2/content",
    ),
    // 2025-11-25/sampling/n_request-tool-use-unanswered
    f(
        "mcp.sampling.tool-use-balance",
        "2025-11-25",
        "server",
        r#"{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Search for mcp"}},{"role":"assistant","content":[{"type":"tool_use","id":"u1","name":"search","input":{"q":"mcp"}}]},{"role":"user","content":{"type":"text","text":"never mind"}}],"maxTokens":100,"tools":[{"name":"search","inputSchema":{"type":"object"}}]}}"#,
        "/params/messages/1",
    ),
    // 2026-07-28/sampling/n_request-message-role-system
    f(
        "mcp.r5.sampling.message-shape",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"sampling/createMessage","params":{"messages":[{"role":"system","content":{"type":"text","text":"hi"}}],"maxTokens":10}}}}}"#,
        "/result/inputRequests/a/params/messages/0",
    ),
    // 2026-07-28/mrtr/n_input-request-tools-call
    f(
        "mcp.r5.mrtr.input-request-type",
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","inputRequests":{"t":{"method":"tools/call","params":{"name":"echo"}}}}}"#,
        "/result/inputRequests/t/method",
    ),
    // 2025-11-25/methods/n_roots-list-answered-https-uri
    xs(
        "mcp.roots.file-uri",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":10,"method":"roots/list"}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":10,"result":{"roots":[{"uri":"https://example.com/repo"}]}}"#,
        ),
        "/result/roots/0/uri",
    ),
    // 2025-11-25/sampling/n_tool-choice-none-answered-with-tool-use
    xs(
        "mcp.sampling.tool-choice-none",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Search"}}],"maxTokens":100,"tools":[{"name":"search","inputSchema":{"type":"object"}}],"toolChoice":{"mode":"none"}}}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":9,"result":{"role":"assistant","content":[{"type":"text","text":"Searching."},{"type":"tool_use","id":"u1","name":"search","input":{}}],"model":"m","stopReason":"toolUse"}}"#,
        ),
        "/result/content/1",
    ),
    // 2025-11-25/sampling/n_tool-choice-required-answered-with-text
    xs(
        "mcp.sampling.tool-choice-required",
        "2025-11-25",
        r#"{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Search"}}],"maxTokens":100,"tools":[{"name":"search","inputSchema":{"type":"object"}}],"toolChoice":{"mode":"required"}}}"#,
        Some(
            r#"{"jsonrpc":"2.0","id":9,"result":{"role":"assistant","content":{"type":"text","text":"No."},"model":"m","stopReason":"endTurn"}}"#,
        ),
        "/result/content",
    ),
    // 2026-07-28/extensions/n_client-extension-without-prefix
    f(
        "mcp.r5.extensions.identifier",
        "2026-07-28",
        "client",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"ui":{}}}}}}"#,
        "/params/_meta/io.modelcontextprotocol~1clientCapabilities/extensions/ui",
    ),
    // 2025-11-25/json-schema/n_elicitation-requested-schema-invalid
    f(
        "mcp.json-schema.valid",
        "2025-11-25",
        "server",
        r#"{"jsonrpc":"2.0","id":9,"method":"elicitation/create","params":{"message":"Your city?","requestedSchema":{"type":"object","properties":{"city":{"type":"strnig"}}}}}"#,
        "/params/requestedSchema/properties/city/type",
    ),
    // 2026-07-28/json-schema/n_tools-list-input-schema-invalid
    x(
        "mcp.json-schema.tools-valid",
        "2026-07-28",
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"#,
            r5_meta!(),
            "}}"
        ),
        Some(
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[{"name":"weather","inputSchema":{"type":"object","properties":{"city":{"type":"strnig"}}}}],"ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}}"#,
        ),
        "/result/tools/0/inputSchema/properties/city/type",
    ),
    // 2025-11-25/json-schema/y_sampling-tool-result-breaks-output-schema
    f(
        "mcp.sampling.tool-result-conform",
        "2025-11-25",
        "server",
        r##"{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Weather in Paris?"}},{"role":"assistant","content":[{"type":"tool_use","id":"u1","name":"weather","input":{"city":"Paris"}}]},{"role":"user","content":[{"type":"tool_result","toolUseId":"u1","content":[{"type":"text","text":"done"}],"structuredContent":{"temperature":-300}}]}],"maxTokens":100,"tools":[{"name":"weather","inputSchema":{"type":"object"},"outputSchema":{"type":"object","$defs":{"c":{"type":"number","minimum":-273.15}},"properties":{"temperature":{"$ref":"#/$defs/c"}}}}]}}"##,
        "/params/messages/2/content/0/structuredContent/temperature",
    ),
];

const HUNDRED_AND_ONE: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"completion":{"values":["0","1","2","3","4","5","6","7","8","9","0","1","2","3","4","5","6","7","8","9","0","1","2","3","4","5","6","7","8","9","0","1","2","3","4","5","6","7","8","9","0","1","2","3","4","5","6","7","8","9","0","1","2","3","4","5","6","7","8","9","0","1","2","3","4","5","6","7","8","9","0","1","2","3","4","5","6","7","8","9","0","1","2","3","4","5","6","7","8","9","0","1","2","3","4","5","6","7","8","9","x"]}}}"#;

fn run(case: &Case) -> Vec<Violation> {
    match case.reply {
        None => frame(case.revision, case.from, case.frame),
        Some(reply) => exchange(case.revision, case.from, case.frame, reply),
    }
}

#[test]
fn every_case_reports_its_rule_at_its_pointer() {
    let mut failures = Vec::new();
    for case in CASES {
        let got = run(case);
        let hit = got.iter().find(|v| v.rule == case.rule);
        match hit {
            None => failures.push(format!(
                "{} under {} not reported for {}; got {:?}",
                case.rule,
                case.revision,
                case.frame,
                ids(&got)
            )),
            Some(v) => {
                let info = rules::rule(case.rule).unwrap();
                assert_eq!(v.level, info.level, "{}", case.rule);
                assert_eq!(
                    v.spec,
                    info.cite(case.revision.parse().unwrap()),
                    "{}",
                    case.rule
                );
                if v.pointer != case.pointer {
                    failures.push(format!(
                        "{} at {:?}, expected {:?} ({})",
                        case.rule, v.pointer, case.pointer, v.message
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each case's frame, judged under a revision the rule does not apply to,
/// does not report it: the revision ranges in the table are what gate a rule.
#[test]
fn rules_stay_within_their_revisions() {
    for case in CASES {
        let info = rules::rule(case.rule).unwrap();
        for revision in Revision::ALL {
            if info.applies_to(revision) {
                continue;
            }
            let other = Case {
                revision: revision.name(),
                ..*case
            };
            let got = run(&other);
            assert!(
                !ids(&got).contains(&case.rule),
                "{} reported under {revision}, outside its revisions",
                case.rule
            );
        }
    }
}

#[test]
fn every_checked_rule_has_a_case() {
    let covered: BTreeSet<&str> = CASES.iter().map(|c| c.rule).collect();
    let missing: Vec<&str> = rules::rules()
        .iter()
        .filter(|r| matches!(r.check, CheckedBy::Frame | CheckedBy::Reply))
        .map(|r| r.id.as_str())
        .filter(|id| !covered.contains(id))
        .collect();
    assert!(
        missing.is_empty(),
        "checked rules without a case: {missing:?}"
    );
}

#[test]
fn catalogue_is_one_consistent_table() {
    let rules = rules::rules();
    let mut seen = BTreeSet::new();
    for r in rules {
        assert!(seen.insert(r.id), "duplicate id {}", r.id);
        assert!(
            !r.quote.is_empty() && !r.spec.is_empty(),
            "{} lacks its text",
            r.id
        );
        assert!(r.revisions.iter().count() > 0, "{} applies nowhere", r.id);
        if let CheckedBy::Unchecked(reason) = r.check {
            assert!(!reason.is_empty(), "{} is unchecked without a reason", r.id);
        }
        if r.id.as_str().starts_with("mcp.") {
            assert!(!r.applies_to(Revision::JsonRpc2), "{} is MCP-only", r.id);
        }
    }
    // The codec's refusal rules come first, checked by the codec, each at the
    // text's level: MUST, except RFC 8259's SHOULD (unique names) and MAYs (a
    // receiver's limits) and JSON-RPC's silence on extra members (MAY).
    for (rule, info) in harness::Rule::ALL.iter().zip(rules) {
        assert_eq!(info.id, rule.id());
        let text_level = match rule.id() {
            "jsonrpc.duplicate-member" => Level::Should,
            "json.depth-limit" | "json.frame-too-large" | "jsonrpc.method-with-response" => {
                Level::May
            }
            _ => Level::Must,
        };
        assert_eq!(info.level, text_level, "{}", rule.id());
        assert_eq!(info.check, CheckedBy::Codec);
        assert_eq!(rules::rule(rule.id()), Some(info));
    }
    assert!(rules::rule("no.such-rule").is_none());
}

/// `RuleId` is the table: `ALL` is `rules()` in order, each id's wire spelling
/// reads back through `FromStr`, serde and `rule`, and the codec's rules map both
/// ways.
#[test]
fn rule_ids_are_the_table_and_spell_as_before() {
    assert_eq!(RuleId::ALL.len(), rules::rules().len());
    for (id, info) in RuleId::ALL.into_iter().zip(rules::rules()) {
        assert_eq!(info.id, id);
        assert!(std::ptr::eq(id.info(), info), "{id}");
        assert_eq!(id.to_string(), id.as_str());
        assert_eq!(id.as_str().parse::<RuleId>(), Ok(id));
        assert_eq!(rules::rule(id.as_str()), Some(info));
        let json = serde_json::to_string(&id).unwrap();
        assert_eq!(json, format!("\"{}\"", id.as_str()));
        assert_eq!(serde_json::from_str::<RuleId>(&json).unwrap(), id);
        assert_eq!(id.codec().is_some(), info.check == CheckedBy::Codec, "{id}");
    }
    let sorted: Vec<RuleId> = RuleId::ALL
        .iter()
        .copied()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(sorted, RuleId::ALL, "Ord follows the table");
    for rule in harness::Rule::ALL {
        let id = RuleId::from(rule);
        assert_eq!(id.codec(), Some(rule));
        assert_eq!(id.as_str(), rule.id());
        assert_eq!(id.info().spec, rule.spec());
        assert_eq!(harness::Rule::from_id(rule.id()), Some(rule));
    }
    // Spot checks of the wire spelling, which reports and vectors depend on.
    assert_eq!(RuleId::McpBaseIdNotNull.as_str(), "mcp.base.id-not-null");
    assert_eq!(
        RuleId::from(harness::Rule::IdType).as_str(),
        "jsonrpc.id-type"
    );
    assert_eq!(harness::Rule::JsonSyntax.code(), -32700);
    assert_eq!(harness::Rule::IdType.code(), -32600);
    let err = "mcp.base.id-tpye".parse::<RuleId>().unwrap_err();
    assert_eq!(err.to_string(), "unknown rule id `mcp.base.id-tpye`");
    assert!(serde_json::from_str::<RuleId>("\"no.such-rule\"").is_err());
    assert_eq!(harness::Rule::from_id("mcp.base.id-not-null"), None);
}

#[test]
fn levels_read_and_write_as_the_spec_spells_them() {
    for level in Level::ALL {
        let json = serde_json::to_string(&level).unwrap();
        assert_eq!(json, format!("\"{}\"", level.name()));
        assert_eq!(serde_json::from_str::<Level>(&json).unwrap(), level);
        assert_eq!(level.name().parse::<Level>().unwrap(), level);
        assert_eq!(
            level.is_mandatory(),
            matches!(level, Level::Must | Level::MustNot)
        );
    }
    assert_eq!(Level::MustNot.to_string(), "MUST NOT");
    assert!("must".parse::<Level>().is_err());
}

#[test]
fn violations_serialize_in_field_order() {
    let v = frame(
        "2025-06-18",
        "client",
        r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
    );
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(
        serde_json::to_string(&v[0]).unwrap(),
        r#"{"rule":"mcp.base.id-not-null","level":"MUST NOT","spec":"MCP 2025-06-18 basic/index §Messages › Requests","pointer":"/id","message":"request id is null"}"#
    );
}

#[test]
fn a_frame_that_does_not_lift_is_one_refusal() {
    let v = frame(
        "2025-06-18",
        "client",
        r#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#,
    );
    assert_eq!(ids(&v), ["json.syntax"]);
    assert_eq!(v[0].level, Level::Must);
    assert_eq!(v[0].spec, "RFC 8259 §2");
    let v = frame(
        "jsonrpc-2.0",
        "client",
        r#"{"jsonrpc":"2.0","id":true,"method":"a"}"#,
    );
    assert_eq!(ids(&v), ["jsonrpc.id-type"]);
    assert_eq!(v[0].pointer, "/id");
    assert_eq!(
        ids(&frame("2026-07-28", "server", "[]")),
        ["jsonrpc.batch-empty"]
    );
}

/// Frames and exchanges every profile must accept: a check that fires on them
/// is wrong, not strict.
#[test]
fn conforming_traffic_is_clean() {
    let clean_frames: &[(&str, &str, &str)] = &[
        (
            "jsonrpc-2.0",
            "client",
            r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
        ),
        (
            "jsonrpc-2.0",
            "client",
            r#"[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]"#,
        ),
        (
            "jsonrpc-2.0",
            "server",
            r#"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#,
        ),
        (
            "2024-11-05",
            "client",
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        ),
        (
            "2024-11-05",
            "client",
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ),
        (
            "2024-11-05",
            "client",
            r#"{"jsonrpc":"2.0","id":1,"method":"x-vendor/custom","params":{"_meta":{"1bad/x":1}}}"#,
        ),
        (
            "2025-03-26",
            "client",
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}]"#,
        ),
        (
            "2025-06-18",
            "client",
            r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"t","arguments":{},"_meta":{"progressToken":5,"com.example/trace":"x"}}}"#,
        ),
        (
            "2025-06-18",
            "server",
            r#"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}}"#,
        ),
        (
            "2025-11-25",
            "server",
            r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#,
        ),
        (
            "2025-11-25",
            "server",
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32042,"message":"x","data":{"elicitations":[{"mode":"url","elicitationId":"e","url":"https://example.com","message":"m"}]}}}"#,
        ),
        (
            "2025-11-25",
            "client",
            r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t"}}"#,
        ),
        (
            "2025-11-25",
            "client",
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t"},"com.example.mcp/x":1}}}"#,
        ),
        (
            "2026-07-28",
            "client",
            concat!(
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","#,
                r5_meta!(),
                "}}"
            ),
        ),
        (
            "2026-07-28",
            "client",
            concat!(
                r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"#,
                r5_meta!(),
                "}}"
            ),
        ),
        (
            "2026-07-28",
            "server",
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"1900-01-01"}}}"#,
        ),
        (
            "2026-07-28",
            "server",
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Resource not found"}}"#,
        ),
        (
            "2026-07-28",
            "server",
            r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{},"_meta":{"io.modelcontextprotocol/subscriptionId":1}}}"#,
        ),
    ];
    // A `_meta` inside application data is the application's.
    let args = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"_meta":{"-odd key":1}}}}"#;
    assert_eq!(frame("2025-06-18", "client", args), []);
    for (revision, from, text) in clean_frames {
        assert_eq!(frame(revision, from, text), [], "{revision} {from}: {text}");
    }
    let server_result = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"public",{R5_SERVER_META}}}}}"#
    );
    assert_eq!(frame("2026-07-28", "server", &server_result), []);
    let clean_exchanges: &[(&str, &str, Option<&str>)] = &[
        (
            "jsonrpc-2.0",
            r#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#,
            Some(
                r#"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}"#,
            ),
        ),
        (
            "jsonrpc-2.0",
            r#"{"jsonrpc": "2.0", "method": "foobar"}"#,
            None,
        ),
        (
            "jsonrpc-2.0",
            r#"[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]"#,
            None,
        ),
        (
            "jsonrpc-2.0",
            r#"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":"2","method":"b"}]"#,
            Some(
                r#"[{"jsonrpc":"2.0","id":"2","result":7},{"jsonrpc":"2.0","id":1.0,"result":[]}]"#,
            ),
        ),
        (
            "2025-03-26",
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#,
            Some(
                r#"[{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","id":1,"result":{"_meta":{}}}]"#,
            ),
        ),
        (
            "2025-06-18",
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
            Some(
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#,
            ),
        ),
        (
            "2025-06-18",
            r#"{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}"#,
            Some(r#"{"jsonrpc":"2.0","id":9007199254740993,"result":{}}"#),
        ),
        (
            "2025-06-18",
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#,
            Some(
                r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"a\": 1}"}],"structuredContent":{"a":1},"isError":false}}"#,
            ),
        ),
        (
            "2025-11-25",
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
            Some(
                r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#,
            ),
        ),
        (
            "2025-11-25",
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///x"}}"#,
            Some(
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"Resource not found"}}"#,
            ),
        ),
        (
            "2026-07-28",
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{}}}"#,
            Some(
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Missing protocol fields"}}"#,
            ),
        ),
        (
            "2026-07-28",
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
            Some(
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"1900-01-01"}}}"#,
            ),
        ),
        (
            "2026-07-28",
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
            Some(
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}}"#,
            ),
        ),
    ];
    let tools = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"get_weather.v2","inputSchema":{"type":"object","additionalProperties":false}},{"name":"b","inputSchema":{"type":"object"}}]}}"#;
    assert_eq!(
        exchange(
            "2025-11-25",
            "client",
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            Some(tools)
        ),
        []
    );
    let task = r#"{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"a","status":"working","createdAt":"2025-11-25T00:00:00Z","lastUpdatedAt":"2025-11-25T00:00:00Z","ttl":null}}}"#;
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","task":{}}}"#;
    assert_eq!(exchange("2025-11-25", "client", call, Some(task)), []);
    for (revision, request, reply) in clean_exchanges {
        assert_eq!(
            exchange(revision, "client", request, *reply),
            [],
            "{revision}: {request} -> {reply:?}"
        );
    }
    let r5 = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","#,
        r5_meta!(),
        "}}"
    );
    let reply = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","requestState":"s",{R5_SERVER_META}}}}}"#
    );
    assert_eq!(exchange("2026-07-28", "client", r5, Some(&reply)), []);
}

/// Messages name the interop failure, so a reader sees what went wrong.
#[test]
fn retired_codes_are_reported_once() {
    let v = frame(
        "2026-07-28",
        "server",
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32042,"message":"x"}}"#,
    );
    assert_eq!(ids(&v), ["mcp.error.retired-codes"]);
}

#[test]
fn id_mismatches_are_named() {
    let v = exchange(
        "jsonrpc-2.0",
        "client",
        r#"{"jsonrpc":"2.0","id":"1","method":"a"}"#,
        Some(r#"{"jsonrpc":"2.0","id":1,"result":0}"#),
    );
    assert!(
        v[0].message.contains("type changed from string to number"),
        "{}",
        v[0].message
    );
    let v = exchange(
        "2025-03-26",
        "client",
        r#"{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}"#,
        Some(r#"{"jsonrpc":"2.0","id":9007199254740992,"result":{}}"#),
    );
    assert!(v[0].message.contains("rounded"), "{}", v[0].message);
}

#[test]
fn cite_names_the_revision() {
    let info = rules::rule("mcp.batch.removed").unwrap();
    assert!(info
        .cite(Revision::Mcp2025_06_18)
        .starts_with("MCP 2025-06-18 "));
    let info = rules::rule("jsonrpc.response.required").unwrap();
    assert_eq!(info.cite(Revision::Mcp2026_07_28), "JSON-RPC 2.0 §5");
    let info = rules::rule("mcp.batch.accepted-after-removal").unwrap();
    assert_eq!(
        info.cite(Revision::Mcp2025_11_25),
        "MCP 2025-06-18 changelog §Major changes"
    );
    let info = rules::rule("mcp.batch.removed").unwrap();
    assert_eq!(
        info.cite(Revision::Mcp2026_07_28),
        "MCP 2026-07-28 basic/transports/streamable-http §Sending Messages; 2025-06-18 changelog §Major changes"
    );
    let info = rules::rule("mcp.base.id-not-null").unwrap();
    assert_eq!(
        info.cite(Revision::Mcp2024_11_05),
        "MCP 2024-11-05 basic/messages §Requests"
    );
    assert_eq!(
        info.cite(Revision::Mcp2026_07_28),
        "MCP 2026-07-28 basic/index §Messages › Requests"
    );
}

/// Bad input never panics the rule model: every case and clean frame, mutated
/// byte by byte (seeded, so a failure reproduces), judged under every profile
/// and paired with every other as request and reply. Whatever is reported
/// names a catalogued rule and a well-formed pointer.
#[test]
fn smoke_mutated_frames_never_panic() {
    let mut seeds: Vec<Vec<u8>> = CASES.iter().map(|c| c.frame.as_bytes().to_vec()).collect();
    seeds.extend(
        CASES
            .iter()
            .filter_map(|c| c.reply.flatten())
            .map(|r| r.as_bytes().to_vec()),
    );
    let mut state: u64 = 0x5eed_cafe;
    let mut next = move |bound: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(state >> 33).unwrap() % bound.max(1)
    };
    const BYTES: &[u8] = b"{}[]\":,0123456789.-eE nultrfas\\/_\x00\xff";
    let mut frames = Vec::new();
    for seed in &seeds {
        frames.push(seed.clone());
        for _ in 0..12 {
            let mut m = seed.clone();
            for _ in 0..=next(3) {
                let at = next(m.len());
                match next(3) {
                    0 if !m.is_empty() => {
                        m.remove(at);
                    }
                    1 => m.insert(at, BYTES[next(BYTES.len())]),
                    _ if !m.is_empty() => m[at] = BYTES[next(BYTES.len())],
                    _ => {}
                }
            }
            frames.push(m);
        }
    }
    let lifted: Vec<_> = frames.iter().filter_map(|f| lift(f).ok()).collect();
    assert!(lifted.len() > seeds.len(), "some mutants still lift");
    let well_formed = |v: &Violation| {
        assert_eq!(
            rules::rule(v.rule.as_str()),
            Some(v.rule.info()),
            "{}",
            v.rule
        );
        // Only rules one frame or one exchange can show are reported here:
        // never a session, transport or unchecked rule.
        assert!(v.rule.info().check.is_per_frame(), "{} is reported", v.rule);
        assert!(
            v.pointer.is_empty() || v.pointer.starts_with('/'),
            "{}",
            v.pointer
        );
    };
    for revision in Revision::ALL {
        for from in ["client", "server"] {
            let p = profile(revision.name(), from);
            for f in &frames {
                rules::validate(f, p).iter().for_each(well_formed);
            }
            for (i, request) in lifted.iter().enumerate().step_by(3) {
                rules::validate_reply(request, None, p)
                    .iter()
                    .for_each(well_formed);
                for reply in lifted.iter().skip(i % 7).step_by(11) {
                    rules::validate_reply(request, Some(reply), p)
                        .iter()
                        .for_each(well_formed);
                }
            }
        }
    }
}

/// The rule-model chapter's (`conformance/book/rules.md`) table of rule counts per
/// revision, as the catalogue gives it.
fn rule_counts_table() -> String {
    let mut table = String::from(
        "| profile | rules known | checked per frame (codec + rule model) | checked on an exchange | checked on the session | checked on the transport | checked by what only wirecheck knows (runner, client judge) | not checked (with reason) |\n|---|---|---|---|---|---|---|---|\n",
    );
    for revision in Revision::ALL {
        let rules: Vec<_> = rules::rules()
            .iter()
            .filter(|r| r.applies_to(revision))
            .collect();
        let count = |f: &dyn Fn(CheckedBy) -> bool| rules.iter().filter(|r| f(r.check)).count();
        let codec = count(&|c| c == CheckedBy::Codec);
        let frame = count(&|c| c == CheckedBy::Frame);
        table.push_str(&format!(
            "| {} | {} | {} ({codec} + {frame}) | {} | {} | {} | {} | {} |\n",
            revision.name(),
            rules.len(),
            codec + frame,
            count(&|c| c == CheckedBy::Reply),
            count(&|c| c == CheckedBy::Session),
            count(&|c| c == CheckedBy::Transport),
            count(&|c| c == CheckedBy::Runner),
            count(&|c| matches!(c, CheckedBy::Unchecked(_))),
        ));
    }
    table
}

/// The counts in `conformance/book/rules.md` are the catalogue's (regenerate with
/// `BLESS=1 cargo test -p wirecheck-harness --test suite -- rules::book_rule_counts --nocapture`,
/// which prints the table to paste; tests never write into the source tree).
#[test]
fn book_rule_counts_are_current() {
    let table = rule_counts_table();
    if std::env::var_os("BLESS").is_some() {
        println!("{table}");
    }
    let chapter = include_str!("../../conformance/book/rules.md");
    let section = chapter
        .split("<!-- rule-counts:begin -->\n")
        .nth(1)
        .and_then(|rest| rest.split("<!-- rule-counts:end -->").next())
        .expect("conformance/book/rules.md has the rule-counts markers");
    assert_eq!(
        section, table,
        "conformance/book/rules.md's rule counts are stale:\n{table}"
    );
}

// ---- verdicts no sentence supports ----------------------------------------------

/// A 2025-03-26 batch the revision itself makes invalid (`initialize` inside
/// it, or requests mixed with responses) refused whole with one error was
/// received and its fault answered; it breaks no rule of the exchange. A valid
/// batch refused whole still fails `mcp.batch.must-receive`.
#[test]
fn an_invalid_r2_batch_refused_whole_is_no_failure_to_receive() {
    let refusal =
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#;
    let with_initialize = r#"[{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"c","version":"1"}}},{"jsonrpc":"2.0","id":1,"method":"tools/list"}]"#;
    let mixed =
        r#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":7,"result":{}}]"#;
    for request in [with_initialize, mixed] {
        let found = exchange("2025-03-26", "client", request, Some(refusal));
        assert!(found.is_empty(), "{request}: {:?}", ids(&found));
        let idless = r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}"#;
        let found = exchange("2025-03-26", "client", request, Some(idless));
        assert!(found.is_empty(), "{request}: {:?}", ids(&found));
    }
    let valid =
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#;
    assert!(ids(&exchange("2025-03-26", "client", valid, Some(refusal)))
        .contains(&"mcp.batch.must-receive"));
}

/// A batch whose requests repeat an id (the client's fault, which a fuzzer
/// sends) answered once per request: each response pairs with one request,
/// so the server is blamed for nothing (found fuzzing the rich conformant
/// server: the second answer was "answers no request of the batch").
#[test]
fn a_batch_repeating_an_id_answered_once_per_request_is_paired_one_to_one() {
    let request =
        r#"[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#;
    let answer = r#"[{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","id":2,"result":{}}]"#;
    let found = exchange("2025-03-26", "client", request, Some(answer));
    assert!(
        !ids(&found).contains(&"mcp.base.response-id-match"),
        "{:?}",
        ids(&found)
    );
    // One answer for two requests still leaves one unanswered.
    let short = r#"[{"jsonrpc":"2.0","id":2,"result":{}}]"#;
    assert!(ids(&exchange("2025-03-26", "client", request, Some(short)))
        .contains(&"jsonrpc.batch.one-response-per-request"));
}

/// A 2024-11-05 batch answered element by element is what JSON-RPC 2.0 §6 asks
/// for, and 2024-11-05 says nothing against it: the server's array draws no
/// `mcp.batch.none-r1`; the client's batch still does.
#[test]
fn a_2024_11_05_batch_answered_per_element_draws_no_warning() {
    let answer = r#"[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{}}]"#;
    assert_eq!(
        ids(&frame("2024-11-05", "server", answer)),
        Vec::<&str>::new()
    );
    let request =
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#;
    assert_eq!(
        ids(&frame("2024-11-05", "client", request)),
        ["mcp.batch.none-r1"]
    );
    assert!(exchange("2024-11-05", "client", request, Some(answer)).is_empty());
}

/// A codec refusal is reported at the level its text gives, so a server's reply
/// with a duplicate name warns (RFC 8259 §4, SHOULD), one nested past the
/// codec's limit is a MAY (RFC 8259 §9: the receiver's own limit) and an object
/// with `method` and `result` breaks no keyword.
#[test]
fn codec_refusals_keep_the_texts_level() {
    let level = |text: &str| {
        let found = frame("2025-06-18", "server", text);
        assert_eq!(found.len(), 1, "{text}: {found:?}");
        found[0].level
    };
    assert_eq!(
        level(r#"{"jsonrpc":"2.0","id":1,"id":1,"result":{}}"#),
        Level::Should
    );
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"a":{}{}}}}}"#,
        "[".repeat(600),
        "]".repeat(600)
    );
    assert_eq!(level(&deep), Level::May);
    assert_eq!(
        level(r#"{"jsonrpc":"2.0","id":1,"method":"x","result":{}}"#),
        Level::May
    );
    assert_eq!(
        level(r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#),
        Level::Must
    );
}

/// Only 2026-07-28's schema bounds completion values (`maxItems: 100`); earlier
/// revisions state the bound without a keyword, so 101 values are a MAY there,
/// never a MUST NOT.
#[test]
fn completion_max_100_is_must_not_only_where_the_schema_says_so() {
    let request = r#"{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}}"#;
    for revision in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let found = exchange(revision, "client", request, Some(HUNDRED_AND_ONE));
        let levels: Vec<_> = found
            .iter()
            .filter(|v| v.rule.as_str().starts_with("mcp.completion.max-100"))
            .map(|v| (v.rule.as_str(), v.level))
            .collect();
        assert_eq!(
            levels,
            [("mcp.completion.max-100-r1", Level::May)],
            "{revision}"
        );
    }
}
