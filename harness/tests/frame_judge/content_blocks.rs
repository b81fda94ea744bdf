//! What the content rules report in the results a server returns (MCP
//! 2025-11-25; each rule's text in `rules/catalogue.rs`):
//!
//! - server/prompts §Image Content, §Audio Content (MUST): "The image data MUST
//!   be base64-encoded and include a valid MIME type", the same for audio;
//!   server/resources §Security Considerations (MUST): "Binary data MUST be
//!   properly encoded" (`mcp.content.base64`).
//! - server/prompts §Embedded Resources (MUST): "A valid resource URI; The
//!   appropriate MIME type; Either text content or base64-encoded blob data"
//!   (`mcp.content.embedded-resource`).
//! - server/resources §Custom URI Schemes (MUST): "Custom URI schemes MUST be in
//!   accordance with RFC3986" (`mcp.resources.uri-scheme`).
//!
//! Each in every result that carries such content: a `tools/call` result's
//! `content`, a `prompts/get` result's messages, a `resources/read` result's
//! `contents`, a `resources/list` result's resources.

use harness::rules;
use harness::{lift, Direction, Profile, Revision};

use crate::support::pairs;

/// The (rule, pointer) violations of a `method` request answered with `result`.
fn reported(method: &str, result: &str) -> Vec<(String, String)> {
    let request = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{"name":"n","uri":"file:///a"}}}}"#
    );
    let reply = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#);
    let request = lift(request.as_bytes()).expect("the request lifts");
    let reply = lift(reply.as_bytes()).expect("the reply lifts");
    let profile = Profile {
        revision: Revision::Mcp2025_11_25,
        direction: Direction::ClientToServer,
    };
    rules::validate_reply(&request, Some(&reply), profile)
        .into_iter()
        .filter(|v| {
            v.rule.as_str().starts_with("mcp.content.")
                || v.rule.as_str() == "mcp.resources.uri-scheme"
        })
        .map(|v| (v.rule.as_str().to_owned(), v.pointer))
        .collect()
}

const BASE64: &str = "mcp.content.base64";
const EMBEDDED: &str = "mcp.content.embedded-resource";
const SCHEME: &str = "mcp.resources.uri-scheme";

#[test]
fn a_tool_result_image_or_audio_must_be_base64_with_a_mime_type() {
    let result = r#"{"content":[{"type":"text","text":"ok"},{"type":"image","data":"not base64!","mimeType":"image/png"},{"type":"audio","data":"UklGRg==","mimeType":"wav"}]}"#;
    assert_eq!(
        reported("tools/call", result),
        pairs(&[
            (BASE64, "/result/content/1/data"),
            (BASE64, "/result/content/2/mimeType")
        ])
    );
    let clean = r#"{"content":[{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},{"type":"audio","data":"YQ==","mimeType":"audio/wav; rate=44100"}]}"#;
    assert_eq!(reported("tools/call", clean), []);
}

#[test]
fn an_embedded_resource_names_what_it_lacks() {
    let result = r#"{"content":[{"type":"resource","resource":{"uri":"README.md"}},{"type":"resource","resource":{"uri":"file:///a","mimeType":"text/plain","blob":"a b"}}]}"#;
    assert_eq!(
        reported("tools/call", result),
        pairs(&[
            (EMBEDDED, "/result/content/0/resource"),
            (BASE64, "/result/content/1/resource/blob")
        ])
    );
    let clean = r#"{"content":[{"type":"resource","resource":{"uri":"file:///a","mimeType":"text/plain","text":"hi"}}]}"#;
    assert_eq!(reported("tools/call", clean), []);
    // Each missing part is named, so a user knows what to add.
    let request = lift(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"n"}}"#)
        .expect("lifts");
    let reply = lift(br#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"resource","resource":{"uri":"README.md"}}]}}"#).expect("lifts");
    let profile = Profile {
        revision: Revision::Mcp2025_11_25,
        direction: Direction::ClientToServer,
    };
    let message = rules::validate_reply(&request, Some(&reply), profile)
        .into_iter()
        .find(|v| v.rule.as_str() == EMBEDDED)
        .map(|v| v.message);
    assert_eq!(
        message.as_deref(),
        Some("an embedded resource lacks a URI with a scheme, a MIME type, `text` or `blob`")
    );
}

#[test]
fn a_prompt_message_image_must_be_base64() {
    let result = r#"{"messages":[{"role":"user","content":{"type":"text","text":"hi"}},{"role":"user","content":{"type":"image","data":"aGVsbG8","mimeType":"image/png"}}]}"#;
    assert_eq!(
        reported("prompts/get", result),
        pairs(&[(BASE64, "/result/messages/1/content/data")])
    );
}

#[test]
fn read_contents_have_base64_blobs_and_uris_with_a_scheme() {
    let result = r#"{"contents":[{"uri":"file:///a","blob":"a==="},{"uri":"/relative","text":"x"},{"uri":"x-custom+1.a:thing","blob":"a+/b"}]}"#;
    assert_eq!(
        reported("resources/read", result),
        pairs(&[
            (BASE64, "/result/contents/0/blob"),
            (SCHEME, "/result/contents/1/uri")
        ])
    );
}

#[test]
fn listed_resources_have_uris_with_a_scheme() {
    let result = r#"{"resources":[{"uri":"https://example.com/a","name":"a"},{"uri":"1abc:x","name":"b"},{"uri":"README.md","name":"c"}]}"#;
    assert_eq!(
        reported("resources/list", result),
        pairs(&[
            (SCHEME, "/result/resources/1/uri"),
            (SCHEME, "/result/resources/2/uri")
        ])
    );
}
