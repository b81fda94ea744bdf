//! The session judge on every session vector under `conformance/sessions/`:
//! each transcript (a realistic conversation, written by `gen_sessions.py` from
//! the spec text each vector cites) judged here gives exactly the findings the
//! vector expects, each rule at the event that makes it certain.
//!
//! `wirecheck`'s own runner (`conformance/tests/sessions.rs`) judges the same
//! files and checks much more (the transcript schema, the y_/n_/i_ naming, rule
//! coverage, the CLI). This is its judging part alone, kept among the harness's
//! tests because the judge is the harness's: mutation testing judges a harness
//! mutant by the harness's tests (`.cargo/mutants.toml`), and without this the
//! session judge's verdicts on these conversations would not count.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use harness::session::{Event, Judge};
use harness::{Direction, Revision};
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/sessions")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the session vectors are readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// The findings of one vector's transcript as (rule, last event).
fn judged(vector: &Value) -> BTreeSet<(String, u64)> {
    let revision: Revision = vector["revision"]
        .as_str()
        .expect("a revision")
        .parse()
        .expect("a known revision");
    let mut judge = Judge::new(revision);
    let mut out = Vec::new();
    for line in vector["transcript"].as_array().expect("a transcript") {
        let time = line.get("t").and_then(Value::as_f64);
        let event = match (line.get("event").and_then(Value::as_str), line.get("frame")) {
            (Some("closed"), _) => Event::Closed,
            (Some("wait-elapsed"), _) => Event::WaitElapsed,
            (None, Some(frame)) => {
                let from: Direction = line["from"]
                    .as_str()
                    .expect("a sender")
                    .parse()
                    .expect("client or server");
                let bytes = frame.as_str().expect("a frame as text").as_bytes();
                judge.feed(Event::Frame { from, bytes }, time, &mut out);
                continue;
            }
            other => panic!("an unknown transcript line: {other:?}"),
        };
        judge.feed(event, time, &mut out);
    }
    out.extend(judge.finish().findings);
    out.iter()
        .map(|f| {
            (
                f.violation.rule.as_str().to_owned(),
                f.frames.last().map_or(0, |a| a.index),
            )
        })
        .collect()
}

#[test]
fn every_session_vector_gets_the_findings_it_expects() {
    let mut paths = Vec::new();
    walk(&root(), &mut paths);
    paths.sort();
    // The vectors are many; a tree that lost them must not pass by judging none.
    assert!(
        paths.len() > 300,
        "only {} session vectors found",
        paths.len()
    );
    let mut wrong = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("readable");
        let vector: Value = serde_json::from_str(&text).expect("a session vector is JSON");
        let expected: BTreeSet<(String, u64)> = vector["expect"]
            .as_array()
            .expect("an expect list")
            .iter()
            .map(|e| {
                (
                    e["rule"].as_str().expect("a rule").to_owned(),
                    e["frame"].as_u64().expect("an event index"),
                )
            })
            .collect();
        let got = judged(&vector);
        if got != expected {
            wrong.push(format!(
                "{}: expected {expected:?}, got {got:?}",
                path.strip_prefix(root()).unwrap_or(path).display()
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} vectors:\n{}",
        wrong.len(),
        paths.len(),
        wrong.join("\n")
    );
}
