//! What the server's list answers show over a session, and the answers
//! judged against them: a list that changed with no `list_changed`
//! notification (server/tools, server/prompts, server/resources §List Changed
//! Notification), tools reordered while their set stayed the same (2026-07-28
//! server/tools §Capabilities), pages of one list with different
//! `cacheScope`s (2026-07-28 server/utilities/caching §Interaction with
//! Pagination), cursors refused (server/utilities/pagination §Implementation
//! Guidelines: stable cursors), `prompts/get` of a prompt not listed or
//! without its required arguments (server/prompts §Error Handling),
//! completion errors (server/utilities/completion §Error Handling) and tool
//! results against their `outputSchema` (server/tools §Output Schema).
//!
//! Only complete lists are compared (a request without `cursor` answered
//! without `nextCursor`): a page of a longer list says nothing about the whole.
//! Memory is the names of the latest complete list of each kind and its
//! prompts' required arguments (as long as the server's own lists), at most
//! [`PAGES_CAP`] cursors and at most [`TOOLS_CAP`] tools' `outputSchema`. A
//! tool's task support is tasks' own.

use super::subscriptions::subscribed;
use super::{string_member, Answer, At, Concern, Cx, Direction, End, Ending, Message};
use super::{Notification, Open, RuleId, Unobserved};
use crate::ir::{Raw, ValueKind};
use crate::schema_check::Verdict;

/// Cursors remembered for `cacheScope`; a client walks one list at a time, so
/// a few are plenty, and the oldest is dropped first.
const PAGES_CAP: usize = 64;

/// Tools whose `outputSchema` is remembered; past this, tools listed later
/// are not judged (a server with more tools than this is rare).
const TOOLS_CAP: usize = 4096;

/// The three lists a server announces changes of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ListKind {
    Tools,
    Prompts,
    Resources,
}

impl ListKind {
    const ALL: [ListKind; 3] = [ListKind::Tools, ListKind::Prompts, ListKind::Resources];

    pub(super) fn of_method(method: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.method() == method)
    }

    fn of_notification(method: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.notification() == method)
    }

    fn slot(self) -> usize {
        self as usize
    }

    pub(super) fn method(self) -> &'static str {
        match self {
            ListKind::Tools => "tools/list",
            ListKind::Prompts => "prompts/list",
            ListKind::Resources => "resources/list",
        }
    }

    pub(super) fn notification(self) -> &'static str {
        match self {
            ListKind::Tools => "notifications/tools/list_changed",
            ListKind::Prompts => "notifications/prompts/list_changed",
            ListKind::Resources => "notifications/resources/list_changed",
        }
    }

    /// The server capability that declares `listChanged`.
    pub(super) fn capability(self) -> &'static str {
        match self {
            ListKind::Tools => "tools",
            ListKind::Prompts => "prompts",
            ListKind::Resources => "resources",
        }
    }

    /// 2026-07-28: the `SubscriptionFilter` member asking for this list's changes.
    pub(super) fn filter(self) -> &'static str {
        match self {
            ListKind::Tools => "toolsListChanged",
            ListKind::Prompts => "promptsListChanged",
            ListKind::Resources => "resourcesListChanged",
        }
    }

    /// The result's array and the member that names each item in it.
    fn items(self) -> (&'static str, &'static str) {
        match self {
            ListKind::Tools => ("tools", "name"),
            ListKind::Prompts => ("prompts", "name"),
            ListKind::Resources => ("resources", "uri"),
        }
    }
}

/// What one list answer showed against the earlier ones.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Seen {
    /// The complete list's set of names differs from the previous complete
    /// list's (answered at `since`), and no `list_changed` came in between.
    Changed { kind: ListKind, since: At },
    /// The same set of names in another order, with no `list_changed` since.
    Reordered { kind: ListKind, since: At },
    /// A page reached by a `nextCursor` has another `cacheScope` than the page
    /// that gave the cursor (answered at `since`).
    ScopeChanged {
        method: String,
        since: At,
        was: String,
        now: String,
    },
}

