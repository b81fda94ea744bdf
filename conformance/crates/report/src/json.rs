//! The JSON-lines view: one JSON object per record, members in a fixed order,
//! and a one-line summary for standard error. Its records are described by
//! `conformance/schemas/record.schema.json`.
//!
//! The bytes are a contract (scripts parse them): `roundtrip` writes
//! `{"file":…,"line":N,"ok":<lowered frame>}` or `{…,"refused":{…}}`,
//! `classify` writes `{…,"violations":[…]}`; `"file"` comes first and only
//! when reading named files. `tests/cli.rs` pins them byte for byte.

use std::io::{self, Write};

use super::{Command, Payload, Record, Report};

/// Writes every record of `report`, one line each.
pub fn write_lines(report: &Report, out: &mut impl Write) -> io::Result<()> {
    let mut line = Vec::with_capacity(256);
    for record in &report.records {
        line.clear();
        write_record(record, &mut line)?;
        line.push(b'\n');
        out.write_all(&line)?;
    }
    Ok(())
}

/// One record as a JSON object, without the newline.
pub fn write_record(record: &Record, out: &mut Vec<u8>) -> io::Result<()> {
    let mut members = Members { out, first: true };
    let place = &record.place;
    if let Some(file) = &place.file {
        members.json("file", file)?;
    }
    if let Some(line) = place.line {
        members.json("line", &line)?;
    }
    if let Some(vector) = &place.vector {
        members.json("vector", vector)?;
    }
    if let Some(frame) = place.frame {
        members.json("frame", &frame)?;
    }
    if let Some(revision) = place.revision {
        members.json("revision", revision.name())?;
    }
    if let Some(transport) = &place.transport {
        members.json("transport", &transport.to_string())?;
    }
    if let Some(check) = &record.check {
        // Rule-by-rule records say which rule and what became of it; the
        // per-frame commands' outcome is implied by their findings.
        members.json("rule", check.rule.as_str())?;
        members.json("level", &check.level)?;
        members.json("spec", &check.spec)?;
        members.json("outcome", &record.outcome)?;
    } else if run_level(record) {
        // A record of a whole run, or of one check that names no single
        // rule (`fuzz/<revision>`, its memory growth, a conversation cut
        // short): its outcome is all that tells a pass from one that
        // observed nothing.
        members.json("outcome", &record.outcome)?;
    }
    // A record that judged rules shows them (a refusal among them, as its
    // rule); one that only lifted shows what it made, or why it could not.
    if let Some(violations) = &record.violations {
        members.json("violations", violations)?;
    } else if let Some(Payload::Lowered(frame)) = &record.payload {
        // The lowered frame is JSON already: it is embedded verbatim.
        members.key("ok");
        members.out.extend_from_slice(frame);
    } else if let Some(refusal) = &record.refusal {
        members.json("refused", refusal)?;
    }
    // The per-frame commands' records carry no notes: their lines are
    // unchanged.
    if !record.notes.is_empty() {
        members.json("notes", &record.notes)?;
    }
    out_close(members.out, members.first);
    Ok(())
}

/// Whether `record` is a record with no rule that carries none of a
/// per-frame command's results (`ok`, `refused`, `violations`): a whole
/// run's (`fuzz/<revision>`), or a conversation cut short (`check`,
/// `proxy`). Its outcome is all it says of itself.
fn run_level(record: &Record) -> bool {
    record.check.is_none()
        && record.violations.is_none()
        && record.refusal.is_none()
        && !matches!(record.payload, Some(Payload::Lowered(_)))
}

fn out_close(out: &mut Vec<u8>, empty: bool) {
    if empty {
        out.push(b'{');
    }
    out.push(b'}');
}

/// Writes `"key":value` pairs of one object, commas between.
struct Members<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl Members<'_> {
    fn key(&mut self, key: &str) {
        self.out.push(if self.first { b'{' } else { b',' });
        self.first = false;
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\":");
    }

    fn json(&mut self, key: &str, value: &(impl serde::Serialize + ?Sized)) -> io::Result<()> {
        self.key(key);
        serde_json::to_writer(&mut *self.out, value).map_err(io::Error::other)
    }
}

/// The one-line summary the JSON-lines view prints on standard error.
#[must_use]
pub fn summary(report: &Report) -> String {
    let mut line = counts(report);
    for note in report.ambiguity_lines() {
        line.push_str("; ");
        line.push_str(&note);
    }
    line
}

