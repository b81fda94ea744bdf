//! The `wirecheck` binary as a user runs it: output format and exit codes.

mod common;

use common::{records, wirecheck};

#[test]
fn roundtrip_writes_one_json_line_per_frame() {
    let input = b"{\"jsonrpc\":\"2.0\",\"id\":1.0,\"method\":\"ping\"}\n\n{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}\n";
    let out = wirecheck(&["roundtrip", "-q"], input);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(stdout
        .starts_with("{\"line\":1,\"ok\":{\"jsonrpc\":\"2.0\",\"id\":1.0,\"method\":\"ping\"}}\n"));
    let records = records(&out);
    assert_eq!(records.len(), 2);
    assert_eq!(records[1]["line"], 3);
    assert_eq!(records[1]["refused"]["rule"], "jsonrpc.id-type");
    assert_eq!(records[1]["refused"]["pointer"], "/id");
    assert_eq!(records[1]["refused"]["code"], -32600);
}

#[test]
fn exit_codes_mean_something() {
    let clean = wirecheck(
        &["roundtrip", "-q"],
        b"{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n",
    );
    assert_eq!(clean.status.code(), Some(0));
    let missing = wirecheck(&["roundtrip", "/nonexistent/frames.jsonl"], b"");
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("cannot open /nonexistent/frames.jsonl")
    );
    let usage = wirecheck(&["roundtrip", "--no-such-flag"], b"");
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn hostile_lines_get_refusals_not_crashes() {
    let mut input = Vec::new();
    input.extend_from_slice(&b"[".repeat(10_000));
    input.push(b'\n');
    input.extend_from_slice(b"\xff\xfe\xfd\n");
    input.extend_from_slice(&[b' '; 100]);
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"method\":\"");
    input.extend_from_slice(&vec![b'a'; 30_000]);
    input.extend_from_slice(b"\"}\n");
    let out = wirecheck(&["roundtrip", "-q", "--max-frame", "20000"], &input);
    assert_eq!(out.status.code(), Some(1));
    let records = records(&out);
    let rules: Vec<&str> = records
        .iter()
        .map(|r| r["refused"]["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        ["json.depth-limit", "json.utf8", "json.frame-too-large"]
    );
}

#[test]
fn a_sixteen_mebibyte_line_is_handled() {
    let blob = "QUJD".repeat(4 << 20);
    let frame = format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"{blob}\"}}\n");
    let out = wirecheck(&["roundtrip", "-q"], frame.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout.len(), frame.len() + "{\"line\":1,\"ok\":}".len());
}
