//! Profiles: plain JSON-RPC 2.0 or one MCP revision, and a direction.

use std::fmt;
use std::str::FromStr;

/// A specification revision a frame is judged under. Ordered oldest first, so
/// `revision >= Revision::Mcp2025_06_18` reads as "from 2025-06-18 on".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Revision {
    /// Plain JSON-RPC 2.0, no MCP rules.
    JsonRpc2,
    /// MCP 2024-11-05.
    Mcp2024_11_05,
    /// MCP 2025-03-26 (adds batches).
    Mcp2025_03_26,
    /// MCP 2025-06-18 (removes batches).
    Mcp2025_06_18,
    /// MCP 2025-11-25.
    Mcp2025_11_25,
    /// MCP 2026-07-28 (stateless: no `initialize`).
    Mcp2026_07_28,
}

impl Revision {
    /// Every revision, oldest first.
    pub const ALL: [Revision; 6] = [
        Revision::JsonRpc2,
        Revision::Mcp2024_11_05,
        Revision::Mcp2025_03_26,
        Revision::Mcp2025_06_18,
        Revision::Mcp2025_11_25,
        Revision::Mcp2026_07_28,
    ];

    /// The MCP revisions, oldest first.
    pub const MCP: [Revision; 5] = [
        Revision::Mcp2024_11_05,
        Revision::Mcp2025_03_26,
        Revision::Mcp2025_06_18,
        Revision::Mcp2025_11_25,
        Revision::Mcp2026_07_28,
    ];

    /// The name used on the command line and in vectors: `jsonrpc-2.0` or the
    /// MCP revision's date.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Revision::JsonRpc2 => "jsonrpc-2.0",
            Revision::Mcp2024_11_05 => "2024-11-05",
            Revision::Mcp2025_03_26 => "2025-03-26",
            Revision::Mcp2025_06_18 => "2025-06-18",
            Revision::Mcp2025_11_25 => "2025-11-25",
            Revision::Mcp2026_07_28 => "2026-07-28",
        }
    }

    /// Whether this is an MCP revision.
    #[must_use]
    pub fn is_mcp(self) -> bool {
        self != Revision::JsonRpc2
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Revision {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Revision::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Revision::ALL.iter().map(|r| r.name()).collect();
                format!(
                    "unknown revision `{s}`; expected one of {}",
                    names.join(", ")
                )
            })
    }
}

/// Who sent a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// A client sent it to a server.
    ClientToServer,
    /// A server sent it to a client.
    ServerToClient,
}

impl Direction {
    /// The other way: who answers a frame sent this way.
    #[must_use]
    pub const fn reverse(self) -> Self {
        match self {
            Direction::ClientToServer => Direction::ServerToClient,
            Direction::ServerToClient => Direction::ClientToServer,
        }
    }

    /// `client` or `server`: who sent the frame.
    #[must_use]
    pub fn sender(self) -> &'static str {
        match self {
            Direction::ClientToServer => "client",
            Direction::ServerToClient => "server",
        }
    }
}

impl FromStr for Direction {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "client" | "client->server" => Ok(Direction::ClientToServer),
            "server" | "server->client" => Ok(Direction::ServerToClient),
            _ => Err(format!(
                "unknown sender `{s}`; expected `client` or `server`"
            )),
        }
    }
}

/// What a frame is judged under: a revision and who sent it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Profile {
    /// The revision.
    pub revision: Revision,
    /// Who sent the frame.
    pub direction: Direction,
}
