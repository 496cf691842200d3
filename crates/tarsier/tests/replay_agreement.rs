//! Programs on which symex and the replay interpreter once disagreed (a
//! violation found but not confirmed, so UNKNOWN): each test pins one
//! semantic rule that both now share, with the verdict gcc's behaviour
//! gives.

mod common;

use common::assert_verdict;

const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const FAILED: &str = "VERIFICATION FAILED";

#[test]
fn indexing_a_trailing_or_union_array_member_is_bounded_by_the_object_only() {
    let struct_hack = "#include <stdlib.h>\n\
        struct H { int n; int tail[1]; };\n\
        struct W { long tag; struct H h; };\n\
        union U { char c[4]; long long l; };\n\
        int main(void) {\n\
          struct W *w = malloc(sizeof(struct W) + 3 * sizeof(int));\n\
          if (w) { w->h.tail[3] = 1; free(w); }\n\
          union U u; u.l = 0; u.c[6] = 1;\n\
          return 0;\n\
        }\n";
    assert_verdict("struct-hack-inside", struct_hack, &[], SUCCESSFUL);
    let past_the_object = struct_hack.replace("tail[3]", "tail[4]");
    assert_verdict("struct-hack-outside", &past_the_object, &[], FAILED);
    let middle_member = "struct S { int a[2]; int b; };\n\
        int main(void) { struct S s; int i = 2; s.a[i] = 1; return 0; }\n";
    assert_verdict("middle-member-index", middle_member, &[], FAILED);
}

#[test]
fn a_union_used_as_a_condition_is_compared_with_all_zero_bytes() {
    let source = "union U { unsigned a; struct { unsigned b; } s; };\n\
        union U nondet_union(void);\n\
        int main(void) { union U u = nondet_union(); assert(u); return 0; }\n";
    assert_verdict("union-condition", source, &[], FAILED);
    let nonzero = "union U { unsigned a; struct { unsigned b; } s; };\n\
        int main(void) { union U u; u.a = 7; assert(u); return 0; }\n";
    assert_verdict("union-condition-nonzero", nonzero, &[], SUCCESSFUL);
}

#[test]
fn a_violation_reachable_without_an_out_of_range_float_conversion_is_confirmed() {
    let source = "float nondet_float(void);\n\
        int main(void) { float b = nondet_float(); float c = (int)b; assert((long)c > 0); return 0; }\n";
    assert_verdict("float-to-int-in-range", source, &[], FAILED);
}

#[test]
fn a_violation_on_a_small_variable_length_array_is_confirmed() {
    let source = "int nondet_int(void);\n\
        int main(void) { int n = nondet_int(); int m = nondet_int(); char a[n];\n\
          __ESBMC_assert(__ESBMC_r_ok(a, m), \"readable\"); return 0; }\n";
    assert_verdict("vla-replayable", source, &[], FAILED);
}

/// Pointer/integer conversions (PNVI-ae, as symex and the interpreter both
/// implement it): the verdict of `body` inside `main`.
fn check_addresses(test: &str, body: &str, expected: &str) {
    let source = format!("#include <stdint.h>\n#include <stdlib.h>\n#include <assert.h>\nint main(void) {{\n{body}\nreturn 0;\n}}\n");
    assert_verdict(test, &source, &[], expected);
}

#[test]
fn an_integer_round_trip_returns_to_the_object() {
    let body = "struct S { int x, y, z; } s = { 1, 2, 3 };\n\
        uintptr_t u = (uintptr_t)&s.x; u *= 2; u -= (uintptr_t)&s; u += 8;\n\
        int *p = (int *)u; *p = 7; assert(s.z == 7);";
    check_addresses("round-trip", body, SUCCESSFUL);
    check_addresses("round-trip-wrong", &body.replace("s.z == 7", "s.z == 3"), FAILED);
}

#[test]
fn addresses_follow_declared_and_abi_alignment_only() {
    let body = "_Alignas(16) char c; char buf[16]; int i;\n\
        assert((uintptr_t)&c % 16 == 0); assert((uintptr_t)buf % 16 == 0); assert((uintptr_t)&i % 4 == 0);";
    check_addresses("aligned", body, SUCCESSFUL);
    check_addresses("over-aligned", "_Alignas(16) char c; assert((uintptr_t)&c % 32 == 0);", FAILED);
    check_addresses("char-unaligned", "char c[2]; assert((uintptr_t)&c[1] % 2 == 0);", FAILED);
}

#[test]
fn an_integer_equal_to_an_exposed_address_points_into_that_object() {
    let body = "static char a[8], b[8]; uintptr_t n = (uintptr_t)rand();\n\
        char *p = (char *)(n * 8 - (uintptr_t)&a[0]);\n\
        if ((uintptr_t)p == (uintptr_t)&b[0]) { *p = 3; assert(b[0] == 0); }";
    check_addresses("integer-into-object", body, FAILED);
    let literal = "const char *s = \"\"; const char *q = (const char *)0x55a8a2e6b007; assert(q != s);";
    check_addresses("integer-equals-literal", literal, FAILED);
}

#[test]
fn objects_not_alive_together_may_share_an_address() {
    let reuse = "int *y = malloc(sizeof *y); intptr_t ay = (intptr_t)y; free(y);\n\
        int *x = malloc(sizeof *x); intptr_t ax = (intptr_t)x;\n\
        if (ax == ay) free(x);\n\
        free(x);";
    check_addresses("heap-reuse", reuse, FAILED);
    let together = "int *y = malloc(sizeof *y); int *x = malloc(sizeof *x);\n\
        if (x && y) assert((intptr_t)x != (intptr_t)y);\n\
        free(x); free(y);";
    check_addresses("heap-apart", together, SUCCESSFUL);
}

#[test]
fn an_integer_that_addresses_no_object_is_never_proved_lost() {
    let body = "uintptr_t a = (uintptr_t)1 << 60; if ((uintptr_t)(char *)a == a) assert(0);";
    let source = format!("#include <stdint.h>\n#include <assert.h>\nint main(void) {{ {body} return 0; }}\n");
    if common::front_end_ready("non-canonical") {
        let answer = common::verdict("non-canonical", &source, &[]);
        assert!(!answer.starts_with(SUCCESSFUL), "{answer}");
    }
}

#[test]
fn objects_alive_together_never_share_an_address_even_if_exposed_apart() {
    // x and y are alive together, so their addresses differ; x is freed
    // before y's address is seen, which the solver alone does not know.
    let body = "int *x = malloc(sizeof *x); int *y = malloc(sizeof *y); if (!x || !y) return 0;\n\
        uintptr_t ax = (uintptr_t)x; free(x); uintptr_t ay = (uintptr_t)y;\n\
        assert(ax != ay); free(y);";
    let source = format!("#include <stdint.h>\n#include <stdlib.h>\n#include <assert.h>\nint main(void) {{\n{body}\nreturn 0;\n}}\n");
    if common::front_end_ready("alive-together") {
        let answer = common::verdict("alive-together", &source, &[]);
        assert!(!answer.starts_with(FAILED), "{answer}");
    }
}

#[test]
fn a_library_allocated_block_is_never_reported_misaligned() {
    let body = "char *p = aligned_alloc(64, 128); if (p) { assert((uintptr_t)p % 64 == 0); free(p); }";
    let source = format!("#include <stdint.h>\n#include <stdlib.h>\n#include <assert.h>\nint main(void) {{\n{body}\nreturn 0;\n}}\n");
    if common::front_end_ready("library-aligned") {
        let answer = common::verdict("library-aligned", &source, &[]);
        assert!(!answer.starts_with(FAILED), "{answer}");
    }
}
