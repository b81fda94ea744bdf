//! `wirecheck run` end to end against small fixture peers
//! (`tests/fixtures/peer.py`), and against the reference peer once
//! `wirecheck serve` is in the binary.

mod common;

use std::time::{Duration, Instant};

use serde_json::Value;

const PEER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/peer.py");

fn fixture(mode: &str) -> String {
    format!("python3 {PEER} {mode}")
}

/// `wirecheck run` against `peer` under 2025-11-25, as JSON lines.
fn run(peer: &str, extra: &[&str]) -> (std::process::Output, Duration) {
    let mut args = vec![
        "run",
        "--stdio",
        peer,
        "--revision",
        "2025-11-25",
        "--timeout",
        "3s",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let started = Instant::now();
    let out = common::wirecheck(&args, b"");
    (out, started.elapsed())
}

/// The records, each checked against the committed record schema.
fn parsed(out: &std::process::Output) -> Vec<Value> {
    common::records(out)
}

fn outcome(record: &Value) -> &str {
    record["outcome"]["outcome"].as_str().unwrap_or("")
}

fn by_vector<'a>(records: &'a [Value], id: &str) -> Vec<&'a Value> {
    records.iter().filter(|r| r["vector"] == id).collect()
}

fn rules(record: &Value) -> Vec<&str> {
    record["violations"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v["rule"].as_str())
        .collect()
}

