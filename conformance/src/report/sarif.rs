//! The SARIF 2.1.0 view (`--sarif FILE`), for code-scanning dashboards
//! (OASIS SARIF 2.1.0, §3.13 `sarifLog`, §3.14 `run`, §3.27 `result`).
//!
//! One `run`; `tool.driver.rules` lists every rule a record names, with its
//! spec citation as `fullDescription` and `help` text (no `helpUri`: the
//! citations are revision, page and section, not addresses); one `result` per
//! failing or warning record and rule broken, `error` or `warning`. There is no
//! source file to point at, so `locations` are logical locations (§3.33): the
//! vector id or transcript file, the line, the frame index.
//!
//! serde_json writes the document, so any string stays valid JSON; peer text
//! still goes through [`printable`](super::text::printable), because
//! dashboards render messages, and a control character or a bidirectional
//! override there misleads a reader as much as on a terminal.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::text::{preview, printable_str};
use super::{rule_id, Level, Outcome, Record, Report, Subject};

/// How many characters of a frame a result carries.
const PREVIEW_CHARS: usize = 500;

/// The SARIF version written, and the schema that describes it.
pub const VERSION: &str = "2.1.0";
const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// One rule in `tool.driver.rules`.
struct RuleRow {
    level: Level,
    spec: String,
}

/// One finding: a rule broken by a record.
struct Finding<'a> {
    rule: String,
    level: &'static str,
    message: String,
    pointer: Option<&'a str>,
}

/// The report as a SARIF 2.1.0 log of one run.
#[must_use]
pub fn render(report: &Report) -> Value {
    render_many(&[report])
}

/// Several reports as one SARIF log, a run each (§3.13.4: `runs` may hold
/// several, as when one tool judged several peers).
#[must_use]
pub fn render_many(reports: &[&Report]) -> Value {
    let runs: Vec<Value> = reports.iter().map(|r| run(r)).collect();
    json!({ "$schema": SCHEMA, "version": VERSION, "runs": runs })
}

