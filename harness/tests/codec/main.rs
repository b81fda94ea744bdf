//! The codec: the error-code table, the IR's layout, the lifting limits and
//! what a refusal says.
//! A module of the one integration-test binary, `tests/suite.rs`; many of
//! its tests were written where mutation testing (`conformance/book/mutation-testing.md`)
//! found a behaviour no test pinned.

mod codes;
mod ir_layout;
mod lift_limits;
mod long_strings;
mod refusal_text;
