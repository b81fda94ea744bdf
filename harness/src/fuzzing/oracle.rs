//! Oracles: the properties the codec promises, each one function that the fuzz
//! targets, the proptest properties and the corpus replay call alike.
//!
//! The oracles judge the codec by means independent of it: a whitespace stripper
//! written here for the round trip, and `serde_json` as a second opinion on what
//! is JSON at all.

use std::fmt;

use crate::client::{read_reply, ReplyError};
use crate::ir::{Frame, Id, Message, Raw};
use crate::{lift, lower_to_vec, Refusal, Rule};

/// A broken promise: what was checked, and the evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Which property failed.
    pub property: &'static str,
    /// What was seen.
    pub detail: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.property, self.detail)
    }
}

impl std::error::Error for Failure {}

fn fail<T>(property: &'static str, detail: String) -> Result<T, Failure> {
    Err(Failure { property, detail })
}

/// What happened to an input that broke no promise.
#[derive(Debug)]
pub enum Outcome {
    /// It lifted and round-tripped; the lowered bytes.
    Lifted(Vec<u8>),
    /// It was refused, coherently.
    Refused(Refusal),
}

/// The one lossless property, on any bytes: whatever lifts must come back from
/// `lower` as the same JSON text up to insignificant whitespace (byte-identical
/// when the input was compact), and lift again to the same bytes; whatever is
/// refused must be refused coherently ([`check_refusal`]).
pub fn check_roundtrip(input: &[u8]) -> Result<Outcome, Failure> {
    let frame = match lift(input) {
        Ok(frame) => frame,
        Err(refusal) => {
            check_refusal_of(input, &refusal)?;
            return Ok(Outcome::Refused(refusal));
        }
    };
    check_lifted_is_json(input)?;
    let out = lower_to_vec(&frame);
    // Output equal to the input byte for byte (every compact input) satisfies
    // both checks below; stripping is the oracle's dearest step, so skip it then.
    if out != input {
        let (stripped_in, stripped_out) = (strip_whitespace(input), strip_whitespace(&out));
        if stripped_in != stripped_out {
            return fail(
                "lossless",
                format!(
                    "lower(lift(b)) differs from b beyond whitespace\n  in:  {}\n  out: {}",
                    String::from_utf8_lossy(&stripped_in),
                    String::from_utf8_lossy(&stripped_out)
                ),
            );
        }
        if stripped_in == input {
            return fail(
                "byte-identical",
                format!(
                    "compact input did not come back byte for byte\n  in:  {}\n  out: {}",
                    String::from_utf8_lossy(input),
                    String::from_utf8_lossy(&out)
                ),
            );
        }
    }
    match lift(&out) {
        Ok(again) => {
            if kinds(&again) != kinds(&frame) {
                return fail(
                    "stable-kind",
                    format!(
                        "kinds {:?} became {:?} on re-lift",
                        kinds(&frame),
                        kinds(&again)
                    ),
                );
            }
            let twice = lower_to_vec(&again);
            if twice != out {
                return fail(
                    "fixed-point",
                    format!(
                        "second round trip changed the bytes\n  once:  {}\n  twice: {}",
                        String::from_utf8_lossy(&out),
                        String::from_utf8_lossy(&twice)
                    ),
                );
            }
        }
        Err(refusal) => return fail("relift", format!("lowered output does not lift: {refusal}")),
    }
    Ok(Outcome::Lifted(out))
}

fn kinds(frame: &Frame<'_>) -> Vec<crate::MessageKind> {
    frame.messages().iter().map(Message::kind).collect()
}

/// On any bytes: lifting either succeeds or refuses coherently.
pub fn check_refusal(input: &[u8]) -> Result<Option<Refusal>, Failure> {
    match lift(input) {
        Ok(_) => check_lifted_is_json(input).map(|()| None),
        Err(refusal) => {
            check_refusal_of(input, &refusal)?;
            Ok(Some(refusal))
        }
    }
}

