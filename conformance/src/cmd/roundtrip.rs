//! `wirecheck roundtrip`: lift and lower each frame through the reference codec.

use harness::{lift_with, lower_to_vec, Limits, Outcome};

use super::{InputArgs, OutputArgs};
use crate::lines::{Inputs, Line};
use crate::report::sink::Sink;
use crate::report::{Command, Payload, Place, Record, Refusal, Report, Subject};

/// Lift and lower each frame through the reference codec.
///
/// Reads frames, one per line, from FILES or standard input; blank lines are
/// skipped. Writes one JSON object per frame to standard output:
/// {"line":N,"ok":<the lowered frame>} or
/// {"line":N,"refused":{"code":-32600,"rule":"…","pointer":"/id","message":"…","spec":"…","line":1,"column":23}},
/// with "file" first when reading named files. A summary goes to standard error.
///
/// Exit codes: 0 every frame lifted, 1 some were refused, 2 usage or I/O error.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
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

/// The report the round trip fills: no records yet.
#[must_use]
pub fn header(_args: &Args) -> Report {
    Report::new(Command::Roundtrip)
}

/// Runs the round trip over the frames `args` names, each record into `sink`.
pub fn run(args: &Args, sink: &mut dyn Sink) -> Result<(), String> {
    judge_into(&args.input.inputs(), sink)
}

/// The round trip of every frame of `inputs`: a pass with the lowered frame,
/// or a failure with the codec's refusal.
#[must_use]
pub fn judge(inputs: &Inputs) -> Report {
    let mut report = Report::new(Command::Roundtrip);
    report.error = judge_into(inputs, &mut report).err();
    report
}

/// [`judge`], each record into `sink` as it is made; the error is why
/// reading stopped early.
pub fn judge_into(inputs: &Inputs, sink: &mut dyn Sink) -> Result<(), String> {
    let limits = Limits {
        max_frame_bytes: inputs.max_frame,
        ..Limits::default()
    };
    inputs.for_each(|place, line| {
        let place = Place::at_line(place.file.clone(), place.line);
        sink.accept(match line {
            Line::TooLong(len) => {
                let mut record = Record::new(place, Subject::TooLong { len }, Outcome::Fail);
                record.refusal = Some(Refusal::too_long(len, inputs.max_frame));
                record
            }
            Line::Frame(bytes) => {
                let lifted = lift_with(&bytes, &limits).map(|frame| lower_to_vec(&frame));
                match lifted {
                    Ok(lowered) => {
                        let mut record = Record::new(place, Subject::Frame(bytes), Outcome::Pass);
                        record.payload = Some(Payload::Lowered(lowered));
                        record
                    }
                    Err(refusal) => {
                        let refusal = Refusal::from(&refusal);
                        let mut record = Record::new(place, Subject::Frame(bytes), Outcome::Fail);
                        record.refusal = Some(refusal);
                        record
                    }
                }
            }
        });
    })
}
