//! A conformant server of our own, written from the spec text in another
//! style than the reference peer, must get no fail and no warning from
//! `wirecheck run`, and no finding from a short `wirecheck fuzz`.
//!
//! The server is `peers/conformant/rich_mcp.py` (Python 3.11, standard library
//! only): a dual-era MCP server with tools, prompts, resources (subscriptions
//! too), completions, logging, progress and pagination under every revision
//! from 2024-11-05 to 2026-07-28, choosing differently from the reference
//! peer wherever the text allows (readable ids echoed on invalid requests,
//! one-entry pages behind opaque cursors, no `tasks`, other error messages).
//! Every fail or warning wirecheck reported against it was judged by hand
//! against the text: `/work/notes/servers-findings.md` in the issue's notes.

mod common;

use serde_json::Value;

const SERVER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/peers/conformant/rich_mcp.py");

/// Its one tool that is safe to call with fixed arguments (it adds two numbers
/// in memory), so the runner's `tools/call` probes and the tool-name case probe
/// are made too.
const TOOL: &str = "add";
const TOOL_ARGS: &str = r#"{"a":2,"b":3}"#;

const REVISIONS: [&str; 5] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];

fn command() -> String {
    format!("python3 {SERVER}")
}

fn outcome(record: &Value) -> &str {
    record["outcome"]["outcome"].as_str().unwrap_or("")
}

/// One line per fail or warning: what a reader needs to judge it.
fn describe(record: &Value) -> String {
    let messages: Vec<&str> = record["violations"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v["message"].as_str())
        .collect();
    format!(
        "{} {} {}: {}",
        outcome(record),
        record["vector"].as_str().unwrap_or(""),
        record["rule"].as_str().unwrap_or(""),
        messages.join("; ")
    )
}

#[test]
fn run_finds_nothing_wrong_with_the_rich_conformant_server() {
    let peer = command();
    let out = common::wirecheck(
        &[
            "run",
            "--stdio",
            &peer,
            "--format",
            "json",
            "--allow-tool",
            TOOL,
            "--tool-args",
            TOOL_ARGS,
        ],
        b"",
    );
    let records = common::records(&out);
    // Every revision was played, and the server was really exercised: its
    // tool called under each, its lists walked.
    for revision in REVISIONS {
        assert!(
            records.iter().any(|r| r["revision"] == revision),
            "no record under {revision}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let call = format!("run/{revision}/tools-call/{TOOL}");
        let called: Vec<&Value> = records.iter().filter(|r| r["vector"] == call).collect();
        assert!(
            !called.is_empty() && called.iter().all(|r| outcome(r) == "pass"),
            "{call}: {called:?}"
        );
    }
    let passes = records.iter().filter(|r| outcome(r) == "pass").count();
    assert!(passes > 400, "only {passes} passes");
    let wrong: Vec<String> = records
        .iter()
        .filter(|r| matches!(outcome(r), "fail" | "warning"))
        .map(describe)
        .collect();
    assert!(
        wrong.is_empty(),
        "{} fail/warning record(s) against a conformant server:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_short_fuzz_finds_nothing_wrong_with_the_rich_conformant_server() {
    let peer = command();
    let dir =
        std::env::temp_dir().join(format!("wirecheck-conformant-fuzz-{}", std::process::id()));
    let mut found = Vec::new();
    for revision in REVISIONS {
        let out_dir = dir.join(revision);
        let out_dir = out_dir.to_str().expect("a UTF-8 temp path");
        let out = common::wirecheck(
            &[
                "fuzz",
                "--stdio",
                &peer,
                "--revision",
                revision,
                "--duration",
                "3s",
                "--minimize-budget",
                "10s",
                "--allow-tool",
                TOOL,
                "--out-dir",
                out_dir,
            ],
            b"",
        );
        match out.status.code() {
            Some(0) => {}
            Some(1) => found.push(format!(
                "{revision}:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )),
            code => panic!(
                "fuzz under {revision} could not run ({code:?}): {}",
                String::from_utf8_lossy(&out.stderr)
            ),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(found.is_empty(), "fuzz findings:\n{}", found.join("\n"));
}
