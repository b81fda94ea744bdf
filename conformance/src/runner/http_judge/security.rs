//! §Security Warning (basic/transports §Streamable HTTP, and the 2024-11-05
//! page's §HTTP with SSE): a server validates the `Origin` header of every
//! incoming connection. The probe sends a foreign `Origin`, what a
//! DNS-rebinding page would send, and reads the status it got.

use harness::rules::RuleId;
use harness::Revision;

use super::{handshaken, Filer, Target};
use crate::report::HttpExchange;
use crate::runner::filer::exchange_of;
use crate::transport::http::shown_exchange;
use crate::transport::{HttpKind, Kind};

/// A foreign origin: what a DNS-rebinding page would send.
const FOREIGN_ORIGIN: &str = "http://wirecheck-foreign-origin.invalid";

impl Filer {
    /// The foreign-`Origin` probe: over Streamable HTTP 403 where the revision
    /// names it (2025-11-25 on), any 4xx before (the rule only says
    /// "validate"); over HTTP+SSE the 2024-11-05 page's own sentence, which
    /// names no status, whatever the revision negotiated.
    pub(super) fn origin(&mut self, probe: Result<HttpExchange, String>) {
        let strict = self.kind == Kind::Http(HttpKind::Streamable)
            && RuleId::McpHttpOrigin403
                .info()
                .revisions
                .contains(self.revision);
        let rule = if self.kind == Kind::Http(HttpKind::Sse) {
            RuleId::McpHttpSseOriginValidate
        } else if strict {
            RuleId::McpHttpOrigin403
        } else {
            RuleId::McpHttpOriginValidate
        };
        if !rule.info().revisions.contains(self.revision) {
            return;
        }
        match probe {
            Err(why) => self.not_observed(rule, why),
            Ok(exchange) => {
                let status = exchange.status;
                self.show(exchange);
                let refused = if strict {
                    status == 403
                } else {
                    (400..500).contains(&status)
                };
                let broken = if refused {
                    Vec::new()
                } else {
                    vec![format!(
                        "a request with `Origin: {FOREIGN_ORIGIN}` was answered {status}{}",
                        if strict {
                            ", not 403 Forbidden"
                        } else {
                            ": it was not refused"
                        }
                    )]
                };
                self.verdict(rule, broken, vec![format!("answered {status}")]);
            }
        }
    }
}

/// The first POST of a handshake with a foreign `Origin`.
pub(super) async fn streamable_origin(
    revision: Revision,
    target: &Target<'_>,
) -> Result<HttpExchange, String> {
    let driver = handshaken(revision, target, Some(FOREIGN_ORIGIN)).await?;
    let status = driver
        .transport()
        .http_facts()
        .iter()
        .find(|f| f.method == "POST")
        .map(exchange_of)
        .ok_or_else(|| "the handshake with a foreign Origin got no HTTP response".to_owned());
    let (wire, _) = driver.into_parts();
    wire.close(target.shutdown_grace).await;
    status
}

/// The HTTP+SSE stream's GET with a foreign `Origin` (an SSE connection
/// refused at the GET never reaches the `endpoint` event).
pub(super) async fn sse_origin(target: &Target<'_>) -> Result<HttpExchange, String> {
    let client = target
        .client()
        .timeout(target.limits.write_timeout)
        .build()
        .map_err(|e| e.to_string())?;
    let response = client
        .get(target.url)
        .header("accept", "text/event-stream")
        .header("origin", FOREIGN_ORIGIN)
        .send()
        .await
        .map_err(|e| format!("the GET with a foreign Origin failed: {e}"))?;
    // Only the head is read: an accepted stream is dropped unread.
    Ok(shown_exchange(
        "GET",
        target.url,
        vec![
            ("accept".into(), "text/event-stream".into()),
            ("origin".into(), FOREIGN_ORIGIN.into()),
        ],
        None,
        response.status().as_u16(),
        response.headers(),
        &[],
    ))
}
