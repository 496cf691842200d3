//! `__ESBMC_forall` and `__ESBMC_exists` end to end: bodies with calls and
//! loops, nested alternations, quantifiers under assumptions, assertions and
//! in value position, checks inside bodies, and the replay of each FALSE
//! (by enumeration for small variables, by witnesses or the engine's
//! ground query for wide ones, UNKNOWN when none decides).

mod common;
use common::*;

const COUNT: &str = "#define SIZE 4
int count(int val, int vec[SIZE]) {
  int res = 0;
  for (int idx = 0; idx < SIZE; ++idx)
    if (vec[idx] == val) ++res;
  return res;
}
";

#[test]
fn a_universal_over_a_call_with_a_loop_is_proved_or_refuted() {
    let holds = format!("{COUNT}int main() {{ int vec[SIZE]; int v;\n  __ESBMC_assert(__ESBMC_forall(&v, count(v, vec) <= SIZE), \"bounded\"); }}\n");
    assert_verdict("quantifier_forall_call", &holds, &[], "VERIFICATION SUCCESSFUL");
    let fails = format!("{COUNT}int main() {{ int vec[SIZE]; int v;\n  __ESBMC_assert(__ESBMC_forall(&v, count(v, vec) < SIZE), \"not all equal\"); }}\n");
    assert_verdict("quantifier_forall_call_fails", &fails, &[], "VERIFICATION FAILED");
}

