//! The judge: whether what a peer sent back for a vector's frame conforms.
//!
//! Pure (no I/O), so the golden-vector test and the live runner (`wirecheck
//! run`) share one judge: the test hands it the reply a vector records, the
//! runner the frames a live peer actually sent, or the reason nothing came.
//! The verdict is the closed [`harness::Outcome`], with the details a report
//! shows: each frame's own violations, the exchange's, and where the reply
//! departs from the answer the vector describes.
//!
//! Two things decide the verdict. The rule model: every violation names a
//! rule, its level and where the spec writes it, so a MUST broken fails and a
//! SHOULD broken warns. And the vector's `answer`, weighed by its [`Basis`]:
//! a reply that departs from an answer a MUST (or MUST NOT) mandates fails,
//! from one a SHOULD mandates warns, and from a convention (an answer no
//! sentence mandates: most error codes for a bad frame, which the spec binds
//! on the sender, not the receiver) is a note beside a pass, or a warning
//! under [`Strictness::Strict`]. An `i_` vector never fails a live peer: the
//! spec is ambiguous there, so a failure is reported as a warning with a note;
//! except a silence where every reading owes a reply (JSON-RPC 2.0 §5), unless
//! the question is whether one is owed at all.
//!
//! The judge never consults a baseline: [`crate::baseline::Baseline::apply`]
//! turns a listed failure into a known one afterwards, the same way for every
//! caller.

mod answer;
mod audit;

use harness::rules::{self, Level, RuleId, Violation};
use harness::{lift, Direction, Frame, Message, Outcome, Profile, Revision};

pub use answer::{answer_codes, answer_fits, observed_fits, reply_fits};
pub use audit::{audit, Audit};

use crate::vectors::{Answer, Basis, Vector, Verdict};

/// The rules among `verdicts`' violations that are run-level ambiguities
/// ([`RuleId::run_level_ambiguity`](harness::rules::RuleId::run_level_ambiguity)), each once
/// (ambiguity A2's `"id": null` would otherwise warn on every exchange, though
/// no conforming server can avoid it).
fn ambiguities_among(verdicts: &[FrameVerdict]) -> Vec<harness::rules::RuleId> {
    let mut found = Vec::new();
    for v in verdicts.iter().flat_map(|f| &f.violations) {
        if v.rule.run_level_ambiguity().is_some() && !found.contains(&v.rule) {
            found.push(v.rule);
        }
    }
    found
}

/// `answer` with every error that pins `"id": null` for a malformed frame
/// also accepting the id a server can read in that frame, when
/// [`harness::error_ids::error_may_carry`] (the one place that decides which
/// ids an error may carry) allows it: JSON-RPC 2.0 §5 asks for null only "if
/// there was an error in detecting the id", so echoing a readable id of an
/// Invalid Request is as conformant as null.
/// Batches are left as they are: their elements' errors pin their own ids.
#[must_use]
pub fn echo_allowed(answer: &Answer, frame: &[u8], revision: Revision) -> Answer {
    use harness::error_ids::{error_may_carry, read_single, Read};
    let read = read_single(frame);
    let Read::Id(readable) = &read else {
        return answer.clone();
    };
    fn widen(
        answer: &Answer,
        read: &Read<'_>,
        readable: &harness::Id<'_>,
        revision: Revision,
    ) -> Answer {
        match answer {
            Answer::Error {
                codes,
                id: Some(pinned),
                data_required,
            } if pinned == "null"
                && readable.raw() != "null"
                && error_may_carry(revision, read, true, Some(readable)) =>
            {
                let echo = Answer::Error {
                    codes: codes.clone(),
                    id: Some(readable.raw().to_owned()),
                    data_required: data_required.clone(),
                };
                Answer::AnyOf(vec![answer.clone(), echo])
            }
            Answer::AnyOf(items) => Answer::AnyOf(
                items
                    .iter()
                    .map(|a| widen(a, read, readable, revision))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
    widen(answer, &read, readable, revision)
}

/// How conventions weigh: a note, or (`--strict`) a warning.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Strictness {
    /// A departure from a convention is a note beside a pass.
    #[default]
    Default,
    /// A departure from a convention (or a MAY) is a warning, as SHOULD-level
    /// cases are under h2spec's `--strict`.
    Strict,
}

/// Why no frame came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Silence {
    /// The peer stayed open and sent nothing before the wait ended.
    TimedOut,
    /// The peer closed its side (exited, hung up) before answering.
    PeerClosed,
}

impl Silence {
    /// In words, for reasons and reports.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Silence::TimedOut => "the peer sent nothing before the wait ended",
            Silence::PeerClosed => "the peer closed before answering",
        }
    }
}

