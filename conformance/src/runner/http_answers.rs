//! How an answer that came over Streamable HTTP is read before a vector or
//! a handshake is judged: a notification refused with an HTTP error status
//! (§Sending Messages to the Server), a body refused as a header mismatch
//! (2026-07-28 §Protocol Version Header), a legacy server declining
//! 2026-07-28 (§Backward Compatibility). Not transport probes: each returns
//! the note that changes how the runner reads one exchange.

use harness::Revision;

use crate::transport::http::HttpFact;
use crate::transport::wire::Wire;
use crate::transport::{HttpKind, Kind};

/// When a notification's POST was refused with an HTTP error status whose
/// body is at most an error response without an `id`: the note saying so.
///
/// Streamable HTTP allows exactly that ("If the server cannot accept the
/// input, it MUST return an HTTP error status code […]. The HTTP response body
/// MAY comprise a JSON-RPC error response that has no `id`", 2025-11-25
/// basic/transports §Sending Messages to the Server 4), so the body is not a
/// reply to the notification; over stdio the same bytes answer a
/// notification, which JSON-RPC 2.0 §4.1 forbids, and the judge says so.
#[must_use]
pub fn refused_notification(
    kind: Kind,
    exchange: Option<u64>,
    new_facts: &[HttpFact],
    frames: &[Vec<u8>],
    expects_answer: bool,
    revision: Revision,
) -> Option<String> {
    if expects_answer || kind != Kind::Http(HttpKind::Streamable) {
        return None;
    }
    refusal_note(exchange, new_facts, frames, revision)
}

/// The probe's own POST among the facts of its window, found by the exchange
/// that carried it: another POST may have ended in the same window
/// (`notifications/initialized` is sent concurrently).
pub(super) fn probe_post(exchange: Option<u64>, new_facts: &[HttpFact]) -> Option<&HttpFact> {
    let exchange = exchange?;
    new_facts
        .iter()
        .find(|f| f.method == "POST" && f.exchange == Some(exchange))
}

/// [`refused_notification`] once the transport is known to be Streamable HTTP
/// and the probe a notification.
fn refusal_note(
    exchange: Option<u64>,
    new_facts: &[HttpFact],
    frames: &[Vec<u8>],
    revision: Revision,
) -> Option<String> {
    let post = probe_post(exchange, new_facts)?;
    if post.expected_answer
        || !harness::error_ids::idless_error_allowed(revision, post.status)
        || post.frames != frames.len()
    {
        return None;
    }
    let idless_errors = frames.iter().all(|bytes| {
        serde_json::from_slice::<serde_json::Value>(bytes).is_ok_and(|v| {
            v.get("error").is_some() && v.get("id").is_none_or(serde_json::Value::is_null)
        })
    });
    idless_errors.then(|| {
        format!(
            "over Streamable HTTP the server refused the notification with HTTP {} and {} id-less error body: allowed (MCP {revision} basic/transports, Sending Messages, MAY); over stdio the same body would answer a notification",
            post.status,
            frames.len()
        )
    })
}

