//! The stdio transport: the peer runs as a child process in its own process
//! group, frames are lines on its stdin and stdout, and its stderr is kept
//! (capped) for the report.
//!
//! MCP 2025-11-25, basic/transports, "stdio": "Messages are delimited by
//! newlines, and MUST NOT contain embedded newlines"; "The client MAY capture,
//! forward, or ignore the server's stderr". Shutdown follows MCP 2025-11-25,
//! basic/lifecycle, "Shutdown — stdio" (SHOULD): close the child's input, wait,
//! SIGTERM, then SIGKILL; here both signals go to the whole process group, so a
//! peer's helpers go with it (cargo-nextest does the same per test).
//!
//! Nothing the peer does can block the runner past a deadline it chose: reads
//! run on their own task into a bounded queue, writes have a timeout, and
//! stderr is drained concurrently so a chatty peer never stalls on a full pipe.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nix::sys::signal::Signal;
use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::{sleep_until, timeout, Instant};

use super::lines::{read_line, Line};
use super::process::Group;
use super::{Event, Limits, SendError, Transport};

/// The program a peer runs, its arguments, and what it starts with besides:
/// the variables added to its environment and its working directory (the
/// user's `--env` and `--cwd`). Every spawner builds its process from
/// [`PeerCommand::command`], so these are applied in one place.
///
/// The environment's values may be secrets: `Debug` names only their keys,
/// and so does everything this crate says about a command.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct PeerCommand {
    /// The program, looked up on `PATH` as `execvp` does.
    pub program: OsString,
    /// Its arguments, passed as they are: no shell sees them.
    pub args: Vec<OsString>,
    /// Variables set in its environment on top of this process's own, which
    /// it inherits whole (a server needs `PATH` and `HOME` as much as its
    /// API key); later pairs win over earlier ones with the same key.
    pub env: Vec<(OsString, OsString)>,
    /// The directory it starts in; `None`, this process's own.
    pub cwd: Option<PathBuf>,
}

impl std::fmt::Debug for PeerCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Keys only: a value may be a token, and a `{:?}` ends up in logs.
        f.debug_struct("PeerCommand")
            .field("program", &self.program)
            .field("args", &self.args)
            .field("env", &self.env_keys())
            .field("cwd", &self.cwd)
            .finish()
    }
}

impl PeerCommand {
    /// `program` with `args`, in this process's environment and directory.
    #[must_use]
    pub fn new(program: impl Into<OsString>, args: Vec<OsString>) -> PeerCommand {
        PeerCommand {
            program: program.into(),
            args,
            ..PeerCommand::default()
        }
    }

    /// Splits `line` the way a POSIX shell splits words (quotes and
    /// backslashes), without running a shell: `--stdio "node server.js --x"`.
    pub fn parse(line: &str) -> Result<PeerCommand, SpawnError> {
        let words = shell_words::split(line).map_err(|e| SpawnError::Parse {
            line: line.to_owned(),
            error: e.to_string(),
        })?;
        let mut words = words.into_iter().map(OsString::from);
        let program = words.next().ok_or(SpawnError::Empty)?;
        Ok(PeerCommand::new(program, words.collect()))
    }

    /// Runs `script` with `sh -c`, for a user who asks for a shell.
    #[must_use]
    pub fn shell(script: &str) -> PeerCommand {
        PeerCommand::new("sh", vec!["-c".into(), script.into()])
    }

    /// The keys of [`PeerCommand::env`], in order, each once, as text: all
    /// that may be said of the environment (its values may be secrets).
    #[must_use]
    pub fn env_keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = Vec::new();
        for (key, _) in &self.env {
            let key = key.to_string_lossy().into_owned();
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        keys
    }

    /// The process to start: the program and its arguments, the
    /// environment added to this process's own (not cleared), the working
    /// directory. The one place `env` and `cwd` are applied; the caller sets
    /// the pipes and the process group.
    #[must_use]
    pub fn command(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(&self.program);
        cmd.args(&self.args);
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        if let Some(dir) = &self.cwd {
            cmd.current_dir(dir);
        }
        cmd
    }

    /// Why the process could not start, naming the directory it was to
    /// start in (a program given by a relative path is looked up there);
    /// for any spawner of [`PeerCommand::command`].
    #[must_use]
    pub fn start_error(&self, error: &std::io::Error) -> SpawnError {
        let error = match &self.cwd {
            Some(dir) => format!("{error} (in {})", dir.display()),
            None => error.to_string(),
        };
        SpawnError::Start {
            program: self.program.to_string_lossy().into_owned(),
            error,
        }
    }
}

