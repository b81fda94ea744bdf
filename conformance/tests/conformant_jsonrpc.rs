//! A plain JSON-RPC 2.0 server written from the specification text alone
//! (`peers/conformant/jsonrpc_echo_ids.py`, Python 3 standard library), which
//! echoes the readable id of an Invalid Request instead of answering null:
//! `wirecheck run --profile jsonrpc-2.0` must give it zero fails and zero
//! warnings, over stdio and over HTTP (it once got 21 fails, 11 of them
//! "answered id N again" from ids the runner reused within a session, 10
//! "id 1, expected null").

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

const SERVER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/peers/conformant/jsonrpc_echo_ids.py"
);

/// `wirecheck run --format json --profile jsonrpc-2.0 ARGS`: exit code and records.
fn run(args: &[&str]) -> (Option<i32>, Vec<Value>, String) {
    let mut all = vec!["run", "--format", "json", "--profile", "jsonrpc-2.0"];
    all.extend_from_slice(args);
    let out = common::wirecheck(&all, b"");
    let records = common::records(&out);
    (
        out.status.code(),
        records,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Panics unless the run passed whole: exit 0, no fail, no warning, and
/// enough records that the suite was played.
fn assert_clean(code: Option<i32>, records: &[Value], stderr: &str) {
    let bad: Vec<String> = records
        .iter()
        .filter(|r| {
            matches!(
                r["outcome"]["outcome"].as_str(),
                Some("fail" | "warning" | "not-observed")
            )
        })
        .map(Value::to_string)
        .collect();
    assert!(
        bad.is_empty(),
        "{} findings:\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert_eq!(code, Some(0), "{stderr}");
    let passes = records
        .iter()
        .filter(|r| r["outcome"]["outcome"] == "pass")
        .count();
    assert!(passes > 60, "only {passes} passes");
}

#[test]
fn a_conformant_jsonrpc_server_echoing_readable_ids_is_clean_over_stdio() {
    let command = format!("python3 {SERVER}");
    let (code, records, stderr) = run(&["--stdio", &command]);
    assert_clean(code, &records, &stderr);
    // The echo was observed, not avoided: an Invalid Request with a readable
    // id was answered with that id and passed.
    let version = records
        .iter()
        .find(|r| r["vector"] == "jsonrpc-2.0/request/version-1.0")
        .expect("the version-1.0 probe was played");
    assert_eq!(version["outcome"]["outcome"], "pass", "{version}");
}

/// The server over HTTP, killed when dropped.
struct HttpServer {
    child: Child,
    url: String,
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn http_server() -> HttpServer {
    let mut child = Command::new("python3")
        .args([SERVER, "--http"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("python3 starts the server");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout is piped"))
        .read_line(&mut line)
        .expect("the server prints its URL");
    let url = line.trim().to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{url:?}");
    HttpServer { child, url }
}

#[test]
fn a_conformant_jsonrpc_server_echoing_readable_ids_is_clean_over_http() {
    let server = http_server();
    let (code, records, stderr) = run(&["--http", &server.url]);
    assert_clean(code, &records, &stderr);
}

/// A server that drops a request because its id was used by a request it
/// already answered fails the live probe; the conformant server passes it.
#[test]
fn a_server_dropping_a_reused_id_fails_the_reuse_probe() {
    let reuse = |records: &[Value]| {
        records
            .iter()
            .find(|r| r["vector"] == "run/jsonrpc-2.0/id-reused-after-answer")
            .map(|r| r["outcome"]["outcome"].as_str().unwrap_or("").to_owned())
            .expect("the reuse probe was made")
    };
    let dropper = format!(
        "python3 {}",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/jsonrpc_drops_reused_ids.py"
        )
    );
    let (code, records, _) = run(&["--stdio", &dropper]);
    assert_eq!(code, Some(1));
    assert_eq!(reuse(&records), "fail");
    let (_, records, _) = run(&["--stdio", &format!("python3 {SERVER}")]);
    assert_eq!(reuse(&records), "pass");
}
