//! The checks every endpoint makes before a frame reaches a [`Peer`]: the
//! `Origin`, the media types, the body's size.
//!
//! [`Peer`]: crate::peer::Peer

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use reqwest::Url;

use super::Config;

/// A refusal: the status, and a JSON-RPC error body with no `id` (2025-11-25
/// §Sending Messages 4: "The HTTP response body MAY comprise a JSON-RPC error
/// response that has no id").
pub(super) fn refuse(status: StatusCode, code: i64, message: &str) -> Response {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "error": { "code": code, "message": message },
    });
    json_response(status, body.to_string().into_bytes())
}

/// `status` with a JSON body.
pub(super) fn json_response(status: StatusCode, body: Vec<u8>) -> Response {
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

/// 403 for a present, foreign `Origin` (DNS-rebinding protection). A loopback
/// origin (`localhost`, `127.0.0.1`, `[::1]`, any port and scheme) is ours;
/// with `allow_remote`, so is one whose host and port equal the `Host` header.
/// `Origin: null` (a sandboxed page, a file) is foreign.
#[expect(
    clippy::result_large_err,
    reason = "the refusal is the HTTP response itself, made once and handed straight to axum; boxing it buys nothing"
)]
pub(super) fn origin(config: &Config, headers: &HeaderMap) -> Result<(), Response> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let own = origin
        .to_str()
        .ok()
        .and_then(|text| Url::parse(text).ok())
        .is_some_and(|url| {
            let loopback = matches!(url.host_str(), Some("localhost" | "127.0.0.1" | "[::1]"));
            let same_host = config.allow_remote
                && headers
                    .get(header::HOST)
                    .and_then(|h| h.to_str().ok())
                    .is_some_and(|host| {
                        let authority = match url.port() {
                            Some(port) => format!("{}:{port}", url.host_str().unwrap_or_default()),
                            None => url.host_str().unwrap_or_default().to_owned(),
                        };
                        authority.eq_ignore_ascii_case(host)
                    });
            loopback || same_host
        });
    if own {
        Ok(())
    } else {
        Err(refuse(
            StatusCode::FORBIDDEN,
            harness::codes::INVALID_REQUEST,
            "Forbidden: the Origin header names a foreign origin (DNS-rebinding protection)",
        ))
    }
}

/// Whether an `Accept` header admits `wanted` (`type/subtype`), wildcards
/// counted as HTTP defines them (RFC 9110 §12.5.1); `q=0` refuses.
pub(super) fn accepts(headers: &HeaderMap, wanted: &str) -> bool {
    let (kind, _) = wanted.split_once('/').unwrap_or((wanted, ""));
    headers.get_all(header::ACCEPT).iter().any(|value| {
        value.to_str().unwrap_or_default().split(',').any(|range| {
            let mut parts = range.split(';');
            let media = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
            let refused = parts.any(|p| {
                p.trim()
                    .strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            !refused && (media == wanted || media == "*/*" || media == format!("{kind}/*"))
        })
    })
}

/// 415 unless the body is declared `application/json`.
#[expect(
    clippy::result_large_err,
    reason = "the refusal is the HTTP response itself, made once and handed straight to axum; boxing it buys nothing"
)]
pub(super) fn json_content_type(headers: &HeaderMap) -> Result<(), Response> {
    let media = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase()
        });
    if media.as_deref() == Some("application/json") {
        Ok(())
    } else {
        Err(refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            harness::codes::INVALID_REQUEST,
            "Unsupported Media Type: a JSON-RPC message is sent as application/json",
        ))
    }
}

/// The whole body, at most `max` bytes; a longer one is 413 with the -32700
/// the stdio peer gives an over-long line (never buffered past `max`). A body
/// that ends short of its declared length is 400.
pub(super) async fn body(headers: &HeaderMap, body: Body, max: usize) -> Result<Bytes, Response> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let too_long = || {
        json_response(
            StatusCode::PAYLOAD_TOO_LARGE,
            // The body is refused before any session is found, so the answer
            // is the negotiating peer's (its id as for a frame never read).
            crate::peer::Peer::new(crate::peer::Serve::Negotiate)
                .too_long_frame(max.saturating_add(1), max),
        )
    };
    if declared.is_some_and(|n| n > max as u64) {
        return Err(too_long());
    }
    axum::body::to_bytes(body, max)
        .await
        .map_err(|e| match declared {
            // Within its declared length, so the read failed for another reason.
            Some(_) => refuse(
                StatusCode::BAD_REQUEST,
                harness::codes::PARSE_ERROR,
                &format!("Parse error: the body could not be read: {e}"),
            ),
            None => too_long(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(name: header::HeaderName, value: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(name, HeaderValue::from_static(value));
        headers
    }

    #[test]
    fn accept_ranges_and_wildcards() {
        let both = with(header::ACCEPT, "application/json, text/event-stream");
        assert!(accepts(&both, "application/json") && accepts(&both, "text/event-stream"));
        let json_only = with(header::ACCEPT, "application/json");
        assert!(!accepts(&json_only, "text/event-stream"));
        assert!(accepts(&with(header::ACCEPT, "*/*"), "text/event-stream"));
        assert!(accepts(
            &with(header::ACCEPT, "text/*;q=0.5"),
            "text/event-stream"
        ));
        assert!(!accepts(
            &with(header::ACCEPT, "text/event-stream;q=0"),
            "text/event-stream"
        ));
        assert!(!accepts(&HeaderMap::new(), "application/json"));
    }

    #[test]
    fn origins_loopback_foreign_and_same_host() {
        let local = Config {
            serve: crate::peer::Serve::Negotiate,
            max_frame: 1 << 20,
            allow_remote: false,
        };
        assert!(
            origin(&local, &HeaderMap::new()).is_ok(),
            "no Origin: not a browser"
        );
        for own in [
            "http://localhost:3000",
            "http://127.0.0.1",
            "https://[::1]:8443",
        ] {
            let mut headers = HeaderMap::new();
            headers.insert(header::ORIGIN, HeaderValue::from_str(own).unwrap());
            assert!(origin(&local, &headers).is_ok(), "{own}");
        }
        for foreign in [
            "http://evil.example",
            "null",
            "http://localhost.evil.example",
        ] {
            let mut headers = HeaderMap::new();
            headers.insert(header::ORIGIN, HeaderValue::from_str(foreign).unwrap());
            let refused = origin(&local, &headers).unwrap_err();
            assert_eq!(refused.status(), StatusCode::FORBIDDEN, "{foreign}");
        }
        let mut headers = with(header::ORIGIN, "http://10.0.0.5:8080");
        headers.insert(header::HOST, HeaderValue::from_static("10.0.0.5:8080"));
        assert!(
            origin(&local, &headers).is_err(),
            "same host only with --allow-remote"
        );
        let remote = Config {
            allow_remote: true,
            ..local
        };
        assert!(origin(&remote, &headers).is_ok());
    }
}
