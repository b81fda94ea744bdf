//! `wirecheck serve`: the reference peer over stdio.

use harness::Revision;

use super::Exit;
use crate::peer::{stdio, Peer, Serve};

/// What `--profile` and `--revision` select: `--profile jsonrpc-2.0` (or
/// `--revision jsonrpc-2.0`) for plain JSON-RPC 2.0, `--revision R` for MCP at
/// exactly R, neither for MCP with the revision negotiated.
pub fn choose(profile: Option<&str>, revision: Option<Revision>) -> Result<Serve, String> {
    match (profile, revision) {
        (Some("jsonrpc-2.0"), None | Some(Revision::JsonRpc2))
        | (None, Some(Revision::JsonRpc2)) => Ok(Serve::JsonRpc),
        (Some("jsonrpc-2.0"), Some(r)) => Err(format!(
            "--profile jsonrpc-2.0 has no MCP revision; drop --revision {r}"
        )),
        (Some("mcp") | None, None) => Ok(Serve::Negotiate),
        (Some("mcp") | None, Some(r)) => Ok(Serve::Mcp(r)),
        (Some(other), _) => Err(format!(
            "unknown profile `{other}`; expected `jsonrpc-2.0` or `mcp`"
        )),
    }
}

/// Serves on standard input and output until end of input.
pub fn main(serve: Serve, max_frame: usize) -> Exit {
    let mut peer = Peer::new(serve);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut input = std::io::BufReader::with_capacity(1 << 16, stdin.lock());
    let mut output = stdout.lock();
    match stdio::serve(&mut peer, &mut input, &mut output, max_frame) {
        Ok(()) => Exit::Clean,
        Err(e) => {
            eprintln!("wirecheck serve: {e}");
            Exit::Trouble
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_and_revision() {
        assert_eq!(choose(None, None), Ok(Serve::Negotiate));
        assert_eq!(choose(Some("jsonrpc-2.0"), None), Ok(Serve::JsonRpc));
        assert_eq!(
            choose(None, Some(Revision::Mcp2025_03_26)),
            Ok(Serve::Mcp(Revision::Mcp2025_03_26))
        );
        assert!(choose(Some("jsonrpc-2.0"), Some(Revision::Mcp2025_03_26)).is_err());
        assert!(choose(Some("grpc"), None).is_err());
    }
}
