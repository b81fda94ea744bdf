//! The conformance side of wirecheck: reading frames off a stream, the golden
//! vectors and their runner, and the subcommands of the `wirecheck` binary.

pub mod auth;
pub mod baseline;
pub mod clientcheck;
pub mod cmd;
pub mod judge;
pub mod livefuzz;
pub mod load;
pub mod peer;
pub mod proxy;
pub mod runner;
pub mod stateful;
pub mod vectors;

// The ground floor, a crate of its own (its modules keep their paths here).
pub use ground::{interrupt, lines, opening, sync, transcript, watch};
// The report model and its views, a crate above the ground floor only.
pub use report;
// The live-session stack: transports and the driver, a crate of its own.
pub use wire::{driver, transport};
