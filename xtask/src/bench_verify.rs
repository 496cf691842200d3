//! `cargo xtask bench-verify`: verification speed and formula sizes on the
//! BMC slice of the corpus (core tasks, modes bmc and incremental-bmc,
//! without the floating-point suites). Prints total, median and 90th
//! percentile times, time totals per phase (symex, SAT, replay), total and
//! median formula sizes (AIG and-nodes, CNF variables and clauses of each
//! task's last bound), the tasks with the largest formulas and the slowest
//! tasks with their phases; saves the figures under `target/bench/verify/` and
//! compares them with the previous ones.

use crate::runner::{Figures, TaskResult};
use serde_json::{json, Value};
use std::fmt::Write;

/// How many of the largest tasks (by CNF clauses) are listed.
pub const LARGEST: usize = 10;
/// How many of the slowest tasks (by CPU time) are listed, with their
/// phases (a timed-out task has none).
pub const SLOWEST: usize = 10;

/// The figures of one benchmark run, as saved.
pub fn summarise(results: &[TaskResult], timestamp: &str) -> Value {
    let cpu: Vec<f64> = results.iter().map(|r| r.cpu_seconds).collect();
    let solved: Vec<(&TaskResult, &Figures)> =
        results.iter().filter_map(|r| Some((r, r.figures.as_ref()?))).filter(|(_, f)| f.cnf_clauses > 0).collect();
    let sizes = |field: fn(&Figures) -> u64| -> Vec<f64> { solved.iter().map(|(_, f)| field(f) as f64).collect() };
    let mut largest = solved.clone();
    largest.sort_by(|a, b| b.1.cnf_clauses.cmp(&a.1.cnf_clauses).then_with(|| a.0.task.id.cmp(&b.0.task.id)));
    let largest: Vec<Value> = largest
        .iter()
        .take(LARGEST)
        .map(|(r, f)| {
            json!({"id": r.task.id, "outcome": r.outcome.kind(), "cpu_seconds": r.cpu_seconds, "aig_ands": f.aig_ands,
                   "cnf_vars": f.cnf_vars, "cnf_clauses": f.cnf_clauses, "replay_seconds": f.replay_seconds})
        })
        .collect();
    let mut slowest: Vec<&TaskResult> = results.iter().collect();
    slowest.sort_by(|a, b| b.cpu_seconds.total_cmp(&a.cpu_seconds).then_with(|| a.task.id.cmp(&b.task.id)));
    let slowest: Vec<Value> = slowest
        .iter()
        .take(SLOWEST)
        .map(|r| {
            let phase = |field: fn(&Figures) -> f64| r.figures.as_ref().map(field);
            json!({"id": r.task.id, "outcome": r.outcome.kind(), "cpu_seconds": r.cpu_seconds,
                   "symex_seconds": phase(|f| f.symex_seconds), "sat_seconds": phase(|f| f.sat_seconds),
                   "replay_seconds": phase(|f| f.replay_seconds)})
        })
        .collect();
    let seconds = |field: fn(&Figures) -> f64| -> f64 { results.iter().filter_map(|r| r.figures.as_ref().map(field)).sum() };
    json!({
        "timestamp": timestamp,
        "tasks": results.len(),
        "decided": results.iter().filter(|r| matches!(r.outcome.kind(), "successful" | "failed")).count(),
        "wall_seconds_total": results.iter().map(|r| r.seconds).sum::<f64>(),
        "cpu_seconds_total": cpu.iter().sum::<f64>(),
        "cpu_seconds_median": percentile(&cpu, 50),
        "cpu_seconds_p90": percentile(&cpu, 90),
        "symex_seconds_total": seconds(|f| f.symex_seconds),
        "sat_seconds_total": seconds(|f| f.sat_seconds),
        "replay_seconds_total": seconds(|f| f.replay_seconds),
        "solved_tasks": solved.len(),
        "aig_ands_total": sizes(|f| f.aig_ands).iter().sum::<f64>(),
        "aig_ands_median": percentile(&sizes(|f| f.aig_ands), 50),
        "cnf_vars_total": sizes(|f| f.cnf_vars).iter().sum::<f64>(),
        "cnf_vars_median": percentile(&sizes(|f| f.cnf_vars), 50),
        "cnf_clauses_total": sizes(|f| f.cnf_clauses).iter().sum::<f64>(),
        "cnf_clauses_median": percentile(&sizes(|f| f.cnf_clauses), 50),
        "largest": largest,
        "slowest": slowest,
    })
}

/// The `p`-th percentile (nearest rank) of `values`; 0 when empty.
pub fn percentile(values: &[f64], p: usize) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        n => sorted[((n * p).div_ceil(100)).clamp(1, n) - 1],
    }
}

/// The summary lines, each with the previous run's figure and the change.
const ROWS: [(&str, &str); 16] = [
    ("tasks", "tasks"),
    ("decided (TRUE or FALSE)", "decided"),
    ("wall seconds, total", "wall_seconds_total"),
    ("cpu seconds, total", "cpu_seconds_total"),
    ("cpu seconds, median", "cpu_seconds_median"),
    ("cpu seconds, 90th percentile", "cpu_seconds_p90"),
    ("symex seconds, total", "symex_seconds_total"),
    ("sat seconds, total", "sat_seconds_total"),
    ("replay seconds, total", "replay_seconds_total"),
    ("tasks that reached the solver", "solved_tasks"),
    ("aig and-nodes, total", "aig_ands_total"),
    ("aig and-nodes, median", "aig_ands_median"),
    ("cnf variables, total", "cnf_vars_total"),
    ("cnf variables, median", "cnf_vars_median"),
    ("cnf clauses, total", "cnf_clauses_total"),
    ("cnf clauses, median", "cnf_clauses_median"),
];

