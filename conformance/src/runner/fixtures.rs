//! What the peer offers (capabilities, tools, prompts, resources, cursors),
//! and the one binding from a vector to the fixtures it needs.
//!
//! Many vectors name things a given peer never offered (`echo`, `pay`,
//! `code_review`, `file:///project/README.md`, cursor `page-2`, task `t1`): a
//! peer is never failed for lacking them. [`needs`] is the only place that
//! decides, so when fixture needs become explicit data in the vectors this
//! function is what changes.

use std::collections::BTreeSet;

use harness::Revision;
use serde_json::Value;

use crate::vectors::{Answer, Vector};

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
        "resources/subscribe" | "resources/unsubscribe" => "resources.subscribe",
        // 2024-11-05 had completion without a capability to declare.
        "completion/complete" if revision == Revision::Mcp2024_11_05 => return None,
        "completion/complete" => "completions",
        "logging/setLevel" => "logging",
        m if m.starts_with("tools/") => "tools",
        m if m.starts_with("prompts/") => "prompts",
        m if m.starts_with("resources/") => "resources",
        m if m.starts_with("tasks/") => "tasks",
        _ => return None,
    })
}

/// Why `vector` cannot be played against this peer, or `None` when it can.
///
/// A request whose method needs a capability the peer did not declare is
/// not applicable. A request naming a tool, prompt, resource, cursor or task
/// the peer did not offer is not applicable when the vector expects a result
/// (only the fixture could give one); when it expects an error the request is
/// sent, since the peer must refuse it either way and an unknown name's answer
/// is judged as the revision says. A tool is called only when the user
/// allowed it: it may fetch URLs or write files.
#[must_use]
pub fn needs(vector: &Vector, catalogue: &Catalogue, allowed: &Allowed) -> Option<String> {
    if vector.profile.revision == Revision::JsonRpc2 {
        return None;
    }
    let Ok(frame) = serde_json::from_slice::<Value>(&vector.frame) else {
        return None;
    };
    let messages = match &frame {
        Value::Array(items) => items.iter().collect(),
        one => vec![one],
    };
    let wants_result = expects_result(vector.answer.as_ref());
    for message in messages {
        let Some(method) = message.get("method").and_then(Value::as_str) else {
            continue;
        };
        let params = message.get("params");
        let text = |key: &str| params.and_then(|p| p.get(key)).and_then(Value::as_str);
        if let Some(cap) = capability(method, vector.profile.revision) {
            let declared = match cap {
                "resources.subscribe" => catalogue.resource_subscribe,
                other => catalogue.declares(other),
            };
            if !declared {
                return Some(format!(
                    "`{method}` needs the `{cap}` capability, which the peer did not declare"
                ));
            }
        }
        if method == "tools/call" {
            if let Some(name) = text("name") {
                if catalogue.tools.contains(name) && !allowed.tools.contains(name) {
                    return Some(format!(
                        "calls tool `{name}`, which is never called unless allowed (--allow-tool {name})"
                    ));
                }
                if !catalogue.tools.contains(name) && wants_result {
                    return Some(format!("calls tool `{name}`, which the peer did not list"));
                }
            }
        }
        if !wants_result {
            continue;
        }
        let missing = match method {
            "prompts/get" => text("name")
                .filter(|n| !catalogue.prompts.contains(*n))
                .map(|n| format!("names prompt `{n}`, which the peer did not list")),
            "resources/read" | "resources/subscribe" | "resources/unsubscribe" => text("uri")
                .filter(|u| !catalogue.resources.contains(*u))
                .map(|u| format!("names resource `{u}`, which the peer did not list")),
            "completion/complete" => completion_ref(params, catalogue),
            m if m.starts_with("tasks/") => text("taskId")
                .map(|t| format!("names task `{t}`, which this session never created")),
            _ => None,
        };
        let missing = missing.or_else(|| {
            text("cursor")
                .filter(|c| !catalogue.cursors.contains(*c))
                .map(|c| format!("passes cursor `{c}`, which the peer never handed out"))
        });
        if missing.is_some() {
            return missing;
        }
    }
    None
}

