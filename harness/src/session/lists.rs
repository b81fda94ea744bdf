//! What the server's list answers show over a session: a list that changed
//! with no `list_changed` notification (server/tools, server/prompts,
//! server/resources §List Changed Notification), tools reordered while their
//! set stayed the same (2026-07-28 server/tools §Capabilities), and pages of
//! one list with different `cacheScope`s (2026-07-28 server/utilities/caching
//! §Interaction with Pagination).
//!
//! It also keeps what later answers are judged against: the cursors the server
//! issued (server/utilities/pagination §Implementation Guidelines: stable
//! cursors), the latest complete prompt list with each prompt's required
//! arguments (server/prompts §Error Handling, server/utilities/completion
//! §Error Handling), and each listed tool's `execution.taskSupport`
//! (2025-11-25 basic/utilities/tasks §Tool-Level Negotiation).
//!
//! Only complete lists are compared (a request without `cursor` answered
//! without `nextCursor`): a page of a longer list says nothing about the whole.
//! Memory is the names of the latest complete list of each kind and its
//! prompts' required arguments (as long as the server's own lists), at most
//! [`PAGES_CAP`] cursors and at most [`TOOLS_CAP`] tools' task support.

use super::At;
use crate::ir::{Raw, ValueKind};

/// Cursors remembered for `cacheScope`; a client walks one list at a time, so
/// a few are plenty, and the oldest is dropped first.
pub(super) const PAGES_CAP: usize = 64;

/// Tools whose `execution.taskSupport` is remembered; past this, tools listed
/// later are not judged (a server with more tools than this is rare).
pub(super) const TOOLS_CAP: usize = 4096;

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

/// A tool's `execution.taskSupport`, absent read as its default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TaskSupport {
    Forbidden,
    Optional,
    Required,
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
    tasks: Vec<(String, TaskSupport)>,
    /// Listed tools' `outputSchema`, parsed (at most [`TOOLS_CAP`]).
    output: Vec<(String, serde_json::Value, At)>,
}

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
            self.task_support(&items);
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

    /// A listed tool's task support; `None` for a tool no list named.
    pub(super) fn tool_tasks(&self, name: &str) -> Option<TaskSupport> {
        self.tasks.iter().find(|(n, _)| n == name).map(|(_, t)| *t)
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

    fn task_support(&mut self, items: &Raw<'_>) {
        for tool in items.elements() {
            let Some(name) = string(tool.get("name")) else {
                continue;
            };
            let support = match tool
                .get("execution")
                .and_then(|e| string(e.get("taskSupport")))
                .as_deref()
            {
                Some("required") => TaskSupport::Required,
                Some("optional") => TaskSupport::Optional,
                // Absent and "forbidden" alike (§Tool-Level Negotiation:
                // "This is the default behavior"); an unknown value too.
                _ => TaskSupport::Forbidden,
            };
            if let Some(entry) = self.tasks.iter_mut().find(|(n, _)| *n == name) {
                entry.1 = support;
            } else if self.tasks.len() < TOOLS_CAP {
                self.tasks.push((name, support));
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
    fn cursors_issued_and_task_support_remembered() {
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
        assert_eq!(lists.tool_tasks("a"), Some(TaskSupport::Required));
        assert_eq!(lists.tool_tasks("b"), Some(TaskSupport::Forbidden));
        assert_eq!(lists.tool_tasks("c"), None);
    }
}
