//! The conformance side of wirecheck: reading frames off a stream, the golden
//! vectors and their runner, and the subcommands of the `wirecheck` binary.

pub mod auth;
pub mod baseline;
pub mod clientcheck;
pub mod cmd;
pub mod driver;
pub mod interrupt;
pub mod judge;
pub mod lines;
pub mod livefuzz;
pub mod load;
pub mod opening;
pub mod peer;
pub mod proxy;
pub mod report;
pub mod runner;
mod sse;
mod sync;
pub mod transcript;
pub mod transport;
pub mod vectors;
pub mod watch;
