//! `wirecheck run` over HTTP, end to end: the reference peer passes the whole
//! suite over Streamable HTTP, HTTP+SSE and JSON-RPC over HTTP, every record
//! names its transport and the transport judge's records are there; a
//! hostile Streamable HTTP server ends the run with findings, not a hang.

mod common;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use serde_json::Value;

fn outcome(record: &Value) -> &str {
    record["outcome"]["outcome"].as_str().unwrap_or("")
}

fn by_vector<'a>(records: &'a [Value], id: &str) -> Vec<&'a Value> {
    records.iter().filter(|r| r["vector"] == id).collect()
}

fn show(out: &std::process::Output) -> String {
    let failing: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains("\"fail\"") || l.contains("not-observed"))
        .take(20)
        .map(str::to_owned)
        .collect();
    format!(
        "{}\n{}",
        failing.join("\n"),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `wirecheck run ARGS --format json`; the output and how long it took.
fn run(args: &[&str]) -> (std::process::Output, Vec<Value>, Duration) {
    let mut all = vec!["run", "--format", "json"];
    all.extend_from_slice(args);
    let started = Instant::now();
    let out = common::wirecheck(&all, b"");
    let took = started.elapsed();
    let records = if out.stdout.is_empty() {
        Vec::new()
    } else {
        common::records(&out)
    };
    (out, records, took)
}

/// Every record names `transport`, and every MCP revision was negotiated.
fn assert_whole_suite(records: &[Value], transport: &str) {
    assert!(records.len() > 300, "{} records", records.len());
    // The reference peer is conformant: no fail, and no warning either (its
    // four 2026-07-28 -32020 answers to a request without the value of its
    // required `Mcp-Name` header once warned as a code meaning otherwise).
    let findings: Vec<&Value> = records
        .iter()
        .filter(|r| matches!(outcome(r), "fail" | "warning"))
        .collect();
    assert!(findings.is_empty(), "{findings:#?}");
    for record in records {
        assert_eq!(record["transport"], transport, "{record}");
    }
    for revision in harness::Revision::MCP {
        let id = format!("run/{revision}/negotiation");
        let negotiation = by_vector(records, &id);
        assert_eq!(negotiation.len(), 1, "{id}");
        assert_eq!(outcome(negotiation[0]), "pass", "{}", negotiation[0]);
    }
}

#[test]
fn the_reference_peer_passes_over_streamable_http() {
    let (out, records, took) = run(&["--reference-http"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert_whole_suite(&records, "streamable-http");
    // The transport judge ran and its probes passed, per revision's rules.
    for id in [
        "run/2025-11-25/http/origin-403",
        "run/2025-11-25/http/session-required-400",
        "run/2025-11-25/http/session-terminated-404",
        "run/2025-11-25/http/protocol-version-400",
        "run/2025-11-25/http/notification-202",
        "run/2025-03-26/http/origin-validate",
        "run/2026-07-28/http/protocol-version-400",
        "run/2026-07-28/http/endpoint-post",
        "run/2026-07-28/http/header-names-any-case",
        // One server (the reference peer started without a revision) asked
        // for each revision and for one it cannot support.
        "run/2025-11-25/negotiation-latest",
    ] {
        let found = by_vector(&records, id);
        assert_eq!(found.len(), 1, "{id}");
        assert_eq!(outcome(found[0]), "pass", "{}", found[0]);
    }
    // 2026-07-28 has no sessions: no session rules are judged there.
    assert!(by_vector(&records, "run/2026-07-28/http/session-required-400").is_empty());
    assert!(took < Duration::from_secs(120), "{took:?}");
}

/// `--parallel-revisions` bounds the sessions open at once by playing the
/// revisions a group at a time: the same checks, verdicts and order as
/// all at once.
#[test]
fn revisions_played_a_group_at_a_time_give_the_same_records() {
    let key = |records: &[Value]| -> Vec<(String, String, String)> {
        records
            .iter()
            .map(|r| {
                (
                    r["vector"].as_str().unwrap_or_default().to_owned(),
                    r["check"]["rule"].to_string(),
                    outcome(r).to_owned(),
                )
            })
            .collect()
    };
    let (out, all, _) = run(&["--reference-http"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    for group in ["1", "2"] {
        let (out, grouped, _) = run(&["--reference-http", "--parallel-revisions", group]);
        assert_eq!(out.status.code(), Some(0), "{}", show(&out));
        assert_eq!(key(&grouped), key(&all), "--parallel-revisions {group}");
    }
    let (out, _, _) = run(&["--reference-http", "--parallel-revisions", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
}

#[test]
fn the_reference_peer_passes_over_http_sse() {
    let (out, records, took) = run(&["--reference-http", "--transport", "sse"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert_whole_suite(&records, "sse");
    let events = by_vector(&records, "run/2024-11-05/http/sse-message-event");
    assert_eq!(events.len(), 1);
    assert_eq!(outcome(events[0]), "pass", "{}", events[0]);
    let endpoints = by_vector(&records, "run/2024-11-05/http/sse-two-endpoints");
    assert_eq!(endpoints.len(), 1);
    assert_eq!(outcome(endpoints[0]), "pass", "{}", endpoints[0]);
    // HTTP+SSE is held to its own page's Origin sentence under every
    // revision, never to the Streamable HTTP section.
    for revision in harness::Revision::MCP {
        let origin = by_vector(
            &records,
            &format!("run/{revision}/http/sse-origin-validate"),
        );
        assert_eq!(origin.len(), 1, "{revision}");
        assert_eq!(outcome(origin[0]), "pass", "{}", origin[0]);
        assert_eq!(
            origin[0]["spec"],
            "MCP 2024-11-05 basic/transports §HTTP with SSE › Security Warning 1"
        );
    }
    assert!(records.iter().all(
        |r| !r["spec"].as_str().unwrap_or("").contains("Streamable HTTP")
            || !r["vector"].as_str().unwrap_or("").contains("origin")
    ));
    assert!(took < Duration::from_secs(180), "{took:?}");
}

#[test]
fn the_reference_peer_passes_jsonrpc_over_http() {
    let (out, records, _) = run(&["--reference-http", "--profile", "jsonrpc-2.0"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert!(records.len() > 50, "{} records", records.len());
    assert!(records.iter().all(|r| r["transport"] == "jsonrpc-http"));
    for id in [
        "run/jsonrpc-2.0/http/null-body",
        "run/jsonrpc-2.0/http/empty-array-body",
    ] {
        let found = by_vector(&records, id);
        assert_eq!(found.len(), 1, "{id}");
        assert_eq!(outcome(found[0]), "pass", "{}", found[0]);
    }
}

/// `wirecheck serve --http 127.0.0.1:0 ARGS`, killed when dropped.
struct Served {
    child: Child,
    base: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(args: &[&str]) -> Served {
    use std::io::BufRead as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_wirecheck"))
        .args(["serve", "--http", "127.0.0.1:0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("serve starts");
    let stderr = child.stderr.take().expect("stderr is piped");
    let mut line = String::new();
    std::io::BufReader::new(stderr)
        .read_line(&mut line)
        .expect("serve prints its address");
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    Served { child, base }
}

#[test]
fn http_url_reaches_a_server_already_listening() {
    let served = serve(&["--revision", "2025-11-25"]);
    let url = format!("{}/mcp", served.base);
    let (out, records, _) = run(&["--http", &url, "--revision", "2025-11-25"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert!(records.iter().all(|r| r["transport"] == "streamable-http"));
    let origin = by_vector(&records, "run/2025-11-25/http/origin-403");
    assert_eq!(outcome(origin[0]), "pass", "{}", origin[0]);
}

/// A transport record keeps the HTTP exchange its verdict rests on: the run
/// document's origin record shows the request with the foreign `Origin` and
/// the 403 the reference peer answered, body and all, never an HTTP finding
/// with an empty exchange box.
#[test]
fn a_transport_record_keeps_the_exchange_it_rests_on() {
    let served = serve(&["--revision", "2025-11-25"]);
    let url = format!("{}/mcp", served.base);
    let dir =
        std::env::temp_dir().join(format!("wirecheck-run-http-exhibit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let doc = dir.join("report.json");
    let (out, _, _) = run(&[
        "--http",
        &url,
        "--revision",
        "2025-11-25",
        "--out",
        doc.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let document: Value = serde_json::from_slice(&std::fs::read(&doc).unwrap()).unwrap();
    let origin = document["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["vector"] == "run/2025-11-25/http/origin-403")
        .expect("the origin record");
    let exchange = &origin["http"][0];
    assert_eq!(exchange["method"], "POST", "{origin}");
    assert_eq!(exchange["status"], 403, "{origin}");
    assert!(
        exchange["request_headers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h[0] == "origin" && h[1] == "http://wirecheck-foreign-origin.invalid"),
        "{origin}"
    );
    assert!(exchange["response_body"].is_string(), "{origin}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The reference peer started for every revision is dual-era: it answers a
/// legacy `initialize` and a modern request alike. Judged as 2026-07-28 it
/// passes: the runner sends `MCP-Protocol-Version: 2026-07-28` on every
/// request (so a body lacking `_meta` meets modern semantics, not the
/// 2025-03-26 a dual-era server MAY take a header-less request for), and
/// its result to `initialize` is judged as the legacy answer it is.
#[test]
fn a_dual_era_server_passes_when_judged_as_2026_07_28() {
    let served = serve(&[]);
    let url = format!("{}/mcp", served.base);
    let (out, records, _) = run(&["--http", &url, "--revision", "2026-07-28"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let failed: Vec<&Value> = records.iter().filter(|r| outcome(r) == "fail").collect();
    assert!(failed.is_empty(), "{failed:#?}");
    let missing = by_vector(&records, "mcp/2026-07-28/lifecycle/missing-params");
    assert_eq!(outcome(missing[0]), "pass", "{}", missing[0]);
    let initialize = by_vector(&records, "mcp/2026-07-28/lifecycle/initialize-gone");
    assert_eq!(outcome(initialize[0]), "pass", "{}", initialize[0]);
    // GET 405 is a SHOULD for "a server that supports only this revision"; a
    // dual-era server is not held to it.
    let get = by_vector(&records, "run/2026-07-28/http/get-405");
    assert_eq!(outcome(get[0]), "not-applicable", "{}", get[0]);
    let warned: Vec<&Value> = records
        .iter()
        .filter(|r| outcome(r) == "warning")
        .filter(|r| !r["vector"].as_str().unwrap_or("").starts_with("mcp/"))
        .collect();
    assert!(warned.is_empty(), "{warned:#?}");
    assert!(
        initialize[0]["notes"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|n| n
                .as_str()
                .is_some_and(|n| n.contains("dual-era") && n.contains("judged as 2025-11-25"))),
        "{}",
        initialize[0]
    );
}

#[test]
fn a_transport_that_does_not_fit_the_profile_is_a_usage_error() {
    let (out, _, _) = run(&[
        "--reference-http",
        "--profile",
        "jsonrpc-2.0",
        "--transport",
        "sse",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let (out, _, _) = run(&["--transport", "sse"]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
}

/// A Streamable HTTP server that gets the transport wrong in every way the
/// judge looks at: a counter for a session id, notifications answered 200,
/// no `Origin` check, no session check, every request after `initialize`
/// answered with a 500 HTML page.
async fn hostile(headers: HeaderMap, body: String) -> Response {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let frame: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let _ = headers;
    match (frame.get("method").and_then(Value::as_str), frame.get("id")) {
        (Some("initialize"), Some(id)) => {
            let session = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let answer = serde_json::json!({
                "jsonrpc": "2.0", "id": id,
                "result": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "serverInfo": {"name": "hostile", "version": "0"}
                }
            });
            (
                StatusCode::OK,
                [
                    (header::CONTENT_TYPE, "application/json".to_owned()),
                    (
                        header::HeaderName::from_static("mcp-session-id"),
                        session.to_string(),
                    ),
                ],
                answer.to_string(),
            )
                .into_response()
        }
        (_, None) => (StatusCode::OK, "").into_response(),
        (_, Some(_)) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            [(header::CONTENT_TYPE, "text/html")],
            "<html><body>oops</body></html>",
        )
            .into_response(),
    }
}

/// Nothing listening, or a web page where the MCP endpoint should be, is "could
/// not run" naming what HTTP said, not "no answer within the timeout" alone.
#[test]
fn a_url_that_is_not_an_mcp_endpoint_is_could_not_run_naming_why() {
    // A port just freed: nothing listens on it.
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", free.local_addr().unwrap());
    drop(free);
    let (out, _, _) = run(&["--http", &url, "--timeout", "1s"]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no HTTP response"), "{stderr}");
    assert!(
        stderr.to_lowercase().contains("connection refused"),
        "{stderr}"
    );

    // A web server answering every POST with an HTML error page.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("a loopback port");
            tx.send(listener.local_addr().expect("an address"))
                .expect("the test waits");
            let page = || async {
                (
                    StatusCode::NOT_IMPLEMENTED,
                    [(header::CONTENT_TYPE, "text/html")],
                    "<html><body>Unsupported method ('POST')</body></html>",
                )
            };
            let app = Router::new().route("/mcp", post(page));
            let _ = axum::serve(listener, app).await;
        });
    });
    let addr = rx.recv().expect("the fixture listens");
    let url = format!("http://{addr}/mcp");
    let (out, _, _) = run(&["--http", &url, "--timeout", "1s"]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("HTTP 501"), "{stderr}");
    assert!(stderr.contains("text/html"), "{stderr}");
    assert!(stderr.contains("Unsupported method"), "{stderr}");
}

#[test]
fn a_hostile_http_server_ends_the_run_with_findings() {
    // The fixture serves from its own thread and runtime while the test
    // blocks on the binary; the thread ends with the test process.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("a loopback port");
            tx.send(listener.local_addr().expect("an address"))
                .expect("the test waits");
            let app = Router::new().route("/mcp", post(hostile));
            let _ = axum::serve(listener, app).await;
        });
    });
    let addr = rx.recv().expect("the fixture listens");
    let url = format!("http://{addr}/mcp");
    let (out, records, took) = run(&[
        "--http",
        &url,
        "--revision",
        "2025-11-25",
        "--timeout",
        "1s",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(took < Duration::from_secs(120), "{took:?}");
    let verdict = |id: &str| {
        let found = by_vector(&records, id);
        assert_eq!(found.len(), 1, "{id}");
        outcome(found[0]).to_owned()
    };
    assert_eq!(verdict("run/2025-11-25/http/origin-403"), "fail");
    assert_eq!(verdict("run/2025-11-25/http/notification-202"), "fail");
    assert_eq!(verdict("run/2025-11-25/http/session-id-secure"), "warning");
    assert_eq!(
        verdict("run/2025-11-25/http/session-required-400"),
        "warning"
    );
    // The 500 pages are HTTP trouble, reported as such: notes beside a pass,
    // since no sentence binds them (the vectors they cost fail on their own).
    let exchanges = by_vector(&records, "run/2025-11-25/http/exchanges");
    assert_eq!(exchanges.len(), 1);
    assert_eq!(outcome(exchanges[0]), "pass", "{}", exchanges[0]);
    assert!(
        exchanges[0].to_string().contains("ErrorStatus"),
        "{}",
        exchanges[0]
    );
    // And the vectors it never answered failed in their own records.
    assert!(records.iter().filter(|r| outcome(r) == "fail").count() > 10);
}

/// A 2025-03-26 Streamable HTTP server that answers a batch on an SSE stream,
/// one response per event (last request first), as §Sending Messages to the
/// Server 6 allows ("These responses MAY be batched"); single requests in a
/// JSON body, notifications with 202.
async fn batch_per_event(body: String) -> Response {
    let frame: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    if let Some(calls) = frame.as_array() {
        let events: String = calls
            .iter()
            .rev()
            .filter(|call| call.get("id").is_some())
            .map(|call| {
                let answer = serde_json::json!({
                    "jsonrpc": "2.0", "id": call["id"], "result": result_of(call)
                });
                format!("event: message\ndata: {answer}\n\n")
            })
            .collect();
        return (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/event-stream")],
            events,
        )
            .into_response();
    }
    let Some(id) = frame.get("id") else {
        return StatusCode::ACCEPTED.into_response();
    };
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result_of(&frame)});
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        answer.to_string(),
    )
        .into_response()
}

/// The fixture's result for a request: empty lists, and a 2025-03-26
/// handshake offering tools and prompts (so the batch vector applies).
fn result_of(request: &Value) -> Value {
    match request["method"].as_str() {
        Some("initialize") => serde_json::json!({
            "protocolVersion": "2025-03-26",
            "capabilities": {"tools": {}, "prompts": {}},
            "serverInfo": {"name": "batch-per-event", "version": "0"}
        }),
        Some("tools/list") => serde_json::json!({"tools": []}),
        Some("prompts/list") => serde_json::json!({"prompts": []}),
        _ => serde_json::json!({}),
    }
}

/// Serves `app` on 127.0.0.1 from its own thread and runtime while the test
/// blocks on the binary; the thread ends with the test process.
fn listen(app: Router) -> std::net::SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("a loopback port");
            tx.send(listener.local_addr().expect("an address"))
                .expect("the test waits");
            let _ = axum::serve(listener, app).await;
        });
    });
    rx.recv().expect("the fixture listens")
}

#[test]
fn a_batch_answered_one_response_per_sse_event_is_judged_as_a_whole() {
    let addr = listen(Router::new().route("/mcp", post(batch_per_event)));
    // Only the batch vector: a directory of vectors outside the tree.
    let dir = std::env::temp_dir().join(format!("wirecheck-run-http-batch-{}", std::process::id()));
    let batch = dir.join("mcp/2025-03-26/batch");
    std::fs::create_dir_all(&batch).unwrap();
    std::fs::create_dir_all(dir.join("jsonrpc-2.0")).unwrap();
    let source = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/vectors/mcp/2025-03-26/batch/y_batch-requests.json"
    );
    std::fs::copy(source, batch.join("y_batch-requests.json")).unwrap();
    let url = format!("http://{addr}/mcp");
    let (out, records, _) = run(&[
        "--http",
        &url,
        "--revision",
        "2025-03-26",
        "--timeout",
        "2s",
        "--vectors",
        dir.to_str().unwrap(),
    ]);
    std::fs::remove_dir_all(&dir).ok();
    let found = by_vector(&records, "mcp/2025-03-26/batch/batch-requests");
    assert_eq!(found.len(), 1, "{}", show(&out));
    let record = found[0];
    assert_eq!(outcome(record), "pass", "{record}");
    let text = record.to_string();
    assert!(!text.contains("single object"), "{record}");
    assert!(text.contains("2 response event(s) gathered"), "{record}");
}

/// A 2025-11-25 Streamable HTTP server that breaks one GET-stream or
/// resumption rule, chosen by the first path segment:
/// - `html`: GET answered 200 with an HTML page (neither SSE nor 405);
/// - `busy`: every GET answered 503 Service Unavailable;
/// - `response`: a fresh GET stream carries a JSON-RPC response;
/// - `dup`: the GET stream's event ids repeat (`a`, `b`, `a`);
/// - `foreign`: `ping` is answered on an SSE stream (event id `p1`), and a
///   GET resumed at its own first event id replays that POST's response;
/// - `store`: as server-everything's event store, one log of the events of
///   every stream, a `ping` answered on an SSE stream of its own, and a
///   resumed GET replaying every event after its id, whichever stream it
///   was on; the GET stream stays open.
async fn resumption(
    axum::extract::Path(mode): axum::extract::Path<String>,
    method: axum::http::Method,
    headers: HeaderMap,
    body: String,
) -> Response {
    let sse = |events: &[(&str, String)]| {
        let text: String = events
            .iter()
            .map(|(id, data)| format!("id: {id}\nevent: message\ndata: {data}\n\n"))
            .collect();
        (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/event-stream")],
            text,
        )
            .into_response()
    };
    let ping_answer = r#"{"jsonrpc":"2.0","id":"x","result":{}}"#.to_owned();
    let ping = r#"{"jsonrpc":"2.0","id":"server-ping","method":"ping"}"#.to_owned();
    if mode == "store" {
        return event_store(&method, &headers, &body);
    }
    if method == axum::http::Method::GET {
        let resuming = headers.contains_key("last-event-id");
        return match (mode.as_str(), resuming) {
            ("html", _) => (
                StatusCode::OK,
                [(header::CONTENT_TYPE, "text/html")],
                "<html></html>",
            )
                .into_response(),
            ("busy", _) => (StatusCode::SERVICE_UNAVAILABLE, "busy").into_response(),
            ("response", _) => sse(&[("r1", ping_answer)]),
            ("dup", _) => sse(&[("a", ping.clone()), ("b", ping.clone()), ("a", ping)]),
            ("foreign", true) => sse(&[("p1", ping_answer)]),
            _ => sse(&[("g1", ping)]),
        };
    }
    if method == axum::http::Method::DELETE {
        return StatusCode::NO_CONTENT.into_response();
    }
    let frame: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let Some(id) = frame.get("id") else {
        return StatusCode::ACCEPTED.into_response();
    };
    let result = match frame["method"].as_str() {
        Some("initialize") => serde_json::json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "serverInfo": {"name": "resumption", "version": "0"}
        }),
        _ => serde_json::json!({}),
    };
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
    if mode == "foreign" && frame["method"] == "ping" {
        return sse(&[("p1", answer)]);
    }
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "application/json".to_owned()),
            (
                header::HeaderName::from_static("mcp-session-id"),
                "9f2c4e1a7b3d4f6e8a0c2e4f6a8b0d1e".to_owned(),
            ),
        ],
        answer,
    )
        .into_response()
}

/// The `store` mode of [`resumption`]: every event of every stream of a
/// session in one log, replayed after a `Last-Event-ID` whichever stream it
/// was on (each session its own log, as each session's sends its own).
fn event_store(method: &axum::http::Method, headers: &HeaderMap, body: &str) -> Response {
    type Logs = std::collections::BTreeMap<String, Vec<(String, String)>>;
    static LOGS: std::sync::Mutex<Logs> = std::sync::Mutex::new(Logs::new());
    static EVENTS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let session = headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let stored = |data: String| {
        let n = EVENTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let id = format!("e{n}");
        let mut logs = LOGS.lock().unwrap();
        let log = logs.entry(session.clone()).or_default();
        log.push((id.clone(), data.clone()));
        format!("id: {id}\nevent: message\ndata: {data}\n\n")
    };
    let sse = |events: String, stay_open: bool| {
        let first = futures_util::stream::iter([Ok::<_, std::convert::Infallible>(events)]);
        let body = if stay_open {
            axum::body::Body::from_stream(futures_util::StreamExt::chain(
                first,
                futures_util::stream::pending(),
            ))
        } else {
            axum::body::Body::from_stream(first)
        };
        (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/event-stream")],
            body,
        )
            .into_response()
    };
    if method == axum::http::Method::GET {
        let last = headers.get("last-event-id").and_then(|v| v.to_str().ok());
        let Some(last) = last else {
            let changed = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
            return sse(stored(changed.to_owned()), true);
        };
        let logs = LOGS.lock().unwrap();
        let after = logs
            .get(&session)
            .into_iter()
            .flatten()
            .skip_while(|(id, _)| id != last)
            .skip(1);
        let replay: String = after
            .map(|(id, data)| format!("id: {id}\nevent: message\ndata: {data}\n\n"))
            .collect();
        return sse(replay, true);
    }
    let frame: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    let Some(id) = frame.get("id") else {
        return StatusCode::ACCEPTED.into_response();
    };
    if frame["method"] == "initialize" {
        let result = serde_json::json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {"listChanged": true}},
            "serverInfo": {"name": "store", "version": "0"}
        });
        let n = EVENTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        return (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, "application/json".to_owned()),
                (
                    header::HeaderName::from_static("mcp-session-id"),
                    format!("store-session-{n}"),
                ),
            ],
            serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string(),
        )
            .into_response();
    }
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}}).to_string();
    sse(stored(answer), false)
}

