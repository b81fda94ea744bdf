//! 2026-07-28 basic/patterns/mrtr §Error Handling: a retry that leaves out
//! some of the input the server asked for is answered with a new
//! `InputRequiredResult`, not an error; one that holds every input asked for
//! and more is not refused for the rest (the server ignores what it does not
//! need).
//!
//! The judge remembers, per input-required answer, what it asked for (the
//! keys of `inputRequests`) and how a retry is recognised: the `requestState`
//! it handed out, else the same method and target (tool or prompt `name`,
//! resource `uri`). At most [`ASKED_CAP`] are kept, the oldest dropped first.
//!
//! It also judges the client's side of a retry: an input response against
//! the input request it answers (client/sampling §Tool Choice Modes,
//! client/roots §Data Types › Root), and a `requestState` carried by a
//! request other than the retry it was given for (§Client Requirements
//! (Basic Workflow) 4). For that each remembered answer keeps, per input
//! request, only what the response is judged against ([`Input`]).

use super::{Answer, At, Concern, Cx, Direction, Message, Past, Request, RuleId};
use crate::ir::{Raw, ValueKind};
use crate::rules::tool_choice::{self, Breach, Mode};
use std::borrow::Cow;

/// Input-required answers remembered; a client retries one or a few at a time.
const ASKED_CAP: usize = 64;

/// What one input-required answer asked for.
struct Asked {
    method: String,
    target: Option<String>,
    state: Option<String>,
    keys: Vec<String>,
    /// The input requests an answer can be judged against, by key.
    inputs: Vec<(String, Input)>,
    at: At,
}

/// What an input response is judged against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Input {
    /// A `sampling/createMessage` asking for `toolChoice` `none` or `required`.
    Sampling(Mode),
    /// A `roots/list`.
    Roots,
}

impl Input {
    fn of(request: &Raw<'_>) -> Option<Input> {
        let method = string(request.get("method"))?;
        match method.as_str() {
            "sampling/createMessage" => request
                .get("params")
                .and_then(|p| tool_choice::mode(&p))
                .map(Input::Sampling),
            "roots/list" => Some(Input::Roots),
            _ => None,
        }
    }
}

/// What an input response broke; the judge names the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Broke {
    /// A `tool_use` answering `toolChoice` `none`.
    ToolChoiceNone,
    /// No tool used answering `toolChoice` `required`.
    ToolChoiceRequired,
    /// A root that is no `file://` URI.
    RootNotFile,
}

/// A client's input response that breaks what its input request asked.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Answered {
    pub(super) broke: Broke,
    pub(super) message: String,
    /// The input-required answer that asked.
    pub(super) asked: At,
}

fn string(value: Option<Raw<'_>>) -> Option<String> {
    value.and_then(|v| v.as_string().map(Cow::into_owned))
}

/// The tool, prompt or resource a request is about.
fn target(params: Option<&Raw<'_>>) -> Option<String> {
    params.and_then(|p| string(p.get("name")).or_else(|| string(p.get("uri"))))
}

/// The retries the server's input-required answers asked for.
#[derive(Default)]
pub(super) struct Inputs {
    asked: Vec<Asked>,
}

impl Inputs {
    /// The server answered `method` (with `params`) with an input-required
    /// `result`.
    fn asked(&mut self, method: &str, params: Option<&Raw<'_>>, result: &Raw<'_>, at: At) {
        let keys: Vec<String> = result
            .get("inputRequests")
            .map(|r| r.members().map(|(k, _)| k.decoded().into_owned()).collect())
            .unwrap_or_default();
        if keys.is_empty() {
            return;
        }
        let inputs = result
            .get("inputRequests")
            .map(|r| {
                r.members()
                    .filter_map(|(k, v)| Some((k.decoded().into_owned(), Input::of(&v)?)))
                    .collect()
            })
            .unwrap_or_default();
        if self.asked.len() == ASKED_CAP {
            self.asked.remove(0);
        }
        self.asked.push(Asked {
            method: method.to_owned(),
            target: target(params),
            state: string(result.get("requestState")),
            keys,
            inputs,
            at,
        });
    }

