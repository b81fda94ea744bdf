//! What the exchange rules (`rules/reply.rs`, reached through
//! `harness::rules::validate_reply`) report for a request and the reply that came
//! back, message included: the message is what the report prints beside the rule.
//!
//! - JSON-RPC 2.0 §5 (MUST), restated by MCP 2025-03-26 basic/index §Responses:
//!   "id … It MUST be the same as the value of the id
//!   member in the Request Object" (`mcp.base.response-id-match` under MCP); the message names
//!   how the id differs (a type change, a number rounded through a double).
//! - JSON-RPC 2.0 §6: a batch's notifications get no response; a response that
//!   answers no request of the batch is another id (the same rule).
//! - MCP 2026-07-28 basic/index §_meta › Per-request protocol fields (MUST): "A
//!   request missing any required field is malformed; the server MUST reject it
//!   with JSON-RPC error code -32602" (`mcp.r5.meta.missing-required`); both
//!   `protocolVersion` and `clientCapabilities` are required.
//! - MCP 2026-07-28 basic/versioning §Protocol Version Negotiation (MUST): a
//!   server that does not implement the requested version "MUST respond with an
//!   UnsupportedProtocolVersionError listing the versions it does support"
//!   (-32022 with `data.supported`; `mcp.r5.version.unsupported`).
//! - MCP 2026-07-28 basic/versioning §Backward Compatibility (SHOULD): a modern-only
//!   server "SHOULD name the protocol versions it supports in any error it returns
//!   to an `initialize` request" (`mcp.r5.legacy-initialize-error`).
//! - MCP 2025-11-25 server/utilities/completion §Data Types: `values` "max 100"
//!   (`mcp.completion.max-100`, `-r1` before 2026-07-28).
//! - MCP 2025-11-25 server/tools §Structured Content (SHOULD): "a tool that returns
//!   structured content SHOULD also return the serialized JSON in a TextContent
//!   block" (`mcp.tools.structured-content-text`).

use harness::rules::{self, Violation};
use harness::{lift, Direction, Profile, Revision};

/// Every violation of the exchange `request` → `reply` sent by the client under
/// `revision`.
#[track_caller]
fn judged(revision: Revision, request: &str, reply: &str) -> Vec<Violation> {
    let request = lift(request.as_bytes()).expect("the request lifts");
    let reply = lift(reply.as_bytes()).expect("the reply lifts");
    let profile = Profile {
        revision,
        direction: Direction::ClientToServer,
    };
    rules::validate_reply(&request, Some(&reply), profile)
}

/// `(rule, pointer, message)` of each violation of `rule`.
fn of(violations: &[Violation], rule: &str) -> Vec<(String, String)> {
    violations
        .iter()
        .filter(|v| v.rule.as_str() == rule)
        .map(|v| (v.pointer.clone(), v.message.clone()))
        .collect()
}

fn one(pointer: &str, message: &str) -> Vec<(String, String)> {
    vec![(pointer.to_owned(), message.to_owned())]
}

// `jsonrpc.response.id-echo` applies under plain JSON-RPC 2.0 only; MCP restates it.
const ECHO: &str = "mcp.base.response-id-match";

#[test]
fn an_id_answered_wrong_says_how_it_differs() {
    let ping = |id: &str| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
    let answer = |id: &str| format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#);
    let case = |sent: &str, got: &str| {
        of(
            &judged(Revision::Mcp2025_03_26, &ping(sent), &answer(got)),
            ECHO,
        )
    };
    // Another number is just another id: nothing was rounded.
    assert_eq!(
        case("1", "2"),
        one("/id", "the result response to id 1 carries 2")
    );
    // 2^53 + 1 read as a double is 2^53: an SDK that parses ids as doubles.
    assert_eq!(
        case("9007199254740993", "9007199254740992"),
        one(
            "/id",
            "the result response to id 9007199254740993 carries 9007199254740992: the id was rounded (both read as the same double)"
        )
    );
    assert_eq!(
        case("\"7\"", "7"),
        one(
            "/id",
            "the result response to id \"7\" carries number 7: the id's type changed from string to number"
        )
    );
    assert_eq!(
        case("3", "null"),
        one("/id", "the result response to id 3 carries null")
    );
}

/// An error may carry null instead of the request's id where
/// `harness::error_ids` allows it: for an id the profile forbids (MCP: 1.5,
/// an id that "could not be read"), and for a request the server refuses as
/// an Invalid Request (-32600, JSON-RPC 2.0 §5's "error in detecting the
/// id"); any other error to a readable id carries that id.
#[test]
fn an_error_carries_null_only_for_an_id_not_read_or_an_invalid_request() {
    let call = |id: &str| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#);
    let error = |code: i64| {
        format!(r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":{code},"message":"m"}}}}"#)
    };
    let echo = |sent: &str, code: i64| {
        of(
            &judged(Revision::Mcp2025_11_25, &call(sent), &error(code)),
            // 2025-11-25's own sentence for an error's id.
            "mcp.base.error-response-id",
        )
    };
    assert!(echo("1.5", -32602).is_empty());
    assert!(echo("1", -32600).is_empty());
    assert_eq!(
        echo("1", -32601),
        one("/id", "the error response to id 1 carries null")
    );
}

#[test]
fn a_stray_batch_response_says_whether_a_notification_was_answered() {
    let stray = |batch: &str| {
        of(
            &judged(
                Revision::Mcp2025_03_26,
                batch,
                r#"[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{}}]"#,
            ),
            ECHO,
        )
    };
    assert_eq!(
        stray(
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]"#
        ),
        one(
            "/1/id",
            "response with id 2 answers no request of the batch (notifications get no response)"
        )
    );
    assert_eq!(
        stray(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#),
        one(
            "/1/id",
            "response with id 2 answers no request of the batch"
        )
    );
}

const MISSING: &str = "mcp.r5.meta.missing-required";
const UNSUPPORTED: &str = "mcp.r5.version.unsupported";

/// A 2026-07-28 `tools/list` request whose `_meta` is `meta`.
fn tools_list(meta: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{meta}}}}}"#)
}

