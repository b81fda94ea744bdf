//! The `wirecheck` command line: parse, dispatch to a command, render its report.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use wirecheck::cmd::{
    self, auth_server, check, classify, diff, fuzz, load, matrix, proxy, replay, roundtrip, run,
    run_client, serve,
};

/// Conformance and fuzzing harness for JSON-RPC 2.0 and the Model Context Protocol.
///
/// Exit codes: 0 clean, 1 findings (a frame refused, a rule broken), 2 a usage error, or a run that could not be made or was not whole (input unreadable, a peer that cannot be reached, Ctrl-C).
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
    Report(cmd::report::Args),
    // Boxed: `run` has many more options than the other commands.
    Run(Box<run::Args>),
    Check(check::Args),
    Proxy(proxy::Args),
    RunClient(run_client::Args),
    Fuzz(Box<fuzz::Args>),
    Load(Box<load::Args>),
    Replay(replay::Args),
    Diff(diff::Args),
    Matrix(matrix::Args),
    AuthServer(auth_server::Args),
}

fn main() -> ExitCode {
    match &Cli::parse().command {
        Command::Roundtrip(args) => cmd::stream(roundtrip::header(args), args.output(), |sink| {
            roundtrip::run(args, sink)
        }),
        Command::Classify(args) => cmd::stream(classify::header(args), args.output(), |sink| {
            classify::run(args, sink)
        }),
        // The peer answers on standard output itself: no report to render.
        Command::Serve(args) => serve::run(args),
        Command::Report(args) => cmd::report::run(args),
        Command::Run(args) => {
            let report = run::run(args);
            if let Err(e) = args.write_files(&report) {
                eprintln!("wirecheck run: {e}");
                return ExitCode::from(2);
            }
            cmd::emit_run(&report, args.output(), args.verbose())
        }
        Command::Check(args) => check::run(args),
        Command::Proxy(args) => proxy::run(args),
        Command::RunClient(args) => run_client::run(args),
        Command::Fuzz(args) => {
            let report = fuzz::run(args);
            if let Err(e) = args.files.write(&report) {
                eprintln!("wirecheck fuzz: {e}");
                return ExitCode::from(2);
            }
            cmd::emit(&report, &args.output)
        }
        Command::Load(args) => {
            let report = load::run(args);
            if let Err(e) = args.files.write(&report) {
                eprintln!("wirecheck load: {e}");
                return ExitCode::from(2);
            }
            cmd::emit(&report, &args.output)
        }
        Command::Replay(args) => cmd::emit(&replay::run(args), &args.output),
        Command::Diff(args) => cmd::emit(&diff::run(args), &args.output),
        Command::Matrix(args) => matrix::run(args),
        Command::AuthServer(args) => auth_server::run(args),
    }
    .into()
}
