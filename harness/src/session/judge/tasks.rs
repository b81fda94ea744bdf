//! 2025-11-25 tasks, judged against the statuses [`crate::session::tasks`]
//! keeps: a task-augmented request and its `CreateTaskResult` against the
//! receiver's `tasks.requests` capability, a task's status lifecycle and id
//! (basic/utilities/tasks §Task Status Lifecycle, §Task ID Requirements),
//! polling, listing, cancelling and results after a task ended, a tool's task
//! support (§Tool-Level Negotiation), and the progress token a task keeps
//! (basic/utilities/progress §Behavior Requirements 3).

use super::{
    other, slot, string_member, At, Direction, Finding, Judge, Key, Message, Open, Raw, RuleId,
    Token,
};
use crate::session::lists::TaskSupport;
use crate::session::tasks::{terminal, Breach};
use crate::{Revision, ValueKind};

/// Tokens kept for tasks after their requests were answered, per side.
const TASK_TOKENS_CAP: usize = 4096;

impl Judge {
    /// Whether the revision judged has tasks (2025-11-25).
    pub(super) fn tasks_apply(&self) -> bool {
        self.revision == Revision::Mcp2025_11_25
    }

    /// A request `from` a side: a task-augmented one against the receiver's
    /// capability (basic/utilities/tasks §Capability Negotiation), a
    /// `tasks/get` against the `pollInterval` of the last answer (§Getting
    /// Tasks).
    pub(super) fn task_request(
        &mut self,
        from: Direction,
        method: &str,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        if !self.tasks_apply() {
            return;
        }
        if params.is_some_and(|p| p.get("task").is_some()) {
            self.task_request_declared(from, method, at, out);
        }
        if method == "tasks/get" {
            if let Some(task) = params.and_then(|p| string_member(p, "taskId")) {
                if let Some((answered, interval)) = self.tasks.polled(other(from), &task, at) {
                    self.flag(
                        RuleId::McpTasksPollInterval,
                        format!(
                            "the {} polled task `{task}` again sooner than the {interval} s `pollInterval` of the answer at event {}",
                            from.sender(),
                            answered.number()
                        ),
                        vec![answered, at],
                        out,
                    );
                }
            }
        }
    }

    /// `notifications/tasks/status` `from` a side: a sighting of its task.
    pub(super) fn task_status(
        &mut self,
        from: Direction,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        if !self.tasks_apply() {
            return;
        }
        if let Some(task) = params {
            self.task_sighting(from, task, false, at, out);
        }
    }

    /// Whether `reply` is a `CreateTaskResult` for the task-augmented
    /// request `open`.
    pub(super) fn creates_task(&self, open: &Open, reply: &Message<'_>) -> bool {
        self.tasks_apply()
            && open
                .request
                .params()
                .is_some_and(|p| p.get("task").is_some())
            && matches!(reply, Message::Success(s) if s.result.get("task").is_some())
    }

    /// The answer to `asker`'s request `open` (id `key`), from the receiver:
    /// a task created, shown, listed, cancelled or its result given.
    pub(super) fn task_answer(
        &mut self,
        asker: Direction,
        key: Key,
        open: &Open,
        reply: &Message<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        if !self.tasks_apply() {
            return;
        }
        if let Message::Success(s) = reply {
            let params = open.request.params();
            let method = open.request.method().unwrap_or_default();
            let receiver = other(asker);
            if params.as_ref().is_some_and(|p| p.get("task").is_some()) {
                if let Some(task) = s.result.get("task") {
                    self.task_created(asker, key, open, &method, &task, at, out);
                    self.task_sighting(receiver, &task, true, at, out);
                    if let Some((id, until)) = self.pending_alive.take() {
                        self.tasks.alive_until(receiver, &id, until);
                    }
                }
            } else if method == "tasks/get" || method == "tasks/cancel" {
                if method == "tasks/cancel" {
                    self.task_request_after_end(receiver, open, reply, at, out);
                }
                self.task_sighting(receiver, &s.result, false, at, out);
                if method == "tasks/get" {
                    if let Some(id) = string_member(&s.result, "taskId") {
                        let poll = s
                            .result
                            .get("pollInterval")
                            .and_then(|p| p.as_str().parse::<f64>().ok());
                        self.tasks.retrieved(receiver, &id, poll, at);
                    }
                }
            } else if method == "tasks/list" {
                self.task_list(receiver, open, &s.result, at, out);
            } else if method == "tasks/result" {
                let id = params.as_ref().and_then(|p| string_member(p, "taskId"));
                if let Some(id) = id {
                    let _ = self.tasks.result_answered(receiver, &id, at);
                }
            }
        }
        if let Message::Error(_) = reply {
            let method = open.request.method().unwrap_or_default();
            if method == "tasks/cancel" || method == "tasks/result" {
                self.task_request_after_end(other(asker), open, reply, at, out);
            }
        }
    }

