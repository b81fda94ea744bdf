//! What the per-frame checks (`rules/check.rs`, reached through
//! `harness::rules::validate`) report for one frame a peer sent: which rules, where,
//! and (where the report prints it) the message.
//!
//! - MCP 2025-11-25 schema `CancelledNotification`: `params` is required (with
//!   `requestId` optional since tasks), so a bare `notifications/cancelled` breaks
//!   `mcp.schema.request-params`.
//! - MCP 2026-07-28 basic/index §_meta › Per-request protocol fields (MUST): every
//!   client request carries `protocolVersion` and `clientCapabilities` in `_meta`
//!   (`mcp.r5.meta.required-fields`); the schema's own `_meta` requirement is that
//!   rule, reported once, not again as `mcp.schema.request-params`.
//! - MCP basic/index §Requests, schema `Request.params` (an object): an array
//!   `params` is `mcp.base.params-object`, not a params object lacking members.
//! - MCP schema (each revision's `ClientRequest` / `ServerRequest` unions): a
//!   method the other side sends is `mcp.method.direction` (SHOULD NOT), with the
//!   sides named; a client that sends a server request's method is not judged by
//!   the server-request rules (2025-11-25 client/elicitation, client/sampling).

use harness::rules;
use harness::{Direction, Profile, Revision};

use crate::support::pairs;

/// `(rule, pointer)` of every violation of `frame` sent in `direction` under
/// `revision`.
fn reported(revision: Revision, direction: Direction, frame: &str) -> Vec<(String, String)> {
    rules::validate(
        frame.as_bytes(),
        Profile {
            revision,
            direction,
        },
    )
    .into_iter()
    .map(|v| (v.rule.as_str().to_owned(), v.pointer))
    .collect()
}

fn messages(revision: Revision, direction: Direction, frame: &str, rule: &str) -> Vec<String> {
    rules::validate(
        frame.as_bytes(),
        Profile {
            revision,
            direction,
        },
    )
    .into_iter()
    .filter(|v| v.rule.as_str() == rule)
    .map(|v| v.message)
    .collect()
}

const CLIENT: Direction = Direction::ClientToServer;
const SERVER: Direction = Direction::ServerToClient;

#[test]
fn a_cancellation_without_params_lacks_what_the_2025_11_25_schema_requires() {
    let bare = r#"{"jsonrpc":"2.0","method":"notifications/cancelled"}"#;
    assert_eq!(
        reported(Revision::Mcp2025_11_25, CLIENT, bare),
        pairs(&[("mcp.schema.request-params", "")])
    );
    assert_eq!(
        messages(
            Revision::Mcp2025_11_25,
            CLIENT,
            bare,
            "mcp.schema.request-params"
        ),
        ["`notifications/cancelled` requires params"]
    );
}

#[test]
fn a_2026_07_28_request_without_its_meta_is_reported_by_the_meta_rule_alone() {
    let modern = Revision::Mcp2026_07_28;
    let missing_both = [
        ("mcp.r5.meta.required-fields", ""),
        ("mcp.r5.meta.required-fields", ""),
        ("mcp.r5.meta.client-info", ""),
    ];
    assert_eq!(
        reported(
            modern,
            CLIENT,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#
        ),
        pairs(&missing_both)
    );
    let at_params = missing_both.map(|(rule, _)| (rule, "/params"));
    assert_eq!(
        reported(
            modern,
            CLIENT,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#
        ),
        pairs(&at_params)
    );
}

#[test]
fn array_params_are_not_also_judged_as_a_params_object() {
    assert_eq!(
        reported(
            Revision::Mcp2025_11_25,
            CLIENT,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["add",{"a":1}]}"#
        ),
        pairs(&[("mcp.base.params-object", "/params")])
    );
}

#[test]
fn a_method_sent_by_the_wrong_side_names_both_sides() {
    let frame = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    assert_eq!(
        reported(Revision::Mcp2025_11_25, SERVER, frame),
        pairs(&[("mcp.method.direction", "/method")])
    );
    assert_eq!(
        messages(
            Revision::Mcp2025_11_25,
            SERVER,
            frame,
            "mcp.method.direction"
        ),
        ["`tools/list` is sent by the client in 2025-11-25, not the server"]
    );
    // A 2026-07-28 client announcing a server's notification is still the
    // wrong side (only server *requests* have their own 2026-07-28 rule).
    let announced = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
    assert_eq!(
        messages(
            Revision::Mcp2026_07_28,
            CLIENT,
            announced,
            "mcp.method.direction"
        ),
        ["`notifications/tools/list_changed` is sent by the server in 2026-07-28, not the client"]
    );
}

