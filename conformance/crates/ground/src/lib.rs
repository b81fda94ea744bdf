//! The ground floor of wirecheck's commands, below every live session and
//! every report: newline-delimited frames read within bounds ([`lines`]), the
//! one transcript format ([`transcript`]) and a conversation watched from it
//! ([`watch`]), the opening frame of a conversation ([`opening`]), Ctrl-C
//! and SIGTERM ([`interrupt`]), a lock that survives a panicked holder
//! ([`sync`]), and the names of the transports ([`transport`]), which the
//! records below the transports name too. A crate of its own so that
//! nothing here can reach up into the transports, the judges or the
//! commands: Cargo refuses the arrow.

pub mod interrupt;
pub mod lines;
pub mod opening;
pub mod sync;
pub mod transcript;
pub mod transport;
pub mod watch;
