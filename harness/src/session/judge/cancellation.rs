//! Cancellation and progress: basic/utilities/cancellation (who may cancel
//! what, a cancelled request's answer, tasks cancelled with `tasks/cancel`),
//! 2026-07-28's basic/patterns/cancellation (a server cancels only a
//! client's `subscriptions/listen`, its teardown signal) and
//! basic/transports/stdio §Cancellation (nothing further for a request once the
//! cancellation was read), and basic/utilities/progress (tokens unique and
//! active, values increasing, a task's token spent when the task ends).

use super::{
    meta_member, other, slot, At, Direction, Ending, Finding, Judge, Key, Past, Raw, RuleId, Token,
    Unobserved,
};
use crate::ir::{Id, JsonStr};
use crate::{Revision, ValueKind};
use std::borrow::Cow;

impl Judge {
    /// The end of the capture: under an unordered judge, the first cancelled
    /// request whose later messages were not judged.
    pub(super) fn order_end(&self, end: &mut Ending) {
        if let Some(cancelled) = self.order_unjudged {
            end.not_observed.push(Unobserved {
                rule: RuleId::McpR5StdioCancelNoFurther,
                frames: vec![cancelled],
                why: "the transport is not one ordered stream each way: a later request answered does not show the server had read the cancellation".into(),
            });
        }
    }

    /// A request `from` a side with id `key`: its progress token, if it
    /// carries one, is unique among the side's requests in flight
    /// (basic/utilities/progress §Behavior Requirements) and in use from here
    /// on. Returns the token.
    pub(super) fn progress_token_sent(
        &mut self,
        from: Direction,
        method: &str,
        key: Key,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) -> Option<Key> {
        let token = meta_member(params, "progressToken").map(|t| Key::of_token(&t));
        if let Some(token) = token {
            let side = &self.sides[slot(from)];
            if let Some(owner) = side
                .tokens
                .get(&token)
                .and_then(|t| side.in_flight.get(&t.request))
            {
                let frames = vec![owner.at, at];
                self.flag(
                    RuleId::McpProgressTokenUnique,
                    format!("the progress token of `{method}` is already used by the request at event {}", owner.at.number()),
                    frames,
                    out,
                );
            }
        }
        let side = &mut self.sides[slot(from)];
        if let Some(token) = token {
            side.tokens.entry(token).or_insert(Token {
                request: key,
                last: None,
                task: None,
            });
        }
        token
    }

    /// An answer to `asker`'s request sent at `asked`, `cancelled` (and the
    /// cancellation `cancel_read`) as it was when answered: the server read
    /// the client's earlier cancellations (stdio), answered after reading
    /// this one, or answered a cancelled request at all (§Behavior
    /// Requirements).
    pub(super) fn cancel_answered(
        &mut self,
        asker: Direction,
        asked: At,
        cancelled: Option<At>,
        cancel_read: Option<At>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        if asker == Direction::ClientToServer {
            self.cancellations_read(asked.index, at);
            if let (Some(cancelled), Some(read)) = (cancelled, cancel_read) {
                self.flag(
                    RuleId::McpR5StdioCancelNoFurther,
                    format!("the server answered a request cancelled at event {}, after answering at event {} a request sent after the cancellation", cancelled.number(), read.number()),
                    vec![cancelled, read, at],
                    out,
                );
            }
        }
        if let Some(cancelled) = cancelled {
            self.flag(
                RuleId::McpCancelReceiverShould,
                format!(
                    "the {} answered a request cancelled at event {}",
                    other(asker).sender(),
                    cancelled.number()
                ),
                vec![cancelled, at],
                out,
            );
        }
    }

