//! Which ids a frame uses, and which ids an error reply may carry: the one
//! place every judge asks (the vector judge, the exchange rules, the session
//! judge, live fuzzing, the proxy, and the runner's planner).
//!
//! The sentences, per profile:
//!
//! - JSON-RPC 2.0 §5, `id`: "It MUST be the same as the value of the id
//!   member in the Request Object. If there was an error in detecting the id
//!   in the Request object (e.g. Parse error/Invalid Request), it MUST be
//!   Null." §4: an id "MUST contain a String, Number, or NULL value if
//!   included".
//! - MCP 2025-11-25 and 2026-07-28 basic/index §Error Responses: "Error
//!   responses MUST include the same ID as the request they correspond to
//!   (except in error cases where the ID could not be read due a malformed
//!   request)." Requests "MUST include a string or integer ID" and "the ID
//!   MUST NOT be null". Earlier MCP revisions say "Responses MUST include
//!   the same ID as the request they correspond to" and build on JSON-RPC
//!   2.0, whose §5 gives null for an id that could not be detected.
//! - MCP basic/transports (2025-03-26 on) §Sending Messages to the Server 4
//!   and §Security Warning: a refused POST gets an HTTP error status, and
//!   "The HTTP response body MAY comprise a JSON-RPC error response that has
//!   no `id`".
//!
//! Read together: an error answering a request may carry the request's own
//! id; it may carry null when the request was refused as malformed (§5 names
//! an Invalid Request as an error in detecting the id) or its id is of a
//! type the profile forbids (MCP: null, a fraction; any profile: a boolean,
//! an array, an object); it may carry no id where the id could not be read,
//! under the MCP revisions that let an error leave it out (2025-03-26 on:
//! [`error_may_carry`]), and as the body of an HTTP error status
//! ([`idless_error_allowed`]). Echoing a readable id of an Invalid Request
//! is as conformant as null: both pass.

use std::borrow::Cow;

use crate::ir::{Id, JsonStr, Raw};
use crate::scan::ValueKind;
use crate::Revision;

/// What a receiver can read of one request object's `id` member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Read<'a> {
    /// No `id` member (a notification, or no object at all).
    Absent,
    /// An id of a JSON type an id can have (string, number, null).
    Id(Id<'a>),
    /// A value no profile allows as an id (`true`, `[1]`, `{}`), as its text.
    Other(Cow<'a, str>),
}

/// The id `value` is, when it is of a type an id can have.
#[must_use]
pub fn id_of<'a>(value: &Raw<'a>) -> Option<Id<'a>> {
    let text = match &value.0 {
        Cow::Borrowed(t) => Cow::Borrowed(*t),
        Cow::Owned(t) => Cow::Owned(t.clone()),
    };
    match value.kind() {
        ValueKind::String => Some(Id::String(JsonStr(text))),
        ValueKind::Number => Some(Id::Number(text)),
        ValueKind::Null => Some(Id::Null),
        _ => None,
    }
}

/// Whether `object` (one JSON value, a frame or a batch element) reads as a
/// request a receiver would answer: an object with a `method`, or with
/// neither `result` nor `error` (`{"jsonrpc":"2.0","id":1}` is an Invalid
/// Request, not a response). A response's id is no request id.
fn request_like(object: &Raw<'_>) -> bool {
    object.kind() == ValueKind::Object
        && (object.get("method").is_some()
            || (object.get("result").is_none() && object.get("error").is_none()))
}

/// Every `id` member of one request-like object, duplicates included (a
/// receiver may read either of `{"id":1,"id":2}`).
fn object_ids<'r>(object: &'r Raw<'_>) -> Vec<Read<'r>> {
    if !request_like(object) {
        return Vec::new();
    }
    object
        .members()
        .filter(|(key, _)| key.decoded() == "id")
        .map(|(_, value)| match id_of(&value) {
            Some(id) => Read::Id(id),
            None => Read::Other(Cow::Owned(value.as_str().to_owned())),
        })
        .collect()
}

