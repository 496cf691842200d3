//! The bytes of a stored pointer read with a non-pointer type are the bytes
//! of its address, as gcc -O0 gives them: one program per access shape
//! (whole, union, cast lvalue, byte by byte, partial, arrays of pointers,
//! struct copies, and back from integer bytes to a pointer), each with a
//! twin of the opposite verdict. A FAILED verdict is also confirmed by the
//! interpreter's replay.

mod common;
use common::*;

const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const FAILED: &str = "VERIFICATION FAILED";
const UNKNOWN: &str = "VERIFICATION UNKNOWN";

/// `source` with `assertion` in place of `ASSERTION`.
fn with(source: &str, assertion: &str) -> String {
    source.replace("ASSERTION", assertion)
}

/// The program holds with `holds` and fails with `fails`.
fn check_twins(name: &str, source: &str, holds: &str, fails: &str) {
    assert_verdict(&format!("{name}_holds"), &with(source, holds), &[], SUCCESSFUL);
    assert_verdict(&format!("{name}_fails"), &with(source, fails), &[], FAILED);
}

#[test]
fn a_pointer_copied_into_an_integer_is_its_address() {
    let source = "#include <assert.h>
#include <string.h>
int main(void) {
  int x;
  int *p = &x;
  long v;
  memcpy(&v, &p, sizeof v);
  ASSERTION;
  return 0;
}\n";
    check_twins("memcpy_whole", source, "assert(v == (long)p && v < (1L << 48))", "assert(v >= (1L << 48))");
}

#[test]
fn a_union_member_of_integer_type_reads_the_address() {
    let source = "#include <assert.h>
int g;
union U { int *p; long v; };
int main(void) {
  union U u;
  u.p = &g;
  ASSERTION;
  return 0;
}\n";
    check_twins("union", source, "assert(u.v == (long)&g)", "assert(u.v != (long)&g)");
}

#[test]
fn a_pointer_read_through_an_integer_lvalue_is_its_address() {
    let source = "#include <assert.h>
int main(void) {
  int x;
  int *p = &x;
  long v = *(long *)&p;
  int low = *(int *)&p;
  ASSERTION;
  return 0;
}\n";
    check_twins("cast_lvalue", source, "assert(v == (long)p && low == (int)(long)p)", "assert(low != (int)(long)p)");
}

#[test]
fn the_bytes_of_a_pointer_are_the_bytes_of_its_address() {
    let source = "#include <assert.h>
int main(void) {
  int x;
  int *p = &x;
  unsigned char *b = (unsigned char *)&p;
  unsigned long r = 0;
  for (int i = 7; i >= 0; i--)
    r = (r << 8) | b[i];
  ASSERTION;
  return 0;
}\n";
    check_twins("bytewise", source, "assert(r == (unsigned long)p && (b[0] & 3) == 0)", "assert(r != (unsigned long)p)");
}

#[test]
fn an_array_of_pointers_read_as_bytes_holds_addresses() {
    let source = "#include <assert.h>
#include <string.h>
int x, y;
int main(void) {
  int *a[2] = { &x, &y };
  const char *c = (const char *)a;
  long second;
  memcpy(&second, c + sizeof(int *), sizeof second);
  ASSERTION;
  return 0;
}\n";
    check_twins("pointer_array", source, "assert(second == (long)&y)", "assert(second == (long)&x)");
}

#[test]
fn a_struct_copy_carries_its_pointers_addresses() {
    let source = "#include <assert.h>
#include <string.h>
struct S { long n; int *p; };
int main(void) {
  int x;
  struct S s = { 5, &x };
  struct S t = s;
  long w;
  memcpy(&w, (char *)&t + sizeof(long), sizeof w);
  ASSERTION;
  return 0;
}\n";
    check_twins("struct_copy", source, "assert(w == (long)&x && t.n == 5)", "assert(w == t.n)");
}

#[test]
fn integer_bytes_read_as_a_pointer_name_the_object_at_that_address() {
    let source = "#include <assert.h>
#include <string.h>
int main(void) {
  int x = 1;
  long v = (long)&x;
  int *q;
  memcpy(&q, &v, sizeof q);
  *q = 3;
  ASSERTION;
  return 0;
}\n";
    check_twins("integer_to_pointer", source, "assert(x == 3)", "assert(x != 3)");
}

#[test]
fn a_pointer_copied_byte_by_byte_still_points_to_its_object() {
    let source = "#include <assert.h>
int main(void) {
  int x = 1;
  int *p = &x, *q;
  unsigned char *from = (unsigned char *)&p, *to = (unsigned char *)&q;
  for (int i = 0; i < (int)sizeof p; i++)
    to[i] = from[i];
  *q = 7;
  ASSERTION;
  return 0;
}\n";
    check_twins("bytewise_copy", source, "assert(x == 7 && q == p)", "assert(x != 7)");
}

#[test]
fn the_rest_of_a_partly_overwritten_pointer_is_its_address() {
    let source = "#include <assert.h>
int g;
union U { int *p; long v; int half[2]; };
int main(void) {
  union U u;
  u.p = &g;
  u.half[0] = 0;
  ASSERTION;
  return 0;
}\n";
    let high_half = "((long)&g & ~0xffffffffL)";
    check_twins("partial_overwrite", source, &format!("assert(u.v == {high_half})"), &format!("assert(u.v != {high_half})"));
}