    /// basic/utilities/cancellation §Behavior Requirements.
    pub(super) fn cancelled(
        &mut self,
        from: Direction,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let Some(request_id) = params.and_then(|p| p.get("requestId")) else {
            // 2025-11-25 made `requestId` optional only for tasks, which
            // this notification must not cancel: without it, it cancels
            // nothing it may.
            if self.revision == Revision::Mcp2025_11_25 {
                self.flag(
                    RuleId::McpCancelRequestIdRequired,
                    format!(
                        "the {} sent `notifications/cancelled` without `requestId`",
                        from.sender()
                    ),
                    vec![at],
                    out,
                );
            }
            return;
        };
        let id = match request_id.kind() {
            ValueKind::String => Id::String(JsonStr::trusted(request_id.as_str())),
            ValueKind::Number => Id::Number(Cow::Borrowed(request_id.as_str())),
            // Any other type names no request; the frame rules judge its shape.
            _ => return,
        };
        let id = &id;
        let key = Key::of(id);
        if self.revision == Revision::Mcp2026_07_28 && from == Direction::ServerToClient {
            // basic/patterns/cancellation: a server cancels only a client's
            // `subscriptions/listen`.
            match self.sides[0].in_flight.get_mut(&key) {
                Some(o) if o.listen => {
                    o.torn_down.get_or_insert(at);
                }
                _ => self.flag(
                    RuleId::McpCancelClientOnly,
                    format!("the server cancelled id {id}, which is no `subscriptions/listen` request in flight"),
                    vec![at],
                    out,
                ),
            }
            return;
        }
        if from == Direction::ClientToServer {
            if let Some((init, init_at)) = self.handshake.request {
                if init == key && self.lifecycle() {
                    self.flag(
                        RuleId::McpCancelNotInitialize,
                        "the client cancelled its `initialize` request".into(),
                        vec![init_at, at],
                        out,
                    );
                    return;
                }
            }
        }
        if self.tasks_apply() {
            self.cancelled_task(from, key, id, at, out);
        }
        let side = &mut self.sides[slot(from)];
        if let Some(o) = side.in_flight.get_mut(&key) {
            o.cancelled.get_or_insert(at);
        } else if side.history.get(key).is_none() {
            self.flag(
                RuleId::McpCancelSameDirection,
                format!(
                    "the {} cancelled id {id}, which it never sent a request with",
                    from.sender()
                ),
                vec![at],
                out,
            );
        }
        // An id already answered is the race §Timing Considerations allows.
    }

    /// basic/utilities/cancellation §Behavior Requirements 3: a task-augmented
    /// request, in flight or answered with a `CreateTaskResult`, is cancelled
    /// with `tasks/cancel`, not `notifications/cancelled`.
    pub(super) fn cancelled_task(
        &self,
        from: Direction,
        key: Key,
        id: &Id<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let side = &self.sides[slot(from)];
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
            self.flag(
                RuleId::McpCancelTaskUsesTasksCancel,
                format!(
                    "the {} sent `notifications/cancelled` for id {id}, a task-augmented request; tasks are cancelled with `tasks/cancel`",
                    from.sender()
                ),
                frames,
                out,
            );
        }
    }

    /// basic/utilities/progress §Progress Flow and §Behavior Requirements: the
    /// token is one the other side put on a request still in flight, and each
    /// value is above the last (ambiguity A10: strictly).
    pub(super) fn progress(
        &mut self,
        from: Direction,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let Some(token) = params.and_then(|p| p.get("progressToken")) else {
            return;
        };
        let key = Key::of_token(&token);
        let value = params
            .and_then(|p| p.get("progress"))
            .and_then(|v| v.as_str().parse::<f64>().ok());
        let Some(entry) = self.sides[slot(other(from))].tokens.get_mut(&key) else {
            self.flag(
                RuleId::McpProgressActiveTokenOnly,
                format!(
                    "the {} sent progress for token {token}, which no request in flight carries",
                    from.sender()
                ),
                vec![at],
                out,
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
            self.flag(
                RuleId::McpProgressTaskTokenLifetime,
                message,
                vec![ended, at],
                out,
            );
            return;
        }
        if from == Direction::ServerToClient && self.revision == Revision::Mcp2026_07_28 {
            let request = entry.request;
            if let Some(open) = self.sides[slot(other(from))].in_flight.get(&request) {
                if let (Some(cancelled), Some(read)) = (open.cancelled, open.cancel_read) {
                    self.flag(
                        RuleId::McpR5StdioCancelNoFurther,
                        format!("the server sent progress for a request cancelled at event {}, after answering at event {} a request sent after the cancellation", cancelled.number(), read.number()),
                        vec![cancelled, read, at],
                        out,
                    );
                }
            }
        }
        let Some(entry) = self.sides[slot(other(from))].tokens.get_mut(&key) else {
            return;
        };
        let Some(value) = value else { return };
        match entry.last {
            Some((last, last_at)) if value <= last => {
                self.flag(
                    RuleId::McpProgressIncrease,
                    format!("progress for token {token} went from {last} to {value}"),
                    vec![last_at, at],
                    out,
                );
            }
            _ => entry.last = Some((value, at)),
        }
    }

    /// 2026-07-28 basic/transports/stdio §Cancellation: answering the client's
    /// request sent at event `asked` shows the server had read every
    /// cancellation the client sent before it. Only 2026-07-28 keeps this (its rule is a MUST NOT there).
    pub(super) fn cancellations_read(&mut self, asked: u64, at: At) {
        if self.revision != Revision::Mcp2026_07_28 {
            return;
        }
        for open in self.sides[slot(Direction::ClientToServer)]
            .in_flight
            .values_mut()
        {
            let before = open.cancelled.filter(|c| c.index < asked);
            match before {
                Some(_) if open.cancel_read.is_some() => {}
                Some(_) if self.ordered => open.cancel_read = Some(at),
                Some(cancelled) => {
                    self.order_unjudged.get_or_insert(cancelled);
                }
                None => {}
            }
        }
    }
}