/// The outcome of `rule`'s record in a 2025-11-25 run against the
/// resumption fixture in `mode`, with no vectors (only the handshake and the
/// transport judge run).
fn resumption_verdict(mode: &str, rule: &str) -> (String, Value) {
    let (out, records, _) = resumption_run(mode);
    let id = format!("run/2025-11-25/http/{rule}");
    let found = by_vector(&records, &id);
    assert_eq!(found.len(), 1, "{id}: {}", show(&out));
    (outcome(found[0]).to_owned(), found[0].clone())
}

/// A 2025-11-25 run against the resumption fixture in `mode`, with no
/// vectors: its output, its JSON-lines records, and its `--out` document
/// (which keeps the HTTP exchanges each record rests on).
fn resumption_run(mode: &str) -> (std::process::Output, Vec<Value>, Value) {
    let app = Router::new().route("/{mode}/mcp", axum::routing::any(resumption));
    let addr = listen(app);
    let dir = std::env::temp_dir().join(format!(
        "wirecheck-run-http-resume-{mode}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(dir.join("mcp")).unwrap();
    std::fs::create_dir_all(dir.join("jsonrpc-2.0")).unwrap();
    let doc = dir.join("report.json");
    let url = format!("http://{addr}/{mode}/mcp");
    let (out, records, _) = run(&[
        "--http",
        &url,
        "--revision",
        "2025-11-25",
        "--timeout",
        "2s",
        "--vectors",
        dir.to_str().unwrap(),
        "--out",
        doc.to_str().unwrap(),
    ]);
    let document: Value = std::fs::read(&doc)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or(Value::Null);
    std::fs::remove_dir_all(&dir).ok();
    (out, records, document)
}

#[test]
fn a_get_answered_with_neither_sse_nor_405_fails() {
    let (verdict, record) = resumption_verdict("html", "get-stream-or-405");
    assert_eq!(verdict, "fail", "{record}");
    // Nothing to judge on a stream that is not one.
    let (verdict, record) = resumption_verdict("html", "get-no-response");
    assert_eq!(verdict, "not-applicable", "{record}");
}

/// A GET answered 503 (or 429) shows nothing of what the server offers:
/// with the GET probes beside the run's sessions a busy server may say so,
/// and no verdict rests on that, where it failed the MUST of a stream or
/// 405, and the broadcast probe's second GET likewise.
#[test]
fn a_get_answered_busy_is_not_observed_never_failed() {
    for rule in ["get-stream-or-405", "get-no-response", "replay-same-stream"] {
        let (verdict, record) = resumption_verdict("busy", rule);
        assert_eq!(verdict, "not-observed", "{record}");
        assert!(
            record.to_string().contains("the server was busy"),
            "{record}"
        );
    }
}

#[test]
fn a_response_on_a_fresh_get_stream_fails() {
    let (verdict, record) = resumption_verdict("response", "get-no-response");
    assert_eq!(verdict, "fail", "{record}");
}

#[test]
fn a_repeated_event_id_within_a_session_fails() {
    let (verdict, record) = resumption_verdict("dup", "event-id-unique");
    assert_eq!(verdict, "fail", "{record}");
    assert!(
        record.to_string().contains("\\\"a\\\" was sent twice"),
        "{record}"
    );
}

#[test]
fn a_replay_of_another_streams_message_fails() {
    let (verdict, record) = resumption_verdict("foreign", "replay-same-stream");
    assert_eq!(verdict, "fail", "{record}");
    // The fixture's ids are unique across its streams (`g1`, `p1`); the
    // replay repeating `p1` is a replay, not a second id.
    let (verdict, record) = resumption_verdict("foreign", "event-id-unique");
    assert_eq!(verdict, "pass", "{record}");
}

/// A server whose event store replays every stream's events after the
/// resumed id (server-everything's) is caught: the GET-stream probe's
/// session sends a `ping` after the stream's first event, whose answer, on
/// the ping's own stream, is then replayed on the resumed GET. (Before the
/// probe sent its ping, nothing came after that event but the stream's own,
/// and the rule was not observed.)
#[test]
fn a_replay_of_every_streams_events_after_the_id_fails() {
    let (out, records, document) = resumption_run("store");
    let found = by_vector(&records, "run/2025-11-25/http/replay-same-stream");
    assert_eq!(found.len(), 1, "{}", show(&out));
    let record = found[0];
    assert_eq!(outcome(record), "fail", "{record}");
    assert!(
        record.to_string().contains("a message of another stream"),
        "{record}"
    );
    // The record shows what a server author needs: the POST whose stream
    // first carried the message, and the resumed GET with Last-Event-ID.
    let replay = document["records"]
        .as_array()
        .unwrap_or_else(|| panic!("no run document: {}", show(&out)))
        .iter()
        .find(|r| r["vector"] == "run/2025-11-25/http/replay-same-stream")
        .unwrap_or_else(|| panic!("no replay record: {}", show(&out)));
    let shown: Vec<&Value> = replay["http"].as_array().unwrap().iter().collect();
    assert_eq!(shown.len(), 2, "{replay}");
    assert_eq!(shown[0]["method"], "POST", "{replay}");
    assert_eq!(shown[1]["method"], "GET", "{replay}");
    assert!(
        shown[1]["request_headers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h[0] == "last-event-id"),
        "{replay}"
    );
    assert!(
        replay
            .to_string()
            .contains("was first sent on a POST's stream"),
        "{replay}"
    );
}

#[test]
fn the_reference_peer_offers_a_get_stream_event_ids_and_replay() {
    let (out, records, _) = run(&["--reference-http", "--revision", "2025-11-25"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    for rule in [
        "get-stream-or-405",
        "get-no-response",
        "event-id-unique",
        "replay-same-stream",
    ] {
        let found = by_vector(&records, &format!("run/2025-11-25/http/{rule}"));
        assert_eq!(found.len(), 1, "{rule}");
        // Pass, never not-observed: the reference peer offers all of it.
        assert_eq!(outcome(found[0]), "pass", "{}", found[0]);
    }
    // The name probe is a tools/call: it needs a tool the user allows.
    let (_, records, _) = run(&[
        "--reference-http",
        "--revision",
        "2026-07-28",
        "--allow-tool",
        "echo",
        "--tool-args",
        r#"{"text":"wirecheck"}"#,
    ]);
    for rule in [
        "get-405",
        "header-body-match",
        "header-mismatch-400",
        "version-header-mismatch-400",
        "method-not-found-404",
        "name-header-decoded",
    ] {
        let found = by_vector(&records, &format!("run/2026-07-28/http/{rule}"));
        assert_eq!(found.len(), 1, "{rule}");
        assert_eq!(outcome(found[0]), "pass", "{}", found[0]);
    }
}

#[test]
fn a_server_without_a_get_stream_leaves_the_stream_rules_unjudged_never_passed() {
    // axum answers a GET on a POST-only route 405: no GET stream offered.
    let addr = listen(Router::new().route("/mcp", post(batch_per_event)));
    let dir = std::env::temp_dir().join(format!("wirecheck-run-http-noget-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("mcp")).unwrap();
    std::fs::create_dir_all(dir.join("jsonrpc-2.0")).unwrap();
    let url = format!("http://{addr}/mcp");
    let (out, records, _) = run(&[
        "--http",
        &url,
        "--revision",
        "2025-03-26",
        "--vectors",
        dir.to_str().unwrap(),
    ]);
    std::fs::remove_dir_all(&dir).ok();
    let verdict = |rule: &str| {
        let found = by_vector(&records, &format!("run/2025-03-26/http/{rule}"));
        assert_eq!(found.len(), 1, "{rule}: {}", show(&out));
        outcome(found[0]).to_owned()
    };
    assert_eq!(verdict("get-stream-or-405"), "pass");
    assert_eq!(verdict("get-no-response"), "not-applicable");
    assert_eq!(verdict("replay-same-stream"), "not-applicable");
    assert_eq!(verdict("event-id-unique"), "not-observed");
}

/// A 2026-07-28 server that reads only the body: `lax` answers whatever the
/// headers say; `wrong-code` refuses a header mismatch with 400 but -32602;
/// `raw-name` compares `Mcp-Name` to the body's name without decoding it;
/// `sse` answers `lax`ly on SSE streams without `X-Accel-Buffering`;
/// `idless-mismatch` refuses an `MCP-Protocol-Version` other than the body's
/// `_meta` one with 400 and -32020 in an error without `id` (the schema's
/// `HeaderMismatchError` has `id?: RequestId`), else answers as `lax`.
async fn header_blind(
    axum::extract::Path(mode): axum::extract::Path<String>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let frame: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let Some(id) = frame.get("id") else {
        return StatusCode::ACCEPTED.into_response();
    };
    if mode == "idless-mismatch" {
        let sent = headers
            .get("mcp-protocol-version")
            .and_then(|v| v.to_str().ok());
        let meta = frame["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"].as_str();
        if sent.is_some() && sent != meta {
            let answer = serde_json::json!({"jsonrpc": "2.0",
                "error": {"code": -32020, "message": "Header mismatch: MCP-Protocol-Version"}});
            return (
                StatusCode::BAD_REQUEST,
                [(header::CONTENT_TYPE, "application/json")],
                answer.to_string(),
            )
                .into_response();
        }
    }
    let method = frame["method"].as_str().unwrap_or_default();
    let sent = headers.get("mcp-method").and_then(|v| v.to_str().ok());
    if mode == "wrong-code" && sent != Some(method) {
        let answer = serde_json::json!({"jsonrpc": "2.0", "id": id,
            "error": {"code": -32602, "message": "bad header"}});
        return (
            StatusCode::BAD_REQUEST,
            [(header::CONTENT_TYPE, "application/json")],
            answer.to_string(),
        )
            .into_response();
    }
    if mode == "raw-name" && method == "tools/call" {
        let sent = headers.get("mcp-name").and_then(|v| v.to_str().ok());
        if sent != frame["params"]["name"].as_str() {
            let answer = serde_json::json!({"jsonrpc": "2.0", "id": id,
                "error": {"code": -32020, "message": "Header mismatch: Mcp-Name"}});
            return (
                StatusCode::BAD_REQUEST,
                [(header::CONTENT_TYPE, "application/json")],
                answer.to_string(),
            )
                .into_response();
        }
    }
    if let Some(answer) = refusing_mode(&mode, method, id) {
        return answer;
    }
    let result = match method {
        "server/discover" => serde_json::json!({
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "blind", "version": "0"}},
            "cacheScope": "public", "capabilities": {}, "resultType": "complete",
            "supportedVersions": ["2026-07-28"], "ttlMs": 1000
        }),
        _ => serde_json::json!({"resultType": "complete"}),
    };
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result});
    if mode == "sse" {
        return (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/event-stream")],
            format!("event: message\ndata: {answer}\n\n"),
        )
            .into_response();
    }
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        answer.to_string(),
    )
        .into_response()
}

/// Modes `refuse-CODE-{json,sse}-STATUS`: every request but
/// `server/discover` refused with JSON-RPC error -CODE, as JSON or on an SSE
/// stream, with that HTTP status.
fn refusing_mode(mode: &str, method: &str, id: &Value) -> Option<Response> {
    let mut parts = mode.strip_prefix("refuse-")?.split('-');
    let (code, body, status) = (parts.next()?, parts.next()?, parts.next()?);
    if method == "server/discover" {
        return None;
    }
    let code: i64 = code.parse().ok()?;
    let status = StatusCode::from_u16(status.parse().ok()?).ok()?;
    let data = match code {
        32021 => serde_json::json!({"requiredCapabilities": {"elicitation": {}}}),
        32022 => serde_json::json!({"supported": ["2026-07-28"], "requested": "2026-07-28"}),
        _ => Value::Null,
    };
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {
        "code": -code, "message": "Refused.", "data": data}});
    Some(if body == "sse" {
        (
            status,
            [(header::CONTENT_TYPE, "text/event-stream")],
            format!("event: message\ndata: {answer}\n\n"),
        )
            .into_response()
    } else {
        (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            answer.to_string(),
        )
            .into_response()
    })
}

