//! A fixed sample of the regression corpus through `tarsier --parse-only`
//! (with each task's own flags): any crash or hang fails the test; the
//! acceptance figures are printed. The full corpus is scored by
//! `cargo xtask corpus --parse-only`.

use std::path::PathBuf;
use std::time::Duration;
use xtask::corpus;
use xtask::runner::{run_tasks, Outcome, RunOptions};

const SAMPLE: usize = 300;
/// Per task; generous because CI machines are busy. A hang is a timeout.
const LIMIT: Duration = Duration::from_secs(60);

#[test]
fn corpus_sample_parses_without_crash_or_hang() {
    let Some(dir) = corpus::Suite::Esbmc.locate() else {
        println!("SKIP corpus_sample_parses_without_crash_or_hang: corpus not found (../shared/corpus or TARSIER_CORPUS)");
        return;
    };
    let tasks = corpus::sample(&corpus::Suite::Esbmc.load(&dir).expect("the corpus manifest is readable"), SAMPLE);
    let opts = RunOptions {
        binary: PathBuf::from(env!("CARGO_BIN_EXE_tarsier")),
        parse_only: true,
        timeout: LIMIT,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        extra_args: Vec::new(),
    };
    let results = run_tasks(&dir, &tasks, &opts, |_| {});
    print!("{}", xtask::report::render(&results, true));
    let broken: Vec<String> = results
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Crash(_) | Outcome::Timeout))
        .map(|r| format!("{}: {}", r.task.id, r.outcome.reason().unwrap_or("hang")))
        .collect();
    assert!(broken.is_empty(), "{} of {} corpus tasks crash or hang:\n{}", broken.len(), results.len(), broken.join("\n"));
}
