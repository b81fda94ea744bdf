//! A `tools/call` is judged against its own tool's `tools/list` entry, not
//! another's:
//!
//! - MCP 2025-11-25 basic/utilities/tasks §Tool-Level Negotiation: with
//!   `tasks.requests.tools.call` declared, a tool whose `execution.taskSupport`
//!   is absent or `"forbidden"` called as a task "SHOULD return a `-32601`";
//!   one whose `taskSupport` is `"required"` called without a task "MUST
//!   return a `-32601`".
//! - MCP 2025-06-18 server/tools §Output Schema (MUST): "Servers MUST provide
//!   structured results that conform to this schema", the schema of the tool
//!   called.

use crate::support::reported;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;

/// `initialize` (event 0), its answer with `capabilities` (event 1),
/// `notifications/initialized` (event 2), `tools/list` (event 3) and its
/// answer listing `tools` (event 4).
fn listed(version: &str, capabilities: &str, tools: &str) -> Vec<(Direction, String)> {
    vec![
        (
            C,
            format!(
                r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"c","version":"1"}}}}}}"#
            ),
        ),
        (
            S,
            format!(
                r#"{{"jsonrpc":"2.0","id":0,"result":{{"protocolVersion":"{version}","capabilities":{capabilities},"serverInfo":{{"name":"s","version":"1"}}}}}}"#
            ),
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_owned(),
        ),
        (
            S,
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":{tools}}}}}"#),
        ),
    ]
}

#[test]
fn each_call_is_held_to_its_own_tools_task_support() {
    let mut frames = listed(
        "2025-11-25",
        r#"{"tools":{},"tasks":{"requests":{"tools":{"call":{}}}}}"#,
        r#"[{"name":"slow","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}},{"name":"quick","inputSchema":{"type":"object"}}]"#,
    );
    let refused = |id: u32| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32603,"message":"Internal error"}}}}"#
        )
    };
    frames.extend([
        // Events 5, 6: `quick` (task support absent: forbidden) as a task.
        (
            C,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quick","arguments":{},"task":{"ttl":60000}}}"#.to_owned(),
        ),
        (S, refused(2)),
        // Events 7, 8: `slow` (task support required) without a task.
        (
            C,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{}}}"#.to_owned(),
        ),
        (S, refused(3)),
    ]);
    let forbidden = reported(Revision::Mcp2025_11_25, "mcp.tasks.tool-forbidden", &frames);
    assert_eq!(forbidden.len(), 1, "{forbidden:?}");
    assert_eq!(forbidden[0].0, [1, 5, 6]);
    assert!(
        forbidden[0].1.contains(r#"of "quick" as a task"#),
        "{}",
        forbidden[0].1
    );
    let required = reported(Revision::Mcp2025_11_25, "mcp.tasks.tool-required", &frames);
    assert_eq!(required.len(), 1, "{required:?}");
    assert_eq!(required[0].0, [1, 7, 8]);
    assert!(
        required[0].1.contains(r#"of "slow" without a task"#),
        "{}",
        required[0].1
    );
}

#[test]
fn structured_content_is_held_to_the_called_tools_output_schema() {
    let mut frames = listed(
        "2025-06-18",
        r#"{"tools":{}}"#,
        r#"[{"name":"count","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}},{"name":"greet","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}]"#,
    );
    let call = |id: u32| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"greet","arguments":{{}}}}}}"#
        )
    };
    let answer = |id: u32, content: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"hi"}}],"structuredContent":{content}}}}}"#
        )
    };
    frames.extend([
        // Events 5, 6: conforms to `greet`'s schema (not to `count`'s).
        (C, call(2)),
        (S, answer(2, r#"{"text":"hi"}"#)),
        // Events 7, 8: conforms to `count`'s schema (not to `greet`'s).
        (C, call(3)),
        (S, answer(3, r#"{"n":1}"#)),
    ]);
    let found = reported(
        Revision::Mcp2025_06_18,
        "mcp.tools.output-schema-conform",
        &frames,
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, [4, 7, 8]);
    assert!(
        found[0]
            .1
            .contains(r#"the `structuredContent` of tool "greet""#),
        "{}",
        found[0].1
    );
}

/// The judge remembers the task support of the first 4096 tools a session
/// lists (`lists::TOOLS_CAP`); a tool listed past them is not judged, rather
/// than judged against a support it never read.
#[test]
fn task_support_is_remembered_for_the_first_4096_tools_only() {
    let mut tools: Vec<String> = (0..4095)
        .map(|i| format!(r#"{{"name":"t{i}","inputSchema":{{"type":"object"}}}}"#))
        .collect();
    for name in ["last", "past"] {
        tools.push(format!(
            r#"{{"name":"{name}","inputSchema":{{"type":"object"}},"execution":{{"taskSupport":"required"}}}}"#
        ));
    }
    let mut frames = listed(
        "2025-11-25",
        r#"{"tools":{},"tasks":{"requests":{"tools":{"call":{}}}}}"#,
        &format!("[{}]", tools.join(",")),
    );
    for (id, name) in [(2, "last"), (3, "past")] {
        frames.push((
            C,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}","arguments":{{}}}}}}"#
            ),
        ));
        frames.push((
            S,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"done"}}]}}}}"#
            ),
        ));
    }
    let required = reported(Revision::Mcp2025_11_25, "mcp.tasks.tool-required", &frames);
    let events: Vec<&Vec<u64>> = required.iter().map(|(e, _)| e).collect();
    assert_eq!(events, [&vec![1, 5, 6]]);
}

