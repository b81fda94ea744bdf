//! Which rules one frame or one exchange can show (`CheckedBy::is_per_frame`):
//! MCP 2025-06-18 server/tools §List Changed Notification (SHOULD: a server
//! whose tool list changes sends `notifications/tools/list_changed`) takes two
//! list answers to see, so it is the session judge's, not a per-frame rule;
//! JSON-RPC 2.0 §4 (`"jsonrpc"` MUST be exactly "2.0") is seen in one frame.

use harness::rules::{self, CheckedBy};

#[test]
fn only_codec_frame_and_reply_checks_are_per_frame() {
    for (check, per_frame) in [
        (CheckedBy::Codec, true),
        (CheckedBy::Frame, true),
        (CheckedBy::Reply, true),
        (CheckedBy::Session, false),
        (CheckedBy::Transport, false),
        (CheckedBy::Runner, false),
        (CheckedBy::Unchecked("not on the wire"), false),
    ] {
        assert_eq!(check.is_per_frame(), per_frame, "{check:?}");
    }
}

#[test]
fn a_session_rule_is_not_one_a_single_frame_shows() {
    let changed = rules::rule("mcp.lists.changed-notification").expect("a catalogued rule");
    assert_eq!(changed.check, CheckedBy::Session);
    assert!(!changed.check.is_per_frame());
}