fn header_verdicts(mode: &str) -> (String, String) {
    let found = verdicts_2026(mode, &["header-body-match", "header-mismatch-400"]);
    (found[0].clone(), found[1].clone())
}

/// The outcomes of `rules` in a 2026-07-28 run against `header_blind` in `mode`.
fn verdicts_2026(mode: &str, rules: &[&str]) -> Vec<String> {
    let addr = listen(Router::new().route("/{mode}/mcp", post(header_blind)));
    // Several tests run the same mode at once: a folder per run, or one
    // removes it while another reads it.
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "wirecheck-run-http-headers-{mode}-{}-{n}",
        std::process::id()
    ));
    std::fs::create_dir_all(dir.join("mcp")).unwrap();
    std::fs::create_dir_all(dir.join("jsonrpc-2.0")).unwrap();
    let url = format!("http://{addr}/{mode}/mcp");
    let mut args = vec![
        "--http",
        &url,
        "--revision",
        "2026-07-28",
        "--vectors",
        dir.to_str().unwrap(),
    ];
    // `lax` is run as a user who allowed no tool: the name probe (a
    // tools/call) must then not be sent.
    if mode != "lax" {
        args.extend(["--allow-tool", "wirecheck-probe"]);
    }
    let (out, records, _) = run(&args);
    std::fs::remove_dir_all(&dir).ok();
    let verdict = |rule: &str| {
        let found = by_vector(&records, &format!("run/2026-07-28/http/{rule}"));
        assert_eq!(found.len(), 1, "{rule}: {}", show(&out));
        outcome(found[0]).to_owned()
    };
    rules.iter().map(|rule| verdict(rule)).collect()
}

