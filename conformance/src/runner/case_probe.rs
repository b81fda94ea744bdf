//! The tool-name case probe: 2025-11-25 and 2026-07-28 server/tools §Tool
//! Names, "Tool names SHOULD be considered case-sensitive"
//! (`mcp.tools.name-case-sensitive`).
//!
//! The probe calls a listed tool by its name with the case of its ASCII
//! letters swapped (`echo` → `ECHO`). A server that ignores case *runs the
//! tool*, so the probe is made only for a tool the user allowed
//! (`--allow-tool`, with `--tool-args`, as [`super::fixtures::tool_probes`]
//! calls it), and only when the swapped name is no tool the server listed
//! (then it would be a call of that tool). Unknown tools are protocol errors
//! (server/tools §Error Handling), so the answer held to is an error, any
//! code; a result warns (SHOULD): the server took the name without its case.

use harness::rules::{Level, RuleId};
use harness::Revision;

use super::fixtures::{Allowed, Catalogue};
use crate::vectors::{Answer, Basis, Codec, Needs, RuleRef, Vector, Verdict};

/// `name` with the case of each ASCII letter swapped; `None` when it has none
/// (nothing to change).
fn swapped(name: &str) -> Option<String> {
    if !name.bytes().any(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    Some(
        name.chars()
            .map(|c| {
                if c.is_ascii_lowercase() {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect(),
    )
}

/// Why no case probe could be made when the server lists tools, for a
/// not-observed record (never a pass): `None` when a probe was made, the
/// rule does not apply, or the server lists no tool.
#[must_use]
pub fn unprobed(revision: Revision, catalogue: &Catalogue, allowed: &Allowed) -> Option<String> {
    let applies = RuleId::McpToolsNameCaseSensitive
        .info()
        .applies_to(revision);
    if !applies || catalogue.tools.is_empty() || !probes(revision, catalogue, allowed).is_empty() {
        return None;
    }
    // Say what is missing: a user who allowed no tool needs both flags.
    Some(if allowed.tools.is_empty() {
        "no tool allowed: the probe calls an allowed tool (--allow-tool NAME --tool-args JSON) by a case-changed name, which a server that ignores case runs".into()
    } else if allowed.arguments.is_none() {
        "no --tool-args given: the probe calls an allowed tool (--allow-tool NAME --tool-args JSON) by a case-changed name, which a server that ignores case runs".into()
    } else {
        "no listed tool the user allowed has a case-changed name the server does not list".into()
    })
}

/// A stand-in vector for the record of [`unprobed`].
#[must_use]
pub fn record_vector(revision: Revision) -> Vector {
    let mut v = Vector {
        id: format!("run/{revision}/tools-call-case"),
        frame: Vec::new(),
        answer: None,
        basis: None,
        ..probe_vector(revision, "(none)", "(none)", Vec::new())
    };
    v.description = "the tool-name case probe, not made".into();
    v
}

fn probe_vector(revision: Revision, name: &str, other: &str, frame: Vec<u8>) -> Vector {
    let rule = RuleId::McpToolsNameCaseSensitive;
    Vector {
        id: format!("run/{revision}/tools-call-case/{name}"),
        path: std::path::PathBuf::from("--allow-tool"),
        verdict: Verdict::Accept,
        description: format!(
            "the allowed tool `{name}` called as `{other}`, a name the server does not list: tool names SHOULD be case-sensitive"
        ),
        profile: harness::Profile {
            revision,
            direction: harness::Direction::ClientToServer,
        },
        frame,
        rules: vec![RuleRef {
            id: rule,
            level: Level::Should,
            spec: rule.info().cite(revision).to_owned(),
        }],
        codec: Codec::Lifts,
        violations: Vec::new(),
        advisories: Vec::new(),
        answer: Some(Answer::Error {
            codes: Vec::new(),
            id: None,
            data_required: Vec::new(),
        }),
        basis: Some(Basis::MandatedBy {
            rule,
            level: Level::Should,
        }),
        needs: Needs::default(),
        exchange: None,
        ambiguity: None,
    }
}

/// One `tools/call` per allowed, listed tool whose name in swapped case the
/// server does not list, with `--tool-args`; none without them, or in a
/// revision the rule does not apply to.
#[must_use]
pub fn probes(revision: Revision, catalogue: &Catalogue, allowed: &Allowed) -> Vec<Vector> {
    let rule = RuleId::McpToolsNameCaseSensitive;
    let Some(arguments) = &allowed.arguments else {
        return Vec::new();
    };
    if !rule.info().applies_to(revision) {
        return Vec::new();
    }
    allowed
        .tools
        .iter()
        .filter(|name| catalogue.tools.contains(*name))
        .filter_map(|name| {
            let other = swapped(name).filter(|o| !catalogue.tools.contains(o))?;
            let mut frame = serde_json::json!({
                "jsonrpc": "2.0",
                // A string id no vector uses, so it is fresh in any session.
                "id": format!("wirecheck-case-{name}"),
                "method": "tools/call",
                "params": { "name": other, "arguments": arguments },
            });
            // Without the request `_meta` a 2026-07-28 server refuses the
            // call whatever the name, and the probe would pass every server.
            if let Some(meta) = super::fixtures::request_meta(revision) {
                frame["params"]["_meta"] = meta;
            }
            Some(probe_vector(
                revision,
                name,
                &other,
                serde_json::to_vec(&frame).unwrap_or_default(),
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn names(list: &[&str]) -> BTreeSet<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn only_allowed_listed_tools_whose_other_case_is_unlisted() {
        let catalogue = Catalogue {
            tools: names(&["echo", "Add", "ADD", "v2"]),
            ..Catalogue::default()
        };
        let allowed = Allowed {
            tools: names(&["echo", "Add", "v2", "fetch"]),
            arguments: Some(serde_json::json!({})),
        };
        let made = probes(Revision::Mcp2025_11_25, &catalogue, &allowed);
        let called: Vec<String> = made
            .iter()
            .map(|v| {
                let frame: serde_json::Value = serde_json::from_slice(&v.frame).unwrap();
                frame["params"]["name"].as_str().unwrap().to_owned()
            })
            .collect();
        // `Add` → `aDD` (unlisted); `ADD` is listed, but swaps to `add`… it is
        // not allowed, so never called. `fetch` is allowed but not listed.
        assert_eq!(called, ["aDD", "ECHO", "V2"]);
        // 2026-07-28: each call carries the per-request `_meta`, or a server
        // refuses it for that alone and the probe shows nothing.
        for v in probes(Revision::Mcp2026_07_28, &catalogue, &allowed) {
            let frame: serde_json::Value = serde_json::from_slice(&v.frame).unwrap();
            let meta = &frame["params"]["_meta"];
            assert_eq!(
                meta["io.modelcontextprotocol/protocolVersion"],
                "2026-07-28"
            );
            assert!(meta["io.modelcontextprotocol/clientCapabilities"].is_object());
            assert!(meta["io.modelcontextprotocol/clientInfo"]["name"].is_string());
        }
        assert!(!probes(Revision::Mcp2026_07_28, &catalogue, &allowed).is_empty());
        assert!(probes(Revision::Mcp2025_06_18, &catalogue, &allowed).is_empty());
        let no_args = Allowed {
            arguments: None,
            ..allowed.clone()
        };
        assert!(probes(Revision::Mcp2025_11_25, &catalogue, &no_args).is_empty());
        // Without a probe the check is not observed, with the reason; a
        // server listing no tool has nothing to probe.
        assert!(unprobed(Revision::Mcp2025_11_25, &catalogue, &allowed).is_none());
        let why = unprobed(Revision::Mcp2025_11_25, &catalogue, &no_args).unwrap();
        assert!(why.contains("--allow-tool"), "{why}");
        assert!(unprobed(Revision::Mcp2025_11_25, &Catalogue::default(), &no_args).is_none());
        assert!(unprobed(Revision::Mcp2025_06_18, &catalogue, &no_args).is_none());
    }

    #[test]
    fn a_name_without_letters_is_not_probed() {
        assert_eq!(swapped("42_-."), None);
        assert_eq!(swapped("get_Weather"), Some("GET_wEATHER".into()));
    }
}
