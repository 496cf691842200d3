//! `--termination` and SV-COMP's `F end`: programs whose every run ends
//! are proved (every loop exits within a bound, or has a certified ranking
//! function), programs with a run that
//! never ends are refuted by a replayed lasso (a loop returns to a state it
//! had), and the rest stay UNKNOWN, never a wrong answer.

mod common;

use common::{front_end_ready, run, scratch_dir, write};

const FAILED: &str = "VERIFICATION FAILED";
const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const UNKNOWN: &str = "VERIFICATION UNKNOWN";

const PRELUDE: &str = "extern int __VERIFIER_nondet_int(void);\n#include <assert.h>\n";

/// (name, program, the verdict it must get).
const CASES: &[(&str, &str, &str)] = &[
    ("counted-loop", "int main(void) { int x = 0; while (x < 10) x++; return 0; }\n", SUCCESSFUL),
    (
        "nested-bounded",
        "int main(void) { int s = 0; for (int i = 0; i < 4; i++) for (int j = i; j < 4; j++) s += j; return s; }\n",
        SUCCESSFUL,
    ),
    ("spin-after-stem", "int main(void) { int y = __VERIFIER_nondet_int(); if (y > 3) while (1); return 0; }\n", FAILED),
    ("stuck-when-positive", "int main(void) { int x = __VERIFIER_nondet_int(); while (x > 0) { x = x; } return 0; }\n", FAILED),
    (
        "cycle-of-two",
        "int main(void) { int x = __VERIFIER_nondet_int(); if (x < 0) return 0; while (x >= 0) { x = 1 - x; } return 0; }\n",
        FAILED,
    ),
    (
        "wraps-around-forever",
        "int main(void) { unsigned char c = 250; while (c != 7) { c = c + 64; } return 0; }\n",
        FAILED,
    ),
    ("wrap-around-ends", "int main(void) { unsigned char c = 250; while (c != 122) { c = c + 64; } return 0; }\n", SUCCESSFUL),
    // A failed assertion aborts: the run ends.
    ("assertion-aborts", "int main(void) { int z = 0; while (1) { assert(z); } return 0; }\n", SUCCESSFUL),
    // A division by zero traps; the loop never comes back.
    ("division-traps", "int main(void) { int z = 0; while (1) { int y = 1 / z; } return 0; }\n", SUCCESSFUL),
    // Signed overflow is undefined and ends the run: no lasso rests on a
    // wrapped value, and within 4 turns every run has overflowed or left.
    ("signed-wrap", "int main(void) { int i = __VERIFIER_nondet_int(); while (i != 5) { i = i + 1073741824; } return 0; }\n", SUCCESSFUL),
    // A null dereference is no run that repeats: the replay refuses it.
    ("null-dereference", "int main(void) { int *p = 0; while (1) { int y = *p; } return 0; }\n", UNKNOWN),
    // Terminates past every bound: a ranking function (x) proves it.
    ("counts-down-unbounded", "int main(void) { int x = __VERIFIER_nondet_int(); while (x > 0) x--; return 0; }\n", SUCCESSFUL),
    // x never increases, and y decreases whenever x stays: (x, y).
    (
        "lexicographic",
        "int main(void) { int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();\n\
         while (x > 0 && y > 0) { if (__VERIFIER_nondet_int()) { x--; y = __VERIFIER_nondet_int(); } else y--; } return 0; }\n",
        SUCCESSFUL,
    ),
    (
        "lexicographic-counter",
        "int main(void) { unsigned i = __VERIFIER_nondet_int(), j = 0; while (i > 0) { if (j < 10) j++; else { j = 0; i--; } } return 0; }\n",
        SUCCESSFUL,
    ),
    // Each turn decrements one of three counters, none the same each time:
    // only their sum decreases on every turn.
    (
        "sum-of-counters",
        "int main(void) { unsigned a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int(), c = __VERIFIER_nondet_int();\n\
         while (a > 0 && b > 0 && c > 0) { if (__VERIFIER_nondet_int()) a--; else if (__VERIFIER_nondet_int()) b--; else c--; } return 0; }\n",
        SUCCESSFUL,
    ),
    // Each turn decrements one counter but increments the other: the sum
    // stays, and (2, 2) -> (1, 3) -> (2, 2) is a lasso.
    (
        "sum-of-counters-swaps",
        "int main(void) { unsigned a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();\n\
         while (a > 0 && b > 0) { if (__VERIFIER_nondet_int()) { a--; b++; } else { b--; a++; } } return 0; }\n",
        FAILED,
    ),
    // Ends only because i wraps past zero: (unsigned)(i - n) decreases.
    (
        "ends-by-wrap-around",
        "int main(void) { unsigned i = __VERIFIER_nondet_int(), n = __VERIFIER_nondet_int(); while (i < n) i--; return 0; }\n",
        SUCCESSFUL,
    ),
    // 256 - i would decrease over the integers, but i wraps: 250, 58, 122, 186, 250.
    ("spins-by-wrap-around", "int main(void) { for (unsigned char i = 250; i < 256; i += 64) { } return 0; }\n", FAILED),
    (
        "nested-unbounded",
        "int main(void) { int n = __VERIFIER_nondet_int(); for (int i = 0; i < n; i++) for (int j = i; j < n; j++) { } return 0; }\n",
        SUCCESSFUL,
    ),
    // x - y decreases only with the invariant y >= 1.
    (
        "needs-invariant",
        "int main(void) { int x = __VERIFIER_nondet_int(), y = 1; while (x > 0) { x = x - y; if (y < 10) y++; } return 0; }\n",
        SUCCESSFUL,
    ),
    // The inner loop never moves i: a lasso, and no ranking function may be certified.
    (
        "nested-stuck",
        "int main(void) { int i = 0, n = __VERIFIER_nondet_int(); while (i < n) { int j = 0; while (j < 3) j++; if (j > 5) i++; } return 0; }\n",
        FAILED,
    ),
    // ESBMC and 2LS let signed arithmetic wrap: x odd never reaches 0 (2LS's
    // nonterm1), so the ranking -x, which overflow would end, must not prove it.
    (
        "wraps-under-termination-flag",
        "int main(void) { int x = __VERIFIER_nondet_int(); if (x > 0) while (x != 0) x = x + 2; return 0; }\n",
        UNKNOWN,
    ),
    // Terminates, but recursion has no ranking function yet and n is unbounded.
    ("recursion-unbounded", "int f(int n) { return n <= 0 ? 0 : f(n - 1); }\nint main(void) { return f(__VERIFIER_nondet_int()); }\n", UNKNOWN),
    // `{ goto out; } else {}` leaves an unreachable jump into the loop,
    // which enters nothing: the loop is natural, its lasso is found.
    (
        "dead-jump-into-loop",
        "int main(void) { int c, l; while (1) { c = __VERIFIER_nondet_int(); if (c == 0) { goto out; } else {} l = c; } out: return 0; }\n",
        FAILED,
    ),
    (
        "dead-jump-into-counted-loop",
        "int main(void) { int n = __VERIFIER_nondet_int(); while (1) { if (n <= 0) { goto out; } else {} n--; } out: return 0; }\n",
        SUCCESSFUL,
    ),
    // f(n) calls f(n) while the first call is still active: a recursive lasso.
    ("recursion-no-base-case", "int f(int n) { if (n <= 0) return 0; return f(n) + 1; }\nint main(void) { return f(__VERIFIER_nondet_int()); }\n", FAILED),
    // The repeated call comes after a sibling returned, inside the same active call.
    (
        "recursion-repeats-after-sibling",
        "int f(int n) { if (n <= 0) return 0; f(n - 1); return f(n); }\nint main(void) { int n = __VERIFIER_nondet_int(); if (n < 0 || n > 3) return 0; return f(n); }\n",
        FAILED,
    ),
    // f(x) calls g(x + 1), which calls f(x) (SV-COMP's MutualRecursion_1a).
    (
        "mutual-recursion-repeats",
        "int g(int x);\nint f(int x) { if (x <= 0) return 0; return g(x) + g(x + 1); }\n\
         int g(int x) { if (x <= 0) return 0; return f(x - 1) + f(x - 2); }\nint main(void) { return g(__VERIFIER_nondet_int()); }\n",
        FAILED,
    ),
    // Equal states in calls that are not nested (siblings, two calls from
    // main) are no lasso: every run ends.
    (
        "recursion-equal-siblings",
        "int f(int n) { return n <= 0 ? 0 : f(n - 1) + f(n - 1); }\nint main(void) { int n = __VERIFIER_nondet_int(); if (n < 0 || n > 3) return 0; return f(n) + f(n); }\n",
        SUCCESSFUL,
    ),
    // The nested call's state is behind a pointer: not compared, no lasso claimed.
    ("recursion-through-pointer", "int f(int *p) { if (*p > 0) return f(p); return 0; }\nint main(void) { int n = __VERIFIER_nondet_int(); return f(&n); }\n", UNKNOWN),
    // g grows on every call: the state never repeats, no lasso claimed.
    ("recursion-growing-global", "int g;\nint f(int n) { if (n <= 0) return 0; g++; return f(n); }\nint main(void) { return f(__VERIFIER_nondet_int()); }\n", UNKNOWN),
    // The library's clock is an input the model does not keep monotonic:
    // no lasso may rest on it.
    ("clock-loop", "#include <time.h>\nint main(void) { clock_t t = clock(); while (clock() < t + 5); return 0; }\n", UNKNOWN),
    // The state through a pointer is not compared: no lasso claimed.
    ("through-pointer", "int main(void) { int x = 1; int *p = &x; while (*p) { *p = 1; } return 0; }\n", UNKNOWN),
];