    /// A `Task` the `receiver` showed (basic/utilities/tasks §Task Status
    /// Lifecycle, §Task ID Requirements); one without a string `taskId` and
    /// `status` is the schema rules' concern.
    pub(super) fn task_sighting(
        &mut self,
        receiver: Direction,
        task: &Raw<'_>,
        created: bool,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let text = |name: &str| {
            task.get(name)
                .and_then(|v| v.as_string().map(|s| s.into_owned()))
        };
        let (Some(id), Some(status)) = (text("taskId"), text("status")) else {
            return;
        };
        if super::tasks::terminal(&status) {
            self.task_tokens_end(receiver, &id, at);
        }
        match self.tasks.sighting(receiver, &id, &status, created, at) {
            Some(super::tasks::Breach::LeftTerminal { was, at: then }) => self.flag(
                RuleId::McpTasksTerminalFinal,
                format!(
                    "task `{id}` was `{was}` at event {} and is now `{status}`",
                    then.number()
                ),
                vec![then, at],
                out,
            ),
            Some(super::tasks::Breach::ResultBeforeEnd { at: then }) => self.flag(
                RuleId::McpTasksResultBlocks,
                format!(
                    "the {} answered `tasks/result` for task `{id}` at event {} and now shows it `{status}`",
                    receiver.sender(),
                    then.number()
                ),
                vec![then, at],
                out,
            ),
            Some(super::tasks::Breach::IdReused { at: then }) => self.flag(
                RuleId::McpTasksIdUnique,
                format!(
                    "the {} created task `{id}` again; it created it at event {}",
                    receiver.sender(),
                    then.number()
                ),
                vec![then, at],
                out,
            ),
            None => {}
        }
    }

    /// basic/utilities/progress §Behavior Requirements 3: once `receiver`'s
    /// task `id` is terminal, its token (kept by the asker) is spent.
    pub(super) fn task_tokens_end(&mut self, receiver: Direction, id: &str, at: At) {
        for token in self.sides[slot(other(receiver))].tokens.values_mut() {
            if let Some((task, ended @ None)) = &mut token.task {
                if task == id {
                    *ended = Some(at);
                }
            }
        }
    }

    /// The `tasks.requests` entry a task-augmented `method` needs declared
    /// by its receiver (basic/utilities/tasks §Server Capabilities, §Client
    /// Capabilities); `None` when the receiver's capabilities are not known
    /// yet, `Some(false)` when they lack it.
    pub(super) fn task_capability(&self, receiver: Direction, method: &str) -> Option<bool> {
        self.handshake.answered?;
        let caps = match receiver {
            Direction::ServerToClient => self.handshake.server_caps.as_ref(),
            Direction::ClientToServer => self.handshake.client_caps.as_ref(),
        };
        let path: &[&str] = match (receiver, method) {
            (Direction::ServerToClient, "tools/call") => &["tools", "call"],
            (Direction::ClientToServer, "sampling/createMessage") => &["sampling", "createMessage"],
            (Direction::ClientToServer, "elicitation/create") => &["elicitation", "create"],
            _ => return Some(false),
        };
        let mut node = caps
            .and_then(|c| c.get("tasks").map(Raw::into_owned))
            .and_then(|t| t.get("requests").map(Raw::into_owned));
        for name in path {
            node = node.and_then(|n| n.get(name).map(Raw::into_owned));
        }
        Some(node.is_some_and(|n| n.kind() == ValueKind::Object))
    }

    /// basic/utilities/tasks §Capability Negotiation: a task-augmented
    /// request sent by `from` to a receiver that did not declare it.
    pub(super) fn task_request_declared(
        &self,
        from: Direction,
        method: &str,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let receiver = other(from);
        if self.task_capability(receiver, method) == Some(false) {
            self.flag(
                RuleId::McpTasksRequestCapability,
                format!(
                    "the {} sent `{method}` as a task; the {}'s `initialize` capabilities lack `tasks.requests` for it",
                    from.sender(),
                    receiver.sender()
                ),
                vec![at],
                out,
            );
        }
    }

