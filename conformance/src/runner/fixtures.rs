//! What the peer offers (capabilities, tools, prompts, resources, cursors),
//! and the one binding from a vector to the fixtures it needs.
//!
//! Many vectors name things a given peer never offered (`echo`, `pay`,
//! `code_review`, `file:///project/README.md`, cursor `page-2`, task `t1`): a
//! peer is never failed for lacking them. The vectors say what they need as
//! data (`needs`); [`bind`] binds it to what this peer offered.

use std::collections::BTreeSet;

use harness::Revision;
use serde_json::Value;

use crate::vectors::{Answer, Binding, Needs, Offered, Vector};

/// What the peer declared and listed in this session.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Catalogue {
    /// The top-level capability names the peer declared (`tools`, `prompts`…).
    pub capabilities: BTreeSet<String>,
    /// Whether `resources.subscribe` is `true`.
    pub resource_subscribe: bool,
    /// Tool names from `tools/list`.
    pub tools: BTreeSet<String>,
    /// Prompt names from `prompts/list`.
    pub prompts: BTreeSet<String>,
    /// Resource URIs from `resources/list`.
    pub resources: BTreeSet<String>,
    /// Every `nextCursor` the peer handed out.
    pub cursors: BTreeSet<String>,
}

impl Catalogue {
    /// The capabilities of an `initialize` or `server/discover` result.
    #[must_use]
    pub fn from_handshake(result: &Value) -> Catalogue {
        let mut catalogue = Catalogue::default();
        if let Some(Value::Object(caps)) = result.get("capabilities") {
            catalogue.capabilities = caps.keys().cloned().collect();
            catalogue.resource_subscribe = caps
                .get("resources")
                .and_then(|r| r.get("subscribe"))
                .and_then(Value::as_bool)
                .unwrap_or(false);
        }
        catalogue
    }

    /// Whether the peer declared capability `name`.
    #[must_use]
    pub fn declares(&self, name: &str) -> bool {
        self.capabilities.contains(name)
    }
}

/// The tools the user allows the runner to call (`--allow-tool`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Allowed {
    /// Tool names.
    pub tools: BTreeSet<String>,
    /// The arguments to call each allowed tool with in a probe of its own
    /// (`--tool-args`); without them the tool is only called by vectors.
    pub arguments: Option<Value>,
}

/// The capability a client request's method belongs to, for `revision`
/// (MCP 2025-11-25, basic/lifecycle, "Capability Negotiation": the server's
/// capabilities say which optional features it offers).
fn capability(method: &str, revision: Revision) -> Option<&'static str> {
    Some(match method {
        // 2026-07-28 replaced them with subscriptions/listen: there they are
        // methods of another revision, whose answer is judged.
        "resources/subscribe" | "resources/unsubscribe" if revision == Revision::Mcp2026_07_28 => {
            return None
        }
        "resources/subscribe" | "resources/unsubscribe" => "resources.subscribe",
        // 2024-11-05 had completion without a capability to declare.
        "completion/complete" if revision == Revision::Mcp2024_11_05 => return None,
        "completion/complete" => "completions",
        // 2026-07-28 removed it ("Remove `ping`, `logging/setLevel` […]. Log
        // level is now set per-request", changelog item 5): there it is a
        // method of another revision whose answer is judged, whatever the
        // server declares, not one that needs `logging`.
        "logging/setLevel" if revision == Revision::Mcp2026_07_28 => return None,
        "logging/setLevel" => "logging",
        m if m.starts_with("tools/") => "tools",
        m if m.starts_with("prompts/") => "prompts",
        m if m.starts_with("resources/") => "resources",
        // Tasks arrived in 2025-11-25: before it a tasks/ method is one of
        // another revision, whose answer is judged, not skipped.
        m if m.starts_with("tasks/") && revision < Revision::Mcp2025_11_25 => return None,
        m if m.starts_with("tasks/") => "tasks",
        _ => return None,
    })
}

/// What the peer offers, as the vectors' fixture needs are bound against it:
/// its declared capabilities, the tools the user allowed among those it
/// listed (a tool is called only when allowed: it may fetch URLs or write
/// files), the prompts and resources it listed, the cursors it handed out.
#[must_use]
pub fn offered(catalogue: &Catalogue, allowed: &Allowed) -> Offered {
    let mut capabilities: Vec<String> = catalogue.capabilities.iter().cloned().collect();
    if catalogue.resource_subscribe {
        capabilities.push("resources.subscribe".into());
    }
    Offered {
        capabilities,
        tools: catalogue
            .tools
            .iter()
            .filter(|t| allowed.tools.contains(*t))
            .cloned()
            .collect(),
        prompts: catalogue.prompts.iter().cloned().collect(),
        resources: catalogue.resources.iter().cloned().collect(),
        cursors: catalogue.cursors.iter().cloned().collect(),
        // The runner creates no tasks of its own: a vector that needs one is
        // not applicable until a task-creating probe is allowed.
        tasks: Vec::new(),
    }
}

