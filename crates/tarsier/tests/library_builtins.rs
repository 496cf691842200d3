//! Atomic built-ins, library functions and tool intrinsics of sequential
//! programs end to end. Each program has the verdict gcc's semantics give
//! it; a FALSE must also be confirmed by the replay, so these tests check
//! that symex and the interpreter agree.

mod common;

use common::assert_verdict;

const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const FAILED: &str = "VERIFICATION FAILED";

#[test]
fn atomic_builtins_have_their_sequential_effect() {
    let program = r#"
#include <assert.h>
#include <stdatomic.h>
int main(void) {
  int a = 42;
  assert(__sync_fetch_and_add(&a, 8) == 42 && a == 50);
  assert(__sync_sub_and_fetch(&a, 10) == 40);
  assert(__sync_fetch_and_nand(&a, 0xf) == 40 && a == ~(40 & 0xf));
  a = 5;
  assert(__sync_bool_compare_and_swap(&a, 5, 6) && a == 6);
  assert(__sync_val_compare_and_swap(&a, 5, 7) == 6 && a == 6);
  assert(__sync_lock_test_and_set(&a, 9) == 6 && a == 9);
  __sync_lock_release(&a);
  assert(a == 0);
  unsigned char c = 250;
  assert(__atomic_add_fetch(&c, 10, __ATOMIC_SEQ_CST) == 4);
  int m = 2147483647;
  assert(__atomic_fetch_add(&m, 1, __ATOMIC_RELAXED) == 2147483647 && m == -2147483647 - 1);
  int expected = 3;
  assert(!__atomic_compare_exchange_n(&m, &expected, 1, 0, 5, 5) && expected == m);
  assert(__atomic_compare_exchange_n(&m, &expected, 1, 0, 5, 5) && m == 1);
  int out, in = 77;
  __atomic_store(&m, &in, __ATOMIC_SEQ_CST);
  __atomic_load(&m, &out, __ATOMIC_SEQ_CST);
  assert(out == 77);
  __atomic_exchange(&m, &expected, &out, __ATOMIC_SEQ_CST);
  assert(out == 77 && m == expected);
  atomic_int x;
  atomic_init(&x, 1);
  assert(atomic_fetch_or(&x, 6) == 1 && atomic_load(&x) == 7);
  _Bool flag = 0;
  assert(!__atomic_test_and_set(&flag, __ATOMIC_SEQ_CST));
  assert(__atomic_test_and_set(&flag, __ATOMIC_SEQ_CST));
  __atomic_clear(&flag, __ATOMIC_SEQ_CST);
  assert(!flag);
  __builtin_nontemporal_store(12, &a);
  assert(__builtin_nontemporal_load(&a) == 12);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  return 0;
}
"#;
    assert_verdict("atomics-exact", program, &[], SUCCESSFUL);
    let wrong = r#"
#include <assert.h>
int main(void) {
  int a = 42;
  int old = __sync_fetch_and_add(&a, 8);
  assert(old == 50);
  return 0;
}
"#;
    assert_verdict("atomics-old-value", wrong, &[], FAILED);
}

#[test]
fn a_weak_compare_exchange_may_fail_spuriously() {
    let program = r#"
#include <assert.h>
int main(void) {
  int a = 1, expected = 1;
  int ok = __atomic_compare_exchange_n(&a, &expected, 2, 1, 5, 5);
  assert(ok);
  return 0;
}
"#;
    assert_verdict("atomics-weak", program, &[], FAILED);
}