#[test]
fn termination_verdicts() {
    if !front_end_ready("termination_verdicts") {
        return;
    }
    let dir = scratch_dir("termination");
    for (name, source, expected) in CASES {
        let file = write(&dir, &format!("{name}.c"), &format!("{PRELUDE}{source}"));
        let out = run([file.to_str().unwrap(), "--termination", "--max-k-step", "64"]);
        let last = out.stdout.lines().last().unwrap_or("");
        assert_eq!(last, *expected, "{name}:\n{}\n{}", out.stdout, out.stderr);
    }
}

#[test]
fn termination_property_file_gives_svcomp_results() {
    if !front_end_ready("termination_property_file_gives_svcomp_results") {
        return;
    }
    let dir = scratch_dir("termination-prp");
    let prp = write(&dir, "termination.prp", "CHECK( init(main()), LTL(F end) )\n");
    let spin = write(&dir, "spin.c", "int main(void) { int i = 0; i++; for (;;) ; }\n");
    let out = run([spin.to_str().unwrap(), "--property", prp.to_str().unwrap()]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[lines.len() - 2..], ["FALSE(termination)", FAILED], "{}", out.stdout);
    let ends = write(&dir, "ends.c", "int main(void) { for (int i = 0; i < 3; i++) ; return 0; }\n");
    let out = run([ends.to_str().unwrap(), "--property", prp.to_str().unwrap()]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[lines.len() - 2..], ["TRUE", SUCCESSFUL], "{}", out.stdout);
    // A ranking function and no signed overflow on any run: TRUE.
    let source = format!("{PRELUDE}int main(void) {{ int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int(); if (y < 1 || y > 100) return 0; while (x > 0) x = x - y; return 0; }}\n");
    let down = write(&dir, "down.c", &source);
    let out = run([down.to_str().unwrap(), "--property", prp.to_str().unwrap()]);
    assert!(out.stdout.contains("ranking function") && out.stdout.ends_with(&format!("TRUE\n{SUCCESSFUL}\n")), "{}", out.stdout);
    // SV-COMP reads integers mathematically: x doubles for ever, and only
    // the overflow (undefined) ends it in 32 bits. y is a ranking function
    // of the runs without overflow, which is no TRUE.
    for (name, body) in [("doubles", "if (x < -65535 || x > 65535 || y < -65535 || y > 65535) return 0; if (x + y > 1) while (x > 0) { x = x + x + y; y = y - 1; }"), ("grows", "while (x > 0) { x = x + y; y = y - 1; }")] {
        let source = format!("{PRELUDE}int main(void) {{ int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int(); {body} return 0; }}\n");
        let file = write(&dir, &format!("{name}.c"), &source);
        let out = run([file.to_str().unwrap(), "--property", prp.to_str().unwrap(), "--timeout", "20"]);
        assert!(out.stdout.contains("signed overflow") && out.stdout.ends_with("UNKNOWN\nVERIFICATION UNKNOWN\n"), "{name}: {}", out.stdout);
    }
}

