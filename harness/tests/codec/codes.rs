//! The error-code table against the numbers the specifications print: a judge that
//! expected `32603` instead of `-32603` would pass a peer that answers wrongly.

use harness::codes::{self, lookup, range_of, CodeRange, KNOWN_CODES};
use harness::Revision;

/// Every code, its name, and the revisions that define it, as the sources state
/// them: JSON-RPC 2.0 §5.1 (the five base codes); MCP 2024-11-05..2025-11-25
/// server/resources §Error Handling ("Resource not found: `-32002`"); MCP 2025-11-25
/// schema.json `URLElicitationRequiredError` (`-32042`); MCP 2026-07-28 schema.json
/// `HeaderMismatchError` (-32020), `MissingRequiredClientCapabilityError` (-32021),
/// `UnsupportedProtocolVersionError` (-32022).
const EXPECTED: &[(i64, &str, Revision, Option<Revision>)] = &[
    (-32700, "Parse error", Revision::JsonRpc2, None),
    (-32600, "Invalid Request", Revision::JsonRpc2, None),
    (-32601, "Method not found", Revision::JsonRpc2, None),
    (-32602, "Invalid params", Revision::JsonRpc2, None),
    (-32603, "Internal error", Revision::JsonRpc2, None),
    (
        -32002,
        "Resource not found",
        Revision::Mcp2024_11_05,
        Some(Revision::Mcp2026_07_28),
    ),
    (
        -32042,
        "URL elicitation required",
        Revision::Mcp2025_11_25,
        Some(Revision::Mcp2026_07_28),
    ),
    (-32020, "Header mismatch", Revision::Mcp2026_07_28, None),
    (
        -32021,
        "Missing required client capability",
        Revision::Mcp2026_07_28,
        None,
    ),
    (
        -32022,
        "Unsupported protocol version",
        Revision::Mcp2026_07_28,
        None,
    ),
];

#[test]
fn every_known_code_has_the_number_its_spec_prints() {
    let table: Vec<_> = KNOWN_CODES
        .iter()
        .map(|k| (k.code, k.name, k.since, k.until))
        .collect();
    assert_eq!(table, EXPECTED);
    // The named constants the rule checks compare against are the same numbers.
    assert_eq!(
        [
            codes::PARSE_ERROR,
            codes::INVALID_REQUEST,
            codes::METHOD_NOT_FOUND,
            codes::INVALID_PARAMS,
            codes::INTERNAL_ERROR,
        ],
        [-32700, -32600, -32601, -32602, -32603]
    );
}

#[test]
fn a_code_is_known_exactly_in_the_revisions_that_define_it() {
    for &(code, name, since, until) in EXPECTED {
        for revision in Revision::ALL {
            let defined = revision >= since && until.is_none_or(|u| revision < u);
            let found = lookup(code, revision);
            assert_eq!(
                found.map(|k| k.name),
                defined.then_some(name),
                "{code} under {revision}"
            );
        }
    }
    // The positive spelling of a code is not that code.
    assert!(lookup(32603, Revision::JsonRpc2).is_none());
    assert!(lookup(32002, Revision::Mcp2025_06_18).is_none());
}

/// The range boundaries of JSON-RPC 2.0 §5.1 ("-32768 to -32000 … Reserved for
/// pre-defined errors", "-32000 to -32099 Server error") and the 2026-07-28 split
/// (changelog: "`-32000` to `-32019` remains implementation-defined …, `-32020` to
/// `-32099` is reserved" for the specification).
#[test]
fn each_range_boundary_falls_on_the_side_the_spec_puts_it() {
    use CodeRange::*;
    let before = Revision::Mcp2025_11_25;
    let after = Revision::Mcp2026_07_28;
    for (code, under_before, under_after) in [
        (-32769, Application, Application),
        (-32768, Reserved, Reserved),
        (-32100, Reserved, Reserved),
        (-32099, ServerDefined, McpReserved),
        (-32020, ServerDefined, McpReserved),
        (-32019, ServerDefined, ServerDefined),
        (-32000, ServerDefined, ServerDefined),
        (-31999, Application, Application),
        (0, Application, Application),
    ] {
        assert_eq!(
            range_of(code, before),
            under_before,
            "{code} under {before}"
        );
        assert_eq!(range_of(code, after), under_after, "{code} under {after}");
        assert_eq!(range_of(code, Revision::JsonRpc2), under_before, "{code}");
    }
}
