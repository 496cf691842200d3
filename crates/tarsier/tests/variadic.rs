//! User-defined variadic functions end to end: `va_start`, `va_arg`,
//! `va_copy`, `va_end`, a `va_list` passed on, calls through pointers, both
//! data models; FALSE verdicts are replayed by the interpreter.

mod common;
use common::*;

const SUM: &str = r#"
#include <stdarg.h>
#include <assert.h>
int sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, int);
  va_end(ap);
  return s;
}
"#;

#[test]
fn va_arg_reads_the_arguments_in_order() {
    let program = format!("{SUM}int main(void) {{ assert(sum(3, 1, 20, 300) == 321); return 0; }}\n");
    assert_verdict("va_sum_ok", &program, &[], "VERIFICATION SUCCESSFUL");
    let wrong = format!("{SUM}int main(void) {{ assert(sum(2, 1, 2) == 4); return 0; }}\n");
    assert_verdict("va_sum_wrong", &wrong, &[], "VERIFICATION FAILED");
}

#[test]
fn reading_past_the_last_argument_is_an_invalid_dereference() {
    let program = format!("{SUM}int main(void) {{ return sum(3, 1, 2); }}\n");
    assert_verdict("va_past_end", &program, &[], "VERIFICATION FAILED");
}

const MIXED: &str = r#"
#include <stdarg.h>
#include <assert.h>
struct pair { char c; long long v; };
long long mixed(int tag, ...) {
  va_list ap, copy;
  va_start(ap, tag);
  va_copy(copy, ap);
  long long a = va_arg(ap, long long);
  char *s = va_arg(ap, char *);
  struct pair p = va_arg(ap, struct pair);
  int last = va_arg(ap, int);
  va_end(ap);
  long long again = va_arg(copy, long long);
  va_end(copy);
  assert(a == again);
  return a + s[1] + p.c + p.v + last;
}
int main(void) {
  struct pair p = { 3, 4000 };
  assert(mixed(0, 10000000000LL, "xy", p, 5) == 10000000000LL + 'y' + 3 + 4000 + 5);
  return 0;
}
"#;

#[test]
fn arguments_of_any_size_keep_their_slots_in_both_data_models() {
    assert_verdict("va_mixed_64", MIXED, &["--64"], "VERIFICATION SUCCESSFUL");
    assert_verdict("va_mixed_32", MIXED, &["--32"], "VERIFICATION SUCCESSFUL");
}

const FORWARD: &str = r#"
#include <stdarg.h>
#include <assert.h>
static int vmax(int n, va_list ap) {
  int m = va_arg(ap, int);
  for (int i = 1; i < n; i++) { int x = va_arg(ap, int); if (x > m) m = x; }
  return m;
}
static int max(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int m = vmax(n, ap);
  va_end(ap);
  return m;
}
int main(void) {
  int (*f)(int, ...) = max;
  int x = __VERIFIER_nondet_int();
  assert(f(3, 4, x, 2) >= 4);
  assert(f(3, 4, x, 2) != 7);
  return 0;
}
"#;

#[test]
fn a_va_list_passed_on_and_a_call_through_a_pointer() {
    let program = FORWARD.replace("__VERIFIER_nondet_int()", "3");
    assert_verdict("va_forward_ok", &program, &[], "VERIFICATION SUCCESSFUL");
    let program = format!("int __VERIFIER_nondet_int(void);\n{FORWARD}");
    assert_verdict("va_forward_nondet", &program, &[], "VERIFICATION FAILED");
}

#[test]
fn a_va_list_never_started_is_an_invalid_dereference() {
    let program = r#"
#include <stdarg.h>
int first(int n, ...) { va_list ap, aq; va_copy(aq, ap); return va_arg(aq, int); }
int main(void) { return first(1, 2); }
"#;
    assert_verdict("va_unstarted", program, &[], "VERIFICATION FAILED");
}

#[test]
fn va_start_outside_a_variadic_function_is_an_input_error() {
    if !front_end_ready("va_start_fixed") {
        return;
    }
    let dir = scratch_dir("va_start_fixed");
    let file = write(&dir, "main.c", "#include <stdarg.h>\nint f(int n) { va_list ap; va_start(ap, n); return 0; }\nint main(void) { return f(1); }\n");
    let out = run([file.as_os_str()]);
    assert_eq!(exit_code(&out), Some(EXIT_INPUT_ERROR), "{}", out.stderr);
    assert!(out.stderr.contains("main.c:2:") && out.stderr.contains("fixed arguments"), "{}", out.stderr);
}

/// Arguments aligned beyond a word (x86-64: `long double`, `__int128`,
/// structs holding them) after an odd number of word slots: their slots
/// start at a multiple of 16, for `va_arg` and for a `va_list` consumed by
/// `vsnprintf`; i386 keeps 4-byte slots. Once a misaligned-pointer
/// failure (a wrong FALSE).
const OVER_ALIGNED: &str = r#"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <assert.h>
struct wide { long double x; char tag; };
static long double total(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long double s = va_arg(ap, int);
  s += va_arg(ap, long double);
  struct wide w = va_arg(ap, struct wide);
  s += w.x + w.tag;
  s += va_arg(ap, double);
#ifdef __SIZEOF_INT128__
  s += (long double)(va_arg(ap, __int128) >> 64);
#else
  s += va_arg(ap, int);
#endif
  s += va_arg(ap, int);
  va_end(ap);
  return s;
}
static int show(char *out, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vsnprintf(out, 32, format, ap);
  va_end(ap);
  return n;
}
int main(void) {
  struct wide w = { 0.25L, 3 };
#ifdef __SIZEOF_INT128__
  long double s = total(0, 1, 2.5L, w, 0.5, (__int128)7 << 64, 10);
#else
  long double s = total(0, 1, 2.5L, w, 0.5, 7, 10);
#endif
  char out[32];
  show(out, "%d %.2Lf %d", 1, 2.5L, 3);
  ASSERTION;
  return 0;
}
"#;

#[test]
fn arguments_aligned_beyond_a_word_start_at_their_alignment() {
    let holds = OVER_ALIGNED.replace("ASSERTION", "assert(s == 24.25L && strcmp(out, \"1 2.50 3\") == 0)");
    for model in ["--64", "--32"] {
        assert_verdict(&format!("va_aligned_holds{model}"), &holds, &[model], "VERIFICATION SUCCESSFUL");
    }
    let dir = scratch_dir("va_aligned_native");
    if let Some(out) = native_run(&dir, "va_aligned", &holds, SANITIZERS) {
        assert!(exit_code(&out) == Some(0) && !sanitizer_reported(&out), "gcc's run fails:\n{}", out.stderr);
    }
    let fails = OVER_ALIGNED.replace("ASSERTION", "assert(s != 24.25L)");
    assert_verdict("va_aligned_fails", &fails, &["--64"], "VERIFICATION FAILED");
    let fails = OVER_ALIGNED.replace("ASSERTION", "assert(strcmp(out, \"1 2.50 3\") != 0)");
    assert_verdict("va_aligned_fails_vsnprintf", &fails, &["--64"], "VERIFICATION FAILED");
}
