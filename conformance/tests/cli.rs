//! The `wirecheck` binary as a user runs it: output format and exit codes.

mod common;

use common::{records, wirecheck};

#[test]
fn roundtrip_writes_one_json_line_per_frame() {
    let input = b"{\"jsonrpc\":\"2.0\",\"id\":1.0,\"method\":\"ping\"}\n\n{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}\n";
    let out = wirecheck(&["roundtrip", "-q"], input);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(stdout
        .starts_with("{\"line\":1,\"ok\":{\"jsonrpc\":\"2.0\",\"id\":1.0,\"method\":\"ping\"}}\n"));
    let records = records(&out);
    assert_eq!(records.len(), 2);
    assert_eq!(records[1]["line"], 3);
    assert_eq!(records[1]["refused"]["rule"], "jsonrpc.id-type");
    assert_eq!(records[1]["refused"]["pointer"], "/id");
    assert_eq!(records[1]["refused"]["code"], -32600);
}

#[test]
fn exit_codes_mean_something() {
    let clean = wirecheck(
        &["roundtrip", "-q"],
        b"{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n",
    );
    assert_eq!(clean.status.code(), Some(0));
    let missing = wirecheck(&["roundtrip", "/nonexistent/frames.jsonl"], b"");
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("cannot open /nonexistent/frames.jsonl")
    );
    let usage = wirecheck(&["roundtrip", "--no-such-flag"], b"");
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn hostile_lines_get_refusals_not_crashes() {
    let mut input = Vec::new();
    input.extend_from_slice(&b"[".repeat(10_000));
    input.push(b'\n');
    input.extend_from_slice(b"\xff\xfe\xfd\n");
    input.extend_from_slice(&[b' '; 100]);
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"method\":\"");
    input.extend_from_slice(&vec![b'a'; 30_000]);
    input.extend_from_slice(b"\"}\n");
    let out = wirecheck(&["roundtrip", "-q", "--max-frame", "20000"], &input);
    assert_eq!(out.status.code(), Some(1));
    let records = records(&out);
    let rules: Vec<&str> = records
        .iter()
        .map(|r| r["refused"]["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        ["json.depth-limit", "json.utf8", "json.frame-too-large"]
    );
}

#[test]
fn a_sixteen_mebibyte_line_is_handled() {
    let blob = "QUJD".repeat(4 << 20);
    let frame = format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"{blob}\"}}\n");
    let out = wirecheck(&["roundtrip", "-q"], frame.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout.len(), frame.len() + "{\"line\":1,\"ok\":}".len());
}

/// A fresh directory under the system's temporary one, removed on drop: tests
/// never write into the source tree.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("wirecheck-{name}-{}", std::process::id()));
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

/// A file of frames that hits every kind of record: a clean frame, invalid
/// UTF-8, JSON escapes of a lone surrogate and NUL beside `]]>`, a SHOULD-level
/// id, a CRLF line, a blank line, a line over `--max-frame 100`, a response
/// and a refused id.
const AWKWARD: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n\xff\xfe\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":{\"a\":\"\\ud800 \\u0000 ]]> <x>\"}}\n{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"a\"}\r\n   \n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}";

