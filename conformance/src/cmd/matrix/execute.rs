//! Running a matrix: every selected server × transport through `wirecheck
//! run`, and the short fuzz, each as a child of this very binary in its own
//! process group, up to `jobs` at once, each bounded in time.
//!
//! A child and not a library call: a run must be stoppable at its bound,
//! with the server it started (stdio servers are the runner's children), and
//! only a process group can be stopped whole; and runs side by side in one
//! process would fight over standard error's progress bar. The child is the
//! same binary, so the run is exactly `wirecheck run`'s, and its command line
//! is the reproducer.

use std::collections::VecDeque;
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use super::document::{could_not_run_cells, Cell, Fuzz, Matrix, Run, ServerRow, FORMAT};
use super::manifest::{Manifest, Profile, Server};
use crate::report::Report;
use crate::transport::process::Supervised;
use crate::transport::{HttpKind, Kind};

/// What a matrix run is asked to do.
#[derive(Debug, Clone)]
pub struct Options {
    /// The output folder (created).
    pub out: PathBuf,
    /// Children at once.
    pub jobs: usize,
    /// The bound on each run (and each fuzz, past its budget).
    pub run_timeout: Duration,
    /// `wirecheck run --timeout`: the longest wait for one answer.
    pub answer_timeout: Duration,
    /// `K/N`: only servers whose index (by name) mod N is K-1.
    pub shard: Option<(usize, usize)>,
    /// Only these servers (all when empty).
    pub only: Vec<String>,
    /// The fuzz column's budget per server, in seconds.
    pub fuzz: Option<u64>,
    /// This binary.
    pub exe: PathBuf,
}

/// The servers of `manifest` a run with `options` judges, in name order.
///
/// # Errors
/// `--server` names a server the manifest does not have.
pub fn select<'m>(manifest: &'m Manifest, options: &Options) -> Result<Vec<&'m Server>, String> {
    for name in &options.only {
        if !manifest.servers.iter().any(|s| &s.name == name) {
            let known: Vec<&str> = manifest.servers.iter().map(|s| s.name.as_str()).collect();
            return Err(format!(
                "--server {name}: {} has no such server (it has {})",
                manifest.path.display(),
                known.join(", ")
            ));
        }
    }
    Ok(manifest
        .servers
        .iter()
        .enumerate()
        .filter(|(i, _)| options.shard.is_none_or(|(k, n)| i % n == k - 1))
        .map(|(_, s)| s)
        .filter(|s| options.only.is_empty() || options.only.contains(&s.name))
        .collect())
}

