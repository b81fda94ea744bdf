//! Conversations conformant by construction, the defects one can carry, and
//! the oracle the session judge is held to.
//!
//! A small model of a client and a server per revision: the handshake
//! (2024-11-05 to 2025-11-25, with `tools.listChanged` declared), requests sent
//! and answered in any order, progress on the requests that asked for it,
//! cancellations (never answered afterwards), list-changed notifications after
//! the capability, and a closed stream at the end. [`check_conversation`] is
//! the one property the proptest and the fuzz target call: the conversation
//! yields no finding, and each [`Defect`] applied to it yields exactly the rule
//! that defect breaks, at the event where it becomes certain.
//! [`check_never_panics`] feeds arbitrary events, frames that do not lift
//! included.

use arbitrary::{Arbitrary, Unstructured};

use crate::rules::RuleId;

use super::oracle::Failure;
use crate::profile::{Direction, Revision};
use crate::session::{Event, Judge};

const CLIENT: Direction = Direction::ClientToServer;
const SERVER: Direction = Direction::ServerToClient;

/// Findings a conversation must give: (rule, index of the event that makes it
/// certain).
pub type Expected = Vec<(RuleId, u64)>;

/// What a step of a conversation is, so defects know where to strike.
#[derive(Debug, Clone, PartialEq)]
pub enum Role {
    /// The client's `initialize` request.
    Initialize,
    /// The server's answer to it.
    InitializeAnswer,
    /// A client notification (`notifications/initialized`, or a custom one).
    ClientNotification,
    /// A client request, with its id (an integer, or a string) and progress token.
    Request {
        /// The id as JSON text.
        id: String,
        /// Its progress token, when it asked for progress.
        token: Option<String>,
    },
    /// The answer to the request at step `request`.
    Answer {
        /// The step of the request answered.
        request: usize,
    },
    /// Progress on the request at step `request`.
    Progress {
        /// The token.
        token: String,
        /// The value sent.
        value: u32,
    },
    /// The client cancels the request at step `request`.
    Cancel {
        /// The step of the request cancelled.
        request: usize,
    },
    /// `notifications/tools/list_changed` from the server.
    ListChanged,
    /// The stream closed.
    Closed,
}

/// One step: who sent what (or the close), and its role.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Who sent it (the client for the close).
    pub from: Direction,
    /// The frame's bytes; empty for the close.
    pub bytes: Vec<u8>,
    /// What it is.
    pub role: Role,
}

/// A conversation under one revision.
#[derive(Debug, Clone, PartialEq)]
pub struct Conversation {
    /// The revision it speaks.
    pub revision: Revision,
    /// Its steps, in order.
    pub steps: Vec<Step>,
}

/// A mistake a peer can make, applied to a conformant conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defect {
    /// The server never answers one request.
    DropAnswer,
    /// The server answers one request twice.
    DuplicateAnswer,
    /// The answer carries the id as a string where the request had an integer.
    IdType,
    /// The answer carries a string id spelled differently.
    IdSpelling,
    /// The server answers a client notification.
    AnswerNotification,
    /// A request goes out before `initialize`.
    ReorderInitialize,
    /// Progress for a token no request carries.
    ProgressOtherToken,
    /// A progress value lower than the one before.
    LowerProgress,
}

impl Defect {
    /// Every defect.
    pub const ALL: [Defect; 8] = [
        Defect::DropAnswer,
        Defect::DuplicateAnswer,
        Defect::IdType,
        Defect::IdSpelling,
        Defect::AnswerNotification,
        Defect::ReorderInitialize,
        Defect::ProgressOtherToken,
        Defect::LowerProgress,
    ];
}

impl<'a> Arbitrary<'a> for Defect {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        u.choose(&Defect::ALL).copied()
    }
}

fn meta5(extra: &str) -> String {
    format!(
        r#"{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/clientInfo":{{"name":"c","version":"1"}}{extra}}}"#
    )
}

