//! Profiles as a user spells them on the command line and in vectors
//! (`--revision 2025-06-18`, `--from server`): each spelling must name the profile
//! it says, or the frame is judged under another revision's rules.

use harness::{Direction, Revision};

#[test]
fn every_revision_is_spelled_as_its_spec_is_dated_and_parses_back() {
    let names: Vec<String> = Revision::ALL.iter().map(Revision::to_string).collect();
    assert_eq!(
        names,
        [
            "jsonrpc-2.0",
            "2024-11-05",
            "2025-03-26",
            "2025-06-18",
            "2025-11-25",
            "2026-07-28"
        ]
    );
    for revision in Revision::ALL {
        assert_eq!(revision.name().parse::<Revision>(), Ok(revision));
        // Only plain JSON-RPC 2.0 is judged without MCP's rules.
        assert_eq!(
            revision.is_mcp(),
            revision != Revision::JsonRpc2,
            "{revision}"
        );
    }
    let unknown = "2025-01-01".parse::<Revision>().unwrap_err();
    assert!(unknown.contains("2025-01-01"), "{unknown}");
    assert!(unknown.contains("2026-07-28"), "{unknown}");
}

#[test]
fn the_sender_parses_in_both_spellings_and_nothing_else() {
    for (spelling, direction) in [
        ("client", Direction::ClientToServer),
        ("client->server", Direction::ClientToServer),
        ("server", Direction::ServerToClient),
        ("server->client", Direction::ServerToClient),
    ] {
        assert_eq!(spelling.parse::<Direction>(), Ok(direction), "{spelling}");
    }
    assert_eq!(Direction::ClientToServer.sender(), "client");
    assert_eq!(Direction::ServerToClient.sender(), "server");
    let wrong = "peer".parse::<Direction>().unwrap_err();
    assert!(wrong.contains("`peer`"), "{wrong}");
}
