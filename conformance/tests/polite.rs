//! `wirecheck run --mode polite`, end to end: over the frames it actually
//! sends (its transcripts), none is one the full suite calls malformed; it
//! keeps the rate it is given; a budget stops it with the rest reported as
//! not run; a 429 with a short `Retry-After` is waited out once, and one
//! not waited out stops the run, never failing a check. And the one line a
//! full run against a server off this machine says first.

mod common;

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use harness::{Direction, Profile, Revision};
use serde_json::Value;

/// Fast enough for a test, slow enough to be measured.
const RATE: &str = "50";

fn outcome(record: &Value) -> &str {
    record["outcome"]["outcome"].as_str().unwrap_or("")
}

fn why(record: &Value) -> &str {
    record["outcome"]["why"].as_str().unwrap_or("")
}

/// `wirecheck run ARGS --format json --out DOC`: the output, its records
/// and its run document.
fn run(dir: &Path, args: &[&str]) -> (std::process::Output, Vec<Value>, Value) {
    let doc = dir.join("run.json");
    let doc_arg = doc.to_str().expect("a UTF-8 path");
    let mut all = vec!["run", "--format", "json", "--out", doc_arg];
    all.extend_from_slice(args);
    let out = common::wirecheck(&all, b"");
    let records = if out.stdout.is_empty() {
        Vec::new()
    } else {
        common::records(&out)
    };
    let doc: Value = std::fs::read(&doc)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or(Value::Null);
    (out, records, doc)
}

/// The records that fail or warn, for an assertion's message.
fn findings(records: &[Value]) -> Vec<&Value> {
    records
        .iter()
        .filter(|r| matches!(outcome(r), "fail" | "warning"))
        .collect()
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("wirecheck-polite-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp dir");
    dir
}

/// Every frame the client sent in the transcripts under `dir`, with how
/// many of them the suite calls malformed: the codec refuses it, or it
/// breaks a MUST of its own.
fn sent_frames(dir: &Path, revision: Revision) -> (usize, Vec<String>) {
    let mut sent = 0;
    let mut malformed = Vec::new();
    for entry in std::fs::read_dir(dir).expect("the transcripts") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        let text = std::fs::read(&path).expect("a transcript");
        for line in text.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            let entry = wirecheck::transcript::parse_line(line).expect("a transcript line");
            if entry.from() != Some(Direction::ClientToServer) {
                continue;
            }
            let Some(bytes) = entry.bytes() else {
                continue;
            };
            sent += 1;
            let profile = Profile {
                revision,
                direction: Direction::ClientToServer,
            };
            let broken = harness::lift(bytes).is_err()
                || harness::rules::validate(bytes, profile)
                    .iter()
                    .any(|v| v.level.is_mandatory());
            if broken {
                malformed.push(String::from_utf8_lossy(bytes).into_owned());
            }
        }
    }
    (sent, malformed)
}

