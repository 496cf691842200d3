//! A fixed sample of `cargo xtask c-oracle`: generated C programs without
//! undefined behaviour over every feature class (expressions, bit-fields,
//! unions, builtins, switch, layout, ...), their results computed by gcc,
//! verified by tarsier with inputs pinned and partly symbolic. A wrong
//! verdict is a soundness bug; the oracle saves the program it got wrong
//! under the scratch folder's `wrong/`.

mod common;
use common::*;
use std::path::Path;
use std::time::Duration;
use xtask::c_oracle::{self, Class, Options};
use xtask::oracle::Score;

#[test]
fn a_fixed_sample_of_generated_programs_gets_gccs_verdicts() {
    if !front_end_ready("c_oracle_sample") {
        return;
    }
    if std::process::Command::new("gcc").arg("--version").output().is_err() {
        eprintln!("skipped: gcc not found");
        return;
    }
    let opts = Options { cases: 2, classes: Class::ALL.to_vec(), seed: 20261122, jobs: 2, timeout: Duration::from_secs(30), tarsier: None };
    let dir = scratch_dir("c-oracle");
    let counts = c_oracle::run(&opts, Path::new(env!("CARGO_BIN_EXE_tarsier")), &dir).expect("gcc builds and runs the sample");
    let total: usize = counts.iter().sum();
    assert_eq!(counts[Score::Wrong as usize], 0, "wrong verdicts, saved under {}", dir.join("wrong").display());
    assert!(total >= 40 && counts[Score::Correct as usize] * 10 >= total * 9, "too few definite answers: {counts:?} of {total}");
}
