//! 2025-11-25 tasks (basic/utilities/tasks): a task-augmented request and
//! its `CreateTaskResult` against the receiver's `tasks.requests` capability,
//! a task's status lifecycle and id (§Task Status Lifecycle, §Task ID
//! Requirements), polling, listing, cancelling and results after a task
//! ended, a tool's task support (§Tool-Level Negotiation), and the progress
//! token a task keeps (basic/utilities/progress §Behavior Requirements 3).
//!
//! A task's status is seen in the `CreateTaskResult` that created it, in
//! `tasks/get` and `tasks/cancel` results and in `notifications/tasks/status`;
//! once one of those shows `completed`, `failed` or `cancelled`, no later one may
//! show another status. A created task's id must be new among the receiver's
//! tasks. Where a task first showed a terminal status is kept, so a
//! `tasks/cancel` or `tasks/result` sent after it can be held to §Task
//! Cancellation and §Result Retrieval, and so is where a `tasks/result` for it
//! was answered, so a later non-terminal sighting shows the answer did not
//! wait for the end. Memory is bounded: past [`CAP`] tasks per receiver, new
//! ones are not followed, and past [`TOOLS_CAP`] tools, tools listed later
//! have no task support remembered.

use std::collections::HashMap;

use super::{
    other, slot, string_member, Answer, At, Concern, Cx, Direction, Key, Message, Notification,
    Open, Raw, Request, RuleId, Token,
};
use crate::ValueKind;

/// Tokens kept for tasks after their requests were answered, per side.
const TASK_TOKENS_CAP: usize = 4096;

/// Tools whose `execution.taskSupport` is remembered; past this, tools listed
/// later are not judged (a server with more tools than this is rare).
const TOOLS_CAP: usize = 4096;

/// Tasks followed per receiver.
const CAP: usize = 4096;

const TERMINAL: [&str; 3] = ["completed", "failed", "cancelled"];

/// What a new sighting of a task breaks, if anything.
#[derive(Debug, PartialEq)]
enum Breach {
    /// The task left a terminal status: the status and where it was last seen.
    LeftTerminal { was: String, at: At },
    /// A task was created with the id of an earlier one, created at `at`.
    IdReused { at: At },
    /// A `tasks/result` for the task was answered at `at`, and the task is
    /// still not terminal.
    ResultBeforeEnd { at: At },
}

/// Whether `status` is one a task never leaves.
fn terminal(status: &str) -> bool {
    TERMINAL.contains(&status)
}

/// The tasks each receiver (`[client's, server's]`) has shown.
#[derive(Default)]
struct Statuses {
    seen: [HashMap<String, Seen>; 2],
}

struct Seen {
    status: String,
    at: At,
    created: Option<At>,
    /// Where the task first showed a terminal status.
    terminal_since: Option<(String, At)>,
    /// Where a `tasks/result` for the task was answered with a result.
    result_answered: Option<At>,
    /// Seconds from the capture's start before which the task's ttl cannot
    /// have run out (infinite for a `null` ttl), when known: created no
    /// earlier than its request was sent.
    alive_until: Option<f64>,
    /// Where a `tasks/get` for it was last answered with a result.
    retrieved: Option<At>,
    /// The `pollInterval` (seconds) of the latest non-terminal `tasks/get`
    /// answer for it, and that answer, when the capture has its time.
    poll: Option<(f64, At)>,
}

impl Statuses {
    /// `receiver` (the side whose task it is) showed task `id` in `status`;
    /// `created` when the sighting is the `CreateTaskResult`.
    fn sighting(
        &mut self,
        receiver: Direction,
        id: &str,
        status: &str,
        created: bool,
        at: At,
    ) -> Option<Breach> {
        let tasks = &mut self.seen[slot(receiver)];
        let Some(seen) = tasks.get_mut(id) else {
            if tasks.len() < CAP {
                let created = created.then_some(at);
                tasks.insert(
                    id.to_owned(),
                    Seen {
                        status: status.to_owned(),
                        at,
                        created,
                        terminal_since: terminal(status).then(|| (status.to_owned(), at)),
                        result_answered: None,
                        alive_until: None,
                        retrieved: None,
                        poll: None,
                    },
                );
            }
            return None;
        };
        if created {
            if let Some(first) = seen.created {
                return Some(Breach::IdReused { at: first });
            }
        }
        if TERMINAL.contains(&seen.status.as_str()) && seen.status != status {
            // The terminal status stays the one to hold later sightings to.
            return Some(Breach::LeftTerminal {
                was: seen.status.clone(),
                at: seen.at,
            });
        }
        seen.status = status.to_owned();
        seen.at = at;
        if created {
            seen.created = Some(at);
        }
        if terminal(status) {
            seen.terminal_since
                .get_or_insert_with(|| (status.to_owned(), at));
        } else if let Some(answered) = seen.result_answered.take() {
            return Some(Breach::ResultBeforeEnd { at: answered });
        }
        None
    }

