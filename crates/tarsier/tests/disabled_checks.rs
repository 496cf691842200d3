//! Switching a check off stops reporting it and never assumes its
//! condition: for every check flag, a program whose undefined behaviour is
//! followed by a reachable failing `assert` is FAILED with the check on
//! (the check's own class, which comes first on the path) and never
//! SUCCESSFUL with it off (FAILED through the assertion, or UNKNOWN where
//! what follows the undefined behaviour cannot be modelled); its twin,
//! which avoids the undefined behaviour, is SUCCESSFUL either way. Where
//! gcc's sanitizers see the undefined behaviour, the native run confirms
//! it (and the twin's clean run). A counterexample through an access
//! whose check is off, which the replay refutes, gives way to another
//! that stays in bounds when there is one (and UNKNOWN when there is not).

mod common;
use common::table::{assert_twins, check_programs, Check, Program, FAILS, HOLDS, UNKNOWN};
use common::*;

const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const FAILED: &str = "VERIFICATION FAILED";

/// One kind of undefined behaviour (or checked event) and its check.
struct Case {
    name: &'static str,
    /// The flags that switch the check on, beyond the defaults.
    on: &'static [&'static str],
    /// The flags that switch it off.
    off: &'static [&'static str],
    /// The class the check reports.
    class: &'static str,
    /// Statements with the undefined behaviour (`n` is 0).
    bad: &'static str,
    /// The same statements without it.
    good: &'static str,
    /// Whether gcc's sanitizers report the undefined behaviour.
    sanitized: bool,
}

const NO_POINTER: &[&str] = &["--no-pointer-check"];
const NO_BOUNDS: &[&str] = &["--no-bounds-check"];
const NO_DIV: &[&str] = &["--no-div-by-zero-check"];
const OVERFLOW: &[&str] = &["--overflow-check"];

