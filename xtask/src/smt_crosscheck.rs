//! `cargo xtask smt-crosscheck`: runs tarsier with `--crosscheck SOLVER`
//! on corpus tasks (the BMC slice unless filtered), so every query of each
//! run is answered by the bit-blaster and by the external solver, and
//! gathers the comparisons: queries both decided, disagreements (with the
//! SMT-LIB2 files tarsier wrote and minimised), and the time each solver
//! took.

use crate::corpus::Task;
use crate::process::{run_with_timeout, Ending};
use crate::runner::{json_document, parallel_map};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

pub struct Options {
    /// The external solver's name, as tarsier's `--crosscheck` takes it.
    pub solver: String,
    /// tarsier's own `--timeout` per task (both solvers together).
    pub timeout: Duration,
    pub jobs: usize,
}

/// What one task's cross-checked run gave.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskCheck {
    pub id: String,
    /// The verdict line, or how the run ended when it printed none.
    pub verdict: String,
    pub queries: u64,
    pub compared: u64,
    /// One line per disagreement (answers and files).
    pub disagreements: Vec<String>,
    pub sat_seconds: f64,
    pub external_seconds: f64,
}

/// Grace beyond tarsier's own time limit before the run is killed (the
/// front end and the report are outside the engine's deadline).
const KILL_GRACE: Duration = Duration::from_secs(15);

/// Cross-checks every task; the queries of disagreements go under `out_dir`.
pub fn run(corpus: &Path, tasks: &[Task], binary: &Path, opts: &Options, out_dir: &Path) -> Vec<TaskCheck> {
    let total = tasks.len();
    parallel_map(tasks, opts.jobs, |task| check_task(corpus, task, binary, opts, out_dir), |done| {
        if done % 50 == 0 || done == total {
            eprintln!("  {done}/{total}");
        }
    })
}

fn check_task(corpus: &Path, task: &Task, binary: &Path, opts: &Options, out_dir: &Path) -> TaskCheck {
    let dir: PathBuf = out_dir.join(task.id.replace('/', "__"));
    let mut args = task.verify_args(corpus);
    args.extend(["--json".into(), "--crosscheck".into(), opts.solver.clone()]);
    args.extend(["--crosscheck-dir".into(), dir.display().to_string()]);
    args.extend(["--timeout".into(), opts.timeout.as_secs().max(1).to_string()]);
    let mut command = Command::new(binary);
    command.args(&args).current_dir(task.dir(corpus));
    let ended = match run_with_timeout(&mut command, opts.timeout + KILL_GRACE) {
        Ok(out) => match json_document(&out) {
            Some(doc) => return task_check(&task.id, &doc),
            None => match out.ending {
                Ending::TimedOut => "killed at the time limit".to_string(),
                Ending::Signaled(signal) => format!("killed by signal {signal}"),
                Ending::Exited(code) => format!("exit {code} without a report: {}", crate::runner::first_error(&out.stderr)),
            },
        },
        Err(e) => format!("cannot run {}: {e}", binary.display()),
    };
    TaskCheck { id: task.id.clone(), verdict: ended, queries: 0, compared: 0, disagreements: Vec::new(), sat_seconds: 0.0, external_seconds: 0.0 }
}

/// Reads a task's comparison out of tarsier's JSON report.
pub fn task_check(id: &str, doc: &Value) -> TaskCheck {
    let stats = &doc["stats"];
    let check = &stats["crosscheck"];
    let verdict = doc["verdict"].as_str().unwrap_or("(no verdict)").to_string();
    TaskCheck {
        id: id.to_string(),
        verdict,
        queries: check["queries"].as_u64().unwrap_or(0),
        compared: check["compared"].as_u64().unwrap_or(0),
        disagreements: check["disagreements"]
            .as_array()
            .map_or(Vec::new(), |list| list.iter().filter_map(|d| d["summary"].as_str().map(str::to_string)).collect()),
        sat_seconds: stats["sat_seconds"].as_f64().unwrap_or(0.0),
        external_seconds: check["external_seconds"].as_f64().unwrap_or(0.0),
    }
}

/// The disagreements, then the totals.
pub fn render(checks: &[TaskCheck], solver: &str) -> String {
    let mut out = String::new();
    for check in checks {
        for line in &check.disagreements {
            out += &format!("DISAGREEMENT {}: {line}\n", check.id);
        }
    }
    let summary = summarise(checks);
    out += &format!(
        "tasks: {} run, {} with compared queries; queries: {} asked, {} decided by both, {} disagreements\n\
         solver time: CaDiCaL {:.1} s, {solver} {:.1} s\n",
        summary["tasks"], summary["tasks_compared"], summary["queries"], summary["compared"],
        summary["disagreements"], summary["cadical_seconds"].as_f64().unwrap_or(0.0),
        summary["external_seconds"].as_f64().unwrap_or(0.0),
    );
    out
}

/// Totals over the tasks, and each task's figures.
pub fn summarise(checks: &[TaskCheck]) -> Value {
    let sum = |f: fn(&TaskCheck) -> u64| checks.iter().map(f).sum::<u64>();
    json!({
        "tasks": checks.len(),
        "tasks_compared": checks.iter().filter(|c| c.compared > 0).count(),
        "queries": sum(|c| c.queries),
        "compared": sum(|c| c.compared),
        "disagreements": sum(|c| c.disagreements.len() as u64),
        "cadical_seconds": checks.iter().map(|c| c.sat_seconds).sum::<f64>(),
        "external_seconds": checks.iter().map(|c| c.external_seconds).sum::<f64>(),
        "per_task": checks.iter().map(|c| json!({
            "id": c.id, "verdict": c.verdict, "queries": c.queries, "compared": c.compared,
            "disagreements": c.disagreements, "sat_seconds": c.sat_seconds, "external_seconds": c.external_seconds,
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_gives_the_counts_and_the_disagreements() {
        let doc: Value = serde_json::from_str(
            r#"{"verdict": "VERIFICATION SUCCESSFUL", "stats": {"sat_seconds": 0.5, "crosscheck": {"solver": "z3",
                "queries": 3, "compared": 2, "external_seconds": 1.5,
                "disagreements": [{"query": 2, "summary": "query 2: cadical unsat, external sat; query q.smt2, minimised m.smt2"}]}}}"#,
        )
        .unwrap();
        let check = task_check("suite/t", &doc);
        assert_eq!((check.queries, check.compared, check.disagreements.len()), (3, 2, 1));
        let agreeing = TaskCheck { id: "suite/u".into(), disagreements: vec![], ..check.clone() };
        let text = render(&[check, agreeing], "z3");
        assert!(text.starts_with("DISAGREEMENT suite/t: query 2: cadical unsat"), "{text}");
        assert!(text.contains("6 asked, 4 decided by both, 1 disagreements"), "{text}");
        assert!(text.contains("CaDiCaL 1.0 s, z3 3.0 s"), "{text}");
    }

    #[test]
    fn a_run_without_crosscheck_figures_counts_nothing() {
        let doc: Value = serde_json::from_str(r#"{"verdict": "VERIFICATION UNKNOWN", "stats": {}}"#).unwrap();
        let check = task_check("t", &doc);
        assert_eq!((check.queries, check.compared, check.verdict.as_str()), (0, 0, "VERIFICATION UNKNOWN"));
    }
}
