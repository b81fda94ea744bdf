//! What a protocol feature of the session judge is to the core: a
//! [`Concern`] owns its state and judges what the core hands it, through a
//! context ([`Cx`]) that reads and marks what the core keeps. The judge holds
//! the concerns whose rules apply to its revision ([`Concerns`]), a fixed set
//! visited in a fixed order, so no concern is allocated per frame.

use super::handshake::Negotiated;
use super::{
    cancellation, elicitation, handshake, lists, logging, mrtr, slot, subscriptions, tasks,
};
use super::{finding, At, Direction, Ending, Finding, Id, Key, KeyMap, Message, Open, Past};
use super::{Raw, Revision, RuleId, Side};

/// A protocol feature the session judge follows: it owns its state, and judges
/// what the core hands it. Each hook has a default that does nothing, so a
/// concern implements only what it sees.
pub(super) trait Concern {
    /// The rules this concern judges: it applies under every revision one of
    /// them applies to (the catalogue's [`RuleInfo::revisions`](crate::rules::RuleInfo)).
    fn rules() -> &'static [RuleId]
    where
        Self: Sized;

    /// This concern, when one of its rules applies under `revision`.
    fn for_revision(revision: Revision) -> Option<Self>
    where
        Self: Sized + Default,
    {
        Self::rules()
            .iter()
            .any(|r| r.info().applies_to(revision))
            .then(Self::default)
    }

    /// Any message, before the core reads it.
    fn message(&mut self, _cx: &mut Cx<'_>, _from: Direction, _m: &Message<'_>, _at: At) {}
    /// A request with an id, after the core checked its id.
    fn request(&mut self, _cx: &mut Cx<'_>, _r: &Request<'_>) {}
    /// A notification.
    fn notification(&mut self, _cx: &mut Cx<'_>, _n: &Notification<'_>) {}
    /// An answer paired with its request.
    fn answer(&mut self, _cx: &mut Cx<'_>, _a: &Answer<'_>) {}
    /// A request the end of the stream (closed, or the wait elapsed) left
    /// unanswered, taken out of flight at `at`.
    fn unanswered(&mut self, _cx: &mut Cx<'_>, _open: &Open, _at: At) {}
    /// The end of the capture: what only the end decides.
    fn finish(&mut self, _cx: &End<'_>, _end: &mut Ending) {}
}

/// The concerns a judge holds: those whose rules apply to its revision,
/// visited in this order.
pub(super) struct Concerns {
    pub(super) handshake: Option<handshake::Handshake>,
    pub(super) lists: Option<lists::Lists>,
    pub(super) logging: Option<logging::Logging>,
    pub(super) elicitation: Option<elicitation::Elicitations>,
    pub(super) tasks: Option<tasks::Tasks>,
    pub(super) subscriptions: Option<subscriptions::Subscriptions>,
    pub(super) mrtr: Option<mrtr::Inputs>,
    pub(super) cancellation: Option<cancellation::Cancellation>,
}

impl Concerns {
    pub(super) fn for_revision(revision: Revision) -> Self {
        Self {
            handshake: Concern::for_revision(revision),
            lists: Concern::for_revision(revision),
            logging: Concern::for_revision(revision),
            elicitation: Concern::for_revision(revision),
            tasks: Concern::for_revision(revision),
            subscriptions: Concern::for_revision(revision),
            mrtr: Concern::for_revision(revision),
            cancellation: Concern::for_revision(revision),
        }
    }

    /// Calls `f` on each concern held, in order: one call per field, so a
    /// judge pays for the concerns its revision has and builds nothing per
    /// event.
    pub(super) fn each(&mut self, mut f: impl FnMut(&mut dyn Concern)) {
        if let Some(c) = &mut self.handshake {
            f(c);
        }
        if let Some(c) = &mut self.lists {
            f(c);
        }
        if let Some(c) = &mut self.logging {
            f(c);
        }
        if let Some(c) = &mut self.elicitation {
            f(c);
        }
        if let Some(c) = &mut self.tasks {
            f(c);
        }
        if let Some(c) = &mut self.subscriptions {
            f(c);
        }
        if let Some(c) = &mut self.mrtr {
            f(c);
        }
        if let Some(c) = &mut self.cancellation {
            f(c);
        }
    }
}

/// What a concern is handed with each hook: the revision, the requests in
/// flight and the ids finished per side, the capabilities negotiated, and
/// where its findings go.
pub(super) struct Cx<'a> {
    pub(super) revision: Revision,
    /// Whether each direction is one ordered stream (stdio).
    pub(super) ordered: bool,
    /// `[client's, server's]` requests.
    pub(super) sides: &'a mut [Side; 2],
    pub(super) negotiated: &'a mut Negotiated,
    /// For an answer: what the finished id was closed by, kept with it in the
    /// history.
    pub(super) closes: Closes,
    pub(super) out: Out<'a>,
}

impl Cx<'_> {
    /// Whether `rule` applies under the revision judged: a concern's
    /// behaviour that holds only where one of its rules does.
    pub(super) fn applies(&self, rule: RuleId) -> bool {
        rule.info().applies_to(self.revision)
    }

    /// The requests `from` a side in flight.
    pub(super) fn in_flight(&self, from: Direction) -> &KeyMap<Open> {
        &self.sides[slot(from)].in_flight
    }
}

/// Where a concern's findings go: apart from the rest of [`Cx`], so a
/// concern may report while it reads the requests in flight.
pub(super) struct Out<'a> {
    pub(super) revision: Revision,
    pub(super) out: &'a mut Vec<Finding>,
}

