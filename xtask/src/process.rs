//! Runs a child process with a wall-clock limit. The child gets its own
//! process group, so a timeout kills it together with everything it started
//! (the preprocessor, for instance). The child's CPU time is measured too:
//! on a loaded machine it is a far steadier figure than wall time.

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
    /// User plus system time of the child and the children it waited for.
    pub cpu: Duration,
}

/// How often a running child is polled for completion.
const POLL_INTERVAL: Duration = Duration::from_millis(5);

/// Runs `command` to completion or until `limit`, capturing its output.
pub fn run_with_timeout(command: &mut Command, limit: Duration) -> std::io::Result<Output> {
    use std::os::unix::process::CommandExt;
    let start = Instant::now();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let pid = libc::pid_t::try_from(child.id()).map_err(std::io::Error::other)?;
    let (ending, cpu) = loop {
        if let Some((status, cpu)) = reap(pid, false)? {
            break (ending_of(status), cpu);
        }
        if start.elapsed() >= limit {
            kill_group(pid);
            let cpu = reap(pid, true)?.map_or(Duration::ZERO, |(_, cpu)| cpu);
            break (Ending::TimedOut, cpu);
        }
        thread::sleep(POLL_INTERVAL);
    };
    let elapsed = start.elapsed();
    Ok(Output { ending, stdout: join(stdout), stderr: join(stderr), elapsed, cpu })
}

/// Collects the child's exit status and resource use, waiting for it when
/// `block`; `None` while it still runs. (`std` reaps children without
/// their resource use, hence wait4.)
fn reap(pid: libc::pid_t, block: bool) -> std::io::Result<Option<(i32, Duration)>> {
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let flags = if block { 0 } else { libc::WNOHANG };
    loop {
        // SAFETY: wait4 writes only to the two out-pointers, which point to
        // live locals of the right types.
        let reaped = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        match reaped {
            0 => return Ok(None),
            r if r == pid => return Ok(Some((status, cpu_time(&usage)))),
            _ => {
                let err = std::io::Error::last_os_error();
                if err.kind() != std::io::ErrorKind::Interrupted {
                    return Err(err);
                }
            }
        }
    }
}

fn ending_of(status: i32) -> Ending {
    if libc::WIFEXITED(status) {
        Ending::Exited(libc::WEXITSTATUS(status))
    } else {
        Ending::Signaled(libc::WTERMSIG(status))
    }
}

fn cpu_time(usage: &libc::rusage) -> Duration {
    let seconds = |t: libc::timeval| Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64);
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

fn kill_group(pid: libc::pid_t) {
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
    fn measures_cpu_time_of_the_child() {
        let busy = "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done";
        let out = run_with_timeout(Command::new("sh").args(["-c", busy]), Duration::from_secs(60)).unwrap();
        assert_eq!(out.ending, Ending::Exited(0));
        assert!(out.cpu > Duration::from_millis(10), "cpu {:?}", out.cpu);
        let idle = run_with_timeout(Command::new("sleep").arg("0.3"), Duration::from_secs(60)).unwrap();
        assert!(idle.cpu < Duration::from_millis(100) && idle.elapsed >= Duration::from_millis(300), "{idle:?}");
    }

    #[test]
    fn reports_the_signal_of_a_crash() {
        let out = run_with_timeout(Command::new("sh").args(["-c", "kill -SEGV $$"]), Duration::from_secs(10)).unwrap();
        assert_eq!(out.ending, Ending::Signaled(libc::SIGSEGV));
    }
}
