//! What the judge reports on the requests a server sends the client
//! (`rules/server_requests.rs`), sent on their own (2025-11-25) or carried as
//! the `inputRequests` of a 2026-07-28 `InputRequiredResult`:
//!
//! - client/elicitation §Protocol Messages › Elicitation Requests (2025-11-25,
//!   2026-07-28, MUST): "All elicitation requests MUST include the following
//!   parameters: … `message`"; › URL Mode Elicitation Requests (MUST): "The
//!   `url` parameter MUST contain a valid URL" (`mcp.elicitation.mode-params`).
//! - client/sampling §Message Content Constraints › Tool Result Messages (MUST):
//!   "When a user message contains tool results (type: "tool_result"), it MUST
//!   contain ONLY tool results" (`mcp.sampling.tool-results-only`); › Tool Use
//!   and Result Balance (MUST): "every assistant message containing
//!   `ToolUseContent` blocks MUST be followed by a user message that consists
//!   entirely of `ToolResultContent` blocks, with each tool use … matched by a
//!   corresponding tool result" (`mcp.sampling.tool-use-balance`).
//! - 2026-07-28 client/sampling §Data Types › Messages (MUST): "Sampling
//!   messages MUST contain a `role` field of "user" or "assistant"; and a
//!   `content` field" (`mcp.r5.sampling.message-shape`).
//!
//! Each test judges a whole frame a server could send and names what a user
//! reads: the rule and where in the frame, and that a correct frame is clean.

use harness::rules;
use harness::{Direction, Profile, Revision};

use crate::support::pairs;

/// The rules of `rules/server_requests.rs`; other rules (the schema's) are left
/// out so each assertion is about these.
const OURS: [&str; 5] = [
    ELICIT,
    MIXED,
    BALANCE,
    SHAPE,
    "mcp.r5.mrtr.input-request-type",
];
const ELICIT: &str = "mcp.elicitation.mode-params";
const MIXED: &str = "mcp.sampling.tool-results-only";
const BALANCE: &str = "mcp.sampling.tool-use-balance";
const SHAPE: &str = "mcp.r5.sampling.message-shape";

/// The (rule, pointer, message) violations of this file's rules in a frame the
/// server sent under `revision`.
fn reported(frame: &str, revision: Revision) -> Vec<(String, String, String)> {
    let profile = Profile {
        revision,
        direction: Direction::ServerToClient,
    };
    rules::validate(frame.as_bytes(), profile)
        .into_iter()
        .filter(|v| OURS.contains(&v.rule.as_str()))
        .map(|v| (v.rule.as_str().to_owned(), v.pointer, v.message))
        .collect()
}

/// The (rule, pointer) pairs only, for assertions that do not pin the wording.
fn places(frame: &str, revision: Revision) -> Vec<(String, String)> {
    reported(frame, revision)
        .into_iter()
        .map(|(rule, pointer, _)| (rule, pointer))
        .collect()
}

/// A 2026-07-28 `InputRequiredResult` carrying `requests` (the JSON object).
fn input_required(requests: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":3,"result":{{"resultType":"input_required","inputRequests":{requests}}}}}"#
    )
}

/// A 2025-11-25 `sampling/createMessage` request handing the model `messages`.
fn sampling_request(messages: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{{"messages":{messages},"maxTokens":100,"tools":[{{"name":"search","inputSchema":{{"type":"object"}}}}]}}}}"#
    )
}

/// A tool loop done right: the user asks, the assistant uses two tools, the
/// next user message answers both (and only with tool results), the assistant
/// replies in text.
const BALANCED_LOOP: &str = r#"[{"role":"user","content":{"type":"text","text":"Search for mcp and json-rpc"}},{"role":"assistant","content":[{"type":"tool_use","id":"u1","name":"search","input":{"q":"mcp"}},{"type":"tool_use","id":"u2","name":"search","input":{"q":"json-rpc"}}]},{"role":"user","content":[{"type":"tool_result","toolUseId":"u1","content":[{"type":"text","text":"found mcp"}]},{"type":"tool_result","toolUseId":"u2","content":[{"type":"text","text":"found json-rpc"}]}]},{"role":"assistant","content":{"type":"text","text":"Both found."}}]"#;

#[test]
fn an_input_required_elicitation_without_a_message_is_refused_where_it_is() {
    // The elicitation lacks the `message` every elicitation must carry; the
    // sampling and roots requests beside it need none, and are not blamed for it.
    let frame = input_required(
        r#"{"ask":{"method":"elicitation/create","params":{"requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}},"s":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Summarise"}}],"maxTokens":50}},"r":{"method":"roots/list"}}"#,
    );
    assert_eq!(
        reported(&frame, Revision::Mcp2026_07_28),
        [(
            ELICIT.to_owned(),
            "/result/inputRequests/ask/params".to_owned(),
            "an elicitation request without a `message`".to_owned()
        )]
    );
    // With its message the same result is clean.
    let fixed = input_required(
        r#"{"ask":{"method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}},"r":{"method":"roots/list"}}"#,
    );
    assert_eq!(reported(&fixed, Revision::Mcp2026_07_28), []);
}

