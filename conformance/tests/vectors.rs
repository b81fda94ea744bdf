//! The golden vector runner: one trial per vector under `conformance/vectors/`
//! (walked by the one loader, never listed by hand), plus the traceability table.
//!
//! Each vector is checked against the codec (`check_roundtrip`: it lifts and
//! round-trips losslessly, or is refused with the rule and pointer the vector
//! names) and the rule model (`validate` reports exactly the mandatory rule ids
//! the vector expects, and its advisories; in an exchange, the reply's own
//! violations and `validate_reply`'s). insta snapshots record the lifted IR and
//! every violation. Update them on purpose: `INSTA_UPDATE=always cargo test -p
//! wirecheck --test vectors`; regenerate the traceability table with `BLESS=1`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use harness::codes::{self, CodeRange};
use harness::fuzzing::{check_roundtrip, Outcome};
use harness::ir::describe;
use harness::rules::{self, Check, Violation};
use harness::{lift, Direction, Frame, Message, Profile, Revision};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{json, Value};
use wirecheck::vectors::{self, Answer, Codec, Reply, Vector, Verdict};

fn main() {
    // insta writes `.snap.new` files beside the snapshots unless told not to;
    // tests never write into the tree unless asked (`INSTA_UPDATE=always`).
    if std::env::var_os("INSTA_UPDATE").is_none() {
        std::env::set_var("INSTA_UPDATE", "no");
    }
    let args = Arguments::from_args();
    let root = vectors::default_root();
    let (vectors, errors) = vectors::load_all(&root);
    let mut trials: Vec<Trial> = errors
        .into_iter()
        .map(|e| {
            let name = format!("load::{}", e.path.display());
            Trial::test(name, move || Err(e.to_string().into()))
        })
        .collect();
    let table = traceability(&vectors);
    trials.push(Trial::test("traceability::table-is-fresh", {
        let table = table.clone();
        move || check_table(&table)
    }));
    trials.push(Trial::test("traceability::catalogue-is-fresh", || {
        bless_or_compare(
            &vectors::default_root().join("catalogue.json"),
            &catalogue(),
        )
    }));
    trials.push(Trial::test("traceability::readme-counts", {
        let summary = summary(&vectors);
        move || check_readme(&summary)
    }));
    trials.push(Trial::test(
        "traceability::every-mcp-revision-has-vectors",
        {
            let profiles: BTreeSet<Revision> = vectors.iter().map(|v| v.profile.revision).collect();
            move || {
                let missing: Vec<_> = Revision::ALL
                    .iter()
                    .filter(|r| !profiles.contains(r))
                    .collect();
                if missing.is_empty() {
                    Ok(())
                } else {
                    Err(format!("no vector for {missing:?}").into())
                }
            }
        },
    ));
    trials.push(Trial::test("known-failures::each-entry-names-vectors", {
        let ids: Vec<String> = vectors.iter().map(|v| v.id.clone()).collect();
        move || {
            let unused: Vec<&str> = KNOWN_FAILURES
                .iter()
                .map(|(p, _)| *p)
                .filter(|p| !ids.iter().any(|id| matches_pattern(p, id)))
                .collect();
            if unused.is_empty() {
                Ok(())
            } else {
                Err(format!("KNOWN_FAILURES entries match no vector: {unused:?}").into())
            }
        }
    }));
    for v in vectors {
        let known = KNOWN_FAILURES
            .iter()
            .find(|(pattern, _)| matches_pattern(pattern, &v.id))
            .copied();
        trials.push(Trial::test(v.id.clone(), move || {
            match (run_caught(&v), known) {
                (Ok(()), None) => Ok(()),
                (Err(e), None) => Err(e.into()),
                (Err(_), Some(_)) => Ok(()),
                (Ok(()), Some((_, reason))) => Err(format!(
                    "listed in KNOWN_FAILURES ({reason}) but passes now: remove the entry"
                )
                .into()),
            }
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}

/// Vectors whose expectation the rule model does not meet yet, each with the
/// reason. An entry that starts passing fails the run as stale.
/// A `*` stands for one path segment (a revision).
const KNOWN_FAILURES: &[(&str, &str)] = &[
    (
        "mcp/*/ping/ping-answered-with-error",
        "rule model: validate_reply does not report mcp.ping.respond when a ping is answered with an error",
    ),
    (
        "mcp/*/prompts/get-arguments-not-strings",
        "rule model: mcp.schema.request-params checks required members and their types, not the values inside `arguments` (strings in every schema)",
    ),
    (
        "mcp/*/resources/list-result-resource-without-uri",
        "rule model: mcp.schema.result checks a result's own required members, not those of the items in `resources`",
    ),
    (
        "mcp/2024-11-05/tools/list-result-tool-without-input-schema",
        "rule model: mcp.schema.result checks a result's own required members, not those of the items in `tools` (from 2025-11-25 mcp.tools.input-schema-not-null catches it)",
    ),
    (
        "mcp/2025-03-26/tools/list-result-tool-without-input-schema",
        "rule model: mcp.schema.result checks a result's own required members, not those of the items in `tools` (from 2025-11-25 mcp.tools.input-schema-not-null catches it)",
    ),
    (
        "mcp/2025-06-18/tools/list-result-tool-without-input-schema",
        "rule model: mcp.schema.result checks a result's own required members, not those of the items in `tools` (from 2025-11-25 mcp.tools.input-schema-not-null catches it)",
    ),
];

/// Whether `id` matches `pattern`, where `*` is one whole path segment.
fn matches_pattern(pattern: &str, id: &str) -> bool {
    let (p, i): (Vec<&str>, Vec<&str>) = (pattern.split('/').collect(), id.split('/').collect());
    p.len() == i.len() && p.iter().zip(&i).all(|(p, i)| *p == "*" || p == i)
}

fn run_caught(v: &Vector) -> Result<(), String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(v))).unwrap_or_else(|p| {
        let msg = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "panic".into());
        Err(msg)
    })
}