/// What came back after the vector's frame was sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Observed {
    /// The frames the peer sent, raw wire bytes, in arrival order: the reply
    /// and anything the peer sent of its own accord (a log notification).
    Frames(Vec<Vec<u8>>),
    /// Nothing, and why.
    Silence(Silence),
}

/// One frame the peer sent, judged on its own (as sent by the peer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameVerdict {
    /// The wire bytes.
    pub bytes: Vec<u8>,
    /// Whether the judge took it for the reply to the vector's frame.
    pub is_reply: bool,
    /// `validate` under the peer's profile.
    pub violations: Vec<Violation>,
}

/// The judge's verdict on a peer's reply, with its grounds.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    /// The verdict: fail on a mandatory violation, warning when only advisory
    /// rules broke, pass otherwise; not observed when the peer closed where
    /// silence was the expected answer.
    pub outcome: Outcome,
    /// Each frame the peer sent, judged on its own.
    pub frames: Vec<FrameVerdict>,
    /// The exchange's violations (`validate_reply`: the id echoed, a request
    /// answered, a notification not), when the vector's frame lifts and the
    /// reply does (or nothing came).
    pub exchange: Vec<Violation>,
    /// What a conforming peer answers, when the vector says.
    pub expected: Option<Answer>,
    /// Why nothing came, when nothing did.
    pub silence: Option<Silence>,
    /// Where the reply departs from `expected`; how much that weighs is the
    /// vector's basis (see the module docs).
    pub mismatches: Vec<String>,
    /// What the verdict does not show: a departure from a convention, an
    /// `i_` failure reported as a warning, a stream left open on purpose.
    pub notes: Vec<String>,
    /// Rules broken that no conforming peer can keep, the texts being in
    /// contradiction ([`RuleId::run_level_ambiguity`](harness::rules::RuleId::run_level_ambiguity)): still
    /// among the violations, but they weigh on no verdict ([`Judgement::weighed`])
    /// and are said once per run.
    pub ambiguities: Vec<harness::rules::RuleId>,
}

impl Judgement {
    /// Every violation found: each frame's own, then the exchange's.
    pub fn violations(&self) -> impl Iterator<Item = &Violation> {
        self.frames
            .iter()
            .flat_map(|f| &f.violations)
            .chain(&self.exchange)
    }

    /// The violations the verdict weighs: all but the run-level ambiguities.
    pub fn weighed(&self) -> impl Iterator<Item = &Violation> {
        self.violations()
            .filter(|v| !self.ambiguities.contains(&v.rule))
    }

    /// The frame taken for the reply, if one was.
    #[must_use]
    pub fn reply(&self) -> Option<&FrameVerdict> {
        self.frames.iter().find(|f| f.is_reply)
    }
}

/// The profile the peer's frames are judged under: the vector's revision, the
/// other sender.
#[must_use]
pub fn peer_profile(profile: Profile) -> Profile {
    Profile {
        revision: profile.revision,
        direction: match profile.direction {
            Direction::ClientToServer => Direction::ServerToClient,
            Direction::ServerToClient => Direction::ClientToServer,
        },
    }
}