/// Today's JSON-lines output, byte for byte, and the summary on standard
/// error: the report model and its views must not change a single byte of
/// what `roundtrip` and `classify` print. The expected bytes were recorded
/// from the binary before the report model existed.
#[test]
fn json_lines_are_pinned_byte_for_byte() {
    let scratch = Scratch::new("pinned");
    // A name that JSON must escape, and one that it need not.
    std::fs::write(scratch.0.join("we\"ird é.jsonl"), AWKWARD).unwrap();
    std::fs::write(
        scratch.0.join("b.jsonl"),
        "[1,2\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n",
    )
    .unwrap();
    let transcript = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/transcript.jsonl"
    ))
    .unwrap();
    let stdin = b"{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"method\":\"ping\"}\n\x1b[31m\n";
    let cases: [(&str, &[&str], &[u8], i32); 5] = [
        ("roundtrip-transcript", &["roundtrip"], &transcript, 1),
        (
            "roundtrip-files",
            &[
                "roundtrip",
                "--max-frame",
                "100",
                "we\"ird é.jsonl",
                "-",
                "b.jsonl",
            ],
            stdin,
            1,
        ),
        (
            "classify-transcript",
            &["classify", "--revision", "2025-06-18", "--from", "server"],
            &transcript,
            1,
        ),
        (
            "classify-files",
            &[
                "classify",
                "--revision",
                "jsonrpc-2.0",
                "--strict",
                "--max-frame",
                "100",
                "we\"ird é.jsonl",
                "b.jsonl",
            ],
            b"",
            1,
        ),
        (
            "roundtrip-missing",
            &["roundtrip", "b.jsonl", "/nonexistent/x.jsonl"],
            b"",
            2,
        ),
    ];
    let pinned = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/common/pinned"));
    for (name, args, stdin, code) in cases {
        let out = common::wirecheck_in(&scratch.0, args, stdin);
        let stdout = std::fs::read(pinned.join(format!("{name}.stdout"))).unwrap();
        let stderr = std::fs::read(pinned.join(format!("{name}.stderr"))).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&stdout),
            "{name}: standard output"
        );
        assert_eq!(out.stdout, stdout, "{name}: standard output, as bytes");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&stderr),
            "{name}: standard error"
        );
        assert_eq!(out.status.code(), Some(code), "{name}: exit code");
    }
}

/// Every line of every pinned output matches the committed record schema, and
/// the schema is strict enough to refuse what no command writes.
#[test]
fn pinned_records_match_the_schema_and_it_refuses_others() {
    let schema = common::record_schema();
    let pinned = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/common/pinned"));
    let mut seen = 0;
    for entry in std::fs::read_dir(pinned).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "stdout") {
            for line in std::fs::read_to_string(&path).unwrap().lines() {
                // The codec keeps a lone surrogate escape verbatim (RFC 8259
                // §8.2 allows it); serde_json cannot parse one, so that record
                // cannot be checked with it.
                if line.contains("\\ud800") {
                    continue;
                }
                common::assert_schema_valid(&schema, &serde_json::from_str(line).unwrap());
                seen += 1;
            }
        }
    }
    assert!(seen >= 30, "only {seen} pinned records");
    for bad in [
        r#"{"line":1}"#,
        r#"{"line":1,"ok":{},"violations":[]}"#,
        r#"{"line":0,"ok":{}}"#,
        r#"{"line":1,"ok":{},"extra":1}"#,
        r#"{"line":1,"violations":[{"rule":"x.y","level":"MUSTN'T","spec":"s","pointer":"","message":""}]}"#,
        r#"{"line":1,"refused":{"code":-1,"rule":"json.syntax","pointer":"","message":"","spec":"s","line":1,"column":1}}"#,
    ] {
        let value: serde_json::Value = serde_json::from_str(bad).unwrap();
        assert!(!schema.is_valid(&value), "the schema accepts {bad}");
    }
}

/// Frames that would break a careless XML writer: NUL, an ANSI escape, `]]>`,
/// markup, a lone surrogate escape, bytes that are not UTF-8.
const XML_HOSTILE: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":{\"a\":\"\x00\x1b[31m]]></testcase><x>&amp;\"},\"method\":\"ping\"}\n\xed\xa0\x80\xff]]>\x00\n{\"jsonrpc\":\"2.0\",\"method\":\"\\ud800 ]]> \\u0000\"}\n{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"a\"}\n";

/// Reads `xml` with a strict parser: every event, every text unescaped.
/// Returns the testcase names, the failure count and all unescaped text.
fn parse_junit(xml: &str) -> (Vec<String>, usize, String) {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    reader.config_mut().check_end_names = true;
    let (mut names, mut failures, mut text) = (Vec::new(), 0, String::new());
    loop {
        match reader
            .read_event()
            .expect("the JUnit output is well-formed XML")
        {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => {
                for attr in e.attributes() {
                    let attr = attr.expect("attributes are well-formed");
                    let value = attr
                        .decoded_and_normalized_value(
                            quick_xml::XmlVersion::Explicit1_0,
                            reader.decoder(),
                        )
                        .expect("attribute values unescape")
                        .into_owned();
                    if e.name().as_ref() == b"testcase" && attr.key.as_ref() == b"name" {
                        names.push(value.clone());
                    }
                    text.push_str(&value);
                    text.push('\n');
                }
                if e.name().as_ref() == b"failure" {
                    failures += 1;
                }
            }
            Event::Text(t) => {
                text.push_str(&t.decode().expect("text decodes"));
                text.push('\n');
            }
            Event::GeneralRef(r) => {
                // `&lt;` and friends arrive as references in quick-xml 0.38+.
                text.push_str(&format!("&{};", r.decode().unwrap()));
            }
            Event::CData(c) => text.push_str(&String::from_utf8_lossy(&c)),
            _ => {}
        }
    }
    (names, failures, text)
}

