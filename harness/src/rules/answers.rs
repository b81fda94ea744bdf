//! What a server's answer owes the request it answers, beyond the result's
//! schema: a rejected log level (server/utilities/logging §Error Handling), a
//! cache lifetime that is not negative (2026-07-28 server/utilities/caching
//! §Time-to-live), and in an `InputRequiredResult` only the input requests the
//! request's own client capabilities allow (2026-07-28 basic/patterns/mrtr
//! §Server Requirements). Each needs the request beside the answer, so these
//! are exchange checks, called from `reply::pair`.

use super::check::CLIENT_CAPABILITIES;
use super::{at, Report, RuleId};
use crate::codes::INVALID_PARAMS;
use crate::ir::{Message, Raw, ValueKind};
use crate::profile::Revision;

/// The log levels every revision's schema lists (`LoggingLevel`, RFC 5424).
const LOG_LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

const LOG_LEVEL_META: &str = "io.modelcontextprotocol/logLevel";

/// The log level a request sets and where: `logging/setLevel`'s `level` up to
/// 2025-11-25, any request's `_meta` `io.modelcontextprotocol/logLevel` in
/// 2026-07-28. `None` when the request sets none.
fn requested_level<'p>(
    method: &str,
    params: Option<&'p Raw<'_>>,
    revision: Revision,
) -> Option<Raw<'p>> {
    let params = params?;
    if revision == Revision::Mcp2026_07_28 {
        params
            .get("_meta")?
            .get(LOG_LEVEL_META)
            .map(Raw::into_owned)
    } else if method == "logging/setLevel" {
        params.get("level").map(Raw::into_owned)
    } else {
        None
    }
}

/// An unrecognized log level SHOULD be refused with -32602.
pub(super) fn log_level(
    method: &str,
    params: Option<&Raw<'_>>,
    response: &Message<'_>,
    base: &str,
    revision: Revision,
    out: &mut Report,
) {
    let Some(level) = requested_level(method, params, revision) else {
        return;
    };
    if level
        .as_string()
        .is_some_and(|l| LOG_LEVELS.contains(&l.as_ref()))
    {
        return;
    }
    let (code, pointer) = match response {
        Message::Error(e) => (Some(e.error.code), at(&at(base, "error"), "code")),
        _ => (None, base.to_owned()),
    };
    if code != Some(INVALID_PARAMS) {
        out.flag(
            RuleId::McpLoggingInvalidLevel,
            pointer,
            format!(
                "`{method}` asked for log level {}, which is no log level, and was answered {}",
                level.as_str(),
                code.map_or_else(|| "with a result".to_owned(), |c| format!("with code {c}"))
            ),
        );
    }
}

/// 2026-07-28: `ttlMs`, wherever a result carries it, is `>= 0`.
pub(super) fn ttl(result: &Raw<'_>, pointer: &str, out: &mut Report) {
    let Some(ttl) = result.get("ttlMs") else {
        return;
    };
    // A non-number is mcp.schema.result's; only the sign is this rule's.
    if ttl.kind() == ValueKind::Number && ttl.as_str().starts_with('-') && ttl.as_str() != "-0" {
        out.flag(
            RuleId::McpR5CacheTtlNonNegative,
            at(pointer, "ttlMs"),
            format!(
                "`ttlMs` is {}; servers MUST provide a value >= 0",
                ttl.as_str()
            ),
        );
    }
}

/// What one input request needs the client to have declared: a capability,
/// and optionally a member inside it. Elicitation without `mode` is form mode,
/// and an empty `elicitation` object declares form mode (client/elicitation
/// §Capabilities).
fn input_request_needs(request: &Raw<'_>) -> Vec<(&'static str, Option<&'static str>)> {
    let method = request
        .get("method")
        .and_then(|m| m.as_string().map(|s| s.into_owned()));
    let params = request.get("params");
    let param = |name: &str| {
        params
            .as_ref()
            .and_then(|p| p.get(name).map(Raw::into_owned))
    };
    match method.as_deref() {
        Some("roots/list") => vec![("roots", None)],
        Some("sampling/createMessage") => {
            let mut needs = vec![("sampling", None)];
            // Tool-enabled: a `tools` array (client/sampling §Tools in Sampling).
            if param("tools").is_some_and(|t| t.kind() == ValueKind::Array) {
                needs.push(("sampling", Some("tools")));
            }
            needs
        }
        Some("elicitation/create") => {
            let mode = param("mode").and_then(|m| m.as_string().map(|s| s.into_owned()));
            match mode.as_deref() {
                Some("url") => vec![("elicitation", Some("url"))],
                _ => vec![("elicitation", Some("form"))],
            }
        }
        _ => Vec::new(),
    }
}

/// Whether `caps` declares `need`. `elicitation: {}` counts as `form`.
fn declares(caps: Option<&Raw<'_>>, (capability, member): (&str, Option<&str>)) -> bool {
    let Some(cap) = caps.and_then(|c| c.get(capability)) else {
        return false;
    };
    if cap.kind() != ValueKind::Object {
        return false;
    }
    match member {
        None => true,
        Some(m) if cap.get(m).is_some_and(|v| v.kind() == ValueKind::Object) => true,
        Some("form") if capability == "elicitation" => cap.members().next().is_none(),
        Some(_) => false,
    }
}

/// 2026-07-28: every input request of an `InputRequiredResult` is one the
/// request's `_meta` client capabilities declare support for.
pub(super) fn input_requests(
    params: Option<&Raw<'_>>,
    result: &Raw<'_>,
    pointer: &str,
    out: &mut Report,
) {
    let Some(requests) = result.get("inputRequests") else {
        return;
    };
    let caps = params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(CLIENT_CAPABILITIES).map(Raw::into_owned));
    let base = at(pointer, "inputRequests");
    for (key, request) in requests.members() {
        for need in input_request_needs(&request) {
            if !declares(caps.as_ref(), need) {
                let wanted = need
                    .1
                    .map_or_else(|| format!("`{}`", need.0), |m| format!("`{}.{m}`", need.0));
                out.flag(
                    RuleId::McpR5MrtrInputRequestsDeclared,
                    at(&base, key.decoded().as_ref()),
                    format!(
                        "input request `{}` needs {wanted}, which the request's client capabilities do not declare",
                        key.decoded()
                    ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Raw<'static> {
        Raw::parse(text).expect("valid JSON").into_owned()
    }

    #[test]
    fn elicitation_modes_follow_the_capability_object() {
        let empty = raw(r#"{"elicitation":{}}"#);
        let url_only = raw(r#"{"elicitation":{"url":{}}}"#);
        assert!(declares(Some(&empty), ("elicitation", Some("form"))));
        assert!(!declares(Some(&empty), ("elicitation", Some("url"))));
        assert!(!declares(Some(&url_only), ("elicitation", Some("form"))));
        assert!(declares(Some(&url_only), ("elicitation", Some("url"))));
        assert!(!declares(None, ("roots", None)));
    }

    #[test]
    fn tool_enabled_sampling_needs_sampling_tools() {
        let r = raw(
            r#"{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"tools":[]}}"#,
        );
        assert_eq!(
            input_request_needs(&r),
            vec![("sampling", None), ("sampling", Some("tools"))]
        );
        let plain =
            raw(r#"{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}"#);
        assert_eq!(input_request_needs(&plain), vec![("sampling", None)]);
    }
}