/// When a 2026-07-28 request whose body lacks the `_meta` protocol version,
/// or the value its required `Mcp-Name` header mirrors
/// ([`lacks_mcp_name_source`]), was refused as a header mismatch over
/// Streamable HTTP: the note saying so.
///
/// Over HTTP the client MUST send `MCP-Protocol-Version` on every POST, and
/// "The header value MUST match the `io.modelcontextprotocol/protocolVersion`
/// field carried in the request body's `_meta`. If the values do not match,
/// the server MUST reject the request with `400 Bad Request` and a
/// `HeaderMismatch` JSON-RPC error" (2026-07-28 basic/transports/
/// streamable-http §Protocol Version Header). A body without the field does
/// not match the header, so -32020 is the answer there where stdio's is
/// -32602. Decided before the answer is judged, from what was sent and seen:
/// the body really lacks the field (a body naming its version is sent with
/// that version as the header, so nothing mismatches and -32020 is no
/// answer for it), the POST was answered `400`, and every answer is -32020.
#[must_use]
pub fn header_mismatch_answer(
    kind: Kind,
    revision: Revision,
    expects_error: bool,
    body: &[u8],
    status: Option<u16>,
    frames: &[Vec<u8>],
) -> Option<String> {
    if revision != Revision::Mcp2026_07_28
        || !expects_error
        || kind != Kind::Http(HttpKind::Streamable)
    {
        return None;
    }
    let Ok(body) = serde_json::from_slice::<serde_json::Value>(body) else {
        return None;
    };
    let names_version = body
        .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
        .is_some_and(serde_json::Value::is_string);
    if (names_version && !lacks_mcp_name_source(&body)) || status != Some(400) {
        return None;
    }
    let all_mismatch = !frames.is_empty()
        && frames.iter().all(|bytes| {
            serde_json::from_slice::<serde_json::Value>(bytes).is_ok_and(|v| {
                v.pointer("/error/code").and_then(serde_json::Value::as_i64) == Some(-32020)
            })
        });
    all_mismatch.then(|| {
        if names_version {
            "over Streamable HTTP a request without the value `Mcp-Name` carries (`params.name`, or `params.uri` for resources/read) goes without that required header: 400 with -32020 HeaderMismatch is the answer the transport requires (MCP 2026-07-28 basic/transports/streamable-http §Server Validation: \"A required standard header (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) is missing\", MUST reject); over stdio -32602 is".to_owned()
        } else {
            "over Streamable HTTP the MCP-Protocol-Version header does not match a body without `_meta` protocol version: 400 with -32020 HeaderMismatch is the answer the transport requires (MCP 2026-07-28 basic/transports/streamable-http §Protocol Version Header, MUST); over stdio -32602 is".to_owned()
        }
    })
}

/// Whether `body` is a request whose method requires `Mcp-Name` (2026-07-28
/// basic/transports/streamable-http §Standard Request Headers: "Required For
/// `tools/call`, `resources/read`, `prompts/get` requests", from
/// `params.name` or `params.uri`) but holds no string to mirror in it: the
/// header is then missing (or mirrors another member), and the server MUST
/// reject the request with 400 and -32020 (§Server Validation).
fn lacks_mcp_name_source(body: &serde_json::Value) -> bool {
    let source = match body.get("method").and_then(serde_json::Value::as_str) {
        Some("tools/call" | "prompts/get") => "/params/name",
        Some("resources/read") => "/params/uri",
        _ => return false,
    };
    !body
        .pointer(source)
        .is_some_and(serde_json::Value::is_string)
}

