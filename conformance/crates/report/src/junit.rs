//! The JUnit XML view (`--junit FILE`), for CI systems that show test
//! results: one `<testsuite>` per report, one `<testcase>` per record.
//!
//! Serialised by `quick-junit` (nextest's), which escapes markup but silently
//! drops characters XML 1.0 forbids; every peer-supplied string goes through
//! [`printable`](super::text::printable) first, so nothing is dropped unseen: a
//! NUL shows as `\u{0000}`, a byte that is not UTF-8 as `\xFF`.

use quick_junit::{NonSuccessKind, Property, TestCase, TestCaseStatus, TestSuite};

use super::text::{preview, printable_str};
use super::{findings, Outcome, Record, Report, Subject};

/// How many characters of a frame a test case carries.
const PREVIEW_CHARS: usize = 2000;

/// Several reports as one JUnit XML document, a test suite each.
pub fn render_many(reports: &[&Report]) -> Result<String, quick_junit::SerializeError> {
    let mut junit = quick_junit::Report::new("wirecheck report");
    for report in reports {
        junit.add_test_suite(suite(report));
    }
    junit.to_string()
}

/// The report as a JUnit XML document.
pub fn render(report: &Report) -> Result<String, quick_junit::SerializeError> {
    let name = format!("wirecheck {}", report.command.name());
    let mut junit = quick_junit::Report::new(name.as_str());
    junit.add_test_suite(suite(report));
    junit.to_string()
}

/// One report's suite. A rule-by-rule command's checks that found a defect
/// of the peer are one test case per defect (the folded checks named in
/// its output); every other check is a case of its own. A per-frame
/// command's frames are a case each.
fn suite(report: &Report) -> TestSuite {
    let name = format!("wirecheck {}", report.command.name());
    let mut suite = TestSuite::new(name.as_str());
    if let Some(profile) = report.profile {
        suite.add_property(Property::new("revision", profile.revision.name()));
        suite.add_property(Property::new("from", profile.direction.sender()));
    }
    suite.add_property(Property::new("strict", report.strict.to_string()));
    let defects = super::defects_of(report);
    let folded = super::held(&defects);
    for (i, record) in report.records.iter().enumerate() {
        if !folded.contains(&i) {
            suite.add_test_case(case(report, record));
        }
    }
    for defect in &defects {
        suite.add_test_case(defect_case(report, defect));
    }
    if let Some(error) = &report.error {
        suite.set_system_err(printable_str(error));
    }
    suite
}

/// One defect as a test case: failed when it fails the run, else skipped
/// with its kind (`warning`, `known-failure`), as a check's would be.
fn defect_case(report: &Report, defect: &super::Defect) -> TestCase {
    let text = super::terminal::defect_block(report, defect, false);
    let message = format!(
        "{} {}: {}{}",
        defect.weight.name(),
        printable_str(defect.rule.as_str()),
        defect.sentence().unwrap_or_default(),
        match defect.checks.len() {
            1 => " (1 check)".to_owned(),
            n => format!(" ({n} checks)"),
        }
    );
    let fails = match defect.standing {
        super::Standing::Fail => true,
        super::Standing::Warning => report.strict,
        super::Standing::Known => false,
    };
    let status = if fails {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        status.set_type(match defect.standing {
            super::Standing::Fail => "fail",
            _ => "warning",
        });
        status.set_message(message);
        status.set_description(text.clone());
        status
    } else {
        let mut status = TestCaseStatus::skipped();
        let (kind, lead) = match defect.standing {
            super::Standing::Known => ("known-failure", "known"),
            _ => ("warning", "warning"),
        };
        status.set_type(kind);
        status.set_message(format!("{lead}: {message}"));
        status.set_description(text.clone());
        status
    };
    let mut case = TestCase::new(
        format!("defect {}", printable_str(&defect.fingerprint())),
        status,
    );
    case.set_classname(format!("wirecheck.{}", report.command.name()));
    let checks: Vec<String> = defect
        .checks
        .iter()
        .map(|&i| name(&report.records[i]))
        .collect();
    case.set_system_out(format!("{text}checks:\n  {}\n", checks.join("\n  ")));
    case
}

fn case(report: &Report, record: &Record) -> TestCase {
    let findings = findings(record);
    let status = match &record.outcome {
        Outcome::Pass => TestCaseStatus::success(),
        // JUnit has no warning state. A warning must not fail the build (only
        // `--strict` makes it a failure, below), yet must be seen: a passing
        // test case hides it, since CI dashboards show a passing case's
        // `<system-out>` only to whoever opens that case (GitLab's test
        // report not at all). So it is a `<skipped>` case whose message
        // starts `warning:`: Jenkins' JUnit plugin, GitLab, Azure Pipelines
        // and the GitHub test-report actions count skipped cases in the
        // summary and list each with its message, and none of them fails
        // or marks unstable a build for a skipped case. `type="warning"` tells
        // it from the other skipped outcomes (not observed, not applicable,
        // known failure), and `<system-out>` keeps every finding.
        Outcome::Warning if !report.strict => {
            let mut status = TestCaseStatus::skipped();
            status.set_type(record.outcome.name());
            status.set_message(format!("warning: {}", first_line(record, &findings)));
            status.set_description(findings.join("\n"));
            status
        }
        Outcome::Fail | Outcome::Warning | Outcome::Stale { .. } => {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status.set_type(record.outcome.name());
            status.set_message(first_line(record, &findings));
            status.set_description(findings.join("\n"));
            status
        }
        Outcome::NotObserved { .. }
        | Outcome::NotApplicable { .. }
        | Outcome::KnownFailure { .. } => {
            let mut status = TestCaseStatus::skipped();
            status.set_type(record.outcome.name());
            status.set_message(printable_str(&record.outcome.to_string()));
            status
        }
    };
    let mut case = TestCase::new(name(record), status);
    case.set_classname(format!("wirecheck.{}", report.command.name()));
    let subject = match &record.subject {
        Subject::Frame(bytes) => preview(bytes, PREVIEW_CHARS),
        Subject::TooLong { len } => format!("({len} bytes, not read)"),
    };
    // A warning that does not fail the run keeps its findings in the output
    // too, where a reader opening the case looks.
    let out = if matches!(record.outcome, Outcome::Warning) && !report.strict {
        format!("{}\n{subject}", findings.join("\n"))
    } else {
        subject
    };
    case.set_system_out(out);
    case
}

/// `file:line` (or the vector and frame), escaped.
fn name(record: &Record) -> String {
    let place = &record.place;
    let mut name = match (&place.vector, &place.file) {
        (Some(vector), _) => printable_str(vector),
        (None, Some(file)) => printable_str(file),
        (None, None) => "standard input".to_owned(),
    };
    if let Some(line) = place.line {
        name.push_str(&format!(":{line}"));
    }
    if let Some(frame) = place.frame_number() {
        name.push_str(&format!(" #{frame}"));
    }
    if let Some(check) = &record.check {
        name.push_str(&format!(" {}", printable_str(check.rule.as_str())));
    }
    name
}

fn first_line(record: &Record, findings: &[String]) -> String {
    findings
        .first()
        .cloned()
        .or_else(|| record.outcome.reason().map(printable_str))
        .unwrap_or_else(|| record.outcome.name().to_owned())
}
