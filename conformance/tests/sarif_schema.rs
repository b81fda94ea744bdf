//! SARIF logs wirecheck writes, validated against the full OASIS SARIF 2.1.0
//! schema (errata 01, the published standard), and held to what GitHub code
//! scanning asks of an upload beyond the schema.
//!
//! `tests/report_views.rs` checks the SARIF view against a hand-written subset
//! (`schemas/sarif-2.1.0.subset.schema.json`) that refuses any member wirecheck
//! does not write; this test checks real logs, from runs with findings, against
//! the whole standard. The schema is OASIS's and never vendored:
//! `conformance/sarif/install.sh` installs it, pinned, into
//! `conformance/sarif/schema/`, and `$WIRECHECK_SARIF_SCHEMA` names another
//! copy. As with the MCP schema cross-check (`tests/schema.rs`), a schema
//! that is not there makes the trials *ignored*, with a note naming how to
//! install it; under `CI` (set, whatever its value) they fail instead. A
//! libtest-mimic runner (`harness = false`), because only a custom runner can
//! decide at run time that a trial is ignored.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use jsonschema::Validator;
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{json, Value};

/// The schema's own `id`: the published errata 01 document, not a copy with
/// other edits (SchemaStore's, the SARIF SDK's draft 2020-12 one).
const OASIS_ID: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

const INSTALL: &str = "run conformance/sarif/install.sh (pinned, from PyPI) or set \
    WIRECHECK_SARIF_SCHEMA to a copy of the OASIS sarif-schema-2.1.0.json";

const PEER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/peer.py");

/// The schema file: `$WIRECHECK_SARIF_SCHEMA`, else where `install.sh` puts
/// it. A file that is not there is an error either way, naming its source.
fn schema_path(var: Option<std::ffi::OsString>) -> Result<PathBuf, String> {
    let (path, source) = match var {
        Some(path) => (PathBuf::from(path), "WIRECHECK_SARIF_SCHEMA"),
        None => (
            Path::new(env!("CARGO_MANIFEST_DIR")).join("sarif/schema/sarif-schema-2.1.0.json"),
            "the default (WIRECHECK_SARIF_SCHEMA unset)",
        ),
    };
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!("{source} names no file: {}", path.display()))
    }
}

