//! The golden vector loader: the one reader of `conformance/vectors/`, shared by the
//! vector runner test and the runner that plays vectors against real servers.
//!
//! A vector is one JSON file. Its verdict is in its name, as JSONTestSuite does it:
//! `y_` must be accepted, `n_` must be refused, `i_` is left to the implementation
//! by an ambiguous spec (and then says which ambiguity, quoting both sides). Its id
//! is its path without the verdict and the extension, so it is stable and
//! namespaced: `jsonrpc-2.0/request/y_id-null.json` is `jsonrpc-2.0/request/id-null`.
//! The folder names the profile (`jsonrpc-2.0/…`, `mcp/<revision>/…`) and the file
//! must say the same. Unknown fields are refused (`deny_unknown_fields`): a typo in a
//! vector is an error, never a silently skipped check.
//!
//! The loader checks what a vector says about itself (name, verdict, profile,
//! rules named, answer); what the codec and the rule model make of the frame is
//! the runner's business.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use harness::rules::Level;
use harness::{Direction, Profile, Revision, Rule};
use serde::{Deserialize, Deserializer};

mod needs;

pub use needs::{Binding, Needs, Offered, Substitution};

/// A rule id as vectors name it (`jsonrpc.id-type`, `mcp.base.id-not-null`).
///
/// Every rule id the loader reads has this type, so that when rule ids become
/// a typed `harness` id this alias is the one line to change.
pub use harness::rules::RuleId;

/// The vectors folder of this crate.
#[must_use]
pub fn default_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors")
}

/// What a vector's name says must happen to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// `y_`: must be accepted (the frame, or in an exchange the reply, conforms).
    Accept,
    /// `n_`: must be refused (a mandatory rule is broken).
    Refuse,
    /// `i_`: the spec is ambiguous; the vector records the stance wirecheck takes.
    ImplementationDefined,
}

impl Verdict {
    /// The file-name prefix letter: `y`, `n` or `i`.
    #[must_use]
    pub fn letter(self) -> char {
        match self {
            Verdict::Accept => 'y',
            Verdict::Refuse => 'n',
            Verdict::ImplementationDefined => 'i',
        }
    }
}

/// A rule a vector exercises, as the vector names it. The runner checks the level
/// and the reference against the rule model, so the two cannot drift apart.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleRef {
    /// The stable rule id (`jsonrpc.id-type`, `mcp.base.id-not-null`, …).
    pub id: RuleId,
    /// `MUST`, `MUST NOT`, `SHOULD`, `SHOULD NOT` or `MAY`, read straight into
    /// the rule model's level, so a misspelt level is a load error.
    pub level: Level,
    /// Where the rule is written: revision, section.
    pub spec: String,
}

/// What the codec must make of the frame.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Codec {
    /// It lifts (and then round-trips losslessly).
    Lifts,
    /// It is refused, naming this rule at this JSON Pointer.
    Refuses {
        /// The refusal's rule id (`json.syntax`, `jsonrpc.id-type`, …).
        rule: RuleId,
        /// The refusal's JSON Pointer (empty for the whole frame).
        pointer: String,
    },
}

/// What a conforming receiver answers the frame with.
///
/// How binding it is lives beside it, in the vector's [`Basis`]: a departure
/// from an answer a MUST mandates fails a live peer, from a SHOULD warns, from
/// a convention is a note.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Answer {
    /// No reply at all (a notification, a batch of notifications).
    Nothing,
    /// An error response.
    Error {
        /// The acceptable codes, the one the spec prefers first; empty when
        /// any error code will do ("any error").
        codes: Vec<i64>,
        /// The `id` the error must carry, as JSON text (`null`, `"1"`, `7`); absent
        /// when the vector does not pin it.
        #[serde(default)]
        id: Option<String>,
        /// Members `error.data` must carry (e.g. `supported` for -32022).
        #[serde(default)]
        data_required: Vec<String>,
    },
    /// A success response.
    Result {
        /// The `id` the result must carry, as JSON text.
        #[serde(default)]
        id: Option<String>,
        /// Members `result` must carry.
        #[serde(default)]
        required: Vec<String>,
        /// The exact result the spec's example gives, when it gives one.
        #[serde(default)]
        example: Option<serde_json::Value>,
    },
    /// A batch response: one answer per element that gets one, in any order.
    Batch(Vec<Answer>),
    /// Any one of these answers ("a result or -32602", "an error or no
    /// answer", an `i_` vector's accepted behaviours). At least two.
    AnyOf(Vec<Answer>),
    /// A stream opened by the request (2026-07-28 `subscriptions/listen`): the
    /// peer first sends this notification and keeps the request open; the
    /// response comes only when the stream is torn down, so silence after the
    /// notification is the expected answer.
    Stream {
        /// The notification that opens the stream
        /// (`notifications/subscriptions/acknowledged`).
        notification: String,
        /// Keys its `params._meta` must carry
        /// (`io.modelcontextprotocol/subscriptionId`).
        #[serde(default)]
        meta_required: Vec<String>,
    },
}

