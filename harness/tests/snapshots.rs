//! insta snapshots of what the codec understood representative frames to be.
//! Update on purpose with `INSTA_UPDATE=always cargo test` or `cargo insta review`.

use harness::ir::describe;
use harness::lift;

fn snapshot(frame: &str) -> serde_json::Value {
    describe(&lift(frame.as_bytes()).unwrap())
}

#[test]
fn request_with_extras_and_meta() {
    insta::assert_json_snapshot!(snapshot(
        r#"{"x-vendor":1,"jsonrpc":"2.0","id":"\u0031","method":"tools/call","params":{"name":"echo","_meta":{"progressToken":7}}}"#
    ));
}

#[test]
fn notification_without_params() {
    insta::assert_json_snapshot!(snapshot(
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
    ));
}

#[test]
fn success_with_big_number_id() {
    insta::assert_json_snapshot!(snapshot(
        r#"{"jsonrpc":"2.0","id":18446744073709551616,"result":[1e2,-0]}"#
    ));
}

#[test]
fn error_with_extras_and_no_id() {
    insta::assert_json_snapshot!(snapshot(
        r#"{"jsonrpc":"2.0","error":{"code":-32700,"data":null,"message":"Parse error","retry":false}}"#
    ));
}

#[test]
fn batch_of_mixed_kinds() {
    insta::assert_json_snapshot!(snapshot(
        r#"[{"jsonrpc":"2.0","id":null,"method":"a"},{"jsonrpc":"2.0","method":"b","params":[]},{"id":2,"jsonrpc":"2.0","result":{}}]"#
    ));
}