fn peer(profile: Profile) -> Profile {
    Profile {
        revision: profile.revision,
        direction: match profile.direction {
            Direction::ClientToServer => Direction::ServerToClient,
            Direction::ServerToClient => Direction::ClientToServer,
        },
    }
}

fn mandatory(vs: &[Violation]) -> BTreeSet<String> {
    vs.iter()
        .filter(|v| v.level.is_mandatory())
        .map(|v| v.rule.as_str().to_owned())
        .collect()
}

fn advisory_ids(vs: &[Violation]) -> BTreeSet<&'static str> {
    vs.iter()
        .filter(|v| !v.level.is_mandatory())
        .map(|v| v.rule.as_str())
        .collect()
}

fn violation_json(v: &Violation) -> Value {
    json!({
        "rule": v.rule,
        "level": v.level.name(),
        "spec": v.spec,
        "pointer": v.pointer,
        "message": v.message,
    })
}

/// What the codec made of some bytes, for the snapshot.
fn lifted_json(bytes: &[u8]) -> Value {
    match lift(bytes) {
        Ok(frame) => json!({ "lifted": describe(&frame) }),
        Err(r) => json!({ "refused": {
            "rule": r.rule().id(), "code": r.code(), "pointer": r.pointer(),
            "line": r.line(), "column": r.column(), "message": r.message(),
        }}),
    }
}

