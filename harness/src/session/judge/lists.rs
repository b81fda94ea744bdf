//! Answers judged against the server's earlier list answers, which
//! [`crate::session::lists`] keeps: list changes without their notification
//! (the server feature pages' §List Changed Notification), tool order and
//! `cacheScope` pages (2026-07-28), cursors refused (basic/utilities/pagination),
//! `prompts/get` of a prompt not listed or without its required arguments
//! (server/prompts §Error Handling), completion errors
//! (server/utilities/completion §Error Handling) and tool results against
//! their `outputSchema` (server/tools §Output Schema).

use super::{
    finding, string_member, At, Finding, Judge, Message, Open, Raw, RuleId, Unobserved,
    UNJUDGED_CAP,
};
use crate::schema_check::Verdict;
use crate::session::lists::{ListKind, PromptProblem, Seen};
use crate::Revision;

impl Judge {
    /// Answers judged against what earlier list answers showed: an issued
    /// cursor refused, a prompt that is not listed or lacks a required
    /// argument, a completion without the capability, a tool called against
    /// its task support.
    pub(super) fn answer_against_lists(
        &mut self,
        open: &Open,
        reply: &Message<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let method = open.request.method().unwrap_or_default();
        let params = open.request.params();
        let code = match reply {
            Message::Error(e) => Some(e.error.code),
            _ => None,
        };
        let input_required = matches!(reply, Message::Success(s)
            if s.result.get("resultType").and_then(|t| t.as_string().map(|t| t == "input_required")) == Some(true));
        if let (Some(_), Some(issued)) = (code, self.lists.issued(&method, params)) {
            self.flag(
                RuleId::McpPaginationStableCursor,
                format!(
                    "`{method}` refused a cursor the server issued at event {}",
                    issued.number()
                ),
                vec![issued, open.at, at],
                out,
            );
        }
        let answered = code.map_or_else(|| "a result".to_owned(), |c| format!("error {c}"));
        match method.as_ref() {
            "prompts/get" if !input_required && code != Some(crate::codes::INVALID_PARAMS) => {
                let name = params.and_then(|p| string_member(p, "name"));
                let arguments = params.and_then(|p| p.get("arguments").map(Raw::into_owned));
                let problem =
                    name.and_then(|name| self.lists.prompt_problem(&name, arguments.as_ref()));
                let (what, listed) = match problem {
                    None => return,
                    Some(PromptProblem::Unknown { name, listed }) => (
                        format!("prompt {name:?}, which the list does not hold"),
                        listed,
                    ),
                    Some(PromptProblem::Missing {
                        name,
                        missing,
                        listed,
                    }) => (
                        format!(
                            "prompt {name:?} without its required argument(s) {}",
                            missing.join(", ")
                        ),
                        listed,
                    ),
                };
                self.flag(
                    RuleId::McpPromptsGetInvalidParams,
                    format!("`prompts/get` for {what} (listed at event {}) was answered with {answered}, not -32602 (Invalid params)", listed.number()),
                    vec![listed, open.at, at],
                    out,
                );
            }
            "completion/complete" => self.completion_errors(open, code, at, out),
            "tools/call" => {
                self.tool_task_support(open, code, at, out);
                if let Message::Success(s) = reply {
                    if !input_required {
                        self.structured_output(open, &s.result, at, out);
                    }
                }
            }
            _ => {}
        }
    }

    /// server/tools §Output Schema: a tool listed with an `outputSchema`
    /// returns `structuredContent` that conforms to it, judged with
    /// [`crate::schema_check::conform`] in the schema's dialect. A result with
    /// `isError: true` reports a failed call, not the tool's output, so it is
    /// not judged; a schema that cannot be read (an unknown `$schema`, a
    /// `$ref` that does not resolve: nothing is fetched) leaves the call not
    /// judged, with the reason.
    pub(super) fn structured_output(
        &mut self,
        open: &Open,
        result: &Raw<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        // Before 2025-06-18 there is no `outputSchema` to hold a result to,
        // and a not-judged note must not stand for a rule that does not apply.
        if !RuleId::McpToolsOutputSchemaConform
            .info()
            .applies_to(self.revision)
        {
            return;
        }
        if result.get("isError").is_some_and(|e| e.as_str() == "true") {
            return;
        }
        let Some(name) = open.request.params().and_then(|p| string_member(p, "name")) else {
            return;
        };
        let Some((schema, listed)) = self.lists.output_schema(&name) else {
            return;
        };
        let (pointer, message) = match result.get("structuredContent").map(|c| c.to_value()) {
            None => (String::new(), format!("tool {name:?} has an `outputSchema` (listed at event {}), but its result has no `structuredContent`", listed.number())),
            Some(None) => return,
            Some(Some(content)) => match crate::schema_check::conform(schema, &content, self.revision) {
                Verdict::Conforms => return,
                Verdict::NotJudged(why) => {
                    if self.unjudged.len() < UNJUDGED_CAP {
                        self.unjudged.push(Unobserved {
                            rule: RuleId::McpToolsOutputSchemaConform,
                            frames: vec![listed, open.at, at],
                            why: format!("the `structuredContent` of tool {name:?} was not judged: {why}"),
                        });
                    }
                    return;
                }
                Verdict::Breaks(breach) => (
                    format!("/result/structuredContent{}", breach.pointer),
                    format!(
                        "the `structuredContent` of tool {name:?}{} breaks its `outputSchema` (listed at event {}): {}",
                        if breach.pointer.is_empty() { String::new() } else { format!(" at `{}`", breach.pointer) },
                        listed.number(),
                        breach.why
                    ),
                ),
            },
        };
        out.extend(finding(
            RuleId::McpToolsOutputSchemaConform,
            self.revision,
            pointer,
            message,
            vec![listed, open.at, at],
        ));
    }

