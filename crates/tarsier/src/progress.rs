//! The progress line on stderr while the engine runs: stage, bound or k,
//! formula size and solver time (`engine::progress`), redrawn in place at
//! most four times a second. Only on a terminal: a log or a pipe gets
//! nothing, and neither does `--json` or `--verbosity 0`.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const REDRAW_EVERY: Duration = Duration::from_millis(250);

/// A running display; [`Display::finish`] clears its line.
pub struct Display {
    done: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

/// Starts the display when the run should have one.
pub fn start(verbosity: u64, json: bool) -> Option<Display> {
    if verbosity == 0 || json || !std::io::stderr().is_terminal() {
        return None;
    }
    let done = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&done);
    let started = Instant::now();
    let thread = std::thread::Builder::new().name("tarsier-progress".into()).spawn(move || {
        while !flag.load(Ordering::Relaxed) {
            std::thread::sleep(REDRAW_EVERY);
            let line = describe(&engine::progress::snapshot(), started.elapsed());
            let _ = write!(std::io::stderr().lock(), "\r\x1b[2K{line}");
        }
        let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
    });
    thread.ok().map(|thread| Display { done, thread })
}

impl Display {
    /// Stops redrawing and clears the line, before the result is printed.
    pub fn finish(self) {
        self.done.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
    }
}

/// The line for `snapshot`, `elapsed` into the run.
fn describe(snapshot: &engine::progress::Snapshot, elapsed: Duration) -> String {
    let stage = if snapshot.stage.is_empty() { "starting" } else { snapshot.stage };
    let bound = snapshot.bound.map_or(String::new(), |k| format!(", k = {k}"));
    format!(
        "tarsier: {stage}{bound}, {} clauses, solver {:.1}s, {:.0}s elapsed",
        snapshot.cnf_clauses,
        snapshot.solver_time.as_secs_f64(),
        elapsed.as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_stage_bound_size_and_times() {
        let snapshot = engine::progress::Snapshot {
            stage: "solving",
            bound: Some(4),
            cnf_clauses: 1200,
            solver_time: Duration::from_millis(1500),
        };
        let line = describe(&snapshot, Duration::from_secs(3));
        assert_eq!(line, "tarsier: solving, k = 4, 1200 clauses, solver 1.5s, 3s elapsed");
        assert!(describe(&engine::progress::Snapshot::default(), Duration::ZERO).starts_with("tarsier: starting,"));
    }
}