#[test]
fn a_request_lacking_one_protocol_field_must_be_refused_with_invalid_params() {
    let modern = Revision::Mcp2026_07_28;
    // The version alone, without the client's capabilities: still malformed.
    let no_capabilities = tools_list(r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}"#);
    assert_eq!(
        of(
            &judged(
                modern,
                &no_capabilities,
                r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#
            ),
            MISSING
        ),
        one(
            "",
            "`tools/list` lacks a required `_meta` protocol field but was answered with a result"
        )
    );
    assert_eq!(
        of(
            &judged(
                modern,
                &no_capabilities,
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"bad"}}"#
            ),
            MISSING
        ),
        one(
            "/error/code",
            "`tools/list` lacks a required `_meta` protocol field but was answered with code -32600"
        )
    );
    let refused = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"missing _meta"}}"#;
    assert_eq!(judged(modern, &no_capabilities, refused), []);
}

#[test]
fn an_unknown_version_must_get_32022_listing_the_supported_ones() {
    let modern = Revision::Mcp2026_07_28;
    let request = tools_list(
        r#"{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}"#,
    );
    let unsupported = |error: &str| {
        of(
            &judged(
                modern,
                &request,
                &format!(r#"{{"jsonrpc":"2.0","id":1,"error":{error}}}"#),
            ),
            UNSUPPORTED,
        )
    };
    assert_eq!(
        unsupported(
            r#"{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"1900-01-01"}}"#
        ),
        []
    );
    // The right code without the list a client retries from.
    assert_eq!(
        unsupported(r#"{"code":-32022,"message":"Unsupported protocol version"}"#),
        one(
            "/error/code",
            "`tools/list` asked for protocol version `1900-01-01`, which no MCP revision has, and was answered with code -32022"
        )
    );
    // The list under another code.
    assert_eq!(
        unsupported(r#"{"code":-32602,"message":"bad","data":{"supported":["2026-07-28"]}}"#),
        one(
            "/error/code",
            "`tools/list` asked for protocol version `1900-01-01`, which no MCP revision has, and was answered with code -32602"
        )
    );
}

#[test]
fn an_initialize_error_naming_a_version_in_its_message_alone_is_enough() {
    let request = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
    let legacy = |error: &str| {
        of(
            &judged(
                Revision::Mcp2026_07_28,
                request,
                &format!(r#"{{"jsonrpc":"2.0","id":0,"error":{error}}}"#),
            ),
            "mcp.r5.legacy-initialize-error",
        )
    };
    assert_eq!(
        legacy(r#"{"code":-32601,"message":"initialize is gone; this server speaks 2026-07-28"}"#),
        []
    );
    assert_eq!(
        legacy(r#"{"code":-32601,"message":"no","data":"try 2026-07-28"}"#),
        []
    );
    assert_eq!(
        legacy(r#"{"code":-32601,"message":"Method not found"}"#),
        one(
            "/error",
            "the error answering `initialize` names no protocol version the server supports"
        )
    );
}

#[test]
fn a_completion_may_offer_exactly_100_values() {
    let request = r#"{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}}"#;
    let values = |n: usize| {
        let list = vec!["\"v\""; n].join(",");
        of(
            &judged(
                Revision::Mcp2025_11_25,
                request,
                &format!(
                    r#"{{"jsonrpc":"2.0","id":1,"result":{{"completion":{{"values":[{list}]}}}}}}"#
                ),
            ),
            "mcp.completion.max-100-r1",
        )
    };
    assert_eq!(values(100), []);
    assert_eq!(
        values(101),
        one(
            "/result/completion/values",
            "101 completion values; the revision says at most 100"
        )
    );
}

#[test]
fn structured_content_needs_a_text_block_carrying_the_same_json() {
    let request = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}"#;
    let text = |content: &str| {
        of(
            &judged(
                Revision::Mcp2025_11_25,
                request,
                &format!(
                    r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":{content},"structuredContent":{{"sum":3}}}}}}"#
                ),
            ),
            "mcp.tools.structured-content-text",
        )
    };
    assert_eq!(text(r#"[{"type":"text","text":"{\"sum\": 3}"}]"#), []);
    let missing = one(
        "/result/content",
        "`structuredContent` has no text block carrying the same JSON",
    );
    // A text block saying something else does not carry it.
    assert_eq!(text(r#"[{"type":"text","text":"the sum is 3"}]"#), missing);
}
