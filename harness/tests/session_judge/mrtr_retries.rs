//! MCP 2026-07-28 basic/patterns/mrtr §Error Handling (SHOULD): "If the client
//! fails to send all the information requested in a previous `InputRequests`,
//! and the missing information is necessary for the server to process the
//! request, the server SHOULD respond with a new `InputRequiredResult`
//! requesting the missing information again, rather than returning an error."
//!
//! Which earlier answer a retry answers decides what it left out: the
//! `requestState` it echoes (§Client Requirements: the client MUST echo it
//! back exactly), else, when none was handed out, the same method about the
//! same tool, prompt or resource. An error to another call that happens to
//! carry `inputResponses` is no refused retry.

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const REASKED: &str = "mcp.r5.mrtr.missing-input-reasked";

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}"#;
const SERVER_META: &str =
    r#""_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}"#;

/// A client request `id` of `method` with `params` members (before `_meta`).
fn request(id: u32, method: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params},{META}}}}}"#)
}

/// An input-required answer to `id` asking for `confirm`, with `state` when given.
fn ask(id: u32, state: Option<&str>) -> String {
    let state = state.map_or_else(String::new, |s| format!(r#","requestState":"{s}""#));
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"input_required","inputRequests":{{"confirm":{{"method":"elicitation/create","params":{{"message":"Sure?","requestedSchema":{{"type":"object","properties":{{"ok":{{"type":"boolean"}}}}}}}}}}}}{state},{SERVER_META}}}}}"#
    )
}

fn refused(id: u32) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32602,"message":"Missing input"}}}}"#)
}

/// Each finding as (rule, the events it names).
fn judged(frames: &[(Direction, String)]) -> Vec<(String, Vec<u64>)> {
    let each = frames.iter().map(|(d, f)| (*d, f.as_str(), None));
    findings(Revision::Mcp2026_07_28, each)
        .iter()
        .map(|f| {
            (
                f.violation.rule.to_string(),
                f.frames.iter().map(|a| a.index).collect(),
            )
        })
        .collect()
}

/// Without a `requestState`, the tool's name says which call a retry repeats.
#[test]
fn a_retry_without_request_state_is_the_same_tool_called_again() {
    let other_tool = [
        (C, request(1, "tools/call", r#""name":"deploy""#)),
        (S, ask(1, None)),
        (
            C,
            request(2, "tools/call", r#""name":"rollback","inputResponses":{}"#),
        ),
        (S, refused(2)),
    ];
    assert_eq!(judged(&other_tool), []);
    let same_tool = [
        (C, request(1, "tools/call", r#""name":"deploy""#)),
        (S, ask(1, None)),
        (
            C,
            request(2, "tools/call", r#""name":"deploy","inputResponses":{}"#),
        ),
        (S, refused(2)),
    ];
    assert_eq!(judged(&same_tool), [(REASKED.to_owned(), vec![1, 2, 3])]);
}

/// A resource is named by its `uri`.
#[test]
fn a_resource_retry_is_the_same_uri_read_again() {
    let read = |id, uri: &str, retry: bool| {
        let responses = if retry { r#","inputResponses":{}"# } else { "" };
        request(
            id,
            "resources/read",
            &format!(r#""uri":"{uri}"{responses}"#),
        )
    };
    let other = [
        (C, read(1, "file:///a", false)),
        (S, ask(1, None)),
        (C, read(2, "file:///b", true)),
        (S, refused(2)),
    ];
    assert_eq!(judged(&other), []);
    let same = [
        (C, read(1, "file:///a", false)),
        (S, ask(1, None)),
        (C, read(2, "file:///a", true)),
        (S, refused(2)),
    ];
    assert_eq!(judged(&same), [(REASKED.to_owned(), vec![1, 2, 3])]);
}

/// With two calls waiting on input, the echoed `requestState` picks the one
/// retried, and the finding points at that call's input-required answer.
#[test]
fn the_echoed_request_state_picks_the_answer_retried() {
    let frames = [
        (C, request(1, "tools/call", r#""name":"deploy""#)),
        (S, ask(1, Some("s1"))),
        (C, request(2, "tools/call", r#""name":"deploy""#)),
        (S, ask(2, Some("s2"))),
        (
            C,
            request(
                3,
                "tools/call",
                r#""name":"deploy","requestState":"s1","inputResponses":{}"#,
            ),
        ),
        (S, refused(3)),
    ];
    assert_eq!(judged(&frames), [(REASKED.to_owned(), vec![1, 4, 5])]);
}
