//! The run document, SARIF, HTML and JUnit views over fixture reports filled
//! directly (no runner exists yet), with every hostile byte a peer can send:
//! NUL, a lone surrogate (as UTF-8 bytes and as a JSON escape), bytes that are
//! not UTF-8, `]]>`, markup and event-handler attributes. And `wirecheck
//! report` over documents written to a scratch directory.

mod common;

use std::time::Duration;

use harness::{Direction, Revision};
use serde_json::Value;
use wirecheck::report::{
    document, html, junit, markdown, sarif, terminal, Check, Command, Level, Outcome, Payload,
    Peer, Place, Record, Refusal, Report, RunInfo, Subject, Violation,
};
use wirecheck::transcript::Frame;

const SCRIPT: &str = "<script>alert(1)</script>";
const IMG: &str = "<img src=x onerror=alert(1)>";

/// Frames carrying each hostile byte sequence.
fn hostile_frames() -> Vec<Vec<u8>> {
    vec![
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"\x00nul\"}".to_vec(),
        b"{\"m\":\"\xed\xa0\x80 lone surrogate bytes\"}".to_vec(),
        br#"{"m":"\ud800 escaped lone surrogate"}"#.to_vec(),
        b"\xff\xfe not UTF-8 ]]> \x1b[2J".to_vec(),
        format!("{{\"error\":{{\"message\":\"{SCRIPT}{IMG}]]>&amp;\"}}}}").into_bytes(),
    ]
}

fn check(rule: &str, level: Level, revision: Revision) -> Check {
    Check {
        rule: wirecheck::report::CheckId::parse(rule),
        level,
        spec: format!("MCP {revision} basic/lifecycle §Initialization"),
    }
}

/// A live run as the runner will fill it: rule-by-rule records over two
/// revisions, every outcome, violations, wire logs full of hostile bytes.
fn run_report() -> Report {
    let mut report = Report::new(Command::Run);
    report.run = Some(RunInfo {
        tool_version: "0.1.0".into(),
        argv: vec![
            "wirecheck".into(),
            "run".into(),
            "--".into(),
            "node srv.js".into(),
        ],
        peer: Peer::new(
            format!("node evil.js {IMG}"),
            wirecheck::transport::Kind::Stdio,
        ),
        revisions: vec![Revision::Mcp2025_06_18, Revision::Mcp2025_11_25],
        asked: Some("all".into()),
        vectors_digest: Some("ab".repeat(32)),
        started: "2026-12-01T08:00:00Z".into(),
        duration: Duration::from_micros(1_234_567),
        pace: None,
    });
    let frames = hostile_frames();
    let outcomes = [
        Outcome::Pass,
        Outcome::Fail,
        Outcome::Warning,
        Outcome::NotObserved {
            why: format!("no reply {SCRIPT}"),
        },
        Outcome::NotApplicable {
            why: "no tools capability".into(),
        },
        Outcome::KnownFailure {
            reason: "upstream #12".into(),
        },
        Outcome::Stale {
            reason: "fixed in 1.2".into(),
        },
    ];
    for (i, outcome) in outcomes.into_iter().enumerate() {
        for revision in [Revision::Mcp2025_06_18, Revision::Mcp2025_11_25] {
            let frame = frames[i % frames.len()].clone();
            let level = if i == 2 { Level::Should } else { Level::Must };
            let mut record = Record::new(
                Place {
                    vector: Some(format!("mcp/{revision}/lifecycle/case-{i}{SCRIPT}")),
                    frame: Some(i),
                    revision: Some(revision),
                    transport: Some(wirecheck::transport::Kind::Stdio.into()),
                    ..Place::default()
                },
                Subject::Frame(frame.clone()),
                outcome.clone(),
            );
            record.check = Some(check(&format!("mcp.lifecycle.rule-{i}"), level, revision));
            record.violations = Some(if matches!(outcome, Outcome::Fail | Outcome::Warning) {
                vec![Violation {
                    rule: harness::rules::RuleId::JsonrpcResponseIdEcho,
                    level,
                    spec: "JSON-RPC 2.0 §5",
                    pointer: "/id".into(),
                    message: format!("peer said {SCRIPT} {IMG} \u{0}]]>"),
                }]
            } else {
                Vec::new()
            });
            record.wire = vec![
                Frame {
                    from: Direction::ClientToServer,
                    bytes: b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".to_vec(),
                    t: Some(Duration::from_micros(10).as_secs_f64()),
                },
                Frame {
                    from: Direction::ServerToClient,
                    bytes: frame,
                    t: None,
                },
            ];
            report.records.push(record);
        }
    }
    report
}

