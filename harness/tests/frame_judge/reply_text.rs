//! Why a frame is not the answer to a request, as the live runner prints it in a
//! finding: each reason must name what the peer actually sent.

use harness::client::read_reply;
use harness::Id;

#[track_caller]
fn why(expected: &Id<'_>, frame: &[u8]) -> String {
    read_reply(expected, frame)
        .expect_err("not the answer")
        .to_string()
}

#[test]
fn each_reply_error_says_what_the_peer_sent() {
    let one = Id::int(1);
    assert_eq!(
        why(&one, br#"{"jsonrpc":"2.0","id":2,"result":{}}"#),
        "reply is for id 2, not for the request's id 1"
    );
    // A string id that spells the number is another id (JSON-RPC 2.0 §5).
    assert_eq!(
        why(&one, br#"{"jsonrpc":"2.0","id":"1","result":{}}"#),
        r#"reply is for id "1", not for the request's id 1"#
    );
    assert_eq!(
        why(&one, br#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#),
        "reply is a batch, not a single response"
    );
    assert_eq!(
        why(&one, br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
        "reply is a request, not a response"
    );
    assert_eq!(
        why(
            &one,
            br#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"bad"}}"#
        ),
        r#"error response with no id (code -32700, message "bad") cannot be attributed to the request"#
    );
    let unreadable = why(&one, b"[{}");
    assert!(
        unreadable.starts_with("reply does not lift: parse error (-32700) [json.syntax]"),
        "{unreadable}"
    );
}
