//! `wirecheck classify` as a user runs it: one JSON line per input line, the
//! violations the rule model finds, and exit codes that mean something.

mod common;

use common::{records, wirecheck};

fn rules(record: &serde_json::Value) -> Vec<&str> {
    record["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["rule"].as_str().unwrap())
        .collect()
}

#[test]
fn one_json_line_per_frame_with_its_violations() {
    let input = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        "\n\n",
        r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
        "\n",
        r#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#,
        "\n",
    );
    let out = wirecheck(
        &["classify", "--revision", "2025-06-18", "-q"],
        input.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(stdout.starts_with("{\"line\":1,\"violations\":[]}\n{\"line\":3,\"violations\":[{\"rule\":\"mcp.base.id-not-null\",\"level\":\"MUST NOT\",\"spec\":\"MCP 2025-06-18 basic/index §Messages › Requests\",\"pointer\":\"/id\",\"message\":\"request id is null\"}]}\n"), "{stdout}");
    let records = records(&out);
    assert_eq!(records.len(), 4, "blank lines are skipped");
    assert_eq!(records[2]["line"], 4);
    assert_eq!(rules(&records[2]), ["json.syntax"]);
    assert_eq!(records[2]["violations"][0]["level"], "MUST");
    assert_eq!(rules(&records[3]), ["jsonrpc.id-type"]);
    assert_eq!(records[3]["violations"][0]["pointer"], "/id");
    assert!(out.stderr.is_empty(), "-q keeps standard error quiet");
}

#[test]
fn exit_codes_and_strict() {
    let clean = wirecheck(
        &["classify", "--revision", "jsonrpc-2.0"],
        br#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
    );
    assert_eq!(clean.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&clean.stderr)
        .contains("1 frames under jsonrpc-2.0 from the client: 1 clean"));
    // A fractional id is a SHOULD NOT: a finding only under --strict.
    let should = br#"{"jsonrpc":"2.0","id":1.5,"method":"a"}"#;
    let lenient = wirecheck(&["classify", "--revision", "jsonrpc-2.0", "-q"], should);
    assert_eq!(lenient.status.code(), Some(0));
    assert_eq!(
        rules(&records(&lenient)[0]),
        ["jsonrpc.request.id-no-fraction"]
    );
    let strict = wirecheck(
        &["classify", "--revision", "jsonrpc-2.0", "--strict", "-q"],
        should,
    );
    assert_eq!(strict.status.code(), Some(1));
    // The same id breaks a MUST in MCP.
    let mcp = wirecheck(&["classify", "--revision", "2024-11-05", "-q"], should);
    assert_eq!(mcp.status.code(), Some(1));
    assert_eq!(rules(&records(&mcp)[0]), ["mcp.base.id-type"]);
}

#[test]
fn usage_and_io_errors_exit_2() {
    let unknown = wirecheck(&["classify", "--revision", "2025-99-99"], b"");
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr)
        .contains("expected one of jsonrpc-2.0, 2024-11-05"));
    assert_eq!(
        wirecheck(&["classify"], b"").status.code(),
        Some(2),
        "--revision is required"
    );
    let side = wirecheck(
        &["classify", "--revision", "2025-06-18", "--from", "proxy"],
        b"",
    );
    assert_eq!(side.status.code(), Some(2));
    let missing = wirecheck(
        &[
            "classify",
            "--revision",
            "2025-06-18",
            "/nonexistent/t.jsonl",
        ],
        b"",
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot open /nonexistent/t.jsonl"));
}

#[test]
fn from_names_the_sender() {
    // A 2026-07-28 result without `resultType`: the server's fault; from a
    // client, a response at all is the fault.
    let frame = br#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
    let server = wirecheck(
        &[
            "classify",
            "--revision",
            "2026-07-28",
            "--from",
            "server",
            "-q",
        ],
        frame,
    );
    assert_eq!(server.status.code(), Some(1));
    let got = records(&server);
    assert!(
        rules(&got[0]).contains(&"mcp.base.result-type-required"),
        "{got:?}"
    );
    let client = wirecheck(&["classify", "--revision", "2026-07-28", "-q"], frame);
    let got = records(&client);
    assert!(
        rules(&got[0]).contains(&"mcp.r5.stdio.no-server-requests"),
        "{got:?}"
    );
    assert!(
        !rules(&got[0]).contains(&"mcp.base.result-type-required"),
        "{got:?}"
    );
}

#[test]
fn named_files_and_oversized_lines() {
    let dir = std::env::temp_dir().join(format!("wirecheck-classify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("transcript.jsonl");
    std::fs::write(
        &path,
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let out = wirecheck(&["classify", "--revision", "2025-11-25", "-q", file], b"");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(0));
    let got = records(&out);
    assert_eq!(got[0]["file"], file);
    assert_eq!(got[0]["line"], 1);
    assert_eq!(got[0]["violations"], serde_json::json!([]));
    let long = wirecheck(
        &[
            "classify",
            "--revision",
            "2025-11-25",
            "--max-frame",
            "8",
            "-q",
        ],
        b"{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n",
    );
    assert_eq!(long.status.code(), Some(1));
    assert_eq!(rules(&records(&long)[0]), ["json.frame-too-large"]);
}
