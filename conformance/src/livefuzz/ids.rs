//! The fuzzer's own request ids: no request id it sends in a session is one
//! it sent before in that session, or one its liveness pings may carry.
//!
//! The generator and the mutator pick ids from a small set of edge values
//! (`1`, `"1"`, `1.0`, `9007199254740993`…), so a session of thousands of
//! frames would carry each many times, and a window probed again frame by
//! frame would send its frames a second time. An answer to the first use of
//! an id then reads as a second answer to the next one, or as the answer of
//! a frame that got none: findings the peer never caused. MCP forbids it
//! anyway (2025-11-25 basic/index §Requests: the request ID "MUST NOT have
//! been previously used by the requestor within the same session").
//!
//! An id already used is given a fresh one of the same spelling class, so
//! the frame keeps what it tests (a string with its escapes, a number's
//! fraction or exponent, an integer past 2^53) and its shape
//! ([`super::invariant::shape`]). A frame whose ids cannot be rewritten in
//! place (not UTF-8) and would reuse one is not sent.

use harness::error_ids::request_id_spans;
use harness::Id;

use super::window::IdHistory;

/// The first id the driver allocates: far above the ids fuzzed frames carry and
/// below 2^53, so no peer rounds it (as `wirecheck run` does). It lives with
/// the ids a session sends, so the session ([`super::peer`]) depends on this
/// module and not the other way round.
pub const FIRST_ID: i64 = 1 << 40;

/// How far past [`FIRST_ID`] the driver's own ids (handshake, pings) may
/// go in one session: fuzzed ids in that range are given fresh ones too.
const DRIVER_IDS: i64 = 1 << 32;

/// 2^53: integers up to here are exact in a double.
const EXACT: u128 = 1 << 53;

/// The request ids one session has sent.
#[derive(Debug, Default)]
pub struct OwnIds {
    history: IdHistory,
    next: u64,
}

impl OwnIds {
    /// Whether `id` was sent in this session.
    #[must_use]
    pub fn contains(&self, id: &Id<'_>) -> bool {
        self.history.contains(id)
    }

    /// Records `id` as sent (a liveness ping's, a frame's).
    pub fn insert(&mut self, id: &Id<'_>) {
        self.history.insert(id);
    }

    /// `frame` as it may be sent in this session: each request id it carries
    /// that this session already sent, or that the driver's own requests may
    /// carry, replaced by a fresh id of its spelling class (ids repeated
    /// inside the frame, a batch's or a duplicated member's, are its own
    /// content and stay); its ids are recorded. `None` when an id would be
    /// reused and cannot be rewritten in place.
    pub fn fresh(&mut self, frame: &[u8]) -> Option<Vec<u8>> {
        let spans = request_id_spans(frame);
        let readable = crate::driver::request_ids(frame);
        let reused = |history: &IdHistory, id: &Id<'_>| {
            !matches!(id, Id::Null) && (history.contains(id) || ours(id))
        };
        if spans.len() != readable.len() {
            // Read only leniently (not UTF-8): sent as it is, if it reuses nothing.
            if readable.iter().any(|id| reused(&self.history, id)) {
                return None;
            }
            readable.iter().for_each(|id| self.insert(id));
            return Some(frame.to_vec());
        }
        let mut out = Vec::with_capacity(frame.len() + 8);
        let mut at = 0;
        let mut chosen: Vec<Id<'static>> = Vec::new();
        for (range, id) in &spans {
            out.extend_from_slice(&frame[at..range.start]);
            at = range.end;
            if !reused(&self.history, id) {
                out.extend_from_slice(&frame[range.clone()]);
                chosen.push(id.clone());
                continue;
            }
            let fresh = loop {
                self.next += 1;
                let text = respell(id, self.next);
                let candidate = parse_id(&text);
                let taken = candidate.as_ref().is_none_or(|c| {
                    reused(&self.history, c) || readable.iter().chain(&chosen).any(|o| o.matches(c))
                });
                if !taken {
                    break (text, candidate);
                }
            };
            out.extend_from_slice(fresh.0.as_bytes());
            chosen.extend(fresh.1);
        }
        out.extend_from_slice(&frame[at..]);
        chosen.iter().for_each(|id| self.insert(id));
        Some(out)
    }
}

