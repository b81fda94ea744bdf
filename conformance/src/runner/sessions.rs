//! The session judge over the runner's own live sessions.
//!
//! Each vector's record judges its answer frame by frame and exchange by
//! exchange. What only the whole conversation shows (an answer to an id
//! nobody sent, a second answer, a request before the handshake ended, an
//! undeclared capability used, a progress token never handed out) is judged
//! here: every session a run played is fed to the session judge
//! ([`Watch::session_rules_only`])
//! (the frame and reply rules are the vector records' own, so nothing is
//! judged twice), and what the server broke becomes a record.
//!
//! The runner breaks rules on purpose: its probes include malformed frames,
//! reused ids and requests sent out of order. So each finding is blamed on
//! the side that broke it ([`blame`]), and only the server's are kept. Once
//! the runner has broken a session rule itself, the conversation is off the
//! spec's map: what the server does after that is not held against it
//! ([`judge`] stops keeping findings there, and says so in a record). So is
//! a batch the codec refuses: the judge cannot follow the requests inside it,
//! so it would take their answers for answers to nothing.
//! [`plan::off_map`](super::plan::off_map) plays such vectors last in their
//! session.

use std::path::{Path, PathBuf};

use harness::rules::CheckedBy;
use harness::session::{self, Finding};
use harness::{Direction, Revision};

use crate::report::{OwnCheck, Record};
use crate::transcript::Entry;
use crate::transport::Kind;
use crate::watch::{self, Watch};

/// Who broke the rule of `finding`, in the conversation `entries` it was
/// found in (indices as the judge counted them, one per entry): see
/// [`session::blame`].
#[must_use]
pub fn blame(entries: &[Entry], finding: &Finding) -> Option<Direction> {
    session::blame(&finding.frames, |index| {
        match entries.get(usize::try_from(index).ok()?)? {
            Entry::Frame(frame) => Some(frame.from),
            Entry::Event { .. } => None,
        }
    })
}

/// What one session showed.
#[derive(Debug, Default)]
pub struct Judged {
    /// A record per session rule the server broke.
    pub records: Vec<Record>,
    /// Where `--transcripts` wrote the session, when it did.
    pub saved: Option<PathBuf>,
}

/// Judges one live session under `revision`: session `n` of the revision's,
/// written to `file` when `--transcripts` asked for it. Each record's subject
/// id is `run/<revision>/session/<rule>`, the same in every run, so a
/// baseline can name it.
#[must_use]
pub fn judge(
    revision: Revision,
    n: usize,
    file: Option<&str>,
    entries: &[Entry],
    transport: Kind,
) -> Vec<Record> {
    let place = |record: &mut Record, check: &str| {
        record.place.vector = Some(format!("run/{}/session/{check}", revision.name()));
        record.place.file = file.map(str::to_owned);
        record.place.transport = Some(transport.into());
        record
            .notes
            .push(format!("session {n} of the run's {revision} sessions"));
    };
    // HTTP's POSTs and streams are no single ordered stream each way.
    let ordered = transport.is_ordered();
    let mut watch = Watch::new(Some(revision))
        .session_rules_only()
        .ordered(ordered);
    let mut records = Vec::new();
    let mut off_map = false;
    for entry in entries {
        watch.see(entry, &mut |revision, entry, findings| {
            for f in findings.drain(..) {
                if off_map {
                    return;
                }
                let check = f.violation.rule.info().check;
                let bytes = watch::bytes(entry);
                match blame(entries, &f) {
                    // A frame or reply rule the server broke is its vector
                    // record's own finding: only the session rules are new here.
                    Some(Direction::ServerToClient) if check == CheckedBy::Session => {
                        let mut record =
                            crate::report::session::finding("", revision, &f, bytes.to_vec());
                        place(&mut record, f.violation.rule.as_str());
                        records.push(record);
                    }
                    // The runner broke a session rule (on purpose: an id reused,
                    // a request before `initialized`), or sent a batch the codec
                    // refuses, whose requests the judge cannot follow: stop
                    // judging the server.
                    Some(Direction::ClientToServer)
                        if check == CheckedBy::Session
                            || (check == CheckedBy::Codec
                                && crate::lines::is_batch_text(bytes)) =>
                    {
                        let mut record = left_unjudged(revision, &f, entries.len());
                        place(&mut record, "unjudged");
                        records.push(record);
                        off_map = true;
                    }
                    _ => {}
                }
            }
        });
        if off_map {
            return records;
        }
    }
    // What only the end decides (a request never answered) is the vector
    // records' own: each probe waited for its answer and failed or not there.
    records
}

