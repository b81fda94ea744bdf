//! 2026-07-28 `x-mcp-header`, the client side: a tool's annotated
//! parameters, learnt from the `tools/list` answers a client reads, mirrored
//! into `Mcp-Param-{Name}` headers on its `tools/call`s (basic/transports/
//! streamable-http §Custom Headers from Tool Parameters: "conforming clients
//! MUST mirror the designated parameter values into HTTP headers"; §Client
//! Behavior 3 to 5).

use std::collections::BTreeMap;

use reqwest::header::{HeaderName, HeaderValue};
use serde_json::Value;

use super::header_safe;

/// Per tool name, each annotated parameter's property path and header name.
pub type Mirrors = BTreeMap<String, Vec<(Vec<String>, String)>>;

/// The `x-mcp-header` annotations of `schema` reachable through
/// `properties` alone (§Schema Extension: "reachable via a chain consisting
/// solely of `properties` keys"), each with its property path.
pub fn annotations(schema: &Value) -> Vec<(Vec<String>, String)> {
    fn walk(schema: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
        let header = schema.get("x-mcp-header").and_then(Value::as_str);
        if let (false, Some(header)) = (path.is_empty(), header) {
            out.push((path.clone(), header.to_owned()));
        }
        let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
            return;
        };
        for (name, property) in properties {
            path.push(name.clone());
            walk(property, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(schema, &mut Vec::new(), &mut out);
    out
}

/// What a received frame teaches: the annotations of each tool its
/// `result.tools` lists (a `tools/list` page).
pub fn learn(frame: &[u8], mirrors: &mut Mirrors) {
    // Every frame the client reads passes here: most are no listing.
    if !frame.windows(7).any(|w| w == b"\"tools\"") {
        return;
    }
    let Ok(value) = serde_json::from_slice::<Value>(frame) else {
        return;
    };
    let Some(tools) = value.pointer("/result/tools").and_then(Value::as_array) else {
        return;
    };
    for tool in tools {
        let (Some(name), Some(schema)) = (
            tool.get("name").and_then(Value::as_str),
            tool.get("inputSchema"),
        ) else {
            continue;
        };
        let found = annotations(schema);
        if found.is_empty() {
            mirrors.remove(name);
        } else {
            mirrors.insert(name.to_owned(), found);
        }
    }
}

/// The `Mcp-Param-{Name}` headers of `frame`, a `tools/call` of a tool in
/// `mirrors`: one per annotated parameter whose value is present and not
/// `null` (§Schema Extension: "If no value is present at that path in the
/// call arguments, the header is omitted"), encoded per §Value Encoding.
pub fn headers(frame: &[u8], mirrors: &Mirrors) -> Vec<(HeaderName, HeaderValue)> {
    if mirrors.is_empty() {
        return Vec::new();
    }
    let Ok(value) = serde_json::from_slice::<Value>(frame) else {
        return Vec::new();
    };
    if value.get("method").and_then(Value::as_str) != Some("tools/call") {
        return Vec::new();
    }
    let name = value.pointer("/params/name").and_then(Value::as_str);
    let Some(annotated) = name.and_then(|n| mirrors.get(n)) else {
        return Vec::new();
    };
    let arguments = value.pointer("/params/arguments");
    annotated
        .iter()
        .filter_map(|(path, header)| {
            let mut given = arguments;
            for key in path {
                given = given.and_then(|v| v.get(key));
            }
            let text = match given? {
                Value::Null => return None,
                Value::String(s) => header_safe(s),
                other => other.to_string(),
            };
            let name = HeaderName::from_bytes(format!("mcp-param-{header}").as_bytes()).ok()?;
            Some((name, HeaderValue::from_str(&text).ok()?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listed_tools_annotated_arguments_become_headers() {
        let mut mirrors = Mirrors::new();
        let list = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "route",
            "inputSchema": {"type": "object", "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "count": {"type": "integer", "x-mcp-header": "Count"}}}}]}});
        learn(list.to_string().as_bytes(), &mut mirrors);
        let call = br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"route","arguments":{"region":" padded ","count":null}}}"#;
        let sent = headers(call, &mirrors);
        assert_eq!(sent.len(), 1, "a null value sends no header");
        assert_eq!(sent[0].0.as_str(), "mcp-param-region");
        assert_eq!(sent[0].1.to_str().unwrap(), "=?base64?IHBhZGRlZCA=?=");
        let other = br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}"#;
        assert!(headers(other, &mirrors).is_empty());
    }
}
