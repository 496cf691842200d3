//! A fixed sample of the BMC slice of the regression corpus (core tasks,
//! modes bmc and incremental-bmc, without the floating-point suites),
//! verified with each task's own flags: any wrong verdict, crash or hang
//! fails the test; the score is printed. The whole slice is scored by
//! `cargo xtask bench-verify` (or `cargo xtask corpus --core`).

use std::path::PathBuf;
use std::time::Duration;
use xtask::corpus;
use xtask::report;
use xtask::runner::{run_tasks, Outcome, RunOptions};

const SAMPLE: usize = 200;
/// Per task, as in the score. A task that needs longer is UNKNOWN
/// (a timeout), never wrong.
const LIMIT: Duration = Duration::from_secs(20);

#[test]
fn corpus_sample_has_no_wrong_verdict() {
    let Some(dir) = corpus::Suite::Esbmc.locate() else {
        println!("SKIP corpus_sample_has_no_wrong_verdict: corpus not found (../shared/corpus or TARSIER_CORPUS)");
        return;
    };
    let manifest = corpus::Suite::Esbmc.load(&dir).expect("the corpus manifest is readable");
    let slice: Vec<corpus::Task> = manifest.into_iter().filter(corpus::Task::in_bmc_slice).collect();
    let tasks = corpus::sample(&slice, SAMPLE);
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
