//! `wirecheck classify`: judge each frame of a transcript under one profile
//! with the rule model ([`harness::rules`]).

use harness::rules;
use harness::{lift_with, Direction, Limits, Outcome, Profile, Revision};

use super::{args, InputArgs, OutputArgs};
use crate::lines::{Inputs, Line};
use crate::report::sink::Sink;
use crate::report::{Command, Place, Record, Refusal, Report, Subject, Violation};

/// Judge each frame under one profile with the rule model.
///
/// Reads frames, one per line, from FILES or standard input; blank lines are
/// skipped. Writes one JSON object per frame to standard output:
/// {"line":N,"violations":[{"rule":"…","level":"MUST","spec":"…","pointer":"/id","message":"…"}]},
/// an empty array when the frame is clean, with "file" first when reading
/// named files; a frame that does not lift is one violation, its -32700 or
/// -32600 rule. Exchange rules (a reply's id, a notification answered) need
/// both sides and are not judged here. A summary goes to standard error.
///
/// Exit codes: 0 no MUST or MUST NOT broken, 1 one was (with --strict, also
/// SHOULD or SHOULD NOT), 2 usage or I/O error.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The revision: an MCP revision (2024-11-05, 2025-03-26, 2025-06-18,
    /// 2025-11-25, 2026-07-28) or jsonrpc-2.0 for plain JSON-RPC 2.0.
    #[arg(long, value_name = "R")]
    revision: Revision,
    /// Who sent the frames.
    #[arg(long, value_name = "SIDE", value_parser = args::sender(), default_value = "client")]
    from: Direction,
    /// Fail (exit 1) on SHOULD-level violations too, not only on MUST-level ones.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,
}

impl Args {
    /// Where the report goes.
    #[must_use]
    pub fn output(&self) -> &OutputArgs {
        &self.output
    }
}

impl Args {
    fn profile(&self) -> Profile {
        Profile {
            revision: self.revision,
            direction: self.from,
        }
    }
}

/// The report the judgement fills: profile and strictness, no records yet.
#[must_use]
pub fn header(args: &Args) -> Report {
    let mut report = Report::new(Command::Classify);
    report.profile = Some(args.profile());
    report.strict = args.strict;
    report
}

/// Judges the frames `args` names, each record into `sink`.
pub fn run(args: &Args, sink: &mut dyn Sink) -> Result<(), String> {
    judge_into(&args.input.inputs(), args.profile(), sink)
}

/// Every frame of `inputs` judged under `profile`: a pass when clean, a
/// failure when a MUST or MUST NOT is broken (a refusal is one), a warning
/// when only SHOULD-level rules are.
#[must_use]
pub fn judge(inputs: &Inputs, profile: Profile, strict: bool) -> Report {
    let mut report = Report::new(Command::Classify);
    report.profile = Some(profile);
    report.strict = strict;
    report.error = judge_into(inputs, profile, &mut report).err();
    report
}

/// [`judge`], each record into `sink` as it is made; the error is why
/// reading stopped early.
pub fn judge_into(inputs: &Inputs, profile: Profile, sink: &mut dyn Sink) -> Result<(), String> {
    let limits = Limits {
        max_frame_bytes: inputs.max_frame,
        ..Limits::default()
    };
    inputs.for_each(|place, line| {
        let place = Place::at_line(place.file.clone(), place.line);
        let (subject, refusal, violations) = match line {
            Line::TooLong(len) => {
                let refusal = Refusal::too_long(len, inputs.max_frame);
                let violations = vec![refusal.as_violation()];
                (Subject::TooLong { len }, Some(refusal), violations)
            }
            Line::Frame(bytes) => match lift_with(&bytes, &limits) {
                Ok(frame) => {
                    let violations = rules::validate_frame(&frame, profile);
                    (Subject::Frame(bytes), None, violations)
                }
                Err(refusal) => {
                    let refusal = Refusal::from(&refusal);
                    let violations = vec![refusal.as_violation()];
                    (Subject::Frame(bytes), Some(refusal), violations)
                }
            },
        };
        let mut record = Record::new(place, subject, outcome_of(&violations));
        record.refusal = refusal;
        record.violations = Some(violations);
        sink.accept(record);
    })
}

/// A frame's outcome from its violations: MUST-level ones fail it, SHOULD-
/// and MAY-level ones only warn (a2a-tck lets the RFC 2119 level decide).
fn outcome_of(violations: &[Violation]) -> Outcome {
    if violations.is_empty() {
        Outcome::Pass
    } else if violations.iter().any(|v| v.level.is_mandatory()) {
        Outcome::Fail
    } else {
        Outcome::Warning
    }
}