impl Answer {
    /// Whether `which` holds of one of the answers this one accepts (itself,
    /// or an alternative of an `any_of`, however nested).
    #[must_use]
    pub fn accepts_any(&self, which: fn(&Answer) -> bool) -> bool {
        match self {
            Answer::AnyOf(all) => all.iter().any(|a| a.accepts_any(which)),
            other => which(other),
        }
    }

    /// Whether silence is among the accepted answers: nothing, or a stream
    /// held open (no response until teardown).
    #[must_use]
    pub fn accepts_silence(&self) -> bool {
        self.accepts_any(|a| matches!(a, Answer::Nothing | Answer::Stream { .. }))
    }
}

/// Why a vector's answer is the answer: the rule and level that mandate it,
/// or a convention no sentence mandates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Basis {
    /// A rule of the model mandates it, at its level.
    MandatedBy {
        /// The rule id (listed in the vector's `rules`).
        rule: RuleId,
        /// Its level, as the rule model has it.
        level: Level,
    },
    /// Nothing mandates it: the usual answer, and why it is the usual one.
    Convention(String),
}

/// `mandated_by` as written: `{"rule": "...", "level": "MUST"}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct MandatedBy {
    rule: RuleId,
    level: Level,
}

/// A peer's reply in an exchange vector.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Reply {
    /// The peer answered nothing.
    Nothing,
    /// The peer answered this frame (raw wire text).
    Frame(String),
}

/// A request and the reply a peer sent to it: the interop failures SDKs shipped.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exchange {
    /// What the peer answered.
    pub reply: Reply,
    /// The mandatory rule ids the reply breaks, exactly: its own (`validate` as
    /// sent by the peer) and the exchange's (`validate_reply`).
    pub violations: Vec<RuleId>,
    /// Non-mandatory rule ids the reply must be reported for (among others).
    #[serde(default)]
    pub advisories: Vec<RuleId>,
}

/// Why the spec leaves a vector to the implementation: both sides quoted.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ambiguity {
    /// The ambiguity's id in the research catalogue (`A1`, `A5`, …), or a short name.
    pub reference: String,
    /// The question the spec leaves open.
    pub question: String,
    /// The quoted texts that pull in different directions (at least two).
    pub quotes: Vec<String>,
    /// What wirecheck does, and why.
    pub stance: String,
    /// Whether the question is also whether a reply is owed at all. When it
    /// is not (the default), a request with an id is answered under every
    /// reading (JSON-RPC 2.0 §5), so silence fails as it does anywhere,
    /// while a wrong answer is the ambiguity's to soften.
    #[serde(default)]
    pub reply_in_question: bool,
}

/// One vector file as written.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    description: String,
    #[serde(deserialize_with = "revision")]
    profile: Revision,
    #[serde(deserialize_with = "sender")]
    from: Direction,
    #[serde(default)]
    frame: Option<String>,
    #[serde(default)]
    frame_hex: Option<String>,
    rules: Vec<RuleRef>,
    codec: Codec,
    violations: Vec<RuleId>,
    #[serde(default)]
    advisories: Vec<RuleId>,
    #[serde(default)]
    answer: Option<Answer>,
    #[serde(default)]
    mandated_by: Option<MandatedBy>,
    #[serde(default)]
    convention: Option<String>,
    #[serde(default)]
    needs: Option<Needs>,
    #[serde(default)]
    exchange: Option<Exchange>,
    #[serde(default)]
    ambiguity: Option<Ambiguity>,
}

