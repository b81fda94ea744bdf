//! `_meta` key rules: the prefix and name grammar, the reserved prefixes and the
//! OpenTelemetry keys (MCP basic/index §General fields › `_meta`, 2025-06-18 on).

use super::schema::META_KEYS;
use super::{at, Report, RuleId};
use crate::ir::Raw;
use crate::profile::Revision;

/// `_meta` objects can sit at any depth (params, results, content blocks); the
/// walk stops here rather than trust a hand-built frame's nesting.
const MAX_DEPTH: usize = 64;

/// Reserved-prefix keys a revision defines in prose only, not as schema
/// properties: tasks (2025-11-25 basic/utilities/tasks; the 2026-07-28 tasks
/// extension keeps the key).
const PROSE_KEYS: &[(Revision, &str)] = &[
    (
        Revision::Mcp2025_11_25,
        "io.modelcontextprotocol/related-task",
    ),
    (
        Revision::Mcp2026_07_28,
        "io.modelcontextprotocol/related-task",
    ),
];

/// Checks the keys of every `_meta` object inside `value` (`pointer` names it).
pub(super) fn walk(value: &Raw<'_>, pointer: &str, revision: Revision, out: &mut Report) {
    if out.applies(RuleId::McpMetaNameFormat) {
        walk_at(value, pointer, revision, out, 0);
    }
}

/// Members whose values are the application's data, not MCP's: a `_meta` key
/// inside them is whatever the application chose (tool arguments, structured
/// results, JSON Schemas, log and error data, experimental capabilities, an
/// elicitation's answers), so the walk does not enter them.
const OPAQUE: &[&str] = &[
    "arguments",
    "structuredContent",
    "inputSchema",
    "outputSchema",
    "requestedSchema",
    "data",
    "experimental",
];

fn walk_at(value: &Raw<'_>, pointer: &str, revision: Revision, out: &mut Report, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    for (key, member) in value.members() {
        let name = key.decoded();
        let here = at(pointer, &name);
        if name == "_meta" {
            for (meta_key, meta_value) in member.members() {
                let meta_key = meta_key.decoded();
                check_key(&meta_key, &meta_value, &at(&here, &meta_key), revision, out);
            }
            continue;
        }
        // `content` is content blocks (an array, walked) or, in an elicitation
        // result, the user's answers (an object, not walked).
        let opaque = OPAQUE.contains(&name.as_ref())
            || (name == "content" && member.kind() == crate::scan::ValueKind::Object);
        if !opaque {
            walk_at(&member, &here, revision, out, depth + 1);
        }
    }
    for (i, element) in value.elements().enumerate() {
        walk_at(
            &element,
            &at(pointer, &i.to_string()),
            revision,
            out,
            depth + 1,
        );
    }
}

fn check_key(key: &str, value: &Raw<'_>, pointer: &str, revision: Revision, out: &mut Report) {
    let (prefix, name) = match key.split_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    if let Some(prefix) = prefix {
        let labels: Vec<&str> = prefix.split('.').collect();
        if !labels.iter().all(|l| valid_label(l)) {
            out.flag(
                RuleId::McpMetaPrefixFormat,
                pointer.to_owned(),
                format!("`_meta` key `{key}`: prefix `{prefix}/` is not dot-separated labels (a letter first, a letter or digit last, letters, digits or hyphens between)"),
            );
        } else if reserved(&labels, revision) && !known(key, revision) {
            let id = if revision >= Revision::Mcp2025_11_25 {
                RuleId::McpMetaReservedPrefixR4
            } else {
                RuleId::McpMetaReservedPrefixR3
            };
            out.flag(
                id,
                pointer.to_owned(),
                format!("`_meta` key `{key}` uses a prefix reserved for MCP, and {revision} defines no such key"),
            );
        }
    }
    if !valid_name(name) {
        out.flag(
            RuleId::McpMetaNameFormat,
            pointer.to_owned(),
            format!("`_meta` key `{key}`: name `{name}` must begin and end with a letter or digit and hold only letters, digits, `-`, `_` and `.`"),
        );
    }
    if prefix.is_none() {
        check_otel(key, value, pointer, out);
    }
}

pub(super) fn valid_label(label: &str) -> bool {
    let bytes = label.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphabetic()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
        }
        _ => false,
    }
}

pub(super) fn valid_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    match (bytes.first(), bytes.last()) {
        (None, _) | (_, None) => true,
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        }
    }
}

/// Whether a prefix's labels are reserved for MCP under `revision`.
fn reserved(labels: &[&str], revision: Revision) -> bool {
    let mcp = |l: &&str| *l == "mcp" || *l == "modelcontextprotocol";
    if revision >= Revision::Mcp2025_11_25 {
        // "Any prefix where the second label is `modelcontextprotocol` or `mcp`."
        labels.get(1).is_some_and(mcp)
    } else {
        // "zero or more valid labels, followed by `modelcontextprotocol` or `mcp`,
        // followed by any valid label": an MCP label that is not the last one.
        labels.iter().rev().skip(1).any(mcp)
    }
}

fn known(key: &str, revision: Revision) -> bool {
    META_KEYS
        .iter()
        .chain(PROSE_KEYS)
        .any(|&(r, k)| r == revision && k == key)
}

/// W3C Trace Context `traceparent`: version-traceid-parentid-flags, lowercase hex.
fn check_otel(key: &str, value: &Raw<'_>, pointer: &str, out: &mut Report) {
    if !matches!(key, "traceparent" | "tracestate" | "baggage") {
        return;
    }
    let Some(text) = value.as_string() else {
        out.flag(
            RuleId::McpMetaOtelException,
            pointer.to_owned(),
            format!(
                "`_meta` key `{key}` must be a string (W3C format), found {}",
                value.kind().name()
            ),
        );
        return;
    };
    if key == "traceparent" && !traceparent_shape(&text) {
        out.flag(
            RuleId::McpMetaOtelException,
            pointer.to_owned(),
            format!("`traceparent` `{text}` is not version-traceid-parentid-flags (2-32-16-2 lowercase hex digits)"),
        );
    }
}

fn traceparent_shape(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let hex = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    parts.len() >= 4
        && [2, 32, 16, 2]
            .iter()
            .zip(&parts)
            .all(|(&len, part)| part.len() == len && hex(part))
}

/// Whether `key` is a `_meta` key with a prefix (basic/versioning §Extension
/// Negotiation: extension identifiers follow these rules "with a mandatory
/// prefix"): non-empty dot-separated labels, a slash, a valid name.
pub(super) fn prefixed_key(key: &str) -> bool {
    key.split_once('/')
        .is_some_and(|(prefix, name)| prefix.split('.').all(valid_label) && valid_name(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar() {
        assert!(
            valid_label("io") && valid_label("a-1") && !valid_label("1a") && !valid_label("a-")
        );
        assert!(valid_name("") && valid_name("a.b_c-d") && !valid_name("-a") && !valid_name("a/b"));
        let l = |s: &'static str| s.split('.').collect::<Vec<_>>();
        assert!(reserved(
            &l("io.modelcontextprotocol"),
            Revision::Mcp2025_11_25
        ));
        assert!(!reserved(&l("mcp.dev"), Revision::Mcp2025_11_25));
        assert!(reserved(&l("mcp.dev"), Revision::Mcp2025_06_18));
        assert!(!reserved(&l("com.example.mcp"), Revision::Mcp2025_06_18));
        assert!(!reserved(&l("mcp"), Revision::Mcp2025_06_18));
        assert!(traceparent_shape(
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        ));
        assert!(!traceparent_shape(
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7"
        ));
    }
}
