//! The stdio proxy's plumbing: a server started as a child, every byte the
//! client writes forwarded to it and every byte it writes forwarded back,
//! unchanged and at once, while a copy of each direction is cut into frames
//! for whoever judges them (`wirecheck proxy -- SERVER`, [`crate::cmd::proxy`]).
//!
//! Forwarding does not wait for judging. Each direction has its own thread that
//! reads what is there, hands a copy of the chunk to the observing thread over
//! a bounded channel, then writes it through and flushes (only a flood faster
//! than the judge is slowed to its pace, so memory stays bounded). The copy
//! goes first so that the observer sees the two directions in the order the
//! sides could have: never a server's answer before the request it answers,
//! never a side's end before what it sent last. Frames are cut from those
//! copies there, with the bounded line rule of [`crate::lines`]. A frame that
//! does not lift is forwarded like any other: the proxy changes nothing a side
//! sees, so a client's bug reaches the server as it would without it.

use std::io::{self, Read, Write};
use std::process::{ChildStdin, ChildStdout, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread;
use std::time::{Duration, Instant};

use harness::Direction;

use crate::lines::{Accumulator, Line};
use crate::transport::process::Supervised;
use crate::transport::stdio::{PeerCommand, SpawnError};

use super::Seen;

/// How the proxy runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// The longest frame kept for judging; a longer one is still forwarded.
    pub max_frame: usize,
    /// After the client closes its end, how long the server has to close its
    /// own before it is terminated (the stdio transport's shutdown sequence:
    /// close the input, wait, then SIGTERM, then SIGKILL).
    pub shutdown_grace: Duration,
    /// Stop at Ctrl-C (SIGINT, [`crate::interrupt`]): nothing more is
    /// observed, the server is terminated, and [`Ended::interrupted`] says
    /// so. Off, SIGINT does what it does to any process.
    pub interruptible: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            max_frame: harness::Limits::DEFAULT_MAX_FRAME_BYTES,
            shutdown_grace: Duration::from_secs(5),
            interruptible: false,
        }
    }
}

/// How the child ended.
#[derive(Debug)]
pub struct Ended {
    /// Its exit status, when it could be waited for.
    pub status: Option<ExitStatus>,
    /// Whether the proxy had to terminate it after the shutdown grace.
    pub terminated: bool,
    /// Whether Ctrl-C stopped the proxy (and it terminated the server):
    /// the conversation was cut short, not ended by either side.
    pub interrupted: bool,
}

/// How long the server has between SIGTERM and SIGKILL to its group.
const TERMINATE_GRACE: Duration = Duration::from_secs(1);

/// A chunk one direction read, or its end, or Ctrl-C.
enum Chunk {
    Data(Direction, Vec<u8>, Instant),
    End(Direction, Instant),
    Interrupted,
}

/// Starts `command` (program and arguments, no shell, in its environment
/// and directory) and proxies between
/// `client_in`/`client_out` and its standard input/output until the server
/// closes its output; `observe` is called on this thread with each frame
/// and end, in order per side. The server's standard error is inherited.
///
/// # Errors
/// The command is empty or cannot be started.
pub fn stdio(
    command: &PeerCommand,
    client_in: impl Read + Send + 'static,
    client_out: impl Write + Send + 'static,
    options: &Options,
    mut observe: impl FnMut(Seen),
) -> Result<Ended, String> {
    if command.program.is_empty() {
        return Err("no server command (give it after `--`)".into());
    }
    // Bounded: a side that floods faster than frames are judged is slowed to
    // the judge's pace rather than held in memory (at most this many 64 KiB
    // chunks wait).
    let (tx, rx) = mpsc::sync_channel(256);
    if options.interruptible {
        // Listening before the server starts: a Ctrl-C from here on is
        // observed, in its order among the chunks.
        let interrupt = tx.clone();
        crate::interrupt::on_ctrl_c(move || {
            let _ = interrupt.send(Chunk::Interrupted);
        })?;
    }
    // Its own process group, as the runner's peers: a Ctrl-C at the
    // terminal then reaches wirecheck alone, which ends the server itself
    // after judging, rather than racing the server's own death (whose closed
    // output would be judged as a close); and ending it ends its group.
    let mut child = Supervised::spawn(
        command
            .command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit()),
    )
    .map_err(|e| match command.start_error(&e) {
        SpawnError::Start { program, error } => format!("cannot start `{program}`: {error}"),
        other => other.to_string(),
    })?;
    let start = Instant::now();
    let to_server = child
        .child()
        .stdin
        .take()
        .ok_or("the server's stdin is not piped")?;
    let from_server = child
        .child()
        .stdout
        .take()
        .ok_or("the server's stdout is not piped")?;
    spawn_upstream(client_in, to_server, tx.clone());
    spawn_downstream(from_server, client_out, tx);
    let (mut terminated, interrupted) =
        observe_until_server_closes(&rx, start, options, &mut child, &mut observe);
    if interrupted {
        // Ctrl-C stops the proxy now: the server is not waited for.
        let status = child.stop(TERMINATE_GRACE);
        return Ok(Ended {
            status,
            terminated: true,
            interrupted,
        });
    }
    // A server that closed its output but keeps running (its input may still
    // be open, held by a forwarding thread) gets the grace, then the signals:
    // the proxy never waits on it for ever.
    let status = match child.wait_for(options.shutdown_grace) {
        Ok(Some(status)) => Some(status),
        Ok(None) => {
            terminated = true;
            child.stop(TERMINATE_GRACE)
        }
        Err(_) => None,
    };
    Ok(Ended {
        status,
        terminated,
        interrupted,
    })
}