/// How `vector` is played against this peer: `Err(why)` when it cannot be
/// (not applicable), `Ok(None)` as it is, `Ok(Some(bound))` with its fixture
/// placeholders bound to what the peer offered.
///
/// The vector's own `needs` decide first (the one binding, [`Needs::bind`]).
/// Two guards follow, on the frame that would be sent: a request whose method
/// belongs to a capability the peer did not declare is not applicable (a
/// request of a feature the peer never offered is not a conformance
/// question), and a `tools/call` naming a tool the peer listed but the user
/// did not allow is never sent.
///
/// # Errors
/// The reason the vector is not applicable.
pub fn bind(
    vector: &Vector,
    catalogue: &Catalogue,
    allowed: &Allowed,
) -> Result<Option<Vector>, String> {
    if vector.profile.revision == Revision::JsonRpc2 {
        return Ok(None);
    }
    let bound = match vector.needs.bind(&offered(catalogue, allowed)) {
        Binding::NotApplicable { why } => return Err(why),
        Binding::Bound { substitutions } if substitutions.is_empty() => None,
        binding @ Binding::Bound { .. } => {
            let frame = binding
                .rebind(&vector.frame_text())
                .ok_or("the binding gave no frame")?;
            let mut v = vector.clone();
            v.frame = frame.into_bytes();
            Some(v)
        }
    };
    let frame = bound.as_ref().map_or(&vector.frame, |v| &v.frame);
    guard(frame, vector.profile.revision, catalogue, allowed)?;
    Ok(bound)
}

