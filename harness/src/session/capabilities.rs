//! Which declared capability each method leans on, per the capability tables
//! of the handshake revisions (2024-11-05 to 2025-11-25, basic/lifecycle
//! §Capability Negotiation, and each feature page's §Capabilities).

use crate::ir::Raw;
use crate::profile::{Direction, Revision};

/// What a method needs declared, and by whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Need {
    /// The side whose declaration counts: the server's for a client's calls and
    /// the server's own notifications, the client's for a server's requests.
    pub(crate) holder: Direction,
    /// The capability (`tools`, `logging`, …).
    pub(crate) capability: &'static str,
    /// A flag inside it that must be `true` (`listChanged`, `subscribe`).
    pub(crate) flag: Option<&'static str>,
}

const fn need(holder: Direction, capability: &'static str, flag: Option<&'static str>) -> Need {
    Need {
        holder,
        capability,
        flag,
    }
}

const SERVER: Direction = Direction::ServerToClient;
const CLIENT: Direction = Direction::ClientToServer;

/// The capability a message with `method`, sent by `sender`, needs under
/// `revision`; `None` when it needs none (or the revision has no such
/// capability: `completions` arrives with 2025-03-26, `elicitation` with
/// 2025-06-18).
pub(crate) fn needed(method: &str, sender: Direction, revision: Revision) -> Option<Need> {
    let found = match (sender, method) {
        // A client's calls need what the server declared (server/tools,
        // server/resources, server/prompts, server/utilities/logging and
        // completion §Capabilities).
        (CLIENT, "tools/list" | "tools/call") => need(SERVER, "tools", None),
        (CLIENT, "resources/list" | "resources/read" | "resources/templates/list") => {
            need(SERVER, "resources", None)
        }
        (CLIENT, "resources/subscribe" | "resources/unsubscribe") => {
            need(SERVER, "resources", Some("subscribe"))
        }
        (CLIENT, "prompts/list" | "prompts/get") => need(SERVER, "prompts", None),
        (CLIENT, "logging/setLevel") => need(SERVER, "logging", None),
        (CLIENT, "completion/complete") if revision >= Revision::Mcp2025_03_26 => {
            need(SERVER, "completions", None)
        }
        (CLIENT, "notifications/roots/list_changed") => need(CLIENT, "roots", Some("listChanged")),
        // A server's notifications need its own declaration.
        (SERVER, "notifications/message") => need(SERVER, "logging", None),
        (SERVER, "notifications/tools/list_changed") => need(SERVER, "tools", Some("listChanged")),
        (SERVER, "notifications/prompts/list_changed") => {
            need(SERVER, "prompts", Some("listChanged"))
        }
        (SERVER, "notifications/resources/list_changed") => {
            need(SERVER, "resources", Some("listChanged"))
        }
        (SERVER, "notifications/resources/updated") => need(SERVER, "resources", Some("subscribe")),
        // A server's requests need what the client declared.
        (SERVER, "sampling/createMessage") => need(CLIENT, "sampling", None),
        (SERVER, "roots/list") => need(CLIENT, "roots", None),
        (SERVER, "elicitation/create") if revision >= Revision::Mcp2025_06_18 => {
            need(CLIENT, "elicitation", None)
        }
        _ => return None,
    };
    Some(found)
}

/// Whether `capabilities` (a side's declared capabilities object) meets `need`:
/// the capability is an object and, when a flag is named, the flag is `true`.
pub(crate) fn declared(capabilities: Option<&Raw<'_>>, need: Need) -> bool {
    let Some(cap) = capabilities.and_then(|c| c.get(need.capability)) else {
        return false;
    };
    if cap.kind() != crate::ValueKind::Object {
        return false;
    }
    need.flag
        .is_none_or(|flag| cap.get(flag).is_some_and(|v| v.as_str() == "true"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_must_be_true_and_capabilities_objects() {
        let caps = Raw::parse(
            r#"{"tools":{"listChanged":true},"resources":{"subscribe":false},"logging":null}"#,
        )
        .expect("valid");
        let r = Revision::Mcp2025_06_18;
        let n = |m, s| needed(m, s, r).expect("needs one");
        assert!(declared(
            Some(&caps),
            n("notifications/tools/list_changed", SERVER)
        ));
        assert!(declared(Some(&caps), n("tools/call", CLIENT)));
        assert!(!declared(Some(&caps), n("resources/subscribe", CLIENT)));
        assert!(!declared(Some(&caps), n("notifications/message", SERVER)));
        assert!(!declared(None, n("tools/call", CLIENT)));
        assert_eq!(
            needed("completion/complete", CLIENT, Revision::Mcp2024_11_05),
            None
        );
        assert_eq!(needed("ping", CLIENT, r), None);
    }
}
