//! 2026-07-28 subscriptions: each `subscriptions/listen` in flight, its
//! acknowledgment and the notifications its filter asked for
//! (basic/patterns/subscriptions §Acknowledgment, §Opening a Stream), and how
//! it ends: torn down with a signal (basic/patterns/cancellation, §Graceful
//! Closure) or left open when the stream closed.

use super::{
    meta_member, slot, At, Direction, Ending, Finding, Judge, Key, Message, Open, Raw, RuleId,
    Unobserved,
};
use crate::session::lists::ListKind;
use crate::Revision;

const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

impl Judge {
    /// Whether a notification `from` a side belongs to a subscription: a
    /// 2026-07-28 server notification whose `_meta` names one.
    pub(super) fn on_subscription(&self, from: Direction, params: Option<&Raw<'_>>) -> bool {
        self.revision == Revision::Mcp2026_07_28
            && from == Direction::ServerToClient
            && meta_member(params, SUBSCRIPTION_ID).is_some()
    }

    /// A request `o` given up at `at` when the stream ended: an acknowledged
    /// subscription neither torn down nor cancelled ended with no signal.
    pub(super) fn listen_given_up(&mut self, o: &Open, at: At) {
        if o.listen && o.acknowledged.is_some() && o.torn_down.is_none() && o.cancelled.is_none() {
            self.silent_ends.push((o.at, at));
        }
    }

    /// The end of the capture: each subscription that ended silently is not
    /// observed, since the wire does not say whether it was torn down.
    pub(super) fn silent_ends_end(&self, end: &mut Ending) {
        for &(listen, closed) in &self.silent_ends {
            end.not_observed.push(Unobserved {
                rule: RuleId::McpR5SubscriptionTeardownSignalled,
                frames: vec![listen, closed],
                why: format!("the stream closed with the subscription of event {} open and no teardown signal: a transport close (allowed) or a teardown without one, which the wire does not tell apart", listen.number()),
            });
        }
    }

    /// 2026-07-28 basic/patterns/subscriptions: a server notification carrying
    /// the id of a `subscriptions/listen` in flight belongs to that
    /// subscription. Its acknowledgment comes first (§Acknowledgment), and
    /// nothing the client did not ask for follows (§Opening a Stream).
    /// A subscription id naming no listen in flight is not judged here: the
    /// subscription may have begun before the capture.
    pub(super) fn subscription(
        &mut self,
        method: &str,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let Some(id) = meta_member(params, SUBSCRIPTION_ID) else {
            return;
        };
        let key = Key::of_token(&id);
        let Some(open) = self.sides[0].in_flight.get_mut(&key) else {
            return;
        };
        if !open.listen {
            return;
        }
        if method == "notifications/subscriptions/acknowledged" {
            open.acknowledged = Some(at.index);
            return;
        }
        let (listen_at, acknowledged) = (open.at, open.acknowledged);
        let filter = open
            .request
            .params()
            .and_then(|p| p.get("notifications").map(Raw::into_owned));
        if acknowledged.is_none() {
            self.flag(
                RuleId::McpR5SubscriptionAcknowledgedFirst,
                format!("the server sent `{method}` on subscription {id} before acknowledging it"),
                vec![listen_at, at],
                out,
            );
        }
        if let Some(asked) = requested(method, params, filter.as_ref()) {
            if !asked {
                self.flag(
                    RuleId::McpR5SubscriptionsRequestedOnly,
                    format!("the server sent `{method}` on subscription {id}, whose filter did not ask for it"),
                    vec![listen_at, at],
                    out,
                );
            }
        }
    }

    /// 2026-07-28: the server answering an acknowledged `subscriptions/listen`
    /// the client did not cancel ends that subscription: it tore it down.
    /// basic/patterns/cancellation says it MUST then have sent
    /// `notifications/cancelled` for the listen id; basic/patterns/subscriptions
    /// §Graceful Closure that it SHOULD answer with a successful result. Either
    /// signal is accepted, and both (cancellation, then the result: the result
    /// is the one answer the request is owed, and the client SHOULD ignore it,
    /// §Behavior Requirements 5); an error with no cancellation before it is
    /// neither. An answer before the acknowledgment refuses the subscription
    /// rather than ending it.
    pub(super) fn teardown(
        &self,
        open: &Open,
        reply: &Message<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let Some(acknowledged) = open.acknowledged else {
            return;
        };
        if !open.listen || open.cancelled.is_some() || open.torn_down.is_some() {
            return;
        }
        if let Message::Error(e) = reply {
            self.flag(
                RuleId::McpR5SubscriptionTeardownSignalled,
                format!(
                    "the server ended the subscription acknowledged at event {} with error {}, without `notifications/cancelled` for it (basic/patterns/cancellation, MUST) and without a successful `subscriptions/listen` result (basic/patterns/subscriptions §Graceful Closure, SHOULD)",
                    acknowledged.saturating_add(1),
                    e.error.code
                ),
                vec![open.at, at],
                out,
            );
        }
    }

    /// 2026-07-28: whether a `subscriptions/listen` asking for `kind`'s changes
    /// was acknowledged by `since` and is still open, so the server owed it
    /// the notification for the whole interval.
    pub(super) fn subscribed(&self, kind: ListKind, since: At) -> bool {
        self.sides[slot(Direction::ClientToServer)]
            .in_flight
            .values()
            .filter(|o| o.listen && o.acknowledged.is_some_and(|a| a <= since.index))
            .any(|o| {
                o.request
                    .params()
                    .and_then(|p| p.get("notifications").map(Raw::into_owned))
                    .and_then(|f| f.get(kind.filter()).map(Raw::into_owned))
                    .is_some_and(|v| v.as_str() == "true")
            })
    }
}

/// Whether a subscription's filter (the `subscriptions/listen` request's
/// `notifications`, schema `SubscriptionFilter`) asked for `method`; `None`
/// for a notification the filter does not govern.
fn requested(method: &str, params: Option<&Raw<'_>>, filter: Option<&Raw<'_>>) -> Option<bool> {
    let flag = |name: &str| {
        filter
            .and_then(|f| f.get(name))
            .is_some_and(|v| v.as_str() == "true")
    };
    Some(match method {
        "notifications/tools/list_changed" => flag("toolsListChanged"),
        "notifications/prompts/list_changed" => flag("promptsListChanged"),
        "notifications/resources/list_changed" => flag("resourcesListChanged"),
        "notifications/resources/updated" => {
            let uri = params.and_then(|p| p.get("uri").map(Raw::into_owned));
            let uri = uri.as_ref().and_then(Raw::as_string);
            filter
                .and_then(|f| f.get("resourceSubscriptions"))
                .is_some_and(|list| {
                    list.elements()
                        .any(|u| u.as_string().is_some_and(|u| Some(&u) == uri.as_ref()))
                })
        }
        _ => return None,
    })
}
