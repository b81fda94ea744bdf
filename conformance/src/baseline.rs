//! Baselines: the failures wirecheck expects, as data, each with its reason.
//!
//! One loader reads every baseline: the golden vectors' known failures
//! (`conformance/baselines/vectors.json`), the schema cross-check's divergences
//! (`conformance/baselines/schema-divergences.json`), and the file a user hands
//! `wirecheck run --expected-failures FILE`. A baseline is a JSON list of entries:
//!
//! ```json
//! [{ "id": "mcp/*/ping/ping-answered-with-error", "reason": "why it fails" },
//!  { "id": "mcp/2025-06-18/batch/batch-refused", "part": "reply", "reason": "…" }]
//! ```
//!
//! `id` names the subject (a vector id); a `*` stands for one whole path segment
//! (a revision), never part of one. `part`, when given, narrows the entry to one
//! part of the subject (`frame`, `reply`); without it the entry covers every part.
//! `reason` must say why, so it is never empty. Unknown fields are refused, as in
//! the vectors: a typo is an error, not an entry that silently matches nothing.
//!
//! As webpki's and wasmtime's expected-failure lists do, a listed failure becomes
//! [`Outcome::KnownFailure`], a listed subject that now passes is
//! [`Outcome::Stale`] (and fails the run), and an unlisted failure stays a failure.

use std::fmt;
use std::path::{Path, PathBuf};

use harness::Outcome;
use serde::{Deserialize, Serialize};

use crate::report::Record;

/// The baselines folder of this crate.
#[must_use]
pub fn default_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("baselines")
}

/// One expected failure.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The subject's id, or a pattern where `*` is one whole path segment.
    pub id: String,
    /// The part of the subject the entry covers (`frame`, `reply`); all when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<String>,
    /// Why the subject fails: the gap, the ambiguity, the upstream bug.
    pub reason: String,
}

impl Entry {
    /// Whether the entry covers `part` of subject `id`.
    #[must_use]
    pub fn covers(&self, id: &str, part: Option<&str>) -> bool {
        let part_ok = match (&self.part, part) {
            (None, _) => true,
            (Some(mine), Some(theirs)) => mine == theirs,
            (Some(_), None) => false,
        };
        part_ok && matches_pattern(&self.id, id)
    }
}

/// A loaded baseline: where it came from and its entries, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Baseline {
    /// The file read (for messages).
    pub path: PathBuf,
    /// The entries.
    pub entries: Vec<Entry>,
}

