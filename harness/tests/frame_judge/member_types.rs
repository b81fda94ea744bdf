//! The members whose schema type is a union of two (each revision's
//! `schema.json`, carried into the generated `rules/methods.rs`): each type
//! of the union is accepted, and a value of another type is reported at the
//! member. MCP schema `CancelledNotification.params.requestId` and
//! `ProgressNotification.params.progressToken` (`RequestId` /
//! `ProgressToken`: `string | integer`, every revision, both senders);
//! 2025-11-25 `Task.ttl` (`integer | null`: in `tasks/get` and `tasks/cancel`
//! results and `notifications/tasks/status`); 2025-11-25
//! `CreateMessageResult.content` (one block or an array of blocks). A breach
//! names the types allowed; an integer is any number with an integer value.

use crate::support::exchange;
use harness::rules;
use harness::{Direction, Profile, Revision};
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
    exchange(
        Revision::Mcp2025_11_25,
        from,
        &request.to_string(),
        &reply.to_string(),
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

#[test]
fn a_type_breach_names_the_types_the_schema_allows() {
    let frame = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": true}});
    let messages: Vec<String> = rules::validate(
        frame.to_string().as_bytes(),
        Profile {
            revision: Revision::Mcp2025_06_18,
            direction: C,
        },
    )
    .into_iter()
    .filter(|v| v.pointer == "/params/requestId")
    .map(|v| v.message)
    .collect();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].ends_with("`requestId` must be string or integer, found boolean"),
        "{}",
        messages[0]
    );
}

/// An integer member (`CreateMessageRequest.params.maxTokens`) takes any
/// JSON number whose value is an integer (JSON Schema 2020-12 §6.1.1 / draft-07
/// validation §6.1.1: "integer" matches any number with a zero fractional
/// part), exponents too large to compute with included.
#[test]
fn an_integer_member_takes_every_number_whose_value_is_an_integer() {
    let frame = |max: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{{"messages":[],"maxTokens":{max}}}}}"#
        )
    };
    for (max, integer) in [
        ("100", true),
        ("1.0", true),
        ("1e2", true),
        ("1e99999999999999999999", true),
        ("2.5", false),
        ("1e-99999999999999999999", false),
        ("1E-99999999999999999999", false),
    ] {
        let reported = rules::validate(
            frame(max).as_bytes(),
            Profile {
                revision: Revision::Mcp2025_06_18,
                direction: S,
            },
        )
        .iter()
        .any(|v| v.pointer == "/params/maxTokens");
        assert_eq!(reported, !integer, "maxTokens {max}");
    }
}
