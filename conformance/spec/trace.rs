//! The sentence inventory (`inventory.json`, written by `inventory.py`) and its
//! mapping (`mapping.json`, kept by hand), read for the tests: the checks that
//! hold them together (`problems`) and the counts TRACEABILITY.md and the
//! book's rule-model chapter (`book/rules.md`) show (`Trace`). Included by
//! `tests/spec_inventory.rs` and `tests/vectors.rs` with `#[path]`, so both
//! read one definition.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use harness::rules::{self, CheckedBy};
use harness::Revision;
use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inventory {
    #[expect(dead_code, reason = "the file names its generator; nothing reads it")]
    pub generated: String,
    #[expect(dead_code, reason = "documents which keywords were counted")]
    pub keywords: Vec<String>,
    pub sentences: Vec<Sentence>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sentence {
    pub id: String,
    pub revision: String,
    pub page: String,
    pub section: String,
    /// Where the sentence starts on its page (JSON-RPC's come from quotes: none).
    #[serde(default)]
    pub line: Option<u32>,
    pub hash: String,
    pub keyword: String,
    pub binds: Binds,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Binds {
    Client,
    Server,
    Both,
    Intermediary,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mapping {
    #[expect(dead_code, reason = "a note for whoever opens the file")]
    pub about: String,
    pub sentences: BTreeMap<String, Entry>,
}

/// One sentence's entry: the rules that check it, or one disposition.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    #[serde(default)]
    pub rules: Vec<String>,
    pub disposition: Option<Disposition>,
    pub reason: Option<String>,
    /// For `editorial`: the sentence this one restates.
    pub restates: Option<String>,
    /// Why a rule checks this sentence only in part, or here and not elsewhere.
    #[expect(
        dead_code,
        reason = "read by people; the tests only require it to parse"
    )]
    pub note: Option<String>,
    /// Overrides the generator's guess of who the sentence binds.
    pub binds: Option<Binds>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Disposition {
    NotObservable,
    Authorization,
    Intermediary,
    Editorial,
    NotYetChecked,
}

impl Disposition {
    pub const SET_ASIDE: [Disposition; 4] = [
        Disposition::NotObservable,
        Disposition::Authorization,
        Disposition::Intermediary,
        Disposition::Editorial,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Disposition::NotObservable => "not-observable",
            Disposition::Authorization => "authorization",
            Disposition::Intermediary => "intermediary",
            Disposition::Editorial => "editorial",
            Disposition::NotYetChecked => "not-yet-checked",
        }
    }
}

/// The check kinds a sentence can be checked by, as the rule model names them.
pub const KINDS: [&str; 6] = ["codec", "frame", "reply", "session", "transport", "runner"];

fn kind(check: CheckedBy) -> Option<&'static str> {
    match check {
        CheckedBy::Codec => Some("codec"),
        CheckedBy::Frame => Some("frame"),
        CheckedBy::Reply => Some("reply"),
        CheckedBy::Session => Some("session"),
        CheckedBy::Transport => Some("transport"),
        CheckedBy::Runner => Some("runner"),
        CheckedBy::Unchecked(_) => None,
    }
}

pub fn revision(name: &str) -> Option<Revision> {
    Revision::ALL.into_iter().find(|r| r.name() == name)
}

pub fn load(dir: &Path) -> Result<(Inventory, Mapping), String> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let inventory: Inventory = serde_json::from_str(&read("inventory.json")?)
        .map_err(|e| format!("inventory.json: {e}"))?;
    let mapping: Mapping =
        serde_json::from_str(&read("mapping.json")?).map_err(|e| format!("mapping.json: {e}"))?;
    Ok((inventory, mapping))
}

pub fn spec_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("spec")
}

