//! Which revision `wirecheck check` judges a capture under, read from the
//! handshake (MCP 2025-06-18 basic/lifecycle §Version Negotiation: the server's
//! `initialize` result names the version the session uses). Only the answer to
//! `initialize` negotiates: another result that happens to carry a
//! `protocolVersion` member must not switch the rules a capture is judged by.

use harness::session::{answer_revision, detect_revision, negotiated_revision};
use harness::{Direction, Raw, Revision};

#[test]
fn only_the_answer_to_initialize_chooses_the_revision() {
    let init = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#;
    let other = br#"{"jsonrpc":"2.0","id":7,"result":{"protocolVersion":"2025-03-26"}}"#;
    let answer = br#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}"#;
    let (c, s) = (Direction::ClientToServer, Direction::ServerToClient);
    assert_eq!(
        detect_revision([(c, &init[..]), (s, &other[..])]),
        Some(Revision::Mcp2025_06_18)
    );
    assert_eq!(
        detect_revision([(c, &init[..]), (s, &other[..]), (s, &answer[..])]),
        Some(Revision::Mcp2025_11_25)
    );
}

/// The revision a live judge may start judging from is the one the server's
/// `initialize` answer chose; the client's ask alone negotiates nothing.
#[test]
fn only_the_servers_answer_negotiates() {
    let init = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#;
    let answer = br#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-03-26"}}"#;
    let (c, s) = (Direction::ClientToServer, Direction::ServerToClient);
    assert_eq!(negotiated_revision([(c, &init[..])]), None);
    assert_eq!(
        negotiated_revision([(c, &init[..]), (s, &answer[..])]),
        Some(Revision::Mcp2025_03_26)
    );
}

/// 2026-07-28 has no `initialize`: a server that answers one with a result is
/// dual-era and answers as the legacy revision it names, else 2025-11-25 (MCP
/// 2026-07-28 basic/versioning §Compatibility Matrix). Every other answer, and
/// every answer under an earlier revision, keeps the conversation's revision.
#[test]
fn a_2026_initialize_answer_is_judged_as_the_legacy_revision_it_names() {
    let modern = Revision::Mcp2026_07_28;
    let answered = |revision, method, result: &str| {
        answer_revision(revision, method, &Raw::parse(result).unwrap())
    };
    let names = |v: &str| format!(r#"{{"protocolVersion":"{v}"}}"#);
    for legacy in [
        Revision::Mcp2024_11_05,
        Revision::Mcp2025_06_18,
        Revision::Mcp2025_11_25,
    ] {
        assert_eq!(
            answered(modern, "initialize", &names(legacy.name())),
            legacy
        );
    }
    for not_legacy in ["2026-07-28", "jsonrpc-2.0", "1", "2099-01-01"] {
        assert_eq!(
            answered(modern, "initialize", &names(not_legacy)),
            Revision::Mcp2025_11_25,
            "{not_legacy}"
        );
    }
    assert_eq!(
        answered(modern, "initialize", "{}"),
        Revision::Mcp2025_11_25
    );
    assert_eq!(answered(modern, "tools/list", &names("2025-06-18")), modern);
    assert_eq!(
        answered(Revision::Mcp2025_11_25, "initialize", &names("2025-06-18")),
        Revision::Mcp2025_11_25
    );
}