/// Judges what a peer sent back after receiving `vector`'s frame.
///
/// The reply is the first frame that is not wholly the peer's own requests
/// and notifications (a frame that does not lift counts: it may have meant to
/// answer). Every frame is validated as sent by the peer; the exchange rules
/// run on the vector's frame and that reply (or on its absence); and the reply
/// is held to the vector's `answer`, when it has one.
#[must_use]
pub fn reply(vector: &Vector, observed: &Observed) -> Judgement {
    reply_with(vector, observed, Strictness::Default)
}

/// [`reply`], with conventions weighed as `strictness` says.
#[must_use]
pub fn reply_with(vector: &Vector, observed: &Observed, strictness: Strictness) -> Judgement {
    let peer = peer_profile(vector.profile);
    let request = lift(&vector.frame).ok();
    let (frames, silence) = match observed {
        Observed::Frames(frames) => (frames.as_slice(), None),
        Observed::Silence(why) => (&[][..], Some(*why)),
    };
    let reply_at = frames.iter().position(|b| !peer_initiated(b));
    let legacy =
        reply_at.and_then(|i| legacy_initialize_answer(vector, request.as_ref(), &frames[i]));
    let verdicts: Vec<FrameVerdict> = frames
        .iter()
        .enumerate()
        .map(|(i, bytes)| FrameVerdict {
            bytes: bytes.clone(),
            is_reply: Some(i) == reply_at,
            violations: match legacy {
                Some(revision) if Some(i) == reply_at => rules::validate(
                    bytes,
                    Profile {
                        revision,
                        direction: peer.direction,
                    },
                ),
                _ => rules::validate(bytes, peer),
            },
        })
        .collect();
    let ambiguities = ambiguities_among(&verdicts);
    let reply_frame = reply_at.map(|i| lift(&frames[i]));

    let mut exchange = match (&request, &reply_frame) {
        (Some(request), None) => rules::validate_reply(request, None, vector.profile),
        (Some(request), Some(Ok(reply))) => {
            rules::validate_reply(request, Some(reply), vector.profile)
        }
        // The vector's frame does not lift (there is no request to pair with),
        // or the reply does not (its own violations say so).
        (None, _) | (Some(_), Some(Err(_))) => Vec::new(),
    };

    // The peer's own frames before the reply (all of them when none came):
    // where a stream answer looks for the notification that opens it.
    let own: Vec<_> = frames[..reply_at.unwrap_or(frames.len())]
        .iter()
        .filter_map(|b| lift(b).ok())
        .collect();
    let mut mismatches = Vec::new();
    let mut notes = Vec::new();
    if let Some(revision) = legacy {
        notes.push(format!(
            "`initialize` answered with a result: a dual-era server serving the legacy revision it negotiated, so the answer is judged as {revision} (MCP 2026-07-28 basic/versioning §Compatibility Matrix: \"The server answers `initialize` and serves the client according to the negotiated legacy revision\")"
        ));
    }
    let widened = vector
        .answer
        .as_ref()
        .map(|a| echo_allowed(a, &vector.frame, vector.profile.revision));
    let mut unread = None;
    if let Some(answer) = &widened {
        match &reply_frame {
            Some(Err(refusal)) if RuleId::from(refusal.rule()).info().level.is_mandatory() => {
                mismatches.push(format!("the reply does not lift: {refusal}"));
            }
            // Refused only for what the text leaves to the reader (RFC 8259's
            // SHOULD on unique names, MAY on limits): the reply may well be the
            // answer; this codec cannot read it to say.
            Some(Err(refusal)) => {
                unread = Some(format!(
                    "the reply was not held to the answer: this codec does not read it ({refusal})"
                ));
            }
            Some(Ok(reply)) => match observed_fits(answer, Some(reply), &own)
                .and_then(|()| malformed_frames_error_id(vector, request.as_ref(), reply))
            {
                Ok(()) => {}
                Err(problems)
                    if code_only_departure(vector, answer, reply, &own)
                        && malformed_frames_error_id(vector, request.as_ref(), reply).is_ok() =>
                {
                    exchange.push(code_meaning(vector.profile.revision, &problems));
                }
                // One error for a batch of invalid elements, where §7's
                // example shows them in an array: §6 asks for the array at
                // SHOULD ("The Server should respond with an Array
                // containing the corresponding Response objects"), so the
                // shape departs from a SHOULD, never the MUST the probe rests
                // on; a wrong code beside it is §5.1's.
                Err(problems)
                    if single_for_batch(answer, reply, &own)
                        && malformed_frames_error_id(vector, request.as_ref(), reply).is_ok() =>
                {
                    // The exchange rules may have said it already (one finding).
                    if !exchange
                        .iter()
                        .any(|v| v.rule == RuleId::JsonrpcBatchRespondArray.as_str())
                    {
                        exchange.push(batch_respond_array(vector.profile.revision, &problems));
                    }
                    if observed_fits(&unbatched(answer), Some(reply), &own).is_err() {
                        exchange.push(code_meaning(vector.profile.revision, &problems));
                    }
                }
                // The code's meaning binds an error the server gives, not the
                // choice to give one: a server that accepts params the spec
                // would call invalid (a lenient `initialize`) breaks no
                // keyword, so that departure is a convention's.
                Err(problems) if accepted_instead_of_code(vector, reply) => {
                    notes.push(format!(
                        "{}: the server accepted what JSON-RPC 2.0 §5.1 would call invalid params; no sentence requires a refusal (a convention)",
                        problems.join("; ")
                    ));
                    if strictness == Strictness::Strict {
                        mismatches.extend(problems);
                    }
                }
                Err(problems) => mismatches.extend(problems),
            },
            None => {
                match observed_fits(answer, None, &own) {
                    // The frames came and then the wait ended (`Frames` with no
                    // reply among them is exactly that), or nothing came and the
                    // wait ended: either way the peer stayed open. Only a peer
                    // that hung up did not.
                    Ok(()) if opens_stream(answer) && silence != Some(Silence::PeerClosed) => {
                        // The stream is open: the response comes at teardown, so the
                        // model's "a request gets a response" is not yet due.
                        exchange.retain(|v| v.rule != "jsonrpc.response.required");
                        notes.push("the stream stayed open, as it should; no response is due before teardown".into());
                    }
                    Ok(()) => {}
                    // The probe's own rule binds the sender (it is the frame's
                    // fault); what the silent server broke is JSON-RPC 2.0 §5's
                    // "the Server MUST reply with a Response", §7 showing the
                    // error such a call gets: the finding goes under that.
                    Err(problems) if codec_must(vector) => {
                        if !exchange
                            .iter()
                            .any(|v| v.rule == RuleId::JsonrpcResponseRequired.as_str())
                        {
                            exchange.push(unanswered_call(vector, &problems));
                        }
                    }
                    Err(problems) => mismatches.extend(problems),
                }
            }
        }
    }

    let mut judgement = Judgement {
        outcome: Outcome::Pass,
        frames: verdicts,
        exchange,
        expected: vector.answer.clone(),
        silence,
        mismatches,
        notes,
        ambiguities,
    };
    judgement.outcome = decide(&mut judgement, vector, strictness);
    // A reply refused only at SHOULD or MAY was never compared with the
    // answer: what it says was not observed, so it cannot pass.
    if let Some(why) = unread {
        if judgement.outcome == Outcome::Pass {
            judgement.outcome = Outcome::NotObserved { why: why.clone() };
        }
        judgement.notes.push(why);
    }
    judgement
}

