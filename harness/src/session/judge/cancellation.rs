//! Cancellation and progress: basic/utilities/cancellation (who may cancel
//! what, a cancelled request's answer, tasks cancelled with `tasks/cancel`),
//! 2026-07-28's basic/patterns/cancellation (a server cancels only a
//! client's `subscriptions/listen`, its teardown signal) and
//! basic/transports/stdio §Cancellation (nothing further for a request once the
//! cancellation was read), and basic/utilities/progress (tokens unique and
//! active, values increasing, a task's token spent when the task ends).
//!
//! Where a request was cancelled, and where the cancellation was read, are
//! marked on the request in flight ([`Open`]): the core stops owing an
//! answer to a cancelled request, and subscriptions reads it too. Progress
//! tokens are the core's ([`super::Side::tokens`]): tasks keeps one alive
//! past its request's answer.

use super::{
    other, slot, Answer, At, Concern, Cx, Direction, End, Ending, Key, Notification, Past, Raw,
    Request, RuleId, Unobserved,
};
use crate::ir::{Id, JsonStr};
use crate::{Revision, ValueKind};
use std::borrow::Cow;

/// What cancellation and progress keep beyond the requests in flight.
#[derive(Default)]
pub(super) struct Cancellation {
    /// Under an unordered judge: the first cancelled request whose later
    /// messages were therefore not judged.
    order_unjudged: Option<At>,
}

/// The id a `notifications/cancelled`'s `requestId` names; `None` for a value
/// of any other type, which names no request (the frame rules judge its
/// shape).
pub(super) fn cancelled_id<'r>(request_id: &'r Raw<'_>) -> Option<Id<'r>> {
    match request_id.kind() {
        ValueKind::String => Some(Id::String(JsonStr::trusted(request_id.as_str()))),
        ValueKind::Number => Some(Id::Number(Cow::Borrowed(request_id.as_str()))),
        _ => None,
    }
}

impl Concern for Cancellation {
    fn rules() -> &'static [RuleId] {
        &[
            RuleId::McpCancelNotInitialize,
            RuleId::McpCancelSameDirection,
            RuleId::McpCancelClientOnly,
            RuleId::McpCancelReceiverShould,
            RuleId::McpCancelTaskUsesTasksCancel,
            RuleId::McpCancelRequestIdRequired,
            RuleId::McpR5StdioCancelNoFurther,
            RuleId::McpProgressTokenUnique,
            RuleId::McpProgressIncrease,
            RuleId::McpProgressActiveTokenOnly,
            RuleId::McpProgressTaskTokenLifetime,
        ]
    }

    /// Every revision, not only its rules' (MCP's): a request its sender
    /// cancelled is owed no answer (`jsonrpc.response.required`, the core's),
    /// and the judge has always read `notifications/cancelled` so, in a
    /// plain JSON-RPC 2.0 conversation too. Its own rules stay MCP's: the
    /// findings they would make there are not reported.
    fn for_revision(_revision: Revision) -> Option<Self> {
        Some(Self::default())
    }

    /// A request: its progress token, if it carries one, is unique among the
    /// side's requests in flight (basic/utilities/progress §Behavior
    /// Requirements); the core puts it in use.
    fn request(&mut self, cx: &mut Cx<'_>, r: &Request<'_>) {
        if r.reused {
            return;
        }
        let Some(token) = r.token else {
            return;
        };
        let side = &cx.sides[slot(r.from)];
        if let Some(owner) = side
            .tokens
            .get(&token)
            .and_then(|t| side.in_flight.get(&t.request))
        {
            let frames = vec![owner.at, r.at];
            cx.out.flag(
                RuleId::McpProgressTokenUnique,
                format!(
                    "the progress token of `{}` is already used by the request at event {}",
                    r.method,
                    owner.at.number()
                ),
                frames,
            );
        }
    }

    fn notification(&mut self, cx: &mut Cx<'_>, n: &Notification<'_>) {
        match n.method {
            "notifications/cancelled" => cancelled(cx, n.from, n.params, n.at),
            _ if n.subscription => {}
            "notifications/progress" => progress(cx, n.from, n.params, n.at),
            _ => {}
        }
    }

    /// An answer to `asker`'s request, cancelled or not as it was when
    /// answered: the server read the client's earlier cancellations (stdio),
    /// answered after reading this one, or answered a cancelled request at
    /// all (§Behavior Requirements).
    fn answer(&mut self, cx: &mut Cx<'_>, a: &Answer<'_>) {
        let (asked, cancelled, cancel_read) = (a.open.at, a.open.cancelled, a.open.cancel_read);
        let at = a.at;
        if a.asker == Direction::ClientToServer {
            self.cancellations_read(cx, asked.index, at);
            if let (Some(cancelled), Some(read)) = (cancelled, cancel_read) {
                cx.out.flag(
                    RuleId::McpR5StdioCancelNoFurther,
                    format!("the server answered a request cancelled at event {}, after answering at event {} a request sent after the cancellation", cancelled.number(), read.number()),
                    vec![cancelled, read, at],
                );
            }
        }
        if let Some(cancelled) = cancelled {
            cx.out.flag(
                RuleId::McpCancelReceiverShould,
                format!(
                    "the {} answered a request cancelled at event {}",
                    other(a.asker).sender(),
                    cancelled.number()
                ),
                vec![cancelled, at],
            );
        }
    }

    /// The end of the capture: under an unordered judge, the first cancelled
    /// request whose later messages were not judged.
    fn finish(&mut self, _cx: &End<'_>, end: &mut Ending) {
        if let Some(cancelled) = self.order_unjudged {
            end.not_observed.push(Unobserved {
                rule: RuleId::McpR5StdioCancelNoFurther,
                frames: vec![cancelled],
                why: "the transport is not one ordered stream each way: a later request answered does not show the server had read the cancellation".into(),
            });
        }
    }
}

