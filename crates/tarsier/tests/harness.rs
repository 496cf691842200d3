//! `--harness FILE.c`: the C file that makes a native run follow the
//! counterexample. Each program is verified with `--harness`, compiled by
//! gcc together with the harness (with the sanitizer its property needs)
//! and run: the run must show the violation. The programs need specific
//! input values in a specific order, so a harness that returned other
//! values, or the right ones in another order, would not reproduce them.
//! Skips with a message when gcc is absent.

mod common;

use common::{exit_code, run, scratch_dir, write, EXIT_SUCCESS, RUN_LIMIT};

/// The exit code of VERIFICATION FAILED.
const EXIT_FAILED: i32 = 10;
use std::path::Path;
use std::process::Command;
use xtask::harness_check::{build_inputs, expectation, extra_flags};
use xtask::process::run_with_timeout;

/// Verifies `source` with `flags` and `--harness`, builds the harness with
/// the program and runs it; panics unless the run shows the violation.
fn assert_reproduces(test: &str, source: &str, flags: &[&str], expected_class: &str) {
    let Some((gcc_flags, shows_violation)) = expectation(expected_class) else { panic!("{expected_class} is not a checked class") };
    if !common::gcc_works(gcc_flags) {
        println!("SKIP {test}: gcc with {gcc_flags:?} is not available");
        return;
    }
    let dir = scratch_dir(test);
    let program = write(&dir, "program.c", source);
    let harness = dir.join("harness.c");
    let out = run([program.as_os_str(), "--harness".as_ref(), harness.as_os_str()].into_iter().chain(flags.iter().map(|f| f.as_ref())));
    assert_eq!(exit_code(&out), Some(EXIT_FAILED), "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains(expected_class), "{}", out.stdout);
    let text = std::fs::read_to_string(&harness).expect("the harness is written");
    let (ending, stderr) = build_and_run(&dir, &program, &harness, gcc_flags);
    assert!(shows_violation(&ending, &stderr), "the harness run ended {ending:?}:\n{stderr}\nharness:\n{text}");
}

/// Builds `program` (or the rewritten copy the harness names) with the harness and runs it.
fn build_and_run(dir: &Path, program: &Path, harness: &Path, gcc_flags: &[&str]) -> (xtask::process::Ending, String) {
    let binary = dir.join("a.out");
    let text = std::fs::read_to_string(harness).expect("the harness is readable");
    let (inputs, quote_dirs) = build_inputs(&text, vec![program.to_path_buf()]);
    let mut gcc = Command::new("gcc");
    gcc.args(["-g", "-O0", "-w"]).args(gcc_flags).args(extra_flags(&text));
    quote_dirs.iter().for_each(|dir| {
        gcc.arg("-iquote").arg(dir);
    });
    let built = gcc.args(inputs).arg(harness).arg("-o").arg(&binary).output();
    let built = built.expect("gcc runs");
    assert!(built.status.success(), "gcc rejects the program with its harness:\n{}", String::from_utf8_lossy(&built.stderr));
    let mut command = Command::new(&binary);
    command.env("ASAN_OPTIONS", "detect_leaks=0:detect_stack_use_after_return=1");
    let ran = run_with_timeout(&mut command, RUN_LIMIT).expect("the harnessed program runs");
    (ran.ending, ran.stderr)
}

#[test]
fn values_come_back_in_order_per_type_and_reach_error_aborts() {
    let source = "extern int __VERIFIER_nondet_int(void);\n\
                  extern char __VERIFIER_nondet_char(void);\n\
                  extern void reach_error(void);\n\
                  int main(void) {\n\
                  \x20 int x = __VERIFIER_nondet_int();\n\
                  \x20 char c = __VERIFIER_nondet_char();\n\
                  \x20 int y = __VERIFIER_nondet_int();\n\
                  \x20 if (x > 10 && x < 20 && c == 'a' && y == x + 3) reach_error();\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_order", source, &[], "reach-error");
}

#[test]
fn an_index_out_of_bounds_shows_under_address_sanitizer() {
    let source = "unsigned nondet_uint(void);\n\
                  int main(void) {\n\
                  \x20 int a[4] = {0};\n\
                  \x20 unsigned i = nondet_uint();\n\
                  \x20 if (i > 3 && i < 6) a[i] = 1;\n\
                  \x20 return a[0];\n\
                  }\n";
    assert_reproduces("harness_bounds", source, &[], "array-bounds");
}

