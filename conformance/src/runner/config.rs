//! What a run is given: the peer, the revisions, the bounds ([`Config`]),
//! and why a run could not be made ([`RunError`], exit 2).

use std::time::Duration;

use harness::Revision;

use super::fixtures::Allowed;
use super::polite::Mode;
use crate::driver::DriverConfig;
use crate::judge::Strictness;
use crate::transport::pacer::Pacer;
use crate::transport::stdio::PeerCommand;
use crate::transport::{HttpKind, Kind, Limits, Target};

/// Which revisions a run plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revisions {
    /// This one.
    Given(Revision),
    /// The one the peer answers at `initialize` (or `server/discover`).
    Auto,
    /// Every MCP revision the peer accepts; a declined one is not applicable.
    All,
}

/// Everything a run needs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The peer to start, once per session.
    pub peer: Peer,
    /// Which revisions to play (ignored under `jsonrpc`).
    pub revisions: Revisions,
    /// Plain JSON-RPC 2.0 (`--profile jsonrpc-2.0`): no handshake, the
    /// `jsonrpc-2.0/` vectors.
    pub jsonrpc: bool,
    /// How the driver waits.
    pub driver: DriverConfig,
    /// The transport's bounds.
    pub limits: Limits,
    /// How long a peer gets to exit after its input closes, and again after SIGTERM.
    pub shutdown_grace: Duration,
    /// The tools the user allows to be called.
    pub allowed: Allowed,
    /// How conventions weigh (`--strict`: a departure is a warning).
    pub strictness: Strictness,
    /// Where each live session is written as a transcript (`--transcripts`).
    pub transcripts: Option<std::path::PathBuf>,
    /// `--auth`: the server is an OAuth-protected resource (Streamable HTTP).
    pub auth: Option<Auth>,
    /// `--parallel-revisions N`: over Streamable HTTP, how many revisions
    /// play at once (`None`: all of them). Each opens up to about eleven MCP
    /// sessions at a time; a server that caps its sessions needs fewer.
    pub parallel_revisions: Option<std::num::NonZeroUsize>,
    /// How every HTTP client of the run reaches the server: TLS trust and
    /// the user's headers (timeouts come from `driver` and `limits`).
    pub http: crate::transport::http::HttpOptions,
    /// What the server's processes wrote to stderr, kept as sessions end
    /// (shared: a clone of the configuration adds to the same).
    pub stderr: std::sync::Arc<super::KeptStderr>,
    /// `--mode`: the whole suite, or only what a well-behaved client sends
    /// ([`super::polite`]).
    pub mode: Mode,
    /// The pace every session of the run shares (`--rate`, `--budget`, and
    /// under polite mode the stop on 429 or 503): one pacer, cloned into each.
    pub pacer: Pacer,
}

/// `--auth`: what the run learns of the server's authorization before its
/// sessions (`crate::auth::client::prepare`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Auth {
    /// `--auth-issuer URL`: the authorization server the server trusts, when
    /// its Protected Resource Metadata does not say (or should not be read).
    pub issuer: Option<String>,
    /// The issuer found and the tokens minted, once prepared.
    pub ready: Option<crate::auth::client::Ready>,
}

impl Config {
    /// Whether the run is polite (`--mode polite`).
    #[must_use]
    pub fn polite(&self) -> bool {
        self.mode == Mode::Polite
    }

    /// Why the run sends nothing more, when its pacer stopped admitting.
    #[must_use]
    pub fn halted(&self) -> Option<crate::transport::pacer::Halt> {
        self.pacer.halted()
    }

    /// `Authorization: Bearer <valid token>` when the run is prepared with one.
    #[must_use]
    pub fn bearer(&self) -> Option<reqwest::header::HeaderValue> {
        let ready = self.auth.as_ref()?.ready.as_ref()?;
        reqwest::header::HeaderValue::from_str(&format!("Bearer {}", ready.tokens.valid)).ok()
    }
}

/// The peer a run judges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Peer {
    /// The peer the user named, as every command names one
    /// ([`Target`]): `--stdio CMD`, the same command for every revision, or
    /// `--http URL`, a server already listening, one HTTP session (or SSE
    /// stream) per runner session.
    Given(Target),
    /// The reference peer, this program's `serve`: started at exactly the
    /// revision under test, because the vectors describe a server of one
    /// revision (a server that also speaks 2025-11-25 may rightly answer a
    /// 2026-07-28 `initialize`, which a 2026-only server must refuse).
    Reference {
        /// This program, in the environment and directory the user gave
        /// (`--env`, `--cwd`); each session adds `serve` and its revision.
        base: PeerCommand,
    },
    /// The reference peer over HTTP (`--reference-http`): `serve --http
    /// 127.0.0.1:0` started once per revision, as [`Peer::Reference`] is.
    ReferenceHttp {
        /// This program.
        program: std::ffi::OsString,
        /// Which of its HTTP transports to drive.
        kind: HttpKind,
    },
}

impl Peer {
    /// What to run for a session under `revision` (`None`: any, negotiated);
    /// `None` for a peer reached over HTTP, which is not a process per session.
    #[must_use]
    pub fn command(&self, revision: Option<Revision>) -> Option<PeerCommand> {
        Some(match self {
            Peer::Given(Target::Stdio(c)) => c.clone(),
            Peer::Given(Target::Http { .. }) | Peer::ReferenceHttp { .. } => return None,
            Peer::Reference { base } => {
                let mut command = base.clone();
                let args = &mut command.args;
                args.push("serve".into());
                match revision {
                    Some(Revision::JsonRpc2) => {
                        args.extend(["--profile".into(), "jsonrpc-2.0".into()])
                    }
                    Some(r) => args.extend(["--revision".into(), r.name().into()]),
                    None => {}
                }
                command
            }
        })
    }

    /// The transport the run speaks.
    #[must_use]
    pub fn kind(&self) -> Kind {
        match self {
            Peer::Given(target) => target.kind(),
            Peer::Reference { .. } => Kind::Stdio,
            Peer::ReferenceHttp { kind, .. } => Kind::Http(*kind),
        }
    }
}

/// Why the run could not be made (exit 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// The peer command does not start.
    Start(String),
    /// No handshake completed under any revision tried.
    Handshake(String),
    /// A fresh peer process said nothing within the start-up timeout: it
    /// never finished starting, which is no protocol failure.
    Startup(String),
    /// Under `--profile jsonrpc-2.0` the peer never produced one JSON-RPC
    /// response (an HTML page on every POST, say): nothing it said can be
    /// judged as JSON-RPC, so no check passes or fails.
    NoJsonRpc(String),
    /// A session's transcript could not be written (`--transcripts`).
    Transcripts(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Start(e) => write!(f, "the peer does not start: {e}"),
            RunError::Handshake(e) => write!(f, "the peer never completed a handshake: {e}"),
            RunError::Startup(e) => write!(f, "the peer never finished starting: {e}"),
            RunError::NoJsonRpc(e) => {
                write!(f, "the peer never produced one JSON-RPC response: {e}")
            }
            RunError::Transcripts(e) => write!(f, "--transcripts: {e}"),
        }
    }
}

impl std::error::Error for RunError {}
