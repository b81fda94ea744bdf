//! Stateful findings saved for `wirecheck replay`: the shortest sequence of
//! each confirmed finding, with its revision and rule, as
//! `stateful.<revision>.<rule>.json` beside the frame fuzzer's findings.
//! Replaying plays the operations on a fresh peer and asks the model again:
//! the frames themselves could not be replayed, since cursors and session
//! ids are the peer's and change from run to run.

use std::path::{Path, PathBuf};

use harness::rules::RuleId;
use harness::stateful::Op;
use harness::{Outcome, Revision};

use super::{play, Confirmation, Finding};
use crate::livefuzz::Config;
use crate::report::{Check, CheckId, Place, Record, Report, Subject};

/// One saved finding.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Saved {
    /// The revision the sessions open with.
    pub revision: String,
    /// The rule the sequence broke.
    pub rule: String,
    /// The operations, in order.
    pub ops: Vec<Op>,
    /// The story of the run that confirmed it, for a person reading the file.
    pub story: Vec<String>,
}

impl Saved {
    /// The saved form of `finding`, found under `revision`.
    #[must_use]
    pub fn of(finding: &Finding, revision: Revision) -> Saved {
        Saved {
            revision: revision.name().to_owned(),
            rule: finding.breach.rule.as_str().to_owned(),
            ops: finding.ops.clone(),
            story: finding.story.clone(),
        }
    }

    /// Writes it under `dir`, returning the path.
    ///
    /// # Errors
    /// The folder or the file cannot be written.
    pub fn save(&self, dir: &Path) -> Result<PathBuf, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = dir.join(format!("stateful.{}.{}.json", self.revision, self.rule));
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        std::fs::write(&path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    }

    /// Reads one back.
    ///
    /// # Errors
    /// The file does not read, or is not a saved stateful finding.
    pub fn load(path: &Path) -> Result<Saved, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Whether `path` is named as a saved stateful finding.
#[must_use]
pub fn is_stateful_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("stateful.") && n.ends_with(".json"))
}

/// Plays every saved stateful finding under `dir` on a fresh peer
/// (`config` makes the session settings for a revision): one that breaks
/// its rule again is its record, one that does not passes, its rule named.
///
/// # Errors
/// The folder does not read, a file is no saved finding, or a session
/// cannot be opened (whether it still breaks is then unknown).
pub fn replay(
    dir: &Path,
    config: &dyn Fn(Revision) -> Result<Config, String>,
    runtime: &tokio::runtime::Runtime,
    report: &mut Report,
) -> Result<(), String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_stateful_file(p))
        .collect();
    files.sort();
    for path in files {
        let saved = Saved::load(&path)?;
        let revision: Revision = saved
            .revision
            .parse()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let rule: RuleId = saved
            .rule
            .parse()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let config = config(revision)?;
        let transport = config.target.kind();
        let played = runtime
            .block_on(play(&config, &saved.ops, None))
            .map_err(|e| format!("{}: the session did not open, so whether the finding still shows is unknown: {e}", path.display()))?;
        let file = Some(path.display().to_string());
        match played.found.iter().find(|f| f.breach.rule == rule) {
            Some(found) => {
                let finding = Finding {
                    breach: found.breach.clone(),
                    ops: saved.ops.clone(),
                    story: played.story.clone(),
                    found_after: saved.ops.len(),
                    sessions: played.sessions,
                    confirmation: Confirmation::Minimized,
                    log: played.log,
                    seed: 0,
                };
                let mut record = finding.record(revision, transport);
                record.place.file = file;
                record.notes.push("still breaks".into());
                report.records.push(record);
            }
            None => {
                let info = rule.info();
                let mut record = Record::new(
                    Place {
                        file,
                        vector: Some(format!("replay/stateful/{rule}")),
                        revision: Some(revision),
                        transport: Some(transport.into()),
                        ..Place::default()
                    },
                    Subject::Frame(Vec::new()),
                    Outcome::Pass,
                );
                record.check = Some(Check {
                    rule: CheckId::Rule(rule),
                    level: info.level,
                    spec: info.cite(revision).to_owned(),
                });
                record.notes.push(format!(
                    "{rule} no longer breaks: {} operation(s) played on a fresh peer; story: {}",
                    saved.ops.len(),
                    played.story.join("  ")
                ));
                report.records.push(record);
            }
        }
    }
    Ok(())
}
