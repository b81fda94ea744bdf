//! The reference peer against the golden vectors, the JSON-RPC 2.0 §7
//! examples, its own lifecycle, and end to end over stdio.

mod common;

use harness::spec::{validate, validate_reply};
use harness::{lift, Direction, Profile, Revision};
use serde_json::{json, Value};
use wirecheck::peer::{Peer, Serve};
use wirecheck::vectors::{default_root, load_all, Answer, Vector};

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
    answer.map(|(_, value)| value)
}

/// Whether `reply` is what `answer` says a conforming receiver answers.
fn agrees(answer: &Answer, reply: Option<&Value>) -> Result<(), String> {
    let id_is = |reply: &Value, id: &Option<String>| match id {
        None => true,
        Some(text) => serde_json::from_str::<Value>(text).ok().as_ref() == reply.get("id"),
    };
    match (answer, reply) {
        (Answer::Nothing, None) => Ok(()),
        (Answer::Nothing, Some(r)) => Err(format!("expected nothing, got {r}")),
        (_, None) => Err("expected an answer, got nothing".to_owned()),
        (
            Answer::Error {
                codes,
                id,
                data_required,
            },
            Some(r),
        ) => {
            let code = r["error"]["code"].as_i64();
            if !code.is_some_and(|c| codes.contains(&c)) || !id_is(r, id) {
                return Err(format!("expected error {codes:?} id {id:?}, got {r}"));
            }
            match data_required
                .iter()
                .find(|m| r["error"]["data"].get(m.as_str()).is_none())
            {
                Some(m) => Err(format!("error.data lacks {m}: {r}")),
                None => Ok(()),
            }
        }
        (
            Answer::Result {
                id,
                required,
                example,
            },
            Some(r),
        ) => {
            let result = r
                .get("result")
                .ok_or_else(|| format!("expected a result, got {r}"))?;
            if !id_is(r, id) {
                return Err(format!("expected id {id:?}, got {r}"));
            }
            if let Some(m) = required.iter().find(|m| result.get(m.as_str()).is_none()) {
                return Err(format!("result lacks {m}: {r}"));
            }
            match example {
                Some(example) if example != result => {
                    Err(format!("expected {example}, got {result}"))
                }
                _ => Ok(()),
            }
        }
        (Answer::Batch(answers), Some(r)) => {
            let Some(elements) = r.as_array() else {
                return Err(format!("expected a batch answer, got {r}"));
            };
            if elements.len() != answers.len() {
                return Err(format!("expected {} answers, got {r}", answers.len()));
            }
            let mut unused: Vec<&Value> = elements.iter().collect();
            for answer in answers {
                match unused.iter().position(|e| agrees(answer, Some(e)).is_ok()) {
                    Some(i) => {
                        unused.remove(i);
                    }
                    None => return Err(format!("no element answers {answer:?}: {r}")),
                }
            }
            Ok(())
        }
    }
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
    (
        "mcp/2026-07-28/resources/subscriptions-listen",
        "subscriptions/listen (2026-07-28) is not implemented: -32601",
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
    let mut disagreements = Vec::new();
    for vector in &received {
        let revision = vector.profile.revision;
        // A vector about initialize itself starts from a fresh session.
        let handshake = !vector.frame_text().contains(r#""method":"initialize""#);
        let mut peer = peer_for(revision, handshake);
        let reply = checked(&mut peer, revision, &vector.frame, &vector.id);
        let answer = vector.answer.as_ref().expect("filtered on answers");
        if let Err(why) = agrees(answer, reply.as_ref()) {
            disagreements.push((vector.id.clone(), why));
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
