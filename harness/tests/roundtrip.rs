//! The lossless contract on hand-picked frames: the JSON-RPC 2.0 specification's
//! examples (§7) and the MCP shapes a lossy codec gets wrong. Each goes through the
//! one oracle, `check_roundtrip`, and compact frames must come back byte for byte.

use harness::fuzzing::{check_roundtrip, RoundTrip};
use harness::{lift, lower_to_vec, Frame, MessageKind};

/// Asserts the oracle passes and the frame lifts; returns the lowered bytes.
fn roundtrip(frame: &str) -> String {
    match check_roundtrip(frame.as_bytes()) {
        Ok(RoundTrip::Lifted(out)) => String::from_utf8(out).unwrap(),
        Ok(RoundTrip::Refused(r)) => panic!("refused: {r}\n  frame: {frame}"),
        Err(failure) => panic!("{failure}"),
    }
}

fn kinds(frame: &str) -> Vec<MessageKind> {
    lift(frame.as_bytes())
        .unwrap()
        .messages()
        .iter()
        .map(|m| m.kind())
        .collect()
}

/// JSON-RPC 2.0 §7, every example that is a valid frame, as printed there
/// (whitespace and all); `-->` lines are what a client sends, `<--` a server.
const SPEC_EXAMPLES: &[&str] = &[
    r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
    r#"{"jsonrpc": "2.0", "result": 19, "id": 1}"#,
    r#"{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}"#,
    r#"{"jsonrpc": "2.0", "result": -19, "id": 2}"#,
    r#"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#,
    r#"{"jsonrpc": "2.0", "result": 19, "id": 3}"#,
    r#"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#,
    r#"{"jsonrpc": "2.0", "result": 19, "id": 4}"#,
    r#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#,
    r#"{"jsonrpc": "2.0", "method": "foobar"}"#,
    r#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#,
    r#"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}"#,
    r#"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#,
    r#"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#,
    r#"[
        {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
        {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
        {"foo": "boo"},
        {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
        {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
    ]"#,
    r#"[
        {"jsonrpc": "2.0", "result": 7, "id": "1"},
        {"jsonrpc": "2.0", "result": 19, "id": "2"},
        {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
        {"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "5"},
        {"jsonrpc": "2.0", "result": ["hello", 5], "id": "9"}
    ]"#,
    r#"[
        {"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}
    ]"#,
];

#[test]
fn spec_examples_round_trip() {
    for example in SPEC_EXAMPLES {
        // The batch with `{"foo": "boo"}` is an invalid element: the spec's own
        // example of a batch the server answers element by element.
        if example.contains("\"foo\"") {
            let refusal = lift(example.as_bytes()).unwrap_err();
            assert_eq!(refusal.rule().id(), "jsonrpc.version-missing");
            assert_eq!(refusal.pointer(), "/3");
            continue;
        }
        let out = roundtrip(example);
        assert!(
            out.starts_with(r#"{"jsonrpc":"2.0","#) || out.starts_with(r#"[{"jsonrpc":"2.0","#),
            "envelope whitespace removed: {out}"
        );
    }
}

/// Compact frames whose every byte must survive.
const COMPACT: &[&str] = &[
    // top-level extras, in the middle and at the ends
    r#"{"x-vendor":{"a":1},"jsonrpc":"2.0","id":1,"method":"tools/list","z":null}"#,
    // extras inside error, data of every type
    r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"x":[1],"message":"bad","data":"text"}}"#,
    r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"bad","data":null}}"#,
    r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"bad","data":[1,"two",{"3":3}]}}"#,
    r#"{"error":{"message":"m","code":1},"jsonrpc":"2.0"}"#,
    // _meta anywhere, with the duplicate names below the envelope kept
    r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x","arguments":{"a":1,"a":2},"_meta":{"progressToken":"p"}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"_meta":{"k":{}}},"_meta":{}}"#,
    // numbers keep their spelling
    r#"{"jsonrpc":"2.0","id":1.0,"result":[1e2,-0,1E+2,0.10,18446744073709551616,123456789012345678901234567890]}"#,
    r#"{"jsonrpc":"2.0","id":18446744073709551616,"result":null}"#,
    r#"{"jsonrpc":"2.0","id":-0,"result":1e400}"#,
    // string escapes keep their spelling
    r#"{"jsonrpc":"2.0","id":"\u0031","method":"\u0070ing","params":["\ud83d\ude00","\ud800","\/"]}"#,
    r#"{"jsonrpc":"2.0","\u0069d":5,"method":"ping"}"#,
    // absent, null and empty are three different things
    r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}"#,
    r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":null}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":[]}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":0}"#,
    // an error response without id (MCP 2025-11-25)
    r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#,
    // batches of mixed kinds
    r#"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},{"jsonrpc":"2.0","id":1,"result":1}]"#,
];

#[test]
fn compact_frames_are_byte_identical() {
    for frame in COMPACT {
        assert_eq!(roundtrip(frame), *frame);
    }
}

#[test]
fn shapes_are_what_json_rpc_says() {
    use MessageKind::{Error, Notification, Request, Success};
    assert_eq!(
        kinds(r#"{"jsonrpc":"2.0","id":null,"method":"x"}"#),
        [Request]
    );
    assert_eq!(kinds(r#"{"jsonrpc":"2.0","method":"x"}"#), [Notification]);
    assert_eq!(
        kinds(r#"{"jsonrpc":"2.0","id":null,"result":null}"#),
        [Success]
    );
    assert_eq!(
        kinds(r#"{"jsonrpc":"2.0","error":{"code":1,"message":""}}"#),
        [Error]
    );
    let frame = lift(br#"{"jsonrpc":"2.0","id":null,"method":"x"}"#).unwrap();
    assert_eq!(frame.messages()[0].id(), Some(&harness::Id::Null));
}

#[test]
fn whitespace_inside_values_is_kept_and_envelope_whitespace_goes() {
    let frame = " {\n \"jsonrpc\" : \"2.0\" ,\t\"id\":1 , \"result\" : { \"a\" : [ 1 , 2 ] } }\r\n";
    assert_eq!(
        roundtrip(frame),
        r#"{"jsonrpc":"2.0","id":1,"result":{ "a" : [ 1 , 2 ] }}"#
    );
}

#[test]
fn a_field_set_after_lifting_is_written() {
    let Frame::Single(harness::Message::Request(mut request)) =
        lift(br#"{"jsonrpc":"2.0","id":1,"method":"ping","x":0}"#).unwrap()
    else {
        panic!("not a request")
    };
    request.params = Some(harness::Raw::parse("{}").unwrap());
    let out = lower_to_vec(&Frame::Single(harness::Message::Request(request)));
    assert_eq!(
        out,
        br#"{"jsonrpc":"2.0","id":1,"method":"ping","x":0,"params":{}}"#
    );
}

#[test]
fn a_sixteen_mebibyte_frame_round_trips() {
    let blob = "QUJD".repeat(4 << 20);
    let frame =
        format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"contents":[{{"blob":"{blob}"}}]}}}}"#);
    assert!(frame.len() > 16 << 20);
    assert_eq!(roundtrip(&frame).len(), frame.len());
}

#[test]
fn a_hundred_thousand_members_are_checked_for_duplicates_quickly() {
    let members: Vec<String> = (0..100_000).map(|i| format!("\"m{i}\":{i}")).collect();
    let frame = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":1,{}}}"#,
        members.join(",")
    );
    assert_eq!(roundtrip(&frame), frame);
    let dup = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":1,{},"m5":0}}"#,
        members.join(",")
    );
    assert_eq!(lift(dup.as_bytes()).unwrap_err().pointer(), "/m5");
}
