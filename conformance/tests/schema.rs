//! The schema cross-check: every MCP vector's frames against the official
//! schema of their revision, and the schema against the rule model.
//!
//! The schemas are read from `$WIRECHECK_MCP_SCHEMAS/<revision>/schema.json`
//! (never vendored); unset, the folder defaults to `../shared/mcp-schema` beside
//! the workspace. A variable that names a missing folder fails the test: a
//! cross-check that silently checks nothing is worse than none.
//!
//! For each frame (the vector's frame and, in an exchange, the reply) the test
//! compares two verdicts: schema-valid, and clean under the rule model (it lifts
//! and `validate`, plus `validate_reply` for a reply, reports no MUST-level
//! violation). Where they disagree the frame must be listed in [`DIVERGENCES`]
//! with the reason; a listed divergence that no longer diverges fails as stale.
//! So a `y_` vector's frame is schema-valid unless a listed reason says why not.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use harness::rules;
use harness::{lift, Direction, Frame, Message, Profile, Revision};
use jsonschema::Validator;
use serde_json::{json, Value};
use wirecheck::vectors::{self, Reply, Vector};

/// Known, explained disagreements between the schema and the rule model:
/// (vector id pattern, `frame` or `reply`, reason). `*` is one path segment.
const DIVERGENCES: &[(&str, &str, &str)] = &[
    // Ambiguities the vectors record as `i_` (see their `ambiguity`).
    ("mcp/*/base/error-response-id-null", "frame", "A2: JSON-RPC 2.0 §5 requires `id: null` when the request's id could not be read; no MCP schema allows null ids. The model accepts it (SHOULD NOT, mcp.base.error-id-null)"),
    ("mcp/2025-03-26/base/error-response-without-id", "frame", "A2: the 2025-03-26 schema requires `id` on errors, its HTTP transport allows an error response with no id; the model reports SHOULD NOT (mcp.base.error-id-absent)"),
    ("mcp/2025-06-18/base/error-response-without-id", "frame", "A2: as for 2025-03-26; settled in 2025-11-25, where the id is optional"),
    ("mcp/2025-06-18/batch/batch-refused", "reply", "A2: the refusal of a batch carries `id: null` (JSON-RPC 2.0 §5), which the 2025-06-18 schema cannot express (id required, never null)"),
    ("mcp/2024-11-05/batch/batch", "frame", "A5: 2024-11-05 never mentions batches and its schema has no array; JSON-RPC 2.0 allows them. The model reports SHOULD NOT (mcp.batch.none-r1)"),
    // Methods of another revision or direction: the schema's unions hold only this
    // revision's methods; the model reports SHOULD NOT, since the conforming answer
    // is an ordinary -32601, not a protocol failure.
    ("mcp/*/methods/tasks-get-unknown", "frame", "a 2025-11-25 method under an older revision: mcp.method.other-revision is SHOULD NOT; the server answers -32601"),
    ("mcp/*/resources/subscriptions-listen-unknown", "frame", "a 2026-07-28 method under an older revision: mcp.method.other-revision is SHOULD NOT"),
    ("mcp/2026-07-28/ping/ping-gone", "frame", "ping was removed in 2026-07-28: mcp.method.other-revision is SHOULD NOT; the server answers -32601"),
    ("mcp/2026-07-28/ping/set-level-gone", "frame", "logging/setLevel was removed in 2026-07-28: SHOULD NOT, answered -32601"),
    ("mcp/2026-07-28/resources/subscribe-gone", "frame", "resources/subscribe was removed in 2026-07-28: SHOULD NOT, answered -32601"),
    ("mcp/*/tools/list-changed-from-client", "frame", "a server notification sent by a client: mcp.method.direction is SHOULD NOT; a notification gets no reply either way"),
    // Rules written in prose, not in the schema: the model is stricter.
    ("mcp/*/meta/prefix-label-starts-with-digit", "frame", "the `_meta` key grammar is prose (basic/index §_meta); the schema's `_meta` takes any key"),
    ("mcp/*/meta/name-ends-with-hyphen", "frame", "the `_meta` key grammar is prose (basic/index §_meta); the schema's `_meta` takes any key"),
    ("mcp/2026-07-28/meta/traceparent-malformed", "frame", "the W3C Trace Context format of `traceparent` is prose, not schema"),
    ("mcp/2025-03-26/batch/batch-with-initialize", "frame", "\"The initialize request MUST NOT be part of a JSON-RPC batch\" is prose; `JSONRPCBatchRequest` takes any request"),
    ("mcp/2024-11-05/completion/complete-result-over-100", "reply", "\"Must not exceed 100 items\" is only the description of `values` up to 2025-11-25 (2026-07-28 adds maxItems)"),
    ("mcp/2025-03-26/completion/complete-result-over-100", "reply", "\"Must not exceed 100 items\" is only the description of `values` up to 2025-11-25 (2026-07-28 adds maxItems)"),
    ("mcp/2025-06-18/completion/complete-result-over-100", "reply", "\"Must not exceed 100 items\" is only the description of `values` up to 2025-11-25 (2026-07-28 adds maxItems)"),
    ("mcp/2025-11-25/completion/complete-result-over-100", "reply", "\"Must not exceed 100 items\" is only the description of `values` up to 2025-11-25 (2026-07-28 adds maxItems)"),
    ("mcp/2026-07-28/errors/reserved-range-undefined", "frame", "the 2026-07-28 error-code policy is prose; the schema's `Error.code` is any integer"),
    ("mcp/2026-07-28/errors/resource-not-found-32002", "frame", "retired codes (basic/index §Error Codes) are prose; the schema's `Error.code` is any integer"),
    ("mcp/2026-07-28/errors/url-elicitation-required-32042", "frame", "retired codes are prose; the 2026-07-28 schema has no -32042 type to refuse"),
    ("mcp/2026-07-28/errors/resource-not-found-answered-32002", "reply", "retired codes are prose; the schema's `Error.code` is any integer"),
    ("mcp/2026-07-28/tools/call-input-required-empty", "reply", "\"At least one of inputRequests or requestState MUST be present\" is only the description of `InputRequiredResult`"),
    ("mcp/2026-07-28/tools/call-result-type-unknown", "reply", "an unrecognized `resultType` \"MUST be considered invalid\" (prose); the schema types it as any string"),
    ("mcp/2025-11-25/tools/call-as-task-created-completed", "reply", "\"Tasks MUST begin in the `working` status when created\" is prose; `Task.status` takes any TaskStatus"),
    // Exchange rules: the schema judges one message, never a request and its reply.
    ("mcp/*/exchange/id-string-answered-as-number", "reply", "the id echo is a property of the pair; each message alone is schema-valid"),
    ("mcp/*/exchange/id-rounded-past-2-53", "reply", "the id echo is a property of the pair"),
    ("mcp/*/exchange/error-id-mismatch", "reply", "the id echo is a property of the pair"),
    ("mcp/2026-07-28/lifecycle/discover-unanswered-method", "reply", "\"Servers MUST implement server/discover\": a -32601 reply is schema-valid on its own"),
    ("mcp/2026-07-28/lifecycle/missing-meta-answered-with-result", "reply", "the reply should have been -32602 for a request missing its _meta: a property of the pair"),
    ("mcp/2026-07-28/lifecycle/unsupported-version-answered-32602", "reply", "-32022 is required for an unsupported version: a property of the pair"),
    ("mcp/2026-07-28/lifecycle/unsupported-version-answered-with-result", "reply", "-32022 is required for an unsupported version: a property of the pair"),
    ("mcp/2026-07-28/tools/list-input-required", "reply", "which methods may answer InputRequiredResult is prose (basic/patterns/mrtr); `ServerResult` includes it for any request"),
    // Rule-model gaps (also in tests/vectors.rs KNOWN_FAILURES): the schema is stricter.
    ("mcp/*/prompts/get-arguments-not-strings", "frame", "rule-model gap: the values inside `arguments` are strings in every schema; mcp.schema.request-params does not look inside"),
    ("mcp/*/resources/list-result-resource-without-uri", "reply", "rule-model gap: mcp.schema.result does not check the items of `resources`"),
    ("mcp/2024-11-05/tools/list-result-tool-without-input-schema", "reply", "rule-model gap: mcp.schema.result does not check the items of `tools` (from 2025-11-25 mcp.tools.input-schema-not-null does)"),
    ("mcp/2025-03-26/tools/list-result-tool-without-input-schema", "reply", "rule-model gap: mcp.schema.result does not check the items of `tools` (from 2025-11-25 mcp.tools.input-schema-not-null does)"),
    ("mcp/2025-06-18/tools/list-result-tool-without-input-schema", "reply", "rule-model gap: mcp.schema.result does not check the items of `tools` (from 2025-11-25 mcp.tools.input-schema-not-null does)"),
];

