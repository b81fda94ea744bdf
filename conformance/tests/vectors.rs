//! The golden vector runner: one trial per vector under `conformance/vectors/`
//! (walked by the one loader, never listed by hand), plus the traceability table.
//!
//! The checks live in the library, where the live runner uses the same judge:
//! `wirecheck::judge::audit` holds each vector to the codec (`check_roundtrip`:
//! it lifts and round-trips losslessly, or is refused with the rule and pointer
//! the vector names) and the rule model (`validate` reports exactly the
//! mandatory rule ids the vector expects, and its advisories; in an exchange,
//! `wirecheck::judge::reply` on the recorded reply). This file is the glue:
//! trials, the known-failures baseline (`conformance/baselines/vectors.json`),
//! and insta snapshots of the lifted IR and every violation. Update them on
//! purpose: `INSTA_UPDATE=always cargo test -p wirecheck --test vectors`;
//! regenerate the traceability table with `BLESS=1`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use harness::ir::describe;
use harness::rules::{self, CheckedBy, Level, Violation};
use harness::{lift, Outcome, Revision};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{json, Value};
use wirecheck::baseline::Baseline;
use wirecheck::judge::{self, Audit};
use wirecheck::vectors::{self, Basis, Reply, Vector, Verdict};

#[path = "../spec/trace.rs"]
#[expect(
    dead_code,
    reason = "this file reads the counts; tests/spec_inventory.rs runs the checks"
)]
mod trace;

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
    // A baseline that does not load fails its own trial and, empty, lists nothing:
    // every vector it would have excused then fails too, which is loud enough.
    let known = match Baseline::load(&wirecheck::baseline::default_root().join("vectors.json")) {
        Ok(b) => b,
        Err(e) => {
            let message = e.to_string();
            trials.push(Trial::test("known-failures::loads", move || {
                Err(message.into())
            }));
            Baseline {
                path: e.path,
                entries: Vec::new(),
            }
        }
    };
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
    trials.push(Trial::test("traceability::book-counts", {
        let summary = summary(&vectors);
        let sentences = sentence_summary(&vectors);
        move || check_book("vectors.md", &summary).and_then(|()| check_book("rules.md", &sentences))
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
        let unused: Vec<String> = known
            .unmatched(vectors.iter().map(|v| v.id.as_str()))
            .iter()
            .map(|e| e.id.clone())
            .collect();
        let path = known.path.clone();
        move || {
            if unused.is_empty() {
                Ok(())
            } else {
                Err(format!("{}: entries match no vector: {unused:?}", path.display()).into())
            }
        }
    }));
    for v in vectors {
        let known = known.clone();
        trials.push(Trial::test(v.id.clone(), move || {
            let result = run_caught(&v);
            let outcome = if result.is_ok() {
                Outcome::Pass
            } else {
                Outcome::Fail
            };
            match (known.apply(&v.id, None, outcome), result) {
                (Outcome::Pass | Outcome::KnownFailure { .. }, _) => Ok(()),
                (Outcome::Stale { reason }, _) => Err(format!(
                    "listed in {} ({reason}) but passes now: remove the entry",
                    known.path.display()
                )
                .into()),
                (_, result) => result.map_err(Into::into),
            }
        }));
    }
    libtest_mimic::run(&args, trials).exit();
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

