//! A generated JSON-RPC frame (every message kind, batches, edge numbers and
//! strings, extras and `_meta` at every level) lifts as the kinds it was
//! generated as and satisfies the lossless contract.
#![no_main]

use harness::fuzzing::{check_generated, GenFrame};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|frame: GenFrame| {
    if let Err(failure) = check_generated(&frame) {
        panic!("{failure}");
    }
});