#[test]
fn assumptions_hold_and_an_overflow_shows_under_its_sanitizer() {
    let source = "int __VERIFIER_nondet_int(void);\n\
                  void __VERIFIER_assume(int);\n\
                  int main(void) {\n\
                  \x20 int x = __VERIFIER_nondet_int();\n\
                  \x20 __VERIFIER_assume(x > 2147483000);\n\
                  \x20 int y = x + 1000;\n\
                  \x20 return y == 0;\n\
                  }\n";
    assert_reproduces("harness_overflow", source, &["--overflow-check"], "signed-overflow");
}

#[test]
fn an_overflow_gcc_would_fold_away_shows_under_its_sanitizer() {
    // gcc folds `-x == -y` into `x == y` before UBSan instruments the negations.
    let source = "int __VERIFIER_nondet_int(void);\n\
                  int main(void) {\n\
                  \x20 int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();\n\
                  \x20 return (-x) == (-y);\n\
                  }\n";
    assert_reproduces("harness_folded_overflow", source, &["--overflow-check"], "signed-overflow");
}

#[test]
fn floats_and_a_division_by_zero() {
    let source = "float __VERIFIER_nondet_float(void);\n\
                  int __VERIFIER_nondet_int(void);\n\
                  int main(void) {\n\
                  \x20 float f = __VERIFIER_nondet_float();\n\
                  \x20 int d = __VERIFIER_nondet_int();\n\
                  \x20 if (f > 1.5f && f < 1.75f) return 100 / (d - 7);\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_division", source, &[], "division-by-zero");
}

#[test]
fn the_programs_own_environment_functions_and_undefined_globals() {
    let source = "#include <assert.h>\n\
                  int read_sensor(int channel);\n\
                  void log_value(int value);\n\
                  extern int limit;\n\
                  int main(void) {\n\
                  \x20 int v = read_sensor(1);\n\
                  \x20 log_value(v);\n\
                  \x20 assert(v != limit + 42 || read_sensor(2) != 5);\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_environment", source, &[], "user-assertion");
}

#[test]
fn uninitialised_locals_come_from_a_rewritten_copy() {
    // Read as nondeterministic values by the verifier, indeterminate in C:
    // the copy sets them, each execution of a declaration to its own value.
    let source = "#include <assert.h>\n\
                  int main(void) {\n\
                  \x20 int total = 0;\n\
                  \x20 for (int round = 0; round < 3; round++) {\n\
                  \x20   int step, pair[2]; /* step; */\n\
                  \x20   if (step < 0 || step > 9 || pair[1] != round) return 0;\n\
                  \x20   total = total * 10 + step;\n\
                  \x20 }\n\
                  \x20 assert(total != 714);\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_uninitialised", source, &["--unwind", "4"], "user-assertion");
}

#[test]
fn library_calls_take_the_counterexamples_outcomes() {
    // Natively both allocations succeed, a fresh block holds whatever the
    // allocator left and `rand` starts its fixed sequence: the renamed
    // calls make the second allocation fail, the first block hold 77 and
    // `rand` return what the counterexample chose.
    let source = "#include <assert.h>\n\
                  #include <stdlib.h>\n\
                  int main(void) {\n\
                  \x20 int *a = malloc(2 * sizeof(int));\n\
                  \x20 int *b = malloc(sizeof(int));\n\
                  \x20 if (a == NULL || b != NULL) return 0;\n\
                  \x20 int r = rand();\n\
                  \x20 if (a[1] == 77 && r == 12345) assert(0);\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_library", source, &[], "user-assertion");
}

#[test]
fn a_discarded_read_is_performed_by_the_copy() {
    // gcc leaves `a[i];` out, even at -O0: only the copy's read lets
    // AddressSanitizer see the index past the array.
    let source = "int nondet_int(void);\n\
                  int main(void) {\n\
                  \x20 int a[4] = {1, 2, 3, 4};\n\
                  \x20 int i = nondet_int();\n\
                  \x20 if (i > 4 && i < 7)\n\
                  \x20   a[i];\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_discarded_read", source, &[], "array-bounds");
}