/// The legacy revision a 2026-07-28 vector's `initialize` was answered under,
/// when `reply` is a result ([`harness::session::answer_revision`]).
fn legacy_initialize_answer(
    vector: &Vector,
    request: Option<&Frame<'_>>,
    reply: &[u8],
) -> Option<Revision> {
    let Some(Frame::Single(Message::Request(request))) = request else {
        return None;
    };
    let Ok(Frame::Single(Message::Success(success))) = lift(reply) else {
        return None;
    };
    let revision = vector.profile.revision;
    let method = request.method.decoded();
    let answered = harness::session::answer_revision(revision, &method, &success.result);
    (answered != revision).then_some(answered)
}

/// Whether an answer is, or may be, a stream kept open.
fn opens_stream(answer: &Answer) -> bool {
    match answer {
        Answer::Stream { .. } => true,
        Answer::AnyOf(items) => items.iter().any(opens_stream),
        _ => false,
    }
}

/// An error answering a frame that does not lift may carry only what
/// [`harness::error_ids::error_may_carry`] allows (the frame's readable id,
/// null, or where MCP allows it no id): the vectors leave such ids unpinned
/// from 2025-03-26 on, so the one place decides here.
fn malformed_frames_error_id(
    vector: &Vector,
    request: Option<&Frame<'_>>,
    reply: &Frame<'_>,
) -> Result<(), Vec<String>> {
    let (None, Frame::Single(Message::Error(e))) = (request, reply) else {
        return Ok(());
    };
    if harness::error_ids::malformed_error_may_carry(
        vector.profile.revision,
        &vector.frame,
        e.id.as_ref(),
    ) {
        return Ok(());
    }
    let carried =
        e.id.as_ref()
            .map_or_else(|| "no id".to_owned(), |id| format!("id {id}"));
    Err(vec![format!(
        "the error carries {carried}: an error answering this malformed frame carries its readable id or null (JSON-RPC 2.0 §5)"
    )])
}