struct Complete {
    names: Vec<String>,
    at: At,
    heard: u64,
}

struct Page {
    method: String,
    cursor: String,
    scope: Option<String>,
    at: At,
}

/// A prompt of a complete `prompts/list` answer.
struct Prompt {
    name: String,
    required: Vec<String>,
}

/// What is wrong with a request naming a prompt, against the latest complete
/// `prompts/list` with no `list_changed` since.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum PromptProblem {
    /// The name is not in the list answered at `listed`.
    Unknown { name: String, listed: At },
    /// The prompt's required arguments these are missing.
    Missing {
        name: String,
        missing: Vec<String>,
        listed: At,
    },
}

/// The session's list answers, as far as the checks need them.
#[derive(Default)]
pub(super) struct Lists {
    last: [Option<Complete>; 3],
    /// When (in [`Lists::heard`] order) the server's latest `list_changed`
    /// per kind came.
    notified: [Option<u64>; 3],
    pages: Vec<Page>,
    /// The latest complete prompt list, where and when it was answered.
    prompts: Option<(Vec<Prompt>, At, u64)>,
    /// How many list answers and notifications came so far: their order.
    /// Event indices cannot order them, since a batch is one event whose
    /// elements are read in order (2025-03-26 basic/index §Batching), so an
    /// answer and a `list_changed` batched together share one index.
    heard: u64,
    /// Listed tools' `outputSchema`, parsed (at most [`TOOLS_CAP`]).
    output: Vec<(String, serde_json::Value, At)>,
    /// Checks that applied but could not be made (a schema that cannot be
    /// read), reported at the end as not observed (at most
    /// [`UNJUDGED_CAP`]).
    unjudged: Vec<Unobserved>,
}

/// Not-judged notes kept; later ones are dropped.
const UNJUDGED_CAP: usize = 64;

fn string(value: Option<Raw<'_>>) -> Option<String> {
    value.and_then(|v| v.as_string().map(std::borrow::Cow::into_owned))
}

impl Lists {
    /// The next number in the order list answers and notifications came in.
    fn hear(&mut self) -> u64 {
        self.heard += 1;
        self.heard
    }

    /// A notification from the server.
    pub(super) fn notified(&mut self, method: &str) {
        if let Some(kind) = ListKind::of_notification(method) {
            self.notified[kind.slot()] = Some(self.hear());
        }
    }

    /// A successful answer to a list request `method` with `params`.
    pub(super) fn answered(
        &mut self,
        method: &str,
        params: Option<&Raw<'_>>,
        result: &Raw<'_>,
        at: At,
    ) -> Vec<Seen> {
        let mut seen = Vec::new();
        let cursor = string(params.and_then(|p| p.get("cursor")));
        let next = string(result.get("nextCursor"));
        self.pages(method, cursor.as_deref(), next, result, at, &mut seen);
        let Some(kind) = ListKind::of_method(method) else {
            return seen;
        };
        let (array, member) = kind.items();
        let Some(items) = result.get(array).filter(|a| a.kind() == ValueKind::Array) else {
            return seen;
        };
        if kind == ListKind::Tools {
            self.output_schemas(&items, at);
        }
        if cursor.is_some() || result.get("nextCursor").is_some() {
            return seen;
        }
        let heard = self.hear();
        if kind == ListKind::Prompts {
            self.prompts = Some((prompts(&items), at, heard));
        }
        let names: Vec<String> = items
            .elements()
            .filter_map(|item| string(item.get(member)))
            .collect();
        let slot = kind.slot();
        if let Some(previous) = &self.last[slot] {
            let quiet = self.notified[slot].is_none_or(|n| n < previous.heard);
            if quiet && previous.names != names {
                let mut a = previous.names.clone();
                let mut b = names.clone();
                a.sort();
                b.sort();
                let since = previous.at;
                seen.push(if a == b {
                    Seen::Reordered { kind, since }
                } else {
                    Seen::Changed { kind, since }
                });
            }
        }
        self.last[slot] = Some(Complete { names, at, heard });
        seen
    }