/// Nesting a receiver without the codec's own limit still reads an id
/// through: past [`crate::Limits::DEFAULT_MAX_DEPTH`] (the `i_depth-limit`
/// vectors nest 600 deep), bounded so reading stays cheap.
const READ_DEPTH: usize = 1024;

/// `text` as one JSON value, read to [`READ_DEPTH`].
fn parse_deep(text: &str) -> Option<Raw<'_>> {
    let mut scanner = crate::scan::Scanner::new(text, READ_DEPTH);
    scanner.skip_ws();
    let (start, end) = scanner.value(0).ok()?;
    scanner.finish().ok()?;
    Some(Raw::trusted(&text[start..end]))
}

/// Whether `bytes` is JSON whose every message is shaped as a response: an
/// object with no `method` member and a `result` or an `error` member (one
/// object, or a non-empty array of them). No rpc call is made by such a
/// frame, however broken (JSON-RPC 2.0 §5 obliges a reply "when a rpc call
/// is made"). Read with this crate's scanner, so a number no double holds
/// (an id of `1e27223`) is still read.
#[must_use]
pub fn response_shaped(bytes: &[u8]) -> bool {
    let Some(value) = std::str::from_utf8(bytes).ok().and_then(parse_deep) else {
        return false;
    };
    let one = |m: &Raw<'_>| {
        m.kind() == ValueKind::Object
            && m.get("method").is_none()
            && (m.get("result").is_some() || m.get("error").is_some())
    };
    match value.kind() {
        ValueKind::Array => {
            let mut elements = value.elements().peekable();
            elements.peek().is_some() && elements.all(|e| one(&e))
        }
        _ => one(&value),
    }
}

/// Every request id a receiver can read in `bytes`, whether or not the frame
/// is a valid message: the `id` members of the frame's request-like object,
/// or of each request-like element of a batch. Nothing when the bytes are no
/// JSON text (a parse error has no id to read).
///
/// An invalid frame whose id a server can read counts as a use of that id
/// (a server may echo it: JSON-RPC 2.0 §5), so the runner never sends it
/// again in the same session and the session judge pairs its answer.
#[must_use]
pub fn readable_request_ids(bytes: &[u8]) -> Vec<Read<'static>> {
    // Read as a lenient parser does (RFC 8259 §9 lets one "accept non-JSON
    // forms"): a byte that is not UTF-8 as U+FFFD, so a request whose method
    // holds one still shows the id a server answering it echoes.
    let text = String::from_utf8_lossy(bytes);
    let Some(value) = parse_deep(&text) else {
        return Vec::new();
    };
    let owned = |r: Read<'_>| match r {
        Read::Absent => Read::Absent,
        Read::Id(id) => Read::Id(id.into_owned()),
        Read::Other(t) => Read::Other(Cow::Owned(t.into_owned())),
    };
    match value.kind() {
        ValueKind::Array => value
            .elements()
            .flat_map(|e| object_ids(&e).into_iter().map(owned).collect::<Vec<_>>())
            .collect(),
        _ => object_ids(&value).into_iter().map(owned).collect(),
    }
}

/// Where the request ids of [`readable_request_ids`] are written in `bytes`:
/// each id's byte range and the id, in frame order, so a caller can give a
/// request a new id without touching anything else of the frame. Empty when
/// `bytes` is not UTF-8 (a lenient reading's offsets are not the frame's).
#[must_use]
pub fn request_id_spans(bytes: &[u8]) -> Vec<(std::ops::Range<usize>, Id<'static>)> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Vec::new();
    };
    let Some(value) = parse_deep(text) else {
        return Vec::new();
    };
    let base = text.as_ptr() as usize;
    let mut out = Vec::new();
    let mut spans_of = |object: &Raw<'_>| {
        if !request_like(object) {
            return;
        }
        for (key, value) in object.members() {
            if key.decoded() != "id" {
                continue;
            }
            let Some(id) = id_of(&value) else { continue };
            let start = (value.as_str().as_ptr() as usize).wrapping_sub(base);
            let end = start + value.as_str().len();
            if text.get(start..end) == Some(value.as_str()) {
                out.push((start..end, id.into_owned()));
            }
        }
    };
    match value.kind() {
        ValueKind::Array => value.elements().for_each(|e| spans_of(&e)),
        _ => spans_of(&value),
    }
    out
}

