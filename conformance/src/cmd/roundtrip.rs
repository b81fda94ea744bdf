//! `wirecheck roundtrip`: lift and lower each frame, one JSON line per input line.

use std::io::Write;

use harness::{lift_with, lower_to_vec, Limits};

use super::{Exit, RefusalRecord};
use crate::lines::{Inputs, Line};

/// Counts of one run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Frames that lifted.
    pub lifted: usize,
    /// Frames that were refused.
    pub refused: usize,
}

/// Runs the round trip over `inputs`, writing one JSON line per frame to `out`:
/// `{"line":N,"ok":<lowered frame>}` or `{"line":N,"refused":{…}}`, with
/// `"file"` first when reading named files.
pub fn run(inputs: &Inputs, out: &mut impl Write) -> Result<Tally, String> {
    let limits = Limits {
        max_frame_bytes: inputs.max_frame,
        ..Limits::default()
    };
    let mut tally = Tally::default();
    inputs.for_each(|place, line| {
        let mut record = place.record_head()?;
        let refused = match &line {
            Line::TooLong(len) => Some(RefusalRecord::too_long(*len, inputs.max_frame)),
            Line::Frame(bytes) => match lift_with(bytes, &limits) {
                Ok(frame) => {
                    // The lowered frame is JSON already: it is embedded verbatim.
                    record.extend_from_slice(b",\"ok\":");
                    record.extend_from_slice(&lower_to_vec(&frame));
                    None
                }
                Err(refusal) => Some(RefusalRecord::from(&refusal)),
            },
        };
        match refused {
            None => tally.lifted += 1,
            Some(refusal) => {
                tally.refused += 1;
                record.extend_from_slice(b",\"refused\":");
                serde_json::to_writer(&mut record, &refusal)?;
            }
        }
        record.extend_from_slice(b"}\n");
        out.write_all(&record)
    })?;
    Ok(tally)
}

/// The exit code for a tally.
#[must_use]
pub fn exit_for(tally: Tally) -> Exit {
    if tally.refused == 0 {
        Exit::Clean
    } else {
        Exit::Findings
    }
}

/// Runs against standard output, with a summary on standard error.
pub fn main(inputs: &Inputs, quiet: bool) -> Exit {
    super::report_to_stdout(
        "roundtrip",
        quiet,
        |mut out| run(inputs, &mut out),
        |tally| {
            format!(
                "{} frames, {} lifted, {} refused",
                tally.lifted + tally.refused,
                tally.lifted,
                tally.refused
            )
        },
        |tally| exit_for(*tally),
    )
}