/// The record of a session the runner took off the spec's map at `f`: what
/// the server did after it is not judged, and the report says so.
fn left_unjudged(revision: Revision, f: &Finding, entries: usize) -> Record {
    let at = f.frames.last().map_or(0, |a| a.index);
    let rest = u64::try_from(entries)
        .unwrap_or(u64::MAX)
        .saturating_sub(at + 1);
    let mut record = Record::new(
        crate::report::Place {
            frame: usize::try_from(at).ok(),
            revision: Some(revision),
            ..crate::report::Place::default()
        },
        crate::report::Subject::Frame(Vec::new()),
        harness::Outcome::NotApplicable {
            why: format!(
                "session rules: the runner broke {} at event {} on purpose (a probe), so the \
                 {rest} events after it are not judged against the server",
                f.violation.rule.as_str(),
                // Counted from 1, as people count (`harness::session::At::number`).
                at.saturating_add(1)
            ),
        },
    );
    // Not a rule (like the runner's `stdio.peer-exited`): the record says
    // how far the session judge went, for a person to read.
    record.check = Some(crate::report::Check {
        rule: OwnCheck::SessionUnjudged.into(),
        level: harness::rules::Level::May,
        spec: "wirecheck: the session judge over the runner's live sessions".into(),
    });
    record.notes.push(f.violation.message.clone());
    record
}

/// The check id of a session left unjudged from a point on.
pub const CHECK_UNJUDGED: &str = OwnCheck::SessionUnjudged.name();

