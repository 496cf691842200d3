//! Resource limits: every exhaustion ends the run with VERIFICATION UNKNOWN
//! and the reason, whatever stage is running, never with an abort.
//!
//! Two guards share one way out ([`end_run`]):
//! - a watchdog thread ends the run when the wall-clock time (`--timeout`)
//!   or the resident memory goes over its limit: `--memlimit`, or by default
//!   a share of the memory the machine (or the control group) has;
//! - the process's allocator ends it when an allocation fails (an
//!   address-space limit such as `ulimit -v` is reached between two looks of
//!   the watchdog, or a single request no memory can hold). Rust's own
//!   answer would be an abort with "memory allocation of N bytes failed".
//!   A reserve set aside at start-up is given back first, so that printing
//!   the verdict has memory to work with.

use crate::exit::Exit;
use crate::output::Printer;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How often the watchdog looks at the clock and the memory use.
const POLL_INTERVAL: Duration = Duration::from_millis(20);

/// Address space given back when an allocation fails, for the report.
const RESERVE_BYTES: usize = 32 << 20;

/// The default memory limit, in percent of the memory available to the
/// process: the rest is headroom for the growth between two polls and for
/// the system.
const DEFAULT_SHARE_PERCENT: u64 = 85;

/// How the run's verdict is printed when a limit ends it.
static PRINTER: OnceLock<Printer<'static>> = OnceLock::new();
/// The reserve [`RESERVE_BYTES`], null once given back.
static RESERVE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
/// Set by the first thread that prints a verdict: a run prints one.
static ENDING: AtomicBool = AtomicBool::new(false);
/// The thread (`pthread_self`) that prints the verdict.
static ENDING_THREAD: AtomicU64 = AtomicU64::new(0);

/// Sets the reserve aside and starts the watchdog. Without `--memlimit`
/// the limit is [`default_memlimit_mb`]; the verdict is printed with
/// `printer`.
pub fn start(timeout: Option<Duration>, memlimit_mb: Option<u64>, printer: Printer<'static>) {
    let _ = PRINTER.set(printer);
    set_reserve_aside();
    let memlimit_mb = memlimit_mb.or_else(default_memlimit_mb);
    if timeout.is_none() && memlimit_mb.is_none() {
        return;
    }
    let start = Instant::now();
    let spawned = std::thread::Builder::new().name("watchdog".into()).spawn(move || loop {
        std::thread::sleep(POLL_INTERVAL);
        if let Some(limit) = timeout.filter(|&limit| start.elapsed() >= limit) {
            end_run(&format!("timeout: the time limit of {} s is reached", limit.as_secs()));
        }
        if let Some(limit) = memlimit_mb {
            if let Some(used) = resident_megabytes().filter(|&used| used > limit) {
                end_run(&format!("memory limit: {used} MB in use, over the limit of {limit} MB"));
            }
        }
    });
    if let Err(err) = spawned {
        eprintln!("tarsier: warning: resource limits are not enforced: cannot start the watchdog: {err}");
    }
}

/// The default `--memlimit`: [`DEFAULT_SHARE_PERCENT`] of the smaller of
/// the machine's memory and its control group's limit, in MB; `None` when
/// neither can be read.
pub fn default_memlimit_mb() -> Option<u64> {
    let machine = meminfo_total_bytes();
    let group = cgroup_limit_bytes();
    let available = [machine, group].into_iter().flatten().min()?;
    Some(available / 100 * DEFAULT_SHARE_PERCENT / (1 << 20))
}

/// Makes this thread the one that prints the run's verdict. When another
/// thread is already printing one, waits for its exit (never returns);
/// when this thread is (its printing ran out of memory), ends the run at
/// once.
pub fn claim_verdict() {
    // SAFETY: pthread_self has no preconditions.
    let this_thread = unsafe { libc::pthread_self() } as u64;
    if !ENDING.swap(true, Ordering::SeqCst) {
        ENDING_THREAD.store(this_thread, Ordering::SeqCst);
        return;
    }
    if ENDING_THREAD.load(Ordering::SeqCst) == this_thread {
        last_resort_exit();
    }
    // The verdict being printed ends the process, or (a task's run of one
    // of its properties) releases the claim, and this thread takes it then.
    loop {
        std::thread::park_timeout(std::time::Duration::from_millis(50));
        if !ENDING.swap(true, Ordering::SeqCst) {
            ENDING_THREAD.store(this_thread, Ordering::SeqCst);
            return;
        }
    }
}

