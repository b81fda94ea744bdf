//! Running the `wirecheck` binary as a user does, for the CLI tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `wirecheck ARGS` with `stdin` piped in (written from a thread, so a
/// large input cannot deadlock against a full stdout pipe).
pub fn wirecheck(args: &[&str], stdin: &[u8]) -> Output {
    wirecheck_in(&std::env::temp_dir(), args, stdin)
}

/// [`wirecheck`] run from `dir`, so relative file names in its output are
/// the same on every machine.
pub fn wirecheck_in(dir: &std::path::Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wirecheck"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("wirecheck starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().expect("wirecheck runs");
    writer.join().expect("the writer thread ends");
    out
}

/// Standard output read as one JSON value per line.
pub fn records(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(out.stdout.clone())
        .expect("output is UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}
