//! The stdio shutdown check (2026-07-28 basic/transports/stdio §Shutdown):
//! not an HTTP probe, but judged from the same [`Trace`]s once a revision's
//! sessions closed, and filed by the transport checks' one [`Filer`].

use std::time::Duration;

use harness::rules::RuleId;
use harness::Revision;

use super::filer::Filer;
use super::trace::Trace;
use crate::report::Record;
use crate::transport::stdio::EndedBy;
use crate::transport::Kind;

/// 2026-07-28 basic/transports/stdio §Shutdown, SHOULD: "Servers SHOULD exit
/// promptly when their standard input is closed or reads return
/// end-of-file." Each session's process has its input closed at the end and
/// is given the runner's exit grace (2 s under this revision) before SIGTERM; one
/// that needed a signal did not exit promptly. `None` for a revision without
/// the rule or when no process was ended.
#[must_use]
pub fn stdio_shutdown(revision: Revision, traces: &[Trace], grace: Duration) -> Option<Record> {
    let rule = RuleId::McpR5StdioExitOnEof;
    if !rule.info().revisions.contains(revision) {
        return None;
    }
    // A process that never said a word may have been starting still: the
    // time it took to exit is start-up, not a slow exit.
    let starting = traces
        .iter()
        .filter(|t| t.stdio_ended_by.is_some() && t.stdio_never_heard)
        .count();
    let ended: Vec<EndedBy> = traces
        .iter()
        .filter(|t| !t.stdio_never_heard)
        .filter_map(|t| t.stdio_ended_by)
        .collect();
    if ended.is_empty() {
        return None;
    }
    let mut judge = Filer::new(revision, Kind::Stdio);
    let signalled = ended.iter().filter(|e| **e != EndedBy::Exited).count();
    let broken = if signalled == 0 {
        Vec::new()
    } else {
        vec![format!(
            "{signalled} of {} server processes were still running {:?} after their input was closed, and were signalled",
            ended.len(),
            grace
        )]
    };
    let mut seen = vec![format!(
        "{} server processes had their input closed",
        ended.len()
    )];
    if starting > 0 {
        seen.push(format!(
            "{starting} more had not yet said a word (still starting, perhaps), so how they ended is not judged"
        ));
    }
    judge.verdict(rule, broken, seen);
    judge.records.pop()
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::Outcome;

    fn ended(by: &[EndedBy]) -> Vec<Trace> {
        by.iter()
            .map(|e| Trace {
                stdio_ended_by: Some(*e),
                ..Trace::default()
            })
            .collect()
    }

    #[test]
    fn a_stdio_server_that_needs_a_signal_to_end_warns() {
        let grace = Duration::from_millis(500);
        let r5 = Revision::Mcp2026_07_28;
        let record = stdio_shutdown(r5, &ended(&[EndedBy::Exited]), grace).unwrap();
        assert_eq!(record.outcome, Outcome::Pass);
        assert_eq!(
            record.place.vector.as_deref(),
            Some("run/2026-07-28/stdio/exit-on-eof")
        );
        let slow = ended(&[EndedBy::Exited, EndedBy::Sigterm]);
        assert_eq!(
            stdio_shutdown(r5, &slow, grace).unwrap().outcome,
            Outcome::Warning
        );
        // Earlier revisions have no such sentence; no process, no record.
        assert!(stdio_shutdown(Revision::Mcp2025_11_25, &slow, grace).is_none());
        assert!(stdio_shutdown(r5, &[], grace).is_none());
        // A process closed before it said a word may still have been
        // starting: the signal it needed is not held against it.
        let mut starting = ended(&[EndedBy::Exited, EndedBy::Sigterm]);
        starting[1].stdio_never_heard = true;
        let record = stdio_shutdown(r5, &starting, grace).unwrap();
        assert_eq!(record.outcome, Outcome::Pass);
        starting[0].stdio_never_heard = true;
        assert!(stdio_shutdown(r5, &starting, grace).is_none());
    }
}
