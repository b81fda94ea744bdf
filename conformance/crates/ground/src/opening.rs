//! The request that opens an MCP session, as wirecheck sends it: one builder
//! for the driver's handshake and the authorization client's first POST, so
//! the two cannot drift apart (the same client info, the same empty
//! capabilities, the same members in the same order).

use harness::Revision;
use serde_json::{json, Map, Value};

/// Who wirecheck says it is, in `clientInfo`.
#[must_use]
pub fn client_info() -> Value {
    json!({
        "name": "wirecheck",
        "version": env!("CARGO_PKG_VERSION"),
    })
}

/// The `params` of an `initialize` request under `revision` (2024-11-05 to
/// 2025-11-25, basic/lifecycle, "Initialization"): the revision as
/// `protocolVersion`, empty `capabilities`, and [`client_info`].
#[must_use]
pub fn initialize_params(revision: Revision) -> Value {
    initialize_params_naming(revision.name())
}

/// The `params` of an `initialize` request asking for `version`, which may be
/// no revision at all (the negotiation probe's unknown version): otherwise as
/// [`initialize_params`].
#[must_use]
pub fn initialize_params_naming(version: &str) -> Value {
    json!({
        "protocolVersion": version,
        "capabilities": {},
        "clientInfo": client_info(),
    })
}

/// The `_meta` of 2026-07-28's `server/discover` (basic/index, per-request
/// `_meta`): the version, [`client_info`] and empty capabilities, which the
/// driver, the runner's own requests, the HTTP header probes and `load` then
/// carry on every later request as well.
#[must_use]
pub fn discover_meta(revision: Revision) -> Map<String, Value> {
    let mut meta = Map::new();
    meta.insert(
        "io.modelcontextprotocol/protocolVersion".into(),
        revision.name().into(),
    );
    meta.insert("io.modelcontextprotocol/clientInfo".into(), client_info());
    meta.insert(
        "io.modelcontextprotocol/clientCapabilities".into(),
        json!({}),
    );
    meta
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes a server sees (serde_json writes members in name order).
    #[test]
    fn initialize_carries_the_version_no_capabilities_and_who_we_are() {
        let params = initialize_params(Revision::Mcp2025_06_18);
        let version = env!("CARGO_PKG_VERSION");
        assert_eq!(
            params.to_string(),
            format!(
                r#"{{"capabilities":{{}},"clientInfo":{{"name":"wirecheck","version":"{version}"}},"protocolVersion":"2025-06-18"}}"#
            )
        );
    }

    #[test]
    fn discover_carries_the_same_in_its_meta() {
        let meta = discover_meta(Revision::Mcp2026_07_28);
        assert_eq!(meta.len(), 3);
        assert_eq!(
            meta["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
        assert_eq!(meta["io.modelcontextprotocol/clientInfo"], client_info());
        assert_eq!(
            meta["io.modelcontextprotocol/clientCapabilities"],
            json!({})
        );
        assert_eq!(client_info()["name"], "wirecheck");
    }
}
