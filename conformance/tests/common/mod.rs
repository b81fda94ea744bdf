//! Running the `wirecheck` binary as a user does, for the CLI tests.

#![allow(
    dead_code,
    reason = "each test binary that includes these helpers uses only some of them"
)]

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

/// Standard output read as one JSON value per line, each checked against the
/// committed record schema, so every test that reads records checks it too.
pub fn records(out: &Output) -> Vec<serde_json::Value> {
    let schema = record_schema();
    String::from_utf8(out.stdout.clone())
        .expect("output is UTF-8")
        .lines()
        .map(|l| {
            let record = serde_json::from_str(l).expect("each line is JSON");
            assert_schema_valid(&schema, &record);
            record
        })
        .collect()
}

/// The JSON Schema of one JSON-lines record, `conformance/schemas/record.schema.json`.
pub fn record_schema() -> jsonschema::Validator {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/schemas/record.schema.json"
    ))
    .expect("the record schema is committed");
    let schema: serde_json::Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::validator_for(&schema).expect("the schema is a valid JSON Schema")
}

/// Panics unless `record` matches the record schema, naming every error.
pub fn assert_schema_valid(validator: &jsonschema::Validator, record: &serde_json::Value) {
    let errors: Vec<String> = validator
        .iter_errors(record)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{record} does not match the record schema: {errors:?}"
    );
}

/// A server on 127.0.0.1 that prints `listening on URL` first on stderr,
/// killed when dropped.
pub struct Listening {
    pub child: std::process::Child,
    /// The MCP endpoint, `<base>/mcp`.
    pub url: String,
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn listening(mut command: Command) -> Listening {
    use std::io::BufRead as _;
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let stderr = child.stderr.take().expect("stderr is piped");
    let mut reader = std::io::BufReader::new(stderr);
    // `serve --auth` names its authorization server first.
    let mut seen = Vec::new();
    let base = loop {
        let mut line = String::new();
        reader
            .read_line(&mut line)
            .expect("the server prints its address");
        if let Some(base) = line.trim().strip_prefix("listening on ") {
            break base.to_owned();
        }
        assert!(
            !line.is_empty() && seen.len() < 4,
            "no `listening on` line: {seen:?}"
        );
        seen.push(line);
    };
    Listening {
        child,
        url: format!("{base}/mcp"),
    }
}

/// The run document at `path`, checked against the committed report
/// schema (and the record schema it refers to).
pub fn run_document(path: &std::path::Path) -> serde_json::Value {
    let bytes = std::fs::read(path).unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let schema = |name: &str| -> serde_json::Value {
        let path = format!("{}/schemas/{name}", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let registry = jsonschema::Registry::new()
        .add(
            "https://wirecheck.invalid/schemas/record.schema.json",
            schema("record.schema.json"),
        )
        .unwrap()
        .prepare()
        .unwrap();
    let validator = jsonschema::options()
        .with_registry(&registry)
        .build(&schema("report.schema.json"))
        .unwrap();
    let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    doc
}
