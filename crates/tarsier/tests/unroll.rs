//! Loops with their own unwinding bound, as ESBMC reads them:
//! `#pragma unroll N` (also `GCC unroll`, `clang loop unroll_count`, and a
//! count written as a macro) and `__ESBMC_unroll(N)` bound the next loop,
//! overriding `--unwind`; `#pragma unroll` without a count unwinds it until
//! it exits. Unwinding assertions apply to that bound as to `--unwind`.

mod common;

use common::{front_end_ready, run, scratch_dir, write};

/// Writes a[0..7] of a 3-element array unless the loop is cut after 3
/// iterations: `PRAGMA` stands before the loop.
const TRUNCATED: &str = "#define ROWS 3\nint main(void) {\n  int a[3] = {0};\n  PRAGMA\n  for (unsigned j = 0; j < 8; j++)\n    a[j] = (int)(j + 1);\n  return 0;\n}\n";

/// The stdout and stderr of tarsier on `source` with `flags`.
fn verify(test: &str, source: &str, flags: &[&str]) -> (String, String) {
    let dir = scratch_dir(test);
    let file = write(&dir, "p.c", source);
    let mut args = vec![file.display().to_string()];
    args.extend(flags.iter().map(|f| f.to_string()));
    let out = run(&args);
    (out.stdout, out.stderr)
}

fn with_pragma(pragma: &str) -> String {
    TRUNCATED.replace("PRAGMA", pragma)
}

#[test]
fn an_unrolling_pragma_bounds_the_next_loop_in_every_spelling() {
    if !front_end_ready("an_unrolling_pragma_bounds_the_next_loop_in_every_spelling") {
        return;
    }
    for pragma in ["#pragma unroll 3", "#pragma unroll ROWS", "#pragma GCC unroll 3", "#pragma clang loop unroll_count(ROWS)"] {
        let (out, _) = verify("unroll-spellings", &with_pragma(pragma), &["--no-unwinding-assertions"]);
        assert!(out.ends_with("(assumed, not checked)\nVERIFICATION SUCCESSFUL\n"), "{pragma}: {out}");
    }
    let (out, _) = verify("unroll-none", &with_pragma(""), &["--no-unwinding-assertions"]);
    assert!(out.ends_with("VERIFICATION FAILED\n"), "without the pragma the loop writes past the array: {out}");
}

#[test]
fn a_loop_past_its_own_bound_violates_its_unwinding_assertion() {
    if !front_end_ready("a_loop_past_its_own_bound_violates_its_unwinding_assertion") {
        return;
    }
    let (out, _) = verify("unroll-short", &with_pragma("#pragma unroll 3"), &[]);
    assert!(out.contains("unwinding assertion: loop at main:5"), "{out}");
    assert!(out.ends_with("unwinding-assertion\nVERIFICATION FAILED\n"), "{out}");
    let enough = "int main(void) {\n  int s = 0;\n  __ESBMC_unroll(5);\n  for (int i = 0; i < 5; i++)\n    s += i;\n  return s;\n}\n";
    assert!(verify("unroll-enough", enough, &[]).0.ends_with("VERIFICATION SUCCESSFUL\n"));
    let short = enough.replace("__ESBMC_unroll(5)", "__ESBMC_unroll(2)");
    assert!(verify("unroll-intrinsic-short", &short, &[]).0.ends_with("VERIFICATION FAILED\n"));
}

#[test]
fn a_loop_bound_overrides_the_command_line_bound() {
    if !front_end_ready("a_loop_bound_overrides_the_command_line_bound") {
        return;
    }
    let sum = "int main(void) {\n  int s = 0;\n  PRAGMA\n  for (int i = 0; i < 10; i++)\n    s += i;\n  __ESBMC_assert(s == 45, \"all iterations ran\");\n  return 0;\n}\n";
    let full = sum.replace("PRAGMA", "#pragma unroll");
    assert!(verify("unroll-full", &full, &["--unwind", "3"]).0.ends_with("VERIFICATION SUCCESSFUL\n"));
    let counted = sum.replace("PRAGMA", "#pragma unroll 11");
    assert!(verify("unroll-count", &counted, &["--unwind", "3"]).0.ends_with("VERIFICATION SUCCESSFUL\n"));
    let without = sum.replace("PRAGMA", "");
    assert!(verify("unroll-without", &without, &["--unwind", "3"]).0.ends_with("VERIFICATION FAILED\n"));
}

#[test]
fn the_intrinsic_binds_to_the_loop_right_after_it_or_warns() {
    if !front_end_ready("the_intrinsic_binds_to_the_loop_right_after_it_or_warns") {
        return;
    }
    let nested = "int main(void) {\n  int s = 0;\n  for (int k = 0; k < 3; k++) {\n    __ESBMC_unroll(10);\n    for (int i = 0, j = 10; i < j; i++, j--)\n      s += i;\n  }\n  return s;\n}\n";
    let (out, _) = verify("unroll-nested", nested, &["--unwind", "4"]);
    assert!(out.ends_with("VERIFICATION SUCCESSFUL\n"), "the inner loop runs 5 times, past --unwind 4: {out}");
    let misplaced = "void g(void);\nint main(void) {\n  int s = 0;\n  __ESBMC_unroll(2);\n  g();\n  for (int i = 0; i < 5; i++)\n    s += i;\n  return s;\n}\n";
    let (out, err) = verify("unroll-misplaced", misplaced, &["--unwind", "6"]);
    assert!(out.ends_with("VERIFICATION SUCCESSFUL\n"), "{out}");
    assert!(err.contains("`__ESBMC_unroll` is not directly followed by a loop"), "{err}");
}

#[test]
fn an_unrolling_pragma_without_a_loop_or_a_count_is_an_error() {
    if !front_end_ready("an_unrolling_pragma_without_a_loop_or_a_count_is_an_error") {
        return;
    }
    let no_loop = "int main(void) {\n  int x = 0;\n#pragma unroll 4\n  x++;\n  return x;\n}\n";
    let (out, err) = verify("unroll-no-loop", no_loop, &[]);
    assert!(err.contains("p.c:3:1: error: an unrolling pragma must be followed by"), "{err}");
    assert!(!out.contains("VERIFICATION SUCCESSFUL") && !out.contains("VERIFICATION FAILED"), "{out}");
    let (_, err) = verify("unroll-bad-count", &with_pragma("#pragma unroll UNDEFINED"), &[]);
    assert!(err.contains("unrolling count `UNDEFINED` is not an integer constant"), "{err}");
}
