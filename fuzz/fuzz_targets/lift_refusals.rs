//! Any bytes: lifting succeeds or refuses with a code, rule and pointer that hold
//! up (the pointer resolves in the input; -32700 only for bytes that are not
//! JSON). The structural mutator keeps most inputs JSON, so -32600 paths are hit.
#![no_main]

use harness::fuzzing::{check_refusal, mutate};
use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};

fuzz_target!(|data: &[u8]| {
    if let Err(failure) = check_refusal(data) {
        panic!("{failure}");
    }
});

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    mutate(data, size, max_size, seed, fuzzer_mutate)
});