    /// A `CreateTaskResult` answering `open` (basic/utilities/tasks
    /// §Capabilities, §Task Support and Handling): the receiver must have
    /// declared the task capability; the request's progress token now
    /// follows the task (basic/utilities/progress §Behavior Requirements 3).
    #[expect(
        clippy::too_many_arguments,
        reason = "one call site; the pair's parts, kept apart to avoid cloning the request"
    )]
    pub(super) fn task_created(
        &mut self,
        asker: Direction,
        key: Key,
        open: &Open,
        method: &str,
        task: &Raw<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let receiver = other(asker);
        if self.task_capability(receiver, method) == Some(false) {
            self.flag(
                RuleId::McpTasksCapabilityDeclared,
                format!(
                    "the {} answered `{method}` with a `CreateTaskResult`; its `initialize` capabilities lack `tasks.requests` for it",
                    receiver.sender()
                ),
                vec![open.at, at],
                out,
            );
        }
        let Some(id) = string_member(task, "taskId") else {
            return;
        };
        // Created no earlier than the request was sent, so alive at least
        // its ttl from then (basic/utilities/tasks §TTL and Resource
        // Management); applied once the sighting below has recorded the task.
        let until = match task.get("ttl") {
            Some(t) if t.kind() == ValueKind::Null => Some(f64::INFINITY),
            Some(t) => t
                .as_str()
                .parse::<f64>()
                .ok()
                .zip(open.at.time)
                .map(|(ms, sent)| sent + ms / 1000.0),
            None => None,
        };
        self.pending_alive = until.map(|u| (id.clone(), u));
        let Some(token) = open.token else {
            return;
        };
        let side = &mut self.sides[slot(asker)];
        let kept = side.tokens.values().filter(|t| t.task.is_some()).count();
        if kept < TASK_TOKENS_CAP {
            side.tokens.entry(token).or_insert(Token {
                request: key,
                last: None,
                task: Some((id, None)),
            });
        }
    }

    /// basic/utilities/tasks §Task Listing 2, 4: a `tasks/list` answer that
    /// starts the listing (no `cursor`) and ends it (no `nextCursor`) holds
    /// every task a `tasks/get` retrieved that cannot have expired.
    pub(super) fn task_list(
        &self,
        receiver: Direction,
        open: &Open,
        result: &Raw<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let first = open
            .request
            .params()
            .is_none_or(|p| p.get("cursor").is_none());
        if !first || result.get("nextCursor").is_some() {
            return;
        }
        let Some(tasks) = result.get("tasks") else {
            return;
        };
        let listed: Vec<String> = tasks
            .elements()
            .filter_map(|t| string_member(&t, "taskId"))
            .collect();
        for (id, retrieved) in self.tasks.missing_from(receiver, &listed, at.time) {
            self.flag(
                RuleId::McpTasksListRetrievable,
                format!(
                    "the {}'s complete `tasks/list` answer omits task `{id}`, which `tasks/get` retrieved at event {} and whose ttl cannot have run out",
                    receiver.sender(),
                    retrieved.number()
                ),
                vec![retrieved, open.at, at],
                out,
            );
        }
    }

    /// A `tasks/cancel` or `tasks/result` sent after the receiver showed the
    /// task terminal (basic/utilities/tasks §Task Cancellation 1, §Task
    /// Execution Errors).
    pub(super) fn task_request_after_end(
        &self,
        receiver: Direction,
        open: &Open,
        reply: &Message<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let method = open.request.method().unwrap_or_default();
        let params = open.request.params();
        let Some(id) = params.as_ref().and_then(|p| string_member(p, "taskId")) else {
            return;
        };
        let Some((status, since)) = self.tasks.terminal_since(receiver, &id) else {
            return;
        };
        if since.index >= open.at.index {
            return;
        }
        let code = match reply {
            Message::Error(e) => Some(e.error.code),
            _ => None,
        };
        if method == "tasks/cancel" && code != Some(crate::codes::INVALID_PARAMS) {
            let answered = code.map_or_else(|| "a result".to_owned(), |c| format!("error {c}"));
            self.flag(
                RuleId::McpTasksCancelTerminalRejected,
                format!("`tasks/cancel` of task `{id}`, `{status}` since event {}, was answered with {answered}, not -32602", since.number()),
                vec![since, open.at, at],
                out,
            );
        }
        if method == "tasks/result" && status == "completed" {
            if let Some(code) = code {
                self.flag(
                    RuleId::McpTasksResultCompletedSuccess,
                    format!("`tasks/result` of task `{id}`, `completed` since event {}, was answered with error {code}", since.number()),
                    vec![since, open.at, at],
                    out,
                );
            }
        }
    }

    /// 2025-11-25 basic/utilities/tasks §Tool-Level Negotiation.
    pub(super) fn tool_task_support(
        &self,
        open: &Open,
        code: Option<i64>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        if !self.tasks_apply() {
            return;
        }
        if code == Some(crate::codes::METHOD_NOT_FOUND) {
            return;
        }
        let Some(answered_at) = self.handshake.answered else {
            return;
        };
        let tasks_declared = self
            .handshake
            .server_caps
            .as_ref()
            .and_then(|c| c.get("tasks").map(Raw::into_owned))
            .and_then(|t| t.get("requests").map(Raw::into_owned))
            .and_then(|r| r.get("tools").map(Raw::into_owned))
            .is_some_and(|t| t.get("call").is_some());
        if !tasks_declared {
            return;
        }
        let params = open.request.params();
        let Some(name) = params.and_then(|p| string_member(p, "name")) else {
            return;
        };
        let as_task = params.is_some_and(|p| p.get("task").is_some());
        let answered = code.map_or_else(|| "a result".to_owned(), |c| format!("error {c}"));
        match (self.lists.tool_tasks(&name), as_task) {
            (Some(TaskSupport::Forbidden), true) => self.flag(
                RuleId::McpTasksToolForbidden,
                format!("`tools/call` of {name:?} as a task, which its `tools/list` entry does not allow, was answered with {answered}, not -32601"),
                vec![answered_at, open.at, at],
                out,
            ),
            (Some(TaskSupport::Required), false) => self.flag(
                RuleId::McpTasksToolRequired,
                format!("`tools/call` of {name:?} without a task, which its `tools/list` entry requires, was answered with {answered}, not -32601"),
                vec![answered_at, open.at, at],
                out,
            ),
            _ => {}
        }
    }
}