/// Whether the reply departs from a MUST-based answer by its error code
/// alone, where the MUST binds the frame's sender (a codec rule: the frame is
/// malformed) and the code comes from JSON-RPC 2.0 §5.1's table, which names
/// each code's meaning without a keyword. An error was owed and came, to the
/// right id: the code is then `jsonrpc.error.code-meaning` (SHOULD), a
/// warning, never a failure. A code an MCP sentence mandates (2026-07-28's
/// "MUST reject it with JSON-RPC error code -32602") stays under its MUST.
fn code_only_departure(
    vector: &Vector,
    answer: &Answer,
    reply: &Frame<'_>,
    own: &[Frame<'_>],
) -> bool {
    // A frame the codec refuses is answered with the code §5.1 names for
    // its fault, whatever level the answer itself is asked at.
    (codec_must(vector) || matches!(vector.codec, crate::vectors::Codec::Refuses { .. }))
        && observed_fits(&any_code(answer), Some(reply), own).is_ok()
}

/// Whether the vector's answer rests on a codec rule at MUST: the frame is
/// malformed, and the answer is the error JSON-RPC 2.0 §7 shows for it.
fn codec_must(vector: &Vector) -> bool {
    matches!(
        &vector.basis,
        Some(Basis::MandatedBy { rule, level })
            if level.is_mandatory() && rule.info().check == rules::CheckedBy::Codec
    )
}

/// The MUST a server silent to a malformed call breaks (JSON-RPC 2.0 §5).
fn unanswered_call(vector: &Vector, problems: &[String]) -> Violation {
    let probe = match &vector.basis {
        Some(Basis::MandatedBy { rule, .. }) => rule.as_str(),
        _ => "",
    };
    departure(
        RuleId::JsonrpcResponseRequired,
        vector.profile.revision,
        "",
        format!(
            "{}: the frame breaks {probe} (the sender's fault), and JSON-RPC 2.0 §7 answers such a call with an error; the Server MUST reply with a Response (§5)",
            problems.join("; ")
        ),
    )
}

/// The answer's departure reported under `rule`, at the level the rule
/// carries: the one place the judge's own violations are made.
fn departure(rule: RuleId, revision: Revision, pointer: &str, message: String) -> Violation {
    Violation {
        rule,
        level: rule.info().level,
        spec: rule.info().cite(revision),
        pointer: pointer.to_owned(),
        message,
    }
}

/// Whether `reply` is a single response where `answer` is a batch of one
/// (or of errors only), and fits its first element whatever its code.
fn single_for_batch(answer: &Answer, reply: &Frame<'_>, own: &[Frame<'_>]) -> bool {
    matches!(reply, Frame::Single(_))
        && contains_batch_of_one(answer)
        && observed_fits(&unbatched(&any_code(answer)), Some(reply), own).is_ok()
}

