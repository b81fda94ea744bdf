//! The schema cross-check: every MCP vector's frames against the official
//! schema of their revision, and the schema against the rule model.
//!
//! The schemas are read from `$WIRECHECK_MCP_SCHEMAS/<revision>/schema.json`
//! (never vendored); unset, the folder defaults to `../shared/mcp-schema` beside
//! the workspace. A clean clone has neither, so when the folder is not there the
//! cross-check is an *ignored* trial, with a note naming the variable to set;
//! under `CI` (the variable set, whatever its value) it fails instead: a CI run
//! that silently checks nothing is worse than none. A libtest-mimic runner
//! (`harness = false`), because only a custom runner can decide at run time
//! that a trial is ignored.
//!
//! For each frame (the vector's frame and, in an exchange, the reply) the test
//! compares two verdicts: schema-valid, and clean under the rule model (it lifts
//! and `validate`, plus `validate_reply` for a reply, reports no MUST-level
//! violation). Where they disagree the frame must be listed, with the reason, in
//! the baseline `conformance/baselines/schema-divergences.json` (read by
//! `wirecheck::baseline`, `part` being `frame` or `reply`); a listed divergence
//! that no longer diverges fails as stale. So a `y_` vector's frame is
//! schema-valid unless a listed reason says why not.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use harness::rules;
use harness::{lift, Direction, Frame, Message, Outcome, Profile, Revision};
use jsonschema::Validator;
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{json, Value};
use wirecheck::baseline::Baseline;
use wirecheck::vectors::{self, Reply, Vector};

/// The schemas folder: `$WIRECHECK_MCP_SCHEMAS`, or `../shared/mcp-schema` beside
/// the workspace when unset. A folder that is not there is an error either way;
/// the message names the variable, so whoever reads it knows what to set.
fn schemas_root(var: Option<std::ffi::OsString>) -> Result<PathBuf, String> {
    let (dir, source) = match var {
        Some(dir) => (PathBuf::from(dir), "WIRECHECK_MCP_SCHEMAS"),
        None => (
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/mcp-schema"),
            "the default (WIRECHECK_MCP_SCHEMAS unset)",
        ),
    };
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!("{source} names no folder: {}", dir.display()))
    }
}

/// One revision's schema document and its compiled validators, by definition name.
struct Schema {
    doc: Value,
    defs_key: &'static str,
    cache: HashMap<String, Option<Validator>>,
}

impl Schema {
    fn load(root: &Path, revision: Revision) -> Result<Schema, String> {
        let path = root.join(revision.name()).join("schema.json");
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let doc: Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let defs_key = if doc.get("$defs").is_some() {
            "$defs"
        } else {
            "definitions"
        };
        Ok(Schema {
            doc,
            defs_key,
            cache: HashMap::new(),
        })
    }

    fn def(&self, name: &str) -> Option<&Value> {
        self.doc.get(self.defs_key)?.get(name)
    }

    /// Whether `instance` is valid against definition `name`; `None` when the
    /// schema has no such definition.
    fn valid(&mut self, name: &str, instance: &Value) -> Option<bool> {
        if !self.cache.contains_key(name) {
            let compiled = self.def(name).map(|_| {
                // The whole document, entered through the definition, so its `$ref`s resolve.
                let mut root = self.doc.clone();
                if let Value::Object(m) = &mut root {
                    m.remove("$ref");
                    m.remove("anyOf");
                    m.insert(
                        "allOf".into(),
                        json!([{ "$ref": format!("#/{}/{name}", self.defs_key) }]),
                    );
                }
                jsonschema::validator_for(&root)
                    .unwrap_or_else(|e| panic!("schema definition {name} does not compile: {e}"))
            });
            self.cache.insert(name.to_owned(), compiled);
        }
        self.cache[name].as_ref().map(|v| v.is_valid(instance))
    }

    /// The definition, among the members of `union`, whose `method` is `method`.
    fn member_for_method(&self, union: &str, method: &str) -> Option<String> {
        let members = self.def(union)?.get("anyOf")?.as_array()?;
        members.iter().find_map(|m| {
            let name = m.get("$ref")?.as_str()?.rsplit('/').next()?.to_owned();
            let def = self.def(&name)?;
            (def.pointer("/properties/method/const")?.as_str()? == method).then_some(name)
        })
    }

