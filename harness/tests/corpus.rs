//! Replays every file under `corpus/` through the oracle of each target whose
//! folder it is in (`corpus/seeds/frames/` feeds every byte-level target,
//! `corpus/seeds/<target>/` a structured one, `corpus/regressions/<target>/` the
//! target that found it), and the `wire` text
//! of every golden vector under `conformance/vectors/` through the lossless
//! oracle. The folders are walked, never listed: a file added is a file replayed.

use std::fs;
use std::path::{Path, PathBuf};

use harness::fuzzing::{check_roundtrip, Target};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every regular file below `dir`, sorted, skipping dotfiles (`.gitkeep`).
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for entry in entries {
        let path = entry.expect("readable directory entry").path();
        if path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('.'))
        {
            continue;
        }
        if path.is_dir() {
            out.extend(files(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn every_corpus_file_passes_its_targets_oracle() {
    let corpus = repo().join("corpus");
    let mut replayed = 0;
    let mut failures = Vec::new();
    for kind in ["seeds", "regressions"] {
        let Ok(targets) = fs::read_dir(corpus.join(kind)) else {
            continue;
        };
        for dir in targets {
            let dir = dir.unwrap().path();
            if !dir.is_dir() {
                continue;
            }
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            // Seeds are shared by every target reading them (`frames`: the byte
            // targets); a regression belongs to the one target that found it.
            let targets: Vec<Target> = match kind {
                "seeds" => Target::ALL
                    .into_iter()
                    .filter(|t| t.seeds() == name)
                    .collect(),
                _ => Target::from_name(&name).into_iter().collect(),
            };
            // A folder named for no target would silently never run: refuse it.
            assert!(
                !targets.is_empty(),
                "{} is named for no fuzz target",
                dir.display()
            );
            for file in files(&dir) {
                let bytes = fs::read(&file).unwrap();
                for target in &targets {
                    match target.check(&bytes) {
                        Ok(_) => replayed += 1,
                        Err(failure) => failures.push(format!(
                            "{} ({}): {failure}",
                            file.display(),
                            target.name()
                        )),
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The seeds alone are far more than this; a walk that finds nothing is a bug.
    assert!(replayed >= 50, "only {replayed} corpus files replayed");
}

/// The structured targets' seeds must build an input, or they seed nothing.
#[test]
fn structured_seeds_build_inputs() {
    for target in [Target::RoundtripStructured, Target::ReplyMatching] {
        let dir = repo().join("corpus/seeds").join(target.seeds());
        let seeds = files(&dir);
        assert!(!seeds.is_empty(), "no seeds in {}", dir.display());
        for file in seeds {
            let bytes = fs::read(&file).unwrap();
            assert_eq!(target.check(&bytes), Ok(true), "{}", file.display());
        }
    }
}

/// The wire texts a vector carries: its `wire` or `frame` string, its
/// `frame_hex` bytes, and the peer's reply frame in an exchange. Read as a
/// `serde_json::Value`, not through the vector loader, so this replay keeps
/// working whatever else the vector format grows.
fn wire_texts(vector: &serde_json::Value) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for member in ["wire", "frame"] {
        if let Some(text) = vector.get(member).and_then(serde_json::Value::as_str) {
            out.push(text.as_bytes().to_vec());
        }
    }
    if let Some(hex) = vector.get("frame_hex").and_then(serde_json::Value::as_str) {
        let digits: Vec<u8> = hex.bytes().filter(u8::is_ascii_hexdigit).collect();
        let byte =
            |pair: &[u8]| u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap();
        out.push(digits.chunks(2).map(byte).collect());
    }
    if let Some(reply) = vector
        .pointer("/exchange/reply/frame")
        .and_then(serde_json::Value::as_str)
    {
        out.push(reply.as_bytes().to_vec());
    }
    out
}

/// Replays the wire texts of every `*.json` vector below `dir` through the
/// lossless oracle; returns how many texts were replayed and the failures.
fn replay_vectors(dir: &Path) -> (usize, Vec<String>) {
    let mut replayed = 0;
    let mut failures = Vec::new();
    for file in files(dir) {
        if file.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        let vector: serde_json::Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not JSON: {e}", file.display()));
        for wire in wire_texts(&vector) {
            replayed += 1;
            if let Err(failure) = check_roundtrip(&wire) {
                failures.push(format!("{}: {failure}", file.display()));
            }
        }
    }
    (replayed, failures)
}

/// Golden vectors land in `conformance/vectors/**.json` (another issue); each
/// one's `wire` text must lift and round-trip or be refused coherently. The
/// folder may not exist yet: then there is nothing to replay.
#[test]
fn every_golden_vectors_wire_text_passes_the_lossless_oracle() {
    let dir = repo().join("conformance/vectors");
    let (replayed, failures) = replay_vectors(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Once vectors exist, some must carry wire text, or the walk reads the wrong member.
    if dir.is_dir() && files(&dir).len() > 10 {
        assert!(replayed > 0, "no wire text found in {}", dir.display());
    }
}

/// The vector walk finds nested files and reads their `wire`: checked on a
/// folder made for it outside the source tree.
#[test]
fn the_vector_walk_reads_nested_wire_text() {
    let dir = std::env::temp_dir().join(format!("wirecheck-corpus-{}", std::process::id()));
    fs::create_dir_all(dir.join("jsonrpc-2.0/request")).unwrap();
    fs::write(
        dir.join("jsonrpc-2.0/request/y_id-big.json"),
        r#"{"id":"x","wire":"{\"jsonrpc\":\"2.0\",\"id\":1e400,\"method\":\"a\"}"}"#,
    )
    .unwrap();
    fs::write(dir.join("jsonrpc-2.0/no-wire.json"), r#"{"id":"y"}"#).unwrap();
    fs::write(
        dir.join("jsonrpc-2.0/n_bad-utf8.json"),
        r#"{"frame_hex":"7b 22 ff 22 7d","exchange":{"reply":{"frame":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"}}}"#,
    )
    .unwrap();
    fs::write(dir.join("jsonrpc-2.0/notes.md"), "not a vector").unwrap();
    let (replayed, failures) = replay_vectors(&dir);
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!((replayed, failures), (3, Vec::<String>::new()));
    assert_eq!(replay_vectors(&dir.join("absent")), (0, vec![]));
}
