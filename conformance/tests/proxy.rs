//! `wirecheck proxy`: what a host sees through it is what it would see without
//! it, byte for byte; what it finds is what `wirecheck check` finds in its
//! recording; and a server that will not start or will not stop ends in a
//! clear exit, not a hang.

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn wirecheck() -> &'static str {
    env!("CARGO_BIN_EXE_wirecheck")
}

/// Runs `wirecheck proxy ARGS -- SERVER…` with `input` on its standard input.
fn proxy(args: &[&str], server: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(wirecheck())
        .arg("proxy")
        .args(args)
        .arg("--")
        .args(server)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("wirecheck starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread: a large input must not block on a full pipe
    // while the output is not yet read.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wirecheck ends");
    writer.join().unwrap();
    out
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("wirecheck-proxy-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every kind of line a client may write, well-formed or not: the proxy must
/// pass each through untouched whether it lifts, is over `--max-frame`, is not
/// UTF-8, or ends the stream without a newline.
fn awkward_input() -> Vec<u8> {
    let mut input = Vec::new();
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":9007199254740993,\"method\":\"ping\"}\n");
    input.extend_from_slice(
        b"{\"jsonrpc\":\"2.0\",\"id\":1.0e0,\"method\":\"x\",\"params\":{\"b\":1,\"a\":2}}\r\n",
    );
    input.extend_from_slice(b"not json at all\n\n");
    input.extend_from_slice(&[0xff, 0xfe, b'{', b'}', b'\n']);
    input.extend_from_slice(b"{\"big\":\"");
    input.extend(std::iter::repeat_n(b'x', 200_000));
    input.extend_from_slice(b"\"}\n");
    input.extend_from_slice(b"[{\"jsonrpc\":\"2.0\",\"method\":\"n\"}]  ");
    input
}

#[test]
fn forwards_every_byte_unchanged_both_ways() {
    // `cat` answers with exactly what it was sent: the output must equal the
    // input, so both directions are byte-identical through the proxy.
    let input = awkward_input();
    let dir = scratch("bytes");
    let record = dir.join("rec.jsonl");
    let log = dir.join("log.jsonl");
    let out = proxy(
        &[
            "--max-frame",
            "65536",
            "--record",
            record.to_str().unwrap(),
            "--log",
            log.to_str().unwrap(),
        ],
        &["cat"],
        &input,
    );
    assert_eq!(out.stdout.len(), input.len(), "byte count differs");
    assert!(out.stdout == input, "the bytes differ");
    // The 200 kB line is over --max-frame: forwarded, said so, not recorded.
    let log = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        log.lines()
            .filter(|l| l.contains("over --max-frame"))
            .count(),
        2,
        "one record per direction for the long line: {log}"
    );
    let recorded = std::fs::read_to_string(&record).unwrap();
    // Six frames each way (the empty line counts, the long one is not kept),
    // then the server's close.
    assert_eq!(recorded.lines().count(), 2 * 6 + 1, "{recorded}");
    assert!(
        recorded.contains("\"frame_hex\":\"fffe7b7d\""),
        "{recorded}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `(rule, frame)` of every finding in a JSON-lines report.
fn findings(json_lines: &str) -> BTreeSet<(String, u64)> {
    json_lines
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|r| {
            Some((
                r.get("rule")?.as_str()?.to_owned(),
                r.get("frame")
                    .and_then(serde_json::Value::as_u64)
                    .unwrap_or(u64::MAX),
            ))
        })
        .collect()
}

#[test]
fn a_recording_rejudged_by_check_gives_the_same_findings() {
    let dir = scratch("rejudge");
    let record = dir.join("rec.jsonl");
    let log = dir.join("log.jsonl");
    // A client that asks before the handshake is over, sends a frame that is
    // not JSON and reuses an id: findings on the client's side, against the
    // reference peer.
    let input = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n",
        "{oops\n",
        r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
        "\n",
    );
    let out = proxy(
        &[
            "--record",
            record.to_str().unwrap(),
            "--log",
            log.to_str().unwrap(),
        ],
        &[wirecheck(), "serve"],
        input.as_bytes(),
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "a MUST is broken (the frame that is not JSON)"
    );
    // Every request was answered through the proxy.
    let answers = String::from_utf8_lossy(&out.stdout);
    for id in ["\"id\":1,", "\"id\":2,", "\"id\":3,", "\"id\":null"] {
        assert!(answers.contains(id), "no answer with {id}: {answers}");
    }
    let live = findings(&std::fs::read_to_string(&log).unwrap());
    assert!(
        live.contains(&("json.syntax".to_owned(), 3)),
        "the frame that is not JSON: {live:?}"
    );
    assert!(
        live.iter()
            .any(|(r, _)| r == "mcp.lifecycle.client-pre-init-requests"),
        "tools/list before the handshake ended: {live:?}"
    );
    let check = Command::new(wirecheck())
        .args(["check", "--quiet"])
        .arg(&record)
        .output()
        .unwrap();
    let rejudged = findings(&String::from_utf8_lossy(&check.stdout));
    assert_eq!(
        live, rejudged,
        "the live judge and `wirecheck check` disagree"
    );
    assert_eq!(check.status.code(), out.status.code());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_server_that_cannot_start_is_a_usage_error() {
    let out = proxy(&[], &["/nonexistent/server-binary"], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot start `/nonexistent/server-binary`"),
        "{err}"
    );
}

#[test]
fn a_server_that_ignores_its_closed_input_is_terminated() {
    // `sleep` never reads its input: after the host closes it, the server has
    // the grace, then SIGTERM.
    let start = Instant::now();
    let mut child = Command::new(wirecheck())
        .args(["proxy", "--shutdown-grace", "200ms", "--", "sleep", "60"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdin.take());
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "the proxy did not end");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(err.contains("terminated"), "{err}");
    assert!(status.code().is_some(), "the proxy exits, it is not killed");
    assert!(start.elapsed() < Duration::from_secs(20));
}

/// Ctrl-C stops `wirecheck proxy -- SERVER` at once: the server is stopped,
/// what passed is judged as a capture that stops there (a request still
/// unanswered is not observed, not a failure: the proxy cut it short, not the
/// server), a record says the conversation was cut short, the report is written
/// and the exit is 2. It used to die of the signal with no report.
#[test]
fn ctrl_c_stops_the_proxy_and_reports_what_it_judged() {
    let dir = scratch("ctrl-c");
    let log = dir.join("findings.txt");
    let record = dir.join("rec.jsonl");
    // `sleep` never answers: the ping stays in flight.
    let mut child = Command::new(wirecheck())
        .args([
            "proxy",
            "--format",
            "terminal",
            "--log",
            log.to_str().unwrap(),
            "--record",
            record.to_str().unwrap(),
            "--",
            "sleep",
            "60",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\n")
        .unwrap();
    stdin.flush().unwrap();
    // The recording is flushed per frame: once it holds the ping, the proxy
    // has seen it (and listens for Ctrl-C: that is set up before the server
    // starts).
    let deadline = Instant::now() + Duration::from_secs(20);
    while !std::fs::read_to_string(&record).is_ok_and(|r| r.contains("ping")) {
        assert!(Instant::now() < deadline, "the proxy never saw the ping");
        std::thread::sleep(Duration::from_millis(20));
    }
    let stopped = Instant::now();
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            stopped.elapsed() < Duration::from_secs(10),
            "the proxy did not stop on Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(stdin);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let report = std::fs::read_to_string(&log).unwrap();
    assert_eq!(status.code(), Some(2), "{err}\n{report}");
    assert!(
        report.contains("interrupted (Ctrl-C) after 1 frame(s): judged up to there"),
        "{report}"
    );
    assert!(
        report.contains("the capture ended before an answer to `ping` (id 7)"),
        "{report}"
    );
    assert!(!report.contains("FAIL"), "{report}");
    assert!(
        report.contains("wirecheck proxy: 2 not-observed"),
        "{report}"
    );
    assert!(err.contains("the server was stopped"), "{err}");
    assert!(
        err.contains("interrupted (Ctrl-C) after 1 frame(s)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