fn run(v: &Vector) -> Result<(), String> {
    let mut problems = Vec::new();
    let revision = v.profile.revision;

    // The codec: the one lossless property, and the refusal the vector names.
    let outcome = check_roundtrip(&v.frame).map_err(|f| format!("codec broke a promise: {f}"))?;
    match (&v.codec, &outcome) {
        (Codec::Lifts, Outcome::Lifted(_)) => {}
        (Codec::Lifts, Outcome::Refused(r)) => {
            problems.push(format!("expected to lift, refused: {r}"))
        }
        (Codec::Refuses { .. }, Outcome::Lifted(_)) => {
            problems.push("expected a refusal, but the frame lifts".into());
        }
        (Codec::Refuses { rule, pointer }, Outcome::Refused(r)) => {
            if r.rule().id() != rule || r.pointer() != pointer {
                problems.push(format!(
                    "expected refusal {rule} at `{pointer}`, got {} at `{}`",
                    r.rule().id(),
                    r.pointer()
                ));
            }
        }
    }

    // The rules the vector names: known to the model, applicable to the
    // profile, with the model's level and reference.
    for r in &v.rules {
        match rules::rule(&r.id) {
            None => problems.push(format!("rule `{}` is not in the rule model", r.id)),
            Some(info) => {
                if !info.applies_to(revision) {
                    problems.push(format!("rule `{}` does not apply to {revision}", r.id));
                }
                if info.level.name() != r.level || info.cite(revision) != r.spec {
                    problems.push(format!(
                        "rule `{}` is {} \"{}\" in the model, {} \"{}\" in the vector",
                        r.id,
                        info.level,
                        info.cite(revision),
                        r.level,
                        r.spec
                    ));
                }
            }
        }
    }

    // The rule model on the frame.
    let found = rules::validate(&v.frame, v.profile);
    let expected: BTreeSet<String> = v.violations.iter().cloned().collect();
    let got = mandatory(&found);
    if got != expected {
        problems.push(format!(
            "mandatory violations: expected {expected:?}, validate reported {got:?}"
        ));
    }
    let advisories = advisory_ids(&found);
    for a in &v.advisories {
        if !advisories.contains(a.as_str()) {
            problems.push(format!("advisory `{a}` not reported (got {advisories:?})"));
        }
    }

    // Every code an answer names exists under the revision: a code the spec
    // defines for it, or one of the ranges left to implementations.
    if let Some(answer) = &v.answer {
        for code in answer_codes(answer) {
            let known = codes::lookup(code, revision).is_some()
                || matches!(
                    codes::range_of(code, revision),
                    CodeRange::ServerDefined | CodeRange::Application
                );
            if !known {
                problems.push(format!("answer code {code} is not a {revision} code"));
            }
        }
    }

    let lifted = lift(&v.frame).ok();
    if let (Some(frame), Some(answer)) = (&lifted, &v.answer) {
        // Only a clean frame is answered per element; a broken one gets an error.
        if v.verdict == Verdict::Accept && v.violations.is_empty() {
            if let Err(e) = answer_fits(frame, answer) {
                problems.push(e);
            }
        }
    }

    // The exchange: the reply's own violations (sent by the peer) and the
    // exchange's.
    let mut snapshot = json!({
        "frame": v.frame_text(),
        "codec": lifted_json(&v.frame),
        "violations": found.iter().map(violation_json).collect::<Vec<_>>(),
    });
    if let Some(exchange) = &v.exchange {
        let request = lifted.as_ref().ok_or("an exchange's request must lift")?;
        let mut reply_advisories: BTreeSet<&str> = BTreeSet::new();
        let (reply_got, reply_snapshot) = match &exchange.reply {
            Reply::Nothing => {
                let vs = rules::validate_reply(request, None, v.profile);
                reply_advisories.extend(advisory_ids(&vs));
                (
                    mandatory(&vs),
                    json!({ "reply": "nothing", "exchange": vs.iter().map(violation_json).collect::<Vec<_>>() }),
                )
            }
            Reply::Frame(text) => {
                // The reply keeps every member through the codec too: error `data`,
                // unknown members and `_meta` are what SDKs dropped.
                if let Err(f) = check_roundtrip(text.as_bytes()) {
                    problems.push(format!("codec broke a promise on the reply: {f}"));
                }
                let own = rules::validate(text.as_bytes(), peer(v.profile));
                let mut got = mandatory(&own);
                reply_advisories.extend(advisory_ids(&own));
                let mut ex = Vec::new();
                if let Ok(reply) = lift(text.as_bytes()) {
                    ex = rules::validate_reply(request, Some(&reply), v.profile);
                    got.extend(mandatory(&ex));
                    reply_advisories.extend(advisory_ids(&ex));
                }
                (
                    got,
                    json!({
                        "reply": text,
                        "codec": lifted_json(text.as_bytes()),
                        "violations": own.iter().map(violation_json).collect::<Vec<_>>(),
                        "exchange": ex.iter().map(violation_json).collect::<Vec<_>>(),
                    }),
                )
            }
        };
        let expected: BTreeSet<String> = exchange.violations.iter().cloned().collect();
        if reply_got != expected {
            problems.push(format!(
                "reply violations: expected {expected:?}, reported {reply_got:?}"
            ));
        }
        for a in &exchange.advisories {
            if !reply_advisories.contains(a.as_str()) {
                problems.push(format!(
                    "reply advisory `{a}` not reported (got {reply_advisories:?})"
                ));
            }
        }
        snapshot["exchange"] = reply_snapshot;
    }

    let name = v.id.replace('/', "__");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots/vectors");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_description(v.description.clone());
    settings.set_omit_expression(true);
    let snap = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        settings.bind(|| insta::assert_json_snapshot!(name.clone(), snapshot));
    }));
    if snap.is_err() {
        problems.push(format!(
            "snapshot `{name}` differs (INSTA_UPDATE=always to accept on purpose)"
        ));
    }

    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}: {}\n  - {}",
            v.id,
            v.path.display(),
            problems.join("\n  - ")
        ))
    }
}

fn answer_codes(answer: &Answer) -> Vec<i64> {
    match answer {
        Answer::Error { codes, .. } => codes.clone(),
        Answer::Batch(items) => items.iter().flat_map(answer_codes).collect(),
        Answer::Nothing | Answer::Result { .. } => Vec::new(),
    }
}

