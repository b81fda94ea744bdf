//! Where the `initialize` handshake's rules apply: MCP 2024-11-05 to 2025-11-25
//! basic/lifecycle (initialization first, then `notifications/initialized`);
//! not plain JSON-RPC 2.0, which has no handshake, nor MCP 2026-07-28, which
//! dropped `initialize` (basic/versioning §Compatibility Matrix).

use harness::rules::RuleId;
use harness::{Direction, Revision};

use crate::support::{fed, findings};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;

fn lifecycle_rules(revision: Revision, frames: &[(Direction, &str)]) -> Vec<String> {
    findings(revision, frames.iter().map(|&(d, f)| (d, f, None)))
        .into_iter()
        .map(|f| f.violation.rule.to_string())
        .filter(|r| r.starts_with("mcp.lifecycle."))
        .collect()
}

#[test]
fn a_conversation_without_initialize_breaks_lifecycle_rules_only_where_they_apply() {
    let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    let listed = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#;
    let frames = [(C, list), (S, listed)];
    assert_eq!(
        lifecycle_rules(Revision::Mcp2025_11_25, &frames),
        vec!["mcp.lifecycle.initialize-first".to_owned()],
        "2025-11-25 has the handshake"
    );
    assert_eq!(
        lifecycle_rules(Revision::JsonRpc2, &frames),
        Vec::<String>::new(),
        "JSON-RPC 2.0 has none"
    );
    let modern = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}}"#;
    let modern_listed = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[]}}"#;
    assert_eq!(
        lifecycle_rules(Revision::Mcp2026_07_28, &[(C, modern), (S, modern_listed)]),
        Vec::<String>::new(),
        "2026-07-28 has none"
    );
}

/// Only `notifications/initialized` from the client completes the handshake:
/// another client notification before it does not, so a capture that ends there
/// still lacks it.
#[test]
fn only_the_clients_initialized_notification_completes_the_handshake() {
    let frames = [
        (
            C,
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"c","version":"1"}}}"#,
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#,
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#,
        ),
    ];
    let (judge, _) = fed(Revision::Mcp2025_06_18, frames);
    let notes: Vec<RuleId> = judge
        .finish()
        .not_observed
        .into_iter()
        .map(|u| u.rule)
        .collect();
    assert_eq!(notes, vec![RuleId::McpLifecycleInitializedNotification]);
}

/// A 2026-07-28 client may still send a legacy `initialize` to a dual-era
/// server; the 2026-07-28 conversation owes no `notifications/initialized`, so a
/// capture ending without one leaves nothing unobserved about it.
#[test]
fn a_2026_07_28_capture_owes_no_initialized_notification() {
    let frames = [
        (
            C,
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#,
        ),
    ];
    let (judge, _) = fed(Revision::Mcp2026_07_28, frames);
    let notes: Vec<RuleId> = judge
        .finish()
        .not_observed
        .into_iter()
        .map(|u| u.rule)
        .collect();
    assert_eq!(notes, Vec::<RuleId>::new());
    let (judge, _) = fed(Revision::Mcp2025_11_25, frames);
    let notes: Vec<RuleId> = judge
        .finish()
        .not_observed
        .into_iter()
        .map(|u| u.rule)
        .collect();
    assert_eq!(notes, vec![RuleId::McpLifecycleInitializedNotification]);
}
