//! The codec against the floor and the alternatives, every frame of the mix in
//! one run, so the ratios `benches/report.py` prints come from one machine state.
//!
//! Group = frame (`ping`, `tools_call`, …); function = contender. The names are
//! the report's keys: keep them in step with `report.py`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

#[path = "../criterion_config.rs"]
mod criterion_config;
use wirecheck_benches::{floor, jsonrpsee, load, rmcp, serde_value, MIX};

fn codec(c: &mut Criterion) {
    for spec in &MIX {
        let input = load(spec);
        let mut group = c.benchmark_group(spec.name);
        group.throughput(Throughput::ElementsAndBytes {
            elements: spec.messages,
            bytes: input.len() as u64,
        });
        // Big frames take ~1 ms per iteration in the slow contenders: fewer
        // samples keep the whole table within a few minutes.
        if input.len() > 100_000 {
            group.sample_size(20);
        }

        let lifted = harness::lift(&input).expect("the mix lifts");
        group.bench_function("lift", |b| {
            b.iter(|| harness::lift(black_box(&input)).expect("lifts"));
        });
        group.bench_function("lower", |b| {
            b.iter(|| harness::lower_to_vec(black_box(&lifted)));
        });
        group.bench_function("roundtrip", |b| {
            b.iter(|| {
                let frame = harness::lift(black_box(&input)).expect("lifts");
                harness::lower_to_vec(&frame)
            });
        });
        group.bench_function("floor_ignored_any", |b| {
            b.iter(|| floor(black_box(&input)).expect("valid JSON"));
        });
        let mut copy = Vec::with_capacity(input.len());
        group.bench_function("memcpy", |b| {
            b.iter(|| {
                copy.clear();
                copy.extend_from_slice(black_box(&input));
                black_box(copy.len())
            });
        });
        group.bench_function("serde_value", |b| {
            b.iter(|| serde_value(black_box(&input)).expect("round trips"));
        });
        group.bench_function("rmcp", |b| {
            b.iter(|| rmcp(black_box(&input), spec).expect("round trips"));
        });
        group.bench_function("jsonrpsee", |b| {
            b.iter(|| jsonrpsee(black_box(&input), spec).expect("round trips"));
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = criterion_config::config();
    targets = codec
}
criterion_main!(benches);