/// A `y_` vector's answer must suit its frame: nothing for notifications, a
/// response for each request, carrying the request's id when the answer pins one.
fn answer_fits(frame: &Frame<'_>, answer: &Answer) -> Result<(), String> {
    fn one(m: &Message<'_>, answer: &Answer) -> Result<(), String> {
        let pinned = match answer {
            Answer::Error { id, .. } | Answer::Result { id, .. } => id.as_deref(),
            _ => None,
        };
        match (m, answer) {
            (Message::Notification(_), Answer::Nothing) => Ok(()),
            (Message::Notification(_), a) => Err(format!("a notification is answered with {a:?}")),
            (Message::Request(_), Answer::Nothing | Answer::Batch(_)) => {
                Err("a request must be answered with one response".into())
            }
            (Message::Request(r), _) => match pinned {
                Some(id) if id != r.id.raw() => Err(format!(
                    "the answer carries id {id}, the request {}",
                    r.id.raw()
                )),
                _ => Ok(()),
            },
            _ => Err("only requests and notifications are answered".into()),
        }
    }
    match frame {
        Frame::Single(m) => one(m, answer),
        Frame::Batch(ms) => {
            let requests: Vec<_> = ms
                .iter()
                .filter(|m| matches!(m, Message::Request(_)))
                .collect();
            match answer {
                Answer::Nothing if requests.is_empty() => Ok(()),
                Answer::Batch(items) if items.len() == requests.len() => {
                    // Any order (JSON-RPC 2.0 §6); pair by pinned id.
                    for r in requests {
                        if !items.iter().any(|a| one(r, a).is_ok()) {
                            return Err(format!(
                                "no answer in the batch fits {}",
                                describe(&Frame::Single((*r).clone()))
                            ));
                        }
                    }
                    Ok(())
                }
                other => Err(format!(
                    "a batch with {} request(s) is answered with {other:?}",
                    requests.len()
                )),
            }
        }
    }
}

// ---------------------------------------------------------------- traceability

fn repo_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

fn check_name(check: Check) -> &'static str {
    match check {
        Check::Codec => "codec",
        Check::Frame => "frame",
        Check::Reply => "reply",
        Check::Session(_) => "session",
    }
}

fn revisions_text(info: &rules::RuleInfo) -> String {
    let names: Vec<&str> = Revision::ALL
        .iter()
        .filter(|r| info.applies_to(**r))
        .map(|r| r.name())
        .collect();
    if names.len() == Revision::ALL.len() {
        return "all".into();
    }
    let mcp: Vec<&str> = Revision::MCP.iter().map(|r| r.name()).collect();
    if names == mcp {
        return "MCP".into();
    }
    names.join(", ")
}

/// Which vectors of which profile name each rule. A codec rule is profile-free:
/// the codec is the same under every revision, so a vector of any profile covers it.
fn coverage(vectors: &[Vector]) -> BTreeMap<(&str, Revision), Vec<&str>> {
    let mut map: BTreeMap<(&str, Revision), Vec<&str>> = BTreeMap::new();
    for v in vectors {
        for id in v.rule_ids() {
            let codec = rules::rule(id).is_some_and(|r| r.check == Check::Codec);
            for r in Revision::ALL {
                if r == v.profile.revision || codec {
                    map.entry((id, r)).or_default().push(&v.id);
                }
            }
        }
    }
    map
}

/// The counts the README shows, one source for both.
fn summary(vectors: &[Vector]) -> String {
    let mut out = String::new();
    out.push_str("| profile | vectors | y | n | i | exchanges | rules covered / known |\n|---|---|---|---|---|---|---|\n");
    let cov = coverage(vectors);
    let (mut ty, mut tn, mut ti, mut tx) = (0, 0, 0, 0);
    for r in Revision::ALL {
        let of: Vec<&Vector> = vectors.iter().filter(|v| v.profile.revision == r).collect();
        let count = |verdict| of.iter().filter(|v| v.verdict == verdict).count();
        let (y, n, i) = (
            count(Verdict::Accept),
            count(Verdict::Refuse),
            count(Verdict::ImplementationDefined),
        );
        let x = of.iter().filter(|v| v.exchange.is_some()).count();
        let known: Vec<_> = rules::rules().iter().filter(|i| i.applies_to(r)).collect();
        let covered = known
            .iter()
            .filter(|i| cov.contains_key(&(i.id.as_str(), r)))
            .count();
        let checkable: Vec<_> = known.iter().filter(|i| i.check.is_checked()).collect();
        let covered_checkable = checkable
            .iter()
            .filter(|i| cov.contains_key(&(i.id.as_str(), r)))
            .count();
        let _ = writeln!(
            out,
            "| {} | {} | {y} | {n} | {i} | {x} | {covered} / {} ({covered_checkable} / {} checkable) |",
            r.name(),
            of.len(),
            known.len(),
            checkable.len(),
        );
        ty += y;
        tn += n;
        ti += i;
        tx += x;
    }
    let _ = writeln!(
        out,
        "| total | {} | {ty} | {tn} | {ti} | {tx} | {} rules in the model |",
        vectors.len(),
        rules::rules().len()
    );
    out
}

