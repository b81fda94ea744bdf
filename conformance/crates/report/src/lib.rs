//! One report model for every command, and its views.
//!
//! A command (`roundtrip`, `classify`, and later `run`, `check`, `fuzz`,
//! `diff`) fills a [`Report`]: one [`Record`] per subject it judged, each with
//! where the subject came from, what it was, its [`Outcome`], what was found
//! and what the command produced. The views ([`json`], [`terminal`], [`junit`],
//! [`markdown`]) are functions of the report alone, as Autobahn renders its
//! HTML matrix from its per-case JSON: one source of truth, many views. This
//! crate is pure data; reading and writing files is the commands' business.
//! A crate of its own, above the ground floor only, so that no view can
//! reach into the transports, judges or commands: Cargo refuses the arrow.

// The model, one file per part; every item is re-exported below, so a command
// or a view names it `report::Record`, whatever file holds it.
mod check; // what a record checked: a rule, or a check no rule names
mod command; // the command a report is of, and its exit code
mod defect; // the peer's defects, each once, with every check that shows it
mod findings; // what a record found, in the words every view shares
mod model; // the report as a whole, and its exit code
mod record; // the judgement of one subject and its parts
mod run; // what a run document says of the run besides its records
mod tally; // counts by outcome, and one rule's checks over a conversation
mod transport; // the transport a subject travelled over

// The views, and what they share.
pub mod document;
pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod sarif;
pub mod session;
pub mod sink;
pub mod terminal;
pub mod text;

pub use check::{Check, CheckId, Invariant, OwnCheck};
pub use command::{Command, Exit};
pub use defect::{breach, defects, defects_of, family, held, Defect, Shape, Standing, Weight};
pub use findings::{findings, repeated, repeats_reason, rule_id, Repeated};
pub use harness::rules::{Level, Violation};
pub use harness::Outcome;
pub use model::Report;
pub use record::{HttpExchange, Payload, Place, Record, Refusal, Subject, ID_REWRITE_NOTE};
pub use run::{rfc3339, PaceInfo, Peer, RunInfo, Stderr, TlsSeen};
pub use tally::{RuleTally, Tally};
pub use transport::Transport;