#[test]
fn an_undeclared_nondet_function_returns_its_esbmc_type() {
    // Called undeclared, gcc reads the result as an `int`; tarsier gives
    // `nondet_double` its ESBMC type, and so does the copy's prototype.
    let source = "#include <assert.h>\n\
                  int main(void) {\n\
                  \x20 double d = nondet_double();\n\
                  \x20 if (d > 0.25 && d < 0.5) assert(0);\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_undeclared", source, &[], "user-assertion");
}

#[test]
fn esbmc_overflow_results_are_computed_natively() {
    // Only a == 15, b == 127 wraps the sum to -114 while a << 3 fits.
    let source = "#include <assert.h>\n\
                  DEFINE_ESBMC_OVERFLOW_TYPE(signed char)\n\
                  signed char nondet_schar(void);\n\
                  int main(void) {\n\
                  \x20 signed char a = nondet_schar(), b = nondet_schar();\n\
                  \x20 __ESBMC_overflow_result sum = __ESBMC_overflow_result_plus(a, b);\n\
                  \x20 __ESBMC_overflow_result shifted = __ESBMC_overflow_result_shl(a, 3);\n\
                  \x20 if (sum.overflow && sum.result == -114 && !shifted.overflow && shifted.result == 120)\n\
                  \x20   assert(0);\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_overflow_results", source, &[], "user-assertion");
}

#[test]
fn reaching_builtin_unreachable_aborts_under_ubsan() {
    // gcc compiles `__builtin_unreachable()` to nothing: the run falls
    // through unless UBSan checks it (the flags the harness names).
    let source = "unsigned __VERIFIER_nondet_uint(void);\n\
                  int pick(unsigned a) {\n\
                  \x20 switch (a) { case 0: return 1; case 1: return 2; default: __builtin_unreachable(); }\n\
                  }\n\
                  int main(void) { return pick(__VERIFIER_nondet_uint() % 3); }\n";
    assert_reproduces("harness_unreachable", source, &[], "user-assertion");
}

#[test]
fn scanf_stores_the_counterexamples_input() {
    // The overflow needs n == 42 from the first call and a word longer
    // than 3 characters from the second; the run's stdin gives neither.
    let source = "#include <stdio.h>\n\
                  int main(void) {\n\
                  \x20 int n;\n\
                  \x20 char word[4];\n\
                  \x20 if (scanf(\"%d\", &n) != 1 || n != 42) return 0;\n\
                  \x20 scanf(\"%s\", word);\n\
                  \x20 return word[0];\n\
                  }\n";
    assert_reproduces("harness_scanf", source, &[], "pointer-dereference");
}

#[test]
fn fgets_on_stdin_stores_the_counterexamples_lines() {
    // The first line must be "go\n" for the second, too long for `small`, to be read.
    let source = "#include <stdio.h>\n\
                  #include <string.h>\n\
                  int main(void) {\n\
                  \x20 char line[8];\n\
                  \x20 if (fgets(line, sizeof line, stdin) && strcmp(line, \"go\\n\") == 0) {\n\
                  \x20   char small[2];\n\
                  \x20   if (fgets(small, 3, stdin)) return small[0];\n\
                  \x20 }\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_fgets", source, &[], "pointer-dereference");
}

#[test]
fn clangs_nontemporal_accesses_build_with_gcc() {
    let source = "int __VERIFIER_nondet_int(void);\n\
                  int main(void) {\n\
                  \x20 int a = __VERIFIER_nondet_int(), b;\n\
                  \x20 __builtin_nontemporal_store(a + 1, &b);\n\
                  \x20 __ESBMC_assert(__builtin_nontemporal_load(&b) != 5, \"b\");\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_nontemporal", source, &[], "user-assertion");
}

#[test]
fn a_stream_used_after_fclose_shows_under_address_sanitizer() {
    // glibc reads the freed FILE inside the library, where AddressSanitizer does not look.
    let source = "#include <stdio.h>\n\
                  int main(void) {\n\
                  \x20 char buffer[16];\n\
                  \x20 FILE *f = fmemopen(buffer, sizeof buffer, \"w\");\n\
                  \x20 if (!f) return 0;\n\
                  \x20 fputs(\"ok\", f);\n\
                  \x20 fclose(f);\n\
                  \x20 return fputc('x', f);\n\
                  }\n";
    assert_reproduces("harness_closed_stream", source, &[], "pointer-dereference");
}