#[test]
fn junit_is_valid_xml_whatever_the_frames_hold() {
    let scratch = Scratch::new("junit");
    std::fs::write(scratch.0.join("in]]>&<.jsonl"), XML_HOSTILE).unwrap();
    for (args, failures) in [
        (
            &["roundtrip", "-q", "--junit", "out.xml", "in]]>&<.jsonl"][..],
            2,
        ),
        (
            &[
                "classify",
                "-q",
                "--revision",
                "2025-06-18",
                "--junit",
                "out.xml",
                "in]]>&<.jsonl",
            ][..],
            // MCP forbids the fractional id outright.
            3,
        ),
        (
            &[
                "classify",
                "-q",
                "--strict",
                "--revision",
                "jsonrpc-2.0",
                "--junit",
                "out.xml",
                "in]]>&<.jsonl",
            ][..],
            3,
        ),
    ] {
        let out = common::wirecheck_in(&scratch.0, args, b"");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let xml = std::fs::read_to_string(scratch.0.join("out.xml")).unwrap();
        assert!(!xml.contains('\0') && !xml.contains('\x1b'), "{xml}");
        let (names, got_failures, text) = parse_junit(&xml);
        assert_eq!(
            names,
            [
                "in]]>&<.jsonl:1",
                "in]]>&<.jsonl:2",
                "in]]>&<.jsonl:3",
                "in]]>&<.jsonl:4"
            ],
            "{args:?}: {xml}"
        );
        assert_eq!(got_failures, failures, "{args:?}: {xml}");
        // What the peer sent survives, made visible rather than dropped.
        assert!(
            text.contains("\\u{0000}\\u{001B}[31m]]"),
            "{args:?}: {text}"
        );
        assert!(text.contains("\\xED\\xA0\\x80\\xFF]]"), "{args:?}: {text}");
        assert!(text.contains("\\ud800 ]]"), "{args:?}: {text}");
        // The JSON lines on standard output are untouched by --junit.
        assert_eq!(out.stdout.iter().filter(|b| **b == b'\n').count(), 4);
    }
}

