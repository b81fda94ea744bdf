//! `wirecheck proxy --listen … --upstream URL`, the HTTP reverse proxy: a
//! client sees through it what it sees without it (status, headers, bodies,
//! streams), byte for byte; what it finds is what `wirecheck check` finds in
//! its recording; `wirecheck run` tallies the same through it; an upstream
//! that is down is a 502 with a reason, not a panic.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::Value;

fn wirecheck() -> &'static str {
    env!("CARGO_BIN_EXE_wirecheck")
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "wirecheck-proxy-http-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A child that prints `listening on http://ADDR…` first on stderr; the rest
/// of its stderr is kept.
struct Listening {
    child: Child,
    base: String,
    /// The thread draining stderr, which returns the rest of it at its end.
    stderr: Option<std::thread::JoinHandle<String>>,
}

impl Listening {
    fn start(args: &[&str]) -> Self {
        let mut child = Command::new(wirecheck())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("wirecheck starts");
        let mut stderr = BufReader::new(child.stderr.take().expect("piped"));
        let mut line = String::new();
        stderr.read_line(&mut line).expect("it prints its address");
        let base = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .split(' ')
            .next()
            .unwrap_or_default()
            .to_owned();
        // Drained from a thread: a full pipe must not stall the child.
        let drain = std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = stderr.read_to_string(&mut rest);
            rest
        });
        Self {
            child,
            base,
            stderr: Some(drain),
        }
    }

    /// Ctrl-C, then the exit status and everything it wrote on stderr.
    fn stop(mut self) -> (ExitStatus, String) {
        use nix::sys::signal::{kill, Signal};
        use nix::unistd::Pid;
        let pid = Pid::from_raw(i32::try_from(self.child.id()).unwrap());
        kill(pid, Signal::SIGINT).unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            assert!(Instant::now() < deadline, "the proxy did not end on SIGINT");
            std::thread::sleep(Duration::from_millis(20));
        };
        // The drain thread ends at the pipe's end, after the exit: waited
        // for, not guessed at (a loaded machine may schedule it late).
        let err = self
            .stderr
            .take()
            .map(|drain| drain.join().unwrap_or_default())
            .unwrap_or_default();
        (status, err)
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve() -> Listening {
    Listening::start(&["serve", "--http", "127.0.0.1:0"])
}

fn proxy(upstream: &str, extra: &[&str]) -> Listening {
    let mut args = vec!["proxy", "--listen", "127.0.0.1:0", "--upstream", upstream];
    args.extend_from_slice(extra);
    Listening::start(&args)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// What a client keeps of one exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen {
    status: u16,
    /// The headers a client acts on (names lowercase, values as sent).
    headers: BTreeMap<String, String>,
    body: Vec<u8>,
}

const KEY_HEADERS: [&str; 6] = [
    "content-type",
    "content-length",
    "mcp-session-id",
    "allow",
    "cache-control",
    "x-fixture",
];

async fn exchange(request: reqwest::RequestBuilder) -> Seen {
    let answer = request.send().await.expect("an answer");
    let status = answer.status().as_u16();
    let headers = answer
        .headers()
        .iter()
        .filter(|(n, _)| KEY_HEADERS.contains(&n.as_str()))
        .map(|(n, v)| (n.as_str().to_owned(), v.to_str().unwrap().to_owned()))
        .collect();
    let body = answer.bytes().await.expect("a body").to_vec();
    Seen {
        status,
        headers,
        body,
    }
}

const ACCEPT_BOTH: &str = "application/json, text/event-stream";

fn initialize(revision: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{revision}","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
    )
}

