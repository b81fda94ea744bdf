//! A stdio server's text on stdout (a log line, a banner): MCP
//! basic/transports §stdio, MUST NOT "write anything to its `stdout` that is
//! not a valid MCP message", judged once per revision over every session's
//! wire log, while each probe is judged on the messages alone
//! ([`crate::lines::is_stdout_text`] tells text from a message cut short).

use harness::rules::Level;
use harness::{Outcome, Revision};

use crate::report::{Check, OwnCheck, Record, Subject};
use crate::transport::Kind;

/// Lines of a server's stdout text the record quotes.
const STDOUT_TEXT_QUOTED: usize = 3;

/// One record for every line of text (no JSON-RPC message: a log line, a
/// banner; [`crate::lines::is_stdout_text`]) a stdio server wrote to stdout
/// in `revision`'s sessions, quoting the first distinct ones: MCP
/// basic/transports §stdio, MUST NOT "write anything to its `stdout` that is
/// not a valid MCP message", broken once however often, and said once,
/// rather than as a parse failure of each probe's answer. `None` when there
/// was none.
pub(super) fn record(revision: Revision, logs: &[Vec<crate::transcript::Entry>]) -> Option<Record> {
    let lines: Vec<&[u8]> = logs
        .iter()
        .flat_map(|log| crate::driver::server_frames(log))
        .filter(|bytes| crate::lines::is_stdout_text(bytes))
        .collect();
    lines.first()?;
    let mut distinct: Vec<&[u8]> = Vec::new();
    for line in &lines {
        if !distinct.contains(line) && distinct.len() < STDOUT_TEXT_QUOTED {
            distinct.push(line);
        }
    }
    let mut record = Record::new(
        crate::report::Place {
            vector: Some(format!("run/{}/stdio/stdout-text", revision.name())),
            revision: Some(revision),
            transport: Some(Kind::Stdio.into()),
            ..crate::report::Place::default()
        },
        // The lines are quoted in the notes; the record answers no probe.
        Subject::Frame(Vec::new()),
        Outcome::Fail,
    );
    let page = if revision == Revision::Mcp2026_07_28 {
        "basic/transports/stdio"
    } else {
        "basic/transports §stdio"
    };
    record.check = Some(Check {
        rule: OwnCheck::StdoutText.into(),
        level: Level::MustNot,
        spec: format!(
            "MCP {revision} {page}: \"The server MUST NOT write anything to its stdout that is not a valid MCP message.\""
        ),
    });
    record.notes.push(format!(
        "the server wrote {} line{} of text to stdout that {} no JSON-RPC message (a log line goes to stderr); each probe was judged on the messages alone",
        lines.len(),
        if lines.len() == 1 { "" } else { "s" },
        if lines.len() == 1 { "is" } else { "are" }
    ));
    for line in distinct {
        record.notes.push(format!(
            "stdout: {}",
            crate::report::text::preview(line, 160)
        ));
    }
    Some(record)
}