/// [`summary`]'s counts.
fn counts(report: &Report) -> String {
    let tally = report.tally();
    match report.command {
        Command::Roundtrip => format!(
            "{} frames, {} lifted, {} refused",
            tally.total(),
            tally.count("pass"),
            tally.count("fail")
        ),
        Command::Run => format!(
            "{} checks: {} passed, {} failed, {} warnings, {} not applicable, {} not observed",
            tally.total(),
            tally.count("pass"),
            tally.count("fail"),
            tally.count("warning"),
            tally.count("not-applicable"),
            tally.count("not-observed")
        ),
        // A finding is a rule broken: the scenarios' passes and what was not
        // applicable are records, not findings.
        Command::Check | Command::Proxy | Command::RunClient => format!(
            "{} findings: {} breaking a MUST, {} breaking only SHOULD-level rules{}, {} not observed",
            tally.count("fail") + tally.count("warning"),
            tally.count("fail"),
            tally.count("warning"),
            if report.strict { " (--strict: these fail too)" } else { "" },
            tally.count("not-observed")
        ),
        Command::Fuzz => format!(
            "{} findings: {} breaking a MUST, {} breaking only SHOULD-level rules{}",
            tally.count("fail") + tally.count("warning"),
            tally.count("fail"),
            tally.count("warning"),
            if report.strict { " (--strict: these fail too)" } else { "" }
        ),
        Command::Replay => format!(
            "{} saved findings: {} still break, {} fixed",
            tally.total(),
            tally.count("fail") + tally.count("warning"),
            tally.count("pass")
        ),
        Command::Load => format!(
            "{} findings under load: {} breaking a MUST, {} breaking only SHOULD-level rules{}",
            tally.count("fail") + tally.count("warning"),
            tally.count("fail"),
            tally.count("warning"),
            if report.strict { " (--strict: these fail too)" } else { "" }
        ),
        Command::Diff => format!(
            "{} kinds of disagreement between the peers",
            tally.count("fail")
        ),
        Command::Classify => {
            let under = report.profile.map_or_else(String::new, |p| {
                format!(" under {} from the {}", p.revision, p.direction.sender())
            });
            format!(
                "{} frames{under}: {} clean, {} breaking a MUST, {} breaking only SHOULD-level rules{}",
                tally.total(),
                tally.count("pass"),
                tally.count("fail"),
                tally.count("warning"),
                if report.strict {
                    " (--strict: these fail too)"
                } else {
                    ""
                }
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Check, Level, Outcome, Place, Refusal, Subject};
    use super::*;

    fn line(record: &Record) -> String {
        let mut out = Vec::new();
        write_record(record, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn members_keep_their_order() {
        let mut ok = Record::new(
            Place::at_line(Some("a\"b".into()), 3),
            Subject::Frame(b"{}".to_vec()),
            Outcome::Pass,
        );
        ok.payload = Some(Payload::Lowered(b"{\"x\":1.0}".to_vec()));
        assert_eq!(line(&ok), r#"{"file":"a\"b","line":3,"ok":{"x":1.0}}"#);
        let mut refused = Record::new(
            Place::at_line(None, 1),
            Subject::TooLong { len: 9 },
            Outcome::Fail,
        );
        refused.refusal = Some(Refusal::too_long(9, 8));
        assert_eq!(
            line(&refused),
            r#"{"line":1,"refused":{"code":-32700,"rule":"json.frame-too-large","pointer":"","message":"frame of 9 bytes exceeds --max-frame 8","spec":"RFC 8259 §9","line":1,"column":1}}"#
        );
        refused.violations = Some(vec![Refusal::too_long(9, 8).as_violation()]);
        assert!(line(&refused).starts_with(
            r#"{"line":1,"violations":[{"rule":"json.frame-too-large","level":"MUST","#
        ));
    }

    /// A judged client's summary counts the rules broken as findings, not
    /// every record: scenarios passed or not applicable are none.
    #[test]
    fn a_client_summary_counts_only_broken_rules_as_findings() {
        let mut report = Report::new(Command::RunClient);
        for outcome in [
            Outcome::Pass,
            Outcome::NotApplicable { why: "n/a".into() },
            Outcome::Fail,
            Outcome::Warning,
            Outcome::NotObserved {
                why: "unseen".into(),
            },
        ] {
            report.records.push(Record::new(
                Place::default(),
                Subject::Frame(Vec::new()),
                outcome,
            ));
        }
        assert_eq!(
            summary(&report),
            "2 findings: 1 breaking a MUST, 1 breaking only SHOULD-level rules, 1 not observed"
        );
    }

    #[test]
    fn rule_by_rule_records_name_rule_and_outcome() {
        let mut record = Record::new(
            Place {
                vector: Some("mcp/2025-06-18/ping".into()),
                frame: Some(0),
                ..Place::default()
            },
            Subject::Frame(b"{}".to_vec()),
            Outcome::NotApplicable {
                why: "no tools".into(),
            },
        );
        record.check = Some(Check {
            rule: crate::CheckId::Other("mcp.tools.x".into()),
            level: Level::Should,
            spec: "MCP 2025-06-18 server/tools".into(),
        });
        assert_eq!(
            line(&record),
            r#"{"vector":"mcp/2025-06-18/ping","frame":0,"rule":"mcp.tools.x","level":"SHOULD","spec":"MCP 2025-06-18 server/tools","outcome":{"outcome":"not-applicable","why":"no tools"}}"#
        );
        // A record with no rule and no per-frame result still says its
        // outcome (a whole run's, a conversation cut short).
        let empty = Record::new(Place::default(), Subject::TooLong { len: 0 }, Outcome::Pass);
        assert_eq!(line(&empty), r#"{"outcome":{"outcome":"pass"}}"#);
    }
}
