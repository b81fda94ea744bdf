//! 2025-11-25 URL-mode elicitation: the `elicitationId`s the server's URL-mode
//! `elicitation/create` requests and its -32042 (URLElicitationRequiredError)
//! errors carried, and `notifications/elicitation/complete` naming one of
//! them (client/elicitation §Completion Notifications for URL Mode
//! Elicitation, §Error Handling). The modes a client declared are the
//! handshake's ([`Judge::client_features`]).
//!
//! Only 2025-11-25 has URL mode: [`Judge::url_elicitation`] says so once, and
//! every hook here returns early under any other revision.

use super::{string_member, At, Direction, Finding, Judge, Message, Raw, RuleId};
use crate::Revision;

/// URL-mode elicitation ids remembered; the oldest is dropped first.
pub(super) const ELICITATIONS_CAP: usize = 1024;

/// -32042 (URLElicitationRequiredError), 2025-11-25 client/elicitation §Error Handling.
const URL_ELICITATION_REQUIRED: i64 = -32042;

/// The `elicitationId`s of the server's URL-mode elicitations, at most
/// [`ELICITATIONS_CAP`], oldest first.
#[derive(Default)]
pub(super) struct Elicitations {
    ids: Vec<String>,
}

impl Elicitations {
    fn remember(&mut self, id: String) {
        if self.ids.len() == ELICITATIONS_CAP {
            self.ids.remove(0);
        }
        self.ids.push(id);
    }

    fn knows(&self, id: &str) -> bool {
        self.ids.iter().any(|known| known == id)
    }
}

impl Judge {
    /// Whether the revision judged has URL-mode elicitation (2025-11-25).
    fn url_elicitation(&self) -> bool {
        self.revision == Revision::Mcp2025_11_25
    }

    /// A request `from` a side: a server's URL-mode `elicitation/create`
    /// establishes its `elicitationId`.
    pub(super) fn elicitation_request(
        &mut self,
        from: Direction,
        method: &str,
        params: Option<&Raw<'_>>,
    ) {
        if !self.url_elicitation() {
            return;
        }
        if from == Direction::ServerToClient && method == "elicitation/create" {
            let url = params.is_some_and(|p| string_member(p, "mode").as_deref() == Some("url"));
            if let Some(eid) = params.and_then(|p| string_member(p, "elicitationId")) {
                if url {
                    self.url_elicitations.remember(eid);
                }
            }
        }
    }

    /// The server's answer to a request of `asker`'s: a -32042
    /// (URLElicitationRequiredError) establishes the `elicitationId`s its
    /// `data.elicitations` lists.
    pub(super) fn url_elicitation_required(&mut self, asker: Direction, reply: &Message<'_>) {
        if !self.url_elicitation() {
            return;
        }
        if asker == Direction::ClientToServer {
            if let Message::Error(e) = reply {
                if e.error.code == URL_ELICITATION_REQUIRED {
                    let ids: Vec<String> = e
                        .error
                        .data
                        .as_ref()
                        .and_then(|d| d.get("elicitations").map(Raw::into_owned))
                        .map(|list| {
                            list.elements()
                                .filter_map(|el| string_member(&el, "elicitationId"))
                                .collect()
                        })
                        .unwrap_or_default();
                    for id in ids {
                        self.url_elicitations.remember(id);
                    }
                }
            }
        }
    }

    /// 2025-11-25 client/elicitation §Completion Notifications for URL Mode
    /// Elicitation: the notification names an elicitation of this session.
    pub(super) fn elicitation_complete(
        &self,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        if !self.url_elicitation() {
            return;
        }
        let id = params.and_then(|p| string_member(p, "elicitationId"));
        let known = id
            .as_ref()
            .is_some_and(|id| self.url_elicitations.knows(id));
        if !known {
            self.flag(
                RuleId::McpElicitationCompleteKnownId,
                format!(
                    "`notifications/elicitation/complete` names elicitation {}, which no URL-mode elicitation of the server in this session carried",
                    id.map_or_else(|| "(none)".to_owned(), |id| format!("{id:?}"))
                ),
                vec![at],
                out,
            );
        }
    }
}
