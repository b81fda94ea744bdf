//! The rule catalogue: rule ids, the revisions each rule is in, the method
//! table, and profiles as a user spells them.
//! A module of the one integration-test binary, `tests/suite.rs`; many of
//! its tests were written where mutation testing (`conformance/book/mutation-testing.md`)
//! found a behaviour no test pinned.

mod method_table;
mod profiles;
mod revision_sets;
mod rule_ids;
