//! The reference peer over HTTP (`--reference-http`): `serve --http
//! 127.0.0.1:0` started by the runner, one process per revision (the vectors
//! describe a server of exactly one revision), its address read from the
//! `listening on http://IP:PORT` line it prints on stderr.

use std::ffi::OsString;
use std::process::Stdio;
use std::time::Duration;

use harness::Revision;
use tokio::io::{AsyncBufReadExt as _, BufReader};
use tokio::process::{Child, Command};

/// How long the server gets to print its address.
const START_TIMEOUT: Duration = Duration::from_secs(10);

/// A running `serve --http`; killed when dropped.
pub struct Server {
    /// `http://127.0.0.1:PORT`, no trailing slash.
    pub base: String,
    _child: Child,
}

/// Starts `program serve --http 127.0.0.1:0` for `revision` (`None`: MCP,
/// negotiated; `jsonrpc-2.0`: the JSON-RPC profile).
///
/// # Errors
/// The program does not start, or prints no address in time.
pub async fn start(program: &OsString, revision: Option<Revision>) -> Result<Server, String> {
    let mut command = Command::new(program);
    command.args(["serve", "--http", "127.0.0.1:0"]);
    match revision {
        Some(Revision::JsonRpc2) => {
            command.args(["--profile", "jsonrpc-2.0"]);
        }
        Some(r) => {
            command.args(["--revision", r.name()]);
        }
        None => {}
    }
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("serve --http does not start: {e}"))?;
    let stderr = child
        .stderr
        .take()
        .ok_or_else(|| "serve --http: no stderr".to_owned())?;
    let mut lines = BufReader::new(stderr).lines();
    let found = tokio::time::timeout(START_TIMEOUT, async {
        while let Ok(Some(line)) = lines.next_line().await {
            if let Some(rest) = line.strip_prefix("listening on ") {
                return Some(rest.trim().trim_end_matches('/').to_owned());
            }
        }
        None
    })
    .await;
    let base = match found {
        Ok(Some(base)) => base,
        Ok(None) => return Err("serve --http exited without printing its address".into()),
        Err(_) => {
            return Err(format!(
                "serve --http printed no address within {START_TIMEOUT:?}"
            ))
        }
    };
    // Later stderr is drained so a chatty server never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Ok(Server {
        base,
        _child: child,
    })
}