enum Job<'m> {
    Run(&'m Server, Kind),
    Fuzz(&'m Server),
}

enum Done {
    Run(String, Run),
    Fuzz(String, Fuzz),
}

/// Runs the matrix `options` asks for and returns its document (written by
/// the caller). Progress, one line per finished child, goes to standard
/// error.
///
/// # Errors
/// The output folder cannot be made, or `--server` names no server.
pub fn build(manifest: &Manifest, options: &Options) -> Result<Matrix, String> {
    let started = crate::report::rfc3339(std::time::SystemTime::now());
    let clock = Instant::now();
    let servers = select(manifest, options)?;
    for sub in ["runs", "fuzz"] {
        std::fs::create_dir_all(options.out.join(sub))
            .map_err(|e| format!("cannot create {}: {e}", options.out.join(sub).display()))?;
    }
    let out = std::fs::canonicalize(&options.out)
        .map_err(|e| format!("cannot find {}: {e}", options.out.display()))?;
    let options = Options {
        out,
        ..options.clone()
    };
    let mut queue: VecDeque<Job> = VecDeque::new();
    for server in &servers {
        for &t in &server.transports {
            queue.push_back(Job::Run(server, t));
        }
        if options.fuzz.is_some() {
            queue.push_back(Job::Fuzz(server));
        }
    }
    let total = queue.len();
    let queue = Arc::new(Mutex::new(queue));
    let (tx, rx) = mpsc::channel();
    let mut rows: Vec<ServerRow> = servers
        .iter()
        .map(|s| ServerRow {
            name: s.name.clone(),
            ecosystem: s.ecosystem.clone(),
            package: s.package.clone(),
            version: s.version().to_string(),
            profile: s.profile.name().to_string(),
            claims: s.revisions.clone(),
            baseline: s.baseline.as_ref().map(|b| b.display().to_string()),
            runs: Vec::new(),
            fuzz: None,
        })
        .collect();
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.max(1).min(total.max(1)) {
            let queue = Arc::clone(&queue);
            let tx = tx.clone();
            let (manifest, options) = (&manifest, &options);
            scope.spawn(move || loop {
                let job = queue.lock().map(|mut q| q.pop_front()).ok().flatten();
                let Some(job) = job else { break };
                let done = match job {
                    Job::Run(server, t) => {
                        Done::Run(server.name.clone(), run(manifest, options, server, t))
                    }
                    Job::Fuzz(server) => {
                        Done::Fuzz(server.name.clone(), fuzz(manifest, options, server))
                    }
                };
                if tx.send(done).is_err() {
                    break;
                }
            });
        }
        // Each child's line as it ends, not when all have.
        drop(tx);
        for done in rx.iter().take(total) {
            let (name, line) = match &done {
                Done::Run(name, run) => (name, format!("{}: {}", run.transport, run_line(run))),
                Done::Fuzz(name, fuzz) => {
                    (name, format!("fuzz: {} ({})", fuzz.status, fuzz.summary))
                }
            };
            eprintln!("wirecheck matrix: {name} {line}");
            let Some(row) = rows.iter_mut().find(|r| &r.name == name) else {
                continue;
            };
            match done {
                Done::Run(_, run) => row.runs.push(run),
                Done::Fuzz(_, fuzz) => row.fuzz = Some(fuzz),
            }
        }
    });
    // Runs in the manifest's transport order, whichever finished first.
    for (row, server) in rows.iter_mut().zip(&servers) {
        row.runs.sort_by_key(|r| {
            server
                .transports
                .iter()
                .position(|t| t.name() == r.transport)
        });
    }
    let mut matrix = Matrix {
        format: FORMAT,
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        manifest: manifest.path.display().to_string(),
        started,
        duration_ms: millis(clock.elapsed()),
        shard: options.shard.map(|(k, n)| format!("{k}/{n}")),
        fuzz_seconds: options.fuzz,
        revisions: Vec::new(),
        servers: rows,
    };
    matrix.normalise();
    Ok(matrix)
}

fn run_line(run: &Run) -> String {
    match &run.reason {
        Some(reason) => format!("could not run: {reason}"),
        None => run
            .cells
            .iter()
            .map(|c| format!("{} {}", c.revision, c.status))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The placeholders of a manifest command, filled in.
struct Fill<'a> {
    port: Option<u16>,
    scratch: &'a Path,
    exe: &'a Path,
}

impl Fill<'_> {
    fn apply(&self, line: &str) -> String {
        let mut line = line
            .replace(
                "{scratch}",
                &shell_words::quote(&self.scratch.display().to_string()),
            )
            .replace(
                "{wirecheck}",
                &shell_words::quote(&self.exe.display().to_string()),
            );
        if let Some(port) = self.port {
            line = line.replace("{port}", &port.to_string());
        }
        line
    }
}

/// A manifest command as a person re-runs it: `wirecheck` for this binary,
/// a fixed scratch folder and port, so the line is the same on every machine.
fn for_people(line: &str, port: u16) -> String {
    line.replace("{scratch}", "/tmp/wirecheck-scratch")
        .replace("{wirecheck}", "wirecheck")
        .replace("{port}", &port.to_string())
}

/// How long a child that ran past its bound gets between SIGTERM and SIGKILL.
const STOP_GRACE: Duration = Duration::from_millis(500);

/// Waits at most `bound` for `child`; `None` when it had to be stopped.
fn wait_or_stop(child: &mut Supervised, bound: Duration) -> Option<std::process::ExitStatus> {
    match child.wait_for(bound) {
        Ok(Some(status)) => Some(status),
        _ => {
            child.stop(STOP_GRACE);
            None
        }
    }
}

/// Where one run of a server works: its scratch folder under `--out`, named
/// `name`, and over HTTP a free loopback port for it.
fn workplace(options: &Options, name: &str, t: Kind) -> Result<(Scratch, Option<u16>), String> {
    let scratch = Scratch::new(&options.out, name)?;
    let port = if t == Kind::Stdio {
        None
    } else {
        Some(free_port()?)
    };
    Ok((scratch, port))
}