const CASES: &[Case] = &[
    Case { name: "index_read", on: &[], off: NO_BOUNDS, class: "array-bounds",
        bad: "int a[2] = {1, 2}; int x = a[n + 2]; (void)x;",
        good: "int a[2] = {1, 2}; int x = a[n + 1]; (void)x;", sanitized: true },
    Case { name: "index_write", on: &[], off: NO_BOUNDS, class: "array-bounds",
        bad: "int a[2]; a[n + 2] = 1;", good: "int a[2]; a[n + 1] = 1;", sanitized: true },
    Case { name: "vla_length", on: &[], off: NO_BOUNDS, class: "array-bounds",
        bad: "int a[n]; int x = sizeof a; (void)x;", good: "int a[n + 1]; int x = sizeof a; (void)x;", sanitized: true },
    Case { name: "zero_vla_length", on: &[], off: &["--no-vla-size-check"], class: "array-bounds",
        bad: "int a[n]; int x = sizeof a; (void)x;", good: "int a[n + 2]; int x = sizeof a; (void)x;", sanitized: true },
    Case { name: "misaligned_write", on: &[], off: &["--no-align-check"], class: "pointer-dereference",
        bad: "long long b[2] = {0}; int *p = (int *)((char *)b + 1 + n); *p = 7;",
        good: "long long b[2] = {0}; int *p = (int *)((char *)b + 4 + n); *p = 7;", sanitized: true },
    Case { name: "pointer_read_past_end", on: &[], off: NO_POINTER, class: "pointer-dereference",
        bad: "int a[2] = {1, 2}; int *p = a; int x = p[n + 2]; (void)x;",
        good: "int a[2] = {1, 2}; int *p = a; int x = p[n + 1]; (void)x;", sanitized: true },
    Case { name: "null_read", on: &[], off: NO_POINTER, class: "pointer-dereference",
        bad: "int *p = n ? &n : 0; int x = *p; (void)x;", good: "int *p = n ? 0 : &n; int x = *p; (void)x;", sanitized: true },
    Case { name: "null_write", on: &[], off: NO_POINTER, class: "pointer-dereference",
        bad: "int *p = n ? &n : 0; *p = 1;", good: "int *p = n ? 0 : &n; *p = 1;", sanitized: true },
    Case { name: "freed_read", on: &[], off: NO_POINTER, class: "pointer-dereference",
        bad: "int *p = malloc(sizeof *p); if (!p) return 0; *p = 1; free(p); int x = p[n]; (void)x;",
        good: "int *p = malloc(sizeof *p); if (!p) return 0; *p = 1; int x = p[n]; free(p); (void)x;", sanitized: true },
    Case { name: "dead_local_read", on: &[], off: NO_POINTER, class: "pointer-dereference",
        bad: "int *p; { int b = 1; p = &b; } int x = p[n]; (void)x;",
        good: "int *p; int b = 1; { p = &b; } int x = p[n]; (void)x;", sanitized: true },
    Case { name: "double_free", on: &[], off: NO_POINTER, class: "invalid-free",
        bad: "int *p = malloc(sizeof *p); free(p); free(p + n);", good: "int *p = malloc(sizeof *p); free(p + n);", sanitized: true },
    Case { name: "free_of_a_local", on: &[], off: NO_POINTER, class: "invalid-free",
        bad: "int a; int *p = &a; free(p + n);", good: "int a; int *p = n ? &a : 0; free(p + n);", sanitized: true },
    Case { name: "free_inside_a_block", on: &[], off: NO_POINTER, class: "invalid-free",
        bad: "char *p = malloc(4); if (!p) return 0; free(p + 1 + n);", good: "char *p = malloc(4); free(p + n);", sanitized: true },
    Case { name: "null_function_pointer", on: &[], off: NO_POINTER, class: "pointer-dereference",
        bad: "void (*f)(void) = (void (*)(void))(long)n; f();",
        good: "void (*f)(void) = (void (*)(void))(long)n; if (f) f();", sanitized: true },
    Case { name: "uninitialised_function_pointer", on: &[], off: NO_POINTER, class: "pointer-dereference",
        bad: "void (*f)(void); f();", good: "void (*f)(void) = n ? abort : 0; if (f) f();", sanitized: false },
    Case { name: "string_literal_write", on: &[], off: NO_POINTER, class: "pointer-dereference",
        bad: "char *s = \"ab\"; s[n] = 'x';", good: "char s[] = \"ab\"; s[n] = 'x';", sanitized: true },
    Case { name: "memcpy_past_end", on: &[], off: NO_POINTER, class: "pointer-dereference",
        bad: "char a[2], b[4] = {0}; memcpy(a, b, n + 4); (void)a;", good: "char a[2], b[4] = {0}; memcpy(a, b, n + 2); (void)a;", sanitized: true },
    Case { name: "memset_past_end", on: &[], off: NO_POINTER, class: "pointer-dereference",
        bad: "char a[2]; memset(a, 0, n + 3); (void)a;", good: "char a[2]; memset(a, 0, n + 2); (void)a;", sanitized: true },
    Case { name: "pointer_order", on: &[], off: NO_POINTER, class: "pointer-relation",
        bad: "int x, y; int *p = n ? &y : &x; int r = p < &y; (void)r;", good: "int x, y; int *p = n ? &x : &y; int r = p < &y; (void)r;", sanitized: true },
    Case { name: "pointer_difference", on: &[], off: &["--no-pointer-relation-check"], class: "pointer-relation",
        bad: "int a[2], b[2]; long d = (n ? a : b) - a; (void)d;", good: "int a[2], b[2]; long d = (n ? b : a) - a; (void)d;", sanitized: true },
    Case { name: "division_by_zero", on: &[], off: NO_DIV, class: "division-by-zero",
        bad: "int x = 5 / n; (void)x;", good: "int x = 5 / (n + 1); (void)x;", sanitized: true },
    Case { name: "remainder_by_zero", on: &[], off: NO_DIV, class: "division-by-zero",
        bad: "int x = 5 % n; (void)x;", good: "int x = 5 % (n + 1); (void)x;", sanitized: true },
    Case { name: "signed_addition", on: OVERFLOW, off: &[], class: "signed-overflow",
        bad: "int x = INT_MAX - n; x = x + 1; (void)x;", good: "int x = INT_MAX - n; x = x - 1; (void)x;", sanitized: true },
    Case { name: "signed_negation", on: OVERFLOW, off: &[], class: "signed-overflow",
        bad: "int m = INT_MIN + n; int x = -m; (void)x;", good: "int m = INT_MIN + n + 1; int x = -m; (void)x;", sanitized: true },
    Case { name: "signed_division", on: OVERFLOW, off: &[], class: "signed-overflow",
        bad: "int m = INT_MIN + n; int x = m / (n - 1); (void)x;", good: "int m = INT_MIN + n; int x = m / (n + 1); (void)x;", sanitized: true },
    Case { name: "unsigned_wrap", on: &["--unsigned-overflow-check"], off: &[], class: "unsigned-overflow",
        bad: "unsigned x = UINT_MAX - n; x = x + 1u; (void)x;", good: "unsigned x = UINT_MAX - n; x = x - 1u; (void)x;", sanitized: false },
    Case { name: "shift_too_far", on: &["--ub-shift-check"], off: &[], class: "shift",
        bad: "int x = 1 << (n + 40); (void)x;", good: "int x = 1 << (n + 4); (void)x;", sanitized: true },
    Case { name: "negative_shift", on: &["--ub-shift-check"], off: &[], class: "shift",
        bad: "int x = 1 >> (n - 1); (void)x;", good: "int x = 1 >> (n + 1); (void)x;", sanitized: true },
    Case { name: "negative_left_shift", on: &["--ub-shift-check"], off: &[], class: "shift",
        bad: "int x = (n - 1) << 1; (void)x;", good: "int x = (n + 1) << 1; (void)x;", sanitized: true },
    Case { name: "clz_of_zero", on: &[], off: &["--no-clz-zero-check"], class: "bit-count",
        bad: "unsigned u = n; int x = __builtin_clz(u); (void)x;", good: "unsigned u = n + 1; int x = __builtin_clz(u); (void)x;", sanitized: true },
    Case { name: "nan", on: &["--nan-check"], off: &[], class: "nan",
        bad: "double z = n; double q = z / z; (void)q;", good: "double z = n + 1; double q = z / z; (void)q;", sanitized: false },
];