/// A transcript command's report: a refusal, a too-long line, a lowered frame.
fn transcript_report() -> Report {
    let mut report = Report::new(Command::Roundtrip);
    let mut ok = Record::new(
        Place::at_line(Some("in]]>&<.jsonl".into()), 1),
        Subject::Frame(b"{\"jsonrpc\":\"2.0\",\"method\":\"x\"}".to_vec()),
        Outcome::Pass,
    );
    ok.payload = Some(Payload::Lowered(
        b"{\"jsonrpc\":\"2.0\",\"method\":\"x\"}".to_vec(),
    ));
    report.records.push(ok);
    let mut refused = Record::new(
        Place::at_line(Some("in]]>&<.jsonl".into()), 2),
        Subject::Frame(hostile_frames()[3].clone()),
        Outcome::Fail,
    );
    let mut refusal = Refusal::too_long(9, 8);
    refusal.message = format!("{IMG} \u{0}");
    refused.refusal = Some(refusal);
    report.records.push(refused);
    let mut long = Record::new(
        Place::at_line(None, 3),
        Subject::TooLong { len: 99 },
        Outcome::Fail,
    );
    long.refusal = Some(Refusal::too_long(99, 8));
    report.records.push(long);
    report
}

fn schema(name: &str) -> Value {
    let path = format!("{}/schemas/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The run document's schema; it refers to the record schema's definitions.
fn report_validator() -> jsonschema::Validator {
    let registry = jsonschema::Registry::new()
        .add(
            "https://wirecheck.invalid/schemas/record.schema.json",
            schema("record.schema.json"),
        )
        .unwrap()
        .prepare()
        .unwrap();
    jsonschema::options()
        .with_registry(&registry)
        .build(&schema("report.schema.json"))
        .unwrap()
}

fn assert_valid(validator: &jsonschema::Validator, doc: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

/// A directory under the system's temporary directory, removed on drop.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!(
            "wirecheck-report-views-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn run_documents_match_the_schema_and_read_back_unchanged() {
    let validator = report_validator();
    let scratch = Scratch::new("doc");
    for report in [run_report(), transcript_report()] {
        let bytes = document::to_vec(&report);
        let text = std::str::from_utf8(&bytes).expect("the document is UTF-8");
        assert!(!text.contains('\0'), "NUL is escaped, never raw");
        assert!(!text.contains('\x1b'), "ESC is escaped, never raw");
        let doc: Value = serde_json::from_slice(&bytes).expect("the document is JSON");
        assert_valid(&validator, &doc);
        let path = scratch.0.join("report.json");
        std::fs::write(&path, &bytes).unwrap();
        let back = Report::read_json(&path).unwrap();
        assert_eq!(back, report, "every byte of every frame comes back");
        assert_eq!(document::to_vec(&back), bytes);
    }
    // Frames that are not UTF-8 are hex; the escaped surrogate is text.
    let doc: Value = serde_json::from_slice(&document::to_vec(&run_report())).unwrap();
    let wire = &doc["records"][2]["wire"][1];
    assert_eq!(wire["frame_hex"].as_str().unwrap()[..6], *"7b226d");
    assert!(wire.get("frame").is_none());
    assert_eq!(
        doc["records"][4]["wire"][1]["frame"].as_str().unwrap(),
        r#"{"m":"\ud800 escaped lone surrogate"}"#
    );
    assert_eq!(doc["tally"]["total"], 14);
    assert_eq!(doc["run"]["duration_us"], 1_234_567);
}

#[test]
fn documents_that_lie_are_refused_by_schema_and_reader_alike() {
    let validator = report_validator();
    let good: Value = serde_json::from_slice(&document::to_vec(&run_report())).unwrap();
    let mut cases = Vec::new();
    let mut extra = good.clone();
    extra["records"][0]["colour"] = "red".into();
    cases.push(("an unknown member", extra));
    let mut two = good.clone();
    two["records"][0]["frame_hex"] = "00".into();
    cases.push(("frame and frame_hex", two));
    let mut bad_hex = good.clone();
    bad_hex["records"][2]["wire"][1]["frame_hex"] = "zz".into();
    cases.push(("hex that is not hex", bad_hex));
    let mut outcome = good.clone();
    outcome["records"][0]["outcome"]["outcome"] = "maybe".into();
    cases.push(("an unknown outcome", outcome));
    for (what, doc) in cases {
        assert!(!validator.is_valid(&doc), "schema accepts {what}");
        let bytes = serde_json::to_vec(&doc).unwrap();
        assert!(
            document::from_slice(&bytes).is_err(),
            "reader accepts {what}"
        );
    }
    // A tally that counts fewer records than the document holds is a lie the
    // schema cannot see; the reader refuses it.
    let mut short = good;
    short["tally"]["pass"] = 0.into();
    let err = document::from_slice(&serde_json::to_vec(&short).unwrap()).unwrap_err();
    assert!(err.contains("tally says 0 pass, records hold 2"), "{err}");
}

fn sarif_validator() -> jsonschema::Validator {
    jsonschema::validator_for(&schema("sarif-2.1.0.subset.schema.json")).unwrap()
}

#[test]
fn sarif_is_valid_and_names_every_finding_s_rule() {
    let validator = sarif_validator();
    for report in [run_report(), transcript_report()] {
        let log = sarif::render(&report);
        // Through text and back: what a dashboard reads.
        let text = serde_json::to_string(&log).unwrap();
        assert!(!text.contains('\0') && !text.contains('\x1b'));
        let log: Value = serde_json::from_str(&text).unwrap();
        assert_valid(&validator, &log);
        assert_eq!(log["runs"].as_array().unwrap().len(), 1);
        let run = &log["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        let results = run["results"].as_array().unwrap();
        // A result per defect of the peer's (a rule-by-rule command's),
        // one at least per other failing record.
        let defects = if report.command.judges_rules() {
            wirecheck::report::defects(&report)
        } else {
            Vec::new()
        };
        let open: Vec<_> = defects
            .iter()
            .filter(|d| d.standing != wirecheck::report::Standing::Known)
            .collect();
        let folded: Vec<usize> = defects.iter().flat_map(|d| d.checks.clone()).collect();
        let failing = report
            .records
            .iter()
            .enumerate()
            .filter(|(i, r)| {
                !folded.contains(i)
                    && matches!(
                        r.outcome,
                        Outcome::Fail | Outcome::Warning | Outcome::Stale { .. }
                    )
            })
            .count();
        assert!(results.len() >= failing + open.len() && failing + open.len() > 0);
        for result in results {
            let i = usize::try_from(result["ruleIndex"].as_u64().unwrap()).unwrap();
            assert_eq!(
                rules[i]["id"], result["ruleId"],
                "ruleIndex points at its rule"
            );
            assert!(["error", "warning"].contains(&result["level"].as_str().unwrap()));
            let logical = &result["locations"][0]["logicalLocations"];
            assert!(!logical.as_array().unwrap().is_empty());
        }
        for rule in rules {
            assert!(!rule["fullDescription"]["text"].as_str().unwrap().is_empty());
            assert!(rule.get("helpUri").is_none());
        }
    }
    let run = &sarif::render(&run_report())["runs"][0];
    let levels: Vec<&str> = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["level"].as_str().unwrap())
        .collect();
    // A defect each for the fail (error) and the warning (warning), seen
    // under two revisions each; a result per stale entry (error).
    assert_eq!(levels, ["error", "warning", "error", "error"]);
    let first = &run["results"][0];
    assert_eq!(first["ruleId"], "mcp.lifecycle.rule-1");
    assert!(
        first["message"]["text"]
            .as_str()
            .unwrap()
            .contains("2 checks show it"),
        "{first}"
    );
    assert_eq!(
        first["locations"][0]["logicalLocations"][1]["name"],
        "frame 1"
    );
    assert!(first["message"]["text"]
        .as_str()
        .unwrap()
        .contains("\\u{0000}]]>"));
}

/// What GitHub code scanning needs of an uploaded result (docs.github.com,
/// "SARIF support for code scanning"): a `ruleId`, `message.text`, a `level`
/// it knows, a `physicalLocation.artifactLocation.uri` (a result without one
/// is not shown), and `partialFingerprints` (without them, an upload through
/// the API makes a new alert for the same finding on every run).
fn assert_code_scanning_result(result: &Value) {
    assert!(!result["ruleId"].as_str().unwrap().is_empty(), "{result}");
    assert!(!result["message"]["text"].as_str().unwrap().is_empty());
    assert!(["error", "warning", "note", "none"].contains(&result["level"].as_str().unwrap()));
    let physical = &result["locations"][0]["physicalLocation"];
    let uri = physical["artifactLocation"]["uri"].as_str().unwrap_or("");
    assert!(!uri.is_empty(), "no artifact uri: {result}");
    assert!(
        uri.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~/%:".contains(&b)),
        "not a URI reference: {uri}"
    );
    assert!(physical["region"]["startLine"].as_u64().unwrap() >= 1);
    let fingerprints = result["partialFingerprints"].as_object().unwrap();
    assert!(!fingerprints.is_empty());
    assert!(fingerprints
        .values()
        .all(|v| v.as_str().is_some_and(|v| !v.is_empty())));
    assert!(!result["locations"][0]["logicalLocations"]
        .as_array()
        .unwrap()
        .is_empty());
}

fn results(log: &Value) -> Vec<Value> {
    log["runs"][0]["results"].as_array().unwrap().clone()
}

fn fingerprint(result: &Value) -> &str {
    let prints = &result["partialFingerprints"];
    prints["wirecheckDefect/v1"]
        .as_str()
        .or_else(|| prints["wirecheckFinding/v1"].as_str())
        .unwrap()
}

/// Every result is located where GitHub shows it: the file the record names
/// (its line the region), else the golden vector's file in this repository,
/// else the subject's id under a base that says it is no file; and it is
/// fingerprinted by what it is, so a second run's same finding is the same
/// alert and two findings are two.
#[test]
fn sarif_results_are_located_and_fingerprinted_for_code_scanning() {
    let validator = sarif_validator();
    for report in [run_report(), transcript_report()] {
        let log = sarif::render(&report);
        assert_valid(&validator, &log);
        let results = results(&log);
        assert!(!results.is_empty());
        for result in &results {
            assert_code_scanning_result(result);
        }
        let distinct: std::collections::BTreeSet<&str> = results.iter().map(fingerprint).collect();
        assert_eq!(distinct.len(), results.len(), "two findings, two alerts");
    }

    // A transcript's record: that file, at its line.
    let log = sarif::render(&transcript_report());
    let located: Vec<(&str, u64, Option<&str>)> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let p = &r["locations"][0]["physicalLocation"];
            (
                p["artifactLocation"]["uri"].as_str().unwrap(),
                p["region"]["startLine"].as_u64().unwrap(),
                p["artifactLocation"]["uriBaseId"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        located,
        [
            ("in%5D%5D%3E%26%3C.jsonl", 2, None),
            ("standard%20input", 1, Some("WIRECHECK_SUBJECT")),
        ]
    );
    let bases = &log["runs"][0]["originalUriBaseIds"]["WIRECHECK_SUBJECT"];
    assert!(bases["description"]["text"]
        .as_str()
        .unwrap()
        .contains("Not a file"));

    // A defect seen over two transports and by the session judge is one
    // result, located in the user's repository: the file they name, else
    // their baseline, else (no file) its fingerprint under the subject base;
    // never wirecheck's own vector files.
    let mut report = Report::new(Command::Run);
    for (vector, transport) in [
        ("jsonrpc-2.0/request/id-integer", "stdio"),
        ("jsonrpc-2.0/request/id-integer", "streamable-http"),
        ("run/2025-11-25/session/session.response.duplicate", "stdio"),
    ] {
        let mut record = Record::new(
            Place {
                vector: Some(vector.into()),
                frame: Some(0),
                transport: Some(wirecheck::report::Transport::parse(transport)),
                ..Place::default()
            },
            Subject::Frame(b"{}".to_vec()),
            Outcome::Fail,
        );
        record.check = Some(check(
            "jsonrpc.response.id-echo",
            Level::Must,
            Revision::Mcp2025_11_25,
        ));
        report.records.push(record);
    }
    let located = |report: &Report| {
        let log = sarif::render(report);
        assert_valid(&validator, &log);
        let results = results(&log);
        assert_eq!(results.len(), 1, "{results:#?}");
        assert_code_scanning_result(&results[0]);
        let artifact = results[0]["locations"][0]["physicalLocation"]["artifactLocation"].clone();
        assert!(
            !artifact.to_string().contains("conformance/vectors"),
            "{artifact}"
        );
        artifact
    };
    let artifact = located(&report);
    assert_eq!(artifact["uri"], "jsonrpc.response.id-echo/unreadable");
    assert_eq!(artifact["uriBaseId"], "WIRECHECK_SUBJECT");
    let mut info = run_report().run.unwrap();
    info.argv = [
        "wirecheck",
        "run",
        "--expected-failures",
        ".wirecheck/baseline.json",
    ]
    .map(String::from)
    .to_vec();
    report.run = Some(info.clone());
    let artifact = located(&report);
    assert_eq!(artifact["uri"], ".wirecheck/baseline.json");
    assert!(artifact.get("uriBaseId").is_none());
    info.argv.push("--sarif-location=src/server.ts".into());
    report.run = Some(info);
    assert_eq!(located(&report)["uri"], "src/server.ts");

    // Stable: another run of the same findings (other frames, times, order)
    // fingerprints each the same.
    let mut again = run_report();
    again.records.reverse();
    for record in &mut again.records {
        record.subject = Subject::Frame(b"other bytes".to_vec());
        for frame in &mut record.wire {
            frame.t = Some(9.0);
        }
    }
    if let Some(info) = &mut again.run {
        info.started = "2026-12-02T09:00:00Z".into();
        info.duration = Duration::from_secs(9);
    }
    let before: std::collections::BTreeSet<String> = results_of(&run_report());
    assert_eq!(before, results_of(&again));
}

fn results_of(report: &Report) -> std::collections::BTreeSet<String> {
    results(&sarif::render(report))
        .iter()
        .map(|r| fingerprint(r).to_owned())
        .collect()
}

/// Every tag in `page`, as (name, attribute names and values).
fn tags(page: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').expect("every tag closes") + start;
        let inner = &rest[start + 1..end];
        rest = &rest[end + 1..];
        let inner = inner.trim_start_matches('/');
        let (name, attrs) = inner.split_once(' ').unwrap_or((inner, ""));
        if name.eq_ignore_ascii_case("!doctype") {
            out.push((name.to_ascii_lowercase(), Vec::new()));
            continue;
        }
        let mut parsed = Vec::new();
        let mut attrs = attrs.trim();
        while !attrs.is_empty() {
            let (key, after) = attrs.split_once('=').unwrap_or((attrs, ""));
            let after = after
                .strip_prefix('"')
                .expect("attribute values are quoted");
            let close = after.find('"').unwrap();
            parsed.push((key.trim().to_owned(), after[..close].to_owned()));
            attrs = after[close + 1..].trim();
        }
        out.push((name.to_ascii_lowercase(), parsed));
    }
    out
}

fn assert_inert(page: &str) {
    const TAGS: &[&str] = &[
        "!doctype", "html", "head", "meta", "title", "style", "body", "h1", "h2", "table", "tr",
        "th", "td", "a", "section", "div", "p", "span", "ul", "li", "pre", "code", "details",
        "summary", "strong", "br",
    ];
    const ATTRS: &[&str] = &[
        "lang",
        "charset",
        "http-equiv",
        "content",
        "class",
        "href",
        "id",
    ];
    let all = tags(page);
    assert!(all.len() > 50, "the page has structure");
    let mut ids = std::collections::HashSet::new();
    let mut hrefs = Vec::new();
    for (name, attrs) in &all {
        assert!(
            TAGS.contains(&name.as_str()),
            "live tag <{name}> in the page"
        );
        for (key, value) in attrs {
            assert!(ATTRS.contains(&key.as_str()), "attribute {key} on <{name}>");
            match key.as_str() {
                "id" => {
                    ids.insert(value.clone());
                }
                "href" => hrefs.push(value.clone()),
                _ => {}
            }
        }
    }
    for href in hrefs {
        let anchor = href.strip_prefix('#').expect("links stay on the page");
        assert!(ids.contains(anchor), "{href} has no target");
    }
    let lower = page.to_ascii_lowercase();
    assert!(!lower.contains("<script") && !lower.contains("<img"));
    assert!(
        !lower.contains("http://") && !lower.contains("https://"),
        "no external asset"
    );
    assert!(!page.contains('\0') && !page.contains('\x1b'));
}

#[test]
fn html_is_self_contained_and_peer_markup_is_inert() {
    let report = run_report();
    let page = html::render(&report);
    assert_inert(&page);
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "escaped, still shown"
    );
    assert!(page.contains("&lt;img src=x onerror=alert(1)&gt;"));
    // The matrix: a column per revision, a row per rule, cells linking to
    // their records and wire logs.
    assert!(page.contains("<th>2025-06-18</th><th>2025-11-25</th>"));
    assert!(
        page.contains(
            "<th>mcp.lifecycle.rule-1</th><td>MUST</td><td class=\"c fail\"><a href=\"#c1-0\">fail</a></td>"
        ),
        "{page}"
    );
    // What to fix first: the failing row above the passing one, a legend,
    // and no section for a cell of passes (counted, not listed).
    assert!(
        page.find("<th>mcp.lifecycle.rule-1</th>").unwrap()
            < page.find("<th>mcp.lifecycle.rule-0</th>").unwrap(),
        "{page}"
    );
    assert!(page.contains("a MUST or MUST NOT broken"));
    assert!(!page.contains("<section id=\"c0-0\">"), "{page}");
    let cell = &page[page.find("<section id=\"c1-0\">").unwrap()..];
    let cell = &cell[..cell.find("</section>").unwrap()];
    assert!(cell.contains("wire log (2 frames)"));
    assert!(
        cell.contains("\\xED\\xA0\\x80 lone surrogate bytes"),
        "{cell}"
    );
    let cell = &page[page.find("<section id=\"c3-1\">").unwrap()..];
    assert!(
        cell.contains("\\xFF\\xFE not UTF-8 ]]&gt; \\u{001B}[2J"),
        "{cell}"
    );
    assert_inert(&html::render(&transcript_report()));
    let many = html::render_many(&[
        ("v1.json".to_owned(), &report),
        (format!("v2{SCRIPT}.json"), &transcript_report()),
    ]);
    assert_inert(&many);
    assert!(
        many.contains("<th>v1.json</th><th>v2&lt;script&gt;"),
        "{many}"
    );
}

#[test]
fn junit_stays_well_formed_over_hostile_records() {
    for report in [run_report(), transcript_report()] {
        let xml = junit::render(&report).unwrap();
        assert!(!xml.contains('\0'));
        let mut reader = quick_xml::Reader::from_str(&xml);
        let mut cases = 0;
        loop {
            match reader.read_event().expect("well-formed XML") {
                quick_xml::events::Event::Eof => break,
                quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e)
                    if e.name().as_ref() == b"testcase" =>
                {
                    cases += 1;
                }
                _ => {}
            }
        }
        assert_eq!(cases, junit_case_count(&report));
    }
}

