//! The session rules the catalogue lacked: what only a whole conversation can
//! show (an answer given twice, an answer to an id nobody sent, a batch's
//! answers in any order). Same shape as `catalogue.rs`; the session judge
//! ([`crate::session`]) checks every row, so each is marked `Session` with that
//! reason until the rule ids become typed and `Check` gains a kind for it.
//!
//! Rules the catalogue already has are not repeated here: a notification
//! answered is `jsonrpc.notification.no-reply` / `mcp.base.notification-no-response`,
//! progress is `mcp.progress.*`, cancellation `mcp.cancel.*`, id reuse
//! `mcp.base.id-unique-*`.

use super::{Check, Level, Revisions, RuleInfo};
use crate::profile::Revision;

/// Why each row is `Session`: the judge checks it.
const JUDGE: Check = Check::Session("checked by the session judge, harness::session");

/// Plain JSON-RPC 2.0 and 2025-03-26: the profiles where batches exist.
const BATCHES: Revisions =
    Revisions::only(Revision::JsonRpc2).with(Revisions::only(Revision::Mcp2025_03_26));

/// The rows, in the order reports list them.
pub(super) const RULES: &[RuleInfo] = &[
    RuleInfo {
        id: "session.response.duplicate",
        level: Level::Must,
        spec: "JSON-RPC 2.0 §5 | 2025-11-25: JSON-RPC 2.0 §5; MCP basic/index §Messages › Responses",
        quote: "When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications. (\"a Response\": one. MCP basic/index: \"Responses are sent in reply to requests\". wirecheck's stance: a second answer to an id already answered replies to no call and breaks this rule.)",
        revisions: Revisions::ALL,
        check: JUDGE,
    },
    RuleInfo {
        id: "session.response.unknown-id",
        level: Level::Must,
        spec: "JSON-RPC 2.0 §5",
        quote: "id: This member is REQUIRED. It MUST be the same as the value of the id member in the Request Object. (An answer whose id no request of the other side ever carried echoes no request's id.)",
        revisions: Revisions::ALL,
        check: JUDGE,
    },
    RuleInfo {
        id: "session.id.reused-inflight",
        level: Level::ShouldNot,
        spec: "JSON-RPC 2.0 §6",
        quote: "The Client SHOULD match contexts between the set of Request objects and the resulting set of Response objects based on the id member within each Object. (JSON-RPC 2.0 has no uniqueness rule; two requests in flight with one id cannot be told apart by their answers, so wirecheck reports the reuse at SHOULD NOT. MCP revisions forbid it outright: mcp.base.id-unique-session, mcp.base.id-unique-inflight.)",
        revisions: Revisions::only(Revision::JsonRpc2),
        check: JUDGE,
    },
    RuleInfo {
        id: "session.batch.any-order",
        level: Level::May,
        spec: "JSON-RPC 2.0 §6",
        quote: "The Response objects being returned from a batch call MAY be returned in any order within the Array. The Client SHOULD match contexts between the set of Request objects and the resulting set of Response objects based on the id member within each Object. (Never a finding: the judge pairs every answer in a batch by id, so an answer out of order is conformant and one matching no request is session.response.unknown-id.)",
        revisions: BATCHES,
        check: JUDGE,
    },
];
