//! A fixed sample of `cargo xtask c-oracle`: generated C programs without
//! undefined behaviour over every integer feature class (expressions,
//! bit-fields, unions, builtins, switch, layout, ...), their results
//! computed by gcc, verified by tarsier with inputs pinned and partly symbolic,
//! and expression statements with undefined behaviour judged by gcc's
//! sanitizers. A wrong verdict is a soundness bug; the oracle saves the
//! program it got wrong under the scratch folder's `wrong/`.

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
    let classes = Class::ALL.into_iter().filter(|class| !Class::MEMORY.contains(class) && *class != Class::Statement).collect();
    let opts = Options { cases: 2, classes, seed: 20261122, jobs: 2, timeout: Duration::from_secs(30), tarsier: None, flags: Vec::new() };
    let dir = scratch_dir("c-oracle");
    let counts = c_oracle::run(&opts, Path::new(env!("CARGO_BIN_EXE_tarsier")), &dir).expect("gcc builds and runs the sample");
    let total: usize = counts.iter().sum();
    assert_eq!(counts[Score::Wrong as usize], 0, "wrong verdicts, saved under {}", dir.join("wrong").display());
    assert!(total >= 40 && counts[Score::Correct as usize] * 10 >= total * 9, "too few definite answers: {counts:?} of {total}");
}

/// The `stmt` class: expressions used as statements, with side effects
/// and now and then undefined behaviour, which gcc's sanitizers judge;
/// tarsier must report exactly that behaviour (class and line), or prove
/// the folded result gcc computed.
#[test]
fn a_fixed_sample_of_expression_statements_gets_the_sanitizers_verdicts() {
    if !front_end_ready("c_oracle_statements") {
        return;
    }
    if !gcc_works(SANITIZERS) {
        eprintln!("skipped: gcc cannot build with the sanitizers");
        return;
    }
    let opts = Options { cases: 24, classes: vec![Class::Statement], seed: 20261128, jobs: 2, timeout: Duration::from_secs(30), tarsier: None, flags: Vec::new() };
    let dir = scratch_dir("c-oracle-statements");
    let counts = c_oracle::run(&opts, Path::new(env!("CARGO_BIN_EXE_tarsier")), &dir).expect("gcc builds and runs the sample");
    let total: usize = counts.iter().sum();
    assert_eq!(counts[Score::Wrong as usize], 0, "wrong verdicts, listed above; the tasks are under {}", dir.display());
    assert!(total >= 40 && counts[Score::Correct as usize] * 10 >= total * 9, "too few definite answers: {counts:?} of {total}");
}

/// Found by the oracle (UNKNOWN before): a signed by an unsigned 64-bit
/// product is checked exactly, since its magnitude stays below 2^127.
const SIGNED_BY_UNSIGNED_PRODUCT: &str = r#"
extern long long __VERIFIER_nondet_longlong(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);
int main(void) {
    long long a = __VERIFIER_nondet_longlong();
    unsigned long long b = __VERIFIER_nondet_ulonglong();
    __VERIFIER_assume(a >= -2 && a <= 1 && b >= 0xfffffffffffffffeull);
    long long product;
    int overflow = __builtin_mul_overflow(a, b, &product);
    /* gcc: -2 * (2^64 - 1) wraps to 2 with overflow; 0 * b does not overflow. */
    __VERIFIER_assert(overflow == (a != 0) && (a != -2 || b != 0xffffffffffffffffull || product == 2));
    __VERIFIER_assert(OPPOSITE);
    return 0;
}
"#;

#[test]
fn a_signed_by_unsigned_overflow_check_is_exact() {
    assert_verdict("c-oracle-mul-overflow", &SIGNED_BY_UNSIGNED_PRODUCT.replace("OPPOSITE", "1"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("c-oracle-mul-overflow-false", &SIGNED_BY_UNSIGNED_PRODUCT.replace("OPPOSITE", "!overflow || a != 1"), &[], "VERIFICATION FAILED");
}

/// Found by the oracle's memory classes (UNKNOWN before: the unwinding
/// never stopped): a loop bounded by a mask, or by a remainder the
/// rewriter turns into the low bits, ends after its last feasible round.
const LOOP_BOUNDED_BY_A_MASK: &str = r#"
extern unsigned long __VERIFIER_nondet_ulong(void);
extern void __VERIFIER_assert(int);
int main(void) {
    unsigned long n = __VERIFIER_nondet_ulong();
    unsigned char bytes[16];
    unsigned long k, j;
    for (k = 0; k < (n & 15u); k++) bytes[k] = 1;
    for (j = 0; j < n % 16u; j++) bytes[j] = 2;
    __VERIFIER_assert(k == j && LAST);
    return 0;
}
"#;

#[test]
fn a_loop_bounded_by_a_mask_ends() {
    assert_verdict("c-oracle-mask-bound", &LOOP_BOUNDED_BY_A_MASK.replace("LAST", "k <= 15"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("c-oracle-mask-bound-false", &LOOP_BOUNDED_BY_A_MASK.replace("LAST", "k <= 14"), &[], "VERIFICATION FAILED");
}
