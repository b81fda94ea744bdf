//! The client side: a reply lowered for an id is accepted for it and refused for
//! its twins, and a generated peer frame read as a reply is judged by its id.
#![no_main]

use harness::fuzzing::{check_reply_case, ReplyCase};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|case: ReplyCase| {
    if let Err(failure) = check_reply_case(&case) {
        panic!("{failure}");
    }
});
