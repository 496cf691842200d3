//! A fixed sample of `cargo xtask thread-oracle`: generated pthread
//! programs (two or three threads over shared globals, struct fields or
//! array elements, mutexes, atomic sections, inputs, loops on shared
//! values, pointer arguments, values returned through joins) whose every schedule and input sequence gcc
//! enumerated; tarsier must agree with the default engine, with
//! `--deadlock-check` and, for programs with loops, with `--unwind N`
//! with and without unwinding assertions. A disagreement is saved under
//! the scratch folder's `wrong/` with the schedule that violates it.

mod common;
use common::*;
use std::path::Path;
use std::time::Duration;
use xtask::oracle::Score;
use xtask::thread_oracle::{self, Mode, Options};

#[test]
fn a_fixed_sample_of_thread_programs_gets_the_native_verdicts() {
    if !front_end_ready("thread_oracle_sample") {
        return;
    }
    if std::process::Command::new("gcc").arg("--version").output().is_err() {
        eprintln!("skipped: gcc not found");
        return;
    }
    let opts = Options { programs: 8, seed: 20261134, max_bound: 3, modes: Mode::ALL.to_vec(), jobs: 2, timeout: Duration::from_secs(60), tarsier: None };
    let dir = scratch_dir("thread-oracle");
    let summary = thread_oracle::run(&opts, Path::new(env!("CARGO_BIN_EXE_tarsier")), &dir).expect("gcc builds and runs the sample");
    let total: usize = summary.counts.iter().sum();
    assert_eq!(summary.counts[Score::Wrong as usize], 0, "disagreements saved under {}", dir.join("wrong").display());
    assert!(summary.programs >= 7, "too few programs enumerated: {:?}", summary.skipped);
    for feature in ["mutex", "atomic", "input", "pointer argument", "3+ threads"] {
        assert!(summary.features.contains_key(feature), "the sample lost {feature}: {:?}", summary.features);
    }
    assert!(total >= 14 && summary.counts[Score::Correct as usize] * 10 >= total * 7, "too few definite answers: {:?} of {total}", summary.counts);
}