/// Every listed tool keeps its own schema, the first as well as the last, and
/// at most the first 4096 tools' schemas are remembered (`lists::TOOLS_CAP`): a
/// call of a tool listed past them is not judged.
#[test]
fn each_listed_tools_output_schema_is_remembered_up_to_4096_tools() {
    let schema = r#""outputSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}"#;
    let tools: Vec<String> = ["first".to_owned()]
        .into_iter()
        .chain((1..4095).map(|i| format!("t{i}")))
        .chain(["last".to_owned(), "past".to_owned()])
        .map(|name| format!(r#"{{"name":"{name}","inputSchema":{{"type":"object"}},{schema}}}"#))
        .collect();
    assert_eq!(tools.len(), 4097);
    let mut frames = listed(
        "2025-06-18",
        r#"{"tools":{}}"#,
        &format!("[{}]", tools.join(",")),
    );
    for (id, name) in [(2, "first"), (3, "last"), (4, "past")] {
        frames.push((
            C,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}","arguments":{{}}}}}}"#
            ),
        ));
        frames.push((
            S,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"{{\"x\":1}}"}}],"structuredContent":{{"x":1}}}}}}"#
            ),
        ));
    }
    let found = reported(
        Revision::Mcp2025_06_18,
        "mcp.tools.output-schema-conform",
        &frames,
    );
    let events: Vec<&Vec<u64>> = found.iter().map(|(e, _)| e).collect();
    assert_eq!(events, [&vec![4, 5, 6], &vec![4, 7, 8]]);
}

/// A tool whose `taskSupport` is `"optional"` may be called as a task or not
/// (MCP 2025-11-25 basic/utilities/tasks §Tool-Level Negotiation): neither call
/// owes a `-32601`.
#[test]
fn an_optional_task_tool_is_held_to_neither_refusal() {
    let mut frames = listed(
        "2025-11-25",
        r#"{"tools":{},"tasks":{"requests":{"tools":{"call":{}}}}}"#,
        r#"[{"name":"maybe","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}}]"#,
    );
    frames.extend([
        (
            C,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"maybe","arguments":{},"task":{"ttl":60000}}}"#.to_owned(),
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"Internal error"}}"#.to_owned(),
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"maybe","arguments":{}}}"#.to_owned(),
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error"}}"#.to_owned(),
        ),
    ]);
    for rule in ["mcp.tasks.tool-forbidden", "mcp.tasks.tool-required"] {
        assert_eq!(
            reported(Revision::Mcp2025_11_25, rule, &frames),
            vec![],
            "{rule}"
        );
    }
}