    /// For a retry (`params` with `inputResponses`): the keys asked for that
    /// it leaves out, and where they were asked; `None` when it is no retry
    /// of a remembered answer or leaves nothing out.
    fn missing(&self, method: &str, params: Option<&Raw<'_>>) -> Option<(Vec<String>, At)> {
        let (asked, responses) = self.retried(method, params)?;
        let missing: Vec<String> = asked
            .keys
            .iter()
            .filter(|k| responses.get(k).is_none())
            .cloned()
            .collect();
        (!missing.is_empty()).then_some((missing, asked.at))
    }

    /// For a retry that answers every key asked for: the keys of its
    /// `inputResponses` that were not asked for, and where the asking was;
    /// `None` when it is no retry of a remembered answer, leaves a key out,
    /// or adds none.
    fn extra(&self, method: &str, params: Option<&Raw<'_>>) -> Option<(Vec<String>, At)> {
        let (asked, responses) = self.retried(method, params)?;
        if asked.keys.iter().any(|k| responses.get(k).is_none()) {
            return None;
        }
        let extra: Vec<String> = responses
            .members()
            .map(|(k, _)| k.decoded().into_owned())
            .filter(|k| !asked.keys.contains(k))
            .collect();
        (!extra.is_empty()).then_some((extra, asked.at))
    }

    /// For a retry (`params` with `inputResponses`): each input response
    /// that breaks the input request it answers.
    fn answered(&self, method: &str, params: Option<&Raw<'_>>) -> Vec<Answered> {
        let Some((asked, responses)) = self.retried(method, params) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        for (key, input) in &asked.inputs {
            let Some(response) = responses.get(key) else {
                continue; // a missing answer is mcp.r5.mrtr.missing-input-reasked's
            };
            match input {
                Input::Sampling(mode) => {
                    if let Some((breach, _)) = tool_choice::breach(*mode, &response) {
                        found.push(Answered {
                            broke: match breach {
                                Breach::UsedTool => Broke::ToolChoiceNone,
                                Breach::NoTool => Broke::ToolChoiceRequired,
                            },
                            message: format!(
                                "input response `{key}`: {}",
                                tool_choice::message(breach)
                            ),
                            asked: asked.at,
                        });
                    }
                }
                Input::Roots => {
                    for uri in not_file_uris(&response) {
                        found.push(Answered {
                            broke: Broke::RootNotFile,
                            message: format!(
                                "input response `{key}` to a `roots/list` input request lists root URI `{uri}`, which is not a `file://` URI"
                            ),
                            asked: asked.at,
                        });
                    }
                }
            }
        }
        found
    }

    /// A request (`method`, `params`) carrying a `requestState` that an
    /// input-required answer gave to another request: the method it was
    /// given for and where. `None` when the state is unknown (an earlier
    /// connection's, or none) or some answer gave it to this very request.
    fn state_misused(&self, method: &str, params: Option<&Raw<'_>>) -> Option<(String, At)> {
        let state = string(params.and_then(|p| p.get("requestState")))?;
        let mut given = self
            .asked
            .iter()
            .filter(|a| a.state.as_deref() == Some(state.as_str()));
        let mine = |a: &&Asked| a.method == method && a.target == target(params);
        let first = given.clone().next()?;
        if given.any(|a| mine(&a)) {
            return None;
        }
        Some((first.method.clone(), first.at))
    }

    /// The remembered input-required answer a retry (`params` with
    /// `inputResponses`) answers, and its `inputResponses`.
    fn retried<'p>(&self, method: &str, params: Option<&'p Raw<'_>>) -> Option<(&Asked, Raw<'p>)> {
        let responses = params.and_then(|p| p.get("inputResponses"))?;
        let state = string(params.and_then(|p| p.get("requestState")));
        let asked = self.asked.iter().rev().find(|a| {
            a.method == method
                && match (&a.state, &state) {
                    (Some(a), Some(s)) => a == s,
                    (None, None) => a.target == target(params),
                    _ => false,
                }
        })?;
        Some((asked, responses))
    }
}

/// The `uri`s of a `ListRootsResult`'s roots that are no `file://` URI.
fn not_file_uris(result: &Raw<'_>) -> Vec<String> {
    let Some(roots) = result.get("roots") else {
        return Vec::new();
    };
    roots
        .elements()
        .filter(|r| r.kind() == ValueKind::Object)
        .filter_map(|r| string(r.get("uri")))
        .filter(|u| !u.starts_with("file://"))
        .collect()
}