/// A free port on 127.0.0.1, as the kernel picks it.
fn free_port() -> Result<u16, String> {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("cannot find a free port: {e}"))
}

/// Waits until something listens on `port`, or the server exits, or `bound`.
fn wait_listening(server: &mut Supervised, port: u16, bound: Duration) -> Result<(), String> {
    let start = Instant::now();
    loop {
        if TcpStream::connect_timeout(
            &(Ipv4Addr::LOCALHOST, port).into(),
            Duration::from_millis(200),
        )
        .is_ok()
        {
            return Ok(());
        }
        if let Ok(Some(status)) = server.try_wait() {
            return Err(format!(
                "the server exited ({status}) before listening on 127.0.0.1:{port}"
            ));
        }
        if start.elapsed() > bound {
            return Err(format!(
                "the server did not listen on 127.0.0.1:{port} within {}s",
                bound.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A fresh scratch folder for one child, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(out: &Path, name: &str) -> Result<Scratch, String> {
        let dir = out.join("scratch").join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
        if let Some(parent) = self.0.parent() {
            let _ = std::fs::remove_dir(parent);
        }
    }
}

/// Splits a manifest command line into a [`Command`] run in the manifest's folder.
fn command(line: &str, dir: &Path) -> Result<Command, String> {
    let words = shell_words::split(line).map_err(|e| format!("`{line}`: {e}"))?;
    let (program, args) = words
        .split_first()
        .ok_or_else(|| format!("`{line}` is empty"))?;
    let mut command = Command::new(program);
    command.args(args).current_dir(dir).stdin(Stdio::null());
    Ok(command)
}

fn log_file(path: &Path) -> Result<std::fs::File, String> {
    std::fs::File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))
}

/// The setup commands, in order, each bounded.
fn setup(manifest: &Manifest, server: &Server, fill: &Fill, log: &Path) -> Result<(), String> {
    for line in &server.setup {
        let line = fill.apply(line);
        let mut cmd = command(&line, &manifest.dir)?;
        let err = log_file(log)?;
        cmd.stdout(Stdio::null()).stderr(err);
        let mut child = Supervised::spawn(&mut cmd)
            .map_err(|e| format!("setup `{line}` does not start: {e}"))?;
        match wait_or_stop(&mut child, Duration::from_secs(60)) {
            Some(status) if status.success() => {}
            Some(status) => return Err(format!("setup `{line}` failed ({status})")),
            None => return Err(format!("setup `{line}` ran past 60s")),
        }
    }
    Ok(())
}

/// A started HTTP server: the group and the URL of its endpoint.
fn start_http(
    manifest: &Manifest,
    server: &Server,
    fill: &Fill,
    log: &Path,
    bound: Duration,
) -> Result<(Supervised, String), String> {
    let http = server.http.as_ref().ok_or("no http command")?;
    let port = fill.port.ok_or("no port")?;
    let line = fill.apply(&http.command);
    let mut cmd = command(&line, &manifest.dir)?;
    let file = log_file(log)?;
    let err = file.try_clone().map_err(|e| e.to_string())?;
    cmd.stdout(file).stderr(err);
    let mut group =
        Supervised::spawn(&mut cmd).map_err(|e| format!("`{line}` does not start: {e}"))?;
    wait_listening(&mut group, port, bound.min(Duration::from_secs(30)))?;
    Ok((group, format!("http://127.0.0.1:{port}{}", http.path)))
}

/// The last line a child wrote on standard error, its summary.
fn last_line(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(crate::report::text::printable_str)
        .unwrap_or_default()
}

fn relative(path: &Path, out: &Path) -> String {
    path.strip_prefix(out).unwrap_or(path).display().to_string()
}

/// The `wirecheck run` arguments for a server over a transport, after
/// the peer's own (`--stdio …` or `--http …`).
fn run_args(server: &Server, t: Kind, answer: Duration) -> Vec<String> {
    let mut args = vec![
        "--revision".to_string(),
        "all".into(),
        "--timeout".into(),
        format!("{}ms", answer.as_millis()),
    ];
    // Streamable HTTP (MCP) and JSON-RPC over HTTP (jsonrpc-2.0) are `run`'s
    // defaults for their profile; only HTTP+SSE is named.
    if t == Kind::Http(HttpKind::Sse) {
        args.extend(["--transport".into(), t.name().into()]);
    }
    if server.profile == Profile::JsonRpc {
        args.extend(["--profile".into(), "jsonrpc-2.0".into()]);
    }
    // Relative to the manifest's folder, where `run` runs.
    if let Some(baseline) = &server.baseline {
        args.extend(["--expected-failures".into(), baseline.display().to_string()]);
    }
    args
}

/// The one line that makes the same run again, from where `matrix` ran.
fn reproducer(manifest: &Manifest, server: &Server, t: Kind, answer: Duration) -> String {
    const PORT: u16 = 8765;
    let quote = |s: &str| shell_words::quote(s).into_owned();
    let mut args = run_args(server, t, answer);
    let mut line = format!("cd {} && ", quote(&manifest.dir.display().to_string()));
    for setup in &server.setup {
        line.push_str(&format!(
            "mkdir -p /tmp/wirecheck-scratch && {} && ",
            for_people(setup, PORT)
        ));
    }
    if t == Kind::Stdio {
        let stdio = for_people(server.stdio.as_deref().unwrap_or_default(), PORT);
        args.splice(0..0, ["--stdio".to_string(), stdio]);
        line.push_str("wirecheck run ");
        line.push_str(&shell_words::join(&args));
    } else {
        let http = server.http.as_ref();
        let start = for_people(http.map_or("", |h| h.command.as_str()), PORT);
        let url = format!(
            "http://127.0.0.1:{PORT}{}",
            http.map_or("/", |h| h.path.as_str())
        );
        args.splice(0..0, ["--http".to_string(), url]);
        line.push_str(&format!(
            "{{ {start} & }}; sleep 2; wirecheck run {}; kill %1",
            shell_words::join(&args)
        ));
    }
    line
}

fn run(manifest: &Manifest, options: &Options, server: &Server, t: Kind) -> Run {
    let start = Instant::now();
    let stem = format!("{}.{}", server.name, t.name());
    let runs = options.out.join("runs");
    let document = runs.join(format!("{stem}.json"));
    let transcripts = runs.join(format!("{stem}.transcripts"));
    let log = runs.join(format!("{stem}.log"));
    let server_log = runs.join(format!("{stem}.server.log"));
    let _ = std::fs::remove_file(&document);
    let _ = std::fs::remove_dir_all(&transcripts);
    let mut made = Run {
        transport: t.name().to_string(),
        status: "ran".into(),
        reason: None,
        document: None,
        transcripts: None,
        log: relative(&log, &options.out),
        reproducer: reproducer(manifest, server, t, options.answer_timeout),
        duration_ms: 0,
        cells: Vec::new(),
    };
    let result = play(
        manifest,
        options,
        server,
        t,
        &document,
        &transcripts,
        &log,
        &server_log,
    );
    made.duration_ms = millis(start.elapsed());
    if transcripts.is_dir() {
        made.transcripts = Some(relative(&transcripts, &options.out));
    }
    match result {
        Ok(report) => {
            made.document = Some(relative(&document, &options.out));
            made.cells = Cell::of_report(&report);
            if made.cells.is_empty() {
                made.cells = could_not_run_cells(&server.revisions, server.profile.name());
                for cell in &mut made.cells {
                    cell.status = "not-applicable".into();
                }
            }
        }
        Err(reason) => {
            if document.is_file() {
                made.document = Some(relative(&document, &options.out));
            }
            made.status = "could-not-run".into();
            made.reason = Some(reason);
            made.cells = could_not_run_cells(&server.revisions, server.profile.name());
        }
    }
    made
}

#[expect(
    clippy::too_many_arguments,
    reason = "the cell's server, transport, revision and the run's options, named at the one call"
)]
fn play(
    manifest: &Manifest,
    options: &Options,
    server: &Server,
    t: Kind,
    document: &Path,
    transcripts: &Path,
    log: &Path,
    server_log: &Path,
) -> Result<Report, String> {
    let (scratch, port) = workplace(options, &format!("{}.{}", server.name, t.name()), t)?;
    let fill = Fill {
        port,
        scratch: &scratch.0,
        exe: &options.exe,
    };
    setup(
        manifest,
        server,
        &fill,
        &server_log.with_extension("setup.log"),
    )?;
    let (_http, peer) = if t == Kind::Stdio {
        let line = fill.apply(server.stdio.as_deref().unwrap_or_default());
        (None, vec!["--stdio".to_string(), line])
    } else {
        let (group, url) = start_http(manifest, server, &fill, server_log, options.run_timeout)?;
        (Some(group), vec!["--http".to_string(), url])
    };
    let mut cmd = Command::new(&options.exe);
    cmd.arg("run")
        .args(&peer)
        .args(run_args(server, t, options.answer_timeout))
        .args(["--format", "json", "--out"])
        .arg(document)
        .arg("--transcripts")
        .arg(transcripts)
        .current_dir(&manifest.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log_file(log)?);
    let mut child =
        Supervised::spawn(&mut cmd).map_err(|e| format!("cannot start wirecheck run: {e}"))?;
    let status = wait_or_stop(&mut child, options.run_timeout).ok_or_else(|| {
        format!(
            "the run did not finish within {}s and was stopped",
            options.run_timeout.as_secs()
        )
    })?;
    if status.code() == Some(2) || status.code().is_none() {
        return Err(match last_line(log) {
            line if line.is_empty() => format!("wirecheck run ended with {status}"),
            line => line,
        });
    }
    let report = Report::read_json(document)?;
    match &report.error {
        Some(e) => Err(e.clone()),
        None => Ok(report),
    }
}