fn request(revision: Revision, id: &str, token: Option<&str>) -> String {
    let token = token.map(|t| format!(r#""progressToken":"{t}""#));
    match revision {
        Revision::JsonRpc2 => {
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"sum","params":[1,2]}}"#)
        }
        Revision::Mcp2026_07_28 => {
            let extra = token.map(|t| format!(",{t}")).unwrap_or_default();
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"t","_meta":{}}}}}"#,
                meta5(&extra)
            )
        }
        _ => match token {
            Some(t) => format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"ping","params":{{"_meta":{{{t}}}}}}}"#
            ),
            None => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#),
        },
    }
}

/// The answer to [`request`], with `id` as JSON text.
fn answer(revision: Revision, id: &str) -> String {
    match revision {
        Revision::JsonRpc2 => format!(r#"{{"jsonrpc":"2.0","id":{id},"result":3}}"#),
        Revision::Mcp2026_07_28 => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"complete","content":[],"_meta":{{"io.modelcontextprotocol/serverInfo":{{"name":"s","version":"1"}}}}}}}}"#
        ),
        _ => format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#),
    }
}

fn progress(token: &str, value: f64) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"{token}","progress":{value}}}}}"#
    )
}

fn lifecycle(revision: Revision) -> bool {
    revision.is_mcp() && revision < Revision::Mcp2026_07_28
}

impl Step {
    fn frame(from: Direction, text: String, role: Role) -> Step {
        Step {
            from,
            bytes: text.into_bytes(),
            role,
        }
    }
}

impl<'a> Arbitrary<'a> for Conversation {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let revision = *u.choose(&Revision::ALL)?;
        let mut steps = Vec::new();
        if lifecycle(revision) {
            let v = revision.name();
            steps.push(Step::frame(CLIENT, format!(r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{v}","capabilities":{{}},"clientInfo":{{"name":"c","version":"1"}}}}}}"#), Role::Initialize));
            steps.push(Step::frame(SERVER, format!(r#"{{"jsonrpc":"2.0","id":0,"result":{{"protocolVersion":"{v}","capabilities":{{"tools":{{"listChanged":true}}}},"serverInfo":{{"name":"s","version":"1"}}}}}}"#), Role::InitializeAnswer));
            steps.push(Step::frame(
                CLIENT,
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into(),
                Role::ClientNotification,
            ));
        } else {
            steps.push(Step::frame(
                CLIENT,
                r#"{"jsonrpc":"2.0","method":"notifications/x-hint"}"#.into(),
                Role::ClientNotification,
            ));
        }
        let total = u.int_in_range(1..=8u32)?;
        let mut sent = 0u32;
        // Open requests: (step, token, last progress).
        let mut open: Vec<(usize, Option<String>, u32)> = Vec::new();
        loop {
            let can_send = sent < total;
            if !can_send && open.is_empty() {
                break;
            }
            // Out of input: send what is left, then answer what is open, so the
            // loop always ends (the fuzzer's empty input hung here once).
            let action = match (u.is_empty(), can_send) {
                (true, true) => 0,
                (true, false) => 3,
                (false, _) => u.int_in_range(0..=5u8)?,
            };
            match action {
                0 | 1 if can_send => {
                    sent += 1;
                    let id = if u.arbitrary()? {
                        sent.to_string()
                    } else {
                        format!("\"r{sent}\"")
                    };
                    let token = (revision.is_mcp() && u.arbitrary()?).then(|| format!("p{sent}"));
                    steps.push(Step::frame(
                        CLIENT,
                        request(revision, &id, token.as_deref()),
                        Role::Request {
                            id,
                            token: token.clone(),
                        },
                    ));
                    open.push((steps.len() - 1, token, 0));
                }
                2 if !open.is_empty() && revision.is_mcp() => {
                    let k = u.choose_index(open.len())?;
                    if let (step, Some(token), last) = &mut open[k] {
                        *last += 1;
                        let (token, value) = (token.clone(), *last);
                        let _ = step;
                        steps.push(Step::frame(
                            SERVER,
                            progress(&token, f64::from(value)),
                            Role::Progress { token, value },
                        ));
                    }
                }
                4 if !open.is_empty() && revision.is_mcp() && u.ratio(1, 4)? => {
                    let k = u.choose_index(open.len())?;
                    let (step, _, _) = open.remove(k);
                    let Role::Request { id, .. } = &steps[step].role else {
                        unreachable!("open holds requests")
                    };
                    let text = format!(
                        r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id},"reason":"no longer needed"}}}}"#
                    );
                    steps.push(Step::frame(CLIENT, text, Role::Cancel { request: step }));
                }
                5 if lifecycle(revision) => {
                    steps.push(Step::frame(
                        SERVER,
                        r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#.into(),
                        Role::ListChanged,
                    ));
                }
                _ if !open.is_empty() => {
                    let k = if u.is_empty() {
                        0
                    } else {
                        u.choose_index(open.len())?
                    };
                    let (step, _, _) = open.remove(k);
                    let Role::Request { id, .. } = &steps[step].role else {
                        unreachable!("open holds requests")
                    };
                    let text = answer(revision, id);
                    steps.push(Step::frame(SERVER, text, Role::Answer { request: step }));
                }
                _ => {}
            }
        }
        steps.push(Step {
            from: CLIENT,
            bytes: Vec::new(),
            role: Role::Closed,
        });
        Ok(Conversation { revision, steps })
    }
}

