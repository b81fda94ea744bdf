//! Arguments every frame-reading command shares, and the one parser of a
//! sender (`client` / `server`) into [`harness::Direction`].

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use harness::Direction;

use crate::lines::Inputs;

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

/// The MCP revisions a `--revision` may name, comma-separated, for the error
/// that refuses another.
pub(crate) fn revision_names() -> String {
    harness::Revision::MCP
        .map(harness::Revision::name)
        .join(", ")
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
