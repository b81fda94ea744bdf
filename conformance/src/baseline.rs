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

/// The baselines folder of this crate.
#[must_use]
pub fn default_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("baselines")
}

/// One expected failure: of one subject (`id`), or of one defect of the
/// peer's (`defect`, its fingerprint: the rule the peer broke and the shape
/// of its answer, stable across revisions and renamed probes).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The subject's id, or a pattern where `*` is one whole path segment;
    /// empty for a defect's entry.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    /// The defect's fingerprint (`jsonrpc.response.required/no-reply`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defect: Option<String>,
    /// The revisions a defect held under when written: a run judging none
    /// of them cannot show it, so the entry is stale only where one was.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revisions: Vec<String>,
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
        if self.defect.is_some() {
            return false;
        }
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
            let named = entry.defect.as_deref().unwrap_or(&entry.id);
            if entry.reason.trim().is_empty() {
                return Err(error(Some(i), format!("`{named}` has an empty `reason`")));
            }
            match (&entry.defect, entry.id.is_empty()) {
                (Some(_), false) => {
                    return Err(error(
                        Some(i),
                        format!(
                            "`{named}` names both an `id` and a `defect`: one entry, one of them"
                        ),
                    ))
                }
                (None, true) => {
                    return Err(error(
                        Some(i),
                        "an entry names an `id` or a `defect`".into(),
                    ))
                }
                (Some(fingerprint), true) => {
                    if fingerprint.trim().is_empty() || entry.part.is_some() {
                        return Err(error(
                            Some(i),
                            format!(
                                "`{named}`: a defect's entry is its fingerprint, without `part`"
                            ),
                        ));
                    }
                    if let Some(j) = entries.iter().position(|e| e.defect == entry.defect) {
                        return Err(error(
                            Some(i),
                            format!("`{named}` is listed twice (entry {j} too)"),
                        ));
                    }
                    entries.push(entry);
                    continue;
                }
                (None, false) => {}
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
            .filter(|e| e.defect.is_none())
            .filter(|e| !ids.iter().any(|id| matches_pattern(&e.id, id.as_ref())))
            .collect()
    }

    /// The entry of the defect with `fingerprint`, if one lists it.
    #[must_use]
    pub fn defect(&self, fingerprint: &str) -> Option<&Entry> {
        self.entries
            .iter()
            .find(|e| e.defect.as_deref() == Some(fingerprint))
    }

    /// The defects' entries that match none of `found` (fingerprints) though
    /// the run judged a revision they held under (`judged`): stale.
    #[must_use]
    pub fn unmatched_defects(&self, found: &[String], judged: &[&str]) -> Vec<&Entry> {
        self.entries
            .iter()
            .filter(|e| {
                e.defect.as_ref().is_some_and(|d| !found.contains(d))
                    && (e.revisions.is_empty()
                        || e.revisions.iter().any(|r| judged.contains(&r.as_str())))
            })
            .collect()
    }
}

/// A baseline of the peer's defects in `report` (`wirecheck run
/// --write-baseline`): an entry per defect that fails the run or that the
/// baseline already knew, keyed by its fingerprint, with the revisions it
/// held under, sorted. A new defect's reason is [`TODO`] with its rule,
/// level, citation and sentence, to be replaced once read against the text;
/// a known one keeps the reasons its baseline gave.
#[must_use]
pub fn from_defects(report: &crate::report::Report) -> Vec<Entry> {
    use crate::report::Standing;
    let mut entries: Vec<Entry> = Vec::new();
    for d in crate::report::defects(report) {
        if d.standing == Standing::Warning {
            continue;
        }
        let mut reasons: Vec<String> = Vec::new();
        for &i in &d.checks {
            if let Outcome::KnownFailure { reason } = &report.records[i].outcome {
                if !reasons.contains(reason) {
                    reasons.push(reason.clone());
                }
            }
        }
        if d.standing == Standing::Fail || reasons.is_empty() {
            let sentence = d
                .sentence()
                .map(|s| format!(": \"{s}\""))
                .unwrap_or_default();
            reasons.push(format!(
                "{TODO} (rule {}, {}, {}{sentence})",
                d.rule,
                d.weight.name(),
                d.cite(report)
            ));
        }
        let fingerprint = d.fingerprint();
        match entries
            .iter_mut()
            .find(|e| e.defect.as_deref() == Some(&fingerprint))
        {
            // A known and a new failure of one defect: one entry.
            Some(e) => {
                for r in reasons {
                    if !e.reason.contains(&r) {
                        e.reason.push_str(&format!(" | {r}"));
                    }
                }
            }
            None => entries.push(Entry {
                id: String::new(),
                defect: Some(fingerprint),
                revisions: d.revisions.iter().map(|r| r.name().to_owned()).collect(),
                part: None,
                reason: reasons.join(" | "),
            }),
        }
    }
    entries.sort_by(|a, b| a.defect.cmp(&b.defect));
    entries
}

