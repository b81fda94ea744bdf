//! The judged peer over Streamable HTTP: a judged [`Server`] served until it
//! is told to stop (a signal, `run-client`'s client exiting) or the client
//! ends its session with DELETE, and the records of every session it held.
//! The routing of what the scenarios send is the server's
//! (`crate::peer::http`, its `judged` module).

use std::future::Future;

use crate::peer::http::Server;
use crate::report::Record;

/// How serving ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Told to stop.
    Told {
        /// The client is known to be gone (it exited).
        closed: bool,
    },
    /// The client ended a judged session with DELETE.
    Deleted,
}

/// Serves `server` (bound with [`Server::bind_judged`]) until `stop`
/// resolves or, with `until_delete`, a judged session is deleted; returns
/// every session's records and whether serving itself failed.
pub async fn serve(
    server: Server,
    stop: impl Future<Output = Stop>,
    until_delete: bool,
) -> (Vec<Record>, Result<Stop, String>) {
    let Some(judge) = server.judge() else {
        return (Vec::new(), Err("the server was not bound judged".into()));
    };
    let deleted = async {
        if until_delete {
            judge.deleted().await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    let ended = tokio::select! {
        served = server.serve() => Err(match served {
            Ok(()) => "the server stopped by itself".to_owned(),
            Err(e) => format!("serving: {e}"),
        }),
        how = stop => Ok(how),
        () = deleted => Ok(Stop::Deleted),
    };
    // Dropping the server's future above closed every connection; what a
    // live session saw is judged as it stands.
    let closed = matches!(ended, Ok(Stop::Told { closed: true } | Stop::Deleted));
    (judge.finish(closed), ended)
}

/// Why a judged run over HTTP judged nothing: no client opened a session
/// with the judged peer at `url` (every session judged leaves a record per
/// scenario at least, so none means none was opened).
#[must_use]
pub fn no_session(url: &str) -> String {
    format!("the client never opened a session with the judged peer at {url}: nothing to judge")
}

/// Whether any of `records` judged something: a verdict (pass, fail,
/// warning), not only what was not observed or did not apply.
#[must_use]
pub fn judged_anything(records: &[crate::report::Record]) -> bool {
    records.iter().any(|r| {
        !matches!(
            r.outcome,
            harness::Outcome::NotObserved { .. } | harness::Outcome::NotApplicable { .. }
        )
    })
}

/// Resolves at the first SIGINT (Ctrl-C) or SIGTERM; the client may still
/// be running, so it is not known to be gone. The handlers are installed
/// as this is called ([`crate::interrupt::sigint_or_sigterm`]).
///
/// # Errors
/// As [`crate::interrupt::sigint_or_sigterm`]'s.
pub fn signalled() -> Result<impl std::future::Future<Output = Stop>, String> {
    let signal = crate::interrupt::sigint_or_sigterm()?;
    Ok(async move {
        signal.await;
        Stop::Told { closed: false }
    })
}
