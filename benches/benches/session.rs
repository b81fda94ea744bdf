//! The session judge over one 100,000-frame conversation of ~200-byte frames
//! (2025-06-18: the handshake, then `tools/call` requests, each answered after
//! one progress notification, a few in flight at a time). Reports frames/s;
//! the judge's memory is flat in the conversation's length by construction
//! (in flight plus a fixed-size id history), asserted at the end of a run.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use harness::session::{Event, Judge, HISTORY_CAP};
use harness::{Direction, Revision};

#[path = "../criterion_config.rs"]
mod criterion_config;

const FRAMES: usize = 100_000;

fn conversation() -> Vec<(Direction, Vec<u8>)> {
    let (c, s) = (Direction::ClientToServer, Direction::ServerToClient);
    let mut frames = vec![
        (c, br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#.to_vec()),
        (s, br#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"bench","version":"1"}}}"#.to_vec()),
        (c, br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_vec()),
    ];
    let mut n = 1u64;
    while frames.len() < FRAMES {
        let call = format!(
            r#"{{"jsonrpc":"2.0","id":{n},"method":"tools/call","params":{{"name":"search","arguments":{{"query":"conformance harness {n}","limit":10}},"_meta":{{"progressToken":"p{n}"}}}}}}"#
        );
        let progress = format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"p{n}","progress":1,"total":2,"message":"searching the index"}}}}"#
        );
        let answer = format!(
            r#"{{"jsonrpc":"2.0","id":{n},"result":{{"content":[{{"type":"text","text":"found 10 results for conformance harness {n}"}}],"isError":false}}}}"#
        );
        frames.push((c, call.into_bytes()));
        frames.push((s, progress.into_bytes()));
        frames.push((s, answer.into_bytes()));
        n += 1;
    }
    frames.truncate(FRAMES);
    frames
}

fn judge_all(frames: &[(Direction, Vec<u8>)], mut judge: Judge) -> usize {
    let mut out = Vec::new();
    for (from, bytes) in frames {
        judge.feed(Event::Frame { from: *from, bytes }, None, &mut out);
    }
    assert!(judge.remembered() <= HISTORY_CAP && judge.in_flight() <= 1);
    out.len() + judge.finish().findings.len()
}

fn session(c: &mut Criterion) {
    let frames = conversation();
    let full = || Judge::new(Revision::Mcp2025_06_18);
    let session_only = || Judge::session_rules_only(Revision::Mcp2025_06_18);
    assert_eq!(
        judge_all(&frames, full()),
        0,
        "the bench conversation is conformant"
    );
    let bytes: usize = frames.iter().map(|(_, b)| b.len()).sum();
    let mut group = c.benchmark_group("session");
    group.throughput(Throughput::ElementsAndBytes {
        elements: frames.len() as u64,
        bytes: bytes as u64,
    });
    group.sample_size(10);
    // Every rule: the frame and pair rules of the rule model, and the session's.
    group.bench_function("judge_100k_frames", |b| {
        b.iter(|| judge_all(black_box(&frames), full()));
    });
    // The session state alone (lift, pairing, progress, handshake).
    group.bench_function("session_rules_only_100k_frames", |b| {
        b.iter(|| judge_all(black_box(&frames), session_only()));
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = criterion_config::config();
    targets = session
}
criterion_main!(benches);
