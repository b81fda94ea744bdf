//! The members whose schema type is a union of two (each revision's
//! `schema.json`, carried into the generated `rules/methods.rs`): each type
//! of the union is accepted, and a value of another type is reported at the
//! member. MCP schema `CancelledNotification.params.requestId` and
//! `ProgressNotification.params.progressToken` (`RequestId` /
//! `ProgressToken`: `string | integer`, every revision, both senders);
//! 2025-11-25 `Task.ttl` (`integer | null`: in `tasks/get` and `tasks/cancel`
//! results and `notifications/tasks/status`); 2025-11-25
//! `CreateMessageResult.content` (one block or an array of blocks).

use harness::rules;
use harness::{lift, Direction, Profile, Revision};
use serde_json::{json, Value};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;

/// Whether any violation of `frame` (sent from `from` under `revision`)
/// points at `pointer`.
fn flagged(revision: Revision, from: Direction, frame: &Value, pointer: &str) -> bool {
    rules::validate(
        frame.to_string().as_bytes(),
        Profile {
            revision,
            direction: from,
        },
    )
    .iter()
    .any(|v| v.pointer == pointer)
}

/// Whether any violation of the exchange (`request` sent from `from`,
/// answered by `reply`) points at `pointer`.
fn reply_flagged(from: Direction, request: &Value, reply: &Value, pointer: &str) -> bool {
    let request = request.to_string();
    let reply = reply.to_string();
    let (request, reply) = (
        lift(request.as_bytes()).unwrap(),
        lift(reply.as_bytes()).unwrap(),
    );
    rules::validate_reply(
        &request,
        Some(&reply),
        Profile {
            revision: Revision::Mcp2025_11_25,
            direction: from,
        },
    )
    .iter()
    .any(|v| v.pointer == pointer)
}

#[test]
fn request_ids_and_progress_tokens_are_a_string_or_an_integer_in_every_revision() {
    for revision in Revision::MCP {
        for from in [C, S] {
            for (method, member, rest) in [
                ("notifications/cancelled", "requestId", json!({})),
                (
                    "notifications/progress",
                    "progressToken",
                    json!({"progress": 1}),
                ),
            ] {
                if method == "notifications/progress"
                    && from == C
                    && revision == Revision::Mcp2026_07_28
                {
                    // 2026-07-28 has no client progress notification.
                    continue;
                }
                let frame = |value: Value| {
                    let mut params = rest.clone();
                    params[member] = value;
                    json!({"jsonrpc": "2.0", "method": method, "params": params})
                };
                let pointer = format!("/params/{member}");
                let case = format!("{revision:?} {from:?} {method}");
                assert!(
                    !flagged(revision, from, &frame(json!("a")), &pointer),
                    "{case}: string"
                );
                assert!(
                    !flagged(revision, from, &frame(json!(7)), &pointer),
                    "{case}: integer"
                );
                assert!(
                    flagged(revision, from, &frame(json!(true)), &pointer),
                    "{case}: boolean"
                );
            }
        }
    }
}

fn task(ttl: Value) -> Value {
    json!({"taskId": "t1", "status": "working", "createdAt": "2025-11-25T00:00:00Z",
           "lastUpdatedAt": "2025-11-25T00:00:00Z", "ttl": ttl})
}

#[test]
fn a_task_ttl_is_an_integer_or_null() {
    for from in [C, S] {
        for method in ["tasks/get", "tasks/cancel"] {
            let request =
                json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": {"taskId": "t1"}});
            let reply = |ttl| json!({"jsonrpc": "2.0", "id": 1, "result": task(ttl)});
            let case = format!("{from:?} {method}");
            assert!(
                !reply_flagged(from, &request, &reply(json!(60)), "/result/ttl"),
                "{case}"
            );
            assert!(
                !reply_flagged(from, &request, &reply(json!(null)), "/result/ttl"),
                "{case}"
            );
            assert!(
                reply_flagged(from, &request, &reply(json!("60")), "/result/ttl"),
                "{case}"
            );
        }
        let status = |ttl| json!({"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": task(ttl)});
        let r = Revision::Mcp2025_11_25;
        assert!(
            !flagged(r, from, &status(json!(60)), "/params/ttl"),
            "{from:?}"
        );
        assert!(
            !flagged(r, from, &status(json!(null)), "/params/ttl"),
            "{from:?}"
        );
        assert!(
            flagged(r, from, &status(json!("60")), "/params/ttl"),
            "{from:?}"
        );
    }
}

#[test]
fn a_sampling_results_content_is_one_block_or_an_array_of_blocks() {
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage",
        "params": {"maxTokens": 10, "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}]}});
    let reply = |content| {
        json!({"jsonrpc": "2.0", "id": 1,
        "result": {"role": "assistant", "model": "m", "content": content}})
    };
    let block = json!({"type": "text", "text": "hello"});
    assert!(!reply_flagged(
        S,
        &request,
        &reply(block.clone()),
        "/result/content"
    ));
    assert!(!reply_flagged(
        S,
        &request,
        &reply(json!([block])),
        "/result/content"
    ));
    assert!(reply_flagged(
        S,
        &request,
        &reply(json!("hello")),
        "/result/content"
    ));
}