    /// Where the server issued `params`' `cursor` as a `nextCursor` of an
    /// earlier `method` answer in this session, if it did.
    pub(super) fn issued(&self, method: &str, params: Option<&Raw<'_>>) -> Option<At> {
        let cursor = string(params.and_then(|p| p.get("cursor")))?;
        self.pages
            .iter()
            .find(|p| p.method == method && p.cursor == cursor)
            .map(|p| p.at)
    }

    /// A request naming prompt `name` with `arguments`, against the latest
    /// complete prompt list (none when no list was answered, or a
    /// `prompts/list_changed` came after it).
    pub(super) fn prompt_problem(
        &self,
        name: &str,
        arguments: Option<&Raw<'_>>,
    ) -> Option<PromptProblem> {
        let (prompts, listed, heard) = self.prompts.as_ref()?;
        let slot = ListKind::Prompts.slot();
        if self.notified[slot].is_some_and(|n| n > *heard) {
            return None;
        }
        let Some(prompt) = prompts.iter().find(|p| p.name == name) else {
            return Some(PromptProblem::Unknown {
                name: name.to_owned(),
                listed: *listed,
            });
        };
        let missing: Vec<String> = prompt
            .required
            .iter()
            .filter(|a| arguments.and_then(|args| args.get(a)).is_none())
            .cloned()
            .collect();
        (!missing.is_empty()).then(|| PromptProblem::Missing {
            name: name.to_owned(),
            missing,
            listed: *listed,
        })
    }

    /// Whether a complete prompt list still current lacks `name`.
    pub(super) fn prompt_unknown(&self, name: &str) -> bool {
        matches!(
            self.prompt_problem(name, None),
            Some(PromptProblem::Unknown { .. })
        )
    }

    /// A listed tool's `outputSchema` and where it was listed.
    pub(super) fn output_schema(&self, name: &str) -> Option<(&serde_json::Value, At)> {
        self.output
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, s, at)| (s, *at))
    }

    fn output_schemas(&mut self, items: &Raw<'_>, at: At) {
        for tool in items.elements() {
            let Some(name) = string(tool.get("name")) else {
                continue;
            };
            let schema = tool.get("outputSchema").and_then(|s| s.to_value());
            self.output.retain(|(n, _, _)| *n != name);
            if let Some(schema) = schema {
                if self.output.len() < TOOLS_CAP {
                    self.output.push((name, schema, at));
                }
            }
        }
    }

    /// Follows `cacheScope` from a page to the page its `nextCursor` reaches,
    /// and remembers the cursors issued.
    fn pages(
        &mut self,
        method: &str,
        cursor: Option<&str>,
        next: Option<String>,
        result: &Raw<'_>,
        at: At,
        seen: &mut Vec<Seen>,
    ) {
        let scope = string(result.get("cacheScope"));
        if let Some(cursor) = cursor {
            if let Some(i) = self
                .pages
                .iter()
                .position(|p| p.method == method && p.cursor == cursor)
            {
                let page = self.pages.remove(i);
                if let (Some(was), Some(now)) = (page.scope, scope.as_ref()) {
                    if was != *now {
                        seen.push(Seen::ScopeChanged {
                            method: method.to_owned(),
                            since: page.at,
                            was,
                            now: now.clone(),
                        });
                    }
                }
            }
        }
        if let Some(next) = next {
            if self.pages.len() == PAGES_CAP {
                self.pages.remove(0);
            }
            self.pages.push(Page {
                method: method.to_owned(),
                cursor: next,
                scope,
                at,
            });
        }
    }
}

