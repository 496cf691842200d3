//! `cargo xtask bench-kind`: the k-induction tasks of the corpus (core
//! tasks of mode k-induction, or those the corpus options select) with
//! each task's figures from `--json`: the k that decided it, the time in
//! the base case, the forward condition, the inductive step and invariant
//! generation (with certification), and the invariants found and
//! certified; then totals, saved under `target/bench/kind/` and compared
//! with the previous run. Percentiles and the number and change columns
//! are `bench_verify`'s.

use crate::bench_verify::{change, number, percentile};
use crate::report;
use crate::runner::{KInductionFigures, TaskResult};
use serde_json::{json, Value};
use std::fmt::Write;

/// One task's row.
fn task_row(r: &TaskResult) -> Value {
    let k = r.figures.as_ref().and_then(|f| f.kinduction.clone()).unwrap_or_default();
    json!({
        "id": r.task.id,
        "expected": r.task.expected,
        "outcome": r.outcome.kind(),
        "score": report::category(r, false),
        "cpu_seconds": r.cpu_seconds,
        "k": k.k,
        "base_seconds": k.base_seconds,
        "forward_seconds": k.forward_seconds,
        "step_seconds": k.step_seconds,
        "invariant_seconds": k.invariant_seconds,
        "invariants_found": k.invariants_found,
        "invariants_certified": k.invariants_certified,
    })
}

/// The figures of one benchmark run, as saved.
pub fn summarise(results: &[TaskResult], timestamp: &str) -> Value {
    let kinduction: Vec<KInductionFigures> = results.iter().filter_map(|r| r.figures.as_ref()?.kinduction.clone()).collect();
    let seconds = |field: fn(&KInductionFigures) -> Option<f64>| -> f64 { kinduction.iter().filter_map(field).sum() };
    let count = |field: fn(&KInductionFigures) -> Option<u64>| -> u64 { kinduction.iter().filter_map(field).sum() };
    let scored = |category: &str| results.iter().filter(|r| report::category(r, false) == category).count();
    let cpu: Vec<f64> = results.iter().map(|r| r.cpu_seconds).collect();
    json!({
        "timestamp": timestamp,
        "tasks": results.len(),
        "correct": scored("correct"),
        "wrong": scored("wrong"),
        "unknown": scored("unknown") + scored("timeout"),
        "proved": results.iter().filter(|r| report::category(r, false) == "correct" && r.task.expected == "true").count(),
        "cpu_seconds_total": cpu.iter().sum::<f64>(),
        "cpu_seconds_median": percentile(&cpu, 50),
        "base_seconds_total": seconds(|k| k.base_seconds),
        "forward_seconds_total": seconds(|k| k.forward_seconds),
        "step_seconds_total": seconds(|k| k.step_seconds),
        "invariant_seconds_total": seconds(|k| k.invariant_seconds),
        "invariants_found_total": count(|k| k.invariants_found),
        "invariants_certified_total": count(|k| k.invariants_certified),
        "tasks_with_certified_invariants": kinduction.iter().filter(|k| k.invariants_certified.is_some_and(|n| n > 0)).count(),
        "per_task": results.iter().map(task_row).collect::<Vec<_>>(),
    })
}

const ROWS: [(&str, &str); 15] = [
    ("tasks", "tasks"),
    ("correct", "correct"),
    ("wrong", "wrong"),
    ("unknown or timeout", "unknown"),
    ("TRUE proved", "proved"),
    ("cpu seconds, total", "cpu_seconds_total"),
    ("cpu seconds, median", "cpu_seconds_median"),
    ("base case seconds, total", "base_seconds_total"),
    ("forward condition seconds, total", "forward_seconds_total"),
    ("inductive step seconds, total", "step_seconds_total"),
    ("invariant seconds, total", "invariant_seconds_total"),
    ("invariants found", "invariants_found_total"),
    ("invariants certified", "invariants_certified_total"),
    ("tasks with certified invariants", "tasks_with_certified_invariants"),
    ("", ""),
];