/// One golden vector, checked for self-consistency.
#[derive(Debug, Clone, PartialEq)]
pub struct Vector {
    /// The stable id: the path under `vectors/` without verdict and extension.
    pub id: String,
    /// The file.
    pub path: PathBuf,
    /// What the name says must happen.
    pub verdict: Verdict,
    /// What a human should know about it.
    pub description: String,
    /// The revision and who sent the frame.
    pub profile: Profile,
    /// The raw wire bytes (a string in the file, or hex for bytes that are not UTF-8).
    pub frame: Vec<u8>,
    /// The rules the vector exercises.
    pub rules: Vec<RuleRef>,
    /// What the codec must make of the frame.
    pub codec: Codec,
    /// The mandatory (MUST / MUST NOT) rule ids `validate` must report, exactly.
    pub violations: Vec<RuleId>,
    /// Non-mandatory rule ids `validate` must report (among others it may add).
    pub advisories: Vec<RuleId>,
    /// What a conforming receiver answers; present for every frame a server receives.
    pub answer: Option<Answer>,
    /// What mandates the answer (present exactly when `answer` is).
    pub basis: Option<Basis>,
    /// What the vector needs from the peer (empty: nothing).
    pub needs: Needs,
    /// The peer's reply, for exchange vectors.
    pub exchange: Option<Exchange>,
    /// The ambiguity, for `i_` vectors.
    pub ambiguity: Option<Ambiguity>,
}

impl Vector {
    /// The frame as text (lossy for the rare frame that is not UTF-8).
    #[must_use]
    pub fn frame_text(&self) -> String {
        String::from_utf8_lossy(&self.frame).into_owned()
    }

    /// Every rule id the vector names: in `rules`, and so in the traceability table.
    pub fn rule_ids(&self) -> impl Iterator<Item = &str> {
        self.rules.iter().map(|r| r.id.as_str())
    }
}

/// A vector file that could not be loaded, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The file (or folder).
    pub path: PathBuf,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for LoadError {}

/// Every vector under `root`, in path order, and every file that failed to load.
/// Nothing is listed by hand: each `.json` file under `root/jsonrpc-2.0/` and
/// `root/mcp/<revision>/` is a vector, and any other file there is an error.
#[must_use]
pub fn load_all(root: &Path) -> (Vec<Vector>, Vec<LoadError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for top in ["jsonrpc-2.0", "mcp"] {
        walk(&root.join(top), &mut files, &mut errors);
    }
    files.sort();
    let loaded = files.into_iter().map(|path| {
        let vector = load_one(root, &path);
        (path, vector)
    });
    collect(loaded, errors)
}

/// The vectors built into this binary (`build.rs` embeds `vectors/` at
/// compile time), so `wirecheck run` works with no checkout. The same checks
/// as [`load_all`]; paths are relative to the vectors root.
#[must_use]
pub fn embedded() -> (Vec<Vector>, Vec<LoadError>) {
    load_embedded(EMBEDDED)
}

/// The SHA-256 of the embedded vector files, as [`digest`] reads them.
#[must_use]
pub fn embedded_digest() -> String {
    digest(EMBEDDED.iter().copied())
}

/// The SHA-256 of the vector files under `root`, as [`digest`] reads them.
///
/// # Errors
/// A file that cannot be read, named.
pub fn dir_digest(root: &Path) -> Result<String, String> {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for top in ["jsonrpc-2.0", "mcp"] {
        walk(&root.join(top), &mut files, &mut errors);
    }
    let mut read = Vec::new();
    for path in files {
        let bytes =
            std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let rel = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        read.push((rel, bytes));
    }
    Ok(digest(
        read.iter().map(|(rel, b)| (rel.as_str(), b.as_slice())),
    ))
}

