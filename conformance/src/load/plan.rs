//! What a load session asks: the requests the peer's declared capabilities
//! make legal, and the frames that carry them.
//!
//! Methods whose results have different shapes are interleaved (`ping` →
//! `{}`, `tools/list` → `tools`, `prompts/get` → `messages`,
//! `resources/read` → `contents`), and each session starts the rotation at
//! its own offset, so the same id in two sessions names two methods: an
//! answer delivered to the wrong session shows by its shape, no fixture
//! needed.

use serde_json::{json, Value};

/// One request of the mix: its method and params.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The method.
    pub method: String,
    /// Its params, if any.
    pub params: Option<Value>,
    /// The frame after its id, serialized once: a frame per request is then
    /// a copy, not a serialization.
    tail: Vec<u8>,
}

impl Call {
    fn new(method: &str, params: Option<Value>) -> Self {
        let mut tail = br#","method":"#.to_vec();
        tail.extend(serde_json::to_vec(method).unwrap_or_default());
        if let Some(p) = &params {
            tail.extend_from_slice(br#","params":"#);
            tail.extend(serde_json::to_vec(p).unwrap_or_default());
        }
        tail.push(b'}');
        Call {
            method: method.to_owned(),
            params,
            tail,
        }
    }

    /// This call with `meta` as its params' `_meta` (2026-07-28's
    /// per-request version, client info and capabilities).
    #[must_use]
    pub fn with_meta(&self, meta: &Value) -> Call {
        let mut params = match &self.params {
            Some(Value::Object(o)) => o.clone(),
            _ => serde_json::Map::new(),
        };
        params.insert("_meta".into(), meta.clone());
        Call::new(&self.method, Some(Value::Object(params)))
    }

    /// The request frame for `id`.
    #[must_use]
    pub fn frame(&self, id: u64) -> Vec<u8> {
        let mut frame = Vec::with_capacity(32 + self.tail.len());
        frame.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
        frame.extend_from_slice(id.to_string().as_bytes());
        frame.extend_from_slice(&self.tail);
        frame
    }
}

/// The lists a server's `initialize` result declares: `tools/list` for
/// `capabilities.tools`, and so on (MCP server/tools, server/prompts,
/// server/resources §Capabilities: a server that supports the feature
/// "MUST declare" the capability; one that does not may refuse the method),
/// in an order turned by `session`, so that the discovery's ids too name
/// different lists in neighbouring sessions.
#[must_use]
pub fn lists(capabilities: &Value, session: usize) -> Vec<Call> {
    let mut calls = Vec::new();
    for (capability, method) in [
        ("tools", "tools/list"),
        ("prompts", "prompts/list"),
        ("resources", "resources/list"),
    ] {
        if capabilities.get(capability).is_some_and(Value::is_object) {
            calls.push(Call::new(method, None));
        }
    }
    if !calls.is_empty() {
        let turn = session % calls.len();
        calls.rotate_left(turn);
    }
    calls
}

/// The most items of one list that are read or got under load: enough
/// shapes, few enough that a huge catalogue does not dominate the mix.
const PER_LIST: usize = 3;

/// The mix for a session: `ping`, the declared lists, `prompts/get` of
/// listed prompts whose required arguments can be filled with a word,
/// `resources/read` of listed resources, and `tools/call` of the listed
/// tools named in `allowed` only (with empty arguments): no other tool is
/// ever called. `listed` pairs each list method with its result.
#[must_use]
pub fn mix(listed: &[(String, Value)], allowed: &[String]) -> Vec<Call> {
    let mut calls = vec![Call::new("ping", None)];
    for (method, result) in listed {
        calls.push(Call::new(method, None));
        let items = |member: &str| {
            result
                .get(member)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        };
        if result.is_null() {
            continue; // unanswered: nothing listed to get or read
        }
        match method.as_str() {
            "prompts/list" => {
                for prompt in items("prompts").iter().take(PER_LIST) {
                    let Some(name) = prompt.get("name").and_then(Value::as_str) else {
                        continue;
                    };
                    let mut arguments = serde_json::Map::new();
                    for arg in prompt
                        .get("arguments")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                    {
                        if arg.get("required").and_then(Value::as_bool) == Some(true) {
                            if let Some(n) = arg.get("name").and_then(Value::as_str) {
                                arguments.insert(n.to_owned(), json!("load"));
                            }
                        }
                    }
                    calls.push(Call::new(
                        "prompts/get",
                        Some(json!({"name": name, "arguments": arguments})),
                    ));
                }
            }
            "resources/list" => {
                for resource in items("resources").iter().take(PER_LIST) {
                    if let Some(uri) = resource.get("uri").and_then(Value::as_str) {
                        calls.push(Call::new("resources/read", Some(json!({"uri": uri}))));
                    }
                }
            }
            "tools/list" => {
                for tool in items("tools") {
                    let Some(name) = tool.get("name").and_then(Value::as_str) else {
                        continue;
                    };
                    if allowed.iter().any(|a| a == name) {
                        calls.push(Call::new(
                            "tools/call",
                            Some(json!({"name": name, "arguments": {}})),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    calls
}

/// The calls of `calls` whose method is among `methods` (all of them when
/// `methods` is empty).
///
/// # Errors
/// None of `methods` is in the mix: there would be nothing to send.
pub fn only(calls: Vec<Call>, methods: &[String]) -> Result<Vec<Call>, String> {
    if methods.is_empty() {
        return Ok(calls);
    }
    let kept: Vec<Call> = calls
        .into_iter()
        .filter(|c| methods.contains(&c.method))
        .collect();
    if kept.is_empty() {
        return Err(format!(
            "--only {}: none of these methods is in the mix this server's capabilities allow",
            methods.join(", ")
        ));
    }
    Ok(kept)
}

/// Which of a mix of `len` calls session `session` sends as its `n`th load
/// request: the mix in turn, from an offset of its own, so that one id is a
/// different method in neighbouring sessions whenever the mix has more than
/// one.
#[must_use]
pub fn pick(len: usize, session: usize, n: u64) -> usize {
    let len = len.max(1) as u64;
    usize::try_from((n + session as u64) % len).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mix_follows_the_declared_capabilities_and_calls_only_allowed_tools() {
        let caps = json!({"tools": {}, "resources": {"subscribe": true}, "logging": {}});
        let names = |session| -> Vec<String> {
            lists(&caps, session)
                .into_iter()
                .map(|c| c.method)
                .collect()
        };
        assert_eq!(names(0), ["tools/list", "resources/list"]);
        assert_eq!(names(1), ["resources/list", "tools/list"]);
        let listed = vec![
            (
                "tools/list".to_owned(),
                json!({"tools": [{"name": "echo"}, {"name": "delete_all"}]}),
            ),
            (
                "prompts/list".to_owned(),
                json!({"prompts": [{"name": "p", "arguments": [{"name": "a", "required": true}, {"name": "b"}]}]}),
            ),
            (
                "resources/list".to_owned(),
                json!({"resources": [{"uri": "test://x"}]}),
            ),
        ];
        let calls = mix(&listed, &["echo".to_owned()]);
        let methods: Vec<&str> = calls.iter().map(|c| c.method.as_str()).collect();
        assert_eq!(
            methods,
            [
                "ping",
                "tools/list",
                "tools/call",
                "prompts/list",
                "prompts/get",
                "resources/list",
                "resources/read"
            ]
        );
        assert_eq!(
            calls[2].params,
            Some(json!({"name": "echo", "arguments": {}}))
        );
        assert_eq!(
            calls[4].params,
            Some(json!({"name": "p", "arguments": {"a": "load"}}))
        );
    }

    #[test]
    fn only_keeps_the_methods_named_and_refuses_an_empty_mix() {
        let calls = vec![Call::new("ping", None), Call::new("tools/list", None)];
        let kept = only(calls.clone(), &["ping".to_owned()]).unwrap();
        assert_eq!(kept, calls[..1]);
        assert_eq!(only(calls.clone(), &[]).unwrap(), calls);
        assert!(only(calls, &["prompts/get".to_owned()]).is_err());
    }

    #[test]
    fn one_id_is_a_different_method_in_neighbouring_sessions() {
        let calls = [Call::new("ping", None), Call::new("tools/list", None)];
        for n in 0..10 {
            assert_ne!(
                calls[pick(calls.len(), 0, n)].method,
                calls[pick(calls.len(), 1, n)].method
            );
        }
        let frame: Value = serde_json::from_slice(&calls[1].frame(7)).unwrap();
        assert_eq!(
            frame,
            json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list"})
        );
    }
}
