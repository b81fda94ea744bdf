//! JSON-RPC 2.0 over HTTP (`--profile jsonrpc-2.0` with an HTTP peer): what
//! no frame shows, the bodies a POST was answered with. A response body is
//! never `null` (JSON-RPC 2.0 §4.1) nor `[]` (§6).

use harness::rules::RuleId;

use super::{describe, Filer};
use crate::transport::http::{FindingKind, HttpFact, HttpFinding};

impl Filer {
    /// JSON-RPC over HTTP: a response body is never `null` (§4.1) nor `[]`
    /// (§6). Evidence is a response body.
    pub(super) fn jsonrpc_bodies(&mut self, facts: &[&HttpFact], findings: &[&HttpFinding]) {
        // Evidence is a response body: without one, nothing was seen
        // that could have been `null` or `[]` (never a pass).
        let bodies = facts
            .iter()
            .filter(|f| f.method == "POST")
            .map(|f| f.frames)
            .sum::<usize>();
        for (rule, finding) in [
            (RuleId::JsonRpcHttpNullBody, FindingKind::NullBody),
            (
                RuleId::JsonRpcHttpEmptyArrayBody,
                FindingKind::EmptyBatchBody,
            ),
        ] {
            let broken: Vec<String> = findings
                .iter()
                .filter(|f| f.kind == finding)
                .map(|f| describe(f))
                .collect();
            if bodies + broken.len() == 0 {
                self.not_observed(rule, "no POST was answered with a body".into());
            } else {
                let seen = vec![format!("{} response bodies", bodies + broken.len())];
                self.verdict(rule, broken, seen);
            }
        }
    }
}
