//! Regression tests for verdicts that were once wrong or not confirmed by
//! the replay: small C programs (one or several units) whose verdict
//! follows C and gcc semantics, run through the binary.

mod common;

use common::{run, scratch_dir, write};

const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const FAILED: &str = "VERIFICATION FAILED";

/// The last line of stdout for the program made of `units` (name, text).
fn verdict(test: &str, units: &[(&str, &str)], flags: &[&str]) -> String {
    let dir = scratch_dir(test);
    let mut args: Vec<String> = units.iter().map(|(name, text)| write(&dir, name, text).display().to_string()).collect();
    args.extend(flags.iter().map(|f| f.to_string()));
    let out = run(&args);
    out.stdout.lines().last().unwrap_or_default().to_string()
}

#[track_caller]
fn expect(test: &str, units: &[(&str, &str)], flags: &[&str], expected: &str) {
    assert_eq!(verdict(test, units, flags), expected, "{units:?}");
}

const ASSERT_GLOBAL: &str = "#include <assert.h>\nint main(void) { assert(global == EXPECTED); return 0; }\n";

#[test]
fn a_strong_definition_overrides_a_weak_one_in_either_unit_order() {
    let weak = format!("int global __attribute__((weak)) = 999;\n{ASSERT_GLOBAL}");
    let strong = "int global = 1234;\n";
    for order in [[("a.c", strong), ("b.c", weak.as_str())], [("b.c", weak.as_str()), ("a.c", strong)]] {
        expect("weak-strong", &order, &["-DEXPECTED=1234"], SUCCESSFUL);
        expect("weak-strong", &order, &["-DEXPECTED=999"], FAILED);
    }
    expect("weak-alone", &[("b.c", weak.as_str())], &["-DEXPECTED=999"], SUCCESSFUL);
}

#[test]
fn a_tentative_definition_in_another_unit_overrides_a_weak_initializer() {
    let weak = format!("struct pair {{ int a, b; }} global __attribute__((weak)) = {{ 1, 2 }};\n{ASSERT_GLOBAL}");
    let weak = weak.replace("global ==", "global.b ==");
    let tentative = "struct pair { int a, b; } global;\n";
    expect("weak-tentative", &[("a.c", weak.as_str()), ("b.c", tentative)], &["-DEXPECTED=0"], SUCCESSFUL);
    expect("tentative-weak", &[("b.c", tentative), ("a.c", weak.as_str())], &["-DEXPECTED=0"], SUCCESSFUL);
}

#[test]
fn writing_through_a_pointer_into_a_const_object_is_a_dereference_failure() {
    let global = "const int b = 6;\nint main(void) { int *p = (int *)&b; *p = 1; return 0; }\n";
    expect("const-global", &[("m.c", global)], &[], FAILED);
    let static_array = "int main(void) { static const char *const b[3]; char *c = (void *)b; *c = 42; return 0; }\n";
    expect("const-static", &[("m.c", static_array)], &[], FAILED);
    let reading = "const int b = 6;\nint main(void) { const int *p = &b; return *p - 6; }\n";
    expect("const-read", &[("m.c", reading)], &[], SUCCESSFUL);
    let mutable_copy = "#include <string.h>\nconst char b[] = \"abc\";\nint main(void) { char a[4]; memcpy(a, b, 4); memset(a, 0, 1); return 0; }\n";
    expect("const-copy", &[("m.c", mutable_copy)], &[], SUCCESSFUL);
}

#[test]
fn main_gets_a_command_line_of_at_least_one_argument() {
    let argc_only = "#include <assert.h>\nint main(int argc, char **argv) { assert(argc >= 1); return 0; }\n";
    expect("argc-positive", &[("m.c", argc_only)], &[], SUCCESSFUL);
    let memset_by_argc = "#include <string.h>\nconst char b[] = \"abc\";\nint main(int argc, char **argv) { char a[2]; char *c = argc == 1 ? a : (char *)b; memset(c, 0, 1); return 0; }\n";
    expect("argc-const", &[("m.c", memset_by_argc)], &[], FAILED);
    let argument = "#include <assert.h>\nint main(int argc, char **argv) { if (argc > 2) assert(argv[2][0] != 'x'); return 0; }\n";
    expect("argv-contents", &[("m.c", argument)], &[], FAILED);
    let past_the_end = "int main(int argc, char **argv) { return argv[argc + 1] != 0; }\n";
    expect("argv-bounds", &[("m.c", past_the_end)], &[], FAILED);
    let terminated = "#include <assert.h>\nint main(int argc, char **argv) { assert(argv[argc] == 0); return 0; }\n";
    assert_ne!(verdict("argv-null", &[("m.c", terminated)], &[]), FAILED);
}

