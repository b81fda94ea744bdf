//! 2026-07-28 `x-mcp-header`: the tool parameters a server mirrors into
//! `Mcp-Param-{name}` HTTP headers (server/tools §x-mcp-header;
//! basic/transports/streamable-http §Schema Extension).
//!
//! Judged on a `tools/list` result, tool by tool: every `x-mcp-header` value in
//! a tool's `inputSchema` is a non-empty RFC 9110 token, unique without regard
//! to case, on a property of type integer, string or boolean that is statically
//! reachable (root → `properties` → name → `properties` → … and nothing else).
//! The integer range of an argument is a property of each `tools/call`, not of
//! the schema, and is not judged here.

use std::collections::BTreeMap;

use super::{at, Report, RuleId};
use crate::ir::{Raw, ValueKind};

const KEY: &str = "x-mcp-header";

/// Schemas nest no deeper than this for the walk; deeper parts are not judged.
const MAX_DEPTH: usize = 32;

/// Keywords whose values are instance data, not schemas: a member named
/// `x-mcp-header` inside them is data.
const DATA_KEYWORDS: [&str; 4] = ["const", "default", "enum", "examples"];

/// Checks each tool of a `tools/list` result.
pub(super) fn tools_list(result: &Raw<'_>, pointer: &str, out: &mut Report) {
    if !out.applies(RuleId::McpR5ToolsXMcpHeader) {
        return;
    }
    let Some(tools) = result.get("tools") else {
        return;
    };
    let base = at(pointer, "tools");
    for (i, tool) in tools.elements().enumerate() {
        if let Some(schema) = tool.get("inputSchema") {
            let pointer = at(&at(&base, &i.to_string()), "inputSchema");
            let mut seen = BTreeMap::new();
            walk(&schema, false, &pointer, 0, &mut seen, out);
        }
    }
}

/// One schema node; `reachable` says it was reached through `properties` only.
/// `seen` maps each lower-cased header name to where it was first used.
fn walk(
    node: &Raw<'_>,
    reachable: bool,
    pointer: &str,
    depth: usize,
    seen: &mut BTreeMap<String, String>,
    out: &mut Report,
) {
    if depth > MAX_DEPTH {
        return;
    }
    match node.kind() {
        ValueKind::Object => {}
        ValueKind::Array => {
            for (i, item) in node.elements().enumerate() {
                walk(
                    &item,
                    false,
                    &at(pointer, &i.to_string()),
                    depth + 1,
                    seen,
                    out,
                );
            }
            return;
        }
        _ => return,
    }
    if let Some(value) = node.get(KEY) {
        header(node, &value, reachable, &at(pointer, KEY), seen, out);
    }
    for (key, value) in node.members() {
        let key = key.decoded();
        if key == KEY || DATA_KEYWORDS.contains(&key.as_ref()) {
            continue;
        }
        let here = at(pointer, &key);
        if key == "properties" && value.kind() == ValueKind::Object {
            for (name, property) in value.members() {
                let name = name.decoded();
                walk(
                    &property,
                    reachable || depth == 0,
                    &at(&here, &name),
                    depth + 1,
                    seen,
                    out,
                );
            }
        } else {
            walk(&value, false, &here, depth + 1, seen, out);
        }
    }
}

/// One `x-mcp-header` annotation on the property schema `property`.
fn header(
    property: &Raw<'_>,
    value: &Raw<'_>,
    reachable: bool,
    pointer: &str,
    seen: &mut BTreeMap<String, String>,
    out: &mut Report,
) {
    let mut faults = Vec::new();
    let name = value.as_string().map(|s| s.into_owned());
    match &name {
        None => faults.push(format!("is {}, not a string", value.kind().name())),
        Some(n) if n.is_empty() => faults.push("is empty".to_owned()),
        Some(n) if n.chars().any(char::is_control) => {
            faults.push("contains a control character".to_owned());
        }
        Some(n) if !n.bytes().all(is_tchar) => {
            faults.push(format!("`{n}` is not an HTTP token (RFC 9110 §5.1 tchar)"));
        }
        Some(n) => {
            if let Some(first) = seen.get(&n.to_ascii_lowercase()) {
                faults.push(format!(
                    "`{n}` repeats the header at {first} (names are compared without case)"
                ));
            } else {
                seen.insert(n.to_ascii_lowercase(), pointer.to_owned());
            }
        }
    }
    let kind = property
        .get("type")
        .and_then(|t| t.as_string().map(|s| s.into_owned()));
    if !matches!(kind.as_deref(), Some("integer" | "string" | "boolean")) {
        faults.push(format!(
            "is on a property of type {}, not integer, string or boolean",
            property
                .get("type")
                .map_or_else(|| "(none)".to_owned(), |t| t.as_str().to_owned())
        ));
    }
    if !reachable {
        faults.push(
            "is on a property not statically reachable through `properties` alone".to_owned(),
        );
    }
    for fault in faults {
        out.flag(
            RuleId::McpR5ToolsXMcpHeader,
            pointer.to_owned(),
            format!("`{KEY}` {fault}"),
        );
    }
}

/// RFC 9110 §5.6.2 `tchar`.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}