    /// Task `id` of `receiver` cannot expire before `until` (seconds from the
    /// start; infinite for a `null` ttl).
    fn alive_until(&mut self, receiver: Direction, id: &str, until: f64) {
        if let Some(seen) = self.seen[slot(receiver)].get_mut(id) {
            seen.alive_until = Some(until);
        }
    }

    /// A `tasks/get` for task `id` of `receiver` was answered with a result,
    /// suggesting `poll_ms` between polls when it says so.
    fn retrieved(&mut self, receiver: Direction, id: &str, poll_ms: Option<f64>, at: At) {
        if let Some(seen) = self.seen[slot(receiver)].get_mut(id) {
            seen.retrieved = Some(at);
            seen.poll = poll_ms
                .filter(|_| at.time.is_some() && !terminal(&seen.status))
                .map(|ms| (ms / 1000.0, at));
        }
    }

    /// A `tasks/get` for task `id` of `receiver` was sent at `at`: the answer
    /// whose `pollInterval` (seconds) it came too soon after, if any.
    fn polled(&mut self, receiver: Direction, id: &str, at: At) -> Option<(At, f64)> {
        let seen = self.seen[slot(receiver)].get_mut(id)?;
        let (interval, answered) = seen.poll.take()?;
        let waited = at.time? - answered.time?;
        (waited < interval).then_some((answered, interval))
    }

    /// The tasks of `receiver` that a `tasks/get` retrieved and that cannot
    /// have expired by `now`, not cancelled (a requestor may not rely on a
    /// cancelled task being kept), and absent from `listed`: each with where
    /// it was retrieved.
    fn missing_from(
        &self,
        receiver: Direction,
        listed: &[String],
        now: Option<f64>,
    ) -> Vec<(&str, At)> {
        let mut missing: Vec<(&str, At)> = self.seen[slot(receiver)]
            .iter()
            .filter(|(id, s)| {
                let alive = match (s.alive_until, now) {
                    (Some(until), _) if until.is_infinite() => true,
                    (Some(until), Some(now)) => now < until,
                    _ => false,
                };
                alive && s.status != "cancelled" && !listed.iter().any(|l| l == *id)
            })
            .filter_map(|(id, s)| s.retrieved.map(|at| (id.as_str(), at)))
            .collect();
        missing.sort_by(|(a, x), (b, y)| (x.index, a).cmp(&(y.index, b)));
        missing
    }

    /// The terminal status task `id` of `receiver` first showed, and where,
    /// if it has shown one.
    fn terminal_since(&self, receiver: Direction, id: &str) -> Option<(&str, At)> {
        self.seen[slot(receiver)]
            .get(id)
            .and_then(|s| s.terminal_since.as_ref())
            .map(|(status, at)| (status.as_str(), *at))
    }

    /// `receiver` answered a `tasks/result` for task `id` with a result at
    /// `at`; `Some` when the task is known and not yet seen terminal.
    fn result_answered(&mut self, receiver: Direction, id: &str, at: At) -> Option<()> {
        let seen = self.seen[slot(receiver)].get_mut(id)?;
        if seen.terminal_since.is_some() {
            return None;
        }
        seen.result_answered.get_or_insert(at);
        Some(())
    }
}

/// A tool's `execution.taskSupport`, absent read as its default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TaskSupport {
    Forbidden,
    Optional,
    Required,
}

/// What the tasks of a conversation showed.
#[derive(Default)]
pub(super) struct Tasks {
    statuses: Statuses,
    /// A task just created and how long it is sure to live, for the
    /// sighting that records it.
    pending_alive: Option<(String, f64)>,
    /// Each tool the server's `tools/list` answers listed, with its task
    /// support (at most [`TOOLS_CAP`]).
    tools: Vec<(String, TaskSupport)>,
}

