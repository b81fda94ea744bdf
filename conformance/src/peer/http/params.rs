//! 2026-07-28 custom headers, the server side: the `Mcp-Param-{Name}`
//! headers of a `tools/call` checked against the arguments they mirror
//! (basic/transports/streamable-http §Server Behavior for Custom Headers and
//! §Server Validation), and the Base64 sentinel every mirrored value may
//! come in (§Value Encoding).
//!
//! Only the peer's own tools are known here, so only their annotations are
//! checked: a header naming a parameter no tool annotates is not
//! "recognized" and is ignored, as the section has it.

use axum::http::HeaderMap;
use base64::Engine as _;
use serde_json::Value;

use crate::peer::catalogue::TOOLS;
use crate::transport::http::mirror::annotations;
use harness::Revision;

/// `=?base64?…?=` (markers lowercase, exactly) carries the Base64 of the
/// UTF-8 value; anything else is the value itself. `header` names the
/// header in the error.
pub(super) fn decode_sentinel(value: &str, header: &str) -> Result<String, String> {
    let Some(inner) = value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    else {
        return Ok(value.to_owned());
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(inner)
        .map_err(|e| format!("{header} is not valid Base64: {e}"))?;
    String::from_utf8(bytes).map_err(|_| format!("{header}'s Base64 is not UTF-8"))
}

/// Why the `Mcp-Param-*` headers of `body` (a 2026-07-28 request) do not
/// match it, if they do not: each a HeaderMismatch (-32020, 400).
///
/// §Server Behavior for Custom Headers: "Servers MUST reject requests with a
/// recognized `Mcp-Param-{Name}` header that contains invalid characters";
/// "Client omits header but value is in body … Server MUST reject the
/// request"; a `null` or absent value "Server MUST NOT expect the header".
/// §Server Validation, SHOULD: integers are compared numerically.
pub(super) fn check(headers: &HeaderMap, body: &[u8]) -> Result<(), String> {
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return Ok(());
    };
    if value.get("method").and_then(Value::as_str) != Some("tools/call") {
        return Ok(());
    }
    let name = value.pointer("/params/name").and_then(Value::as_str);
    let Some(tool) = TOOLS
        .iter()
        .find(|t| Some(t.name) == name && t.offered_in(Revision::Mcp2026_07_28))
    else {
        return Ok(());
    };
    let empty = Value::Object(serde_json::Map::new());
    let arguments = value.pointer("/params/arguments").unwrap_or(&empty);
    for (path, header) in annotations(&(tool.input_schema)()) {
        let mut given = Some(arguments);
        for key in &path {
            given = given.and_then(|v| v.get(key));
        }
        let Some(given) = given.filter(|v| !v.is_null()) else {
            continue;
        };
        let shown = format!("Mcp-Param-{header}");
        let Some(sent) = headers.get(format!("mcp-param-{}", header.to_ascii_lowercase()).as_str())
        else {
            return Err(format!(
                "the {shown} header is missing, and arguments.{} is given",
                path.join(".")
            ));
        };
        // §Value Encoding: "visible ASCII characters (0x21-0x7E), space
        // (0x20), and horizontal tab (0x09)"; anything else goes Base64.
        let Some(text) = sent
            .as_bytes()
            .iter()
            .all(|b| matches!(b, 0x20..=0x7e | b'\t'))
            .then(|| String::from_utf8_lossy(sent.as_bytes()).into_owned())
        else {
            return Err(format!(
                "the {shown} header contains characters a header value carries only Base64-encoded"
            ));
        };
        let decoded = decode_sentinel(&text, &shown)?;
        if !matches_body(&decoded, given) {
            return Err(format!(
                "{shown} header value '{decoded}' does not match body value {given}"
            ));
        }
    }
    Ok(())
}

/// Whether a decoded header value stands for the body's `given` (§Value
/// Encoding, Type conversion), integers compared numerically (§Server
/// Validation, SHOULD: "`42.0` and `42` are considered equal").
fn matches_body(decoded: &str, given: &Value) -> bool {
    match given {
        Value::String(s) => decoded == s,
        Value::Bool(b) => decoded == if *b { "true" } else { "false" },
        Value::Number(n) => {
            if let (Some(body), Ok(sent)) = (n.as_i64(), decoded.parse::<i64>()) {
                return body == sent;
            }
            match (n.as_f64(), decoded.parse::<f64>()) {
                (Some(body), Ok(sent)) => sent.is_finite() && body == sent,
                _ => false,
            }
        }
        // Annotations sit on primitives only; anything else cannot match.
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn call(arguments: &Value) -> Vec<u8> {
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "route", "arguments": arguments}})
        .to_string()
        .into_bytes()
    }

    fn headers(pairs: &[(&'static str, &[u8])]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_bytes(value).unwrap());
        }
        map
    }

    #[test]
    fn mirrored_values_match_as_sent_encoded_or_as_numbers() {
        let body = call(&serde_json::json!({"region": "Hello, 世界", "count": 42}));
        let sent = headers(&[
            ("mcp-param-region", b"=?base64?SGVsbG8sIOS4lueVjA==?="),
            ("mcp-param-count", b"42.0"),
        ]);
        assert_eq!(check(&sent, &body), Ok(()));
        // Absent (or null) values expect no header.
        let body = call(&serde_json::json!({"region": "us-west1", "count": null}));
        assert_eq!(
            check(&headers(&[("mcp-param-region", b"us-west1")]), &body),
            Ok(())
        );
    }

    #[test]
    fn a_missing_invalid_or_different_header_is_refused() {
        let body = call(&serde_json::json!({"region": "us-west1"}));
        let missing = check(&HeaderMap::new(), &body).unwrap_err();
        assert!(
            missing.contains("Mcp-Param-Region header is missing"),
            "{missing}"
        );
        let raw = headers(&[("mcp-param-region", "us-west1é".as_bytes())]);
        assert!(check(&raw, &body).unwrap_err().contains("Base64-encoded"));
        let other = headers(&[("mcp-param-region", b"eu-west1")]);
        assert!(check(&other, &body).unwrap_err().contains("does not match"));
        // Markers are case-sensitive: `=?BASE64?` is a plain value.
        let upper = headers(&[("mcp-param-region", b"=?BASE64?dXMtd2VzdDE=?=")]);
        assert!(check(&upper, &body).is_err());
        // Other tools and methods carry no annotation of this peer's.
        let echo = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}"#;
        assert_eq!(check(&HeaderMap::new(), echo), Ok(()));
    }

    #[test]
    fn sentinel_values_decode_and_plain_ones_pass_through() {
        assert_eq!(
            decode_sentinel("get_weather", "Mcp-Name").unwrap(),
            "get_weather"
        );
        assert_eq!(
            decode_sentinel("=?base64?SGVsbG8sIOS4lueVjA==?=", "Mcp-Name").unwrap(),
            "Hello, \u{4e16}\u{754c}"
        );
        assert!(decode_sentinel("=?base64?not base64!?=", "Mcp-Name").is_err());
        // The markers are case-sensitive: an uppercase one is a plain value.
        assert_eq!(
            decode_sentinel("=?BASE64?eA==?=", "Mcp-Name").unwrap(),
            "=?BASE64?eA==?="
        );
        let encoded = crate::transport::http::header_safe("=?base64?literal?=");
        assert_eq!(
            decode_sentinel(&encoded, "Mcp-Name").unwrap(),
            "=?base64?literal?="
        );
    }
}
