//! `lift_batch_elements`: a batch lifted element by element, as a server answers
//! one (JSON-RPC 2.0 §6, §7), each element's refusal with its own pointer.

use harness::{lift_batch_elements, lift_batch_elements_with, Limits, MessageKind, Rule};

/// The JSON-RPC 2.0 §7 "rpc call Batch" example, the invalid element included.
const SPEC_MIXED: &str = r#"[
        {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
        {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
        {"foo": "boo"},
        {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
        {"jsonrpc": "2.0", "method": "get_data", "id": "9"} 
    ]"#;

#[test]
fn spec_mixed_batch_is_lifted_per_element() {
    let elements = lift_batch_elements(SPEC_MIXED.as_bytes()).unwrap();
    assert_eq!(elements.len(), 6);
    let kinds: Vec<Option<MessageKind>> = elements
        .iter()
        .map(|e| e.as_ref().ok().map(harness::Message::kind))
        .collect();
    use MessageKind::{Notification, Request};
    assert_eq!(
        kinds,
        [
            Some(Request),
            Some(Notification),
            Some(Request),
            None,
            Some(Request),
            Some(Request)
        ]
    );
    let bad = elements[3].as_ref().unwrap_err();
    assert_eq!(bad.rule(), Rule::VersionMissing);
    assert_eq!(bad.pointer(), "/3");
    assert_eq!(bad.code(), -32600);
    // Its place is the element's, in the frame's own lines.
    assert_eq!(bad.line(), 5);
    // Ids keep their exact text: `"1"` stays a string.
    assert_eq!(elements[0].as_ref().unwrap().id().unwrap().raw(), "\"1\"");
}

#[test]
fn element_refusals_point_into_their_element() {
    let frame = br#"[1,{"jsonrpc":"2.0","id":{},"method":"a"},{"jsonrpc":"1.0","method":"b"},{"jsonrpc":"2.0","id":9007199254740993,"method":"c"}]"#;
    let elements = lift_batch_elements(frame).unwrap();
    let refusal = |i: usize| elements[i].as_ref().unwrap_err();
    assert_eq!(refusal(0).rule(), Rule::FrameType);
    assert_eq!(refusal(0).pointer(), "/0");
    assert_eq!(refusal(1).rule(), Rule::IdType);
    assert_eq!(refusal(1).pointer(), "/1/id");
    assert_eq!(refusal(2).rule(), Rule::VersionInvalid);
    assert_eq!(refusal(2).pointer(), "/2/jsonrpc");
    let last = elements[3].as_ref().unwrap();
    assert_eq!(last.id().unwrap().raw(), "9007199254740993");
}

#[test]
fn frame_level_refusals_stay_whole() {
    // Not JSON at all: one -32700, even though the first element is fine (§7).
    let not_json =
        br#"[{"jsonrpc":"2.0","method":"sum","params":[1,2,4],"id":"1"},{"jsonrpc":"2.0","method""#;
    let refusal = lift_batch_elements(not_json).unwrap_err();
    assert_eq!(refusal.code(), -32700);
    // An empty array: one -32600 (§7 "rpc call with an empty Array").
    let refusal = lift_batch_elements(b" [ ] ").unwrap_err();
    assert_eq!(refusal.rule(), Rule::BatchEmpty);
    // A single object is not a batch.
    let refusal = lift_batch_elements(br#"{"jsonrpc":"2.0","method":"a"}"#).unwrap_err();
    assert_eq!(refusal.rule(), Rule::FrameType);
    // Limits hold here as in `lift`.
    let limits = Limits {
        max_frame_bytes: 4,
        ..Limits::default()
    };
    let refusal = lift_batch_elements_with(b"[1,2,3]", &limits).unwrap_err();
    assert_eq!(refusal.rule(), Rule::JsonFrameTooLarge);
}

#[test]
fn agrees_with_lift_on_valid_batches() {
    let frame = br#"[{"jsonrpc":"2.0","id":1,"method":"a","params":[1]}, {"jsonrpc":"2.0","method":"b","x":1}]"#;
    let whole = harness::lift(frame).unwrap();
    let elements: Vec<_> = lift_batch_elements(frame)
        .unwrap()
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(whole.messages(), elements.as_slice());
}
