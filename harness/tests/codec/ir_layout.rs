//! The IR's member layout as a user of the codec meets it: a frame made owned
//! (to outlive its buffer) lowers to the bytes it came from, the unmodelled
//! members are listed in wire order, and a member added to a built message lands
//! where `push_extra` says, after the envelope.

use harness::ir::{Layout, Message, Request};
use harness::{lift, lower_to_vec, Id, Raw};

/// Frames whose member order and unmodelled members only the layout keeps.
const UNUSUAL: &[&str] = &[
    r#"{"method":"ping","x-trace":"abc","id":7,"jsonrpc":"2.0"}"#,
    r#"{"id":"a","result":{},"jsonrpc":"2.0","extra":[1,2]}"#,
    r#"{"jsonrpc":"2.0","error":{"message":"no","vendor":1,"code":-32601},"id":1}"#,
    r#"[{"jsonrpc":"2.0","z":null,"method":"n"},{"params":[],"jsonrpc":"2.0","id":2,"method":"m"}]"#,
];

#[test]
fn an_owned_copy_of_a_frame_lowers_to_the_same_bytes() {
    for text in UNUSUAL {
        let owned = lift(text.as_bytes()).unwrap().into_owned();
        assert_eq!(
            String::from_utf8(lower_to_vec(&owned)).unwrap(),
            *text,
            "member order and unmodelled members survive into_owned"
        );
    }
}

fn extras(layout: &Layout<'_>) -> Vec<(String, String)> {
    layout
        .extras()
        .map(|(k, v)| (k.raw().to_owned(), v.as_str().to_owned()))
        .collect()
}

#[test]
fn the_unmodelled_members_are_listed_in_wire_order() {
    let frame = lift(br#"{"z":1,"jsonrpc":"2.0","id":1,"method":"m","a":{"b":2}}"#).unwrap();
    assert_eq!(
        extras(frame.messages()[0].layout()),
        vec![
            ("\"z\"".to_owned(), "1".to_owned()),
            ("\"a\"".to_owned(), r#"{"b":2}"#.to_owned())
        ]
    );
    let plain = lift(br#"{"jsonrpc":"2.0","id":1,"method":"m"}"#).unwrap();
    assert_eq!(extras(plain.messages()[0].layout()), vec![]);
}

#[test]
fn a_member_pushed_onto_a_built_request_follows_the_envelope() {
    let mut request = Request::new(Id::int(1), "tools/list", Some(Raw::parse("{}").unwrap()));
    request
        .layout
        .push_extra("x-trace", Raw::parse("\"abc\"").unwrap().into_owned());
    assert_eq!(
        extras(&request.layout),
        vec![("\"x-trace\"".to_owned(), "\"abc\"".to_owned())]
    );
    let frame = harness::Frame::Single(Message::Request(request));
    assert_eq!(
        String::from_utf8(lower_to_vec(&frame)).unwrap(),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{},"x-trace":"abc"}"#
    );
}

/// What a field set after lifting lowers to: the layout has no slot for it,
/// so it is written after the members the peer sent, never dropped (a proxy
/// that adds `params` to a notification, or an `id` to an error).
#[test]
fn a_field_set_after_lifting_is_written_after_the_wire_members() {
    let lowered = |frame: &str, set: &dyn Fn(&mut Message<'static>)| {
        let mut frame = lift(frame.as_bytes()).unwrap().into_owned();
        let harness::Frame::Single(message) = &mut frame else {
            panic!("one message");
        };
        set(message);
        String::from_utf8(lower_to_vec(&frame)).unwrap()
    };
    let params = || Some(Raw::parse(r#"{"a":1}"#).unwrap().into_owned());
    assert_eq!(
        lowered(r#"{"method":"m","jsonrpc":"2.0"}"#, &|m| {
            if let Message::Notification(n) = m {
                n.params = params();
            }
        }),
        r#"{"method":"m","jsonrpc":"2.0","params":{"a":1}}"#
    );
    assert_eq!(
        lowered(r#"{"id":1,"method":"m","jsonrpc":"2.0"}"#, &|m| {
            if let Message::Request(r) = m {
                r.params = params();
            }
        }),
        r#"{"id":1,"method":"m","jsonrpc":"2.0","params":{"a":1}}"#
    );
    assert_eq!(
        lowered(
            r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"x"}}"#,
            &|m| {
                if let Message::Error(e) = m {
                    e.id = Some(Id::int(3));
                }
            }
        ),
        r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"x"},"id":3}"#
    );
}

/// A raw value and a string token print as the peer's exact text, in a
/// report (`Display`) and in a log line or a test's failure (`Debug`).
#[test]
fn raw_values_and_string_tokens_print_as_sent() {
    let frame =
        lift(br#"{"jsonrpc":"2.0","method":"\u006d","params":{"a": [1.50, "\u00e9"]}}"#).unwrap();
    let Message::Notification(n) = &frame.messages()[0] else {
        panic!("a notification");
    };
    let params = n.params.as_ref().unwrap();
    assert_eq!(params.to_string(), r#"{"a": [1.50, "\u00e9"]}"#);
    assert_eq!(format!("{params:?}"), r#"{"a": [1.50, "\u00e9"]}"#);
    assert_eq!(format!("{:?}", n.method), r#""\u006d""#);
    assert_eq!(format!("{:?}", harness::Id::string("a\"b")), r#""a\"b""#);
    assert_eq!(format!("{:?}", harness::Id::int(-7)), "-7");
}