/// The id a receiver reads in a single (non-batch) frame: its first `id`
/// member, [`Read::Absent`] when it has none or is no object or no JSON.
#[must_use]
pub fn read_single(bytes: &[u8]) -> Read<'static> {
    let text = String::from_utf8_lossy(bytes);
    match parse_deep(&text) {
        Some(value) if value.kind() == ValueKind::Object => readable_request_ids(bytes)
            .into_iter()
            .next()
            .unwrap_or(Read::Absent),
        _ => Read::Absent,
    }
}

/// Whether an error answering the single frame `bytes`, refused as
/// malformed, may carry `carried` ([`error_may_carry`]). A frame that is not
/// UTF-8 is read both ways: a lenient parser (RFC 8259 §9 lets one "accept
/// non-JSON forms") reads the id behind a U+FFFD and may echo it; a strict
/// one could not read the frame at all, so its id "could not be read".
#[must_use]
pub fn malformed_error_may_carry(
    revision: Revision,
    bytes: &[u8],
    carried: Option<&Id<'_>>,
) -> bool {
    error_may_carry(revision, &read_single(bytes), true, carried)
        || (std::str::from_utf8(bytes).is_err()
            && error_may_carry(revision, &Read::Absent, true, carried))
}

/// Whether `revision` allows `id` as a request id: JSON-RPC 2.0 §4 any
/// string, number or null (a fraction is a SHOULD NOT, still an id); MCP a
/// string or an integer, never null (basic/index §Requests).
#[must_use]
pub fn id_allowed(revision: Revision, id: &Id<'_>) -> bool {
    match id {
        Id::String(_) => true,
        Id::Null => !revision.is_mcp(),
        Id::Number(text) => {
            !revision.is_mcp() || text.parse::<f64>().is_ok_and(|n| n.fract() == 0.0)
        }
    }
}

/// Whether an error reply may carry `carried` (`None`: no `id` member)
/// when it answers a request whose id read `read`, under `revision`.
/// `malformed`: the request is known to be refused as malformed (an Invalid
/// Request the vector's answer describes, a frame the codec refuses), so
/// its id may count as not detected.
///
/// - The request's own id: always.
/// - Null: when no id could be read, the id is of a type the profile
///   forbids, or the request was malformed (JSON-RPC 2.0 §5 "e.g. Parse
///   error/Invalid Request"; MCP "could not be read due a malformed
///   request"). Under MCP no schema allows a null id in an error: that is
///   ambiguity A2, said once per run, never a fail here.
/// - No id: for an id that could not be read, from 2025-03-26 (2025-11-25
///   on, `JSONRPCErrorResponse` requires only `jsonrpc` and `error`, and
///   basic/index excepts "error cases where the ID could not be read due a
///   malformed request"; 2025-03-26 and 2025-06-18 only by their transports
///   page's error "that has no `id`", against their schema: ambiguity A2,
///   see `error_id_optional`); JSON-RPC 2.0 §5 asks for null there, so the
///   texts allow both. Never for a readable id ([`idless_error_allowed`] is
///   the HTTP refusal's allowance).
#[must_use]
pub fn error_may_carry(
    revision: Revision,
    read: &Read<'_>,
    malformed: bool,
    carried: Option<&Id<'_>>,
) -> bool {
    // The id itself could not be read as one (none, a type no profile
    // allows, or one this profile forbids): null, or where the schema lets
    // it, no id.
    let unreadable_id = match read {
        Read::Absent | Read::Other(_) => true,
        Read::Id(id) => matches!(id, Id::Null) || !id_allowed(revision, id),
    };
    // An Invalid Request whose id reads fine: JSON-RPC 2.0 §5 still allows
    // null ("e.g. Parse error/Invalid Request"); MCP's "could not be read"
    // does not reach it, so leaving the id out does not either.
    let null_allowed = unreadable_id || (malformed && matches!(read, Read::Id(_)));
    match (carried, read) {
        (None, _) => unreadable_id && error_id_optional(revision),
        (Some(Id::Null), _) => null_allowed,
        (Some(c), Read::Id(id)) => id.matches(c),
        (Some(_), Read::Absent | Read::Other(_)) => false,
    }
}