#[test]
fn markdown_summary_has_the_tally_and_the_failures() {
    let scratch = Scratch::new("markdown");
    std::fs::write(scratch.0.join("t.jsonl"), XML_HOSTILE).unwrap();
    let out = common::wirecheck_in(
        &scratch.0,
        &[
            "classify",
            "-q",
            "--revision",
            "jsonrpc-2.0",
            "--markdown",
            "s.md",
            "t.jsonl",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let md = std::fs::read_to_string(scratch.0.join("s.md")).unwrap();
    assert!(md.starts_with("# wirecheck classify\n"), "{md}");
    assert!(
        md.contains("| pass | 1 |\n| fail | 2 |\n| warning | 1 |\n"),
        "{md}"
    );
    assert!(md.contains("## Failing records (2)"), "{md}");
    assert!(md.contains("t.jsonl:2 — fail"), "{md}");
    assert!(
        !md.contains("t.jsonl:4 — "),
        "a warning does not fail a lenient run: {md}"
    );
    assert!(!md.contains("</testcase>") && !md.contains('\0'), "{md}");
    let unwritable = common::wirecheck_in(
        &scratch.0,
        &[
            "roundtrip",
            "-q",
            "--markdown",
            "/nonexistent/s.md",
            "t.jsonl",
        ],
        b"",
    );
    assert_eq!(unwritable.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unwritable.stderr).contains("cannot write /nonexistent/s.md"));
}

#[test]
fn terminal_format_is_plain_off_a_terminal_and_escapes_peer_text() {
    let out = wirecheck(
        &["roundtrip", "--format", "terminal"],
        b"{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\x1b]0;pwned\x07\x1b[2J\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\x1b') && !text.contains('\x07'), "{text:?}");
    assert!(
        text.starts_with("PASS           standard input:1\nFAIL           standard input:2\n"),
        "{text}"
    );
    assert!(
        text.contains("frame: \\u{001B}]0;pwned\\u{0007}\\u{001B}[2J"),
        "{text}"
    );
    assert!(
        text.ends_with("wirecheck roundtrip: 1 pass 1 fail\n"),
        "{text}"
    );
    assert!(
        out.stderr.is_empty(),
        "the terminal view carries its own tally"
    );
}

#[test]
fn a_malformed_baseline_is_refused_before_anything_is_played_and_said_once() {
    let dir = Scratch::new("bad-baseline");
    let bad = dir.0.join("baseline.json");
    std::fs::write(&bad, "{\"bad\":").unwrap();
    let out = wirecheck(&["run", "--expected-failures", bad.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Nothing was played: no check passed or failed before the refusal.
    assert!(
        !stdout.contains(" pass"),
        "played before refusing: {stdout}"
    );
    // The cause, named once, on standard error only.
    assert_eq!(
        stderr.matches("not a JSON list of entries").count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("baseline.json"), "{stderr}");
    assert!(!stdout.contains("not a JSON list of entries"), "{stdout}");
}

#[test]
fn a_wrong_revision_names_the_valid_ones() {
    let out = wirecheck(&["run", "--revision", "1999"], b"");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    // clap refuses it before anything runs, listing what `--revision` takes.
    assert!(
        stderr.contains(
            "[possible values: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28, auto, all]"
        ),
        "{stderr}"
    );
    let fuzz = wirecheck(&["fuzz", "--revision", "1999", "--duration", "1s"], b"");
    assert_eq!(fuzz.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&fuzz.stderr).contains(
            "[possible values: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28]"
        ),
        "{}",
        String::from_utf8_lossy(&fuzz.stderr)
    );
}

#[test]
fn a_transcript_without_a_frame_cannot_be_judged() {
    let dir = Scratch::new("empty-transcript");
    let empty = dir.0.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let out = wirecheck(&["check", empty.to_str().unwrap()], b"");
    assert_eq!(
        out.status.code(),
        Some(2),
        "nothing observed is never a pass"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("no frame to judge"));
}

/// A load or a fuzz run of nothing (no request, no time, no wait), or a run
/// whose every wait is none, would judge nothing (or hold a server to an
/// answer in no time): refused as a usage error that names the flag.
#[test]
fn a_load_or_fuzz_run_of_nothing_is_refused() {
    let cases = [
        ("load", "--requests", "0"),
        ("load", "--duration", "0s"),
        ("load", "--timeout", "0ms"),
        ("load", "--sessions", "0"),
        ("load", "--concurrency", "0"),
        ("fuzz", "--frames", "0"),
        ("fuzz", "--duration", "0s"),
        ("fuzz", "--timeout", "0s"),
        ("run", "--timeout", "0s"),
        // Below 100ms the clock, not the server, decides: `--timeout 1ms`
        // failed hundreds of MUSTs the reference peer keeps.
        ("run", "--timeout", "1ms"),
        ("run", "--timeout", "99ms"),
        ("run", "--startup-timeout", "0ms"),
        ("diff", "--timeout", "0s"),
    ];
    for (command, flag, value) in cases {
        let out = wirecheck(&[command, flag, value], b"");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{command} {flag} {value}: {stderr}"
        );
        assert!(stderr.contains(flag), "{command} {flag}: {stderr}");
    }
}

/// A load whose time ran out while its sessions opened sent nothing under
/// load, so nothing was judged: it could not run (exit 2), said.
#[test]
fn a_load_that_sent_nothing_could_not_run() {
    let out = wirecheck(&["load", "--duration", "1ms"], b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no request was sent under load"),
        "{stderr}"
    );
}

/// A load of a server it could not reach judged nothing: could not run
/// (exit 2), said on standard output as that, where it listed six checks
/// not observed and a tally of them (`wirecheck load: 6 not-observed`).
#[test]
fn a_load_of_nothing_reachable_says_it_could_not_run() {
    let out = wirecheck(
        &[
            "load",
            "--http",
            "http://127.0.0.1:9/mcp",
            "--duration",
            "2s",
        ],
        b"",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stdout.contains("could not run (exit 2)"), "{stdout}");
    assert!(!stdout.contains("NOT-OBSERVED"), "{stdout}");
    assert!(stderr.contains("Connection refused"), "{stderr}");
}

/// A fuzz run whose server could not be reached says what HTTP said, as
/// `run` does: it said only "handshake request failed: no answer within the
/// timeout", the refused connection lost.
#[test]
fn a_fuzz_run_that_reaches_nothing_says_what_http_said() {
    let out = wirecheck(
        &["fuzz", "--http", "http://127.0.0.1:9/mcp", "--frames", "5"],
        b"",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("Connection refused"), "{stderr}");
    assert!(stdout.contains("could not run (exit 2)"), "{stdout}");
}

/// A fuzz run whose time ran out before its first frame fuzzed nothing: it
/// could not be made (exit 2, saying why), as a load that sent no request.
/// It exited 0 with its whole-run record not observed, which a CI job reads
/// as nothing found.
#[test]
fn a_fuzz_run_that_sent_no_frame_could_not_run() {
    let dir = Scratch::new("fuzz-no-frame");
    let doc = dir.0.join("fuzz.json");
    let out = wirecheck(
        &["fuzz", "--duration", "1ms", "--out", doc.to_str().unwrap()],
        b"",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no frame was sent"), "{stderr}");
    assert!(stderr.contains("give --duration more"), "{stderr}");
    let report = wirecheck::report::document::from_slice(&std::fs::read(&doc).unwrap())
        .expect("the run document reads back");
    assert!(
        !report
            .records
            .iter()
            .any(|r| r.outcome == harness::Outcome::Pass),
        "a pass in a run that sent nothing: {:?}",
        report.records
    );
}

/// `serve --judge` judges a client from what it sent: a client that sent
/// nothing (standard input closed at once; over HTTP, no session before the
/// signal) was not judged, so the run could not be made (exit 2), where it
/// reported every scenario not applicable and exited 0.
#[test]
fn serve_judge_with_no_client_could_not_run() {
    let out = wirecheck(&["serve", "--judge"], b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the client sent nothing"), "{stderr}");

    // Over HTTP, with and without authorization (whose records, not
    // observed, are there whether or not a client came): SIGINT as soon as
    // the address is said.
    for extra in [&[][..], &["--auth"][..]] {
        let mut serve = std::process::Command::new(env!("CARGO_BIN_EXE_wirecheck"));
        serve.args(["serve", "--http", "127.0.0.1:0", "--judge"]);
        serve.args(extra);
        let mut child = serve
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        while !line.starts_with("listening on ") {
            line.clear();
            let read = std::io::BufRead::read_line(&mut err, &mut line).unwrap();
            assert!(read > 0, "{extra:?}: no `listening on` line");
        }
        let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(2), "{extra:?}: {rest}");
        assert!(
            rest.contains("the client never opened a session"),
            "{extra:?}: {rest}"
        );
    }
}

/// An ambiguity is said once per run with how often it was met: the same
/// count in the grouped view, the long form and the run document (the long
/// form counted each record twice).
#[test]
fn an_ambiguity_is_counted_once_in_every_view() {
    let dir = Scratch::new("ambiguity-count");
    let doc = dir.0.join("run.json");
    let grouped = wirecheck(
        &[
            "run",
            "--revision",
            "2025-11-25",
            "--out",
            doc.to_str().unwrap(),
        ],
        b"",
    );
    let verbose = wirecheck(&["run", "--revision", "2025-11-25", "--verbose"], b"");
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&doc).unwrap()).unwrap();
    let met = doc["ambiguities"][0]["count"]
        .as_u64()
        .expect("the reference peer meets A2");
    let said = format!("(met {met} times)");
    for out in [&grouped, &verbose] {
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains(&said), "{said} in {stdout}");
    }
}