    /// The error definition whose `error.code` is the constant `code`.
    fn error_def_for_code(&self, code: i64) -> Option<String> {
        let defs = self.doc.get(self.defs_key)?.as_object()?;
        defs.iter().find_map(|(name, def)| {
            let parts = def.pointer("/properties/error/allOf")?.as_array()?;
            parts
                .iter()
                .any(|p| p.pointer("/properties/code/const").and_then(Value::as_i64) == Some(code))
                .then(|| name.clone())
        })
    }
}

/// The result definition that answers `request_def` (`ListToolsRequest` →
/// `ListToolsResult`; ping, setLevel, subscribe → `EmptyResult`).
fn result_def(schema: &Schema, request_def: &str) -> Option<String> {
    let stem = request_def.strip_suffix("Request")?;
    let name = format!("{stem}Result");
    if schema.def(&name).is_some() {
        Some(name)
    } else {
        schema.def("EmptyResult").map(|_| "EmptyResult".to_owned())
    }
}

/// The schema's verdict on one message: the envelope, then the method's own
/// type (request and notification unions per sender, the result type for the
/// request it answers, the error type for a code the schema defines).
fn message_valid(
    schema: &mut Schema,
    m: &Value,
    sender: Direction,
    answers: Option<&str>,
) -> Result<(), String> {
    if schema.valid("JSONRPCMessage", m) != Some(true) {
        return Err("not a JSONRPCMessage".into());
    }
    // `JSONRPCMessage` is an `anyOf` of open objects: a request with a null id
    // still matches `JSONRPCNotification` up to 2025-06-18. The message's shape
    // says which member it means, so it must match that one.
    let shape: &[&str] = match (m.get("method"), m.get("id"), m.get("result")) {
        (Some(_), Some(_), _) => &["JSONRPCRequest"],
        (Some(_), None, _) => &["JSONRPCNotification"],
        (None, _, Some(_)) => &["JSONRPCResultResponse", "JSONRPCResponse"],
        (None, _, None) => &["JSONRPCErrorResponse", "JSONRPCError"],
    };
    if let Some(def) = shape.iter().find(|d| schema.def(d).is_some()) {
        if schema.valid(def, m) != Some(true) {
            return Err(format!("not a {def}"));
        }
    }
    let side = match sender {
        Direction::ClientToServer => "Client",
        Direction::ServerToClient => "Server",
    };
    let method = m.get("method").and_then(Value::as_str);
    match (method, m.get("id").is_some()) {
        (Some(method), true) => {
            // A revision with no `ServerRequest` (2026-07-28) has no server requests.
            let union = format!("{side}Request");
            if schema.valid(&union, m) != Some(true) {
                return Err(format!("`{method}` is no {union}"));
            }
        }
        (Some(method), false) => {
            let union = format!("{side}Notification");
            if schema.valid(&union, m) != Some(true) {
                return Err(format!("`{method}` is no {union}"));
            }
        }
        (None, _) => {
            if let (Some(result), Some(def)) = (m.get("result"), answers) {
                // 2026-07-28: tools/call, prompts/get and resources/read may answer
                // "input required" instead (MRTR); the model checks which may.
                let input_required =
                    result.get("resultType").and_then(Value::as_str) == Some("input_required");
                let ok = if input_required {
                    schema.valid("InputRequiredResult", result) == Some(true)
                } else {
                    schema.valid(def, result) == Some(true)
                };
                if !ok {
                    return Err(format!("result is no {def}"));
                }
            }
            if let Some(code) = m.pointer("/error/code").and_then(Value::as_i64) {
                if let Some(def) = schema.error_def_for_code(code) {
                    if schema.valid(&def, m) != Some(true) {
                        return Err(format!("error {code} is no {def}"));
                    }
                }
            }
        }
    }
    Ok(())
}

fn frame_valid(
    schema: &mut Schema,
    bytes: &[u8],
    sender: Direction,
    answers: Option<&str>,
) -> Result<(), String> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
    match &value {
        Value::Array(items) => {
            if schema.valid("JSONRPCMessage", &value) != Some(true) {
                return Err("a batch is no JSONRPCMessage in this revision".into());
            }
            items
                .iter()
                .try_for_each(|m| message_valid(schema, m, sender, None))
        }
        m => message_valid(schema, m, sender, answers),
    }
}

fn mandatory(vs: &[rules::Violation]) -> BTreeSet<&'static str> {
    vs.iter()
        .filter(|v| v.level.is_mandatory())
        .map(|v| v.rule.as_str())
        .collect()
}