#[test]
fn a_pointer_byte_read_at_a_symbolic_offset_is_a_declared_approximation() {
    let source = "#include <assert.h>
int main(void) {
  int x;
  int *p = &x;
  unsigned i = nondet_uint();
  __ESBMC_assume(i < sizeof p);
  unsigned char c = ((unsigned char *)&p)[i];
  assert(c != 0x55);
  return 0;
}\n";
    let answer = verdict("symbolic_pointer_byte", source, &[]);
    assert!(answer.starts_with(UNKNOWN), "{answer}");
    assert!(answer.contains("a pointer's bytes read as an integer"), "{answer}");
}

#[test]
fn pointers_stored_in_a_list_still_read_back_exactly() {
    let source = "#include <assert.h>
#include <stdlib.h>
struct Node { int value; struct Node *next; };
int main(void) {
  struct Node *head = 0;
  for (int i = 0; i < 3; i++) {
    struct Node *n = malloc(sizeof *n);
    if (!n)
      return 0;
    n->value = i;
    n->next = head;
    head = n;
  }
  int sum = 0;
  for (struct Node *n = head; n; n = n->next)
    sum += n->value;
  ASSERTION;
  return 0;
}\n";
    check_twins("linked_list", source, "assert(sum == 3)", "assert(sum == 4)");
    let answer = verdict("linked_list_exact", &with(source, "assert(sum == 3)"), &[]);
    assert!(!answer.contains("a pointer's bytes read as an integer"), "{answer}");
}

const TWO_STRUCTS: &str = "#include <assert.h>
struct A { long tag; int *p; };
struct B { long x; long y; };
int v, w;
int nondet_int(void);
";

#[test]
fn a_struct_copied_through_another_struct_type_keeps_its_pointer() {
    let source = format!(
        "{TWO_STRUCTS}int main(void) {{
  struct A a1 = {{ 7, &v }}, a2;
  *(struct B *)&a2 = *(struct B *)&a1;
  ASSERTION;
  return 0;
}}\n"
    );
    let holds = "assert(a2.p == &v && *a2.p == 0 && ((struct B *)&a2)->y == (long)&v && ((struct B *)&a1)->y == (long)&v)";
    check_twins("struct_through_other", &source, holds, "assert(((struct B *)&a2)->y != (long)&v)");
}

#[test]
fn a_struct_read_from_a_union_member_of_another_type_keeps_its_pointer() {
    let source = format!(
        "{TWO_STRUCTS}union U {{ struct A a; struct B b; }};
int main(void) {{
  struct A a1 = {{ 7, &v }};
  union U u;
  u.a = a1;
  struct B b = u.b;
  ASSERTION;
  return 0;
}}\n"
    );
    check_twins("union_of_structs", &source, "assert(b.y == (long)&v && b.x == 7)", "assert(b.y != (long)&v)");
}

#[test]
fn a_struct_returned_or_chosen_as_another_type_keeps_its_pointer() {
    let source = format!(
        "{TWO_STRUCTS}static struct B as_b(struct A *a) {{ return *(struct B *)a; }}
int main(void) {{
  struct A a1 = {{ 7, &v }}, a3 = {{ 8, &w }};
  struct B r = as_b(&a1);
  int c = nondet_int();
  struct B b = c ? *(struct B *)&a1 : *(struct B *)&a3;
  ASSERTION;
  return 0;
}}\n"
    );
    let holds = "assert(r.y == (long)&v && b.y == (c ? (long)&v : (long)&w))";
    check_twins("struct_return", &source, holds, "assert(r.y != (long)&v || b.y != (c ? (long)&v : (long)&w))");
}

#[test]
fn the_argv_array_holds_the_addresses_of_its_strings() {
    let source = "#include <assert.h>
#include <string.h>
int main(int argc, char **argv) {
  long v;
  memcpy(&v, argv, sizeof v);
  ASSERTION;
  return 0;
}\n";
    check_twins("argv_bytes", source, "assert(v == (long)argv[0] && v != 0)", "assert(v != (long)argv[0])");
}

#[test]
fn a_reallocated_array_of_pointers_holds_their_addresses() {
    let source = "#include <assert.h>
#include <stdlib.h>
#include <string.h>
int x, y;
int main(void) {
  int **a = malloc(2 * sizeof *a);
  if (!a) return 0;
  a[0] = &x;
  a[1] = &y;
  int **b = realloc(a, 4 * sizeof *b);
  if (!b) { free(a); return 0; }
  long v;
  memcpy(&v, &b[1], sizeof v);
  ASSERTION;
  free(b);
  return 0;
}\n";
    check_twins("realloc_pointers", source, "assert(v == (long)&y && b[0] == &x)", "assert(v != (long)&y)");
}

