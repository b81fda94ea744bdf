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

/// A fresh directory under the system's temporary one, removed on drop: tests
/// never write into the source tree.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("wirecheck-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A file of frames that hits every kind of record: a clean frame, invalid
/// UTF-8, JSON escapes of a lone surrogate and NUL beside `]]>`, a SHOULD-level
/// id, a CRLF line, a blank line, a line over `--max-frame 100`, a response
/// and a refused id.
const AWKWARD: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n\xff\xfe\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":{\"a\":\"\\ud800 \\u0000 ]]> <x>\"}}\n{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"a\"}\r\n   \n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}";

/// Today's JSON-lines output, byte for byte, and the summary on standard
/// error: the report model and its views must not change a single byte of
/// what `roundtrip` and `classify` print. The expected bytes were recorded
/// from the binary before the report model existed.
#[test]
fn json_lines_are_pinned_byte_for_byte() {
    let scratch = Scratch::new("pinned");
    // A name that JSON must escape, and one that it need not.
    std::fs::write(scratch.0.join("we\"ird é.jsonl"), AWKWARD).unwrap();
    std::fs::write(
        scratch.0.join("b.jsonl"),
        "[1,2\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n",
    )
    .unwrap();
    let transcript = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/transcript.jsonl"
    ))
    .unwrap();
    let stdin = b"{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"method\":\"ping\"}\n\x1b[31m\n";
    let cases: [(&str, &[&str], &[u8], i32); 5] = [
        ("roundtrip-transcript", &["roundtrip"], &transcript, 1),
        (
            "roundtrip-files",
            &[
                "roundtrip",
                "--max-frame",
                "100",
                "we\"ird é.jsonl",
                "-",
                "b.jsonl",
            ],
            stdin,
            1,
        ),
        (
            "classify-transcript",
            &["classify", "--revision", "2025-06-18", "--from", "server"],
            &transcript,
            1,
        ),
        (
            "classify-files",
            &[
                "classify",
                "--revision",
                "jsonrpc-2.0",
                "--strict",
                "--max-frame",
                "100",
                "we\"ird é.jsonl",
                "b.jsonl",
            ],
            b"",
            1,
        ),
        (
            "roundtrip-missing",
            &["roundtrip", "b.jsonl", "/nonexistent/x.jsonl"],
            b"",
            2,
        ),
    ];
    let pinned = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/common/pinned"));
    for (name, args, stdin, code) in cases {
        let out = common::wirecheck_in(&scratch.0, args, stdin);
        let stdout = std::fs::read(pinned.join(format!("{name}.stdout"))).unwrap();
        let stderr = std::fs::read(pinned.join(format!("{name}.stderr"))).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&stdout),
            "{name}: standard output"
        );
        assert_eq!(out.stdout, stdout, "{name}: standard output, as bytes");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&stderr),
            "{name}: standard error"
        );
        assert_eq!(out.status.code(), Some(code), "{name}: exit code");
    }
}