#[test]
fn a_2026_server_blind_to_the_version_header_and_unknown_methods_fails() {
    assert_eq!(
        verdicts_2026(
            "lax",
            &[
                "version-header-mismatch-400",
                "method-not-found-404",
                "name-header-decoded",
                "sse-no-buffering",
            ]
        ),
        ["fail", "fail", "not-applicable", "not-observed"]
    );
}

/// The schema's `HeaderMismatchError` has `id?: RequestId`: a mismatch refused
/// with 400 and -32020 in an error without `id` is refused as the section
/// asks, and the code is read from the HTTP answer, not only from an answer
/// matched by id (which an id-less error never is).
#[test]
fn a_version_header_mismatch_refused_with_an_idless_header_mismatch_error_passes() {
    assert_eq!(
        verdicts_2026(
            "idless-mismatch",
            &["version-header-mismatch-400", "header-names-any-case"]
        ),
        ["pass", "pass"]
    );
}

#[test]
fn a_2026_server_that_takes_any_version_header_shows_nothing_of_header_name_case() {
    // `lax` ignores the headers: its 2xx answers say nothing of whether it
    // would have read `mcp-protocol-version` in lowercase; `wrong-code`
    // refuses the mismatch with -32602, which names no header either.
    for mode in ["lax", "wrong-code"] {
        assert_eq!(
            verdicts_2026(mode, &["header-names-any-case", "endpoint-post"]),
            ["not-observed", "pass"],
            "{mode}"
        );
    }
}

