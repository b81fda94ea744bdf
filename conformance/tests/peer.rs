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
        // A stream the peer acknowledged and kept open owes its response at
        // teardown (`Peer::close`), not now.
        let open_stream = reply.is_none()
            && out
                .first()
                .is_some_and(|f| parse(f)["method"] == "notifications/subscriptions/acknowledged");
        let broken: Vec<_> = validate_reply(&request, reply.as_ref(), client)
            .into_iter()
            .filter(|v| v.level.is_mandatory())
            .filter(|v| !(open_stream && v.rule.as_str() == "jsonrpc.response.required"))
            .collect();
        assert!(broken.is_empty(), "{what}: the exchange breaks {broken:#?}");
    }
    (out, answer.map(|(_, value)| value))
}

/// Vectors the reference peer cannot pass, each with the reason: a vector
/// that needs what no conformant server of its revision can offer. The lead
/// fixes vectors; an entry that starts passing fails the test as stale.
const DIVERGENCES: &[(&str, &str)] = &[];

/// Advisory rules no conformant server can keep where they fire, because the
/// alternative breaks a MUST: a warning whose only grounds are these (no
/// mismatch with the answer) is explained. Each must still be seen, or the
/// entry is stale.
const UNAVOIDABLE: &[(&str, &str)] = &[
    (
        "mcp.base.error-id-null",
        "ambiguity A2, weighed by no verdict and said once per run (harness::rules::RuleId::run_level_ambiguity): a request whose id is null (every revision), or a frame whose id cannot be read up to 2025-06-18, must be answered with \"id\": null (JSON-RPC 2.0 §5; MCP basic/index: error responses \"MUST include the same ID as the request\"), which the MCP schemas' `RequestId` does not allow; omitting it breaks jsonrpc.response.id-required (2024-11-05), mcp.base.error-id-absent (2025-03-26, 2025-06-18) or the id echo. From 2025-11-25 the peer omits an unreadable id, as that schema allows",
    ),
];

/// The revision's per-request `_meta` for a request built here.
fn meta_for(revision: Revision) -> &'static str {
    if revision == Revision::Mcp2026_07_28 {
        META
    } else {
        ""
    }
}

/// Sends a request the test built and returns its result, which must come.
fn ask(peer: &mut Peer, revision: Revision, method: &str, params: &str) -> Value {
    let meta = meta_for(revision);
    let sep = if params.is_empty() || meta.is_empty() {
        ""
    } else {
        ","
    };
    let frame = format!(
        r#"{{"jsonrpc":"2.0","id":"probe","method":"{method}","params":{{{params}{sep}{meta}}}}}"#
    );
    let answer = checked(peer, revision, frame.as_bytes(), method)
        .unwrap_or_else(|| panic!("{method}: no answer"));
    answer
        .get("result")
        .unwrap_or_else(|| panic!("{method}: {answer}"))
        .clone()
}

/// What the reference peer offers under `revision`, found out as the runner
/// would: the capabilities `initialize` (or 2026-07-28's `server/discover`)
/// declares, the names its lists give, the cursor `tools/list` returns. Tools
/// are the ones a run is allowed to call: all of them. Task ids are learned
/// per vector ([`create_task`]), since a task lives in one session.
fn offered(revision: Revision) -> Offered {
    if !revision.is_mcp() {
        return Offered {
            tools: ["echo", "pay", "long_job"].map(String::from).to_vec(),
            ..Offered::default()
        };
    }
    let mut peer = Peer::new(Serve::Mcp(revision));
    let capabilities = if revision == Revision::Mcp2026_07_28 {
        ask(&mut peer, revision, "server/discover", "")["capabilities"].clone()
    } else {
        let answer = checked(&mut peer, revision, &initialize(revision.name()), "init")
            .expect("initialize is answered");
        assert!(peer.handle(INITIALIZED).is_empty());
        answer["result"]["capabilities"].clone()
    };
    let names = |result: &Value, key: &str, field: &str| -> Vec<String> {
        result[key]
            .as_array()
            .expect("a list")
            .iter()
            .map(|item| item[field].as_str().expect("a name").to_owned())
            .collect()
    };
    let tools = ask(&mut peer, revision, "tools/list", "");
    let prompts = ask(&mut peer, revision, "prompts/list", "");
    let resources = ask(&mut peer, revision, "resources/list", "");
    Offered {
        capabilities: capabilities
            .as_object()
            .expect("capabilities are an object")
            .keys()
            .cloned()
            .collect(),
        tools: ["echo", "pay", "long_job"].map(String::from).to_vec(),
        prompts: names(&prompts, "prompts", "name"),
        resources: names(&resources, "resources", "uri"),
        cursors: tools["nextCursor"]
            .as_str()
            .map(String::from)
            .into_iter()
            .collect(),
        tasks: Vec::new(),
    }
}

