//! MCP 2026-07-28 basic/transports/stdio §Cancellation (MUST NOT): "Servers
//! SHOULD stop work on a cancelled request as soon as practical and MUST NOT
//! send any further messages for it." On one ordered stream each way, the
//! server answering a request the client sent after the cancellation shows it
//! had read the cancellation; a progress notification for the cancelled
//! request after that is a further message for it. One before that answer
//! may have crossed the cancellation on the wire. The finding names the first
//! answer that showed the cancellation read. A request sent in the same frame
//! as the cancellation (a batch, which 2026-07-28 does not allow but a peer may
//! still send) was not sent after it: JSON-RPC 2.0 §6, "The Server MAY process
//! a batch rpc call as a set of concurrent tasks, processing them in any
//! order".

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const NO_FURTHER: &str = "mcp.r5.stdio.cancel-no-further";

const META: &str = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}"#;

fn call(id: u32, meta: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"slow","arguments":{{}},"_meta":{{{meta}{META}}}}}}}"#
    )
}

fn progress(value: u32) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"p1","progress":{value}}}}}"#
    )
}

/// The findings of the stdio cancellation rule, each as the events it names.
fn judged(frames: &[(Direction, String)]) -> Vec<Vec<u64>> {
    findings(
        Revision::Mcp2026_07_28,
        frames.iter().map(|(d, f)| (*d, f.as_str(), None)),
    )
    .iter()
    .filter(|f| f.violation.rule.as_str() == NO_FURTHER)
    .map(|f| f.frames.iter().map(|a| a.index).collect())
    .collect()
}

#[test]
fn progress_for_a_cancelled_request_after_the_cancellation_was_read_is_reported() {
    let frames = [
        (C, call(1, r#""progressToken":"p1","#)),
        // Event 1: the client cancels request 1, then sends request 2.
        (
            C,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"no longer needed"}}"#.to_owned(),
        ),
        (C, call(2, "")),
        // Event 3: progress that may have crossed the cancellation.
        (S, progress(1)),
        // Event 4: the answer to request 2 shows the cancellation was read.
        (
            S,
            r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[]}}"#.to_owned(),
        ),
        // Event 5: progress for request 1 after that.
        (S, progress(2)),
    ];
    assert_eq!(judged(&frames), [vec![1, 4, 5]]);
}

fn answer(id: u32) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"complete","content":[]}}}}"#)
}

const CANCEL_1: &str =
    r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#;

#[test]
fn the_first_answer_that_shows_the_cancellation_read_is_the_one_named() {
    let frames = [
        (C, call(1, "")),
        (C, CANCEL_1.to_owned()),
        (C, call(2, "")),
        (C, call(3, "")),
        // Event 4 shows the cancellation read; event 5 shows it again.
        (S, answer(2)),
        (S, answer(3)),
        (S, answer(1)),
    ];
    assert_eq!(judged(&frames), [vec![1, 4, 6]]);
}

#[test]
fn a_request_batched_with_the_cancellation_does_not_show_it_read() {
    let batch = format!("[{CANCEL_1},{}]", call(2, ""));
    let frames = [(C, call(1, "")), (C, batch), (S, answer(2)), (S, answer(1))];
    assert_eq!(judged(&frames), Vec::<Vec<u64>>::new());
}