/// The SHA-256, as lowercase hex, of the vector files among `files`
/// (`(path under the root, bytes)`; those under `jsonrpc-2.0/` and `mcp/`),
/// in path order, each as its path, a NUL, its length as eight little-endian
/// bytes and its bytes: the same files give the same digest, embedded or on
/// disk.
#[must_use]
pub fn digest<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> String {
    use sha2::Digest as _;
    let mut files: Vec<(&str, &[u8])> = files
        .into_iter()
        .filter(|(rel, _)| rel.starts_with("jsonrpc-2.0/") || rel.starts_with("mcp/"))
        .collect();
    files.sort_by_key(|(rel, _)| *rel);
    let mut hash = sha2::Sha256::new();
    for (rel, bytes) in files {
        hash.update(rel.as_bytes());
        hash.update([0]);
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The path under the vectors root of the embedded vector whose id is `id`
/// (`mcp/2025-11-25/base/params-array` is `mcp/2025-11-25/base/n_params-array.json`),
/// found by name alone, without loading a file.
#[must_use]
pub fn embedded_path(id: &str) -> Option<&'static str> {
    EMBEDDED.iter().map(|(rel, _)| *rel).find(|rel| {
        let Some((folder, name)) = rel.rsplit_once('/') else {
            return false;
        };
        let Some(slug) = name
            .strip_suffix(".json")
            .and_then(|stem| stem.split_once('_'))
            .filter(|(verdict, _)| ["y", "n", "i"].contains(verdict))
            .map(|(_, slug)| slug)
        else {
            return false;
        };
        id.strip_prefix(folder)
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|rest| rest == slug)
    })
}

/// The embedded files: `(path under the vectors root, bytes)`.
static EMBEDDED: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/embedded_vectors.rs"));

/// Loads vectors from `(path under the root, bytes)` pairs, with the same
/// checks as [`load_all`]; files outside `jsonrpc-2.0/` and `mcp/` are not
/// vectors (the catalogue, the generator) and are left out, as there.
#[must_use]
pub fn load_embedded(files: &[(&str, &[u8])]) -> (Vec<Vector>, Vec<LoadError>) {
    let mut files: Vec<&(&str, &[u8])> = files
        .iter()
        .filter(|(rel, _)| rel.starts_with("jsonrpc-2.0/") || rel.starts_with("mcp/"))
        .collect();
    files.sort_by_key(|(rel, _)| *rel);
    let loaded = files.into_iter().map(|(rel, bytes)| {
        let path = PathBuf::from(rel);
        let vector = build(&path, &path, || {
            String::from_utf8(bytes.to_vec()).map_err(|e| format!("cannot read: {e}"))
        });
        (path, vector)
    });
    collect(loaded, Vec::new())
}

/// Loaded vectors in order, refusing a second vector with an id already seen.
fn collect(
    loaded: impl Iterator<Item = (PathBuf, Result<Vector, String>)>,
    mut errors: Vec<LoadError>,
) -> (Vec<Vector>, Vec<LoadError>) {
    let mut vectors: Vec<Vector> = Vec::new();
    let mut ids = BTreeSet::new();
    for (path, loaded) in loaded {
        match loaded {
            Ok(v) if !ids.insert(v.id.clone()) => errors.push(LoadError {
                path,
                message: format!(
                    "duplicate vector id `{}` (two verdicts for one case?)",
                    v.id
                ),
            }),
            Ok(v) => vectors.push(v),
            Err(message) => errors.push(LoadError { path, message }),
        }
    }
    (vectors, errors)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>, errors: &mut Vec<LoadError>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            errors.push(LoadError {
                path: dir.to_owned(),
                message: format!("cannot read folder: {e}"),
            });
            return;
        }
    };
    for entry in entries {
        let path = match entry {
            Ok(entry) => entry.path(),
            Err(e) => {
                errors.push(LoadError {
                    path: dir.to_owned(),
                    message: format!("cannot read folder entry: {e}"),
                });
                continue;
            }
        };
        if path.is_dir() {
            walk(&path, files, errors);
        } else {
            files.push(path);
        }
    }
}

/// Loads and checks one vector file.
///
/// # Errors
/// A message naming what is wrong: not JSON, an unknown field, a name that is not
/// `[yni]_<slug>.json`, a profile that disagrees with the folder, a verdict that
/// disagrees with the expectations, a rule named in an expectation but not in
/// `rules`.
pub fn load_one(root: &Path, path: &Path) -> Result<Vector, String> {
    let rel = path
        .strip_prefix(root)
        .map_err(|_| "not under the vectors root".to_owned())?;
    build(rel, path, || {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))
    })
}