/// Everything wrong with the pair, each as one line naming the sentence.
/// Categories are the line's first word, so a test can ask for one kind.
pub fn problems(inventory: &Inventory, mapping: &Mapping) -> Vec<String> {
    let mut out = Vec::new();
    let mut ids = BTreeMap::new();
    for s in &inventory.sentences {
        if ids.insert(s.id.as_str(), s).is_some() {
            out.push(format!(
                "duplicate: sentence id {} twice in the inventory",
                s.id
            ));
        }
        if !s.id.starts_with(&format!(
            "{}/{}#{}/{}",
            s.revision, s.page, s.section, s.hash
        )) {
            out.push(format!("malformed: {} does not match its fields", s.id));
        }
        if revision(&s.revision).is_none() {
            out.push(format!("malformed: {} names no known revision", s.id));
        }
        if !mapping.sentences.contains_key(&s.id) {
            out.push(format!(
                "unmapped: {} ({} {}) has no entry in mapping.json",
                s.id, s.keyword, s.page
            ));
        }
    }
    for (id, entry) in &mapping.sentences {
        let Some(sentence) = ids.get(id.as_str()) else {
            out.push(format!("missing: mapping entry {id} names no sentence of the inventory (edited or removed: map its successor)"));
            continue;
        };
        let Some(rev) = revision(&sentence.revision) else {
            continue;
        };
        match (entry.rules.is_empty(), entry.disposition) {
            (false, Some(_)) => {
                out.push(format!("shape: {id} has rules and a disposition; give one"))
            }
            (true, None) => out.push(format!("shape: {id} has neither rules nor a disposition")),
            _ => {}
        }
        for rule in &entry.rules {
            match rules::rule(rule) {
                None => out.push(format!("rule: {id} names unknown rule {rule}")),
                Some(info) if !info.applies_to(rev) => out.push(format!(
                    "rule: {id} names {rule}, which does not apply to {}",
                    rev.name()
                )),
                Some(info) if kind(info.check).is_none() => out.push(format!(
                    "rule: {id} names {rule}, which is unchecked: give a disposition naming it instead"
                )),
                Some(_) => {}
            }
        }
        if let Some(d) = entry.disposition {
            let reason = entry.reason.as_deref().unwrap_or("").trim();
            if d != Disposition::NotYetChecked && reason.is_empty() {
                out.push(format!("reason: {id} is {} without a reason", d.name()));
            }
            if d == Disposition::Editorial {
                match entry.restates.as_deref().map(|r| ids.get(r)) {
                    Some(Some(other)) if other.revision != sentence.revision => out.push(format!(
                        "restates: {id} restates {}, a sentence of another revision",
                        other.id
                    )),
                    Some(None) => out.push(format!(
                        "restates: {id} restates a sentence the inventory does not hold"
                    )),
                    _ => {}
                }
            }
        }
        if entry.restates.is_some() && entry.disposition != Some(Disposition::Editorial) {
            out.push(format!(
                "restates: {id} names `restates` but is not editorial"
            ));
        }
    }
    out
}

/// What the mapping says of one sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// By the rules' check kinds.
    Checked(BTreeSet<&'static str>),
    SetAside(Disposition),
    NotYetChecked,
}

pub fn status(entry: Option<&Entry>) -> Status {
    let Some(entry) = entry else {
        return Status::NotYetChecked;
    };
    let kinds: BTreeSet<&'static str> = entry
        .rules
        .iter()
        .filter_map(|r| rules::rule(r).and_then(|i| kind(i.check)))
        .collect();
    if !kinds.is_empty() {
        return Status::Checked(kinds);
    }
    match entry.disposition {
        Some(Disposition::NotYetChecked) | None => Status::NotYetChecked,
        Some(d) => Status::SetAside(d),
    }
}

/// Per revision: sentences, checked (and by which kind), set aside per
/// reason, not yet checked.
#[derive(Debug, Default, Clone)]
pub struct Counts {
    pub sentences: usize,
    pub checked: usize,
    pub by_kind: BTreeMap<&'static str, usize>,
    pub set_aside: BTreeMap<Disposition, usize>,
    pub not_yet: usize,
    pub not_yet_server: usize,
}

impl Counts {
    pub fn set_aside_total(&self) -> usize {
        self.set_aside.values().sum()
    }
}

pub fn binds(sentence: &Sentence, entry: Option<&Entry>) -> Binds {
    entry.and_then(|e| e.binds).unwrap_or(sentence.binds)
}

pub fn counts(inventory: &Inventory, mapping: &Mapping, rev: Revision) -> Counts {
    let mut c = Counts::default();
    for s in inventory
        .sentences
        .iter()
        .filter(|s| s.revision == rev.name())
    {
        let entry = mapping.sentences.get(&s.id);
        c.sentences += 1;
        match status(entry) {
            Status::Checked(kinds) => {
                c.checked += 1;
                for k in kinds {
                    *c.by_kind.entry(k).or_default() += 1;
                }
            }
            Status::SetAside(d) => *c.set_aside.entry(d).or_default() += 1,
            Status::NotYetChecked => {
                c.not_yet += 1;
                if binds(s, entry) == Binds::Server {
                    c.not_yet_server += 1;
                }
            }
        }
    }
    c
}
