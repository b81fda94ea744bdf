//! Version negotiation across sessions: what a server answers to a version
//! it cannot support, held to the versions it accepts when asked for each.
//!
//! MCP 2024-11-05 to 2025-11-25, basic/lifecycle §Version Negotiation, SHOULD:
//! "Otherwise, the server MUST respond with another protocol version it
//! supports. This SHOULD be the _latest_ version supported by the server."
//! One session shows only the version answered; which versions a server
//! supports is shown by asking for each in its own session. So the runner
//! asks the `initialize` revisions newest first until one is accepted (the
//! newest the server supports, as far as wirecheck knows versions), then asks
//! for [`UNKNOWN_VERSION`] in one more session and compares
//! (`mcp.lifecycle.version-latest`, [`CheckedBy::Runner`](harness::rules::CheckedBy)).
//!
//! The sessions connect to the peer started without a revision (`serve`
//! without `--revision` for the reference peer), so they ask one server what
//! it supports, not one process per revision.

use harness::rules::{Level, RuleId, Violation};
use harness::{Outcome, Raw, Revision};
use serde_json::Value;

use super::{negotiation_record, wire_since, Gathered, Peers, RunError, Runner, RULE_NEGOTIATION};

/// The rule this module checks.
const RULE_LATEST: RuleId = RuleId::McpLifecycleVersionLatest;

/// A version no server supports: a date before MCP's first revision.
pub const UNKNOWN_VERSION: &str = "1999-01-01";

/// The id of the check, for baselines: one per run, under the revision found
/// to be the server's newest.
#[must_use]
pub fn latest_id(revision: Revision) -> String {
    format!("run/{revision}/negotiation-latest")
}

/// What the unknown-version session's answer says, against `newest`.
///
/// `declined` are the revisions newer than `newest` the server did not
/// accept when asked for them: answering one of those to an unknown version
/// claims a version the server does not support (the MUST before the SHOULD).
#[must_use]
pub fn judge_latest(
    newest: Revision,
    declined: &[Revision],
    answer: &Value,
) -> (Outcome, Vec<Violation>) {
    let spec = RULE_LATEST.info().cite(newest);
    if let Some(code) = answer.pointer("/error/code").and_then(Value::as_i64) {
        return (
            Outcome::NotApplicable {
                why: format!(
                    "the server refused {UNKNOWN_VERSION} with error {code} instead of offering a \
                     version (the §Error Handling example does so: ambiguity A7)"
                ),
            },
            Vec::new(),
        );
    }
    let Some(answered) = answer
        .pointer("/result/protocolVersion")
        .and_then(Value::as_str)
    else {
        return (
            Outcome::Fail,
            vec![Violation {
                rule: RULE_NEGOTIATION,
                level: Level::Must,
                spec: RULE_NEGOTIATION.info().cite(newest),
                pointer: "/result/protocolVersion".into(),
                message: format!("the answer to {UNKNOWN_VERSION} names no protocol version"),
            }],
        );
    };
    let Some(revision) = answered.parse::<Revision>().ok().filter(|r| r.is_mcp()) else {
        return (
            Outcome::NotObserved {
                why: format!(
                    "the server answered {answered}, a version wirecheck does not know, so whether \
                     it is the server's latest is not shown"
                ),
            },
            Vec::new(),
        );
    };
    if declined.contains(&revision) {
        return (
            Outcome::Fail,
            vec![Violation {
                rule: RULE_NEGOTIATION,
                level: Level::Must,
                spec: RULE_NEGOTIATION.info().cite(newest),
                pointer: "/result/protocolVersion".into(),
                message: format!(
                    "answered {answered} to {UNKNOWN_VERSION}, but declined {answered} when asked for it"
                ),
            }],
        );
    }
    if revision == newest {
        return (Outcome::Pass, Vec::new());
    }
    (
        Outcome::Warning,
        vec![Violation {
            rule: RULE_LATEST,
            level: RULE_LATEST.info().level,
            spec,
            pointer: "/result/protocolVersion".into(),
            message: format!(
                "answered {answered} to {UNKNOWN_VERSION}, though it accepted {newest} when asked for it"
            ),
        }],
    )
}

