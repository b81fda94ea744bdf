//! What `wirecheck proxy` adds to a round trip on loopback: a `ping` written
//! to the reference peer (`wirecheck serve`) and its answer read back, once
//! straight and once through `wirecheck proxy -- wirecheck serve`. The
//! difference of the two is the latency the proxy adds per frame pair (the
//! target: under 100 µs median).
//!
//! Over HTTP the same: a `ping` POSTed on one kept-alive connection to
//! `wirecheck serve --http` and its JSON answer read back, straight and
//! through `wirecheck proxy --listen … --upstream …` (the proxy's own
//! connection to the upstream is kept alive too). The client is a few lines
//! of HTTP/1.1 over a `TcpStream`, so its own cost is as small as it gets.
//!
//! Needs the release binary: `cargo build --release -p wirecheck` (or
//! `WIRECHECK_BIN=path`); without it the bench says so and measures nothing.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use criterion::{criterion_group, criterion_main, Criterion};

#[path = "../criterion_config.rs"]
mod criterion_config;

fn binary() -> Option<PathBuf> {
    let path = std::env::var_os("WIRECHECK_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/wirecheck"),
        PathBuf::from,
    );
    path.is_file().then_some(path)
}

/// A peer with its pipes, handshake done.
struct Peer {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    line: String,
}

impl Peer {
    fn start(program: &PathBuf, args: &[&str]) -> Self {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the peer starts");
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        let mut peer = Self {
            child,
            input,
            output,
            line: String::new(),
        };
        peer.round_trip(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#);
        peer.input
            .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
            .expect("written");
        peer
    }

    /// Writes one frame and reads one answer line.
    fn round_trip(&mut self, frame: &[u8]) {
        self.input.write_all(frame).expect("written");
        self.input.write_all(b"\n").expect("written");
        self.input.flush().expect("flushed");
        self.line.clear();
        self.output.read_line(&mut self.line).expect("answered");
        assert!(self.line.contains("\"result\""), "{}", self.line);
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn proxy(c: &mut Criterion) {
    let Some(bin) = binary() else {
        eprintln!(
            "proxy bench: no release binary (cargo build --release -p wirecheck, or set WIRECHECK_BIN); nothing measured"
        );
        return;
    };
    let bin_str = bin.to_string_lossy().into_owned();
    // A fresh id each time: a reused one would be a finding for the proxy's
    // judge to write, which is not the path being measured.
    let mut n = 0u64;
    let mut ping = move || {
        n += 1;
        format!(r#"{{"jsonrpc":"2.0","id":{n},"method":"ping"}}"#)
    };
    let mut group = c.benchmark_group("proxy");
    let mut direct = Peer::start(&bin, &["serve"]);
    group.bench_function("ping round trip, direct", |b| {
        b.iter(|| direct.round_trip(ping().as_bytes()));
    });
    drop(direct);
    let mut proxied = Peer::start(&bin, &["proxy", "--", &bin_str, "serve"]);
    group.bench_function("ping round trip, through wirecheck proxy", |b| {
        b.iter(|| proxied.round_trip(ping().as_bytes()));
    });
    drop(proxied);
    let upstream = Listening::start(&bin, &["serve", "--http", "127.0.0.1:0"]);
    let mut direct = Http::connect(&upstream.addr);
    group.bench_function("HTTP ping POST, direct", |b| {
        b.iter(|| direct.ping(&ping()));
    });
    drop(direct);
    let through = Listening::start(
        &bin,
        &[
            "proxy",
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            &format!("http://{}/mcp", upstream.addr),
        ],
    );
    let mut proxied = Http::connect(&through.addr);
    group.bench_function("HTTP ping POST, through wirecheck proxy", |b| {
        b.iter(|| proxied.ping(&ping()));
    });
    group.finish();
}

/// A child that prints `listening on http://ADDR…` first on stderr.
struct Listening {
    child: Child,
    addr: String,
}

impl Listening {
    fn start(program: &PathBuf, args: &[&str]) -> Self {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("it starts");
        let mut stderr = BufReader::new(child.stderr.take().expect("piped"));
        let mut line = String::new();
        stderr.read_line(&mut line).expect("it prints its address");
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_owned();
        // The rest of stderr (the proxy's findings) is read and dropped, so
        // a full pipe never stalls the child.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        Self { child, addr }
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One kept-alive HTTP/1.1 connection with an MCP session, handshake done.
struct Http {
    out: TcpStream,
    input: BufReader<TcpStream>,
    addr: String,
    session: Option<String>,
}

impl Http {
    fn connect(addr: &str) -> Self {
        let out = TcpStream::connect(addr).expect("it listens");
        out.set_nodelay(true).expect("nodelay");
        let input = BufReader::new(out.try_clone().expect("a second handle"));
        let mut http = Self {
            out,
            input,
            addr: addr.to_owned(),
            session: None,
        };
        let (status, session, _) = http.post(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#);
        assert_eq!(status, 200);
        http.session = Some(session.expect("the answer names a session"));
        let (status, _, _) = http.post(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        assert_eq!(status, 202);
        http
    }

    fn ping(&mut self, frame: &str) {
        let (status, _, body) = self.post(frame);
        assert_eq!(status, 200);
        assert!(
            body.windows(8).any(|w| w == b"\"result\""),
            "{}",
            String::from_utf8_lossy(&body)
        );
    }

    /// POSTs `body` to /mcp; the status, the `Mcp-Session-Id`, the body.
    fn post(&mut self, body: &str) -> (u16, Option<String>, Vec<u8>) {
        let session = self
            .session
            .as_ref()
            .map(|s| format!("mcp-session-id: {s}\r\n"))
            .unwrap_or_default();
        let request = format!(
            "POST /mcp HTTP/1.1\r\nhost: {}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\nmcp-protocol-version: 2025-06-18\r\n{session}content-length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        self.out.write_all(request.as_bytes()).expect("written");
        let mut line = String::new();
        self.input.read_line(&mut line).expect("a status line");
        let status = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("status line {line:?}"));
        let mut length = None;
        let mut session = None;
        loop {
            line.clear();
            self.input.read_line(&mut line).expect("a header");
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            let (name, value) = header.split_once(':').expect("name: value");
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse::<usize>().ok(),
                "mcp-session-id" => session = Some(value.trim().to_owned()),
                _ => {}
            }
        }
        let mut answer = vec![0; length.expect("a JSON answer has a Content-Length")];
        self.input.read_exact(&mut answer).expect("the body");
        (status, session, answer)
    }
}

criterion_group! {
    name = benches;
    config = criterion_config::config();
    targets = proxy
}
criterion_main!(benches);
