//! Each method's capability, as the session judge holds a peer to it: MCP
//! basic/lifecycle §Operation ("Respect the negotiated protocol version" and
//! "Only use capabilities that were successfully negotiated"), with each
//! feature page's §Capabilities naming what a method needs (2024-11-05 to
//! 2025-11-25). A method sent to a peer that declared nothing is reported with
//! the capability it needed; the same method after both sides declared
//! everything is not.

use harness::{Direction, Revision};

use crate::support::findings;

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;

const ALL_CLIENT: &str = r#"{"roots":{"listChanged":true},"sampling":{},"elicitation":{}}"#;
const ALL_SERVER: &str = r#"{"logging":{},"completions":{},"prompts":{"listChanged":true},"resources":{"listChanged":true,"subscribe":true},"tools":{"listChanged":true}}"#;

/// The messages of the capability findings for `frame` sent by `from`, after a
/// `revision` handshake with the declarations given.
fn capability_messages(
    revision: Revision,
    client_caps: &str,
    server_caps: &str,
    from: Direction,
    frame: &str,
) -> Vec<String> {
    let v = revision.name();
    let init = format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{v}","capabilities":{client_caps},"clientInfo":{{"name":"c","version":"1"}}}}}}"#
    );
    let answer = format!(
        r#"{{"jsonrpc":"2.0","id":0,"result":{{"protocolVersion":"{v}","capabilities":{server_caps},"serverInfo":{{"name":"s","version":"1"}}}}}}"#
    );
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let frames = [
        (C, init.as_str()),
        (S, answer.as_str()),
        (C, initialized),
        (from, frame),
    ];
    let mut messages: Vec<String> = findings(revision, frames.iter().map(|&(d, f)| (d, f, None)))
        .into_iter()
        .map(|f| f.violation.message)
        .filter(|m| m.contains(", which needs "))
        .collect();
    messages.dedup();
    messages
}

/// `(sender, frame, what it needs)` for every method with a capability.
const TABLE: &[(Direction, &str, &str)] = &[
    (
        C,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}"#,
        "`tools`",
    ),
    (
        C,
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///a"}}"#,
        "`resources`",
    ),
    (
        C,
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"file:///a"}}"#,
        "`resources.subscribe`",
    ),
    (
        C,
        r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"p"}}"#,
        "`prompts`",
    ),
    (
        C,
        r#"{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info"}}"#,
        "`logging`",
    ),
    (
        C,
        r#"{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"b"}}}"#,
        "`completions`",
    ),
    (
        C,
        r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#,
        "`roots.listChanged`",
    ),
    (
        S,
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#,
        "`logging`",
    ),
    (
        S,
        r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#,
        "`tools.listChanged`",
    ),
    (
        S,
        r#"{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}"#,
        "`prompts.listChanged`",
    ),
    (
        S,
        r#"{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}"#,
        "`resources.listChanged`",
    ),
    (
        S,
        r#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a"}}"#,
        "`resources.subscribe`",
    ),
    (
        S,
        r#"{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10}}"#,
        "`sampling`",
    ),
    (
        S,
        r#"{"jsonrpc":"2.0","id":1,"method":"roots/list"}"#,
        "`roots`",
    ),
    (
        S,
        r#"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}}"#,
        "`elicitation`",
    ),
];

fn method(frame: &str) -> String {
    let start = frame.find(r#""method":""#).expect("a method") + 10;
    frame[start..].split('"').next().expect("quoted").to_owned()
}

#[test]
fn every_method_needs_its_capability_and_is_judged_against_it() {
    let revision = Revision::Mcp2025_06_18;
    for &(from, frame, wanted) in TABLE {
        let method = method(frame);
        // A request leans on what the other side declared, a notification on
        // what its sender declared.
        let (sender, other) = match from {
            C => ("client", "server"),
            S => ("server", "client"),
        };
        let holder = if method.starts_with("notifications/") {
            sender
        } else {
            other
        };
        assert_eq!(
            capability_messages(revision, "{}", "{}", from, frame),
            vec![format!(
                "the {sender} sent `{method}`, which needs {wanted}, but the {holder} did not declare it"
            )],
            "`{method}` with nothing declared"
        );
        assert_eq!(
            capability_messages(revision, ALL_CLIENT, ALL_SERVER, from, frame),
            Vec::<String>::new(),
            "`{method}` with everything declared"
        );
    }
}

/// `elicitation` arrives with 2025-06-18 (client/elicitation §Capabilities):
/// before it there is no capability for `elicitation/create` to need.
#[test]
fn elicitation_needs_its_capability_from_2025_06_18_on() {
    let &(_, frame, _) = TABLE.last().expect("elicitation is last");
    assert_eq!(
        capability_messages(Revision::Mcp2025_03_26, "{}", "{}", S, frame),
        Vec::<String>::new()
    );
    assert_eq!(
        capability_messages(Revision::Mcp2025_11_25, "{}", "{}", S, frame).len(),
        1
    );
}
