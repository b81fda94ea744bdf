//! Where the peer a command judges is: the one type `run`, `fuzz`, `load`
//! and `diff` name a peer by (`--stdio CMD` or `--http URL`), with the one
//! spelling of its transport ([`Kind::name`]) in every record.

use super::stdio::PeerCommand;
use super::{HttpKind, Kind};

/// A peer a command reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A command started afresh for each session, spoken to over stdio.
    Stdio(PeerCommand),
    /// An endpoint of a server already listening: the MCP endpoint (each
    /// session opened with its handshake, ended with DELETE), the HTTP+SSE
    /// stream, or a JSON-RPC URL.
    Http {
        /// The URL.
        url: String,
        /// Which HTTP transport it speaks.
        kind: HttpKind,
    },
}

impl Target {
    /// An MCP endpoint spoken to over Streamable HTTP.
    #[must_use]
    pub fn streamable(url: impl Into<String>) -> Target {
        Target::Http {
            url: url.into(),
            kind: HttpKind::Streamable,
        }
    }

    /// The transport spoken.
    #[must_use]
    pub fn kind(&self) -> Kind {
        match self {
            Target::Stdio(_) => Kind::Stdio,
            Target::Http { kind, .. } => Kind::Http(*kind),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One spelling per transport whatever the command: `fuzz` once wrote
    /// `http` where `run` wrote `streamable-http`.
    #[test]
    fn every_command_names_a_transport_alike() {
        assert_eq!(
            Target::streamable("http://h/mcp").kind().name(),
            "streamable-http"
        );
        let sse = Target::Http {
            url: "http://h/sse".into(),
            kind: HttpKind::Sse,
        };
        assert_eq!(sse.kind().name(), "sse");
        let stdio = Target::Stdio(PeerCommand::new("x", Vec::new()));
        assert_eq!(stdio.kind().name(), "stdio");
    }
}