/// Checks the name `rel` (under the vectors root), reads the text with
/// `read`, and checks the vector; `path` is what the vector records.
fn build(
    rel: &Path,
    path: &Path,
    read: impl FnOnce() -> Result<String, String>,
) -> Result<Vector, String> {
    let parts: Vec<&str> = rel
        .iter()
        .map(|p| p.to_str().ok_or("path is not UTF-8"))
        .collect::<Result<_, _>>()?;
    let (name, folders) = parts.split_last().ok_or("empty path")?;
    let stem = name
        .strip_suffix(".json")
        .ok_or("not a `.json` file: only vectors belong under jsonrpc-2.0/ and mcp/")?;
    let (verdict, slug) = match stem.split_once('_') {
        Some(("y", slug)) => (Verdict::Accept, slug),
        Some(("n", slug)) => (Verdict::Refuse, slug),
        Some(("i", slug)) => (Verdict::ImplementationDefined, slug),
        _ => return Err("name must start with `y_`, `n_` or `i_`".into()),
    };
    if !is_slug(slug) || folders.iter().any(|f| !is_slug(f)) {
        return Err("names must be lowercase ASCII letters, digits, `.` and `-`".into());
    }
    let folder_revision = match folders {
        ["jsonrpc-2.0", _, ..] => Revision::JsonRpc2,
        ["mcp", revision, _, ..] => revision
            .parse::<Revision>()
            .ok()
            .filter(|r| r.is_mcp())
            .ok_or_else(|| format!("`mcp/{revision}` is not an MCP revision"))?,
        _ => {
            return Err("a vector lives in jsonrpc-2.0/<topic>/ or mcp/<revision>/<topic>/".into())
        }
    };
    let id = format!("{}/{slug}", folders.join("/"));

    let text = read()?;
    let file: File = serde_json::from_str(&text).map_err(|e| format!("invalid vector: {e}"))?;

    let revision = file.profile;
    if revision != folder_revision {
        return Err(format!(
            "profile `{revision}` disagrees with the folder (`{folder_revision}`)"
        ));
    }
    let direction = file.from;
    let frame = match (file.frame, file.frame_hex) {
        (Some(text), None) => text.into_bytes(),
        (None, Some(hex)) => decode_hex(&hex)?,
        _ => return Err("exactly one of `frame` and `frame_hex` is required".into()),
    };

    let vector = Vector {
        id,
        path: path.to_owned(),
        verdict,
        description: file.description,
        profile: Profile {
            revision,
            direction,
        },
        frame,
        rules: file.rules,
        codec: file.codec,
        violations: file.violations,
        advisories: file.advisories,
        answer: file.answer,
        basis: match (file.mandated_by, file.convention) {
            (None, None) => None,
            (Some(m), None) => Some(Basis::MandatedBy {
                rule: m.rule,
                level: m.level,
            }),
            (None, Some(why)) => Some(Basis::Convention(why)),
            (Some(_), Some(_)) => {
                return Err("an answer is `mandated_by` a rule or a `convention`, not both".into())
            }
        },
        needs: file.needs.unwrap_or_default(),
        exchange: file.exchange,
        ambiguity: file.ambiguity,
    };
    check(&vector)?;
    Ok(vector)
}

/// `profile`: a revision's name (`jsonrpc-2.0`, `2025-06-18`). `harness::Revision`
/// has `FromStr` but no serde impl, and harness stays serde-free in its types.
fn revision<'de, D: Deserializer<'de>>(d: D) -> Result<Revision, D::Error> {
    let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
    s.parse().map_err(serde::de::Error::custom)
}

/// `from`: who sent the frame, `client` or `server` (only those two spellings:
/// `Direction`'s `FromStr` also takes `client->server`, which no vector uses).
fn sender<'de, D: Deserializer<'de>>(d: D) -> Result<Direction, D::Error> {
    let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
    match s.as_ref() {
        "client" => Ok(Direction::ClientToServer),
        "server" => Ok(Direction::ServerToClient),
        other => Err(serde::de::Error::custom(format!(
            "`from` is `{other}`; expected `client` or `server`"
        ))),
    }
}

fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
}