impl Cancellation {
    /// 2026-07-28 basic/transports/stdio §Cancellation: answering the client's
    /// request sent at event `asked` shows the server had read every
    /// cancellation the client sent before it. Only 2026-07-28 keeps this (its
    /// rule is a MUST NOT there).
    fn cancellations_read(&mut self, cx: &mut Cx<'_>, asked: u64, at: At) {
        if !cx.applies(RuleId::McpR5StdioCancelNoFurther) {
            return;
        }
        let ordered = cx.ordered;
        for open in cx.sides[slot(Direction::ClientToServer)]
            .in_flight
            .values_mut()
        {
            let before = open.cancelled.filter(|c| c.index < asked);
            match before {
                Some(_) if open.cancel_read.is_some() => {}
                Some(_) if ordered => open.cancel_read = Some(at),
                Some(cancelled) => {
                    self.order_unjudged.get_or_insert(cancelled);
                }
                None => {}
            }
        }
    }
}

/// basic/utilities/cancellation §Behavior Requirements.
fn cancelled(cx: &mut Cx<'_>, from: Direction, params: Option<&Raw<'_>>, at: At) {
    let Some(request_id) = params.and_then(|p| p.get("requestId")) else {
        // 2025-11-25 made `requestId` optional only for tasks, which
        // this notification must not cancel: without it, it cancels
        // nothing it may (the rule is that revision's).
        cx.out.flag(
            RuleId::McpCancelRequestIdRequired,
            format!(
                "the {} sent `notifications/cancelled` without `requestId`",
                from.sender()
            ),
            vec![at],
        );
        return;
    };
    let Some(id) = cancelled_id(&request_id) else {
        return;
    };
    let id = &id;
    let key = Key::of(id);
    if cx.applies(RuleId::McpCancelClientOnly) && from == Direction::ServerToClient {
        // 2026-07-28 basic/patterns/cancellation: a server cancels only a
        // client's `subscriptions/listen` (its teardown, which subscriptions
        // marks).
        let listen = cx
            .in_flight(Direction::ClientToServer)
            .get(&key)
            .is_some_and(super::Open::listen);
        if !listen {
            cx.out.flag(
                RuleId::McpCancelClientOnly,
                format!("the server cancelled id {id}, which is no `subscriptions/listen` request in flight"),
                vec![at],
            );
        }
        return;
    }
    if from == Direction::ClientToServer {
        if let Some((init, init_at)) = cx.negotiated.initialize {
            if init == key {
                cx.out.flag(
                    RuleId::McpCancelNotInitialize,
                    "the client cancelled its `initialize` request".into(),
                    vec![init_at, at],
                );
                return;
            }
        }
    }
    cancelled_task(cx, from, key, id, at);
    let side = &mut cx.sides[slot(from)];
    if let Some(o) = side.in_flight.get_mut(&key) {
        o.cancelled.get_or_insert(at);
    } else if side.history.get(key).is_none() {
        cx.out.flag(
            RuleId::McpCancelSameDirection,
            format!(
                "the {} cancelled id {id}, which it never sent a request with",
                from.sender()
            ),
            vec![at],
        );
    }
    // An id already answered is the race §Timing Considerations allows.
}

