//! A process started in a process group of its own and stopped as a group:
//! the one supervisor behind every child wirecheck starts (a stdio peer, the
//! server `proxy` forwards to, a client `run-client` judges, the servers and
//! runs `matrix` starts).
//!
//! MCP 2025-11-25, basic/lifecycle, "Shutdown — stdio" (SHOULD): close the
//! child's input, wait, SIGTERM, then SIGKILL. Both signals go to the whole
//! group ([`Group`]), so what the child started (a shell's job, a server's
//! workers) goes with it, as cargo-nextest does per test; and a Ctrl-C at the
//! terminal reaches wirecheck alone, which then ends the child itself.
//!
//! [`Supervised`]'s waits block the thread (its callers are threads, not
//! tasks: `proxy`, `run-client`, `matrix`); the async stdio transport signals
//! through [`Group`] and waits on its own.

use std::os::unix::process::CommandExt as _;
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;

/// How often a bounded wait looks whether the child has exited.
const POLL: Duration = Duration::from_millis(10);

/// The grace a child still running when its [`Supervised`] is dropped gets
/// between SIGTERM and SIGKILL.
const DROP_GRACE: Duration = Duration::from_millis(500);

/// The process group a child leads (it was started with `process_group(0)`,
/// so the group's id is the child's pid), signalled as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Group(Option<Pid>);

impl Group {
    /// The group led by the process `id` (`None`: a child already reaped,
    /// whose group nothing can signal).
    #[must_use]
    pub fn led_by(id: Option<u32>) -> Group {
        Group(id.and_then(|id| i32::try_from(id).ok()).map(Pid::from_raw))
    }

    /// Sends `signal` to every member of the group; `None` sends nothing and
    /// probes whether any member is left. Whether the signal reached one.
    ///
    /// A group id stays reserved while any member lives, so probing it right
    /// after the leader is reaped cannot hit a stranger.
    pub fn signal(self, signal: Option<Signal>) -> bool {
        self.0.is_some_and(|pgid| killpg(pgid, signal).is_ok())
    }

    /// Whether any member of the group is still there.
    #[must_use]
    pub fn alive(self) -> bool {
        self.signal(None)
    }
}

/// A child process leading its own process group, stopped as a group: on
/// [`stop`](Self::stop), [`kill`](Self::kill), and when dropped.
#[derive(Debug)]
pub struct Supervised {
    child: Child,
    group: Group,
}

impl Supervised {
    /// Starts `command` in a new process group.
    ///
    /// # Errors
    /// The operating system refused to start the program.
    pub fn spawn(command: &mut Command) -> std::io::Result<Supervised> {
        let child = command.process_group(0).spawn()?;
        let group = Group::led_by(Some(child.id()));
        Ok(Supervised { child, group })
    }

    /// The child, for its pipes.
    pub fn child(&mut self) -> &mut Child {
        &mut self.child
    }

    /// The child's status if it has exited, without waiting.
    ///
    /// # Errors
    /// The child could not be waited for.
    pub fn try_wait(&mut self) -> std::io::Result<Option<ExitStatus>> {
        self.child.try_wait()
    }

    /// Waits at most `bound` for the child to exit; `Ok(None)` while it
    /// still runs.
    ///
    /// # Errors
    /// The child could not be waited for.
    pub fn wait_for(&mut self, bound: Duration) -> std::io::Result<Option<ExitStatus>> {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait()? {
                return Ok(Some(status));
            }
            if start.elapsed() >= bound {
                return Ok(None);
            }
            std::thread::sleep(POLL);
        }
    }

    /// Ends the child: SIGTERM to its group, up to `grace` for it to exit,
    /// then SIGKILL to whatever of the group is left; reaps it.
    pub fn stop(&mut self, grace: Duration) -> Option<ExitStatus> {
        if self.group.signal(Some(Signal::SIGTERM)) {
            let _ = self.wait_for(grace);
        }
        self.kill()
    }

    /// SIGKILL to the group at once; reaps the child.
    pub fn kill(&mut self) -> Option<ExitStatus> {
        self.group.signal(Some(Signal::SIGKILL));
        // The leader may have left the group (setsid); it is killed alone then.
        let _ = self.child.kill();
        self.child.wait().ok()
    }
}

impl Drop for Supervised {
    fn drop(&mut self) {
        // `stop` is the orderly way; this is for a caller that bails out. A
        // leader that exited may leave its group running (a shell's
        // background job, a server's workers): those are stopped too.
        if matches!(self.child.try_wait(), Ok(None)) || self.group.alive() {
            self.stop(DROP_GRACE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shell running `script` in a group of its own, and the pid of the
    /// background job it prints.
    fn shell_with_job(script: &str) -> (Supervised, u32) {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        command.stdout(std::process::Stdio::piped());
        let mut supervised = Supervised::spawn(&mut command).unwrap();
        let mut line = String::new();
        let stdout = supervised.child().stdout.take().unwrap();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).unwrap();
        (supervised, line.trim().parse().unwrap())
    }

    /// Whether `job` is gone (or a zombie not yet reaped by whoever adopted
    /// it) within two seconds.
    fn gone(job: u32) -> bool {
        let deadline = Instant::now() + Duration::from_secs(2);
        while running(job) && Instant::now() < deadline {
            std::thread::sleep(POLL);
        }
        !running(job)
    }

    /// A shell's background job is in the shell's group: stopping the shell
    /// stops the job too, which a signal to the shell's pid alone would not.
    fn sleeper() -> Supervised {
        Supervised::spawn(Command::new("sleep").arg("30")).unwrap()
    }

    /// A running child is not reported as exited, by a look or by a bounded
    /// wait, and the wait lasts its bound; an exited one is, with its status.
    #[test]
    fn waits_say_whether_the_child_exited() {
        let mut running = sleeper();
        assert!(running.try_wait().unwrap().is_none());
        let start = Instant::now();
        assert!(running
            .wait_for(Duration::from_millis(150))
            .unwrap()
            .is_none());
        assert!(start.elapsed() >= Duration::from_millis(150));
        assert!(running.group.alive());
        let killed = running.kill().expect("reaped");
        assert!(!killed.success(), "killed by a signal: {killed:?}");
        assert!(!running.group.alive());

        let mut done = Supervised::spawn(&mut Command::new("true")).unwrap();
        let status = done
            .wait_for(Duration::from_secs(10))
            .unwrap()
            .expect("exited");
        assert!(status.success());
        assert!(done.try_wait().unwrap().is_some_and(|s| s.success()));
    }

    #[test]
    fn stopping_the_leader_stops_what_it_started() {
        let (mut supervised, job) = shell_with_job("sleep 30 & echo $!; wait");
        assert!(supervised.stop(Duration::from_secs(2)).is_some());
        assert!(gone(job), "the shell's job outlived the stop");
    }

    /// A leader that exited, leaving a job of its group running, is not the
    /// end of the group: dropping the supervisor stops the job too.
    #[test]
    fn dropping_stops_a_group_whose_leader_has_exited() {
        let (mut supervised, job) = shell_with_job("sleep 30 & echo $!");
        // The shell exits at once; its job stays in its group.
        let _ = supervised.wait_for(Duration::from_secs(2));
        assert!(running(job), "the job should still be running");
        drop(supervised);
        assert!(gone(job), "the job outlived the supervisor");
    }

    /// Whether `pid` is a live process (not gone, not a zombie).
    fn running(pid: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
    }
}
