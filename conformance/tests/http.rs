//! The reference peer over each HTTP transport, driven by the HTTP client
//! transports (and by the runner's driver, unchanged): the handshake, listing,
//! notifications (202/204), sessions, and the refusals the transport pages
//! require. Every server binds 127.0.0.1:0.

use std::time::Duration;

use harness::Revision;
use reqwest::header::{HeaderName, HeaderValue};
use serde_json::{json, Value};
use wirecheck::driver::{Driver, DriverConfig};
use wirecheck::peer::http::{Config, Server};
use wirecheck::peer::Serve;
use wirecheck::transport::http::{
    header_safe, session_id_concerns, JsonRpcHttpPeer, SsePeer, StreamableHttpPeer,
};
use wirecheck::transport::{Event, Limits, Transport};

/// Serves `serve` on 127.0.0.1:0 in this runtime; returns `http://ADDR`.
async fn start(serve: Serve) -> String {
    let config = Config {
        serve,
        max_frame: 1 << 20,
        allow_remote: false,
    };
    let server = Server::bind("127.0.0.1:0".parse().unwrap(), config)
        .await
        .expect("binds loopback");
    let url = format!("http://{}", server.addr);
    tokio::spawn(server.serve());
    url
}

fn soon() -> tokio::time::Instant {
    tokio::time::Instant::now() + Duration::from_secs(10)
}

/// The next frame, parsed; panics on anything else.
async fn frame(peer: &mut impl Transport) -> Value {
    match peer.recv(soon()).await {
        Event::Frame(bytes) => serde_json::from_slice(&bytes).expect("a JSON frame"),
        other => panic!("expected a frame, got {other:?}"),
    }
}

/// Nothing arrives: HTTP answers `TimedOut` at once when no exchange is open.
async fn nothing(peer: &mut impl Transport) {
    let started = std::time::Instant::now();
    assert_eq!(peer.recv(soon()).await, Event::TimedOut);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "idle recv returns promptly"
    );
}

fn initialize(id: u32, version: &str) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {},
        "clientInfo": {"name": "http-test", "version": "0"}}})
    .to_string()
    .into_bytes()
}

fn request(id: u32, method: &str, params: Value) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        .to_string()
        .into_bytes()
}

const INITIALIZED: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

fn header(name: &'static str, value: &'static str) -> (HeaderName, HeaderValue) {
    (
        HeaderName::from_static(name),
        HeaderValue::from_static(value),
    )
}