fn program(body: &str, then_fail: bool) -> String {
    let fail = if then_fail { "  assert(0);\n" } else { "" };
    format!(
        "#include <assert.h>\n#include <limits.h>\n#include <stdlib.h>\n#include <string.h>\n\
         extern int __VERIFIER_nondet_int(void);\n\
         int main(void) {{\n  int n = __VERIFIER_nondet_int();\n  if (n != 0) return 0;\n  {body}\n{fail}  return 0;\n}}\n"
    )
}

/// What is wrong with `case`'s verdicts, if anything.
fn judge(case: &Case) -> Vec<String> {
    let mut wrong = Vec::new();
    let bad = program(case.bad, true);
    let good = program(case.good, false);
    let on = verdict(&format!("checks-{}-on", case.name), &bad, case.on);
    let class_line = on.lines().rev().nth(1).map(str::trim);
    if !on.starts_with(FAILED) || class_line != Some(case.class) {
        wrong.push(format!("{}: with the check on expected FAILED ({}), got {on}", case.name, case.class));
    }
    let off = verdict(&format!("checks-{}-off", case.name), &bad, case.off);
    if off.starts_with(SUCCESSFUL) {
        wrong.push(format!("{}: with the check off the failing assert after the UB is lost: {off}", case.name));
    }
    for (mode, flags) in [("on", case.on), ("off", case.off)] {
        let answer = verdict(&format!("checks-{}-good-{mode}", case.name), &good, flags);
        if !answer.starts_with(SUCCESSFUL) {
            wrong.push(format!("{}: the twin without UB, check {mode}: expected SUCCESSFUL, got {answer}", case.name));
        }
    }
    wrong
}