#[test]
fn descriptor_calls_give_the_models_answers() {
    // Natively `read` finds the test's stdin empty; the model may fill the
    // buffer. The program's own `sleep` stays its own.
    let source = "#include <unistd.h>\n\
                  unsigned sleep(unsigned seconds) { return seconds; }\n\
                  int main(void) {\n\
                  \x20 char buf[8];\n\
                  \x20 long n = read(0, buf, sizeof buf) + sleep(0);\n\
                  \x20 if (n == 8 && buf[0] == 'q' && buf[7] == 'z') return buf[n];\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_descriptors", source, &[], "array-bounds");
}

#[test]
fn c23_bool_builds_with_gcc_before_13() {
    // C23's `bool` keyword, which gcc 12 in C2x mode knows only from <stdbool.h>.
    if !common::gcc_works(&["-std=c2x"]) {
        println!("SKIP harness_c23_bool: gcc with -std=c2x is not available");
        return;
    }
    let source = "#include <assert.h>\n\
                  int main(void) {\n\
                  \x20 bool n = (bool)7;\n\
                  \x20 assert(n != true);\n\
                  \x20 return 0;\n\
                  }\n";
    let dir = scratch_dir("harness_c23_bool");
    let program = write(&dir, "program.c", source);
    let harness = dir.join("harness.c");
    let out = run([program.as_os_str(), "--harness".as_ref(), harness.as_os_str()]);
    assert_eq!(exit_code(&out), Some(EXIT_FAILED), "{}{}", out.stdout, out.stderr);
    let (ending, stderr) = build_and_run(&dir, &program, &harness, &["-std=c2x"]);
    let (_, aborted) = expectation("user-assertion").expect("in scope");
    assert!(aborted(&ending, &stderr), "the harness run ended {ending:?}:\n{stderr}");
}

#[test]
fn a_discarded_read_into_another_object_is_reported() {
    // 50 bytes before the literal lie data AddressSanitizer does not poison
    // (gcc puts UBSan's file names there): the check against the object `p`
    // points into reports the read.
    let source = "char *p = \"abc\";\n\
                  int __VERIFIER_nondet_int(void);\n\
                  int main(void) {\n\
                  \x20 int i = __VERIFIER_nondet_int();\n\
                  \x20 if (i == -50)\n\
                  \x20   p[i];\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_read_in_object", source, &[], "pointer-dereference");
}

#[test]
fn a_discarded_pure_call_is_made() {
    // gcc drops `memchr(...)` whose result is unused: the copy keeps the
    // result, so the call reads past `a` under AddressSanitizer's eyes.
    let source = "#include <string.h>\n\
                  int nondet_int(void);\n\
                  int main(void) {\n\
                  \x20 char a[4] = {1, 2, 3, 4};\n\
                  \x20 int n = nondet_int();\n\
                  \x20 if (n > 4 && n < 9) memchr(a, 9, n);\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_pure_call", source, &[], "pointer-dereference");
}

#[test]
fn an_entry_function_gets_its_pointer_arguments() {
    // The entry is `f`, not the program's own `main` (renamed in the
    // copy); `p` must point to an int holding 7.
    let source = "#include <assert.h>\n\
                  int f(int *p, int k) {\n\
                  \x20 if (p && k == 3 && p[0] == 7) assert(0);\n\
                  \x20 return 0;\n\
                  }\n\
                  int main(void) { return 0; }\n";
    assert_reproduces("harness_entry_pointer", source, &["--function", "f"], "user-assertion");
}

#[test]
fn the_command_line_is_the_counterexamples() {
    let source = "#include <assert.h>\n\
                  int main(int argc, char **argv) {\n\
                  \x20 if (argc == 3 && argv[1][0] == 'x' && argv[2][0] == '-' && argv[2][1] == 0) assert(0);\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_argv", source, &[], "user-assertion");
}