/// Client → server. When the client closes its end the server's input is
/// closed too (dropped), which is how a stdio client asks a server to exit.
fn spawn_upstream(mut from: impl Read + Send + 'static, to: ChildStdin, tx: SyncSender<Chunk>) {
    thread::spawn(move || {
        let mut to = Some(to);
        forward(&mut from, &mut to, Direction::ClientToServer, &tx);
    });
}

/// Server → client.
fn spawn_downstream(mut from: ChildStdout, to: impl Write + Send + 'static, tx: SyncSender<Chunk>) {
    thread::spawn(move || {
        let mut to = Some(to);
        forward(&mut from, &mut to, Direction::ServerToClient, &tx);
    });
}

/// Copies `from` to `to` chunk by chunk, flushing each, and sends a copy of
/// each chunk to the observer first. A destination that fails (the other side went
/// away) is dropped and reading goes on, so the sender is never blocked and
/// what it still says is judged.
fn forward<W: Write>(
    from: &mut impl Read,
    to: &mut Option<W>,
    direction: Direction,
    tx: &SyncSender<Chunk>,
) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let chunk = &buf[..n];
        // Told before it is written, for the same reason as the end below: a
        // server may answer a request the moment it reads it, and its answer
        // must not reach the observer before the request does.
        let told = tx
            .send(Chunk::Data(direction, chunk.to_vec(), Instant::now()))
            .is_ok();
        if let Some(w) = to.as_mut() {
            if w.write_all(chunk).and_then(|()| w.flush()).is_err() {
                *to = None;
            }
        }
        if !told {
            break;
        }
    }
    // The end is told before the destination is dropped. Dropping the
    // upstream's closes the server's input, and a server that exits on that
    // closes its output: were the client's end sent after, the observer could
    // see the server's end first, stop, and lose the client's last line.
    let _ = tx.send(Chunk::End(direction, Instant::now()));
    *to = None;
}

