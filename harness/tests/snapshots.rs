//! insta snapshots of what the codec understood representative frames to be.
//! Update on purpose with `INSTA_UPDATE=always cargo test` or `cargo insta review`.

use std::sync::Once;

use harness::ir::describe;
use harness::lift;

/// What the codec made of `frame`. Every test takes its value from here, so this
/// is where the tests stop insta from writing: by default (`INSTA_UPDATE` unset,
/// `auto`) insta leaves a `.snap.new` beside a snapshot that differs, and tests
/// never write into the tree unless asked. As `conformance/tests/vectors.rs`
/// does, `INSTA_UPDATE=no` unless the user set it (`cargo insta review` and
/// `INSTA_UPDATE=always` still update on purpose).
fn snapshot(frame: &str) -> serde_json::Value {
    static NO_WRITES: Once = Once::new();
    NO_WRITES.call_once(|| {
        if std::env::var_os("INSTA_UPDATE").is_none() {
            std::env::set_var("INSTA_UPDATE", "no");
        }
    });
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