impl Runner<'_, '_, '_> {
    /// The `mcp.lifecycle.version-latest` check of a `--revision all` run.
    pub(super) async fn latest(&mut self) -> Result<(), RunError> {
        let endpoint = self.endpoint(None).await?;
        let gathered = Gathered::default();
        let peers = Peers::over(self.config, endpoint.url.as_deref(), &gathered);
        let asked: Vec<Revision> = Revision::MCP
            .into_iter()
            .rev()
            .filter(|r| RULE_LATEST.info().applies_to(*r))
            .collect();
        let mut declined = Vec::new();
        let mut newest = None;
        for ask in asked {
            let accepted = match peers.open(ask, None).await? {
                Ok(s) => {
                    let took = s
                        .handshake
                        .as_ref()
                        .and_then(|h| h.protocol_version.as_deref())
                        == Some(ask.name());
                    peers.close(s.driver).await;
                    took
                }
                Err((driver, e)) => {
                    peers.close(driver).await;
                    if !matches!(e, crate::driver::HandshakeError::Refused { .. }) {
                        // No answer at all: the per-revision records say so;
                        // more sessions would each wait out the timeout.
                        break;
                    }
                    false
                }
            };
            if accepted {
                newest = Some(ask);
                break;
            }
            declined.push(ask);
        }
        let Some(newest) = newest else {
            return Ok(());
        };
        let mut driver = peers.spawn(None).await?;
        let params = serde_json::json!({
            "protocolVersion": UNKNOWN_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "wirecheck", "version": env!("CARGO_PKG_VERSION")},
        });
        let answered = driver
            .request(
                "initialize",
                Some(Raw::from_value(&params)),
                self.config.driver.answer_timeout,
            )
            .await;
        let (outcome, violations, subject) = match answered {
            Ok(a) => {
                let value = serde_json::from_slice::<Value>(&a.bytes).unwrap_or(Value::Null);
                let (outcome, violations) = judge_latest(newest, &declined, &value);
                (outcome, violations, a.bytes.clone())
            }
            Err(e) => (
                Outcome::NotObserved {
                    why: format!(
                        "the initialize asking for {UNKNOWN_VERSION} got no answer: {e:?}"
                    ),
                },
                Vec::new(),
                Vec::new(),
            ),
        };
        let transport = self.config.peer.transport();
        let mut record = negotiation_record(newest, outcome, subject, RULE_LATEST, transport);
        record.place.vector = Some(latest_id(newest));
        record.notes.push(format!(
            "asked newest first, each in its own session: {newest} accepted{}",
            if declined.is_empty() {
                String::new()
            } else {
                let names: Vec<&str> = declined.iter().map(|r| r.name()).collect();
                format!(", {} declined", names.join(", "))
            }
        ));
        record.violations = Some(violations);
        record.wire = wire_since(&driver, 0);
        peers.close(driver).await;
        self.total += 1;
        self.push(record);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const NEWEST: Revision = Revision::Mcp2025_06_18;

    fn answer(version: &str) -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": version}})
    }

    #[test]
    fn the_newest_accepted_passes() {
        let (outcome, violations) =
            judge_latest(NEWEST, &[Revision::Mcp2025_11_25], &answer("2025-06-18"));
        assert_eq!(outcome, Outcome::Pass);
        assert!(violations.is_empty());
    }

    #[test]
    fn an_older_supported_version_warns() {
        let (outcome, violations) = judge_latest(NEWEST, &[], &answer("2024-11-05"));
        assert_eq!(outcome, Outcome::Warning);
        assert_eq!(violations[0].rule, RULE_LATEST);
        assert!(violations[0].message.contains("accepted 2025-06-18"));
    }

    #[test]
    fn a_version_declined_when_asked_breaks_the_must() {
        let (outcome, violations) =
            judge_latest(NEWEST, &[Revision::Mcp2025_11_25], &answer("2025-11-25"));
        assert_eq!(outcome, Outcome::Fail);
        assert_eq!(violations[0].rule, RULE_NEGOTIATION);
    }

    #[test]
    fn a_refusal_or_an_unknown_version_judges_nothing() {
        let refused = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "x"}});
        assert!(matches!(
            judge_latest(NEWEST, &[], &refused).0,
            Outcome::NotApplicable { .. }
        ));
        assert!(matches!(
            judge_latest(NEWEST, &[], &answer("2030-01-01")).0,
            Outcome::NotObserved { .. }
        ));
        let silent = json!({"jsonrpc": "2.0", "id": 1, "result": {}});
        assert_eq!(judge_latest(NEWEST, &[], &silent).0, Outcome::Fail);
    }
}
