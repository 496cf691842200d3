//! A fixed sample of the corpus's k-induction tasks (TRUE and FALSE, from
//! the ESBMC regression suites), verified with each task's own flags (so
//! `--k-induction`): any wrong verdict, crash or hang fails the test; the
//! score is printed. The whole set is measured by `cargo xtask bench-kind`.
//! The sample holds TRUE tasks that need an inductive proof (loops that
//! never end, or end after a nondeterministic count) beside ones bounded
//! unwinding decides, and FALSE tasks with deep and shallow bugs.

use std::path::PathBuf;
use std::time::Duration;
use xtask::corpus;
use xtask::report;
use xtask::runner::{run_tasks, Outcome, RunOptions};

const SAMPLE: &[&str] = &[
    // TRUE, decided by unwinding
    "esbmc/github_5007",
    "k-induction-parallel/eureka_05",
    "k-induction-parallel/vogal",
    "k-induction/github_6094_1",
    "Interval-analysis-ibex-contractor/04-comparison-operators-success",
    "cstd/printf_6",
    // TRUE, only an inductive proof decides
    "esbmc/github_252",
    "k-induction-parallel/for_infinite_loop_1",
    "k-induction-parallel/while_infinite_loop_2",
    // FALSE
    "incremental-smt/incremental-10",
    "k-induction-parallel/trex02_bug",
    "k-induction-parallel/pc_sfifo_2_BUG",
    "k-induction/sum03_bug",
    "k-induction/sum01_bug",
    "k-induction-parallel/array_bug",
    "k-induction-parallel/kundu_bug",
    "esbmc/matrix_bug",
    "Interval-analysis-ibex-contractor/13-PR1638-fail",
];

/// Per task; a task that needs longer is UNKNOWN (a timeout), never wrong.
const LIMIT: Duration = Duration::from_secs(20);

#[test]
fn kinduction_sample_has_no_wrong_verdict() {
    let Some(dir) = corpus::Suite::Esbmc.locate() else {
        println!("SKIP kinduction_sample_has_no_wrong_verdict: corpus not found (../shared/corpus or TARSIER_CORPUS)");
        return;
    };
    let manifest = corpus::Suite::Esbmc.load(&dir).expect("the corpus manifest is readable");
    let tasks: Vec<corpus::Task> = manifest.into_iter().filter(|t| SAMPLE.contains(&t.id.as_str())).collect();
    let missing: Vec<&&str> = SAMPLE.iter().filter(|id| !tasks.iter().any(|t| t.id == **id)).collect();
    assert!(missing.is_empty(), "sample tasks missing from the corpus manifest: {missing:?}");
    assert!(tasks.iter().all(|t| t.mode == "k-induction"), "every sampled task is a k-induction task");
    let opts = RunOptions {
        binary: PathBuf::from(env!("CARGO_BIN_EXE_tarsier")),
        parse_only: false,
        timeout: LIMIT,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        extra_args: Vec::new(),
    };
    let results = run_tasks(&dir, &tasks, &opts, |_| {});
    print!("{}", report::render(&results, false));
    let broken: Vec<String> = results
        .iter()
        .filter(|r| report::category(r, false) == "wrong" || matches!(r.outcome, Outcome::Crash(_)))
        .map(|r| format!("{}: expected {}, got {}", r.task.id, r.task.expected, r.outcome.kind()))
        .collect();
    assert!(broken.is_empty(), "{} of {} sampled tasks are wrong or crash:\n{}", broken.len(), results.len(), broken.join("\n"));
}
