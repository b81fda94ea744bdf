//! The arguments commands share, parsed in one place so that no command
//! imports another: where frames come from and where the report goes, the
//! live peer, durations, revisions and profiles, the report files, a bearer
//! token, how HTTP reaches a server (TLS trust, the user's headers), a
//! stdio server's environment and directory ([`ServerEnv`]), client
//! scenarios, and the one parser of a sender (`client` /
//! `server`) into [`harness::Direction`].

mod auth;
mod durations;
mod files;
mod pace;
mod reach;
mod revision;
mod scenario;
mod server_env;

pub use auth::AuthArgs;
pub(crate) use durations::{answer_timeout, duration, positive_duration};
pub use files::ReportFiles;
pub use pace::{is_loopback, notice, PaceArgs, POLITE_RATE, RETRY_CAP};
pub use reach::{redacted_argv, shown_url, HeaderArg, ReachArgs, ServeTlsArgs};
pub use revision::{
    mcp_revision, revision_choice, revision_or_auto, served, ProfileName, ReadRevision,
    RevisionChoice,
};
pub(crate) use scenario::scenario_names;
pub use scenario::{selected, ScenarioChoice};
pub use server_env::ServerEnv;

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use harness::Direction;

use crate::lines::Inputs;
use crate::transport::stdio::PeerCommand;
use crate::transport::Target;

/// Where the frames come from.
#[derive(Debug, Clone, clap::Args)]
pub struct InputArgs {
    /// Files of frames, one frame per line; `-` or none for standard input.
    pub files: Vec<PathBuf>,
    /// The largest frame accepted, in bytes; a longer line is refused with
    /// `json.frame-too-large` and skipped without being held in memory.
    #[arg(long, default_value_t = harness::Limits::DEFAULT_MAX_FRAME_BYTES, value_name = "BYTES")]
    pub max_frame: usize,
}

impl InputArgs {
    /// The reader's view of these arguments.
    #[must_use]
    pub fn inputs(&self) -> Inputs {
        Inputs {
            files: self.files.clone(),
            max_frame: self.max_frame,
        }
    }
}

/// The live peer `fuzz`, `load` and `replay` talk to: a command over stdio
/// (in the environment and directory `--env` and `--cwd` give), a
/// Streamable HTTP endpoint, or by default this binary's own `serve`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PeerArgs {
    /// The server, as one shell-like line, started afresh for each session;
    /// default this binary's `serve`.
    #[arg(long, value_name = "CMD ARGS…", conflicts_with = "http")]
    pub stdio: Option<String>,
    /// The MCP endpoint of a running server (Streamable HTTP), instead of
    /// `--stdio`: each session a new one, ended with DELETE.
    #[arg(long, value_name = "URL", conflicts_with = "server_env")]
    pub http: Option<String>,
    /// TLS trust and the user's headers for --http.
    #[command(flatten)]
    pub reach: ReachArgs,
    /// The stdio server's environment and directory.
    #[command(flatten)]
    pub server: ServerEnv,
}

impl PeerArgs {
    /// Whether the peer is this binary's own `serve` (neither was given).
    #[must_use]
    pub fn is_reference(&self) -> bool {
        self.stdio.is_none() && self.http.is_none()
    }

    /// How every HTTP client reaches `--http`'s server.
    ///
    /// # Errors
    /// A `--cacert` that does not load, or these given without `--http`.
    pub fn http_options(&self) -> Result<crate::transport::http::HttpOptions, String> {
        self.reach.need_http(self.http.is_some())?;
        self.reach.options()
    }

    /// The peer: `--http URL`, `--stdio CMD`, or this binary's own `serve`.
    ///
    /// # Errors
    /// `--stdio`'s line does not parse, this binary cannot be found, or
    /// `--cwd` names no directory.
    pub fn target(&self) -> Result<Target, String> {
        match &self.http {
            Some(url) => Ok(Target::streamable(url)),
            None => self
                .server
                .apply(peer_command(self.stdio.as_deref())?)
                .map(Target::Stdio),
        }
    }
}

/// The peer command: `--stdio`'s line, or this binary's own `serve`.
pub(crate) fn peer_command(stdio: Option<&str>) -> Result<PeerCommand, String> {
    match stdio {
        Some(line) => PeerCommand::parse(line).map_err(|e| e.to_string()),
        None => {
            let exe = std::env::current_exe()
                .map_err(|e| format!("cannot find this binary to start `serve`: {e}"))?;
            Ok(PeerCommand::new(exe, vec!["serve".into()]))
        }
    }
}

/// Where the report goes.
#[derive(Debug, Clone, clap::Args)]
pub struct OutputArgs {
    /// What standard output carries: `json` (one JSON object per line, for
    /// scripts; the default of roundtrip, classify and check) or `terminal`
    /// (for people, the default of run; coloured on a terminal unless
    /// NO_COLOR is set).
    #[arg(long, value_enum, default_value_t = Format::Json, value_name = "FORMAT")]
    pub format: Format,
    /// Also write the report as JUnit XML to FILE (one test case per frame).
    /// JUnit's counts open the document, so every record is held until the
    /// end: memory grows with the input, unlike the streamed default.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Also write a Markdown summary to FILE (the tally, then the first 200
    /// failing frames; only those are held in memory).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// No summary on standard error.
    #[arg(long, short)]
    pub quiet: bool,
}

/// What standard output carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One JSON object per line.
    Json,
    /// Text for a person.
    Terminal,
}

/// Parses `client` or `server` into who sent the frames. `harness::Direction`
/// is foreign to this crate, so it gets a value parser rather than
/// `clap::ValueEnum`; the words are harness's own (`Direction::from_str`).
#[must_use]
pub fn sender() -> impl TypedValueParser<Value = Direction> {
    PossibleValuesParser::new(["client", "server"]).try_map(|s| s.parse::<Direction>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(clap::Parser)]
    struct Probe {
        #[arg(long, value_parser = sender())]
        from: Direction,
    }

    #[test]
    fn senders_parse_into_directions() {
        use clap::Parser as _;
        let parse = |s: &str| Probe::try_parse_from(["p", "--from", s]).map(|p| p.from);
        assert_eq!(parse("client").unwrap(), Direction::ClientToServer);
        assert_eq!(parse("server").unwrap(), Direction::ServerToClient);
        assert!(parse("proxy").is_err());
        assert!(parse("Client").is_err());
    }
}
