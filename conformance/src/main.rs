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
    /// Judge each frame under one profile with the rule model.
    ///
    /// Writes one JSON line per input line: {"line":N,"violations":[{"rule":"…",
    /// "level":"MUST","spec":"…","pointer":"/id","message":"…"}]}, an empty array
    /// when the frame is clean; a frame that does not lift is one violation, its
    /// -32700/-32600 rule. Exchange rules (a reply's id, a notification answered)
    /// need both sides and are not judged here. Blank lines are skipped. Exit 0 when
    /// no MUST or MUST NOT is broken, 1 otherwise (with --strict, also on SHOULD and
    /// SHOULD NOT), 2 on usage or I/O errors.
    Classify(ClassifyArgs),
    /// Judge captured two-sided conversations with the session judge.
    ///
    /// Each TRANSCRIPT has one JSON object per line: {"from":"client"|"server",
    /// "frame":"<exact text>"} (or "frame_hex"), {"event":"closed"|"wait-elapsed"},
    /// each with an optional "t" in seconds. Writes one JSON line per finding:
    /// {"file","revision","outcome":"fail"|"warning"|"not-observed","rule","level",
    /// "spec","pointer","message","frames":[{"index":N,"t":S}]}; indexes count the
    /// transcript's non-blank lines from 0. Exit 0 when no MUST is broken, 1 when one
    /// is (with --strict, also on SHOULD-level findings), 2 on usage or I/O errors.
    Check(CheckArgs),
}

/// What `check` judges the transcripts under.
#[derive(clap::Args)]
struct CheckArgs {
    /// The revision (an MCP revision or jsonrpc-2.0), or `auto` to read it from
    /// `initialize` or the per-request `_meta` (plain JSON-RPC 2.0 when neither names one).
    #[arg(long, value_name = "R|auto", default_value = "auto")]
    revision: String,
    /// Fail (exit 1) on SHOULD-level findings too.
    #[arg(long)]
    strict: bool,
    /// The longest transcript line read, in bytes.
    #[arg(long, default_value_t = wirecheck::transcript::DEFAULT_MAX_LINE, value_name = "BYTES")]
    max_line: usize,
    /// No summary on standard error.
    #[arg(long, short)]
    quiet: bool,
    /// Transcript files.
    #[arg(value_name = "TRANSCRIPT")]
    transcripts: Vec<PathBuf>,
}

/// What `classify` judges the frames under.
#[derive(clap::Args)]
struct ClassifyArgs {
    /// The revision: an MCP revision (2024-11-05, 2025-03-26, 2025-06-18,
    /// 2025-11-25, 2026-07-28) or jsonrpc-2.0 for plain JSON-RPC 2.0.
    #[arg(long, value_name = "R")]
    revision: harness::Revision,
    /// Who sent the frames.
    #[arg(long, value_name = "SIDE", value_enum, default_value_t = Side::Client)]
    from: Side,
    /// Fail (exit 1) on SHOULD-level violations too, not only on MUST-level ones.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    frames: FrameArgs,
}

/// Who sent a transcript's frames.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Side {
    /// Client to server.
    Client,
    /// Server to client.
    Server,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let exit = match &cli.command {
        Command::Roundtrip(args) => cmd::roundtrip::main(&args.inputs(), args.quiet),
        Command::Classify(args) => {
            let profile = harness::Profile {
                revision: args.revision,
                direction: match args.from {
                    Side::Client => harness::Direction::ClientToServer,
                    Side::Server => harness::Direction::ServerToClient,
                },
            };
            let inputs = args.frames.inputs();
            cmd::classify::main(&inputs, profile, args.strict, args.frames.quiet)
        }
        Command::Check(args) => check(args),
    };
    exit.into()
}

fn check(args: &CheckArgs) -> cmd::Exit {
    let revision = match args.revision.as_str() {
        "auto" => None,
        name => match name.parse() {
            Ok(r) => Some(r),
            Err(e) => {
                eprintln!("wirecheck check: {e}, or auto");
                return cmd::Exit::Trouble;
            }
        },
    };
    let options = cmd::check::Options {
        revision,
        strict: args.strict,
        max_line: args.max_line,
    };
    cmd::check::main(&args.transcripts, &options, args.quiet)
}
