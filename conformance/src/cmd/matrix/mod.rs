//! `wirecheck matrix`: the suite against every server of a manifest (the
//! zoo), one document of servers × revisions × transports, and its pages.

pub mod manifest;
