//! Arithmetic types beyond the standard ones, end to end: C23 bit-precise
//! integers (`_BitInt(N)`, clang's `_ExtInt(N)`: layout per psABI, no
//! promotion, conversions by rank and width, odd-width arithmetic in symex,
//! the bit-blaster and the replaying interpreter) and GCC's complex
//! integers.

mod common;
use common::*;

const LAYOUT: &str = r#"
#include <stddef.h>
struct small { char c; _BitInt(17) f; int g; };
struct wide { char c; unsigned _BitInt(100) w; };
_Static_assert(sizeof(_BitInt(2)) == 1 && sizeof(unsigned _BitInt(9)) == 2, "small widths");
_Static_assert(sizeof(_ExtInt(17)) == 4 && _Alignof(_ExtInt(17)) == 4, "clang's _ExtInt");
_Static_assert(sizeof(_BitInt(37)) == 8, "37 bits");
_Static_assert(offsetof(struct small, f) == 4 && offsetof(struct small, g) == 8, "field offsets");
_Static_assert(sizeof(unsigned _BitInt(100)) == SIZE100 && _Alignof(unsigned _BitInt(100)) == ALIGN100, "100 bits");
_Static_assert(sizeof(_BitInt(65)) == SIZE65, "65 bits");
_Static_assert(offsetof(struct wide, w) == ALIGN100, "wide field offset");
int main(void) { return 0; }
"#;

#[test]
fn layout_follows_the_psabi_of_each_data_model() {
    if !front_end_ready("bit_int_layout") {
        return;
    }
    let dir = scratch_dir("bit-int-layout");
    let file = write(&dir, "layout.c", LAYOUT);
    let file = file.to_str().unwrap();
    for flags in [["--64", "-DSIZE100=16", "-DALIGN100=8", "-DSIZE65=16"], ["--32", "-DSIZE100=16", "-DALIGN100=4", "-DSIZE65=12"]] {
        let mut args = vec![file, "--parse-only"];
        args.extend(flags);
        let out = run(&args);
        assert_eq!(exit_code(&out), Some(EXIT_SUCCESS), "{flags:?}: {}", out.stderr);
    }
}

const ARITHMETIC: &str = r#"
#include <assert.h>
int main(void) {
    unsigned _BitInt(10) u = 1023, one = 1;
    assert(u + one == 0);                 /* no promotion: wraps at 10 bits */
    assert(u + 1 == 1024);                /* int holds unsigned _BitInt(10) */
    assert(sizeof(u + one) == 2 && sizeof(u + 1) == 4);
    unsigned _BitInt(3) t = 7;
    assert((unsigned _BitInt(3))(t + t) == 6);
    assert((_BitInt(10))1000 == -24);
    unsigned _BitInt(37) m = 1000000;
    assert(m * m == 37927325696);
    unsigned _BitInt(37) s = 1;
    assert(s << 36 == 68719476736 && (s << 36) >> 35 == 2);
    _BitInt(37) d = -100, seven = 7;
    assert(d / seven == -14 && d % seven == -2);
    _BitInt(37) n = -8;
    assert(n >> 1 == -4);
    _BitInt(10) minus_one = -1;
    unsigned int uone = 1;
    assert(!(minus_one < uone));          /* unsigned int ranks higher */
    _BitInt(33) wide_minus_one = -1;
    assert(wide_minus_one < uone);        /* _BitInt(33) holds every unsigned int */
    unsigned _BitInt(100) big = 1;
    big <<= 99;
    assert(big >> 99 == 1 && big != 0);
    return 0;
}
"#;

#[test]
fn arithmetic_and_conversions_match_hand_computed_values() {
    if !front_end_ready("bit_int_arithmetic") {
        return;
    }
    assert_verdict("bit-int-arith", ARITHMETIC, &[], "VERIFICATION SUCCESSFUL");
}

#[test]
fn an_odd_width_counterexample_is_found_and_replayed() {
    if !front_end_ready("bit_int_counterexample") {
        return;
    }
    let wrap = "#include <assert.h>\nunsigned long __VERIFIER_nondet_ulong(void);\n\
        int main(void) { unsigned _BitInt(37) x = __VERIFIER_nondet_ulong(); assert(x * 3 != 5); return 0; }\n";
    assert_verdict("bit-int-wrap", wrap, &[], "VERIFICATION FAILED");
    let division = "int nondet_int(void);\n\
        int main(void) { _BitInt(10) x = nondet_int(), y = nondet_int(); _BitInt(10) z = x / y; return z == 0; }\n";
    assert_verdict("bit-int-div", division, &[], "VERIFICATION FAILED");
}

