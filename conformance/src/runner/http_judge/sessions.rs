//! §Session Management (2025-03-26 to 2025-11-25 basic/transports
//! §Streamable HTTP): the session ids a server issues are visible ASCII and
//! secure; a request without the session id is refused with 400, and one
//! with the id of a session ended by DELETE with 404.

use harness::rules::RuleId;
use harness::Revision;

use super::{describe, handshaken, ping, streamable, Filer, Target};
use crate::runner::trace::Trace;
use crate::transport::http::{session_id_concerns, FindingKind, HttpFinding};

impl Filer {
    /// Without the session id: 400 (SHOULD); after DELETE: 404 (MUST).
    pub(super) async fn sessions(&mut self, revision: Revision, target: &Target<'_>) {
        let mut driver = match handshaken(revision, target, None).await {
            Ok(d) => d,
            Err(why) => {
                self.not_observed(RuleId::McpHttpSessionRequired400, why.clone());
                self.not_observed(RuleId::McpHttpSessionTerminated404, why);
                return;
            }
        };
        let Some(id) = streamable(&mut driver).session_id() else {
            let why = "the server issued no Mcp-Session-Id (sessions are optional: MAY)".to_owned();
            self.not_applicable(RuleId::McpHttpSessionRequired400, why.clone());
            self.not_applicable(RuleId::McpHttpSessionTerminated404, why);
            return;
        };
        streamable(&mut driver).set_session_id(None);
        let seen = ping(&mut driver, revision, target).await;
        match self.status(seen) {
            Ok(400) => self.verdict(RuleId::McpHttpSessionRequired400, Vec::new(), Vec::new()),
            Ok(status) => self.verdict(
                RuleId::McpHttpSessionRequired400,
                vec![format!(
                    "a ping without Mcp-Session-Id was answered {status}, not 400"
                )],
                Vec::new(),
            ),
            Err(why) => self.not_observed(RuleId::McpHttpSessionRequired400, why),
        }
        streamable(&mut driver).set_session_id(Some(id.clone()));
        match streamable(&mut driver).delete_session().await {
            Ok(405) => self.not_applicable(
                RuleId::McpHttpSessionTerminated404,
                "the server answered DELETE with 405: it does not let clients end sessions (MAY)"
                    .into(),
            ),
            Ok(status) if (200..300).contains(&status) => {
                streamable(&mut driver).set_session_id(Some(id));
                let seen = ping(&mut driver, revision, target).await;
                match self.status(seen) {
                    Ok(404) => self.verdict(RuleId::McpHttpSessionTerminated404, Vec::new(), Vec::new()),
                    Ok(status) => self.verdict(
                        RuleId::McpHttpSessionTerminated404,
                        vec![format!("a ping with the id of a session ended by DELETE was answered {status}, not 404")],
                        Vec::new(),
                    ),
                    Err(why) => self.not_observed(RuleId::McpHttpSessionTerminated404, why),
                }
            }
            Ok(status) => self.not_observed(
                RuleId::McpHttpSessionTerminated404,
                format!("DELETE of the session was answered {status}; the session may still live"),
            ),
            Err(why) => self.not_observed(RuleId::McpHttpSessionTerminated404, why),
        }
    }

    /// §Session Management 1, over every session id the run's sessions were
    /// issued: visible ASCII (MUST), and secure (SHOULD).
    pub(super) fn session_ids(&mut self, findings: &[&HttpFinding], traces: &[Trace]) {
        let ids: Vec<String> = traces.iter().filter_map(|t| t.session_id.clone()).collect();
        if ids.is_empty() {
            let why = "the server issued no Mcp-Session-Id (sessions are optional: MAY)";
            self.not_applicable(RuleId::McpHttpSessionIdVisibleAscii, why.into());
            self.not_applicable(RuleId::McpHttpSessionIdSecure, why.into());
        } else {
            let broken = findings
                .iter()
                .filter(|f| f.kind == FindingKind::SessionIdNotVisibleAscii)
                .map(|f| describe(f))
                .collect();
            let seen = vec![format!("{} session ids seen", ids.len())];
            self.verdict(RuleId::McpHttpSessionIdVisibleAscii, broken, seen.clone());
            self.verdict(
                RuleId::McpHttpSessionIdSecure,
                session_id_concerns(&ids),
                seen,
            );
        }
    }
}
