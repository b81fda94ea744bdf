//! The reference peer against the golden vectors, the JSON-RPC 2.0 §7
//! examples, its own lifecycle, and end to end over stdio.

mod common;

use harness::rules::{validate, validate_reply};
use harness::Outcome;
use harness::{lift, Direction, Profile, Revision};
use serde_json::{json, Value};
use wirecheck::judge::{self, Observed, Strictness};
use wirecheck::peer::{Peer, Serve};
use wirecheck::vectors::{default_root, load_all, Binding, Offered, Vector};

const INITIALIZED: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

fn initialize(revision: &str) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{revision}","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#).into_bytes()
}

/// 2026-07-28's per-request fields, for requests built here.
const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// A peer for `revision`, past the handshake when the revision has one and
/// `handshake` is set.
fn peer_for(revision: Revision, handshake: bool) -> Peer {
    let serve = if revision.is_mcp() {
        Serve::Mcp(revision)
    } else {
        Serve::JsonRpc
    };
    let mut peer = Peer::new(serve);
    if handshake && revision.is_mcp() && revision < Revision::Mcp2026_07_28 {
        let answer = peer.handle(&initialize(revision.name()));
        assert_eq!(answer.len(), 1);
        assert!(peer.handle(INITIALIZED).is_empty());
    }
    peer
}

fn parse(frame: &[u8]) -> Value {
    serde_json::from_slice(frame)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(frame)))
}

/// Whether a lowered frame is an answer (a response or a batch of them), not a
/// notification the peer sent on its own.
fn is_answer(frame: &Value) -> bool {
    frame.is_array() || frame.get("method").is_none()
}

/// Every frame the peer emits for `frame` is valid server→client under
/// `revision`, and the answer is a valid reply to the request: no MUST-level
/// violation. Returns the answer, if any.
fn checked(peer: &mut Peer, revision: Revision, frame: &[u8], what: &str) -> Option<Value> {
    checked_frames(peer, revision, frame, what).1
}

/// As [`checked`], with every frame the peer emitted, as sent.
fn checked_frames(
    peer: &mut Peer,
    revision: Revision,
    frame: &[u8],
    what: &str,
) -> (Vec<Vec<u8>>, Option<Value>) {
    let out = peer.handle(frame);
    let server = Profile {
        revision,
        direction: Direction::ServerToClient,
    };
    let mut answer = None;
    for emitted in &out {
        let broken: Vec<_> = validate(emitted, server)
            .into_iter()
            .filter(|v| v.level.is_mandatory())
            .collect();
        assert!(
            broken.is_empty(),
            "{what}: emitted {} breaks {broken:#?}",
            String::from_utf8_lossy(emitted)
        );
        let value = parse(emitted);
        if is_answer(&value) {
            assert!(answer.is_none(), "{what}: two answers to one frame");
            answer = Some((emitted.clone(), value));
        }
    }
    if let Ok(request) = lift(frame) {
        let reply = answer
            .as_ref()
            .map(|(bytes, _)| lift(bytes).expect("answers lift"));
        let client = Profile {
            revision,
            direction: Direction::ClientToServer,
        };
        let broken: Vec<_> = validate_reply(&request, reply.as_ref(), client)
            .into_iter()
            .filter(|v| v.level.is_mandatory())
            .collect();
        assert!(broken.is_empty(), "{what}: the exchange breaks {broken:#?}");
    }
    (out, answer.map(|(_, value)| value))
}

