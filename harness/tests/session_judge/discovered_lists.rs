//! MCP 2026-07-28 server/tools, server/prompts and server/resources
//! §Capabilities (MUST): a server that declares `tools`, `prompts` or
//! `resources` in its `server/discover` answer supports the feature, so it
//! responds to its list request (`tools/list`, `prompts/list`,
//! `resources/list`); -32601 (Method not found) is no such response. Each of
//! the three lists is held to its own capability.

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const LISTS: &str = "mcp.r5.capabilities.declared-lists";

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}"#;

/// The declared-lists findings when `server/discover` declares `capabilities`
/// and `tools/list` (event 2), `prompts/list` (event 4) and `resources/list`
/// (event 6) are each answered -32601; each as (events, message).
fn refused(capabilities: &str) -> Vec<(Vec<u64>, String)> {
    let mut frames = vec![
        (
            C,
            format!(r#"{{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{{{META}}}}}"#),
        ),
        (
            S,
            format!(
                r#"{{"jsonrpc":"2.0","id":0,"result":{{"supportedVersions":["2026-07-28"],"capabilities":{capabilities},"resultType":"complete","ttlMs":0,"cacheScope":"public","_meta":{{"io.modelcontextprotocol/serverInfo":{{"name":"s","version":"1"}}}}}}}}"#
            ),
        ),
    ];
    for (id, method) in [
        (1, "tools/list"),
        (2, "prompts/list"),
        (3, "resources/list"),
    ] {
        frames.push((
            C,
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{META}}}}}"#),
        ));
        frames.push((
            S,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32601,"message":"Method not found"}}}}"#
            ),
        ));
    }
    findings(
        Revision::Mcp2026_07_28,
        frames.iter().map(|(d, f)| (*d, f.as_str(), None)),
    )
    .into_iter()
    .filter(|f| f.violation.rule.as_str() == LISTS)
    .map(|f| {
        (
            f.frames.iter().map(|a| a.index).collect(),
            f.violation.message,
        )
    })
    .collect()
}

#[test]
fn each_declared_list_refused_with_method_not_found_is_reported() {
    let found = refused(r#"{"tools":{},"prompts":{},"resources":{}}"#);
    let frames: Vec<&Vec<u64>> = found.iter().map(|(f, _)| f).collect();
    assert_eq!(frames, [&vec![1, 2, 3], &vec![1, 4, 5], &vec![1, 6, 7]]);
    for ((_, message), capability) in found.iter().zip(["tools", "prompts", "resources"]) {
        assert!(
            message.contains(&format!("declared `{capability}`")),
            "{message}"
        );
    }
}

#[test]
fn a_list_whose_capability_was_not_declared_may_be_refused() {
    assert_eq!(refused("{}"), []);
}
