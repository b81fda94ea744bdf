//! The session vector runner: one trial per file under `conformance/sessions/`
//! (walked, never listed), plus coverage trials.
//!
//! A vector (`<profile>/<topic>/{y,n,i}_<name>.json`, written by
//! `gen_sessions.py`) holds a transcript, the rules it exercises and the exact
//! findings expected: each rule with the index of the event that makes it
//! certain. Every transcript line is validated against the committed schema
//! (`schemas/transcript.schema.json`), read back through the transcript reader,
//! judged by the session judge, and the findings compared as a set, SHOULD-level
//! ones included. `y_` vectors expect nothing mandatory; `n_` vectors expect a
//! finding of a rule they name; `i_` vectors end in something only "not
//! observed" can describe, and must report it so.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use harness::rules;
use harness::session::{self, Judge};
use harness::Revision;
use libtest_mimic::{Arguments, Failed, Trial};
use serde::Deserialize;
use serde_json::Value;
use wirecheck::transcript::{self, Entry, Reader};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Vector {
    description: String,
    revision: String,
    rules: Vec<String>,
    expect: Vec<Expected>,
    transcript: Vec<Value>,
}

#[derive(Deserialize, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
#[serde(deny_unknown_fields)]
struct Expected {
    rule: String,
    frame: u64,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sessions")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

fn schema() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/transcript.schema.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("schema readable"))
        .expect("schema is JSON");
    jsonschema::validator_for(&doc).expect("schema compiles")
}

fn load(path: &Path) -> Result<Vector, Failed> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("not a session vector: {e}").into())
}

/// Judges one vector; the findings as (rule, last event), and whether any
/// check ended not observed.
fn judge(
    v: &Vector,
    validator: &jsonschema::Validator,
) -> Result<(BTreeSet<Expected>, usize), Failed> {
    let revision: Revision = v.revision.parse()?;
    let mut text = String::new();
    for (n, line) in v.transcript.iter().enumerate() {
        if let Err(e) = validator.validate(line) {
            return Err(format!("transcript line {n} breaks the schema: {e}").into());
        }
        text.push_str(&serde_json::to_string(line)?);
        text.push('\n');
    }
    let mut judge = Judge::new(revision);
    let mut findings = Vec::new();
    for entry in Reader::new(text.as_bytes(), transcript::DEFAULT_MAX_LINE) {
        let entry: Entry = entry.map_err(|e| e.to_string())?;
        judge.feed(entry.event(), entry.time(), &mut findings);
    }
    let ending = judge.finish();
    findings.extend(ending.findings);
    let got = findings
        .iter()
        .map(|f| Expected {
            rule: f.violation.rule.as_str().to_owned(),
            frame: f.frames.last().map_or(0, |a| a.index),
        })
        .collect();
    Ok((got, ending.not_observed.len()))
}

fn run(path: &Path, validator: &jsonschema::Validator) -> Result<(), Failed> {
    let v = load(path)?;
    let rel = path.strip_prefix(root()).unwrap_or(path);
    let profile = rel
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned());
    if profile.as_deref() != Some(v.revision.as_str()) {
        return Err(format!("filed under {profile:?} but judged under {}", v.revision).into());
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for rule in &v.rules {
        let info = rules::rule(rule).ok_or_else(|| format!("unknown rule `{rule}`"))?;
        if !info.applies_to(v.revision.parse()?) {
            return Err(format!("`{rule}` does not apply to {}", v.revision).into());
        }
    }
    let (got, not_observed) = judge(&v, validator)?;
    let expected: BTreeSet<Expected> = v.expect.iter().cloned().collect();
    if got != expected {
        return Err(format!("{}\nexpected {expected:?}\n     got {got:?}", v.description).into());
    }
    let mandatory = |e: &Expected| rules::rule(&e.rule).is_some_and(|r| r.level.is_mandatory());
    match name.get(..2) {
        Some("y_") if expected.iter().any(mandatory) => {
            Err("a y_ vector expects a mandatory finding".into())
        }
        Some("n_") if !expected.iter().any(|e| v.rules.contains(&e.rule)) => {
            Err("an n_ vector expects no finding of a rule it names".into())
        }
        Some("i_") if not_observed == 0 => Err("an i_ vector reported nothing not observed".into()),
        Some("y_" | "n_" | "i_") => Ok(()),
        _ => Err("the name does not start with y_, n_ or i_".into()),
    }
}

/// Every rule the judge checks has a `y_` and an `n_` vector in every revision
/// it applies to (the MAY row `session.batch.any-order` is never a finding; its
/// `n_` vectors show the answer that matches nothing).
fn coverage(paths: &[PathBuf]) -> Result<(), Failed> {
    let mut seen = BTreeSet::new();
    for path in paths {
        let v = load(path)?;
        let kind = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.get(..1))
            .unwrap_or("")
            .to_owned();
        for rule in v.rules {
            seen.insert((rule, v.revision.clone(), kind.clone()));
        }
    }
    let judged = session::judged_rules().map(harness::rules::RuleId::info);
    let mut missing = Vec::new();
    for r in judged {
        for revision in r.revisions.iter() {
            for kind in ["y", "n"] {
                if !seen.contains(&(
                    r.id.as_str().to_owned(),
                    revision.name().to_owned(),
                    kind.to_owned(),
                )) {
                    missing.push(format!("{kind}_ {} {}", r.id, revision.name()));
                }
            }
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("session rules without vectors: {missing:#?}").into())
    }
}

