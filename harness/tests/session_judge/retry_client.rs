//! The client's side of a 2026-07-28 retry, MCP 2026-07-28 basic/patterns/mrtr
//! §Client Requirements (Basic Workflow):
//!
//! - 3 (MUST): "The JSON-RPC `id` MUST be different between the initial
//!   request and the retry, as they are independent requests." A retry is the
//!   request that echoes the `requestState` or carries the `inputResponses` of
//!   an `InputRequiredResult` (either one: an answer may hold only
//!   `requestState`, or only `inputRequests`); an id reused by a request that
//!   is no retry, or by a retry whose initial request had another id, is not
//!   this rule's (2026-07-28 has no session-wide id uniqueness rule).
//! - 4 (MUST NOT): "Both the `inputRequests` and `requestState` fields affect
//!   only the client's retry of the original request. They MUST NOT be used
//!   for any other request that the client may be sending in parallel." A
//!   rule of the client's requests: what the server sends is not held to it.

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const RETRY_ID: &str = "mcp.r5.mrtr.retry-id";
const RETRY_ONLY: &str = "mcp.r5.mrtr.retry-only";

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}"#;

/// A client request `id` of `method` with `params` members (before `_meta`).
fn request(id: u32, method: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params},{META}}}}}"#)
}

/// An input-required answer to `id` asking for `confirm`, with `state` when given.
fn ask(id: u32, state: Option<&str>) -> String {
    let state = state.map_or_else(String::new, |s| format!(r#","requestState":"{s}""#));
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"input_required","inputRequests":{{"confirm":{{"method":"elicitation/create","params":{{"message":"Sure?","requestedSchema":{{"type":"object","properties":{{"ok":{{"type":"boolean"}}}}}}}}}}}}{state}}}}}"#
    )
}

/// An input-required answer to `id` holding only `requestState` (load shedding).
fn shed(id: u32, state: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"input_required","requestState":"{state}"}}}}"#
    )
}

fn done(id: u32) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"complete","content":[{{"type":"text","text":"ok"}}]}}}}"#
    )
}

const ACCEPTED: &str = r#""inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}}"#;

/// The findings of `rule`, each as the events it names.
fn judged(rule: &str, frames: &[(Direction, String)]) -> Vec<Vec<u64>> {
    findings(
        Revision::Mcp2026_07_28,
        frames.iter().map(|(d, f)| (*d, f.as_str(), None)),
    )
    .iter()
    .filter(|f| f.violation.rule.as_str() == rule)
    .map(|f| f.frames.iter().map(|a| a.index).collect())
    .collect()
}

#[test]
fn a_retry_echoing_only_the_request_state_on_the_same_id_is_reported() {
    let frames = [
        (C, request(1, "tools/call", r#""name":"deploy""#)),
        (S, shed(1, "st-1")),
        (
            C,
            request(1, "tools/call", r#""name":"deploy","requestState":"st-1""#),
        ),
    ];
    assert_eq!(judged(RETRY_ID, &frames), [vec![2]]);
}

#[test]
fn a_retry_carrying_only_input_responses_on_the_same_id_is_reported() {
    let frames = [
        (C, request(1, "tools/call", r#""name":"deploy""#)),
        (S, ask(1, None)),
        (
            C,
            request(1, "tools/call", &format!(r#""name":"deploy",{ACCEPTED}"#)),
        ),
    ];
    assert_eq!(judged(RETRY_ID, &frames), [vec![2]]);
}

/// The retry of request 2 sent with id 1, which a complete answer closed:
/// its id differs from its initial request's, so rule 3 holds.
#[test]
fn a_retry_reusing_the_id_of_another_finished_request_is_no_retry_id_breach() {
    let frames = [
        (C, request(1, "tools/list", r#""cursor":"p1""#)),
        (S, done(1)),
        (C, request(2, "tools/call", r#""name":"deploy""#)),
        (S, ask(2, Some("st-2"))),
        (
            C,
            request(
                1,
                "tools/call",
                &format!(r#""name":"deploy","requestState":"st-2",{ACCEPTED}"#),
            ),
        ),
    ];
    assert_eq!(judged(RETRY_ID, &frames), Vec::<Vec<u64>>::new());
}

/// A request with neither `requestState` nor `inputResponses` is no retry,
/// even on the id an input-required answer closed.
#[test]
fn a_new_request_on_an_input_required_id_is_no_retry() {
    let frames = [
        (C, request(1, "tools/call", r#""name":"deploy""#)),
        (S, ask(1, Some("st-1"))),
        (C, request(1, "prompts/get", r#""name":"review""#)),
    ];
    assert_eq!(judged(RETRY_ID, &frames), Vec::<Vec<u64>>::new());
}

/// The state of the `tools/call` retry, used by the client on a `prompts/get`,
/// breaks rule 4; a server message carrying it is not the client's use.
#[test]
fn a_request_state_misused_is_the_clients_breach_never_the_servers() {
    let frames = [
        (C, request(1, "tools/call", r#""name":"deploy""#)),
        (S, ask(1, Some("st-1"))),
        (
            S,
            r#"{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"requestState":"st-1","messages":[],"maxTokens":10}}"#.to_owned(),
        ),
        (
            C,
            request(2, "prompts/get", r#""name":"review","requestState":"st-1""#),
        ),
    ];
    assert_eq!(judged(RETRY_ONLY, &frames), [vec![1, 3]]);
}
