//! The harness's integration tests, as one binary (`autotests = false` in
//! `Cargo.toml`): one link and one process instead of one per file. Mutation
//! testing rebuilds every test binary for each mutant, and one binary costs
//! about a third less CPU a rebuild than the eleven it replaces
//! (`conformance/book/mutation-testing.md`). Run one file's tests by its module
//! path: `cargo test -p wirecheck-harness --test suite -- corpus::`.

mod batch_elements;
#[path = "codec/main.rs"]
mod codec;
mod corpus;
#[path = "frame_judge/main.rs"]
mod frame_judge;
mod properties;
mod refusals;
mod roundtrip;
#[path = "rule_catalogue/main.rs"]
mod rule_catalogue;
mod rules;
mod session;
#[path = "session_judge/main.rs"]
mod session_judge;
mod smoke;
mod snapshots;
mod support;
