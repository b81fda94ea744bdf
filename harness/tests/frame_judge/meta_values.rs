//! What 2026-07-28 holds the values and keys of `_meta` to:
//!
//! - basic/index §General fields › `_meta` › OpenTelemetry trace context
//!   (MUST): "The keys `traceparent`, `tracestate`, and `baggage` are
//!   reserved for OpenTelemetry trace context propagation. When present,
//!   their values MUST follow W3C Trace Context and W3C Baggage formats"
//!   (`mcp.meta.otel-exception`): each is a string, and `traceparent` is
//!   version-traceid-parentid-flags, 2-32-16-2 lowercase hex digits.
//! - basic/versioning §Extension Negotiation (MUST): "Extension identifiers
//!   MUST follow the `_meta` key naming rules, with a mandatory prefix"
//!   (`mcp.r5.extensions.identifier`): dot-separated labels, a slash, a name.

use harness::rules;
use harness::{Direction, Profile, Revision};
use serde_json::{json, Value};

/// A 2026-07-28 client `tools/list` whose `_meta` also holds `extra`, and
/// whose client capabilities declare `extensions`.
fn request(extra: Value, extensions: Value) -> String {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"extensions": extensions},
        "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}
    });
    for (k, v) in extra.as_object().unwrap() {
        meta[k] = v.clone();
    }
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}})
        .to_string()
}

/// The pointers `rule` reports on `frame`.
fn reported(frame: &str, rule: &str) -> Vec<String> {
    rules::validate(
        frame.as_bytes(),
        Profile {
            revision: Revision::Mcp2026_07_28,
            direction: Direction::ClientToServer,
        },
    )
    .into_iter()
    .filter(|v| v.rule.as_str() == rule)
    .map(|v| v.pointer)
    .collect()
}

const OTEL: &str = "mcp.meta.otel-exception";
const EXTENSION: &str = "mcp.r5.extensions.identifier";
const TRACEPARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

#[test]
fn a_well_formed_trace_context_is_not_reported() {
    let frame = request(
        json!({"traceparent": TRACEPARENT, "tracestate": "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE", "baggage": "userId=alice,isProduction=false"}),
        json!({}),
    );
    assert_eq!(reported(&frame, OTEL), Vec::<String>::new());
}

#[test]
fn a_traceparent_of_the_wrong_shape_is_reported() {
    for bad in [
        // The flags left out.
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        // Upper-case hex.
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        // A trace id one digit short.
        "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
        "not a traceparent",
    ] {
        let frame = request(json!({"traceparent": bad}), json!({}));
        assert_eq!(
            reported(&frame, OTEL),
            ["/params/_meta/traceparent"],
            "{bad}"
        );
    }
}

#[test]
fn each_trace_context_key_must_be_a_string() {
    for key in ["traceparent", "tracestate", "baggage"] {
        let frame = request(json!({key: 1}), json!({}));
        assert_eq!(
            reported(&frame, OTEL),
            [format!("/params/_meta/{key}")],
            "{key}"
        );
    }
}

#[test]
fn an_extension_identifier_needs_a_prefix_of_valid_labels_and_a_valid_name() {
    let caps = "/params/_meta/io.modelcontextprotocol~1clientCapabilities/extensions";
    let frame = request(
        json!({}),
        json!({"io.example/ext": {}, "com.example.tools/search-v2": {}}),
    );
    assert_eq!(reported(&frame, EXTENSION), Vec::<String>::new());
    for bad in [
        "ext",
        "-io.example/ext",
        "io..example/ext",
        "io.example/-ext",
        "io.example/ext!",
    ] {
        let frame = request(json!({}), json!({bad: {}}));
        assert_eq!(
            reported(&frame, EXTENSION),
            [format!("{caps}/{}", bad.replace('/', "~1"))],
            "{bad}"
        );
    }
}