/// Why a peer could not be started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpawnError {
    /// The command line does not split (an unclosed quote, say).
    Parse {
        /// The command line as given.
        line: String,
        /// What the splitter said.
        error: String,
    },
    /// The command line has no words.
    Empty,
    /// The operating system refused to start the program.
    Start {
        /// The program.
        program: String,
        /// The operating system's error.
        error: String,
    },
}

impl std::fmt::Display for SpawnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpawnError::Parse { line, error } => {
                write!(f, "cannot split command {line:?}: {error}")
            }
            SpawnError::Empty => f.write_str("the peer command is empty"),
            SpawnError::Start { program, error } => write!(f, "cannot start {program}: {error}"),
        }
    }
}

impl std::error::Error for SpawnError {}

/// How [`StdioPeer::shutdown`] ended the peer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndedBy {
    /// It had exited, or exited once its input closed.
    Exited,
    /// It exited on SIGTERM to its group.
    Sigterm,
    /// It ignored SIGTERM and was killed with SIGKILL to its group.
    Sigkill,
    /// It was still not reaped after SIGKILL (stuck in the kernel).
    Unkillable,
}

/// What became of a peer, for the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShutdownReport {
    /// How the main process ended, if it was reaped.
    pub status: Option<ExitStatus>,
    /// What it took to end it.
    pub ended_by: EndedBy,
    /// The main process exited while a child it left kept stdout open.
    pub leaky: bool,
    /// Members of the peer's process group outlived the main process; they
    /// were killed.
    pub group_outlived: bool,
    /// The first [`Limits::stderr_cap`] bytes the peer wrote to stderr.
    pub stderr: Vec<u8>,
    /// Stderr bytes past the cap, counted and dropped.
    pub stderr_dropped: u64,
    /// Received frames dropped because the queue was full.
    pub frames_dropped: u64,
    /// How long the shutdown took.
    pub took: Duration,
}

#[derive(Debug, Default)]
struct Captured {
    bytes: Vec<u8>,
    dropped: u64,
}

/// What the reader task passes on.
enum Read {
    Line(Line),
    End,
}

/// A peer running as a child process, spoken to over its stdin and stdout.
#[derive(Debug)]
pub struct StdioPeer {
    child: Child,
    group: Group,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<Read>,
    dropped: Arc<AtomicU64>,
    stderr: Arc<Mutex<Captured>>,
    reader: JoinHandle<()>,
    stderr_task: JoinHandle<()>,
    /// The main process's status and when it was seen, once it exited.
    exit: Option<(Option<ExitStatus>, Instant)>,
    /// Once the output is over, every later `recv` repeats this.
    closed: Option<Event>,
    limits: Limits,
}

impl StdioPeer {
    /// Starts `command` in a new process group with piped stdin, stdout and
    /// stderr. Must be called inside a tokio runtime.
    pub fn spawn(command: &PeerCommand, limits: Limits) -> Result<StdioPeer, SpawnError> {
        let mut cmd = tokio::process::Command::from(command.command());
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own group: SIGTERM and SIGKILL reach every process it starts.
            .process_group(0)
            // A peer is never left running if the runner unwinds past it.
            .kill_on_drop(true);
        let mut child = cmd.spawn().map_err(|e| command.start_error(&e))?;
        let group = Group::led_by(child.id());
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_pipe = child.stderr.take().expect("stderr is piped");
        let (tx, lines) = mpsc::channel(limits.queue_cap.max(1));
        let dropped = Arc::new(AtomicU64::new(0));
        let reader = tokio::spawn(pump_stdout(
            stdout,
            limits.max_frame,
            tx,
            Arc::clone(&dropped),
        ));
        let stderr = Arc::new(Mutex::new(Captured::default()));
        let stderr_task = tokio::spawn(pump_stderr(
            stderr_pipe,
            limits.stderr_cap,
            Arc::clone(&stderr),
        ));
        Ok(StdioPeer {
            child,
            group,
            stdin,
            lines,
            dropped,
            stderr,
            reader,
            stderr_task,
            exit: None,
            closed: None,
            limits,
        })
    }

    /// The main process's id (also its process group's id) while it runs.
    #[must_use]
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// The stderr kept so far and the count of bytes dropped past the cap.
    #[must_use]
    pub fn stderr(&self) -> (Vec<u8>, u64) {
        let captured = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        (captured.bytes.clone(), captured.dropped)
    }

