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
//! transports all spawn the server. Over Streamable HTTP the judged peer runs
//! in this process on 127.0.0.1 (port 0) and the client gets its URL
//! (`http://127.0.0.1:PORT/mcp`); when the client exits the peer stops and
//! every session it held is judged as closed.

use std::path::PathBuf;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use harness::{Outcome, Revision};

use super::args::OutputArgs;
use super::args::ScenarioChoice;
use super::Exit;
use crate::report::{Command, Place, Record, Report, Subject};
use crate::transport::process::Supervised;
use crate::transport::Kind;

/// `--transport`'s words, [`Kind::short_name`]'s: `stdio` or `http`.
fn transport_word() -> impl clap::builder::TypedValueParser<Value = Kind> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(["stdio", "http"]).map(|word| {
        Kind::from_short_name(&word).expect("a possible value is a transport's short name")
    })
}

/// Run a client against the judged reference peer and report what it did.
///
/// The client command comes after `--`; its last argument is added: over
/// stdio, the command line of the judged peer to spawn (`WIRECHECK serve
/// --judge --report FILE [--scenario S]… [--revision R]`, space-separated);
/// over http, the URL of the judged peer this command serves on 127.0.0.1
/// (`http://127.0.0.1:PORT/mcp`, Streamable HTTP).
/// Every frame both ways is judged by the session judge, and the scenarios
/// (--scenario, default all) exercise the client; a scenario it never
/// reached is not observed.
///
/// Exit codes, as `wirecheck run`: 0 no MUST broken, 1 one was (--strict:
/// also a SHOULD), 2 the run could not be made (the client could not start,
/// never started the peer or, over http, never opened a session with it, or
/// outlived --timeout).
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// How the client reaches the peer: `stdio` (it spawns the peer) or
    /// `http` (Streamable HTTP at the URL it is given).
    #[arg(long, default_value = "stdio", value_parser = transport_word())]
    transport: Kind,
    /// Serve exactly this MCP revision instead of negotiating it.
    #[arg(long, value_name = "R")]
    revision: Option<Revision>,
    /// The scenarios to play (a name, repeated, or `all`; see `serve --judge`).
    #[arg(long, value_name = "NAME|all", value_parser = super::args::scenario_names())]
    scenario: Vec<ScenarioChoice>,
    /// How long the client may run before it is killed (`60s`).
    #[arg(long, default_value = "60s", value_parser = super::args::positive_duration, value_name = "DURATION")]
    timeout: Duration,
    /// SHOULD-level findings fail the run.
    #[arg(long)]
    strict: bool,
    /// Over http, the peer is a protected resource and the client's OAuth flow
    /// is judged too (`serve --http --judge --auth`): wirecheck's own
    /// authorization server on loopback, consenting at once.
    #[arg(long)]
    auth: bool,
    /// With --auth, a variation that tests one more thing (`step-up-refused`,
    /// `no-pkce-metadata`, `wrong-iss`; see `serve --auth-scenario`).
    #[arg(long, value_name = "NAME", requires = "auth")]
    auth_scenario: Option<crate::clientcheck::auth::Scenario>,
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
    if args.transport != Kind::Stdio {
        return judged_http(args);
    }
    if args.auth {
        return Err("--auth needs --transport http: authorization is HTTP's".into());
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
    let read = report_once_written(&path, REPORT_GRACE);
    let _ = std::fs::remove_file(&path);
    let mut report = read.map_err(|e| {
        format!("the client never ran the judged peer to its end ({status}): no report ({e})")
    })?;
    client_ended(&mut report, &status, Kind::Stdio);
    Ok(report)
}

/// How long after the client's exit the judged peer has to finish its report.
const REPORT_GRACE: Duration = Duration::from_secs(5);

/// The judged peer's report, read once it is whole. A client may exit without
/// waiting for the server it spawned, which then writes its report after: the
/// file is read again until it parses or `grace` has passed.
fn report_once_written(path: &std::path::Path, grace: Duration) -> Result<Report, String> {
    let deadline = Instant::now() + grace;
    loop {
        match Report::read_json(path) {
            Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            read => return read,
        }
    }
}

/// A client that did not exit 0 stopped somewhere: one record says so.
fn client_ended(report: &mut Report, status: &str, transport: Kind) {
    if status.starts_with("exit status: 0") {
        return;
    }
    let why = format!("the client ended with {status}: what it did not reach is not observed");
    let mut record = Record::new(
        Place {
            file: Some("client".into()),
            transport: Some(transport.into()),
            ..Place::default()
        },
        Subject::Frame(Vec::new()),
        Outcome::NotObserved { why: why.clone() },
    );
    record.notes.push(why);
    report.records.push(record);
}

