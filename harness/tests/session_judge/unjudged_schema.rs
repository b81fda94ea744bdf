//! A tool result the judge cannot hold to its `outputSchema` is reported at the
//! end as not observed, with the reason, never silently passed: MCP 2025-06-18
//! server/tools §Output Schema ("Servers MUST provide structured results that
//! conform to this schema"), judged with no I/O, so a remote `$ref` (2026-07-28
//! basic/index §`$ref` Resolution: not fetched) leaves the value not judged.
//! At most 64 such notes are kept per capture, so a hostile peer cannot grow the
//! judge's memory with them.

use harness::rules::RuleId;
use harness::{Direction, Revision};

use crate::support::fed;

const LIST: &str = r#"{"jsonrpc":"2.0","id":"l","result":{"tools":[{"name":"far","inputSchema":{"type":"object"},"outputSchema":{"$ref":"https://schemas.example/far.json"}}]}}"#;

const HANDSHAKE: &[(Direction, &str)] = &[
    (
        Direction::ClientToServer,
        r#"{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
    ),
    (
        Direction::ServerToClient,
        r#"{"jsonrpc":"2.0","id":"i","result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#,
    ),
    (
        Direction::ClientToServer,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    ),
];

/// The not-observed notes a 2025-06-18 capture ends with after `calls` calls of
/// a tool whose `outputSchema` is a remote `$ref`, each answered with
/// `structuredContent`.
fn notes(calls: usize) -> Vec<(RuleId, String)> {
    let mut frames: Vec<(Direction, String)> = HANDSHAKE
        .iter()
        .map(|&(from, frame)| (from, frame.to_owned()))
        .collect();
    frames.push((
        Direction::ClientToServer,
        r#"{"jsonrpc":"2.0","id":"l","method":"tools/list"}"#.to_owned(),
    ));
    frames.push((Direction::ServerToClient, LIST.to_owned()));
    for i in 0..calls {
        frames.push((
            Direction::ClientToServer,
            format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"far","arguments":{{}}}}}}"#
            ),
        ));
        frames.push((
            Direction::ServerToClient,
            format!(
                r#"{{"jsonrpc":"2.0","id":{i},"result":{{"content":[{{"type":"text","text":"{{\"n\":{i}}}"}}],"structuredContent":{{"n":{i}}}}}}}"#
            ),
        ));
    }
    let (judge, out) = fed(
        Revision::Mcp2025_06_18,
        frames.iter().map(|(from, frame)| (*from, frame.as_str())),
    );
    let broken: Vec<RuleId> = out.iter().map(|f| f.violation.rule).collect();
    assert_eq!(broken, Vec::<RuleId>::new(), "nothing here breaks a rule");
    judge
        .finish()
        .not_observed
        .into_iter()
        .map(|u| (u.rule, u.why))
        .collect()
}

#[test]
fn a_result_whose_schema_cannot_be_resolved_is_not_observed_with_the_reason() {
    let notes = notes(1);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].0, RuleId::McpToolsOutputSchemaConform);
    assert!(
        notes[0]
            .1
            .starts_with(r#"the `structuredContent` of tool "far" was not judged: "#),
        "{}",
        notes[0].1
    );
}

#[test]
fn at_most_64_unjudged_results_are_noted() {
    assert_eq!(notes(64).len(), 64);
    assert_eq!(notes(65).len(), 64);
}