/// Whether `id` is in the range of the driver's own request ids.
fn ours(id: &Id<'_>) -> bool {
    let Id::Number(text) = id else {
        return false;
    };
    // A spelling such as `1099511627776.0` is the same id, and one a double
    // rounds onto a ping's is one to a server that reads ids as doubles.
    text.parse::<f64>()
        .is_ok_and(|v| v >= FIRST_ID as f64 && v < (FIRST_ID + DRIVER_IDS) as f64)
}

/// The id `text` spells.
fn parse_id(text: &str) -> Option<Id<'static>> {
    harness::Raw::parse(text)
        .ok()
        .and_then(|raw| harness::error_ids::id_of(&raw).map(Id::into_owned))
}

/// A new spelling of `id`'s class, told apart by `n`: a string keeps its
/// text (escapes included) and gains `~n`; a number keeps its sign, its
/// fraction and its exponent, its integer digits becoming `n`; an integer
/// past 2^53 stays past it (below 2^54, `2n` above it, so an odd one stays
/// one no double holds; beyond, its digits followed by `n`), one of 16
/// digits within it stays there (`n` below it).
fn respell(id: &Id<'_>, n: u64) -> String {
    match id {
        Id::String(_) => {
            let raw = id.raw();
            format!("{}~{n}\"", &raw[..raw.len().saturating_sub(1)])
        }
        Id::Number(text) => {
            let (sign, body) = match text.strip_prefix('-') {
                Some(body) => ("-", body),
                None => ("", text.as_ref()),
            };
            let int_end = body.find(['.', 'e', 'E']).unwrap_or(body.len());
            let (digits, rest) = body.split_at(int_end);
            if !rest.is_empty() || digits.len() <= 15 {
                return format!("{sign}{n}{rest}");
            }
            match digits.parse::<u128>() {
                Ok(v) if v <= EXACT && v > u128::from(n) => format!("{sign}{}", v - u128::from(n)),
                // Past 2^53 by an even step: an odd one below 2^54 stays one
                // no double holds, so a peer that rounds still shows it.
                Ok(v) if v < 2 * EXACT => format!("{sign}{}", v + 2 * u128::from(n)),
                _ => format!("{sign}{digits}{n}"),
            }
        }
        Id::Null => "null".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::livefuzz::invariant::shape;
    use harness::Revision;

    fn text(bytes: &[u8]) -> String {
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    /// The same frame sent twice in one session (a window probed again frame
    /// by frame, the generator's favourite ids) carries a new id the second
    /// time, of the same shape; the first time it goes as it is.
    #[test]
    fn an_id_is_never_sent_twice_in_a_session() {
        let mut ids = OwnIds::default();
        for frame in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":"a\"b","method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1.5e-7,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":-0,"method":"ping"}"#,
            r#"[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","id":7,"method":"ping"}]"#,
        ] {
            let first = ids.fresh(frame.as_bytes()).unwrap();
            assert_eq!(text(&first), frame, "a first use goes as it is");
            let second = ids.fresh(frame.as_bytes()).unwrap();
            let (a, b) = (
                crate::driver::request_ids(&first),
                crate::driver::request_ids(&second),
            );
            assert_eq!(a.len(), b.len(), "{}", text(&second));
            for id in &b {
                assert!(
                    !a.iter().any(|f| f.matches(id)),
                    "{} reuses an id of {frame}",
                    text(&second)
                );
            }
            assert_eq!(
                shape(&second, Revision::Mcp2025_11_25),
                shape(frame.as_bytes(), Revision::Mcp2025_11_25),
                "{}",
                text(&second)
            );
        }
    }

    #[test]
    fn a_pings_id_range_and_null_are_kept_apart() {
        let mut ids = OwnIds::default();
        let ping_like = format!(
            r#"{{"jsonrpc":"2.0","id":{},"method":"ping"}}"#,
            FIRST_ID + 3
        );
        let sent = text(&ids.fresh(ping_like.as_bytes()).unwrap());
        assert_ne!(sent, ping_like);
        // A null id is no id of ours to reuse: sent as it is, every time.
        let null = r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#;
        assert_eq!(text(&ids.fresh(null.as_bytes()).unwrap()), null);
        assert_eq!(text(&ids.fresh(null.as_bytes()).unwrap()), null);
        // Not UTF-8: sent once, then refused rather than reused.
        let odd = b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"\xff\"}";
        assert_eq!(ids.fresh(odd).unwrap(), odd.to_vec());
        assert!(ids.fresh(odd).is_none());
    }
}
