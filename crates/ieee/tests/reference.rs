//! A fixed sample of the reference oracle (`oracle`): every operation, every
//! rounding mode, every standard format, against an independent IEEE
//! implementation. The `fp_reference` example runs millions of cases.

mod oracle;

use oracle::{run_format, table, Fp6, Fp8, RefFloat, WidePrecision, WideRange};
use rustc_apfloat::ieee::{BFloat, Double, Half, Quad, Single, X87DoubleExtended};

/// Cases per operation for the standard formats; the unusual ones run
/// fewer (their extreme exponent ranges make decimal cases slow).
const CASES: u64 = 3000;
const SEED: u64 = 0x01EE_E754;

fn assert_no_mismatch<F: RefFloat>(cases: u64) {
    let tallies = run_format::<F>(cases, SEED, None);
    assert!(tallies.iter().all(|t| t.mismatches == 0), "mismatches against the reference:\n{}", table(&tallies));
}

#[test]
fn half_matches_reference() {
    assert_no_mismatch::<Half>(CASES);
}

#[test]
fn single_matches_reference() {
    assert_no_mismatch::<Single>(CASES);
}

#[test]
fn double_matches_reference() {
    assert_no_mismatch::<Double>(CASES);
}

#[test]
fn quad_matches_reference() {
    assert_no_mismatch::<Quad>(CASES);
}

#[test]
fn x87_matches_reference() {
    assert_no_mismatch::<X87DoubleExtended>(CASES);
}

#[test]
fn unusual_formats_match_reference() {
    assert_no_mismatch::<BFloat>(1000);
    assert_no_mismatch::<Fp8>(1000);
    assert_no_mismatch::<Fp6>(1000);
    assert_no_mismatch::<WidePrecision>(1000);
    assert_no_mismatch::<WideRange>(150);
}