/// A Streamable HTTP server of 2024-11-05 to 2025-11-25 that takes every
/// version it is asked for, but answers a version it does not know with its
/// oldest, 2024-11-05, not its latest (2025-11-25); `server/discover` is an
/// unknown method.
async fn oldest_offered(body: String) -> Response {
    let frame: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let Some(id) = frame.get("id") else {
        return StatusCode::ACCEPTED.into_response();
    };
    let answer = match frame["method"].as_str() {
        Some("initialize") => {
            let asked = frame["params"]["protocolVersion"].as_str().unwrap_or("");
            let known = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
            let chosen = if known.contains(&asked) {
                asked
            } else {
                known[0]
            };
            serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {
                "protocolVersion": chosen, "capabilities": {},
                "serverInfo": {"name": "oldest-offered", "version": "0"}}})
        }
        Some("ping") => serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}}),
        _ => serde_json::json!({"jsonrpc": "2.0", "id": id,
            "error": {"code": -32601, "message": "Method not found"}}),
    };
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        answer.to_string(),
    )
        .into_response()
}

#[test]
fn a_server_offering_its_oldest_version_to_an_unknown_one_is_a_warning() {
    let addr = listen(Router::new().route("/mcp", post(oldest_offered)));
    let dir =
        std::env::temp_dir().join(format!("wirecheck-run-http-latest-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("mcp")).unwrap();
    std::fs::create_dir_all(dir.join("jsonrpc-2.0")).unwrap();
    let url = format!("http://{addr}/mcp");
    let (out, records, _) = run(&["--http", &url, "--vectors", dir.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    let found = by_vector(&records, "run/2025-11-25/negotiation-latest");
    assert_eq!(found.len(), 1, "{}", show(&out));
    assert_eq!(outcome(found[0]), "warning", "{}", found[0]);
    assert!(
        found[0]["violations"][0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("answered 2024-11-05 to 1999-01-01"),
        "{}",
        found[0]
    );
    // Every revision was accepted when asked for in its own session.
    for revision in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let id = format!("run/{revision}/negotiation");
        assert_eq!(outcome(by_vector(&records, &id)[0]), "pass", "{id}");
    }
}

#[test]
fn a_2026_server_comparing_an_encoded_mcp_name_undecoded_fails() {
    assert_eq!(
        verdicts_2026("raw-name", &["name-header-decoded"]),
        ["fail"]
    );
}

#[test]
fn a_2026_sse_answer_without_x_accel_buffering_is_a_warning() {
    assert_eq!(verdicts_2026("sse", &["sse-no-buffering"]), ["warning"]);
}

#[test]
fn a_2026_missing_capability_error_must_be_400() {
    // y_: refused 400, as JSON or on a stream; n_: a 200 carrying it, as JSON
    // or on a stream opened with 200 before the error; no -32021 seen: not
    // observed, never a pass.
    for (mode, verdict) in [
        ("refuse-32021-json-400", "pass"),
        ("refuse-32021-sse-400", "pass"),
        ("refuse-32021-json-200", "fail"),
        ("refuse-32021-sse-200", "fail"),
        ("refuse-32021-json-403", "fail"),
        ("lax", "not-observed"),
    ] {
        assert_eq!(
            verdicts_2026(mode, &["missing-capability-400"]),
            [verdict],
            "{mode}"
        );
    }
}

#[test]
fn a_2026_header_mismatch_or_unsupported_version_error_must_be_400() {
    let rules = ["header-mismatch-error-400", "unsupported-version-error-400"];
    for (mode, verdicts) in [
        ("refuse-32020-json-400", ["pass", "not-observed"]),
        ("refuse-32020-sse-200", ["fail", "not-observed"]),
        ("refuse-32022-json-400", ["not-observed", "pass"]),
        ("refuse-32022-json-200", ["not-observed", "fail"]),
        ("lax", ["not-observed", "not-observed"]),
    ] {
        assert_eq!(verdicts_2026(mode, &rules), verdicts, "{mode}");
    }
}

#[test]
fn a_2026_server_that_ignores_a_header_mismatch_fails() {
    assert_eq!(
        header_verdicts("lax"),
        ("fail".to_owned(), "not-applicable".to_owned())
    );
}

#[test]
fn a_2026_header_mismatch_refused_without_32020_fails() {
    assert_eq!(
        header_verdicts("wrong-code"),
        ("pass".to_owned(), "fail".to_owned())
    );
}

/// A 2025-03-26 Streamable HTTP server that answers every request but
/// `initialize` on an SSE stream holding one notification and no response,
/// then ends the stream; GET is 405 (axum's answer on a POST-only route).
async fn unanswered_stream(body: String) -> Response {
    let frame: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let Some(id) = frame.get("id") else {
        return StatusCode::ACCEPTED.into_response();
    };
    if frame["method"] == "initialize" {
        let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result_of(&frame)});
        return (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            answer.to_string(),
        )
            .into_response();
    }
    let note = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}"#;
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/event-stream")],
        format!("event: message\ndata: {note}\n\n"),
    )
        .into_response()
}

#[test]
fn a_request_stream_that_ends_without_its_response_is_a_warning() {
    let addr = listen(Router::new().route("/mcp", post(unanswered_stream)));
    // One vector (a ping), copied out of the tree so the session sends a request.
    let dir = std::env::temp_dir().join(format!(
        "wirecheck-run-http-unanswered-{}",
        std::process::id()
    ));
    let ping = dir.join("mcp/2025-03-26/ping");
    std::fs::create_dir_all(&ping).unwrap();
    std::fs::create_dir_all(dir.join("jsonrpc-2.0")).unwrap();
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("vectors/mcp/2025-03-26/ping/y_ping.json");
    std::fs::copy(source, ping.join("y_ping.json")).unwrap();
    let url = format!("http://{addr}/mcp");
    let (out, records, _) = run(&[
        "--http",
        &url,
        "--revision",
        "2025-03-26",
        "--timeout",
        "2s",
        "--vectors",
        dir.to_str().unwrap(),
    ]);
    std::fs::remove_dir_all(&dir).ok();
    let found = by_vector(&records, "run/2025-03-26/http/sse-stream-answers");
    assert_eq!(found.len(), 1, "{}", show(&out));
    assert_eq!(outcome(found[0]), "warning", "{}", found[0]);
}