fn peer(direction: Direction) -> Direction {
    match direction {
        Direction::ClientToServer => Direction::ServerToClient,
        Direction::ServerToClient => Direction::ClientToServer,
    }
}

/// One frame's two verdicts.
struct Part {
    name: &'static str,
    schema: Result<(), String>,
    model: BTreeSet<&'static str>,
}

fn parts(v: &Vector, schema: &mut Schema) -> Vec<Part> {
    let sender = v.profile.direction;
    let mut out = vec![Part {
        name: "frame",
        schema: frame_valid(schema, &v.frame, sender, None),
        model: mandatory(&rules::validate(&v.frame, v.profile)),
    }];
    let Some(Reply::Frame(text)) = v.exchange.as_ref().map(|e| &e.reply) else {
        return out;
    };
    let request = lift(&v.frame).ok();
    let answers = match &request {
        Some(Frame::Single(Message::Request(r))) => {
            let union = match sender {
                Direction::ClientToServer => "ClientRequest",
                Direction::ServerToClient => "ServerRequest",
            };
            // 2025-11-25: a task-augmented request is answered with a CreateTaskResult.
            let task = r.params.as_ref().is_some_and(|p| p.get("task").is_some());
            if task && schema.def("CreateTaskResult").is_some() {
                Some("CreateTaskResult".to_owned())
            } else {
                schema
                    .member_for_method(union, &r.method.decoded())
                    .and_then(|d| result_def(schema, &d))
            }
        }
        _ => None,
    };
    let reply_profile = Profile {
        revision: v.profile.revision,
        direction: peer(sender),
    };
    let mut model = mandatory(&rules::validate(text.as_bytes(), reply_profile));
    if let (Some(request), Ok(reply)) = (&request, lift(text.as_bytes())) {
        model.extend(mandatory(&rules::validate_reply(
            request,
            Some(&reply),
            v.profile,
        )));
    }
    out.push(Part {
        name: "reply",
        schema: frame_valid(schema, text.as_bytes(), peer(sender), answers.as_deref()),
        model,
    });
    out
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = vec![Trial::test(
        "schemas::a-folder-that-is-not-there-is-an-error",
        a_schemas_folder_that_is_not_there_is_an_error,
    )];
    let divergences = wirecheck::baseline::default_root().join("schema-divergences.json");
    let cross_check = "schemas::mcp-vectors-against-the-official-schemas";
    let method_table = "schemas::generated-method-table-is-current";
    match schemas_root(std::env::var_os("WIRECHECK_MCP_SCHEMAS")) {
        Ok(root) => {
            trials.push(Trial::test(method_table, {
                let root = root.clone();
                move || generated_method_table_is_current(&root)
            }));
            trials.push(Trial::test(cross_check, move || {
                mcp_vectors_against_the_official_schemas(&root, &divergences)
            }));
        }
        Err(why) => {
            let ci = std::env::var_os("CI").is_some();
            let why = format!(
                "{why}; set WIRECHECK_MCP_SCHEMAS to a folder holding <revision>/schema.json for every MCP revision"
            );
            // Shown whether or not the trial runs: an ignored trial's line says
            // only "ignored", never why.
            if ci {
                eprintln!("schema cross-check: {why} (CI is set, so it fails)");
            } else {
                eprintln!("schema cross-check ignored: {why} (under CI it fails)");
            }
            for name in [method_table, cross_check] {
                let why = why.clone();
                trials.push(Trial::test(name, move || Err(why.into())).with_ignored_flag(!ci));
            }
        }
    }
    // The baseline is data the repository has: it loads even without the schemas.
    trials.push(Trial::test("schemas::divergences-baseline-loads", {
        let path = wirecheck::baseline::default_root().join("schema-divergences.json");
        move || check_divergence_parts(&path)
    }));
    libtest_mimic::run(&args, trials).exit();
}

/// `harness/src/rules/methods.rs` is what its generator makes of the official
/// schemas today: the methods, directions and required members the rule model
/// and the reference peer use come from the schemas, never from memory.
fn generated_method_table_is_current(schemas: &Path) -> Result<(), Failed> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let output = std::process::Command::new("python3")
        .arg(root.join("harness/src/rules/gen_methods.py"))
        .arg(schemas)
        .output()
        .map_err(|e| format!("cannot run python3 harness/src/rules/gen_methods.py: {e}"))?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned().into());
    }
    let committed = include_str!("../../harness/src/rules/methods.rs");
    if String::from_utf8_lossy(&output.stdout) != committed {
        return Err("harness/src/rules/methods.rs is stale: rerun `python3 harness/src/rules/gen_methods.py \"$WIRECHECK_MCP_SCHEMAS\" > harness/src/rules/methods.rs`".into());
    }
    Ok(())
}

