//! Verification-tool and GCC intrinsics end to end: pointer primitives,
//! `__builtin_object_size`, bit built-ins (clang's `bitreverse` too) and
//! `__builtin_assume`. Each
//! program has the verdict gcc's semantics give it; a FALSE must also be
//! confirmed by the replay, so these tests check symex and the interpreter
//! agree.

mod common;
use common::*;

/// The verdict line tarsier prints for `source` (and the whole stdout).
fn verdict(name: &str, source: &str) -> (String, String) {
    let dir = scratch_dir(&format!("intrinsics-{name}"));
    let file = write(&dir, &format!("{name}.c"), source);
    let out = run([file.as_os_str()]);
    let last = out.stdout.lines().last().unwrap_or_default().to_string();
    (last, format!("{}{}", out.stdout, out.stderr))
}

fn expect(name: &str, source: &str, expected: &str) {
    let (last, all) = verdict(name, source);
    assert_eq!(last, expected, "{name}:\n{all}");
}

const PRELUDE: &str = "#include <assert.h>\n#include <stddef.h>\n#include <stdlib.h>\n";

#[test]
fn object_size_is_the_bytes_to_the_end_of_the_object() {
    let source = format!(
        "{PRELUDE}struct In {{ int v[5]; }};
struct Out {{ struct In in; char pad[10]; }};
int main(void) {{
  struct Out o;
  char buf[50];
  char *p = buf + 10;
  int i = 0;
  char *h = malloc(30);
  assert(__builtin_object_size(&o.in, 1) == sizeof(struct In));
  assert(__builtin_object_size(&o.in, 0) == sizeof(struct Out));
  assert(__builtin_object_size(&o.in.v[2], 1) == 12);
  assert(__builtin_object_size(o.pad, 3) == 10);
  assert(__builtin_object_size(p, 0) == 40);
  assert(__builtin_object_size(p + 60, 0) == 0);
  assert(__builtin_object_size(buf + i++, 0) == (size_t)-1);
  assert(__builtin_object_size(buf + i++, 2) == 0);
  assert(i == 0);
  assert(__builtin_object_size((char *)0, 0) == (size_t)-1);
  assert(__builtin_object_size((char *)0, 2) == 0);
  if (h) assert(__builtin_object_size(h + 5, 0) == 25);
  free(h);
  return 0;
}}\n"
    );
    expect("object_size", &source, "VERIFICATION SUCCESSFUL");
    let element = format!("{PRELUDE}int main(void) {{ int a[10]; assert(__builtin_object_size(&a[2], 0) == 40); return 0; }}\n");
    expect("object_size_element", &element, "VERIFICATION FAILED");
}

#[test]
fn pointer_primitives_see_objects_offsets_and_lifetimes() {
    let source = format!(
        "{PRELUDE}int main(void) {{
  int x, y, a[10];
  char s[4];
  int *p = a + 3;
  assert(__ESBMC_POINTER_OFFSET(p) == 3 * sizeof(int));
  assert(__ESBMC_POINTER_OFFSET(p - 4) == -(long)sizeof(int));
  assert(__ESBMC_POINTER_OFFSET((int *)0) == 0);
  assert(__ESBMC_same_object(p, a) && !__ESBMC_same_object(&x, &y));
  assert(__ESBMC_POINTER_OBJECT(&x) != __ESBMC_POINTER_OBJECT(&y));
  assert(__CPROVER_same_object((int *)0, NULL));
  assert(__ESBMC_get_object_size(p) == sizeof a && __CPROVER_OBJECT_SIZE((void *)0) == 0);
  assert(__CPROVER_r_ok(s, 4) && !__CPROVER_r_ok(s, 5) && __ESBMC_w_ok(s + 2, 2) && !__ESBMC_r_ok(s + 2, 3));
  assert(!__ESBMC_r_ok((char *)0, 1) && __ESBMC_r_ok((char *)0, 0));
  assert(__ESBMC_r_ok(\"ab\", 3) && !__ESBMC_w_ok(\"ab\", 1));
  char *d = malloc(8);
  if (d) {{
    assert(__ESBMC_is_dynamic(d) && !__CPROVER_DYNAMIC_OBJECT(s));
    assert(__CPROVER_LIVE_OBJECT(d) && __CPROVER_rw_ok(d, 8));
    free(d);
    assert(!__CPROVER_LIVE_OBJECT(d) && !__CPROVER_r_ok(d, 1));
  }}
  return 0;
}}\n"
    );
    expect("pointer_primitives", &source, "VERIFICATION SUCCESSFUL");
    let overrun = format!("{PRELUDE}int main(void) {{ char s[4]; int n = __VERIFIER_nondet_int(); if (n > 0 && n < 8) assert(__ESBMC_r_ok(s, n)); return 0; }}\n");
    expect("r_ok_overrun", &overrun, "VERIFICATION FAILED");
}

