//! `cargo xtask bench-threads`: how the formula and the time grow with the
//! number of threads. Each program starts N threads (2, 4, 8, 16) that add
//! one to a shared counter, under a mutex (safe: `counter == N` after the
//! joins holds) or without it (unsafe: two updates can be one, so it
//! fails). Each is verified with `--json`; per program the outcome, CPU,
//! symex and SAT seconds and the formula's size (AIG and-nodes, CNF
//! variables and clauses) are printed with their growth from the program
//! with half the threads, then compared with the previous run (saved under
//! `target/bench/threads/`). The number and change columns are
//! `bench_verify`'s, the run and its classification the corpus runner's.

use crate::bench_verify::{change, number};
use crate::process::run_with_timeout;
use crate::runner::{classify, json_document, Figures, Outcome};
use serde_json::{json, Value};
use std::fmt::Write;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The numbers of threads measured; each doubles the one before.
pub const THREADS: [usize; 4] = [2, 4, 8, 16];

/// One benchmark program.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub threads: usize,
    /// Whether the increment is under the mutex (the safe version).
    pub locked: bool,
}

impl Case {
    pub fn name(self) -> String {
        format!("{}-{}", if self.locked { "safe" } else { "unsafe" }, self.threads)
    }

    pub fn expected(self) -> &'static str {
        if self.locked { "true" } else { "false" }
    }

    /// The C program.
    pub fn program(self) -> String {
        let (lock, unlock) = match self.locked {
            true => ("pthread_mutex_lock(&m);", "pthread_mutex_unlock(&m);"),
            false => ("", ""),
        };
        format!(
            "#include <assert.h>\n#include <pthread.h>\n#define N {}\nint counter;\n\
             pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
             void *add(void *arg) {{\n  {lock}\n  int t = counter;\n  counter = t + 1;\n  {unlock}\n  return 0;\n}}\n\
             int main(void) {{\n  pthread_t id[N];\n\
             \x20 for (int i = 0; i < N; i++) pthread_create(&id[i], 0, add, 0);\n\
             \x20 for (int i = 0; i < N; i++) pthread_join(id[i], 0);\n\
             \x20 assert(counter == N);\n  return 0;\n}}\n",
            self.threads
        )
    }

    /// tarsier's arguments besides the file: the loops run N times.
    pub fn args(self) -> Vec<String> {
        vec!["--unwind".into(), (self.threads + 1).to_string(), "--json".into()]
    }
}

/// Every case, safe ones first, by number of threads.
pub fn cases() -> Vec<Case> {
    [true, false].into_iter().flat_map(|locked| THREADS.map(|threads| Case { threads, locked })).collect()
}

/// One measured case.
pub struct Measured {
    pub case: Case,
    pub outcome: Outcome,
    pub cpu_seconds: f64,
    pub figures: Option<Figures>,
}

/// Writes the case's program under `scratch` and runs `binary` on it.
pub fn measure(binary: &Path, case: Case, scratch: &Path, timeout: Duration, extra: &[String]) -> Result<Measured, String> {
    let file = scratch.join(format!("{}.c", case.name()));
    std::fs::write(&file, case.program()).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut command = Command::new(binary);
    command.arg(&file).args(case.args()).args(extra);
    let out = run_with_timeout(&mut command, timeout).map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let figures = json_document(&out).as_ref().and_then(Figures::from_document);
    Ok(Measured { case, outcome: classify(&out, false), cpu_seconds: out.cpu.as_secs_f64(), figures })
}

/// The figures of one run, as saved.
pub fn summarise(measured: &[Measured], timestamp: &str) -> Value {
    let rows: Vec<Value> = measured
        .iter()
        .map(|m| {
            let figure = |field: fn(&Figures) -> f64| m.figures.as_ref().map(field);
            let right = matches!((m.case.expected(), &m.outcome), ("true", Outcome::Successful) | ("false", Outcome::Failed));
            json!({
                "name": m.case.name(), "threads": m.case.threads, "expected": m.case.expected(),
                "outcome": m.outcome.kind(), "correct": right, "cpu_seconds": m.cpu_seconds,
                "symex_seconds": figure(|f| f.symex_seconds), "sat_seconds": figure(|f| f.sat_seconds),
                "aig_ands": figure(|f| f.aig_ands as f64), "cnf_vars": figure(|f| f.cnf_vars as f64),
                "cnf_clauses": figure(|f| f.cnf_clauses as f64),
            })
        })
        .collect();
    json!({"timestamp": timestamp, "cases": rows})
}

/// The figure `key` of the case `name` in `run`.
fn figure(run: Option<&Value>, name: &str, key: &str) -> Option<f64> {
    run?["cases"].as_array()?.iter().find(|c| c["name"] == name)?[key].as_f64()
}