fn decode_hex(hex: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> = hex.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if digits.len() % 2 != 0 {
        return Err("`frame_hex` has an odd number of digits".into());
    }
    digits
        .chunks(2)
        .map(|pair| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|p| u8::from_str_radix(p, 16).ok())
                .ok_or_else(|| "`frame_hex` holds a non-hex digit".to_owned())
        })
        .collect()
}

/// The vector's promises about itself, before anything is run.
fn check(v: &Vector) -> Result<(), String> {
    if v.description.trim().is_empty() {
        return Err("`description` is empty".into());
    }
    // An ambiguity may be exactly that no rule speaks; every other vector
    // exercises a rule, or it could not be traced.
    if v.rules.is_empty() && v.ambiguity.is_none() {
        return Err("`rules` is empty: every vector exercises at least one rule".into());
    }
    let mut named = BTreeSet::new();
    for r in &v.rules {
        if r.spec.trim().is_empty() {
            return Err(format!("rule `{}` has no spec reference", r.id));
        }
        if !named.insert(r.id.as_str()) {
            return Err(format!("rule `{}` is listed twice", r.id));
        }
    }
    let exchange_violations = v
        .exchange
        .iter()
        .flat_map(|e| e.violations.iter().chain(&e.advisories));
    for id in v
        .violations
        .iter()
        .chain(&v.advisories)
        .chain(exchange_violations)
    {
        if !named.contains(id.as_str()) {
            return Err(format!(
                "`{id}` is expected but not listed in `rules` (the traceability table reads `rules`)"
            ));
        }
    }
    if let Codec::Refuses { rule, .. } = &v.codec {
        let known =
            Rule::from_id(rule.as_str()).ok_or_else(|| format!("`{rule}` is no codec rule"))?;
        // A frame that does not lift is one violation: the refusal's rule, among
        // the mandatory ones or the advisories by its level.
        let (listed, other, kind) = if rule.info().level.is_mandatory() {
            (&v.violations, &v.advisories, "violations")
        } else {
            (&v.advisories, &v.violations, "advisories")
        };
        if *listed != [*rule] || !other.is_empty() {
            return Err(format!(
                "the codec refuses with `{rule}` ({}), so `{kind}` must be exactly [\"{rule}\"] and nothing else",
                rule.info().level
            ));
        }
        if let Some(answer) = &v.answer {
            if !answers_with(answer, known.code()) {
                return Err(format!(
                    "the codec refuses with `{rule}` (code {}), but `answer` does not carry that code",
                    known.code()
                ));
            }
        }
    }
    check_verdict(v)?;
    check_basis(v)?;
    if v.profile.direction == Direction::ClientToServer && v.answer.is_none() {
        return Err("a frame a server receives must say what a conforming server answers".into());
    }
    if let Some(a) = &v.ambiguity {
        if a.quotes.len() < 2 || a.quotes.iter().any(|q| q.trim().is_empty()) {
            return Err("an ambiguity quotes both sides (two quotes at least)".into());
        }
    }
    Ok(())
}

fn check_verdict(v: &Vector) -> Result<(), String> {
    match (v.verdict, &v.ambiguity) {
        (Verdict::ImplementationDefined, None) => {
            return Err("an `i_` vector must say which ambiguity (`ambiguity`)".into())
        }
        (Verdict::Accept | Verdict::Refuse, Some(_)) => {
            return Err("only `i_` vectors carry an `ambiguity`".into())
        }
        _ => {}
    }
    // In an exchange the verdict judges the peer's reply; otherwise the frame.
    let broken = match &v.exchange {
        Some(e) => !e.violations.is_empty(),
        None => matches!(v.codec, Codec::Refuses { .. }) || !v.violations.is_empty(),
    };
    match (v.verdict, broken) {
        (Verdict::Accept, true) => Err("a `y_` vector expects no mandatory violation".into()),
        (Verdict::Refuse, false) => {
            Err("an `n_` vector expects a refusal or a mandatory violation".into())
        }
        _ => Ok(()),
    }
}