/// ESBMC's `--termination`: an error function without a body returns (so
/// the loop spins on), an `assert` aborts (so the run ends).
#[test]
fn termination_flag_error_function_returns() {
    if !front_end_ready("termination_flag_error_function_returns") {
        return;
    }
    let dir = scratch_dir("termination-flag");
    let cases = [
        ("error-returns", "extern void __VERIFIER_error(void);\nint a; int main(void) { while (1) { if (a < 3) a++; else __VERIFIER_error(); } }\n", FAILED),
        ("assert-aborts", "#include <assert.h>\nint main(void) { while (1) assert(0); return 0; }\n", SUCCESSFUL),
    ];
    for (name, source, expected) in cases {
        let file = write(&dir, &format!("{name}.c"), source);
        let out = run([file.to_str().unwrap(), "--termination", "--max-k-step", "64"]);
        assert_eq!(out.stdout.lines().last().unwrap_or(""), expected, "{name}:\n{}\n{}", out.stdout, out.stderr);
    }
}

/// `--json` carries each loop's ranking function with its form.
#[test]
fn termination_json_carries_ranking_functions() {
    if !front_end_ready("termination_json_carries_ranking_functions") {
        return;
    }
    let dir = scratch_dir("termination-json");
    let source = format!("{PRELUDE}int main(void) {{ int x = __VERIFIER_nondet_int(), n = __VERIFIER_nondet_int(); while (x < n) x++; return 0; }}\n");
    let file = write(&dir, "up.c", &source);
    let out = run([file.to_str().unwrap(), "--termination", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("--json prints JSON");
    assert_eq!(doc["proof"]["method"], "ranking-functions", "{}", out.stdout);
    let ranking = &doc["proof"]["ranking_functions"][0];
    assert_eq!(ranking["form"], "linear", "{}", out.stdout);
    assert_eq!(ranking["ranking_function"][0], "n - x", "{}", out.stdout);
}
