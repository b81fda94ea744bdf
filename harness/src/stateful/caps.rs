//! What the peer declared in its handshake, as far as stateful operations
//! care: an operation on a feature the server did not declare is never
//! generated (the text asks nothing of a server about a feature it lacks).

use std::collections::BTreeSet;

use crate::Revision;

use super::op::List;

/// The features a sequence may exercise.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Caps {
    /// The revision the session opened with.
    pub revision: Option<Revision>,
    /// The lists whose capability the server declared.
    pub lists: BTreeSet<List>,
    /// The lists whose capability declared `listChanged: true`.
    pub list_changed: BTreeSet<List>,
    /// `resources.subscribe: true`, in a revision with
    /// `resources/subscribe` (before 2026-07-28).
    pub subscribe: bool,
    /// Streamable HTTP sessions: the server issued an `Mcp-Session-Id`
    /// (revisions 2025-03-26 to 2025-11-25; 2026-07-28 has none).
    pub sessions: bool,
}

impl Caps {
    /// The features `capabilities` (the handshake result's member) declares
    /// under `revision`; `sessions` says whether the server issued a
    /// session id.
    #[must_use]
    pub fn of(revision: Revision, capabilities: &serde_json::Value, sessions: bool) -> Caps {
        let declared = |name: &str| {
            capabilities
                .get(name)
                .is_some_and(serde_json::Value::is_object)
        };
        let flag = |name: &str, member: &str| {
            capabilities
                .get(name)
                .and_then(|c| c.get(member))
                .and_then(serde_json::Value::as_bool)
                .unwrap_or(false)
        };
        let lists: BTreeSet<List> = List::ALL
            .into_iter()
            .filter(|l| declared(l.capability()))
            .collect();
        let list_changed = lists
            .iter()
            .copied()
            .filter(|l| flag(l.capability(), "listChanged"))
            .collect();
        Caps {
            revision: Some(revision),
            subscribe: revision < Revision::Mcp2026_07_28 && flag("resources", "subscribe"),
            sessions: sessions
                && (Revision::Mcp2025_03_26..=Revision::Mcp2025_11_25).contains(&revision),
            lists,
            list_changed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_declared_features_are_exercised() {
        let caps = Caps::of(
            Revision::Mcp2025_11_25,
            &json!({"tools": {"listChanged": true}, "resources": {"subscribe": true}}),
            true,
        );
        assert!(caps.lists.contains(&List::Tools));
        assert!(caps.lists.contains(&List::Templates));
        assert!(!caps.lists.contains(&List::Prompts));
        assert!(caps.list_changed.contains(&List::Tools));
        assert!(!caps.list_changed.contains(&List::Resources));
        assert!(caps.subscribe && caps.sessions);
        // 2026-07-28: no sessions, no resources/subscribe.
        let later = Caps::of(
            Revision::Mcp2026_07_28,
            &json!({"resources": {"subscribe": true}}),
            true,
        );
        assert!(!later.subscribe && !later.sessions);
    }
}
