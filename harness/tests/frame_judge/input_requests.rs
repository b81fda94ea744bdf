//! MCP 2026-07-28 basic/patterns/mrtr (MUST NOT): a server does not send an
//! input request the client's capabilities, sent in the request's `_meta`,
//! do not declare support for (`mcp.r5.mrtr.input-requests-declared`). The
//! finding names what is missing: the feature when it is not declared at
//! all (one finding, not one per mode or option of it), else the mode or
//! option (client/elicitation §Capabilities: `elicitation.url`;
//! client/sampling §Tools in Sampling: `sampling.tools`).

use crate::support::exchange;
use harness::{Direction, Revision};
use serde_json::{json, Value};

const RULE: &str = "mcp.r5.mrtr.input-requests-declared";

/// `(pointer, message)` of each finding of the rule when a `tools/call`
/// whose client declares `capabilities` is answered with `input` as its one
/// input request (key `ask`).
fn judged(capabilities: Value, input: Value) -> Vec<(String, String)> {
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}}}})
    .to_string();
    let reply = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required", "inputRequests": {"ask": input}}})
        .to_string();
    exchange(
        Revision::Mcp2026_07_28,
        Direction::ClientToServer,
        &request,
        &reply,
    )
    .into_iter()
    .filter(|v| v.rule.as_str() == RULE)
    .map(|v| (v.pointer, v.message))
    .collect()
}

fn elicit(mode: Option<&str>) -> Value {
    let mut params =
        json!({"message": "?", "requestedSchema": {"type": "object", "properties": {}}});
    if let Some(mode) = mode {
        params["mode"] = json!(mode);
        params["url"] = json!("https://example.com/confirm");
        params["elicitationId"] = json!("e1");
    }
    json!({"method": "elicitation/create", "params": params})
}

/// The one finding's message, at the input request.
#[track_caller]
fn one(found: &[(String, String)]) -> &str {
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "/result/inputRequests/ask");
    &found[0].1
}

#[test]
fn an_undeclared_feature_is_one_finding_naming_the_feature() {
    let found = judged(json!({}), elicit(None));
    let message = one(&found);
    assert!(
        message.ends_with(
            "needs `elicitation`, which the request's client capabilities do not declare"
        ),
        "{message}"
    );
    let found = judged(json!({}), elicit(Some("url")));
    assert!(one(&found).contains("needs `elicitation`,"), "{found:?}");
}

#[test]
fn a_declared_feature_without_the_mode_names_the_mode() {
    let found = judged(json!({"elicitation": {"form": {}}}), elicit(Some("url")));
    assert!(
        one(&found).contains("needs `elicitation.url`,"),
        "{found:?}"
    );
    let tools = json!({"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5, "tools": []}});
    let found = judged(json!({"sampling": {}}), tools.clone());
    assert!(one(&found).contains("needs `sampling.tools`,"), "{found:?}");
    assert_eq!(judged(json!({"sampling": {"tools": {}}}), tools), []);
    assert_eq!(judged(json!({"elicitation": {}}), elicit(None)), []);
}

/// client/roots §Capabilities: a server asking for roots needs `roots`.
#[test]
fn a_roots_request_needs_roots() {
    let roots = json!({"method": "roots/list"});
    let found = judged(json!({"sampling": {}}), roots.clone());
    assert!(one(&found).contains("needs `roots`,"), "{found:?}");
    assert_eq!(judged(json!({"roots": {}}), roots), []);
}
