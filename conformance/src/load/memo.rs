//! Verdicts already reached, for answers that repeat one judged earlier in
//! the same session, but for their id.
//!
//! Why: under load a server answers the same request the same way
//! thousands of times (`ping` → `{}`, a static `tools/list`), and judging
//! each again (lifting the request, the reply rules, the session judge's
//! pairing and list bookkeeping) cost two thirds of the client's time. An
//! answer whose bytes, its id token aside, are those of an answer already
//! judged to the same call of the mix, under the same session state, gets
//! the same verdict: the reply rules are a function of the request and the
//! reply, and the two differ from the judged pair only in an id that both
//! spell alike. That the session state is the same is the caller's to keep
//! ([`crate::load::Book`]): it forgets everything here whenever anything
//! but a remembered answer reaches the session judge.
//!
//! What is remembered is bounded: [`PER_CALL`] answers per call of the mix
//! and [`BYTES`] in all; past either, the oldest of the call, or all, are
//! forgotten, and the next answer is judged in full again.

use harness::ir::{Frame, Id, Message};
use harness::rules::Violation;

/// Distinct answers remembered per call of the mix.
pub const PER_CALL: usize = 4;

/// Bytes of remembered answers in all, per session.
pub const BYTES: usize = 4 << 20;

/// An answer judged, its id token cut out.
#[derive(Debug)]
struct Judged {
    /// The answer's bytes before the id token, then those after it.
    bytes: Vec<u8>,
    /// Where the id token was.
    cut: usize,
    /// What the reply rules found (usually nothing).
    verdict: Vec<Violation>,
}

/// The verdicts of one session. See the [module docs](self).
#[derive(Debug, Default)]
pub struct Memo {
    by_call: Vec<Vec<Judged>>,
    bytes: usize,
}

/// The answer's bytes around its id token, when the answer is one reply
/// whose id token is exactly `id` in decimal, as the request spelled it:
/// `(before, after)`. `None` otherwise (such an answer is always judged in
/// full).
fn around<'b>(answer: &'b [u8], reply: &Frame<'_>, id: u64) -> Option<(&'b [u8], &'b [u8])> {
    let token = match reply {
        Frame::Single(Message::Success(s)) => &s.id,
        Frame::Single(Message::Error(e)) => e.id.as_ref()?,
        _ => return None,
    };
    let Id::Number(std::borrow::Cow::Borrowed(text)) = token else {
        return None;
    };
    if text.parse::<u64>().ok() != Some(id) || text.starts_with('0') {
        return None;
    }
    // The token borrows from `answer`: its place is its address's offset.
    let start = (text.as_ptr() as usize).checked_sub(answer.as_ptr() as usize)?;
    let end = start.checked_add(text.len())?;
    if end > answer.len() || &answer[start..end] != text.as_bytes() {
        return None;
    }
    Some((&answer[..start], &answer[end..]))
}

/// Whether an answer to `method` may be remembered: not a `tools/call`
/// (its answers may create tasks or ask for elicitation, state the session
/// judge keeps), not a URL elicitation error (-32042, whose ids the judge
/// keeps), and only a single reply.
#[must_use]
pub fn memorable(method: &str, reply: &Frame<'_>) -> bool {
    method != "tools/call"
        && match reply {
            Frame::Single(Message::Success(_)) => true,
            Frame::Single(Message::Error(e)) => e.error.code != URL_ELICITATION_REQUIRED,
            _ => false,
        }
}

/// MCP 2025-11-25 client/elicitation §URL Elicitation Required Error.
const URL_ELICITATION_REQUIRED: i64 = -32042;

impl Memo {
    /// The verdict on `answer` (lifted as `reply`) to call `call` of the mix,
    /// request `id`, if an answer like it was judged since the last
    /// [`Memo::forget`].
    #[must_use]
    pub fn recall(
        &self,
        call: usize,
        id: u64,
        answer: &[u8],
        reply: &Frame<'_>,
    ) -> Option<&[Violation]> {
        let (before, after) = around(answer, reply, id)?;
        self.by_call.get(call)?.iter().find_map(|j| {
            (j.cut == before.len()
                && j.bytes.len() == before.len() + after.len()
                && &j.bytes[..j.cut] == before
                && &j.bytes[j.cut..] == after)
                .then_some(j.verdict.as_slice())
        })
    }