/// A rule-by-rule report's JUnit cases: a case per defect, one per check
/// folded into none; a per-frame report's, one per record.
fn junit_case_count(report: &Report) -> usize {
    if !report.command.judges_rules() {
        return report.records.len();
    }
    let defects = wirecheck::report::defects(report);
    let folded: usize = defects.iter().map(|d| d.checks.len()).sum();
    report.records.len() - folded + defects.len()
}

/// A `<failure>` or `<skipped>`: its element, `type` and `message`.
type Status = (String, String, String);

/// Each test case's name, its [`Status`] if any, and its `<system-out>`.
fn junit_cases(xml: &str) -> Vec<(String, Option<Status>, String)> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut cases = Vec::new();
    let mut in_out = false;
    let attr = |e: &quick_xml::events::BytesStart<'_>, key: &[u8]| {
        e.attributes()
            .flatten()
            .find(|a| a.key.as_ref() == key)
            .map(|a| String::from_utf8_lossy(&a.value).into_owned())
            .unwrap_or_default()
    };
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => match e.name().as_ref() {
                b"testcase" => cases.push((attr(&e, b"name"), None, String::new())),
                tag @ (b"failure" | b"skipped" | b"error") => {
                    let case = cases.last_mut().unwrap();
                    case.1 = Some((
                        String::from_utf8_lossy(tag).into_owned(),
                        attr(&e, b"type"),
                        attr(&e, b"message"),
                    ));
                }
                b"system-out" => in_out = true,
                _ => {}
            },
            Event::End(e) if e.name().as_ref() == b"system-out" => in_out = false,
            Event::Text(t) if in_out => {
                cases.last_mut().unwrap().2.push_str(&t.decode().unwrap());
            }
            _ => {}
        }
    }
    cases
}

