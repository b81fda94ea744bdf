//! Ctrl-C (SIGINT), and SIGTERM for the servers that run until told.
//!
//! [`on_ctrl_c`] is for the commands that read or forward until their input
//! ends, off any async runtime: `wirecheck check` (a transcript on standard
//! input may never end) and `wirecheck proxy` over stdio. They are told on a
//! thread of their own, then finish judging what they saw, report it and
//! exit 2, as `wirecheck run` does when its `tokio::signal::ctrl_c` fires.
//! [`sigint_or_sigterm`] is for the servers inside a runtime (`serve --http
//! --judge`, `proxy --listen`).
//!
//! The signal is tokio's, as `run`'s and `fuzz`'s are (on Unix `ctrl_c` is
//! this same SIGINT stream): one mechanism in the binary. Each stream is made
//! before its function returns, so a signal after that is never the default
//! action (the process ended with no report).

use tokio::signal::unix::{signal, SignalKind};

/// What an interrupted command's error starts with (exit 2: no verdict).
pub const INTERRUPTED: &str = "interrupted (Ctrl-C)";

/// Calls `then` once, on a thread of its own, when SIGINT arrives.
///
/// # Errors
/// The thread, its runtime or the signal stream cannot be made: the command
/// could not be interrupted cleanly, and says so rather than run without.
pub fn on_ctrl_c(then: impl FnOnce() + Send + 'static) -> Result<(), String> {
    let (ready, listening) = std::sync::mpsc::channel::<Result<(), String>>();
    std::thread::Builder::new()
        .name("ctrl-c".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime,
                Err(e) => {
                    let _ = ready.send(Err(format!("cannot start the async runtime: {e}")));
                    return;
                }
            };
            // The stream registers the handler as it is made, inside the
            // runtime; it is made here, before the caller goes on.
            let made = {
                let _inside = runtime.enter();
                signal(SignalKind::interrupt())
            };
            match made {
                Ok(mut sigint) => {
                    let _ = ready.send(Ok(()));
                    if runtime.block_on(sigint.recv()).is_some() {
                        then();
                    }
                }
                Err(e) => {
                    let _ = ready.send(Err(format!("cannot listen for Ctrl-C: {e}")));
                }
            }
        })
        .map_err(|e| format!("cannot start the Ctrl-C thread: {e}"))?;
    listening
        .recv()
        .map_err(|_| "the Ctrl-C thread ended before it listened".to_owned())?
}

/// Resolves at the first SIGINT (Ctrl-C) or SIGTERM, for the servers that
/// run until told (`serve --http --judge`, `proxy --listen`). Both handlers
/// are installed when this is called, not when the future is first polled:
/// called before the server says where it listens, a signal sent as soon as
/// that is read ends the run with its report instead of the default action
/// (the process killed, the report lost). Must be called inside a Tokio
/// runtime.
///
/// # Errors
/// Neither stream can be made: the server could not be stopped cleanly, and
/// says so rather than run without (one that cannot be made leaves the
/// other).
pub fn sigint_or_sigterm() -> Result<impl std::future::Future<Output = ()>, String> {
    let (interrupt, terminate) = match (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) {
        (Err(e), Err(_)) => return Err(format!("cannot listen for Ctrl-C or SIGTERM: {e}")),
        (interrupt, terminate) => (interrupt.ok(), terminate.ok()),
    };
    Ok(async move {
        let received = |s: Option<tokio::signal::unix::Signal>| async move {
            match s {
                Some(mut s) => {
                    s.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            () = received(interrupt) => {}
            () = received(terminate) => {}
        }
    })
}

/// A flag Ctrl-C sets, for the live commands inside a runtime (`fuzz`,
/// `diff`, `replay`, `load`): each checks it between steps, so the run ends
/// cleanly and still reports what it saw.
pub fn stop_flag(
    runtime: &tokio::runtime::Runtime,
) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let flag = std::sync::Arc::clone(&stop);
    runtime.spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            flag.store(true, Ordering::Relaxed);
        }
    });
    stop
}
