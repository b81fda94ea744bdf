//! `--revision` and `--profile`, parsed once for every command into typed
//! values. `harness::Revision` is foreign to this crate, so it is offered to
//! clap through value parsers over its own names (`Revision::name`) rather
//! than `clap::ValueEnum`; `--help` lists the same possible values either way.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use harness::Revision;

use crate::peer::Serve;

/// `--profile`: which protocol a command speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProfileName {
    /// Plain JSON-RPC 2.0: no handshake, no MCP method.
    #[value(name = "jsonrpc-2.0")]
    JsonRpc2,
    /// The Model Context Protocol (the default).
    Mcp,
}

/// What a `--revision` of `run` names: one MCP revision, what the peer
/// answers, or every revision the peer accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RevisionChoice {
    /// Every MCP revision the peer accepts.
    All,
    /// The revision the peer answers `initialize` with.
    Auto,
    /// Exactly this one.
    Given(Revision),
}

impl RevisionChoice {
    /// As the user wrote it: a revision's name, `auto` or `all`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            RevisionChoice::All => "all",
            RevisionChoice::Auto => "auto",
            RevisionChoice::Given(r) => r.name(),
        }
    }
}

/// The MCP revisions' names, oldest first.
fn mcp_names() -> impl Iterator<Item = &'static str> {
    Revision::MCP.into_iter().map(Revision::name)
}

/// One MCP revision (`2025-06-18`): the live commands that play one.
#[must_use]
pub fn mcp_revision() -> impl TypedValueParser<Value = Revision> {
    PossibleValuesParser::new(mcp_names()).try_map(|name| name.parse::<Revision>())
}

/// An MCP revision, `auto` or `all` (`run --revision`).
#[must_use]
pub fn revision_choice() -> impl TypedValueParser<Value = RevisionChoice> {
    let names = mcp_names().chain(["auto", "all"]);
    PossibleValuesParser::new(names).try_map(|name| match name.as_str() {
        "all" => Ok(RevisionChoice::All),
        "auto" => Ok(RevisionChoice::Auto),
        name => name.parse().map(RevisionChoice::Given),
    })
}

/// What a `--revision` of a command that judges what it reads (`check`,
/// `proxy`) names: any revision, `jsonrpc-2.0` included, or `auto`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadRevision {
    /// Read it from the conversation.
    Auto,
    /// Judge under this one.
    Fixed(Revision),
}

impl ReadRevision {
    /// The revision fixed by the user, if any.
    #[must_use]
    pub fn fixed(self) -> Option<Revision> {
        match self {
            ReadRevision::Auto => None,
            ReadRevision::Fixed(r) => Some(r),
        }
    }
}

/// Any revision (`jsonrpc-2.0` included) or `auto` ([`ReadRevision`]).
#[must_use]
pub fn revision_or_auto() -> impl TypedValueParser<Value = ReadRevision> {
    let names = Revision::ALL
        .into_iter()
        .map(Revision::name)
        .chain(["auto"]);
    PossibleValuesParser::new(names).try_map(|name| match name.as_str() {
        "auto" => Ok(ReadRevision::Auto),
        name => name.parse().map(ReadRevision::Fixed),
    })
}

/// What `serve`'s `--profile` and `--revision` select: `--profile
/// jsonrpc-2.0` (or `--revision jsonrpc-2.0`) for plain JSON-RPC 2.0,
/// `--revision R` for MCP at exactly R, neither for MCP with the revision
/// negotiated.
///
/// # Errors
/// `--profile jsonrpc-2.0` with an MCP revision.
pub fn served(profile: Option<ProfileName>, revision: Option<Revision>) -> Result<Serve, String> {
    match (profile, revision) {
        (Some(ProfileName::JsonRpc2), None | Some(Revision::JsonRpc2))
        | (None, Some(Revision::JsonRpc2)) => Ok(Serve::JsonRpc),
        (Some(ProfileName::JsonRpc2), Some(r)) => Err(format!(
            "--profile jsonrpc-2.0 has no MCP revision; drop --revision {r}"
        )),
        (Some(ProfileName::Mcp) | None, None) => Ok(Serve::Negotiate),
        (Some(ProfileName::Mcp) | None, Some(r)) => Ok(Serve::Mcp(r)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser as _;

    #[derive(clap::Parser)]
    struct Probe {
        #[arg(long, value_parser = revision_choice())]
        choice: Option<RevisionChoice>,
        #[arg(long, value_parser = mcp_revision())]
        mcp: Option<Revision>,
        #[arg(long, value_parser = revision_or_auto())]
        any: Option<ReadRevision>,
        #[arg(long, value_enum)]
        profile: Option<ProfileName>,
    }

    fn parse(args: &[&str]) -> Result<Probe, clap::Error> {
        Probe::try_parse_from(std::iter::once("p").chain(args.iter().copied()))
    }

    #[test]
    fn revisions_parse_into_their_choices() {
        let choice = |s| parse(&["--choice", s]).map(|p| p.choice.unwrap());
        assert_eq!(choice("all").unwrap(), RevisionChoice::All);
        assert_eq!(choice("auto").unwrap(), RevisionChoice::Auto);
        assert_eq!(
            choice("2025-06-18").unwrap(),
            RevisionChoice::Given(Revision::Mcp2025_06_18)
        );
        assert!(choice("jsonrpc-2.0").is_err(), "not an MCP revision");
        assert!(choice("2025-06-19").is_err());

        let mcp = |s| parse(&["--mcp", s]).map(|p| p.mcp.unwrap());
        assert_eq!(mcp("2026-07-28").unwrap(), Revision::Mcp2026_07_28);
        assert!(mcp("auto").is_err());
        assert!(mcp("jsonrpc-2.0").is_err());

        let any = |s| parse(&["--any", s]).map(|p| p.any.unwrap().fixed());
        assert_eq!(any("auto").unwrap(), None);
        assert_eq!(any("jsonrpc-2.0").unwrap(), Some(Revision::JsonRpc2));
        assert!(any("all").is_err());
    }

    #[test]
    fn a_refused_revision_names_the_possible_ones() {
        let error = parse(&["--mcp", "2025-06-19"]).err().unwrap().to_string();
        for r in Revision::MCP {
            assert!(error.contains(r.name()), "{error}");
        }
    }

    #[test]
    fn profiles_and_revisions_choose_what_is_served() {
        let profile = |s| parse(&["--profile", s]).map(|p| p.profile.unwrap());
        assert_eq!(profile("jsonrpc-2.0").unwrap(), ProfileName::JsonRpc2);
        assert_eq!(profile("mcp").unwrap(), ProfileName::Mcp);
        assert!(profile("grpc").is_err());

        assert_eq!(served(None, None), Ok(Serve::Negotiate));
        assert_eq!(
            served(Some(ProfileName::JsonRpc2), None),
            Ok(Serve::JsonRpc)
        );
        assert_eq!(
            served(None, Some(Revision::Mcp2025_03_26)),
            Ok(Serve::Mcp(Revision::Mcp2025_03_26))
        );
        assert!(served(Some(ProfileName::JsonRpc2), Some(Revision::Mcp2025_03_26)).is_err());
    }
}