/// `now` over `before` as a factor (`x2.1`), `-` when either is missing.
fn growth(now: Option<f64>, before: Option<f64>) -> String {
    match (now, before) {
        (Some(now), Some(before)) if before > 0.0 => format!("x{:.1}", now / before),
        _ => "-".into(),
    }
}

/// Per case: the outcome, the times and sizes with the growth from the
/// case with half the threads, and the previous run's CPU time and clauses.
pub fn render(now: &Value, previous: Option<&Value>) -> String {
    let mut out = format!(
        "{:<10}{:>9} {:>10}{:>8}{:>8}{:>8}{:>10}{:>10}{:>11}{:>8}{:>8}  {:>10}{:>9}  {:>12}{:>9}\n",
        "program", "expected", "outcome", "cpu s", "symex", "sat", "AIG ands", "CNF vars", "CNF clauses", "growth", "cpu x",
        "prev cpu", "change", "prev clauses", "change"
    );
    for case in now["cases"].as_array().into_iter().flatten() {
        let name = case["name"].as_str().unwrap_or("?");
        let half = case["threads"].as_u64().map(|n| name.replace(&format!("-{n}"), &format!("-{}", n / 2)));
        let before = |key: &str| half.as_deref().and_then(|h| figure(Some(now), h, key));
        let this = |key: &str| case[key].as_f64();
        let _ = writeln!(
            out,
            "{name:<10}{:>9} {:>10}{:>8.2}{:>8}{:>8}{:>10}{:>10}{:>11}{:>8}{:>8}  {:>10}{:>9}  {:>12}{:>9}",
            case["expected"].as_str().unwrap_or("?"),
            case["outcome"].as_str().unwrap_or("?"),
            this("cpu_seconds").unwrap_or(0.0),
            number(this("symex_seconds").map(round_ms)),
            number(this("sat_seconds").map(round_ms)),
            number(this("aig_ands")),
            number(this("cnf_vars")),
            number(this("cnf_clauses")),
            growth(this("cnf_clauses"), before("cnf_clauses")),
            growth(this("cpu_seconds"), before("cpu_seconds")),
            number(figure(previous, name, "cpu_seconds").map(round_ms)),
            change(this("cpu_seconds"), figure(previous, name, "cpu_seconds")),
            number(figure(previous, name, "cnf_clauses")),
            change(this("cnf_clauses"), figure(previous, name, "cnf_clauses")),
        );
    }
    out.push_str("growth: CNF clauses over the same program with half the threads; cpu x: the same for CPU time\n");
    out
}

/// Seconds to the millisecond, for the table.
fn round_ms(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::Figures;

    fn measured(threads: usize, locked: bool, outcome: Outcome, clauses: u64, cpu: f64) -> Measured {
        let figures = Figures { cnf_clauses: clauses, cnf_vars: clauses / 2, aig_ands: clauses, ..Figures::default() };
        Measured { case: Case { threads, locked }, outcome, cpu_seconds: cpu, figures: Some(figures) }
    }

    #[test]
    fn programs_differ_only_by_the_lock_and_the_count() {
        let safe = Case { threads: 4, locked: true };
        let unsafe_ = Case { threads: 4, locked: false };
        assert!(safe.program().contains("pthread_mutex_lock(&m);") && safe.program().contains("#define N 4"));
        assert!(!unsafe_.program().contains("pthread_mutex_lock(&m);"));
        assert_eq!((safe.expected(), unsafe_.expected()), ("true", "false"));
        assert_eq!(cases().len(), 2 * THREADS.len());
        assert!(safe.args().contains(&"5".to_string()), "the loops need N + 1 unwindings");
    }

    #[test]
    fn growth_is_from_half_the_threads_and_the_previous_run_is_compared() {
        let now = summarise(&[measured(2, true, Outcome::Successful, 100, 1.0), measured(4, true, Outcome::Successful, 250, 3.0)], "t2");
        let before = summarise(&[measured(4, true, Outcome::Successful, 200, 2.0)], "t1");
        assert_eq!(now["cases"][1]["correct"], true);
        let text = render(&now, Some(&before));
        let row = text.lines().find(|l| l.starts_with("safe-4")).expect("a row for safe-4");
        assert!(row.contains("x2.5") && row.contains("x3.0"), "{row}");
        assert!(row.contains("+50.0%") && row.contains("+25.0%"), "{row}");
        let wrong = summarise(&[measured(2, false, Outcome::Successful, 1, 1.0)], "t");
        assert_eq!(wrong["cases"][0]["correct"], false);
    }
}