/// Whatever lifts is JSON text: UTF-8 that `serde_json` parses. The round trip
/// alone cannot see a lenient reader (a trailing comma, a raw control character
/// in a string): its output equals its input, so the comparison passes.
fn check_lifted_is_json(input: &[u8]) -> Result<(), Failure> {
    if let Err(e) = std::str::from_utf8(input) {
        return fail("lifted-only-json", format!("lifted, but not UTF-8: {e}"));
    }
    match serde_json::from_slice::<serde::de::IgnoredAny>(input) {
        Ok(_) => Ok(()),
        // serde_json stops at 128 levels; the codec's own limit is higher.
        Err(e) if e.to_string().contains("recursion limit") => Ok(()),
        Err(e) => fail(
            "lifted-only-json",
            format!("lifted, but serde_json rejects the input: {e}"),
        ),
    }
}

/// A refusal holds up when: its position is inside the input; a -32700 for bad
/// syntax or UTF-8 comes only from bytes `serde_json` also rejects; a -32600 comes
/// only from bytes `serde_json` accepts as JSON; and its JSON Pointer resolves in
/// the input (for a missing member: its parent resolves and the member is absent).
fn check_refusal_of(input: &[u8], refusal: &Refusal) -> Result<(), Failure> {
    if refusal.offset() > input.len() || refusal.line() == 0 || refusal.column() == 0 {
        return fail(
            "refusal-position",
            format!("{refusal} (offset {} of {})", refusal.offset(), input.len()),
        );
    }
    // `IgnoredAny` checks grammar without judging number ranges (`1e400` is JSON).
    let judged = serde_json::from_slice::<serde::de::IgnoredAny>(input);
    let serde_depth_limit = matches!(&judged, Err(e) if e.to_string().contains("recursion limit"));
    match refusal.rule() {
        // serde_json skips strings without checking UTF-8: ask the standard library.
        Rule::JsonUtf8 => {
            if std::str::from_utf8(input).is_ok() {
                return fail(
                    "utf8-error-only-for-bad-utf8",
                    format!("{refusal}, but the input is UTF-8"),
                );
            }
            Ok(())
        }
        Rule::JsonSyntax => {
            if judged.is_ok() {
                return fail(
                    "parse-error-only-for-non-json",
                    format!("{refusal}, but serde_json parses the input"),
                );
            }
            Ok(())
        }
        // Limits are ours to set; serde_json has no say.
        Rule::JsonDepthLimit | Rule::JsonFrameTooLarge => Ok(()),
        _ if serde_depth_limit => Ok(()),
        _ => {
            if let Err(e) = judged {
                return fail(
                    "invalid-request-only-for-json",
                    format!("{refusal}, but serde_json rejects the input: {e}"),
                );
            }
            let pointer = refusal.pointer();
            if resolves(input, pointer) {
                return Ok(());
            }
            // A missing member is named by where it should have been.
            let missing = matches!(refusal.rule(), Rule::ErrorCode | Rule::ErrorMessage);
            let parent = pointer.rfind('/').map(|i| &pointer[..i]);
            if missing && parent.is_some_and(|p| resolves(input, p)) {
                return Ok(());
            }
            fail(
                "pointer-resolves",
                format!("{refusal}: pointer {pointer:?} does not resolve in the input"),
            )
        }
    }
}

/// Whether a JSON Pointer (RFC 6901) names a value in `input` (valid JSON).
fn resolves(input: &[u8], pointer: &str) -> bool {
    let Ok(text) = std::str::from_utf8(input) else {
        return false;
    };
    let Ok(mut value) = Raw::parse(text) else {
        return false;
    };
    if pointer.is_empty() {
        return true;
    }
    for token in pointer.split('/').skip(1) {
        let token = token.replace("~1", "/").replace("~0", "~");
        let next = match value.kind() {
            crate::ValueKind::Object => value
                .members()
                .find(|(k, _)| k.decoded() == token)
                .map(|(_, v)| v.into_owned()),
            crate::ValueKind::Array => token
                .parse::<usize>()
                .ok()
                .and_then(|i| value.elements().nth(i))
                .map(Raw::into_owned),
            _ => None,
        };
        match next {
            Some(v) => value = v,
            None => return false,
        }
    }
    true
}