impl Concern for Tasks {
    fn rules() -> &'static [RuleId] {
        &[
            RuleId::McpTasksTerminalFinal,
            RuleId::McpTasksIdUnique,
            RuleId::McpTasksToolForbidden,
            RuleId::McpTasksToolRequired,
            RuleId::McpTasksCapabilityDeclared,
            RuleId::McpTasksRequestCapability,
            RuleId::McpTasksCancelTerminalRejected,
            RuleId::McpTasksResultBlocks,
            RuleId::McpTasksResultCompletedSuccess,
            RuleId::McpTasksListRetrievable,
            RuleId::McpTasksPollInterval,
        ]
    }

    /// A request: a task-augmented one against the receiver's capability
    /// (§Capability Negotiation), a `tasks/get` against the `pollInterval`
    /// of the last answer (§Getting Tasks).
    fn request(&mut self, cx: &mut Cx<'_>, r: &Request<'_>) {
        if r.reused {
            return;
        }
        let (from, method, params, at) = (r.from, r.method, r.params, r.at);
        if params.is_some_and(|p| p.get("task").is_some()) {
            self.task_request_declared(cx, from, method, at);
        }
        if method == "tasks/get" {
            if let Some(task) = params.and_then(|p| string_member(p, "taskId")) {
                if let Some((answered, interval)) = self.statuses.polled(other(from), &task, at) {
                    cx.out.flag(
                        RuleId::McpTasksPollInterval,
                        format!(
                            "the {} polled task `{task}` again sooner than the {interval} s `pollInterval` of the answer at event {}",
                            from.sender(),
                            answered.number()
                        ),
                        vec![answered, at],
                    );
                }
            }
        }
    }

    /// `notifications/tasks/status` from a side: a sighting of its task.
    fn notification(&mut self, cx: &mut Cx<'_>, n: &Notification<'_>) {
        if n.method != "notifications/tasks/status" || n.subscription {
            return;
        }
        if let Some(task) = n.params {
            self.task_sighting(cx, n.from, task, false, n.at);
        }
    }

    /// The answer to a request, from its receiver: a task created, shown,
    /// listed, cancelled or its result given; a tool's task support listed,
    /// or a tool called against it.
    fn answer(&mut self, cx: &mut Cx<'_>, a: &Answer<'_>) {
        let (asker, key, open, reply, at) = (a.asker, a.key, a.open, a.reply, a.at);
        let method = open.request.method().unwrap_or_default();
        let params = open.request.params();
        let receiver = other(asker);
        match reply {
            Message::Success(s) => {
                if params.is_some_and(|p| p.get("task").is_some()) {
                    if let Some(task) = s.result.get("task") {
                        cx.closes.task = true;
                        self.task_created(cx, asker, key, open, &method, &task, at);
                        self.task_sighting(cx, receiver, &task, true, at);
                        if let Some((id, until)) = self.pending_alive.take() {
                            self.statuses.alive_until(receiver, &id, until);
                        }
                    }
                } else if method == "tasks/get" || method == "tasks/cancel" {
                    if method == "tasks/cancel" {
                        self.task_request_after_end(cx, receiver, open, reply, at);
                    }
                    self.task_sighting(cx, receiver, &s.result, false, at);
                    if method == "tasks/get" {
                        if let Some(id) = string_member(&s.result, "taskId") {
                            let poll = s
                                .result
                                .get("pollInterval")
                                .and_then(|p| p.as_str().parse::<f64>().ok());
                            self.statuses.retrieved(receiver, &id, poll, at);
                        }
                    }
                } else if method == "tasks/list" {
                    self.task_list(cx, receiver, open, &s.result, at);
                } else if method == "tasks/result" {
                    let id = params.and_then(|p| string_member(p, "taskId"));
                    if let Some(id) = id {
                        let _ = self.statuses.result_answered(receiver, &id, at);
                    }
                }
            }
            Message::Error(_) if method == "tasks/cancel" || method == "tasks/result" => {
                self.task_request_after_end(cx, receiver, open, reply, at);
            }
            _ => {}
        }
        if asker != Direction::ClientToServer {
            return;
        }
        if method == "tools/list" {
            if let Message::Success(s) = reply {
                if let Some(items) = s
                    .result
                    .get("tools")
                    .filter(|a| a.kind() == ValueKind::Array)
                {
                    self.task_support(&items);
                }
            }
        }
        if method == "tools/call" {
            let code = match reply {
                Message::Error(e) => Some(e.error.code),
                _ => None,
            };
            self.tool_task_support(cx, open, code, at);
        }
    }
}

