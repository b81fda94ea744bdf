//! 2025-11-25 URL-mode elicitation: the `elicitationId`s the server's URL-mode
//! `elicitation/create` requests and its -32042 (URLElicitationRequiredError)
//! errors carried, and `notifications/elicitation/complete` naming one of
//! them (client/elicitation §Completion Notifications for URL Mode
//! Elicitation, §Error Handling). The modes a client declared are the
//! handshake's.
//!
//! Only 2025-11-25 has URL mode: this concern applies where its rule does.

use super::RuleId;
use super::{string_member, Answer, Concern, Cx, Direction, Message, Notification, Raw, Request};

/// URL-mode elicitation ids remembered; the oldest is dropped first.
const ELICITATIONS_CAP: usize = 1024;

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

impl Concern for Elicitations {
    fn rules() -> &'static [RuleId] {
        &[RuleId::McpElicitationCompleteKnownId]
    }

    /// A server's URL-mode `elicitation/create` establishes its
    /// `elicitationId`.
    fn request(&mut self, _cx: &mut Cx<'_>, r: &Request<'_>) {
        if r.from == Direction::ServerToClient && r.method == "elicitation/create" {
            let params = r.params;
            let url = params.is_some_and(|p| string_member(p, "mode").as_deref() == Some("url"));
            if let Some(eid) = params.and_then(|p| string_member(p, "elicitationId")) {
                if url {
                    self.remember(eid);
                }
            }
        }
    }

    /// The server's answer to a request of the client's: a -32042
    /// (URLElicitationRequiredError) establishes the `elicitationId`s its
    /// `data.elicitations` carry.
    fn answer(&mut self, _cx: &mut Cx<'_>, a: &Answer<'_>) {
        if a.asker != Direction::ClientToServer {
            return;
        }
        if let Message::Error(e) = a.reply {
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
                    self.remember(id);
                }
            }
        }
    }

    /// 2025-11-25 client/elicitation §Completion Notifications for URL Mode
    /// Elicitation: the notification names an elicitation of this session.
    fn notification(&mut self, cx: &mut Cx<'_>, n: &Notification<'_>) {
        if n.from != Direction::ServerToClient || n.method != "notifications/elicitation/complete" {
            return;
        }
        let id = n.params.and_then(|p| string_member(p, "elicitationId"));
        let known = id.as_ref().is_some_and(|id| self.knows(id));
        if !known {
            cx.out.flag(
                RuleId::McpElicitationCompleteKnownId,
                format!(
                    "`notifications/elicitation/complete` names elicitation {}, which no URL-mode elicitation of the server in this session carried",
                    id.map_or_else(|| "(none)".to_owned(), |id| format!("{id:?}"))
                ),
                vec![n.at],
            );
        }
    }
}
