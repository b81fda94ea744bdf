//! A hostile HTTP peer never takes the runner down: each fixture route (axum
//! on 127.0.0.1:0) misbehaves in one way, and each exchange ends in a finding
//! that says what happened, within a generous bound on wall time (a shared
//! 2-core machine) and, for the 1 GiB bodies, on memory.

use std::convert::Infallible;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use futures_util::stream::{self, StreamExt};
use wirecheck::driver::{Class, Driver, DriverConfig, Live, ProbeReport};
use wirecheck::transport::http::{
    ConnectError, FindingKind, HttpFinding, HttpOptions, JsonRpcHttpPeer, SsePeer,
    StreamableHttpPeer,
};
use wirecheck::transport::{Event, Limits, Transport};

const ANSWER: &str = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
const REQUEST: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
const GIB: u64 = 1 << 30;

fn typed(status: StatusCode, content_type: &'static str, body: Body) -> Response {
    (status, [(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// `total` bytes of `fill`, made lazily in 64 KiB chunks: never held whole.
fn lazy(total: u64, fill: u8) -> Body {
    const CHUNK: u64 = 64 << 10;
    let chunks = total.div_ceil(CHUNK);
    Body::from_stream(stream::iter(0..chunks).map(move |i| {
        let len = CHUNK.min(total - i * CHUNK);
        Ok::<_, Infallible>(Bytes::from(vec![fill; usize::try_from(len).unwrap()]))
    }))
}

async fn fixture() -> String {
    let routes = Router::new()
        // Declares 1000 bytes, sends 10, then the connection is torn down.
        .route(
            "/hangup",
            post(|| async {
                // The pause lets the head and the first bytes go out first.
                let first = stream::once(async { Ok(Bytes::from_static(b"{\"jsonrpc\"")) });
                let hang_up = stream::once(async {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    Err(std::io::Error::other("fixture hangs up"))
                });
                let parts = first.chain(hang_up);
                let mut response =
                    typed(StatusCode::OK, "application/json", Body::from_stream(parts));
                response
                    .headers_mut()
                    .insert(header::CONTENT_LENGTH, "1000".parse().unwrap());
                response
            }),
        )
        .route(
            "/redirect",
            post(|| async {
                (
                    StatusCode::TEMPORARY_REDIRECT,
                    [(header::LOCATION, "/redirect")],
                )
            }),
        )
        // An SSE stream of keep-alive comments that never ends.
        .route(
            "/forever",
            post(|| async {
                let ticks = tokio_stream_interval(Duration::from_millis(100))
                    .map(|_| Ok::<_, Infallible>(Bytes::from_static(b": still here\n\n")));
                typed(
                    StatusCode::OK,
                    "text/event-stream",
                    Body::from_stream(ticks),
                )
            }),
        )
        // A JSON answer, one byte a second.
        .route(
            "/trickle",
            post(|| async {
                let bytes = tokio_stream_interval(Duration::from_secs(1))
                    .zip(stream::iter(ANSWER.as_bytes().to_vec()))
                    .map(|(_, b)| Ok::<_, Infallible>(Bytes::from(vec![b])));
                typed(StatusCode::OK, "application/json", Body::from_stream(bytes))
            }),
        )
        // 1 GiB, chunked (no length to refuse it by up front).
        .route(
            "/huge",
            post(|| async { typed(StatusCode::OK, "application/json", lazy(GIB, b' ')) }),
        )
        // 1 GiB declared up front.
        .route(
            "/huge-declared",
            post(|| async {
                let mut response = typed(StatusCode::OK, "application/json", lazy(GIB, b' '));
                response
                    .headers_mut()
                    .insert(header::CONTENT_LENGTH, GIB.to_string().parse().unwrap());
                response
            }),
        )
        // One SSE `data:` line of 1 GiB: no event ever completes.
        .route(
            "/huge-sse",
            post(|| async {
                let head =
                    stream::once(async { Ok::<_, Infallible>(Bytes::from_static(b"data: ")) });
                let body = Body::from_stream(
                    head.chain(
                        lazy(GIB, b'x')
                            .into_data_stream()
                            .map(|c| Ok::<_, Infallible>(c.unwrap())),
                    ),
                );
                typed(StatusCode::OK, "text/event-stream", body)
            }),
        )
        .route(
            "/wrong-type",
            post(|| async { typed(StatusCode::OK, "text/plain", Body::from(ANSWER)) }),
        )
        // Field lines without a colon and no blank line to dispatch them.
        .route(
            "/malformed-sse",
            post(|| async {
                let body = format!("data {ANSWER}\nevent message\ndata: {ANSWER}");
                typed(StatusCode::OK, "text/event-stream", Body::from(body))
            }),
        )
        .route(
            "/bad-utf8-sse",
            post(|| async {
                typed(
                    StatusCode::OK,
                    "text/event-stream",
                    Body::from(&b"data: \xff\xfe\n\n"[..]),
                )
            }),
        )
        .route(
            "/html-500",
            post(|| async {
                let page = "<html><body><h1>500 Internal Server Error</h1></body></html>";
                typed(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "text/html",
                    Body::from(page),
                )
            }),
        )
        .route(
            "/null",
            post(|| async { typed(StatusCode::OK, "application/json", Body::from("null")) }),
        )
        .route(
            "/empty-array",
            post(|| async { typed(StatusCode::OK, "application/json", Body::from("[]")) }),
        )
        .route(
            "/accepted-with-body",
            post(|| async { typed(StatusCode::ACCEPTED, "application/json", Body::from(ANSWER)) }),
        )
        .route(
            "/sse-no-endpoint",
            get(|| async {
                typed(
                    StatusCode::OK,
                    "text/event-stream",
                    Body::from(format!("event: message\ndata: {ANSWER}\n\n")),
                )
            }),
        )
        // An endpoint on another origin: the runner must not POST there.
        .route(
            "/sse-elsewhere",
            get(|| async {
                let event = "event: endpoint\ndata: http://198.51.100.7/messages\n\n";
                typed(StatusCode::OK, "text/event-stream", Body::from(event))
            }),
        )
        .route(
            "/sse-html",
            get(|| async {
                typed(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "text/html",
                    Body::from("<html>down</html>"),
                )
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, routes).await });
    url
}

/// Ticks forever, every `period`.
fn tokio_stream_interval(period: Duration) -> impl futures_util::Stream<Item = ()> {
    stream::unfold(tokio::time::interval(period), |mut interval| async move {
        interval.tick().await;
        Some(((), interval))
    })
}

fn quick() -> HttpOptions {
    HttpOptions {
        request_timeout: Duration::from_secs(2),
        connect_timeout: Duration::from_secs(2),
        ..HttpOptions::default()
    }
}

fn small() -> Limits {
    Limits {
        max_frame: 1 << 20,
        ..Limits::default()
    }
}

/// Sends one request to `path` and collects every frame until the exchange
/// is over; returns them with the findings and the time it took.
async fn exchange(base: &str, path: &str) -> (Vec<Vec<u8>>, Vec<HttpFinding>, Duration) {
    let started = Instant::now();
    let mut peer =
        StreamableHttpPeer::with_options(&format!("{base}{path}"), small(), quick()).unwrap();
    peer.send(REQUEST).await.unwrap();
    let frames = drain(&mut peer).await;
    (frames, peer.http_findings(), started.elapsed())
}

async fn drain(peer: &mut impl Transport) -> Vec<Vec<u8>> {
    let mut frames = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        match peer.recv(deadline).await {
            Event::Frame(bytes) => frames.push(bytes),
            Event::TimedOut => return frames,
            other => panic!("unexpected {other:?}"),
        }
    }
}

fn kinds(findings: &[HttpFinding]) -> Vec<FindingKind> {
    findings.iter().map(|f| f.kind).collect()
}

/// Generous: the fixtures' own bounds are 2 s.
const BOUND: Duration = Duration::from_secs(20);

#[tokio::test]
async fn hang_up_mid_body_is_a_cut_body() {
    let base = fixture().await;
    let (frames, findings, took) = exchange(&base, "/hangup").await;
    assert!(frames.is_empty());
    assert_eq!(kinds(&findings), [FindingKind::BodyCut], "{findings:?}");
    assert!(
        findings[0].detail.contains("after 10 body bytes"),
        "{findings:?}"
    );
    assert!(took < BOUND);
}

#[tokio::test]
async fn a_redirect_loop_is_not_followed() {
    let base = fixture().await;
    let (frames, findings, took) = exchange(&base, "/redirect").await;
    assert!(frames.is_empty());
    assert_eq!(kinds(&findings), [FindingKind::Redirect], "{findings:?}");
    assert_eq!(findings[0].status, Some(307));
    assert!(findings[0].detail.contains("/redirect"));
    assert!(took < BOUND);
}

#[tokio::test]
async fn an_sse_stream_that_never_ends_is_abandoned_at_the_request_timeout() {
    let base = fixture().await;
    let mut peer =
        StreamableHttpPeer::with_options(&format!("{base}/forever"), small(), quick()).unwrap();
    peer.send(REQUEST).await.unwrap();
    // The runner's own deadline comes first and is honoured.
    let started = Instant::now();
    let soon = tokio::time::Instant::now() + Duration::from_millis(300);
    assert_eq!(peer.recv(soon).await, Event::TimedOut);
    assert!(started.elapsed() < Duration::from_secs(2));
    let (frames, findings) = (drain(&mut peer).await, peer.http_findings());
    assert!(frames.is_empty());
    assert_eq!(
        kinds(&findings),
        [FindingKind::TimedOut, FindingKind::NoAnswer],
        "{findings:?}"
    );
    assert!(started.elapsed() < BOUND);
}

#[tokio::test]
async fn a_trickled_body_is_abandoned_at_the_request_timeout() {
    let base = fixture().await;
    let (frames, findings, took) = exchange(&base, "/trickle").await;
    assert!(frames.is_empty());
    assert_eq!(kinds(&findings), [FindingKind::TimedOut], "{findings:?}");
    assert!(took >= Duration::from_secs(2) && took < BOUND, "{took:?}");
}

/// Peak resident memory of this process, from /proc (Linux).
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace()
        .nth(1)?
        .parse::<u64>()
        .ok()
        .map(|kb| kb * 1024)
}

#[tokio::test]
async fn a_gibibyte_body_ends_in_a_bounded_error() {
    let base = fixture().await;
    for path in ["/huge", "/huge-declared", "/huge-sse"] {
        let (frames, findings, took) = exchange(&base, path).await;
        assert!(frames.is_empty(), "{path}");
        assert_eq!(
            findings.first().map(|f| f.kind),
            Some(FindingKind::BodyTooLong),
            "{path}: {findings:?}"
        );
        assert!(took < BOUND, "{path}: {took:?}");
    }
    if let Some(peak) = peak_rss() {
        // A buffered GiB would be far past this (measured: about 10 MiB).
        assert!(peak < 64 << 20, "peak RSS {peak} bytes");
    }
}

#[tokio::test]
async fn a_wrong_content_type_is_a_finding_and_the_body_still_judged() {
    let base = fixture().await;
    let (frames, findings, _) = exchange(&base, "/wrong-type").await;
    assert_eq!(frames, [ANSWER.as_bytes()]);
    assert_eq!(
        kinds(&findings),
        [FindingKind::WrongContentType],
        "{findings:?}"
    );
    assert!(findings[0].detail.contains("text/plain"));
}

#[tokio::test]
async fn malformed_sse_framing_is_a_finding() {
    let base = fixture().await;
    let (frames, findings, _) = exchange(&base, "/malformed-sse").await;
    assert!(
        frames.is_empty(),
        "no event was ever dispatched: {frames:?}"
    );
    assert_eq!(
        kinds(&findings),
        [FindingKind::MalformedSse, FindingKind::NoAnswer],
        "{findings:?}"
    );

    let (frames, findings, _) = exchange(&base, "/bad-utf8-sse").await;
    assert!(frames.is_empty());
    assert_eq!(
        kinds(&findings),
        [FindingKind::MalformedSse, FindingKind::NoAnswer],
        "{findings:?}"
    );
}

#[tokio::test]
async fn a_500_with_an_html_page_is_an_error_status_not_a_frame() {
    let base = fixture().await;
    let (frames, findings, _) = exchange(&base, "/html-500").await;
    assert!(frames.is_empty());
    assert_eq!(kinds(&findings), [FindingKind::ErrorStatus], "{findings:?}");
    assert_eq!(findings[0].status, Some(500));
    assert!(findings[0].detail.contains("text/html") && findings[0].detail.contains("<h1>500"));
}

#[tokio::test]
async fn a_202_with_a_body_is_a_finding() {
    let base = fixture().await;
    let (frames, findings, _) = exchange(&base, "/accepted-with-body").await;
    assert_eq!(frames.len(), 1, "the body is still judged");
    assert_eq!(
        kinds(&findings),
        [FindingKind::UnexpectedBody],
        "{findings:?}"
    );
}

#[tokio::test]
async fn jsonrpc_bodies_null_and_empty_array_are_findings() {
    let base = fixture().await;
    for (path, kind) in [
        ("/null", FindingKind::NullBody),
        ("/empty-array", FindingKind::EmptyBatchBody),
    ] {
        let mut peer =
            JsonRpcHttpPeer::with_options(&format!("{base}{path}"), small(), quick()).unwrap();
        peer.send(br#"{"jsonrpc":"2.0","method":"notify_hello","params":[7]}"#)
            .await
            .unwrap();
        assert!(drain(&mut peer).await.is_empty(), "{path}");
        assert_eq!(kinds(&peer.http_findings()), [kind], "{path}");
    }
}

#[tokio::test]
async fn an_http_sse_peer_without_an_endpoint_event_fails_its_handshake() {
    let base = fixture().await;
    for path in ["/sse-no-endpoint", "/sse-html", "/sse-elsewhere"] {
        let started = Instant::now();
        let result = SsePeer::with_options(&format!("{base}{path}"), small(), quick()).await;
        let Err(ConnectError::Handshake(why)) = result else {
            panic!("{path}: expected a handshake error");
        };
        let expected = match path {
            "/sse-html" => "500",
            "/sse-elsewhere" => "another origin",
            _ => "no endpoint event",
        };
        assert!(why.contains(expected), "{path}: {why}");
        assert!(started.elapsed() < BOUND);
    }
}

#[tokio::test]
async fn a_refused_connection_is_a_finding() {
    // A port nothing listens on: bind, learn it, close.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    drop(listener);
    let mut peer = StreamableHttpPeer::with_options(&url, small(), quick()).unwrap();
    peer.send(REQUEST).await.unwrap();
    assert!(drain(&mut peer).await.is_empty());
    assert_eq!(kinds(&peer.http_findings()), [FindingKind::Connect]);
}

/// Answers every POST in its own response, but `resources/subscribe` only
/// after `slow_ms` and `tools/list` after `list_ms`; anything else (the
/// liveness `ping`) at once. So a probe's answer arrives after the ping's,
/// and a late one inside the next probe: only the POST says whose it is.
async fn out_of_order(slow_ms: u64, list_ms: u64) -> String {
    let answer = move |body: Bytes| async move {
        let request: serde_json::Value = serde_json::from_slice(&body).unwrap();
        let delay = match request["method"].as_str() {
            Some("resources/subscribe") => slow_ms,
            Some("tools/list") => list_ms,
            _ => 0,
        };
        tokio::time::sleep(Duration::from_millis(delay)).await;
        let reply = serde_json::json!({"jsonrpc": "2.0", "id": request["id"], "result": {}});
        typed(
            StatusCode::OK,
            "application/json",
            Body::from(reply.to_string()),
        )
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move {
        axum::serve(listener, Router::new().route("/mcp", post(answer)))
            .await
            .unwrap();
    });
    url
}

fn driver(url: &str, answer_timeout: Duration) -> Driver<StreamableHttpPeer> {
    let peer = StreamableHttpPeer::with_options(url, small(), quick()).unwrap();
    let config = DriverConfig {
        answer_timeout,
        ..DriverConfig::default()
    };
    Driver::new(peer, config)
}

fn ids_of(report: &ProbeReport, class: &Class) -> Vec<serde_json::Value> {
    report
        .of(class)
        .map(|r| serde_json::from_slice::<serde_json::Value>(&r.bytes).unwrap()["id"].clone())
        .collect()
}

#[tokio::test]
async fn a_probe_answered_after_its_ping_still_gets_its_own_answer() {
    // 300 ms is well past the ping's answer plus the 50 ms grace.
    let url = out_of_order(300, 0).await;
    let mut driver = driver(&url, Duration::from_secs(3));
    let subscribe =
        br#"{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"x:/a"}}"#;
    let first = driver.probe(subscribe, true).await;
    assert!(matches!(first.live, Live::Answered(_)), "{first:?}");
    assert_eq!(ids_of(&first, &Class::ProbeAnswer), [serde_json::json!(1)]);
    let second = driver
        .probe(br#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#, true)
        .await;
    assert_eq!(ids_of(&second, &Class::ProbeAnswer), [serde_json::json!(2)]);
    assert!(
        second
            .frames
            .iter()
            .all(|r| matches!(r.class, Class::ProbeAnswer | Class::LivenessAnswer)),
        "{second:?}"
    );
}

#[tokio::test]
async fn a_late_answer_on_an_earlier_post_is_no_later_probes() {
    // The subscribe answer (1500 ms) outlives its probe (answer timeout
    // 1000 ms) and lands while the tools/list probe (sent at about 1000 ms,
    // answered 800 ms later) is listening: arrival order would take it for
    // that probe's.
    let url = out_of_order(1500, 800).await;
    let mut driver = driver(&url, Duration::from_millis(1000));
    let subscribe =
        br#"{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"x:/a"}}"#;
    let first = driver.probe(subscribe, true).await;
    assert!(!first.answered(), "{first:?}");
    let second = driver
        .probe(br#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#, true)
        .await;
    assert_eq!(ids_of(&second, &Class::ProbeAnswer), [serde_json::json!(2)]);
    assert_eq!(
        ids_of(&second, &Class::OtherExchange),
        [serde_json::json!(1)],
        "{second:?}"
    );
}