/// A baseline that could not be read, naming the file and, when one entry is
/// at fault, which (0-based, in file order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaselineError {
    /// The file.
    pub path: PathBuf,
    /// The entry at fault, if one is.
    pub entry: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for BaselineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.entry {
            Some(i) => write!(f, "{}: entry {i}: {}", self.path.display(), self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

impl std::error::Error for BaselineError {}

impl Baseline {
    /// Reads and checks the baseline at `path`.
    ///
    /// # Errors
    /// The file cannot be read, or [`Baseline::parse`] refuses it.
    pub fn load(path: &Path) -> Result<Baseline, BaselineError> {
        let text = std::fs::read_to_string(path).map_err(|e| BaselineError {
            path: path.to_owned(),
            entry: None,
            message: format!("cannot read: {e}"),
        })?;
        Baseline::parse(&text, path)
    }

    /// Parses baseline `text`; `path` only names it in errors.
    ///
    /// # Errors
    /// Not a JSON list of entries, an unknown field, an empty `id` or `reason`,
    /// a `*` inside a segment, or the same `id` and `part` listed twice.
    pub fn parse(text: &str, path: &Path) -> Result<Baseline, BaselineError> {
        let error = |entry, message| BaselineError {
            path: path.to_owned(),
            entry,
            message,
        };
        let raw: Vec<serde_json::Value> = serde_json::from_str(text)
            .map_err(|e| error(None, format!("not a JSON list of entries: {e}")))?;
        let mut entries: Vec<Entry> = Vec::with_capacity(raw.len());
        for (i, value) in raw.into_iter().enumerate() {
            // Entry by entry, so an error names the entry at fault.
            let entry: Entry =
                serde_json::from_value(value).map_err(|e| error(Some(i), e.to_string()))?;
            if entry.reason.trim().is_empty() {
                return Err(error(
                    Some(i),
                    format!("`{}` has an empty `reason`", entry.id),
                ));
            }
            if entry
                .id
                .split('/')
                .any(|s| s.is_empty() || (s.contains('*') && s != "*"))
            {
                return Err(error(
                    Some(i),
                    format!(
                        "`{}`: every segment is a name or a whole `*`, never empty",
                        entry.id
                    ),
                ));
            }
            if let Some(j) = entries
                .iter()
                .position(|e| e.id == entry.id && e.part == entry.part)
            {
                return Err(error(
                    Some(i),
                    format!("`{}` is listed twice (entry {j} too)", entry.id),
                ));
            }
            entries.push(entry);
        }
        Ok(Baseline {
            path: path.to_owned(),
            entries,
        })
    }

    /// The first entry covering `part` of subject `id`.
    #[must_use]
    pub fn find(&self, id: &str, part: Option<&str>) -> Option<&Entry> {
        self.entries.iter().find(|e| e.covers(id, part))
    }

    /// `outcome` of `part` of subject `id`, seen through the baseline: a listed
    /// failure is a known failure; a listed subject that passes (or only warns:
    /// the listed failure is gone) is stale. Outcomes that observed nothing, and
    /// subjects the baseline does not list, are left as they are.
    #[must_use]
    pub fn apply(&self, id: &str, part: Option<&str>, outcome: Outcome) -> Outcome {
        let Some(entry) = self.find(id, part) else {
            return outcome;
        };
        let reason = entry.reason.clone();
        match outcome {
            Outcome::Fail | Outcome::KnownFailure { .. } => Outcome::KnownFailure { reason },
            Outcome::Pass | Outcome::Warning | Outcome::Stale { .. } => Outcome::Stale { reason },
            other @ (Outcome::NotObserved { .. } | Outcome::NotApplicable { .. }) => other,
        }
    }

    /// The entries that cover none of `ids`: a baseline entry for a subject
    /// that no longer exists is as stale as one that passes.
    pub fn unmatched<I>(&self, ids: I) -> Vec<&Entry>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        let ids: Vec<I::Item> = ids.into_iter().collect();
        self.entries
            .iter()
            .filter(|e| !ids.iter().any(|id| matches_pattern(&e.id, id.as_ref())))
            .collect()
    }
}

/// What `wirecheck run --write-baseline` writes where a reason belongs: a
/// placeholder no one can mistake for a reason, naming where to look.
pub const TODO: &str =
    "TODO: read this failure against the spec text; quote the sentence it breaks";

/// A baseline of the failures among `records` (`wirecheck run
/// --write-baseline`): an entry per subject id (the id [`Baseline::apply`]
/// matches, `place.vector`), sorted and listed once. A failure's reason is
/// [`TODO`] and the rules it breaks (rule, level, citation), to be replaced by
/// the sentence the server breaks once checked by hand; a known failure keeps
/// the reason its baseline gave. Stale records are left out (their subject
/// passes or is gone), as is every other outcome.
///
/// Also returns how many failures name no subject id: no entry can list them.
#[must_use]
pub fn from_records(records: &[Record]) -> (Vec<Entry>, usize) {
    use std::collections::BTreeMap;
    // id -> (known reasons, rules broken), each listed once in order met.
    let mut by_id: BTreeMap<&str, (Vec<String>, Vec<String>)> = BTreeMap::new();
    let mut unlisted = 0;
    for record in records {
        let known = match &record.outcome {
            Outcome::Fail => None,
            Outcome::KnownFailure { reason } => Some(reason),
            _ => continue,
        };
        let Some(id) = record.place.vector.as_deref() else {
            unlisted += 1;
            continue;
        };
        let (reasons, rules) = by_id.entry(id).or_default();
        let push = |list: &mut Vec<String>, item: String| {
            if !list.contains(&item) {
                list.push(item);
            }
        };
        match known {
            Some(reason) => push(reasons, reason.clone()),
            None => {
                for rule in broken(record) {
                    push(rules, rule);
                }
            }
        }
    }
    let entries = by_id
        .into_iter()
        .map(|(id, (reasons, rules))| {
            let mut parts = reasons;
            if !rules.is_empty() || parts.is_empty() {
                let cite = if rules.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", rules.join("; "))
                };
                parts.push(format!("{TODO}{cite}"));
            }
            Entry {
                id: id.to_owned(),
                part: None,
                reason: parts.join(" | "),
            }
        })
        .collect();
    (entries, unlisted)
}

