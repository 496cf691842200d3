//! CBMC's own syntax end to end, each construct with a program whose
//! property holds and a twin whose property fails: the quantifiers
//! `__CPROVER_forall { int i; body }` and `__CPROVER_exists`, ACSL's
//! binders and operator symbols, the connectives `==>`, `<==>` and `^^`
//! (with CBMC's precedence and short-circuit), CBMC's built-in types and
//! constants (`__CPROVER_size_t`, `__CPROVER_ssize_t`,
//! `__CPROVER_max_malloc_size`), the allocator `__CPROVER_allocate`,
//! `__CPROVER_havoc_slice`, the memory fence `__CPROVER_fence`, and
//! malformed or unsupported uses, which are errors with a location.

mod common;
use common::*;

#[test]
fn a_universal_over_an_array_is_proved_or_refuted() {
    let program = |bound: &str| {
        format!(
            "int main() {{ int a[4] = {{1, 2, 3, 4}};
  __CPROVER_assert(__CPROVER_forall {{ int i; (0 <= i && i < 4) ==> a[i] {bound} }}, \"bounded\"); }}\n"
        )
    };
    assert_verdict("cbmc_forall_holds", &program("<= 4"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("cbmc_forall_fails", &program("< 4"), &[], "VERIFICATION FAILED");
}

#[test]
fn an_existential_needs_a_witness() {
    let program = |value: &str| {
        format!(
            "int main() {{ int a[4] = {{1, 2, 3, 4}};
  __CPROVER_assert(__CPROVER_exists {{ unsigned i; i < 4 && a[i] == {value} }}, \"found\"); }}\n"
        )
    };
    assert_verdict("cbmc_exists_holds", &program("3"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("cbmc_exists_fails", &program("5"), &[], "VERIFICATION FAILED");
}

#[test]
fn an_assumed_universal_constrains_what_follows() {
    let program = |claim: &str| {
        format!(
            "int main() {{ int a[5];
  __CPROVER_assume(__CPROVER_forall {{ int i; (i >= 0 && i < 5) ==> a[i] == i + 1 }});
  __CPROVER_assert({claim}, \"claim\"); }}\n"
        )
    };
    assert_verdict("cbmc_assumed_forall_holds", &program("a[3] == 4"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("cbmc_assumed_forall_fails", &program("a[3] == 3"), &[], "VERIFICATION FAILED");
}

#[test]
fn several_variables_and_nested_quantifiers_are_decided() {
    // `int i, j;` binds both: every pair.
    let pairs = |relation: &str| {
        format!(
            "int main() {{ char a[3] = {{1, 2, 3}};
  __CPROVER_assert(__CPROVER_forall {{ char i, j; (0 <= i && i < j && j < 3) ==> a[i] {relation} a[j] }}, \"sorted\"); }}\n"
        )
    };
    assert_verdict("cbmc_forall_pairs_holds", &pairs("<"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("cbmc_forall_pairs_fails", &pairs(">"), &[], "VERIFICATION FAILED");
    let alternation = |relation: &str| {
        format!(
            "int main() {{
  __CPROVER_assert(__CPROVER_forall {{ int i; i >= 0 ==> __CPROVER_forall {{ int j; j < 0 ==> j {relation} i }} }}, \"alternation\"); }}\n"
        )
    };
    assert_verdict("cbmc_nested_holds", &alternation("<"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("cbmc_nested_fails", &alternation(">"), &[], "VERIFICATION FAILED");
}

#[test]
fn a_quantifier_is_a_value_and_its_variable_is_local() {
    // The value is 1 or 0; the variable shadows an outer `i` only inside.
    let program = |expected: &str| {
        format!(
            "int main() {{ int i = 7; int a[2] = {{1, 2}};
  int x = __CPROVER_forall {{ int i; (i >= 0 && i < 2) ==> a[i] >= 1 }};
  int y = __CPROVER_exists {{ int i; (i >= 0 && i < 2) && a[i] > 2 }};
  __CPROVER_assert(x == 1 && y == 0 && i == {expected}, \"values\"); }}\n"
        )
    };
    assert_verdict("cbmc_quantifier_value_holds", &program("7"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("cbmc_quantifier_value_fails", &program("0"), &[], "VERIFICATION FAILED");
}

#[test]
fn checks_inside_a_body_hold_for_every_guarded_value() {
    let program = |size: &str| {
        format!(
            "#include <stdlib.h>
int main() {{ char *a = malloc({size}); if (!a) return 0;
  __CPROVER_assert(__CPROVER_forall {{ int i; (0 <= i && i < 10) ==> a[i] == a[i] }}, \"reads\"); }}\n"
        )
    };
    assert_verdict("cbmc_body_checks_hold", &program("10"), &[], "VERIFICATION SUCCESSFUL");
    let fails = verdict("cbmc_body_checks_fail", &program("4"), &[]);
    if front_end_ready("cbmc_body_checks_fail") {
        assert!(fails.starts_with("VERIFICATION FAILED") && fails.contains("outside object bounds"), "{fails}");
    }
}

#[test]
fn acsl_binders_and_symbols_are_cbmc_operators() {
    let program = |claim: &str| {
        format!(
            "int main() {{ short a, b; _Bool p, q;
  __CPROVER_assert((a ≥ b) == (a >= b) && (a ≤ b) == (a <= b) && (a ≡ b) == (a == b) && (a ≢ b) == (a != b), \"relations\");
  __CPROVER_assert((p ⇒ q) == (!p || q) && (p ⇔ q) == (p == q) && (p ∧ q) == (p && q), \"connectives\");
  __CPROVER_assert((p ∨ q) == (p || q) && (p ⊻ q) == (p != q) && (¬p) == !p && (−a) == -a, \"more\");
  __CPROVER_assert(∀ int i; 1 ? 1 : i, \"binds weakly\");
  __CPROVER_assert({claim}, \"claim\"); }}\n"
        )
    };
    assert_verdict("acsl_symbols_hold", &program("∃ unsigned i; i * 2 == 6"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("acsl_symbols_fail", &program("\\exists unsigned i; i * i == 2"), &[], "VERIFICATION FAILED");
}

#[test]
fn an_implication_evaluates_its_consequent_only_when_needed() {
    let program = |antecedent: &str| {
        format!(
            "int fail(void) {{ __CPROVER_assert(0, \"called\"); return 1; }}
int main() {{ int *p = 0; int c = {antecedent};
  __CPROVER_assert(c ==> *p == 0, \"guarded\");
  __CPROVER_assert(c ==> fail(), \"lazy\"); }}\n"
        )
    };
    assert_verdict("cbmc_implies_lazy_holds", &program("0"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("cbmc_implies_lazy_fails", &program("1"), &[], "VERIFICATION FAILED");
}

#[test]
fn connectives_follow_cbmc_precedence() {
    // `==>` is right associative: `0 ==> (0 ==> 0)` holds, `(0 ==> 0) ==> 0` does not.
    assert_verdict("cbmc_implies_right_assoc", "int main() { __CPROVER_assert(0 ==> 0 ==> 0, \"right\"); }\n", &[], "VERIFICATION SUCCESSFUL");
    // It binds more loosely than `||`: `(1 || 0) ==> 0` fails.
    assert_verdict("cbmc_implies_below_or", "int main() { __CPROVER_assert(1 || 0 ==> 0, \"loose\"); }\n", &[], "VERIFICATION FAILED");
    // `<==>` is `==` of the values, not of their truth: `2 <==> 1` is false.
    assert_verdict("cbmc_equivalent_is_equality", "int main() { __CPROVER_assert(2 <==> 1, \"equal\"); }\n", &[], "VERIFICATION FAILED");
    assert_verdict("cbmc_equivalent_loosest", "int main() { __CPROVER_assert(1 ==> 0 <==> 0, \"equal\"); }\n", &[], "VERIFICATION SUCCESSFUL");
    // `^^` compares truth values: `2 ^^ 1` is false, `2 ^^ 0` true.
    assert_verdict("cbmc_xor_truth", "int main() { __CPROVER_assert((2 ^^ 0) && !(2 ^^ 1), \"xor\"); }\n", &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("cbmc_xor_fails", "int main() { __CPROVER_assert(2 ^^ 1, \"xor\"); }\n", &[], "VERIFICATION FAILED");
}

#[test]
fn malformed_quantifiers_are_errors_with_a_location() {
    for (test, body, message) in [
        ("cbmc_forall_no_brace", "__CPROVER_forall int i; i == i", "expected `{` after `__CPROVER_forall`"),
        ("cbmc_exists_no_declaration", "__CPROVER_exists { x > 0 }", "expected the declaration of the variable that `__CPROVER_exists` binds"),
        ("cbmc_forall_initializer", "__CPROVER_forall { int i = 0; i == x }", "takes no initializer"),
        ("cbmc_forall_static", "__CPROVER_forall { static int i; i == x }", "takes no storage class"),
        ("cbmc_exists_struct", "__CPROVER_exists { struct s v; v.f == x }", "unsupported: `__CPROVER_exists` over `v`"),
        ("acsl_lambda", "(\\lambda int i; i + 1)(1) == 2", "unsupported: the ACSL construct `\\lambda`"),
    ] {
        if !front_end_ready(test) {
            return;
        }
        let source = format!("struct s {{ int f; }};\nint main() {{ int x = 1;\n  __CPROVER_assert({body}, \"p\"); }}\n");
        let answer = verdict(test, &source, &[]);
        let located = answer.lines().find(|l| l.contains(message) && names_location(l));
        let line = located.unwrap_or_else(|| panic!("{test}: no located `{message}` in {answer}"));
        assert!(line.contains("main.c:3:"), "{test}: {line}");
    }
}

#[test]
fn cbmc_built_in_types_are_the_data_models_size_types() {
    for model in [&[][..], &["--32"][..]] {
        let program = |claim: &str| {
            format!(
                "#include <stddef.h>
_Static_assert(sizeof(__CPROVER_size_t) == sizeof(size_t) && sizeof(__CPROVER_ssize_t) == sizeof(ptrdiff_t), \"sizes\");
int main() {{ __CPROVER_size_t u = 0; __CPROVER_ssize_t s = 0;
  __CPROVER_assert({claim}, \"signedness\"); }}\n"
            )
        };
        assert_verdict("cbmc_size_types_hold", &program("u - 1 > 0 && s - 1 < 0"), model, "VERIFICATION SUCCESSFUL");
        assert_verdict("cbmc_size_types_fail", &program("u - 1 < 0"), model, "VERIFICATION FAILED");
    }
}

#[test]
fn the_largest_allocation_may_succeed_and_one_byte_more_fails() {
    let program = |extra: &str| {
        format!(
            "#include <stdlib.h>
int main() {{ char *p = malloc(__CPROVER_max_malloc_size + {extra});
  __CPROVER_assert(p == 0, \"refused\"); }}\n"
        )
    };
    assert_verdict("cbmc_max_malloc_plus_one", &program("1"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("cbmc_max_malloc", &program("0"), &[], "VERIFICATION FAILED");
}

#[test]
fn unbounded_arrays_are_unsupported_with_a_location() {
    let source = "int mem[__CPROVER_constant_infinity_uint];\nint main() { return 0; }\n";
    let answer = verdict("cbmc_infinity_uint", source, &[]);
    if front_end_ready("cbmc_infinity_uint") {
        let located = answer.lines().find(|l| l.contains("unsupported: CBMC's unbounded arrays") && names_location(l));
        assert!(located.is_some_and(|l| l.contains("main.c:1:")), "{answer}");
        assert!(!answer.contains("VERIFICATION SUCCESSFUL") && !answer.contains("VERIFICATION FAILED"), "{answer}");
    }
}

#[test]
fn cbmc_allocate_never_fails_and_zero_fills_on_request() {
    let program = |zero: &str, claim: &str| {
        format!(
            "#include <stdlib.h>
int main() {{ int *p = __CPROVER_allocate(4 * sizeof(int), {zero}); int *q = malloc(sizeof(int));
  __CPROVER_assert({claim}, \"claim\"); free(p); free(q); }}\n"
        )
    };
    assert_verdict("cbmc_allocate_zeroed", &program("1", "p != 0 && p[3] == 0"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("cbmc_allocate_not_zeroed", &program("0", "p != 0 && p[3] == 0"), &[], "VERIFICATION FAILED");
    // malloc, unlike it, may return NULL.
    assert_verdict("cbmc_allocate_malloc_may_fail", &program("1", "q != 0"), &[], "VERIFICATION FAILED");
    // The block is a heap block like malloc's: reading past it is caught.
    assert_verdict("cbmc_allocate_bounds", &program("1", "p[4] == 0"), &[], "VERIFICATION FAILED");
    let flag = "int main() { int z; int *p = __CPROVER_allocate(4, z); __CPROVER_assert(p != 0, \"p\"); }\n";
    assert_verdict("cbmc_allocate_symbolic_flag", flag, &[], "VERIFICATION UNKNOWN");
}

#[test]
fn havoc_slice_changes_exactly_its_bytes() {
    let program = |slice: &str, claim: &str| {
        format!(
            "int main() {{ int a[4] = {{0, 1, 2, 3}};
  __CPROVER_havoc_slice({slice});
  __CPROVER_assert({claim}, \"claim\"); }}\n"
        )
    };
    let middle = "(char *)a + sizeof(int), 2 * sizeof(int)";
    assert_verdict("cbmc_havoc_slice_keeps", &program(middle, "a[0] == 0 && a[3] == 3"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("cbmc_havoc_slice_changes", &program(middle, "a[1] == 1"), &[], "VERIFICATION FAILED");
    // Undeclared, as CBMC's programs call it: an `int` size converts to size_t.
    assert_verdict("cbmc_havoc_slice_int_size", &program("(char *)a + 4, 8", "a[2] == 2"), &[], "VERIFICATION FAILED");
    assert_verdict("cbmc_havoc_slice_int_size_keeps", &program("(char *)a + 4, 8", "a[3] == 3"), &[], "VERIFICATION SUCCESSFUL");
    // The bytes must lie in the object.
    let beyond = verdict("cbmc_havoc_slice_beyond", &program("a + 3, 2 * sizeof(int)", "1"), &[]);
    if front_end_ready("cbmc_havoc_slice_beyond") {
        assert!(beyond.starts_with("VERIFICATION FAILED") && beyond.contains("bounds"), "{beyond}");
    }
}

/// `__CPROVER_fence` orders nothing under sequential consistency: the
/// interleavings stay the same, the one that fails included, and the
/// fence's arguments are still checked.
#[test]
fn a_fence_orders_nothing_under_sequential_consistency() {
    let program = |bound: &str| {
        format!(
            "int x, y;
void writer(void) {{ x = 1; __CPROVER_fence(\"WWfence\", \"RRfence\", \"RWfence\", \"WRfence\"); y = 1; }}
int main() {{
  __CPROVER_ASYNC_1: writer();
  int seen_y = y;
  __CPROVER_fence(\"RRfence\");
  int seen_x = x;
  __CPROVER_assert({bound}, \"ordered\");
}}\n"
        )
    };
    assert_verdict("cbmc_fence_holds", &program("!seen_y || seen_x"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("cbmc_fence_fails", &program("!seen_x || seen_y"), &[], "VERIFICATION FAILED");
}