/// A 2025-11-25 Streamable HTTP server that answers every request but
/// `initialize` on an SSE stream holding its response, then ends the stream;
/// GET is 405.
async fn stream_end(body: String) -> Response {
    let frame: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let Some(id) = frame.get("id") else {
        return StatusCode::ACCEPTED.into_response();
    };
    let mut result = result_of(&frame);
    if frame["method"] == "initialize" {
        result["protocolVersion"] = "2025-11-25".into();
        let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result});
        return (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            answer.to_string(),
        )
            .into_response();
    }
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result});
    let event = futures::stream::once(async move {
        Ok::<_, std::convert::Infallible>(format!("event: message\ndata: {answer}\n\n"))
    });
    let body = axum::body::Body::from_stream(event);
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/event-stream")],
        body,
    )
        .into_response()
}

/// The built-in 2025-11-25 suite over Streamable HTTP against the fixture
/// `app` serves at `/mcp`, each answer awaited 1 s.
fn run_2025_11_25(app: Router) -> (std::process::Output, Vec<Value>) {
    let url = format!("http://{}/mcp", listen(app));
    let (out, records, _) = run(&[
        "--http",
        &url,
        "--revision",
        "2025-11-25",
        "--timeout",
        "1s",
    ]);
    (out, records)
}

fn stream_end_verdict() -> Value {
    // The built-in vectors: the streams of their sessions are the ones judged.
    let (out, records) = run_2025_11_25(Router::new().route("/mcp", post(stream_end)));
    let found = by_vector(&records, "run/2025-11-25/http/sse-ends-after-response");
    assert_eq!(found.len(), 1, "{}", show(&out));
    found[0].clone()
}

#[test]
fn a_request_stream_ended_after_its_response_passes() {
    // A stream left open is judged in the unit tests of the HTTP judge: run
    // live, every probe's stream would wait out the timeout.
    let ended = stream_end_verdict();
    assert_eq!(outcome(&ended), "pass", "{ended}");
    assert!(ended["notes"][0]
        .as_str()
        .unwrap_or("")
        .ends_with("stayed open"));
}

/// A 2025-11-25 server that primes every request stream (an event id with
/// empty data, then the answer) and sends the same `ping` (one id) on every
/// GET stream: one message broadcast across streams.
async fn broadcaster(method: axum::http::Method, body: String) -> Response {
    static EVENT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let next = || EVENT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let sse = |text: String| {
        (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/event-stream")],
            text,
        )
            .into_response()
    };
    if method == axum::http::Method::GET {
        let ping = r#"{"jsonrpc":"2.0","id":"one-ping","method":"ping"}"#;
        return sse(format!("id: g{}\nevent: message\ndata: {ping}\n\n", next()));
    }
    let frame: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let (Some(id), Some(_)) = (frame.get("id"), frame.get("method")) else {
        return StatusCode::ACCEPTED.into_response();
    };
    let mut result = result_of(&frame);
    if frame["method"] == "initialize" {
        result["protocolVersion"] = "2025-11-25".into();
    }
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result});
    sse(format!(
        "id: p{}\ndata:\n\nid: p{}\nevent: message\ndata: {answer}\n\n",
        next(),
        next()
    ))
}

#[test]
fn one_message_on_two_get_streams_fails_and_primed_request_streams_pass() {
    let (out, records) =
        run_2025_11_25(Router::new().route("/mcp", post(broadcaster).get(broadcaster)));
    let broadcast = by_vector(&records, "run/2025-11-25/http/no-broadcast");
    assert_eq!(broadcast.len(), 1, "{}", show(&out));
    assert_eq!(outcome(broadcast[0]), "fail", "{}", broadcast[0]);
    assert!(
        broadcast[0].to_string().contains("one-ping"),
        "{}",
        broadcast[0]
    );
    let primed = by_vector(&records, "run/2025-11-25/http/sse-priming-event");
    assert_eq!(primed.len(), 1, "{}", show(&out));
    assert_eq!(outcome(primed[0]), "pass", "{}", primed[0]);
}

#[test]
fn a_request_stream_that_opens_with_a_message_is_a_priming_warning() {
    let (out, records) = run_2025_11_25(Router::new().route("/mcp", post(stream_end)));
    let primed = by_vector(&records, "run/2025-11-25/http/sse-priming-event");
    assert_eq!(primed.len(), 1, "{}", show(&out));
    assert_eq!(outcome(primed[0]), "warning", "{}", primed[0]);
    // stream_end's GET is 405: fewer than two streams, nothing to judge.
    let broadcast = by_vector(&records, "run/2025-11-25/http/no-broadcast");
    assert_eq!(outcome(broadcast[0]), "not-observed", "{}", broadcast[0]);
}

/// The outcomes of the custom-header and `_meta` rules in a 2026-07-28 run
/// over `url` with `extra` arguments, and the run's exit code; the whole
/// suite's vectors with `whole`, else none (the probes alone).
fn header_rules(url: &str, extra: &[&str], whole: bool) -> (Option<i32>, Vec<(String, String)>) {
    // Tests run in parallel: each run gets a folder of its own.
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "wirecheck-run-http-params-{}-{n}",
        std::process::id()
    ));
    std::fs::create_dir_all(dir.join("mcp")).unwrap();
    std::fs::create_dir_all(dir.join("jsonrpc-2.0")).unwrap();
    let mut args = vec!["--http", url, "--revision", "2026-07-28"];
    if !whole {
        args.extend(["--vectors", dir.to_str().unwrap()]);
    }
    args.extend_from_slice(extra);
    let (out, records, _) = run(&args);
    std::fs::remove_dir_all(&dir).ok();
    let verdicts = [
        "param-header-missing-refused",
        "param-header-invalid-refused",
        "param-header-integer-numeric",
        "meta-missing-400",
    ]
    .iter()
    .map(|rule| {
        let found = by_vector(&records, &format!("run/2026-07-28/http/{rule}"));
        assert_eq!(found.len(), 1, "{rule}: {}", show(&out));
        (rule.to_string(), outcome(found[0]).to_owned())
    })
    .collect();
    (out.status.code(), verdicts)
}

fn outcomes(verdicts: &[(String, String)]) -> Vec<&str> {
    verdicts.iter().map(|(_, o)| o.as_str()).collect()
}