/// The capability and tool guards of [`bind`] over every message of `frame`.
fn guard(
    frame: &[u8],
    revision: Revision,
    catalogue: &Catalogue,
    allowed: &Allowed,
) -> Result<(), String> {
    let Ok(frame) = serde_json::from_slice::<Value>(frame) else {
        return Ok(());
    };
    let messages = match &frame {
        Value::Array(items) => items.iter().collect(),
        one => vec![one],
    };
    for message in messages {
        let Some(method) = message.get("method").and_then(Value::as_str) else {
            continue;
        };
        if let Some(cap) = capability(method, revision) {
            let declared = match cap {
                "resources.subscribe" => catalogue.resource_subscribe,
                other => catalogue.declares(other),
            };
            if !declared {
                return Err(format!(
                    "`{method}` needs the `{cap}` capability, which the peer did not declare"
                ));
            }
        }
        if method == "tools/call" {
            let name = message
                .get("params")
                .and_then(|p| p.get("name"))
                .and_then(Value::as_str);
            if let Some(name) = name {
                if catalogue.tools.contains(name) && !allowed.tools.contains(name) {
                    return Err(format!(
                        "calls tool `{name}`, which is never called unless allowed (--allow-tool {name})"
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The `_meta` every request of the runner's own making carries under
/// `revision`: 2026-07-28 basic/index §_meta, every request carries the
/// protocol version, client info and client capabilities (without them a
/// request is refused whatever it asks, so a probe would test nothing).
/// `None` in revisions without per-request metadata.
#[must_use]
pub fn request_meta(revision: Revision) -> Option<serde_json::Value> {
    (revision == Revision::Mcp2026_07_28).then(|| {
        serde_json::json!({
            "io.modelcontextprotocol/protocolVersion": revision.name(),
            "io.modelcontextprotocol/clientInfo": {"name": "wirecheck", "version": env!("CARGO_PKG_VERSION")},
            "io.modelcontextprotocol/clientCapabilities": {},
        })
    })
}

/// The probes of the user's own tools: one `tools/call` per allowed tool the
/// peer listed, with `--tool-args`, as vectors of the runner's making. A
/// conforming answer is a result with `content` (MCP 2025-11-25,
/// server/tools, "Calling Tools"), or an error; the rule model judges which.
#[must_use]
pub fn tool_probes(revision: Revision, catalogue: &Catalogue, allowed: &Allowed) -> Vec<Vector> {
    let Some(arguments) = &allowed.arguments else {
        return Vec::new();
    };
    allowed
        .tools
        .iter()
        .filter(|name| catalogue.tools.contains(*name))
        .map(|name| {
            let mut frame = serde_json::json!({
                "jsonrpc": "2.0",
                // A string id no vector uses, so it is fresh in any session.
                "id": format!("wirecheck-tool-{name}"),
                "method": "tools/call",
                "params": { "name": name, "arguments": arguments },
            });
            if let Some(meta) = request_meta(revision) {
                frame["params"]["_meta"] = meta;
            }
            Vector {
                id: format!("run/{revision}/tools-call/{name}"),
                path: std::path::PathBuf::from("--allow-tool"),
                verdict: crate::vectors::Verdict::Accept,
                description: format!("the allowed tool `{name}` called with --tool-args"),
                profile: harness::Profile {
                    revision,
                    direction: harness::Direction::ClientToServer,
                },
                frame: serde_json::to_vec(&frame).unwrap_or_default(),
                rules: vec![crate::vectors::RuleRef {
                    id: harness::rules::RuleId::McpSchemaResult,
                    level: harness::rules::Level::Must,
                    spec: format!("MCP {revision}, server/tools, Calling Tools"),
                }],
                codec: crate::vectors::Codec::Lifts,
                violations: Vec::new(),
                advisories: Vec::new(),
                // A result carrying `content` or an error (a tool may refuse
                // the user's arguments): the schema's `CallToolResult`.
                answer: Some(Answer::AnyOf(vec![
                    Answer::Result {
                        id: None,
                        required: vec!["content".into()],
                        example: None,
                    },
                    Answer::Error {
                        codes: Vec::new(),
                        id: None,
                        data_required: Vec::new(),
                    },
                ])),
                basis: Some(crate::vectors::Basis::MandatedBy {
                    rule: harness::rules::RuleId::McpSchemaResult,
                    level: harness::rules::Level::Must,
                }),
                needs: Needs::default(),
                exchange: None,
                ambiguity: None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vectors::{Codec, Verdict};
    use harness::{Direction, Profile};

    fn vector(frame: &str, needs: Needs) -> Vector {
        Vector {
            id: "mcp/2025-11-25/x/y".into(),
            path: "x.json".into(),
            verdict: Verdict::Accept,
            description: String::new(),
            profile: Profile {
                revision: Revision::Mcp2025_11_25,
                direction: Direction::ClientToServer,
            },
            frame: frame.as_bytes().to_vec(),
            rules: Vec::new(),
            codec: Codec::Lifts,
            violations: Vec::new(),
            advisories: Vec::new(),
            answer: Some(Answer::Result {
                id: None,
                required: Vec::new(),
                example: None,
            }),
            basis: None,
            needs,
            exchange: None,
            ambiguity: None,
        }
    }

    fn with_tools(tools: &[&str]) -> Catalogue {
        Catalogue {
            capabilities: ["tools".to_owned()].into(),
            tools: tools.iter().map(|t| (*t).to_owned()).collect(),
            ..Catalogue::default()
        }
    }

    fn allow(tools: &[&str]) -> Allowed {
        Allowed {
            tools: tools.iter().map(|t| (*t).to_owned()).collect(),
            arguments: None,
        }
    }

    const CALL_ECHO: &str =
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}"#;

    fn needs_tool(name: &str) -> Needs {
        Needs {
            capability: Some("tools".into()),
            tool: Some(name.into()),
            ..Needs::default()
        }
    }

    #[test]
    fn an_undeclared_capability_is_not_applicable() {
        let v = vector(
            r#"{"jsonrpc":"2.0","id":1,"method":"prompts/list"}"#,
            Needs::default(),
        );
        let why = bind(&v, &with_tools(&[]), &Allowed::default()).unwrap_err();
        assert!(why.contains("`prompts` capability"), "{why}");
    }

    #[test]
    fn a_method_gone_from_2026_07_28_needs_no_capability_there() {
        // `logging/setLevel` does not exist in 2026-07-28 (changelog item 5):
        // a server without `logging` still answers it, and is judged.
        let mut v = vector(
            r#"{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info"}}"#,
            Needs::default(),
        );
        assert!(bind(&v, &with_tools(&[]), &Allowed::default()).is_err());
        v.profile.revision = Revision::Mcp2026_07_28;
        assert_eq!(bind(&v, &with_tools(&[]), &Allowed::default()), Ok(None));
    }

    #[test]
    fn a_tool_is_called_only_when_listed_and_allowed() {
        let v = vector(CALL_ECHO, needs_tool("echo"));
        assert!(bind(&v, &with_tools(&[]), &Allowed::default()).is_err());
        // Listed but not allowed: never sent.
        assert!(bind(&v, &with_tools(&["echo"]), &Allowed::default()).is_err());
        assert_eq!(
            bind(&v, &with_tools(&["echo"]), &allow(&["echo"])),
            Ok(None)
        );
    }

    #[test]
    fn a_listed_tool_not_allowed_is_never_called_even_without_a_declared_need() {
        let v = vector(CALL_ECHO, Needs::default());
        let why = bind(&v, &with_tools(&["echo"]), &Allowed::default()).unwrap_err();
        assert!(why.contains("--allow-tool echo"), "{why}");
    }

    #[test]
    fn a_placeholder_is_bound_to_what_the_peer_offers() {
        let v = vector(CALL_ECHO, needs_tool("echo"));
        let bound = bind(&v, &with_tools(&["lookup"]), &allow(&["lookup"]))
            .unwrap()
            .expect("the placeholder is rebound");
        assert_eq!(
            String::from_utf8(bound.frame).unwrap(),
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lookup"}}"#
        );
    }
}