/// Cuts frames from the chunks and hands them to `observe` until the server
/// has closed its output, or Ctrl-C. Returns whether the server had to be
/// terminated, and whether Ctrl-C came (then nothing after it is observed:
/// the conversation is cut short there, neither side's end is told).
fn observe_until_server_closes(
    rx: &Receiver<Chunk>,
    start: Instant,
    options: &Options,
    child: &mut Supervised,
    observe: &mut impl FnMut(Seen),
) -> (bool, bool) {
    let mut client = Framer::new(Direction::ClientToServer, options.max_frame);
    let mut server = Framer::new(Direction::ServerToClient, options.max_frame);
    let mut client_closed_at: Option<Instant> = None;
    let mut terminated = false;
    loop {
        // Once the client has closed, the server has the grace to follow.
        let chunk = match client_closed_at {
            None => match rx.recv() {
                Ok(c) => c,
                Err(_) => break,
            },
            Some(at) => {
                let left = options.shutdown_grace.saturating_sub(at.elapsed());
                match rx.recv_timeout(left) {
                    Ok(c) => c,
                    Err(mpsc::RecvTimeoutError::Timeout) if !terminated => {
                        child.stop(TERMINATE_GRACE);
                        terminated = true;
                        continue;
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        // Terminated and still silent: the output pipe is
                        // held by something else; stop waiting for it.
                        child.kill();
                        break;
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
        };
        let secs = |at: Instant| at.duration_since(start).as_secs_f64();
        match chunk {
            Chunk::Data(Direction::ClientToServer, bytes, at) => {
                client.feed(&bytes, secs(at), observe);
            }
            Chunk::Data(Direction::ServerToClient, bytes, at) => {
                server.feed(&bytes, secs(at), observe);
            }
            Chunk::End(Direction::ClientToServer, at) => {
                client.end(secs(at), observe);
                client_closed_at = Some(Instant::now());
            }
            Chunk::End(Direction::ServerToClient, at) => {
                server.end(secs(at), observe);
                break;
            }
            Chunk::Interrupted => return (terminated, true),
        }
    }
    (terminated, false)
}

/// One direction's frames, cut from its chunks.
struct Framer {
    from: Direction,
    max: usize,
    line: Accumulator,
}

impl Framer {
    fn new(from: Direction, max: usize) -> Self {
        Self {
            from,
            max,
            line: Accumulator::new(max),
        }
    }

    fn feed(&mut self, mut bytes: &[u8], t: f64, observe: &mut impl FnMut(Seen)) {
        while !bytes.is_empty() {
            let (used, ended) = self.line.take(bytes);
            bytes = &bytes[used..];
            if ended {
                let line = std::mem::replace(&mut self.line, Accumulator::new(self.max));
                observe(self.seen(line.finish(), t));
            }
        }
    }

    /// The end of the stream: a last line without its newline is a frame too.
    fn end(&mut self, t: f64, observe: &mut impl FnMut(Seen)) {
        let line = std::mem::replace(&mut self.line, Accumulator::new(self.max));
        if !line.is_empty() {
            observe(self.seen(line.finish(), t));
        }
        observe(Seen::Closed { from: self.from, t });
    }

    fn seen(&self, line: Line, t: f64) -> Seen {
        match line {
            Line::Frame(bytes) => Seen::Frame {
                from: self.from,
                bytes,
                t,
            },
            Line::TooLong(len) => Seen::TooLong {
                from: self.from,
                len,
                t,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    fn frames(chunks: &[&[u8]], max: usize) -> Vec<Seen> {
        let mut out = Vec::new();
        let mut f = Framer::new(Direction::ClientToServer, max);
        for c in chunks {
            f.feed(c, 0.0, &mut |s| out.push(s));
        }
        f.end(1.0, &mut |s| out.push(s));
        out
    }

    fn frame(bytes: &[u8]) -> Seen {
        Seen::Frame {
            from: Direction::ClientToServer,
            bytes: bytes.to_vec(),
            t: 0.0,
        }
    }

    #[test]
    fn frames_are_cut_across_chunks_and_a_last_line_without_newline_counts() {
        let seen = frames(&[b"{\"a\":", b"1}\n{\"b\"", b":2}\n\nlast"], 1024);
        assert_eq!(seen[0], frame(b"{\"a\":1}"));
        assert_eq!(seen[1], frame(b"{\"b\":2}"));
        assert_eq!(seen[2], frame(b""));
        assert_eq!(
            seen[3],
            Seen::Frame {
                from: Direction::ClientToServer,
                bytes: b"last".to_vec(),
                t: 1.0
            }
        );
        assert_eq!(
            seen[4],
            Seen::Closed {
                from: Direction::ClientToServer,
                t: 1.0
            }
        );
        assert_eq!(seen.len(), 5);
    }

    #[test]
    fn a_line_over_the_bound_is_counted_not_kept() {
        let seen = frames(&[b"0123456789", b"abc\nok\n"], 8);
        assert_eq!(
            seen[0],
            Seen::TooLong {
                from: Direction::ClientToServer,
                len: 13,
                t: 0.0
            }
        );
        assert_eq!(seen[1], frame(b"ok"));
    }

    /// A destination that notes, at each write and when it is dropped
    /// (closed), what the observer had been told by then.
    struct Witness {
        told: Receiver<Chunk>,
        seen: Arc<Mutex<Vec<String>>>,
    }

    impl Witness {
        fn note(&mut self, what: &str) {
            let mut seen = self.seen.lock().unwrap();
            while let Ok(chunk) = self.told.try_recv() {
                seen.push(match chunk {
                    Chunk::Data(_, bytes, _) => format!("told {}", String::from_utf8_lossy(&bytes)),
                    Chunk::End(..) => "told end".to_owned(),
                    Chunk::Interrupted => "interrupted".to_owned(),
                });
            }
            seen.push(what.to_owned());
        }
    }

    impl Write for Witness {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.note(&format!("wrote {}", String::from_utf8_lossy(buf)));
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Drop for Witness {
        fn drop(&mut self) {
            self.note("closed");
        }
    }

    /// A server may answer a request the moment it reads it, and exit the
    /// moment its input closes (`cat`). So the observer must be told of each
    /// chunk before it is written, and of the end before the destination is
    /// closed: otherwise the server's answer, or its end, can reach the
    /// observer first (an answer before its request; the client's last line,
    /// one without a newline, lost: CI once lost it that way).
    #[test]
    fn the_observer_is_told_before_the_other_side_is() {
        let (tx, rx) = mpsc::sync_channel(4);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let mut to = Some(Witness {
            told: rx,
            seen: Arc::clone(&seen),
        });
        let mut from: &[u8] = b"{}\nlast";
        forward(&mut from, &mut to, Direction::ClientToServer, &tx);
        assert!(to.is_none(), "the destination is closed at the end");
        assert_eq!(
            *seen.lock().unwrap(),
            ["told {}\nlast", "wrote {}\nlast", "told end", "closed"]
        );
    }
}
