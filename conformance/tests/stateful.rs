//! `wirecheck fuzz --stateful` against the reference peer: nothing found on
//! it as it is, over stdio and over Streamable HTTP; each planted state
//! defect (`serve --state-defect`) found by its own rule, shrunk to at most
//! five operations and told as a numbered story.

mod common;

use std::process::{Command, Output};

fn wirecheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wirecheck"))
        .args(args)
        .output()
        .expect("wirecheck runs")
}

fn stateful(peer: &[&str], budget: &[&str]) -> (Output, Vec<serde_json::Value>) {
    let mut args = vec![
        "fuzz",
        "--stateful",
        "--timeout",
        "10s",
        "--format",
        "json",
        "--seed",
        "0",
    ];
    args.extend_from_slice(peer);
    args.extend_from_slice(budget);
    let out = wirecheck(&args);
    let records = common::records(&out);
    let schema = common::record_schema();
    for record in &records {
        common::assert_schema_valid(&schema, record);
    }
    (out, records)
}

/// The operations a finding's note says it shrank to.
fn operations(record: &serde_json::Value) -> usize {
    let notes = record["notes"].as_array().expect("notes");
    let note = notes
        .iter()
        .filter_map(|n| n.as_str())
        .find(|n| n.starts_with("confirmed on a fresh peer; "))
        .unwrap_or_else(|| panic!("not confirmed: {record}"));
    note["confirmed on a fresh peer; ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {note}"))
}

fn assert_clean(out: &Output, records: &[serde_json::Value]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}\n{records:?}");
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0]["outcome"]["outcome"], "pass", "{records:?}");
    assert!(
        stderr.contains("0 finding(s) confirmed, 0 suspected"),
        "{stderr}"
    );
}

#[test]
fn the_reference_peer_breaks_nothing_over_stdio() {
    let (out, records) = stateful(&[], &["--duration", "10s"]);
    assert_clean(&out, &records);
}

#[test]
fn the_reference_peer_breaks_nothing_over_http() {
    let mut serve = Command::new(env!("CARGO_BIN_EXE_wirecheck"));
    serve.args(["serve", "--http", "127.0.0.1:0"]);
    let server = common::listening(serve);
    let (out, records) = stateful(&["--http", &server.url], &["--duration", "10s"]);
    assert_clean(&out, &records);
}

/// Each planted defect within a 60 s run: found by its own rule, at its
/// level, confirmed on a fresh peer, shrunk to at most five operations, its
/// story numbered.
fn finds(defect: &str, http: bool, rule: &str, outcome: &str, story: &[&str]) {
    let bin = env!("CARGO_BIN_EXE_wirecheck");
    let stdio = format!("{bin} serve --state-defect {defect}");
    let server = http.then(|| {
        let mut serve = Command::new(bin);
        serve.args(["serve", "--http", "127.0.0.1:0", "--state-defect", defect]);
        common::listening(serve)
    });
    let peer = match &server {
        Some(server) => ["--http", server.url.as_str()],
        None => ["--stdio", stdio.as_str()],
    };
    let dir = std::env::temp_dir().join(format!(
        "wirecheck-stateful-{}-{defect}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let out_dir = dir.display().to_string();
    let started = std::time::Instant::now();
    let (out, records) = stateful(
        &peer,
        &["--ops", "2000", "--duration", "60s", "--out-dir", &out_dir],
    );
    assert!(started.elapsed().as_secs() < 60);
    // A warning fails the run only under --strict, as in `fuzz`.
    assert_eq!(
        out.status.code(),
        Some(i32::from(outcome == "fail")),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let found: Vec<_> = records.iter().filter(|r| r["rule"] == rule).collect();
    assert_eq!(found.len(), 1, "{records:?}");
    let record = found[0];
    assert_eq!(record["outcome"]["outcome"], outcome, "{record}");
    assert!(operations(record) <= 5, "{record}");
    let told = record["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n.as_str())
        .find(|n| n.starts_with("story: 1. "))
        .unwrap_or_else(|| panic!("no story: {record}"));
    for part in story {
        assert!(told.contains(part), "{told}");
    }
    // Only the planted defect's rule: nothing else of the peer is wrong.
    assert!(records.iter().all(|r| r["rule"] == rule), "{records:?}");
    replays(&dir, &peer, rule, outcome, http);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The saved finding, replayed: it still breaks its rule on the defective
/// peer, and no longer on the reference peer as it is.
fn replays(dir: &std::path::Path, peer: &[&str], rule: &str, outcome: &str, http: bool) {
    let dir = dir.display().to_string();
    let replay = |peer: &[&str]| {
        let mut args = vec![
            "replay",
            dir.as_str(),
            "--timeout",
            "10s",
            "--format",
            "json",
        ];
        args.extend_from_slice(peer);
        let out = wirecheck(&args);
        (out.status.code(), common::records(&out))
    };
    let (code, records) = replay(peer);
    assert_eq!(code, Some(i32::from(outcome == "fail")), "{records:?}");
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0]["rule"], rule, "{records:?}");
    assert_eq!(records[0]["outcome"]["outcome"], outcome, "{records:?}");
    let clean = http.then(|| {
        let mut serve = Command::new(env!("CARGO_BIN_EXE_wirecheck"));
        serve.args(["serve", "--http", "127.0.0.1:0"]);
        common::listening(serve)
    });
    let clean_peer: Vec<&str> = clean
        .as_ref()
        .map_or_else(Vec::new, |s| vec!["--http", s.url.as_str()]);
    let (code, records) = replay(&clean_peer);
    assert_eq!(code, Some(0), "{records:?}");
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0]["rule"], rule, "{records:?}");
    assert_eq!(records[0]["outcome"]["outcome"], "pass", "{records:?}");
}

#[test]
fn a_repeating_cursor_is_found_and_shrunk() {
    finds(
        "repeating-cursor",
        false,
        "mcp.lists.items-unique",
        "warning",
        &["1. tools/list → ", "2. tools/list cursor=", "repeats `"],
    );
}

#[test]
fn a_subscription_leak_is_found_and_shrunk() {
    finds(
        "subscription-leak",
        false,
        "mcp.resources.no-update-after-unsubscribe",
        "warning",
        &[
            "resources/subscribe `",
            "resources/unsubscribe `",
            "the server sent `notifications/resources/updated`",
        ],
    );
}

#[test]
fn a_session_answering_after_delete_is_found_and_shrunk() {
    finds(
        "zombie-session",
        true,
        "mcp.http.session-terminated-404",
        "fail",
        &[
            "1. DELETE session `",
            "→ HTTP 204",
            "2. ping with the ended session's id",
            "→ HTTP 200",
        ],
    );
}