impl Concern for Inputs {
    fn rules() -> &'static [RuleId] {
        &[
            RuleId::McpR5MrtrRetryId,
            RuleId::McpR5MrtrMissingInputReasked,
            RuleId::McpR5MrtrExtraInputIgnored,
            RuleId::McpR5MrtrInputResponsesValidated,
            RuleId::McpR5MrtrRetryOnly,
            RuleId::McpR5SamplingToolChoiceNone,
            RuleId::McpR5SamplingToolChoiceRequired,
            RuleId::McpR5RootsFileUri,
        ]
    }

    /// A retry carries a new id (basic/patterns/mrtr): reusing one an
    /// input-required answer closed is flagged. A client request is judged
    /// against the input-required answers before it: its input responses
    /// against the input requests they answer (client/sampling §Tool Choice
    /// Modes, client/roots §Root), its `requestState` against the request it
    /// was given for (§Client Requirements (Basic Workflow) 4).
    fn request(&mut self, cx: &mut Cx<'_>, r: &Request<'_>) {
        let (method, params, at) = (r.method, r.params, r.at);
        if let Some(Past::Answered {
            input_required: true,
            ..
        }) = r.past
        {
            let retry = params.is_some_and(|p| {
                p.get("requestState").is_some() || p.get("inputResponses").is_some()
            });
            if retry {
                cx.out.flag(
                    RuleId::McpR5MrtrRetryId,
                    format!(
                        "the retry of `{method}` reuses id {}, which the input-required answer closed",
                        r.id
                    ),
                    vec![at],
                );
            }
        }
        if r.reused || r.from != Direction::ClientToServer {
            return;
        }
        for found in self.answered(method, params) {
            let rule = match found.broke {
                Broke::ToolChoiceNone => RuleId::McpR5SamplingToolChoiceNone,
                Broke::ToolChoiceRequired => RuleId::McpR5SamplingToolChoiceRequired,
                Broke::RootNotFile => RuleId::McpR5RootsFileUri,
            };
            cx.out.flag(rule, found.message, vec![found.asked, at]);
        }
        if let Some((given, asked)) = self.state_misused(method, params) {
            cx.out.flag(
                RuleId::McpR5MrtrRetryOnly,
                format!(
                    "`{method}` carries the `requestState` that the input-required answer at event {} gave to a `{given}` request, and is not its retry",
                    asked.number()
                ),
                vec![asked, at],
            );
        }
    }

    /// basic/patterns/mrtr §Error Handling: remembers what an input-required
    /// answer asked for (and that it closed its request's id), and judges the
    /// answer to a retry that left some of it out.
    fn answer(&mut self, cx: &mut Cx<'_>, a: &Answer<'_>) {
        let input_required = matches!(a.reply, Message::Success(s)
            if s.result.get("resultType").and_then(|t| t.as_string().map(|t| t == "input_required")) == Some(true));
        cx.closes.input_required = input_required;
        if a.asker != Direction::ClientToServer {
            return;
        }
        let (open, at) = (a.open, a.at);
        let method = open.request.method().unwrap_or_default();
        let params = open.request.params();
        match a.reply {
            Message::Success(s) => {
                if input_required {
                    self.asked(&method, params, &s.result, at);
                } else if let Some(why) = params.and_then(malformed_input_responses) {
                    cx.out.flag(
                        RuleId::McpR5MrtrInputResponsesValidated,
                        format!("`{method}` carried `inputResponses` that {why}, and was answered with a result"),
                        vec![open.at, at],
                    );
                }
            }
            Message::Error(e) => {
                if let Some((missing, asked)) = self.missing(&method, params) {
                    cx.out.flag(
                        RuleId::McpR5MrtrMissingInputReasked,
                        format!(
                            "the retry of `{method}` left out input {} asked for at event {}, and was answered with error {} rather than a new `InputRequiredResult`",
                            missing.join(", "),
                            asked.number(),
                            e.error.code
                        ),
                        vec![asked, open.at, at],
                    );
                } else if let Some((extra, asked)) = self.extra(&method, params) {
                    cx.out.flag(
                        RuleId::McpR5MrtrExtraInputIgnored,
                        format!(
                            "the retry of `{method}` answered every input asked for at event {} and added {}, and was answered with error {} rather than processed",
                            asked.number(),
                            extra.join(", "),
                            e.error.code
                        ),
                        vec![asked, open.at, at],
                    );
                }
            }
            _ => {}
        }
    }
}

