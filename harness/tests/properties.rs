//! proptest properties over the shared generator and oracles, plus a smoke run of
//! every oracle on seeded random bytes, so plain `cargo test` exercises each fuzz
//! target's property without nightly.

use arbitrary::{Arbitrary, Unstructured};
use harness::fuzzing::{
    check_generated, check_generated_reply, check_refusal, check_reply_case, check_roundtrip,
    mutate_json, GenFrame, GenId, ReplyCase,
};
use proptest::prelude::*;

fn generated(bytes: &[u8]) -> Option<GenFrame> {
    GenFrame::arbitrary(&mut Unstructured::new(bytes)).ok()
}

/// The cases per property: `default`, or `PROPTEST_CASES` when set (proptest's
/// own variable, which an explicit count would otherwise override). Mutation
/// runs lower it: each mutant then costs seconds, not the 90 s of a full run.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

proptest! {
    // Tests never write into the source tree: a failure is reported, not persisted;
    // a found case belongs in corpus/regressions/.
    #![proptest_config(ProptestConfig { cases: cases(2000), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_frames_round_trip(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        if let Some(frame) = generated(&bytes) {
            if let Err(failure) = check_generated(&frame) {
                prop_assert!(false, "{}", failure);
            }
        }
    }

    #[test]
    fn replies_match_only_their_id(bytes in proptest::collection::vec(any::<u8>(), 0..256), first in any::<bool>()) {
        if let Ok(id) = GenId::arbitrary(&mut Unstructured::new(&bytes)) {
            if let Err(failure) = check_generated_reply(&id, first) {
                prop_assert!(false, "{}", failure);
            }
        }
    }

    #[test]
    fn any_bytes_round_trip_or_are_refused_coherently(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        if let Err(failure) = check_roundtrip(&bytes) {
            prop_assert!(false, "{}", failure);
        }
    }

    /// Mutated generated frames: flip one byte of a valid frame, which lands
    /// mostly on the refusal paths.
    #[test]
    fn mutated_frames_are_refused_coherently(bytes in proptest::collection::vec(any::<u8>(), 0..2048), at in any::<usize>(), to in any::<u8>()) {
        if let Some(frame) = generated(&bytes) {
            let mut text = frame.text.into_bytes();
            if !text.is_empty() {
                let i = at % text.len();
                text[i] = to;
            }
            if let Err(failure) = check_refusal(&text) {
                prop_assert!(false, "{}", failure);
            }
            if let Err(failure) = check_roundtrip(&text) {
                prop_assert!(false, "{}", failure);
            }
        }
    }

    /// Generated frames through a chain of structural mutations (what the
    /// byte-level fuzz targets' mutator does): each step round-trips or is
    /// refused coherently.
    #[test]
    fn structurally_mutated_frames_round_trip_or_are_refused_coherently(bytes in proptest::collection::vec(any::<u8>(), 0..2048), seed in any::<u64>()) {
        if let Some(frame) = generated(&bytes) {
            let mut text = frame.text.into_bytes();
            for step in 0..8 {
                let Some(next) = mutate_json(&text, seed.wrapping_add(step)) else { break };
                if let Err(failure) = check_roundtrip(&next) {
                    prop_assert!(false, "{}", failure);
                }
                text = next;
            }
        }
    }

    /// The reply-matching target's whole case: replies built for an id, and a
    /// generated peer frame read as a reply.
    #[test]
    fn peer_frames_are_judged_by_their_id(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        if let Ok(case) = ReplyCase::arbitrary(&mut Unstructured::new(&bytes)) {
            if let Err(failure) = check_reply_case(&case) {
                prop_assert!(false, "{}", failure);
            }
        }
    }
}