/// The per-task table, then the totals with the previous run's figures.
pub fn render(now: &Value, previous: Option<&Value>) -> String {
    let mut out = format!(
        "{:<56}{:>9} {:>10}{:>8}{:>4}{:>8}{:>8}{:>8}{:>8}{:>7}{:>7}{:>12}\n",
        "task", "expected", "outcome", "cpu s", "k", "base s", "fwd s", "step s", "inv s", "found", "cert", "previous"
    );
    let opt = |v: &Value| number(v.as_f64());
    for task in now["per_task"].as_array().into_iter().flatten() {
        let id = task["id"].as_str().unwrap_or("?");
        let before = previous
            .and_then(|p| p["per_task"].as_array()?.iter().find(|t| t["id"] == id).cloned())
            .map_or("-".to_string(), |t| format!("{} k={}", t["outcome"].as_str().unwrap_or("?"), opt(&t["k"])));
        let _ = writeln!(
            out,
            "{id:<56}{:>9} {:>10}{:>8.2}{:>4}{:>8}{:>8}{:>8}{:>8}{:>7}{:>7}{:>12}",
            task["expected"].as_str().unwrap_or("?"),
            task["outcome"].as_str().unwrap_or("?"),
            task["cpu_seconds"].as_f64().unwrap_or(0.0),
            opt(&task["k"]),
            opt(&task["base_seconds"]),
            opt(&task["forward_seconds"]),
            opt(&task["step_seconds"]),
            opt(&task["invariant_seconds"]),
            opt(&task["invariants_found"]),
            opt(&task["invariants_certified"]),
            before
        );
    }
    let _ = writeln!(out, "\n{:<34}{:>14}{:>14}{:>9}", "total", "now", "previous", "change");
    for (label, key) in ROWS.iter().filter(|(l, _)| !l.is_empty()) {
        let was = previous.and_then(|p| p[*key].as_f64());
        let _ = writeln!(out, "{label:<34}{:>14}{:>14}{:>9}", number(now[*key].as_f64()), number(was), change(now[*key].as_f64(), was));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Task;
    use crate::runner::{Figures, Outcome};

    fn result(id: &str, expected: &str, outcome: Outcome, k: Option<u64>, certified: u64) -> TaskResult {
        let kinduction = KInductionFigures {
            k,
            base_seconds: Some(0.5),
            step_seconds: Some(0.25),
            invariant_seconds: Some(0.125),
            invariants_found: Some(certified + 1),
            invariants_certified: Some(certified),
            ..KInductionFigures::default()
        };
        let figures = Figures { kinduction: Some(kinduction), ..Figures::default() };
        TaskResult { task: Task::example(id, expected), outcome, seconds: 1.0, cpu_seconds: 1.0, figures: Some(figures), svcomp: None }
    }

    #[test]
    fn totals_count_verdicts_times_and_invariants() {
        let results = [
            result("a", "true", Outcome::Successful, Some(1), 2),
            result("b", "false", Outcome::Failed, Some(3), 0),
            result("c", "true", Outcome::Unknown("step".into()), None, 1),
        ];
        let summary = summarise(&results, "t");
        assert_eq!(summary["correct"], 2);
        assert_eq!(summary["proved"], 1);
        assert_eq!(summary["unknown"], 1);
        assert_eq!(summary["base_seconds_total"], 1.5);
        assert_eq!(summary["invariants_certified_total"], 3);
        assert_eq!(summary["invariants_found_total"], 6);
        assert_eq!(summary["tasks_with_certified_invariants"], 2);
        assert_eq!(summary["per_task"][1]["k"], 3);
    }

    #[test]
    fn render_shows_each_task_and_compares_totals() {
        let now = summarise(&[result("a", "true", Outcome::Successful, Some(2), 1)], "t2");
        let before = summarise(&[result("a", "true", Outcome::Unknown("x".into()), None, 0)], "t1");
        let text = render(&now, Some(&before));
        assert!(text.contains("unknown k=-"), "{text}");
        assert!(text.lines().any(|l| l.starts_with("invariants certified") && l.contains('1')), "{text}");
    }
}
