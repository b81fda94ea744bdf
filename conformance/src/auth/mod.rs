//! Authorization, the resource-server side, offline: a local
//! OAuth authorization server ([`server`], keys and tokens in [`issuer`]),
//! the protected reference peer's token checks ([`resource`]), and what
//! `wirecheck run --http URL --auth` prepares before its sessions
//! ([`client`]). The probes themselves are the transport judge's
//! (`runner/http_judge/authorization.rs`). The client side: the judged peer
//! protected (`serve --http --judge --auth`, [`crate::clientcheck::auth`]), what the client
//! did recorded ([`observed`]) and judged ([`client_judge`]). See
//! `conformance/book/authorization.md`.

pub mod client;
pub mod client_judge;
pub mod issuer;
pub mod observed;
pub mod resource;
pub mod server;