    /// Writes `frame` and a newline, giving up after [`Limits::write_timeout`].
    pub async fn send(&mut self, frame: &[u8]) -> Result<(), SendError> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(SendError::Closed("the input was closed earlier".into()));
        };
        // One write for frame and delimiter, so no other frame lands between them.
        let mut line = Vec::with_capacity(frame.len() + 1);
        line.extend_from_slice(frame);
        line.push(b'\n');
        let limit = self.limits.write_timeout;
        let written = timeout(limit, async {
            stdin.write_all(&line).await?;
            stdin.flush().await
        })
        .await;
        match written {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => {
                self.stdin = None;
                Err(SendError::Closed(e.to_string()))
            }
            Err(_) => {
                // Part of the line may be in the pipe: nothing sent after it
                // could be read as a frame of its own, so stop here.
                self.stdin = None;
                Err(SendError::TimedOut(limit))
            }
        }
    }

    /// Waits for the next line, the end of the output, or `deadline`.
    pub async fn recv(&mut self, deadline: Instant) -> Event {
        if let Some(closed) = &self.closed {
            return closed.clone();
        }
        loop {
            let leak_at = self.exit.map(|(_, at)| at + self.limits.leak_grace);
            tokio::select! {
                // Lines already read come before any news of the exit, so a
                // peer's last words are never cut off by its own exit.
                biased;
                read = self.lines.recv() => match read {
                    Some(Read::Line(Line::Frame(bytes))) => return Event::Frame(bytes),
                    Some(Read::Line(Line::TooLong(n))) => {
                        return Event::TooLong { bytes_skipped: n as u64 }
                    }
                    Some(Read::End) | None => {
                        let until = deadline.min(Instant::now() + self.limits.leak_grace);
                        let status = self.exit_status_by(until).await;
                        return self.close(Event::Closed { status, leaky: false });
                    }
                },
                status = self.child.wait(), if self.exit.is_none() => {
                    self.exit = Some((status.ok(), Instant::now()));
                }
                () = sleep_until(leak_at.unwrap_or(deadline)), if leak_at.is_some() => {
                    let status = self.exit.and_then(|(s, _)| s);
                    return self.close(Event::Closed { status, leaky: true });
                }
                () = sleep_until(deadline) => return Event::TimedOut,
            }
        }
    }

    fn close(&mut self, event: Event) -> Event {
        self.closed = Some(event.clone());
        event
    }

    /// Waits up to `within` for the process to exit and its stderr to be read
    /// to the end (a peer that died at start may not have been read yet),
    /// and returns its exit status as text when it exited.
    pub async fn settle(&mut self, within: Duration) -> Option<String> {
        let until = Instant::now() + within;
        let status = self.exit_status_by(until).await;
        while !self.stderr_task.is_finished() && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        status.map(|s| s.to_string())
    }

    /// The main process's status, waiting for it no later than `until`.
    async fn exit_status_by(&mut self, until: Instant) -> Option<ExitStatus> {
        if let Some((status, _)) = self.exit {
            return status;
        }
        match tokio::time::timeout_at(until, self.child.wait()).await {
            Ok(status) => {
                let status = status.ok();
                self.exit = Some((status, Instant::now()));
                status
            }
            Err(_) => None,
        }
    }

    /// Ends the peer: closes its input and waits up to `grace`, then SIGTERM to
    /// its process group and up to `grace` more, then SIGKILL; reaps it, and
    /// kills whatever of its group outlived it.
    pub async fn shutdown(mut self, grace: Duration) -> ShutdownReport {
        let started = Instant::now();
        let leaky = matches!(self.closed, Some(Event::Closed { leaky: true, .. }));
        self.stdin = None;
        let mut ended_by = EndedBy::Exited;
        if self.exit.is_none() && self.exit_status_by(started + grace).await.is_none() {
            ended_by = EndedBy::Sigterm;
            self.group.signal(Some(Signal::SIGTERM));
            if self.exit_status_by(Instant::now() + grace).await.is_none() {
                ended_by = EndedBy::Sigkill;
                self.group.signal(Some(Signal::SIGKILL));
                if self
                    .exit_status_by(Instant::now() + Duration::from_secs(2))
                    .await
                    .is_none()
                {
                    ended_by = EndedBy::Unkillable;
                }
            }
        }
        let group_outlived = self.group.alive();
        if group_outlived {
            self.group.signal(Some(Signal::SIGKILL));
        }
        // With the group gone its pipes close; a process that left the group
        // (setsid) could hold them forever, so the drains get a short bound.
        let drain_by = Instant::now() + Duration::from_millis(200);
        let _ = tokio::time::timeout_at(drain_by, &mut self.stderr_task).await;
        self.reader.abort();
        self.stderr_task.abort();
        let (stderr, stderr_dropped) = self.stderr();
        ShutdownReport {
            status: self.exit.and_then(|(s, _)| s),
            ended_by,
            leaky,
            group_outlived,
            stderr,
            stderr_dropped,
            frames_dropped: self.dropped.load(Ordering::Relaxed),
            took: started.elapsed(),
        }
    }
}