/// A batch of one element, or of errors only (`[1,2,3]`, `[[…]]`: no
/// Request object among them, so one error for the whole frame leaves no
/// call unanswered; only §6's array is missing).
fn collapsible(items: &[Answer]) -> bool {
    items.len() == 1 || items.iter().all(|i| matches!(i, Answer::Error { .. }))
}

fn contains_batch_of_one(answer: &Answer) -> bool {
    match answer {
        Answer::Batch(items) => !items.is_empty() && collapsible(items),
        Answer::AnyOf(items) => items.iter().any(contains_batch_of_one),
        _ => false,
    }
}

/// `answer` with every batch of one element, or of errors only, read as
/// its first element.
fn unbatched(answer: &Answer) -> Answer {
    match answer {
        Answer::Batch(items) if !items.is_empty() && collapsible(items) => items[0].clone(),
        Answer::AnyOf(items) => Answer::AnyOf(items.iter().map(unbatched).collect()),
        other => other.clone(),
    }
}

/// The SHOULD a single response to a batch breaks (JSON-RPC 2.0 §6).
fn batch_respond_array(revision: Revision, problems: &[String]) -> Violation {
    departure(
        RuleId::JsonrpcBatchRespondArray,
        revision,
        "",
        format!(
            "{}: JSON-RPC 2.0 §6 asks for an Array holding the one response",
            problems.join("; ")
        ),
    )
}

/// Whether the vector's answer rests on `jsonrpc.error.code-meaning` alone
/// and the reply is no error at all.
fn accepted_instead_of_code(vector: &Vector, reply: &Frame<'_>) -> bool {
    matches!(
        &vector.basis,
        Some(Basis::MandatedBy { rule, .. }) if *rule == RuleId::JsonrpcErrorCodeMeaning
    ) && matches!(reply, Frame::Single(Message::Success(_)))
}

/// `answer` with every error's codes widened to "any error".
fn any_code(answer: &Answer) -> Answer {
    match answer {
        Answer::Error {
            id, data_required, ..
        } => Answer::Error {
            codes: Vec::new(),
            id: id.clone(),
            data_required: data_required.clone(),
        },
        Answer::Batch(items) => Answer::Batch(items.iter().map(any_code).collect()),
        Answer::AnyOf(items) => Answer::AnyOf(items.iter().map(any_code).collect()),
        other => other.clone(),
    }
}

/// The SHOULD a wrong §5.1 code breaks, with what was expected.
fn code_meaning(revision: Revision, problems: &[String]) -> Violation {
    departure(
        RuleId::JsonrpcErrorCodeMeaning,
        revision,
        "/error/code",
        format!(
            "{}: JSON-RPC 2.0 §5.1 names another code for this error",
            problems.join("; ")
        ),
    )
}

/// Whether a frame is wholly the peer's own requests and notifications, not an
/// answer. An empty batch and a frame that does not lift may be answers.
fn peer_initiated(bytes: &[u8]) -> bool {
    match lift(bytes) {
        Ok(frame) => {
            let ms = frame.messages();
            !ms.is_empty()
                && ms
                    .iter()
                    .all(|m| matches!(m, Message::Request(_) | Message::Notification(_)))
        }
        Err(_) => false,
    }
}

fn decide(j: &mut Judgement, vector: &Vector, strictness: Strictness) -> Outcome {
    let outcome = by_rules_and_answer(j, vector, strictness);
    if vector.verdict == Verdict::ImplementationDefined
        && outcome == Outcome::Fail
        && !unanswered_under_every_reading(j, vector)
    {
        j.notes.push(
            "an `i_` vector never fails a live peer (the spec is ambiguous here): reported as a warning".into(),
        );
        return Outcome::Warning;
    }
    outcome
}

