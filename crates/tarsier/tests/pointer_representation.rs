//! How pointers are represented, end to end: unchecked writes that stay in
//! their object (or trap at address 0) are exact, pointers stored in raw
//! bytes keep their object, pointers read at a symbolic index compare
//! exactly with addresses, and objects alive together never share one.
//! Each program has the verdict C semantics (gcc -O0) give it; a FAILED
//! verdict is also confirmed by the interpreter's replay.

mod common;
use common::*;

const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const FAILED: &str = "VERIFICATION FAILED";
const UNKNOWN: &str = "VERIFICATION UNKNOWN";
const NO_CHECKS: &[&str] = &["--no-bounds-check", "--no-pointer-check"];

#[test]
fn an_unchecked_write_is_exact_when_it_cannot_leave_its_object() {
    let inside = "#include <assert.h>
short stack[8];
int main(void) {
  unsigned char sp = nondet_uchar();
  __ESBMC_assume(sp >= 1 && sp < 8);
  short v = nondet_short();
  stack[sp - 1] = v;
  stack[sp] = stack[sp - 1];
  assert(stack[sp] == v);
  return 0;
}\n";
    assert_verdict("unchecked_write_inside", inside, NO_CHECKS, SUCCESSFUL);
    // Past the array the write may hit `g`, which the model cannot say.
    let may_leave = "#include <assert.h>
short stack[8];
short g;
int main(void) {
  unsigned char sp = nondet_uchar();
  __ESBMC_assume(sp < 9);
  stack[sp] = 1;
  assert(g == 0);
  return 0;
}\n";
    let answer = verdict("unchecked_write_may_leave", may_leave, NO_CHECKS);
    assert!(answer.starts_with(UNKNOWN), "{answer}");
    assert!(answer.contains("a write outside its object (unchecked) is ignored"), "{answer}");
}

#[test]
fn an_unchecked_write_to_the_null_page_ends_the_run() {
    let source = "#include <assert.h>
struct S { int a; int b; };
int g;
int main(void) {
  struct S *p = 0;
  if (nondet_int())
    p->b = 5;
  assert(g == 0);
  return 0;
}\n";
    assert_verdict("unchecked_null_page_write", source, NO_CHECKS, SUCCESSFUL);
    // Far from address 0 the write may hit another object.
    let far = source.replace("p->b = 5", "p[1000] = (struct S){ 5, 5 }");
    assert_verdict("unchecked_far_write", &far, NO_CHECKS, UNKNOWN);
}

#[test]
fn a_pointer_stored_in_raw_heap_bytes_reads_back_as_itself() {
    let source = "#include <assert.h>
#include <stdlib.h>
int main(void) {
  int x;
  void *q = &x;
  char *raw = malloc(64);
  if (raw == 0)
    return 0;
  void **s = (void **)raw;
  *s = q;
  assert(*s == q);
  return 0;
}\n";
    assert_verdict("pointer_in_raw_bytes", source, &["--no-pointer-check"], SUCCESSFUL);
    let differs = source.replace("assert(*s == q)", "assert(*s != q)");
    assert_verdict("pointer_in_raw_bytes_differs", &differs, &["--no-pointer-check"], FAILED);
}

#[test]
fn a_pointer_read_at_a_symbolic_index_compares_exactly() {
    let source = "#include <assert.h>
int a, b;
int main(void) {
  int *table[2] = { &a, &b };
  int i = nondet_int();
  __ESBMC_assume(i >= 0 && i < 2);
  int *p = table[i];
  assert(p == &a || p == &b);
  return 0;
}\n";
    assert_verdict("symbolic_index_pointer", source, &[], SUCCESSFUL);
    let only_a = source.replace("p == &a || p == &b", "p == &a");
    assert_verdict("symbolic_index_pointer_not_a", &only_a, &[], FAILED);
}

#[test]
fn bytes_no_pointer_was_stored_in_read_as_a_pointer_are_an_address() {
    let low_byte = "#include <assert.h>
int some_var;
int main(void) {
  void *bar = 0;
  unsigned char *bytes = (unsigned char *)&bar;
  bytes[0] = nondet_uchar();
  assert((unsigned long)bar < 256);
  assert(bar != (void *)&some_var);
  return 0;
}\n";
    // Some run places `some_var` below address 256.
    assert_verdict("raw_pointer_low_byte", low_byte, &[], FAILED);
    let in_range_only = low_byte.replace("assert(bar != (void *)&some_var);", "");
    assert_verdict("raw_pointer_low_byte_in_range", &in_range_only, &[], SUCCESSFUL);
    let every_byte = "#include <assert.h>
int some_var;
struct holder { void *ptr; } data;
int main(void) {
  for (int i = 0; i < sizeof data; i++)
    ((unsigned char *)&data)[i] = nondet_uchar();
  assert(data.ptr != &some_var);
  return 0;
}\n";
    assert_verdict("raw_pointer_every_byte", every_byte, &[], FAILED);
}