/// Strips JSON's insignificant whitespace outside strings. Deliberately written
/// apart from the codec's scanner, so the round-trip check does not grade the
/// codec with its own code. Meaningful on valid JSON text only.
#[must_use]
pub fn strip_whitespace(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    for &b in text {
        if in_string {
            out.push(b);
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if b == b'"' {
            in_string = true;
            out.push(b);
        } else if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            out.push(b);
        }
    }
    out
}

/// A reply lowered for id `x` is accepted as the answer to `x` and refused as the
/// answer to each of `others` whose text differs from `x`'s in value: number and
/// string twins, a neighbouring number, `null`.
pub fn check_reply_matching(reply: &[u8], x: &Id<'_>, others: &[Id<'_>]) -> Result<(), Failure> {
    match read_reply(x, reply) {
        Ok(_) => {}
        Err(e) => return fail("reply-accepted", format!("reply for {x} refused: {e}")),
    }
    for other in others {
        if other.raw() == x.raw() {
            continue;
        }
        match read_reply(other, reply) {
            Err(ReplyError::WrongId { .. }) => {}
            Ok(_) => {
                return fail(
                    "reply-refused-for-other-id",
                    format!("reply for {x} accepted as the answer to {other}"),
                )
            }
            Err(e) => {
                return fail(
                    "reply-refused-for-other-id",
                    format!("reply for {x} refused for {other} for the wrong reason: {e}"),
                )
            }
        }
    }
    Ok(())
}

/// Ids that must not match `id`: its number/string twin, a neighbour that differs
/// in the last digit (an id rounded through a double looks like this), and `null`.
#[must_use]
pub fn id_twins(id: &Id<'_>) -> Vec<Id<'static>> {
    let mut twins = vec![];
    match id {
        Id::Number(text) => {
            // The string that spells the number.
            twins.push(Id::String(crate::ir::JsonStr::encode(text)));
            // Change the last mantissa digit: a different value, whatever the spelling.
            let cut = text.find(['e', 'E']).unwrap_or(text.len());
            let (mantissa, exponent) = text.split_at(cut);
            if let Some(pos) = mantissa.rfind(|c: char| c.is_ascii_digit()) {
                let digit = mantissa.as_bytes()[pos];
                let bumped = if digit == b'9' { b'8' } else { digit + 1 };
                let mut changed = mantissa.as_bytes().to_vec();
                changed[pos] = bumped;
                let changed = String::from_utf8_lossy(&changed).into_owned() + exponent;
                // Only a twin when the value really changed (not `0` vs `1e-99999`-style
                // spellings of zero, which the bump cannot produce anyway).
                if crate::ir::decimal_value(&changed) != crate::ir::decimal_value(text) {
                    twins.push(Id::Number(changed.into()));
                }
            }
            twins.push(Id::Null);
        }
        Id::String(s) => {
            let decoded = s.decoded();
            if !decoded.is_empty()
                && decoded.bytes().all(|b| b.is_ascii_digit())
                && !(decoded.len() > 1 && decoded.starts_with('0'))
            {
                twins.push(Id::Number(decoded.clone().into_owned().into()));
            }
            twins.push(Id::String(crate::ir::JsonStr::encode(&format!(
                "{decoded}x"
            ))));
            twins.push(Id::Null);
        }
        Id::Null => twins.push(Id::int(0)),
    }
    twins
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check a lenient reader would fail: it can fail, and it allows what the
    /// codec may accept beyond serde_json's own recursion limit.
    #[test]
    fn only_json_may_lift() {
        assert!(check_lifted_is_json(br#"{"jsonrpc":"2.0","method":"\ud800"}"#).is_ok());
        for lenient in [
            &br#"{"jsonrpc":"2.0","method":"x",}"#[..],
            b"{\"jsonrpc\":\"2.0\",\"method\":\"a\tb\"}",
            b"{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}",
            b"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"method\":\"x\"}",
        ] {
            let failure = check_lifted_is_json(lenient).unwrap_err();
            assert_eq!(failure.property, "lifted-only-json");
        }
        let deep = format!(
            r#"{{"jsonrpc":"2.0","method":"x","params":{}{}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        assert!(check_lifted_is_json(deep.as_bytes()).is_ok());
    }
}
