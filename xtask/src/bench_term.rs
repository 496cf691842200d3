//! `cargo xtask bench-term`: the termination tasks of the chosen suites
//! (mode termination; esbmc-regression's core ones) with how each was
//! decided, from `--json`: proved by bounded exhaustion, by ranking
//! functions (each loop's function and its form, linear or
//! lexicographic), refuted by a lasso; and its time. Then totals, saved
//! under `target/bench/term/` and compared with the previous run. The
//! number and change columns are `bench_verify`'s.

use crate::bench_verify::{change, number, percentile};
use crate::report;
use crate::runner::TaskResult;
use serde_json::{json, Value};
use std::fmt::Write;

/// The short name of a way to decide termination.
fn method_name(method: &str) -> &str {
    match method {
        "bounded-exhaustion" => "bounded",
        "ranking-functions" => "ranking",
        "non-termination" => "lasso",
        other => other,
    }
}

/// One task's row.
fn task_row(r: &TaskResult) -> Value {
    let how = r.figures.as_ref().and_then(|f| f.how.clone()).unwrap_or_default();
    json!({
        "id": r.task.id,
        "expected": r.task.expected,
        "outcome": r.outcome.kind(),
        "score": report::category(r, false),
        "cpu_seconds": r.cpu_seconds,
        "how": method_name(&how.method),
        "detail": how.detail,
    })
}

/// The figures of one benchmark run, as saved.
pub fn summarise(results: &[TaskResult], timestamp: &str) -> Value {
    let rows: Vec<Value> = results.iter().map(task_row).collect();
    let scored = |category: &str| rows.iter().filter(|r| r["score"] == category).count();
    let decided_by = |how: &str| rows.iter().filter(|r| r["score"] == "correct" && r["how"] == how).count();
    let cpu: Vec<f64> = results.iter().map(|r| r.cpu_seconds).collect();
    json!({
        "timestamp": timestamp,
        "tasks": results.len(),
        "correct": scored("correct"),
        "wrong": scored("wrong"),
        "unknown": scored("unknown") + scored("timeout"),
        "proved_bounded": decided_by("bounded"),
        "proved_ranking": decided_by("ranking"),
        "refuted_lasso": decided_by("lasso"),
        "cpu_seconds_total": cpu.iter().sum::<f64>(),
        "cpu_seconds_median": percentile(&cpu, 50),
        "per_task": rows,
    })
}

const ROWS: [(&str, &str); 10] = [
    ("tasks", "tasks"),
    ("correct", "correct"),
    ("wrong", "wrong"),
    ("unknown or timeout", "unknown"),
    ("proved by bounded exhaustion", "proved_bounded"),
    ("proved by ranking functions", "proved_ranking"),
    ("refuted by a lasso", "refuted_lasso"),
    ("cpu seconds, total", "cpu_seconds_total"),
    ("cpu seconds, median", "cpu_seconds_median"),
    ("", ""),
];

/// The per-task table, then the totals with the previous run's figures.
pub fn render(now: &Value, previous: Option<&Value>) -> String {
    let mut out = format!("{:<64}{:>9} {:>10}{:>8} {:<9}{:<22} {}\n", "task", "expected", "outcome", "cpu s", "how", "previous", "detail");
    for task in now["per_task"].as_array().into_iter().flatten() {
        let id = task["id"].as_str().unwrap_or("?");
        let before = previous
            .and_then(|p| p["per_task"].as_array()?.iter().find(|t| t["id"] == id).cloned())
            .map_or("-".to_string(), |t| format!("{} {}", t["outcome"].as_str().unwrap_or("?"), t["how"].as_str().unwrap_or("")));
        let how = task["how"].as_str().filter(|h| !h.is_empty()).unwrap_or("-");
        let _ = writeln!(
            out,
            "{id:<64}{:>9} {:>10}{:>8.2} {how:<9}{before:<22} {}",
            task["expected"].as_str().unwrap_or("?"),
            task["outcome"].as_str().unwrap_or("?"),
            task["cpu_seconds"].as_f64().unwrap_or(0.0),
            task["detail"].as_str().unwrap_or(""),
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
    use crate::runner::{Figures, How, Outcome};

    fn result(id: &str, expected: &str, outcome: Outcome, method: &str, detail: &str) -> TaskResult {
        let how = How { method: method.into(), detail: detail.into() };
        let figures = Figures { how: Some(how), ..Figures::default() };
        TaskResult { task: Task::example(id, expected), outcome, seconds: 1.0, cpu_seconds: 1.0, figures: Some(figures), svcomp: None }
    }

    #[test]
    fn totals_count_how_tasks_were_decided() {
        let results = [
            result("a", "true", Outcome::Successful, "ranking-functions", "linear n - i"),
            result("b", "true", Outcome::Successful, "bounded-exhaustion", "bound 4"),
            result("c", "false", Outcome::Failed, "non-termination", ""),
            result("d", "true", Outcome::Unknown("x".into()), "", ""),
        ];
        let summary = summarise(&results, "t");
        assert_eq!(summary["correct"], 3);
        assert_eq!(summary["unknown"], 1);
        assert_eq!((summary["proved_ranking"].as_u64(), summary["proved_bounded"].as_u64()), (Some(1), Some(1)));
        assert_eq!(summary["refuted_lasso"], 1);
        assert_eq!(summary["per_task"][0]["detail"], "linear n - i");
    }

    #[test]
    fn render_shows_how_and_compares_totals() {
        let now = summarise(&[result("a", "true", Outcome::Successful, "ranking-functions", "lexicographic x, y")], "t2");
        let before = summarise(&[result("a", "true", Outcome::Timeout, "", "")], "t1");
        let text = render(&now, Some(&before));
        assert!(text.lines().any(|l| l.starts_with('a') && l.contains("ranking") && l.contains("lexicographic x, y")), "{text}");
        assert!(text.lines().any(|l| l.starts_with("proved by ranking functions") && l.contains('1')), "{text}");
    }
}
