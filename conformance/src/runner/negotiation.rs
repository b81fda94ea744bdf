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
//! it supports, not one process per revision. A peer given to the run is
//! that one server under every revision, so its revisions' own handshakes
//! answer the search as far as they tell ([`known_newest`]), and the
//! unknown-version session is played beside the revisions ([`ask_unknown`]).

use harness::rules::{Level, RuleId, Violation};
use harness::{Outcome, Raw, Revision};
use serde_json::Value;

use std::collections::BTreeMap;

use super::{
    negotiation_record, wire_since, Accepted, Config, Gathered, Peer, Peers, RunError, Runner,
    RULE_NEGOTIATION,
};

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

/// The unknown-version session's exchange: what a fresh connection answered
/// to an `initialize` asking for [`UNKNOWN_VERSION`], and the wire it showed.
///
/// Nothing in it depends on the revisions played: the frame is the same
/// whatever the server turns out to support, so it is played at the run's
/// start, beside the revisions' sessions, instead of after them, where
/// a slow-starting process was the run's last wait (a Python SDK server:
/// seconds on a loaded machine).
pub(super) struct UnknownAsked {
    answered: Result<crate::driver::Answered, crate::driver::RequestError>,
    wire: Vec<crate::transcript::Frame>,
}

/// Plays the unknown-version session on the peer of `config` started
/// without a revision.
pub(super) async fn ask_unknown(config: &Config) -> Result<UnknownAsked, RunError> {
    let endpoint = super::endpoint(config, None).await?;
    let gathered = Gathered::default();
    let peers = Peers::over(config, endpoint.url.as_deref(), &gathered);
    let mut driver = peers.spawn(None).await?;
    let params = crate::opening::initialize_params_naming(UNKNOWN_VERSION);
    let answered = driver
        .request(
            "initialize",
            Some(Raw::from_value(&params)),
            config.driver.answer_timeout,
        )
        .await;
    let wire = wire_since(&driver, 0);
    peers.close(driver).await;
    Ok(UnknownAsked { answered, wire })
}

/// What the revisions' own handshakes already showed of the server's newest
/// revision, asked newest first as [`Runner::latest`] asks: `(newest,
/// declined)`, or where the search is left to live sessions (`None` for
/// newest, and the revisions still to ask). A handshake that named a revision
/// was accepted or answered with another version; one that failed says too
/// little (refused, or never answered?), so the search goes on live from it.
///
/// Only a peer given to the run is one server whatever the revision (the
/// reference peer is started with `--revision` for each), so only there are
/// its handshakes the answers the live sessions would get.
fn known_newest(
    asked: &[Revision],
    answered: &BTreeMap<Revision, Accepted>,
) -> (Option<Revision>, Vec<Revision>, Vec<Revision>) {
    let mut declined = Vec::new();
    for (n, ask) in asked.iter().enumerate() {
        match answered.get(ask) {
            Some(Accepted::Yes) => return (Some(*ask), declined, Vec::new()),
            Some(Accepted::Other(_)) => declined.push(*ask),
            Some(Accepted::No | Accepted::NotRun) | None => {
                return (None, declined, asked[n..].to_vec())
            }
        }
    }
    (None, declined, Vec::new())
}

impl Runner<'_, '_, '_> {
    /// The `mcp.lifecycle.version-latest` check of a `--revision all` run:
    /// `answered` is what each revision's handshake showed, `unknown` the
    /// unknown-version session's exchange ([`ask_unknown`]).
    pub(super) async fn latest(
        &mut self,
        answered: &BTreeMap<Revision, Accepted>,
        unknown: UnknownAsked,
    ) -> Result<(), RunError> {
        let endpoint = self.endpoint(None).await?;
        let gathered = Gathered::default();
        let peers = Peers::over(self.config, endpoint.url.as_deref(), &gathered);
        let asked: Vec<Revision> = Revision::MCP
            .into_iter()
            .rev()
            .filter(|r| RULE_LATEST.info().applies_to(*r))
            .collect();
        let (mut newest, mut declined, live) = if matches!(self.config.peer, Peer::Given(_)) {
            known_newest(&asked, answered)
        } else {
            (None, Vec::new(), asked)
        };
        for ask in live {
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
        let (outcome, violations, subject) = match unknown.answered {
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
        let transport = self.config.peer.kind();
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
        record.wire = unknown.wire;
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

    /// The revisions' handshakes stand in for the live sessions only where
    /// they say what a live session would: accepted, or answered with
    /// another version; from a failed one on, the search goes on live.
    #[test]
    fn the_handshakes_already_made_answer_the_newest_first_search() {
        use Revision::{Mcp2024_11_05 as R1, Mcp2025_03_26 as R2, Mcp2025_06_18 as R3};
        let asked = [R3, R2, R1];
        let map = |pairs: &[(Revision, Accepted)]| pairs.iter().cloned().collect();
        let other = || Accepted::Other(R2.name().into());
        assert_eq!(
            known_newest(&asked, &map(&[(R3, other()), (R2, Accepted::Yes)])),
            (Some(R2), vec![R3], vec![])
        );
        assert_eq!(
            known_newest(&asked, &map(&[(R3, Accepted::Yes), (R2, Accepted::No)])),
            (Some(R3), vec![], vec![])
        );
        // A refusal or no answer at all: asked live, from that revision on.
        assert_eq!(
            known_newest(&asked, &map(&[(R3, other()), (R2, Accepted::No)])),
            (None, vec![R3], vec![R2, R1])
        );
        assert_eq!(
            known_newest(&asked, &map(&[])),
            (None, vec![], vec![R3, R2, R1])
        );
        assert_eq!(
            known_newest(&asked, &map(&[(R3, other()), (R2, other()), (R1, other())])),
            (None, vec![R3, R2, R1], vec![])
        );
    }

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
