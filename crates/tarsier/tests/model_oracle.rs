//! A fixed sample of `cargo xtask model-oracle`: calls of the C library
//! models on boundary and random arguments in every family (strings,
//! conversions, ctype, math, time, printf, wide characters, the
//! environment), their results observed natively against the host glibc,
//! then verified by tarsier: the exact functions must reproduce glibc's
//! observations (and a negated one must fail), the environment's models
//! must admit them. A wrong verdict is a wrong model; the oracle saves the
//! program under the scratch folder's `wrong/`.

mod common;
use common::*;
use std::path::Path;
use std::time::Duration;
use xtask::model_oracle::{self, Family, Options};
use xtask::oracle::Score;

#[test]
fn a_fixed_sample_of_library_calls_gets_glibcs_results() {
    if !front_end_ready("model_oracle_sample") {
        return;
    }
    if std::process::Command::new("gcc").arg("--version").output().is_err() {
        eprintln!("skipped: gcc not found");
        return;
    }
    let opts = Options { cases: 2, families: Family::ALL.to_vec(), seed: 12, jobs: 2, timeout: Duration::from_secs(30), tarsier: None };
    let dir = scratch_dir("model-oracle");
    let findings = model_oracle::run(&opts, Path::new(env!("CARGO_BIN_EXE_tarsier")), &dir).expect("gcc builds and runs the sample");
    let counts = findings.counts;
    let total: usize = counts.iter().sum();
    assert_eq!(counts[Score::Wrong as usize], 0, "wrong verdicts, saved under {}", dir.join("wrong").display());
    assert!(total >= 24 && counts[Score::Correct as usize] * 10 >= total * 7, "too few definite answers: {counts:?} of {total}");
}