fn fuzz(manifest: &Manifest, options: &Options, server: &Server) -> Fuzz {
    let seconds = options.fuzz.unwrap_or(0);
    let not_applicable = |why: &str| Fuzz {
        status: "not-applicable".into(),
        summary: why.to_string(),
        out_dir: None,
        reproducer: None,
    };
    if server.profile != Profile::Mcp {
        return not_applicable("the fuzzer speaks MCP only");
    }
    let Some(t) = server
        .transports
        .iter()
        .copied()
        .find(|t| matches!(t, Kind::Stdio | Kind::Http(HttpKind::Streamable)))
    else {
        return not_applicable("the fuzzer speaks stdio and Streamable HTTP only");
    };
    let revision = server
        .revisions
        .iter()
        .max()
        .cloned()
        .unwrap_or_else(|| "2025-11-25".into());
    let out_dir = options.out.join("fuzz").join(&server.name);
    let log = options
        .out
        .join("fuzz")
        .join(format!("{}.log", server.name));
    let _ = std::fs::remove_dir_all(&out_dir);
    let budget = [
        "--duration".to_string(),
        format!("{seconds}s"),
        "--minimize-budget".into(),
        format!("{seconds}s"),
        "--revision".into(),
        revision,
    ];
    let people = {
        const PORT: u16 = 8765;
        let mut line = format!(
            "cd {} && ",
            shell_words::quote(&manifest.dir.display().to_string())
        );
        for setup in &server.setup {
            line.push_str(&format!(
                "mkdir -p /tmp/wirecheck-scratch && {} && ",
                for_people(setup, PORT)
            ));
        }
        if t == Kind::Stdio {
            let mut args = vec![
                "--stdio".to_string(),
                for_people(server.stdio.as_deref().unwrap_or_default(), PORT),
            ];
            args.extend(budget.iter().cloned());
            line.push_str(&format!("wirecheck fuzz {}", shell_words::join(&args)));
        } else {
            let http = server.http.as_ref();
            let mut args = vec![
                "--http".to_string(),
                format!(
                    "http://127.0.0.1:{PORT}{}",
                    http.map_or("/", |h| h.path.as_str())
                ),
            ];
            args.extend(budget.iter().cloned());
            line.push_str(&format!(
                "{{ {} & }}; sleep 2; wirecheck fuzz {}; kill %1",
                for_people(http.map_or("", |h| h.command.as_str()), PORT),
                shell_words::join(&args)
            ));
        }
        line
    };
    let result = (|| -> Result<(String, String), String> {
        let (scratch, port) = workplace(options, &format!("{}.fuzz", server.name), t)?;
        let fill = Fill {
            port,
            scratch: &scratch.0,
            exe: &options.exe,
        };
        let server_log = options
            .out
            .join("fuzz")
            .join(format!("{}.server.log", server.name));
        setup(manifest, server, &fill, &server_log)?;
        let (_http, peer) = if t == Kind::Stdio {
            (
                None,
                vec![
                    "--stdio".to_string(),
                    fill.apply(server.stdio.as_deref().unwrap_or_default()),
                ],
            )
        } else {
            let (group, url) =
                start_http(manifest, server, &fill, &server_log, options.run_timeout)?;
            (Some(group), vec!["--http".to_string(), url])
        };
        let mut cmd = Command::new(&options.exe);
        cmd.arg("fuzz")
            .args(&peer)
            .args(&budget)
            .args([
                "--timeout".to_string(),
                format!("{}ms", options.answer_timeout.as_millis()),
                "--format".into(),
                "json".into(),
                "--out-dir".into(),
            ])
            .arg(&out_dir)
            .current_dir(&manifest.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log_file(&log)?);
        let mut child =
            Supervised::spawn(&mut cmd).map_err(|e| format!("cannot start wirecheck fuzz: {e}"))?;
        // Its budget (`--duration` is the whole fuzz's, confirming and
        // shrinking included), and the run bound on top.
        let bound = Duration::from_secs(seconds) + options.run_timeout;
        let status = wait_or_stop(&mut child, bound).ok_or_else(|| {
            format!(
                "the fuzz did not finish within {}s and was stopped",
                bound.as_secs()
            )
        })?;
        let summary = last_line(&log);
        match status.code() {
            Some(0) => Ok(("clean".into(), summary)),
            Some(1) => Ok(("findings".into(), summary)),
            _ => Err(if summary.is_empty() {
                format!("wirecheck fuzz ended with {status}")
            } else {
                summary
            }),
        }
    })();
    let (status, summary) = result.unwrap_or_else(|reason| ("could-not-run".into(), reason));
    Fuzz {
        status,
        summary,
        out_dir: Some(relative(&out_dir, &options.out)),
        reproducer: Some(people),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(names: &[&str]) -> Manifest {
        let text: String = names
            .iter()
            .map(|n| format!("[[server]]\nname = \"{n}\"\necosystem = \"npm\"\npackage = \"{n}@1.0.0\"\nprofile = \"mcp\"\ntransports = [\"stdio\"]\nstdio = \"x\"\n"))
            .collect();
        Manifest::parse(Path::new("m.toml"), &text).unwrap()
    }

    fn options(shard: Option<(usize, usize)>, only: &[&str]) -> Options {
        Options {
            out: PathBuf::from("out"),
            jobs: 1,
            run_timeout: Duration::from_secs(1),
            answer_timeout: Duration::from_secs(1),
            shard,
            only: only.iter().map(|s| (*s).to_string()).collect(),
            fuzz: None,
            exe: PathBuf::from("wirecheck"),
        }
    }

    fn names(servers: &[&Server]) -> Vec<String> {
        servers.iter().map(|s| s.name.clone()).collect()
    }

    #[test]
    fn shards_split_servers_by_their_index_in_name_order() {
        let m = manifest(&["e", "c", "a", "d", "b"]);
        assert_eq!(
            names(&select(&m, &options(Some((1, 2)), &[])).unwrap()),
            ["a", "c", "e"]
        );
        assert_eq!(
            names(&select(&m, &options(Some((2, 2)), &[])).unwrap()),
            ["b", "d"]
        );
        assert_eq!(
            names(&select(&m, &options(None, &["d", "b"])).unwrap()),
            ["b", "d"]
        );
        assert!(select(&m, &options(None, &["z"])).is_err());
    }

    #[test]
    fn reproducers_name_no_machine_of_their_own() {
        let text = "[[server]]\nname = \"s\"\necosystem = \"npm\"\npackage = \"s@1.0.0\"\nprofile = \"jsonrpc-2.0\"\ntransports = [\"jsonrpc-http\"]\nhttp = { command = \"{wirecheck} serve --http 127.0.0.1:{port}\", path = \"/\" }\n";
        let m = Manifest::parse(Path::new("zoo/m.toml"), text).unwrap();
        let line = reproducer(
            &m,
            &m.servers[0],
            Kind::Http(HttpKind::JsonRpc),
            Duration::from_secs(5),
        );
        assert_eq!(
            line,
            "cd zoo && { wirecheck serve --http 127.0.0.1:8765 & }; sleep 2; wirecheck run --http http://127.0.0.1:8765/ --revision all --timeout 5000ms --profile jsonrpc-2.0; kill %1"
        );
    }
}