/// Whether an MCP revision lets an error response leave out `id` for an id
/// that could not be read: from 2025-11-25 the schema's
/// `JSONRPCErrorResponse` requires only `jsonrpc` and `error`; in 2025-03-26
/// and 2025-06-18 the schema requires it but the transports page allows an
/// error "that has no `id`", the conflict the rule model keeps as ambiguity
/// A2 (`mcp.base.error-id-absent`, never a MUST failure). JSON-RPC 2.0 and
/// 2024-11-05: the id is REQUIRED (§5).
fn error_id_optional(revision: Revision) -> bool {
    revision >= Revision::Mcp2025_03_26
}

/// Whether an error response with no `id` member is allowed as the body of
/// an HTTP response with `status`, under `revision`: MCP basic/transports
/// (2025-03-26 on; 2026-07-28 basic/transports/streamable-http) lets a POST
/// the server cannot accept, or an invalid `Origin`, be refused with an HTTP
/// error status whose body "MAY comprise a JSON-RPC error response that has
/// no `id`". JSON-RPC 2.0 and 2024-11-05 have no such sentence.
#[must_use]
pub fn idless_error_allowed(revision: Revision, status: u16) -> bool {
    revision.is_mcp() && revision >= Revision::Mcp2025_03_26 && (400..600).contains(&status)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(frame: &str) -> Read<'static> {
        read_single(frame.as_bytes())
    }

    #[test]
    fn ids_are_read_from_invalid_frames_too() {
        let ids = |f: &str| {
            readable_request_ids(f.as_bytes())
                .into_iter()
                .map(|r| match r {
                    Read::Id(id) => id.raw().to_owned(),
                    Read::Other(t) => t.into_owned(),
                    Read::Absent => "absent".into(),
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(r#"{"jsonrpc":"1.0","id":1,"method":"echo"}"#), ["1"]);
        assert_eq!(
            ids(r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"e"}"#),
            ["1", "2"]
        );
        assert_eq!(ids(r#"{"jsonrpc":"2.0","id":true,"method":"e"}"#), ["true"]);
        assert_eq!(ids(r#"[{"jsonrpc":"2.0","id":1,"method":"a"},2]"#), ["1"]);
        assert_eq!(ids(r#"{"jsonrpc":"2.0","id":3}"#), ["3"]);
        // A response's id, a notification, and no JSON at all: no request id.
        assert!(ids(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#).is_empty());
        assert!(ids(r#"{"jsonrpc":"2.0","method":"n"}"#).is_empty());
        assert!(ids(r#"{"jsonrpc":"2.0","id":1,"method":"x",}"#).is_empty());
    }

    #[test]
    fn request_ids_are_found_where_they_are_written() {
        let frame = r#"[{"jsonrpc":"2.0","id":"a\"b","method":"x"},{"id":1,"result":{}},{"id" : 7.0 ,"method":"y","id":[]}]"#;
        let spans = request_id_spans(frame.as_bytes());
        let texts: Vec<&str> = spans.iter().map(|(r, _)| &frame[r.clone()]).collect();
        assert_eq!(texts, [r#""a\"b""#, "7.0"]);
        assert!(spans[1].1.matches(&Id::int(7)));
        assert!(request_id_spans(b"{\"id\":1,\"method\":\"\xff\"}").is_empty());
    }

    #[test]
    fn an_invalid_request_may_be_answered_with_its_readable_id_or_null() {
        let one = Id::int(1);
        for revision in [Revision::JsonRpc2, Revision::Mcp2025_11_25] {
            let r = read(r#"{"jsonrpc":"1.0","id":1,"method":"echo"}"#);
            assert!(error_may_carry(revision, &r, true, Some(&one)));
            assert!(error_may_carry(revision, &r, true, Some(&Id::Null)));
            assert!(!error_may_carry(revision, &r, true, Some(&Id::int(2))));
            // A valid request: its own id only.
            assert!(!error_may_carry(revision, &r, false, Some(&Id::Null)));
            // No id could be read: null only.
            let none = read(r#"{"jsonrpc": "2.0", "method": 1}"#);
            assert!(error_may_carry(revision, &none, true, Some(&Id::Null)));
            assert!(!error_may_carry(revision, &none, true, Some(&one)));
            let bool_id = read(r#"{"jsonrpc":"2.0","id":true,"method":"e"}"#);
            assert!(error_may_carry(revision, &bool_id, false, Some(&Id::Null)));
        }
    }

    #[test]
    fn the_profiles_forbid_their_own_id_types() {
        let fraction = read(r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#);
        let null = read(r#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#);
        // MCP forbids both, so null may answer them even when not known malformed.
        assert!(error_may_carry(
            Revision::Mcp2025_11_25,
            &fraction,
            false,
            Some(&Id::Null)
        ));
        assert!(error_may_carry(
            Revision::Mcp2025_11_25,
            &null,
            false,
            Some(&Id::Null)
        ));
        // JSON-RPC allows 1.5: a valid request's error echoes it.
        assert!(!error_may_carry(
            Revision::JsonRpc2,
            &fraction,
            false,
            Some(&Id::Null)
        ));
        assert!(error_may_carry(
            Revision::JsonRpc2,
            &fraction,
            false,
            Some(&Id::Number("1.5".into()))
        ));
        assert!(id_allowed(
            Revision::Mcp2025_11_25,
            &Id::Number("1.0".into())
        ));
    }

    /// From 2025-11-25 the schema's `JSONRPCErrorResponse` leaves `id` out of
    /// `required` (2025-03-26 and 2025-06-18: ambiguity A2): where the id
    /// could not be read, an error may carry no id; never where the id was
    /// readable, and never under JSON-RPC 2.0 or 2024-11-05 (§5: REQUIRED).
    #[test]
    fn an_error_may_leave_out_an_unreadable_id_where_mcp_allows_it() {
        let fraction = read(r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#);
        let null = read(r#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#);
        let valid = read(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
        let nothing = read("not json");
        for revision in [Revision::Mcp2025_11_25, Revision::Mcp2026_07_28] {
            assert!(error_may_carry(revision, &fraction, false, None));
            assert!(error_may_carry(revision, &null, false, None));
            assert!(error_may_carry(revision, &nothing, true, None));
            // A readable id of a malformed request: null (JSON-RPC §5) or the
            // id itself, never nothing (MCP: "MUST include the same ID").
            assert!(!error_may_carry(revision, &valid, true, None));
            assert!(error_may_carry(revision, &valid, true, Some(&Id::Null)));
            assert!(!error_may_carry(revision, &valid, false, None));
        }
        // 2025-03-26 and 2025-06-18: ambiguity A2 (`mcp.base.error-id-absent`).
        assert!(error_may_carry(Revision::Mcp2025_06_18, &null, false, None));
        for revision in [Revision::JsonRpc2, Revision::Mcp2024_11_05] {
            assert!(!error_may_carry(revision, &null, false, None));
            assert!(!error_may_carry(revision, &nothing, true, None));
        }
    }

    #[test]
    fn an_idless_error_is_allowed_only_as_an_http_refusal_body() {
        assert!(idless_error_allowed(Revision::Mcp2025_11_25, 400));
        assert!(idless_error_allowed(Revision::Mcp2026_07_28, 403));
        assert!(!idless_error_allowed(Revision::Mcp2025_11_25, 200));
        assert!(!idless_error_allowed(Revision::Mcp2024_11_05, 400));
        assert!(!idless_error_allowed(Revision::JsonRpc2, 400));
    }

    /// The session rules a server breaks in `frames` (client, server, …),
    /// judged under `revision` to the end of the stream.
    fn session_findings(revision: Revision, frames: &[(bool, &str)]) -> Vec<String> {
        use crate::session::{Event, Judge};
        use crate::Direction;
        let mut judge = Judge::new(revision);
        let mut out = Vec::new();
        for (client, bytes) in frames {
            let from = if *client {
                Direction::ClientToServer
            } else {
                Direction::ServerToClient
            };
            judge.feed(
                Event::Frame {
                    from,
                    bytes: bytes.as_bytes(),
                },
                None,
                &mut out,
            );
        }
        judge.feed(Event::Closed, None, &mut out);
        out.iter()
            .map(|f| f.violation.rule.as_str().to_owned())
            .filter(|r| r.starts_with("session.") || r == "jsonrpc.response.required")
            .collect()
    }

    /// Two false findings of the session judge on real servers: an Invalid
    /// Request's error echoing its readable id answers it, so a later valid
    /// request with another id is no duplicate and no unknown id; a repeated
    /// `id` member may be answered under either.
    #[test]
    fn the_session_judge_pairs_an_echoed_readable_id() {
        let invalid_then_valid = [
            (true, r#"{"jsonrpc":"1.0","id":1,"method":"echo"}"#),
            (
                false,
                r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"m"},"id":1}"#,
            ),
            (true, r#"{"jsonrpc":"2.0","id":2,"method":"echo"}"#),
            (false, r#"{"jsonrpc":"2.0","result":[],"id":2}"#),
        ];
        assert_eq!(
            session_findings(Revision::JsonRpc2, &invalid_then_valid),
            Vec::<String>::new()
        );
        let duplicate = [
            (true, r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"echo"}"#),
            (false, r#"{"jsonrpc":"2.0","result":[],"id":2}"#),
        ];
        assert_eq!(
            session_findings(Revision::JsonRpc2, &duplicate),
            Vec::<String>::new()
        );
        // Answered under the id the lifted request does not carry: the other
        // reading of the same frame, which answers it too.
        for answer in [
            r#"{"jsonrpc":"2.0","result":[],"id":1}"#,
            r#"{"jsonrpc":"2.0","result":[],"id":2}"#,
        ] {
            let duplicate = [
                (true, r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"echo"}"#),
                (false, answer),
            ];
            assert_eq!(
                session_findings(Revision::JsonRpc2, &duplicate),
                Vec::<String>::new(),
                "{answer}"
            );
        }
        // A single id is no duplicate: an answer to another id is unknown.
        let single = [
            (
                true,
                r#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"id":2}}"#,
            ),
            (false, r#"{"jsonrpc":"2.0","result":[],"id":2}"#),
        ];
        assert_eq!(
            session_findings(Revision::JsonRpc2, &single),
            ["session.response.unknown-id", "jsonrpc.response.required"]
        );
        // An id nobody read is still unknown.
        let stray = [
            (true, r#"{"jsonrpc":"1.0","id":1,"method":"echo"}"#),
            (
                false,
                r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"m"},"id":3}"#,
            ),
        ];
        assert_eq!(
            session_findings(Revision::JsonRpc2, &stray),
            ["session.response.unknown-id"]
        );
        // MCP: a request with id 1.5 may be refused with null, which answers it.
        let fraction = [
            (true, r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#),
            (
                false,
                r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"m"},"id":null}"#,
            ),
        ];
        assert_eq!(
            session_findings(Revision::Mcp2026_07_28, &fraction),
            Vec::<String>::new()
        );
    }

    /// A frame that is not UTF-8 is read both ways: a lenient parser echoes
    /// the id behind the U+FFFD, a strict one could not read it (so null, or
    /// from 2025-03-26 no id); any other id is still wrong.
    #[test]
    fn a_frame_that_is_not_utf8_is_read_both_ways() {
        let frame = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}";
        let one = Id::Number(Cow::Borrowed("1"));
        let two = Id::Number(Cow::Borrowed("2"));
        for revision in [Revision::JsonRpc2, Revision::Mcp2025_11_25] {
            assert!(malformed_error_may_carry(revision, frame, Some(&one)));
            assert!(malformed_error_may_carry(revision, frame, Some(&Id::Null)));
            assert!(!malformed_error_may_carry(revision, frame, Some(&two)));
        }
        assert!(malformed_error_may_carry(
            Revision::Mcp2025_11_25,
            frame,
            None
        ));
        assert!(!malformed_error_may_carry(Revision::JsonRpc2, frame, None));
        // Valid UTF-8 with a readable id: no id is not allowed.
        let readable = br#"{"jsonrpc":"2.0","id":1,"method":5}"#;
        assert!(!malformed_error_may_carry(
            Revision::Mcp2025_11_25,
            readable,
            None
        ));
    }

    #[test]
    fn every_id_type_is_read_as_an_id_and_nothing_else_is() {
        assert_eq!(
            read(r#"{"jsonrpc":"2.0","id":"a","method":"x"}"#),
            Read::Id(Id::String(JsonStr(Cow::Borrowed("\"a\""))))
        );
        assert_eq!(
            read(r#"{"jsonrpc":"2.0","id":7,"method":"x"}"#),
            Read::Id(Id::int(7))
        );
        assert_eq!(
            read(r#"{"jsonrpc":"2.0","id":null,"method":"x"}"#),
            Read::Id(Id::Null)
        );
        assert_eq!(
            read(r#"{"jsonrpc":"2.0","id":[1],"method":"x"}"#),
            Read::Other(Cow::Borrowed("[1]"))
        );
        // A single frame's id is an object's: a batch is read element by
        // element (readable_request_ids), never as one frame's id.
        assert_eq!(
            read(r#"[{"jsonrpc":"2.0","id":1,"method":"x"}]"#),
            Read::Absent
        );
        assert_eq!(read("1"), Read::Absent);
        assert_eq!(read(r#"{"jsonrpc":"2.0","method":"x"}"#), Read::Absent);
    }

    #[test]
    fn a_frame_is_response_shaped_when_every_message_is_a_response() {
        let shaped = |f: &str| response_shaped(f.as_bytes());
        assert!(shaped(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#));
        assert!(shaped(
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}"#
        ));
        // A number no double holds is still read.
        assert!(shaped(r#"{"jsonrpc":"2.0","id":1e27223,"result":1}"#));
        assert!(shaped(r#"[{"id":1,"result":1},{"id":2,"error":{}}]"#));
        // A method makes it a call, whatever else it carries.
        assert!(!shaped(
            r#"{"jsonrpc":"2.0","id":1,"method":"m","result":1}"#
        ));
        assert!(!shaped(
            r#"{"jsonrpc":"2.0","id":1,"method":"m","error":{}}"#
        ));
        // Neither result nor error: an Invalid Request, not a response.
        assert!(!shaped(r#"{"jsonrpc":"2.0","id":1}"#));
        assert!(!shaped(
            r#"[{"id":1,"result":1},{"jsonrpc":"2.0","method":"n"}]"#
        ));
        assert!(!shaped(r#"[{"jsonrpc":"2.0","method":"n"}]"#));
        assert!(!shaped("[]"));
        assert!(!shaped("[1]"));
        assert!(!shaped("1"));
        assert!(!shaped(r#"{"jsonrpc":"2.0","id":1,"result":1"#));
        assert!(!response_shaped(b"{\"id\":1,\"result\":\"\xff\"}"));
    }

    #[test]
    fn jsonrpc_allows_a_null_id_and_mcp_does_not() {
        assert!(id_allowed(Revision::JsonRpc2, &Id::Null));
        assert!(!id_allowed(Revision::Mcp2025_11_25, &Id::Null));
        assert!(id_allowed(Revision::Mcp2025_11_25, &Id::int(3)));
        let fraction = Id::Number(Cow::Borrowed("1.5"));
        assert!(id_allowed(Revision::JsonRpc2, &fraction));
        assert!(!id_allowed(Revision::Mcp2024_11_05, &fraction));
    }
}
