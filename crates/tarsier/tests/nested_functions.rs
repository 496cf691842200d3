//! GNU nested functions end to end: reading and writing the enclosing
//! function's variables, nesting two deep, shadowing, recursion of the
//! enclosing function, and the shapes that stay unsupported.

mod common;
use common::*;

const CAPTURES: &str = r#"
#include <assert.h>
int main(void) {
  int x = 10, hits = 0;
  int add(int d) { int x2 = d; x += x2; return x; }
  void outer(void) {
    void inner(void) { hits++; x = x * 2; }
    inner();
    inner();
  }
  int shadow(void) { int r = x; for (int x = 0; x < 3; ++x) r += x; return r; }
  assert(add(5) == 15 && x == 15);
  outer();
  assert(x == 60 && hits == 2);
  assert(shadow() == WANT);
  return 0;
}
"#;

#[test]
fn nested_functions_read_and_write_the_enclosing_variables() {
    assert_verdict("nested_ok", &CAPTURES.replace("WANT", "63"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("nested_wrong", &CAPTURES.replace("WANT", "60"), &[], "VERIFICATION FAILED");
}

#[test]
fn each_frame_of_a_recursive_enclosing_function_has_its_own_captures() {
    let program = r#"
#include <assert.h>
int f(int n) {
  int local = n;
  int get(void) { return local; }
  if (n > 0)
    assert(f(n - 1) == n - 1);
  return get();
}
int main(void) { assert(f(3) == 3); return 0; }
"#;
    assert_verdict("nested_recursive_outer", program, &["--unwind", "5"], "VERIFICATION SUCCESSFUL");
}

#[test]
fn a_nested_function_without_captures_is_a_plain_function_pointer() {
    let program = r#"
#include <assert.h>
static int apply(int (*f)(int), int v) { return f(v); }
int main(void) {
  int twice(int v) { return 2 * v; }
  assert(apply(twice, 21) == 42);
  return 0;
}
"#;
    assert_verdict("nested_pointer", program, &[], "VERIFICATION SUCCESSFUL");
}

#[test]
fn the_address_of_a_capturing_nested_function_is_unsupported() {
    let program = r#"
static int apply(int (*f)(int), int v) { return f(v); }
int run(void) {
  int k = 3;
  int add_k(int v) { return v + k; }
  return apply(add_k, 1);
}
int main(void) { return run(); }
"#;
    let answer = verdict("nested_trampoline", program, &[]);
    assert!(answer.starts_with("VERIFICATION UNKNOWN"), "{answer}");
    assert!(answer.contains("unsupported: the address of a nested function"), "{answer}");
}