/// Gives back the claim of [`claim_verdict`] once a verdict is printed, so
/// that the next property of a task can print its own.
pub fn release_verdict() {
    ENDING.store(false, Ordering::SeqCst);
}

/// Prints VERIFICATION UNKNOWN with `reason` and ends the process, unless
/// another verdict is being printed (see [`claim_verdict`]).
fn end_run(reason: &str) -> ! {
    claim_verdict();
    crate::progress::stop();
    let exit = match PRINTER.get() {
        Some(printer) => printer.write(&report::unknown(reason)),
        None => {
            println!("{reason}\nVERIFICATION UNKNOWN");
            Exit::Unknown
        }
    };
    std::process::exit(i32::from(exit.code()));
}

/// The verdict written without allocating, and an immediate exit.
fn last_resort_exit() -> ! {
    const TEXT: &[u8] = b"out of memory\nVERIFICATION UNKNOWN\n";
    // SAFETY: writes a static buffer to stdout, then ends the process.
    unsafe {
        libc::write(1, TEXT.as_ptr().cast(), TEXT.len());
        libc::_exit(i32::from(Exit::Unknown.code()));
    }
}

fn set_reserve_aside() {
    let layout = reserve_layout();
    // SAFETY: the layout has a nonzero size.
    let block = unsafe { System.alloc(layout) };
    if RESERVE.compare_exchange(std::ptr::null_mut(), block, Ordering::SeqCst, Ordering::SeqCst).is_err() && !block.is_null() {
        // SAFETY: `block` was just allocated with `layout` and is not shared.
        unsafe { System.dealloc(block, layout) };
    }
}

fn give_back_reserve() {
    let block = RESERVE.swap(std::ptr::null_mut(), Ordering::SeqCst);
    if !block.is_null() {
        // SAFETY: the reserve was allocated with this layout, and the swap
        // made this the only owner.
        unsafe { System.dealloc(block, reserve_layout()) };
    }
}

fn reserve_layout() -> Layout {
    Layout::from_size_align(RESERVE_BYTES, 16).expect("a valid constant layout")
}

/// The system allocator, except that a failed allocation ends the run with
/// VERIFICATION UNKNOWN (see the module comment).
pub struct ExhaustionGuard;

// SAFETY: every request goes to the system allocator unchanged; a null
// answer never returns.
unsafe impl GlobalAlloc for ExhaustionGuard {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        checked(System.alloc(layout), layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        checked(System.alloc_zeroed(layout), layout.size())
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        checked(System.realloc(ptr, layout, new_size), new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

fn checked(block: *mut u8, size: usize) -> *mut u8 {
    if block.is_null() {
        give_back_reserve();
        end_run(&format!("out of memory: an allocation of {size} bytes failed (the address-space or memory limit is reached)"));
    }
    block
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

/// MemTotal of `/proc/meminfo`, in bytes.
fn meminfo_total_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|line| line.starts_with("MemTotal:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}

/// The memory limit of this process's control group (cgroup v2
/// `memory.max`, or v1 `memory.limit_in_bytes`), when it sets one.
fn cgroup_limit_bytes() -> Option<u64> {
    ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
        .iter()
        .find_map(|path| std::fs::read_to_string(path).ok()?.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::{default_memlimit_mb, resident_megabytes};

    #[test]
    fn reads_this_process_memory_use() {
        let used = resident_megabytes().expect("/proc/self/statm is readable on Linux");
        assert!(used < 1 << 20, "implausible resident size {used} MB");
    }

    #[test]
    fn default_limit_is_below_the_machine_memory() {
        let limit = default_memlimit_mb().expect("/proc/meminfo is readable on Linux");
        let used = resident_megabytes().expect("/proc/self/statm is readable on Linux");
        assert!(limit > used, "default limit {limit} MB is below this test's own {used} MB");
    }
}