#[test]
fn polite_mode_sends_no_frame_the_full_suite_calls_malformed() {
    let revision = Revision::Mcp2025_11_25;
    let polite = temp("frames-polite");
    let transcripts = polite.join("t");
    let (out, records, doc) = run(
        &polite,
        &[
            "--mode",
            "polite",
            "--rate",
            RATE,
            "--revision",
            revision.name(),
            "--transcripts",
            transcripts.to_str().unwrap(),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (sent, malformed) = sent_frames(&transcripts, revision);
    assert!(sent > 20, "{sent} frames");
    assert!(malformed.is_empty(), "{malformed:#?}");
    // A correct server stays clean, and what was left out says why.
    assert!(findings(&records).is_empty(), "{:#?}", findings(&records));
    let left_out = records
        .iter()
        .filter(|r| why(r).starts_with("polite mode: "))
        .count();
    assert!(left_out > 50, "{left_out} left out");
    assert!(records.iter().any(|r| outcome(r) == "pass"));
    assert_eq!(doc["run"]["pace"]["mode"], "polite");
    // The same run in full sends malformed frames: the check above has teeth.
    let full = temp("frames-full");
    let transcripts = full.join("t");
    let (out, _, doc) = run(
        &full,
        &[
            "--revision",
            revision.name(),
            "--transcripts",
            transcripts.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    let (_, malformed) = sent_frames(&transcripts, revision);
    assert!(malformed.len() > 20, "{} malformed", malformed.len());
    assert_eq!(doc["run"]["pace"]["mode"], "full");
    let _ = std::fs::remove_dir_all(polite);
    let _ = std::fs::remove_dir_all(full);
}

#[test]
fn polite_mode_keeps_the_rate_given() {
    let dir = temp("rate");
    let (out, _, doc) = run(
        &dir,
        &[
            "--reference-http",
            "--mode",
            "polite",
            "--rate",
            RATE,
            "--revision",
            "2025-11-25",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pace = &doc["run"]["pace"];
    let sent = pace["requests"].as_u64().expect("requests counted");
    let took = doc["run"]["duration_us"].as_u64().expect("a duration") as f64 / 1e6;
    let rate: f64 = RATE.parse().unwrap();
    assert!(sent > 20, "{sent} requests");
    // N requests spaced by 1/rate take at least (N-1)/rate.
    assert!(
        took >= (sent - 1) as f64 / rate,
        "{sent} requests in {took} s"
    );
    assert!(
        pace["peak_per_second"].as_u64().unwrap() as f64 <= rate,
        "{pace}"
    );
    assert_eq!(pace["rate"], 50.0);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_budget_stops_the_run_and_the_rest_is_reported_as_not_run() {
    let dir = temp("budget");
    let (out, records, doc) = run(
        &dir,
        &[
            "--mode",
            "polite",
            "--rate",
            RATE,
            "--budget",
            "30",
            "--revision",
            "2025-11-25",
        ],
    );
    // Checks not run fail nothing: the run is whole, and clean.
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pace = &doc["run"]["pace"];
    assert_eq!(pace["requests"], 30, "{pace}");
    assert!(
        pace["stopped"].as_str().unwrap().contains("budget of 30"),
        "{pace}"
    );
    let not_run: Vec<&Value> = records
        .iter()
        .filter(|r| why(r).starts_with("not run: the request budget of 30"))
        .collect();
    assert!(not_run.len() > 20, "{} not run", not_run.len());
    assert!(not_run.iter().all(|r| outcome(r) == "not-observed"));
    assert!(findings(&records).is_empty(), "{:#?}", findings(&records));
    let _ = std::fs::remove_dir_all(dir);
}

/// A budget spent before anything was judged leaves nothing observed: no
/// clean run (exit 0) but one that could not be made (exit 2), and across
/// revisions no negotiation failure for the revisions never tried.
#[test]
fn a_budget_spent_before_any_verdict_is_a_run_not_made() {
    let dir = temp("budget-one");
    let (out, records, doc) = run(&dir, &["--budget", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("before any check was judged"), "{stderr}");
    assert!(findings(&records).is_empty(), "{:#?}", findings(&records));
    assert_eq!(doc["run"]["pace"]["requests"], 1, "{}", doc["run"]["pace"]);
    let _ = std::fs::remove_dir_all(dir);
}

/// A relay to `upstream` that answers the connections numbered in `busy`
/// (from 1) itself with `429 Too Many Requests` and `Retry-After:
/// retry_after`: the runner opens one connection per request, so the nth
/// connection is its nth request. Its address.
fn busy_at(
    upstream: std::net::SocketAddr,
    busy: &'static [usize],
    retry_after: u64,
) -> std::net::SocketAddr {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let count = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("a loopback port");
            tx.send(listener.local_addr().expect("an address"))
                .expect("the test waits");
            while let Ok((mut client, _)) = listener.accept().await {
                let n = count.fetch_add(1, Ordering::SeqCst) + 1;
                tokio::spawn(async move {
                    if busy.contains(&n) {
                        // The whole request is read before answering, as a
                        // server would: an answer to a request still being
                        // written is a reset to the client.
                        let mut seen = Vec::new();
                        let mut buf = [0u8; 8192];
                        loop {
                            match client.read(&mut buf).await {
                                Ok(0) | Err(_) => return,
                                Ok(n) => seen.extend_from_slice(&buf[..n]),
                            }
                            let Some(end) = seen.windows(4).position(|w| w == b"\r\n\r\n") else {
                                continue;
                            };
                            let head = String::from_utf8_lossy(&seen[..end]).to_ascii_lowercase();
                            let length: usize = head
                                .lines()
                                .find_map(|l| l.strip_prefix("content-length:"))
                                .and_then(|v| v.trim().parse().ok())
                                .unwrap_or(0);
                            if seen.len() >= end + 4 + length {
                                break;
                            }
                        }
                        let answer = format!(
                            "HTTP/1.1 429 Too Many Requests\r\nretry-after: {retry_after}\r\ncontent-type: text/plain\r\ncontent-length: 4\r\nconnection: close\r\n\r\nbusy"
                        );
                        let _ = client.write_all(answer.as_bytes()).await;
                        let _ = client.shutdown().await;
                        return;
                    }
                    let Ok(mut server) = tokio::net::TcpStream::connect(upstream).await else {
                        return;
                    };
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                });
            }
        });
    });
    rx.recv().expect("the relay listens")
}

/// The reference peer over HTTP for `revision`, and its address.
fn reference(revision: &str) -> (common::Listening, std::net::SocketAddr) {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_wirecheck"));
    command.args(["serve", "--http", "127.0.0.1:0", "--revision", revision]);
    let served = common::listening(command);
    let addr = served
        .url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .parse()
        .expect("serve's address");
    (served, addr)
}

#[test]
fn a_short_retry_after_is_waited_out_once_and_the_run_goes_on() {
    let (_served, upstream) = reference("2025-11-25");
    let relay = busy_at(upstream, &[12], 1);
    let url = format!("http://{relay}/mcp");
    let dir = temp("retry");
    let started = std::time::Instant::now();
    let (out, records, doc) = run(
        &dir,
        &[
            "--http",
            &url,
            "--mode",
            "polite",
            "--rate",
            RATE,
            "--revision",
            "2025-11-25",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{:#?}",
        String::from_utf8_lossy(&out.stderr),
        findings(&records)
    );
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    let pace = &doc["run"]["pace"];
    assert!(pace["stopped"].is_null(), "{pace}");
    assert!(pace["requests"].as_u64().unwrap() > 40, "{pace}");
    assert!(findings(&records).is_empty(), "{:#?}", findings(&records));
    assert!(records.iter().any(|r| outcome(r) == "pass"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_retry_after_too_long_stops_the_run_and_fails_nothing() {
    let (_served, upstream) = reference("2025-11-25");
    let relay = busy_at(upstream, &[12], 3600);
    let url = format!("http://{relay}/mcp");
    let dir = temp("stop");
    let (out, records, doc) = run(
        &dir,
        &[
            "--http",
            &url,
            "--mode",
            "polite",
            "--rate",
            RATE,
            "--revision",
            "2025-11-25",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{:#?}",
        String::from_utf8_lossy(&out.stderr),
        findings(&records)
    );
    let pace = &doc["run"]["pace"];
    let stopped = pace["stopped"].as_str().expect("stopped");
    assert!(
        stopped.contains("429") && stopped.contains("3600"),
        "{stopped}"
    );
    assert!(pace["requests"].as_u64().unwrap() <= 13, "{pace}");
    let not_run = records
        .iter()
        .filter(|r| why(r).starts_with("not run: the server answered 429"))
        .count();
    assert!(not_run > 20, "{not_run} not run");
    assert!(findings(&records).is_empty(), "{:#?}", findings(&records));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_full_run_against_a_server_elsewhere_says_so_first_and_loopback_says_nothing() {
    // `.invalid` never resolves (RFC 6761): nothing is sent, the line comes first.
    let far = [
        "run",
        "--http",
        "http://wirecheck.invalid/mcp",
        "--revision",
        "2025-11-25",
    ];
    let out = common::wirecheck(&far, b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr.lines().next().unwrap_or_default();
    assert!(
        first.contains("about to send") && first.contains("--mode polite"),
        "{stderr}"
    );
    assert!(first.contains("malformed"), "{first}");
    for quiet in [
        vec![
            "run",
            "--http",
            "http://wirecheck.invalid/mcp",
            "--mode",
            "full",
        ],
        vec!["run", "--http", "http://127.0.0.1:1/mcp"],
    ] {
        let out = common::wirecheck(&quiet, b"");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("--mode polite"), "{quiet:?}: {stderr}");
    }
}