/// basic/utilities/cancellation §Behavior Requirements 3: a task-augmented
/// request, in flight or answered with a `CreateTaskResult`, is cancelled
/// with `tasks/cancel`, not `notifications/cancelled` (2025-11-25, the
/// revision with tasks, where its rule applies).
fn cancelled_task(cx: &mut Cx<'_>, from: Direction, key: Key, id: &Id<'_>, at: At) {
    if !cx.applies(RuleId::McpCancelTaskUsesTasksCancel) {
        return;
    }
    let side = &cx.sides[slot(from)];
    let in_flight = side
        .in_flight
        .get(&key)
        .filter(|o| o.request.params().is_some_and(|p| p.get("task").is_some()))
        .map(|o| o.at);
    let created = matches!(
        side.history.get(key),
        Some(Past::Answered { task: true, .. })
    );
    if in_flight.is_some() || created {
        let mut frames: Vec<At> = in_flight.into_iter().collect();
        frames.push(at);
        cx.out.flag(
            RuleId::McpCancelTaskUsesTasksCancel,
            format!(
                "the {} sent `notifications/cancelled` for id {id}, a task-augmented request; tasks are cancelled with `tasks/cancel`",
                from.sender()
            ),
            frames,
        );
    }
}

/// basic/utilities/progress §Progress Flow and §Behavior Requirements: the
/// token is one the other side put on a request still in flight, and each
/// value is above the last (ambiguity A10: strictly).
fn progress(cx: &mut Cx<'_>, from: Direction, params: Option<&Raw<'_>>, at: At) {
    let Some(token) = params.and_then(|p| p.get("progressToken")) else {
        return;
    };
    let key = Key::of_token(&token);
    let value = params
        .and_then(|p| p.get("progress"))
        .and_then(|v| v.as_str().parse::<f64>().ok());
    let asker = &mut cx.sides[slot(other(from))];
    let Some(entry) = asker.tokens.get_mut(&key) else {
        cx.out.flag(
            RuleId::McpProgressActiveTokenOnly,
            format!(
                "the {} sent progress for token {token}, which no request in flight carries",
                from.sender()
            ),
            vec![at],
        );
        return;
    };
    if let Some((task, Some(ended))) = &entry.task {
        let message = format!(
            "the {} sent progress for token {token} after its task `{task}` was terminal at event {}",
            from.sender(),
            ended.number()
        );
        let ended = *ended;
        cx.out.flag(
            RuleId::McpProgressTaskTokenLifetime,
            message,
            vec![ended, at],
        );
        return;
    }
    if from == Direction::ServerToClient {
        // A cancellation read is marked only where its rule applies
        // (2026-07-28, `cancellations_read`).
        if let Some(open) = asker.in_flight.get(&entry.request) {
            if let (Some(cancelled), Some(read)) = (open.cancelled, open.cancel_read) {
                cx.out.flag(
                    RuleId::McpR5StdioCancelNoFurther,
                    format!("the server sent progress for a request cancelled at event {}, after answering at event {} a request sent after the cancellation", cancelled.number(), read.number()),
                    vec![cancelled, read, at],
                );
            }
        }
    }
    let Some(value) = value else { return };
    match entry.last {
        Some((last, last_at)) if value <= last => {
            cx.out.flag(
                RuleId::McpProgressIncrease,
                format!("progress for token {token} went from {last} to {value}"),
                vec![last_at, at],
            );
        }
        _ => entry.last = Some((value, at)),
    }
}