/// The rules a failing record breaks, as `rule R, LEVEL, citation`: its
/// check's, else its mandatory violations', else its refusal's.
fn broken(record: &Record) -> Vec<String> {
    let say = |rule: &str, level: harness::rules::Level, spec: &str| {
        format!("rule {rule}, {}, {spec}", level.name())
    };
    if let Some(c) = &record.check {
        return vec![say(c.rule.as_str(), c.level, &c.spec)];
    }
    let violations: Vec<String> = record
        .violations
        .iter()
        .flatten()
        .filter(|v| v.level.is_mandatory())
        .map(|v| say(v.rule.as_str(), v.level, v.spec))
        .collect();
    if !violations.is_empty() {
        return violations;
    }
    record
        .refusal
        .iter()
        .map(|r| say(r.rule.as_str(), r.rule.info().level, r.spec))
        .collect()
}

/// `entries` as a baseline file: a JSON list, one entry a line, that
/// [`Baseline::parse`] reads back.
#[must_use]
pub fn to_text(entries: &[Entry]) -> String {
    let lines: Vec<String> = entries
        .iter()
        .map(|e| serde_json::to_string(e).unwrap_or_default())
        .collect();
    if lines.is_empty() {
        "[]\n".to_owned()
    } else {
        format!("[\n  {}\n]\n", lines.join(",\n  "))
    }
}

