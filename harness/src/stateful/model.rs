//! The model: what the spec text says the state must be after each step of
//! a sequence, and which rule a step breaks when it is not.
//!
//! Each expectation is one rule of the catalogue, held only under the
//! revisions the rule names and only for what the server declared:
//!
//! - one walk of a list yields no name twice (`mcp.lists.items-unique`,
//!   SHOULD: the text names names unique without a keyword, and from
//!   2025-11-25 "Tool names SHOULD be unique within a server");
//! - a cursor the server issued in this session is not refused later
//!   (`mcp.pagination.stable-cursor`, SHOULD: "Provide stable cursors"),
//!   unless the list changed since;
//! - a cursor the server never issued is answered -32602
//!   (`mcp.error.invalid-cursor`, SHOULD);
//! - two complete walks of a list that differ, with no list-changed
//!   notification between them, from a server that declared `listChanged`
//!   (`mcp.lists.changed-notification`, SHOULD); a server that did not
//!   declare it may change its lists silently: the text asks nothing then;
//! - no `notifications/resources/updated` for a resource after its
//!   unsubscription was answered (`mcp.resources.no-update-after-unsubscribe`,
//!   SHOULD NOT: the schema's description, without a keyword);
//! - a request carrying the id of a session ended by DELETE is answered 404
//!   (`mcp.http.session-terminated-404`, MUST).
//!
//! The text does not require a list to stay the same between walks, nor
//! a page size, nor any order of pages: the model expects none of these.

use std::collections::{BTreeMap, BTreeSet};

use crate::codes::INVALID_PARAMS;
use crate::rules::RuleId;
use crate::Revision;

use super::caps::Caps;
use super::op::List;

/// The most pages one walk follows: a server whose cursors never end is
/// walked this far and no further.
pub const MAX_PAGES: usize = 64;

/// What a request came back with.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A result.
    Result(serde_json::Value),
    /// An error response.
    Error {
        /// Its code.
        code: i64,
        /// Its message.
        message: String,
    },
    /// No answer (a timeout, the peer gone), with why: nothing observed.
    Missing(String),
}

impl Answer {
    /// The answer in a few words, as a story line ends.
    #[must_use]
    pub fn brief(&self) -> String {
        match self {
            Answer::Result(_) => "a result".into(),
            Answer::Error { code, message } => format!("error {code} ({message})"),
            Answer::Missing(why) => format!("no answer: {why}"),
        }
    }
}

/// One expectation the model held that a step broke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Breach {
    /// The rule that states the expectation.
    pub rule: RuleId,
    /// What was seen, in words.
    pub detail: String,
}

/// One list's state within a session.
#[derive(Debug, Clone, Default)]
struct ListState {
    /// Cursors the server issued for it in this session, oldest first, each
    /// with the count of list changes announced before it was issued.
    issued: Vec<(String, u64)>,
    /// The names of the last complete walk.
    last_walk: Option<BTreeSet<String>>,
    /// List-changed notifications announced since the last complete walk.
    changed_since_walk: bool,
    /// List-changed notifications announced in this session.
    changes: u64,
}

/// A walk in progress.
#[derive(Debug, Clone)]
pub struct Walk {
    list: List,
    /// Each name seen so far, with the page it was first on (from 1).
    seen: BTreeMap<String, usize>,
    cursors: BTreeSet<String>,
    pages: usize,
    complete: bool,
    /// The list's changes announced when the walk began: a list announced
    /// changed during the walk may repeat or drop a name legitimately.
    changes_at_start: u64,
}

impl Walk {
    /// The number of pages fetched so far.
    #[must_use]
    pub fn pages(&self) -> usize {
        self.pages
    }
}

/// Whether an unsubscription is answered, and whether a request was sent
/// since (only then is a notification surely later than it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fence {
    Answered,
    Armed,
}

/// The state the spec text implies, for one run of a sequence.
#[derive(Debug, Clone)]
pub struct Model {
    revision: Revision,
    caps: Caps,
    lists: BTreeMap<List, ListState>,
    resources: Vec<String>,
    subscribed: BTreeSet<String>,
    unsubscribed: BTreeMap<String, Fence>,
    flagged_updates: BTreeSet<String>,
    /// The status the last DELETE of a session was answered with.
    ended: Option<u16>,
    bogus: u64,
}

