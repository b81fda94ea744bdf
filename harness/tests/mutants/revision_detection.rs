//! Which revision `wirecheck check` judges a capture under, read from the
//! handshake (MCP 2025-06-18 basic/lifecycle §Version Negotiation: the server's
//! `initialize` result names the version the session uses). Only the answer to
//! `initialize` negotiates: another result that happens to carry a
//! `protocolVersion` member must not switch the rules a capture is judged by.

use harness::session::detect_revision;
use harness::{Direction, Revision};

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