/// The schemas folder: `$WIRECHECK_MCP_SCHEMAS`, or `../shared/mcp-schema` beside
/// the workspace when unset. A folder that is not there is an error either way.
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

fn matches_pattern(pattern: &str, id: &str) -> bool {
    let (p, i): (Vec<&str>, Vec<&str>) = (pattern.split('/').collect(), id.split('/').collect());
    p.len() == i.len() && p.iter().zip(&i).all(|(p, i)| *p == "*" || p == i)
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

#[test]
fn mcp_vectors_against_the_official_schemas() {
    let root =
        schemas_root(std::env::var_os("WIRECHECK_MCP_SCHEMAS")).unwrap_or_else(|e| panic!("{e}"));
    let (all, errors) = vectors::load_all(&vectors::default_root());
    assert!(errors.is_empty(), "vectors that do not load: {errors:?}");
    let mut schemas: HashMap<Revision, Schema> = HashMap::new();
    let mut failures = Vec::new();
    let mut used = BTreeSet::new();
    let mut checked = 0;
    for v in all.iter().filter(|v| v.profile.revision.is_mcp()) {
        let revision = v.profile.revision;
        let schema = schemas
            .entry(revision)
            .or_insert_with(|| Schema::load(&root, revision).unwrap_or_else(|e| panic!("{e}")));
        for part in parts(v, schema) {
            checked += 1;
            let listed = DIVERGENCES
                .iter()
                .find(|(p, name, _)| *name == part.name && matches_pattern(p, &v.id));
            let diverges = part.schema.is_ok() != part.model.is_empty();
            match (diverges, listed) {
                (false, None) => {}
                (true, Some(entry)) => {
                    used.insert(entry.0);
                }
                (true, None) => failures.push(match &part.schema {
                    Ok(()) => format!(
                        "{} ({}): schema-valid, but the rule model reports {:?}",
                        v.id, part.name, part.model
                    ),
                    Err(why) => format!(
                        "{} ({}): the rule model finds it clean, the schema refuses it: {why}",
                        v.id, part.name
                    ),
                }),
                (false, Some(entry)) => failures.push(format!(
                    "{} ({}): listed in DIVERGENCES ({}) but schema ({:?}) and model ({:?}) agree now: remove the entry",
                    v.id, part.name, entry.2, part.schema, part.model
                )),
            }
        }
    }
    for (pattern, part, _) in DIVERGENCES {
        if !used.contains(pattern) {
            failures.push(format!(
                "DIVERGENCES entry `{pattern}` ({part}) matches no diverging frame: stale"
            ));
        }
    }
    assert!(checked > 0, "no MCP vector was checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} MCP frames disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_schemas_folder_that_is_not_there_is_an_error() {
    let missing = std::env::temp_dir().join("wirecheck-no-such-schemas-folder");
    let err = schemas_root(Some(missing.clone().into_os_string())).unwrap_err();
    assert!(
        err.contains("WIRECHECK_MCP_SCHEMAS names no folder"),
        "{err}"
    );
    let here = std::env::temp_dir();
    assert_eq!(schemas_root(Some(here.clone().into_os_string())), Ok(here));
}