#[test]
fn the_reference_peer_refuses_spoiled_mcp_param_headers_of_an_allowed_tool() {
    let served = serve(&["--revision", "2026-07-28"]);
    let url = format!("{}/mcp", served.base);
    // `route` mirrors `region` and `count` into headers; the run calls it
    // only because it is allowed, and passes every check of the revision.
    let args = [
        "--allow-tool",
        "route",
        "--tool-args",
        r#"{"region":"us-west1","count":42}"#,
    ];
    let (code, verdicts) = header_rules(&url, &args, true);
    assert_eq!(outcomes(&verdicts), ["pass"; 4], "{verdicts:?}");
    assert_eq!(code, Some(0));
    // Allowed without arguments, or not at all: the tools/call probes are
    // not sent, and say how to enable them; the `_meta` probe calls nothing.
    for extra in [&["--allow-tool", "route"][..], &[]] {
        let (_, verdicts) = header_rules(&url, extra, false);
        assert_eq!(
            outcomes(&verdicts),
            ["not-applicable", "not-applicable", "not-applicable", "pass"],
            "{extra:?}"
        );
    }
    // An allowed tool without `x-mcp-header`: nothing to spoil.
    let (_, verdicts) = header_rules(
        &url,
        &["--allow-tool", "echo", "--tool-args", r#"{"text":"x"}"#],
        false,
    );
    assert_eq!(outcomes(&verdicts)[..3], ["not-applicable"; 3]);
}

/// A 2026-07-28 server listing one tool whose `region` and `count` are
/// `x-mcp-header` parameters: `lax` accepts any headers (and a `_meta`
/// without capabilities, 200); `strings` checks they are there and visible
/// ASCII but compares the integer as a string; `picky` refuses even correct
/// headers.
async fn param_blind(
    axum::extract::Path(mode): axum::extract::Path<String>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let frame: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let Some(id) = frame.get("id") else {
        return StatusCode::ACCEPTED.into_response();
    };
    let refuse = |why: &str| {
        let answer = serde_json::json!({"jsonrpc": "2.0", "id": id,
            "error": {"code": -32020, "message": why}});
        (
            StatusCode::BAD_REQUEST,
            [(header::CONTENT_TYPE, "application/json")],
            answer.to_string(),
        )
            .into_response()
    };
    let method = frame["method"].as_str().unwrap_or_default();
    if method == "tools/call" && mode != "lax" {
        if mode == "picky" {
            return refuse("no");
        }
        for (name, value) in [("mcp-param-region", "region"), ("mcp-param-count", "count")] {
            let sent = headers.get(name).and_then(|v| v.to_str().ok());
            let given = &frame["params"]["arguments"][value];
            let want = given
                .as_str()
                .map_or_else(|| given.to_string(), str::to_owned);
            if sent != Some(want.as_str()) {
                return refuse(name);
            }
        }
    }
    let result = match method {
        "server/discover" => serde_json::json!({
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "blind", "version": "0"}},
            "cacheScope": "public", "capabilities": {"tools": {}}, "resultType": "complete",
            "supportedVersions": ["2026-07-28"], "ttlMs": 1000
        }),
        "tools/list" => serde_json::json!({"resultType": "complete", "tools": [{
            "name": "route", "inputSchema": {"type": "object", "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "count": {"type": "integer", "x-mcp-header": "Count"}}}}]}),
        _ => serde_json::json!({"resultType": "complete", "content": []}),
    };
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result});
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        answer.to_string(),
    )
        .into_response()
}

#[test]
fn a_2026_server_that_takes_spoiled_mcp_param_headers_fails_and_one_comparing_strings_warns() {
    let addr = listen(Router::new().route("/{mode}/mcp", post(param_blind)));
    let args = [
        "--allow-tool",
        "route",
        "--tool-args",
        r#"{"region":"us-west1","count":42}"#,
    ];
    let lax = header_rules(&format!("http://{addr}/lax/mcp"), &args, false).1;
    assert_eq!(outcomes(&lax), ["fail", "fail", "pass", "fail"], "{lax:?}");
    let strings = header_rules(&format!("http://{addr}/strings/mcp"), &args, false).1;
    assert_eq!(
        outcomes(&strings)[..3],
        ["pass", "pass", "warning"],
        "{strings:?}"
    );
    // Refusing the correct call too shows nothing by refusing the rest.
    let picky = header_rules(&format!("http://{addr}/picky/mcp"), &args, false).1;
    assert_eq!(outcomes(&picky)[..3], ["not-observed"; 3], "{picky:?}");
}

/// A false finding once seen: a server that answers every POST with an HTML
/// page never produced one JSON-RPC response, so the run could not be made
/// (exit 2) and awards no pass (it drew "13 pass 125 fail").
#[test]
fn a_server_that_never_speaks_json_rpc_could_not_be_run() {
    /// A server that answers every POST with `status` and an HTML page.
    fn html(status: StatusCode, page: &'static str) -> String {
        let answer = move || async move {
            (status, [(header::CONTENT_TYPE, "text/html")], page).into_response()
        };
        format!("http://{}/", listen(Router::new().route("/", post(answer))))
    }
    let url = html(StatusCode::OK, "<html><body>It works!</body></html>");
    let (out, records, _) = run(&["--http", &url, "--profile", "jsonrpc-2.0"]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("never produced one JSON-RPC response"),
        "{}",
        show(&out)
    );
    assert!(records.iter().all(|r| outcome(r) != "pass"), "{records:#?}");

    // A server that refuses every POST with an error page says what it said
    // (it said "it sent nothing at all", the 501 lost).
    let url = html(
        StatusCode::NOT_IMPLEMENTED,
        "<html><body>Unsupported method</body></html>",
    );
    let (out, _, _) = run(&["--http", &url, "--profile", "jsonrpc-2.0"]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("HTTP 501"), "{stderr}");
    assert!(!stderr.contains("it sent nothing at all"), "{stderr}");
}

/// Forwards one HTTP/1.1 request per client connection to `upstream`, the
/// response byte for byte (an SSE stream as long as it lasts), and closes the
/// connection when a second request arrives on it instead of answering: what
/// a client meets when it reuses a kept-alive connection the server has just
/// given up on (a server "MAY close the transport connection at any time",
/// RFC 9112 §9.6; a POST cannot be retried safely). Its address.
fn one_request_per_connection(upstream: std::net::SocketAddr) -> std::net::SocketAddr {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    async fn relay(client: tokio::net::TcpStream, upstream: std::net::SocketAddr) {
        let Ok(server) = tokio::net::TcpStream::connect(upstream).await else {
            return;
        };
        let (mut client_r, mut client_w) = client.into_split();
        let (mut server_r, mut server_w) = server.into_split();
        let answer = async move {
            let _ = tokio::io::copy(&mut server_r, &mut client_w).await;
            let _ = client_w.shutdown().await;
        };
        let request = async move {
            let mut seen = Vec::new();
            let mut buf = [0u8; 8192];
            // The first request: its head, then Content-Length bytes of body.
            let whole = loop {
                let Ok(n) = client_r.read(&mut buf).await else {
                    return;
                };
                if n == 0 {
                    return;
                }
                seen.extend_from_slice(&buf[..n]);
                let Some(end) = seen.windows(4).position(|w| w == b"\r\n\r\n") else {
                    continue;
                };
                let head = String::from_utf8_lossy(&seen[..end]).to_ascii_lowercase();
                let length: usize = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(0);
                if seen.len() >= end + 4 + length {
                    break end + 4 + length;
                }
            };
            let _ = server_w.write_all(&seen[..whole]).await;
            if seen.len() > whole {
                return; // a second request, pipelined: refused
            }
            // Anything more on this connection is a second request.
            let _ = client_r.read(&mut buf).await;
        };
        // The second request (or the client's end) ends the relay: both
        // sockets drop, the client's unread request makes it a reset.
        tokio::select! {
            () = answer => {}
            () = request => {}
        }
    }
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("a loopback port");
            tx.send(listener.local_addr().expect("an address"))
                .expect("the test waits");
            while let Ok((client, _)) = listener.accept().await {
                tokio::spawn(relay(client, upstream));
            }
        });
    });
    rx.recv().expect("the proxy listens")
}

/// A false finding once seen: after `subscriptions/listen`'s stream was left
/// open, the runner's next POST went out on a pooled keep-alive connection the
/// server had given up on, was reset, and the probe failed as "got no
/// reply"; curl, one connection per request, was answered. A server that
/// serves one request per connection must cost the runner nothing.
#[test]
fn a_server_that_closes_kept_alive_connections_gets_every_answer() {
    let served = serve(&[]);
    let upstream: std::net::SocketAddr = served
        .base
        .trim_start_matches("http://")
        .parse()
        .expect("serve's address");
    let proxy = one_request_per_connection(upstream);
    let url = format!("http://{proxy}/mcp");
    let (out, records, _) = run(&["--http", &url, "--revision", "2026-07-28"]);
    let failed: Vec<&Value> = records.iter().filter(|r| outcome(r) == "fail").collect();
    assert!(failed.is_empty(), "{failed:#?}");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let listen = by_vector(&records, "mcp/2026-07-28/resources/subscriptions-listen");
    assert_eq!(outcome(listen[0]), "pass", "{}", listen[0]);
}

/// What the [`listener`] fixture saw of the runner.
#[derive(Default)]
struct Listened {
    /// Each session's negotiated version, by session id.
    versions: std::collections::BTreeMap<String, String>,
    /// Each session's open GET stream, to send on.
    streams: std::collections::BTreeMap<String, tokio::sync::mpsc::UnboundedSender<String>>,
    /// The version of each GET stream open now.
    open: Vec<String>,
    /// The most distinct versions whose GET streams were open at once.
    versions_at_once: usize,
    /// GET streams opened so far.
    gets: usize,
    /// The most GET streams opened while one slow `ping` was answered.
    gets_during_slow: usize,
    /// The most sessions initialized while one slow `ping` was answered.
    sessions_during_slow: usize,
    /// How long the server takes to act on `notifications/initialized`
    /// (to send `list_changed`), when it is slow to: it handles each
    /// session's messages in order, so a request of the session sent
    /// after `initialized` is answered only then.
    initialized_takes: Option<Duration>,
    /// Each session acting on `initialized`, held until it has.
    busy: std::collections::BTreeMap<String, std::sync::Arc<tokio::sync::Mutex<()>>>,
}

type Listening = std::sync::Arc<std::sync::Mutex<Listened>>;

/// How long the [`listener`] takes to open a GET stream.
const GET_TAKES: Duration = Duration::from_millis(200);
/// How long it takes to answer a vector's `ping` (its id rewritten to a
/// fresh `"wirecheck-N"`; the runner's own pings carry integers or other
/// strings).
const SLOW_PING: Duration = Duration::from_millis(1500);

/// A GET stream of the [`listener`], open until the client lets it go.
struct OpenStream {
    seen: Listening,
    session: String,
    version: String,
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        let mut seen = self.seen.lock().unwrap();
        seen.streams.remove(&self.session);
        if let Some(at) = seen.open.iter().position(|v| *v == self.version) {
            seen.open.remove(at);
        }
    }
}