/// One conversation with the reference peer at `base`: a JSON answer, a 202,
/// a batch's JSON answer, an SSE answer (a tool call with progress), the GET
/// stream and its resumption, a
/// 400, DELETE and the 404 after it. The random parts the peer draws per
/// session (the session id, the GET pings' ids) are replaced by the same
/// placeholder on both sides; everything else must be equal byte for byte.
async fn conversation(base: &str) -> Vec<(&'static str, Seen)> {
    let client = reqwest::Client::new();
    let mcp = format!("{base}/mcp");
    let post = |body: String, session: Option<&str>| {
        let mut r = client
            .post(&mcp)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, ACCEPT_BOTH)
            .header("mcp-protocol-version", "2025-03-26")
            .body(body);
        if let Some(s) = session {
            r = r.header("mcp-session-id", s);
        }
        r
    };
    let mut out = Vec::new();
    let init = exchange(post(initialize("2025-03-26"), None)).await;
    let session = init.headers["mcp-session-id"].clone();
    out.push(("initialize: a JSON answer", init));
    let s = Some(session.as_str());
    out.push((
        "initialized: 202",
        exchange(post(
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into(),
            s,
        ))
        .await,
    ));
    out.push((
        "a 2025-03-26 batch: one JSON answer",
        exchange(post(
            r#"[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"tools/list"}]"#.into(),
            s,
        ))
        .await,
    ));
    out.push((
        "a call with progress: an SSE answer",
        exchange(post(
            r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"long_job","arguments":{"steps":2},"_meta":{"progressToken":"p"}}}"#.into(),
            s,
        ))
        .await,
    ));
    let get = |last: Option<&str>| {
        let mut r = client
            .get(&mcp)
            .header(header::ACCEPT, "text/event-stream")
            .header("mcp-session-id", &session);
        if let Some(l) = last {
            r = r.header("last-event-id", l);
        }
        r
    };
    let stream = exchange(get(None)).await;
    let first_id = String::from_utf8_lossy(&stream.body)
        .lines()
        .find_map(|l| l.strip_prefix("id: ").map(str::to_owned))
        .expect("the GET stream's events have ids");
    out.push(("the GET stream", stream));
    out.push((
        "the GET stream resumed with Last-Event-ID",
        exchange(get(Some(&first_id))).await,
    ));
    out.push((
        "no session: 400",
        exchange(post(
            r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#.into(),
            None,
        ))
        .await,
    ));
    out.push((
        "DELETE",
        exchange(client.delete(&mcp).header("mcp-session-id", &session)).await,
    ));
    out.push((
        "after DELETE: 404",
        exchange(post(
            r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#.into(),
            s,
        ))
        .await,
    ));
    for (_, seen) in &mut out {
        normalise(seen, &session);
    }
    out
}

/// The session id and the GET pings' random ids, replaced.
fn normalise(seen: &mut Seen, session: &str) {
    if let Some(v) = seen.headers.get_mut("mcp-session-id") {
        *v = v.replace(session, "SESSION");
    }
    let text = String::from_utf8(seen.body.clone()).expect("the peer writes UTF-8");
    let mut out = text.replace(session, "SESSION");
    let marker = "wirecheck-get-ping-";
    let mut at = 0;
    while let Some(i) = out[at..].find(marker) {
        let start = at + i + marker.len();
        out.replace_range(start..start + 32, "X");
        at = start;
    }
    seen.body = out.into_bytes();
}

