//! The `wirecheck` command line: parse, dispatch to a command, render its report.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use wirecheck::cmd::{self, classify, roundtrip, serve};

/// Conformance and fuzzing harness for JSON-RPC 2.0 and the Model Context Protocol.
///
/// Exit codes: 0 clean, 1 findings (a frame refused, a rule broken), 2 usage or I/O error.
#[derive(Parser)]
#[command(name = "wirecheck", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Roundtrip(roundtrip::Args),
    Classify(classify::Args),
    Serve(serve::Args),
}

fn main() -> ExitCode {
    let (report, output) = match &Cli::parse().command {
        Command::Roundtrip(args) => (roundtrip::run(args), args.output().clone()),
        Command::Classify(args) => (classify::run(args), args.output().clone()),
        // The peer answers on standard output itself: no report to render.
        Command::Serve(args) => return serve::run(args).into(),
    };
    cmd::emit(&report, &output).into()
}
