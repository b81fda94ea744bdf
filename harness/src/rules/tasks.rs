//! 2025-11-25 tasks: where the `io.modelcontextprotocol/related-task` metadata
//! belongs (basic/utilities/tasks §Related Task Metadata).
//!
//! The page ties a task's messages together with that `_meta` key, except
//! where the message already names the task: `tasks/get`, `tasks/list` and
//! `tasks/cancel` carry `taskId` in their params or results, and
//! `notifications/tasks/status` in its params, so the key is redundant there
//! (SHOULD NOT); a `tasks/result` result is the underlying request's result,
//! which names no task, so it MUST carry the key. Which other messages
//! "relate to" a task only the receiver knows, so those are not judged.
//!
//! A `tasks/get` or `tasks/cancel` result is a `Task`: it must be the task the
//! request's `taskId` named (§Associating Task-Related Messages: that parameter
//! is "the source of truth"), a cancelled one after `tasks/cancel` (§Task
//! Cancellation), and a failed one should say why (§Task Execution Errors).

use super::{at, Report, RuleId};
use crate::ir::Raw;

/// The `_meta` key that names the task a message belongs to.
pub(super) const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// Requests and results that name their task in their own structure.
const NAMES_ITS_TASK: [&str; 3] = ["tasks/get", "tasks/list", "tasks/cancel"];

fn related_task<'p>(holder: Option<&'p Raw<'_>>) -> Option<Raw<'p>> {
    holder?.get("_meta")?.get(RELATED_TASK).map(Raw::into_owned)
}

/// A request or notification frame: `tasks/get`, `tasks/list`, `tasks/cancel`
/// and `notifications/tasks/status` carrying the redundant key.
pub(super) fn call(method: &str, params: Option<&Raw<'_>>, base: &str, out: &mut Report) {
    if !(NAMES_ITS_TASK.contains(&method) || method == "notifications/tasks/status") {
        return;
    }
    if related_task(params).is_some() {
        out.flag(
            RuleId::McpTasksRelatedTaskRedundant,
            at(&at(&at(base, "params"), "_meta"), RELATED_TASK),
            format!("`{method}` carries `_meta` `{RELATED_TASK}`; the task id is already in the message"),
        );
    }
}

/// A success result answering `method` (`params` the request's).
pub(super) fn result(
    method: &str,
    params: Option<&Raw<'_>>,
    result: &Raw<'_>,
    pointer: &str,
    out: &mut Report,
) {
    if NAMES_ITS_TASK.contains(&method) {
        if method != "tasks/list" {
            task_answer(method, params, result, pointer, out);
        }
        if related_task(Some(result)).is_some() {
            out.flag(
                RuleId::McpTasksRelatedTaskResultRedundant,
                at(&at(pointer, "_meta"), RELATED_TASK),
                format!("the `{method}` result carries `_meta` `{RELATED_TASK}`; the task id is already in the result"),
            );
        }
        return;
    }
    if method != "tasks/result" {
        return;
    }
    let asked = params
        .and_then(|p| p.get("taskId"))
        .and_then(|t| t.as_string().map(|s| s.into_owned()));
    let Some(related) = related_task(Some(result)) else {
        out.flag(
            RuleId::McpTasksResultRelatedTask,
            pointer.to_owned(),
            format!("the `tasks/result` result lacks `_meta` `{RELATED_TASK}`"),
        );
        return;
    };
    let named = related
        .get("taskId")
        .and_then(|t| t.as_string().map(|s| s.into_owned()));
    // The request's own `taskId` is the source of truth (§Related Task
    // Metadata); a request without one is the frame rules' concern.
    if let Some(asked) = asked {
        if named.as_deref() != Some(asked.as_str()) {
            out.flag(
                RuleId::McpTasksResultRelatedTask,
                at(&at(pointer, "_meta"), RELATED_TASK),
                format!(
                    "the `tasks/result` result's `{RELATED_TASK}` names task {}, not the requested `{asked}`",
                    named.map_or_else(|| "(none)".to_owned(), |n| format!("`{n}`"))
                ),
            );
        }
    }
}

/// A `tasks/get` or `tasks/cancel` result against the request.
fn task_answer(
    method: &str,
    params: Option<&Raw<'_>>,
    result: &Raw<'_>,
    pointer: &str,
    out: &mut Report,
) {
    let text = |holder: Option<&Raw<'_>>, name: &str| {
        holder
            .and_then(|h| h.get(name))
            .and_then(|v| v.as_string().map(|s| s.into_owned()))
    };
    let asked = text(params, "taskId");
    let answered = text(Some(result), "taskId");
    // A missing or mistyped `taskId` is mcp.schema.result's (or, in the
    // request, mcp.schema.request-params').
    if let (Some(asked), Some(answered)) = (&asked, &answered) {
        if asked != answered {
            out.flag(
                RuleId::McpTasksTaskIdSourceOfTruth,
                at(pointer, "taskId"),
                format!("`{method}` for task `{asked}` was answered with task `{answered}`"),
            );
        }
    }
    let status = text(Some(result), "status");
    if method == "tasks/cancel" && status.as_deref().is_some_and(|s| s != "cancelled") {
        out.flag(
            RuleId::McpTasksCancelResultCancelled,
            at(pointer, "status"),
            format!(
                "`tasks/cancel` succeeded with the task in status `{}`, not `cancelled`",
                status.as_deref().unwrap_or_default()
            ),
        );
    }
    if method == "tasks/get"
        && status.as_deref() == Some("failed")
        && result.get("statusMessage").is_none()
    {
        out.flag(
            RuleId::McpTasksFailedStatusMessage,
            pointer.to_owned(),
            "a failed task's `tasks/get` result has no `statusMessage`".to_owned(),
        );
    }
}