impl Concern for Lists {
    fn rules() -> &'static [RuleId] {
        &[
            RuleId::McpListsChangedNotification,
            RuleId::McpR5ToolsDeterministicOrder,
            RuleId::McpR5CacheScopePages,
            RuleId::McpPaginationStableCursor,
            RuleId::McpPromptsGetInvalidParams,
            RuleId::McpCompletionStandardErrors,
            RuleId::McpToolsOutputSchemaConform,
        ]
    }

    /// A `list_changed` notification from the server.
    fn notification(&mut self, _cx: &mut Cx<'_>, n: &Notification<'_>) {
        if n.from == Direction::ServerToClient {
            self.notified(n.method);
        }
    }

    /// The server's answer to a client request: a list answer against the
    /// earlier ones, and any answer against what they showed.
    fn answer(&mut self, cx: &mut Cx<'_>, a: &Answer<'_>) {
        if a.asker != Direction::ClientToServer {
            return;
        }
        self.list_answer(cx, a.open, a.reply, a.at);
        self.answer_against_lists(cx, a.open, a.reply, a.at);
    }

    /// The end of the capture: the checks that could not be made.
    fn finish(&mut self, _cx: &End<'_>, end: &mut Ending) {
        end.not_observed.extend(self.unjudged.iter().cloned());
    }
}