/// 2026-07-28 basic/patterns/mrtr §Error Handling: why a request's
/// `inputResponses` is no valid `InputResponses` object (an object whose
/// every value is a result object), if it is not.
fn malformed_input_responses(params: &Raw<'_>) -> Option<&'static str> {
    let responses = params.get("inputResponses")?;
    if responses.kind() != ValueKind::Object {
        return Some("are not an object");
    }
    responses
        .members()
        .any(|(_, v)| v.kind() != ValueKind::Object)
        .then_some("hold a value that is not a result object")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Raw<'static> {
        Raw::from_value(&serde_json::from_str(text).unwrap())
    }

    #[test]
    fn a_retry_missing_an_answer_is_found_by_its_request_state() {
        let mut inputs = Inputs::default();
        let at = At {
            index: 1,
            time: None,
        };
        let call = raw(r#"{"name":"deploy"}"#);
        let answer = raw(
            r#"{"resultType":"input_required","inputRequests":{"a":{},"b":{}},"requestState":"s1"}"#,
        );
        inputs.asked("tools/call", Some(&call), &answer, at);
        let partial = raw(r#"{"name":"deploy","requestState":"s1","inputResponses":{"a":{}}}"#);
        assert_eq!(
            inputs.missing("tools/call", Some(&partial)),
            Some((vec!["b".to_owned()], at))
        );
        let full = raw(r#"{"name":"deploy","requestState":"s1","inputResponses":{"a":{},"b":{}}}"#);
        assert_eq!(inputs.missing("tools/call", Some(&full)), None);
        let other = raw(r#"{"name":"deploy","requestState":"s2","inputResponses":{}}"#);
        assert_eq!(inputs.missing("tools/call", Some(&other)), None);
        assert_eq!(inputs.extra("tools/call", Some(&full)), None);
        let more =
            raw(r#"{"name":"deploy","requestState":"s1","inputResponses":{"a":{},"b":{},"c":{}}}"#);
        assert_eq!(
            inputs.extra("tools/call", Some(&more)),
            Some((vec!["c".to_owned()], at))
        );
        // A retry that leaves a key out is mcp.r5.mrtr.missing-input-reasked's.
        let both = raw(r#"{"name":"deploy","requestState":"s1","inputResponses":{"a":{},"c":{}}}"#);
        assert_eq!(inputs.extra("tools/call", Some(&both)), None);
    }

    #[test]
    fn a_request_state_belongs_to_the_request_it_was_given_for() {
        let mut inputs = Inputs::default();
        let at = At {
            index: 1,
            time: None,
        };
        let call = raw(r#"{"name":"deploy"}"#);
        let answer = raw(
            r#"{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}},"requestState":"s1"}"#,
        );
        inputs.asked("tools/call", Some(&call), &answer, at);
        let retry = raw(
            r#"{"name":"deploy","requestState":"s1","inputResponses":{"r":{"roots":[{"uri":"https://x"}]}}}"#,
        );
        assert_eq!(inputs.state_misused("tools/call", Some(&retry)), None);
        let found = inputs.answered("tools/call", Some(&retry));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].broke, Broke::RootNotFile);
        let other_tool = raw(r#"{"name":"undeploy","requestState":"s1"}"#);
        assert_eq!(
            inputs.state_misused("tools/call", Some(&other_tool)),
            Some(("tools/call".to_owned(), at))
        );
        let prompt = raw(r#"{"name":"deploy","requestState":"s1"}"#);
        assert_eq!(
            inputs.state_misused("prompts/get", Some(&prompt)),
            Some(("tools/call".to_owned(), at))
        );
        // A state no answer of this conversation gave is an earlier connection's, perhaps.
        let unknown = raw(r#"{"name":"deploy","requestState":"s9"}"#);
        assert_eq!(inputs.state_misused("prompts/get", Some(&unknown)), None);
    }
}