/// An `i_` vector never fails a live peer for what it answers (an error, a
/// result), nor for a silence or a hang-up unless every reading of its
/// ambiguity owes a reply (silence is none of its accepted answers and the
/// question is not whether a reply is owed: JSON-RPC 2.0 §5); there the
/// failure is not softened to a warning.
fn never_fails(v: &Vector) -> Vec<String> {
    if v.profile.direction != harness::Direction::ClientToServer {
        return Vec::new();
    }
    let id = lift(&v.frame)
        .ok()
        .and_then(|f| {
            f.messages()
                .iter()
                .find_map(|m| m.id().map(|i| i.raw().to_owned()))
        })
        .unwrap_or_else(|| "null".into());
    let observations = [
        judge::Observed::Silence(judge::Silence::TimedOut),
        judge::Observed::Silence(judge::Silence::PeerClosed),
        judge::Observed::Frames(vec![format!(
            r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32603,"message":"x"}}}}"#
        )
        .into_bytes()]),
        judge::Observed::Frames(vec![format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#
        )
        .into_bytes()]),
    ];
    let reply_in_question = v.ambiguity.as_ref().is_some_and(|a| a.reply_in_question);
    observations
        .iter()
        .filter_map(|o| {
            let j = judge::reply(v, o);
            let owed = matches!(o, judge::Observed::Silence(_))
                && !reply_in_question
                && !j.mismatches.is_empty();
            // Owed: the silence's failure, if any, is not softened.
            let softened = j.notes.iter().any(|n| n.contains("never fails a live peer"));
            let wrong = if owed {
                softened
            } else {
                j.outcome == Outcome::Fail
            };
            wrong.then(|| {
                format!(
                    "an `i_` vector judged {:?} on {o:?} (a reply owed under every reading: {owed}): {:?}",
                    j.outcome, j.mismatches
                )
            })
        })
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

fn violations_json(vs: &[Violation]) -> Vec<Value> {
    vs.iter().map(violation_json).collect()
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

/// The vector's snapshot: its frame, what the codec made of it, the frame's
/// violations and, in an exchange, the recorded reply's and the exchange's.
fn snapshot(v: &Vector, audit: &Audit) -> Value {
    let mut snapshot = json!({
        "frame": v.frame_text(),
        "codec": lifted_json(&v.frame),
        "violations": violations_json(&audit.found),
    });
    if let (Some(exchange), Some(j)) = (&v.exchange, &audit.reply) {
        snapshot["exchange"] = match &exchange.reply {
            Reply::Nothing => {
                json!({ "reply": "nothing", "exchange": violations_json(&j.exchange) })
            }
            Reply::Frame(text) => json!({
                "reply": text,
                "codec": lifted_json(text.as_bytes()),
                "violations": j.reply().map(|f| violations_json(&f.violations)).unwrap_or_default(),
                "exchange": violations_json(&j.exchange),
            }),
        };
    }
    snapshot
}

fn run(v: &Vector) -> Result<(), String> {
    let audit = judge::audit(v);
    let mut problems = audit.problems.clone();
    // The live runner reads the judge's outcome, not the violation sets: it
    // must fail exactly the recorded replies of `n_` vectors (a MUST broken by
    // the rule model or a departure from a MUST-mandated answer), and never
    // those of `y_` and `i_` ones.
    if let (Some(exchange), Some(j)) = (&v.exchange, &audit.reply) {
        let should_fail = v.verdict == Verdict::Refuse;
        if (j.outcome == Outcome::Fail) != should_fail {
            problems.push(format!(
                "the judge's outcome on the reply is {} (departures from the answer: {:?}), the vector expects {:?}",
                j.outcome, j.mismatches, exchange.violations
            ));
        }
    }
    if v.verdict == Verdict::ImplementationDefined {
        problems.extend(never_fails(v));
    }

    let name = v.id.replace('/', "__");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots/vectors");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_description(v.description.clone());
    settings.set_omit_expression(true);
    let snapshot = snapshot(v, &audit);
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

// ---------------------------------------------------------------- traceability

fn repo_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

fn check_name(check: CheckedBy) -> &'static str {
    match check {
        CheckedBy::Codec => "codec",
        CheckedBy::Frame => "frame",
        CheckedBy::Reply => "reply",
        CheckedBy::Session => "session",
        CheckedBy::Transport => "transport",
        CheckedBy::Runner => "runner",
        CheckedBy::Unchecked(_) => "unchecked",
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
            let codec = rules::rule(id).is_some_and(|r| r.check == CheckedBy::Codec);
            for r in Revision::ALL {
                if r == v.profile.revision || codec {
                    map.entry((id, r)).or_default().push(&v.id);
                }
            }
        }
    }
    map
}