#[test]
fn an_access_past_the_command_line_shows_under_address_sanitizer() {
    // The kernel puts the environment right after argv's final NULL and
    // the strings side by side: only the heap copies make the reads fail.
    let past_argv = "int main(int argc, char **argv) {\n\
                     \x20 if (argc == 2 && argv[1][0] == 'k') return argv[argc + 1] != 0;\n\
                     \x20 return 0;\n\
                     }\n";
    assert_reproduces("harness_past_argv", past_argv, &[], "pointer-dereference");
    let past_string = "int main(int argc, char **argv) {\n\
                       \x20 if (argc == 3 && argv[1][0] == 'k' && argv[1][1] == 0) return argv[1][2];\n\
                       \x20 return 0;\n\
                       }\n";
    assert_reproduces("harness_past_argument", past_string, &[], "pointer-dereference");
}

#[test]
fn questions_about_objects_are_answered_by_address_sanitizer() {
    if !common::gcc_works(&["-fsanitize=address"]) {
        println!("SKIP harness_objects: gcc with AddressSanitizer is not available");
        return;
    }
    // Only n == 11 reads past `buf`, and only when the sizes, offsets and
    // objects are the ones C gives (else the run ends quietly); the new
    // contents of `v` must be the counterexample's.
    let bounds = "unsigned nondet_uint(void);\n\
                  char buf[8];\n\
                  int main(void) {\n\
                  \x20 int local[3];\n\
                  \x20 unsigned n = nondet_uint();\n\
                  \x20 int sizes = __ESBMC_get_object_size(buf + 3) == 8 && __ESBMC_POINTER_OFFSET(buf + 3) == 3;\n\
                  \x20 int objects = __ESBMC_same_object(local, local + 2) && !__ESBMC_same_object(buf, local);\n\
                  \x20 if (sizes && objects && n > 9 && n < 12) __ESBMC_assert(__ESBMC_r_ok(buf + 2, n - 4), \"inside\");\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_objects", bounds, &[], "user-assertion");
    let contents = "int main(void) {\n\
                    \x20 int v[3] = {1, 2, 3};\n\
                    \x20 __ESBMC_init_object(v);\n\
                    \x20 __ESBMC_assert(v[1] != 77 || v[2] != -5, \"contents\");\n\
                    \x20 return 0;\n\
                    }\n";
    assert_reproduces("harness_init_object", contents, &[], "user-assertion");
}

#[test]
fn a_program_on_the_kernel_models_builds_with_them() {
    // The kernel API models are the verifier's own headers: the harness
    // names their folder, and their checks (a request above
    // KMALLOC_MAX_SIZE) fail natively at the counterexample's size only.
    let source = "#include <ubuntu20.04/kernel_5.15.0-76/include/linux/slab.h>\n\
                  unsigned long nondet_ulong(void);\n\
                  int main(void) {\n\
                  \x20 unsigned long n = nondet_ulong();\n\
                  \x20 if (n % 7 == 3 && n > 4194304 && n < 4194320) kmalloc(n, GFP_KERNEL);\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_kernel_models", source, &[], "user-assertion");
}

#[test]
fn a_quantifier_is_decided_at_the_counterexamples_value() {
    // The forall fails at the one index holding 99, which only the
    // counterexample's value of `i` (and of `a`) gives.
    let source = "int main(void) {\n\
                  \x20 int a[5];\n\
                  \x20 int i;\n\
                  \x20 /* __ESBMC_forall in a comment is no use of it */\n\
                  \x20 __ESBMC_assert(__ESBMC_forall(&i, !(0 <= i && i < 5) || a[i] != 99 || i == 0), \"no 99\");\n\
                  \x20 return 0;\n\
                  }\n";
    assert_reproduces("harness_forall", source, &[], "user-assertion");
    // An exists that fails needs every value: the native run says it cannot
    // decide (exit 3) instead of aborting as if it had.
    let dir = scratch_dir("harness_exists");
    let program = write(&dir, "program.c", "int main(void) {\n  int v;\n  __ESBMC_assert(__ESBMC_exists(&v, v * 0 == 1), \"none\");\n  return 0;\n}\n");
    let harness = dir.join("harness.c");
    let out = run([program.as_os_str(), "--harness".as_ref(), harness.as_os_str()]);
    assert_eq!(exit_code(&out), Some(EXIT_FAILED), "{}{}", out.stdout, out.stderr);
    let (ending, stderr) = build_and_run(&dir, &program, &harness, &[]);
    assert_eq!(ending, xtask::process::Ending::Exited(3), "{stderr}");
    assert!(stderr.contains("cannot check"), "{stderr}");
}

