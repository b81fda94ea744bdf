//! The live-session stack every command that talks to a peer stands on: the
//! transports ([`transport`]: stdio children in their own process group,
//! Streamable HTTP, HTTP+SSE and JSON-RPC over HTTP, one SSE parser, one HTTP
//! error chain, the one [`transport::wire::Wire`] built from a [`transport::Target`])
//! and the client side of a conversation over them ([`driver`]: the
//! handshake, probes with their liveness `ping`, the wire log). A crate of its
//! own, above the ground floor and the report model only, so that nothing
//! here can import a judge, the runner or a command: Cargo refuses the arrow.

pub mod driver;
pub mod transport;
