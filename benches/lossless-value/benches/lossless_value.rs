//! `serde_json::Value` parse + serialize with `arbitrary_precision` and
//! `preserve_order`: the lossless way to use serde_json, which its users would
//! pick instead of wirecheck. Same groups and frames as `wirecheck-benches`, one
//! function, `serde_value_lossless`, so `report.py` sets it beside the others.
//!
//! Run it from the repository root into the main target folder (an absolute path:
//! criterion resolves it from the bench's own folder), so the results sit together:
//! `CARGO_TARGET_DIR=$PWD/target cargo bench --manifest-path benches/lossless-value/Cargo.toml`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

#[path = "../../criterion_config.rs"]
mod criterion_config;

#[path = "../../src/messages.rs"]
#[expect(
    dead_code,
    reason = "the shared mix describes frames for the typed contenders too"
)]
mod messages;

const DATA_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data");

fn round_trip(input: &[u8]) -> Vec<u8> {
    let value: serde_json::Value = serde_json::from_slice(input).expect("valid JSON");
    serde_json::to_vec(&value).expect("serializable")
}

fn lossless_value(c: &mut Criterion) {
    for spec in &messages::MIX {
        let input = messages::load(spec, DATA_DIR);
        // The claim being timed: with these features the round trip is exact on
        // compact input. Checked once, so the figure is of a lossless codec.
        assert_eq!(
            round_trip(&input),
            input,
            "{}: not byte-identical",
            spec.name
        );
        let mut group = c.benchmark_group(spec.name);
        group.throughput(Throughput::ElementsAndBytes {
            elements: spec.messages,
            bytes: input.len() as u64,
        });
        if input.len() > 100_000 {
            group.sample_size(20);
        }
        group.bench_function("serde_value_lossless", |b| {
            b.iter(|| round_trip(black_box(&input)));
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = criterion_config::config();
    targets = lossless_value
}
criterion_main!(benches);