#[test]
fn no_arguments_passes_against_the_reference_peer() {
    let started = Instant::now();
    let out = common::wirecheck(&["run", "--format", "json"], b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let records = parsed(&out);
    // Every MCP revision was negotiated and played, not skipped.
    for revision in harness::Revision::MCP {
        let id = format!("run/{revision}/negotiation");
        let negotiation = by_vector(&records, &id);
        assert_eq!(negotiation.len(), 1, "{id}");
        assert_eq!(outcome(negotiation[0]), "pass", "{}", negotiation[0]);
    }
    assert!(records.iter().filter(|r| outcome(r) == "pass").count() > 300);
    assert!(started.elapsed() < Duration::from_secs(60));
}

/// `--transcripts DIR` writes every session the run played in the one
/// transcript format, and `wirecheck check` reads each back; the session
/// judge found nothing against the reference peer, and says where it stopped.
#[test]
fn every_session_is_written_as_a_transcript_that_check_reads() {
    let dir =
        std::env::temp_dir().join(format!("wirecheck-run-transcripts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = common::wirecheck(
        &[
            "run",
            "--revision",
            "2025-06-18",
            "--format",
            "json",
            "--transcripts",
            dir.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records = parsed(&out);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the folder was made")
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 2, "{files:?}");
    let mut client_frames = 0;
    for file in &files {
        let name = file.file_name().unwrap().to_str().unwrap();
        assert!(
            name.starts_with("2025-06-18.") && name.ends_with(".jsonl"),
            "{name}"
        );
        let text = std::fs::read_to_string(file).unwrap();
        client_frames += text
            .lines()
            .filter(|l| l.contains(r#""from":"client""#))
            .count();
        let checked = common::wirecheck(
            &[
                "check",
                "--revision",
                "2025-06-18",
                "--format",
                "json",
                file.to_str().unwrap(),
            ],
            b"",
        );
        // 1: the runner's probes break rules on purpose; 2 would be unreadable.
        assert_ne!(
            checked.status.code(),
            Some(2),
            "{name}: {}",
            String::from_utf8_lossy(&checked.stderr)
        );
    }
    // Every probe and its liveness ping went out in some session.
    let probes = records
        .iter()
        .filter(|r| {
            r["vector"]
                .as_str()
                .is_some_and(|v| v.starts_with("mcp/2025-06-18/"))
        })
        .filter(|r| outcome(r) != "not-applicable")
        .count();
    assert!(
        client_frames >= probes,
        "{client_frames} client frames, {probes} probes"
    );
    // The session judge: nothing against the reference peer, and where it
    // stopped judging is a record that names the transcript.
    let session: Vec<&Value> = records
        .iter()
        .filter(|r| {
            r["vector"]
                .as_str()
                .is_some_and(|v| v.starts_with("run/2025-06-18/session/"))
        })
        .collect();
    assert!(
        session.iter().all(|r| outcome(r) == "not-applicable"),
        "{session:?}"
    );
    for r in &session {
        let file = r["file"]
            .as_str()
            .expect("a written session names its file");
        assert!(files.iter().any(|f| f.to_str() == Some(file)), "{file}");
    }
    // `check --side server` keeps only what the server broke: the reference
    // peer breaks no MUST in any of them, while the runner's own probes do.
    let all: Vec<&str> = files.iter().map(|f| f.to_str().unwrap()).collect();
    let side = |s: &str| {
        let mut args = vec!["check", "--revision", "2025-06-18", "--side", s];
        args.extend(&all);
        common::wirecheck(&args, b"")
    };
    let server = side("server");
    assert_eq!(
        server.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&server.stdout)
    );
    let client = side("client");
    assert_eq!(
        client.status.code(),
        Some(1),
        "the probes break MUSTs on purpose"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_silently_dropping_peer_is_unanswered_not_passed_in_bounded_time() {
    let (out, took) = run(&fixture("drops"), &[]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The ping after each probe ends the wait: far below one timeout per probe.
    assert!(took < Duration::from_secs(30), "took {took:?}");
    let records = parsed(&out);
    let rpc_reserved = by_vector(&records, "mcp/2025-11-25/base/method-rpc-reserved");
    assert_eq!(rpc_reserved.len(), 1);
    assert_eq!(outcome(rpc_reserved[0]), "fail");
    assert!(
        rules(rpc_reserved[0]).contains(&"jsonrpc.response.required"),
        "{:?}",
        rules(rpc_reserved[0])
    );
    // Every request vector that was played failed: none passed by silence.
    let played_requests: Vec<&Value> = records
        .iter()
        .filter(|r| r["vector"].as_str().is_some_and(|v| v.starts_with("mcp/")))
        .filter(|r| !matches!(outcome(r), "not-applicable"))
        .filter(|r| rules(r).contains(&"jsonrpc.response.required"))
        .collect();
    assert!(played_requests.len() >= 3, "{}", played_requests.len());
    // Failed, or (the request before `initialize`, an `i_` vector: the MCP
    // text gives the server no MUST there) warned; never passed.
    for r in &played_requests {
        let pre_initialize = r["vector"]
            .as_str()
            .is_some_and(|v| v.ends_with("/lifecycle/request-before-initialize"));
        let expected = if pre_initialize { "warning" } else { "fail" };
        assert_eq!(outcome(r), expected, "{r}");
    }
}

#[test]
fn a_lenient_peer_is_found_by_the_malformed_unlisted_and_pre_initialize_probes() {
    // Before these probes `run` passed such a peer on everything it was sent
    // (only `fuzz` saw the drops).
    let (out, _) = run(&fixture("lenient"), &[]);
    assert_eq!(out.status.code(), Some(1));
    let records = parsed(&out);
    let verdict = |id: &str| {
        let found = by_vector(&records, &format!("mcp/2025-11-25/{id}"));
        assert_eq!(found.len(), 1, "{id}");
        outcome(found[0]).to_owned()
    };
    // Malformed input dropped in silence breaks JSON-RPC 2.0 §5.
    for id in [
        "malformed/invalid-json",
        "malformed/frame-number",
        "malformed/frame-empty-object",
        "malformed/method-not-string",
    ] {
        assert_eq!(verdict(id), "fail", "{id}");
    }
    // `[]` after batches were removed (2025-06-18): held to what any array
    // is then (A5, mcp.batch.refused-after-removal, SHOULD): a warning.
    assert_eq!(verdict("malformed/batch-empty"), "warning");
    // A request without "jsonrpc" run as JSON-RPC 1.0, answered without it.
    assert_eq!(verdict("malformed/version-missing"), "fail");
    let missing = by_vector(&records, "mcp/2025-11-25/malformed/version-missing");
    assert!(
        rules(missing[0]).contains(&"jsonrpc.version-missing"),
        "{:?}",
        rules(missing[0])
    );
    // Not-found answered with codes the pages do not name: SHOULDs, warnings.
    assert_eq!(verdict("prompts/get-unlisted"), "warning");
    assert_eq!(verdict("resources/read-unlisted"), "warning");
    // A request before initialize dropped: the text gives the server no
    // MUST there, so a warning, never a failure.
    assert_eq!(verdict("lifecycle/request-before-initialize"), "warning");
}

#[test]
fn a_crashing_peer_is_reported_and_restarted_for_the_rest() {
    let (out, _) = run(&fixture("crash-on-string-ping"), &[]);
    assert_eq!(out.status.code(), Some(1));
    let records = parsed(&out);
    let exits: Vec<&Value> = records
        .iter()
        .filter(|r| r["rule"] == "stdio.peer-exited")
        .collect();
    // Every string-id ping vector kills it again: more than one exit means
    // the suite went on with a fresh process each time.
    assert!(exits.len() >= 2, "{} exits", exits.len());
    let message = exits[0]["notes"][0].as_str().unwrap();
    assert!(message.contains("exit status: 4"), "{message}");
    // After the crashes, later vectors were still judged, and passed.
    let last_exit = records
        .iter()
        .rposition(|r| r["rule"] == "stdio.peer-exited")
        .unwrap();
    assert!(
        records[..last_exit].iter().any(|r| outcome(r) == "pass")
            && records[last_exit..].iter().any(|r| outcome(r) == "pass"),
        "nothing passed after the last restart"
    );
}

#[test]
fn a_string_id_answered_as_a_number_fails_the_id_echo_rule() {
    let (out, _) = run(&fixture("numeric-ids"), &[]);
    assert_eq!(out.status.code(), Some(1));
    let records = parsed(&out);
    let echoed = by_vector(&records, "mcp/2025-11-25/exchange/id-string-echoed");
    assert_eq!(echoed.len(), 1);
    assert_eq!(outcome(echoed[0]), "fail");
    assert!(
        rules(echoed[0]).contains(&"mcp.base.result-response-id"),
        "{:?}",
        rules(echoed[0])
    );
    // The same peer echoes number ids correctly: that vector passes.
    let integer = by_vector(&records, "mcp/2025-11-25/base/request-id-integer");
    assert_eq!(outcome(integer[0]), "pass", "{}", integer[0]);
}

#[test]
fn a_peer_that_does_not_start_or_never_answers_exits_2() {
    let (out, _) = run("/nonexistent/wirecheck-peer", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not start"));
    // Reads its input and never says a word: it never finished starting,
    // which is no protocol failure (exit 2), after the start-up timeout.
    let (out, took) = run("sh -c 'cat >/dev/null'", &["--startup-timeout", "3s"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("never finished starting"));
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

/// A server that fails to start is "could not run" with its own words: the tail
/// of its stderr, not only an exit status.
#[test]
fn a_peer_that_dies_at_start_is_could_not_run_with_its_stderr_tail() {
    let (out, _) = run(
        "sh -c 'echo \"Error: Cannot find module /srv/missing.js\" >&2; exit 1'",
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("exit status: 1"), "{stderr}");
    assert!(
        stderr.contains("its stderr ends:\n    | Error: Cannot find module /srv/missing.js"),
        "{stderr}"
    );
    // The terminal says it could not run, not that there was nothing to judge.
    let (out, _) = common_terminal_run(
        "sh -c 'echo \"Error: Cannot find module /srv/missing.js\" >&2; exit 1'",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("could not run (exit 2)"), "{stdout}");
    assert!(!stdout.contains("nothing to judge"), "{stdout}");
}

/// `wirecheck run --stdio PEER` on the terminal view, as a person runs it.
fn common_terminal_run(peer: &str) -> (std::process::Output, Duration) {
    let started = Instant::now();
    let out = common::wirecheck(&["run", "--stdio", peer, "--revision", "2025-11-25"], b"");
    (out, started.elapsed())
}

/// A server that logs to stdout breaks MCP basic/transports §stdio ("MUST NOT
/// write anything to its stdout that is not a valid MCP message") once, said
/// once with the line quoted; its answers are judged on the messages alone, not
/// failed one by one as unparseable replies (the log line taken for a reply to
/// a ping or a notification was a false finding).
#[test]
fn a_server_logging_to_stdout_is_one_finding_quoting_the_line() {
    let serve = env!("CARGO_BIN_EXE_wirecheck");
    let peer = format!(
        "sh -c '{serve} serve | while IFS= read -r l; do echo \"[info] handling request\"; printf \"%s\\n\" \"$l\"; done'"
    );
    let (out, _) = run(&peer, &[]);
    let records = parsed(&out);
    let failing: Vec<&Value> = records.iter().filter(|r| outcome(r) == "fail").collect();
    assert_eq!(failing.len(), 1, "{failing:#?}");
    let record = failing[0];
    assert_eq!(record["rule"], "stdio.stdout-text", "{record}");
    assert!(record["spec"]
        .as_str()
        .unwrap()
        .contains("MUST NOT write anything to its stdout that is not a valid MCP message"));
    assert!(
        record
            .to_string()
            .contains("stdout: [info] handling request"),
        "{record}"
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(records.iter().filter(|r| outcome(r) == "pass").count() > 100);
}

#[test]
fn stdout_text_is_told_from_a_message_cut_short() {
    use wirecheck::lines::is_stdout_text;
    assert!(is_stdout_text(b"[info] handling request"));
    assert!(is_stdout_text(b"Server started on stdio"));
    assert!(!is_stdout_text(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"res"));
    assert!(!is_stdout_text(b"[{\"jsonrpc\":\"2.0\""));
    assert!(!is_stdout_text(b"[]"));
    assert!(!is_stdout_text(b"42"));
    assert!(!is_stdout_text(b"null"));
    assert!(!is_stdout_text(b"{}x"));
    // A blank line and a structured log record are text too.
    assert!(is_stdout_text(b""));
    assert!(is_stdout_text(b"   "));
    assert!(is_stdout_text(br#"{"level":30,"time":1,"msg":"ready"}"#));
    assert!(!is_stdout_text(br#"{"id":1,"result":{}}"#));
    assert!(!is_stdout_text(
        br#"{"jsonrpc":"2.0","method":"notifications/message"}"#
    ));
    // A byte-order mark before a message is read past.
    assert!(!is_stdout_text(
        b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"
    ));
    assert!(!is_stdout_text(
        b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"res"
    ));
}

const SLOW_START: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/peers/conformant/slow_start.py"
);

/// A false finding once seen: a conformant server that takes longer than
/// `--timeout` to answer its first request (an SDK importing on a loaded
/// machine) was failed for silence ("got no reply", "stopped answering the
/// liveness ping") or not run at all. Its start-up gets `--startup-timeout`;
/// every later answer still gets `--timeout`.
#[test]
fn a_slow_starting_conformant_server_gets_no_fail_and_no_warning() {
    // A 3 s start against a 2 s answer timeout: slow enough to be a slow
    // start, with room for every later answer on a loaded CI machine.
    let peer = format!("python3 {SLOW_START} 3");
    let out = common::wirecheck(
        &[
            "run",
            "--stdio",
            &peer,
            "--revision",
            "2025-03-26",
            "--timeout",
            "2s",
            "--format",
            "json",
        ],
        b"",
    );
    let records = parsed(&out);
    let bad: Vec<&Value> = records
        .iter()
        .filter(|r| matches!(outcome(r), "fail" | "warning"))
        .collect();
    assert!(bad.is_empty(), "{bad:#?}");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(records.iter().filter(|r| outcome(r) == "pass").count() > 20);
    // The report says start-up was slow, on the first process's first answer.
    let negotiation = by_vector(&records, "run/2025-03-26/negotiation");
    assert!(
        negotiation[0]["notes"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|n| n.as_str().is_some_and(|n| n.starts_with("slow start"))),
        "{}",
        negotiation[0]
    );
}

#[test]
fn a_baseline_turns_listed_failures_known_and_a_passing_entry_stale() {
    let dir = std::env::temp_dir().join(format!("wirecheck-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (out, _) = run(&fixture("numeric-ids"), &[]);
    let records = parsed(&out);
    // One entry per subject: the session judge's records share theirs
    // (`run/<revision>/session/<rule>`), and a baseline lists each once.
    let failing: Vec<Value> = records
        .iter()
        .filter(|r| outcome(r) == "fail")
        .filter_map(|r| r["vector"].as_str().map(str::to_owned))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .map(|id| serde_json::json!({ "id": id, "reason": "numeric-ids fixture" }))
        .collect();
    // The id bug shows in the session too: the answer to `"1"` carries 1,
    // which the session judge reads as a second answer to the earlier 1.
    assert!(
        failing
            .iter()
            .any(|e| e["id"] == "run/2025-11-25/session/session.response.duplicate"),
        "{failing:?}"
    );
    assert!(!failing.is_empty());
    let all_known = dir.join("known.json");
    std::fs::write(&all_known, serde_json::to_vec(&failing).unwrap()).unwrap();
    let (out, _) = run(
        &fixture("numeric-ids"),
        &["--expected-failures", all_known.to_str().unwrap()],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(parsed(&out).iter().any(|r| outcome(r) == "known-failure"));

    let mut with_passing = failing.clone();
    with_passing.push(serde_json::json!({
        "id": "mcp/2025-11-25/base/request-id-integer",
        "reason": "listed, but it passes",
    }));
    let stale = dir.join("stale.json");
    std::fs::write(&stale, serde_json::to_vec(&with_passing).unwrap()).unwrap();
    let (out, _) = run(
        &fixture("numeric-ids"),
        &["--expected-failures", stale.to_str().unwrap()],
    );
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(1));
    let records = parsed(&out);
    let entry = by_vector(&records, "mcp/2025-11-25/base/request-id-integer");
    assert_eq!(outcome(entry[0]), "stale");
}

/// `--write-baseline F` lists every defect of the run that fails it, one
/// entry per defect (its fingerprint and revisions), each reason a TODO
/// naming the rule, level, citation and sentence; a second run with
/// `--expected-failures F` passes (exit 0), every former failure now a
/// known failure. Written again from that run, the baseline keeps its
/// reasons: the same file.
#[test]
fn a_written_baseline_lists_every_failure_and_reads_back() {
    let dir = std::env::temp_dir().join(format!("wirecheck-write-baseline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let written = dir.join("baseline.json");
    let (out, _) = run(
        &fixture("numeric-ids"),
        &["--write-baseline", written.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1), "the fixture fails");
    let records = parsed(&out);
    let failing: std::collections::BTreeSet<String> = records
        .iter()
        .filter(|r| outcome(r) == "fail")
        .map(|r| {
            r["vector"]
                .as_str()
                .expect("a failure names its subject")
                .to_owned()
        })
        .collect();
    assert!(failing.len() > 1, "{failing:?}");
    let text = std::fs::read_to_string(&written).expect("the baseline is written");
    let baseline = wirecheck::baseline::Baseline::parse(&text, &written).expect("it reads back");
    // It says what it wrote, and that the reasons are still to be read.
    let said = String::from_utf8_lossy(&out.stderr);
    let n = baseline.entries.len();
    assert!(
        said.contains(&format!("wrote {n} entries, one per defect"))
            && said.contains(&format!("{n} with the reason TODO")),
        "{said}"
    );
    assert!(
        n > 1 && n < failing.len(),
        "fewer defects than failing checks: {text}"
    );
    let prints: Vec<&str> = baseline
        .entries
        .iter()
        .map(|e| e.defect.as_deref().expect("a defect's entry"))
        .collect();
    let mut sorted = prints.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(prints, sorted, "one entry per defect, sorted");
    for entry in &baseline.entries {
        assert!(entry.id.is_empty() && entry.part.is_none());
        assert_eq!(entry.revisions, ["2025-11-25"], "{entry:?}");
        assert!(
            entry.reason.starts_with(wirecheck::baseline::TODO),
            "{entry:?}"
        );
        let rule = entry.defect.as_deref().unwrap().split('/').next().unwrap();
        assert!(
            entry.reason.contains(&format!("rule {rule}, ")),
            "{entry:?}"
        );
        assert!(entry.reason.contains(", MUST, "), "{entry:?}");
    }

    let again = dir.join("again.json");
    let (out, _) = run(
        &fixture("numeric-ids"),
        &[
            "--expected-failures",
            written.to_str().unwrap(),
            "--write-baseline",
            again.to_str().unwrap(),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // A baseline still holding TODO reasons is loaded with a warning.
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("still have a TODO reason"), "{said}");
    let records = parsed(&out);
    assert!(!records
        .iter()
        .any(|r| outcome(r) == "fail" || outcome(r) == "stale"));
    for id in &failing {
        let known = by_vector(&records, id);
        assert!(!known.is_empty());
        assert!(
            known.iter().any(|r| outcome(r) == "known-failure"),
            "{id}: {known:?}"
        );
    }
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A live run's SARIF, as GitHub code scanning takes it: every result has a
/// file to show (a defect a session showed, the transcript `--transcripts`
/// wrote; one no file shows, its fingerprint under a base that says it is
/// no file; never wirecheck's own vector files) and fingerprints that a
/// second run of the same server repeats exactly.
#[test]
fn a_runs_sarif_locates_every_result_and_fingerprints_it_stably() {
    let dir = std::env::temp_dir().join(format!("wirecheck-run-sarif-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut runs = Vec::new();
    for n in 0..2 {
        let sarif = dir.join(format!("{n}.sarif"));
        let transcripts = dir.join(format!("t{n}"));
        let (out, _) = run(
            &fixture("numeric-ids"),
            &[
                "--sarif",
                sarif.to_str().unwrap(),
                "--transcripts",
                transcripts.to_str().unwrap(),
            ],
        );
        assert_eq!(out.status.code(), Some(1));
        let log: Value = serde_json::from_slice(&std::fs::read(&sarif).unwrap()).unwrap();
        let results = log["runs"][0]["results"].as_array().unwrap().clone();
        assert!(!results.is_empty());
        let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut session_files = 0;
        for result in &results {
            let artifact = &result["locations"][0]["physicalLocation"]["artifactLocation"];
            let uri = artifact["uri"].as_str().expect("every result has a uri");
            assert!(
                !uri.contains("conformance/vectors"),
                "never wirecheck's own files: {uri}"
            );
            if artifact["uriBaseId"] == "WIRECHECK_SUBJECT" {
                // A defect no file of the user's shows: said to be no file.
                assert!(fingerprint(result).is_some(), "{result}");
                continue;
            }
            let file = match uri.strip_prefix("file://") {
                Some(path) => std::path::PathBuf::from(path),
                None => repo.join(uri),
            };
            assert!(file.is_file(), "{uri} names no file: {result}");
            if uri.ends_with(".jsonl") {
                session_files += 1;
                assert!(file.starts_with(&transcripts), "{uri}");
            }
            assert!(fingerprint(result).is_some(), "{result}");
        }
        assert!(session_files > 0, "a session finding names its transcript");
        let prints: std::collections::BTreeSet<String> = results
            .iter()
            .map(|r| fingerprint(r).unwrap_or_default().to_owned())
            .collect();
        assert_eq!(prints.len(), results.len(), "one alert per finding");
        runs.push(prints);
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(runs[0], runs[1], "the same findings, the same alerts");
}

/// A SARIF result's fingerprint: its defect's, or (a record no defect
/// holds, such as a stale entry) its finding's.
fn fingerprint(result: &Value) -> Option<&str> {
    let prints = &result["partialFingerprints"];
    prints["wirecheckDefect/v1"]
        .as_str()
        .or_else(|| prints["wirecheckFinding/v1"].as_str())
}

#[test]
fn the_embedded_vectors_are_the_vectors_on_disk() {
    let (embedded, errors) = wirecheck::vectors::embedded();
    assert!(errors.is_empty(), "{errors:?}");
    let (on_disk, errors) = wirecheck::vectors::load_all(&wirecheck::vectors::default_root());
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(embedded.len(), on_disk.len());
    for (e, d) in embedded.iter().zip(&on_disk) {
        assert_eq!(e.id, d.id);
        assert_eq!(e.frame, d.frame);
        assert_eq!(e.answer, d.answer);
    }
}

#[test]
fn a_listed_tool_is_called_only_when_the_user_allows_it() {
    // The fixture exits the moment anything calls its one tool.
    let (out, _) = run(&fixture("tool-tripwire"), &[]);
    let records = parsed(&out);
    assert!(
        !records.iter().any(|r| r["rule"] == "stdio.peer-exited"),
        "a tool was called without --allow-tool"
    );
    let call = by_vector(&records, "mcp/2025-11-25/tools/call");
    assert_eq!(outcome(call[0]), "not-applicable");
    assert!(call[0]["outcome"]["why"]
        .as_str()
        .is_some_and(|w| w.contains("--allow-tool")));
    // A never-issued cursor answered with a page (the fixture ignores it) is
    // a warning, neither a pass nor a failure: Invalid cursors SHOULD give
    // -32602 (server/utilities/pagination §Error Handling); a list whose
    // capability the server did not declare is not asked.
    let tools = by_vector(&records, "mcp/2025-11-25/tools/list-with-invalid-cursor");
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0]["rule"], "mcp.error.invalid-cursor");
    assert_eq!(outcome(tools[0]), "warning", "{}", tools[0]);
    let prompts = by_vector(&records, "mcp/2025-11-25/prompts/list-with-invalid-cursor");
    assert_eq!(outcome(prompts[0]), "not-applicable", "{}", prompts[0]);

    let (out, _) = run(
        &fixture("tool-tripwire"),
        &["--allow-tool", "echo", "--tool-args", r#"{"text":"hi"}"#],
    );
    let records = parsed(&out);
    assert!(!by_vector(&records, "run/2025-11-25/tools-call/echo").is_empty());
    assert!(records.iter().any(|r| r["rule"] == "stdio.peer-exited"));
    // `ECHO` is no tool it lists, yet it answers with a result: it took the
    // name without its case (server/tools §Tool Names, SHOULD: a warning).
    let case = by_vector(&records, "run/2025-11-25/tools-call-case/echo");
    assert_eq!(case.len(), 1, "one case probe of the allowed tool");
    assert_eq!(case[0]["rule"], "mcp.tools.name-case-sensitive");
    assert_eq!(outcome(case[0]), "warning", "{}", case[0]);
}

/// `--out`, `--sarif` and `--html` write the run as the one document (which
/// reads back), a SARIF log and a page, each from the same report; a check
/// that answers a record's rule is the rule that mandates the answer.
#[test]
fn the_run_is_written_as_a_document_sarif_and_html() {
    let dir = std::env::temp_dir().join(format!("wirecheck-run-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (doc, sarif, html) = (
        dir.join("run.json"),
        dir.join("run.sarif"),
        dir.join("run.html"),
    );
    let out = common::wirecheck(
        &[
            "run",
            "--profile",
            "jsonrpc-2.0",
            "--format",
            "json",
            "--out",
            doc.to_str().unwrap(),
            "--sarif",
            sarif.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = wirecheck::report::Report::read_json(&doc).expect("the run document reads back");
    assert_eq!(report.records.len(), parsed(&out).len());
    let log: Value = serde_json::from_slice(&std::fs::read(&sarif).unwrap()).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.starts_with("<!DOCTYPE html>"),
        "{}",
        &page[..page.len().min(80)]
    );
    // A record names the rule that mandates the answer, not the vector's
    // first rule: `y_id-integer` is about the request's id type
    // (`jsonrpc.id-type`), and its answer is mandated by the id echo.
    let records = parsed(&out);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/vectors/jsonrpc-2.0/request/y_id-integer.json"
    );
    let vector: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mandated = vector["mandated_by"]["rule"]
        .as_str()
        .expect("the vector names its basis");
    assert_ne!(
        vector["rules"][0]["id"], mandated,
        "the case must tell the two apart"
    );
    let record = by_vector(&records, "jsonrpc-2.0/request/id-integer");
    assert_eq!(record.len(), 1);
    assert_eq!(record[0]["rule"], mandated);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A frame that should get no reply once passed when the peer hung on it (the
/// liveness ping unanswered too). Silence from a peer that is not answering
/// shows nothing: not observed, never a pass.
#[test]
fn silence_after_a_notification_that_hung_the_peer_is_not_observed() {
    let peer = format!(
        "python3 {}/tests/fixtures/hangs_on_notification.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = common::wirecheck(
        &[
            "run",
            "--stdio",
            &peer,
            "--revision",
            "2025-11-25",
            "--timeout",
            "1s",
            "--format",
            "json",
        ],
        b"",
    );
    let records = parsed(&out);
    let cancelled = by_vector(&records, "mcp/2025-11-25/cancellation/cancelled");
    assert!(!cancelled.is_empty());
    assert!(
        cancelled.iter().all(|r| outcome(r) != "pass"),
        "{cancelled:#?}"
    );
    assert!(
        cancelled.iter().any(|r| outcome(r) == "not-observed"),
        "{cancelled:#?}"
    );
}

/// Ambiguity A2 (`"id": null` in an error, which no MCP schema allows, for a
/// frame whose id could not be read) is said once per run, in the summary and
/// in the run document's `ambiguities`, and is never a warning on an exchange.
#[test]
fn ambiguity_a2_is_said_once_per_run_not_per_exchange() {
    let dir = std::env::temp_dir().join(format!("wirecheck-run-a2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let doc = dir.join("run.json");
    let out = common::wirecheck(
        &[
            "run",
            "--revision",
            "2025-06-18",
            "--format",
            "json",
            "--out",
            doc.to_str().unwrap(),
        ],
        b"",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let records = parsed(&out);
    let a2 = |r: &&Value| {
        r["rule"] == "mcp.base.error-id-null"
            || r["violations"]
                .as_array()
                .is_some_and(|vs| vs.iter().any(|v| v["rule"] == "mcp.base.error-id-null"))
    };
    let warned: Vec<&Value> = records.iter().filter(a2).collect();
    assert!(warned.is_empty(), "{warned:#?}");
    // The reference peer breaks no SHOULD under 2025-06-18: A2 was its only
    // warning, on every exchange that carried it.
    let warnings: Vec<&Value> = records.iter().filter(|r| outcome(r) == "warning").collect();
    assert!(warnings.is_empty(), "{warnings:#?}");
    assert_eq!(stderr.matches("ambiguity A2").count(), 1, "{stderr}");
    let text = std::fs::read_to_string(&doc).unwrap();
    let document: Value = serde_json::from_str(&text).unwrap();
    let schema = |name: &str| -> Value {
        let path = format!("{}/schemas/{name}", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let registry = jsonschema::Registry::new()
        .add(
            "https://wirecheck.invalid/schemas/record.schema.json",
            schema("record.schema.json"),
        )
        .unwrap()
        .prepare()
        .unwrap();
    let validator = jsonschema::options()
        .with_registry(&registry)
        .build(&schema("report.schema.json"))
        .unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&document)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let ambiguities = document["ambiguities"]
        .as_array()
        .expect("ambiguities listed");
    assert_eq!(ambiguities.len(), 1, "{ambiguities:?}");
    assert_eq!(ambiguities[0]["rule"], "mcp.base.error-id-null");
    assert!(ambiguities[0]["count"].as_u64().unwrap() >= 1);
    let report = wirecheck::report::Report::read_json(&doc).expect("the run document reads back");
    assert_eq!(report.ambiguities.len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A process that said nothing after its first probe may have hung on that
/// probe rather than never started (plain JSON-RPC has no handshake). A fresh
/// process asked only the liveness request answers, so the run is made (exit 1,
/// the hang reported), never "could not run".
#[test]
fn a_peer_that_hangs_on_its_first_probe_is_failed_not_could_not_run() {
    let marker = std::env::temp_dir().join(format!("wirecheck-hang-once-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let peer = format!(
        "python3 {}/tests/fixtures/hangs_on_first_frame.py {}",
        env!("CARGO_MANIFEST_DIR"),
        marker.display()
    );
    let out = common::wirecheck(
        &[
            "run",
            "--profile",
            "jsonrpc-2.0",
            "--stdio",
            &peer,
            "--timeout",
            "1s",
            "--startup-timeout",
            "3s",
            "--format",
            "json",
        ],
        b"",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("never finished starting"), "{stderr}");
    let records = parsed(&out);
    assert!(records.iter().any(|r| outcome(r) == "fail"), "{records:#?}");
    let _ = std::fs::remove_file(&marker);
}

/// 2026-07-28 stdio §Shutdown, SHOULD: "Servers SHOULD exit promptly when
/// their standard input is closed". A process that exits within a second of
/// EOF exits promptly; the zoo's Python servers (0.11 to 0.17 s by hand)
/// were warned on a loaded machine when the runner gave them 500 ms. A
/// process that outlives the grace is still warned.
#[test]
fn a_process_exiting_within_a_second_of_eof_exits_promptly() {
    let bin = env!("CARGO_BIN_EXE_wirecheck");
    let exit_on_eof = |peer: &str| {
        let out = common::wirecheck(
            &[
                "run",
                "--stdio",
                peer,
                "--revision",
                "2026-07-28",
                "--format",
                "json",
            ],
            b"",
        );
        let records = parsed(&out);
        let record = by_vector(&records, "run/2026-07-28/stdio/exit-on-eof")
            .first()
            .map(|r| outcome(r).to_owned());
        (record, out)
    };
    let (prompt, out) = exit_on_eof(&format!("sh -c '{bin} serve; sleep 0.8'"));
    assert_eq!(
        prompt.as_deref(),
        Some("pass"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let (late, out) = exit_on_eof(&format!("sh -c '{bin} serve; sleep 10'"));
    assert_eq!(
        late.as_deref(),
        Some("warning"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A process that answers `ping` but drops its handshake request started:
/// the revision fails under JSON-RPC 2.0 §5's "the Server MUST reply with a
/// Response" (exit 1), where the whole run used to end as "could not run"
/// (exit 2), losing every other revision (the zoo's rust-mcp-filesystem
/// drops `server/discover`).
#[test]
fn a_live_process_that_drops_its_handshake_fails_the_revision_not_the_run() {
    let peer = format!(
        "python3 {}/tests/fixtures/drops_handshake.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = common::wirecheck(
        &[
            "run",
            "--stdio",
            &peer,
            "--revision",
            "2025-06-18",
            "--timeout",
            "2s",
            "--startup-timeout",
            "3s",
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records = parsed(&out);
    let failed: Vec<&Value> = records.iter().filter(|r| outcome(r) == "fail").collect();
    assert_eq!(failed.len(), 1, "{failed:#?}");
    assert_eq!(failed[0]["vector"], "run/2025-06-18/negotiation");
    assert!(
        rules(failed[0]).contains(&"jsonrpc.response.required"),
        "{:?}",
        rules(failed[0])
    );
}

/// Ctrl-C prints what was judged so far (and exits 2: an interrupted run is no
/// verdict), and leaves no peer process behind.
#[test]
fn ctrl_c_reports_what_was_judged_so_far() {
    // Over HTTP: over stdio the whole run of the reference peer now takes less
    // than the 800 ms before the interrupt.
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_wirecheck"))
        .args(["run", "--revision", "all", "--reference-http"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(800));
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
    assert!(stderr.contains("interrupted (Ctrl-C) after"), "{stderr}");
    assert!(
        stdout.contains("wirecheck run:"),
        "the tally of what was judged: {stdout}"
    );
    assert!(stdout.contains("not whole (exit 2)"), "{stdout}");
}

/// A fresh scratch folder, and the reference peer (`serve ARGS`) as a plain
/// command whose every process notes its start in the folder's `starts`
/// before becoming the peer: (folder, starts, transcripts, command).
fn counted_peer(
    name: &str,
    args: &str,
) -> (
    std::path::PathBuf,
    std::path::PathBuf,
    std::path::PathBuf,
    String,
) {
    let dir = std::env::temp_dir().join(format!("wirecheck-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let starts = dir.join("starts");
    let peer = format!(
        "sh -c 'echo started >> {}; exec {} serve {args}'",
        starts.display(),
        env!("CARGO_BIN_EXE_wirecheck")
    );
    (dir.clone(), starts, dir.join("transcripts"), peer)
}

/// The runner's own speed: over stdio, vectors that would each get a fresh
/// process for the same bytes share one (`plan::share_twins`). Every session
/// the judges read is still there (a transcript each, the shared one once per
/// vector), but fewer processes start than that.
#[test]
fn over_stdio_twins_share_one_process_and_every_session_is_still_judged() {
    let (dir, starts, transcripts, peer) = counted_peer("twins", "--revision 2025-06-18");
    let out = common::wirecheck(
        &[
            "run",
            "--stdio",
            &peer,
            "--revision",
            "2025-06-18",
            "--transcripts",
            transcripts.to_str().unwrap(),
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records = parsed(&out);
    // `initialize` and its result, pinned by two vectors, both judged.
    for id in [
        "mcp/2025-06-18/lifecycle/initialize",
        "mcp/2025-06-18/lifecycle/initialize-result",
    ] {
        assert_eq!(outcome(by_vector(&records, id)[0]), "pass", "{id}");
    }
    let started = std::fs::read_to_string(&starts).unwrap().lines().count();
    let judged = std::fs::read_dir(&transcripts).unwrap().count();
    assert!(
        started < judged,
        "{started} processes for {judged} judged sessions"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The runner's own speed: an opening frame several revisions send byte for
/// byte (`tools/list` before `initialize`) to a fresh process of the same
/// command is played once and judged under each revision
/// (`plan::opening_experiment`): the four revisions' records carry one
/// exchange, to the microsecond, where four processes would each have had their
/// own timing. The reference peer is given as a plain command, so it is not
/// told the revision (`wirecheck serve` negotiates).
#[test]
fn an_opening_frame_several_revisions_send_is_played_once_and_judged_under_each() {
    let (dir, starts, transcripts, peer) = counted_peer("openings", "");
    let document = dir.join("run.json");
    let out = common::wirecheck(
        &[
            "run",
            "--stdio",
            &peer,
            "--transcripts",
            transcripts.to_str().unwrap(),
            "--out",
            document.to_str().unwrap(),
            "--format",
            "json",
        ],
        b"",
    );
    // A run was made (a verdict elsewhere may be load's: this test is
    // about what was shared, not about every verdict).
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The document keeps each record's wire log, with its timings.
    let document: Value =
        serde_json::from_str(&std::fs::read_to_string(&document).unwrap()).unwrap();
    let records = document["records"].as_array().unwrap().clone();
    let wires: Vec<&Value> = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
        .iter()
        .map(|r| {
            let id = format!("mcp/{r}/lifecycle/request-before-initialize");
            let record = by_vector(&records, &id)[0];
            assert_eq!(outcome(record), "pass", "{id}");
            &record["wire"]
        })
        .collect();
    assert!(wires[0].as_array().is_some_and(|w| !w.is_empty()));
    assert!(wires.iter().all(|w| *w == wires[0]), "{wires:?}");
    // Each revision's session judge still read the session.
    let started = std::fs::read_to_string(&starts).unwrap().lines().count();
    let judged = std::fs::read_dir(&transcripts).unwrap().count();
    assert!(
        started < judged,
        "{started} processes for {judged} judged sessions"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
