//! `serve --http --judge --auth` (and `run-client --transport http --auth`):
//! the judged peer made a protected resource, with wirecheck's own
//! authorization server beside it on loopback, both recording what the
//! client does ([`observed`](crate::auth::observed)); at the end
//! [`client_judge`](crate::auth::client_judge) turns that into the client-side
//! `mcp.auth.client-*` records.
//!
//! What the judged setup offers a client, so each rule has something to see:
//! the 401 names a metadata URL of its own (`/wirecheck/resource-metadata`,
//! beside the two well-known URIs) and a scope set larger than the
//! metadata's `scopes_supported`; `tools/call` needs one more scope,
//! `wirecheck:step-up`, asked for with 403 `insufficient_scope`.

use std::net::SocketAddr;

use harness::Revision;

use crate::auth::client_judge::{self, Setup};
use crate::auth::issuer::SCOPE;
use crate::auth::observed::Log;
use crate::auth::resource::{Judging, Protection};
use crate::auth::server::{AuthServer, Observing};
use crate::peer::http::Server;
use crate::report::Record;

/// The path of the metadata URL a judged peer's 401 names.
pub const CHALLENGE_PATH: &str = "/wirecheck/resource-metadata";
/// The scope only the 401 names, beside [`SCOPE`].
pub const CHALLENGED: &str = "wirecheck:challenged";
/// The scope `tools/call` needs.
pub const STEP_UP: &str = "wirecheck:step-up";

/// A variation of the judged setup that tests one more thing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scenario {
    /// The authorization server never grants `wirecheck:step-up`: a client
    /// stepping up is refused again each time (mcp.auth.client-retry-limit).
    StepUpRefused,
    /// The authorization server's metadata leaves out
    /// `code_challenge_methods_supported` (mcp.auth.client-pkce-refuse).
    NoPkceMetadata,
    /// The authorization server's redirects name another issuer in `iss`
    /// (mcp.auth.client-iss).
    WrongIss,
}

/// The issuer a `wrong-iss` redirect names.
pub const WRONG_ISS: &str = "https://wirecheck-other-issuer.invalid";

/// A judged peer's authorization: what it recorded, and how to read it.
pub struct Judged {
    log: Log,
    setup: Setup,
}

/// Protects `server` (bound judged, not yet serving) for judging the
/// client's authorization, and binds the authorization server it trusts on
/// a loopback port; the caller serves that one too (it is returned).
pub async fn protect(
    server: &mut Server,
    scenario: Option<Scenario>,
) -> Result<(Judged, AuthServer), String> {
    let log = Log::default();
    let issuing = AuthServer::bind_observing(
        SocketAddr::from(([127, 0, 0, 1], 0)),
        Observing {
            log: Some(log.clone()),
            no_pkce_metadata: scenario == Some(Scenario::NoPkceMetadata),
            withhold: (scenario == Some(Scenario::StepUpRefused)).then(|| STEP_UP.to_owned()),
            wrong_iss: (scenario == Some(Scenario::WrongIss)).then(|| WRONG_ISS.to_owned()),
        },
    )
    .await?;
    let keys = serde_json::from_value(issuing.jwks()).map_err(|e| e.to_string())?;
    let audience = server.mcp_url();
    let origin = format!("http://{}", server.addr);
    let challenge_scopes = format!("{SCOPE} {CHALLENGED}");
    server.protect(Protection {
        issuer: issuing.issuer_url(),
        audience: audience.clone(),
        metadata_url: format!("{origin}{CHALLENGE_PATH}"),
        keys,
        defect: None,
        judging: Some(Judging {
            log: log.clone(),
            challenge_scopes: challenge_scopes.clone(),
            step_up: STEP_UP.to_owned(),
        }),
    });
    let setup = Setup {
        server_url: audience,
        challenge_path: CHALLENGE_PATH.to_owned(),
        challenge_scopes: challenge_scopes.split(' ').map(str::to_owned).collect(),
        no_pkce_metadata: scenario == Some(Scenario::NoPkceMetadata),
        wrong_iss: scenario == Some(Scenario::WrongIss),
    };
    Ok((Judged { log, setup }, issuing))
}

impl Judged {
    /// The client-side authorization records, judged under `revision`.
    #[must_use]
    pub fn records(&self, revision: Revision) -> Vec<Record> {
        client_judge::judge(&self.log.events(), &self.setup, revision)
    }
}

/// The revision the authorization records are judged under: the one served
/// (`--revision`), else the one the client's sessions were judged under,
/// else the `MCP-Protocol-Version` its first requests carried (a client
/// refused before any session still names it, from 2025-06-18 on every
/// request after `initialize` and on every 2026-07-28 request), else
/// 2025-11-25 (the newest with the handshake both SDK clients speak): the
/// authorization flow happens before any session, so it names none.
#[must_use]
pub fn revision(fixed: Option<Revision>, records: &[Record], judged: Option<&Judged>) -> Revision {
    let sent = || {
        judged?.log.events().iter().find_map(|e| match e {
            crate::auth::observed::Event::Resource {
                protocol_version: Some(v),
                ..
            } => Revision::MCP.into_iter().find(|r| r.name() == v.trim()),
            _ => None,
        })
    };
    fixed
        .filter(|r| r.is_mcp())
        .or_else(|| records.iter().find_map(|r| r.place.revision))
        .or_else(sent)
        .unwrap_or(Revision::Mcp2025_11_25)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::observed::Event;

    fn judged_with(version: Option<&str>) -> Judged {
        let log = Log::default();
        log.push(Event::Resource {
            method: "POST".into(),
            path: "/mcp".into(),
            query: None,
            authorization: None,
            protocol_version: version.map(str::to_owned),
            status: 401,
            challenge: None,
            refused: None,
        });
        Judged {
            log,
            setup: Setup {
                server_url: "http://127.0.0.1:9/mcp".into(),
                challenge_path: CHALLENGE_PATH.into(),
                challenge_scopes: vec![SCOPE.into()],
                no_pkce_metadata: false,
                wrong_iss: false,
            },
        }
    }

    #[test]
    fn the_revision_is_the_fixed_one_then_the_sessions_then_the_header_then_2025_11_25() {
        let r5 = judged_with(Some("2026-07-28"));
        assert_eq!(revision(None, &[], Some(&r5)), Revision::Mcp2026_07_28);
        assert_eq!(
            revision(Some(Revision::Mcp2025_06_18), &[], Some(&r5)),
            Revision::Mcp2025_06_18
        );
        let session = Record::new(
            crate::report::Place {
                revision: Some(Revision::Mcp2025_03_26),
                ..crate::report::Place::default()
            },
            crate::report::Subject::Frame(Vec::new()),
            harness::Outcome::Pass,
        );
        assert_eq!(
            revision(None, &[session], Some(&r5)),
            Revision::Mcp2025_03_26
        );
        let unnamed = judged_with(Some("not-a-revision"));
        assert_eq!(revision(None, &[], Some(&unnamed)), Revision::Mcp2025_11_25);
        assert_eq!(revision(None, &[], None), Revision::Mcp2025_11_25);
    }
}
