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