/// Creates a task on `peer` with a task-augmented `long_job` call and
/// returns its id (2025-11-25 basic/utilities/tasks §Creating Tasks).
fn create_task(peer: &mut Peer, revision: Revision) -> String {
    let result = ask(
        peer,
        revision,
        "tools/call",
        r#""name":"long_job","arguments":{"steps":1},"task":{"ttl":60000}"#,
    );
    assert_eq!(result["task"]["status"], "working", "{result}");
    result["task"]["taskId"]
        .as_str()
        .expect("a string task id")
        .to_owned()
}

/// A judgement's violations, each with its rule, level and where.
fn violations(judgement: &judge::Judgement) -> Vec<String> {
    judgement
        .violations()
        .map(|v| format!("{} ({}) at {:?}: {}", v.rule, v.level, v.pointer, v.message))
        .collect()
}

#[test]
fn every_vector_a_server_receives() {
    let (vectors, errors) = load_all(&default_root());
    assert!(errors.is_empty(), "{errors:?}");
    let received: Vec<&Vector> = vectors
        .iter()
        .filter(|v| v.profile.direction == Direction::ClientToServer && v.answer.is_some())
        .collect();
    assert!(received.len() > 300, "only {} vectors", received.len());
    let mut learned = std::collections::BTreeMap::new();
    let mut disagreements = Vec::new();
    let mut unavoidable_seen = std::collections::BTreeSet::new();
    let mut tasks_bound = 0;
    for vector in &received {
        let revision = vector.profile.revision;
        // A vector about initialize itself starts from a fresh session.
        let handshake = !vector.frame_text().contains(r#""method":"initialize""#);
        let mut peer = peer_for(revision, handshake);
        let mut offered = learned
            .entry(revision)
            .or_insert_with(|| offered(revision))
            .clone();
        let declares_tasks = offered.capabilities.iter().any(|c| c == "tasks");
        if vector.needs.task.is_some() && declares_tasks && handshake {
            offered.tasks.push(create_task(&mut peer, revision));
            tasks_bound += 1;
        }
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
        let (out, _) = checked_frames(&mut peer, revision, &frame, &vector.id);
        // Judged against the frame as sent, as the runner does (its bound
        // vector carries the rebound frame): a reply naming the created task
        // answers the request that named it.
        let mut sent = (*vector).clone();
        sent.frame = frame;
        // The one library judge, strict: the reference peer meets conventions too.
        let judgement = judge::reply_with(&sent, &Observed::Frames(out), Strictness::Strict);
        // A run-level ambiguity (A2) weighs on no verdict, never a warning:
        // seen, not counted.
        unavoidable_seen.extend(judgement.ambiguities.iter().map(|r| r.as_str()));
        if judgement.outcome == Outcome::Pass {
            continue;
        }
        let unavoidable: Vec<&str> = judgement.violations().map(|v| v.rule.as_str()).collect();
        if judgement.outcome == Outcome::Warning
            && judgement.mismatches.is_empty()
            && !unavoidable.is_empty()
            && unavoidable
                .iter()
                .all(|rule| UNAVOIDABLE.iter().any(|(known, _)| known == rule))
        {
            unavoidable_seen.extend(unavoidable);
            continue;
        }
        disagreements.push((
            vector.id.clone(),
            format!(
                "{}: mismatches {:?}, violations {:?}, notes {:?}",
                judgement.outcome,
                judgement.mismatches,
                violations(&judgement),
                judgement.notes
            ),
        ));
    }
    // The tasks-get vectors did get a task the peer created.
    assert!(tasks_bound >= 1, "no vector was bound to a created task");
    let unexplained: Vec<_> = disagreements
        .iter()
        .filter(|(id, _)| !DIVERGENCES.iter().any(|(known, _)| known == id))
        .collect();
    let stale: Vec<_> = DIVERGENCES
        .iter()
        .filter(|(known, _)| !disagreements.iter().any(|(id, _)| id == known))
        .map(|(known, _)| known)
        .chain(
            UNAVOIDABLE
                .iter()
                .filter(|(rule, _)| !unavoidable_seen.contains(rule))
                .map(|(rule, _)| rule),
        )
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
fn tasks_created_polled_listed_cancelled() {
    let revision = Revision::Mcp2025_11_25;
    let mut peer = peer_for(revision, true);
    let first = ask(&mut peer, revision, "tools/list", "");
    let cursor = first["nextCursor"].as_str().expect("a second page");
    let tools = ask(
        &mut peer,
        revision,
        "tools/list",
        &format!(r#""cursor":"{cursor}""#),
    );
    assert_eq!(tools["tools"][0]["execution"]["taskSupport"], "optional");
    // A tool without taskSupport is not run as a task (§Tool-Level Negotiation).
    let frame = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"task":{}}}"#;
    let refused = checked(&mut peer, revision, frame, "echo as task").unwrap();
    assert_eq!(refused["error"]["code"], -32601);
    let first = create_task(&mut peer, revision);
    let second = create_task(&mut peer, revision);
    assert_ne!(first, second, "task ids are unique");
    let task = |id: &str| format!(r#""taskId":"{id}""#);
    // The first is polled: it has run.
    let got = ask(&mut peer, revision, "tasks/get", &task(&first));
    assert_eq!(got["status"], "completed");
    for member in ["createdAt", "lastUpdatedAt", "ttl", "pollInterval"] {
        assert!(got.get(member).is_some(), "{member}: {got}");
    }
    let result = ask(&mut peer, revision, "tasks/result", &task(&first));
    assert_eq!(result["content"][0]["text"], "done: 1 steps");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        first.as_str()
    );
    // The second is cancelled while working; a terminal one cannot be.
    let cancelled = ask(&mut peer, revision, "tasks/cancel", &task(&second));
    assert_eq!(cancelled["status"], "cancelled");
    for (id, what) in [(&first, "completed"), (&second, "cancelled")] {
        let frame = format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tasks/cancel","params":{{{}}}}}"#,
            task(id)
        );
        let answer = checked(&mut peer, revision, frame.as_bytes(), what).unwrap();
        assert_eq!(answer["error"]["code"], -32602, "{what}");
    }
    let listed = ask(&mut peer, revision, "tasks/list", "");
    assert_eq!(listed["tasks"].as_array().map(Vec::len), Some(2));
    let unknown = checked(
        &mut peer,
        revision,
        br#"{"jsonrpc":"2.0","id":3,"method":"tasks/result","params":{"taskId":"task-99"}}"#,
        "unknown",
    )
    .unwrap();
    assert_eq!(unknown["error"]["code"], -32602);
    // Before 2025-11-25 a `task` member means nothing: the call is answered inline.
    let old = Revision::Mcp2025_06_18;
    let mut peer = peer_for(old, true);
    let inline = ask(
        &mut peer,
        old,
        "tools/call",
        r#""name":"long_job","arguments":{"steps":1},"task":{"ttl":1}"#,
    );
    assert!(inline.get("task").is_none(), "{inline}");
    assert_eq!(inline["content"][0]["text"], "done: 1 steps");
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

    // 2026-07-28 over stdio: the listen request is acknowledged, and its
    // response is written only at teardown, when input ends.
    let listen = format!(
        r#"{{"jsonrpc":"2.0","id":5,"method":"subscriptions/listen","params":{{"notifications":{{}},{META}}}}}"#
    );
    let out = common::wirecheck(
        &["serve", "--revision", "2026-07-28"],
        format!("{listen}\n").as_bytes(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let methods: Vec<&Value> = lines.iter().map(|l| &l["method"]).collect();
    assert_eq!(
        methods,
        [
            &json!("notifications/subscriptions/acknowledged"),
            &json!("notifications/cancelled"),
            &Value::Null
        ]
    );
    assert_eq!(lines[2]["id"], 5);

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
    // Acknowledged, then kept open: no response until cancel or teardown.
    let (out, answer) = checked_frames(&mut peer, revision, listen.as_bytes(), "listen");
    assert_eq!(out.len(), 1);
    assert!(answer.is_none());
    let ack = parse(&out[0]);
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "s-1"
    );
    // The client cancels it: no response (cancellation §Behavior Requirements).
    let cancel =
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s-1"}}"#;
    assert!(peer.handle(cancel).is_empty());
    assert!(
        peer.close().is_empty(),
        "a cancelled stream is not torn down again"
    );
    // Left open, it is torn down when the session ends: notifications/cancelled
    // naming it, then the graceful completion result.
    let listen_again = listen.replace(r#""id":"s-1""#, r#""id":12"#);
    assert_eq!(peer.handle(listen_again.as_bytes()).len(), 1);
    let teardown = peer.close();
    assert_eq!(teardown.len(), 2, "{:?}", text(&teardown));
    let server = Profile {
        revision,
        direction: Direction::ServerToClient,
    };
    for frame in &teardown {
        let broken: Vec<_> = validate(frame, server)
            .into_iter()
            .filter(|v| v.level.is_mandatory())
            .collect();
        assert!(
            broken.is_empty(),
            "{}: {broken:#?}",
            String::from_utf8_lossy(frame)
        );
    }
    let cancelled = parse(&teardown[0]);
    assert_eq!(cancelled["method"], "notifications/cancelled");
    assert_eq!(cancelled["params"]["requestId"], 12);
    let closed = parse(&teardown[1]);
    assert_eq!(closed["id"], 12);
    assert_eq!(closed["result"]["resultType"], "complete");
    assert_eq!(
        closed["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        12
    );
    let reply = lift(&teardown[1]).expect("lifts");
    let request = lift(listen_again.as_bytes()).expect("lifts");
    let client = Profile {
        revision,
        direction: Direction::ClientToServer,
    };
    let broken: Vec<_> = validate_reply(&request, Some(&reply), client)
        .into_iter()
        .filter(|v| v.level.is_mandatory())
        .collect();
    assert!(broken.is_empty(), "{broken:#?}");
    assert!(peer.close().is_empty());
    // A legacy initialize: refused, naming the versions the server speaks
    // (basic/versioning §Backward Compatibility, SHOULD).
    let legacy = checked(&mut peer, revision, &initialize("2025-11-25"), "legacy").unwrap();
    assert_eq!(legacy["error"]["data"]["supported"], json!(["2026-07-28"]));
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
