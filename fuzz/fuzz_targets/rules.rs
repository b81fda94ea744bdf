//! Any bytes through the rule model under every profile: `validate` and
//! `validate_reply` (with replies derived from the input) never panic, and every
//! violation names a catalogued rule that applies to the revision, at a pointer
//! that resolves in the frame it judged. The structural mutator keeps most
//! inputs JSON-RPC, so the checks behind a lifted frame are reached.
#![no_main]

use harness::fuzzing::{check_rules, mutate};
use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};

fuzz_target!(|data: &[u8]| {
    if let Err(failure) = check_rules(data) {
        panic!("{failure}");
    }
});

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    mutate(data, size, max_size, seed, fuzzer_mutate)
});
