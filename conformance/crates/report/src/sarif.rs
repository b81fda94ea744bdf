//! The SARIF 2.1.0 view (`--sarif FILE`), for code-scanning dashboards
//! (OASIS SARIF 2.1.0, §3.13 `sarifLog`, §3.14 `run`, §3.27 `result`).
//!
//! One `run`; `tool.driver.rules` lists every rule a record names (and
//! `wirecheck.unnamed`, the rule of a finding whose record names none), with
//! its citation and sentence as `fullDescription` and `help` text (a
//! `helpUri` into the rule reference when the build knows where it is
//! published). A rule-by-rule command (`run`, `check`, `proxy`,
//! `run-client`) writes one `result` per defect of the peer
//! ([`super::defects`]), `error` or `warning`, its message quoting the
//! sentence broken; every other failing record (a stale baseline entry; a
//! per-frame command's frames) one per rule broken. Each result's location
//! is logical (§3.33: the vector id or transcript file, the line, the frame
//! index) and physical (§3.29), because GitHub code scanning shows only a
//! result with `physicalLocation.artifactLocation.uri`: a file of the
//! user's ([`defect_location`], [`physical`]), never wirecheck's own. Each
//! result carries `partialFingerprints` (§3.27.17), so the same defect on
//! two runs is the same alert.
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
/// The published OASIS schema (errata 01), the one `tests/sarif_schema.rs`
/// validates wirecheck's logs against.
const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// One rule in `tool.driver.rules`.
struct RuleRow {
    level: Level,
    spec: String,
    /// Its own description and help, for a rule no spec section defines.
    about: Option<&'static str>,
}