/// Why a failed 2026-07-28 handshake over Streamable HTTP is a legacy server
/// declining the revision, not a broken one: its first POST was answered 400
/// (or 404, 405) with a body holding no modern MCP error. "On `400 Bad
/// Request`, the client SHOULD inspect the response body before falling back
/// […] If the body is empty or is not a recognized modern JSON-RPC error, fall
/// back to `initialize`" (2026-07-28 basic/transports/streamable-http
/// §Backward Compatibility): the revision is then not applicable.
#[must_use]
pub fn legacy_refusal(wire: &Wire, revision: Revision, answers: &[Vec<u8>]) -> Option<String> {
    if revision != Revision::Mcp2026_07_28 || !matches!(wire, Wire::Streamable(_)) {
        return None;
    }
    let facts = wire.http_facts();
    let first = facts
        .iter()
        .find(|f| f.method == "POST" && f.expected_answer)?;
    if !matches!(first.status, 400 | 404 | 405) {
        return None;
    }
    // -32020 to -32099: the codes 2026-07-28 reserves for the MCP specification.
    let modern = answers.iter().any(|bytes| {
        serde_json::from_slice::<serde_json::Value>(bytes).is_ok_and(|v| {
            v.pointer("/error/code")
                .and_then(serde_json::Value::as_i64)
                .is_some_and(|c| (-32099..=-32020).contains(&c))
        })
    });
    (!modern).then(|| {
        format!(
            "the server answered server/discover with HTTP {} and no modern MCP error: a legacy server, which a client falls back from (MCP 2026-07-28 basic/transports/streamable-http §Backward Compatibility)",
            first.status
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A false finding on a real server: -32020 stands in for the expected error
    /// only where the body truly mismatched its header (no `_meta` version)
    /// and the POST was answered 400, decided before judging.
    #[test]
    fn a_header_mismatch_answer_needs_a_mismatching_body_and_a_400() {
        let streamable = Kind::Http(HttpKind::Streamable);
        let r5 = Revision::Mcp2026_07_28;
        let answer =
            vec![br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"m"}}"#.to_vec()];
        let bare = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        let named = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        assert!(header_mismatch_answer(streamable, r5, true, bare, Some(400), &answer).is_some());
        // The body names its version, sent as the header too: nothing mismatched.
        assert!(header_mismatch_answer(streamable, r5, true, named, Some(400), &answer).is_none());
        // "reject the request with `400 Bad Request`": another status is no such refusal.
        assert!(header_mismatch_answer(streamable, r5, true, bare, Some(200), &answer).is_none());
        assert!(header_mismatch_answer(
            streamable,
            Revision::Mcp2025_11_25,
            true,
            bare,
            Some(400),
            &answer
        )
        .is_none());
    }

    /// The reference peer's four false warnings under 2026-07-28 over
    /// Streamable HTTP: a `tools/call`, `prompts/get` or `resources/read`
    /// whose body has no name (or uri) goes out without `Mcp-Name`, which
    /// those methods require, so "A required standard header (…,
    /// `Mcp-Name`) is missing" and 400 with -32020 is an answer the text
    /// requires, beside the -32602 stdio gets.
    #[test]
    fn a_missing_name_is_a_missing_mcp_name_header() {
        let streamable = Kind::Http(HttpKind::Streamable);
        let r5 = Revision::Mcp2026_07_28;
        let answer =
            vec![br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"m"}}"#.to_vec()];
        let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}"#;
        for (params, missing) in [
            (
                r#""method":"tools/call","params":{"#.to_owned() + meta + "}",
                true,
            ),
            (
                r#""method":"tools/call","params":{"name":7,"#.to_owned() + meta + "}",
                true,
            ),
            (
                r#""method":"prompts/get","params":{"#.to_owned() + meta + "}",
                true,
            ),
            (
                r#""method":"resources/read","params":{"name":"x","#.to_owned() + meta + "}",
                true,
            ),
            (
                r#""method":"resources/read","params":{"uri":"x","#.to_owned() + meta + "}",
                false,
            ),
            (
                r#""method":"tools/call","params":{"name":"t","#.to_owned() + meta + "}",
                false,
            ),
            (
                r#""method":"tools/list","params":{"#.to_owned() + meta + "}",
                false,
            ),
        ] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":1,{params}}}"#);
            assert_eq!(
                header_mismatch_answer(streamable, r5, true, body.as_bytes(), Some(400), &answer)
                    .is_some(),
                missing,
                "{body}"
            );
        }
    }

    /// A notification's POST refused with 400 and an id-less error body.
    fn refused(exchange: u64) -> HttpFact {
        HttpFact {
            status: 400,
            content_type: Some("application/json".into()),
            expected_answer: false,
            exchange: Some(exchange),
            ended_after_answer: None,
            ..crate::runner::facts_for_tests::sse_answer()
        }
    }

    /// The 202 another notification's POST got (`notifications/initialized`,
    /// sent concurrently).
    fn accepted(exchange: u64) -> HttpFact {
        HttpFact {
            status: 202,
            content_type: None,
            frames: 0,
            ..refused(exchange)
        }
    }

    #[test]
    fn a_refused_notification_is_read_from_the_probes_own_post() {
        let body = vec![br#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"no"}}"#.to_vec()];
        let r = Revision::Mcp2025_11_25;
        // Another POST ended first in the window: the probe's is still found.
        let note = refusal_note(Some(2), &[accepted(1), refused(2)], &body, r).unwrap();
        assert!(note.contains("HTTP 400"), "{note}");
        // Another exchange's refusal is not the probe's.
        assert!(refusal_note(Some(3), &[accepted(1), refused(2)], &body, r).is_none());
        assert!(refusal_note(None, &[refused(2)], &body, r).is_none());
        // A body with an id answers something: not this allowance.
        let with_id =
            vec![br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"no"}}"#.to_vec()];
        assert!(refusal_note(Some(2), &[refused(2)], &with_id, r).is_none());
    }
}
