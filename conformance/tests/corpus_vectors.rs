//! Every golden vector's wire text through the lossless round-trip oracle
//! (`harness::fuzzing::check_roundtrip`): the frame and, in an exchange, the
//! peer's reply. Read through the one vector loader, so a vector the loader
//! refuses is reported here rather than replayed as raw JSON that means
//! something else. (harness cannot depend on this crate, which is why this
//! replay lives here and not beside the corpus replay in `harness/tests`.)

use std::path::{Path, PathBuf};

use harness::fuzzing::check_roundtrip;
use wirecheck::vectors::{self, Reply, Vector};

/// The wire texts a vector carries, each with what it is.
fn wire_texts(v: &Vector) -> Vec<(&'static str, &[u8])> {
    let mut out = vec![("frame", v.frame.as_slice())];
    if let Some(Reply::Frame(text)) = v.exchange.as_ref().map(|e| &e.reply) {
        out.push(("reply", text.as_bytes()));
    }
    out
}

/// Replays every vector under `root`; how many texts were replayed, and the
/// load errors and oracle failures.
fn replay(root: &Path) -> (usize, Vec<String>) {
    let (all, errors) = vectors::load_all(root);
    let mut failures: Vec<String> = errors.iter().map(ToString::to_string).collect();
    let mut replayed = 0;
    for v in &all {
        for (what, bytes) in wire_texts(v) {
            replayed += 1;
            if let Err(f) = check_roundtrip(bytes) {
                failures.push(format!("{} ({what}): {}: {f}", v.id, v.path.display()));
            }
        }
    }
    (replayed, failures)
}

#[test]
fn every_golden_vectors_wire_text_passes_the_lossless_oracle() {
    let (all, _) = vectors::load_all(&vectors::default_root());
    let replies = all
        .iter()
        .filter(|v| matches!(v.exchange.as_ref().map(|e| &e.reply), Some(Reply::Frame(_))))
        .count();
    let (replayed, failures) = replay(&vectors::default_root());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // One text per vector and one per recorded reply: a walk that missed the
    // replies (or the vectors) would replay fewer.
    assert!(replies > 0, "no exchange vector carries a reply frame");
    assert_eq!(replayed, all.len() + replies);
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wirecheck-corpus-vectors-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn the_replay_reads_hex_frames_and_replies_and_reports_what_does_not_load() {
    let root = scratch();
    let write = |rel: &str, body: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    };
    // `{"jsonrpc":"2.0","id":1,"method":"ping"}` in hex, answered by a server.
    let hex: String =
        br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.iter().map(|b| format!("{b:02x}")).collect();
    write(
        "mcp/2025-06-18/ping/y_ping-hex.json",
        &format!(
            r#"{{
              "description": "a ping in hex, answered",
              "profile": "2025-06-18", "from": "client", "frame_hex": "{hex}",
              "rules": [{{"id": "mcp.ping.respond", "level": "MUST", "spec": "MCP 2025-06-18 basic/utilities/ping"}}],
              "codec": "lifts", "violations": [],
              "answer": {{"result": {{"id": "1"}}}},
              "mandated_by": {{"rule": "mcp.ping.respond", "level": "MUST"}},
              "exchange": {{"reply": {{"frame": "{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{}}}}"}}, "violations": []}}
            }}"#
        ),
    );
    write("mcp/2025-06-18/ping/y_typo.json", r#"{"descripton": "x"}"#);
    std::fs::create_dir_all(root.join("jsonrpc-2.0")).unwrap();
    let (replayed, failures) = replay(&root);
    assert_eq!(replayed, 2, "{failures:?}");
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(failures[0].contains("unknown field"), "{failures:?}");
    let _ = std::fs::remove_dir_all(&root);
}