/// A Streamable HTTP server of any revision with `initialize`, which, like
/// server-everything, sends `notifications/tools/list_changed` when it hears
/// `notifications/initialized`, on the session's GET stream if one is open
/// then (else never). It takes [`GET_TAKES`] to open a GET stream (a resumed
/// one is refused 405), [`SLOW_PING`] to answer a vector's `ping`, and
/// [`Listened::initialized_takes`] to act on `initialized` when set, and
/// counts what was open at once.
async fn listener(
    axum::extract::State(seen): axum::extract::State<Listening>,
    method: axum::http::Method,
    headers: HeaderMap,
    body: String,
) -> Response {
    let session = headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    if method == axum::http::Method::GET {
        tokio::time::sleep(GET_TAKES).await;
        let version = seen.lock().unwrap().versions.get(&session).cloned();
        let (Some(version), false) = (version, headers.contains_key("last-event-id")) else {
            return StatusCode::METHOD_NOT_ALLOWED.into_response();
        };
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<String>();
        {
            let mut s = seen.lock().unwrap();
            s.streams.insert(session.clone(), tx);
            s.open.push(version.clone());
            s.gets += 1;
            let distinct: std::collections::BTreeSet<&String> = s.open.iter().collect();
            s.versions_at_once = s.versions_at_once.max(distinct.len());
        }
        let guard = OpenStream {
            seen: std::sync::Arc::clone(&seen),
            session,
            version,
        };
        let events = futures_util::stream::unfold((rx, guard), |(mut rx, guard)| async move {
            let event = rx.recv().await?;
            Some((Ok::<_, std::convert::Infallible>(event), (rx, guard)))
        });
        return (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/event-stream")],
            axum::body::Body::from_stream(events),
        )
            .into_response();
    }
    if method != axum::http::Method::POST {
        return StatusCode::NO_CONTENT.into_response();
    }
    let frame: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let Some(id) = frame.get("id") else {
        if frame["method"] == "notifications/initialized" {
            let changed = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
            let event = format!("event: message\ndata: {changed}\n\n");
            let mut s = seen.lock().unwrap();
            let stream = s.streams.get(&session).cloned();
            match (s.initialized_takes, stream) {
                (Some(takes), Some(stream)) => {
                    let busy = std::sync::Arc::new(tokio::sync::Mutex::new(()));
                    let held = std::sync::Arc::clone(&busy).try_lock_owned().unwrap();
                    s.busy.insert(session.clone(), busy);
                    tokio::spawn(async move {
                        tokio::time::sleep(takes).await;
                        let _ = stream.send(event);
                        drop(held);
                    });
                }
                (None, Some(stream)) => {
                    let _ = stream.send(event);
                }
                (_, None) => {}
            }
        }
        return StatusCode::ACCEPTED.into_response();
    };
    let answer = |result: Value| serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result});
    let busy = seen.lock().unwrap().busy.get(&session).cloned();
    if let Some(busy) = busy {
        drop(busy.lock().await);
    }
    match frame["method"].as_str() {
        Some("initialize") => {
            let version = frame["params"]["protocolVersion"].clone();
            let mut s = seen.lock().unwrap();
            let session = format!("listener-session-{}", s.versions.len());
            s.versions
                .insert(session.clone(), version.as_str().unwrap_or_default().into());
            let result = serde_json::json!({
                "protocolVersion": version,
                "capabilities": {"tools": {"listChanged": true}},
                "serverInfo": {"name": "listener", "version": "0"}
            });
            (
                StatusCode::OK,
                [
                    (header::CONTENT_TYPE, "application/json".to_owned()),
                    (header::HeaderName::from_static("mcp-session-id"), session),
                ],
                answer(result).to_string(),
            )
                .into_response()
        }
        Some("server/discover") => {
            let refused = serde_json::json!({
                "jsonrpc": "2.0", "id": id,
                "error": {"code": -32601, "message": "Method not found"}
            });
            (
                StatusCode::OK,
                [(header::CONTENT_TYPE, "application/json")],
                refused.to_string(),
            )
                .into_response()
        }
        method => {
            let vectors = id
                .as_str()
                .and_then(|i| i.strip_prefix("wirecheck-"))
                .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()));
            if method == Some("ping") && vectors {
                let before = {
                    let s = seen.lock().unwrap();
                    (s.gets, s.versions.len())
                };
                tokio::time::sleep(SLOW_PING).await;
                let mut s = seen.lock().unwrap();
                s.gets_during_slow = s.gets_during_slow.max(s.gets - before.0);
                s.sessions_during_slow = s.sessions_during_slow.max(s.versions.len() - before.1);
            }
            let result = match method {
                Some("tools/list") => serde_json::json!({"tools": []}),
                _ => serde_json::json!({}),
            };
            (
                StatusCode::OK,
                [(header::CONTENT_TYPE, "application/json")],
                answer(result).to_string(),
            )
                .into_response()
        }
    }
}

/// Runs `wirecheck run` against a fresh [`listener`] with the vectors of
/// `vectors` (paths under `conformance/vectors/mcp/`) and `args`; the
/// records, and what the listener saw.
fn run_listened(name: &str, vectors: &[&str], args: &[&str]) -> (Vec<Value>, Listening, String) {
    run_listened_with(name, vectors, args, Listening::default())
}

/// [`run_listened`] against a [`listener`] that starts from `seen`.
fn run_listened_with(
    name: &str,
    vectors: &[&str],
    args: &[&str],
    seen: Listening,
) -> (Vec<Value>, Listening, String) {
    let app = Router::new()
        .route("/mcp", axum::routing::any(listener))
        .with_state(std::sync::Arc::clone(&seen));
    let addr = listen(app);
    let dir = std::env::temp_dir().join(format!(
        "wirecheck-run-http-listener-{name}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(dir.join("jsonrpc-2.0")).unwrap();
    for vector in vectors {
        let to = dir.join("mcp").join(vector);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        let from = format!("{}/vectors/mcp/{vector}", env!("CARGO_MANIFEST_DIR"));
        std::fs::copy(from, to).unwrap();
    }
    std::fs::create_dir_all(dir.join("mcp")).unwrap();
    let url = format!("http://{addr}/mcp");
    let mut all = vec!["--http", &url, "--vectors", dir.to_str().unwrap()];
    all.extend_from_slice(args);
    let (out, records, _) = run(&all);
    std::fs::remove_dir_all(&dir).ok();
    (records, seen, show(&out))
}

/// What a server sends when it hears `notifications/initialized` is on the
/// GET-stream probe's stream, however slowly the server takes the GET: the
/// stream is opened before `initialized` is sent. (Sent at once, as before,
/// the two raced, and server-everything's `list_changed` was on the stream
/// or lost as the machine's load decided: `get-no-response` passed on one
/// run and was not observed on the next.)
/// `get-no-response` passed on the one message the [`listener`] sends on
/// `initialized`, read from the GET stream.
fn get_stream_read_one_message(records: &[Value], shown: &str) {
    let found = by_vector(records, "run/2025-11-25/http/get-no-response");
    assert_eq!(found.len(), 1, "{shown}");
    assert_eq!(outcome(found[0]), "pass", "{}", found[0]);
    assert!(
        found[0]
            .to_string()
            .contains("1 message read from the GET stream"),
        "{}",
        found[0]
    );
}

#[test]
fn what_the_server_sends_on_initialized_is_on_the_get_stream() {
    let (records, _, shown) = run_listened("initialized", &[], &["--revision", "2025-11-25"]);
    get_stream_read_one_message(&records, &shown);
}

/// Over Streamable HTTP the revisions are played at once: GET streams of
/// sessions under different revisions were open at the same time.
#[test]
fn revisions_over_streamable_http_are_played_at_once() {
    let (records, seen, shown) = run_listened("revisions", &[], &["--revision", "all"]);
    for revision in ["2025-03-26", "2025-06-18", "2025-11-25"] {
        let found = by_vector(&records, &format!("run/{revision}/negotiation"));
        assert_eq!(found.len(), 1, "{revision}: {shown}");
        assert_eq!(outcome(found[0]), "pass", "{}", found[0]);
    }
    let at_once = seen.lock().unwrap().versions_at_once;
    assert!(
        at_once >= 2,
        "at most {at_once} revision's GET streams open at once"
    );
}

/// The transport judge's probes make their requests while the revision's
/// sessions still play (sessions were initialized while a vector's `ping`
/// was being answered, slowly), those that read a GET stream too: the
/// GET-stream probe's stream and the broadcast probe's two were opened
/// meanwhile, and `get-no-response` still read what the server sent on
/// `initialized`.
#[test]
fn the_transport_judge_probes_and_listens_beside_the_sessions() {
    let (records, seen, shown) = run_listened(
        "beside",
        &["2025-11-25/ping/y_ping.json"],
        &["--revision", "2025-11-25"],
    );
    let found = by_vector(&records, "mcp/2025-11-25/ping/ping");
    assert_eq!(found.len(), 1, "{shown}");
    assert_eq!(outcome(found[0]), "pass", "{}", found[0]);
    let get = by_vector(&records, "run/2025-11-25/http/get-no-response");
    assert_eq!(get.len(), 1, "{shown}");
    assert_eq!(outcome(get[0]), "pass", "{}", get[0]);
    let seen = seen.lock().unwrap();
    assert!(
        seen.sessions_during_slow >= 1,
        "no session initialized while the vector's ping was answered"
    );
    assert!(
        seen.gets_during_slow >= 3,
        "{} GET streams opened beside the sessions, not the three of the listening probes",
        seen.gets_during_slow
    );
}

/// The GET stream is read until a `ping` sent after `initialized` was
/// answered, however long that takes: a server that handles a session's
/// messages in order and takes longer than the second the stream is read
/// for to act on `initialized` (as a server slowed by the run's sessions
/// does) still has what it sent then on the stream read. (With a fixed
/// window of one second from the GET, it was not observed.)
#[test]
fn the_get_stream_is_read_until_the_server_has_acted_on_initialized() {
    let seen = Listening::default();
    seen.lock().unwrap().initialized_takes = Some(Duration::from_millis(1600));
    let (records, _, shown) =
        run_listened_with("slow-initialized", &[], &["--revision", "2025-11-25"], seen);
    get_stream_read_one_message(&records, &shown);
}
