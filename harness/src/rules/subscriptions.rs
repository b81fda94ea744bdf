//! 2026-07-28 notifications that travel on a `subscriptions/listen` stream, as
//! one frame shows them: the list-changed and resource-updated notifications
//! exist only there (server/tools, server/prompts, server/resources §List
//! Changed Notification: "send a notification to clients that have opened a
//! `subscriptions/listen` stream"), so each MUST carry the subscription id
//! (basic/index §_meta); `notifications/message` is request-scoped and MUST NOT
//! carry it (server/utilities/logging §Per-request log level).

use super::{at, Report, RuleId};
use crate::ir::Raw;
use crate::profile::{Direction, Profile};

pub(super) const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// The notifications a 2026-07-28 server sends only on a subscription stream
/// (schema `SubscriptionFilter`: one flag or list per type).
const SUBSCRIBED: [&str; 4] = [
    "notifications/tools/list_changed",
    "notifications/prompts/list_changed",
    "notifications/resources/list_changed",
    "notifications/resources/updated",
];

/// The subscription id a notification's `_meta` carries, if any.
pub(super) fn subscription_id<'p>(params: Option<&'p Raw<'_>>) -> Option<Raw<'p>> {
    params?
        .get("_meta")?
        .get(SUBSCRIPTION_ID)
        .map(Raw::into_owned)
}

/// Checks a notification frame; only a server's are judged here.
pub(super) fn notification(
    method: &str,
    params: Option<&Raw<'_>>,
    base: &str,
    profile: Profile,
    out: &mut Report,
) {
    if profile.direction != Direction::ServerToClient {
        return;
    }
    let id = subscription_id(params);
    if SUBSCRIBED.contains(&method) && id.is_none() {
        out.flag(
            RuleId::McpR5SubscriptionIdNotifications,
            params.map_or_else(|| base.to_owned(), |_| at(base, "params")),
            format!("`{method}` travels only on a subscription stream but lacks `_meta` `{SUBSCRIPTION_ID}`"),
        );
    }
    if method == "notifications/message" && id.is_some() {
        out.flag(
            RuleId::McpR5LoggingNotOnSubscription,
            at(&at(&at(base, "params"), "_meta"), SUBSCRIPTION_ID),
            "`notifications/message` carries a subscription id: log messages are request-scoped and never travel on a subscription stream".to_owned(),
        );
    }
}
