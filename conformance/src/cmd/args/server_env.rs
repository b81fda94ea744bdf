//! How a server started over stdio is started, besides its command line:
//! `--env KEY=VALUE` and `--cwd DIR`, one argument group for every command
//! that starts one (`run`, `fuzz`, `load`, `replay`, `diff`, `proxy`),
//! carried into [`PeerCommand`], where the one spawner applies them.
//!
//! An `--env` value may be a secret (an API key): nothing wirecheck says
//! shows it. Its usage errors do not echo the argument, `Debug` shows keys
//! only, and [`super::redacted_argv`] hides the values in the command line a run
//! document records.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt as _;
use std::path::PathBuf;

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;

use crate::transport::stdio::PeerCommand;

/// What a stdio server starts with besides its command line. A command's
/// `--http` (or anything else that starts no process) conflicts with the
/// group `server_env`.
#[derive(Clone, Default, clap::Args)]
#[group(id = "server_env", multiple = true)]
pub struct ServerEnv {
    /// Add KEY=VALUE to the stdio server's environment (repeatable); only
    /// KEY is ever shown.
    ///
    /// The server inherits wirecheck's own environment, plus these (a KEY
    /// given twice takes its last VALUE). VALUE may be a secret, and
    /// wirecheck never prints it: its reports, run documents, transcripts
    /// and errors name KEY only. What the server itself prints is kept as
    /// it printed it (its stderr goes into the run document), so a server
    /// that echoes a secret puts it there.
    #[arg(long = "env", value_name = "KEY=VALUE", value_parser = EnvPair)]
    pub env: Vec<(OsString, OsString)>,
    /// The directory to start the stdio server in (default: the current
    /// one).
    ///
    /// It must be a directory, checked before anything starts. A program
    /// named by a relative path (`./server`) is found from there.
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
}

impl std::fmt::Debug for ServerEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Keys only: a value may be a secret.
        f.debug_struct("ServerEnv")
            .field("env", &self.keys())
            .field("cwd", &self.cwd)
            .finish()
    }
}

impl ServerEnv {
    /// Whether neither `--env` nor `--cwd` was given.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.env.is_empty() && self.cwd.is_none()
    }

    /// The keys `--env` sets, each once, in order: all a report may say.
    #[must_use]
    pub fn keys(&self) -> Vec<String> {
        self.apply_unchecked(PeerCommand::default()).env_keys()
    }

    /// `--cwd` as the run document names it.
    #[must_use]
    pub fn cwd_text(&self) -> Option<String> {
        self.cwd.as_ref().map(|d| d.display().to_string())
    }

    /// `command`, to be started in this environment and directory.
    ///
    /// # Errors
    /// `--cwd` names no directory: said now, before anything starts,
    /// rather than as a start failure of each session.
    pub fn apply(&self, command: PeerCommand) -> Result<PeerCommand, String> {
        if let Some(dir) = &self.cwd {
            match std::fs::metadata(dir) {
                Ok(m) if m.is_dir() => {}
                Ok(_) => return Err(format!("--cwd {}: not a directory", dir.display())),
                Err(e) => return Err(format!("--cwd {}: {e}", dir.display())),
            }
        }
        Ok(self.apply_unchecked(command))
    }

    fn apply_unchecked(&self, mut command: PeerCommand) -> PeerCommand {
        command.env.extend(self.env.iter().cloned());
        if self.cwd.is_some() {
            command.cwd.clone_from(&self.cwd);
        }
        command
    }
}

/// Parses `KEY=VALUE` (at the first `=`) without ever echoing it: clap's
/// own errors quote the value given, and this one may be a secret.
#[derive(Clone, Copy)]
struct EnvPair;

impl TypedValueParser for EnvPair {
    type Value = (OsString, OsString);

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Self::Value, clap::Error> {
        let bytes = value.as_bytes();
        let why = match bytes.iter().position(|b| *b == b'=') {
            None => "has no `=`",
            Some(0) => "has no KEY before its `=`",
            // The operating system takes neither in an environment.
            Some(_) if bytes.contains(&0) => "holds a NUL byte",
            Some(at) => {
                return Ok((
                    OsStr::from_bytes(&bytes[..at]).to_owned(),
                    OsStr::from_bytes(&bytes[at + 1..]).to_owned(),
                ))
            }
        };
        let mut cmd = cmd.clone();
        Err(cmd.error(
            ErrorKind::ValueValidation,
            format!(
                "--env takes KEY=VALUE (a variable's name, `=`, then its value); one given {why} (it is not shown: it may hold a secret)"
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser as _;

    #[derive(clap::Parser, Debug)]
    struct Probe {
        #[command(flatten)]
        server: ServerEnv,
        #[arg(long, conflicts_with = "server_env")]
        http: Option<String>,
    }

    fn parse(args: &[&str]) -> Result<Probe, clap::Error> {
        Probe::try_parse_from(std::iter::once("p").chain(args.iter().copied()))
    }

    #[test]
    fn pairs_split_at_the_first_equals_and_errors_never_echo_them() {
        let p = parse(&["--env", "A=b=c", "--env", "EMPTY=", "--cwd", "/tmp"]).unwrap();
        assert_eq!(
            p.server.env,
            [("A".into(), "b=c".into()), ("EMPTY".into(), "".into())]
        );
        assert_eq!(p.server.keys(), ["A", "EMPTY"]);
        for bad in ["sk-no-equals-secret", "=sk-secret"] {
            let e = parse(&["--env", bad]).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::ValueValidation);
            let text = e.render().to_string();
            assert!(text.contains("KEY=VALUE"), "{text}");
            assert!(!text.contains("sk-"), "{text}");
        }
        // Over HTTP no process starts: neither has anything to apply to.
        for flag in [["--env", "A=1"], ["--cwd", "/tmp"]] {
            let e = parse(&[flag[0], flag[1], "--http", "http://h/mcp"]).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::ArgumentConflict);
        }
    }

    #[test]
    fn a_directory_that_is_not_there_is_refused_before_anything_starts() {
        let env = |cwd: &str| ServerEnv {
            env: Vec::new(),
            cwd: Some(cwd.into()),
        };
        let e = env("/nonexistent/wirecheck")
            .apply(PeerCommand::shell("true"))
            .unwrap_err();
        assert!(e.starts_with("--cwd /nonexistent/wirecheck: "), "{e}");
        let file = std::env::current_exe().unwrap();
        let e = env(file.to_str().unwrap())
            .apply(PeerCommand::shell("true"))
            .unwrap_err();
        assert!(e.contains("not a directory"), "{e}");
        let cmd = env("/tmp").apply(PeerCommand::shell("true")).unwrap();
        assert_eq!(cmd.cwd.as_deref(), Some(std::path::Path::new("/tmp")));
    }
}