/// The baseline loads, and every entry names the part it excuses: a frame and
/// its reply diverge for different reasons.
fn check_divergence_parts(path: &Path) -> Result<(), Failed> {
    let baseline = Baseline::load(path).map_err(|e| e.to_string())?;
    let bad: Vec<&str> = baseline
        .entries
        .iter()
        .filter(|e| !matches!(e.part.as_deref(), Some("frame" | "reply")))
        .map(|e| e.id.as_str())
        .collect();
    if baseline.entries.is_empty() || !bad.is_empty() {
        return Err(format!(
            "{}: {} entries; each needs `part` `frame` or `reply`: {bad:?}",
            path.display(),
            baseline.entries.len()
        )
        .into());
    }
    Ok(())
}

fn mcp_vectors_against_the_official_schemas(root: &Path, divergences: &Path) -> Result<(), Failed> {
    let baseline = Baseline::load(divergences).map_err(|e| e.to_string())?;
    let (all, errors) = vectors::load_all(&vectors::default_root());
    if !errors.is_empty() {
        return Err(format!("vectors that do not load: {errors:?}").into());
    }
    let mut schemas: HashMap<Revision, Schema> = HashMap::new();
    let mut failures = Vec::new();
    let mut used: BTreeSet<(&str, Option<&str>)> = BTreeSet::new();
    let mut checked = 0;
    for v in all.iter().filter(|v| v.profile.revision.is_mcp()) {
        let revision = v.profile.revision;
        let schema = match schemas.entry(revision) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => e.insert(Schema::load(root, revision)?),
        };
        for part in parts(v, schema) {
            checked += 1;
            let listed = baseline.find(&v.id, Some(part.name));
            let diverges = part.schema.is_ok() != part.model.is_empty();
            // The judge here is the agreement of two verdicts: agreeing passes,
            // diverging fails, and the baseline decides what that means.
            let outcome = if diverges {
                Outcome::Fail
            } else {
                Outcome::Pass
            };
            match baseline.apply(&v.id, Some(part.name), outcome) {
                Outcome::Pass => {}
                Outcome::KnownFailure { .. } => {
                    if let Some(entry) = listed {
                        used.insert((entry.id.as_str(), entry.part.as_deref()));
                    }
                }
                Outcome::Stale { reason } => failures.push(format!(
                    "{} ({}): listed in {} ({reason}) but schema ({:?}) and model ({:?}) agree now: remove the entry",
                    v.id, part.name, baseline.path.display(), part.schema, part.model
                )),
                _ => failures.push(match &part.schema {
                    Ok(()) => format!(
                        "{} ({}): schema-valid, but the rule model reports {:?}",
                        v.id, part.name, part.model
                    ),
                    Err(why) => format!(
                        "{} ({}): the rule model finds it clean, the schema refuses it: {why}",
                        v.id, part.name
                    ),
                }),
            }
        }
    }
    for entry in &baseline.entries {
        if !used.contains(&(entry.id.as_str(), entry.part.as_deref())) {
            failures.push(format!(
                "{}: entry `{}` ({}) matches no diverging frame: stale",
                baseline.path.display(),
                entry.id,
                entry.part.as_deref().unwrap_or("any part")
            ));
        }
    }
    if checked == 0 {
        return Err("no MCP vector was checked".into());
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} of {checked} MCP frames disagree:\n{}",
            failures.len(),
            failures.join("\n")
        )
        .into())
    }
}

fn a_schemas_folder_that_is_not_there_is_an_error() -> Result<(), Failed> {
    let missing = std::env::temp_dir().join("wirecheck-no-such-schemas-folder");
    let err = schemas_root(Some(missing.into_os_string()))
        .err()
        .ok_or("a missing folder was accepted")?;
    if !err.contains("WIRECHECK_MCP_SCHEMAS names no folder") {
        return Err(format!("the error does not name the variable: {err}").into());
    }
    let here = std::env::temp_dir();
    if schemas_root(Some(here.clone().into_os_string())) != Ok(here) {
        return Err("an existing folder was refused".into());
    }
    Ok(())
}
