//! `wirecheck matrix` over the fast manifest (`fixtures/matrix/reference.toml`:
//! the reference peer over stdio and over HTTP): its document against
//! `schemas/matrix.schema.json`, the merge of two shards equal to the single
//! run but for timings, servers that cannot start as "could not run" (never
//! a failure), and `--against`.

mod common;

use std::path::{Path, PathBuf};

use serde_json::Value;

fn manifest() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/matrix/reference.toml")
}

/// A directory under the system's temporary directory, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("wirecheck-matrix-{name}-{}", std::process::id()));
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

fn matrix(args: &[&str]) -> std::process::Output {
    common::wirecheck(args, b"")
}

fn read(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn validator() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/matrix.schema.json");
    jsonschema::validator_for(&read(&path)).unwrap()
}

fn assert_valid(doc: &Value) {
    let errors: Vec<String> = validator()
        .iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

/// The document without its timings (`started`, every `duration_ms`).
fn without_timings(mut doc: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.remove("started");
                map.remove("duration_ms");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut doc);
    doc
}

fn text(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn the_merge_of_two_shards_equals_the_single_run() {
    let scratch = Scratch::new("shards");
    let m = manifest();
    let m = m.to_str().unwrap();
    let dir = |name: &str| scratch.0.join(name).display().to_string();
    let single = matrix(&["matrix", m, "--out", &dir("single"), "--jobs", "2"]);
    assert_eq!(single.status.code(), Some(0), "{}", text(&single));
    for k in ["1/2", "2/2"] {
        let part = matrix(&[
            "matrix",
            m,
            "--shard",
            k,
            "--out",
            &dir(&k.replace('/', "of")),
        ]);
        assert_eq!(part.status.code(), Some(0), "{}", text(&part));
    }
    let part1 = read(&scratch.0.join("1of2/matrix.json"));
    let part2 = read(&scratch.0.join("2of2/matrix.json"));
    assert_valid(&part1);
    assert_valid(&part2);
    assert_eq!(part1["shard"], "1/2");
    assert_eq!(part1["servers"].as_array().unwrap().len(), 1);
    assert_eq!(part2["servers"].as_array().unwrap().len(), 1);
    let merged = matrix(&[
        "matrix",
        "merge",
        &format!("{}/matrix.json", dir("2of2")),
        &format!("{}/matrix.json", dir("1of2")),
        "--out",
        &dir("merged"),
    ]);
    assert_eq!(merged.status.code(), Some(0), "{}", text(&merged));

    // A server in two parts is refused, not counted twice.
    let twice = matrix(&[
        "matrix",
        "merge",
        &format!("{}/matrix.json", dir("1of2")),
        &format!("{}/matrix.json", dir("1of2")),
        "--out",
        &dir("twice"),
    ]);
    assert_eq!(twice.status.code(), Some(2), "{}", text(&twice));
    assert!(text(&twice).contains("in two parts"), "{}", text(&twice));

    let single = read(&scratch.0.join("single/matrix.json"));
    let merged = read(&scratch.0.join("merged/matrix.json"));
    assert_valid(&single);
    assert_valid(&merged);
    assert_eq!(
        without_timings(merged.clone()),
        without_timings(single.clone())
    );
    // The merged folder holds what its page links to.
    for server in merged["servers"].as_array().unwrap() {
        for run in server["runs"].as_array().unwrap() {
            assert_eq!(run["status"], "ran", "{run}");
            let document = run["document"].as_str().unwrap();
            assert!(
                scratch.0.join("merged").join(document).is_file(),
                "{document}"
            );
            assert!(!run["cells"].as_array().unwrap().is_empty());
        }
    }
    let html = std::fs::read_to_string(scratch.0.join("merged/matrix.html")).unwrap();
    assert!(
        html.contains("href=\"runs/reference-mcp.stdio.json\""),
        "{html}"
    );
    assert!(scratch.0.join("merged/matrix.md").is_file());
    // The runs are the suite's own: the JSON-RPC cell is the jsonrpc-2.0 revision.
    let jsonrpc = &single["servers"][0]["runs"][0];
    assert_eq!(jsonrpc["cells"][0]["revision"], "jsonrpc-2.0");
    assert!(jsonrpc["cells"][0]["tally"]["pass"].as_u64().unwrap() > 0);
}

#[test]
fn servers_that_cannot_start_could_not_run_and_are_never_failures() {
    let scratch = Scratch::new("broken");
    let path = scratch.0.join("broken.toml");
    std::fs::write(
        &path,
        r#"
[[server]]
name = "exits"
ecosystem = "builtin"
package = "exits@1.0.0"
profile = "jsonrpc-2.0"
transports = ["jsonrpc-http"]
http = { command = "{wirecheck} serve --no-such-flag {port}", path = "/" }

[[server]]
name = "never-listens"
ecosystem = "builtin"
package = "never-listens@1.0.0"
profile = "jsonrpc-2.0"
transports = ["jsonrpc-http"]
http = { command = "sleep 30 {port}", path = "/" }

[[server]]
name = "no-such-program"
ecosystem = "builtin"
package = "nothing@1.0.0"
profile = "mcp"
revisions = ["2025-06-18"]
transports = ["stdio"]
stdio = "wirecheck-no-such-program-anywhere"
"#,
    )
    .unwrap();
    let out_dir = scratch.0.join("out");
    let out = matrix(&[
        "matrix",
        path.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
        "--timeout",
        "3s",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let doc = read(&out_dir.join("matrix.json"));
    assert_valid(&doc);
    for server in doc["servers"].as_array().unwrap() {
        let run = &server["runs"][0];
        assert_eq!(run["status"], "could-not-run", "{server}");
        assert!(!run["reason"].as_str().unwrap().is_empty());
        for cell in run["cells"].as_array().unwrap() {
            assert_eq!(cell["status"], "could-not-run");
        }
    }
    let reason = |name: &str| {
        doc["servers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap()["runs"][0]["reason"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(reason("exits").contains("exited"), "{}", reason("exits"));
    assert!(
        reason("never-listens").contains("did not listen"),
        "{}",
        reason("never-listens")
    );
    let html = std::fs::read_to_string(out_dir.join("matrix.html")).unwrap();
    assert!(!html.contains("class=\"fail\""), "{html}");
    assert!(html.contains("class=\"could-not-run\""));
}

#[test]
fn against_an_older_matrix_names_new_and_fixed_findings_and_versions() {
    let scratch = Scratch::new("against");
    // A server with a real finding (the reference peer has none): it drops
    // a request whose id it answered before, which JSON-RPC 2.0 §5 forbids.
    let m = scratch.0.join("m.toml");
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jsonrpc_drops_reused_ids.py");
    std::fs::write(
        &m,
        format!(
            r#"
[[server]]
name = "drops-reused"
ecosystem = "builtin"
package = "drops-reused@0.1.0"
profile = "jsonrpc-2.0"
transports = ["stdio"]
stdio = "python3 {}"
"#,
            fixture.display()
        ),
    )
    .unwrap();
    let new_dir = scratch.0.join("new");
    let out = matrix(&[
        "matrix",
        m.to_str().unwrap(),
        "--out",
        new_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let mut old = read(&new_dir.join("matrix.json"));
    // The old matrix: an older version, a finding since fixed, and none of
    // the findings of the first cell that has some.
    let server = &mut old["servers"][0];
    server["version"] = "0.0.9".into();
    let cells = server["runs"][0]["cells"].as_array_mut().unwrap();
    let cell = cells
        .iter_mut()
        .find(|c| !c["findings"].as_array().unwrap().is_empty())
        .expect("the fixture's dropped request is a finding");
    let gone = cell["findings"].as_array().unwrap().len();
    cell["findings"] = serde_json::json!([{
        "outcome": "fail", "rule": "mcp.invented.rule", "level": "MUST",
        "vector": "mcp/invented", "message": "long fixed"
    }]);
    let old_path = scratch.0.join("old.json");
    std::fs::write(&old_path, serde_json::to_vec(&old).unwrap()).unwrap();
    let again = matrix(&[
        "matrix",
        m.to_str().unwrap(),
        "--out",
        new_dir.to_str().unwrap(),
        "--against",
        old_path.to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(1), "{}", text(&again));
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(
        stdout.contains(&format!("### New findings ({gone})")),
        "{stdout}"
    );
    assert!(
        stdout.contains("### Fixed findings (1)") && stdout.contains("MUST mcp.invented.rule"),
        "{stdout}"
    );
    assert!(stdout.contains("drops-reused: 0.0.9 → 0.1.0"), "{stdout}");
    let md = std::fs::read_to_string(new_dir.join("matrix.md")).unwrap();
    assert!(md.contains("### Fixed findings (1)"), "{md}");
}

#[test]
fn a_baseline_relative_to_the_manifest_is_applied_and_a_stale_entry_is_red() {
    let scratch = Scratch::new("baseline");
    std::fs::create_dir_all(scratch.0.join("baselines")).unwrap();
    // The reference peer answers invalid JSON as §7 shows: an entry expecting
    // it to fail is stale, and a stale entry fails the run as `run` says.
    std::fs::write(
        scratch.0.join("baselines/ref.json"),
        r#"[{"id": "jsonrpc-2.0/examples/invalid-json", "reason": "a test: this check passes, so the entry is stale"}]"#,
    )
    .unwrap();
    let path = scratch.0.join("m.toml");
    std::fs::write(
        &path,
        r#"
[[server]]
name = "reference-jsonrpc"
ecosystem = "builtin"
package = "wirecheck-serve@0.1.0"
profile = "jsonrpc-2.0"
transports = ["jsonrpc-http"]
http = { command = "{wirecheck} serve --http 127.0.0.1:{port} --profile jsonrpc-2.0", path = "/" }
baseline = "baselines/ref.json"
"#,
    )
    .unwrap();
    // The manifest named relative to another folder than its own (the way
    // `conformance/peers/zoo/zoo.toml` is named from the workspace): the
    // baseline is still read relative to the manifest's folder.
    let out_dir = scratch.0.join("out");
    let parent = scratch.0.parent().unwrap();
    let relative = path.strip_prefix(parent).unwrap().to_str().unwrap();
    let out = common::wirecheck_in(
        parent,
        &["matrix", relative, "--out", out_dir.to_str().unwrap()],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let doc = read(&out_dir.join("matrix.json"));
    assert_valid(&doc);
    let server = &doc["servers"][0];
    assert_eq!(server["baseline"], "baselines/ref.json");
    let run = &server["runs"][0];
    assert_eq!(run["status"], "ran", "{run}");
    assert!(run["reproducer"]
        .as_str()
        .unwrap()
        .contains("--expected-failures baselines/ref.json"));
    let stale: Vec<&Value> = run["cells"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["findings"].as_array().unwrap())
        .filter(|f| f["outcome"] == "stale")
        .collect();
    assert_eq!(stale.len(), 1, "{run}");
    assert_eq!(stale[0]["vector"], "jsonrpc-2.0/examples/invalid-json");
    let cell = run["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["tally"]["stale"] == 1)
        .unwrap();
    assert_eq!(cell["status"], "fail");
}