#[test]
fn a_client_sending_a_server_request_is_judged_as_the_wrong_side_only() {
    // A form elicitation without `requestedSchema`: from the server it breaks
    // the elicitation rules; from the client, the method itself is the fault.
    let elicit = r#"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"Your name?"}}"#;
    assert_eq!(
        reported(Revision::Mcp2025_11_25, CLIENT, elicit),
        pairs(&[("mcp.method.direction", "/method")])
    );
    let from_server = reported(Revision::Mcp2025_11_25, SERVER, elicit);
    assert!(
        from_server
            .iter()
            .any(|(rule, _)| rule != "mcp.schema.request-params"),
        "the same request from the server breaks an elicitation rule: {from_server:?}"
    );
}

#[test]
fn a_request_without_its_params_names_the_members_it_needs() {
    assert_eq!(
        messages(
            Revision::Mcp2025_11_25,
            CLIENT,
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read"}"#,
            "mcp.schema.request-params"
        ),
        ["`resources/read` requires params with `uri`"]
    );
}

#[test]
fn a_2026_07_28_client_response_is_reported_once_as_a_response() {
    // The client MUST NOT write responses (basic/transports/stdio); the server's
    // result rules (`resultType`, `serverInfo`) are not applied to it as well.
    assert_eq!(
        reported(
            Revision::Mcp2026_07_28,
            CLIENT,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#
        ),
        pairs(&[("mcp.r5.stdio.no-server-requests", "")])
    );
}

/// `(rule, pointer)` of a server's error response with `error` under `revision`.
fn error(revision: Revision, error: &str) -> Vec<(String, String)> {
    reported(
        revision,
        SERVER,
        &format!(r#"{{"jsonrpc":"2.0","id":1,"error":{error}}}"#),
    )
}

#[test]
fn an_application_error_code_outside_the_reserved_ranges_is_no_fault() {
    // JSON-RPC 2.0 §5.1: codes outside -32768..-32000 are the application's.
    for code in ["1", "-1", "-31999", "404"] {
        assert_eq!(
            error(
                Revision::Mcp2025_11_25,
                &format!(r#"{{"code":{code},"message":"Not found"}}"#)
            ),
            [],
            "code {code}"
        );
    }
}

#[test]
fn the_2026_07_28_error_data_each_code_requires() {
    let modern = Revision::Mcp2026_07_28;
    let version = "mcp.error.code.unsupported-version";
    assert_eq!(
        error(
            modern,
            r#"{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"1900-01-01"}}"#
        ),
        []
    );
    // `supported` one string, not the array a client picks from.
    assert_eq!(
        error(
            modern,
            r#"{"code":-32022,"message":"Unsupported protocol version","data":{"supported":"2026-07-28","requested":"1900-01-01"}}"#
        ),
        pairs(&[(version, "/error/data")])
    );
    let capability = "mcp.error.code.missing-client-capability";
    assert_eq!(
        error(
            modern,
            r#"{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":{"sampling":{}}}}"#
        ),
        []
    );
    assert_eq!(
        error(
            modern,
            r#"{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":["sampling"]}}"#
        ),
        pairs(&[(capability, "/error/data")])
    );
}

#[test]
fn a_url_elicitation_required_error_lists_url_elicitations_with_ids() {
    // 2025-11-25 client/elicitation §URL Elicitation Required Error (MUST).
    let rule = "mcp.error.code.url-elicitation-required";
    let required = |elicitation: &str| {
        error(
            Revision::Mcp2025_11_25,
            &format!(
                r#"{{"code":-32042,"message":"This request requires more information.","data":{{"elicitations":[{elicitation}]}}}}"#
            ),
        )
    };
    assert_eq!(
        required(
            r#"{"mode":"url","elicitationId":"e1","url":"https://example.com/auth","message":"Authorize"}"#
        ),
        []
    );
    assert_eq!(
        required(r#"{"mode":"url","url":"https://example.com/auth","message":"Authorize"}"#),
        pairs(&[(rule, "/error/data")])
    );
    assert_eq!(
        required(r#"{"mode":"form","elicitationId":"e1","message":"Name?"}"#),
        pairs(&[(rule, "/error/data")])
    );
}

#[test]
fn an_error_message_is_one_sentence_unless_a_stop_starts_another() {
    // JSON-RPC 2.0 §5.1 (SHOULD): "a concise single sentence".
    let rule = "jsonrpc.error.message-single-sentence";
    let judged = |message: &str| {
        error(
            Revision::Mcp2025_11_25,
            &format!(r#"{{"code":-32602,"message":"{message}"}}"#),
        )
    };
    // A capital after a space, or a stop before a lower-case word (an
    // abbreviation), is still one sentence.
    assert_eq!(judged("Unknown tool Foo"), []);
    assert_eq!(judged("Expected e.g. a string"), []);
    assert_eq!(
        judged("Bad params. Expected a string"),
        pairs(&[(rule, "/error/message")])
    );
}
