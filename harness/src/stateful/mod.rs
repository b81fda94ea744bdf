//! Stateful fuzzing, the pure half: the operations a sequence is made of
//! ([`op`]), what the peer declared and so which operations apply
//! ([`Caps`]), sequences generated from a seed ([`generate`]), the model of
//! what the spec text says the state must be after each step ([`model`]),
//! and the shrinker that cuts a failing sequence down ([`shrink`]).
//!
//! Nothing here does I/O: the live half (`wirecheck fuzz --stateful`) sends
//! each operation, hands the model what came back, and asks it what broke.
//! Every expectation the model holds is tied to one rule of the catalogue,
//! so a verdict cites the rule's revision, page, section, level and
//! sentence; where the text names no keyword the rule is a SHOULD at most,
//! and where it is silent the model expects nothing.

mod caps;
pub mod generate;
pub mod model;
pub mod op;
pub mod shrink;

pub use caps::Caps;
pub use generate::generate;
pub use model::{Answer, Breach, Model};
pub use op::{List, Op};
pub use shrink::Shrinker;
