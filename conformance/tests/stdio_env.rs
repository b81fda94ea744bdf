//! A stdio server started as users start theirs: with variables in its
//! environment (`--env KEY=VALUE`) and in a directory of its own (`--cwd`),
//! on every command that starts one; the values never said by wirecheck;
//! the server's stderr kept in the run document, bounded.

mod common;

use std::path::{Path, PathBuf};

use serde_json::Value;

const EXE: &str = env!("CARGO_BIN_EXE_wirecheck");

/// The secret every test passes, which wirecheck must never print.
const SECRET: &str = "sk-wirecheck-test-7f3a9c";

/// The secret's tail: the picky server checks `$API_KEY` without the
/// secret on its command line, which wirecheck does print.
const SECRET_TAIL: &str = "test-7f3a9c";

/// A fresh directory holding `marker`, the file the picky server looks for.
fn workdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wirecheck-env-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("marker"), b"here").unwrap();
    dir
}

/// A server that starts (as the reference peer, plain JSON-RPC 2.0) only
/// when `$API_KEY` is the secret and `./marker` is in its directory, saying
/// which is missing on stderr otherwise; started, it says one line on stderr.
fn picky() -> String {
    format!(
        "sh -c 'test -f marker || {{ echo \"no marker in $(pwd)\" >&2; exit 1; }}; \
         test \"${{API_KEY#sk-wirecheck-}}\" = {SECRET_TAIL} || {{ echo \"API_KEY is not set\" >&2; exit 1; }}; \
         echo \"picky server up\" >&2; exec \"$0\" serve --profile jsonrpc-2.0' {EXE}"
    )
}

/// `wirecheck run` of `server` with `extra` arguments, the document in
/// `doc`.
fn run(server: &str, doc: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "run",
        "--stdio",
        server,
        "--profile",
        "jsonrpc-2.0",
        "--timeout",
        "3s",
        "--format",
        "json",
        "--out",
        doc.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    common::wirecheck(&args, b"")
}