/// What `wirecheck run --write-baseline` writes where a reason belongs: a
/// placeholder no one can mistake for a reason, naming where to look.
pub const TODO: &str =
    "TODO: read this failure against the spec text; quote the sentence it breaks";

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

    /// A written baseline: an entry per defect that fails the run or was
    /// known, keyed by its fingerprint with its revisions, sorted; a new
    /// defect's reason the TODO with its rule, level, citation and
    /// sentence, a known one's kept; warnings, passes and stale records left
    /// out. It reads back as written.
    #[test]
    fn a_baseline_is_written_from_the_defects_of_a_run() {
        use crate::report::{Check, Command, Place, Record, Report, Subject};
        use harness::rules::RuleId;
        use harness::Revision;
        let record = |id: &str, revision: Revision, outcome: Outcome, rule: RuleId| {
            let mut r = Record::new(
                Place {
                    vector: Some(id.to_owned()),
                    revision: Some(revision),
                    ..Place::default()
                },
                Subject::Frame(Vec::new()),
                outcome,
            );
            r.check = Some(Check {
                rule: rule.into(),
                level: rule.info().level,
                spec: "JSON-RPC 2.0 §5".into(),
            });
            r
        };
        let mut report = Report::new(Command::Run);
        report.records = vec![
            record(
                "v/b",
                Revision::Mcp2025_06_18,
                Outcome::Fail,
                RuleId::JsonrpcResponseRequired,
            ),
            record(
                "v/c",
                Revision::Mcp2025_11_25,
                Outcome::Fail,
                RuleId::JsonrpcResponseRequired,
            ),
            record(
                "v/a",
                Revision::Mcp2025_11_25,
                Outcome::Warning,
                RuleId::JsonrpcErrorCodeMeaning,
            ),
            record(
                "v/k",
                Revision::Mcp2025_11_25,
                Outcome::KnownFailure {
                    reason: "checked".into(),
                },
                RuleId::JsonrpcResponseIdEcho,
            ),
            record(
                "v/p",
                Revision::Mcp2025_11_25,
                Outcome::Pass,
                RuleId::JsonrpcResponseIdEcho,
            ),
            record(
                "v/s",
                Revision::Mcp2025_11_25,
                Outcome::Stale {
                    reason: "gone".into(),
                },
                RuleId::JsonrpcResponseIdEcho,
            ),
        ];
        let entries = from_defects(&report);
        let got: Vec<(Option<&str>, &[String], &str)> = entries
            .iter()
            .map(|e| {
                (
                    e.defect.as_deref(),
                    e.revisions.as_slice(),
                    e.reason.as_str(),
                )
            })
            .collect();
        let required = RuleId::JsonrpcResponseRequired.info().sentence();
        assert_eq!(
            got,
            [
                (Some("jsonrpc.response.id-echo/-"), &["2025-11-25".to_owned()][..], "checked"),
                (
                    Some("jsonrpc.response.required/-"),
                    &["2025-06-18".to_owned(), "2025-11-25".to_owned()][..],
                    &*format!(
                        "{TODO} (rule jsonrpc.response.required, MUST, JSON-RPC 2.0 §5: \"{required}\")"
                    )
                ),
            ]
        );
        assert!(entries.iter().all(|e| e.id.is_empty()));
        let text = to_text(&entries);
        assert_eq!(parse(&text).unwrap().entries, entries);
        assert_eq!(parse(&to_text(&[])).unwrap().entries, []);
    }

    /// A defect's entry is its fingerprint alone: never with an id or a
    /// part, never twice; it covers no subject by id, and is stale only
    /// where the run judged a revision it held under.
    #[test]
    fn a_defect_entry_is_read_and_matched_by_fingerprint() {
        let b = parse(
            r#"[{"defect": "jsonrpc.response.required/no-reply", "revisions": ["2025-03-26"], "reason": "r"},
                {"id": "mcp/*/x", "reason": "s"}]"#,
        )
        .unwrap();
        assert_eq!(
            b.defect("jsonrpc.response.required/no-reply")
                .map(|e| e.reason.as_str()),
            Some("r")
        );
        assert!(b.find("jsonrpc.response.required/no-reply", None).is_none());
        assert_eq!(
            b.unmatched(["mcp/2025-03-26/x"]).len(),
            0,
            "defect entries are not ids"
        );
        assert_eq!(
            b.unmatched_defects(&[], &["2025-11-25"]).len(),
            0,
            "not judged where it held"
        );
        assert_eq!(b.unmatched_defects(&[], &["2025-03-26"]).len(), 1);
        let found = ["jsonrpc.response.required/no-reply".to_owned()];
        assert_eq!(b.unmatched_defects(&found, &["2025-03-26"]).len(), 0);
        for (text, error) in [
            (
                r#"[{"id": "a", "defect": "r/x", "reason": "r"}]"#,
                "names both an `id` and a `defect`",
            ),
            (r#"[{"reason": "r"}]"#, "names an `id` or a `defect`"),
            (
                r#"[{"defect": "r/x", "part": "reply", "reason": "r"}]"#,
                "without `part`",
            ),
            (
                r#"[{"defect": "r/x", "reason": "r"}, {"defect": "r/x", "reason": "q"}]"#,
                "listed twice",
            ),
        ] {
            let e = parse(text).unwrap_err().to_string();
            assert!(e.contains(error), "{text}: {e}");
        }
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