/// The rule of a finding whose record names none: above all a baseline entry
/// that no check of the run matched (stale), its record made from the entry alone.
const UNNAMED: &str = "wirecheck.unnamed";
const UNNAMED_ABOUT: &str = "A finding whose record names no rule, such as an entry of the \
    --expected-failures baseline that no check of this run matched (stale). The \
    message quotes the entry's reason; remove the entry, or find why its check no \
    longer runs.";

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
    // A rule-by-rule command's failing checks are the peer's defects: a
    // result each, never one per check.
    let defects: Vec<super::Defect> = super::defects_of(report)
        .into_iter()
        .filter(|d| d.standing != super::Standing::Known)
        .collect();
    let folded = super::held(&defects);
    for d in &defects {
        let info = d.info();
        rules.entry(d.rule.to_string()).or_insert(RuleRow {
            level: info.map_or(Level::Must, |i| i.level),
            spec: d.cite(report),
            about: None,
        });
    }
    for (i, record) in report.records.iter().enumerate() {
        if folded.contains(&i) {
            continue;
        }
        for (rule, level, spec) in named_rules(record) {
            rules.entry(rule).or_insert(RuleRow {
                level,
                spec,
                about: None,
            });
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
    // Every result's rule is listed, the unnamed one too: code scanning shows a
    // rule's help beside each alert, and a result whose ruleId no descriptor
    // has is shown without any.
    if found.iter().any(|(_, f)| f.rule == UNNAMED) {
        rules.entry(UNNAMED.to_owned()).or_insert(RuleRow {
            level: Level::Must,
            spec: String::new(),
            about: Some(UNNAMED_ABOUT),
        });
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
            let sentence = id
                .parse::<harness::rules::RuleId>()
                .ok()
                .map(|r| r.info().sentence());
            let (full, help) = match (row.about, sentence) {
                (Some(about), _) => (about.to_owned(), about.to_owned()),
                (None, Some(sentence)) => (
                    format!("{} ({spec}): \"{sentence}\"", row.level.name()),
                    format!(
                        "Specified at {spec}, level {}: \"{sentence}\" The rule reference (conformance/book/rule-reference.md) says how wirecheck checks it.",
                        row.level.name()
                    ),
                ),
                (None, None) => (
                    format!("{} ({spec})", row.level.name()),
                    format!("Specified at {spec}, level {}.", row.level.name()),
                ),
            };
            let mut descriptor = json!({
                "id": printable_str(id),
                "shortDescription": { "text": format!("{} {}", row.level.name(), printable_str(id)) },
                "fullDescription": { "text": full },
                "help": { "text": help },
                "defaultConfiguration": {
                    "level": if row.level.is_mandatory() { "error" } else { "warning" }
                }
            });
            if let (Some(uri), Some(_)) = (help_uri(id), sentence) {
                descriptor["helpUri"] = json!(uri);
            }
            descriptor
        })
        .collect();
    // `--vectors DIR` plays vectors from elsewhere: the built-in files
    // would name another file than the one played.
    let mut results: Vec<Value> = defects
        .iter()
        .map(|d| defect_result(report, d, index.get(d.rule.as_str()).copied()))
        .collect();
    results.extend(found.iter().map(|(record, f)| {
        let mut result = json!({
            "ruleId": printable_str(&f.rule),
            "level": f.level,
            "message": { "text": f.message },
            "locations": [{
                "physicalLocation": physical(record),
                "logicalLocations": logical(record),
            }],
            "partialFingerprints": {
                FINGERPRINT: fingerprint(report, record, f),
            },
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
    }));
    let mut run = json!({
        "tool": { "driver": {
            "name": "wirecheck",
            "version": env!("CARGO_PKG_VERSION"),
            "rules": descriptors,
        }},
        "results": results,
        "columnKind": "unicodeCodePoints",
    });
    run["originalUriBaseIds"] = json!({
        SUBJECT_BASE: { "description": { "text": SUBJECT_BASE_TEXT } }
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
            "transport": printable_str(&info.peer.transport.to_string()),
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
        out.push((c.rule.to_string(), c.level, c.spec.clone()));
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
                "{} {}{}: {}",
                v.level.name(),
                printable_str(rule_id(v)),
                super::text::at_pointer(&v.pointer),
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
                    "refused {} {}{}: {}",
                    r.code,
                    r.rule,
                    super::text::at_pointer(&r.pointer),
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
            .map_or_else(|| UNNAMED.to_owned(), |c| c.rule.to_string());
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

/// The `uriBaseId` of a subject that is no file (§3.4.4): its uri is the
/// subject's id, resolved against nothing on disk.
const SUBJECT_BASE: &str = "WIRECHECK_SUBJECT";
const SUBJECT_BASE_TEXT: &str = "Not a file: the subject wirecheck judged, by its id \
    (run/<revision>/… for a check of the live run as a whole: the handshake, the \
    session, the HTTP exchanges). `wirecheck run --transcripts DIR` writes each \
    session to a file, and its findings then name that file.";

/// The `partialFingerprints` key: wirecheck's own, versioned (§3.27.17).
const FINGERPRINT: &str = "wirecheckFinding/v1";

/// The `partialFingerprints` key of a defect's result: its fingerprint
/// (rule and shape of answer), the same on every run that shows it.
const DEFECT_FINGERPRINT: &str = "wirecheckDefect/v1";

/// Where a record is, as a SARIF physical location: a file of the user's
/// when the record names one (the transcript `--transcripts DIR` wrote for
/// the session, the transcript `check` judged, the baseline whose entry
/// went stale), with the record's line as the region; else the subject's
/// id under the `WIRECHECK_SUBJECT` base, which `originalUriBaseIds` says is
/// no file. Never wirecheck's own vector files: a reader's code scanning
/// would locate their server's defect in a repository they do not have.
fn physical(record: &Record) -> Value {
    let p = &record.place;
    let artifact = match &p.file {
        Some(file) => json!({ "uri": file_uri(file) }),
        None => json!({
            "uri": encode(&subject(record)),
            "uriBaseId": SUBJECT_BASE,
        }),
    };
    let line = if p.file.is_some() { p.line } else { None };
    json!({
        "artifactLocation": artifact,
        "region": { "startLine": line.unwrap_or(1).max(1) },
    })
}

/// The value of `flag` on the run's command line (`--flag V`, `--flag=V`).
fn argv_value<'a>(report: &'a Report, flag: &str) -> Option<&'a str> {
    let argv = &report.run.as_ref()?.argv;
    argv.iter().enumerate().find_map(|(i, a)| {
        if a == flag {
            argv.get(i + 1).map(String::as_str)
        } else {
            a.strip_prefix(flag)?.strip_prefix('=')
        }
    })
}

/// Where a defect's result is located: in the user's repository, as code
/// scanning needs a file: the file they named (`--sarif-location`), else
/// the file one of its checks was read from (a transcript), else their
/// baseline (`--expected-failures`); with none, the defect's fingerprint
/// under the `WIRECHECK_SUBJECT` base (no file).
fn defect_location(report: &Report, defect: &super::Defect) -> Value {
    let read_from = defect
        .checks
        .iter()
        .map(|&i| &report.records[i].place)
        .find(|p| p.file.is_some());
    let named = argv_value(report, "--sarif-location").map(str::to_owned);
    let file = named
        .clone()
        .or_else(|| read_from.and_then(|p| p.file.clone()))
        .or_else(|| argv_value(report, "--expected-failures").map(str::to_owned));
    let artifact = match &file {
        Some(file) => json!({ "uri": file_uri(file) }),
        None => json!({ "uri": encode(&defect.fingerprint()), "uriBaseId": SUBJECT_BASE }),
    };
    let line = match (&named, read_from) {
        (None, Some(p)) => p.line,
        _ => None,
    };
    json!({
        "artifactLocation": artifact,
        "region": { "startLine": line.unwrap_or(1).max(1) },
    })
}

/// The rule reference's entry for `rule`, when this build knows where the
/// book is published (the package's `repository`).
fn help_uri(rule: &str) -> Option<String> {
    let repository = option_env!("CARGO_PKG_REPOSITORY").filter(|r| !r.is_empty())?;
    let anchor: String = rule
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    Some(format!(
        "{}/blob/main/conformance/book/rule-reference.md#{anchor}",
        repository.trim_end_matches('/')
    ))
}

/// One defect as a result: the sentence broken in the message, what the
/// peer answered and where, what to change; located in the user's
/// repository; fingerprinted by the defect, so one defect is one alert
/// across runs whichever probes showed it.
fn defect_result(report: &Report, defect: &super::Defect, rule_index: Option<usize>) -> Value {
    let example = &report.records[defect.checks[0]];
    let mut message = format!(
        "{} {}",
        defect.weight.name(),
        printable_str(defect.rule.as_str())
    );
    if let Some(sentence) = defect.sentence() {
        message.push_str(&format!(": \"{sentence}\""));
    }
    message.push_str(&format!(" ({})", printable_str(&defect.cite(report))));
    let n = defect.checks.len();
    message.push_str(&format!(
        ". {} check{} show{} it",
        n,
        if n == 1 { "" } else { "s" },
        if n == 1 { "s" } else { "" }
    ));
    if let Some(answer) = defect.shape.describe() {
        message.push_str(&format!(", the server answering {answer}"));
    }
    if !defect.revisions.is_empty() {
        let names: Vec<&str> = defect.revisions.iter().map(|r| r.name()).collect();
        message.push_str(&format!(" under {}", names.join(", ")));
    }
    message.push_str(&format!("; e.g. {}", printable_str(&subject(example))));
    let violations = example.violations.iter().flatten();
    if let Some(v) = violations
        .clone()
        .find(|v| defect.is_of(v.rule))
        .or_else(|| example.violations.iter().flatten().next())
    {
        message.push_str(&format!(": {}", printable_str(&v.message)));
    }
    if let Some(fix) = defect.fix() {
        message.push_str(&format!(". Fix: {}", printable_str(&fix)));
    }
    message.push('.');
    let probes: Vec<String> = defect
        .checks
        .iter()
        .map(|&i| printable_str(&subject(&report.records[i])))
        .collect();
    let mut result = json!({
        "ruleId": printable_str(defect.rule.as_str()),
        "level": if defect.standing == super::Standing::Fail { "error" } else { "warning" },
        "message": { "text": message },
        "locations": [{
            "physicalLocation": defect_location(report, defect),
            "logicalLocations": logical(example),
        }],
        "partialFingerprints": { DEFECT_FINGERPRINT: printable_str(&defect.fingerprint()) },
        "properties": {
            "defect": printable_str(&defect.fingerprint()),
            "level": defect.weight.name(),
            "checks": probes,
            "frame": match &example.subject {
                Subject::Frame(bytes) => preview(bytes, PREVIEW_CHARS),
                Subject::TooLong { len } => format!("({len} bytes, not read)"),
            },
        }
    });
    if let Some(i) = rule_index {
        result["ruleIndex"] = json!(i);
    }
    result
}

/// The record's subject, by name: its vector id, its file, or standard input.
fn subject(record: &Record) -> String {
    let p = &record.place;
    p.vector
        .clone()
        .or_else(|| p.file.clone())
        .unwrap_or_else(|| "standard input".to_owned())
}

/// A file path as a URI reference (RFC 3986): a relative path stays relative
/// (GitHub reads it from the repository's root), an absolute one is a
/// `file://` URI (which GitHub's upload action makes relative to the checkout).
fn file_uri(path: &str) -> String {
    if path.starts_with('/') {
        format!("file://{}", encode(path))
    } else {
        encode(path)
    }
}

/// Percent-encodes all but RFC 3986's unreserved characters and `/`, so any
/// name (a space, a `:`, a `#`, markup) is a valid URI reference.
fn encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// A stable fingerprint of one finding: a hash of what makes it the same
/// finding on another run, and of nothing that changes between runs (no time,
/// no frame bytes, no transcript number): the rule, the subject (the vector
/// id, else the file), the revision, the transport, and where within the
/// subject (the frame index or line, the JSON Pointer). 64-bit FNV-1a, as
/// hex: not a secret, only an identity.
fn fingerprint(report: &Report, record: &Record, finding: &Finding<'_>) -> String {
    let p = &record.place;
    let transport = p
        .transport
        .as_ref()
        .or_else(|| report.run.as_ref().map(|r| &r.peer.transport))
        .map(ToString::to_string)
        .unwrap_or_default();
    let parts = [
        finding.rule.clone(),
        subject(record),
        p.revision.map(|r| r.name().to_owned()).unwrap_or_default(),
        transport,
        p.frame.map(|f| f.to_string()).unwrap_or_default(),
        if p.vector.is_none() {
            p.line.map(|l| l.to_string()).unwrap_or_default()
        } else {
            String::new()
        },
        finding.pointer.unwrap_or_default().to_owned(),
    ];
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in &parts {
        // Each part's length first, so ("ab", "c") and ("a", "bc") differ.
        for byte in part.len().to_le_bytes().iter().chain(part.as_bytes()) {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
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
    use super::{named_rules, render, UNNAMED, UNNAMED_ABOUT};
    use crate::{Command, Place, Record, Refusal, Report, Subject};
    use harness::rules::{Level, RuleId};
    use harness::Outcome;

    /// A stale baseline entry's record names no rule; its result's rule is
    /// still listed, with help, so code scanning has a rule to show.
    #[test]
    fn an_unnamed_findings_rule_is_listed_with_help() {
        let mut report = Report::new(Command::Run);
        report.records.push(Record::new(
            Place {
                vector: Some("run/2025-11-25/gone".into()),
                file: Some("baseline.json".into()),
                ..Place::default()
            },
            Subject::Frame(Vec::new()),
            Outcome::Stale {
                reason: "no check of this run matches: known".into(),
            },
        ));
        let log = render(&report);
        let run = &log["runs"][0];
        assert_eq!(run["results"][0]["ruleId"], UNNAMED);
        assert_eq!(run["results"][0]["ruleIndex"], 0);
        let rule = &run["tool"]["driver"]["rules"][0];
        assert_eq!(rule["id"], UNNAMED);
        assert_eq!(rule["help"]["text"], UNNAMED_ABOUT);
    }

    /// A refusal's rule is listed at the level the rule carries: a duplicate
    /// member name breaks RFC 8259's SHOULD, never a MUST.
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
