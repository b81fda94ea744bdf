//! The conformance side of wirecheck: reading frames off a stream, the golden
//! vectors and their runner, and the subcommands of the `wirecheck` binary.

pub mod cmd;
pub mod lines;
pub mod transcript;
pub mod vectors;