impl Conversation {
    /// Each step as the judge's event.
    pub fn events(&self) -> impl Iterator<Item = Event<'_>> {
        self.steps.iter().map(|s| match s.role {
            Role::Closed => Event::Closed,
            _ => Event::Frame {
                from: s.from,
                bytes: &s.bytes,
            },
        })
    }

    /// Every finding the judge reports, as (rule, index of the last event it
    /// points at), in report order; not-observed checks are not findings.
    #[must_use]
    pub fn judge(&self) -> Vec<(RuleId, u64)> {
        let mut judge = Judge::new(self.revision);
        let mut out = Vec::new();
        for e in self.events() {
            judge.feed(e, None, &mut out);
        }
        out.extend(judge.finish().findings);
        out.iter()
            .map(|f| (f.violation.rule, f.frames.last().map_or(0, |a| a.index)))
            .collect()
    }

    fn insert(&mut self, at: usize, step: Step) {
        self.steps.insert(at, step);
    }

    fn close_index(&self) -> u64 {
        self.steps.len() as u64 - 1
    }

    /// `defect` applied at a place `u` picks, with the findings it must give;
    /// `None` when the conversation has no place for it (no progress to lower,
    /// no handshake to reorder).
    pub fn with_defect(
        &self,
        defect: Defect,
        u: &mut Unstructured<'_>,
    ) -> arbitrary::Result<Option<(Conversation, Expected)>> {
        let mut c = self.clone();
        let rev = self.revision;
        let places = |f: &dyn Fn(&Step) -> bool| -> Vec<usize> {
            self.steps
                .iter()
                .enumerate()
                .filter(|(_, s)| f(s))
                .map(|(i, _)| i)
                .collect()
        };
        let pick = |u: &mut Unstructured<'_>, v: &[usize]| -> arbitrary::Result<Option<usize>> {
            if v.is_empty() {
                Ok(None)
            } else {
                Ok(Some(v[u.choose_index(v.len())?]))
            }
        };
        let echo = match rev {
            Revision::JsonRpc2 => RuleId::JsonrpcResponseIdEcho,
            Revision::Mcp2025_11_25 | Revision::Mcp2026_07_28 => RuleId::McpBaseResultResponseId,
            _ => RuleId::McpBaseResponseIdMatch,
        };
        let expected = match defect {
            Defect::DropAnswer => {
                let Some(i) = pick(u, &places(&|s| matches!(s.role, Role::Answer { .. })))? else {
                    return Ok(None);
                };
                c.steps.remove(i);
                vec![(RuleId::JsonrpcResponseRequired, c.close_index())]
            }
            Defect::DuplicateAnswer => {
                let Some(i) = pick(u, &places(&|s| matches!(s.role, Role::Answer { .. })))? else {
                    return Ok(None);
                };
                let copy = c.steps[i].clone();
                c.insert(i + 1, copy);
                vec![(RuleId::SessionResponseDuplicate, i as u64 + 1)]
            }
            Defect::IdType | Defect::IdSpelling => {
                let numeric = defect == Defect::IdType;
                let answers = places(&|s| match s.role {
                    Role::Answer { request } => matches!(&self.steps[request].role,
                        Role::Request { id, .. } if id.starts_with('"') != numeric),
                    _ => false,
                });
                let Some(i) = pick(u, &answers)? else {
                    return Ok(None);
                };
                let Role::Answer { request } = c.steps[i].role else {
                    return Ok(None);
                };
                let Role::Request { id, .. } = &c.steps[request].role else {
                    return Ok(None);
                };
                let changed = if numeric {
                    format!("\"{id}\"")
                } else {
                    format!("\"{}x\"", id.trim_matches('"'))
                };
                c.steps[i].bytes = answer(rev, &changed).into_bytes();
                if numeric {
                    vec![(echo, i as u64)]
                } else {
                    vec![
                        (RuleId::SessionResponseUnknownId, i as u64),
                        (RuleId::JsonrpcResponseRequired, c.close_index()),
                    ]
                }
            }
            Defect::AnswerNotification => {
                let Some(i) = pick(u, &places(&|s| s.role == Role::ClientNotification))? else {
                    return Ok(None);
                };
                c.insert(
                    i + 1,
                    Step::frame(SERVER, answer(rev, "null"), Role::Answer { request: i }),
                );
                let rule = if matches!(rev, Revision::JsonRpc2 | Revision::Mcp2024_11_05) {
                    RuleId::JsonrpcNotificationNoReply
                } else {
                    RuleId::McpBaseNotificationNoResponse
                };
                vec![(rule, i as u64 + 1)]
            }
            Defect::ReorderInitialize => {
                if !lifecycle(rev) {
                    return Ok(None);
                }
                let Some(i) = places(&|s| matches!(s.role, Role::Request { .. }))
                    .first()
                    .copied()
                else {
                    return Ok(None);
                };
                let moved = c.steps.remove(i);
                c.insert(0, moved);
                vec![(RuleId::McpLifecycleInitializeFirst, 0)]
            }
            Defect::ProgressOtherToken => {
                let Some(i) = pick(u, &places(&|s| matches!(s.role, Role::Progress { .. })))?
                else {
                    return Ok(None);
                };
                let Role::Progress { value, .. } = c.steps[i].role else {
                    return Ok(None);
                };
                c.steps[i].bytes = progress("not-a-token", f64::from(value)).into_bytes();
                vec![(RuleId::McpProgressActiveTokenOnly, i as u64)]
            }
            Defect::LowerProgress => {
                let Some(i) = pick(u, &places(&|s| matches!(s.role, Role::Progress { .. })))?
                else {
                    return Ok(None);
                };
                let Role::Progress { token, value } = c.steps[i].role.clone() else {
                    return Ok(None);
                };
                let lower = f64::from(value) - 0.5;
                c.insert(
                    i + 1,
                    Step::frame(
                        SERVER,
                        progress(&token, lower),
                        Role::Progress { token, value },
                    ),
                );
                vec![(RuleId::McpProgressIncrease, i as u64 + 1)]
            }
        };
        Ok(Some((c, expected)))
    }
}