fn run(report: &Report) -> Value {
    let mut rules: BTreeMap<String, RuleRow> = BTreeMap::new();
    let mut found: Vec<(&Record, Finding<'_>)> = Vec::new();
    for record in &report.records {
        for (rule, level, spec) in named_rules(record) {
            rules.entry(rule).or_insert(RuleRow { level, spec });
        }
        let level = match record.outcome {
            Outcome::Fail | Outcome::Stale { .. } => "error",
            Outcome::Warning => "warning",
            _ => continue,
        };
        for finding in findings(record, level) {
            found.push((record, finding));
        }
    }
    let index: BTreeMap<&str, usize> = rules
        .keys()
        .enumerate()
        .map(|(i, k)| (k.as_str(), i))
        .collect();
    let descriptors: Vec<Value> = rules
        .iter()
        .map(|(id, row)| {
            let spec = printable_str(&row.spec);
            json!({
                "id": printable_str(id),
                "shortDescription": { "text": format!("{} {}", row.level.name(), printable_str(id)) },
                "fullDescription": { "text": format!("{} ({spec})", row.level.name()) },
                "help": { "text": format!("Specified at {spec}, level {}.", row.level.name()) },
                "defaultConfiguration": {
                    "level": if row.level.is_mandatory() { "error" } else { "warning" }
                }
            })
        })
        .collect();
    let results: Vec<Value> = found
        .iter()
        .map(|(record, f)| {
            let mut result = json!({
                "ruleId": printable_str(&f.rule),
                "level": f.level,
                "message": { "text": f.message },
                "locations": [{ "logicalLocations": logical(record) }],
                "properties": {
                    "outcome": record.outcome.name(),
                    "frame": match &record.subject {
                        Subject::Frame(bytes) => preview(bytes, PREVIEW_CHARS),
                        Subject::TooLong { len } => format!("({len} bytes, not read)"),
                    },
                }
            });
            if let Some(i) = index.get(f.rule.as_str()) {
                result["ruleIndex"] = json!(i);
            }
            if let Some(pointer) = f.pointer {
                result["properties"]["pointer"] = json!(printable_str(pointer));
            }
            result
        })
        .collect();
    let mut run = json!({
        "tool": { "driver": {
            "name": "wirecheck",
            "version": env!("CARGO_PKG_VERSION"),
            "rules": descriptors,
        }},
        "results": results,
        "columnKind": "unicodeCodePoints",
    });
    let mut invocation = json!({ "executionSuccessful": report.error.is_none() });
    if let Some(info) = &report.run {
        invocation["arguments"] = json!(info
            .argv
            .iter()
            .map(|a| printable_str(a))
            .collect::<Vec<_>>());
        run["properties"] = json!({
            "peer": printable_str(&info.peer.target),
            "transport": printable_str(&info.peer.transport),
        });
    }
    if let Some(error) = &report.error {
        invocation["toolExecutionNotifications"] =
            json!([{ "level": "error", "message": { "text": printable_str(error) } }]);
    }
    run["invocations"] = json!([invocation]);
    run
}

/// The rules a record names: its check, its violations, its refusal.
fn named_rules(record: &Record) -> Vec<(String, Level, String)> {
    let mut out = Vec::new();
    if let Some(c) = &record.check {
        out.push((c.rule.clone(), c.level, c.spec.clone()));
    }
    for v in record.violations.iter().flatten() {
        out.push((rule_id(v).to_owned(), v.level, v.spec.to_owned()));
    }
    if let Some(r) = &record.refusal {
        // The level the refusal's rule carries (a duplicate member is RFC
        // 8259's SHOULD, a depth limit its MAY), never a MUST by default.
        out.push((
            r.rule.as_str().to_owned(),
            r.rule.info().level,
            r.spec.to_owned(),
        ));
    }
    out
}

fn findings<'a>(record: &'a Record, level: &'static str) -> Vec<Finding<'a>> {
    let reason = record.outcome.reason().map(printable_str);
    let with_reason = |text: String| match &reason {
        Some(why) => format!("{text} ({why})"),
        None => text,
    };
    let mut out = Vec::new();
    for v in record.violations.iter().flatten() {
        out.push(Finding {
            rule: rule_id(v).to_owned(),
            level: if v.level.is_mandatory() {
                level
            } else {
                "warning"
            },
            message: with_reason(format!(
                "{} {} at `{}`: {}",
                v.level.name(),
                printable_str(rule_id(v)),
                printable_str(&v.pointer),
                printable_str(&v.message)
            )),
            pointer: Some(&v.pointer),
        });
    }
    if out.is_empty() {
        if let Some(r) = &record.refusal {
            out.push(Finding {
                rule: r.rule.as_str().to_owned(),
                level,
                message: with_reason(format!(
                    "refused {} {} at `{}`: {}",
                    r.code,
                    r.rule,
                    printable_str(&r.pointer),
                    printable_str(&r.message)
                )),
                pointer: Some(&r.pointer),
            });
        }
    }
    if out.is_empty() {
        // A rule-by-rule record whose check failed without listing a
        // violation (a stale baseline entry): the check's rule is the finding.
        let rule = record
            .check
            .as_ref()
            .map_or_else(|| "wirecheck.unnamed".to_owned(), |c| c.rule.clone());
        out.push(Finding {
            message: with_reason(format!(
                "{} {}",
                record.outcome.name(),
                printable_str(&rule)
            )),
            rule,
            level,
            pointer: None,
        });
    }
    out
}

/// Where a record is, as SARIF logical locations: the vector or file, then
/// the line or frame within it.
fn logical(record: &Record) -> Vec<Value> {
    let p = &record.place;
    let mut out = Vec::new();
    let parent = match (&p.vector, &p.file) {
        (Some(v), _) => Some(printable_str(v)),
        (None, Some(f)) => Some(printable_str(f)),
        (None, None) if p.line.is_some() => Some("standard input".to_owned()),
        (None, None) => None,
    };
    if let Some(name) = &parent {
        out.push(json!({ "name": name, "fullyQualifiedName": name, "kind": "module" }));
    }
    let parent = parent.unwrap_or_default();
    if let Some(frame) = p.frame {
        out.push(json!({
            "name": format!("frame {frame}"),
            "fullyQualifiedName": format!("{parent}#{frame}"),
            "kind": "element",
        }));
    } else if let Some(line) = p.line {
        out.push(json!({
            "name": format!("line {line}"),
            "fullyQualifiedName": format!("{parent}:{line}"),
            "kind": "element",
        }));
    }
    if out.is_empty() {
        out.push(json!({ "name": "run", "kind": "module" }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::named_rules;
    use crate::report::{Place, Record, Refusal, Subject};
    use harness::rules::{Level, RuleId};
    use harness::Outcome;

    /// A refusal's rule is listed at the level the rule carries: a duplicate
    /// member name breaks RFC 8259's SHOULD, never a MUST (issue 27, levels).
    #[test]
    fn a_refusals_rule_keeps_its_own_level() {
        let mut record = Record::new(Place::default(), Subject::Frame(Vec::new()), Outcome::Pass);
        for (rule, level) in [
            (RuleId::DuplicateMember, Level::Should),
            (RuleId::JsonDepthLimit, Level::May),
            (RuleId::JsonSyntax, Level::Must),
        ] {
            record.refusal = Some(Refusal {
                code: -32600,
                rule,
                pointer: String::new(),
                message: String::new(),
                spec: "",
                line: 1,
                column: 1,
            });
            let named = named_rules(&record);
            assert_eq!(named.len(), 1);
            assert_eq!(named[0].1, level, "{rule:?}");
        }
    }
}
