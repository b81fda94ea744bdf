//! Any bytes: whatever lifts satisfies the lossless contract after `lower`, and
//! whatever is refused is refused coherently. The structural mutator reshapes
//! JSON input so the fuzzer reaches deep frames, not only broken syntax.
#![no_main]

use harness::fuzzing::{check_roundtrip, mutate};
use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};

fuzz_target!(|data: &[u8]| {
    if let Err(failure) = check_roundtrip(data) {
        panic!("{failure}");
    }
});

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    mutate(data, size, max_size, seed, fuzzer_mutate)
});