pub fn render(now: &Value, previous: Option<&Value>) -> String {
    let mut out = format!("{:<34}{:>14}{:>14}{:>9}\n", "figure", "now", "previous", "change");
    for (label, key) in ROWS {
        let was = previous.and_then(|p| p[key].as_f64());
        let _ = writeln!(out, "{label:<34}{:>14}{:>14}{:>9}", number(now[key].as_f64()), number(was), change(now[key].as_f64(), was));
    }
    let _ = writeln!(out, "\nlargest formulas (last bound):");
    let _ = writeln!(
        out,
        "{:<52}{:>11}{:>8}{:>9}{:>11}{:>11}{:>13}{:>18}",
        "task", "outcome", "cpu s", "replay s", "aig ands", "cnf vars", "cnf clauses", "previous clauses"
    );
    for task in now["largest"].as_array().into_iter().flatten() {
        let id = task["id"].as_str().unwrap_or("?");
        let was = previous
            .and_then(|p| p["largest"].as_array()?.iter().find(|t| t["id"] == id)?["cnf_clauses"].as_f64());
        let _ = writeln!(
            out,
            "{id:<52}{:>11}{:>8.2}{:>9.2}{:>11}{:>11}{:>13}{:>18}",
            task["outcome"].as_str().unwrap_or("?"),
            task["cpu_seconds"].as_f64().unwrap_or(0.0),
            task["replay_seconds"].as_f64().unwrap_or(0.0),
            number(task["aig_ands"].as_f64()),
            number(task["cnf_vars"].as_f64()),
            number(task["cnf_clauses"].as_f64()),
            number(was)
        );
    }
    let _ = writeln!(out, "\nslowest tasks (cpu; phases from --json, none after a timeout):");
    let _ = writeln!(out, "{:<52}{:>11}{:>8}{:>9}{:>9}{:>9}", "task", "outcome", "cpu s", "symex s", "sat s", "replay s");
    for task in now["slowest"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "{:<52}{:>11}{:>8.2}{:>9}{:>9}{:>9}",
            task["id"].as_str().unwrap_or("?"),
            task["outcome"].as_str().unwrap_or("?"),
            task["cpu_seconds"].as_f64().unwrap_or(0.0),
            number(task["symex_seconds"].as_f64()),
            number(task["sat_seconds"].as_f64()),
            number(task["replay_seconds"].as_f64())
        );
    }
    out
}

pub fn number(value: Option<f64>) -> String {
    match value {
        None => "-".into(),
        Some(v) if v.fract() == 0.0 => format!("{v:.0}"),
        Some(v) => format!("{v:.3}"),
    }
}

pub fn change(now: Option<f64>, was: Option<f64>) -> String {
    match (now, was) {
        (Some(now), Some(was)) if was != 0.0 => format!("{:+.1}%", 100.0 * (now / was - 1.0)),
        _ => "-".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Task;
    use crate::runner::Outcome;

    fn result(id: &str, cpu: f64, clauses: u64) -> TaskResult {
        let task = Task::example(id, "true");
        let figures = Figures { aig_ands: clauses / 3, cnf_vars: clauses / 2, cnf_clauses: clauses, ..Figures::default() };
        TaskResult { task, outcome: Outcome::Successful, seconds: cpu, cpu_seconds: cpu, figures: Some(figures), svcomp: None }
    }

    #[test]
    fn percentiles_use_the_nearest_rank() {
        assert_eq!(percentile(&[], 50), 0.0);
        assert_eq!(percentile(&[3.0, 1.0, 2.0], 50), 2.0);
        assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0], 50), 2.0);
        let hundred: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&hundred, 90), 90.0);
    }

    #[test]
    fn summary_counts_sizes_and_orders_the_largest() {
        let results = [result("a", 1.0, 30), result("b", 3.0, 600), result("c", 2.0, 0)];
        let summary = summarise(&results, "t");
        assert_eq!(summary["tasks"], 3);
        assert_eq!(summary["solved_tasks"], 2, "a task without clauses never reached the solver");
        assert_eq!(summary["cnf_clauses_total"], 630.0);
        assert_eq!(summary["cpu_seconds_median"], 2.0);
        assert_eq!(summary["largest"][0]["id"], "b");
        assert_eq!(summary["slowest"][0]["id"], "b");
        assert_eq!(summary["slowest"][2]["id"], "a");
    }

    #[test]
    fn render_compares_with_the_previous_figures() {
        let now = summarise(&[result("a", 1.0, 300)], "t2");
        let before = summarise(&[result("a", 2.0, 200)], "t1");
        let text = render(&now, Some(&before));
        assert!(text.lines().any(|l| l.starts_with("cnf clauses, total") && l.ends_with("+50.0%")), "{text}");
        assert!(text.lines().any(|l| l.starts_with("cpu seconds, total") && l.ends_with("-50.0%")), "{text}");
        assert!(text.lines().any(|l| l.starts_with('a') && l.trim_end().ends_with("200")), "{text}");
        assert!(text.lines().any(|l| l.starts_with("replay seconds, total")), "{text}");
        assert!(text.contains("slowest tasks"), "{text}");
    }
}