/// Whether `j` is no reply where every reading of an `i_` vector's
/// ambiguity owes one (silence, or only the peer's own requests and
/// notifications): its accepted answers hold no silence and the
/// question is not whether a reply is owed ([`Ambiguity::reply_in_question`](crate::vectors::Ambiguity::reply_in_question)).
/// JSON-RPC 2.0 §5: "When a rpc call is made, the Server MUST reply with a
/// Response", whichever way the ambiguity is read; that failure stands.
fn unanswered_under_every_reading(j: &Judgement, vector: &Vector) -> bool {
    j.reply().is_none()
        && !vector
            .ambiguity
            .as_ref()
            .is_some_and(|a| a.reply_in_question)
        && vector.answer.as_ref().is_some_and(|a| !a.accepts_silence())
}

/// How much the departures from the answer weigh, by the answer's basis.
fn answer_weight(j: &mut Judgement, basis: Option<&Basis>, strictness: Strictness) -> Outcome {
    if j.mismatches.is_empty() {
        return Outcome::Pass;
    }
    match basis {
        Some(Basis::MandatedBy { level, .. }) if level.is_mandatory() => Outcome::Fail,
        Some(Basis::MandatedBy {
            level: Level::Should | Level::ShouldNot,
            ..
        }) => Outcome::Warning,
        Some(Basis::MandatedBy { rule, level }) => {
            j.notes.push(format!(
                "the answer expected here is one {rule} allows ({level}), not mandates"
            ));
            weigh_convention(strictness)
        }
        Some(Basis::Convention(why)) => {
            j.notes.push(format!(
                "the answer expected here is a convention, not a requirement ({why})"
            ));
            weigh_convention(strictness)
        }
        // The loader refuses an answer without a basis; treat it as the
        // weakest, never as a failure.
        None => weigh_convention(strictness),
    }
}

fn weigh_convention(strictness: Strictness) -> Outcome {
    match strictness {
        Strictness::Default => Outcome::Pass,
        Strictness::Strict => Outcome::Warning,
    }
}

fn by_rules_and_answer(j: &mut Judgement, vector: &Vector, strictness: Strictness) -> Outcome {
    let by_answer = answer_weight(j, vector.basis.as_ref(), strictness);
    if j.weighed().any(|v| v.level.is_mandatory()) || by_answer == Outcome::Fail {
        return Outcome::Fail;
    }
    // A peer that hung up never showed it would stay silent: silence was the
    // answer, but a closed peer is no evidence of it.
    if let (Some(Silence::PeerClosed), Some(Answer::Nothing) | None) =
        (j.silence, vector.answer.as_ref())
    {
        return Outcome::NotObserved {
            why: Silence::PeerClosed.describe().into(),
        };
    }
    // A MAY is no fault (a receiver's own limit, a description without a
    // keyword): a note beside a pass, a warning under `--strict` as a
    // convention is, never a warning by default.
    let allowed: Vec<String> = j
        .weighed()
        .filter(|v| v.level == Level::May)
        .map(|v| {
            format!(
                "{} ({}, MAY: no keyword is broken): {}",
                v.rule, v.spec, v.message
            )
        })
        .collect();
    let by_may = if allowed.is_empty() {
        Outcome::Pass
    } else {
        j.notes.extend(allowed);
        weigh_convention(strictness)
    };
    let advisory = j
        .weighed()
        .any(|v| matches!(v.level, Level::Should | Level::ShouldNot));
    if advisory || by_answer == Outcome::Warning || by_may == Outcome::Warning {
        Outcome::Warning
    } else {
        Outcome::Pass
    }
}

/// A vector's recorded reply as the judge's input: a recorded silence is a
/// peer that stayed open and said nothing.
#[must_use]
pub fn recorded(reply: &crate::vectors::Reply) -> Observed {
    match reply {
        crate::vectors::Reply::Nothing => Observed::Silence(Silence::TimedOut),
        crate::vectors::Reply::Frame(text) => Observed::Frames(vec![text.as_bytes().to_vec()]),
    }
}

#[cfg(test)]
mod tests;