#[test]
fn a_program_declaring_the_quantifiers_builds() {
    // The violation (a zero-length VLA) comes before the quantifier, whose
    // declarations the macros must leave alone.
    let source = "extern _Bool __ESBMC_forall(void *, _Bool);\n\
                  unsigned __VERIFIER_nondet_uint(void);\n\
                  int main(void) {\n\
                  \x20 unsigned n = __VERIFIER_nondet_uint(), i;\n\
                  \x20 if (n > 3) return 0;\n\
                  \x20 int arr[n];\n\
                  \x20 return __ESBMC_forall(&i, i >= n || arr[i] == 0);\n\
                  }\n";
    assert_reproduces("harness_quantifier_declared", source, &[], "array-bounds");
}

#[test]
fn no_counterexample_writes_no_harness() {
    let dir = scratch_dir("harness_none");
    let program = write(&dir, "program.c", "int main(void) { return 0; }\n");
    let harness = dir.join("harness.c");
    let out = run([program.as_os_str(), "--harness".as_ref(), harness.as_os_str()]);
    assert_eq!(exit_code(&out), Some(EXIT_SUCCESS), "{}{}", out.stdout, out.stderr);
    assert!(!harness.exists(), "a harness was written for a program without a violation");
    assert!(out.stderr.contains("no counterexample"), "{}", out.stderr);
}

/// The values of a Test-Comp testcase's `<input>` elements, in order.
fn testcase_inputs(xml: &str) -> Vec<String> {
    xml.split("<input").skip(1).filter_map(|part| Some(part.split_once('>')?.1.split_once("</input>")?.0.to_string())).collect()
}

#[test]
fn the_test_suite_lists_the_inputs_in_call_order() {
    if !common::gcc_works(&[]) {
        println!("SKIP the_test_suite_lists_the_inputs_in_call_order: gcc is not available");
        return;
    }
    let dir = scratch_dir("harness_test_suite");
    let source = "extern int __VERIFIER_nondet_int(void);\n\
                  extern void reach_error(void);\n\
                  int main(void) {\n\
                  \x20 int x = __VERIFIER_nondet_int();\n\
                  \x20 int y = __VERIFIER_nondet_int();\n\
                  \x20 if (x > 10 && x < 20 && y == 2 * x) reach_error();\n\
                  \x20 return 0;\n\
                  }\n";
    let program = write(&dir, "program.c", source);
    let suite = dir.join("suite");
    let out = run([program.as_os_str(), "--test-suite".as_ref(), suite.as_os_str()]);
    assert_eq!(exit_code(&out), Some(EXIT_FAILED), "{}{}", out.stdout, out.stderr);
    let metadata = std::fs::read_to_string(suite.join("metadata.xml")).expect("metadata.xml is written");
    for element in ["<sourcecodelang>C</sourcecodelang>", "<entryfunction>main</entryfunction>", "<architecture>64bit</architecture>"] {
        assert!(metadata.contains(element), "{metadata}");
    }
    let testcase = std::fs::read_to_string(suite.join("testcase-1.xml")).expect("testcase-1.xml is written");
    let inputs = testcase_inputs(&testcase);
    assert_eq!(inputs.len(), 2, "{testcase}");
    // A reader as Test-Comp's harnesses are: the next input, whatever the call.
    let reader = format!(
        "#include <stdlib.h>\nstatic const char *inputs[] = {{\"{}\"}};\nstatic int next;\n\
         int __VERIFIER_nondet_int(void) {{ return next < {} ? atoi(inputs[next++]) : 0; }}\n\
         void reach_error(void) {{ abort(); }}\n",
        inputs.join("\", \""),
        inputs.len()
    );
    let reader = write(&dir, "reader.c", &reader);
    let (ending, stderr) = build_and_run(&dir, &program, &reader, &[]);
    assert_eq!(ending, xtask::process::Ending::Signaled(6), "{stderr}\n{testcase}");
}