fn show(c: &Conversation) -> String {
    let mut s = format!("revision {}\n", c.revision);
    for (n, step) in c.steps.iter().enumerate() {
        s.push_str(&format!(
            "  {n} {}: {}\n",
            step.from.sender(),
            String::from_utf8_lossy(&step.bytes)
        ));
    }
    s
}

/// The conversation property: a generated conversation yields no finding, and
/// the defect `u` picks yields exactly its rule at its event.
///
/// # Errors
/// The property broken, with the conversation.
pub fn check_conversation(u: &mut Unstructured<'_>) -> arbitrary::Result<Result<(), Failure>> {
    let conversation = Conversation::arbitrary(u)?;
    let got = conversation.judge();
    if !got.is_empty() {
        return Ok(Err(Failure {
            property: "conformant-conversation-is-clean",
            detail: format!("findings {got:?}\n{}", show(&conversation)),
        }));
    }
    let defect = Defect::arbitrary(u)?;
    let Some((broken, mut expected)) = conversation.with_defect(defect, u)? else {
        return Ok(Ok(()));
    };
    let mut got = broken.judge();
    got.sort_unstable();
    expected.sort_unstable();
    if got != expected {
        return Ok(Err(Failure {
            property: "defect-gives-its-rule",
            detail: format!(
                "{defect:?}: expected {expected:?}, got {got:?}\n{}",
                show(&broken)
            ),
        }));
    }
    Ok(Ok(()))
}

