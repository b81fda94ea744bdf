//! Whether a client treats the reference peer's cursors as opaque tokens:
//! `mcp.pagination.cursor-opaque` (server/utilities/pagination §Implementation
//! Guidelines, MUST) and `mcp.tasks.cursor-opaque` (2025-11-25
//! basic/utilities/tasks §Task Listing, MUST).
//!
//! Only the issuer can tell a cursor it issued from one a client parsed,
//! modified or made up, so this is the client judge's, not the session
//! judge's: the peer's cursors check themselves ([`crate::peer::cursor`]),
//! and the director sees every `nextCursor` the peer hands out. Each cursor a
//! client sends must be, byte for byte, one the peer issues for that list;
//! on the pagination page's lists before 2026-07-28 it must also have been
//! issued in this session ("Don't persist cursors across sessions"). The
//! tasks page forbids only parsing and modifying, so a `tasks/list` cursor
//! from an earlier connection is allowed, and 2026-07-28's pagination page
//! drops the item about sessions (it has none).

use std::collections::BTreeSet;

use harness::rules::RuleId;
use harness::{Frame, Message, Outcome, Revision};

use crate::peer::cursor;
use crate::report::{Record, RuleTally};

/// Cursors remembered per session. The peer issues one per page of a list,
/// so a session meets a handful; past this many, a cursor not remembered is
/// not judged rather than blamed.
const ISSUED_CAP: usize = 4096;

/// Broken cursors quoted per rule; the rest are counted.
const QUOTED: usize = 8;

/// What one rule saw over the conversation.
type Tally = RuleTally<QUOTED>;

/// The cursors of one judged conversation.
#[derive(Debug, Default)]
pub(crate) struct Cursors {
    /// `(method, cursor)` for each `nextCursor` the peer issued.
    issued: BTreeSet<(String, String)>,
    /// More were issued than [`ISSUED_CAP`]: some were not remembered.
    forgot: bool,
    pagination: Tally,
    tasks: Tally,
}

fn string_cursor(message: &Message<'_>) -> Option<String> {
    let Message::Request(request) = message else {
        return None;
    };
    let params = request.params.as_ref()?;
    params.get("cursor")?.as_string().map(|c| c.into_owned())
}

impl Cursors {
    /// A client's request, before the peer answers it: its `cursor` judged.
    /// A cursor that is not a string is the schema's to judge, not this.
    pub(crate) fn sent(&mut self, message: &Message<'_>, revision: Option<Revision>) {
        let Message::Request(request) = message else {
            return;
        };
        let method = request.method.decoded();
        let Some(list) = cursor::list_of(&method) else {
            return;
        };
        let Some(sent) = string_cursor(message) else {
            return;
        };
        let tasks = list == "tasks";
        if tasks && revision != Some(Revision::Mcp2025_11_25) {
            // `tasks/list` is 2025-11-25's alone (2026-07-28 moved tasks to
            // an extension without it).
            return;
        }
        let problem = if cursor::page_of(list, &sent).is_none() {
            Some(format!(
                "`{method}` sent the cursor {sent:?}, which the peer never issues for that list: parsed, modified, made up{}",
                if tasks { "" } else { " or taken from another list" }
            ))
        } else if !tasks
            && revision.is_some_and(|r| r < Revision::Mcp2026_07_28)
            && !self.issued.contains(&(method.to_string(), sent.clone()))
        {
            if self.forgot {
                return;
            }
            Some(format!(
                "`{method}` sent the cursor {sent:?}, one of the peer's but not issued in this session: kept from an earlier one"
            ))
        } else {
            None
        };
        let tally = if tasks {
            &mut self.tasks
        } else {
            &mut self.pagination
        };
        tally.check(problem);
    }

    /// The peer's answers to `request`: each `nextCursor` remembered.
    pub(crate) fn answered(&mut self, request: &Message<'_>, out: &[Vec<u8>]) {
        let Message::Request(request) = request else {
            return;
        };
        let method = request.method.decoded();
        if cursor::list_of(&method).is_none() {
            return;
        }
        for frame in out {
            let Ok(Frame::Single(Message::Success(s))) = harness::lift(frame) else {
                continue;
            };
            if s.id.raw() != request.id.raw() {
                continue;
            }
            let Some(next) = s
                .result
                .get("nextCursor")
                .and_then(|c| c.as_string().map(|c| c.into_owned()))
            else {
                continue;
            };
            if self.issued.len() >= ISSUED_CAP {
                self.forgot = true;
            } else {
                self.issued.insert((method.to_string(), next));
            }
        }
    }

    /// One record per rule that applies to `revision`, on conversation `name`.
    pub(crate) fn records(&self, name: &str, revision: Revision) -> Vec<Record> {
        [
            (RuleId::McpPaginationCursorOpaque, &self.pagination),
            (RuleId::McpTasksCursorOpaque, &self.tasks),
        ]
        .into_iter()
        .filter(|(rule, _)| rule.info().applies_to(revision))
        .map(|(rule, tally)| {
            let outcome = if tally.is_broken() {
                Outcome::Fail
            } else if tally.seen() > 0 {
                Outcome::Pass
            } else {
                Outcome::NotObserved {
                    why: format!(
                        "the client sent no {} request with a cursor",
                        if rule == RuleId::McpTasksCursorOpaque {
                            "`tasks/list`"
                        } else {
                            "list"
                        }
                    ),
                }
            };
            let broken = tally.quoted();
            let mut record = Record::of_transport_rule(
                format!("client/{}", rule.as_str()),
                revision,
                None,
                rule,
                outcome,
                broken,
            );
            record.place.file = Some(name.to_owned());
            record
                .notes
                .push(format!("{} cursor(s) the client sent judged", tally.seen()));
            record
        })
        .collect()
    }
}
