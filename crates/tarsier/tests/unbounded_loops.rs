//! Loops without an unwinding bound unwind until they exit. Symex sees the
//! exit through the intervals of the path guard when the counter starts
//! from an assumed range, and drops the paths of an iteration that changes
//! nothing (they never leave the loop); neither may drop a feasible path.

mod common;

use common::assert_verdict;

const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const FAILED: &str = "VERIFICATION FAILED";

#[test]
fn a_counter_from_an_assumed_range_leaves_its_loop() {
    let source = "int main(void) { int idx; __ESBMC_assume(0 <= idx);\n\
        while (idx < 5) ++idx;\n\
        __ESBMC_assert(idx == 5 || idx > 5, \"exit\"); return 0; }\n";
    assert_verdict("interval-counter", source, &[], SUCCESSFUL);
    let wrong = source.replace("idx == 5 || idx > 5", "idx == 5");
    assert_verdict("interval-counter-wrong", &wrong, &[], FAILED);
}

#[test]
fn nested_and_consecutive_counters_leave_their_loops() {
    let nested = "int main(void) { int i; __ESBMC_assume(i >= 0);\n\
        while (i < 3) { int j; __ESBMC_assume(j >= 0); while (j < 2) ++j;\n\
        __ESBMC_assert(j >= 2, \"inner\"); ++i; }\n\
        __ESBMC_assert(i >= 3, \"outer\"); return 0; }\n";
    assert_verdict("interval-nested", nested, &[], SUCCESSFUL);
    let wrong = nested.replace("j >= 2", "j == 2 && i != 1");
    assert_verdict("interval-nested-wrong", &wrong, &[], FAILED);
    let consecutive = "int main(void) { int i, j; __ESBMC_assume(i >= 0); __ESBMC_assume(j >= -3 && j <= 0);\n\
        while (i < 3) ++i; while (j < 4) j += 2;\n\
        __ESBMC_assert(i >= 3 && j >= 4 && j <= 5, \"both\"); return 0; }\n";
    assert_verdict("interval-consecutive", consecutive, &[], SUCCESSFUL);
}

#[test]
fn a_narrow_counter_without_a_lower_bound_runs_through_its_whole_range() {
    // idx starts anywhere in -128..=4: up to 133 iterations, each feasible.
    let source = "#include <assert.h>\nint main(void) { signed char idx; while (idx < 5) ++idx; assert(idx >= 5); }\n";
    assert_verdict("interval-narrow", source, &[], SUCCESSFUL);
    let wrong = source.replace("idx >= 5", "idx >= 6");
    assert_verdict("interval-narrow-wrong", &wrong, &[], FAILED);
}

#[test]
fn an_iteration_that_changes_nothing_never_reaches_the_code_after_the_loop() {
    let source = "#include <assert.h>\nint main(void) { do { } while (1); assert(0); }\n";
    assert_verdict("endless-empty-loop", source, &[], SUCCESSFUL);
    // The violation before the endless loop is still found.
    let before = "#include <assert.h>\nint main(void) { int x; assert(x != 3); while (1) { } }\n";
    assert_verdict("endless-loop-after-violation", before, &[], FAILED);
    // An exit that depends on a fresh input changes the guard: the loop
    // is not endless, and it cannot be unwound to its end; k-induction's
    // base case finds the violation after three iterations.
    let exits = "#include <assert.h>\nint nondet_int(void);\n\
        int main(void) { int n = 0; while (1) { if (nondet_int()) break; if (n < 3) n++; } assert(n != 3); }\n";
    assert_verdict("endless-loop-with-exit", exits, &[], FAILED);
}