/// `fuzz` writes the same report files as `run`.
#[test]
fn fuzz_writes_the_report_files_run_writes() {
    let dir = Scratch::new("fuzz-files");
    let at = |name: &str| dir.0.join(name).to_str().unwrap().to_owned();
    let out = wirecheck(
        &[
            "fuzz",
            "--frames",
            "40",
            "--seed",
            "1",
            "--out-dir",
            &at("findings"),
            "--out",
            &at("fuzz.json"),
            "--sarif",
            &at("fuzz.sarif"),
            "--html",
            &at("fuzz.html"),
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(at("fuzz.json")).unwrap()).unwrap();
    assert_eq!(doc["command"], "fuzz");
    let sarif: serde_json::Value =
        serde_json::from_slice(&std::fs::read(at("fuzz.sarif")).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    let page = std::fs::read_to_string(at("fuzz.html")).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
}

/// `check` once called the first frame of a transcript frame 0 where `classify`
/// calls the first line 1. Every place a person reads counts frames from 1: the
/// record's place, the frames involved and the judge's own "at event N"; the
/// JSON `frame` stays the 0-based index the schema documents.
#[test]
fn check_calls_the_first_frame_1() {
    let dir = Scratch::new("check-frame-numbers");
    let transcript = dir.0.join("t.jsonl");
    std::fs::write(
        &transcript,
        concat!(
            r#"{"from":"server","frame":"{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}"}"#,
            "\n",
            r#"{"from":"client","frame":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"}"#,
            "\n",
            r#"{"from":"server","frame":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"}"#,
            "\n",
            r#"{"from":"server","frame":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"}"#,
            "\n",
        ),
    )
    .unwrap();
    let path = transcript.to_str().unwrap();
    let text = wirecheck(
        &[
            "check",
            "--revision",
            "jsonrpc-2.0",
            "--format",
            "terminal",
            path,
        ],
        b"",
    );
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert_eq!(text.status.code(), Some(1), "{stdout}");
    // The unknown id is the first frame's; the second answer is the fourth's.
    assert!(
        stdout.contains(&format!("{path} #1 [jsonrpc-2.0]")),
        "{stdout}"
    );
    assert!(stdout.contains("frames involved: #1\n"), "{stdout}");
    assert!(
        stdout.contains(&format!("{path} #4 [jsonrpc-2.0]")),
        "{stdout}"
    );
    assert!(stdout.contains("it was answered at event 3"), "{stdout}");
    assert!(stdout.contains("frames involved: #3, #4\n"), "{stdout}");
    assert!(!stdout.contains("#0"), "{stdout}");

    let json = wirecheck(&["check", "--revision", "jsonrpc-2.0", path], b"");
    let frames: Vec<u64> = records(&json)
        .iter()
        .filter_map(|r| r["frame"].as_u64())
        .collect();
    assert_eq!(frames, [0, 3], "the JSON index is 0-based");
}

/// Ctrl-C during `wirecheck check -` (a transcript on standard input that has
/// not ended) judges what was read, reports it as a capture that stops there
/// (the ping still owed is not observed, not a failure) with a record saying
/// the check was cut short, and exits 2. It used to die of the signal with
/// nothing reported.
#[test]
fn ctrl_c_ends_check_with_what_was_read() {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_wirecheck"))
        .args(["check", "--format", "terminal", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(
            concat!(
                r#"{"from":"client","frame":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"}"#,
                "\n",
                r#"{"from":"server","frame":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"}"#,
                "\n",
                r#"{"from":"client","frame":"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}"}"#,
                "\n",
            )
            .as_bytes(),
        )
        .unwrap();
    stdin.flush().unwrap();
    // Standard input stays open: only Ctrl-C ends this check. The wait lets
    // it start and read the three lines (milliseconds when idle).
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("NOT-OBSERVED   standard input\n    interrupted (Ctrl-C) after 3 frame(s)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the capture ended before an answer to `ping` (id 2)"),
        "{stdout}"
    );
    assert!(!stdout.contains("FAIL"), "{stdout}");
    assert!(
        stdout.contains("wirecheck check: 2 not-observed"),
        "{stdout}"
    );
    assert!(
        stderr.contains("interrupted (Ctrl-C) after 3 frame(s) of standard input"),
        "{stderr}"
    );
}