#[test]
fn bit_builtins_follow_gcc_and_zero_counts_are_not_guessed() {
    let source = format!(
        "{PRELUDE}int main(void) {{
  unsigned x = __VERIFIER_nondet_uint();
  __builtin_assume(x == 16u);
  assert(__builtin_clz(x) == 27 && __builtin_ctz(x) == 4 && __builtin_ffs(x) == 5);
  assert(__builtin_clzll(1ull) == 63 && __builtin_ctzl(8ul) == 3);
  assert(__builtin_popcount(0xF0F0u) == 8 && __builtin_parity(7u) == 1 && __builtin_parityll(~0ull) == 0);
  assert(__builtin_ffs(0) == 0);
  assert(__builtin_bswap16(0x1122) == 0x2211 && __builtin_bswap32(0x11223344u) == 0x44332211u);
  assert(__builtin_bswap64(0x1122334455667788ull) == 0x8877665544332211ull);
  return 0;
}}\n"
    );
    expect("bits", &source, "VERIFICATION SUCCESSFUL");
    let wrong = format!("{PRELUDE}int main(void) {{ unsigned x = __VERIFIER_nondet_uint(); if (x == 1) assert(__builtin_clz(x) == 30); return 0; }}\n");
    expect("clz_wrong", &wrong, "VERIFICATION FAILED");
    // Undefined: a violation of its own class, and with the check off no
    // value is guessed for it.
    let zero = format!("{PRELUDE}int main(void) {{ assert(__builtin_clz(0u) == 32); return 0; }}\n");
    let (last, all) = verdict("clz_zero", &zero);
    assert_eq!(last, "VERIFICATION FAILED", "{all}");
    assert!(all.contains("bit-count"), "{all}");
    let unchecked = common::verdict("intrinsics-clz_zero_unchecked", &zero, &["--no-clz-zero-check"]);
    assert!(unchecked.starts_with("VERIFICATION UNKNOWN"), "{unchecked}");
    assert!(unchecked.contains("depends on `__builtin_clz` of 0, whose value GCC leaves undefined"), "{unchecked}");
}

/// clang's `__builtin_bitreverse8` to `64` reverse the bits of their
/// operand's width, on a symbolic operand as on a constant.
#[test]
fn bitreverse_builtins_reverse_their_width() {
    let program = |claim: &str| {
        format!(
            "{PRELUDE}int main(void) {{
  unsigned char b = __VERIFIER_nondet_uchar();
  unsigned x = __VERIFIER_nondet_uint();
  assert(__builtin_bitreverse8(1) == 0x80 && __builtin_bitreverse16(0x1234) == 0x2c48);
  assert(__builtin_bitreverse32(1u) == 0x80000000u && __builtin_bitreverse64(0x8000000000000001ull) == 0x8000000000000001ull);
  assert(__builtin_bitreverse32(__builtin_bitreverse32(x)) == x);
  assert({claim});
  return 0;
}}\n"
        )
    };
    expect("bitreverse", &program("(__builtin_bitreverse8(b) & 1) == (b >> 7)"), "VERIFICATION SUCCESSFUL");
    expect("bitreverse_wrong", &program("__builtin_bitreverse8(b) != b"), "VERIFICATION FAILED");
}
