//! What a server's answer owes the request it answers, beyond the result's
//! schema: a rejected log level (server/utilities/logging §Error Handling), a
//! cache lifetime that is not negative (2026-07-28 server/utilities/caching
//! §Time-to-live), and in an `InputRequiredResult` only the input requests the
//! request's own client capabilities allow (2026-07-28 basic/patterns/mrtr
//! §Server Requirements). Each needs the request beside the answer, so these
//! are exchange checks, called from `reply::pair`.

use super::check::CLIENT_CAPABILITIES;
use super::client_caps::{self, Why};
use super::{at, Report, RuleId};
use crate::codes::INVALID_PARAMS;
use crate::ir::{Message, Raw, ValueKind};
use crate::profile::Revision;

/// The log levels every revision's schema lists (`LoggingLevel`, RFC 5424),
/// least severe first (server/utilities/logging §Log Levels).
pub const LOG_LEVELS: [&str; 8] = [
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
        let method = request
            .get("method")
            .and_then(|m| m.as_string().map(|s| s.into_owned()))
            .unwrap_or_default();
        let params = request.get("params");
        for need in client_caps::needs(&method, params.as_ref()) {
            if client_caps::declares(caps.as_ref(), need) {
                continue;
            }
            // A feature not declared at all is one finding, not one per mode
            // or option of it.
            let feature_missing = need.why != Why::Feature
                && !client_caps::declares(
                    caps.as_ref(),
                    client_caps::Need {
                        member: None,
                        ..need
                    },
                );
            if feature_missing {
                continue;
            }
            // `includeContext` is a SHOULD (client/sampling §Capabilities);
            // the rest is the MRTR page's MUST NOT.
            let rule = if need.why == Why::SamplingContext {
                RuleId::McpR5MrtrIncludeContextDeclared
            } else {
                RuleId::McpR5MrtrInputRequestsDeclared
            };
            out.flag(
                rule,
                at(&base, key.decoded().as_ref()),
                format!(
                    "input request `{}` (`{method}`) needs {}, which the request's client capabilities do not declare",
                    key.decoded(),
                    need.name()
                ),
            );
        }
    }
}