/// The counts the book's golden-vectors chapter (`book/vectors.md`) shows, one
/// source for both.
fn summary(vectors: &[Vector]) -> String {
    let mut out = String::new();
    out.push_str("| profile | vectors | y | n | i | exchanges | answers: MUST / SHOULD / convention | rules covered / known |\n|---|---|---|---|---|---|---|---|\n");
    let cov = coverage(vectors);
    let (mut ty, mut tn, mut ti, mut tx) = (0, 0, 0, 0);
    let mut tb = [0; 3];
    for r in Revision::ALL {
        let of: Vec<&Vector> = vectors.iter().filter(|v| v.profile.revision == r).collect();
        let count = |verdict| of.iter().filter(|v| v.verdict == verdict).count();
        let (y, n, i) = (
            count(Verdict::Accept),
            count(Verdict::Refuse),
            count(Verdict::ImplementationDefined),
        );
        let x = of.iter().filter(|v| v.exchange.is_some()).count();
        let b = bases(&of);
        let known: Vec<_> = rules::rules().iter().filter(|i| i.applies_to(r)).collect();
        let covered = known
            .iter()
            .filter(|i| cov.contains_key(&(i.id.as_str(), r)))
            .count();
        // Frame vectors cover what one frame or one exchange shows; the
        // session rules have the session vectors (conformance/sessions/).
        let checkable: Vec<_> = known.iter().filter(|i| i.check.is_per_frame()).collect();
        let covered_checkable = checkable
            .iter()
            .filter(|i| cov.contains_key(&(i.id.as_str(), r)))
            .count();
        let _ = writeln!(
            out,
            "| {} | {} | {y} | {n} | {i} | {x} | {} / {} / {} | {covered} / {} ({covered_checkable} / {} checkable) |",
            r.name(),
            of.len(),
            b[0],
            b[1],
            b[2],
            known.len(),
            checkable.len(),
        );
        ty += y;
        tn += n;
        ti += i;
        tx += x;
        for (t, n) in tb.iter_mut().zip(b) {
            *t += n;
        }
    }
    let _ = writeln!(
        out,
        "| total | {} | {ty} | {tn} | {ti} | {tx} | {} / {} / {} | {} rules in the model |",
        vectors.len(),
        tb[0],
        tb[1],
        tb[2],
        rules::rules().len()
    );
    out
}

