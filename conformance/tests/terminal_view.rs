//! The terminal view as a server author first meets it: `wirecheck run`'s
//! grouped "what to fix" view and its `--verbose` long form, pinned as insta
//! snapshots of what standard output and standard error show, for a clean run
//! against the built-in reference peer, a run against a deliberately broken
//! fixture peer, and a peer that exits before its handshake (could not run).
//!
//! Only what changes from run to run is blanked (insta filters): the start
//! time, durations, the `t=` of a frame, the vectors' digest (it moves with
//! every vector added), and which of the concurrent sessions met a finding
//! first. Everything else is the view as printed: a change to it shows here
//! as a diff to review (`INSTA_UPDATE=always` writes the new snapshots).

mod common;

/// `wirecheck ARGS` run from the crate's folder (so the fixture's path reads
/// the same on every machine), its standard output and standard error as a
/// person sees them, with the exit code.
fn seen(args: &[&str]) -> String {
    let out = common::wirecheck_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), args, b"");
    format!(
        "exit: {}\n--- standard output ---\n{}--- standard error ---\n{}",
        out.status
            .code()
            .map_or_else(|| "signal".to_owned(), |c| c.to_string()),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Snapshots `text` under `name` with what changes between runs blanked.
fn assert_view(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_omit_expression(true);
    for (pattern, replacement) in [
        (
            r"started \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, \d+(\.\d+)? s",
            "started [time], [duration]",
        ),
        (r"\(t=\d+\.\d+s\)", "(t=[t])"),
        (r"vectors sha256:[0-9a-f]+", "vectors sha256:[digest]"),
        (r"session \d+ of the run's", "session [n] of the run's"),
        // What a run sent, and how fast, depends on the machine's pace.
        (
            r"\d+ requests sent, peak \d+/s",
            "[n] requests sent, peak [n]/s",
        ),
    ] {
        settings.add_filter(pattern, replacement);
    }
    settings.bind(|| insta::assert_snapshot!(name, text));
}

/// Nothing to fix: one check the run could not observe without a tool to
/// call, the checks that do not apply counted by reason, the run, the tally.
#[test]
fn a_clean_run_against_the_reference_peer() {
    let text = seen(&["run", "--revision", "2025-11-25"]);
    assert!(text.starts_with("exit: 0\n"), "{text}");
    assert_view("clean_run", &text);
}

/// The same run in the long form: every check that did not pass, as judged.
#[test]
fn a_clean_run_against_the_reference_peer_verbose() {
    let text = seen(&["run", "--revision", "2025-11-25", "--verbose"]);
    assert!(text.starts_with("exit: 0\n"), "{text}");
    assert_view("clean_run_verbose", &text);
}

/// `tests/fixtures/peer.py numeric-ids`: echoes a string id that spells a
/// number as that number, answers anything with a result, and so breaks a
/// dozen rules; each is one entry with its level, its citation, what was
/// wrong and one example exchange, most severe first.
#[test]
fn a_run_with_findings() {
    let text = seen(&[
        "run",
        "--stdio",
        "python3 tests/fixtures/peer.py numeric-ids",
        "--revision",
        "2025-06-18",
    ]);
    assert!(text.starts_with("exit: 1\n"), "{text}");
    assert_view("run_with_findings", &text);
}

/// A server that exits before its handshake: what was tried on standard
/// output, why it could not run on standard error, exit 2.
#[test]
fn a_server_that_exits_at_start_could_not_run() {
    let text = seen(&[
        "run",
        "--stdio",
        "python3 -c 'import sys; sys.exit(3)'",
        "--revision",
        "2025-06-18",
    ]);
    assert!(text.starts_with("exit: 2\n"), "{text}");
    assert_view("could_not_run", &text);
}
