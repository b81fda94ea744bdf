//! The subcommands of the `wirecheck` binary. Each returns an [`ExitCode`]
//! meaning the same thing everywhere: 0 clean, 1 findings, 2 usage or I/O error.

pub mod check;
pub mod classify;
pub mod roundtrip;

/// What a subcommand's run means, as a process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Everything checked out.
    Clean = 0,
    /// Something was refused or violated: the run's findings.
    Findings = 1,
    /// The command could not run: bad usage, unreadable input, unwritable output.
    Trouble = 2,
}

impl From<Exit> for std::process::ExitCode {
    fn from(exit: Exit) -> Self {
        std::process::ExitCode::from(exit as u8)
    }
}

/// Runs a subcommand whose report goes to standard output: buffers and flushes
/// it, prints `summary` of the tally on standard error unless `quiet`, and maps
/// the outcome to an exit code (`exit` of the tally, or trouble on I/O errors).
pub fn report_to_stdout<T>(
    name: &str,
    quiet: bool,
    run: impl FnOnce(&mut dyn std::io::Write) -> Result<T, String>,
    summary: impl FnOnce(&T) -> String,
    exit: impl FnOnce(&T) -> Exit,
) -> Exit {
    use std::io::Write as _;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = run(&mut out).and_then(|t| {
        out.flush()
            .map(|()| t)
            .map_err(|e| format!("cannot write output: {e}"))
    });
    match result {
        Ok(tally) => {
            if !quiet {
                eprintln!("wirecheck {name}: {}", summary(&tally));
            }
            exit(&tally)
        }
        Err(e) => {
            eprintln!("wirecheck {name}: {e}");
            Exit::Trouble
        }
    }
}

/// A refusal as every report writes it, members in this order.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RefusalRecord {
    /// -32700 or -32600.
    pub code: i64,
    /// The rule's stable id.
    pub rule: &'static str,
    /// Where, as a JSON Pointer.
    pub pointer: String,
    /// What was found.
    pub message: String,
    /// Where the rule is written.
    pub spec: &'static str,
    /// 1-based line within the frame.
    pub line: usize,
    /// 1-based column within the frame, in characters.
    pub column: usize,
}

impl From<&harness::Refusal> for RefusalRecord {
    fn from(r: &harness::Refusal) -> Self {
        Self {
            code: r.code(),
            rule: r.rule().id(),
            pointer: r.pointer().to_owned(),
            message: r.message().to_owned(),
            spec: r.rule().spec(),
            line: r.line(),
            column: r.column(),
        }
    }
}

impl RefusalRecord {
    /// The refusal of a line longer than `--max-frame`, which is never lifted.
    #[must_use]
    pub fn too_long(len: usize, max: usize) -> Self {
        let rule = harness::Rule::JsonFrameTooLarge;
        Self {
            code: rule.code(),
            rule: rule.id(),
            pointer: String::new(),
            message: format!("frame of {len} bytes exceeds --max-frame {max}"),
            spec: rule.spec(),
            line: 1,
            column: 1,
        }
    }
}