/// Over Streamable HTTP: the judged peer on 127.0.0.1:0 on a thread of its
/// own, the client given its URL; when the client has exited (or was killed
/// at --timeout) the peer stops and its records are the report.
fn judged_http(args: &Args) -> Result<Report, String> {
    use crate::clientcheck::http::{self as judged, Stop};
    use crate::peer::http::{Config, Server};
    let serve = super::args::served(None, args.revision)?;
    let config = Config {
        serve,
        max_frame: harness::Limits::DEFAULT_MAX_FRAME_BYTES,
        allow_remote: false,
    };
    let scenarios = super::args::selected(&args.scenario);
    let (auth, auth_scenario, fixed) = (args.auth, args.auth_scenario, args.revision);
    let (bound, addr) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<Stop>();
    let peer = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("tokio runtime: {e}"))?;
        runtime.block_on(async move {
            let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
            let mut server = Server::bind_judged(loopback, config, scenarios)
                .await
                .map_err(|e| format!("cannot bind 127.0.0.1:0: {e}"))?;
            let auth = if auth {
                let (judged, issuing) =
                    crate::clientcheck::auth::protect(&mut server, auth_scenario).await?;
                tokio::spawn(issuing.serve());
                Some(judged)
            } else {
                None
            };
            // The receiver waits for this address before anything else.
            let _ = bound.send(server.addr);
            let told = async { stopped.await.unwrap_or(Stop::Told { closed: true }) };
            let (mut records, ended) = judged::serve(server, told, false).await;
            // The authorization records are there whether or not a client
            // came (not observed when it did not): a client that opened no
            // MCP session was still judged if its OAuth flow was seen (one
            // that refuses a bad `iss` never opens one).
            let mut opened = !records.is_empty();
            if let Some(judged) = auth {
                let revision = crate::clientcheck::auth::revision(fixed, &records, Some(&judged));
                let authorization = judged.records(revision);
                opened |= crate::clientcheck::http::judged_anything(&authorization);
                records.extend(authorization);
            }
            Ok::<_, String>((records, opened, ended))
        })
    });
    let joined = |peer: std::thread::JoinHandle<_>| {
        peer.join()
            .map_err(|_| "the judged peer's thread panicked".to_owned())
            .and_then(|served| served)
    };
    let Ok(addr) = addr.recv() else {
        return Err(joined(peer)
            .err()
            .unwrap_or_else(|| "the judged peer never bound".into()));
    };
    let ran = run_client(&args.client, &format!("http://{addr}/mcp"), args.timeout);
    // The client is gone (exited, or killed at the timeout).
    let _ = stop.send(Stop::Told { closed: true });
    let (records, opened, ended) = joined(peer)?;
    let error = match (&ran, ended) {
        (Err(e), _) => Some(e.clone()),
        (Ok(_), Err(e)) => Some(e),
        (Ok(_), Ok(_)) if !opened => Some(judged::no_session(&format!("http://{addr}/mcp"))),
        (Ok(_), Ok(_)) => None,
    };
    let mut report = crate::clientcheck::report(records, Kind::STREAMABLE_HTTP, error);
    if let Ok(status) = &ran {
        client_ended(&mut report, status, Kind::STREAMABLE_HTTP);
    }
    Ok(report)
}

/// Runs the client in its own process group with `target` as its last
/// argument, waits at most `timeout`, and returns how it ended.
fn run_client(client: &[String], target: &str, timeout: Duration) -> Result<String, String> {
    let (program, rest) = client.split_first().ok_or("no client command after `--`")?;
    let mut child = Supervised::spawn(
        Process::new(program)
            .args(rest)
            .arg(target)
            .stdin(Stdio::null()),
    )
    .map_err(|e| format!("cannot start `{program}`: {e}"))?;
    match child.wait_for(timeout).map_err(|e| e.to_string())? {
        Some(status) => Ok(status.to_string()),
        None => {
            child.kill();
            Err(format!(
                "the client ran past --timeout {timeout:?} and was killed"
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client that exits before the server it spawned has written its
    /// report: the report, written late and in two pieces, is still read.
    #[test]
    fn a_report_written_after_the_clients_exit_is_waited_for() {
        let path =
            std::env::temp_dir().join(format!("wirecheck-report-late-{}.json", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let mut report = Report::new(Command::RunClient);
        client_ended(&mut report, "exit status: 1", Kind::Stdio);
        let bytes = crate::report::document::to_vec(&report);
        let writer = {
            let path = path.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(100));
                std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
                std::thread::sleep(Duration::from_millis(100));
                std::fs::write(&path, &bytes).unwrap();
            })
        };
        let read = report_once_written(&path, Duration::from_secs(20));
        writer.join().unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(read.unwrap().records.len(), 1);
    }

    /// A report that never comes is an error after the grace, not a hang.
    #[test]
    fn a_report_never_written_is_an_error_after_the_grace() {
        let path = std::env::temp_dir().join(format!(
            "wirecheck-report-never-{}.json",
            std::process::id()
        ));
        let started = Instant::now();
        let read = report_once_written(&path, Duration::from_millis(200));
        assert!(read.unwrap_err().contains("cannot read"));
        assert!(started.elapsed() >= Duration::from_millis(200));
    }
}