impl Tasks {
    /// A listed tool's task support; `None` for a tool no list named.
    fn tool_tasks(&self, name: &str) -> Option<TaskSupport> {
        self.tools.iter().find(|(n, _)| n == name).map(|(_, t)| *t)
    }

    /// The task support of each tool of a `tools/list` answer's `tools`.
    fn task_support(&mut self, items: &Raw<'_>) {
        for tool in items.elements() {
            let Some(name) = string_member(&tool, "name") else {
                continue;
            };
            let support = match tool
                .get("execution")
                .and_then(|e| string_member(&e, "taskSupport"))
                .as_deref()
            {
                Some("required") => TaskSupport::Required,
                Some("optional") => TaskSupport::Optional,
                // Absent and "forbidden" alike (§Tool-Level Negotiation:
                // "This is the default behavior"); an unknown value too.
                _ => TaskSupport::Forbidden,
            };
            if let Some(entry) = self.tools.iter_mut().find(|(n, _)| *n == name) {
                entry.1 = support;
            } else if self.tools.len() < TOOLS_CAP {
                self.tools.push((name, support));
            }
        }
    }

    /// A `Task` the `receiver` showed (basic/utilities/tasks §Task Status
    /// Lifecycle, §Task ID Requirements); one without a string `taskId` and
    /// `status` is the schema rules' concern.
    fn task_sighting(
        &mut self,
        cx: &mut Cx<'_>,
        receiver: Direction,
        task: &Raw<'_>,
        created: bool,
        at: At,
    ) {
        let text = |name: &str| {
            task.get(name)
                .and_then(|v| v.as_string().map(|s| s.into_owned()))
        };
        let (Some(id), Some(status)) = (text("taskId"), text("status")) else {
            return;
        };
        if terminal(&status) {
            Self::task_tokens_end(cx, receiver, &id, at);
        }
        match self.statuses.sighting(receiver, &id, &status, created, at) {
            Some(Breach::LeftTerminal { was, at: then }) => cx.out.flag(
                RuleId::McpTasksTerminalFinal,
                format!(
                    "task `{id}` was `{was}` at event {} and is now `{status}`",
                    then.number()
                ),
                vec![then, at],
            ),
            Some(Breach::ResultBeforeEnd { at: then }) => cx.out.flag(
                RuleId::McpTasksResultBlocks,
                format!(
                    "the {} answered `tasks/result` for task `{id}` at event {} and now shows it `{status}`",
                    receiver.sender(),
                    then.number()
                ),
                vec![then, at],
            ),
            Some(Breach::IdReused { at: then }) => cx.out.flag(
                RuleId::McpTasksIdUnique,
                format!(
                    "the {} created task `{id}` again; it created it at event {}",
                    receiver.sender(),
                    then.number()
                ),
                vec![then, at],
            ),
            None => {}
        }
    }

