//! The wirecheck reference codec for JSON-RPC 2.0 and the Model Context Protocol.
//!
//! [`lift`] reads one wire frame into the [IR](ir): a request, a notification, a
//! success or error response, or a batch of those. [`lower`] writes it back.
//!
//! # The lossless contract
//!
//! For every frame `b` that lifts, `lower(lift(b))` is `b` with the whitespace
//! between the tokens of the envelope (the top-level object, each batch element,
//! and each `error` object) removed, and nothing else changed: every member at
//! every depth is kept, modelled or not (`"x-vendor"`, extras inside `error`,
//! `_meta` anywhere), in the order it came; member names, strings and numbers keep
//! their exact text (`1.0`, `1e2`, `-0`, a 30-digit id, `"\u00e9"` all stay as
//! written); an absent member stays absent and `null` stays `null`; values below the
//! envelope, inner whitespace included, are copied byte for byte. So a frame
//! already in compact form comes back **byte-identical**, and any frame comes back
//! as the same JSON text up to insignificant whitespace. The contract is checked
//! by one function, [`fuzzing::check_roundtrip`], which the fuzz targets, the
//! proptest properties and the corpus replay all call.
//!
//! # Refusals
//!
//! What is not a JSON-RPC 2.0 message is refused with a [`Refusal`] naming the
//! [`Rule`] broken, its code (-32700 for text that is not JSON, -32600 for JSON
//! that is not a valid message), a JSON Pointer and a line and column. Duplicate
//! member names in the envelope or the `error` object are refused as ambiguous;
//! duplicates deeper down are kept as they came. [`Limits`] bound nesting depth
//! and frame size, so hostile input is refused, never a stack overflow.

pub mod client;
pub mod codes;
mod error;
pub mod error_ids;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod ir;
mod lift;
mod lower;
pub mod outcome;
pub mod profile;
pub mod rules;
mod scan;
pub mod schema_check;
pub mod session;
pub mod stateful;

pub use error::{Refusal, Rule};
pub use ir::{Frame, Id, Message, MessageKind, Raw};
pub use lift::{lift, lift_batch_elements, lift_batch_elements_with, lift_with};
pub use lower::{lower, lower_message, lower_to_vec};
pub use outcome::Outcome;
pub use profile::{Direction, Profile, Revision};
pub use scan::{Limits, ValueKind};