#[test]
fn a_url_mode_elicitation_needs_a_url_the_user_can_open() {
    let ask = |url: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":4,"method":"elicitation/create","params":{{"mode":"url","message":"Connect your account","elicitationId":"e-1","url":"{url}"}}}}"#
        )
    };
    // No scheme: a client cannot tell what to open.
    assert_eq!(
        reported(&ask("example.com/connect"), Revision::Mcp2025_11_25),
        [(
            ELICIT.to_owned(),
            "/params".to_owned(),
            "the elicitation request lacks a valid URL (`example.com/connect` is none)".to_owned()
        )]
    );
    assert_eq!(
        places(&ask("https:///connect"), Revision::Mcp2025_11_25),
        pairs(&[(ELICIT, "/params")])
    );
    assert_eq!(
        reported(
            &ask("https://example.com/connect?x=1"),
            Revision::Mcp2025_11_25
        ),
        []
    );
    // The same in an InputRequiredResult.
    let carried = input_required(
        r#"{"login":{"method":"elicitation/create","params":{"mode":"url","message":"Log in","elicitationId":"e-2","url":"login page"}}}"#,
    );
    assert_eq!(
        places(&carried, Revision::Mcp2026_07_28),
        pairs(&[(ELICIT, "/result/inputRequests/login/params")])
    );
}

#[test]
fn a_balanced_tool_loop_is_clean_in_a_request_and_in_an_input_required_result() {
    assert_eq!(
        reported(&sampling_request(BALANCED_LOOP), Revision::Mcp2025_11_25),
        []
    );
    let carried = input_required(&format!(
        r#"{{"s":{{"method":"sampling/createMessage","params":{{"messages":{BALANCED_LOOP},"maxTokens":100}}}}}}"#
    ));
    assert_eq!(reported(&carried, Revision::Mcp2026_07_28), []);
}

#[test]
fn a_tool_use_answered_for_another_id_or_not_at_all_is_reported_on_the_assistant_message() {
    // The user message answers a tool use the assistant never made.
    let wrong = r#"[{"role":"user","content":{"type":"text","text":"Search"}},{"role":"assistant","content":[{"type":"tool_use","id":"u1","name":"search","input":{}}]},{"role":"user","content":[{"type":"tool_result","toolUseId":"u1","content":[]},{"type":"tool_result","toolUseId":"u9","content":[]}]}]"#;
    assert_eq!(
        reported(&sampling_request(wrong), Revision::Mcp2025_11_25),
        [(
            BALANCE.to_owned(),
            "/params/messages/1".to_owned(),
            "an assistant message with tool use is answered by tool results for u9, which it did not use"
                .to_owned()
        )]
    );
    // The tool use is the last message: nothing answers it.
    let last = r#"[{"role":"user","content":{"type":"text","text":"Search"}},{"role":"assistant","content":[{"type":"tool_use","id":"u1","name":"search","input":{}}]}]"#;
    assert_eq!(
        places(&sampling_request(last), Revision::Mcp2025_11_25),
        pairs(&[(BALANCE, "/params/messages/1")])
    );
}

#[test]
fn a_single_block_message_is_judged_like_an_array_of_one() {
    // 2025-11-25's `SamplingMessage.content` is one block or an array of them:
    // a lone tool use, answered by text, is as unbalanced as `[tool_use]`.
    let unanswered = r#"[{"role":"user","content":{"type":"text","text":"Search"}},{"role":"assistant","content":{"type":"tool_use","id":"u1","name":"search","input":{}}},{"role":"user","content":{"type":"text","text":"never mind"}}]"#;
    assert_eq!(
        reported(&sampling_request(unanswered), Revision::Mcp2025_11_25),
        [(
            BALANCE.to_owned(),
            "/params/messages/1".to_owned(),
            "an assistant message with tool use leaves tool use u1 without a result".to_owned()
        )]
    );
    // A lone tool use answered by a lone tool result is fine.
    let answered = r#"[{"role":"user","content":{"type":"text","text":"Search"}},{"role":"assistant","content":{"type":"tool_use","id":"u1","name":"search","input":{}}},{"role":"user","content":{"type":"tool_result","toolUseId":"u1","content":[]}}]"#;
    assert_eq!(
        reported(&sampling_request(answered), Revision::Mcp2025_11_25),
        []
    );
}

#[test]
fn a_user_message_mixing_tool_results_with_text_is_reported_and_a_pure_one_is_not() {
    let mixed = r#"[{"role":"user","content":{"type":"text","text":"Search"}},{"role":"assistant","content":[{"type":"tool_use","id":"u1","name":"search","input":{}}]},{"role":"user","content":[{"type":"tool_result","toolUseId":"u1","content":[]},{"type":"text","text":"and more"}]}]"#;
    assert_eq!(
        places(&sampling_request(mixed), Revision::Mcp2025_11_25),
        pairs(&[(MIXED, "/params/messages/2/content")])
    );
    let pure = r#"[{"role":"user","content":{"type":"text","text":"Search"}},{"role":"assistant","content":[{"type":"tool_use","id":"u1","name":"search","input":{}}]},{"role":"user","content":[{"type":"tool_result","toolUseId":"u1","content":[]}]}]"#;
    assert_eq!(
        reported(&sampling_request(pure), Revision::Mcp2025_11_25),
        []
    );
}

#[test]
fn only_a_2026_07_28_sampling_message_without_role_or_content_breaks_its_shape() {
    let carried = input_required(
        r#"{"s":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}},{"role":"assistant"}],"maxTokens":10}}}"#,
    );
    assert_eq!(
        places(&carried, Revision::Mcp2026_07_28),
        pairs(&[(SHAPE, "/result/inputRequests/s/params/messages/1")])
    );
    // 2025-11-25 has no such rule: its schema's `required` is the schema rule's.
    let older = r#"[{"role":"user","content":{"type":"text","text":"hi"}},{"role":"assistant"}]"#;
    assert_eq!(
        reported(&sampling_request(older), Revision::Mcp2025_11_25),
        []
    );
}