impl Lists {
    /// Answers judged against what earlier list answers showed: an issued
    /// cursor refused, a prompt that is not listed or lacks a required
    /// argument, a completion without the capability, a tool called against
    /// its task support.
    fn answer_against_lists(&mut self, cx: &mut Cx<'_>, open: &Open, reply: &Message<'_>, at: At) {
        let method = open.request.method().unwrap_or_default();
        let params = open.request.params();
        let code = match reply {
            Message::Error(e) => Some(e.error.code),
            _ => None,
        };
        let input_required = matches!(reply, Message::Success(s)
            if s.result.get("resultType").and_then(|t| t.as_string().map(|t| t == "input_required")) == Some(true));
        if let (Some(_), Some(issued)) = (code, self.issued(&method, params)) {
            cx.out.flag(
                RuleId::McpPaginationStableCursor,
                format!(
                    "`{method}` refused a cursor the server issued at event {}",
                    issued.number()
                ),
                vec![issued, open.at, at],
            );
        }
        let answered = code.map_or_else(|| "a result".to_owned(), |c| format!("error {c}"));
        match method.as_ref() {
            "prompts/get" if !input_required && code != Some(crate::codes::INVALID_PARAMS) => {
                let name = params.and_then(|p| string_member(p, "name"));
                let arguments = params.and_then(|p| p.get("arguments").map(Raw::into_owned));
                let problem = name.and_then(|name| self.prompt_problem(&name, arguments.as_ref()));
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
                cx.out.flag(
                    RuleId::McpPromptsGetInvalidParams,
                    format!("`prompts/get` for {what} (listed at event {}) was answered with {answered}, not -32602 (Invalid params)", listed.number()),
                    vec![listed, open.at, at],
                );
            }
            "completion/complete" => self.completion_errors(cx, open, code, at),
            "tools/call" => {
                if let Message::Success(s) = reply {
                    if !input_required {
                        self.structured_output(cx, open, &s.result, at);
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
    fn structured_output(&mut self, cx: &mut Cx<'_>, open: &Open, result: &Raw<'_>, at: At) {
        // Before 2025-06-18 there is no `outputSchema` to hold a result to,
        // and a not-judged note must not stand for a rule that does not apply.
        if !cx.applies(RuleId::McpToolsOutputSchemaConform) {
            return;
        }
        if result.get("isError").is_some_and(|e| e.as_str() == "true") {
            return;
        }
        let Some(name) = open.request.params().and_then(|p| string_member(p, "name")) else {
            return;
        };
        let Some((schema, listed)) = self.output_schema(&name) else {
            return;
        };
        let (pointer, message) = match result.get("structuredContent").map(|c| c.to_value()) {
            None => (String::new(), format!("tool {name:?} has an `outputSchema` (listed at event {}), but its result has no `structuredContent`", listed.number())),
            Some(None) => return,
            Some(Some(content)) => match crate::schema_check::conform(schema, &content, cx.revision) {
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
        cx.out.at(
            RuleId::McpToolsOutputSchemaConform,
            pointer,
            message,
            vec![listed, open.at, at],
        );
    }

    /// server/utilities/completion §Error Handling.
    fn completion_errors(&self, cx: &mut Cx<'_>, open: &Open, code: Option<i64>, at: At) {
        let Some((declared_at, answer)) = cx.negotiated.declared_at() else {
            return;
        };
        let declared = cx.negotiated.server_has("completions");
        if !declared {
            if let Some(c) = code.filter(|c| *c != crate::codes::METHOD_NOT_FOUND) {
                cx.out.flag(
                    RuleId::McpCompletionStandardErrors,
                    format!("`completion/complete` was answered with error {c}; the server's {answer} answer declared no `completions`, so -32601 (Method not found)"),
                    vec![declared_at, open.at, at],
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
        if self.prompt_unknown(&name) && code != Some(crate::codes::INVALID_PARAMS) {
            let answered = code.map_or_else(|| "a result".to_owned(), |c| format!("error {c}"));
            cx.out.flag(
                RuleId::McpCompletionStandardErrors,
                format!("`completion/complete` for prompt {name:?}, which the latest `prompts/list` does not hold, was answered with {answered}, not -32602 (Invalid params)"),
                vec![open.at, at],
            );
        }
    }

    /// Whether the server declared `listChanged` for `kind`'s capability.
    fn list_changed_declared(cx: &Cx<'_>, kind: ListKind) -> bool {
        cx.negotiated
            .server_caps
            .as_ref()
            .and_then(|c| c.get(kind.capability()))
            .is_some_and(|c| c.get("listChanged").is_some_and(|v| v.as_str() == "true"))
    }

    /// A list answer against the earlier ones.
    fn list_answer(&mut self, cx: &mut Cx<'_>, open: &Open, reply: &Message<'_>, at: At) {
        let Message::Success(s) = reply else { return };
        let method = open.request.method().unwrap_or_default();
        let seen = self.answered(&method, open.request.params(), &s.result, at);
        for seen in seen {
            match seen {
                Seen::Changed { kind, since } => {
                    // 2026-07-28 delivers list changes only on a subscription
                    // that asked for them (basic/patterns/subscriptions
                    // §Opening a Stream), so only one acknowledged by then
                    // and still open was owed the notification; earlier
                    // revisions send them to the client whenever the
                    // capability declares `listChanged`.
                    let owed = Self::list_changed_declared(cx, kind)
                        && (!cx.applies(RuleId::McpR5SubscriptionsRequestedOnly)
                            || subscribed(cx, kind.filter(), since));
                    if owed {
                        cx.out.flag(
                            RuleId::McpListsChangedNotification,
                            format!(
                                "`{}` answered another list than at event {}, with `{}.listChanged` declared and no `{}` between",
                                kind.method(),
                                since.number(),
                                kind.capability(),
                                kind.notification()
                            ),
                            vec![since, at],
                        );
                    }
                }
                Seen::Reordered { kind, since } => {
                    if kind == ListKind::Tools {
                        cx.out.flag(
                            RuleId::McpR5ToolsDeterministicOrder,
                            format!(
                                "`tools/list` answered the same tools as at event {} in another order, with no `{}` between",
                                since.number(),
                                kind.notification()
                            ),
                            vec![since, at],
                        );
                    }
                }
                Seen::ScopeChanged {
                    method,
                    since,
                    was,
                    now,
                } => cx.out.flag(
                    RuleId::McpR5CacheScopePages,
                    format!("a page of `{method}` has `cacheScope` {now:?}; the page at event {} that gave its cursor had {was:?}", since.number()),
                    vec![since, at],
                ),
            }
        }
    }
}

/// The prompts of a `prompts/list` answer with their required arguments.
fn prompts(items: &Raw<'_>) -> Vec<Prompt> {
    items
        .elements()
        .filter_map(|p| {
            let name = string(p.get("name"))?;
            let required = p
                .get("arguments")
                .map(|args| {
                    args.elements()
                        .filter(|a| a.get("required").is_some_and(|r| r.as_str() == "true"))
                        .filter_map(|a| string(a.get("name")))
                        .collect()
                })
                .unwrap_or_default();
            Some(Prompt { name, required })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(index: u64) -> At {
        At { index, time: None }
    }

    fn raw(text: &str) -> Raw<'static> {
        Raw::from_value(&serde_json::from_str(text).unwrap())
    }

    #[test]
    fn a_changed_list_without_notification_is_seen() {
        let mut lists = Lists::default();
        let one = raw(r#"{"tools":[{"name":"a"}]}"#);
        let two = raw(r#"{"tools":[{"name":"a"},{"name":"b"}]}"#);
        assert!(lists.answered("tools/list", None, &one, at(1)).is_empty());
        assert_eq!(
            lists.answered("tools/list", None, &two, at(3)),
            [Seen::Changed {
                kind: ListKind::Tools,
                since: at(1)
            }]
        );
        lists.notified("notifications/tools/list_changed");
        assert!(lists.answered("tools/list", None, &one, at(6)).is_empty());
    }

    #[test]
    fn pages_are_not_complete_lists() {
        let mut lists = Lists::default();
        let page = raw(r#"{"tools":[{"name":"a"}],"nextCursor":"c"}"#);
        let other = raw(r#"{"tools":[{"name":"b"}],"nextCursor":"c"}"#);
        assert!(lists.answered("tools/list", None, &page, at(1)).is_empty());
        assert!(lists.answered("tools/list", None, &other, at(3)).is_empty());
    }

    #[test]
    fn cache_scope_followed_through_cursor() {
        let mut lists = Lists::default();
        let first = raw(r#"{"tools":[],"nextCursor":"c2","cacheScope":"private"}"#);
        let second = raw(r#"{"tools":[],"cacheScope":"public"}"#);
        let cursor = raw(r#"{"cursor":"c2"}"#);
        lists.answered("tools/list", None, &first, at(1));
        let seen = lists.answered("tools/list", Some(&cursor), &second, at(3));
        assert_eq!(
            seen,
            [Seen::ScopeChanged {
                method: "tools/list".into(),
                since: at(1),
                was: "private".into(),
                now: "public".into()
            }]
        );
    }

    #[test]
    fn prompts_are_known_until_the_list_changes() {
        let mut lists = Lists::default();
        let list = raw(
            r#"{"prompts":[{"name":"review","arguments":[{"name":"code","required":true},{"name":"style"}]}]}"#,
        );
        lists.answered("prompts/list", None, &list, at(1));
        assert_eq!(
            lists.prompt_problem("nope", None),
            Some(PromptProblem::Unknown {
                name: "nope".into(),
                listed: at(1)
            })
        );
        let args = raw(r#"{"style":"terse"}"#);
        assert_eq!(
            lists.prompt_problem("review", Some(&args)),
            Some(PromptProblem::Missing {
                name: "review".into(),
                missing: vec!["code".into()],
                listed: at(1)
            })
        );
        let full = raw(r#"{"code":"x"}"#);
        assert_eq!(lists.prompt_problem("review", Some(&full)), None);
        lists.notified("notifications/prompts/list_changed");
        assert_eq!(lists.prompt_problem("nope", None), None);
    }

    #[test]
    fn cursors_issued_remembered() {
        let mut lists = Lists::default();
        let page = raw(
            r#"{"tools":[{"name":"a","execution":{"taskSupport":"required"}},{"name":"b"}],"nextCursor":"c2"}"#,
        );
        lists.answered("tools/list", None, &page, at(1));
        assert_eq!(
            lists.issued("tools/list", Some(&raw(r#"{"cursor":"c2"}"#))),
            Some(at(1))
        );
        assert_eq!(
            lists.issued("tools/list", Some(&raw(r#"{"cursor":"zz"}"#))),
            None
        );
    }
}