/// Judges a session's wire log and, when `dir` is given, writes it there as
/// `<revision>.<n>.jsonl` first, so its records name the file that
/// `wirecheck check` judges again.
///
/// # Errors
/// The transcript cannot be written.
pub fn judge_log(
    revision: Revision,
    n: usize,
    log: &[Entry],
    dir: Option<&Path>,
    transport: Kind,
) -> Result<Judged, String> {
    let entries = log;
    let saved = match dir {
        Some(dir) => Some(crate::transcript::save(
            dir,
            &format!("{}.{n:03}.jsonl", revision.name()),
            entries,
        )?),
        None => None,
    };
    let file = saved.as_ref().map(|p| p.display().to_string());
    Ok(Judged {
        records: judge(revision, n, file.as_deref(), entries, transport),
        saved,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::session::Judge;

    fn frame(from: Direction, text: &str) -> Entry {
        Entry::Frame(crate::transcript::Frame {
            from,
            bytes: text.as_bytes().to_vec(),
            t: None,
        })
    }

    const C: Direction = Direction::ClientToServer;
    const S: Direction = Direction::ServerToClient;

    fn handshake() -> Vec<Entry> {
        vec![
            frame(
                C,
                r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            ),
            frame(
                S,
                r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#,
            ),
            frame(
                C,
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            ),
        ]
    }

    #[test]
    fn a_second_answer_is_the_servers_finding() {
        let mut entries = handshake();
        entries.push(frame(C, r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#));
        entries.push(frame(S, r#"{"jsonrpc":"2.0","id":2,"result":{}}"#));
        entries.push(frame(S, r#"{"jsonrpc":"2.0","id":2,"result":{}}"#));
        let records = judge(Revision::Mcp2025_06_18, 0, None, &entries, Kind::Stdio);
        let rules: Vec<&str> = records
            .iter()
            .filter_map(|r| r.check.as_ref().map(|c| c.rule.as_str()))
            .collect();
        assert_eq!(rules, ["session.response.duplicate"], "{records:?}");
        assert_eq!(records[0].place.frame, Some(5));
        assert_eq!(records[0].place.transport, Some(Kind::Stdio.into()));
        assert_eq!(
            records[0].place.vector.as_deref(),
            Some("run/2025-06-18/session/session.response.duplicate")
        );
    }

    #[test]
    fn a_clean_session_has_no_record() {
        let mut entries = handshake();
        entries.push(frame(C, r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#));
        entries.push(frame(S, r#"{"jsonrpc":"2.0","id":2,"result":{}}"#));
        assert!(judge(Revision::Mcp2025_06_18, 0, None, &entries, Kind::Stdio).is_empty());
    }

    #[test]
    fn after_the_runner_breaks_a_session_rule_the_server_is_not_judged() {
        let mut entries = handshake();
        // The runner reuses id 2 while it is in flight (a probe about ids);
        // the server then answers both: not held against it.
        entries.push(frame(C, r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#));
        entries.push(frame(C, r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#));
        entries.push(frame(S, r#"{"jsonrpc":"2.0","id":2,"result":{}}"#));
        entries.push(frame(S, r#"{"jsonrpc":"2.0","id":2,"result":{}}"#));
        let records = judge(Revision::Mcp2025_06_18, 0, None, &entries, Kind::Stdio);
        assert_eq!(records.len(), 1, "{records:?}");
        assert!(
            matches!(&records[0].outcome, harness::Outcome::NotApplicable { why }
                if why.contains("at event 5") && why.contains("the 2 events after it")),
            "{:?}",
            records[0].outcome
        );
        // The record points at the runner's frame that broke the rule.
        assert_eq!(records[0].place.frame, Some(4));
        assert_eq!(records[0].place.revision, Some(Revision::Mcp2025_06_18));
    }

    #[test]
    fn an_answer_owed_at_the_end_is_blamed_on_the_side_asked() {
        let entries = vec![
            frame(C, r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#),
            Entry::Event {
                event: crate::transcript::Transport::Closed,
                from: None,
                t: None,
            },
        ];
        let mut judge = Judge::new(Revision::JsonRpc2);
        let mut findings = Vec::new();
        for e in &entries {
            judge.feed(e.event(), None, &mut findings);
        }
        let unanswered = findings
            .iter()
            .find(|f| f.violation.rule.as_str() == "jsonrpc.response.required")
            .expect("the closed stream leaves the ping unanswered");
        assert_eq!(blame(&entries, unanswered), Some(S));
        let asked_by_server = vec![
            frame(S, r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#),
            entries[1].clone(),
        ];
        let mut judge = Judge::new(Revision::JsonRpc2);
        let mut findings = Vec::new();
        for e in &asked_by_server {
            judge.feed(e.event(), None, &mut findings);
        }
        assert_eq!(blame(&asked_by_server, &findings[0]), Some(C));
    }

    #[test]
    fn a_frame_finding_is_blamed_on_its_sender() {
        let entries = vec![
            frame(C, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            frame(S, r#"{"jsonrpc":"2.0","id":9,"result":{}}"#),
        ];
        let mut judge = Judge::new(Revision::JsonRpc2);
        let mut findings = Vec::new();
        for e in &entries {
            judge.feed(e.event(), None, &mut findings);
        }
        let unknown = findings
            .iter()
            .find(|f| f.violation.rule.as_str() == "session.response.unknown-id")
            .expect("id 9 was never sent");
        assert_eq!(blame(&entries, unknown), Some(S));
    }

    /// The rules each record of `records` names.
    fn rules(records: &[Record]) -> Vec<&str> {
        records
            .iter()
            .filter_map(|r| r.check.as_ref().map(|c| c.rule.as_str()))
            .collect()
    }

    /// Over stdio a later request's answer shows the server had read an
    /// earlier cancellation, so answering the cancelled request after it
    /// breaks `mcp.r5.stdio.cancel-no-further` (2026-07-28
    /// basic/transports/stdio §Cancellation); over HTTP each request has its
    /// own stream, the order shows nothing, and that rule is not judged.
    #[test]
    fn only_an_ordered_transport_shows_a_cancellation_was_read() {
        let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}"#;
        let call = |id: u32| {
            frame(
                C,
                &format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"t",{meta}}}}}"#
                ),
            )
        };
        let answer = |id: u32| {
            frame(
                S,
                &format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"complete","_meta":{{"io.modelcontextprotocol/serverInfo":{{"name":"s","version":"1"}}}},"content":[]}}}}"#
                ),
            )
        };
        let entries = vec![
            call(1),
            frame(
                C,
                r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
            ),
            call(2),
            answer(2),
            answer(1),
        ];
        let stdio = judge(Revision::Mcp2026_07_28, 0, None, &entries, Kind::Stdio);
        assert!(
            rules(&stdio).contains(&"mcp.r5.stdio.cancel-no-further"),
            "{stdio:?}"
        );
        let http = judge(
            Revision::Mcp2026_07_28,
            0,
            None,
            &entries,
            Kind::STREAMABLE_HTTP,
        );
        assert!(
            !rules(&http).contains(&"mcp.r5.stdio.cancel-no-further"),
            "{http:?}"
        );
    }

    /// A server frame the codec refuses is its vector record's finding, not a
    /// session record: judged once, where the probe that drew it is named.
    #[test]
    fn a_servers_frame_that_does_not_lift_is_not_a_session_record() {
        let mut entries = handshake();
        entries.push(frame(C, r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#));
        entries.push(frame(S, r#"{"jsonrpc":"2.0","id":2,"result":"#));
        assert_eq!(
            rules(&judge(
                Revision::Mcp2025_06_18,
                0,
                None,
                &entries,
                Kind::Stdio
            )),
            Vec::<&str>::new()
        );
    }

    /// A malformed single frame the runner sent on purpose leaves the session
    /// on the spec's map (only a refused batch hides requests from the judge):
    /// a duplicate answer after it is still the server's finding.
    #[test]
    fn after_a_malformed_probe_the_server_is_still_judged() {
        let mut entries = handshake();
        entries.push(frame(C, r#"{"jsonrpc":"2.0","id":"#));
        entries.push(frame(C, r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#));
        entries.push(frame(S, r#"{"jsonrpc":"2.0","id":2,"result":{}}"#));
        entries.push(frame(S, r#"{"jsonrpc":"2.0","id":2,"result":{}}"#));
        assert_eq!(
            rules(&judge(
                Revision::Mcp2025_06_18,
                0,
                None,
                &entries,
                Kind::Stdio
            )),
            ["session.response.duplicate"]
        );
    }

    /// A batch the codec refuses hides the requests inside it from the judge,
    /// which would take their answers for answers to nothing: the session is
    /// judged no further from there, and a record says so.
    #[test]
    fn after_a_refused_batch_probe_the_server_is_not_judged() {
        let mut entries = handshake();
        entries.push(frame(C, r#"[{"jsonrpc":"2.0","id":2,"method":"ping"}"#));
        entries.push(frame(S, r#"{"jsonrpc":"2.0","id":2,"result":{}}"#));
        assert_eq!(
            rules(&judge(
                Revision::Mcp2025_06_18,
                0,
                None,
                &entries,
                Kind::Stdio
            )),
            [CHECK_UNJUDGED]
        );
    }

    /// `--transcripts DIR`: the session is written as
    /// `<revision>.<n>.jsonl` and its records name that file, the one
    /// `wirecheck check` judges again; without it nothing is written.
    #[test]
    fn a_judged_log_is_saved_and_its_records_name_the_file() {
        let log: Vec<Entry> = [
            (
                Direction::ClientToServer,
                r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
            ),
            (
                Direction::ServerToClient,
                r#"{"jsonrpc":"2.0","id":2,"result":{}}"#,
            ),
            (
                Direction::ServerToClient,
                r#"{"jsonrpc":"2.0","id":2,"result":{}}"#,
            ),
        ]
        .into_iter()
        .map(|(from, text)| frame(from, text))
        .collect();
        let dir = std::env::temp_dir().join(format!(
            "wirecheck-sessions-judge-log-{}",
            std::process::id()
        ));
        let judged = judge_log(Revision::JsonRpc2, 3, &log, Some(&dir), Kind::Stdio)
            .expect("the transcript is written");
        let saved = judged.saved.clone().expect("a file was written");
        assert_eq!(saved, dir.join("jsonrpc-2.0.003.jsonl"));
        let written = std::fs::read_to_string(&saved).expect("the transcript reads back");
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(written.lines().count(), 3, "{written}");
        assert_eq!(rules(&judged.records), ["session.response.duplicate"]);
        assert_eq!(
            judged.records[0].place.file.as_deref(),
            Some(saved.display().to_string().as_str())
        );

        let unsaved =
            judge_log(Revision::JsonRpc2, 3, &log, None, Kind::Stdio).expect("nothing to write");
        assert_eq!(unsaved.saved, None);
        assert_eq!(rules(&unsaved.records), ["session.response.duplicate"]);
        assert_eq!(unsaved.records[0].place.file, None);
    }
}
