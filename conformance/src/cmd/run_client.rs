//! `wirecheck run-client -- CLIENT …`: a client under test run against the
//! judged reference peer (`wirecheck serve --judge`), and its report.
//!
//! How the client meets the peer, decided as the official conformance suite
//! does it (the target is the client's last argument): over stdio a client
//! spawns its server itself, so the client is started with one more argument,
//! the command line of the judged peer (`WIRECHECK serve --judge --report
//! FILE …`, words separated by single spaces) for it to spawn; the peer
//! writes its report to FILE when the client closes its input, and that
//! report is this command's. The alternative (the client's own stdin and
//! stdout wired to an in-process peer) suits no SDK client: their stdio
//! transports all spawn the server.

use std::path::PathBuf;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use harness::{Outcome, Revision};

use super::args::OutputArgs;
use super::serve::ScenarioChoice;
use super::Exit;
use crate::report::{Command, Place, Record, Report, Subject};

/// Run a client against the judged reference peer and report what it did.
///
/// The client command comes after `--`; its last argument is added: over
/// stdio, the command line of the judged peer to spawn (`WIRECHECK serve
/// --judge --report FILE [--scenario S]… [--revision R]`, space-separated).
/// Every frame both ways is judged by the session judge, and the scenarios
/// (--scenario, default all) exercise the client; a scenario it never
/// reached is not observed.
///
/// Exit codes, as `wirecheck run`: 0 no MUST broken, 1 one was (--strict:
/// also a SHOULD), 2 the run could not be made (the client could not start,
/// never started the peer, or outlived --timeout).
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// How the client reaches the peer: `stdio` (it spawns the peer).
    #[arg(long, default_value = "stdio", value_parser = ["stdio", "http"])]
    transport: String,
    /// Serve exactly this MCP revision instead of negotiating it.
    #[arg(long, value_name = "R")]
    revision: Option<Revision>,
    /// The scenarios to play (a name, repeated, or `all`; see `serve --judge`).
    #[arg(long, value_name = "NAME|all", value_parser = super::serve::scenario_names())]
    scenario: Vec<ScenarioChoice>,
    /// How long the client may run before it is killed (`60s`).
    #[arg(long, default_value = "60s", value_parser = super::run::duration, value_name = "DURATION")]
    timeout: Duration,
    /// SHOULD-level findings fail the run.
    #[arg(long)]
    strict: bool,
    /// Also write the whole report as one JSON document to FILE.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
    /// The client's command and arguments.
    #[arg(last = true, required = true, value_name = "CLIENT")]
    client: Vec<String>,
}

/// Runs `wirecheck run-client`.
pub fn run(args: &Args) -> Exit {
    let mut report = match judged(args) {
        Ok(report) => report,
        Err(e) => {
            let mut report = Report::new(Command::RunClient);
            report.error = Some(e);
            report
        }
    };
    report.strict = args.strict;
    if let Some(path) = &args.out {
        if let Err(e) = super::write_json(&report, path) {
            eprintln!("wirecheck run-client: {e}");
            return Exit::Trouble;
        }
    }
    super::emit(&report, &args.output)
}

fn judged(args: &Args) -> Result<Report, String> {
    if args.transport != "stdio" {
        return Err(format!(
            "--transport {} is not built yet: run-client judges clients over stdio",
            args.transport
        ));
    }
    // The peer's report goes to a file of its own in the temporary folder
    // (no space in its name: the client splits the command line on spaces).
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let path = std::env::temp_dir().join(format!(
        "wirecheck-run-client-{}-{nanos}.json",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    let exe = std::env::current_exe().map_err(|e| format!("cannot find wirecheck itself: {e}"))?;
    let mut words = vec![
        exe.display().to_string(),
        "serve".into(),
        "--judge".into(),
        "--report".into(),
        path.display().to_string(),
    ];
    for s in &args.scenario {
        words.push("--scenario".into());
        words.push(match s {
            ScenarioChoice::All => "all".into(),
            ScenarioChoice::One(s) => s.name().into(),
        });
    }
    if let Some(r) = args.revision {
        words.extend(["--revision".into(), r.name().into()]);
    }
    if words.iter().any(|w| w.contains(char::is_whitespace)) {
        return Err(format!(
            "the peer's command line has a word with a space in it ({}); the client splits it on spaces",
            words.join(" ")
        ));
    }
    let status = run_client(&args.client, &words.join(" "), args.timeout)?;
    let read = Report::read_json(&path);
    let _ = std::fs::remove_file(&path);
    let mut report = read.map_err(|e| {
        format!("the client never ran the judged peer to its end ({status}): no report ({e})")
    })?;
    if !status.starts_with("exit status: 0") {
        let why = format!("the client ended with {status}: what it did not reach is not observed");
        let mut record = Record::new(
            Place {
                file: Some("client".into()),
                transport: Some("stdio".into()),
                ..Place::default()
            },
            Subject::Frame(Vec::new()),
            Outcome::NotObserved { why: why.clone() },
        );
        record.notes.push(why);
        report.records.push(record);
    }
    Ok(report)
}

/// Runs the client in its own process group with `target` as its last
/// argument, waits at most `timeout`, and returns how it ended.
fn run_client(client: &[String], target: &str, timeout: Duration) -> Result<String, String> {
    use std::os::unix::process::CommandExt as _;
    let (program, rest) = client.split_first().ok_or("no client command after `--`")?;
    let mut child = Process::new(program)
        .args(rest)
        .arg(target)
        .stdin(Stdio::null())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start `{program}`: {e}"))?;
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            return Ok(status.to_string());
        }
        if start.elapsed() > timeout {
            if let Ok(pid) = i32::try_from(child.id()) {
                let _ = nix::sys::signal::killpg(
                    nix::unistd::Pid::from_raw(pid),
                    nix::sys::signal::Signal::SIGKILL,
                );
            }
            let _ = child.wait();
            return Err(format!(
                "the client ran past --timeout {timeout:?} and was killed"
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
