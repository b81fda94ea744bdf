//! Load findings on disk, for `wirecheck replay`: one file per finding, the
//! smallest load that showed it ([`super::shrink`]), named
//! `load.<revision>.<hash>.json` (the hash of its rule and method), so a
//! second run that finds the same thing overwrites the same file.
//!
//! A load finding is not a sequence of frames (the fuzz findings' form,
//! [`crate::livefuzz::store`]): it needs requests in flight together, in
//! several sessions at once, so what is kept is the load's size and what to
//! look for. The first exchange that showed it is kept too, to read.

use std::path::{Path, PathBuf};
use std::time::Duration;

use harness::Revision;
use serde::{Deserialize, Serialize};

use super::shrink::Shown;
use super::{Config, StopAt};

/// One saved finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reproducer {
    /// The rule (or load check) broken.
    pub rule: String,
    /// The method of the request concerned (`session`, `any`).
    pub method: String,
    /// The revision the sessions open with.
    pub revision: String,
    /// Sessions at once.
    pub sessions: usize,
    /// Requests in flight per session.
    pub concurrency: usize,
    /// How long one run sends, in milliseconds.
    pub duration_ms: u64,
    /// The longest wait for one answer, in milliseconds.
    pub timeout_ms: u64,
    /// Tools the load called (`--allow-tool`): replay needs them allowed.
    pub tools: Vec<String>,
    /// Only these methods were sent under load (`--only`; all when empty).
    #[serde(default)]
    pub only: Vec<String>,
    /// The time for minimizing ran out before the search ended: the size
    /// shows it, but a smaller one may.
    #[serde(default)]
    pub cut_short: bool,
    /// The size of the run that first showed it: `[sessions, concurrency]`.
    pub found_at: [usize; 2],
    /// What the first one was, in words.
    pub detail: String,
    /// The request of the first exchange, as sent (lossy UTF-8).
    pub request: String,
    /// Its answer, as received (lossy UTF-8).
    pub answer: String,
}

impl Reproducer {
    /// The reproducer of `shown`, found by a run of `config`.
    #[must_use]
    pub fn of(shown: &Shown, config: &Config) -> Self {
        let f = &shown.finding;
        Reproducer {
            rule: f.rule.to_string(),
            method: f.method.clone(),
            revision: config.revision.name().to_owned(),
            sessions: shown.sessions,
            concurrency: shown.concurrency,
            duration_ms: millis(super::shrink::trial_duration(config)),
            timeout_ms: millis(config.timeout),
            tools: config.tools.clone(),
            only: config.only.clone(),
            cut_short: shown.cut_short,
            found_at: [config.sessions, config.concurrency],
            detail: f.detail.clone(),
            request: String::from_utf8_lossy(&f.request).into_owned(),
            answer: String::from_utf8_lossy(&f.answer).into_owned(),
        }
    }

    /// The revision, read.
    ///
    /// # Errors
    /// It names no revision.
    pub fn revision(&self) -> Result<Revision, String> {
        self.revision
            .parse()
            .map_err(|_| format!("not a revision: {:?}", self.revision))
    }

    /// A run of this size against `base`'s peer, stopping once it shows.
    ///
    /// # Errors
    /// Its revision does not read.
    pub fn config(&self, base: &Config) -> Result<Config, String> {
        Ok(Config {
            revision: self.revision()?,
            sessions: self.sessions.max(1),
            concurrency: self.concurrency.max(1),
            duration: Some(Duration::from_millis(self.duration_ms)),
            requests: None,
            timeout: Duration::from_millis(self.timeout_ms),
            judge: true,
            stop_at: Some(StopAt::new(&self.rule, &self.method)),
            ..base.clone()
        })
    }

    /// Its file name.
    #[must_use]
    pub fn file_name(&self) -> String {
        let key = format!("{}\n{}", self.rule, self.method);
        format!(
            "load.{}.{:016x}.json",
            self.revision,
            crate::livefuzz::store::hash(&key)
        )
    }

    /// Writes it under `dir` (made if missing); returns the path.
    ///
    /// # Errors
    /// The folder or the file cannot be written.
    pub fn save(&self, dir: &Path) -> Result<PathBuf, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = dir.join(self.file_name());
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        std::fs::write(&path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    }

    /// Reads one back.
    ///
    /// # Errors
    /// The file does not read, or is not a reproducer.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Whether `path` is named as a saved load finding.
#[must_use]
pub fn is_load_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("load.") && n.ends_with(".json"))
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reproducer_reads_back_as_written_under_a_stable_name() {
        let r = Reproducer {
            rule: "mcp.ping.respond".into(),
            method: "ping".into(),
            revision: "2025-11-25".into(),
            sessions: 2,
            concurrency: 1,
            duration_ms: 2000,
            timeout_ms: 1000,
            tools: vec![],
            only: vec![],
            cut_short: false,
            found_at: [4, 8],
            detail: "d".into(),
            request: "{}".into(),
            answer: "{}".into(),
        };
        let dir = std::env::temp_dir().join(format!("wirecheck-saved-{}", std::process::id()));
        let path = r.save(&dir).unwrap();
        assert!(is_load_file(&path), "{}", path.display());
        assert_eq!(Reproducer::load(&path).unwrap(), r);
        let again = Reproducer {
            sessions: 3,
            ..r.clone()
        };
        assert_eq!(
            again.save(&dir).unwrap(),
            path,
            "one file per rule and method"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