/// How many answers are mandated at MUST (or MUST NOT), at SHOULD (or SHOULD
/// NOT), or are conventions (a MAY counts as one: it mandates nothing).
fn bases(vectors: &[&Vector]) -> [usize; 3] {
    let mut counts = [0; 3];
    for v in vectors {
        let slot = match &v.basis {
            None => continue,
            Some(Basis::MandatedBy { level, .. }) if level.is_mandatory() => 0,
            Some(Basis::MandatedBy {
                level: Level::Should | Level::ShouldNot,
                ..
            }) => 1,
            Some(_) => 2,
        };
        counts[slot] += 1;
    }
    counts
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
                if info.check != CheckedBy::Codec || r == Revision::JsonRpc2 {
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
                CheckedBy::Session => format!("- `{}` (session: covered by the session vectors)", i.id),
                CheckedBy::Transport => {
                    format!("- `{}` (transport: judged by `wirecheck run --http`)", i.id)
                }
                CheckedBy::Runner => {
                    format!(
                        "- `{}` (runner: judged by wirecheck's own side, `run` across sessions or `serve --judge`)",
                        i.id
                    )
                }
                CheckedBy::Unchecked(why) => format!("- `{}` (unchecked: {why})", i.id),
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
    out.push_str(&sentences_section());
    out
}

/// Per revision, what the mapping (`conformance/spec/mapping.json`) does with
/// each normative sentence of the inventory, and the list of what is left.
fn sentences_section() -> String {
    let mut out = String::from("## Normative sentences\n\n");
    let (inventory, mapping) = match trace::load(&trace::spec_dir()) {
        Ok(pair) => pair,
        Err(e) => return format!("{out}The inventory does not load: {e}\n"),
    };
    out.push_str("Every sentence with MUST, MUST NOT, SHOULD, SHOULD NOT, REQUIRED, SHALL or\nRECOMMENDED in each revision's pages (`conformance/spec/inventory.json`; JSON-RPC 2.0\nfrom the catalogue's quotes of §4 to §6, see `conformance/spec/README.md`), and what\n`conformance/spec/mapping.json` does with it. *Checked* counts a sentence once; the\nkind columns count it under each kind of check its rules use, so they can add up to\nmore. *Not yet checked* says in brackets how many bind the server.\n\n");
    out.push_str(
        "| profile | sentences | checked | codec | frame | reply | session | transport | runner |",
    );
    for d in trace::Disposition::SET_ASIDE {
        let _ = write!(out, " {} |", d.name());
    }
    out.push_str(
        " not yet checked (server) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in Revision::ALL {
        let c = trace::counts(&inventory, &mapping, r);
        let _ = write!(out, "| {} | {} | {} |", r.name(), c.sentences, c.checked);
        for k in trace::KINDS {
            let _ = write!(out, " {} |", c.by_kind.get(k).copied().unwrap_or(0));
        }
        for d in trace::Disposition::SET_ASIDE {
            let _ = write!(out, " {} |", c.set_aside.get(&d).copied().unwrap_or(0));
        }
        let _ = writeln!(out, " {} ({}) |", c.not_yet, c.not_yet_server);
    }
    out.push_str("\n### Not yet checked, by page\n\nEach sentence's id (revision/page#section/hash), keyword and whom it binds: the\nwork left.\n");
    for r in Revision::ALL {
        let mut pages: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for s in inventory
            .sentences
            .iter()
            .filter(|s| s.revision == r.name())
        {
            let entry = mapping.sentences.get(&s.id);
            if trace::status(entry) == trace::Status::NotYetChecked {
                let binds = format!("{:?}", trace::binds(s, entry)).to_lowercase();
                pages
                    .entry(&s.page)
                    .or_default()
                    .push(format!("- `{}` {} ({binds})", s.id, s.keyword));
            }
        }
        let _ = writeln!(out, "\n#### {}\n", r.name());
        if pages.is_empty() {
            out.push_str("None.\n");
        }
        for (page, lines) in pages {
            let _ = writeln!(out, "{page} ({}):\n\n{}\n", lines.len(), lines.join("\n"));
        }
    }
    out
}

/// The rule-model chapter's (`book/rules.md`) table of sentences, rules and
/// vectors per revision.
fn sentence_summary(vectors: &[Vector]) -> String {
    let mut out = String::from("| profile | normative sentences | checked | set aside | not yet checked | rules known | vectors |\n|---|---|---|---|---|---|---|\n");
    let Ok((inventory, mapping)) = trace::load(&trace::spec_dir()) else {
        return out;
    };
    for r in Revision::ALL {
        let c = trace::counts(&inventory, &mapping, r);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.name(),
            c.sentences,
            c.checked,
            c.set_aside_total(),
            c.not_yet,
            rules::rules().iter().filter(|i| i.applies_to(r)).count(),
            vectors.iter().filter(|v| v.profile.revision == r).count()
        );
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

/// Whether the book's `chapter` (`conformance/book/<chapter>`) holds `summary`.
fn check_book(chapter: &str, summary: &str) -> Result<(), Failed> {
    let path = repo_file("book").join(chapter);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    if text.contains(summary) {
        Ok(())
    } else {
        Err(format!(
            "conformance/book/{chapter}'s counts are stale; paste this table (also in conformance/TRACEABILITY.md):\n\n{summary}"
        )
        .into())
    }
}
