//! The progress line on stderr while the engine runs: stage, bound or k,
//! formula size and solver time (`engine::progress`), redrawn in place at
//! most four times a second. Only on a terminal: a log or a pipe gets
//! nothing, and neither does `--json` or `--verbosity 0`. Whatever prints
//! the result first calls [`stop`], which clears the line for good, so the
//! result never shares a line with it (the watchdog of `--timeout` prints
//! from another thread).

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const REDRAW_EVERY: Duration = Duration::from_millis(250);

/// Whether the line is shown (cleared and off for good once false); the
/// lock also keeps a redraw and the clearing from interleaving.
static SHOWN: Mutex<bool> = Mutex::new(false);

/// Starts the display when the run should have one.
pub fn start(verbosity: u64, json: bool) {
    if verbosity == 0 || json || !std::io::stderr().is_terminal() {
        return;
    }
    if let Ok(mut shown) = SHOWN.lock() {
        *shown = true;
    }
    let started = Instant::now();
    let redraw = move || loop {
        std::thread::sleep(REDRAW_EVERY);
        let Ok(shown) = SHOWN.lock() else { return };
        if !*shown {
            return;
        }
        let line = describe(&engine::progress::snapshot(), started.elapsed());
        let _ = write!(std::io::stderr().lock(), "\r\x1b[2K{line}");
    };
    // Without the thread there is no line: nothing to report.
    let _ = std::thread::Builder::new().name("tarsier-progress".into()).spawn(redraw);
}

/// Clears the line and stops redrawing it, before the result is printed.
pub fn stop() {
    if let Ok(mut shown) = SHOWN.lock() {
        if *shown {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
        }
        *shown = false;
    }
}

/// The line for `snapshot`, `elapsed` into the run.
fn describe(snapshot: &engine::progress::Snapshot, elapsed: Duration) -> String {
    let stage = if snapshot.stage.is_empty() { "starting" } else { snapshot.stage };
    let bound = snapshot.bound.map_or(String::new(), |k| format!(", k = {k}"));
    format!(
        "tarsier: {stage}{bound}, {} terms, {} clauses, solver {:.1}s, {:.0}s elapsed",
        snapshot.terms,
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
            terms: 900,
            cnf_clauses: 1200,
            solver_time: Duration::from_millis(1500),
        };
        let line = describe(&snapshot, Duration::from_secs(3));
        assert_eq!(line, "tarsier: solving, k = 4, 900 terms, 1200 clauses, solver 1.5s, 3s elapsed");
        assert!(describe(&engine::progress::Snapshot::default(), Duration::ZERO).starts_with("tarsier: starting,"));
    }
}