#[test]
fn an_existential_needs_a_witness() {
    let holds = format!(
        "{COUNT}int main() {{ int vec[SIZE] = {{1, 1, 2, 3}}; int v;\n  __ESBMC_assert(__ESBMC_exists(&v, count(v, vec) == 2), \"twice\"); }}\n"
    );
    assert_verdict("quantifier_exists_call", &holds, &[], "VERIFICATION SUCCESSFUL");
    // A char ranges over 256 values: the replay enumerates them.
    let fails = "int main() { char c; __ESBMC_assert(__ESBMC_exists(&c, c * c == 2), \"no root\"); }\n";
    assert_verdict("quantifier_exists_char_fails", fails, &[], "VERIFICATION FAILED");
    // An int's 2^32 values are not enumerated and no witness exists: the
    // replay asks the engine, which solves the body at the run's values.
    let no_root = "int main() { int v; __ESBMC_assert(__ESBMC_exists(&v, v * v == 2), \"no root\"); }\n";
    assert_verdict("quantifier_exists_int_decided", no_root, &[], "VERIFICATION FAILED");
    let first_match = "int find(int v, int *vec) { for (int i = 0; i < 3; ++i) if (vec[i] == v) return i; return -1; }
int main() { int vec[3] = {5, 5, 6}; int v;
  __ESBMC_assert(__ESBMC_exists(&v, find(v, vec) == 1), \"no first match at 1\"); }\n";
    assert_verdict("quantifier_exists_call_decided", first_match, &[], "VERIFICATION FAILED");
    // A body whose term does not mention the variable (the rewriter decided
    // it) is still answered from symex's term.
    let without_var = "int nondet_int(void);
int main() { int x = nondet_int(); int v;
  __ESBMC_assert(__ESBMC_exists(&v, x > 5 || v * 0 == 1), \"x is small\"); }\n";
    assert_verdict("quantifier_exists_body_without_var", without_var, &[], "VERIFICATION FAILED");
    // An inner quantifier is not one the engine answers for on its own:
    // when no witness decides it, the answer is UNKNOWN, never a guess.
    let nested = "int main() { unsigned a, b;
  __ESBMC_assert(__ESBMC_forall(&a, __ESBMC_exists(&b, b == a + 1 && b > a)), \"a larger successor\"); }\n";
    let answer = verdict("quantifier_nested_undecided", nested, &[]);
    if front_end_ready("quantifier_nested_undecided") {
        assert!(answer.starts_with("VERIFICATION UNKNOWN") && answer.contains("nor the engine decide it"), "{answer}");
    }
}

#[test]
fn an_assumed_universal_over_an_int_is_decided_in_the_replay() {
    let source = "int main() { int a[4], b[4], i, j;
  __ESBMC_assume(__ESBMC_forall(&j, !(0 <= j && j < 4) || b[j] == 7));
  __ESBMC_assert(__ESBMC_forall(&i, !(0 <= i && i < 4) || a[i] != a[0]), \"distinct from the first\"); }\n";
    assert_verdict("quantifier_assumed_int_replayed", source, &[], "VERIFICATION FAILED");
}

#[test]
fn alternations_are_decided() {
    let holds = "int main() { int a, b;\n  __ESBMC_assert(__ESBMC_forall(&a, __ESBMC_exists(&b, b == a + 1)), \"successor\"); }\n";
    assert_verdict("quantifier_alternation", holds, &[], "VERIFICATION SUCCESSFUL");
    let fails = "int main() { int a, b;\n  __ESBMC_assert(__ESBMC_forall(&a, __ESBMC_forall(&b, a > b || b > a)), \"total\"); }\n";
    assert_verdict("quantifier_nested_fails", fails, &[], "VERIFICATION FAILED");
}

#[test]
fn an_assumed_universal_constrains_what_follows() {
    let source = "int main() { int a[10]; int x;
  __ESBMC_assume(__ESBMC_forall(&x, !(0 <= x && x < 10) || a[x] == 0));
  __ESBMC_assert(a[3] == 0, \"from the assumption\"); }\n";
    assert_verdict("quantifier_assumed", source, &[], "VERIFICATION SUCCESSFUL");
}

#[test]
fn a_quantifier_is_a_value_of_both_polarities() {
    let source = "int main() { int a, b; unsigned char c;
  __ESBMC_assert(__ESBMC_forall(&a, a == 17) == 0, \"not all 17\");
  __ESBMC_assert(__ESBMC_exists(&b, b > 0 && __ESBMC_forall(&a, a == b)) == 0, \"no such b\");
  int p = __ESBMC_forall(&c, c != c + 1);
  __ESBMC_assert(p, \"no fixed point\"); }\n";
    assert_verdict("quantifier_values", source, &[], "VERIFICATION SUCCESSFUL");
    let fails = "int main() { int a, b;\n  __ESBMC_assert(__ESBMC_forall(&b, b > 0 || __ESBMC_forall(&a, a > 0)) == 1, \"wrong\"); }\n";
    assert_verdict("quantifier_values_fail", fails, &[], "VERIFICATION FAILED");
}

#[test]
fn a_body_does_not_change_the_state() {
    let source = "int g;
int bump(void) { return ++g; }
int main() { int x;
  __ESBMC_assert(__ESBMC_forall(&x, bump() == 1), \"first call\");
  __ESBMC_assert(g == 0 && x == x, \"no leak\");
  x = 5;
  __ESBMC_assert(__ESBMC_exists(&x, x == 9) && x == 5, \"the variable is restored\"); }\n";
    assert_verdict("quantifier_no_leak", source, &[], "VERIFICATION SUCCESSFUL");
    let fails = "int g;\nint bump(void) { return ++g; }\nint main() { int x;\n  __ESBMC_assert(__ESBMC_forall(&x, bump() == 2), \"second\"); }\n";
    assert_verdict("quantifier_no_leak_fails", fails, &[], "VERIFICATION FAILED");
}

#[test]
fn checks_inside_a_body_hold_for_every_value() {
    let source = "int main() { int a[4] = {0}; int i;\n  __ESBMC_assert(__ESBMC_forall(&i, a[i] == 0), \"zero\"); }\n";
    assert_verdict("quantifier_body_bounds", source, &[], "VERIFICATION FAILED");
    let guarded = "int main() { int a[4] = {0}; int i;\n  __ESBMC_assert(__ESBMC_forall(&i, i < 0 || i >= 4 || a[i] == 0), \"zero\"); }\n";
    assert_verdict("quantifier_body_guarded", guarded, &[], "VERIFICATION SUCCESSFUL");
}

#[test]
fn unsupported_quantifiers_are_unknown() {
    let pointer = "int main() { int *p; __ESBMC_assert(__ESBMC_forall(&p, p == p), \"p\"); }\n";
    assert_verdict("quantifier_over_pointer", pointer, &[], "VERIFICATION UNKNOWN");
    let assumption = "int f(int x) { __ESBMC_assume(x > 0); return x; }
int main() { int v; __ESBMC_assert(__ESBMC_forall(&v, f(v) > 0), \"positive\"); }\n";
    assert_verdict("quantifier_assumption_in_body", assumption, &[], "VERIFICATION UNKNOWN");
    let returns = "int g(void) { int v; int r = __ESBMC_forall(&v, ({ if (v == 3) return 7; 1; }));
  __ESBMC_assert(r == 1, \"r\"); return 0; }
int main() { __ESBMC_assert(g() == 0, \"g\"); }\n";
    assert_verdict("quantifier_body_returns", returns, &[], "VERIFICATION UNKNOWN");
    let leaves = "int main() { int v; int r = __ESBMC_forall(&v, ({ if (v == 3) goto out; 1; }));
  __ESBMC_assert(r == 1, \"r\"); return 0;
out: __ESBMC_assert(0, \"left\"); }\n";
    assert_verdict("quantifier_body_jumps_out", leaves, &[], "VERIFICATION UNKNOWN");
}

#[test]
fn the_formula_keeps_the_quantifiers() {
    if !front_end_ready("quantifier_formula") {
        return;
    }
    let dir = scratch_dir("quantifier_formula");
    let file = write(&dir, "main.c", "int main() { int v; __ESBMC_assert(__ESBMC_forall(&v, v + 1 != v), \"v\"); }\n");
    let formula = dir.join("formula.smt2");
    let out = run([file.as_os_str(), "--smt-formula".as_ref(), formula.as_os_str()]);
    assert!(out.stdout.ends_with("VERIFICATION SUCCESSFUL\n"), "{}{}", out.stdout, out.stderr);
    let text = std::fs::read_to_string(&formula).expect("the formula is written");
    assert!(text.contains("(forall (("), "{text}");
}

/// A bound too small for a loop inside a body cuts some values' paths: the
/// quantifier's value is then not used (the path goes no further, its
/// unwinding assertion fails), so a witness the cut hid is never taken for
/// missing (it was a wrong FALSE under any bound below the loop's length).
#[test]
fn a_bound_that_cuts_a_loop_in_a_body_hides_no_witness() {
    let holds = format!(
        "{COUNT}int main() {{ int vec[SIZE] = {{1, 1, 2, 3}}; int v;\n  __ESBMC_assert(__ESBMC_exists(&v, count(v, vec) == 2), \"twice\"); }}\n"
    );
    for bound in ["1", "2", "4"] {
        let out = verdict(&format!("quantifier_cut_{bound}"), &holds, &["--unwind", bound]);
        assert!(out.starts_with("VERIFICATION FAILED") && out.contains("unwinding-assertion"), "--unwind {bound}: {out}");
        let out = verdict(&format!("quantifier_cut_assumed_{bound}"), &holds, &["--unwind", bound, "--no-unwinding-assertions"]);
        assert!(out.starts_with("VERIFICATION SUCCESSFUL") && out.contains("assumed"), "--unwind {bound}: {out}");
    }
    assert_verdict("quantifier_cut_enough", &holds, &["--unwind", "5"], "VERIFICATION SUCCESSFUL");
    assert_verdict("quantifier_cut_incremental", &holds, &["--incremental-bmc"], "VERIFICATION SUCCESSFUL");
    let thrice = holds.replace("== 2", "== 3");
    assert_verdict("quantifier_cut_no_witness", &thrice, &["--incremental-bmc"], "VERIFICATION FAILED");
}
