//! Objects the C standard leaves odd and GNU C allows: types of size zero
//! (empty structs and unions, zero-length arrays) and tentative
//! definitions of arrays of unknown size; and calls through unprototyped
//! declarations that leave parameters out. Each program has the verdict
//! gcc's semantics give it; a FALSE must also be confirmed by the
//! interpreter's replay, so these tests check symex and `ir::interp` agree.

mod common;
use common::*;

const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const FAILED: &str = "VERIFICATION FAILED";

#[test]
fn values_of_size_zero_occupy_no_memory() {
    let source = "#include <assert.h>
#include <stdlib.h>
struct E {};
struct S { char c; struct E e; char d; };
struct E g1, g2;
struct E make(struct E e) { return e; }
int main(void) {
  struct S s = { 1, {}, 2 };
  struct E e = make(g1);
  s.e = e;
  assert(sizeof(struct E) == 0 && sizeof s == 2);
  assert(s.c == 1 && s.d == 2);
  assert((char *)&s.e == &s.d);
  assert(&g1 != &g2);
  struct E *heap = malloc(0);
  if (heap) {
    *heap = e;
    e = *heap;
    free(heap);
  }
  return 0;
}\n";
    assert_verdict("zero_size_values", source, &[], SUCCESSFUL);
}

#[test]
fn an_object_of_size_zero_must_still_be_live_and_not_null() {
    let freed = "#include <stdlib.h>
struct E {};
int main(void) {
  struct E *p = malloc(sizeof *p);
  if (!p) return 0;
  free(p);
  struct E copy = *p;
  return 0;
}\n";
    assert_verdict("zero_size_freed", freed, &[], FAILED);
    let null = "struct E {};
struct E *p;
int main(void) { struct E copy = *p; return 0; }\n";
    assert_verdict("zero_size_null", null, &[], FAILED);
}

#[test]
fn every_element_of_a_zero_length_array_is_out_of_bounds() {
    let source = "int main(void) {
  int z[0];
  int i;
  z[i] = 1;
  return 0;
}\n";
    assert_verdict("zero_length_array", source, &[], FAILED);
}

#[test]
fn a_tentative_array_of_unknown_size_has_one_element() {
    let inside = "#include <assert.h>
int a[];
int main(void) { a[0] = 5; assert(a[0] == 5); return 0; }
int a[];\n";
    assert_verdict("tentative_one_element", inside, &[], SUCCESSFUL);
    let past = "int a[][2];
int main(void) { a[1][0] = 5; return 0; }\n";
    assert_verdict("tentative_past_the_element", past, &[], FAILED);
}

#[test]
fn parameters_an_unprototyped_call_leaves_out_hold_unknown_values() {
    let uses_missing = "#include <assert.h>
void g(int x, int y) { assert(x == 5); assert(y == 0); }
void trampoline(void (*f)()) { f(5); }
int main(void) { trampoline(g); return 0; }\n";
    assert_verdict("missing_parameter_used", uses_missing, &[], FAILED);
    let ignores_missing = "#include <assert.h>
int g(int x, int y) { return x + 1; }
int main(void) { int (*f)() = g; assert(f(5) == 6); return 0; }\n";
    assert_verdict("missing_parameter_unused", ignores_missing, &[], SUCCESSFUL);
}