/// Every answer names what mandates it: a rule the vector lists, at the level
/// it lists, or a convention with its reason.
fn check_basis(v: &Vector) -> Result<(), String> {
    match (&v.answer, &v.basis) {
        (None, None) => Ok(()),
        (None, Some(_)) => Err("`mandated_by` / `convention` without an `answer`".into()),
        (Some(_), None) => Err(
            "the `answer` names no basis: add `mandated_by` {rule, level} or a `convention`".into(),
        ),
        (Some(_), Some(Basis::Convention(why))) if why.trim().is_empty() => {
            Err("a `convention` says why it is one".into())
        }
        (Some(_), Some(Basis::Convention(_))) => Ok(()),
        (Some(_), Some(Basis::MandatedBy { rule, level })) => {
            match v.rules.iter().find(|r| &r.id == rule) {
                None => Err(format!(
                    "the answer is mandated by `{rule}`, which `rules` does not list"
                )),
                Some(r) if r.level != *level => Err(format!(
                    "the answer is mandated by `{rule}` at {level}, but `rules` lists it at {}",
                    r.level
                )),
                Some(_) => Ok(()),
            }
        }
    }?;
    if let Some(Answer::AnyOf(items)) = &v.answer {
        if items.len() < 2 {
            return Err("`any_of` lists two answers at least".into());
        }
    }
    Ok(())
}