#[test]
fn a_pointer_made_from_integer_bytes_may_equal_any_address() {
    let byte_written = "#include <assert.h>\nextern char nondet_char(void);\nstruct { void *bar; } bug;\nint some_var;\nint main(void) { char *p = (char *)&bug; p[0] = nondet_char(); assert(bug.bar != &some_var); return 0; }\n";
    assert_ne!(verdict("integer-pointer", &[("m.c", byte_written)], &[]), SUCCESSFUL);
    let null_stays_apart = "#include <assert.h>\nextern int nondet(void);\nint x;\nint main(void) { int *p = nondet() ? &x : 0; if (p) assert(p == &x); else assert(p != &x); return 0; }\n";
    expect("null-pointer", &[("m.c", null_stays_apart)], &[], SUCCESSFUL);
}

#[test]
fn an_access_through_a_misaligned_pointer_is_a_dereference_failure() {
    let packed = "#include <stdint.h>\n#pragma pack(push, 1)\nstruct s { char a; uint32_t b; };\n#pragma pack(pop)\nint main(void) { struct s o = {0}; uint32_t *q = (uint32_t *)&o.b; return (int)*q; }\n";
    expect("misaligned-packed", &[("m.c", packed)], &[], FAILED);
    let shifted = "int arr[4];\nint main(void) { int w = *(int *)(void *)((short *)arr + 2); return w; }\n";
    expect("aligned-shift", &[("m.c", shifted)], &[], SUCCESSFUL);
    let odd = "int arr[4];\nint main(void) { int w = *(int *)(void *)((short *)arr + 1); return w; }\n";
    expect("misaligned-shift", &[("m.c", odd)], &[], FAILED);
}

#[test]
fn an_index_past_a_member_array_is_out_of_bounds_unless_the_array_may_extend_its_object() {
    let interior = "struct S { int buf[4]; unsigned n; };\nint main(void) { struct S s; struct S *p = &s; p->n = 4; p->buf[p->n] = 1; return 0; }\n";
    expect("index-interior", &[("m.c", interior)], &[], FAILED);
    let struct_hack = "#include <stdlib.h>\nstruct H { int n; int qux[1]; };\nint main(void) { struct H *h = malloc(sizeof(struct H) + 3 * sizeof(int)); if (h) { h->qux[3] = 1; free(h); } return 0; }\n";
    assert_ne!(verdict("index-struct-hack", &[("m.c", struct_hack)], &[]), FAILED);
}

#[test]
fn a_variable_length_array_whose_size_overflows_size_t_is_a_violation() {
    // In ILP32 `int a[n]` with n >= 2^30 has a size that size_t cannot hold.
    let program = "unsigned nondet_uint(void);\nint main(void) {\n  unsigned n = nondet_uint();\n  __VERIFIER_assume(n > 0 && n <= LIMIT);\n  int a[n];\n  a[n - 1] = 3;\n  return a[n - 1] - 3;\n}\n";
    expect("vla-too-large", &[("m.c", program)], &["--32", "-DLIMIT=(1u<<30)"], FAILED);
    expect("vla-fits", &[("m.c", program)], &["--32", "-DLIMIT=(1u<<30)-1"], SUCCESSFUL);
}

#[test]
fn a_violation_through_the_programs_own_external_function_is_real_but_not_through_a_library_one() {
    // `sensor` is nobody's function: any implementation may return 7, so
    // the failure is real and the replay takes 7 back as the call's result.
    let own = "#include <assert.h>\nint sensor(void);\nint main(void) { int v = sensor(); assert(v != 7); return 0; }\n";
    expect("external-own", &[("main.c", own)], &[], FAILED);
    // An undeclared one too (C89 implicit `int f()`).
    let implicit = "int main(void) { int v = probe(); if (v == 3) { int *p = 0; return *p; } return 0; }\n";
    expect("external-implicit", &[("main.c", implicit)], &[], FAILED);
    // It may fill what its arguments point to, and only that.
    let filled = "#include <assert.h>\nvoid fill(int *p);\nint main(void) { int x = 0, y = 5; fill(&x); assert(y == 5); assert(x == 0); return 0; }\n";
    expect("external-fills", &[("main.c", filled)], &[], FAILED);
    let kept = "#include <assert.h>\nvoid fill(int *p);\nint main(void) { int x = 0, y = 5; fill(&x); assert(y == 5); return x; }\n";
    expect("external-keeps", &[("main.c", kept)], &[], SUCCESSFUL);
    // `jrand48` belongs to the C library, whose results are 32-bit:
    // a program declaring it itself gets no nondeterministic stand-in
    // that a FALSE could rest on (it has no model).
    let library = "#include <assert.h>\nlong jrand48(unsigned short xsubi[3]);\nint main(void) { unsigned short s[3] = {1, 2, 3}; long v = jrand48(s); assert(v != 1L << 40); return 0; }\n";
    assert!(verdict("external-library", &[("main.c", library)], &[]).starts_with("VERIFICATION UNKNOWN"));
    // A returned pointer would be one of the model's addresses, which no
    // implementation can know: still UNKNOWN.
    let pointer = "#include <assert.h>\nint *cell(void);\nint x;\nint main(void) { assert(cell() != &x); return 0; }\n";
    assert!(verdict("external-pointer", &[("main.c", pointer)], &[]).starts_with("VERIFICATION UNKNOWN"));
}