/// The schema compiled, once it is shown to be the OASIS document.
fn load(path: &Path) -> Result<Validator, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let schema: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if schema["id"] != OASIS_ID {
        return Err(format!(
            "{} is not the OASIS SARIF 2.1.0 schema: its id is {}, not {OASIS_ID}",
            path.display(),
            schema["id"]
        ));
    }
    // Formats asserted, not only annotated (draft-04 leaves that to the
    // validator): a `format: uri` member must be a URI. Draft-04 has no
    // `uri-reference`, which the schema gives `artifactLocation.uri`: that one
    // is checked by `code_scanning_gaps`.
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Every error the schema finds in `log`, each with where it is.
fn errors(validator: &Validator, log: &Value) -> Vec<String> {
    validator
        .iter_errors(log)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

/// A scratch folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("wirecheck-sarif-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the scratch folder is made");
        Scratch(dir)
    }

    fn at(&self, name: &str) -> String {
        self.0.join(name).to_str().expect("a UTF-8 path").to_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `wirecheck ARGS`, requiring `exit` (1: the run found something).
fn wirecheck(args: &[&str], exit: i32) -> Result<(), String> {
    let out = common::wirecheck(args, b"");
    if out.status.code() == Some(exit) {
        Ok(())
    } else {
        Err(format!(
            "wirecheck {args:?} exited {:?}, not {exit}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// `wirecheck run` against the fixture peer in `mode`, under one revision.
fn run_against(mode: &str, extra: &[&str], exit: i32) -> Result<(), String> {
    let peer = format!("python3 {PEER} {mode}");
    let mut args = vec![
        "run",
        "--stdio",
        &peer,
        "--revision",
        "2025-11-25",
        "--timeout",
        "3s",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    wirecheck(&args, exit)
}

fn read(path: &str) -> Result<Value, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    serde_json::from_slice(&bytes).map_err(|e| format!("{path}: {e}"))
}

/// Real logs, each named by how it was made: runs with vector and session
/// findings (located in the vectors' files and in transcripts), a run whose
/// baseline went stale (located in the baseline), the two read back by
/// `wirecheck report` as one log of two runs, and a live fuzz.
fn real_logs(scratch: &Scratch) -> Result<Vec<(&'static str, Value)>, String> {
    let (baseline, transcripts) = (scratch.at("baseline.json"), scratch.at("transcripts"));
    run_against(
        "numeric-ids",
        &[
            "--sarif",
            &scratch.at("findings.sarif"),
            "--out",
            &scratch.at("findings.json"),
            "--transcripts",
            &transcripts,
            "--write-baseline",
            &baseline,
        ],
        1,
    )?;
    // Without the id bug, every entry of that baseline is stale.
    run_against(
        "tool-tripwire",
        &[
            "--expected-failures",
            &baseline,
            "--sarif",
            &scratch.at("stale.sarif"),
            "--out",
            &scratch.at("stale.json"),
        ],
        1,
    )?;
    wirecheck(
        &[
            "report",
            &scratch.at("findings.json"),
            &scratch.at("stale.json"),
            "--sarif",
            &scratch.at("both.sarif"),
        ],
        1,
    )?;
    wirecheck(
        &[
            "fuzz",
            "--frames",
            "40",
            "--seed",
            "1",
            "--out-dir",
            &scratch.at("fuzz-findings"),
            "--sarif",
            &scratch.at("fuzz.sarif"),
        ],
        0,
    )?;
    Ok(vec![
        ("run with findings", read(&scratch.at("findings.sarif"))?),
        (
            "run with a stale baseline",
            read(&scratch.at("stale.sarif"))?,
        ),
        ("report of two runs", read(&scratch.at("both.sarif"))?),
        ("fuzz", read(&scratch.at("fuzz.sarif"))?),
    ])
}

/// What GitHub code scanning asks of a log beyond the schema (docs.github.com,
/// "SARIF support for code scanning"): each result with a `ruleId` that names
/// a rule of the driver, a `physicalLocation.artifactLocation.uri` (a result
/// without one is not shown) and `partialFingerprints` (without them an API
/// upload makes a new alert for the same finding on every run); each rule with
/// its descriptions and `help` text. Every failing requirement, named.
fn code_scanning_gaps(log: &Value) -> Vec<String> {
    let mut gaps = Vec::new();
    for (r, run) in log["runs"].as_array().into_iter().flatten().enumerate() {
        let rules = run["tool"]["driver"]["rules"].as_array();
        let mut ids = BTreeSet::new();
        for rule in rules.into_iter().flatten() {
            let id = rule["id"].as_str().unwrap_or_default();
            ids.insert(id);
            for text in ["shortDescription", "fullDescription", "help"] {
                if rule[text]["text"].as_str().is_none_or(str::is_empty) {
                    gaps.push(format!("run {r}: rule {id:?} has no {text}.text"));
                }
            }
        }
        for (i, result) in run["results"].as_array().into_iter().flatten().enumerate() {
            let at = format!("run {r}, result {i}");
            let rule = result["ruleId"].as_str().unwrap_or_default();
            if !ids.contains(rule) {
                gaps.push(format!("{at}: ruleId {rule:?} is no rule of the driver"));
            }
            let locations = result["locations"]
                .as_array()
                .map_or(&[][..], Vec::as_slice);
            if locations.is_empty() {
                gaps.push(format!("{at}: no location"));
            }
            for location in locations {
                let uri = &location["physicalLocation"]["artifactLocation"]["uri"];
                match uri.as_str() {
                    None | Some("") => {
                        gaps.push(format!("{at}: a location without artifactLocation.uri"));
                    }
                    Some(uri) if !is_uri_reference(uri) => {
                        gaps.push(format!("{at}: {uri:?} is no URI reference (RFC 3986)"));
                    }
                    Some(_) => {}
                }
            }
            let prints = result["partialFingerprints"].as_object();
            if prints.is_none_or(serde_json::Map::is_empty) {
                gaps.push(format!("{at}: no partialFingerprints"));
            }
        }
    }
    gaps
}

/// Whether `uri` is made only of what an RFC 3986 URI reference may hold:
/// unreserved and reserved characters, and `%` before two hex digits.
fn is_uri_reference(uri: &str) -> bool {
    let bytes = uri.as_bytes();
    bytes.iter().enumerate().all(|(i, &b)| {
        b.is_ascii_alphanumeric()
            || b"-._~:/?#[]@!$&'()*+,;=".contains(&b)
            || b == b'%'
                && bytes.len() > i + 2
                && bytes[i + 1..=i + 2].iter().all(u8::is_ascii_hexdigit)
    })
}

/// Every real log is valid against the full schema, meets code scanning's
/// requirements, and the logs hold findings of each kind of location.
fn real_logs_are_valid(validator: &Validator) -> Result<(), Failed> {
    let scratch = Scratch::new("real");
    let logs = real_logs(&scratch)?;
    let mut uris = Vec::new();
    for (what, log) in &logs {
        let found = errors(validator, log);
        if !found.is_empty() {
            return Err(format!("the {what} log is not valid SARIF 2.1.0: {found:#?}").into());
        }
        let gaps = code_scanning_gaps(log);
        if !gaps.is_empty() {
            return Err(format!("the {what} log falls short of code scanning: {gaps:#?}").into());
        }
        for result in log["runs"].as_array().into_iter().flatten() {
            for r in result["results"].as_array().into_iter().flatten() {
                let artifact = &r["locations"][0]["physicalLocation"]["artifactLocation"];
                uris.push(artifact["uri"].as_str().unwrap_or_default().to_owned());
            }
        }
    }
    // The runs judged something: results located in a transcript and the
    // baseline each (files of the user's), so each kind of location was
    // checked; and never in wirecheck's own vector files.
    if let Some(u) = uris.iter().find(|u| u.contains("conformance/vectors")) {
        return Err(format!("a result is located in wirecheck's vectors: {u}").into());
    }
    let kinds = [
        ("a transcript", ".jsonl"),
        ("the baseline", "baseline.json"),
    ];
    for (kind, part) in kinds {
        if !uris.iter().any(|u| u.contains(part)) {
            return Err(format!("no result is located in {kind} ({part}): {uris:?}").into());
        }
    }
    if logs[2].1["runs"].as_array().map(Vec::len) != Some(2) {
        return Err("`wirecheck report` of two documents wrote other than two runs".into());
    }
    Ok(())
}

/// The schema is live, not a validator that passes anything: a real log with
/// one member made wrong in each way SARIF forbids is refused, at that member.
fn the_schema_refuses_a_broken_log(validator: &Validator) -> Result<(), Failed> {
    let scratch = Scratch::new("broken");
    run_against(
        "numeric-ids",
        &["--sarif", &scratch.at("findings.sarif")],
        1,
    )?;
    let good = read(&scratch.at("findings.sarif"))?;
    if !errors(validator, &good).is_empty() {
        return Err("the unbroken log is already invalid".into());
    }
    let breaks: [(&str, &str, Value); 7] = [
        (
            "partialFingerprints whose value is a number",
            "/runs/0/results/0/partialFingerprints",
            json!({ "wirecheckFinding/v1": 7 }),
        ),
        (
            "partialFingerprints as a list",
            "/runs/0/results/0/partialFingerprints",
            json!(["0123456789abcdef"]),
        ),
        (
            "a level SARIF does not have",
            "/runs/0/results/0/level",
            json!("fatal"),
        ),
        (
            "a region starting at line 0",
            "/runs/0/results/0/locations/0/physicalLocation/region/startLine",
            json!(0),
        ),
        (
            "a rule's help without text",
            "/runs/0/tool/driver/rules/0/help",
            json!({ "markdown": "no *text*" }),
        ),
        ("another SARIF version", "/version", json!("2.1.1")),
        ("a $schema that is no URI", "/$schema", json!("sarif 2.1.0")),
    ];
    for (what, pointer, value) in breaks {
        let mut log = good.clone();
        *log.pointer_mut(pointer)
            .ok_or_else(|| format!("the log has no {pointer}"))? = value;
        let found = validator
            .iter_errors(&log)
            .any(|e| e.instance_path().to_string().starts_with(pointer));
        if !found {
            return Err(format!("the schema accepts {what} (at {pointer})").into());
        }
    }
    let mut no_message = good.clone();
    no_message["runs"][0]["results"][0]
        .as_object_mut()
        .ok_or("result 0 is no object")?
        .remove("message");
    if validator.is_valid(&no_message) {
        return Err("the schema accepts a result without a message".into());
    }
    Ok(())
}

/// The code-scanning check finds each gap it is for, in a log made to have
/// them all, so a clean real log is clean because it is.
fn code_scanning_gaps_are_found() -> Result<(), Failed> {
    let log = json!({ "runs": [{
        "tool": { "driver": { "name": "wirecheck", "rules": [
            { "id": "r.one", "shortDescription": { "text": "MUST r.one" },
              "fullDescription": { "text": "MUST (§1)" } }
        ] } },
        "results": [
            { "ruleId": "r.one", "partialFingerprints": { "k": "1" },
              "locations": [{ "physicalLocation": { "artifactLocation": { "uri": "a b" } } }] },
            { "ruleId": "r.two", "locations": [{ "logicalLocations": [] }] },
            { "ruleId": "r.one", "partialFingerprints": { "k": "2" } }
        ]
    }]});
    let gaps = code_scanning_gaps(&log);
    let expected = [
        "run 0: rule \"r.one\" has no help.text",
        "run 0, result 0: \"a b\" is no URI reference (RFC 3986)",
        "run 0, result 1: ruleId \"r.two\" is no rule of the driver",
        "run 0, result 1: a location without artifactLocation.uri",
        "run 0, result 1: no partialFingerprints",
        "run 0, result 2: no location",
    ];
    if gaps != expected {
        return Err(format!("found {gaps:#?}, not {expected:#?}").into());
    }
    for (uri, ok) in [
        ("conformance/vectors/a%20b.json", true),
        ("file:///tmp/x.jsonl", true),
        ("a%2", false),
        ("a%zz", false),
        ("a\\b", false),
    ] {
        if is_uri_reference(uri) != ok {
            return Err(format!("{uri:?} taken as a URI reference: {}", !ok).into());
        }
    }
    Ok(())
}

/// A schema that is not there, or not OASIS's, is an error that says which
/// and where, never a silent pass.
fn a_missing_or_other_schema_is_an_error() -> Result<(), Failed> {
    let missing =
        schema_path(Some("/nonexistent/sarif.json".into())).expect_err("a file that is not there");
    if !missing.contains("WIRECHECK_SARIF_SCHEMA") || !missing.contains("/nonexistent/sarif.json") {
        return Err(format!("the error names neither variable nor path: {missing}").into());
    }
    let subset =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/sarif-2.1.0.subset.schema.json");
    match load(&subset) {
        Ok(_) => Err("the hand-written subset was taken for the OASIS schema".into()),
        Err(why) if why.contains("is not the OASIS SARIF 2.1.0 schema") => Ok(()),
        Err(why) => Err(format!("the subset was refused for another reason: {why}").into()),
    }
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = vec![
        Trial::test(
            "sarif::a-missing-or-other-schema-is-an-error",
            a_missing_or_other_schema_is_an_error,
        ),
        Trial::test(
            "sarif::code-scanning-gaps-are-found",
            code_scanning_gaps_are_found,
        ),
    ];
    let valid = "sarif::real-logs-are-valid-against-the-oasis-schema";
    let refused = "sarif::the-oasis-schema-refuses-a-broken-log";
    match schema_path(std::env::var_os("WIRECHECK_SARIF_SCHEMA")) {
        Ok(path) => {
            // Compiled once, shared by both trials; an invalid file fails both.
            let validator = std::sync::Arc::new(load(&path));
            let v = validator.clone();
            trials.push(Trial::test(valid, move || match v.as_ref() {
                Ok(v) => real_logs_are_valid(v),
                Err(why) => Err(why.clone().into()),
            }));
            trials.push(Trial::test(refused, move || match validator.as_ref() {
                Ok(v) => the_schema_refuses_a_broken_log(v),
                Err(why) => Err(why.clone().into()),
            }));
        }
        Err(why) => {
            let ci = std::env::var_os("CI").is_some();
            let why = format!("{why}; {INSTALL}");
            // Shown whether or not the trial runs: an ignored trial's line says
            // only "ignored", never why.
            if ci {
                eprintln!("SARIF schema check: {why} (CI is set, so it fails)");
            } else {
                eprintln!("SARIF schema check ignored: {why} (under CI it fails)");
            }
            for name in [valid, refused] {
                let why = why.clone();
                trials.push(Trial::test(name, move || Err(why.into())).with_ignored_flag(!ci));
            }
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