impl Out<'_> {
    /// Rule `id` broken, when it applies under the revision judged.
    pub(super) fn flag(&mut self, id: RuleId, message: String, frames: Vec<At>) {
        self.at(id, String::new(), message, frames);
    }

    /// Rule `id` broken at `pointer` in the last frame.
    pub(super) fn at(&mut self, id: RuleId, pointer: String, message: String, frames: Vec<At>) {
        self.out
            .extend(finding(id, self.revision, pointer, message, frames));
    }
}

/// What a concern is handed at the end of the capture.
pub(super) struct End<'a> {
    pub(super) revision: Revision,
    /// Why and where the stream ended, if it did.
    pub(super) ended: Option<(&'static str, At)>,
    pub(super) negotiated: &'a Negotiated,
}

impl End<'_> {
    /// Whether `rule` applies under the revision judged.
    pub(super) fn applies(&self, rule: RuleId) -> bool {
        rule.info().applies_to(self.revision)
    }
}

/// What closed an answered id, kept with it in the history ([`Past`]).
#[derive(Default, Clone, Copy)]
pub(super) struct Closes {
    /// A 2026-07-28 `InputRequiredResult`: a retry takes a new id.
    pub(super) input_required: bool,
    /// A 2025-11-25 `CreateTaskResult`: the request lives on as a task.
    pub(super) task: bool,
}

/// A request with an id, as the core hands it to each concern.
pub(super) struct Request<'a> {
    pub(super) from: Direction,
    pub(super) method: &'a str,
    pub(super) params: Option<&'a Raw<'a>>,
    pub(super) id: &'a Id<'a>,
    pub(super) key: Key,
    pub(super) at: At,
    /// The id is that of a request of the same side still in flight: this
    /// one is not followed (the first keeps the id).
    pub(super) reused: bool,
    /// What the side's earlier request with this id came to, if it finished.
    pub(super) past: Option<Past>,
    /// Its `_meta` `progressToken`, read once.
    pub(super) token: Option<Key>,
}

/// A notification, as the core hands it to each concern.
pub(super) struct Notification<'a> {
    pub(super) from: Direction,
    pub(super) method: &'a str,
    pub(super) params: Option<&'a Raw<'a>>,
    pub(super) at: At,
    /// 2026-07-28: a server notification whose `_meta` names a subscription
    /// (basic/patterns/subscriptions): it is that subscription's, and judged
    /// there only.
    pub(super) subscription: bool,
}

/// An answer and the request it answers.
pub(super) struct Answer<'a> {
    /// Who sent the request.
    pub(super) asker: Direction,
    pub(super) key: Key,
    pub(super) open: &'a Open,
    pub(super) reply: &'a Message<'a>,
    pub(super) at: At,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::CheckedBy;

    /// The session rules the core judges itself: ids, pairing and answers
    /// owed, whatever the revision.
    const CORE: &[RuleId] = &[
        RuleId::JsonrpcResponseRequired,
        RuleId::JsonrpcNotificationNoReply,
        RuleId::McpBaseNotificationNoResponse,
        RuleId::SessionResponseUnknownId,
        RuleId::SessionResponseDuplicate,
        RuleId::SessionIdReusedInflight,
        RuleId::McpBaseIdUniqueInflight,
        RuleId::McpBaseIdUniqueSession,
        // Never a finding: the core pairs each answer of a batch by its id.
        RuleId::SessionBatchAnyOrder,
    ];

    /// A concern's revisions are its rules': a session rule missing from
    /// every concern's list would leave its concern out of a judge for a
    /// revision only that rule applies to, and one listed by two would make
    /// two concerns claim it.
    #[test]
    fn each_session_rule_is_the_core_s_or_one_concern_s() {
        let concerns: [(&str, &[RuleId]); 8] = [
            ("handshake", handshake::Handshake::rules()),
            ("lists", lists::Lists::rules()),
            ("logging", logging::Logging::rules()),
            ("elicitation", elicitation::Elicitations::rules()),
            ("tasks", tasks::Tasks::rules()),
            ("subscriptions", subscriptions::Subscriptions::rules()),
            ("mrtr", mrtr::Inputs::rules()),
            ("cancellation", cancellation::Cancellation::rules()),
        ];
        for rule in RuleId::ALL {
            let owners: Vec<&str> = concerns
                .iter()
                .filter(|(_, rules)| rules.contains(&rule))
                .map(|(name, _)| *name)
                .chain(CORE.contains(&rule).then_some("core"))
                .collect();
            if rule.info().check == CheckedBy::Session {
                assert_eq!(owners.len(), 1, "{rule}: judged by {owners:?}");
            } else {
                assert!(owners.len() <= 1, "{rule}: judged by {owners:?}");
            }
        }
    }

    /// A judge holds the concerns whose rules apply to its revision: the
    /// handshake's `initialize` and tasks only where their rules are.
    #[test]
    fn a_judge_holds_the_concerns_its_revision_has() {
        let plain = Concerns::for_revision(Revision::JsonRpc2);
        assert!(plain.handshake.is_none() && plain.lists.is_none());
        // Cancellation's own choice (see `Cancellation::for_revision`).
        assert!(plain.cancellation.is_some());
        let r4 = Concerns::for_revision(Revision::Mcp2025_11_25);
        assert!(r4.tasks.is_some() && r4.elicitation.is_some() && r4.mrtr.is_none());
        let r5 = Concerns::for_revision(Revision::Mcp2026_07_28);
        assert!(r5.tasks.is_none() && r5.subscriptions.is_some() && r5.mrtr.is_some());
        assert!(r5.logging.is_some() && r5.handshake.is_some());
    }
}
