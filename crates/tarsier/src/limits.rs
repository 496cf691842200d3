//! Resource limits (`--timeout`, `--memlimit`): a watchdog thread ends the
//! run with VERIFICATION UNKNOWN and the reason when the wall-clock time or
//! the resident memory goes over the limit, whatever stage is running.

use crate::exit::Exit;
use crate::output::Printer;
use std::time::{Duration, Instant};

/// How often the watchdog looks at the clock and the memory use.
const POLL_INTERVAL: Duration = Duration::from_millis(20);

/// Starts the watchdog when a limit is set; it prints its verdict with
/// `printer`.
pub fn start_watchdog(timeout: Option<Duration>, memlimit_mb: Option<u64>, printer: Printer<'static>) {
    if timeout.is_none() && memlimit_mb.is_none() {
        return;
    }
    let start = Instant::now();
    let spawned = std::thread::Builder::new().name("watchdog".into()).spawn(move || loop {
        std::thread::sleep(POLL_INTERVAL);
        if let Some(limit) = timeout.filter(|&limit| start.elapsed() >= limit) {
            give_up(&printer, &format!("timeout: the time limit of {} s is reached", limit.as_secs()));
        }
        if let Some(limit) = memlimit_mb {
            if let Some(used) = resident_megabytes().filter(|&used| used > limit) {
                give_up(&printer, &format!("memory limit: {used} MB in use, over the limit of {limit} MB"));
            }
        }
    });
    if let Err(err) = spawned {
        eprintln!("tarsier: warning: resource limits are not enforced: cannot start the watchdog: {err}");
    }
}

fn give_up(printer: &Printer, reason: &str) -> ! {
    let exit: Exit = printer.print(&report::unknown(reason));
    std::process::exit(i32::from(exit.code()));
}

/// The resident set size of this process, from `/proc/self/statm`.
fn resident_megabytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * page_size() / (1 << 20))
}

fn page_size() -> u64 {
    // SAFETY: sysconf only reads a system constant.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(size).unwrap_or(4096)
}

#[cfg(test)]
mod tests {
    use super::resident_megabytes;

    #[test]
    fn reads_this_process_memory_use() {
        let used = resident_megabytes().expect("/proc/self/statm is readable on Linux");
        assert!(used < 1 << 20, "implausible resident size {used} MB");
    }
}