/// Feeds arbitrary events (frames of arbitrary bytes, JSON-looking or not,
/// from either side; closes; elapsed waits) to a judge of an arbitrary
/// revision. It must not panic, and `finish` must return.
pub fn check_never_panics(u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
    let revision = *u.choose(&Revision::ALL)?;
    let mut judge = Judge::new(revision);
    let mut out = Vec::new();
    while !u.is_empty() {
        match u.int_in_range(0..=9u8)? {
            0 => judge.feed(Event::Closed, None, &mut out),
            1 => judge.feed(Event::WaitElapsed, Some(1.0), &mut out),
            k => {
                let from = if k % 2 == 0 { CLIENT } else { SERVER };
                let bytes: &[u8] = u.arbitrary()?;
                judge.feed(Event::Frame { from, bytes }, None, &mut out);
            }
        }
        out.clear();
    }
    let _ = judge.finish();
    Ok(())
}

/// Both properties on one fuzz input, as the `session` fuzz target runs them.
/// `Ok(true)` when the input built a conversation (the seeds must), `Ok(false)`
/// when it ran out before one was built.
///
/// # Errors
/// The conversation property broken (a panic in the judge propagates).
pub fn check_session_input(data: &[u8]) -> Result<bool, Failure> {
    let built = match check_conversation(&mut Unstructured::new(data)) {
        Ok(result) => {
            result?;
            true
        }
        Err(_) => false,
    };
    // Out of input is the only error: nothing to check.
    let _ = check_never_panics(&mut Unstructured::new(data));
    Ok(built)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzzing::mutate::Rng;

    /// wasm-tools' habit: the oracle runs on random bytes under plain `cargo test`.
    #[test]
    fn short_inputs_build_conversations_that_end() {
        for len in 0..64 {
            let data = vec![0xa5u8; len];
            let c = Conversation::arbitrary(&mut Unstructured::new(&data)).expect("builds");
            assert_eq!(c.steps.last().map(|s| &s.role), Some(&Role::Closed));
            assert!(c.judge().is_empty(), "{len}: {:?}", c.judge());
            assert_eq!(check_session_input(&data), Ok(true), "{len}");
        }
    }

    #[test]
    fn smoke() {
        let mut rng = Rng::new(9);
        let mut defects = 0;
        for _ in 0..300 {
            let bytes: Vec<u8> = (0..256).map(|_| rng.next_u64().to_le_bytes()[0]).collect();
            let mut u = Unstructured::new(&bytes);
            if let Ok(result) = check_conversation(&mut u) {
                result.unwrap_or_else(|f| panic!("{f}"));
                defects += 1;
            }
            check_never_panics(&mut Unstructured::new(&bytes)).ok();
        }
        assert!(defects > 100, "only {defects} conversations were built");
    }
}
