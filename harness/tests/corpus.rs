//! Replays every file under `corpus/` through the oracle of each target whose
//! folder it is in (`corpus/seeds/frames/` feeds every byte-level target,
//! `corpus/seeds/<target>/` a structured one, `corpus/regressions/<target>/` the
//! target that found it). The folders are walked, never listed: a file added is
//! a file replayed. The golden vectors' wire text is replayed through the same
//! oracle by `conformance/tests/corpus_vectors.rs`, read through the one vector
//! loader.

use std::fs;
use std::path::{Path, PathBuf};

use harness::fuzzing::Target;

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
    for target in [
        Target::RoundtripStructured,
        Target::ReplyMatching,
        Target::Session,
    ] {
        let dir = repo().join("corpus/seeds").join(target.seeds());
        let seeds = files(&dir);
        assert!(!seeds.is_empty(), "no seeds in {}", dir.display());
        for file in seeds {
            let bytes = fs::read(&file).unwrap();
            assert_eq!(target.check(&bytes), Ok(true), "{}", file.display());
        }
    }
}
