//! Arithmetic types beyond the standard ones, end to end: C23 bit-precise
//! integers (`_BitInt(N)`, clang's `_ExtInt(N)`: layout per psABI, no
//! promotion, conversions by rank and width, odd-width arithmetic in symex,
//! the bit-blaster and the replaying interpreter), GCC's bit-fields wider
//! than `int` (a type of their own width) and GCC's complex integers.

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
    int _Complex w = a / b;              /* fails when b is 0 */
    return __real__ w;
}
"#;

#[test]
fn complex_integers_compute_on_parts_and_divide_by_zero() {
    if !front_end_ready("complex_int") {
        return;
    }
    assert_verdict("complex-int-div", COMPLEX_INT, &[], "VERIFICATION FAILED");
    let safe = COMPLEX_INT.replace("__imag__ b = nondet_int();", "__imag__ b = 1;").replace("__real__ b = nondet_int();", "__real__ b = 1;");
    assert_verdict("complex-int-safe", &safe, &[], "VERIFICATION SUCCESSFUL");
}

/// GCC's complex integers: the parts of a complex operand are not promoted
/// (`_Complex char` plus `_Complex char` is `_Complex char`), a real
/// operand is, and the parts are computed in the promoted type and
/// converted back. Values are gcc -O0's; the test runs them natively first.
const COMPLEX_INT_TYPES: &str = "#include <assert.h>
int main(void) {
  int one = ONE;
  _Complex char cc = one; char c = one; _Complex unsigned char cu = one; _Complex short cs = one; _Bool b = one;
  assert(sizeof(cc + cc) == 2 && sizeof(cc + c) == 8 && sizeof(cc + cu) == 2 && sizeof(cc * cs) == 4 && sizeof(cc + b) == 8);
  _Complex unsigned char z = 255 * one;
  assert(__real__ (z + z) == 254 && __real__ (z + 1) == 256);
  __real__ cc = 100 * one; __imag__ cc = 100 * one;
  assert(__real__ (cc * cc) == 0 && __imag__ (cc * cc) == 32);
  _Complex unsigned char q = z; __imag__ q = 3 * one;
  assert(__real__ (q / (_Complex unsigned char)2) == 127 && __imag__ (q + q) == 6);
  _Complex short w = 200 * one;
  assert(__real__ (w * w) == -25536 && __real__ (w * 200) == 40000);
  _Complex signed char m = -one; _Complex unsigned char n = 255 * one;
  assert(m == n);
  return 0;
}
";

#[test]
fn complex_integer_parts_are_not_promoted_as_in_gcc() {
    let dir = scratch_dir("complex_int_types_native");
    let twins = [
        ("complex_int_sum", "__real__ (z + z) == 254", "__real__ (z + z) == 510"),
        ("complex_int_size", "sizeof(cc + cc) == 2", "sizeof(cc + cc) == 8"),
        ("complex_int_division", "__real__ (q / (_Complex unsigned char)2) == 127", "__real__ (q / (_Complex unsigned char)2) == 63"),
        ("complex_int_product", "__real__ (w * w) == -25536", "__real__ (w * w) == 40000"),
        ("complex_int_equality", "assert(m == n);", "assert(m != n);"),
    ];
    let native = |name: &str, source: &str| native_run(&dir, name, &source.replace("ONE", "1"), SANITIZERS);
    let Some(out) = native("complex_int_types", COMPLEX_INT_TYPES) else {
        println!("SKIP native runs: gcc with sanitizers is not available");
        return;
    };
    assert_eq!(exit_code(&out), Some(0), "gcc's values: {}", out.stderr);
    for (name, from, to) in twins {
        let out = native(name, &COMPLEX_INT_TYPES.replace(from, to)).expect("gcc works");
        assert!(out.stderr.contains("Assertion"), "{name} must fail natively: {}", out.stderr);
    }
    if !front_end_ready("complex_int_types") {
        return;
    }
    let pinned = COMPLEX_INT_TYPES.replace("int one = ONE;", "int one = nondet_int(); if (one != 1) return 0;");
    let pinned = format!("int nondet_int(void);\n{pinned}");
    assert_verdict("complex_int_types", &pinned, &[], "VERIFICATION SUCCESSFUL");
    for (name, from, to) in twins {
        assert_verdict(name, &pinned.replace(from, to), &[], "VERIFICATION FAILED");
    }
}

/// GCC divides complex integers by Smith's method, each step wrapping in
/// the part type (tree-complex.cc, `expand_complex_div_wide`), not by the
/// norm `br² + bi²`: `(4 + 2i) / (2 + 3i)` is `0 - 1i` (the norm formula
/// gives `1 + 0i`), a divisor whose norm wraps to zero (65536 + 65536i)
/// divides by 131072, and only a zero divisor, or one whose Smith divisor
/// wraps to zero (INT_MIN + INT_MIN·i), traps.
const COMPLEX_DIVISION: table::Program = table::Program {
    what: "complex integer division follows GCC's Smith's method",
    test: "complex-int-smith",
    text: r#"
        #include <assert.h>
        #include <limits.h>
        int main(void) {
          volatile int ar = 4, ai = 2, br = 2, bi = 3, wraps = 65536, low = INT_MIN;
          int _Complex a, b, norm_wraps, c;
          __real__ a = ar; __imag__ a = ai; __real__ b = br; __imag__ b = bi;
          __real__ norm_wraps = wraps; __imag__ norm_wraps = wraps;
          volatile unsigned char x = 200, y = 100, one = 1;
          unsigned char _Complex u, v;
          __real__ u = x; __imag__ u = y; __real__ v = one; __imag__ v = one;
          volatile short s = 30000;
          short _Complex e, f;
          __real__ e = s; __imag__ e = s; __real__ f = one; __imag__ f = one;
          LAST;
          return 0;
        }
    "#,
    checks: &[
        table::Check::holds("assert(__real__ (a / b) == 0 && __imag__ (a / b) == -1)", &[]),
        table::Check::fails("assert(__real__ (a / b) == 1)", &[]),
        table::Check::holds("c = a / norm_wraps; assert(__real__ c == 0 && __imag__ c == 0)", &[]),
        table::Check::holds("assert(__real__ (u / v) == 22 && __imag__ (u / v) == 78)", &[]),
        table::Check::fails("assert(__real__ (u / v) == 150)", &[]),
        table::Check::holds("assert(__real__ (e / f) == -2768 && __imag__ (e / f) == 0)", &[]),
        table::Check::holds("assert(__real__ (b / a) == 0 && __imag__ (b / a) == 0)", &[]),
        table::Check::fails("__real__ c = low; __imag__ c = low; c = a / c", &[]),
        table::Check::fails("c = 0; c = a / c", &[]),
    ],
};