    /// Remembers that `answer` to call `call`, request `id`, was judged
    /// `verdict`, when its id can be cut out.
    pub fn remember(
        &mut self,
        call: usize,
        id: u64,
        answer: &[u8],
        reply: &Frame<'_>,
        verdict: &[Violation],
    ) {
        let Some((before, after)) = around(answer, reply, id) else {
            return;
        };
        let size = before.len() + after.len();
        if size > BYTES {
            return;
        }
        if self.bytes + size > BYTES {
            self.forget();
        }
        if self.by_call.len() <= call {
            self.by_call.resize_with(call + 1, Vec::new);
        }
        let judged = &mut self.by_call[call];
        if judged.len() >= PER_CALL {
            let oldest = judged.remove(0);
            self.bytes -= oldest.bytes.len();
        }
        let mut bytes = Vec::with_capacity(size);
        bytes.extend_from_slice(before);
        bytes.extend_from_slice(after);
        judged.push(Judged {
            bytes,
            cut: before.len(),
            verdict: verdict.to_vec(),
        });
        self.bytes += size;
    }

    /// Forgets the verdicts on the calls `stale` names: the session state
    /// they were reached in has changed, or may have.
    pub fn forget_calls(&mut self, stale: impl Fn(usize) -> bool) {
        for (call, judged) in self.by_call.iter_mut().enumerate() {
            if stale(call) {
                self.bytes -= judged.iter().map(|j| j.bytes.len()).sum::<usize>();
                judged.clear();
            }
        }
    }

    /// Forgets every verdict: the session state they were reached in has
    /// changed, or may have.
    pub fn forget(&mut self) {
        if self.bytes > 0 {
            self.by_call.iter_mut().for_each(Vec::clear);
            self.bytes = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lifted(bytes: &[u8]) -> Frame<'_> {
        harness::lift(bytes).expect("a JSON-RPC frame")
    }

    #[test]
    fn an_answer_like_one_judged_is_recalled_whatever_its_id() {
        let mut memo = Memo::default();
        let first = br#"{"jsonrpc":"2.0","id":1000001,"result":{"tools":[]}}"#;
        let verdict = harness::rules::validate_reply(
            &lifted(br#"{"jsonrpc":"2.0","id":1000001,"method":"tools/list"}"#),
            Some(&lifted(first)),
            harness::Profile {
                revision: harness::Revision::Mcp2025_11_25,
                direction: harness::Direction::ClientToServer,
            },
        );
        memo.remember(2, 1_000_001, first, &lifted(first), &verdict);
        let again = br#"{"jsonrpc":"2.0","id":2000017,"result":{"tools":[]}}"#;
        assert_eq!(
            memo.recall(2, 2_000_017, again, &lifted(again)),
            Some(&verdict[..])
        );
        // Another call of the mix, another result, or an id that is not the
        // request's: judged in full.
        assert_eq!(memo.recall(1, 2_000_017, again, &lifted(again)), None);
        let other = br#"{"jsonrpc":"2.0","id":2000017,"result":{}}"#;
        assert_eq!(memo.recall(2, 2_000_017, other, &lifted(other)), None);
        assert_eq!(memo.recall(2, 2_000_018, again, &lifted(again)), None);
        let spelled = br#"{"jsonrpc":"2.0","id":2000017.0,"result":{"tools":[]}}"#;
        assert_eq!(memo.recall(2, 2_000_017, spelled, &lifted(spelled)), None);
        memo.forget();
        assert_eq!(memo.recall(2, 2_000_017, again, &lifted(again)), None);
    }

    #[test]
    fn what_is_remembered_stays_bounded() {
        let mut memo = Memo::default();
        for n in 0..(PER_CALL as u64 + 2) {
            let answer = format!(r#"{{"jsonrpc":"2.0","id":7,"result":{{"n":{n}}}}}"#);
            memo.remember(0, 7, answer.as_bytes(), &lifted(answer.as_bytes()), &[]);
        }
        assert_eq!(memo.by_call[0].len(), PER_CALL);
        let oldest = br#"{"jsonrpc":"2.0","id":7,"result":{"n":0}}"#;
        assert_eq!(memo.recall(0, 7, oldest, &lifted(oldest)), None);
        let newest = format!(
            r#"{{"jsonrpc":"2.0","id":7,"result":{{"n":{}}}}}"#,
            PER_CALL + 1
        );
        let newest = newest.as_bytes();
        assert!(memo.recall(0, 7, newest, &lifted(newest)).is_some());
    }
}
