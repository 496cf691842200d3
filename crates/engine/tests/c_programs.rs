//! C programs through the front end, instrumentation and the BMC engine,
//! with expected verdicts; every FALSE is a replayed counterexample.

use engine::{verify, Config, Verdict};
use ir::PropertyClass;
use std::io::Write;

fn compile(source: &str) -> ir::Program {
    let dir = std::env::temp_dir().join(format!("tarsier-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("t{:x}.c", fxhash(source)));
    std::fs::File::create(&path).unwrap().write_all(source.as_bytes()).unwrap();
    let mut diags = cfront::diag::Diagnostics::default();
    let program = cfront::compile(std::slice::from_ref(&path), &cfront::Options::default(), &mut diags);
    let mut program = program.unwrap_or_else(|| panic!("does not compile: {:?}", diags.list));
    analysis::instrument(&mut program, &analysis::Checks::default());
    program
}

fn fxhash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

fn run(source: &str, config: &Config) -> Verdict {
    verify(&compile(source), config).verdict
}

#[track_caller]
fn expect_false(source: &str, config: &Config, class: PropertyClass) {
    match run(source, config) {
        Verdict::False(cex) => assert_eq!(cex.property.class, class, "{cex:?}"),
        other => panic!("expected FALSE({class:?}), got {other:?}"),
    }
}

#[track_caller]
fn expect_true(source: &str, config: &Config) {
    match run(source, config) {
        Verdict::True => {}
        other => panic!("expected TRUE, got {other:?}"),
    }
}

const NONDET: &str = "extern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_assume(int);\nextern void __assert_fail(const char*, const char*, unsigned, const char*);\n#define assert(c) ((c) ? (void)0 : __assert_fail(#c, __FILE__, __LINE__, __func__))\n";

#[test]
fn arithmetic_and_branches() {
    let safe = format!("{NONDET}int main() {{ int x = __VERIFIER_nondet_int(); int y = x > 5 ? 1 : 2; assert(y == 1 || y == 2); assert(-7 / 2 == -3 && -7 % 2 == -1); return 0; }}");
    expect_true(&safe, &Config::default());
    let unsafe_ = format!("{NONDET}int main() {{ int x = __VERIFIER_nondet_int(); if (x > 5) {{ assert(x != 1000); }} return 0; }}");
    expect_false(&unsafe_, &Config::default(), PropertyClass::UserAssertion);
}

#[test]
fn loops_with_and_without_bounds() {
    let constant = format!("{NONDET}int main() {{ int s = 0; for (int i = 0; i < 10; i++) s += i; assert(s == 45); return 0; }}");
    expect_true(&constant, &Config::default());
    let symbolic = format!("{NONDET}int main() {{ int n = __VERIFIER_nondet_int(); __VERIFIER_assume(n >= 0 && n < 5); int i = 0; while (i < n) i++; assert(i == n); return 0; }}");
    expect_true(&symbolic, &Config { unwind: Some(6), ..Config::default() });
    match run(&symbolic, &Config { unwind: Some(3), ..Config::default() }) {
        Verdict::Unknown(reason) => assert!(reason.contains("bound"), "{reason}"),
        other => panic!("expected UNKNOWN, got {other:?}"),
    }
    match run(&symbolic, &Config { unwind: Some(3), unwinding_assertions: false, ..Config::default() }) {
        Verdict::BoundedTrue { bound: Some(3) } => {}
        other => panic!("expected a bounded result, got {other:?}"),
    }
    let deep_bug = format!("{NONDET}int main() {{ int n = __VERIFIER_nondet_int(); int i = 0; while (i < n) {{ i++; assert(i != 4); }} return 0; }}");
    expect_false(&deep_bug, &Config { strategy: engine::Strategy::IncrementalBmc, ..Config::default() }, PropertyClass::UserAssertion);
    // Doubling bounds reach deep loops: a proof that needs 151 iterations,
    // a bug behind a loop of 130, and an endless loop ends at the last bound.
    let incremental = Config { strategy: engine::Strategy::IncrementalBmc, ..Config::default() };
    let long = format!("{NONDET}int main() {{ int y = 0; while (y <= 150 && __VERIFIER_nondet_int()) y++; assert(y <= 151); return 0; }}");
    expect_true(&long, &incremental);
    let behind = format!("{NONDET}int main() {{ int a[130]; for (int i = 0; i < 130; i++) a[i] = i; assert(a[0] != 0); return 0; }}");
    expect_false(&behind, &incremental, PropertyClass::UserAssertion);
    let endless = format!("{NONDET}int main() {{ int n = 0; while (__VERIFIER_nondet_int()) n++; return n; }}");
    match run(&endless, &Config { max_bound: 6, ..incremental }) {
        Verdict::Unknown(reason) => assert!(reason.contains("up to bound 6, but loops can run longer"), "{reason}"),
        other => panic!("expected UNKNOWN, got {other:?}"),
    }
}

#[test]
fn memory_safety() {
    let null = "int main() { int *p = 0; return *p; }";
    expect_false(null, &Config::default(), PropertyClass::PointerDereference);
    let bounds = format!("{NONDET}int main() {{ int a[4]; int i = __VERIFIER_nondet_int(); a[i] = 1; return 0; }}");
    expect_false(&bounds, &Config::default(), PropertyClass::ArrayBounds);
    let heap = "#include <stdlib.h>\nint main() { int *p = malloc(sizeof(int)); if (!p) return 0; *p = 1; free(p); free(p); return 0; }";
    expect_false(heap, &Config::default(), PropertyClass::InvalidFree);
    let leak = "#include <stdlib.h>\nint main() { int *p = malloc(sizeof(int)); p = 0; return 0; }";
    let leaks = Config { memory_leak_checks: true, force_malloc_success: true, ..Config::default() };
    expect_false(leak, &leaks, PropertyClass::MemoryLeak);
    let reachable = "#include <stdlib.h>\nint main() { int *p = malloc(sizeof(int)); exit(0); }";
    match run(reachable, &leaks) {
        Verdict::Unknown(reason) => assert!(reason.contains("reachable"), "{reason}"),
        other => panic!("expected UNKNOWN, got {other:?}"),
    }
    let cleanup = Config { memory_cleanup_checks: true, ..leaks.clone() };
    expect_false(reachable, &cleanup, PropertyClass::MemoryCleanup);
    let sized = |index: &str| format!("{NONDET}#include <stdlib.h>\nint main() {{ int n = __VERIFIER_nondet_int(); __VERIFIER_assume(n > 0 && n < 10); int *a = malloc(n * sizeof(int)); if (!a) return 0; a[{index}] = 1; return 0; }}");
    expect_true(&sized("n - 1"), &Config::default());
    expect_false(&sized("n"), &Config::default(), PropertyClass::PointerDereference);
    let clean = "#include <stdlib.h>\nint main() { int *p = malloc(sizeof(int)); if (p) { *p = 3; free(p); } return 0; }";
    expect_true(clean, &leaks);
}

#[test]
fn variable_length_arrays_are_sized_at_run_time() {
    let sized = |index: &str| format!("{NONDET}int main() {{ int n = __VERIFIER_nondet_int(); __VERIFIER_assume(n > 0 && n < 8); int a[n][n + 1]; a[n - 1][n] = 5; assert(sizeof(a) == n * (n + 1) * sizeof(int)); int (*row)[n + 1] = a + 1; assert((char *)row - (char *)a == (n + 1) * sizeof(int)); return a[{index}][n]; }}");
    expect_true(&sized("n - 1"), &Config::default());
    expect_false(&sized("n"), &Config::default(), PropertyClass::ArrayBounds);
    let constant = "int f(int n) { int v[n]; for (int i = 0; i < n; i++) v[i] = i; return sizeof(v) + v[n - 1]; }\nint main() { return f(10) == 49 ? 0 : 1 / 0; }";
    expect_true(constant, &Config::default());
    let empty = format!("{NONDET}int main() {{ int n = __VERIFIER_nondet_int(); __VERIFIER_assume(n >= 0 && n < 4); char c[n]; return 0; }}");
    expect_false(&empty, &Config::default(), PropertyClass::ArrayBounds);
    let negative = "int a = -1;\nint main(void) { int b[a]; return 0; }";
    expect_false(negative, &Config::default(), PropertyClass::ArrayBounds);
    // Two symbolic lengths: the index checks bound the access, so the
    // solver never relates products of lengths.
    let matrix = format!("{NONDET}int main() {{ int n = __VERIFIER_nondet_int(), m = __VERIFIER_nondet_int(); __VERIFIER_assume(n > 2 && n < 1000 && m > 2 && m < 1000); int a[n][m]; a[n - 1][m - 1] = 3; a[1][2] = 4; int (*row)[m] = &a[1]; assert((*row)[2] == 4); return a[n - 1][m - 1] - 3; }}");
    expect_true(&matrix, &Config::default());
    // No bound on the length: the array is a byte array of symbolic size.
    let large = |index: &str, range: &str| format!("{NONDET}int main() {{ int n = __VERIFIER_nondet_int(); __VERIFIER_assume({range}); char c[n]; c[n - 1] = 1; c[0] = 2; return c[{index}] == 1 ? 0 : 1 / (n - 1); }}");
    expect_true(&large("n - 1", "n > 1"), &Config::default());
    // (A small length keeps the counterexample replayable.)
    expect_false(&large("n", "n > 1 && n < 100"), &Config::default(), PropertyClass::ArrayBounds);
}

#[test]
fn large_objects_are_byte_arrays() {
    let global = |index: &str| format!("{NONDET}unsigned char big[1 << 20];\nint main() {{ int i = __VERIFIER_nondet_int(); __VERIFIER_assume(i >= 0 && i < (1 << 20)); big[i] = 7; int *word = (int *)(big + 8); *word = 0x01020304; assert(big[9] == 3); return big[{index}] - 7; }}");
    expect_true(&global("i"), &Config::default());
    expect_false(&global("i + 1"), &Config::default(), PropertyClass::ArrayBounds);
    let heap = format!("{NONDET}#include <stdlib.h>\nint main() {{ int n = __VERIFIER_nondet_int(); __VERIFIER_assume(n > 4); char *p = malloc(n); if (!p) return 0; p[n - 1] = 5; int *q = realloc(p, (size_t)n * 2); if (!q) {{ free(p); return 0; }} assert(((char *)q)[n - 1] == 5); free(q); return 0; }}");
    expect_true(&heap, &Config::default());
}

/// As glibc's: requests no allocator can meet return NULL (unless
/// allocations cannot fail: tarsier's `tests/allocation_success.rs`).
#[test]
fn allocations_larger_than_the_address_space_fail() {
    let huge = "#include <stdlib.h>\nint main() { char *p = malloc((size_t)-4); char *q = calloc((size_t)1 << 40, (size_t)1 << 40); return p == 0 && q == 0 ? 0 : 1 / 0; }";
    expect_true(huge, &Config::default());
    let symbolic = format!("{NONDET}#include <stdlib.h>\nint main() {{ size_t n = (size_t)__VERIFIER_nondet_int(); __VERIFIER_assume(n >= ((size_t)1 << 60)); char *p = malloc(n); if (p) p[0] = 1; assert(p == 0); return 0; }}");
    expect_true(&symbolic, &Config::default());
    // The program goes on after a request no allocator meets.
    let goes_on = "#include <stdlib.h>\nint main() { void *b = malloc((size_t)-4); assert(0); return b == 0; }";
    expect_false(goes_on, &Config::default(), PropertyClass::UserAssertion);
    let zero = "#include <stdlib.h>\nint main() { char *p = malloc(0); if (p) { *p = 1; } return 0; }";
    expect_false(zero, &Config::default(), PropertyClass::PointerDereference);
}

#[test]
fn realloc_moves_the_prefix_and_frees_the_old_block() {
    let grow = |check: &str| format!("{NONDET}#include <stdlib.h>\nint main() {{ int n = __VERIFIER_nondet_int(); __VERIFIER_assume(n > 1 && n < 6); int *p = malloc(2 * sizeof(int)); if (!p) return 0; p[0] = 7; p[1] = 8; int *q = realloc(p, n * sizeof(int)); if (!q) {{ free(p); return 0; }} {check}; free(q); return 0; }}");
    expect_true(&grow("assert(q[0] == 7 && q[1] == 8)"), &Config::default());
    expect_false(&grow("assert(q[n - 1] != 8)"), &Config::default(), PropertyClass::UserAssertion);
    expect_false(&grow("p[0] = 1"), &Config::default(), PropertyClass::PointerDereference);
    let failure_keeps_old = "#include <stdlib.h>\nint main() { int *p = malloc(sizeof(int)); if (!p) return 0; *p = 3; int *q = realloc(p, 2 * sizeof(int)); if (q) { free(q); return 0; } return *p - 3; }";
    expect_true(failure_keeps_old, &Config::default());
    let zero_frees = "#include <stdlib.h>\nint main() { int *p = malloc(sizeof(int)); if (!p) return 0; int *q = realloc(p, 0); free(p); return q == 0; }";
    expect_false(zero_frees, &Config::default(), PropertyClass::InvalidFree);
    let from_null = "#include <stdlib.h>\nint main() { int *p = realloc(0, sizeof(int)); if (!p) return 0; *p = 1; free(p); return 0; }";
    expect_true(from_null, &Config { memory_leak_checks: true, ..Config::default() });
    let not_heap = "#include <stdlib.h>\nint main() { int x; int *q = realloc(&x, 8); return q != 0; }";
    expect_false(not_heap, &Config::default(), PropertyClass::InvalidFree);
}

#[test]
fn pointers_structs_and_calls() {
    let source = format!(
        "{NONDET}struct point {{ int x; int y; }};\n\
         static void swap(int *a, int *b) {{ int t = *a; *a = *b; *b = t; }}\n\
         int main() {{ struct point p = {{1, 2}}; swap(&p.x, &p.y); assert(p.x == 2 && p.y == 1); \
         union {{ int i; unsigned char c[4]; }} u; u.i = 0x01020304; assert(u.c[0] == 4); return 0; }}"
    );
    expect_true(&source, &Config::default());
    let recursion = format!("{NONDET}int fact(int n) {{ return n <= 1 ? 1 : n * fact(n - 1); }}\nint main() {{ assert(fact(5) == 121); return 0; }}");
    expect_false(&recursion, &Config::default(), PropertyClass::UserAssertion);
}

#[test]
fn floats_fold_exactly_and_are_never_guessed() {
    let constant = format!("{NONDET}int main() {{ double x = 0.1; float f = 1.0f / 3; assert(x + 0.2 != 0.3 && f * 3 == 1.0f); return 0; }}");
    expect_true(&constant, &Config::default());
    let symbolic = format!("{NONDET}int main() {{ double d = __VERIFIER_nondet_int(); assert(d * 2.0 != 3.0); return 0; }}");
    match run(&symbolic, &Config::default()) {
        Verdict::Unknown(_) | Verdict::True => {}
        other => panic!("expected TRUE or UNKNOWN, got {other:?}"),
    }
}

#[test]
fn the_command_line_is_exact_up_to_its_exact_slots() {
    let unused = format!("{NONDET}int main(int argc, char **argv) {{ assert(argc >= 1); return 0; }}");
    expect_true(&unused, &Config::default());
    let first = format!("{NONDET}int main(int argc, char **argv) {{ char c = argv[0][0]; assert(argv[argc > 3 ? 3 : argc] != 0 || argc <= 3); return c; }}");
    expect_true(&first, &Config::default());
    let violated = format!("{NONDET}int main(int argc, char **argv) {{ if (argc > 1) assert(argv[1][0] != 'a'); return 0; }}");
    expect_false(&violated, &Config::default(), PropertyClass::UserAssertion);
    // Arguments may be as long as Linux allows, and a counterexample
    // replays with the long argument it chose.
    let long = format!("{NONDET}int main(int argc, char **argv) {{ if (argc > 1 && __ESBMC_get_object_size(argv[1]) > 100000) assert(argv[1][99999] != 'q'); return 0; }}");
    expect_false(&long, &Config::default(), PropertyClass::UserAssertion);
    let bounded = format!("{NONDET}int main(int argc, char **argv) {{ assert(__ESBMC_get_object_size(argv[0]) <= 131072); return 0; }}");
    expect_true(&bounded, &Config::default());
    let past_the_exact_slots = format!("{NONDET}int main(int argc, char **argv) {{ if (argc > {}) return argv[{}] == 0; return 0; }}", symex::EXACT_ARGC + 2, symex::EXACT_ARGC + 1);
    match run(&past_the_exact_slots, &Config::default()) {
        Verdict::Unknown(reason) => assert!(reason.contains("command line"), "{reason}"),
        other => panic!("expected UNKNOWN, got {other:?}"),
    }
}

#[test]
fn violations_through_unmodelled_library_functions_are_not_trusted() {
    // A C library function has one behaviour, which the model does not know.
    let library = format!("{NONDET}extern int getloadavg(double *loadavg, int nelem);\nint main() {{ double l[3]; assert(getloadavg(l, 3) != 5); return 0; }}");
    match run(&library, &Config::default()) {
        Verdict::Unknown(reason) => assert!(reason.contains("`getloadavg`"), "{reason}"),
        other => panic!("expected UNKNOWN, got {other:?}"),
    }
    // The program's own body-less function stands for any implementation,
    // among them one that returns 5 and does nothing else.
    let own = format!("{NONDET}extern int external(int *p);\nint main() {{ int x = 0; assert(external(&x) != 5); return 0; }}");
    expect_false(&own, &Config::default(), PropertyClass::UserAssertion);
    // It may write anything into the objects its data-pointer arguments
    // point into, and nothing else: the replay writes the same bytes.
    let written = format!("{NONDET}extern void touch(int *p);\nint main() {{ int x = 0; touch(&x); assert(x == 0); return 0; }}");
    expect_false(&written, &Config::default(), PropertyClass::UserAssertion);
    let untouched = format!("{NONDET}extern void touch(int *p);\nint main() {{ int x = 0, y = 1; touch(&x); assert(y == 1); return 0; }}");
    expect_true(&untouched, &Config::default());
    // A callback it might call, or a pointer it might follow, is not modelled.
    let callback = format!("{NONDET}void h(int v) {{ assert(v != 3); }}\nextern void install(void (*f)(int));\nint main() {{ install(h); return 0; }}");
    match run(&callback, &Config::default()) {
        Verdict::Unknown(reason) => assert!(reason.contains("`install`"), "{reason}"),
        other => panic!("expected UNKNOWN, got {other:?}"),
    }
    let followed = format!("{NONDET}struct s {{ int *q; }};\nextern void follow(struct s *p);\nint main() {{ int y = 1; struct s v = {{ &y }}; follow(&v); assert(y == 1); return 0; }}");
    match run(&followed, &Config::default()) {
        Verdict::Unknown(reason) => assert!(reason.contains("`follow`"), "{reason}"),
        other => panic!("expected UNKNOWN, got {other:?}"),
    }
}

#[test]
fn incremental_bmc_keeps_one_solver_across_bounds() {
    // Bounds 1, 2, ..., 256 prove it. Each bound's symex recycles the
    // earlier bounds' variables, so the shared solver holds about what the
    // last bound alone needs (fresh solvers would build twice that), and
    // it answered every bound's queries.
    let long = format!("{NONDET}int main() {{ int y = 0; while (y <= 150 && __VERIFIER_nondet_int()) y++; assert(y <= 151); return 0; }}");
    let program = compile(&long);
    let incremental = verify(&program, &Config { strategy: engine::Strategy::IncrementalBmc, ..Config::default() });
    assert!(matches!(incremental.verdict, Verdict::True), "{:?}", incremental.verdict);
    let last_bound = verify(&program, &Config { unwind: Some(256), ..Config::default() });
    assert!(matches!(last_bound.verdict, Verdict::True), "{:?}", last_bound.verdict);
    let (shared, alone) = (&incremental.stats.solver, &last_bound.stats.solver);
    assert!(shared.aig_ands * 4 < alone.aig_ands * 5, "one solver for all bounds: {shared}; the last bound alone: {alone}");
    assert!(shared.solves > u64::from(incremental.stats.solver_calls), "{shared}");
}
