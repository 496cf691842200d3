//! A fixed sample of the reference oracle (`oracle`): every operation, every
//! rounding mode, every standard format, against an independent IEEE
//! implementation. The `fp_reference` example runs millions of cases.

mod oracle;

use oracle::{run_format, table, RefFloat};
use rustc_apfloat::ieee::{Double, Half, Quad, Single, X87DoubleExtended};

const CASES: u64 = 3000;
const SEED: u64 = 0x01EE_E754;

fn assert_no_mismatch<F: RefFloat>() {
    let tallies = run_format::<F>(CASES, SEED, None);
    assert!(tallies.iter().all(|t| t.mismatches == 0), "mismatches against the reference:\n{}", table(&tallies));
}

#[test]
fn half_matches_reference() {
    assert_no_mismatch::<Half>();
}

#[test]
fn single_matches_reference() {
    assert_no_mismatch::<Single>();
}

#[test]
fn double_matches_reference() {
    assert_no_mismatch::<Double>();
}

#[test]
fn quad_matches_reference() {
    assert_no_mismatch::<Quad>();
}

#[test]
fn x87_matches_reference() {
    assert_no_mismatch::<X87DoubleExtended>();
}
