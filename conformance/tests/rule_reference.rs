//! The book's rule reference (`conformance/book/rule-reference.md`) is
//! generated from the one rule catalogue (`harness::rules::rules()`) and
//! checked here like `TRACEABILITY.md`: a rule added, reworded or moved
//! without the page following fails this test, which prints how to write
//! the page again (`BLESS=1`).

use std::fmt::Write as _;

use harness::rules::{rules, CheckedBy, RuleInfo};
use harness::Revision;

const CHAPTER: &str = "rule-reference.md";

/// How a rule is checked, in the words a reader of a finding needs.
fn checked(check: CheckedBy) -> String {
    match check {
        CheckedBy::Codec => "by the codec (a frame breaking it does not parse)".into(),
        CheckedBy::Frame => "on each frame".into(),
        CheckedBy::Reply => "on each request and its reply".into(),
        CheckedBy::Session => "over the whole conversation (the session judge)".into(),
        CheckedBy::Transport => "by the runner's transport probes (HTTP; stdio's exit)".into(),
        CheckedBy::Runner => {
            "by the runner, across sessions or with a probe only it can make".into()
        }
        CheckedBy::Unchecked(why) => format!("not checked: {why}"),
    }
}

/// The revisions a rule applies to, as ranges of the revisions' order.
fn revisions(info: &RuleInfo) -> String {
    let all = Revision::ALL;
    let mut spans: Vec<(Revision, Revision)> = Vec::new();
    for (i, r) in all.iter().enumerate() {
        if !info.revisions.contains(*r) {
            continue;
        }
        match spans.last_mut() {
            Some((_, end)) if i > 0 && *end == all[i - 1] => *end = *r,
            _ => spans.push((*r, *r)),
        }
    }
    spans
        .iter()
        .map(|(a, b)| {
            if a == b {
                a.name().to_owned()
            } else {
                format!("{} to {}", a.name(), b.name())
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The family a rule id belongs to, the page's sections: all but its last
/// dotted part, at most two (`mcp.http` for `mcp.http.origin-403`, `json`
/// for `json.syntax`).
fn family(id: &str) -> String {
    let parts: Vec<&str> = id.split('.').collect();
    parts[..(parts.len() - 1).clamp(1, 2)].join(".")
}

/// Text safe inside a Markdown table cell or a blockquote line.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn page() -> String {
    let mut infos: Vec<&RuleInfo> = rules().iter().collect();
    infos.sort_by_key(|i| (family(i.id.as_str()), i.id.as_str()));
    let mut out = String::from(
        "# Rule reference\n\n\
         Every rule wirecheck judges, one entry per rule id a finding names: how \
         binding it is, the revisions it applies to, where the specification says \
         it and the sentence itself, and how wirecheck checks it. A finding's level \
         is the rule's: a MUST or MUST NOT broken fails, a SHOULD or SHOULD NOT \
         broken warns, a MAY never fails.\n\n\
         Generated from the rule catalogue (`harness/src/rules/catalogue.rs`); do not \
         edit by hand. `cargo test -p wirecheck --test rule_reference` fails when it \
         is stale; `BLESS=1` with the same command writes it again.\n",
    );
    let families: Vec<String> = {
        let mut f: Vec<String> = infos.iter().map(|i| family(i.id.as_str())).collect();
        f.dedup();
        f
    };
    let _ = writeln!(
        out,
        "\n{} rules in {} families.\n",
        infos.len(),
        families.len()
    );
    for fam in &families {
        let members: Vec<&&RuleInfo> = infos
            .iter()
            .filter(|i| family(i.id.as_str()) == *fam)
            .collect();
        let _ = writeln!(out, "## `{fam}`\n");
        for info in members {
            let _ = writeln!(out, "### `{}`\n", info.id.as_str());
            let _ = writeln!(
                out,
                "**{}** · {} · checked {}\n",
                info.level.name(),
                revisions(info),
                checked(info.check)
            );
            let _ = writeln!(out, "Where: {}\n", cell(info.spec));
            let _ = writeln!(out, "> {}\n", cell(info.quote));
        }
    }
    out
}

#[test]
fn the_rule_reference_is_the_catalogue() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("book")
        .join(CHAPTER);
    let want = page();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &want).expect("the chapter is writable");
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "conformance/book/{CHAPTER} is stale: the rule catalogue changed. Write it again with\n  BLESS=1 cargo test -p wirecheck --test rule_reference"
    );
}

/// Each rule the catalogue holds has its own entry, under its own id, with
/// its level and its sentence: what a reader looking up a finding's rule id
/// relies on.
#[test]
fn every_rule_has_an_entry_with_its_level_and_sentence() {
    let text = page();
    for info in rules() {
        let heading = format!("### `{}`\n\n**{}** ·", info.id.as_str(), info.level.name());
        assert!(text.contains(&heading), "{}", info.id.as_str());
        assert!(
            text.contains(&format!("> {}", cell(info.quote))),
            "{}",
            info.id.as_str()
        );
    }
}

#[test]
fn revision_sets_are_written_as_ranges() {
    let origin = rules()
        .iter()
        .find(|i| i.id.as_str() == "mcp.http.origin-403")
        .expect("a rule of 2025-11-25 on");
    assert_eq!(revisions(origin), "2025-11-25 to 2026-07-28");
}
