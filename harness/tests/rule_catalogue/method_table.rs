//! `harness::rules::schema::methods()`, the method table the reference peer
//! and the live fuzzer read (generated from each revision's `schema.json`):
//! every revision's methods with their senders, as the schemas' `ClientRequest`,
//! `ServerRequest`, `ClientNotification` and `ServerNotification` unions list
//! them. MCP 2026-07-28 basic/lifecycle replaces `initialize` with
//! `server/discover` and per-request `_meta`; 2025-11-25 brings tasks.

use harness::rules::schema::{methods, Kind, Sender};
use harness::Revision;

/// Whether the table defines `method` sent by `sender` as `kind` in `revision`.
fn defines(revision: Revision, sender: Sender, kind: Kind, method: &str) -> bool {
    methods().iter().any(|m| {
        m.revision == revision && m.sender == sender && m.kind == kind && m.method == method
    })
}

#[test]
fn every_revision_has_its_methods_and_senders() {
    for revision in Revision::MCP {
        for method in [
            "tools/list",
            "tools/call",
            "resources/read",
            "prompts/get",
            "completion/complete",
        ] {
            assert!(
                defines(revision, Sender::Client, Kind::Request, method),
                "{revision:?} {method}"
            );
            assert!(
                !defines(revision, Sender::Server, Kind::Request, method),
                "{revision:?} {method}"
            );
        }
        assert!(
            defines(
                revision,
                Sender::Server,
                Kind::Notification,
                "notifications/message"
            ),
            "{revision:?}"
        );
        let legacy = revision != Revision::Mcp2026_07_28;
        assert_eq!(
            defines(revision, Sender::Client, Kind::Request, "initialize"),
            legacy,
            "{revision:?}"
        );
        assert_eq!(
            defines(revision, Sender::Client, Kind::Request, "server/discover"),
            !legacy,
            "{revision:?}"
        );
        assert_eq!(
            defines(revision, Sender::Server, Kind::Request, "roots/list"),
            legacy,
            "{revision:?}"
        );
    }
    for revision in [Revision::Mcp2025_11_25, Revision::Mcp2026_07_28] {
        assert_eq!(
            defines(revision, Sender::Client, Kind::Request, "tasks/get"),
            revision == Revision::Mcp2025_11_25,
            "{revision:?}"
        );
    }
    assert_eq!(methods().len(), 140);
}
