//! Oracles: the properties the codec promises, each one function that the fuzz
//! targets, the proptest properties and the corpus replay call alike.
//!
//! The oracles judge the codec by means independent of it: a whitespace stripper
//! written here for the round trip, and `serde_json` as a second opinion on what
//! is JSON at all.

use std::fmt;

use super::mutate_json;
use crate::client::{read_reply, ReplyError};
use crate::ir::{Frame, Id, Message, Raw, Success};
use crate::rules::{self, CheckedBy, RuleId, Violation};
use crate::{lift, lower_to_vec, Direction, Profile, Refusal, Revision, Rule};

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
pub enum RoundTrip {
    /// It lifted and round-tripped; the lowered bytes.
    Lifted(Vec<u8>),
    /// It was refused, coherently.
    Refused(Refusal),
}

/// The one lossless property, on any bytes: whatever lifts must come back from
/// `lower` as the same JSON text up to insignificant whitespace (byte-identical
/// when the input was compact), and lift again to the same bytes; whatever is
/// refused must be refused coherently ([`check_refusal`]).
pub fn check_roundtrip(input: &[u8]) -> Result<RoundTrip, Failure> {
    let frame = match lift(input) {
        Ok(frame) => frame,
        Err(refusal) => {
            check_refusal_of(input, &refusal)?;
            return Ok(RoundTrip::Refused(refusal));
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
    Ok(RoundTrip::Lifted(out))
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
/// Below the envelope the codec keeps duplicate member names, where RFC 6901
/// (like RFC 8259) leaves the choice open: a token matches any member of that
/// name, so a pointer resolves when some choice of duplicates leads to a value.
fn resolves(input: &[u8], pointer: &str) -> bool {
    let Ok(text) = std::str::from_utf8(input) else {
        return false;
    };
    let Ok(value) = Raw::parse(text) else {
        return false;
    };
    let tokens: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect();
    resolves_in(&value, &tokens)
}

/// Whether `pointer` names a member missing from an object that is in `input`:
/// the model, like the codec's refusals, names a required member that is absent
/// by where it should have been (`/error/data` for an error without `data`).
fn names_missing_member(input: &[u8], pointer: &str) -> bool {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return false;
    };
    let last = last.replace("~1", "/").replace("~0", "~");
    let Ok(text) = std::str::from_utf8(input) else {
        return false;
    };
    let Ok(value) = Raw::parse(text) else {
        return false;
    };
    let tokens: Vec<String> = parent
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect();
    lacks_in(&value, &tokens, &last)
}

fn lacks_in(value: &Raw<'_>, tokens: &[String], member: &str) -> bool {
    let Some((token, rest)) = tokens.split_first() else {
        return value.kind() == crate::ValueKind::Object
            && value.members().all(|(k, _)| k.decoded() != member);
    };
    match value.kind() {
        crate::ValueKind::Object => value
            .members()
            .filter(|(k, _)| k.decoded() == token.as_str())
            .any(|(_, v)| lacks_in(&v, rest, member)),
        crate::ValueKind::Array if token == "0" || !token.starts_with('0') => token
            .parse::<usize>()
            .ok()
            .and_then(|i| value.elements().nth(i))
            .is_some_and(|v| lacks_in(&v, rest, member)),
        _ => false,
    }
}

fn resolves_in(value: &Raw<'_>, tokens: &[String]) -> bool {
    let Some((token, rest)) = tokens.split_first() else {
        return true;
    };
    match value.kind() {
        crate::ValueKind::Object => value
            .members()
            .filter(|(k, _)| k.decoded() == token.as_str())
            .any(|(_, v)| resolves_in(&v, rest)),
        // RFC 6901 §4: an array index is digits without a leading zero.
        crate::ValueKind::Array if token == "0" || !token.starts_with('0') => token
            .parse::<usize>()
            .ok()
            .and_then(|i| value.elements().nth(i))
            .is_some_and(|v| resolves_in(&v, rest)),
        _ => false,
    }
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

/// The rule model on any bytes, under every profile (each revision, each
/// sender). [`rules::validate`] and [`rules::validate_reply`] never panic (a
/// panic is the fuzzer's crash), and every violation they report holds up:
///
/// - its rule is in the catalogue (the wire id reads back to the same row), it
///   applies to the revision judged, it is one the model can check (never a
///   `Session` rule), and the level and citation are the row's, for that
///   revision;
/// - a frame that does not lift gives exactly its refusal, at its pointer;
/// - every other pointer resolves (RFC 6901) in the frame judged, or names a
///   member missing from an object there (a required member is named by where
///   it should have been, as the codec's refusals name it): the frame for
///   `validate`, the reply for `validate_reply`, or the request when there is no
///   reply, and for a request of a batch that the batch reply leaves
///   unanswered (`jsonrpc.batch.one-response-per-request` names the request
///   element: the reply has no place for what is missing).
///
/// The request is paired with replies derived from it: none at all, an echo
/// (a success for every request id, the params as the result), and one
/// structural mutation of the input, when it lifts.
pub fn check_rules(input: &[u8]) -> Result<(), Failure> {
    let lifted = lift(input);
    let echo = lifted.as_ref().ok().and_then(echo_reply);
    let mutant = mutate_json(input, fnv1a(input)).filter(|m| lift(m).is_ok());
    let replies: Vec<&[u8]> = [echo.as_deref(), mutant.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    for revision in Revision::ALL {
        for direction in [Direction::ClientToServer, Direction::ServerToClient] {
            let profile = Profile {
                revision,
                direction,
            };
            let found = rules::validate(input, profile);
            match &lifted {
                Err(refusal) => {
                    let expected = [(RuleId::from(refusal.rule()), refusal.pointer())];
                    let got: Vec<_> = found.iter().map(|v| (v.rule, v.pointer.as_str())).collect();
                    if got != expected {
                        return fail(
                            "rules-refusal-is-one-violation",
                            format!("{refusal} under {revision}, but validate gave {found:?}"),
                        );
                    }
                    well_formed(&found, profile, &[CheckedBy::Codec], |_| None)?;
                }
                Ok(_) => well_formed(&found, profile, &[CheckedBy::Frame], |_| Some(input))?,
            }
            let Ok(request) = &lifted else { continue };
            let exchange = rules::validate_reply(request, None, profile);
            well_formed(&exchange, profile, &[CheckedBy::Reply], |_| Some(input))?;
            for &bytes in &replies {
                let Ok(reply) = lift(bytes) else { continue };
                let exchange = rules::validate_reply(request, Some(&reply), profile);
                let judged = |rule| match rule {
                    RuleId::JsonrpcBatchOneResponsePerRequest => Some(input),
                    _ => Some(bytes),
                };
                well_formed(&exchange, profile, &[CheckedBy::Reply], judged).map_err(|f| {
                    Failure {
                        detail: format!(
                            "{}\n  reply: {}",
                            f.detail,
                            String::from_utf8_lossy(bytes)
                        ),
                        ..f
                    }
                })?;
            }
        }
    }
    Ok(())
}

/// Each violation's rule is catalogued, applies under `profile`, is checked the
/// way `checks` says, carries the row's level and citation, and points at a
/// value in the frame `judged` gives for its rule (none: the pointer is not
/// checked, as for a refusal, which `check_refusal` judges).
fn well_formed<'f>(
    found: &[Violation],
    profile: Profile,
    checks: &[CheckedBy],
    judged: impl Fn(RuleId) -> Option<&'f [u8]>,
) -> Result<(), Failure> {
    let revision = profile.revision;
    for v in found {
        let info = v.rule.info();
        if rules::rule(v.rule.as_str()) != Some(info) {
            return fail("rules-catalogued", format!("{v:?} is not in the catalogue"));
        }
        if !info.applies_to(revision) {
            return fail(
                "rules-apply-to-revision",
                format!(
                    "{} reported under {revision}, outside its revisions",
                    v.rule
                ),
            );
        }
        if !checks.contains(&info.check) {
            return fail(
                "rules-checked-as-catalogued",
                format!(
                    "{} is marked {:?}, reported by a {checks:?} check",
                    v.rule, info.check
                ),
            );
        }
        if v.level != info.level || v.spec != info.cite(revision) {
            return fail(
                "rules-level-and-citation",
                format!(
                    "{v:?} under {revision}: the row says {} {:?}",
                    info.level,
                    info.cite(revision)
                ),
            );
        }
        if let Some(frame) = judged(v.rule) {
            if !resolves(frame, &v.pointer) && !names_missing_member(frame, &v.pointer) {
                return fail(
                    "rules-pointer-resolves",
                    format!(
                        "{} under {revision}: pointer {:?} does not resolve in {}",
                        v.rule,
                        v.pointer,
                        String::from_utf8_lossy(frame)
                    ),
                );
            }
        }
    }
    Ok(())
}

/// A reply to every request in `frame`: a success with the request's id and its
/// params (or `{}`) as the result; `None` when the frame holds no request.
fn echo_reply(frame: &Frame<'_>) -> Option<Vec<u8>> {
    let answers: Vec<Message<'static>> = frame
        .messages()
        .iter()
        .filter_map(|m| match m {
            Message::Request(r) => Some(Message::Success(Success::new(
                r.id.clone().into_owned(),
                r.params
                    .clone()
                    .map_or_else(|| Raw("{}".into()), Raw::into_owned),
            ))),
            _ => None,
        })
        .collect();
    let reply = match frame {
        Frame::Batch(_) if !answers.is_empty() => Frame::Batch(answers),
        _ => Frame::Single(answers.into_iter().next()?),
    };
    Some(lower_to_vec(&reply))
}

/// A seed for the mutator that depends on the input only, so a failing input
/// reproduces (FNV-1a, 64 bits).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
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

#[cfg(test)]
mod check_rules_tests {
    use super::*;

    const PROFILE: Profile = Profile {
        revision: Revision::Mcp2025_06_18,
        direction: Direction::ClientToServer,
    };

    fn violation(rule: RuleId, pointer: &str) -> Violation {
        let info = rule.info();
        Violation {
            rule,
            level: info.level,
            spec: info.cite(PROFILE.revision),
            pointer: pointer.into(),
            message: String::new(),
        }
    }

    /// The checks on a violation each catch what they are for.
    #[test]
    fn well_formed_catches_each_fault() {
        let frame = br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#;
        let judge = |v: Violation, checks: &[CheckedBy]| {
            well_formed(&[v], PROFILE, checks, |_| Some(&frame[..])).map_err(|f| f.property)
        };
        assert_eq!(
            judge(
                violation(RuleId::McpBaseIdNotNull, "/id"),
                &[CheckedBy::Frame]
            ),
            Ok(())
        );
        assert_eq!(
            judge(
                violation(RuleId::McpBaseIdNotNull, "/id/0"),
                &[CheckedBy::Frame]
            ),
            Err("rules-pointer-resolves")
        );
        assert_eq!(
            judge(
                violation(RuleId::McpBaseIdNotNull, "/id"),
                &[CheckedBy::Reply]
            ),
            Err("rules-checked-as-catalogued")
        );
        // 2026-07-28 only: outside the revision judged.
        assert_eq!(
            judge(
                violation(RuleId::McpR5MetaRequiredFields, ""),
                &[CheckedBy::Frame]
            ),
            Err("rules-apply-to-revision")
        );
        let mut wrong_level = violation(RuleId::McpBaseIdNotNull, "/id");
        wrong_level.level = crate::rules::Level::May;
        assert_eq!(
            judge(wrong_level, &[CheckedBy::Frame]),
            Err("rules-level-and-citation")
        );
    }

    #[test]
    fn pointers_resolve_through_duplicates() {
        let frame = br#"{"a":"1","a":{"b":[0,{"c~/":null}]}}"#;
        assert!(resolves(frame, ""));
        assert!(resolves(frame, "/a"));
        assert!(resolves(frame, "/a/b/1/c~0~1"));
        assert!(!resolves(frame, "/a/b/01"));
        assert!(!resolves(frame, "/a/b/2"));
        assert!(!resolves(frame, "/a/c"));
        assert!(!resolves(b"{", ""));
        // A missing member, named by its place in an object that is there.
        let error = br#"{"jsonrpc":"2.0","error":{"code":1,"message":""},"x":[{}]}"#;
        assert!(names_missing_member(error, "/error/data"));
        assert!(names_missing_member(error, "/x/0/id"));
        assert!(!names_missing_member(error, "/error/code"), "present");
        assert!(
            !names_missing_member(error, "/error/code/x"),
            "parent not an object"
        );
        assert!(!names_missing_member(error, "/x/1/id"), "parent absent");
        assert!(!names_missing_member(error, ""));
    }

    /// The oracle passes a frame that breaks rules, and its derived echo reply
    /// answers each request id.
    #[test]
    fn check_rules_on_a_frame_with_violations() {
        let frame = br#"[{"jsonrpc":"2.0","id":null,"method":"rpc.x"},{"jsonrpc":"2.0","id":"a","method":"ping","params":[]}]"#;
        assert_eq!(check_rules(frame), Ok(()));
        let lifted = lift(frame).unwrap();
        assert_eq!(
            echo_reply(&lifted).as_deref(),
            Some(&br#"[{"jsonrpc":"2.0","id":null,"result":{}},{"jsonrpc":"2.0","id":"a","result":[]}]"#[..])
        );
        assert_eq!(check_rules(b"{\"jsonrpc\":1}"), Ok(()));
        assert_eq!(check_rules(b"\xff"), Ok(()));
    }
}