    /// basic/utilities/progress §Behavior Requirements 3: once `receiver`'s
    /// task `id` is terminal, its token (kept by the asker) is spent.
    fn task_tokens_end(cx: &mut Cx<'_>, receiver: Direction, id: &str, at: At) {
        for token in cx.sides[slot(other(receiver))].tokens.values_mut() {
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
    fn task_capability(cx: &Cx<'_>, receiver: Direction, method: &str) -> Option<bool> {
        cx.negotiated.answered?;
        let caps = match receiver {
            Direction::ServerToClient => cx.negotiated.server_caps.as_ref(),
            Direction::ClientToServer => cx.negotiated.client_caps.as_ref(),
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
    fn task_request_declared(&self, cx: &mut Cx<'_>, from: Direction, method: &str, at: At) {
        let receiver = other(from);
        if Self::task_capability(cx, receiver, method) == Some(false) {
            cx.out.flag(
                RuleId::McpTasksRequestCapability,
                format!(
                    "the {} sent `{method}` as a task; the {}'s `initialize` capabilities lack `tasks.requests` for it",
                    from.sender(),
                    receiver.sender()
                ),
                vec![at],
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
    fn task_created(
        &mut self,
        cx: &mut Cx<'_>,
        asker: Direction,
        key: Key,
        open: &Open,
        method: &str,
        task: &Raw<'_>,
        at: At,
    ) {
        let receiver = other(asker);
        if Self::task_capability(cx, receiver, method) == Some(false) {
            cx.out.flag(
                RuleId::McpTasksCapabilityDeclared,
                format!(
                    "the {} answered `{method}` with a `CreateTaskResult`; its `initialize` capabilities lack `tasks.requests` for it",
                    receiver.sender()
                ),
                vec![open.at, at],
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
        let side = &mut cx.sides[slot(asker)];
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
    fn task_list(
        &self,
        cx: &mut Cx<'_>,
        receiver: Direction,
        open: &Open,
        result: &Raw<'_>,
        at: At,
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
        for (id, retrieved) in self.statuses.missing_from(receiver, &listed, at.time) {
            cx.out.flag(
                RuleId::McpTasksListRetrievable,
                format!(
                    "the {}'s complete `tasks/list` answer omits task `{id}`, which `tasks/get` retrieved at event {} and whose ttl cannot have run out",
                    receiver.sender(),
                    retrieved.number()
                ),
                vec![retrieved, open.at, at],
            );
        }
    }

    /// A `tasks/cancel` or `tasks/result` sent after the receiver showed the
    /// task terminal (basic/utilities/tasks §Task Cancellation 1, §Task
    /// Execution Errors).
    fn task_request_after_end(
        &self,
        cx: &mut Cx<'_>,
        receiver: Direction,
        open: &Open,
        reply: &Message<'_>,
        at: At,
    ) {
        let method = open.request.method().unwrap_or_default();
        let params = open.request.params();
        let Some(id) = params.as_ref().and_then(|p| string_member(p, "taskId")) else {
            return;
        };
        let Some((status, since)) = self.statuses.terminal_since(receiver, &id) else {
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
            cx.out.flag(
                RuleId::McpTasksCancelTerminalRejected,
                format!("`tasks/cancel` of task `{id}`, `{status}` since event {}, was answered with {answered}, not -32602", since.number()),
                vec![since, open.at, at],
            );
        }
        if method == "tasks/result" && status == "completed" {
            if let Some(code) = code {
                cx.out.flag(
                    RuleId::McpTasksResultCompletedSuccess,
                    format!("`tasks/result` of task `{id}`, `completed` since event {}, was answered with error {code}", since.number()),
                    vec![since, open.at, at],
                );
            }
        }
    }

    /// 2025-11-25 basic/utilities/tasks §Tool-Level Negotiation.
    fn tool_task_support(&self, cx: &mut Cx<'_>, open: &Open, code: Option<i64>, at: At) {
        if code == Some(crate::codes::METHOD_NOT_FOUND) {
            return;
        }
        let Some(answered_at) = cx.negotiated.answered else {
            return;
        };
        let tasks_declared = cx
            .negotiated
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
        match (self.tool_tasks(&name), as_task) {
            (Some(TaskSupport::Forbidden), true) => cx.out.flag(
                RuleId::McpTasksToolForbidden,
                format!("`tools/call` of {name:?} as a task, which its `tools/list` entry does not allow, was answered with {answered}, not -32601"),
                vec![answered_at, open.at, at],
            ),
            (Some(TaskSupport::Required), false) => cx.out.flag(
                RuleId::McpTasksToolRequired,
                format!("`tools/call` of {name:?} without a task, which its `tools/list` entry requires, was answered with {answered}, not -32601"),
                vec![answered_at, open.at, at],
            ),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(index: u64) -> At {
        At { index, time: None }
    }

    #[test]
    fn terminal_is_final_and_ids_are_new() {
        let mut t = Statuses::default();
        let s = Direction::ServerToClient;
        assert_eq!(t.sighting(s, "a", "working", true, at(1)), None);
        assert_eq!(t.sighting(s, "a", "input_required", false, at(2)), None);
        assert_eq!(t.sighting(s, "a", "completed", false, at(3)), None);
        assert_eq!(t.sighting(s, "a", "completed", false, at(4)), None);
        assert_eq!(
            t.sighting(s, "a", "working", false, at(5)),
            Some(Breach::LeftTerminal {
                was: "completed".into(),
                at: at(4)
            })
        );
        assert_eq!(
            t.sighting(s, "a", "working", true, at(6)),
            Some(Breach::IdReused { at: at(1) })
        );
        assert_eq!(
            t.terminal_since(s, "a")
                .map(|(st, at)| (st.to_owned(), at.index)),
            Some(("completed".to_owned(), 3))
        );
        // The other side's tasks are its own.
        assert_eq!(
            t.sighting(Direction::ClientToServer, "a", "working", true, at(7)),
            None
        );
    }

    #[test]
    fn a_result_answered_before_the_end_is_caught_by_a_later_status() {
        let mut t = Statuses::default();
        let s = Direction::ServerToClient;
        assert_eq!(t.sighting(s, "b", "working", true, at(1)), None);
        assert_eq!(t.result_answered(s, "b", at(2)), Some(()));
        assert_eq!(
            t.sighting(s, "b", "working", false, at(3)),
            Some(Breach::ResultBeforeEnd { at: at(2) })
        );
        assert_eq!(t.sighting(s, "b", "completed", false, at(4)), None);
        // Once terminal, an answer is what the spec asks for.
        assert_eq!(t.result_answered(s, "b", at(5)), None);
        assert_eq!(t.result_answered(s, "unknown", at(6)), None);
    }

    #[test]
    fn a_poll_sooner_than_the_interval_is_caught() {
        let mut t = Statuses::default();
        let s = Direction::ServerToClient;
        let timed = |index, time| At {
            index,
            time: Some(time),
        };
        t.sighting(s, "p", "working", true, timed(1, 0.0));
        t.sighting(s, "p", "working", false, timed(2, 1.0));
        t.retrieved(s, "p", Some(5000.0), timed(2, 1.0));
        assert_eq!(t.polled(s, "p", timed(3, 7.0)), None);
        t.retrieved(s, "p", Some(5000.0), timed(4, 7.5));
        assert_eq!(t.polled(s, "p", timed(5, 8.0)), Some((timed(4, 7.5), 5.0)));
        // Without times, nothing can be told.
        t.retrieved(s, "p", Some(5000.0), at(6));
        assert_eq!(t.polled(s, "p", at(7)), None);
    }

    #[test]
    fn only_retrieved_live_uncancelled_tasks_must_be_listed() {
        let mut t = Statuses::default();
        let s = Direction::ServerToClient;
        for (id, status) in [
            ("live", "working"),
            ("old", "working"),
            ("gone", "cancelled"),
        ] {
            t.sighting(s, id, "working", true, at(1));
            t.sighting(s, id, status, false, at(2));
            t.retrieved(s, id, None, at(2));
        }
        t.alive_until(s, "live", f64::INFINITY);
        t.alive_until(s, "old", 5.0);
        t.alive_until(s, "gone", f64::INFINITY);
        let missing = |now| {
            t.missing_from(s, &[], now)
                .into_iter()
                .map(|(id, _)| id.to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(missing(Some(1.0)), ["live", "old"]);
        // Past its ttl, or with no time to tell, "old" may have expired.
        assert_eq!(missing(Some(9.0)), ["live"]);
        assert_eq!(missing(None), ["live"]);
        assert!(t.missing_from(s, &["live".to_owned()], None).is_empty());
    }

    /// The bound the module promises: past `CAP` tasks per receiver a new task
    /// is not followed (so its later sightings are not judged), while those
    /// already followed still are.
    #[test]
    fn past_cap_tasks_new_ones_are_not_followed() {
        let mut t = Statuses::default();
        let s = Direction::ServerToClient;
        for n in 0..CAP {
            assert_eq!(
                t.sighting(s, &n.to_string(), "completed", true, at(1)),
                None
            );
        }
        assert_eq!(t.sighting(s, "late", "completed", true, at(2)), None);
        assert_eq!(t.sighting(s, "late", "working", false, at(3)), None);
        assert!(t.terminal_since(s, "late").is_none());
        assert!(matches!(
            t.sighting(s, "0", "working", false, at(4)),
            Some(Breach::LeftTerminal { .. })
        ));
    }

    #[test]
    fn task_support_remembered() {
        let raw = |text: &str| Raw::from_value(&serde_json::from_str(text).unwrap());
        let mut tasks = super::Tasks::default();
        let page = raw(
            r#"{"tools":[{"name":"a","execution":{"taskSupport":"required"}},{"name":"b"}],"nextCursor":"c2"}"#,
        );
        tasks.task_support(&page.get("tools").unwrap());
        assert_eq!(tasks.tool_tasks("a"), Some(TaskSupport::Required));
        assert_eq!(tasks.tool_tasks("b"), Some(TaskSupport::Forbidden));
        assert_eq!(tasks.tool_tasks("c"), None);
    }
}
