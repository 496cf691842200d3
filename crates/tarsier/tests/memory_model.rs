//! The memory model end to end: ESBMC's object intrinsics
//! (`__ESBMC_init_object`, `__ESBMC_memcpy`, `__ESBMC_memset`), objects of
//! unusual sizes, the command line and memory left at exit. Each program
//! has the verdict C semantics give it; a FALSE must also be confirmed by
//! the interpreter's replay, so these tests check symex and `ir::interp`
//! agree.

mod common;
use common::*;

const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const FAILED: &str = "VERIFICATION FAILED";

#[test]
fn init_object_makes_every_byte_of_the_object_nondeterministic() {
    let forgets = "#include <assert.h>
struct S { int a; char b[3]; };
int main(void) {
  struct S s[4];
  s[3].b[1] = 7;
  __ESBMC_init_object(&s[1].a);
  assert(s[3].b[1] == 7);
  return 0;
}\n";
    assert_verdict("init_object_forgets", forgets, &[], FAILED);
    let assumed = "#include <assert.h>
int g[5];
int main(void) {
  int *p = &g[2];
  __ESBMC_init_object(p);
  __ESBMC_assume(g[4] == 3);
  assert(g[4] == 3);
  assert(p == &g[2]);
  return 0;
}\n";
    assert_verdict("init_object_assumed", assumed, &[], SUCCESSFUL);
    let string_kept = "#include <assert.h>
int main(void) {
  const char *s = \"ab\";
  __ESBMC_init_object((void *)s);
  assert(s[1] == 'b');
  return 0;
}\n";
    assert_verdict("init_object_read_only", string_kept, &[], SUCCESSFUL);
}

#[test]
fn esbmc_memcpy_and_memset_are_the_library_functions() {
    let source = "#include <assert.h>
int main(void) {
  unsigned long long a, b = 0x1122334455667788ull;
  __ESBMC_memcpy(&a, &b, sizeof a);
  assert(a == b);
  char c[4];
  __ESBMC_memset(c, 9, 3);
  assert(c[0] == 9 && c[2] == 9);
  return 0;
}\n";
    assert_verdict("esbmc_mem_functions", source, &[], SUCCESSFUL);
    let wrong = "#include <assert.h>
int main(void) {
  char c[4] = {1, 2, 3, 4};
  __ESBMC_memset(c, 0, 2);
  assert(c[1] == 2);
  return 0;
}\n";
    assert_verdict("esbmc_memset_clears", wrong, &[], FAILED);
}
