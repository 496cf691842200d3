//! Runs a child process with a wall-clock limit. The child gets its own
//! process group, so a timeout kills it together with everything it started
//! (the preprocessor, for instance).

use std::io::Read;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// How a child process ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    Exited(i32),
    /// Killed by this signal (a crash: SIGSEGV, SIGABRT, ...).
    Signaled(i32),
    /// Still running at the limit; it was killed.
    TimedOut,
}

#[derive(Clone, Debug)]
pub struct Output {
    pub ending: Ending,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// How often a running child is polled for completion.
const POLL_INTERVAL: Duration = Duration::from_millis(5);

/// Runs `command` to completion or until `limit`, capturing its output.
pub fn run_with_timeout(command: &mut Command, limit: Duration) -> std::io::Result<Output> {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    let start = Instant::now();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let ending = loop {
        if let Some(status) = child.try_wait()? {
            break match (status.code(), status.signal()) {
                (Some(code), _) => Ending::Exited(code),
                (None, signal) => Ending::Signaled(signal.unwrap_or(0)),
            };
        }
        if start.elapsed() >= limit {
            kill_group(child.id());
            let _ = child.wait();
            break Ending::TimedOut;
        }
        thread::sleep(POLL_INTERVAL);
    };
    let elapsed = start.elapsed();
    Ok(Output { ending, stdout: join(stdout), stderr: join(stderr), elapsed })
}

fn kill_group(leader: u32) {
    let Ok(pid) = libc::pid_t::try_from(leader) else { return };
    // SAFETY: kill(2) with a negative pid signals the process group that
    // process_group(0) created for this child; it touches no memory.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
}

/// Reads a pipe to its end on a thread, so a chatty child cannot block on a
/// full pipe while we wait for it.
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

fn join(reader: thread::JoinHandle<String>) -> String {
    reader.join().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_exit_code_and_output() {
        let out = run_with_timeout(Command::new("sh").args(["-c", "echo hi; echo err >&2; exit 3"]), Duration::from_secs(10)).unwrap();
        assert_eq!(out.ending, Ending::Exited(3));
        assert_eq!(out.stdout, "hi\n");
        assert_eq!(out.stderr, "err\n");
    }

    #[test]
    fn kills_the_whole_group_on_timeout() {
        // The grandchild holds the pipe open: if only the shell were killed,
        // reading the output would block until the sleep ends.
        let start = Instant::now();
        let out = run_with_timeout(Command::new("sh").args(["-c", "sleep 30 & sleep 30"]), Duration::from_millis(200)).unwrap();
        assert_eq!(out.ending, Ending::TimedOut);
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn reports_the_signal_of_a_crash() {
        let out = run_with_timeout(Command::new("sh").args(["-c", "kill -SEGV $$"]), Duration::from_secs(10)).unwrap();
        assert_eq!(out.ending, Ending::Signaled(libc::SIGSEGV));
    }
}