#[tokio::test]
async fn streamable_session_is_issued_required_and_ended() {
    let url = format!("{}/mcp", start(Serve::Negotiate).await);
    let mut peer = StreamableHttpPeer::connect(&url, Limits::default()).unwrap();

    peer.send(&initialize(1, "2025-06-18")).await.unwrap();
    let answer = frame(&mut peer).await;
    assert_eq!(
        answer["result"]["protocolVersion"], "2025-06-18",
        "{answer}"
    );
    let session = peer
        .session_id()
        .expect("Mcp-Session-Id issued at initialize");
    assert_eq!(session.len(), 32, "128 random bits as hex: {session}");
    assert!(session.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(peer.protocol_version().as_deref(), Some("2025-06-18"));

    peer.send(INITIALIZED).await.unwrap();
    nothing(&mut peer).await;
    assert_eq!(peer.http_facts().last().unwrap().status, 202);

    peer.send(&request(2, "tools/list", json!({})))
        .await
        .unwrap();
    let tools = frame(&mut peer).await;
    assert_eq!(tools["result"]["tools"][0]["name"], "echo", "{tools}");
    let fact = peer.http_facts().last().cloned().unwrap();
    assert_eq!(
        (fact.status, fact.content_type.as_deref()),
        (200, Some("application/json"))
    );

    // A second session gets another id.
    let mut other = StreamableHttpPeer::connect(&url, Limits::default()).unwrap();
    other.send(&initialize(1, "2025-03-26")).await.unwrap();
    frame(&mut other).await;
    let issued = [session.clone(), other.session_id().unwrap()];
    assert_eq!(session_id_concerns(&issued), Vec::<String>::new());

    // Without the id: 400, with the error surfaced as a frame for the judge.
    peer.set_session_id(None);
    peer.send(&request(3, "tools/list", json!({})))
        .await
        .unwrap();
    let refused = frame(&mut peer).await;
    assert_eq!(peer.http_facts().last().unwrap().status, 400);
    // The request's id could be read, so the error carries it (JSON-RPC 2.0 §5).
    assert_eq!(refused["id"], 3, "the refused request's id: {refused}");

    // DELETE ends it; the id is 404 after.
    peer.set_session_id(Some(session.clone()));
    assert_eq!(peer.delete_session().await.unwrap(), 204);
    assert_eq!(peer.session_id(), None);
    peer.set_session_id(Some(session));
    peer.send(&request(4, "tools/list", json!({})))
        .await
        .unwrap();
    frame(&mut peer).await;
    assert_eq!(peer.http_facts().last().unwrap().status, 404);
    assert_eq!(peer.delete_session().await.unwrap(), 404);
    // 2025-06-18 on, a batch is input the server cannot accept: 400.
    let mut batcher = StreamableHttpPeer::connect(&url, Limits::default()).unwrap();
    batcher.send(&initialize(1, "2025-06-18")).await.unwrap();
    frame(&mut batcher).await;
    batcher
        .send(br#"[{"jsonrpc":"2.0","id":2,"method":"ping"}]"#)
        .await
        .unwrap();
    assert_eq!(frame(&mut batcher).await["error"]["code"], -32600);
    assert_eq!(batcher.http_facts().last().unwrap().status, 400);
    assert!(
        peer.http_findings().is_empty(),
        "{:?}",
        peer.http_findings()
    );
}

#[tokio::test]
async fn streamable_refusals_origin_accept_version_get() {
    let base = start(Serve::Negotiate).await;
    let url = format!("{base}/mcp");

    let mut evil = StreamableHttpPeer::connect(&url, Limits::default()).unwrap();
    let (name, value) = header("origin", "http://evil.example");
    evil.set_header(name, value);
    evil.send(&initialize(1, "2025-06-18")).await.unwrap();
    frame(&mut evil).await;
    assert_eq!(evil.http_facts().last().unwrap().status, 403);
    assert_eq!(evil.session_id(), None);

    let mut local = StreamableHttpPeer::connect(&url, Limits::default()).unwrap();
    let (name, value) = header("origin", "http://localhost:6274");
    local.set_header(name, value);
    local.send(&initialize(1, "2025-06-18")).await.unwrap();
    frame(&mut local).await;
    assert_eq!(
        local.http_facts().last().unwrap().status,
        200,
        "a loopback origin is ours"
    );

    let mut picky = StreamableHttpPeer::connect(&url, Limits::default()).unwrap();
    let (name, value) = header("accept", "application/json");
    picky.set_header(name, value);
    picky.send(&initialize(1, "2025-06-18")).await.unwrap();
    frame(&mut picky).await;
    assert_eq!(picky.http_facts().last().unwrap().status, 406);

    // An unsupported MCP-Protocol-Version is 400 (2025-06-18 on, MUST).
    local.set_protocol_version(Some("1999-01-01".into()));
    local
        .send(&request(2, "tools/list", json!({})))
        .await
        .unwrap();
    frame(&mut local).await;
    assert_eq!(local.http_facts().last().unwrap().status, 400);
    // A known one that is not the session's is refused as well.
    local.set_protocol_version(Some("2025-03-26".into()));
    local
        .send(&request(3, "tools/list", json!({})))
        .await
        .unwrap();
    frame(&mut local).await;
    assert_eq!(local.http_facts().last().unwrap().status, 400);

    // The GET stream is the session's: without a session id, 400.
    let response = reqwest::Client::new()
        .get(&url)
        .header("accept", "text/event-stream")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);

    // A body past --max-frame: 413 with -32700, never buffered.
    let response = reqwest::Client::new()
        .post(&url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(vec![b' '; (1 << 20) + 1])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 413);
    let body: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    assert_eq!(body["error"]["code"], -32700);
}

#[tokio::test]
async fn a_2025_11_25_stream_opens_with_a_priming_event() {
    let url = format!("{}/mcp", start(Serve::Negotiate).await);
    let mut peer = StreamableHttpPeer::connect(&url, Limits::default()).unwrap();
    peer.send(&initialize(1, "2025-11-25")).await.unwrap();
    frame(&mut peer).await;
    let session = peer.session_id().unwrap();
    let call = request(
        2,
        "tools/call",
        json!({"name": "long_job", "arguments": {"steps": 1}, "_meta": {"progressToken": 7}}),
    );
    let response = reqwest::Client::new()
        .post(&url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("mcp-session-id", session)
        .header("mcp-protocol-version", "2025-11-25")
        .body(call.clone())
        .send()
        .await
        .unwrap();
    let text = String::from_utf8(response.bytes().await.unwrap().to_vec()).unwrap();
    let first = text.split("\n\n").next().unwrap();
    assert!(first.lines().any(|l| l.starts_with("id: ")), "{text}");
    assert!(
        !first.contains("jsonrpc"),
        "the priming event carries no message: {text}"
    );
    // The client transport reads past it: two frames, no finding.
    peer.send(&call).await.unwrap();
    assert_eq!(frame(&mut peer).await["method"], "notifications/progress");
    assert_eq!(frame(&mut peer).await["id"], 2);
    assert!(
        peer.http_findings().is_empty(),
        "{:?}",
        peer.http_findings()
    );
}

#[tokio::test]
async fn streamable_progress_arrives_on_an_sse_stream_before_the_answer() {
    let url = format!("{}/mcp", start(Serve::Negotiate).await);
    let mut peer = StreamableHttpPeer::connect(&url, Limits::default()).unwrap();
    peer.send(&initialize(1, "2025-06-18")).await.unwrap();
    frame(&mut peer).await;
    peer.send(INITIALIZED).await.unwrap();
    let call = request(
        2,
        "tools/call",
        json!({"name": "long_job", "arguments": {"steps": 2}, "_meta": {"progressToken": "p"}}),
    );
    peer.send(&call).await.unwrap();
    let first = frame(&mut peer).await;
    let second = frame(&mut peer).await;
    let answer = frame(&mut peer).await;
    assert_eq!(first["method"], "notifications/progress");
    assert_eq!(second["params"]["progress"], 2);
    assert_eq!(answer["id"], 2, "{answer}");
    let fact = peer.http_facts().last().cloned().unwrap();
    assert_eq!(fact.content_type.as_deref(), Some("text/event-stream"));
    assert_eq!(fact.frames, 3);
    assert!(fact
        .headers
        .contains(&("x-accel-buffering".into(), "no".into())));
    assert!(
        peer.http_findings().is_empty(),
        "{:?}",
        peer.http_findings()
    );
}

fn modern(id: u32, method: &str, mut params: Value) -> Vec<u8> {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "http-test", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    request(id, method, params)
}

#[tokio::test]
async fn streamable_2026_checks_headers_against_the_body_and_keeps_no_session() {
    let url = format!("{}/mcp", start(Serve::Negotiate).await);
    let mut peer = StreamableHttpPeer::connect(&url, Limits::default()).unwrap();

    peer.send(&modern(1, "tools/list", json!({})))
        .await
        .unwrap();
    let tools = frame(&mut peer).await;
    assert_eq!(tools["result"]["tools"][0]["name"], "echo", "{tools}");
    let fact = peer.http_facts().last().cloned().unwrap();
    assert_eq!(fact.status, 200);
    assert!(
        !fact.headers.iter().any(|(n, _)| n == "mcp-session-id"),
        "no sessions in 2026-07-28"
    );

    // A name outside the header-safe set travels Base64-encoded, and matches.
    let call = modern(
        2,
        "tools/call",
        json!({"name": "ech\u{f6}", "arguments": {}}),
    );
    peer.send(&call).await.unwrap();
    let unknown_tool = frame(&mut peer).await;
    assert_eq!(unknown_tool["error"]["code"], -32602, "{unknown_tool}");
    assert!(header_safe("ech\u{f6}").starts_with("=?base64?"));

    // Unknown method: 404 with -32601.
    peer.send(&modern(3, "no/such", json!({}))).await.unwrap();
    let missing = frame(&mut peer).await;
    assert_eq!(missing["error"]["code"], -32601);
    assert_eq!(peer.http_facts().last().unwrap().status, 404);

    // Mcp-Method disagreeing with the body: 400 with HeaderMismatch (-32020).
    let mut liar = StreamableHttpPeer::connect(&url, Limits::default()).unwrap();
    let (name, value) = header("mcp-method", "tools/call");
    liar.set_header(name, value);
    liar.send(&modern(4, "tools/list", json!({})))
        .await
        .unwrap();
    let mismatch = frame(&mut liar).await;
    assert_eq!(mismatch["error"]["code"], -32020, "{mismatch}");
    assert_eq!(mismatch["id"], 4);
    assert_eq!(liar.http_facts().last().unwrap().status, 400);

    // A version the server does not implement: 400 with -32022.
    let future = request(
        5,
        "tools/list",
        json!({"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2099-01-01",
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {}}}),
    );
    peer.send(&future).await.unwrap();
    let unsupported = frame(&mut peer).await;
    assert_eq!(unsupported["error"]["code"], -32022, "{unsupported}");
    assert_eq!(peer.http_facts().last().unwrap().status, 400);
}

#[tokio::test]
async fn the_driver_handshakes_every_revision_over_http() {
    let base = start(Serve::Negotiate).await;
    for revision in Revision::ALL {
        if matches!(revision, Revision::JsonRpc2 | Revision::Mcp2024_11_05) {
            continue;
        }
        let peer = StreamableHttpPeer::connect(&format!("{base}/mcp"), Limits::default()).unwrap();
        let mut driver = Driver::new(peer, DriverConfig::default());
        let handshake = driver.handshake(revision).await.expect("handshake");
        assert_eq!(handshake.protocol_version.as_deref(), Some(revision.name()));
        let listed = driver
            .request("tools/list", None, Duration::from_secs(10))
            .await
            .expect("tools/list answered");
        assert!(
            listed.reply().is_ok(),
            "{revision}: {:?}",
            String::from_utf8_lossy(&listed.bytes)
        );
        let (peer, _) = driver.into_parts();
        assert!(
            peer.http_findings().is_empty(),
            "{revision}: {:?}",
            peer.http_findings()
        );
    }
    // 2024-11-05 over its own transport.
    let peer = SsePeer::connect(&format!("{base}/sse"), Limits::default())
        .await
        .unwrap();
    let mut driver = Driver::new(peer, DriverConfig::default());
    let handshake = driver
        .handshake(Revision::Mcp2024_11_05)
        .await
        .expect("handshake");
    assert_eq!(handshake.protocol_version.as_deref(), Some("2024-11-05"));
}

#[tokio::test]
async fn http_sse_endpoint_event_then_answers_on_the_stream() {
    let base = start(Serve::Negotiate).await;
    let mut peer = SsePeer::connect(&format!("{base}/sse"), Limits::default())
        .await
        .unwrap();
    assert!(
        peer.endpoint()
            .starts_with(&format!("{base}/messages?sessionId=")),
        "{}",
        peer.endpoint()
    );
    peer.send(&initialize(1, "2024-11-05")).await.unwrap();
    assert_eq!(
        frame(&mut peer).await["result"]["protocolVersion"],
        "2024-11-05"
    );
    peer.send(INITIALIZED).await.unwrap();
    peer.send(&request(2, "tools/list", json!({})))
        .await
        .unwrap();
    assert_eq!(frame(&mut peer).await["id"], 2);
    let posts: Vec<u16> = peer
        .http_facts()
        .iter()
        .filter(|f| f.method == "POST")
        .map(|f| f.status)
        .collect();
    assert_eq!(posts, [202, 202, 202]);
    let stream = &peer.http_facts()[0];
    assert_eq!(
        (stream.method.as_str(), stream.frames),
        ("GET", 2),
        "{stream:?}"
    );

    // Clients do not share a peer: a second one starts uninitialized.
    let mut other = SsePeer::connect(&format!("{base}/sse"), Limits::default())
        .await
        .unwrap();
    assert_ne!(other.endpoint(), peer.endpoint());
    other
        .send(&request(1, "tools/list", json!({})))
        .await
        .unwrap();
    assert_eq!(frame(&mut other).await["error"]["code"], -32600);

    // A foreign origin cannot open a stream.
    let response = reqwest::Client::new()
        .get(format!("{base}/sse"))
        .header("origin", "http://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
}

#[tokio::test]
async fn jsonrpc_over_http_answers_in_the_body_and_204s_notifications() {
    let url = format!("{}/", start(Serve::JsonRpc).await);
    let mut peer = JsonRpcHttpPeer::connect(&url, Limits::default()).unwrap();

    peer.send(br#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#)
        .await
        .unwrap();
    assert_eq!(frame(&mut peer).await["result"], 19);
    let fact = peer.http_facts().last().cloned().unwrap();
    assert_eq!(
        (fact.status, fact.content_type.as_deref()),
        (200, Some("application/json"))
    );

    peer.send(br#"{"jsonrpc":"2.0","method":"update","params":[1,2,3,4,5]}"#)
        .await
        .unwrap();
    nothing(&mut peer).await;
    assert_eq!(peer.http_facts().last().unwrap().status, 204);

    peer.send(br#"[{"jsonrpc":"2.0","method":"notify_sum","params":[1,2,4]},{"jsonrpc":"2.0","method":"notify_hello","params":[7]}]"#).await.unwrap();
    nothing(&mut peer).await;
    assert_eq!(peer.http_facts().last().unwrap().status, 204);

    peer.send(br#"[{"jsonrpc":"2.0","method":"sum","params":[1,2,4],"id":"1"},{"jsonrpc":"2.0","method":"notify_hello","params":[7]},{"foo":"boo"}]"#).await.unwrap();
    let batch = frame(&mut peer).await;
    assert_eq!(batch.as_array().map(Vec::len), Some(2), "{batch}");

    peer.send(br#"{"jsonrpc":"2.0","method":"foobar,"params":"bar","baz]"#)
        .await
        .unwrap();
    assert_eq!(frame(&mut peer).await["error"]["code"], -32700);
    assert!(
        peer.http_findings().is_empty(),
        "{:?}",
        peer.http_findings()
    );

    // Streamable HTTP's routes are not served under this profile.
    let response = reqwest::Client::new()
        .get(format!("{url}sse"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
}

#[test]
fn serve_prints_the_bound_address_and_refuses_a_remote_one() {
    use std::io::BufRead;
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_wirecheck"))
        .args(["serve", "--http", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--allow-remote"));

    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_wirecheck"))
        .args(["serve", "--profile", "jsonrpc-2.0", "--http", "127.0.0.1:0"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected stderr: {line}"))
        .to_owned();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let answer = runtime.block_on(async {
        let mut peer = JsonRpcHttpPeer::connect(&format!("{url}/"), Limits::default()).unwrap();
        peer.send(br#"{"jsonrpc":"2.0","method":"subtract","params":[1,1],"id":"x"}"#)
            .await
            .unwrap();
        frame(&mut peer).await
    });
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(answer["result"], 0);
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
}

#[tokio::test]
async fn a_2026_only_peer_has_no_sessions_get_or_delete() {
    let url = format!("{}/mcp", start(Serve::Mcp(Revision::Mcp2026_07_28)).await);
    let client = reqwest::Client::new();
    for method in [reqwest::Method::GET, reqwest::Method::DELETE] {
        let response = client
            .request(method.clone(), &url)
            .header("mcp-session-id", "0123")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 405, "{method}");
        assert_eq!(response.headers()["allow"], "POST", "{method}");
    }
    // A legacy `initialize` (no header, no `_meta`): rejected per §Server
    // Validation ("A server that does not support such clients MUST reject a
    // request without the header"), 400 with -32020, and no session.
    let mut peer = StreamableHttpPeer::connect(&url, Limits::default()).unwrap();
    peer.send(&initialize(1, "2025-06-18")).await.unwrap();
    assert_eq!(frame(&mut peer).await["error"]["code"], -32020);
    assert_eq!(peer.http_facts().last().unwrap().status, 400);
    assert_eq!(peer.session_id(), None);
    // A modern `initialize`: not a 2026-07-28 method, so 404 with -32601.
    peer.send(&modern(2, "initialize", json!({})))
        .await
        .unwrap();
    assert_eq!(frame(&mut peer).await["error"]["code"], -32601);
    assert_eq!(peer.http_facts().last().unwrap().status, 404);
    assert_eq!(peer.session_id(), None);
}

#[tokio::test]
async fn a_2025_03_26_session_answers_a_batch_in_one_body() {
    let url = format!("{}/mcp", start(Serve::Negotiate).await);
    let mut peer = StreamableHttpPeer::connect(&url, Limits::default()).unwrap();
    peer.send(&initialize(1, "2025-03-26")).await.unwrap();
    frame(&mut peer).await;
    peer.send(INITIALIZED).await.unwrap();
    nothing(&mut peer).await;
    let batch = br#"[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"tools/list"}]"#;
    peer.send(batch).await.unwrap();
    let answers = frame(&mut peer).await;
    assert_eq!(answers.as_array().map(Vec::len), Some(2), "{answers}");
    assert_eq!(peer.http_facts().last().unwrap().status, 200);
}

/// Found by `wirecheck fuzz --http`: a body `serde_json` refuses but the
/// codec reads is routed as JSON, and a refusal echoes the id exactly, as it
/// came (`1e400` has no `f64`); a body that is JSON but no valid message
/// (a lone surrogate, a duplicate member) is answered in its session's
/// revision, not by a fresh peer that answers a batch with a batch.
#[tokio::test]
async fn bodies_serde_refuses_are_routed_and_their_ids_echoed_exactly() {
    let url = format!("{}/mcp", start(Serve::Negotiate).await);
    let post = |body: &'static str| {
        reqwest::Client::new()
            .post(&url)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .header("mcp-protocol-version", "2026-07-28")
            .body(body)
            .send()
    };
    // A 2026-07-28 request without its `Mcp-Method` header: refused for its
    // headers (-32020) before its id is read, so the id must come back as sent.
    let response = post(
        r#"{"jsonrpc":"2.0","id":1e400,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}}}"#,
    )
    .await
    .unwrap();
    assert_eq!(response.status(), 400);
    let text = response.text().await.unwrap();
    assert!(text.contains(r#""id":1e400"#), "{text}");
    assert!(text.contains("-32020"), "{text}");

    // A 2025-11-25 session, then a batch serde cannot read.
    let client = reqwest::Client::new();
    let send = |body: Vec<u8>, session: Option<String>| {
        let mut request = client
            .post(&url)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .body(body);
        if let Some(id) = session {
            request = request
                .header("mcp-session-id", id)
                .header("mcp-protocol-version", "2025-11-25");
        }
        request.send()
    };
    let opened = send(initialize(1, "2025-11-25"), None).await.unwrap();
    let session = opened.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    drop(opened.bytes().await.unwrap());
    let initialized = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_vec();
    assert_eq!(
        send(initialized, Some(session.clone()))
            .await
            .unwrap()
            .status(),
        202
    );
    let answered = send(
        br#"[{"jsonrpc":"\udfff","id":1,"id":""}]"#.to_vec(),
        Some(session),
    )
    .await
    .unwrap();
    assert_eq!(answered.status(), 400);
    let body: Value = serde_json::from_slice(&answered.bytes().await.unwrap()).unwrap();
    assert!(
        body.is_object(),
        "one error for the whole batch, not a batch: {body}"
    );
    assert_eq!(body["error"]["code"], -32600, "{body}");
}