fn traceability(vectors: &[Vector]) -> String {
    let cov = coverage(vectors);
    let mut out = String::new();
    out.push_str("# Traceability: rules and golden vectors\n\n");
    out.push_str("Generated from the rule model (`harness::rules::rules()`) and the vectors under\n`conformance/vectors/`; do not edit. Regenerate with\n`BLESS=1 cargo test -p wirecheck --test vectors`.\n\n");
    out.push_str("A rule is covered under a profile when a vector of that profile names it in\n`rules` (a codec rule by a vector of any profile: the codec is the same under\nevery revision). *Check* says how the model checks it: `codec` (the frame does\nnot lift), `frame`, `reply` (an exchange), or `session` (needs earlier frames\nor the peer's internals: named by vectors, never reported by `validate`).\n\n");
    out.push_str("## Summary\n\n");
    out.push_str(&summary(vectors));
    out.push_str("\n## Rules\n\n| Rule | Level | Spec | Revisions | Check | Vectors |\n|---|---|---|---|---|---|\n");
    for info in rules::rules() {
        let mut ids: BTreeSet<&str> = BTreeSet::new();
        for r in Revision::ALL {
            if let Some(vs) = cov.get(&(info.id.as_str(), r)) {
                if info.check != Check::Codec || r == Revision::JsonRpc2 {
                    ids.extend(vs.iter().copied());
                }
            }
        }
        let list = if ids.is_empty() {
            "**gap**".to_owned()
        } else {
            ids.iter()
                .map(|i| format!("`{i}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {} |",
            info.id,
            info.level.name(),
            info.spec.replace('|', "\\|"),
            revisions_text(info),
            check_name(info.check),
            list
        );
    }
    out.push_str("\n## Gaps per revision\n\nRules that apply to a revision and that no vector of it names.\n\n");
    for r in Revision::ALL {
        let gaps: Vec<String> = rules::rules()
            .iter()
            .filter(|i| i.applies_to(r) && !cov.contains_key(&(i.id.as_str(), r)))
            .map(|i| match i.check {
                Check::Session(why) => format!("- `{}` (session: {why})", i.id),
                c => format!("- `{}` ({})", i.id, check_name(c)),
            })
            .collect();
        let _ = writeln!(out, "### {}\n", r.name());
        if gaps.is_empty() {
            out.push_str("None.\n\n");
        } else {
            out.push_str(&gaps.join("\n"));
            out.push_str("\n\n");
        }
    }
    out
}

/// The rule model as vectors cite it: each rule's level and, per revision it
/// applies to, its reference. `generate.py` reads it, so a vector names a rule
/// exactly as the model does.
fn catalogue() -> String {
    let rules: Vec<Value> = rules::rules()
        .iter()
        .map(|info| {
            let cites: serde_json::Map<String, Value> = Revision::ALL
                .iter()
                .filter(|r| info.applies_to(**r))
                .map(|r| (r.name().to_owned(), json!(info.cite(*r))))
                .collect();
            json!({ "id": info.id, "level": info.level.name(), "check": check_name(info.check), "cites": cites })
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&json!({
        "generated": "BLESS=1 cargo test -p wirecheck --test vectors; do not edit",
        "rules": rules,
    }))
    .unwrap_or_default();
    text.push('\n');
    text
}

fn check_table(table: &str) -> Result<(), Failed> {
    bless_or_compare(&repo_file("TRACEABILITY.md"), table)
}

/// Under `BLESS=1` writes `path`; otherwise fails when it differs from `fresh`.
fn bless_or_compare(path: &Path, fresh: &str) -> Result<(), Failed> {
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(path, fresh).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(());
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    if committed == fresh {
        Ok(())
    } else {
        Err(format!(
            "{} is stale: regenerate with `BLESS=1 cargo test -p wirecheck --test vectors`",
            path.display()
        )
        .into())
    }
}

fn check_readme(summary: &str) -> Result<(), Failed> {
    let path = repo_file("../README.md");
    let readme = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    if readme.contains(summary) {
        Ok(())
    } else {
        Err(format!(
            "README.md's \"Golden vectors\" counts are stale; paste this table (also in conformance/TRACEABILITY.md):\n\n{summary}"
        )
        .into())
    }
}
