//! RFC 8259 §7: a string ends at its unescaped `"`; a `\` starts an escape;
//! control characters (U+0000–U+001F) must be escaped. The scanner reads long
//! strings 128 bytes at a time once they pass 16 bytes, so each of the three
//! is placed where that block read must see it: inside a full 128-byte block
//! after a 16-byte run, wherever in the block it falls.

use harness::{lift, Rule};

/// A notification whose params hold `a` (its raw string body `body`) and
/// then `b`, a string long enough that a full 128-byte block follows `a`.
fn frame(body: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"m","params":{{"a":"{body}","b":"{}"}}}}"#,
        "y".repeat(300)
    )
}

fn run(n: usize) -> String {
    "x".repeat(n)
}

#[test]
fn a_string_ends_at_its_quote_wherever_the_block_read_meets_it() {
    for before in [17, 20, 40, 100, 143] {
        let text = frame(&run(before));
        let lifted = lift(text.as_bytes()).expect("a valid frame");
        let params = lifted.messages()[0].params().unwrap();
        assert_eq!(
            params.get("a").unwrap().as_string().unwrap(),
            run(before),
            "{before}"
        );
        assert_eq!(
            params.get("b").unwrap().as_string().unwrap().len(),
            300,
            "{before}"
        );
    }
}

#[test]
fn an_escape_inside_a_long_string_is_decoded() {
    for before in [17, 40, 143] {
        let text = frame(&format!(r"{}\n{}\u0041", run(before), run(150)));
        let lifted = lift(text.as_bytes()).expect("a valid frame");
        let a = lifted.messages()[0].params().unwrap().get("a").unwrap();
        assert_eq!(
            a.as_string().unwrap(),
            format!("{}\n{}A", run(before), run(150)),
            "{before}"
        );
    }
}

#[test]
fn a_raw_control_character_inside_a_long_string_is_refused() {
    for before in [17, 40, 143] {
        let text = frame(&format!("{}\t{}", run(before), run(150)));
        let refusal = lift(text.as_bytes()).expect_err("a raw tab in a string");
        assert_eq!(refusal.rule(), Rule::JsonSyntax, "{before}");
        assert_eq!(
            refusal.message(),
            "unescaped control character in string",
            "{before}"
        );
    }
}

/// RFC 8259 §7 lists the escapes there are; `\q` is none of them, and it is
/// refused wherever it falls, a full block past the start of a long string
/// included.
#[test]
fn an_invalid_escape_inside_a_long_string_is_refused() {
    for before in [17, 40, 143] {
        let text = frame(&format!(r"{}\q{}", run(before), run(150)));
        let refusal = lift(text.as_bytes()).expect_err("an invalid escape");
        assert_eq!(refusal.message(), "invalid escape in string", "{before}");
    }
}