impl Model {
    /// A model of a fresh session under `revision` with the features `caps`.
    #[must_use]
    pub fn new(revision: Revision, caps: Caps) -> Model {
        Model {
            revision,
            caps,
            lists: BTreeMap::new(),
            resources: Vec::new(),
            subscribed: BTreeSet::new(),
            unsubscribed: BTreeMap::new(),
            flagged_updates: BTreeSet::new(),
            ended: None,
            bogus: 0,
        }
    }

    /// The features the sequence may exercise.
    #[must_use]
    pub fn caps(&self) -> &Caps {
        &self.caps
    }

    fn applies(&self, rule: RuleId) -> bool {
        rule.info().revisions.contains(self.revision)
    }

    fn breach(&self, rule: RuleId, detail: String) -> Vec<Breach> {
        if self.applies(rule) {
            vec![Breach { rule, detail }]
        } else {
            Vec::new()
        }
    }

    /// A new session began (the last one was ended): cursors and
    /// subscriptions belong to a session (server/utilities/pagination:
    /// clients do not "persist cursors across sessions"), so they are
    /// forgotten; what was listed stays known by name.
    pub fn new_session(&mut self) {
        self.lists.clear();
        self.subscribed.clear();
        self.unsubscribed.clear();
    }

    /// Starts a walk of `list`.
    #[must_use]
    pub fn walk(&self, list: List) -> Walk {
        Walk {
            list,
            seen: BTreeMap::new(),
            cursors: BTreeSet::new(),
            pages: 0,
            complete: false,
            changes_at_start: self.lists.get(&list).map_or(0, |s| s.changes),
        }
    }