/// Vectors whose recorded answer the peer does not give, each with the reason.
/// An entry that starts agreeing fails the test as stale.
const DIVERGENCES: &[(&str, &str)] = &[
    (
        "jsonrpc-2.0/batch/request-in-batch-unanswered",
        "the batch exchange vectors call methods `a` and `b`, which the peer does not offer: it answers -32601 per element",
    ),
    (
        "jsonrpc-2.0/batch/notification-in-batch-answered",
        "the batch exchange vectors call methods `a` and `b`, which the peer does not offer: it answers -32601 per element",
    ),
    (
        "jsonrpc-2.0/batch/answered-in-any-order",
        "the batch exchange vectors call methods `a` and `b`, which the peer does not offer: it answers -32601 per element",
    ),
    (
        "jsonrpc-2.0/request/unknown-member",
        "the vector assumes a JSON-RPC receiver without `echo`; the exchange vectors (jsonrpc-2.0/exchange/*) call `echo` and expect a result, and the peer offers it",
    ),
    (
        "jsonrpc-2.0/request/id-fractional",
        "the vector assumes a JSON-RPC receiver without `echo`; the exchange vectors (jsonrpc-2.0/exchange/*) call `echo` and expect a result, and the peer offers it",
    ),
    (
        "jsonrpc-2.0/request/id-integer",
        "the vector assumes a JSON-RPC receiver without `echo`; the exchange vectors (jsonrpc-2.0/exchange/*) call `echo` and expect a result, and the peer offers it",
    ),
    (
        "jsonrpc-2.0/request/id-null",
        "the vector assumes a JSON-RPC receiver without `echo`; the exchange vectors (jsonrpc-2.0/exchange/*) call `echo` and expect a result, and the peer offers it",
    ),
    (
        "jsonrpc-2.0/request/id-past-2-53",
        "the vector assumes a JSON-RPC receiver without `echo`; the exchange vectors (jsonrpc-2.0/exchange/*) call `echo` and expect a result, and the peer offers it",
    ),
    (
        "jsonrpc-2.0/request/id-string",
        "the vector assumes a JSON-RPC receiver without `echo`; the exchange vectors (jsonrpc-2.0/exchange/*) call `echo` and expect a result, and the peer offers it",
    ),
    (
        "jsonrpc-2.0/request/pretty-printed",
        "the vector assumes a JSON-RPC receiver without `echo`; the exchange vectors (jsonrpc-2.0/exchange/*) call `echo` and expect a result, and the peer offers it",
    ),
    (
        "jsonrpc-2.0/request/params-absent",
        "the vector assumes a receiver without `sum`; the peer serves JSON-RPC 2.0 §7's `sum`, which jsonrpc-2.0/examples/* expect answered",
    ),
    (
        "jsonrpc-2.0/request/params-array",
        "the vector assumes a receiver without `sum`; the peer serves JSON-RPC 2.0 §7's `sum`, which jsonrpc-2.0/examples/* expect answered",
    ),
    (
        "jsonrpc-2.0/request/params-object",
        "the vector assumes a receiver without `sum`; the peer serves JSON-RPC 2.0 §7's `sum`, which jsonrpc-2.0/examples/* expect answered",
    ),
    (
        "mcp/2024-11-05/base/unknown-members-kept",
        "`c1` is not a cursor the peer issued; pagination §Error Handling: invalid cursors SHOULD be -32602",
    ),
    (
        "mcp/2025-03-26/base/unknown-members-kept",
        "`c1` is not a cursor the peer issued; pagination §Error Handling: invalid cursors SHOULD be -32602",
    ),
    (
        "mcp/2025-06-18/base/unknown-members-kept",
        "`c1` is not a cursor the peer issued; pagination §Error Handling: invalid cursors SHOULD be -32602",
    ),
    (
        "mcp/2025-11-25/base/unknown-members-kept",
        "`c1` is not a cursor the peer issued; pagination §Error Handling: invalid cursors SHOULD be -32602",
    ),
    (
        "mcp/2026-07-28/base/unknown-members-kept",
        "`c1` is not a cursor the peer issued; pagination §Error Handling: invalid cursors SHOULD be -32602",
    ),
    (
        "mcp/2025-11-25/methods/tasks-get",
        "tasks (2025-11-25) are not implemented: tasks/get is -32601",
    ),
    (
        "mcp/2025-11-25/tools/call-as-task-created-completed",
        "tasks (2025-11-25) are not implemented: a task-augmented call is answered inline",
    ),
    (
        "mcp/2025-11-25/tools/call-as-task",
        "tasks (2025-11-25) are not implemented: a task-augmented call is answered inline",
    ),
    (
        "mcp/2026-07-28/base/notification-with-id",
        "the rule model's mcp.r5.meta.missing-required (MUST) wants -32602 for any request lacking the per-request `_meta`, which this one does; the vector accepts only -32601/-32600",
    ),
];

