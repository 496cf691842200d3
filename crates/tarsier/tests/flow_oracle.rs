//! A fixed sample of `cargo xtask flow-oracle`: generated programs of
//! random control flow (loop nests of every kind, `break`, `continue`,
//! `goto` forward and back, `switch` with fall-through, early returns,
//! calls, recursion, nondeterministic choices) whose every execution gcc
//! enumerated under the unwinding bound; tarsier must agree with
//! `--unwind N --no-unwinding-assertions`, `--unwind N` and, where the
//! enumeration implies the unbounded verdict, `--incremental-bmc` and
//! `--k-induction`. The seed's 25 programs have every feature the
//! generator makes (`while` with `continue`, `goto` loops with several
//! back edges, `switch`, irreducible loops, loops sharing a head, ...).
//! A disagreement is saved under the scratch folder's `wrong/`.

mod common;
use common::*;
use std::path::Path;
use std::time::Duration;
use xtask::flow_oracle::{self, Mode, Options};
use xtask::oracle::Score;

#[test]
fn a_fixed_sample_of_control_flow_programs_gets_the_native_verdicts() {
    if !front_end_ready("flow_oracle_sample") {
        return;
    }
    if std::process::Command::new("gcc").arg("--version").output().is_err() {
        eprintln!("skipped: gcc not found");
        return;
    }
    let opts = Options { programs: 25, seed: 20261128, max_bound: 4, modes: Mode::ALL.to_vec(), jobs: 2, timeout: Duration::from_secs(60), tarsier: None };
    let dir = scratch_dir("flow-oracle");
    let summary = flow_oracle::run(&opts, Path::new(env!("CARGO_BIN_EXE_tarsier")), &dir).expect("gcc builds and runs the sample");
    let total: usize = summary.counts.iter().sum();
    assert_eq!(summary.counts[Score::Wrong as usize], 0, "disagreements {:?}, saved under {}", summary.classes, dir.join("wrong").display());
    assert!(summary.programs >= 22, "too few programs enumerated: {:?}", summary.skipped);
    assert!(total >= 80 && summary.counts[Score::Correct as usize] * 20 >= total * 19, "too few definite answers: {:?} of {total}", summary.counts);
}