#[test]
fn the_reference_peer_looks_the_same_direct_and_proxied() {
    let upstream = serve();
    let dir = scratch("same");
    let log = dir.join("log.jsonl");
    let through = proxy(&upstream.base, &["--log", log.to_str().unwrap()]);
    let rt = runtime();
    let direct = rt.block_on(conversation(&upstream.base));
    let proxied = rt.block_on(conversation(&through.base));
    for ((what, d), (_, p)) in direct.iter().zip(&proxied) {
        assert_eq!(d, p, "{what}: direct and proxied differ");
    }
    // The exchanges are the ones meant, so the comparison covers them.
    let status: Vec<u16> = direct.iter().map(|(_, s)| s.status).collect();
    assert_eq!(
        status,
        [200, 202, 200, 200, 200, 200, 400, 204, 404],
        "{direct:?}"
    );
    assert_eq!(direct[0].1.headers["content-type"], "application/json");
    assert_eq!(direct[2].1.headers["content-type"], "application/json");
    for sse in [3, 4, 5] {
        assert_eq!(
            direct[sse].1.headers["content-type"], "text/event-stream",
            "{}",
            direct[sse].0
        );
        assert!(
            direct[sse].1.body.starts_with(b"event: message"),
            "{}",
            direct[sse].0
        );
    }
    let (status, err) = through.stop();
    assert!(!err.contains("panicked"), "{err}");
    // Every message was judged: the GET stream's pings went unanswered (a
    // MUST, so exit 1), which the judge says once the session is deleted.
    assert_eq!(status.code(), Some(1), "{err}");
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        log.lines()
            .any(|l| l.contains("jsonrpc.response.required") && l.contains("wirecheck-get-ping")),
        "{log}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// What the fixture upstream was sent.
type Received = Arc<Mutex<Vec<(String, HeaderMap, Bytes)>>>;

/// An upstream whose every answer is fixed bytes, awkward on purpose:
/// spacing and number spellings a parser would lose, SSE with CR and CRLF
/// line ends and comments, an endpoint event with an absolute URI, a body
/// over the proxy's `--max-frame`, and a 4xx.
fn fixture() -> (String, Received) {
    let received: Received = Arc::default();
    let keep = Arc::clone(&received);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        runtime().block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            tx.send(addr).unwrap();
            let record = move |path: &'static str| {
                let keep = Arc::clone(&keep);
                move |headers: HeaderMap, body: Bytes| {
                    keep.lock()
                        .unwrap()
                        .push((path.to_owned(), headers, body.clone()));
                    async move { answer(path, body, addr) }
                }
            };
            let app = Router::new()
                .route("/json", post(record("/json")))
                .route("/events", post(record("/events")))
                .route("/sse", get(record("/sse")))
                .route("/big", post(record("/big")))
                .route("/long-event", post(record("/long-event")))
                .route("/teapot", post(record("/teapot")))
                .route("/refused", post(record("/refused")));
            let _ = axum::serve(listener, app).await;
        });
    });
    (format!("http://{}", rx.recv().unwrap()), received)
}

const JSON_ANSWER: &[u8] =
    b"{ \"jsonrpc\" : \"2.0\",\"id\":1, \"result\":{\"b\":1e2,\"a\":9007199254740993,\"b\":-0.0}}";
const SSE_ANSWER: &[u8] = b": hello\r\nid: 7\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"id\":1,\"result\":{}}\r\n\r\nevent: message\rdata:{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"\xc3\xa9\"}}\r\r";

const REFUSAL_BODY: &str = r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}"#;

fn big_answer() -> Vec<u8> {
    let mut big = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"pad\":\"".to_vec();
    big.extend(std::iter::repeat_n(b'x', 300_000));
    big.extend_from_slice(b"\"}}");
    big
}

/// An SSE answer whose first event is over the proxy's `--max-frame`, then
/// one that is not: the long one is counted, the next one still judged.
fn long_event() -> Vec<u8> {
    let mut body = b"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"".to_vec();
    body.extend(std::iter::repeat_n(b'z', 200_000));
    body.extend_from_slice(
        b"\"}}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"after\":\"long\"}}\n\n",
    );
    body
}