#[test]
fn complex_integer_division_is_gccs() {
    table::check_programs(&[COMPLEX_DIVISION]);
    table::assert_twins(&[COMPLEX_DIVISION]);
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

/// Bit-fields wider than `int` and narrower than their declared type: GCC
/// gives them a type of their own width, so arithmetic wraps there (values
/// below are what gcc -O0 computes; the test runs them natively first).
/// `N` is the number of a nondet-pinned 1 (`one()` natively).
const WIDE_BIT_FIELDS: &str = "#include <assert.h>
#include <stdarg.h>
struct B { unsigned long long g : 40; long long f : 40; unsigned long long h : 33; unsigned long ul : 48;
           unsigned long long a : 32; unsigned long long d : 64; };
static unsigned long long first(int n, ...) { va_list ap; va_start(ap, n); unsigned long long r = va_arg(ap, unsigned long long); va_end(ap); return r; }
static long long first_signed(int n, ...) { va_list ap; va_start(ap, n); long long r = va_arg(ap, long long); va_end(ap); return r; }
int main(void) {
  int one = ONE;
  struct B s = {0};
  s.g = -one; s.f = -one; s.h = -one; s.ul = -one; s.a = -one; s.d = -one;
  assert(s.g + 1 == 0 && s.g * 2 == 0xfffffffffeULL && -s.g == 1 && ~s.h == 0);
  assert(s.h + s.g == 0x1fffffffeULL && s.ul + 1u == 0 && s.ul + 1L == 1LL << 48);
  assert(s.a + 1 == 0 && s.d + 1 == 0 && sizeof(s.ul + 1) == 8);
  assert((one ? s.g : 0) + 1 == 0 && (one ? s.g : 0ULL) + 1 == 1ULL << 40);
  assert((s.g = -one) + 1 == 0 && (s.g++) + 1 == 0 && s.g == 0);
  assert(first(1, s.h) == 0x1ffffffffULL && first_signed(1, s.f) == -1);
  s.f = (1LL << 39) - 2;
  s.f++;
  assert(s.f == (1LL << 39) - 1);
  return 0;
}
";

#[test]
fn bit_fields_wider_than_int_wrap_at_their_width_as_in_gcc() {
    let dir = scratch_dir("wide_bit_fields_native");
    let twins = [
        ("wide_bit_field_sum", "s.g + 1 == 0 &&", "s.g + 1 == 1ULL << 40 &&"),
        ("wide_bit_field_common", "s.ul + 1u == 0 &&", "s.ul + 1u == 1ULL << 48 &&"),
        ("wide_bit_field_conditional", "(one ? s.g : 0) + 1 == 0", "(one ? s.g : 0) + 1 != 0"),
        ("wide_bit_field_assignment", "(s.g = -one) + 1 == 0", "(s.g = -one) + 1 != 0"),
        ("wide_bit_field_vararg", "first(1, s.h) == 0x1ffffffffULL", "first(1, s.h) != 0x1ffffffffULL"),
    ];
    let native = |name: &str, source: &str| native_run(&dir, name, &source.replace("ONE", "1"), SANITIZERS);
    let Some(out) = native("wide_bit_fields", WIDE_BIT_FIELDS) else {
        println!("SKIP native runs: gcc with sanitizers is not available");
        return;
    };
    assert_eq!(exit_code(&out), Some(0), "gcc's values: {}", out.stderr);
    for (name, from, to) in twins {
        let out = native(name, &WIDE_BIT_FIELDS.replace(from, to)).expect("gcc works");
        assert!(out.stderr.contains("Assertion"), "{name} must fail natively: {}", out.stderr);
    }
    if !front_end_ready("wide_bit_fields") {
        return;
    }
    let pinned = WIDE_BIT_FIELDS.replace("int one = ONE;", "int one = nondet_int(); if (one != 1) return 0;");
    let pinned = format!("int nondet_int(void);\n{pinned}");
    assert_verdict("wide_bit_fields", &pinned, &["--overflow-check"], "VERIFICATION SUCCESSFUL");
    for (name, from, to) in twins {
        assert_verdict(name, &pinned.replace(from, to), &[], "VERIFICATION FAILED");
    }
    // GCC treats the overflow of a signed one as undefined: at -O0 it
    // folds `s.f + 1 > s.f` to 1 for s.f == 2^39 - 1.
    let overflow = pinned.replace("(1LL << 39) - 2", "(1LL << 39) - 1").replace("assert(s.f == (1LL << 39) - 1);", "");
    assert_verdict("wide_bit_field_overflow", &overflow, &["--overflow-check"], "VERIFICATION FAILED");
}
