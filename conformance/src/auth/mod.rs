//! Authorization (issue 31), the resource-server side, offline: a local
//! OAuth authorization server ([`server`], keys and tokens in [`issuer`]),
//! the protected reference peer's token checks ([`resource`]), and what
//! `wirecheck run --http URL --auth` prepares before its sessions
//! ([`client`]). The probes themselves are the transport judge's
//! (`runner/http_judge/authorization.rs`). See `conformance/book/authorization.md`.

pub mod client;
pub mod issuer;
pub mod resource;
pub mod server;
