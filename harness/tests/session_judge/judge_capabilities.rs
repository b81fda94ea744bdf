//! What the session judge holds a peer to about declared capabilities, where
//! a capability has a member or flag inside it: the member is what the request
//! needs, the capability is what the answer shows the peer supports.

use harness::{Direction, Revision};

use crate::support::findings;

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;

/// The rules the judge reports for `frames`, a 2025-11-25 session after a
/// handshake in which the client declared `client_caps` and the server
/// `server_caps`.
fn judged(client_caps: &str, server_caps: &str, frames: &[(Direction, &str)]) -> Vec<String> {
    let init = format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{client_caps},"clientInfo":{{"name":"c","version":"1"}}}}}}"#
    );
    let answer = format!(
        r#"{{"jsonrpc":"2.0","id":0,"result":{{"protocolVersion":"2025-11-25","capabilities":{server_caps},"serverInfo":{{"name":"s","version":"1"}}}}}}"#
    );
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let handshake = [(C, init.as_str()), (S, answer.as_str()), (C, initialized)];
    let all = handshake.iter().chain(frames).map(|&(d, f)| (d, f, None));
    findings(Revision::Mcp2025_11_25, all)
        .iter()
        .map(|f| f.violation.rule.to_string())
        .collect()
}

/// MCP 2025-11-25 client/sampling §Tools in Sampling (MUST NOT): "Servers MUST
/// NOT send tool-enabled sampling requests to Clients that have not declared
/// support for tool use via the `sampling.tools` capability." A client that
/// declared `sampling` alone was asked for a plain sampling request only.
#[test]
fn tool_enabled_sampling_needs_sampling_tools() {
    let with_tools = r#"{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10,"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}"#;
    let plain = r#"{"jsonrpc":"2.0","id":2,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10}}"#;
    let rule = "mcp.sampling.tools-declared";
    assert!(
        judged(r#"{"sampling":{}}"#, "{}", &[(S, with_tools)]).contains(&rule.to_owned()),
        "a tool-enabled request to a client without `sampling.tools` is {rule}"
    );
    assert!(
        !judged(r#"{"sampling":{"tools":{}}}"#, "{}", &[(S, with_tools)])
            .contains(&rule.to_owned())
    );
    assert!(!judged(r#"{"sampling":{}}"#, "{}", &[(S, plain)]).contains(&rule.to_owned()));
}

/// MCP 2025-11-25 server/resources §Capabilities (MUST): "Servers that support
/// resources MUST declare the `resources` capability"; `subscribe` inside it is
/// optional. A server that declared `resources` without `subscribe` and still
/// answers a `resources/subscribe` has declared the feature it answered for;
/// one that declared nothing and answers `resources/read` has not.
#[test]
fn answering_a_feature_needs_the_feature_not_its_flags() {
    let rule = "mcp.capabilities.server-declares";
    let subscribe = [
        (
            C,
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"file:///a"}}"#,
        ),
        (S, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
    ];
    assert!(
        !judged("{}", r#"{"resources":{}}"#, &subscribe).contains(&rule.to_owned()),
        "`resources` declared: answering `resources/subscribe` is no {rule}"
    );
    let read = [
        (
            C,
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///a"}}"#,
        ),
        (S, r#"{"jsonrpc":"2.0","id":1,"result":{"contents":[]}}"#),
    ];
    assert!(judged("{}", "{}", &read).contains(&rule.to_owned()));
    assert!(!judged("{}", r#"{"resources":{}}"#, &read).contains(&rule.to_owned()));
}
