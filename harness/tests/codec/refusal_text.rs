//! What a user reads when a frame is refused: the refusal's text, both through
//! `Display` (reports, `wirecheck classify`) and through `Debug` (the panic message
//! of `lift(frame).unwrap()` in a test of their own, `{:?}` in a log line).

use harness::lift;

#[test]
fn an_invalid_request_names_its_code_rule_pointer_and_place() {
    let r = lift(br#"{"jsonrpc":"2.0","id":[1],"method":"x"}"#).expect_err("an array id");
    assert_eq!(
        r.to_string(),
        format!(
            "invalid request (-32600) [jsonrpc.id-type at /id]: {} (line 1, column {}; {})",
            r.message(),
            r.column(),
            r.rule().spec()
        )
    );
    assert!(!r.message().is_empty(), "{r}");
    assert!(r.rule().spec().contains("JSON-RPC 2.0"), "{r}");
}

#[test]
fn a_refusal_debugs_as_it_displays() {
    for frame in [&b"{,}"[..], br#"{"jsonrpc":"2.0","id":[1],"method":"x"}"#] {
        let r = lift(frame).expect_err("refused");
        assert_eq!(format!("{r:?}"), r.to_string());
        assert!(format!("{r:?}").starts_with(if r.code() == -32700 {
            "parse error (-32700)"
        } else {
            "invalid request (-32600)"
        }));
    }
}

/// A byte that cannot continue the JSON text is named as a character when it
/// prints, and by its hex value when it does not (a control byte, a space, or
/// a byte of a multi-byte character): the report never prints raw bytes.
#[test]
fn an_unexpected_byte_is_shown_as_a_character_only_when_it_prints() {
    let message = |frame: &[u8]| lift(frame).expect_err("refused").message().to_owned();
    assert_eq!(message(br#"{"a":x}"#), "unexpected character `x`");
    assert_eq!(message(b"{\"a\":\x01}"), "unexpected byte 0x01");
    assert_eq!(message(b"{\"a\":\xc3\xa9}"), "unexpected byte 0xc3");
}
