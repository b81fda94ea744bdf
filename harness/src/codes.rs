//! Error codes: JSON-RPC 2.0's, and MCP's per revision, in one table.
//!
//! Each entry says which profiles define it. Sources: JSON-RPC 2.0 §5.1; the MCP
//! specification and schema of each revision (`schema.json` constants and the
//! error sections of the base protocol, resources and elicitation pages).

use crate::profile::Revision;

/// -32700: invalid JSON was received (JSON-RPC 2.0 §5.1).
pub const PARSE_ERROR: i64 = -32700;
/// -32600: the JSON sent is not a valid Request object.
pub const INVALID_REQUEST: i64 = -32600;
/// -32601: the method does not exist or is not available.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// -32602: invalid method parameter(s).
pub const INVALID_PARAMS: i64 = -32602;
/// -32603: internal JSON-RPC error.
pub const INTERNAL_ERROR: i64 = -32603;

/// A known error code and the revisions that define it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownCode {
    /// The code.
    pub code: i64,
    /// Its name in the spec or schema.
    pub name: &'static str,
    /// The first revision that defines it (`JsonRpc2` for the base codes).
    pub since: Revision,
    /// The first revision that no longer defines it, if any.
    pub until: Option<Revision>,
}

impl KnownCode {
    /// Whether `revision` defines this code. The JSON-RPC 2.0 codes hold in every
    /// MCP revision; MCP codes never hold under plain JSON-RPC 2.0.
    #[must_use]
    pub fn defined_in(&self, revision: Revision) -> bool {
        revision >= self.since && self.until.is_none_or(|until| revision < until)
    }
}

/// Every code wirecheck knows, oldest first.
pub const KNOWN_CODES: &[KnownCode] = &[
    KnownCode {
        code: PARSE_ERROR,
        name: "Parse error",
        since: Revision::JsonRpc2,
        until: None,
    },
    KnownCode {
        code: INVALID_REQUEST,
        name: "Invalid Request",
        since: Revision::JsonRpc2,
        until: None,
    },
    KnownCode {
        code: METHOD_NOT_FOUND,
        name: "Method not found",
        since: Revision::JsonRpc2,
        until: None,
    },
    KnownCode {
        code: INVALID_PARAMS,
        name: "Invalid params",
        since: Revision::JsonRpc2,
        until: None,
    },
    KnownCode {
        code: INTERNAL_ERROR,
        name: "Internal error",
        since: Revision::JsonRpc2,
        until: None,
    },
    // MCP resources: "Resource not found: -32002" (server/resources, Error Handling).
    // 2026-07-28 no longer lists it.
    KnownCode {
        code: -32002,
        name: "Resource not found",
        since: Revision::Mcp2024_11_05,
        until: Some(Revision::Mcp2026_07_28),
    },
    // 2025-11-25 schema `URLElicitationRequiredError`; absent from the 2026-07-28 schema.
    KnownCode {
        code: -32042,
        name: "URL elicitation required",
        since: Revision::Mcp2025_11_25,
        until: Some(Revision::Mcp2026_07_28),
    },
    // 2026-07-28 schema: `HeaderMismatchError`, `MissingRequiredClientCapabilityError`,
    // `UnsupportedProtocolVersionError` (with `data.supported`).
    KnownCode {
        code: -32020,
        name: "Header mismatch",
        since: Revision::Mcp2026_07_28,
        until: None,
    },
    KnownCode {
        code: -32021,
        name: "Missing required client capability",
        since: Revision::Mcp2026_07_28,
        until: None,
    },
    KnownCode {
        code: -32022,
        name: "Unsupported protocol version",
        since: Revision::Mcp2026_07_28,
        until: None,
    },
];

/// Who may use a code, by the ranges JSON-RPC 2.0 §5.1 and MCP reserve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CodeRange {
    /// -32768..=-32000 and not otherwise assigned: reserved by JSON-RPC 2.0.
    Reserved,
    /// -32099..=-32000: "Reserved for implementation-defined server-errors" (JSON-RPC
    /// 2.0). In 2026-07-28 split: -32000..=-32019 for implementations, -32020..=-32099
    /// for the MCP specification.
    ServerDefined,
    /// -32099..=-32020 in 2026-07-28: reserved for codes the MCP specification defines.
    McpReserved,
    /// Anything else: application-defined.
    Application,
}

/// The range `code` falls in under `revision`.
#[must_use]
pub fn range_of(code: i64, revision: Revision) -> CodeRange {
    match code {
        -32099..=-32020 if revision >= Revision::Mcp2026_07_28 => CodeRange::McpReserved,
        -32099..=-32000 => CodeRange::ServerDefined,
        -32768..=-32000 => CodeRange::Reserved,
        _ => CodeRange::Application,
    }
}

/// The known code `code` under `revision`, if that revision defines it.
#[must_use]
pub fn lookup(code: i64, revision: Revision) -> Option<&'static KnownCode> {
    KNOWN_CODES
        .iter()
        .find(|k| k.code == code && k.defined_in(revision))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_not_found_moves_in_2026() {
        assert!(lookup(-32002, Revision::Mcp2025_11_25).is_some());
        assert!(lookup(-32002, Revision::Mcp2026_07_28).is_none());
        assert!(lookup(-32020, Revision::Mcp2026_07_28).is_some());
        assert!(lookup(-32020, Revision::Mcp2025_11_25).is_none());
        assert!(lookup(-32002, Revision::JsonRpc2).is_none());
        assert!(lookup(-32042, Revision::Mcp2025_11_25).is_some());
        assert!(lookup(-32042, Revision::Mcp2025_06_18).is_none());
        assert_eq!(
            lookup(-32601, Revision::Mcp2026_07_28).unwrap().name,
            "Method not found"
        );
    }

    #[test]
    fn ranges_split_in_2026() {
        assert_eq!(
            range_of(-32010, Revision::Mcp2026_07_28),
            CodeRange::ServerDefined
        );
        assert_eq!(
            range_of(-32030, Revision::Mcp2026_07_28),
            CodeRange::McpReserved
        );
        assert_eq!(
            range_of(-32030, Revision::Mcp2025_11_25),
            CodeRange::ServerDefined
        );
        assert_eq!(range_of(-32500, Revision::JsonRpc2), CodeRange::Reserved);
        assert_eq!(range_of(42, Revision::JsonRpc2), CodeRange::Application);
    }
}
