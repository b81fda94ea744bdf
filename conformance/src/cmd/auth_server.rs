//! `wirecheck auth-server`: the local authorization server, standalone.

use super::Exit;

/// Run wirecheck's local OAuth authorization server on 127.0.0.1.
///
/// Prints its issuer URL (`http://127.0.0.1:PORT`) on stdout and serves until
/// killed: RFC 8414 metadata at /.well-known/oauth-authorization-server, its
/// JWKS at /jwks (ES256), /authorize (authorization code with PKCE S256,
/// consent given at once, loopback or https redirect URIs), /token, and
/// /wirecheck/mint, where `wirecheck run --auth` takes the tokens it probes
/// with. Configure the MCP server under test to trust this issuer (its JWKS,
/// audience = the server's own URL), then `wirecheck run --http URL --auth
/// --auth-issuer http://127.0.0.1:PORT`. It mints any token it is asked for:
/// a test server, loopback only, never one to trust outside a test.
///
/// Exit codes: 2 when it cannot bind.
#[derive(clap::Args)]
pub struct Args {
    /// The loopback port to listen on; 0 picks one.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub port: u16,
}

/// Runs `wirecheck auth-server`.
pub fn run(args: &Args) -> Exit {
    match crate::auth::server::run(args.port) {
        Ok(()) => Exit::Clean,
        Err(e) => {
            eprintln!("wirecheck auth-server: {e}");
            Exit::Trouble
        }
    }
}
