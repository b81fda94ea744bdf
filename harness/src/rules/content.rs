//! Content a server returns: binary data is base64 and typed, an embedded
//! resource is complete (server/prompts §Image Content, §Audio Content,
//! §Embedded Resources; server/resources §Security Considerations: "Binary data
//! MUST be properly encoded").
//!
//! Resource URIs have an RFC 3986 scheme (server/resources §Custom URI Schemes).
//!
//! The blocks sit in a `prompts/get` result's `messages[].content` (one block
//! each), a `tools/call` result's `content[]`, and a `resources/read` result's
//! `contents[]` (resource contents, not blocks). Which method a result answers
//! is only known from the request, so these are exchange checks.

use super::{at, Report, RuleId};
use crate::ir::{Raw, ValueKind};

/// Checks the content of a result answering `method`.
pub(super) fn result(method: &str, result: &Raw<'_>, pointer: &str, out: &mut Report) {
    match method {
        "prompts/get" => {
            let Some(messages) = result.get("messages") else {
                return;
            };
            let base = at(pointer, "messages");
            for (i, message) in messages.elements().enumerate() {
                if let Some(block) = message.get("content") {
                    content_block(&block, &at(&at(&base, &i.to_string()), "content"), out);
                }
            }
        }
        "tools/call" => {
            let Some(content) = result.get("content") else {
                return;
            };
            let base = at(pointer, "content");
            for (i, block) in content.elements().enumerate() {
                content_block(&block, &at(&base, &i.to_string()), out);
            }
        }
        "resources/read" => {
            let Some(contents) = result.get("contents") else {
                return;
            };
            let base = at(pointer, "contents");
            for (i, item) in contents.elements().enumerate() {
                let pointer = at(&base, &i.to_string());
                blob(&item, &pointer, out);
                uri(&item, &pointer, out);
            }
        }
        "resources/list" => {
            let Some(resources) = result.get("resources") else {
                return;
            };
            let base = at(pointer, "resources");
            for (i, item) in resources.elements().enumerate() {
                uri(&item, &at(&base, &i.to_string()), out);
            }
        }
        _ => {}
    }
}

fn string(holder: &Raw<'_>, name: &str) -> Option<String> {
    holder
        .get(name)
        .and_then(|v| v.as_string().map(|s| s.into_owned()))
}

/// One content block; only `image`, `audio` and `resource` carry what these
/// rules are about (the schema judges the rest of its shape).
fn content_block(block: &Raw<'_>, pointer: &str, out: &mut Report) {
    if block.kind() != ValueKind::Object {
        return;
    }
    match string(block, "type").as_deref() {
        Some(kind @ ("image" | "audio")) => {
            if let Some(data) = string(block, "data") {
                if !is_base64(&data) {
                    out.flag(
                        RuleId::McpContentBase64,
                        at(pointer, "data"),
                        format!("{kind} content whose `data` is not base64"),
                    );
                }
            }
            if !string(block, "mimeType").is_some_and(|m| is_mime_type(&m)) {
                out.flag(
                    RuleId::McpContentBase64,
                    at(pointer, "mimeType"),
                    format!("{kind} content without a `type/subtype` MIME type"),
                );
            }
        }
        Some("resource") => {
            let Some(resource) = block.get("resource") else {
                return; // the schema's `EmbeddedResource.required`
            };
            let pointer = at(pointer, "resource");
            embedded(&resource, &pointer, out);
            blob(&resource, &pointer, out);
        }
        _ => {}
    }
}

/// server/prompts §Embedded Resources: "a valid resource URI; the appropriate
/// MIME type; either text content or base64-encoded blob data".
fn embedded(resource: &Raw<'_>, pointer: &str, out: &mut Report) {
    let mut missing = Vec::new();
    if !string(resource, "uri").is_some_and(|u| has_scheme(&u)) {
        missing.push("a URI with a scheme");
    }
    if !string(resource, "mimeType").is_some_and(|m| is_mime_type(&m)) {
        missing.push("a MIME type");
    }
    if resource.get("text").is_none() && resource.get("blob").is_none() {
        missing.push("`text` or `blob`");
    }
    if !missing.is_empty() {
        out.flag(
            RuleId::McpContentEmbeddedResource,
            pointer.to_owned(),
            format!("an embedded resource lacks {}", missing.join(", ")),
        );
    }
}

/// A listed or read resource's `uri`, when it is a string, has a scheme (a
/// missing or mistyped one is mcp.schema.result's).
fn uri(resource: &Raw<'_>, pointer: &str, out: &mut Report) {
    if resource.kind() != ValueKind::Object {
        return;
    }
    if let Some(uri) = string(resource, "uri") {
        if !has_scheme(&uri) {
            out.flag(
                RuleId::McpResourcesUriScheme,
                at(pointer, "uri"),
                format!("resource URI `{uri}` has no RFC 3986 scheme"),
            );
        }
    }
}

/// A resource's `blob`, when it has one, is base64.
fn blob(resource: &Raw<'_>, pointer: &str, out: &mut Report) {
    if let Some(blob) = string(resource, "blob") {
        if !is_base64(&blob) {
            out.flag(
                RuleId::McpContentBase64,
                at(pointer, "blob"),
                "a resource `blob` that is not base64".to_owned(),
            );
        }
    }
}

/// RFC 4648 §4 base64: the standard alphabet, padded to a multiple of four,
/// `=` only at the end. No line breaks: the schema says `format: byte`, and
/// RFC 4648 §3.1 forbids them unless a specification allows them.
pub(super) fn is_base64(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() % 4 != 0 {
        return false;
    }
    let body = text.trim_end_matches('=');
    if bytes.len() - body.len() > 2 {
        return false;
    }
    body.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// `type/subtype`, optionally with parameters (RFC 6838 §4.2 restricted names).
fn is_mime_type(text: &str) -> bool {
    let essence = text.split(';').next().unwrap_or_default().trim();
    let token = |t: &str| {
        !t.is_empty()
            && t.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(&b))
    };
    matches!(essence.split_once('/'), Some((t, s)) if token(t) && token(s))
}

/// RFC 3986 §3.1: `scheme ":"`, the scheme a letter then letters, digits, `+`, `-`, `.`.
pub(super) fn has_scheme(uri: &str) -> bool {
    let Some((scheme, _)) = uri.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64() {
        assert!(is_base64("aGVsbG8="));
        assert!(is_base64(""));
        assert!(!is_base64("aGVsbG8"), "unpadded");
        assert!(!is_base64("aGVs bG8="), "space");
        assert!(!is_base64("a==="), "three pads");
        assert!(!is_base64("aGVs\nbG8="), "line break");
        assert!(!is_base64("aGV-bG8_"), "base64url alphabet");
    }

    #[test]
    fn mime_and_scheme() {
        assert!(is_mime_type("image/png"));
        assert!(is_mime_type("text/plain; charset=utf-8"));
        assert!(!is_mime_type("png"));
        assert!(!is_mime_type("image/"));
        assert!(has_scheme("file:///a"));
        assert!(has_scheme("x-custom+1.a:thing"));
        assert!(!has_scheme("/relative/path"));
        assert!(!has_scheme("1abc:x"));
    }
}