/// `wirecheck check --revision auto` on the duplicate-answer vector of every
/// revision: it names the revision it read, reports the rule at the right
/// event, and exits 1; the clean vector exits 0.
fn cli(revision: Revision) -> Result<(), Failed> {
    let dir = std::env::temp_dir().join(format!(
        "wirecheck-sessions-{}-{}",
        std::process::id(),
        revision.name()
    ));
    std::fs::create_dir_all(&dir)?;
    let mut result = Ok(());
    for (name, code) in [("n_answered-twice", 1), ("y_each-answered-once", 0)] {
        let v = load(
            &root()
                .join(revision.name())
                .join("answers")
                .join(format!("{name}.json")),
        )?;
        let file = dir.join(format!("{}-{name}.jsonl", revision.name()));
        let mut text = String::new();
        for line in &v.transcript {
            text.push_str(&serde_json::to_string(line)?);
            text.push('\n');
        }
        std::fs::write(&file, text)?;
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_wirecheck"))
            .args(["check", "-q", "--revision", "auto"])
            .arg(&file)
            .output()?;
        let stdout = String::from_utf8(out.stdout)?;
        let records: Vec<Value> = stdout
            .lines()
            .map(serde_json::from_str)
            .collect::<Result<_, _>>()?;
        let rules: Vec<(&str, u64)> = records
            .iter()
            .filter_map(|r| Some((r["rule"].as_str()?, r["frame"].as_u64()?)))
            .collect();
        let expected: Vec<(&str, u64)> = v
            .expect
            .iter()
            .map(|e| (e.rule.as_str(), e.frame))
            .collect();
        let revisions_ok = records.iter().all(|r| r["revision"] == revision.name());
        if out.status.code() != Some(code) || rules != expected || !revisions_ok {
            result = Err(format!("{name}: exit {:?}, output {stdout}", out.status.code()).into());
            break;
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    result
}

/// Lines the transcript writer produces (UTF-8 and not, events with and
/// without a sender and time) validate against the schema, and a line the
/// reader refuses is refused by the schema too.
fn written_lines_validate(validator: &jsonschema::Validator) -> Result<(), Failed> {
    use harness::Direction;
    use wirecheck::transcript::{write_entry, Frame, Transport};
    let entries = [
        Entry::Frame(Frame {
            from: Direction::ClientToServer,
            bytes: b"{}".to_vec(),
            t: Some(0.0),
        }),
        Entry::Frame(Frame {
            from: Direction::ServerToClient,
            bytes: vec![0xff, 0xfe],
            t: None,
        }),
        Entry::Event {
            event: Transport::Closed,
            from: Some(Direction::ServerToClient),
            t: Some(2.5),
        },
        Entry::Event {
            event: Transport::WaitElapsed,
            from: None,
            t: None,
        },
    ];
    for entry in &entries {
        let mut line = Vec::new();
        write_entry(&mut line, entry)?;
        let value: Value = serde_json::from_slice(&line)?;
        if let Err(e) = validator.validate(&value) {
            return Err(format!("{value} breaks the schema: {e}").into());
        }
    }
    for bad in [
        r#"{"frame":"{}"}"#,
        r#"{"from":"client","frame":"{}","event":"closed"}"#,
        r#"{"event":"closed","x":1}"#,
        r#"{"from":"client","frame_hex":"zz"}"#,
    ] {
        let value: Value = serde_json::from_str(bad)?;
        if validator.is_valid(&value) || transcript::parse_line(bad.as_bytes()).is_ok() {
            return Err(
                format!("{bad} should be refused by both the schema and the reader").into(),
            );
        }
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let mut paths = Vec::new();
    walk(&root(), &mut paths);
    paths.sort();
    let validator = std::sync::Arc::new(schema());
    let mut trials: Vec<Trial> = paths
        .iter()
        .map(|path| {
            let name = path
                .strip_prefix(root())
                .unwrap_or(path)
                .with_extension("")
                .display()
                .to_string();
            let (path, validator) = (path.clone(), validator.clone());
            Trial::test(name, move || run(&path, &validator))
        })
        .collect();
    trials.push(Trial::test("coverage::every-session-rule-has-y-and-n", {
        let paths = paths.clone();
        move || coverage(&paths)
    }));
    trials.push(Trial::test("coverage::vectors-found", {
        let count = paths.len();
        move || {
            if count > 100 {
                Ok(())
            } else {
                Err(format!("only {count} session vectors found").into())
            }
        }
    }));
    trials.push(Trial::test("schema::written-lines-validate", {
        let validator = validator.clone();
        move || written_lines_validate(&validator)
    }));
    for revision in Revision::ALL {
        trials.push(Trial::test(
            format!("cli::check-auto::{}", revision.name()),
            move || cli(revision),
        ));
    }
    libtest_mimic::run(&args, trials).exit();
}