/// Whether a conforming answer carries a result (so the fixture must exist).
fn expects_result(answer: Option<&Answer>) -> bool {
    match answer {
        Some(Answer::Result { .. }) => true,
        Some(Answer::Batch(items)) => items.iter().any(|a| expects_result(Some(a))),
        Some(Answer::Nothing | Answer::Error { .. }) | None => false,
    }
}

fn completion_ref(params: Option<&Value>, catalogue: &Catalogue) -> Option<String> {
    let reference = params?.get("ref")?;
    match reference.get("type").and_then(Value::as_str)? {
        "ref/prompt" => {
            let name = reference.get("name").and_then(Value::as_str)?;
            (!catalogue.prompts.contains(name))
                .then(|| format!("completes prompt `{name}`, which the peer did not list"))
        }
        "ref/resource" => {
            let uri = reference.get("uri").and_then(Value::as_str)?;
            (!catalogue.resources.contains(uri))
                .then(|| format!("completes resource `{uri}`, which the peer did not list"))
        }
        _ => None,
    }
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
            let frame = serde_json::json!({
                "jsonrpc": "2.0",
                // A string id no vector uses, so it is fresh in any session.
                "id": format!("wirecheck-tool-{name}"),
                "method": "tools/call",
                "params": { "name": name, "arguments": arguments },
            });
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
                    id: "mcp.schema.result".into(),
                    level: harness::spec::Level::Must,
                    spec: format!("MCP {revision}, server/tools, Calling Tools"),
                }],
                codec: crate::vectors::Codec::Lifts,
                violations: Vec::new(),
                advisories: Vec::new(),
                answer: Some(Answer::Result {
                    id: None,
                    required: vec!["content".into()],
                    example: None,
                }),
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

    fn vector(frame: &str, answer: Answer) -> Vector {
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
            answer: Some(answer),
            exchange: None,
            ambiguity: None,
        }
    }

    fn result() -> Answer {
        Answer::Result {
            id: None,
            required: Vec::new(),
            example: None,
        }
    }

    fn error() -> Answer {
        Answer::Error {
            codes: vec![-32602],
            id: None,
            data_required: Vec::new(),
        }
    }

    fn with_tools(tools: &[&str]) -> Catalogue {
        Catalogue {
            capabilities: ["tools".to_owned()].into(),
            tools: tools.iter().map(|t| (*t).to_owned()).collect(),
            ..Catalogue::default()
        }
    }

    const CALL_ECHO: &str =
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}"#;

    #[test]
    fn an_undeclared_capability_is_not_applicable() {
        let v = vector(
            r#"{"jsonrpc":"2.0","id":1,"method":"prompts/list"}"#,
            result(),
        );
        let why = needs(&v, &with_tools(&[]), &Allowed::default()).unwrap();
        assert!(why.contains("`prompts` capability"), "{why}");
    }

    #[test]
    fn a_tool_is_called_only_when_listed_and_allowed() {
        let v = vector(CALL_ECHO, result());
        let none = Allowed::default();
        assert!(needs(&v, &with_tools(&[]), &none)
            .unwrap()
            .contains("did not list"));
        assert!(needs(&v, &with_tools(&["echo"]), &none)
            .unwrap()
            .contains("--allow-tool echo"));
        let echo = Allowed {
            tools: ["echo".to_owned()].into(),
            arguments: None,
        };
        assert_eq!(needs(&v, &with_tools(&["echo"]), &echo), None);
    }

    #[test]
    fn an_unknown_name_is_sent_when_an_error_is_the_answer_anyway() {
        let v = vector(CALL_ECHO, error());
        assert_eq!(needs(&v, &with_tools(&[]), &Allowed::default()), None);
        let cursor = vector(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"page-2"}}"#,
            result(),
        );
        assert!(needs(&cursor, &with_tools(&[]), &Allowed::default())
            .unwrap()
            .contains("cursor `page-2`"));
    }
}