#[test]
fn widths_beyond_the_limits_are_refused() {
    if !front_end_ready("bit_int_unsupported") {
        return;
    }
    let dir = scratch_dir("bit-int-unsupported");
    for (name, source, message) in [
        ("wide.c", "_BitInt(65536) x;\nint main(void) { return 0; }\n", "_BitInt(65536) is wider than 65535 bits"),
        ("b128.c", "_BitInt(128) x;\nint main(void) { return 0; }\n", "unsupported: _BitInt(128)"),
        ("one.c", "_BitInt(1) x;\nint main(void) { return 0; }\n", "signed _BitInt must have a width of at least 2"),
    ] {
        let file = write(&dir, name, source);
        let out = run([file.to_str().unwrap(), "--parse-only"]);
        assert_ne!(exit_code(&out), Some(EXIT_SUCCESS), "{name}");
        assert!(out.stderr.contains(message), "{name}: {}", out.stderr);
        assert!(out.stderr.contains(":1:"), "{name}: no location: {}", out.stderr);
    }
}

const COMPLEX_INT: &str = r#"
#include <assert.h>
int nondet_int(void);
int main(void) {
    __complex__ int z = 3 + 4i;
    assert(__real__ (z * z) == -7 && __imag__ (z * z) == 24);
    int _Complex a = 4, b = 1;
    __imag__ a = 2;
    __imag__ b = nondet_int();
    __real__ b = nondet_int();
    int _Complex w = a / b;              /* fails when b*conj(b) is 0 */
    return __real__ w;
}
"#;

#[test]
fn complex_integers_compute_on_parts_and_divide_by_the_norm() {
    if !front_end_ready("complex_int") {
        return;
    }
    assert_verdict("complex-int-div", COMPLEX_INT, &[], "VERIFICATION FAILED");
    let safe = COMPLEX_INT.replace("__imag__ b = nondet_int();", "__imag__ b = 1;").replace("__real__ b = nondet_int();", "__real__ b = 1;");
    assert_verdict("complex-int-safe", &safe, &[], "VERIFICATION SUCCESSFUL");
}

/// `_BitInt(N)` wider than 128 bits: terms of any width in symex, the
/// interpreter's wide integers in the replay (C23 semantics; no gcc here
/// knows `_BitInt`, gcc 14 and clang do).
const WIDE_BIT_INT: &str = "#include <assert.h>
int nondet_int(void);
unsigned nondet_uint(void);
int main(void) {
  int a = nondet_int();
  _BitInt(1000) x = a;
  unsigned _BitInt(1000) y = a;
  assert((_BitInt(1000))y == x);
  unsigned _BitInt(300) u = nondet_uint();
  unsigned _BitInt(300) p = u << 200;
  assert(p >> 200 == u);
  assert(p / ((unsigned _BitInt(300))1 << 200) == u);
  unsigned _BitInt(300) m = -1;
  assert(m + 1 == 0 && m > u);
  assert((unsigned long long)m == 0xffffffffffffffffULL);
  _BitInt(200) n = -5;
  assert(n / 2 == -2 && n % 2 == -1 && n < 0);
  switch (n) { case -5: break; default: assert(0); }
  _BitInt(300) z = 1e30f;
  assert(z > ((_BitInt(300))1 << 99) && z < ((_BitInt(300))1 << 100));
  return 0;
}\n";

#[test]
fn bit_ints_wider_than_128_bits_are_exact_and_replayed() {
    assert_verdict("wide_bit_int", WIDE_BIT_INT, &[], "VERIFICATION SUCCESSFUL");
    for (name, from, to) in [
        ("wide_bit_int_shift", "p >> 200 == u", "p >> 199 == u"),
        ("wide_bit_int_sign", "(_BitInt(1000))y == x", "(_BitInt(1000))y == x + 1"),
        ("wide_bit_int_wrap", "m + 1 == 0 && m > u", "m + 1 == 0 && m < u"),
        ("wide_bit_int_division", "n / 2 == -2", "n / 2 == -3"),
        ("wide_bit_int_case", "case -5: break;", "case 5: break;"),
        ("wide_bit_int_from_float", "z < ((_BitInt(300))1 << 100)", "z < ((_BitInt(300))1 << 99)"),
    ] {
        assert_verdict(name, &WIDE_BIT_INT.replace(from, to), &[], "VERIFICATION FAILED");
    }
}

/// An index of a type wider than the offset arithmetic stays out of bounds
/// however its high bits lie (symex saturates it, the interpreter too).
#[test]
fn a_bit_int_index_beyond_every_object_is_out_of_bounds() {
    let source = "int a[4];
int main(void) { unsigned _BitInt(200) i = (unsigned _BitInt(200))1 << 150; a[i >> SHIFT] = 1; return 0; }\n";
    assert_verdict("wide_index_in_bounds", &source.replace("SHIFT", "149"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("wide_index_out_of_bounds", &source.replace("SHIFT", "0"), &[], "VERIFICATION FAILED");
}