impl Drop for StdioPeer {
    fn drop(&mut self) {
        // `shutdown` is the orderly way; this is for a runner that bails out.
        if self.exit.is_none() || self.group.alive() {
            self.group.signal(Some(Signal::SIGKILL));
        }
        self.reader.abort();
        self.stderr_task.abort();
    }
}

impl Transport for StdioPeer {
    async fn send(&mut self, frame: &[u8]) -> Result<(), SendError> {
        StdioPeer::send(self, frame).await
    }

    async fn recv(&mut self, deadline: Instant) -> Event {
        StdioPeer::recv(self, deadline).await
    }

    fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    fn starts_fresh(&self) -> bool {
        true
    }

    fn one_stream_each_way(&self) -> bool {
        true
    }
}

/// Reads stdout line by line into the queue; when the queue is full the line
/// is dropped and counted, so a flooding peer costs a fixed amount of memory.
async fn pump_stdout(
    stdout: ChildStdout,
    max_frame: usize,
    tx: mpsc::Sender<Read>,
    dropped: Arc<AtomicU64>,
) {
    let mut reader = BufReader::with_capacity(1 << 16, stdout);
    loop {
        match read_line(&mut reader, max_frame).await {
            Ok(Some(line)) => match tx.try_send(Read::Line(line)) {
                Ok(()) => {}
                Err(mpsc::error::TrySendError::Full(_)) => {
                    dropped.fetch_add(1, Ordering::Relaxed);
                }
                Err(mpsc::error::TrySendError::Closed(_)) => return,
            },
            // A read error ends the output as surely as end of file does.
            Ok(None) | Err(_) => {
                let _ = tx.send(Read::End).await;
                return;
            }
        }
    }
}

/// Keeps the first `cap` bytes of stderr and counts the rest, reading to the
/// end so the peer never blocks on a full stderr pipe.
async fn pump_stderr(mut stderr: ChildStderr, cap: usize, into: Arc<Mutex<Captured>>) {
    let mut buf = vec![0u8; 8 << 10];
    loop {
        let n = match stderr.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        let mut captured = into.lock().unwrap_or_else(|p| p.into_inner());
        let room = cap.saturating_sub(captured.bytes.len()).min(n);
        captured.bytes.extend_from_slice(&buf[..room]);
        captured.dropped += (n - room) as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell_without_one() {
        let cmd = PeerCommand::parse(r#"node "my server.js" --flag='a b' \$HOME"#).unwrap();
        assert_eq!(cmd.program, "node");
        assert_eq!(cmd.args, ["my server.js", "--flag=a b", "$HOME"]);
        assert_eq!(PeerCommand::parse("   "), Err(SpawnError::Empty));
        assert!(matches!(
            PeerCommand::parse("node 'unclosed"),
            Err(SpawnError::Parse { .. })
        ));
    }

    #[test]
    fn debug_names_the_environment_s_keys_never_its_values() {
        let mut cmd = PeerCommand::shell("true");
        cmd.env = vec![
            ("API_KEY".into(), "sk-secret-1".into()),
            ("MODE".into(), "a".into()),
            ("API_KEY".into(), "sk-secret-2".into()),
        ];
        assert_eq!(cmd.env_keys(), ["API_KEY", "MODE"]);
        let shown = format!("{cmd:?}");
        assert!(shown.contains("API_KEY"), "{shown}");
        assert!(!shown.contains("sk-secret"), "{shown}");
    }

    /// The environment is this process's plus the pairs (later ones win),
    /// and the directory is the one given: both applied by the transport.
    #[tokio::test]
    async fn a_peer_starts_with_its_environment_and_directory() {
        let dir = std::env::temp_dir();
        let mut cmd =
            PeerCommand::shell(r#"echo "$WIRECHECK_T_A|$WIRECHECK_T_B|${PATH:+path}|$(pwd -P)""#);
        cmd.env = vec![
            ("WIRECHECK_T_A".into(), "1".into()),
            ("WIRECHECK_T_B".into(), "x".into()),
            ("WIRECHECK_T_B".into(), "y".into()),
        ];
        cmd.cwd = Some(dir.clone());
        let mut peer = StdioPeer::spawn(&cmd, Limits::default()).unwrap();
        let line = match peer.recv(Instant::now() + Duration::from_secs(10)).await {
            Event::Frame(bytes) => String::from_utf8(bytes).unwrap(),
            other => panic!("{other:?}"),
        };
        let real = dir.canonicalize().unwrap();
        assert_eq!(line, format!("1|y|path|{}", real.display()));
        peer.shutdown(Duration::from_millis(200)).await;
        // A directory that is not there is named in the error.
        cmd.cwd = Some("/nonexistent/wirecheck-cwd".into());
        let e = StdioPeer::spawn(&cmd, Limits::default()).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/wirecheck-cwd"), "{e}");
    }
}