#[test]
fn every_vector_a_server_receives() {
    let (vectors, errors) = load_all(&default_root());
    assert!(errors.is_empty(), "{errors:?}");
    let received: Vec<&Vector> = vectors
        .iter()
        .filter(|v| v.profile.direction == Direction::ClientToServer && v.answer.is_some())
        .collect();
    assert!(received.len() > 300, "only {} vectors", received.len());
    // What the reference peer offers, as the runner would learn it: its
    // catalogue, the cursor it issues, no tasks (not implemented yet).
    let offered = Offered {
        capabilities: ["tools", "prompts", "resources", "logging", "completions"]
            .map(String::from)
            .to_vec(),
        tools: ["echo", "pay", "long_job"].map(String::from).to_vec(),
        prompts: vec!["code_review".into()],
        resources: vec!["file:///project/README.md".into()],
        cursors: vec!["page-2".into()],
        tasks: vec![],
    };
    let mut disagreements = Vec::new();
    for vector in &received {
        let revision = vector.profile.revision;
        let frame: Vec<u8> = match vector.needs.bind(&offered) {
            // Sent as the vector's exact bytes (some are not UTF-8) unless a
            // placeholder had to be bound to what the peer offers.
            Binding::Bound { substitutions } if substitutions.is_empty() => vector.frame.clone(),
            binding @ Binding::Bound { .. } => binding
                .rebind(&vector.frame_text())
                .expect("a bound vector has a frame")
                .into_bytes(),
            Binding::NotApplicable { why } => {
                disagreements.push((vector.id.clone(), format!("not applicable: {why}")));
                continue;
            }
        };
        // A vector about initialize itself starts from a fresh session.
        let handshake = !String::from_utf8_lossy(&frame).contains(r#""method":"initialize""#);
        let mut peer = peer_for(revision, handshake);
        let (out, _) = checked_frames(&mut peer, revision, &frame, &vector.id);
        // The one library judge, strict: the reference peer meets conventions too.
        let judgement = judge::reply_with(vector, &Observed::Frames(out), Strictness::Strict);
        if judgement.outcome != Outcome::Pass {
            disagreements.push((
                vector.id.clone(),
                format!(
                    "{}: {:?} {:?}",
                    judgement.outcome, judgement.mismatches, judgement.notes
                ),
            ));
        }
    }
    let unexplained: Vec<_> = disagreements
        .iter()
        .filter(|(id, _)| !DIVERGENCES.iter().any(|(known, _)| known == id))
        .collect();
    let stale: Vec<_> = DIVERGENCES
        .iter()
        .filter(|(known, _)| !disagreements.iter().any(|(id, _)| id == known))
        .collect();
    assert!(
        unexplained.is_empty(),
        "{} disagree:\n{unexplained:#?}",
        unexplained.len()
    );
    assert!(stale.is_empty(), "stale divergences: {stale:?}");
}

fn text(frames: &[Vec<u8>]) -> Vec<String> {
    frames
        .iter()
        .map(|f| String::from_utf8(f.clone()).expect("UTF-8"))
        .collect()
}

#[test]
fn section_7_examples_answer_for_answer() {
    let mut peer = Peer::new(Serve::JsonRpc);
    let mut one = |frame: &str| text(&peer.handle(frame.as_bytes()));
    assert_eq!(
        one(r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#),
        [r#"{"jsonrpc":"2.0","id":1,"result":19}"#]
    );
    assert_eq!(
        one(
            r#"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#
        ),
        [r#"{"jsonrpc":"2.0","id":3,"result":19}"#]
    );
    assert!(one(r#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#).is_empty());
    let unknown = one(r#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#);
    assert_eq!(parse(unknown[0].as_bytes())["error"]["code"], -32601);
    assert_eq!(parse(unknown[0].as_bytes())["id"], "1");
    let bad_json = one(r#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#);
    assert_eq!(parse(bad_json[0].as_bytes())["error"]["code"], -32700);
    assert_eq!(parse(bad_json[0].as_bytes())["id"], Value::Null);
    let invalid = one(r#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#);
    assert_eq!(parse(invalid[0].as_bytes())["error"]["code"], -32600);
    assert_eq!(parse(invalid[0].as_bytes())["id"], Value::Null);
    let empty = one("[]");
    assert_eq!(empty.len(), 1);
    assert_eq!(parse(empty[0].as_bytes())["error"]["code"], -32600);
    let ones = one("[1,2,3]");
    let ones = parse(ones[0].as_bytes());
    assert_eq!(ones.as_array().map(Vec::len), Some(3));
    assert!(ones
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["error"]["code"] == -32600));
    assert!(one(r#"[{"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]}, {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]"#).is_empty());
    let mixed = one(
        r#"[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},{"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},{"foo": "boo"},{"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},{"jsonrpc": "2.0", "method": "get_data", "id": "9"}]"#,
    );
    assert_eq!(mixed.len(), 1);
    assert!(mixed[0].starts_with(
        r#"[{"jsonrpc":"2.0","id":"1","result":7},{"jsonrpc":"2.0","id":"2","result":19},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"#
    ), "{}", mixed[0]);
    assert!(
        mixed[0].ends_with(r#"{"jsonrpc":"2.0","id":"9","result":["hello",5]}]"#),
        "{}",
        mixed[0]
    );
    assert!(mixed[0].contains(r#""pointer":"/3""#));
}

#[test]
fn ids_come_back_byte_for_byte() {
    for id in [
        r#""1""#,
        "9007199254740993",
        "1.0",
        "-0",
        r#""\u00e9""#,
        "123456789012345678901234567890",
    ] {
        let mut jsonrpc = Peer::new(Serve::JsonRpc);
        let out = text(
            &jsonrpc
                .handle(format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"get_data"}}"#).as_bytes()),
        );
        assert_eq!(
            out,
            [format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":["hello",5]}}"#
            )]
        );
        let mut mcp = peer_for(Revision::Mcp2025_06_18, true);
        let out = text(
            &mcp.handle(format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#).as_bytes()),
        );
        assert_eq!(
            out,
            [format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#)]
        );
    }
}

#[test]
fn negotiation_and_lifecycle() {
    let mut peer = Peer::new(Serve::Negotiate);
    assert_eq!(peer.revision(), None);
    // Before initialize: ping is answered, anything else refused, notifications ignored.
    let ping = peer.handle(br#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#);
    assert_eq!(text(&ping), [r#"{"jsonrpc":"2.0","id":"p","result":{}}"#]);
    let early = parse(&peer.handle(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)[0]);
    assert_eq!(early["error"]["code"], -32600);
    assert!(peer.handle(INITIALIZED).is_empty());
    // A version it supports comes back as asked.
    let answer = checked(
        &mut peer,
        Revision::Mcp2025_06_18,
        &initialize("2025-06-18"),
        "init",
    );
    assert_eq!(answer.unwrap()["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(peer.revision(), Some(Revision::Mcp2025_06_18));
    let again = parse(&peer.handle(&initialize("2025-06-18"))[0]);
    assert_eq!(again["error"]["code"], -32600);
    // 2025-06-18 has no batches: one -32600, id null.
    let batch = peer.handle(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#);
    assert_eq!(batch.len(), 1);
    assert_eq!(parse(&batch[0])["error"]["code"], -32600);
    assert_eq!(parse(&batch[0])["id"], Value::Null);

    // An unknown version gets the latest revision with a handshake.
    let mut peer = Peer::new(Serve::Negotiate);
    let answer = checked(
        &mut peer,
        Revision::Mcp2025_11_25,
        &initialize("1999-01-01"),
        "init",
    );
    let result = &answer.unwrap()["result"];
    assert_eq!(result["protocolVersion"], "2025-11-25");
    assert_eq!(result["capabilities"]["completions"], json!({}));

    // A fixed revision answers with itself.
    let mut peer = Peer::new(Serve::Mcp(Revision::Mcp2024_11_05));
    let answer = checked(
        &mut peer,
        Revision::Mcp2024_11_05,
        &initialize("2025-06-18"),
        "init",
    );
    let result = &answer.unwrap()["result"];
    assert_eq!(result["protocolVersion"], "2024-11-05");
    assert!(result["capabilities"].get("completions").is_none());

    // A 2026-07-28 request needs no handshake, and names its version per request.
    let mut peer = Peer::new(Serve::Negotiate);
    let discover =
        format!(r#"{{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{{{META}}}}}"#);
    let answer = checked(
        &mut peer,
        Revision::Mcp2026_07_28,
        discover.as_bytes(),
        "discover",
    )
    .unwrap();
    assert_eq!(answer["result"]["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(answer["result"]["resultType"], "complete");
    let old = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let answer = checked(&mut peer, Revision::Mcp2026_07_28, old.as_bytes(), "old").unwrap();
    assert_eq!(answer["error"]["code"], -32022);
    assert_eq!(answer["error"]["data"]["requested"], "1900-01-01");
}

#[test]
fn pagination_with_issued_cursors() {
    let revision = Revision::Mcp2025_11_25;
    let mut peer = peer_for(revision, true);
    let first = checked(
        &mut peer,
        revision,
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        "p1",
    )
    .unwrap();
    let cursor = first["result"]["nextCursor"]
        .as_str()
        .expect("a second page")
        .to_owned();
    let second = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{{"cursor":"{cursor}"}}}}"#
    );
    let second = checked(&mut peer, revision, second.as_bytes(), "p2").unwrap();
    assert!(second["result"].get("nextCursor").is_none());
    let mut names: Vec<Value> = first["result"]["tools"].as_array().unwrap().clone();
    names.extend(
        second["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .cloned(),
    );
    let names: Vec<&str> = names.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["echo", "pay", "long_job"]);
    for bad in ["page-1", "page-3", "page-02", "x"] {
        let frame = format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{{"cursor":"{bad}"}}}}"#
        );
        let answer = checked(&mut peer, revision, frame.as_bytes(), bad).unwrap();
        assert_eq!(answer["error"]["code"], -32602, "{bad}");
    }
}

#[test]
fn progress_logging_and_tool_errors() {
    for revision in [
        Revision::Mcp2024_11_05,
        Revision::Mcp2025_03_26,
        Revision::Mcp2025_11_25,
    ] {
        let mut peer = peer_for(revision, true);
        let set = checked(
            &mut peer,
            revision,
            br#"{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"debug"}}"#,
            "set",
        )
        .unwrap();
        assert_eq!(set["result"], json!({}));
        let call = br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"long_job","arguments":{"steps":2},"_meta":{"progressToken":"t-1"}}}"#;
        let out = peer.handle(call);
        // Every emitted frame is judged by `checked` below as well; here the order.
        let kinds: Vec<Value> = out.iter().map(|f| parse(f)).collect();
        let methods: Vec<&str> = kinds
            .iter()
            .map(|f| f["method"].as_str().unwrap_or("answer"))
            .collect();
        assert_eq!(
            methods,
            [
                "notifications/message",
                "notifications/progress",
                "notifications/progress",
                "answer"
            ]
        );
        assert_eq!(kinds[1]["params"]["progressToken"], "t-1");
        assert_eq!(kinds[2]["params"]["progress"], 2);
        let mut peer = peer_for(revision, true);
        checked(&mut peer, revision, call, "progress");
        let bad_level = checked(
            &mut peer,
            revision,
            br#"{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"loud"}}"#,
            "level",
        )
        .unwrap();
        assert_eq!(bad_level["error"]["code"], -32602);
        let tool_error = checked(&mut peer, revision, br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{}}}"#, "echo").unwrap();
        assert_eq!(tool_error["result"]["isError"], true);
        let unknown = checked(
            &mut peer,
            revision,
            br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope"}}"#,
            "nope",
        )
        .unwrap();
        assert_eq!(unknown["error"]["code"], -32602);
        let missing = checked(&mut peer, revision, br#"{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"file:///nope"}}"#, "nope").unwrap();
        assert_eq!(missing["error"]["code"], -32002);
    }
}

#[test]
fn serves_over_stdio_end_to_end() {
    let mut input = initialize("2025-03-26");
    input.extend_from_slice(b"\n");
    input.extend_from_slice(INITIALIZED);
    input.extend_from_slice(b"\n\n{not json\n");
    input.extend_from_slice(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"prompts/list"}]"#);
    input.extend_from_slice(b"\n");
    let out = common::wirecheck(&["serve"], &input);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout.clone())
        .expect("the peer writes UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each answer is JSON"))
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0]["result"]["protocolVersion"], "2025-03-26");
    assert_eq!(lines[1]["error"]["code"], -32700);
    assert_eq!(lines[2][1]["result"]["prompts"][0]["name"], "code_review");

    let out = common::wirecheck(
        &["serve", "--profile", "jsonrpc-2.0"],
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"sum\",\"params\":[1,2,4]}\n",
    );
    assert!(out.status.success());
    assert_eq!(out.stdout, b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":7}\n");
    let out = common::wirecheck(
        &[
            "serve",
            "--profile",
            "jsonrpc-2.0",
            "--revision",
            "2025-03-26",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn stateless_2026_progress_logging_and_listen() {
    let revision = Revision::Mcp2026_07_28;
    let mut peer = Peer::new(Serve::Mcp(revision));
    let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"long_job","arguments":{"steps":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"info","progressToken":9}}}"#;
    let out = peer.handle(call.as_bytes());
    let methods: Vec<Value> = out.iter().map(|f| parse(f)["method"].clone()).collect();
    assert_eq!(
        methods,
        [
            json!("notifications/message"),
            json!("notifications/progress"),
            json!("notifications/progress"),
            Value::Null
        ]
    );
    let answer = checked(&mut peer, revision, call.as_bytes(), "call").unwrap();
    assert_eq!(answer["result"]["resultType"], "complete");
    assert_eq!(
        answer["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "wirecheck"
    );
    let listen = format!(
        r#"{{"jsonrpc":"2.0","id":"s-1","method":"subscriptions/listen","params":{{"notifications":{{"toolsListChanged":true}},{META}}}}}"#
    );
    let out = peer.handle(listen.as_bytes());
    assert_eq!(out.len(), 2);
    let ack = parse(&out[0]);
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "s-1"
    );
    let answer = checked(&mut peer, revision, listen.as_bytes(), "listen").unwrap();
    assert_eq!(
        answer["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "s-1"
    );
    // Gone in 2026-07-28: ping, setLevel, resources/subscribe.
    for method in ["ping", "logging/setLevel", "resources/subscribe"] {
        let frame = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{"level":"info","uri":"file:///a",{META}}}}}"#
        );
        let answer = checked(&mut peer, revision, frame.as_bytes(), method).unwrap();
        assert_eq!(answer["error"]["code"], -32601, "{method}");
    }
    let missing = checked(
        &mut peer,
        revision,
        br#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        "no meta",
    )
    .unwrap();
    assert_eq!(missing["error"]["code"], -32602);
}

/// Garbage never panics the peer and never makes it write a frame that does
/// not lift: random bytes and byte-mutated vector frames, in every mode.
#[test]
fn garbage_is_answered_never_fatal() {
    let (vectors, _) = load_all(&default_root());
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    // xorshift64: reproducible, no dependency. `pick(n)` is below `n`.
    let mut pick = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        usize::try_from(state % n as u64).expect("below a usize")
    };
    let modes = [
        Serve::JsonRpc,
        Serve::Negotiate,
        Serve::Mcp(Revision::Mcp2025_03_26),
        Serve::Mcp(Revision::Mcp2026_07_28),
    ];
    let mut answered = 0usize;
    for (round, vector) in vectors.iter().enumerate() {
        let mut frame = vector.frame.clone();
        if round % 3 == 0 {
            let len = pick(64);
            frame = (0..len)
                .map(|_| u8::try_from(pick(256)).expect("below 256"))
                .collect();
        } else if !frame.is_empty() {
            for _ in 0..=pick(3) {
                let at = pick(frame.len());
                frame[at] = b"{}[],:\"0 \\n"[pick(11)];
            }
        }
        let mut peer = Peer::new(modes[round % modes.len()]);
        peer.handle(&initialize("2025-03-26"));
        for out in peer.handle(&frame) {
            assert!(lift(&out).is_ok(), "{}", String::from_utf8_lossy(&out));
            answered += 1;
        }
    }
    assert!(answered > 100, "only {answered} answers");
}