#[test]
fn a_violation_after_a_printed_address_is_trusted_only_if_no_address_avoids_it() {
    let any_address = "#include <assert.h>
#include <stdio.h>
int main(void) {
  int x = 0;
  int r = printf(\"%02X\", (void *)&x);
  assert(r < 2);
  return 0;
}\n";
    // At least two hex digits are printed whatever the address.
    assert_verdict("printed_address_any", any_address, &[], FAILED);
    let at_least_nil = any_address.replace("\"%02X\"", "\"%p\"").replace("r < 2", "r < 3");
    assert_verdict("printed_pointer_any", &at_least_nil, &[], FAILED);
    // A local lies above 4 GiB on x86-64 Linux: at least 11 characters.
    let above_4_gib = at_least_nil.replace("r < 3", "r >= 11");
    assert_verdict("printed_pointer_local", &above_4_gib, &[], SUCCESSFUL);
    let nine_digits = above_4_gib.replace("\"%p\"", "\"%lx\"").replace("r >= 11", "r >= 9");
    assert_verdict("printed_pointer_local_as_integer", &nine_digits, &[], SUCCESSFUL);
    // Fourteen characters for the main thread's stack, but the model's layout decides.
    let some_addresses = at_least_nil.replace("r < 3", "r >= 14");
    let answer = verdict("printed_pointer_some", &some_addresses, &[]);
    assert!(answer.starts_with(UNKNOWN) && answer.contains("an address printed"), "{answer}");
}

#[test]
fn an_uninitialized_pointer_is_an_approximation_only_once_an_address_is_observed() {
    let unobserved = "#include <assert.h>
int main(void) {
  char *p, *q;
  q = p;
  assert(!__ESBMC_same_object(q, 0) || q == 0);
  return 0;
}\n";
    assert_verdict("raw_pointer_unobserved", unobserved, &[], SUCCESSFUL);
    // Its integer value could be any of 2^64, more than the offset field holds.
    let observed = unobserved.replace("q == 0", "(unsigned long)q != 1");
    let answer = verdict("raw_pointer_observed", &observed, &[]);
    assert!(answer.starts_with(UNKNOWN) && answer.contains("does not fit"), "{answer}");
}

#[test]
fn a_counterexample_avoids_unchecked_writes_the_replay_would_stop_at() {
    let source = "#include <assert.h>
void store(char **end) {
  if (end)
    *end = \"x\";
}
int main(void) {
  char *p;
  store((char **)p);
  assert(0);
  return 0;
}\n";
    assert_verdict("unchecked_write_avoided", source, &["--no-pointer-check"], FAILED);
}

#[test]
fn objects_whose_lifetimes_met_have_disjoint_addresses_after_one_ends() {
    // `s` is exposed inside its block, `arr` only after `s` has ended: the
    // counterexample must still place them apart (they were alive
    // together), or the replay refuses its layout.
    let program = |check: &str| {
        format!(
            "#include <assert.h>
#include <stdint.h>
unsigned nondet_uint(void);
struct S {{ char c; long x; }};
int main(void) {{
  long arr[4];
  int same;
  {{ struct S s; struct S *back = (struct S *)((uintptr_t)&s.x - 8); same = back == &s; }}
  unsigned i = nondet_uint() % 5;
  long *q = arr + i;
  assert({check});
  return 0;
}}\n"
        )
    };
    let past_end = program("!(same && (uintptr_t)q == (uintptr_t)&arr[4])");
    assert_verdict("lifetimes_met_past_end", &past_end, &[], FAILED);
    let holds = program("same == 1 && (uintptr_t)q - (uintptr_t)arr == i * sizeof(long)");
    assert_verdict("lifetimes_met_holds", &holds, &[], SUCCESSFUL);
    // Objects that never lived together may share an address (a reused
    // stack slot), so their addresses may be equal.
    let reused = "#include <assert.h>
#include <stdint.h>
int main(void) {
  uintptr_t pa, pb;
  { int a = 1; pa = (uintptr_t)&a; }
  { int b = 2; pb = (uintptr_t)&b; }
  assert(pa != pb);
  return 0;
}\n";
    assert_verdict("lifetimes_never_met", reused, &[], FAILED);
}
