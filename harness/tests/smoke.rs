//! Smoke runs of every fuzz target's oracle on seeded random bytes, and of the
//! structural mutator feeding the byte-level oracles, so a contributor without
//! nightly exercises each fuzzer with plain `cargo test` (wasm-tools' habit).

use std::fs;
use std::path::Path;

use harness::fuzzing::mutate::Rng;
use harness::fuzzing::{check_refusal, check_roundtrip, check_rules, mutate, mutate_json, Target};

/// Seeded bytes: the same on every run, so a failure reproduces.
struct Bytes(Rng);

impl Bytes {
    fn seeded(seed: u64) -> Self {
        Bytes(Rng::new(seed))
    }

    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn take(&mut self, max: u64) -> Vec<u8> {
        let len = self.next() % max;
        (0..len).map(|_| self.next().to_le_bytes()[0]).collect()
    }
}

/// Each target's oracle, 500 times on random bytes. The structured targets must
/// build an input from most of them, or the smoke run smokes nothing.
#[test]
fn every_target_survives_random_bytes() {
    for target in Target::ALL {
        let mut bytes = Bytes::seeded(0x5eed ^ target as u64);
        let mut built = 0;
        for _ in 0..500 {
            let input = bytes.take(2048);
            match target.check(&input) {
                Ok(true) => built += 1,
                Ok(false) => {}
                Err(failure) => panic!("{}: {failure}\n  input: {input:?}", target.name()),
            }
        }
        assert!(built >= 400, "{}: only {built} of 500 built", target.name());
    }
}

/// Chains of structural mutations from every byte-target seed, each step through
/// both byte-level oracles: what the fuzzers see, on stable.
#[test]
fn mutated_seeds_pass_the_byte_oracles() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/seeds/frames");
    let mut parsed = 0;
    let mut mutated = 0;
    for entry in fs::read_dir(&seeds).unwrap() {
        let mut input = fs::read(entry.unwrap().path()).unwrap();
        for step in 0..25u64 {
            let Some(next) = mutate_json(&input, step) else {
                break;
            };
            mutated += 1;
            if let Err(failure) = check_roundtrip(&next) {
                panic!("{failure}\n  input: {}", String::from_utf8_lossy(&next));
            }
            if let Err(failure) = check_refusal(&next) {
                panic!("{failure}\n  input: {}", String::from_utf8_lossy(&next));
            }
            input = next;
        }
        parsed += 1;
    }
    assert!(
        parsed >= 50 && mutated >= 1000,
        "{parsed} seeds, {mutated} mutants"
    );
}

/// The rule-model oracle (the `rules` target), 500 times on chains of
/// structural mutations of the shared frame seeds, as `fuzz_mutator!` feeds it:
/// random bytes alone would rarely lift, and the checks behind a lifted frame are
/// what it guards. Every seed must be reached, and most mutants still lift.
#[test]
fn rules_oracle_survives_mutated_seeds() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/seeds/frames");
    let mut seeds: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| fs::read(e.unwrap().path()).unwrap())
        .collect();
    seeds.sort();
    assert!(seeds.len() >= 50, "{} seeds", seeds.len());
    let (mut runs, mut lifted, mut flagged) = (0, 0, 0);
    let mut step = 0u64;
    while runs < 500 {
        // Each seed as it is, then one to three structural mutations away.
        let mut input = seeds[runs % seeds.len()].clone();
        for _ in 0..(runs / seeds.len()).min(3) {
            input = mutate_json(&input, step).unwrap_or(input);
            step += 1;
        }
        if let Err(failure) = check_rules(&input) {
            panic!("{failure}\n  input: {}", String::from_utf8_lossy(&input));
        }
        if harness::lift(&input).is_ok() {
            lifted += 1;
            let profile = harness::Profile {
                revision: harness::Revision::Mcp2025_06_18,
                direction: harness::Direction::ClientToServer,
            };
            flagged += usize::from(!harness::rules::validate(&input, profile).is_empty());
        }
        runs += 1;
    }
    // Enough lifted frames, and enough of them breaking a rule, that the
    // oracle's checks on violations ran.
    assert!(
        lifted >= 100 && flagged >= 40,
        "{lifted} of {runs} mutants lift, {flagged} break a rule"
    );
}

/// The `fuzz_mutator!` entry point with a byte-flipping fallback, as libFuzzer
/// calls it: sizes hold and each output goes through the oracles.
#[test]
fn the_mutator_entry_point_feeds_the_oracles() {
    let mut bytes = Bytes::seeded(7);
    let mut data =
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1}}}"#
            .to_vec();
    let mut size = data.len();
    data.resize(4096, 0);
    for _ in 0..500 {
        let seed = u32::try_from(bytes.next() >> 32).unwrap();
        let flip = bytes.next();
        size = mutate(&mut data, size, 4096, seed, |d, size, _| {
            if size > 0 {
                let i = usize::try_from(flip % size as u64).unwrap();
                d[i] ^= 1 << (flip % 8);
            }
            size
        });
        assert!(size <= 4096);
        let input = &data[..size];
        if let Err(failure) = check_roundtrip(input) {
            panic!("{failure}\n  input: {}", String::from_utf8_lossy(input));
        }
    }
}

/// The generator reaches the depth the issue asks for (32 levels below
/// `params`), and such frames round-trip: checked on the frames it makes.
#[test]
fn generated_frames_reach_depth_32() {
    use arbitrary::{Arbitrary, Unstructured};
    let mut bytes = Bytes::seeded(32);
    let mut deepest = 0;
    for _ in 0..2000 {
        let input = bytes.take(4096);
        let Ok(frame) = harness::fuzzing::GenFrame::arbitrary(&mut Unstructured::new(&input))
        else {
            continue;
        };
        deepest = deepest.max(depth(frame.text.as_bytes()));
        harness::fuzzing::check_generated(&frame).unwrap();
    }
    assert!(deepest >= 33, "deepest generated frame: {deepest} levels");
}

/// Deepest nesting of brackets outside strings (serde_json cannot read the lone
/// surrogate escapes the generator writes on purpose).
fn depth(text: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0, false, false);
    for &b in text {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth -= 1,
            _ => {}
        }
    }
    deepest
}
