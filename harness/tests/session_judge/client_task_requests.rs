//! MCP 2025-11-25 basic/utilities/tasks §Capability Negotiation (SHOULD):
//! "Requestors SHOULD only augment requests with a task if the corresponding
//! capability has been declared by the receiver. … If a client's capabilities
//! include `tasks.requests.sampling.createMessage: {}`, then servers may
//! augment `sampling/createMessage` requests with a task." §Client
//! Capabilities lists the client's two: `tasks.requests.sampling.createMessage`
//! and `tasks.requests.elicitation.create`. A server's task-augmented request
//! to a client that declared its entry is within what was negotiated, and so
//! is the client's `CreateTaskResult` for it (§Capabilities, MUST); without
//! the entry, both are reported.

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;

const TASK: &str = r#""createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":60000,"status":"working""#;

/// The task-capability findings of a session whose client declares `tasks`
/// (`requests` members as given) and is sent a task-augmented
/// `sampling/createMessage` (event 3) and `elicitation/create` (event 5),
/// each answered with a `CreateTaskResult`; as (rule, events).
fn judged(tasks: &str) -> Vec<(String, Vec<u64>)> {
    let init = format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{"sampling":{{}},"elicitation":{{"form":{{}}}},"tasks":{{"requests":{{{tasks}}}}}}},"clientInfo":{{"name":"c","version":"1"}}}}}}"#
    );
    let frames = [
        (C, init),
        (
            S,
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#.to_owned(),
        ),
        (
            C,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":10,"task":{"ttl":60000}}}"#.to_owned(),
        ),
        (
            C,
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"task":{{"taskId":"s1",{TASK}}}}}}}"#),
        ),
        (
            S,
            r#"{"jsonrpc":"2.0","id":2,"method":"elicitation/create","params":{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}},"task":{"ttl":60000}}}"#.to_owned(),
        ),
        (
            C,
            format!(r#"{{"jsonrpc":"2.0","id":2,"result":{{"task":{{"taskId":"e1",{TASK}}}}}}}"#),
        ),
    ];
    findings(
        Revision::Mcp2025_11_25,
        frames.iter().map(|(d, f)| (*d, f.as_str(), None)),
    )
    .iter()
    .map(|f| {
        (
            f.violation.rule.to_string(),
            f.frames.iter().map(|a| a.index).collect(),
        )
    })
    .filter(|(r, _)| r == "mcp.tasks.request-capability" || r == "mcp.tasks.capability-declared")
    .collect()
}

#[test]
fn task_augmented_sampling_and_elicitation_to_a_client_that_declared_them_are_negotiated() {
    let declared = judged(r#""sampling":{"createMessage":{}},"elicitation":{"create":{}}"#);
    assert_eq!(declared, []);
}

#[test]
fn task_augmented_sampling_and_elicitation_to_a_client_that_did_not_are_reported() {
    let rule = |r: &str, events: &[u64]| (r.to_owned(), events.to_vec());
    assert_eq!(
        judged(""),
        [
            rule("mcp.tasks.request-capability", &[3]),
            rule("mcp.tasks.capability-declared", &[3, 4]),
            rule("mcp.tasks.request-capability", &[5]),
            rule("mcp.tasks.capability-declared", &[5, 6]),
        ]
    );
}