fn text(out: &std::process::Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn document(path: &Path) -> Value {
    common::run_document(path)
}

#[test]
fn a_server_that_needs_its_environment_and_directory_runs_with_them() {
    let dir = workdir("run");
    let doc = dir.join("run.json");
    let cwd = dir.to_str().unwrap();
    let key = format!("API_KEY={SECRET}");
    // Without them it cannot start: the run could not be made, and the
    // document keeps what the server said on stderr.
    let said = |doc: &Value| doc["run"]["peer"]["stderr"]["text"].to_string();
    let out = run(&picky(), &doc, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        said(&document(&doc)).contains("no marker"),
        "{}",
        text(&out)
    );
    let out = run(&picky(), &doc, &["--cwd", cwd]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let written = document(&doc);
    assert!(said(&written).contains("API_KEY is not set"), "{written}");
    assert_eq!(written["run"]["peer"]["cwd"], cwd);
    // With both it passes.
    let out = run(&picky(), &doc, &["--env", &key, "--cwd", cwd]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let written = std::fs::read_to_string(&doc).unwrap();
    // The tool never says the value: not on its outputs, not in the document.
    assert!(!text(&out).contains(SECRET), "{}", text(&out));
    assert!(!written.contains(SECRET), "{written}");
    let doc = document(&doc);
    let peer = &doc["run"]["peer"];
    assert_eq!(peer["env"], serde_json::json!(["API_KEY"]));
    assert_eq!(peer["cwd"], cwd);
    assert!(doc["run"]["argv"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a == "API_KEY=(redacted)"));
    // What the server wrote to stderr is kept, once per process it started.
    let stderr = peer["stderr"]["text"].as_str().unwrap();
    assert!(stderr.starts_with("picky server up\n"), "{stderr}");
    assert!(peer["stderr"].get("dropped_bytes").is_none(), "{peer}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_program_named_by_a_relative_path_is_found_in_its_directory() {
    let dir = workdir("relative");
    let script = dir.join("server.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\nexec '{EXE}' serve --profile jsonrpc-2.0\n"),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let doc = dir.join("run.json");
    let out = run("./server.sh", &doc, &["--cwd", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // A server that writes nothing to stderr and is given no --env: the
    // peer section is what it always was.
    let doc = document(&doc);
    let peer = doc["run"]["peer"].as_object().unwrap();
    let keys: Vec<&str> = peer.keys().map(String::as_str).collect();
    assert_eq!(keys, ["cwd", "target", "transport"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_server_flooding_stderr_costs_the_document_its_bound() {
    let dir = workdir("flood");
    let doc = dir.join("run.json");
    // 2 MB of stderr from every process before it serves.
    let server = format!(
        "sh -c 'head -c 2000000 /dev/zero | tr \"\\0\" e >&2; exec \"$0\" serve --profile jsonrpc-2.0' {EXE}"
    );
    let out = run(&server, &doc, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let doc = document(&doc);
    let stderr = &doc["run"]["peer"]["stderr"];
    let kept = stderr["text"].as_str().unwrap();
    assert_eq!(kept.len(), 16 << 10);
    assert!(kept.bytes().all(|b| b == b'e'));
    // Every process wrote 2 MB; all but the bound was counted, not kept.
    let dropped = stderr["dropped_bytes"].as_u64().unwrap();
    assert!(dropped >= 2_000_000 - (16 << 10), "{dropped}");
    assert_eq!((dropped + (16 << 10)) % 2_000_000, 0, "{dropped}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_directory_that_is_not_there_stops_every_command_before_it_starts() {
    let missing = "/nonexistent/wirecheck-cwd";
    let commands: [&[&str]; 4] = [
        &["run", "--format", "json"],
        &["fuzz", "--frames", "5"],
        &["diff", "--stdio", "cat", "--frames", "5"],
        &["proxy", "--", "cat"],
    ];
    for command in commands {
        let mut args = command.to_vec();
        args.splice(1..1, ["--cwd", missing]);
        let out = common::wirecheck(&args, b"");
        assert_eq!(out.status.code(), Some(2), "{command:?}: {}", text(&out));
        assert!(
            text(&out).contains(&format!("--cwd {missing}")),
            "{command:?}: {}",
            text(&out)
        );
    }
}

#[test]
fn a_pair_without_equals_or_given_with_http_is_a_usage_error() {
    let out = common::wirecheck(&["run", "--env", SECRET], b"");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("KEY=VALUE"), "{}", text(&out));
    assert!(!text(&out).contains(SECRET), "{}", text(&out));
    for (command, http) in [
        (&["run"][..], &["--http", "http://127.0.0.1:9/mcp"][..]),
        (&["run"], &["--reference-http"]),
        (&["fuzz"], &["--http", "http://127.0.0.1:9/mcp"]),
        (&["load"], &["--http", "http://127.0.0.1:9/mcp"]),
        (&["replay"], &["--http", "http://127.0.0.1:9/mcp"]),
        (
            &["proxy"],
            &[
                "--listen",
                "127.0.0.1:0",
                "--upstream",
                "http://127.0.0.1:9",
            ],
        ),
    ] {
        for flag in [["--env", "A=1"], ["--cwd", "/tmp"]] {
            let args: Vec<&str> = command.iter().chain(&flag).chain(http).copied().collect();
            let out = common::wirecheck(&args, b"");
            assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
            assert!(
                text(&out).contains("cannot be used with"),
                "{args:?}: {}",
                text(&out)
            );
        }
    }
}

#[test]
fn fuzz_and_diff_start_their_stdio_peers_in_the_environment_given() {
    let dir = workdir("fuzz");
    let cwd = dir.to_str().unwrap();
    let key = format!("API_KEY={SECRET}");
    // An MCP server this time: fuzz and diff speak MCP.
    let server = picky().replace(" --profile jsonrpc-2.0", "");
    let fuzz = |extra: &[&str]| {
        let mut args = vec!["fuzz", "--stdio", &server, "--frames", "20"];
        args.extend_from_slice(extra);
        args.extend(["--out-dir", cwd, "--format", "json"]);
        common::wirecheck(&args, b"")
    };
    let out = fuzz(&[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let out = fuzz(&["--env", &key, "--cwd", cwd]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(!text(&out).contains(SECRET), "{}", text(&out));
    // diff: both stdio peers (the second the reference peer) get them.
    let out = common::wirecheck(
        &[
            "diff", "--stdio", &server, "--frames", "20", "--env", &key, "--cwd", cwd, "--format",
            "json",
        ],
        b"",
    );
    assert_ne!(out.status.code(), Some(2), "{}", text(&out));
    assert!(!text(&out).contains(SECRET), "{}", text(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_stdio_proxy_starts_its_server_in_the_environment_given() {
    let dir = workdir("proxy");
    let cwd = dir.to_str().unwrap();
    // The server prints where it is and what it was given: the proxy
    // forwards its output unchanged.
    let out = common::wirecheck(
        &[
            "proxy",
            "--env",
            "GREETING=hello",
            "--cwd",
            cwd,
            "--",
            "sh",
            "-c",
            "pwd -P; echo \"$GREETING\"",
        ],
        b"",
    );
    let real = dir.canonicalize().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{}\nhello\n", real.display()),
        "{}",
        text(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
