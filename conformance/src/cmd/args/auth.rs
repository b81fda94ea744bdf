//! `--auth` and `--auth-issuer` of the commands that load or replay an
//! OAuth-protected server with a valid token (`run --auth`, which judges the
//! server as a resource server, has its own).

use std::time::Duration;

use harness::Revision;

use crate::transport::Target;

/// The token a load of an OAuth-protected server carries (`load`, and
/// `replay` of what it saved).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct AuthArgs {
    /// The server at --http URL is an OAuth-protected resource: every
    /// request carries a valid token as `Authorization: Bearer`, minted by
    /// wirecheck's own authorization server (the one the server's Protected
    /// Resource Metadata names, or --auth-issuer), which the server must
    /// trust (`wirecheck auth-server`). The server is not judged as a
    /// resource server here: `wirecheck run --auth` does that.
    #[arg(long, requires = "http")]
    pub auth: bool,
    /// With --auth, the issuer URL of the `wirecheck auth-server` the server
    /// trusts, instead of the one its Protected Resource Metadata names.
    #[arg(long, value_name = "URL", requires = "auth")]
    pub auth_issuer: Option<String>,
}

impl AuthArgs {
    /// The valid token of a run against `target` under `revision`, when
    /// --auth asks for one (found and minted as `run --auth` does).
    ///
    /// # Errors
    /// The server names no authorization server, or one that is not
    /// wirecheck's or not on this machine.
    pub fn bearer(
        &self,
        runtime: &tokio::runtime::Runtime,
        target: &Target,
        revision: Revision,
        timeout: Duration,
    ) -> Result<Option<String>, String> {
        let Target::Http { url, .. } = target else {
            return Ok(None);
        };
        if !self.auth {
            return Ok(None);
        }
        let ready = runtime.block_on(crate::auth::client::prepare(
            url,
            self.auth_issuer.as_deref(),
            revision,
            timeout,
        ))?;
        Ok(Some(ready.tokens.valid))
    }
}
