//! What the peer offers (capabilities, tools, prompts, resources, cursors),
//! and the one binding from a vector to the fixtures it needs.
//!
//! Many vectors name things a given peer never offered (`echo`, `pay`,
//! `code_review`, `file:///project/README.md`, cursor `page-2`, task `t1`): a
//! peer is never failed for lacking them. The vectors say what they need as
//! data (`needs`); [`bind`] binds it to what this peer offered.

use std::collections::{BTreeMap, BTreeSet};

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
    /// Every `nextCursor` the peer handed out, by the list method that
    /// returned it: a cursor is a position in one list, so it is replayed
    /// only to the method that issued it (every revision's
    /// server/utilities/pagination: "Clients MUST treat cursors as opaque
    /// tokens" — another list's cursor is one this list never issued).
    pub cursors: BTreeMap<String, BTreeSet<String>>,
    /// Each listed tool's `inputSchema`, by name: what its arguments may be.
    pub tool_schemas: BTreeMap<String, Value>,
    /// The listed tools whose `execution.taskSupport` is `"optional"` or
    /// `"required"` (2025-11-25 basic/utilities/tasks §Tool-Level
    /// Negotiation): the only ones a client may invoke as a task.
    pub task_tools: BTreeSet<String>,
    /// Whether the peer declared `tasks.requests.tools.call` (without it
    /// "clients MUST NOT attempt to use task augmentation on that server's
    /// tools").
    pub task_tool_calls: bool,
    /// Each listed prompt's declared arguments, by prompt name: `(name,
    /// required)` in listing order.
    pub prompt_arguments: BTreeMap<String, Vec<(String, bool)>>,
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
            catalogue.task_tool_calls = caps
                .get("tasks")
                .and_then(|t| t.get("requests"))
                .and_then(|r| r.get("tools"))
                .and_then(|t| t.get("call"))
                .is_some();
        }
        catalogue
    }

    /// Records one item of a `tools/list` or `prompts/list` page: its name,
    /// and what a probe may send it (a tool's `inputSchema` and task
    /// support, a prompt's declared arguments).
    pub fn learn_item(&mut self, list: &str, item: &Value) {
        let Some(name) = item.get("name").and_then(Value::as_str) else {
            return;
        };
        match list {
            "tools" => {
                self.tools.insert(name.to_owned());
                if let Some(schema) = item.get("inputSchema") {
                    self.tool_schemas.insert(name.to_owned(), schema.clone());
                }
                let support = item
                    .get("execution")
                    .and_then(|e| e.get("taskSupport"))
                    .and_then(Value::as_str);
                if matches!(support, Some("optional" | "required")) {
                    self.task_tools.insert(name.to_owned());
                }
            }
            "prompts" => {
                self.prompts.insert(name.to_owned());
                let arguments = item
                    .get("arguments")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|a| {
                        let n = a.get("name").and_then(Value::as_str)?;
                        let required = a.get("required").and_then(Value::as_bool) == Some(true);
                        Some((n.to_owned(), required))
                    })
                    .collect();
                self.prompt_arguments.insert(name.to_owned(), arguments);
            }
            _ => {}
        }
    }

    /// The arguments prompt `name` declares as required.
    fn required_prompt_arguments(&self, name: &str) -> Vec<&str> {
        self.prompt_arguments
            .get(name)
            .into_iter()
            .flatten()
            .filter(|(_, required)| *required)
            .map(|(n, _)| n.as_str())
            .collect()
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

/// The one request `frame` holds: its method and params, when it is one
/// JSON object with a string method.
fn single_request(frame: &[u8]) -> Option<(String, Value)> {
    let value = serde_json::from_slice::<Value>(frame).ok()?;
    let method = value.get("method")?.as_str()?.to_owned();
    Some((method, value.get("params").cloned().unwrap_or(Value::Null)))
}

/// What the peer offers, as the vectors' fixture needs are bound against it:
/// its declared capabilities, the tools the user allowed among those it
/// listed (a tool is called only when allowed: it may fetch URLs or write
/// files), the prompts and resources it listed, the cursors it handed out.
///
/// `frame` is the vector's: what it asks narrows what fits. A cursor is
/// offered only from the list the frame asks for; a task-augmented
/// `tools/call` only binds a tool whose `execution.taskSupport` allows it;
/// prompts that need no argument come first (a `prompts/get` binds to the
/// first, and the values of a prompt's required arguments are nothing a
/// server lists).
#[must_use]
pub fn offered(catalogue: &Catalogue, allowed: &Allowed, frame: &[u8]) -> Offered {
    let mut capabilities: Vec<String> = catalogue.capabilities.iter().cloned().collect();
    if catalogue.resource_subscribe {
        capabilities.push("resources.subscribe".into());
    }
    let request = single_request(frame);
    let method = request.as_ref().map(|(m, _)| m.as_str());
    let as_task = request
        .as_ref()
        .is_some_and(|(m, p)| m == "tools/call" && p.get("task").is_some());
    let mut prompts: Vec<String> = catalogue.prompts.iter().cloned().collect();
    prompts.sort_by_key(|p| catalogue.required_prompt_arguments(p).len());
    Offered {
        capabilities,
        tools: catalogue
            .tools
            .iter()
            .filter(|t| allowed.tools.contains(*t))
            .filter(|t| !as_task || catalogue.task_tools.contains(*t))
            .cloned()
            .collect(),
        prompts,
        resources: catalogue.resources.iter().cloned().collect(),
        cursors: method
            .and_then(|m| catalogue.cursors.get(m))
            .into_iter()
            .flatten()
            .cloned()
            .collect(),
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
    if let Some((method, params)) = single_request(&vector.frame) {
        // A prompt or a resource the vector names without needing it is one
        // it expects unlisted (the not-found probes): one the peer listed
        // would be a read of what exists.
        let named = match method.as_str() {
            "prompts/get" if vector.needs.prompt.is_none() => params
                .get("name")
                .and_then(Value::as_str)
                .map(|n| (n, &catalogue.prompts)),
            "resources/read" if vector.needs.resource.is_none() => params
                .get("uri")
                .and_then(Value::as_str)
                .map(|u| (u, &catalogue.resources)),
            _ => None,
        };
        if let Some((name, _)) = named.filter(|(name, listed)| listed.contains(*name)) {
            return Err(format!(
                "the vector expects `{name}` unlisted, and the peer lists it"
            ));
        }
        if method == "tools/call" && params.get("task").is_some() && !catalogue.task_tool_calls {
            return Err("a task-augmented `tools/call` needs the `tasks.requests.tools.call` capability, which the peer did not declare (MCP 2025-11-25 basic/utilities/tasks §Tool-Level Negotiation: clients MUST NOT attempt task augmentation without it)".into());
        }
    }
    let mut bound = match vector
        .needs
        .bind(&offered(catalogue, allowed, &vector.frame))
    {
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
    if vector.violations.is_empty() && !vector.needs.is_empty() {
        let frame = bound.as_ref().map_or(&vector.frame, |v| &v.frame);
        if let Some(fitted) = fit(frame, catalogue, allowed)? {
            let mut v = bound.unwrap_or_else(|| vector.clone());
            v.frame = fitted;
            bound = Some(v);
        }
    }
    let frame = bound.as_ref().map_or(&vector.frame, |v| &v.frame);
    // Before the handshake nothing is declared yet: a frame sent then is
    // about the lifecycle, and any answer to it passes (a -32601 included).
    if !vector.needs.opening {
        guard(frame, vector.profile.revision, catalogue, allowed)?;
    }
    Ok(bound)
}

/// A valid frame's invented data replaced by what the peer listed and the
/// user gave, once its fixtures are bound: `Ok(None)` when nothing needed
/// replacing, `Err(why)` when it cannot be made without inventing.
///
/// - `tools/call`: the arguments are `--tool-args` when given; otherwise the
///   vector's own, only if they fit the tool's listed `inputSchema` (every
///   member declared, every required one present), else `{}` when the schema
///   requires nothing.
/// - `prompts/get`: only the arguments the prompt declares; a required one
///   the vector does not carry cannot be invented.
/// - `completion/complete` of a prompt: the argument completed is one the
///   prompt declares.
fn fit(frame: &[u8], catalogue: &Catalogue, allowed: &Allowed) -> Result<Option<Vec<u8>>, String> {
    let Ok(Value::Object(mut message)) = serde_json::from_slice::<Value>(frame) else {
        return Ok(None);
    };
    let method = message
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let Some(Value::Object(params)) = message.get_mut("params") else {
        return Ok(None);
    };
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let changed = match (method.as_str(), name) {
        ("tools/call", Some(tool)) => fit_tool_arguments(params, &tool, catalogue, allowed)?,
        ("prompts/get", Some(prompt)) => fit_prompt_arguments(params, &prompt, catalogue)?,
        ("completion/complete", _) => fit_completion(params, catalogue)?,
        _ => false,
    };
    Ok(changed.then(|| serde_json::to_vec(&message).unwrap_or_default()))
}

fn fit_tool_arguments(
    params: &mut serde_json::Map<String, Value>,
    tool: &str,
    catalogue: &Catalogue,
    allowed: &Allowed,
) -> Result<bool, String> {
    if let Some(given) = &allowed.arguments {
        let same = params.get("arguments") == Some(given);
        params.insert("arguments".into(), given.clone());
        return Ok(!same);
    }
    let schema = catalogue.tool_schemas.get(tool);
    let declared: BTreeSet<&str> = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let required: Vec<&str> = schema
        .and_then(|s| s.get("required"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let own = params.get("arguments").and_then(Value::as_object);
    let fits = own.is_some_and(|a| {
        a.keys().all(|k| declared.contains(k.as_str()))
            && required.iter().all(|r| a.contains_key(*r))
    });
    if fits || (own.is_none() && required.is_empty()) {
        return Ok(false);
    }
    if required.is_empty() {
        params.insert("arguments".into(), Value::Object(serde_json::Map::new()));
        return Ok(true);
    }
    Err(format!(
        "tool `{tool}` requires arguments ({}) and no --tool-args were given",
        required.join(", ")
    ))
}

fn fit_prompt_arguments(
    params: &mut serde_json::Map<String, Value>,
    prompt: &str,
    catalogue: &Catalogue,
) -> Result<bool, String> {
    let declared: Vec<&str> = catalogue
        .prompt_arguments
        .get(prompt)
        .into_iter()
        .flatten()
        .map(|(n, _)| n.as_str())
        .collect();
    let missing: Vec<&str> = catalogue
        .required_prompt_arguments(prompt)
        .into_iter()
        .filter(|r| {
            !params
                .get("arguments")
                .and_then(|a| a.get(*r))
                .is_some_and(Value::is_string)
        })
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "prompt `{prompt}` requires arguments ({}) whose values the peer does not list",
            missing.join(", ")
        ));
    }
    let Some(Value::Object(arguments)) = params.get_mut("arguments") else {
        return Ok(false);
    };
    let before = arguments.len();
    arguments.retain(|k, _| declared.contains(&k.as_str()));
    Ok(arguments.len() != before)
}

fn fit_completion(
    params: &mut serde_json::Map<String, Value>,
    catalogue: &Catalogue,
) -> Result<bool, String> {
    let is_prompt = params
        .get("ref")
        .and_then(|r| r.get("type"))
        .and_then(Value::as_str)
        == Some("ref/prompt");
    if !is_prompt {
        return Ok(false);
    }
    let prompt = params
        .get("ref")
        .and_then(|r| r.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let declared: Vec<&str> = catalogue
        .prompt_arguments
        .get(prompt)
        .into_iter()
        .flatten()
        .map(|(n, _)| n.as_str())
        .collect();
    let asked = params
        .get("argument")
        .and_then(|a| a.get("name"))
        .and_then(Value::as_str);
    if asked.is_some_and(|a| declared.contains(&a)) {
        return Ok(false);
    }
    // The prompt the binding chose declares none: another listed prompt
    // that declares one, else nothing to complete.
    let (name, argument) = if let Some(first) = declared.first() {
        (prompt.to_owned(), (*first).to_owned())
    } else {
        catalogue
            .prompt_arguments
            .iter()
            .find_map(|(p, args)| args.first().map(|(a, _)| (p.clone(), a.clone())))
            .ok_or("no listed prompt declares an argument to complete")?
    };
    if let Some(Value::Object(r)) = params.get_mut("ref") {
        r.insert("name".into(), Value::String(name));
    }
    match params.get_mut("argument") {
        Some(Value::Object(a)) => {
            a.insert("name".into(), Value::String(argument));
        }
        _ => {
            params.insert(
                "argument".into(),
                serde_json::json!({"name": argument, "value": ""}),
            );
        }
    }
    Ok(true)
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
    (revision == Revision::Mcp2026_07_28)
        .then(|| serde_json::Value::Object(crate::opening::discover_meta(revision)))
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

    fn sent(bound: Result<Option<Vector>, String>) -> Value {
        let v = bound.expect("applicable").expect("rewritten");
        serde_json::from_slice(&v.frame).unwrap()
    }

    #[test]
    fn a_cursor_is_replayed_only_to_the_list_that_issued_it() {
        let v = vector(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"page-2"}}"#,
            Needs {
                capability: Some("tools".into()),
                cursor: Some("page-2".into()),
                ..Needs::default()
            },
        );
        let mut catalogue = with_tools(&[]);
        catalogue.capabilities.insert("resources".into());
        catalogue
            .cursors
            .insert("resources/list".into(), ["r-2".to_owned()].into());
        let why = bind(&v, &catalogue, &Allowed::default()).unwrap_err();
        assert!(why.contains("issued no cursor"), "{why}");
        catalogue
            .cursors
            .insert("tools/list".into(), ["t-2".to_owned()].into());
        let frame = sent(bind(&v, &catalogue, &Allowed::default()));
        assert_eq!(frame["params"]["cursor"], "t-2");
    }

    fn with_prompt(name: &str, arguments: &[(&str, bool)]) -> Catalogue {
        let mut c = Catalogue {
            capabilities: ["prompts".to_owned(), "completions".to_owned()].into(),
            ..Catalogue::default()
        };
        c.learn_item(
            "prompts",
            &serde_json::json!({"name": name, "arguments": arguments
                .iter()
                .map(|(n, r)| serde_json::json!({"name": n, "required": r}))
                .collect::<Vec<_>>()}),
        );
        c
    }

    fn needs_prompt() -> Needs {
        Needs {
            capability: Some("prompts".into()),
            prompt: Some("code_review".into()),
            ..Needs::default()
        }
    }

    #[test]
    fn prompts_get_sends_only_arguments_the_listed_prompt_declares() {
        let get = vector(
            r#"{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"code_review","arguments":{"code":"x"}}}"#,
            needs_prompt(),
        );
        // A prompt declaring no `code`: the invented argument is left out.
        let frame = sent(bind(
            &get,
            &with_prompt("greet", &[("who", false)]),
            &Allowed::default(),
        ));
        assert_eq!(frame["params"]["name"], "greet");
        assert_eq!(frame["params"]["arguments"], serde_json::json!({}));
        // A required argument's value is nothing the peer lists.
        let why = bind(
            &get,
            &with_prompt("greet", &[("who", true)]),
            &Allowed::default(),
        )
        .unwrap_err();
        assert!(why.contains("requires arguments (who)"), "{why}");
        // The reference peer's own prompt: sent as written.
        let own = with_prompt("code_review", &[("code", true), ("language", false)]);
        assert_eq!(bind(&get, &own, &Allowed::default()), Ok(None));
    }

    #[test]
    fn completion_completes_an_argument_the_listed_prompt_declares() {
        let complete = vector(
            r#"{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"code_review"},"argument":{"name":"language","value":"py"}}}"#,
            needs_prompt(),
        );
        let frame = sent(bind(
            &complete,
            &with_prompt("greet", &[("who", true)]),
            &Allowed::default(),
        ));
        assert_eq!(frame["params"]["ref"]["name"], "greet");
        assert_eq!(frame["params"]["argument"]["name"], "who");
        let why = bind(&complete, &with_prompt("greet", &[]), &Allowed::default()).unwrap_err();
        assert!(why.contains("declares an argument"), "{why}");
    }

    #[test]
    fn a_task_call_needs_the_declared_capability_and_a_task_capable_tool() {
        let v = vector(
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"long_job","arguments":{},"task":{"ttl":60000}}}"#,
            needs_tool("long_job"),
        );
        let mut catalogue = with_tools(&["long_job"]);
        let why = bind(&v, &catalogue, &allow(&["long_job"])).unwrap_err();
        assert!(why.contains("tasks.requests.tools.call"), "{why}");
        catalogue.task_tool_calls = true;
        let why = bind(&v, &catalogue, &allow(&["long_job"])).unwrap_err();
        assert!(why.contains("needs a tool"), "{why}");
        catalogue.task_tools.insert("long_job".into());
        assert_eq!(bind(&v, &catalogue, &allow(&["long_job"])), Ok(None));
    }

    #[test]
    fn a_tool_is_called_with_the_users_arguments_or_none_it_cannot_know() {
        let v = vector(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}"#,
            needs_tool("echo"),
        );
        let mut catalogue = with_tools(&["lookup"]);
        let schema = serde_json::json!({"type":"object","properties":{"q":{"type":"string"}},"required":["q"]});
        catalogue.tool_schemas.insert("lookup".into(), schema);
        let why = bind(&v, &catalogue, &allow(&["lookup"])).unwrap_err();
        assert!(why.contains("--tool-args"), "{why}");
        let mut given = allow(&["lookup"]);
        given.arguments = Some(serde_json::json!({"q": "user's"}));
        let frame = sent(bind(&v, &catalogue, &given));
        assert_eq!(frame["params"]["name"], "lookup");
        assert_eq!(
            frame["params"]["arguments"],
            serde_json::json!({"q": "user's"})
        );
        // A schema requiring nothing: called with no invented argument.
        catalogue.tool_schemas.insert(
            "lookup".into(),
            serde_json::json!({"type":"object","properties":{"q":{"type":"string"}}}),
        );
        let frame = sent(bind(&v, &catalogue, &allow(&["lookup"])));
        assert_eq!(frame["params"]["arguments"], serde_json::json!({}));
    }

    #[test]
    fn resources_subscribe_names_a_resource_the_peer_listed() {
        let (all, _) = crate::vectors::embedded();
        let subscribe = all
            .iter()
            .find(|v| v.id == "mcp/2025-11-25/resources/subscribe")
            .expect("the subscribe vector");
        let catalogue = Catalogue {
            capabilities: ["resources".to_owned()].into(),
            resource_subscribe: true,
            resources: ["file:///listed.txt".to_owned()].into(),
            ..Catalogue::default()
        };
        let frame = sent(bind(subscribe, &catalogue, &Allowed::default()));
        assert_eq!(frame["params"]["uri"], "file:///listed.txt");
        let none = Catalogue {
            resources: BTreeSet::new(),
            ..catalogue
        };
        let why = bind(subscribe, &none, &Allowed::default()).unwrap_err();
        assert!(why.contains("lists no resource"), "{why}");
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
