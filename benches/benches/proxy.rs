//! What `wirecheck proxy` adds to a round trip on loopback: a `ping` written
//! to the reference peer (`wirecheck serve`) and its answer read back, once
//! straight and once through `wirecheck proxy -- wirecheck serve`. The
//! difference of the two is the latency the proxy adds per frame pair (the
//! target: under 100 µs median).
//!
//! Needs the release binary: `cargo build --release -p wirecheck` (or
//! `WIRECHECK_BIN=path`); without it the bench says so and measures nothing.

use std::io::{BufRead, BufReader, Write};
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
    group.finish();
}

criterion_group! {
    name = benches;
    config = criterion_config::config();
    targets = proxy
}
criterion_main!(benches);
