//! 2026-07-28 subscriptions: each `subscriptions/listen` in flight, its
//! acknowledgment and the notifications its filter asked for
//! (basic/patterns/subscriptions §Acknowledgment, §Opening a Stream), and how
//! it ends: torn down with a signal (basic/patterns/cancellation, §Graceful
//! Closure) or left open when the stream closed.
//!
//! A listen's acknowledgment and teardown are marked on the request in flight
//! ([`Open`]): they live as long as it, and lists reads the acknowledgment
//! too (a list change is owed to a subscription that asked for it).

use super::cancellation::cancelled_id;
use super::{meta_member, Answer, At, Concern, Cx, Direction, End, Ending, Key, Message};
use super::{Notification, Open, Raw, RuleId, Unobserved};

const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// Whether a notification `from` a side belongs to a subscription: a server
/// notification whose `_meta` names one.
pub(super) fn on_subscription(from: Direction, params: Option<&Raw<'_>>) -> bool {
    from == Direction::ServerToClient && meta_member(params, SUBSCRIPTION_ID).is_some()
}

/// What the subscriptions showed.
#[derive(Default)]
pub(super) struct Subscriptions {
    /// Acknowledged subscriptions open when the stream closed, with no
    /// teardown signal: (the listen, the close). Bounded by what was in
    /// flight.
    silent_ends: Vec<(At, At)>,
}

impl Concern for Subscriptions {
    fn rules() -> &'static [RuleId] {
        &[
            RuleId::McpR5SubscriptionsRequestedOnly,
            RuleId::McpR5SubscriptionAcknowledgedFirst,
            RuleId::McpR5SubscriptionTeardownSignalled,
        ]
    }

    /// basic/patterns/cancellation: the server's `notifications/cancelled`
    /// for a `subscriptions/listen` in flight is its teardown signal; any
    /// other notification naming a subscription is the subscription's.
    fn notification(&mut self, cx: &mut Cx<'_>, n: &Notification<'_>) {
        if n.method == "notifications/cancelled" {
            if n.from == Direction::ServerToClient {
                let id = n.params.and_then(|p| p.get("requestId"));
                if let Some(id) = id.as_ref().and_then(cancelled_id) {
                    let key = Key::of(&id);
                    if let Some(o) = cx.sides[0].in_flight.get_mut(&key) {
                        if o.listen() {
                            o.torn_down.get_or_insert(n.at);
                        }
                    }
                }
            }
            return;
        }
        if n.subscription {
            subscription(cx, n);
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
    fn answer(&mut self, cx: &mut Cx<'_>, a: &Answer<'_>) {
        let open = a.open;
        if a.asker != Direction::ClientToServer {
            return;
        }
        let Some(acknowledged) = open.acknowledged else {
            return;
        };
        if !open.listen() || open.cancelled.is_some() || open.torn_down.is_some() {
            return;
        }
        if let Message::Error(e) = a.reply {
            cx.out.flag(
                RuleId::McpR5SubscriptionTeardownSignalled,
                format!(
                    "the server ended the subscription acknowledged at event {} with error {}, without `notifications/cancelled` for it (basic/patterns/cancellation, MUST) and without a successful `subscriptions/listen` result (basic/patterns/subscriptions §Graceful Closure, SHOULD)",
                    acknowledged.saturating_add(1),
                    e.error.code
                ),
                vec![open.at, a.at],
            );
        }
    }

    /// A request given up at `at` when the stream ended: an acknowledged
    /// subscription neither torn down nor cancelled ended with no signal.
    fn unanswered(&mut self, _cx: &mut Cx<'_>, o: &Open, at: At) {
        if o.listen() && o.acknowledged.is_some() && o.torn_down.is_none() && o.cancelled.is_none()
        {
            self.silent_ends.push((o.at, at));
        }
    }

    /// The end of the capture: each subscription that ended silently is not
    /// observed, since the wire does not say whether it was torn down.
    fn finish(&mut self, _cx: &End<'_>, end: &mut Ending) {
        for &(listen, closed) in &self.silent_ends {
            end.not_observed.push(Unobserved {
                rule: RuleId::McpR5SubscriptionTeardownSignalled,
                frames: vec![listen, closed],
                why: format!("the stream closed with the subscription of event {} open and no teardown signal: a transport close (allowed) or a teardown without one, which the wire does not tell apart", listen.number()),
            });
        }
    }
}

/// 2026-07-28 basic/patterns/subscriptions: a server notification carrying
/// the id of a `subscriptions/listen` in flight belongs to that
/// subscription. Its acknowledgment comes first (§Acknowledgment), and
/// nothing the client did not ask for follows (§Opening a Stream).
/// A subscription id naming no listen in flight is not judged here: the
/// subscription may have begun before the capture.
fn subscription(cx: &mut Cx<'_>, n: &Notification<'_>) {
    let (method, params, at) = (n.method, n.params, n.at);
    let Some(id) = meta_member(params, SUBSCRIPTION_ID) else {
        return;
    };
    let key = Key::of_token(&id);
    let Some(open) = cx.sides[0].in_flight.get_mut(&key) else {
        return;
    };
    if !open.listen() {
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
        cx.out.flag(
            RuleId::McpR5SubscriptionAcknowledgedFirst,
            format!("the server sent `{method}` on subscription {id} before acknowledging it"),
            vec![listen_at, at],
        );
    }
    if let Some(asked) = requested(method, params, filter.as_ref()) {
        if !asked {
            cx.out.flag(
                RuleId::McpR5SubscriptionsRequestedOnly,
                format!("the server sent `{method}` on subscription {id}, whose filter did not ask for it"),
                vec![listen_at, at],
            );
        }
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

/// 2026-07-28: whether a `subscriptions/listen` whose filter asks for
/// `filter` (a `SubscriptionFilter` member) was acknowledged by `since` and
/// is still open, so the server owed it the notification for the whole
/// interval.
pub(super) fn subscribed(cx: &Cx<'_>, filter: &str, since: At) -> bool {
    cx.in_flight(Direction::ClientToServer)
        .values()
        .filter(|o| o.listen() && o.acknowledged.is_some_and(|a| a <= since.index))
        .any(|o| {
            o.request
                .params()
                .and_then(|p| p.get("notifications").map(Raw::into_owned))
                .and_then(|f| f.get(filter).map(Raw::into_owned))
                .is_some_and(|v| v.as_str() == "true")
        })
}