    /// server/utilities/completion §Error Handling.
    pub(super) fn completion_errors(
        &self,
        open: &Open,
        code: Option<i64>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let Some((declared_at, answer)) = self.handshake.declared_at() else {
            return;
        };
        let declared = self.handshake.server_has("completions");
        if !declared {
            if let Some(c) = code.filter(|c| *c != crate::codes::METHOD_NOT_FOUND) {
                self.flag(
                    RuleId::McpCompletionStandardErrors,
                    format!("`completion/complete` was answered with error {c}; the server's {answer} answer declared no `completions`, so -32601 (Method not found)"),
                    vec![declared_at, open.at, at],
                    out,
                );
            }
            return;
        }
        let reference = open
            .request
            .params()
            .and_then(|p| p.get("ref").map(Raw::into_owned));
        let prompt = reference
            .as_ref()
            .filter(|r| string_member(r, "type").as_deref() == Some("ref/prompt"))
            .and_then(|r| string_member(r, "name"));
        let Some(name) = prompt else { return };
        if self.lists.prompt_unknown(&name) && code != Some(crate::codes::INVALID_PARAMS) {
            let answered = code.map_or_else(|| "a result".to_owned(), |c| format!("error {c}"));
            self.flag(
                RuleId::McpCompletionStandardErrors,
                format!("`completion/complete` for prompt {name:?}, which the latest `prompts/list` does not hold, was answered with {answered}, not -32602 (Invalid params)"),
                vec![open.at, at],
                out,
            );
        }
    }

    /// Whether the server declared `listChanged` for `kind`'s capability.
    pub(super) fn list_changed_declared(&self, kind: ListKind) -> bool {
        self.handshake
            .server_caps
            .as_ref()
            .and_then(|c| c.get(kind.capability()))
            .is_some_and(|c| c.get("listChanged").is_some_and(|v| v.as_str() == "true"))
    }

    /// A list answer against the earlier ones (see [`super::lists`]).
    pub(super) fn list_answer(
        &mut self,
        open: &Open,
        reply: &Message<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let Message::Success(s) = reply else { return };
        let method = open.request.method().unwrap_or_default();
        let seen = self
            .lists
            .answered(&method, open.request.params(), &s.result, at);
        for seen in seen {
            match seen {
                Seen::Changed { kind, since } => {
                    let owed = self.list_changed_declared(kind)
                        && (self.revision != Revision::Mcp2026_07_28 || self.subscribed(kind, since));
                    if owed {
                        self.flag(
                            RuleId::McpListsChangedNotification,
                            format!(
                                "`{}` answered another list than at event {}, with `{}.listChanged` declared and no `{}` between",
                                kind.method(),
                                since.number(),
                                kind.capability(),
                                kind.notification()
                            ),
                            vec![since, at],
                            out,
                        );
                    }
                }
                Seen::Reordered { kind, since } => {
                    if kind == ListKind::Tools {
                        self.flag(
                            RuleId::McpR5ToolsDeterministicOrder,
                            format!(
                                "`tools/list` answered the same tools as at event {} in another order, with no `{}` between",
                                since.number(),
                                kind.notification()
                            ),
                            vec![since, at],
                            out,
                        );
                    }
                }
                Seen::ScopeChanged {
                    method,
                    since,
                    was,
                    now,
                } => self.flag(
                    RuleId::McpR5CacheScopePages,
                    format!("a page of `{method}` has `cacheScope` {now:?}; the page at event {} that gave its cursor had {was:?}", since.number()),
                    vec![since, at],
                    out,
                ),
            }
        }
    }
}