/// A defect that warns is seen without failing the build: a `<skipped
/// type="warning">` case whose message starts `warning:` and quotes the
/// sentence (CI dashboards count and list skipped cases; a passing case's
/// output nobody opens), its story and its checks in `<system-out>`. Under
/// `--strict` it is a `<failure>`. Each defect is one case, however many
/// checks show it.
#[test]
fn junit_shows_a_warning_as_skipped_and_fails_it_only_when_strict() {
    let mut report = run_report();
    let xml = junit::render(&report).unwrap();
    let cases = junit_cases(&xml);
    assert_eq!(cases.len(), junit_case_count(&report));
    let defect_case = |cases: &[(String, Option<Status>, String)], rule: &str| {
        cases
            .iter()
            .find(|(name, _, _)| name.starts_with(&format!("defect {rule}/")))
            .cloned()
            .unwrap_or_else(|| panic!("no case for {rule}: {cases:#?}"))
    };
    let (name, status, out) = defect_case(&cases, "mcp.lifecycle.rule-2");
    let (tag, ty, message) = status.expect("a warning is not a plain pass");
    assert_eq!(
        (tag.as_str(), ty.as_str()),
        ("skipped", "warning"),
        "{name}"
    );
    assert!(
        message.starts_with("warning: SHOULD mcp.lifecycle.rule-2"),
        "{name}: {message}"
    );
    assert!(message.ends_with("(2 checks)"), "{name}: {message}");
    assert!(out.contains("jsonrpc.response.id-echo"), "{name}: {out}");
    assert!(out.contains("checks:"), "{name}: {out}");
    let (_, status, _) = defect_case(&cases, "mcp.lifecycle.rule-1");
    assert_eq!(status.unwrap().0, "failure");
    let (_, status, _) = defect_case(&cases, "mcp.lifecycle.rule-5");
    assert_eq!(status.unwrap().1, "known-failure");
    // The suite counts: failures only for what fails the run (one failing
    // defect and the two stale entries).
    assert!(xml.contains("failures=\"3\""), "{xml}");

    report.strict = true;
    let xml = junit::render(&report).unwrap();
    let (name, status, _) = defect_case(&junit_cases(&xml), "mcp.lifecycle.rule-2");
    let (tag, ty, _) = status.expect("a strict warning fails");
    assert_eq!(
        (tag.as_str(), ty.as_str()),
        ("failure", "warning"),
        "{name}"
    );
    assert!(xml.contains("failures=\"4\""), "{xml}");
}