/// Whether `answer` is (or, for a batch, holds) an error with `code`.
fn answers_with(answer: &Answer, code: i64) -> bool {
    match answer {
        Answer::Error { codes, .. } => codes.contains(&code),
        Answer::Batch(items) | Answer::AnyOf(items) => items.iter().any(|a| answers_with(a, code)),
        Answer::Nothing | Answer::Result { .. } | Answer::Stream { .. } => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, rel: &str, body: &str) -> PathBuf {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, body).unwrap();
        path
    }

    const GOOD: &str = r#"{
      "description": "a string id",
      "profile": "jsonrpc-2.0",
      "from": "client",
      "frame": "{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"method\":\"x\"}",
      "rules": [{"id": "jsonrpc.id-type", "level": "MUST", "spec": "JSON-RPC 2.0 §4"}],
      "codec": "lifts",
      "violations": [],
      "answer": {"error": {"codes": [-32601], "id": "\"1\""}},
      "convention": "an unknown method is commonly answered -32601"
    }"#;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("wirecheck-vectors-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn id_comes_from_the_path_without_the_verdict() {
        let root = scratch("id");
        let path = write(&root, "jsonrpc-2.0/request/y_id-string.json", GOOD);
        let v = load_one(&root, &path).unwrap();
        assert_eq!(v.id, "jsonrpc-2.0/request/id-string");
        assert_eq!(v.verdict, Verdict::Accept);
        assert_eq!(v.profile.revision, Revision::JsonRpc2);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn refuses_typos_bad_names_and_inconsistent_verdicts() {
        let root = scratch("bad");
        let typo = GOOD.replace("\"violations\"", "\"violation\"");
        let cases = [
            (
                "jsonrpc-2.0/request/y_typo.json",
                typo.as_str(),
                "unknown field",
            ),
            ("jsonrpc-2.0/request/x_id.json", GOOD, "must start with"),
            ("jsonrpc-2.0/request/n_id.json", GOOD, "`n_` vector expects"),
            (
                "jsonrpc-2.0/request/i_id.json",
                GOOD,
                "must say which ambiguity",
            ),
            (
                "mcp/2025-06-18/base/y_id.json",
                GOOD,
                "disagrees with the folder",
            ),
            ("mcp/1999-01-01/base/y_id.json", GOOD, "not an MCP revision"),
            ("jsonrpc-2.0/y_top.json", GOOD, "lives in"),
            ("jsonrpc-2.0/request/y_Upper.json", GOOD, "lowercase"),
            // Levels, revisions and senders are read straight into their types.
            (
                "jsonrpc-2.0/request/y_level.json",
                &GOOD.replace(r#""level": "MUST""#, r#""level": "MUSTN'T""#),
                "unknown level `MUSTN'T`",
            ),
            (
                "jsonrpc-2.0/request/y_profile.json",
                &GOOD.replace(r#""profile": "jsonrpc-2.0""#, r#""profile": "jsonrpc-3.0""#),
                "unknown revision `jsonrpc-3.0`",
            ),
            (
                "jsonrpc-2.0/request/y_from.json",
                &GOOD.replace(r#""from": "client""#, r#""from": "client->server""#),
                "`from` is `client->server`; expected `client` or `server`",
            ),
            (
                "jsonrpc-2.0/request/y_unlisted.json",
                &GOOD.replace(
                    "\"violations\": []",
                    "\"violations\": [], \"advisories\": [\"jsonrpc.request.id-not-null\"]",
                ),
                "not listed in `rules`",
            ),
            (
                "jsonrpc-2.0/request/y_misspelt.json",
                &GOOD.replace(
                    "\"violations\": []",
                    "\"violations\": [], \"advisories\": [\"x.y\"]",
                ),
                "unknown rule id `x.y`",
            ),
            (
                "jsonrpc-2.0/request/y_no-answer.json",
                &GOOD.replace(
                    r#""answer": {"error": {"codes": [-32601], "id": "\"1\""}},
      "convention": "an unknown method is commonly answered -32601""#,
                    r#""advisories": []"#,
                ),
                "must say what a conforming server answers",
            ),
            // Every answer names what mandates it, exactly as `rules` lists it.
            (
                "jsonrpc-2.0/request/y_no-basis.json",
                &GOOD.replace(
                    r#",
      "convention": "an unknown method is commonly answered -32601""#,
                    "",
                ),
                "names no basis",
            ),
            (
                "jsonrpc-2.0/request/y_unlisted-basis.json",
                &GOOD.replace(
                    r#""convention": "an unknown method is commonly answered -32601""#,
                    r#""mandated_by": {"rule": "jsonrpc.response.id-echo", "level": "MUST"}"#,
                ),
                "which `rules` does not list",
            ),
            (
                "jsonrpc-2.0/request/y_basis-level.json",
                &GOOD.replace(
                    r#""convention": "an unknown method is commonly answered -32601""#,
                    r#""mandated_by": {"rule": "jsonrpc.id-type", "level": "SHOULD"}"#,
                ),
                "at SHOULD, but `rules` lists it at MUST",
            ),
            (
                "jsonrpc-2.0/request/y_both-bases.json",
                &GOOD.replace(
                    r#""convention": "#,
                    r#""mandated_by": {"rule": "jsonrpc.id-type", "level": "MUST"}, "convention": "#,
                ),
                "not both",
            ),
            (
                "jsonrpc-2.0/request/y_one-of.json",
                &GOOD.replace(
                    r#""answer": {"error""#,
                    r#""answer": {"any_of": [{"nothing": null}]}, "x": {"error""#,
                ),
                "unknown field",
            ),
            (
                "jsonrpc-2.0/request/y_need-typo.json",
                &GOOD.replace(r#""codec""#, r#""needs": {"tools": "echo"}, "codec""#),
                "unknown field `tools`",
            ),
        ];
        for (rel, body, expected) in cases {
            let path = write(&root, rel, body);
            let err = load_one(&root, &path).unwrap_err();
            assert!(err.contains(expected), "{rel}: {err}");
        }
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn walks_every_file_and_reports_strays_and_duplicates() {
        let root = scratch("walk");
        write(&root, "jsonrpc-2.0/request/y_id-string.json", GOOD);
        write(&root, "jsonrpc-2.0/request/deep/er/y_id-string.json", GOOD);
        let refused = GOOD
            .replace(
                r#""codec": "lifts""#,
                r#""codec": {"refuses": {"rule": "jsonrpc.id-type", "pointer": "/id"}}"#,
            )
            .replace(
                r#""violations": []"#,
                r#""violations": ["jsonrpc.id-type"]"#,
            )
            .replace("[-32601]", "[-32600]");
        write(&root, "jsonrpc-2.0/request/n_id-string.json", &refused);
        write(&root, "jsonrpc-2.0/request/notes.txt", "stray");
        std::fs::create_dir_all(root.join("mcp")).unwrap();
        let (vectors, errors) = load_all(&root);
        let ids: Vec<_> = vectors.iter().map(|v| v.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "jsonrpc-2.0/request/deep/er/id-string",
                "jsonrpc-2.0/request/id-string"
            ]
        );
        let messages: Vec<_> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(errors.len(), 2, "{messages:?}");
        assert!(messages.iter().any(|m| m.contains("duplicate vector id")));
        assert!(messages.iter().any(|m| m.contains("not a `.json` file")));
        let _ = std::fs::remove_dir_all(&root);
    }
}
