//! The command a report is of, and what its run means as an exit code: the
//! two facts every command shares, whatever its records.

/// The command whose report this is: it decides the JSON-lines shape and the
/// words of the summary, nothing else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// `wirecheck roundtrip`: lift and lower each frame.
    Roundtrip,
    /// `wirecheck classify`: judge each frame with the rule model.
    Classify,
    /// `wirecheck run`: the golden vectors played against a live peer.
    Run,
    /// `wirecheck check`: captured conversations judged by the session judge.
    Check,
    /// `wirecheck proxy`: a live conversation judged as it passes through.
    Proxy,
    /// `wirecheck run-client` (and `serve --judge`): a client judged by the
    /// reference peer it talks to.
    RunClient,
    /// `wirecheck fuzz`: generated frames against a live peer, each finding
    /// one record.
    Fuzz,
    /// `wirecheck replay`: saved findings played again, one record each.
    Replay,
    /// `wirecheck diff`: the same frames to several peers, one record per
    /// disagreement.
    Diff,
    /// `wirecheck load`: concurrent sessions against a live peer, every
    /// answer judged; one record per rule broken and method.
    Load,
}

impl Command {
    /// Whether its records are checks of rules, many to a peer, that fold
    /// into the peer's defects (`run`, `check`, `proxy`, `run-client`),
    /// rather than one record per frame or finding.
    #[must_use]
    pub fn judges_rules(self) -> bool {
        matches!(
            self,
            Command::Run | Command::Check | Command::Proxy | Command::RunClient
        )
    }

    /// The subcommand's name, as the user types it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Command::Roundtrip => "roundtrip",
            Command::Classify => "classify",
            Command::Run => "run",
            Command::Check => "check",
            Command::Proxy => "proxy",
            Command::RunClient => "run-client",
            Command::Fuzz => "fuzz",
            Command::Replay => "replay",
            Command::Diff => "diff",
            Command::Load => "load",
        }
    }

    /// The command named `name`, as [`Command::name`] writes it.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        [
            Command::Roundtrip,
            Command::Classify,
            Command::Run,
            Command::Check,
            Command::Proxy,
            Command::RunClient,
            Command::Fuzz,
            Command::Replay,
            Command::Diff,
            Command::Load,
        ]
        .into_iter()
        .find(|c| c.name() == name)
    }
}

/// What a run means, as a process exit code: the same everywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Everything checked out.
    Clean = 0,
    /// An outcome that fails the run: a frame refused, a rule broken.
    Findings = 1,
    /// The command could not run: bad usage, unreadable input, unwritable output.
    Trouble = 2,
}

impl From<Exit> for std::process::ExitCode {
    fn from(exit: Exit) -> Self {
        std::process::ExitCode::from(exit as u8)
    }
}