    /// The page `answer` of `walk`, fetched with `sent` (`None` for the
    /// first): what it broke, the cursor to follow (`None`: the walk is
    /// over), and the page in words.
    pub fn page(
        &mut self,
        walk: &mut Walk,
        sent: Option<&str>,
        answer: &Answer,
    ) -> (Vec<Breach>, Option<String>, String) {
        walk.pages += 1;
        let list = walk.list;
        let result = match answer {
            Answer::Result(result) => result,
            Answer::Error { code, .. } => {
                let breaches = match sent {
                    Some(cursor) if self.unchanged_since_issued(list, cursor) => self.breach(
                        RuleId::McpPaginationStableCursor,
                        format!(
                            "`{}` with the cursor `{cursor}` the server issued on the page before was refused with error {code}",
                            list.method()
                        ),
                    ),
                    _ => Vec::new(),
                };
                return (breaches, None, answer.brief());
            }
            Answer::Missing(_) => return (Vec::new(), None, answer.brief()),
        };
        let names = names(list, result);
        let changed_meanwhile =
            self.lists.get(&list).map_or(0, |s| s.changes) != walk.changes_at_start;
        let mut breaches = Vec::new();
        let mut repeated = Vec::new();
        for name in &names {
            if let Some(first) = walk.seen.get(name) {
                if list != List::Templates && !changed_meanwhile {
                    repeated.push(name.clone());
                    breaches.extend(self.breach(
                        RuleId::McpListsItemsUnique,
                        format!(
                            "one walk of `{}` yielded `{name}` on page {} and again on page {}",
                            list.method(),
                            first,
                            walk.pages
                        ),
                    ));
                }
            } else {
                walk.seen.insert(name.clone(), walk.pages);
            }
            if list == List::Resources && !self.resources.contains(name) {
                self.resources.push(name.clone());
            }
        }
        let next = result
            .get("nextCursor")
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned);
        let state = self.lists.entry(list).or_default();
        let mut words = format!("{} item(s) ({})", names.len(), shown(&names));
        if let Some(next) = &next {
            words.push_str(&format!(", nextCursor `{next}`"));
            let changes = state.changes;
            if !state.issued.iter().any(|(c, _)| c == next) {
                state.issued.push((next.clone(), changes));
            }
        }
        if !repeated.is_empty() {
            words.push_str(&format!(": repeats {}", shown(&repeated)));
        }
        let follow = match next {
            None => {
                walk.complete = true;
                None
            }
            // A cursor met again in one walk goes round in a circle.
            Some(c) if walk.cursors.contains(&c) || walk.pages >= MAX_PAGES => None,
            Some(c) => {
                walk.cursors.insert(c.clone());
                Some(c)
            }
        };
        (breaches, follow, words)
    }

    /// Ends `walk`: a complete walk is compared with the list's last one.
    pub fn walk_done(&mut self, walk: Walk) -> Vec<Breach> {
        if !walk.complete {
            return Vec::new();
        }
        let list = walk.list;
        let names: BTreeSet<String> = walk.seen.into_keys().collect();
        let declared = self.caps.list_changed.contains(&list);
        // 2026-07-28 ties the notification to a subscription stream this
        // model does not open; templates have no sentence of their own.
        let judged = declared && self.revision < Revision::Mcp2026_07_28 && list != List::Templates;
        let state = self.lists.entry(list).or_default();
        let before = state.last_walk.replace(names.clone());
        let changed = std::mem::take(&mut state.changed_since_walk);
        match before {
            Some(before) if judged && !changed && before != names => {
                let gone: Vec<String> = before.difference(&names).cloned().collect();
                let new: Vec<String> = names.difference(&before).cloned().collect();
                self.breach(
                    RuleId::McpListsChangedNotification,
                    format!(
                        "two complete walks of `{}` differ (gone: {}; new: {}) and no `{}` came between them, from a server that declared `listChanged`",
                        list.method(),
                        shown(&gone),
                        shown(&new),
                        list.changed_notification()
                    ),
                )
            }
            _ => Vec::new(),
        }
    }

    fn unchanged_since_issued(&self, list: List, cursor: &str) -> bool {
        self.lists.get(&list).is_some_and(|s| {
            s.issued
                .iter()
                .any(|(c, changes)| c == cursor && *changes == s.changes)
        })
    }

    /// A cursor the server issued for `list` in this session, with no list
    /// change announced since: the oldest, so a revisit reaches furthest
    /// back. `None` when there is none yet.
    #[must_use]
    pub fn revisit_cursor(&self, list: List) -> Option<String> {
        let state = self.lists.get(&list)?;
        state
            .issued
            .iter()
            .find(|(_, changes)| *changes == state.changes)
            .map(|(c, _)| c.clone())
    }

    /// The answer to a revisit of `cursor`.
    pub fn revisited(&mut self, list: List, cursor: &str, answer: &Answer) -> Vec<Breach> {
        match answer {
            Answer::Error { code, .. } if self.unchanged_since_issued(list, cursor) => self.breach(
                RuleId::McpPaginationStableCursor,
                format!(
                    "`{}` with the cursor `{cursor}` the server issued earlier in this session was refused with error {code}",
                    list.method()
                ),
            ),
            _ => Vec::new(),
        }
    }

    /// A cursor no server issued: wirecheck's own invention, new each time.
    pub fn bogus_cursor(&mut self) -> String {
        self.bogus += 1;
        format!("wirecheck-never-issued-{}", self.bogus)
    }

    /// The answer to a list request with a cursor no server issued.
    #[must_use]
    pub fn bogus_answered(&self, list: List, cursor: &str, answer: &Answer) -> Vec<Breach> {
        let refused = match answer {
            Answer::Error { code, .. } if *code == INVALID_PARAMS => return Vec::new(),
            Answer::Missing(_) => return Vec::new(),
            Answer::Error { code, .. } => format!("error {code}"),
            Answer::Result(_) => "a page".to_owned(),
        };
        self.breach(
            RuleId::McpErrorInvalidCursor,
            format!(
                "`{}` with the cursor `{cursor}`, which the server never issued, was answered with {refused}, not -32602",
                list.method()
            ),
        )
    }

    /// The `n`-th resource listed so far (modulo how many), if any.
    #[must_use]
    pub fn resource(&self, n: usize) -> Option<String> {
        if self.resources.is_empty() {
            return None;
        }
        self.resources.get(n % self.resources.len()).cloned()
    }

    /// The answer to `resources/subscribe` for `uri`.
    pub fn subscribed(&mut self, uri: &str, answer: &Answer) {
        if matches!(answer, Answer::Result(_)) {
            self.subscribed.insert(uri.to_owned());
            self.unsubscribed.remove(uri);
        }
    }

    /// The answer to `resources/unsubscribe` for `uri`: once it is a result,
    /// updates for `uri` are expected to stop (after the next request).
    pub fn unsubscribed(&mut self, uri: &str, answer: &Answer) {
        if matches!(answer, Answer::Result(_)) && self.subscribed.remove(uri) {
            self.unsubscribed.insert(uri.to_owned(), Fence::Answered);
        }
    }

    /// A request is being sent on the one ordered stream the server writes
    /// to (stdio): every unsubscription answered before it is now surely
    /// behind the server (its notifications after this point were written
    /// after it answered the unsubscription). Not called where streams are
    /// several (HTTP), where that order cannot be seen.
    pub fn request_sent(&mut self) {
        for fence in self.unsubscribed.values_mut() {
            *fence = Fence::Armed;
        }
    }

    /// A notification from the server, `method` with `params`.
    pub fn notification(
        &mut self,
        method: &str,
        params: Option<&serde_json::Value>,
    ) -> Vec<Breach> {
        for list in List::ALL {
            if list.changed_notification() == method {
                let state = self.lists.entry(list).or_default();
                state.changed_since_walk = true;
                state.changes += 1;
            }
        }
        if method != "notifications/resources/updated" || !self.subscribed.is_empty() {
            return Vec::new();
        }
        let Some(uri) = params
            .and_then(|p| p.get("uri"))
            .and_then(serde_json::Value::as_str)
        else {
            return Vec::new();
        };
        // An update may be of a sub-resource of the one subscribed to.
        let Some(ended) = self
            .unsubscribed
            .iter()
            .find(|(u, fence)| **fence == Fence::Armed && uri.starts_with(u.as_str()))
            .map(|(u, _)| u.clone())
        else {
            return Vec::new();
        };
        if !self.flagged_updates.insert(ended.clone()) {
            return Vec::new();
        }
        self.breach(
            RuleId::McpResourcesNoUpdateAfterUnsubscribe,
            format!(
                "`notifications/resources/updated` for `{uri}` came after the server answered `resources/unsubscribe` of `{ended}` and a later request was sent, with no subscription open"
            ),
        )
    }

    /// The DELETE of the session was answered `status`.
    pub fn session_ended(&mut self, status: u16) {
        self.ended = Some(status);
    }

    /// Whether a session was ended with a 2xx DELETE: only then does a
    /// request with its id have an answer the text names.
    #[must_use]
    pub fn has_ended_session(&self) -> bool {
        self.ended.is_some_and(|s| (200..300).contains(&s))
    }

    /// A request with the ended session's id was answered with HTTP
    /// `status`.
    #[must_use]
    pub fn reused(&self, status: u16) -> Vec<Breach> {
        if !self.has_ended_session() || status == 404 {
            return Vec::new();
        }
        self.breach(
            RuleId::McpHttpSessionTerminated404,
            format!(
                "a request carrying the id of a session ended by DELETE (answered {}) was answered HTTP {status}, not 404",
                self.ended.unwrap_or_default()
            ),
        )
    }
}

/// The names of a page's items (what [`List::name_key`] names), in order.
fn names(list: List, result: &serde_json::Value) -> Vec<String> {
    result
        .get(list.items_key())
        .and_then(serde_json::Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|i| i.get(list.name_key()).and_then(serde_json::Value::as_str))
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Names as a story shows them: backquoted, the first few.
fn shown(names: &[String]) -> String {
    const SHOWN: usize = 4;
    let mut out: Vec<String> = names.iter().take(SHOWN).map(|n| format!("`{n}`")).collect();
    if names.len() > SHOWN {
        out.push(format!("… {} more", names.len() - SHOWN));
    }
    if out.is_empty() {
        "none".into()
    } else {
        out.join(", ")
    }
}

#[cfg(test)]
mod tests;