#[test]
fn markdown_compares_runs_rule_by_rule() {
    let run = run_report();
    let other = transcript_report();
    let md = markdown::render_many(&[("a.json".into(), &run), ("b.json".into(), &other)]);
    assert!(md.contains("| rule | a.json | b.json |"), "{md}");
    assert!(md.contains("| mcp.lifecycle.rule-1 | fail |  |"), "{md}");
    assert!(md.contains("| json.frame-too-large |  | fail |"), "{md}");
    // The runs compared by defect too: a row per defect, its checks counted.
    assert!(md.contains("| defect | a.json | b.json |"), "{md}");
    assert!(md.contains("| fail (2 checks) |  |"), "{md}");
    assert!(!md.contains("<img") && !md.contains("<script"), "{md}");
}

#[test]
fn wirecheck_report_renders_documents_side_by_side() {
    let scratch = Scratch::new("cmd");
    std::fs::write(scratch.0.join("a.json"), document::to_vec(&run_report())).unwrap();
    let mut clean = Report::new(Command::Run);
    let mut pass = Record::new(
        Place::default(),
        Subject::Frame(b"{}".to_vec()),
        Outcome::Pass,
    );
    pass.check = Some(check(
        "mcp.lifecycle.rule-1",
        Level::Must,
        Revision::Mcp2025_06_18,
    ));
    clean.records.push(pass);
    std::fs::write(scratch.0.join("b.json"), document::to_vec(&clean)).unwrap();
    std::fs::write(scratch.0.join("bad.json"), b"{\"format\":1}").unwrap();

    let out = common::wirecheck_in(
        &scratch.0,
        &[
            "report",
            "a.json",
            "b.json",
            "--html",
            "o.html",
            "--markdown",
            "o.md",
            "--sarif",
            "o.sarif",
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(scratch.0.join("o.html")).unwrap();
    assert_inert(&page);
    assert!(page.contains("<th>a.json</th><th>b.json</th>"));
    let md = std::fs::read_to_string(scratch.0.join("o.md")).unwrap();
    assert!(
        md.contains("| mcp.lifecycle.rule-1 | fail | pass |"),
        "{md}"
    );
    let log: Value =
        serde_json::from_slice(&std::fs::read(scratch.0.join("o.sarif")).unwrap()).unwrap();
    assert_valid(&sarif_validator(), &log);
    assert_eq!(log["runs"].as_array().unwrap().len(), 2);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("\na.json: 14 checks: 2 passed, 2 failed"),
        "{stdout}"
    );
    // Each document's defects first, as `run` shows them.
    assert!(
        stdout.starts_with(
            "== a.json\n2 defects: 1 MUST, 1 SHOULD; 4 checks; 1 known defect (baseline)\n"
        ),
        "{stdout}"
    );

    let only_clean = common::wirecheck_in(&scratch.0, &["report", "b.json"], b"");
    assert_eq!(only_clean.status.code(), Some(0));
    let bad = common::wirecheck_in(&scratch.0, &["report", "b.json", "bad.json"], b"");
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8(bad.stderr).unwrap();
    assert!(
        err.contains("bad.json: not a run document: missing field"),
        "{err}"
    );
}

/// A streamed document (`--output` while the run goes) may count records it
/// did not keep: the reader keeps that count as `dropped`, so the tally and
/// the exit code still see every failure.
#[test]
fn a_document_counting_records_it_did_not_keep_keeps_them_in_the_tally() {
    let good: Value = serde_json::from_slice(&document::to_vec(&run_report())).unwrap();
    let fails = good["tally"]["fail"].as_u64().unwrap();
    let mut streamed = good.clone();
    streamed["tally"]["fail"] = (fails + 2).into();
    streamed["tally"]["total"] = (good["tally"]["total"].as_u64().unwrap() + 2).into();
    let back = document::from_slice(&serde_json::to_vec(&streamed).unwrap()).unwrap();
    assert_eq!(back.dropped.count("fail"), 2);
    assert_eq!(back.dropped.total(), 2);
    assert_eq!(back.tally().count("fail") as u64, fails + 2);
}

/// A rule judged on a transport (the HTTP client judge, the transport judge)
/// is reported at that transport, with the rule's level and reference.
#[test]
fn a_transport_rules_record_names_its_transport() {
    let record = Record::of_transport_rule(
        "http/notification-202".into(),
        Revision::Mcp2025_06_18,
        Some(wirecheck::transport::Kind::STREAMABLE_HTTP),
        harness::rules::RuleId::McpHttpNotification202,
        Outcome::Fail,
        vec!["answered 200".into()],
    );
    assert_eq!(
        record
            .place
            .transport
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("streamable-http")
    );
    assert_eq!(
        record.place.vector.as_deref(),
        Some("http/notification-202")
    );
    assert_eq!(record.place.revision, Some(Revision::Mcp2025_06_18));
    let check = record.check.expect("the rule is named");
    assert_eq!(check.rule, "mcp.http.notification-202");
    let violations = record.violations.expect("what broke it");
    assert_eq!(violations.len(), 1);
    assert_eq!(violations[0].message, "answered 200");
}

/// A saved run says what was tested: the peer and its transport, the revisions
/// asked and judged, wirecheck's version, the vectors' digest, when and for how
/// long; the terminal names it too.
#[test]
fn a_saved_run_names_the_run_it_is() {
    let dir = std::env::temp_dir().join(format!("wirecheck-run-identity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("run.json");
    let out = common::wirecheck(
        &[
            "run",
            "--revision",
            "2025-11-25",
            "--out",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_valid(&report_validator(), &doc);
    let run = &doc["run"];
    assert_eq!(
        run["peer"]["target"],
        "wirecheck serve (the built-in reference peer)"
    );
    assert_eq!(run["peer"]["transport"], "stdio");
    assert_eq!(run["revisions"], serde_json::json!(["2025-11-25"]));
    assert_eq!(run["asked"], "2025-11-25");
    assert_eq!(run["tool_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(
        run["vectors_digest"].as_str(),
        Some(wirecheck::vectors::embedded_digest().as_str())
    );
    let started = run["started"].as_str().unwrap();
    assert_eq!(started.len(), "2026-12-03T21:05:45Z".len(), "{started}");
    assert!(
        started.starts_with("20") && started.ends_with('Z'),
        "{started}"
    );
    assert!(run["duration_us"].as_u64().unwrap() > 0);
    assert!(run["argv"].as_array().unwrap().iter().any(|a| a == "--out"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("judged: wirecheck serve (the built-in reference peer) over stdio; revisions 2025-11-25 (--revision 2025-11-25)"),
        "{stdout}"
    );
}

#[test]
fn rfc3339_names_the_utc_second() {
    use std::time::{Duration, UNIX_EPOCH};
    let at = |secs| wirecheck::report::rfc3339(UNIX_EPOCH + Duration::from_secs(secs));
    assert_eq!(at(0), "1970-01-01T00:00:00Z");
    assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
    assert_eq!(at(1_796_331_945), "2026-12-03T21:05:45Z");
    assert_eq!(at(1_798_761_599), "2026-12-31T23:59:59Z");
    assert_eq!(at(4_107_542_399), "2100-02-28T23:59:59Z");
    // Past a century (2100 is no leap year) and at the 400-year rule (2400 is).
    assert_eq!(at(4_107_542_400), "2100-03-01T00:00:00Z");
    assert_eq!(at(7_263_259_200), "2200-03-01T12:00:00Z");
    assert_eq!(at(13_569_465_599), "2399-12-31T23:59:59Z");
    assert_eq!(at(13_574_563_200), "2400-02-29T00:00:00Z");
}

/// The terminal leads with what to fix. One defect seen under several revisions
/// is one entry (its count, its revisions, the rule said once), fails before
/// warnings, the server's answer beside the probe (not the answer to the
/// runner's own liveness request), and the not-applicable checks counted by
/// reason.
#[test]
fn the_terminal_groups_what_to_fix_by_rule_most_severe_first() {
    let silent = |vector: &str, revision: Revision| {
        let mut r = Record::new(
            Place {
                vector: Some(vector.into()),
                revision: Some(revision),
                transport: Some(wirecheck::transport::Kind::Stdio.into()),
                ..Place::default()
            },
            Subject::Frame(
                br#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":[]}"#.to_vec(),
            ),
            Outcome::Fail,
        );
        r.check = Some(check("jsonrpc.response.required", Level::Must, revision));
        r.notes.push(format!(
            "{}7 instead of 1: the vector is not about ids",
            wirecheck::report::ID_REWRITE_NOTE
        ));
        r.notes
            .push("the answer expected here is a convention, not a requirement (x)".into());
        r.wire = vec![
            Frame {
                from: Direction::ClientToServer,
                bytes: br#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":[]}"#.to_vec(),
                t: None,
            },
            Frame {
                from: Direction::ClientToServer,
                bytes: br#"{"jsonrpc":"2.0","id":1099511627776,"method":"ping"}"#.to_vec(),
                t: None,
            },
            Frame {
                from: Direction::ServerToClient,
                bytes: br#"{"jsonrpc":"2.0","id":1099511627776,"result":{}}"#.to_vec(),
                t: None,
            },
        ];
        r
    };
    let mut warning = Record::new(
        Place {
            vector: Some("mcp/2025-11-25/logging/invalid-level".into()),
            revision: Some(Revision::Mcp2025_11_25),
            ..Place::default()
        },
        Subject::Frame(b"{}".to_vec()),
        Outcome::Warning,
    );
    warning.check = Some(check(
        "mcp.logging.invalid-level",
        Level::Should,
        Revision::Mcp2025_11_25,
    ));
    let inapplicable = |why: &str| {
        Record::new(
            Place::default(),
            Subject::Frame(Vec::new()),
            Outcome::NotApplicable { why: why.into() },
        )
    };
    let mut report = Report::new(Command::Run);
    report.records = vec![
        warning,
        silent("mcp/2025-06-18/base/params-array", Revision::Mcp2025_06_18),
        silent("mcp/2025-11-25/base/params-array", Revision::Mcp2025_11_25),
        silent(
            "mcp/2025-11-25/base/request-id-null",
            Revision::Mcp2025_11_25,
        ),
        inapplicable("the runner broke rule x at event 12 on purpose"),
        inapplicable("the runner broke rule x at event 40 on purpose"),
        inapplicable("the vector needs a task"),
    ];
    let text = terminal::to_fix(&report, false);
    let fail = text
        .find("FAIL           jsonrpc.response.required: 3 checks under 2025-06-18, 2025-11-25")
        .unwrap_or_else(|| panic!("{text}"));
    let warn = text
        .find("WARNING        mcp.logging.invalid-level: 1 check under 2025-11-25")
        .unwrap_or_else(|| panic!("{text}"));
    assert!(fail < warn, "fails first: {text}");
    assert_eq!(
        text.matches("jsonrpc.response.required").count(),
        1,
        "{text}"
    );
    assert!(
        text.contains(r#"sent: {"jsonrpc":"2.0","id":7,"method":"tools/list","params":[]}"#),
        "{text}"
    );
    // The request is shown as sent: its id rewrite needs no note; others stay.
    assert!(!text.contains("instead of 1"), "{text}");
    assert!(
        text.contains("note: the answer expected here is a convention, not a requirement (x)"),
        "{text}"
    );
    assert!(
        text.contains("got:  nothing"),
        "the liveness answer is not the probe's: {text}"
    );
    assert!(
        text.contains(
            "also: mcp/2025-11-25/base/params-array, mcp/2025-11-25/base/request-id-null"
        ),
        "{text}"
    );
    assert!(
        text.contains("NOT-APPLICABLE 3 checks do not apply"),
        "{text}"
    );
    assert!(
        text.contains("2 × the runner broke rule x at event N on purpose"),
        "{text}"
    );
    assert!(text.contains("1 × the vector needs a task"), "{text}");
    assert!(
        text.contains("wirecheck run: 3 fail 1 warning 3 not-applicable"),
        "{text}"
    );
}

/// A run document read back may hold any text as the vectors' digest; the
/// one-line summary never cuts a character in two.
#[test]
fn a_run_line_takes_any_digest() {
    let mut report = run_report();
    let run = report.run.as_mut().unwrap();
    run.vectors_digest = Some("é".repeat(20));
    assert!(run
        .line()
        .ends_with(&format!("vectors sha256:{}", "é".repeat(12))));
}
