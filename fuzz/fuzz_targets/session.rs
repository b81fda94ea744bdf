//! The session judge: a generated conformant conversation yields no finding,
//! one applied defect yields exactly its rule at its event, and no sequence of
//! events (frames that do not lift included) makes the judge panic.
#![no_main]

use harness::fuzzing::conversation::check_session_input;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(failure) = check_session_input(data) {
        panic!("{failure}");
    }
});
