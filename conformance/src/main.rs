//! The `wirecheck` command line: parse, dispatch to a command, render its report.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use wirecheck::cmd::{self, classify, roundtrip, run};

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
    Run(run::Args),
}

fn main() -> ExitCode {
    let (report, output) = match &Cli::parse().command {
        Command::Roundtrip(args) => (roundtrip::run(args), args.output().clone()),
        Command::Classify(args) => (classify::run(args), args.output().clone()),
        Command::Run(args) => {
            let report = run::run(args);
            if let Some(path) = args.out() {
                if let Err(e) = cmd::write_json(&report, path) {
                    eprintln!("wirecheck run: {e}");
                    return std::process::ExitCode::from(2);
                }
            }
            (report, args.output().clone())
        }
    };
    cmd::emit(&report, &output).into()
}
