//! `wirecheck classify`: judge each frame of a transcript under one profile with
//! the rule model ([`harness::rules`]), one JSON line per input line.

use std::io::Write;

use harness::rules::{self, Level, Violation};
use harness::{lift_with, Limits, Profile};

use super::{Exit, RefusalRecord};
use crate::lines::{Inputs, Line};

/// Counts of one run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Frames judged.
    pub frames: usize,
    /// Frames with no violation at all.
    pub clean: usize,
    /// Frames breaking at least one MUST or MUST NOT (refusals included).
    pub mandatory: usize,
    /// Frames breaking only SHOULD / SHOULD NOT / MAY rules.
    pub advisory: usize,
}

/// Judges every frame of `inputs` under `profile`, writing one JSON line per
/// frame to `out`: `{"line":N,"violations":[…]}`, each violation
/// `{"rule","level","spec","pointer","message"}`, with `"file"` first when
/// reading named files. A frame that does not lift is one violation: its refusal.
pub fn run(inputs: &Inputs, profile: Profile, out: &mut impl Write) -> Result<Tally, String> {
    let limits = Limits {
        max_frame_bytes: inputs.max_frame,
        ..Limits::default()
    };
    let mut tally = Tally::default();
    inputs.for_each(|place, line| {
        let violations = match &line {
            Line::TooLong(len) => vec![too_long(*len, inputs.max_frame)],
            Line::Frame(bytes) => match lift_with(bytes, &limits) {
                Ok(frame) => rules::validate_frame(&frame, profile),
                Err(refusal) => vec![refused(&RefusalRecord::from(&refusal))],
            },
        };
        tally.frames += 1;
        if violations.is_empty() {
            tally.clean += 1;
        } else if violations.iter().any(|v| v.level.is_mandatory()) {
            tally.mandatory += 1;
        } else {
            tally.advisory += 1;
        }
        let mut record = place.record_head()?;
        record.extend_from_slice(b",\"violations\":");
        serde_json::to_writer(&mut record, &violations)?;
        record.extend_from_slice(b"}\n");
        out.write_all(&record)
    })?;
    Ok(tally)
}

/// A refusal as a violation: its rule, at MUST (the codec's rules are all MUST).
fn refused(r: &RefusalRecord) -> Violation {
    Violation {
        rule: r.rule,
        level: Level::Must,
        spec: r.spec,
        pointer: r.pointer.clone(),
        message: r.message.clone(),
    }
}

fn too_long(len: usize, max: usize) -> Violation {
    refused(&RefusalRecord::too_long(len, max))
}

/// The exit code for a tally: findings when a MUST was broken, or, with
/// `strict`, any SHOULD-level rule (as h2spec's `--strict` does).
#[must_use]
pub fn exit_for(tally: Tally, strict: bool) -> Exit {
    if tally.mandatory > 0 || (strict && tally.advisory > 0) {
        Exit::Findings
    } else {
        Exit::Clean
    }
}

/// Runs against standard output, with a summary on standard error.
pub fn main(inputs: &Inputs, profile: Profile, strict: bool, quiet: bool) -> Exit {
    super::report_to_stdout(
        "classify",
        quiet,
        |mut out| run(inputs, profile, &mut out),
        |tally| {
            format!(
                "{} frames under {} from the {}: {} clean, {} breaking a MUST, {} breaking only SHOULD-level rules{}",
                tally.frames,
                profile.revision,
                profile.direction.sender(),
                tally.clean,
                tally.mandatory,
                tally.advisory,
                if strict { " (--strict: these fail too)" } else { "" }
            )
        },
        |tally| exit_for(*tally, strict),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_fails_on_advisory_findings_only() {
        let advisory = Tally {
            frames: 1,
            advisory: 1,
            ..Tally::default()
        };
        assert_eq!(exit_for(advisory, false), Exit::Clean);
        assert_eq!(exit_for(advisory, true), Exit::Findings);
        let mandatory = Tally {
            frames: 1,
            mandatory: 1,
            ..Tally::default()
        };
        assert_eq!(exit_for(mandatory, false), Exit::Findings);
        assert_eq!(exit_for(Tally::default(), true), Exit::Clean);
    }
}