/// Whether `id` matches `pattern`, where `*` is one whole path segment.
#[must_use]
pub fn matches_pattern(pattern: &str, id: &str) -> bool {
    let (p, i): (Vec<&str>, Vec<&str>) = (pattern.split('/').collect(), id.split('/').collect());
    p.len() == i.len() && p.iter().zip(&i).all(|(p, i)| *p == "*" || p == i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Baseline, BaselineError> {
        Baseline::parse(text, Path::new("b.json"))
    }

    /// A written baseline: failures and known failures, once per id, sorted;
    /// a new failure's reason the TODO with its rules, a known one's kept;
    /// passes, warnings and stale records left out; a failure with no id counted.
    #[test]
    fn a_baseline_is_written_from_the_failures_of_a_run() {
        use crate::report::{Check, Place, Record, Subject};
        use harness::rules::Level;
        let record = |id: Option<&str>, outcome: Outcome, rule: &str, level: Level| {
            let mut r = Record::new(
                Place {
                    vector: id.map(str::to_owned),
                    ..Place::default()
                },
                Subject::Frame(Vec::new()),
                outcome,
            );
            r.check = Some(Check {
                rule: crate::report::CheckId::parse(rule),
                level,
                spec: "JSON-RPC 2.0 §5".into(),
            });
            r
        };
        let records = [
            record(Some("v/b"), Outcome::Fail, "r.one", Level::Must),
            record(Some("v/a"), Outcome::Warning, "r.warn", Level::Should),
            record(Some("v/b"), Outcome::Fail, "r.two", Level::Must),
            record(Some("v/b"), Outcome::Fail, "r.one", Level::Must),
            record(
                Some("v/a/known"),
                Outcome::KnownFailure {
                    reason: "checked".into(),
                },
                "r.one",
                Level::Must,
            ),
            record(Some("v/c"), Outcome::Pass, "r.one", Level::Must),
            record(
                Some("v/d"),
                Outcome::Stale {
                    reason: "gone".into(),
                },
                "r.one",
                Level::Must,
            ),
            record(None, Outcome::Fail, "r.one", Level::Must),
        ];
        let (entries, unlisted) = from_records(&records);
        assert_eq!(unlisted, 1);
        let got: Vec<(&str, &str)> = entries
            .iter()
            .map(|e| (e.id.as_str(), e.reason.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("v/a/known", "checked"),
                (
                    "v/b",
                    "TODO: read this failure against the spec text; quote the sentence it \
                     breaks (rule r.one, MUST, JSON-RPC 2.0 §5; rule r.two, MUST, JSON-RPC 2.0 §5)"
                ),
            ]
        );
        let text = to_text(&entries);
        assert_eq!(parse(&text).unwrap().entries, entries);
        assert_eq!(parse(&to_text(&[])).unwrap().entries, []);
    }

    #[test]
    fn a_star_is_one_whole_segment() {
        assert!(matches_pattern("mcp/*/ping/x", "mcp/2025-06-18/ping/x"));
        assert!(!matches_pattern("mcp/*/ping/x", "mcp/2025-06-18/ping/x/y"));
        assert!(!matches_pattern("mcp/*/ping/x", "mcp/ping/x"));
        assert!(!matches_pattern("mcp/*/ping/x", "mcp/2025-06-18/ping/z"));
    }

    #[test]
    fn errors_name_the_file_and_the_entry() {
        let cases = [
            (r#"{"id": "a"}"#, "b.json: not a JSON list of entries"),
            (
                r#"[{"id": "a", "reason": "r"}, {"id": "b", "reson": "r"}]"#,
                "b.json: entry 1: unknown field `reson`",
            ),
            (
                r#"[{"id": "a", "reason": " "}]"#,
                "b.json: entry 0: `a` has an empty `reason`",
            ),
            (
                r#"[{"id": "a"}]"#,
                "b.json: entry 0: missing field `reason`",
            ),
            (
                r#"[{"id": "mcp/2025-*/x", "reason": "r"}]"#,
                "entry 0: `mcp/2025-*/x`: every segment",
            ),
            (
                r#"[{"id": "a", "reason": "r"}, {"id": "a", "reason": "s"}]"#,
                "entry 1: `a` is listed twice (entry 0 too)",
            ),
        ];
        for (text, expected) in cases {
            let err = parse(text).unwrap_err().to_string();
            assert!(err.contains(expected), "{text}: {err}");
        }
    }

    #[test]
    fn listed_failures_are_known_listed_passes_are_stale_the_rest_unchanged() {
        let b = parse(
            r#"[{"id": "v/*/x", "reason": "gap"}, {"id": "v/a/y", "part": "reply", "reason": "r"}]"#,
        )
        .unwrap();
        let known = Outcome::KnownFailure {
            reason: "gap".into(),
        };
        assert_eq!(b.apply("v/a/x", None, Outcome::Fail), known);
        assert_eq!(
            b.apply("v/a/x", None, Outcome::Pass),
            Outcome::Stale {
                reason: "gap".into()
            }
        );
        assert_eq!(b.apply("v/a/z", None, Outcome::Fail), Outcome::Fail);
        // A part-scoped entry covers only that part.
        assert_eq!(
            b.apply("v/a/y", Some("frame"), Outcome::Fail),
            Outcome::Fail
        );
        assert_eq!(
            b.apply("v/a/y", Some("reply"), Outcome::Fail),
            Outcome::KnownFailure { reason: "r".into() }
        );
        let not_observed = Outcome::NotObserved {
            why: "timed out".into(),
        };
        assert_eq!(b.apply("v/a/x", None, not_observed.clone()), not_observed);
        let unmatched: Vec<&str> = b
            .unmatched(["v/a/x"])
            .iter()
            .map(|e| e.id.as_str())
            .collect();
        assert_eq!(unmatched, ["v/a/y"]);
    }
}
