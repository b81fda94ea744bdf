//! Where records go as a command makes them.
//!
//! `roundtrip` and `classify` read transcripts of any length, so they must not
//! hold every record: a [`Stream`] writes each record's line (JSON or terminal)
//! the moment it arrives, counts it, and keeps only what a view asked for at
//! the end still needs:
//!
//! - nothing, for JSON lines or the terminal alone: memory stays flat;
//! - the first [`markdown::MAX_LISTED`] failing records, for `--markdown`,
//!   which lists no more than those and counts the rest;
//! - every record, for `--junit`: one test case per record, and its
//!   `tests`/`failures` counts are attributes of the opening tag, so the XML
//!   cannot be written before the last record. The trade-off is stated in
//!   `--junit`'s help: memory then grows with the transcript, as it did before
//!   streaming.
//!
//! A [`Report`] is a sink too (it keeps everything), for the tests and for the
//! live runner, whose run document holds every record by design.

use std::io::{self, Write};

use super::{json, markdown, terminal, Record, Report};

/// Takes records one at a time, in order.
pub trait Sink {
    /// One more record.
    fn accept(&mut self, record: Record);
}

impl Sink for Report {
    fn accept(&mut self, record: Record) {
        self.note_ambiguities(&record);
        self.records.push(record);
    }
}

/// How each record is written as it arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    /// One JSON object per line ([`json::write_record`]).
    Json,
    /// The terminal view's lines, coloured when `colour`.
    Terminal {
        /// ANSI colours on.
        colour: bool,
    },
}

/// Which records the views asked for at the end still need.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Keep {
    /// Every record (JUnit).
    pub all: bool,
    /// The failing records, up to [`markdown::MAX_LISTED`] (Markdown).
    pub failing: bool,
}

/// Writes records as they come, keeps the tally and what [`Keep`] asks for.
pub struct Stream<W: Write> {
    out: W,
    lines: Lines,
    keep: Keep,
    report: Report,
    kept_failing: usize,
    line: Vec<u8>,
    error: Option<io::Error>,
}

impl<W: Write> Stream<W> {
    /// A stream of `report`'s records (it should have none yet: its command,
    /// profile and strictness decide the summary and what fails) onto `out`.
    pub fn new(report: Report, out: W, lines: Lines, keep: Keep) -> Self {
        Self {
            out,
            lines,
            keep,
            report,
            kept_failing: 0,
            line: Vec::with_capacity(256),
            error: None,
        }
    }

    /// Flushes the output; the report holds the kept records and counts the
    /// rest in [`Report::dropped`]. The first write error, if any, is returned
    /// beside it: once the output fails, nothing more is written to it.
    pub fn finish(self) -> (Report, io::Result<()>) {
        self.finish_as(false)
    }

    /// [`finish`](Self::finish) of a command that could not be made
    /// (`unmade`): with nothing judged, its tally says so, never "nothing
    /// to judge" (the error itself is said on standard error).
    pub fn finish_as(mut self, unmade: bool) -> (Report, io::Result<()>) {
        if self.error.is_none() {
            if let Lines::Terminal { colour } = self.lines {
                let tally = terminal::closing_of(&self.report, colour, unmade);
                self.write(tally.as_bytes());
            }
        }
        if self.error.is_none() {
            if let Err(e) = self.out.flush() {
                self.error = Some(e);
            }
        }
        (self.report, self.error.map_or(Ok(()), Err))
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(bytes) {
                self.error = Some(e);
            }
        }
    }
}

impl<W: Write> Sink for Stream<W> {
    fn accept(&mut self, mut record: Record) {
        self.report.note_ambiguities(&record);
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        match self.lines {
            Lines::Json => {
                // Writing into a Vec fails only if serde_json does, which it
                // cannot for these plain types; the error is kept regardless.
                if let Err(e) = json::write_record(&record, &mut line) {
                    self.error.get_or_insert(e);
                }
                line.push(b'\n');
            }
            Lines::Terminal { colour } => {
                if terminal::listed(self.report.command, &record) {
                    line.extend_from_slice(terminal::record_lines(&record, colour).as_bytes());
                }
            }
        }
        self.write(&line);
        self.line = line;
        let failing = record.outcome.fails_run(self.report.strict);
        let keep = self.keep.all
            || (self.keep.failing && failing && self.kept_failing < markdown::MAX_LISTED);
        if keep {
            self.kept_failing += usize::from(failing);
            // The lowered frame is for JSON lines, written above; no view
            // kept for the end reads it.
            record.payload = None;
            self.report.records.push(record);
        } else {
            self.report.dropped.add(&record.outcome);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Command, Outcome, Place, Subject};
    use super::*;

    fn record(line: usize, outcome: Outcome) -> Record {
        Record::new(
            Place::at_line(None, line),
            Subject::Frame(vec![b'x'; 1000]),
            outcome,
        )
    }

    #[test]
    fn only_what_a_view_needs_is_kept() {
        let mut out = Vec::new();
        let mut stream = Stream::new(
            Report::new(Command::Roundtrip),
            &mut out,
            Lines::Json,
            Keep::default(),
        );
        for i in 1..=10_000 {
            stream.accept(record(i, Outcome::Pass));
        }
        let (report, written) = stream.finish();
        written.unwrap();
        assert!(report.records.is_empty());
        assert_eq!(report.tally().count("pass"), 10_000);
        assert_eq!(out.iter().filter(|b| **b == b'\n').count(), 10_000);

        let mut stream = Stream::new(
            Report::new(Command::Roundtrip),
            io::sink(),
            Lines::Json,
            Keep {
                all: false,
                failing: true,
            },
        );
        for i in 1..=1000 {
            stream.accept(record(i, Outcome::Fail));
            stream.accept(record(i, Outcome::Pass));
        }
        let (report, _) = stream.finish();
        assert_eq!(report.records.len(), markdown::MAX_LISTED);
        assert_eq!(report.tally().count("fail"), 1000);
        assert_eq!(report.tally().total(), 2000);
        let md = markdown::render(&report);
        assert!(md.contains("## Failing records (1000)"), "{md}");
        assert!(md.contains("… and 800 more."), "{md}");
    }

    #[test]
    fn a_failed_output_stops_being_written() {
        struct Broken(usize);
        impl Write for Broken {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                self.0 += 1;
                Err(io::Error::from(io::ErrorKind::BrokenPipe))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut broken = Broken(0);
        let mut stream = Stream::new(
            Report::new(Command::Roundtrip),
            &mut broken,
            Lines::Terminal { colour: false },
            Keep::default(),
        );
        stream.accept(record(1, Outcome::Pass));
        stream.accept(record(2, Outcome::Fail));
        let (report, written) = stream.finish();
        assert_eq!(written.unwrap_err().kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(report.tally().total(), 2);
        assert_eq!(broken.0, 1);
    }
}
