//! Which answers show a server supports a feature it must declare
//! (mcp.capabilities.server-declares). MCP 2025-06-18 server/tools
//! §Capabilities (MUST): "Servers that support tools MUST declare the `tools`
//! capability", and likewise resources, prompts and completions: a result to
//! one of their requests shows the support. Logging is declared by what the
//! server emits, not by what it answers: server/utilities/logging
//! §Capabilities (MUST), "Servers that emit log message notifications MUST
//! declare the `logging` capability", judged on its `notifications/message`
//! (mcp.lifecycle.operation-respect), so a result to `logging/setLevel` is
//! not held to it.

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const DECLARES: &str = "mcp.capabilities.server-declares";

#[test]
fn a_result_to_set_level_is_not_held_to_declaring_logging_but_one_to_tools_list_is_to_tools() {
    let frames = [
        (
            C,
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#,
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info"}}"#,
        ),
        (S, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
        (C, r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#),
        (S, r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#),
    ];
    let found: Vec<Vec<u64>> = findings(
        Revision::Mcp2025_06_18,
        frames.iter().map(|&(d, f)| (d, f, None)),
    )
    .iter()
    .filter(|f| f.violation.rule.as_str() == DECLARES)
    .map(|f| f.frames.iter().map(|a| a.index).collect())
    .collect();
    assert_eq!(found, [vec![1, 5, 6]]);
}