fn answer(path: &str, body: Bytes, addr: std::net::SocketAddr) -> Response {
    match path {
        "/json" => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json"), (header::HeaderName::from_static("x-fixture"), "one")],
            JSON_ANSWER,
        )
            .into_response(),
        "/events" => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/event-stream"), (header::CACHE_CONTROL, "no-cache")],
            SSE_ANSWER,
        )
            .into_response(),
        "/sse" => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/event-stream")],
            format!("event: endpoint\ndata: http://{addr}/messages?sessionId=7\n\nevent: message\ndata: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}}\n\n"),
        )
            .into_response(),
        "/big" => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            // The request's own bytes come back after the big answer, so
            // the client can see they reached the upstream unchanged.
            [big_answer(), body.to_vec()].concat(),
        )
            .into_response(),
        "/long-event" => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/event-stream")],
            long_event(),
        )
            .into_response(),
        // A Streamable HTTP server refusing a POST that carries no session
        // id, as TypeScript SDK servers do: 400 and an error without `id`.
        "/refused" => (
            StatusCode::BAD_REQUEST,
            [(header::CONTENT_TYPE, "application/json")],
            REFUSAL_BODY,
        )
            .into_response(),
        _ => (
            StatusCode::IM_A_TEAPOT,
            [(header::CONTENT_TYPE, "text/plain"), (header::HeaderName::from_static("x-fixture"), "tea")],
            "short and stout",
        )
            .into_response(),
    }
}

