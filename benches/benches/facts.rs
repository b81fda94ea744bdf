//! What the timing benches cannot show: how much heap each contender holds at its
//! peak, and whether its round trip keeps the frame. Counted, not timed, so the
//! figures are exact and do not drift with machine load.
//!
//! Writes `<target>/criterion/wirecheck-facts.json` for `report.py`, prints it,
//! and fails if `lift` of the 1 MiB frame holds more than 1.1x the frame's size
//! (the codec's zero-copy design): it borrows, so it should hold a few hundred bytes.

use std::path::PathBuf;

use peak_alloc::PeakAlloc;
use serde_json::json;
use wirecheck_benches::{jsonrpsee, load, rmcp, serde_value, wirecheck, Outcome, Spec, MIX};

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

/// The most heap `f` holds live at once beyond what was live before it, its
/// result included (it is dropped after the peak is read).
fn peak_of<T>(f: impl FnOnce() -> T) -> (usize, T) {
    HEAP.reset_peak_usage();
    let before = HEAP.current_usage();
    let result = f();
    (HEAP.peak_usage() - before, result)
}

/// Where criterion keeps its results, so the report finds both side by side.
fn criterion_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target")),
        PathBuf::from,
    );
    target.join("criterion")
}

fn contender(name: &str, spec: &Spec, input: &[u8]) -> serde_json::Value {
    let run = |input: &[u8]| -> Outcome {
        match name {
            "wirecheck" => wirecheck(input),
            "serde_value" => serde_value(input),
            "rmcp" => rmcp(input, spec),
            "jsonrpsee" => jsonrpsee(input, spec),
            _ => unreachable!("unknown contender {name}"),
        }
    };
    let (peak, out) = peak_of(|| run(input));
    let out = out.unwrap_or_else(|e| panic!("{name} on {}: {e}", spec.name));
    let same_value = serde_json::from_slice::<serde_json::Value>(&out).ok()
        == serde_json::from_slice::<serde_json::Value>(input).ok();
    json!({
        "roundtrip_peak_bytes": peak,
        "byte_identical": out == input,
        // Equal as plain serde_json Values: members kept (order and number
        // spelling aside, which plain Value cannot see).
        "same_value": same_value,
    })
}

fn main() {
    let mut frames = serde_json::Map::new();
    for spec in &MIX {
        let input = load(spec);
        let (lift_peak, frame) = peak_of(|| harness::lift(&input).expect("the mix lifts"));
        drop(frame);
        let mut contenders = serde_json::Map::new();
        for name in ["wirecheck", "serde_value", "rmcp", "jsonrpsee"] {
            contenders.insert(name.to_owned(), contender(name, spec, &input));
        }
        frames.insert(
            spec.name.to_owned(),
            json!({
                "bytes": input.len(),
                "lift_peak_bytes": lift_peak,
                "lift_peak_ratio": lift_peak as f64 / input.len() as f64,
                "contenders": contenders,
            }),
        );
        if spec.name == "resources_read" {
            assert!(
                lift_peak * 10 <= input.len() * 11,
                "lift of the {}-byte frame held {lift_peak} bytes: more than 1.1x its size",
                input.len()
            );
        }
    }
    let facts = serde_json::Value::Object(frames);
    let text = serde_json::to_string_pretty(&facts).expect("serializable");
    println!("{text}");
    let dir = criterion_dir();
    // In `--test` mode (CI) the figures are checked above; only a real run records them.
    if !std::env::args().any(|a| a == "--test") {
        std::fs::create_dir_all(&dir).expect("create the criterion folder");
        std::fs::write(dir.join("wirecheck-facts.json"), text + "\n").expect("write the facts");
    }
}