#[test]
fn a_check_switched_off_never_hides_what_follows_its_violation() {
    if !front_end_ready("disabled_checks") {
        return;
    }
    let wrong: Vec<String> = xtask::runner::parallel_map(CASES, 2, judge, |_| {}).into_iter().flatten().collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// The native runs: gcc's sanitizers see each sanitized case's undefined
/// behaviour and none in its twin.
#[test]
fn the_cases_have_the_undefined_behaviour_gcc_sees() {
    let dir = scratch_dir("disabled_checks_native");
    let nondet = "int __VERIFIER_nondet_int(void) { return 0; }\n";
    for case in CASES.iter().filter(|c| c.sanitized) {
        let Some(bad) = native_run(&dir, case.name, &format!("{nondet}{}", program(case.bad, false)), SANITIZERS) else {
            println!("SKIP native runs: gcc with sanitizers is not available");
            return;
        };
        assert!(sanitizer_reported(&bad), "{}: gcc's sanitizers see no undefined behaviour:\n{}", case.name, bad.stderr);
        let twin = native_run(&dir, &format!("{}_good", case.name), &format!("{nondet}{}", program(case.good, false)), SANITIZERS)
            .expect("gcc ran a moment ago");
        assert!(!sanitizer_reported(&twin) && exit_code(&twin) == Some(0), "{}: the twin is not clean:\n{}", case.name, twin.stderr);
    }
}

const INDETERMINATE: &str = "the assertion reads indeterminate values";
const INPUT: &str = "the index is an input";

/// Accesses whose check is off: a violation that needs one to leave its
/// object is UNKNOWN, one with a counterexample inside them FAILED.
const UNCHECKED: &[Program] = &[Program {
    what: "a violation found through an unchecked access is searched again inside the objects",
    test: "unchecked-access",
    text: r#"
        #include <assert.h>
        extern unsigned __VERIFIER_nondet_uint(void);
        struct saved { unsigned long index; int byte; };
        static void save(const int *a, unsigned long n, struct saved *s) { if (n > 1) { s->index = n - 1; s->byte = a[s->index]; } }
        int main(void) {
          int a[4] = {5, 6, 7, 8};
          const int *p = a;
          struct saved s;
          LAST;
          return 0;
        }
    "#,
    checks: &[
        // `save` stores nothing for one element: the index is indeterminate, 0 in some run.
        Check::verdict("save(a, 1, &s); assert(p[s.index] == s.byte)", &["--no-pointer-check"], FAILS, INDETERMINATE),
        Check::verdict("save(a, 1, &s); assert(a[s.index] == s.byte)", &["--no-bounds-check"], FAILS, INDETERMINATE),
        Check::holds("s.index = 0; s.byte = 5; save(a, 1, &s); assert(p[s.index] == s.byte)", &["--no-pointer-check"]),
        Check::holds("s.index = 0; s.byte = 5; save(a, 1, &s); assert(a[s.index] == s.byte)", &["--no-bounds-check"]),
        // Only an index past the end can fail it: no counterexample stands.
        Check::verdict("save(a, 1, &s); assert(p[s.index] < 9)", &["--no-pointer-check"], UNKNOWN, INDETERMINATE),
        Check::verdict("save(a, 1, &s); assert(a[s.index] < 9)", &["--no-bounds-check"], UNKNOWN, INDETERMINATE),
        Check::verdict("unsigned i = __VERIFIER_nondet_uint(); assert(p[i] != 7 && p[i] != 70)", &["--no-pointer-check"], FAILS, INPUT),
        Check::verdict("unsigned i = __VERIFIER_nondet_uint(); assert(a[i] != 7 && a[i] != 70)", &["--no-bounds-check"], FAILS, INPUT),
        Check::verdict("unsigned i = __VERIFIER_nondet_uint(); assert(i >= 4 || a[i] != 70)", &["--no-bounds-check"], HOLDS, INPUT),
    ],
}];

#[test]
fn a_refuted_counterexample_through_an_unchecked_access_gives_way_to_one_inside() {
    check_programs(UNCHECKED);
}

#[test]
fn every_unchecked_access_program_that_holds_has_a_false_twin() {
    assert_twins(UNCHECKED);
}