#[test]
fn bytes_pass_exactly_both_ways_and_only_an_absolute_endpoint_is_pointed_at_the_proxy() {
    let (upstream, received) = fixture();
    let dir = scratch("exact");
    let log = dir.join("log.jsonl");
    let record = dir.join("rec.jsonl");
    let through = proxy(
        &upstream,
        &[
            "--max-frame",
            "65536",
            "--log",
            log.to_str().unwrap(),
            "--record",
            record.to_str().unwrap(),
        ],
    );
    // A request body as a client may write it: not normalised, not UTF-8.
    let request_body: Vec<u8> =
        b"{\"jsonrpc\":\"2.0\" ,\"id\":1.0,\"method\":\"x\",\"params\":{\"z\":\"\xff\"}}".to_vec();
    let big_request = {
        let mut b = b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"x\",\"params\":{\"p\":\"".to_vec();
        b.extend(std::iter::repeat_n(b'y', 100_000));
        b.extend_from_slice(b"\"}}");
        b
    };
    let rt = runtime();
    let seen = rt.block_on(async {
        let client = reqwest::Client::new();
        let mut seen = Vec::new();
        for (path, body) in [
            ("/json", request_body.clone()),
            ("/events", request_body.clone()),
            ("/big", big_request.clone()),
            ("/long-event", request_body.clone()),
            ("/teapot", request_body.clone()),
        ] {
            for base in [&upstream, &through.base] {
                let r = client
                    .post(format!("{base}{path}"))
                    .header(header::CONTENT_TYPE, "application/json")
                    .header("x-custom", "kept")
                    .body(body.clone());
                seen.push((path, base == &upstream, exchange(r).await));
            }
        }
        let direct = exchange(client.get(format!("{upstream}/sse"))).await;
        let proxied = exchange(client.get(format!("{}/sse", through.base))).await;
        (seen, direct, proxied)
    });
    let (pairs, sse_direct, sse_proxied) = seen;
    for pair in pairs.chunks(2) {
        let ((path, _, direct), (_, _, proxied)) = (&pair[0], &pair[1]);
        assert_eq!(direct, proxied, "{path}: direct and proxied differ");
    }
    assert_eq!(pairs[0].2.body, JSON_ANSWER);
    assert_eq!(pairs[0].2.headers["x-fixture"], "one");
    assert_eq!(pairs[2].2.body, SSE_ANSWER);
    assert_eq!(
        pairs[4].2.body,
        [big_answer(), big_request.clone()].concat()
    );
    assert_eq!(pairs[6].2.body, long_event());
    assert_eq!(pairs[8].2.status, 418);
    // What reached the upstream: the same bytes and end-to-end headers
    // whichever way the request came.
    {
        let received = received.lock().unwrap();
        for pair in received.chunks(2).take(5) {
            assert_eq!(
                pair[0].2, pair[1].2,
                "{}: the request bodies differ",
                pair[0].0
            );
            assert_eq!(pair[1].1["x-custom"], "kept");
            assert_eq!(
                pair[0].1.get(header::CONTENT_LENGTH),
                pair[1].1.get(header::CONTENT_LENGTH)
            );
        }
        assert_eq!(received[0].2, request_body);
    }
    // The endpoint event's absolute URI is the one thing changed.
    let expected = String::from_utf8(sse_direct.body.clone())
        .unwrap()
        .replace(&upstream, &through.base);
    assert_ne!(sse_direct.body, sse_proxied.body);
    assert_eq!(String::from_utf8(sse_proxied.body).unwrap(), expected);
    let (status, err) = through.stop();
    assert!(
        err.contains("so the client posts through the proxy"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    // Judged: the odd request and both answers are frames; the 100 kB
    // request, the 300 kB answer and the 200 kB event are over --max-frame,
    // said so, and the event after the long one is still judged.
    let log = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        log.lines()
            .filter(|l| l.contains("over --max-frame"))
            .count(),
        3,
        "{log}"
    );
    let recorded = std::fs::read_to_string(&record).unwrap();
    assert!(
        recorded.contains("\"frame_hex\""),
        "the non-UTF-8 request: {recorded}"
    );
    assert!(
        recorded.contains(r#"{\"jsonrpc\":\"2.0\",\n\"id\":1,\"result\":{}}"#),
        "the SSE data lines joined: {recorded}"
    );
    assert!(recorded.contains(r#"\"after\":\"long\""#), "{recorded}");
    // The HTTP+SSE stream is a conversation of its own, the second seen.
    let second = std::fs::read_to_string(dir.join("rec-2.jsonl")).unwrap();
    assert!(
        second.contains("notifications/tools/list_changed"),
        "the /sse stream's message event: {second}"
    );
    assert!(status.code().is_some(), "{status}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A 2025-06-18 POST of `body` to `mcp`, in `session` when given.
fn post_json(
    client: &reqwest::Client,
    mcp: &str,
    body: &str,
    session: Option<&str>,
) -> reqwest::RequestBuilder {
    let r = client
        .post(mcp)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, ACCEPT_BOTH)
        .header("mcp-protocol-version", "2025-06-18")
        .body(body.to_owned());
    match session {
        Some(s) => r.header("mcp-session-id", s),
        None => r,
    }
}

/// `(rule, frame)` of every finding in a JSON-lines report.
fn findings(json_lines: &str) -> std::collections::BTreeSet<(String, u64)> {
    json_lines
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|r| {
            Some((
                r.get("rule")?.as_str()?.to_owned(),
                r.get("frame").and_then(Value::as_u64).unwrap_or(u64::MAX),
            ))
        })
        .collect()
}

#[test]
fn a_recording_rejudged_by_check_gives_the_same_findings() {
    let upstream = serve();
    let dir = scratch("rejudge");
    let log = dir.join("log.jsonl");
    let record = dir.join("rec.jsonl");
    let through = proxy(
        &upstream.base,
        &[
            "--log",
            log.to_str().unwrap(),
            "--record",
            record.to_str().unwrap(),
        ],
    );
    let mcp = format!("{}/mcp", through.base);
    runtime().block_on(async {
        let client = reqwest::Client::new();
        let post = |body: &str, session: Option<&str>| post_json(&client, &mcp, body, session);
        let init = exchange(post(&initialize("2025-06-18"), None)).await;
        let session = init.headers["mcp-session-id"].clone();
        let s = Some(session.as_str());
        // Asked before the handshake is over, a frame that is not JSON, a
        // reused id, and the GET stream's pings left unanswered.
        exchange(post(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#, s)).await;
        exchange(post(
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            s,
        ))
        .await;
        exchange(post("{oops", s)).await;
        exchange(post(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#, s)).await;
        exchange(
            client
                .get(&mcp)
                .header(header::ACCEPT, "text/event-stream")
                .header("mcp-session-id", &session),
        )
        .await;
    });
    let (status, err) = through.stop();
    assert_eq!(status.code(), Some(1), "a MUST is broken: {err}");
    let live = findings(&std::fs::read_to_string(&log).unwrap());
    for rule in [
        "json.syntax",
        "mcp.lifecycle.initialized-notification",
        "mcp.base.id-unique-session",
        "jsonrpc.response.required",
    ] {
        assert!(live.iter().any(|(r, _)| r == rule), "no {rule}: {live:?}");
    }
    let check = Command::new(wirecheck())
        .args(["check", "--quiet"])
        .arg(&record)
        .output()
        .unwrap();
    let rejudged = findings(&String::from_utf8_lossy(&check.stdout));
    assert_eq!(
        live, rejudged,
        "the live judge and `wirecheck check` disagree"
    );
    assert_eq!(check.status.code(), status.code());
    std::fs::remove_dir_all(&dir).ok();
}

/// A client that opens sessions and never deletes them cannot grow the proxy
/// without bound: over `--max-conversations`, the least recently active one is
/// judged up to there and closed, the report says so, and its traffic still
/// flows; the others are judged as before.
#[test]
fn over_max_conversations_the_least_recent_is_closed_early_and_still_forwarded() {
    let upstream = serve();
    let dir = scratch("max-conversations");
    let log = dir.join("log.jsonl");
    let through = proxy(
        &upstream.base,
        &["--max-conversations", "1", "--log", log.to_str().unwrap()],
    );
    let mcp = format!("{}/mcp", through.base);
    let reused = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let late = runtime().block_on(async {
        let client = reqwest::Client::new();
        let post = |body: &str, session: Option<&str>| post_json(&client, &mcp, body, session);
        let first = exchange(post(&initialize("2025-06-18"), None)).await;
        let first = first.headers["mcp-session-id"].clone();
        let second = exchange(post(&initialize("2025-06-18"), None)).await;
        let second = second.headers["mcp-session-id"].clone();
        // Both reuse the handshake's id 1: a finding wherever it is judged.
        let late = exchange(post(reused, Some(&first))).await;
        exchange(post(reused, Some(&second))).await;
        late
    });
    let (_, err) = through.stop();
    assert_eq!(
        late.status, 200,
        "the closed conversation is still forwarded: {err}"
    );
    let report = std::fs::read_to_string(&log).unwrap();
    let closed: Vec<&str> = report
        .lines()
        .filter(|l| l.contains("least recently active of --max-conversations 1"))
        .collect();
    assert_eq!(closed.len(), 1, "one conversation closed early: {report}");
    let reuses = report
        .lines()
        .filter(|l| l.contains("mcp.base.id-unique-session"))
        .count();
    // The second session's reuse only: the first was no longer judged when it
    // reused its id (which would be a finding if it were).
    assert_eq!(reuses, 1, "{report}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_upstream_that_is_down_is_a_502_with_the_reason() {
    // A port that was just free: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let through = proxy(&format!("http://127.0.0.1:{port}/mcp"), &[]);
    let seen = runtime().block_on(exchange(
        reqwest::Client::new()
            .post(format!("{}/mcp", through.base))
            .header(header::CONTENT_TYPE, "application/json")
            .body(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
    ));
    assert_eq!(seen.status, 502);
    let body = String::from_utf8(seen.body).unwrap();
    assert!(body.contains("the upstream did not answer"), "{body}");
    assert!(body.contains(&format!("127.0.0.1:{port}")), "{body}");
    let (status, err) = through.stop();
    assert!(err.contains("the upstream did not answer"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        status.code().is_some(),
        "it exits, it is not killed: {status}"
    );
}

/// The signal handlers are installed before `listening on` is printed: a
/// Ctrl-C sent as soon as that line is read ends the proxy with its report
/// (an exit code), never the default action (killed, the report lost).
#[test]
fn a_ctrl_c_right_after_listening_on_ends_the_proxy_with_its_report() {
    let upstream = serve();
    for _ in 0..5 {
        let through = proxy(&format!("{}/mcp", upstream.base), &[]);
        let (status, err) = through.stop();
        assert!(
            status.code().is_some(),
            "it exits, it is not killed: {status} {err}"
        );
    }
}

#[test]
fn a_non_loopback_listen_address_is_refused_without_allow_remote() {
    let out = Command::new(wirecheck())
        .args([
            "proxy",
            "--listen",
            "0.0.0.0:0",
            "--upstream",
            "http://127.0.0.1:9/mcp",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a loopback address"), "{err}");
    assert!(err.contains("--allow-remote"), "{err}");
}

/// `(vector, outcome)` of every record of `wirecheck run --format json`.
fn tally(out: &std::process::Output) -> BTreeMap<(String, String), usize> {
    let mut tally = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let r: Value = serde_json::from_str(line).expect("JSON lines");
        let key = (
            r["vector"].as_str().unwrap_or_default().to_owned(),
            r["outcome"]["outcome"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        );
        *tally.entry(key).or_default() += 1;
    }
    tally
}

#[test]
fn wirecheck_run_tallies_the_same_through_the_proxy() {
    let upstream = serve();
    let dir = scratch("run");
    let log = dir.join("log.jsonl");
    let through = proxy(&upstream.base, &["--log", log.to_str().unwrap()]);
    let run = |base: &str| {
        Command::new(wirecheck())
            .args(["run", "--format", "json", "--http", &format!("{base}/mcp")])
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let direct = run(&upstream.base);
    let proxied = run(&through.base);
    let (d, p) = (tally(&direct), tally(&proxied));
    assert!(d.len() > 100, "{} vectors", d.len());
    assert_eq!(d, p, "the tallies differ");
    assert_eq!(direct.status.code(), proxied.status.code());
    let (status, err) = through.stop();
    assert!(!err.contains("panicked"), "{err}");
    assert!(status.code().is_some(), "{status}");
    std::fs::remove_dir_all(&dir).ok();
}

/// An HTTP 400 whose body is an error without `id` is what the transports page
/// allows ("The HTTP response body MAY comprise a JSON-RPC error response that
/// has no `id`", 2025-11-25 basic/transports §Sending Messages to the
/// Server 4), so the proxy finds no `jsonrpc.response.id-required` (nor
/// `mcp.base.error-id-absent`) in it, though the conversation (one POST without
/// a session) names no revision and is judged as plain JSON-RPC; the same body
/// as a frame of its own still breaks it.
#[test]
fn an_http_refusal_without_id_is_allowed_through_the_proxy() {
    let (upstream, _) = fixture();
    let dir = scratch("refused");
    let log = dir.join("log.jsonl");
    let through = proxy(
        &upstream,
        &["--format", "json", "--log", log.to_str().unwrap()],
    );
    let rt = runtime();
    let seen = rt.block_on(async {
        let client = reqwest::Client::new();
        exchange(post_json(
            &client,
            &format!("{}/refused", through.base),
            r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#,
            None,
        ))
        .await
    });
    assert_eq!(seen.status, 400);
    assert_eq!(seen.body, REFUSAL_BODY.as_bytes());
    let (_, err) = through.stop();
    assert!(!err.contains("panicked"), "{err}");
    let log = std::fs::read_to_string(&log).unwrap();
    let rules: Vec<String> = findings(&log).into_iter().map(|(r, _)| r).collect();
    for rule in ["jsonrpc.response.id-required", "mcp.base.error-id-absent"] {
        assert!(!rules.iter().any(|r| r == rule), "{rule} in {log}");
    }
    // Over stdio, where no HTTP status allows it, the same body breaks it.
    let stdio = common_check(REFUSAL_BODY);
    assert!(stdio.contains("jsonrpc.response.id-required"), "{stdio}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `wirecheck classify --from server --revision jsonrpc-2.0 --format json`
/// on one frame: its JSON lines.
fn common_check(frame: &str) -> String {
    let out = Command::new(wirecheck())
        .args([
            "classify",
            "--from",
            "server",
            "--revision",
            "jsonrpc-2.0",
            "--format",
            "json",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .expect("piped")
                .write_all(format!("{frame}\n").as_bytes())?;
            child.wait_with_output()
        })
        .expect("wirecheck classify runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}