#[test]
fn memset_over_part_of_a_pointer_leaves_the_rest_of_its_address() {
    let source = "#include <assert.h>
#include <string.h>
int x;
union U { int *p; long v; };
int nondet_int(void);
int main(void) {
  union U u;
  u.p = &x;
  int c = nondet_int() & 0x7f;
  memset(&u, c + 1, 4);
  unsigned long expect = ((unsigned long)&x & ~0xffffffffUL) | 0x01010101UL * (unsigned)(c + 1);
  ASSERTION;
  return 0;
}\n";
    check_twins("memset_part", source, "assert((unsigned long)u.v == expect)", "assert((unsigned long)u.v != expect)");
}

#[test]
fn library_functions_read_a_pointers_bytes_as_its_address() {
    // x is 16-aligned (an array of 16 bytes), so &x[1] has a nonzero low
    // byte; user-space addresses have two zero high bytes.
    let source = "#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
int x[4], y;
int main(void) {
  int *p = &x[1];
  struct { long tag; int *q; } a = { 1, &x[1] }, b = { 1, &x[1] }, c = { 1, &y };
  uintptr_t u = (uintptr_t)p;
  char buf[16];
  int printed = printf(\"%s\", (char *)&p);
  int stored = snprintf(buf, sizeof buf, \"%s\", (char *)&p);
  ASSERTION;
  return 0;
}\n";
    let holds = "assert(memcmp(&a, &b, sizeof a) == 0 && memcmp(&a, &c, sizeof a) != 0 && memcmp(&p, &u, sizeof u) == 0 \
                 && memchr(&p, 0, sizeof p) != 0 && printed >= 1 && printed <= 6 && stored == printed && buf[0] == (char)u)";
    check_twins("library_reads", source, holds, "assert(stored == 0 || memcmp(&a, &c, sizeof a) == 0)");
}

#[test]
fn a_pointer_byte_read_at_a_merged_index_is_exact() {
    // After the loop `i` is one of a few constants: each window is converted.
    let source = "#include <assert.h>
int x[4];
int main(void) {
  int *p = &x[1];
  unsigned char *b = (unsigned char *)&p;
  unsigned i = 0;
  while (i < 7 && b[i] != 0)
    i++;
  unsigned char last = b[i];
  ASSERTION;
  return 0;
}\n";
    check_twins("merged_index", source, "assert(last == 0 && i >= 1 && i <= 6)", "assert(last != 0)");
}

/// How a pointer whose value is a term (not a constant) is made.
const SYMBOLIC_POINTERS: &[(&str, &str)] = &[
    ("index", "&a[n]"),
    ("sum", "a + n"),
    ("choice", "n == 2 ? &a[1] : &b"),
    ("heap", "(long *)h + n"),
];

/// How the pointer `p`'s bytes are read back as the integer `v`.
const READS: &[(&str, &str)] = &[
    ("union", "union { long *p; uintptr_t u; } un; un.p = p; uintptr_t v = un.u;"),
    ("memcpy", "uintptr_t v; memcpy(&v, &p, sizeof v);"),
    ("cast_lvalue", "uintptr_t v = *(uintptr_t *)&p;"),
    ("bytes", "uintptr_t v = 0; for (int i = 7; i >= 0; i--) v = (v << 8) | ((unsigned char *)&p)[i];"),
];

/// The bytes of a pointer whose value symex holds as a term (an index, a
/// sum or a choice over an input, into the stack or the heap) read as
/// its address in every access shape; twins check the address both ways
/// and a pointer rebuilt from it. gcc -O0 runs each twin with the input 2.
#[test]
fn the_bytes_of_a_pointer_with_a_symbolic_value_are_its_address() {
    let source = |pointer: &str, read: &str, assertion: &str| {
        format!(
            "#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
extern unsigned __VERIFIER_nondet_uint(void);
long b;
int main(void) {{
  long a[4] = {{10, 11, 12, 13}};
  void *h = malloc(4 * sizeof(long));
  if (!h) return 0;
  unsigned n = __VERIFIER_nondet_uint();
  if (n > 3) return 0;
  long *p = {pointer};
  {read}
  {assertion};
  return 0;
}}\n"
        )
    };
    let native_input = "unsigned __VERIFIER_nondet_uint(void) { return 2; }\n";
    let dir = scratch_dir("symbolic_pointer_bytes");
    for (pointer_name, pointer) in SYMBOLIC_POINTERS {
        for (read_name, read) in READS {
            let name = format!("symbolic_{pointer_name}_{read_name}");
            let holds = source(pointer, read, "assert(v == (uintptr_t)p && (long *)v == p)");
            let fails = source(pointer, read, "assert(v != (uintptr_t)p)");
            assert_verdict(&format!("{name}_holds"), &holds, &[], SUCCESSFUL);
            assert_verdict(&format!("{name}_fails"), &fails, &[], FAILED);
            for (twin, text, exits) in [("holds", &holds, true), ("fails", &fails, false)] {
                let Some(out) = native_run(&dir, &format!("{name}_{twin}"), &format!("{native_input}{text}"), &[]) else {
                    println!("SKIP native runs: gcc is not available");
                    return;
                };
                assert_eq!(exit_code(&out) == Some(0), exits, "{name}_{twin} natively: {}", out.stderr);
            }
        }
    }
}
