//! 2026-07-28 multi-round-trip requests (basic/patterns/mrtr), judged against
//! the input-required answers [`crate::session::mrtr`] keeps: a retry's input
//! responses and `requestState` against what was asked (§Client Requirements
//! (Basic Workflow), client/sampling §Tool Choice Modes, client/roots §Root),
//! and the server's answer to a retry that left input out or added some
//! (§Error Handling).

use super::{At, Direction, Finding, Id, Judge, Message, Open, Raw, RuleId};
use crate::session::mrtr::Broke;
use crate::{Revision, ValueKind};

impl Judge {
    /// Whether the revision judged has multi-round-trip requests
    /// (2026-07-28): every hook here returns early when it does not.
    fn mrtr_applies(&self) -> bool {
        self.revision == Revision::Mcp2026_07_28
    }

    /// basic/patterns/mrtr: a retry carries a new id; `id` was that of a
    /// request an input-required answer closed (the caller knows it was).
    pub(super) fn retry_reuses_id(
        &self,
        method: &str,
        id: &Id<'_>,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        let retry = params
            .is_some_and(|p| p.get("requestState").is_some() || p.get("inputResponses").is_some());
        if retry {
            self.flag(
                RuleId::McpR5MrtrRetryId,
                format!("the retry of `{method}` reuses id {id}, which the input-required answer closed"),
                vec![at],
                out,
            );
        }
    }

    /// Whether a successful `result` is 2026-07-28's input-required answer
    /// (`resultType: "input_required"`), which closes its request's id.
    pub(super) fn input_required(&self, result: &Raw<'_>) -> bool {
        self.mrtr_applies()
            && result
                .get("resultType")
                .and_then(|t| t.as_string().map(|t| t == "input_required"))
                .unwrap_or(false)
    }

    /// 2026-07-28 basic/patterns/mrtr §Error Handling: remembers what an
    /// input-required answer asked for, and judges the answer to a retry
    /// that left some of it out.
    pub(super) fn retry_answer(
        &mut self,
        open: &Open,
        reply: &Message<'_>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        if !self.mrtr_applies() {
            return;
        }
        let method = open.request.method().unwrap_or_default();
        let params = open.request.params();
        match reply {
            Message::Success(s) => {
                let input_required = s
                    .result
                    .get("resultType")
                    .and_then(|t| t.as_string().map(|t| t == "input_required"))
                    == Some(true);
                if input_required {
                    self.inputs.asked(&method, params, &s.result, at);
                } else if let Some(why) = params.and_then(malformed_input_responses) {
                    self.flag(
                        RuleId::McpR5MrtrInputResponsesValidated,
                        format!("`{method}` carried `inputResponses` that {why}, and was answered with a result"),
                        vec![open.at, at],
                        out,
                    );
                }
            }
            Message::Error(e) => {
                if let Some((missing, asked)) = self.inputs.missing(&method, params) {
                    self.flag(
                        RuleId::McpR5MrtrMissingInputReasked,
                        format!(
                            "the retry of `{method}` left out input {} asked for at event {}, and was answered with error {} rather than a new `InputRequiredResult`",
                            missing.join(", "),
                            asked.number(),
                            e.error.code
                        ),
                        vec![asked, open.at, at],
                        out,
                    );
                } else if let Some((extra, asked)) = self.inputs.extra(&method, params) {
                    self.flag(
                        RuleId::McpR5MrtrExtraInputIgnored,
                        format!(
                            "the retry of `{method}` answered every input asked for at event {} and added {}, and was answered with error {} rather than processed",
                            asked.number(),
                            extra.join(", "),
                            e.error.code
                        ),
                        vec![asked, open.at, at],
                        out,
                    );
                }
            }
            _ => {}
        }
    }

    /// 2026-07-28: a client request judged against the input-required
    /// answers before it: its input responses against the input requests
    /// they answer (client/sampling §Tool Choice Modes, client/roots §Root),
    /// its `requestState` against the request it was given for
    /// (basic/patterns/mrtr §Client Requirements (Basic Workflow) 4).
    pub(super) fn retry_request(
        &mut self,
        from: Direction,
        method: &str,
        params: Option<&Raw<'_>>,
        at: At,
        out: &mut Vec<Finding>,
    ) {
        if !self.mrtr_applies() || from != Direction::ClientToServer {
            return;
        }
        for found in self.inputs.answered(method, params) {
            let rule = match found.broke {
                Broke::ToolChoiceNone => RuleId::McpR5SamplingToolChoiceNone,
                Broke::ToolChoiceRequired => RuleId::McpR5SamplingToolChoiceRequired,
                Broke::RootNotFile => RuleId::McpR5RootsFileUri,
            };
            self.flag(rule, found.message, vec![found.asked, at], out);
        }
        if let Some((given, asked)) = self.inputs.state_misused(method, params) {
            self.flag(
                RuleId::McpR5MrtrRetryOnly,
                format!(
                    "`{method}` carries the `requestState` that the input-required answer at event {} gave to a `{given}` request, and is not its retry",
                    asked.number()
                ),
                vec![asked, at],
                out,
            );
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