#[test]
fn a_violation_before_an_unsupported_construct_is_reported_and_nothing_after_it_is_proved() {
    let source = "#include <assert.h>
unsigned int __ESBMC_spawn_thread(void (*)(void));
void worker(void) {}
int main(void) {
  int x = __VERIFIER_nondet_int();
  CHECK
  __ESBMC_spawn_thread(worker);
  assert(x != 8);
  return 0;
}\n";
    expect("violation_before_unsupported", &[("main.c", &source.replace("CHECK", "assert(x != 7);"))], &[], FAILED);
    let after = verdict("violation_after_unsupported", &[("main.c", &source.replace("CHECK", ""))], &[]);
    assert_eq!(after, "VERIFICATION UNKNOWN");
    let with_a_bound = verdict("violation_after_unsupported_bmc", &[("main.c", &source.replace("CHECK", ""))], &["--unwind", "3"]);
    assert_eq!(with_a_bound, "VERIFICATION UNKNOWN");
}

#[test]
fn a_string_in_a_block_of_symbolic_size_is_not_cut_off() {
    // printf's %s once read such a block up to its recorded size field (0),
    // which cut the paths where the string is longer: a wrong TRUE.
    let printed = "#include <assert.h>\n#include <stdio.h>\n#include <stdlib.h>\nextern unsigned nondet_uint(void);\nint main(void) { unsigned n = nondet_uint(); if (n < 5 || n > 10) return 0; char *s = malloc(n); if (!s) return 0; for (int i = 0; i < 4; i++) s[i] = 'a'; s[4] = 0; int k = printf(\"%s\", s); assert(k < 3); return 0; }\n";
    assert_ne!(verdict("symbolic-size-string", &[("m.c", printed)], &["--unwind", "6"]), SUCCESSFUL);
}

#[test]
fn an_out_of_range_conversion_to_a_narrow_or_unsigned_integer_has_no_known_value() {
    // gcc converts through a wider signed integer and truncates it, so
    // (unsigned)-1.0 is 0xFFFFFFFF there: the indefinite value 10…0 was a
    // wrong TRUE.
    let convert = |target: &str, value: &str| {
        format!("#include <assert.h>\nint main(void) {{ volatile double d = {value}; {target} u = ({target})d; assert(u == ({target})0x80000000u || u == 0); return 0; }}\n")
    };
    assert_eq!(verdict("f2i-unsigned", &[("m.c", &convert("unsigned", "-1.0"))], &[]), "VERIFICATION UNKNOWN");
    assert_eq!(verdict("f2i-short", &[("m.c", &convert("short", "1e10"))], &[]), "VERIFICATION UNKNOWN");
    // In range, the value is exact; signed 32-bit targets get x86's 10…0.
    expect("f2i-in-range", &[("m.c", &convert("unsigned", "2147483648.5"))], &[], SUCCESSFUL);
    expect("f2i-int", &[("m.c", &convert("int", "1e10"))], &[], SUCCESSFUL);
}

#[test]
fn a_pointer_past_one_object_may_equal_a_pointer_to_the_next() {
    // gcc places the globals a and b next to each other, so &a + 1 == &b
    // there (C11 6.5.9p6 allows it): always unequal was a wrong TRUE.
    let compare = |assertion: &str| format!("#include <assert.h>\nint a, b, c[2];\nint main(void) {{ {assertion}; return 0; }}\n");
    assert_eq!(verdict("adjacent-objects", &[("m.c", &compare("assert(&a + 1 != &b && &b + 1 != &a)"))], &[]), "VERIFICATION UNKNOWN");
    expect("distinct-starts", &[("m.c", &compare("assert(&a != &b && &c[0] + 1 == &c[1] && &c[0] + 2 != &c[1])"))], &[], SUCCESSFUL);
    expect("distinct-starts-false", &[("m.c", &compare("assert(&a == &b)"))], &[], FAILED);
}

#[test]
fn an_error_label_on_an_empty_statement_is_reached_only_through_its_jump() {
    // The label named the instruction where the `if`'s paths meet, so the
    // error label was reached whatever the condition: a wrong FALSE.
    let program = "int nondet_int(void);\nint main(void) { int i = CHECK; if (i > 377) { goto ERROR; ERROR: ; } return 0; }\n";
    expect("error-label-empty-safe", &[("m.c", &program.replace("CHECK", "1"))], &["--error-label", "ERROR"], SUCCESSFUL);
    expect("error-label-empty-unsafe", &[("m.c", &program.replace("CHECK", "nondet_int()"))], &["--error-label", "ERROR"], FAILED);
}
