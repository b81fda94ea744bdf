//! The `wirecheck` command line.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use wirecheck::cmd;
use wirecheck::lines::Inputs;

/// Conformance and fuzzing harness for JSON-RPC 2.0 and the Model Context Protocol.
///
/// Exit codes: 0 clean, 1 findings (a frame refused, a rule broken), 2 usage or I/O error.
#[derive(Parser)]
#[command(name = "wirecheck", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Frames to read.
#[derive(clap::Args)]
struct FrameArgs {
    /// Files of frames, one per line; `-` or none for standard input.
    files: Vec<PathBuf>,
    /// The largest frame accepted, in bytes; a longer line is refused with
    /// `json.frame-too-large` and skipped without being held in memory.
    #[arg(long, default_value_t = harness::Limits::DEFAULT_MAX_FRAME_BYTES, value_name = "BYTES")]
    max_frame: usize,
    /// No summary on standard error.
    #[arg(long, short)]
    quiet: bool,
}

impl FrameArgs {
    fn inputs(&self) -> Inputs {
        Inputs {
            files: self.files.clone(),
            max_frame: self.max_frame,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Lift and lower each frame through the reference codec.
    ///
    /// Writes one JSON line per input line: {"line":N,"ok":<the lowered frame>} or
    /// {"line":N,"refused":{"code":-32600,"rule":"…","pointer":"/id","message":"…"}}.
    /// Blank lines are skipped. Exit 0 when every frame lifted, 1 when some were refused.
    Roundtrip(FrameArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let exit = match &cli.command {
        Command::Roundtrip(args) => cmd::roundtrip::main(&args.inputs(), args.quiet),
    };
    exit.into()
}
