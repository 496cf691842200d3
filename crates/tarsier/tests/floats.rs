//! Floating-point programs with known verdicts: the classification and
//! comparison built-ins, the exact math.h models, and the floating-point
//! overflow property. Each program that holds has a twin whose assertion
//! is false, so a test cannot pass by answering one verdict everywhere.
//!
//! The programs are a table ([`PROGRAMS`], run by `common::table`): a C
//! text whose `LAST` stands for the assertion of each of its checks, and
//! the verdict each check expects.

mod common;

use common::table::{assert_twins, check_programs, Check, Program, FAILS, HOLDS, UNKNOWN};
use common::{front_end_ready, run, scratch_dir, write};

/// Why the checks are not run natively: floating-point operations are
/// checked against gcc by `cargo xtask fp-oracle`, in every rounding mode.
const FP_ORACLE: &str = "floating-point semantics are checked against gcc by fp-oracle";

const PROGRAMS: &[Program] = &[
    Program {
        what: "classification built-ins are exact in every float type",
        test: "floats-classification",
        text: r#"
            #include <math.h>
            #include <assert.h>
            int main(void) {
              float sub = 1e-40f; double d = -0.0; float nan = NAN; float inf = INFINITY;
              assert(isnan(nan) && !isnan(inf) && isinf(-inf) && !isfinite(inf) && isfinite(sub));
              assert(!isnormal(sub) && isnormal(1.0f) && fpclassify(sub) == FP_SUBNORMAL);
              assert(fpclassify(d) == FP_ZERO && signbit(d) && !signbit(nan) && __builtin_isinf_sign(-inf) == -1);
              assert(isunordered(nan, 1.0) && !isgreater(nan, 1.0) && islessgreater(1.0f, 2.0));
              assert(__builtin_fabs(d) == 0.0 && !signbit(__builtin_fabs(d)) && signbit(__builtin_copysignf(1.0f, -nan)));
              assert(LAST);
            }
        "#,
        checks: &[Check::verdict("isnormal(1e-30f) && !isnormal(nan)", &[], HOLDS, FP_ORACLE), Check::verdict("fpclassify(sub) == FP_NORMAL", &[], FAILS, FP_ORACLE)],
    },
    Program {
        what: "CBMC's and ESBMC's classification intrinsics convert their operand to the type of their suffix",
        test: "floats-tool-classification",
        text: r#"
            #include <assert.h>
            #ifndef __TARSIER__
            /* What the intrinsics mean, for gcc, which has none of them. */
            #define __CPROVER_isnanf(x) __builtin_isnan((float)(x))
            #define __CPROVER_isinff(x) __builtin_isinf((float)(x))
            #define __CPROVER_isinfd(x) __builtin_isinf((double)(x))
            #define __CPROVER_isnormalf(x) __builtin_isnormal((float)(x))
            #define __CPROVER_isnormald(x) __builtin_isnormal((double)(x))
            #define __CPROVER_isfiniteld(x) __builtin_isfinite((long double)(x))
            #define __CPROVER_signd(x) __builtin_signbit((double)(x))
            #define __ESBMC_isnanld(x) __builtin_isnan((long double)(x))
            #define __ESBMC_isinfd(x) __builtin_isinf((double)(x))
            #endif
            int main(void) {
              volatile double big = 1e39, tiny = 1e-40, zero = 0.0;
              double nan = zero / zero;
              assert(__CPROVER_isnanf(nan) && __ESBMC_isnanld(nan) && !__CPROVER_isnanf(big));
              assert(__CPROVER_signd(-zero) && !__CPROVER_signd(zero) && __CPROVER_isfiniteld(big));
              assert(LAST);
              return 0;
            }
        "#,
        checks: &[
            Check::holds("__CPROVER_isinff(big) && !__CPROVER_isinfd(big) && !__ESBMC_isinfd(big)", &[]),
            Check::fails("!__CPROVER_isinff(big)", &[]),
            Check::holds("!__CPROVER_isnormalf(tiny) && __CPROVER_isnormald(tiny)", &[]),
            Check::fails("__CPROVER_isnormalf(tiny)", &[]),
        ],
    },
    Program {
        what: "rounding functions follow C for nondeterministic operands",
        test: "floats-rounding-functions",
        text: r#"
            #include <math.h>
            #include <assert.h>
            float __VERIFIER_nondet_float(void);
            int main(void) {
              float x = __VERIFIER_nondet_float();
              if (!(x > -1e6f && x < 1e6f)) return 0;
              assert(floor(-0.5) == -1.0 && ceil(0.5) == 1.0 && trunc(-1.5) == -1.0 && signbit(ceil(-0.5)));
              assert(round(2.5) == 3.0 && round(-0.5) == -1.0 && rint(2.5) == 2.0 && nearbyintf(-3.5f) == -4.0f);
              assert(fmin(NAN, 1.5) == 1.5 && fmaxf(x, NAN) == x && fdim(1.0, 3.0) == 0.0 && lround(-2.5) == -3);
              assert(LAST);
            }
        "#,
        checks: &[Check::verdict("fabsf(x - roundf(x)) <= 0.5f", &[], HOLDS, FP_ORACLE), Check::verdict("fabsf(x - roundf(x)) < 0.5f", &[], FAILS, FP_ORACLE)],
    },
    Program {
        what: "fmin and fmax of NaNs: a quiet NaN gives the other operand; of two NaNs either may come back",
        test: "floats-min-max-nans",
        text: r#"
            #include <math.h>
            #include <assert.h>
            #include <string.h>
            static unsigned long long bits(double x) { unsigned long long b; memcpy(&b, &x, 8); return b; }
            static double from(unsigned long long b) { double x; memcpy(&x, &b, 8); return x; }
            static int either(unsigned long long b) { return b == 0xfff8000000000000ull || b == 0x7ff8000000000005ull; }
            int main(void) {
              double q = from(0xfff8000000000000ull), p = from(0x7ff8000000000005ull), s = from(0x7ff0000000000003ull);
              assert(LAST);
              return 0;
            }
        "#,
        checks: &[
            Check::holds(
                "either(bits(fmin(q, p))) && either(bits(fmax(p, q))) && fmax(q, 1.0) == 1.0 && \
                 bits(fmin(s, 1.0)) == 0x7ff8000000000003ull && bits(fmax(1.0, s)) == 0x7ff8000000000003ull",
                &["-lm"],
            ),
            Check::fails("fmin(1.0, p) != 1.0", &["-lm"]),
            // gcc passes the operands swapped when they are calls, not here.
            Check::verdict("bits(fmin(q, p)) == 0x7ff8000000000005ull", &[], UNKNOWN, "gcc may swap fmin's operands"),
        ],
    },
    Program {
        what: "floating-point overflow is a property under --float-overflow-check, not --overflow-check",
        test: "floats-overflow",
        text: "int main(void) { float f = 1; for (int i = 0; LAST; i++) f *= 2; return 0; }\n",
        checks: &[
            Check::verdict("i < 127", &["--float-overflow-check"], HOLDS, FP_ORACLE),
            Check::verdict("i < 128", &["--float-overflow-check"], FAILS, FP_ORACLE),
            Check::verdict("i < 128", &["--overflow-check"], HOLDS, FP_ORACLE),
            Check::verdict("i < 128", &[], HOLDS, FP_ORACLE),
        ],
    },
    Program {
        what: "the rounding mode is program state set by fesetround and the flags",
        test: "floats-rounding-mode",
        text: r#"
            #include <fenv.h>
            #include <assert.h>
            float __VERIFIER_nondet_float(void);
            int main(void) {
              float x = __VERIFIER_nondet_float(), three = 3.0f;
              if (!(x >= 1.0f && x <= 2.0f)) return 0;
              int start = fegetround();
              float nearest = x / three;
              assert(fesetround(FE_UPWARD) == 0 && fesetround(12345) != 0 && fegetround() == FE_UPWARD);
              float up = x / three;
              fesetround(FE_DOWNWARD);
              float down = x / three;
              assert(down <= nearest && nearest <= up && (double)down <= (double)x / 3 && (double)x / 3 <= (double)up);
              assert(LAST);
            }
        "#,
        checks: &[
            Check::verdict("up != down || (double)down * 3 == (double)x", &[], HOLDS, FP_ORACLE),
            Check::verdict("up != down", &[], FAILS, FP_ORACLE),
            Check::verdict("start == FE_TONEAREST", &["--round-to-zero"], FAILS, FP_ORACLE),
            Check::verdict("start == FE_TONEAREST", &[], HOLDS, FP_ORACLE),
        ],
    },
    Program {
        what: "sqrt, fma and fmod are exact",
        test: "floats-exact-math",
        text: r#"
            #include <math.h>
            #include <fenv.h>
            #include <assert.h>
            float __VERIFIER_nondet_float(void);
            int main(void) {
              float x = __VERIFIER_nondet_float();
              if (!(x >= 4.0f && x <= 9.0f)) return 0;
              assert(sqrtf(x) >= 2.0f && fmod(-7.0, 2.0) == -1.0 && remainder(7.0, 2.0) == -1.0);
              assert(fma(0.1, 10.0, -1.0) != 0.1 * 10.0 - 1.0 && isnan(sqrt(-1.0)));
              fesetround(FE_UPWARD);
              assert(LAST);
            }
        "#,
        checks: &[Check::verdict("sqrtf(2.0f) > 1.41421354f", &[], HOLDS, FP_ORACLE), Check::verdict("sqrtf(2.0f) == 1.41421354f", &[], FAILS, FP_ORACLE)],
    },
    Program {
        what: "fmod has the sign of x for every operand",
        test: "floats-fmod-sign",
        text: r#"
            #include <math.h>
            #include <assert.h>
            double __VERIFIER_nondet_double(void);
            int main(void) {
              double x = __VERIFIER_nondet_double(), y = __VERIFIER_nondet_double();
              if (!(x >= -1e6 && x <= 1e6 && y >= 1.0 && y <= 1024.0)) return 0;
              double r = fmod(x, y);
              assert(LAST);
            }
        "#,
        checks: &[Check::verdict("r == 0.0 || signbit(r) == signbit(x)", &[], HOLDS, FP_ORACLE), Check::verdict("r == 0.0 || signbit(r) == signbit(y)", &[], FAILS, FP_ORACLE)],
    },
    // The values are glibc's `fmodl` and `remainderl` on x86-64: a quotient
    // of some 2^32382, far beyond the reach of a stage per exponent step.
    Program {
        what: "long double remainders are exact across the exponent range",
        test: "floats-long-double-remainders",
        text: r#"
            #include <math.h>
            #include <assert.h>
            long double __VERIFIER_nondet_long_double(void);
            int main(void) {
              long double x = __VERIFIER_nondet_long_double(), y = 0x1.fedcba9876543212p-16382L;
              if (x == -0x1.23456789abcdef12p16000L)
                assert(LAST);
            }
        "#,
        checks: &[
            Check::verdict("fmodl(x, y) == -0xe.7201507825b5368p-16385L", &[], HOLDS, FP_ORACLE),
            Check::verdict("fmodl(x, y) == -0xe.7201507825b5369p-16385L", &[], FAILS, FP_ORACLE),
            Check::verdict("remainderl(x, y) == 0x1.84e4844b8cec5a1p-16385L", &[], HOLDS, FP_ORACLE),
            Check::verdict("remainderl(x, y) == 0x1.84e4844b8cec5a2p-16385L", &[], FAILS, FP_ORACLE),
        ],
    },
    Program {
        what: "exponent functions are exact on subnormals, infinities and zeros",
        test: "floats-exponents",
        text: r#"
            #include <math.h>
            #include <assert.h>
            float __VERIFIER_nondet_float(void);
            int main(void) {
              float x = __VERIFIER_nondet_float(); int e, i; double whole;
              float m = frexpf(x, &e);
              if (isfinite(x)) assert(ldexpf(m, e) == x && (x == 0.0f || (fabsf(m) >= 0.5f && fabsf(m) < 1.0f)));
              frexp(0x1p-1074, &e); assert(e == -1073 && isinf(frexp(-INFINITY, &e)));
              assert(ldexp(0x1.8p-1022, -52) == 0x1p-1073 && scalbnf(1.0f, 128) == INFINITY && scalbln(1.0, -2000) == 0.0);
              assert(ilogb(0x1p-1074) == -1074 && ilogbf(0.0f) == FP_ILOGB0 && logb(-8.0) == 3.0 && logbf(0.0f) == -INFINITY);
              assert(modf(-2.5, &whole) == -0.5 && whole == -2.0 && signbit(modff(-3.0f, &m)));
              assert(nextafter(0.0, -1.0) == -0x1p-1074 && nextafterf(1.0f, 2.0f) == 1.0f + 0x1p-23f && nextafter(INFINITY, 0.0) == 0x1.fffffffffffffp1023);
              i = e;
              assert(LAST);
            }
        "#,
        checks: &[Check::verdict("ilogbf(x) != 200", &[], HOLDS, FP_ORACLE), Check::verdict("!isfinite(x) || ilogbf(x) != -130", &[], FAILS, FP_ORACLE)],
    },
    Program {
        what: "complex parts and NaN payloads are exact",
        test: "floats-complex-parts",
        text: r#"
            #include <math.h>
            #include <assert.h>
            #include <complex.h>
            #include <string.h>
            int main(void) {
              double complex z = 3.0 - 2.0 * I; float complex w = conjf(1.0f + 4.0f * I);
              double nan = __builtin_nan("0x10"); unsigned long long bits; memcpy(&bits, &nan, sizeof bits);
              assert(creal(z) == 3.0 && cimag(conj(z)) == 2.0 && crealf(w) == 1.0f && isnan(nan));
              assert(LAST);
            }
        "#,
        checks: &[Check::verdict("cimagf(w) == -4.0f && bits == 0x7ff8000000000010ULL", &[], HOLDS, FP_ORACLE), Check::verdict("bits == 0x7ff8000000000000ULL", &[], FAILS, FP_ORACLE)],
    },
    Program {
        what: "long double is x87 extended precision in both data models",
        test: "floats-long-double",
        text: r#"
            #include <float.h>
            #include <string.h>
            #include <assert.h>
            long double __VERIFIER_nondet_long_double(void);
            int main(void) {
              long double third = 1.0L / 3, x = __VERIFIER_nondet_long_double();
              unsigned long long big = 18446744073709551615ULL;
              assert(third != 1.0 / 3 && (double)third == 1.0 / 3);
              assert((unsigned long long)(long double)big == big && LDBL_EPSILON == 0x1p-63L && LDBL_MAX > DBL_MAX);
              unsigned char image[16] = {0}; long double one = 1.0L; memcpy(image, &one, 10);
              assert(image[7] == 0x80 && image[8] == 0xff && image[9] == 0x3f);
              if (!(x > 1 && x < 2)) return 0;
              assert(LAST);
            }
        "#,
        checks: &[
            Check::verdict("sizeof(long double) == 16 && x * 2 / 2 == x && 0.1L + 0.2L == 0.3L", &[], HOLDS, FP_ORACLE),
            Check::verdict("sizeof(long double) == 16 && (double)x == x", &[], FAILS, FP_ORACLE),
            Check::verdict("sizeof(long double) == 12 && x * 2 / 2 == x && 0.1L + 0.2L == 0.3L", &["--32"], HOLDS, FP_ORACLE),
            Check::verdict("sizeof(long double) == 12 && (double)x == x", &["--32"], FAILS, FP_ORACLE),
        ],
    },
    Program {
        what: "inexact functions are near the C library at constant arguments",
        test: "floats-inexact-constants",
        text: r#"
            #include <math.h>
            #include <assert.h>
            #include <complex.h>
            int main(void) {
              assert(fabs(pow(4.0, 0.5) - 2.0) < 1e-12 && fabs(exp(0.3) - 1.3498588075760032) < 1e-12);
              assert(acos(1.0) == 0.0 && cos(0.0) == 1.0 && acos(0.0) > 1.57 && fabsf(tanhf(0.5f) - 0.46211716f) < 1e-6f);
              assert(carg(1.0 + 0.0 * I) == 0.0 && fabs(cabs(3.0 + 4.0 * I) - 5.0) < 1e-12);
              assert(LAST);
            }
        "#,
        checks: &[
            Check::verdict("fabs(log1p(0.125) - 0.11778303565638346) < 1e-15", &[], HOLDS, FP_ORACLE),
            Check::verdict("fabs(log1p(0.125) - 0.1177830356563834) < 1e-17", &[], FAILS, FP_ORACLE),
        ],
    },
    Program {
        what: "inexact functions keep the facts every C library satisfies",
        test: "floats-inexact-facts",
        text: r#"
            #include <math.h>
            #include <assert.h>
            #include <fenv.h>
            float __VERIFIER_nondet_float(void);
            int main(void) {
              float x = __VERIFIER_nondet_float();
              if (x < 0.0f) assert(isnan(logf(x)));
              if (!isnan(x)) assert(tanhf(x) >= -1.0f && tanhf(x) <= 1.0f && expf(x) >= 0.0f && (x < 0.0f || logf(x) == logf(x)));
              if (x >= -20.0f && x <= 20.0f) assert(LAST);
              fesetround(FE_UPWARD);
              assert(exp(0.0) == 1.0 && isinf(log(0.0)));
            }
        "#,
        checks: &[Check::verdict("fabsf(tanhf(x)) <= 1.0f", &[], HOLDS, FP_ORACLE), Check::verdict("fabsf(tanhf(x)) < 1.0f", &[], FAILS, FP_ORACLE)],
    },
    Program {
        what: "glibc's classification entry points cover every float type",
        test: "floats-glibc-classification",
        text: r#"
            #include <math.h>
            #include <assert.h>
            int __fpclassify(double); int __fpclassifyf(float); int __fpclassifyl(long double);
            int __isinff(float); int __isinfl(long double); int __finitef(float); int __finitel(long double);
            int __signbitl(long double); int __isnanl(long double);
            int main(void) {
              long double big = 1e4000L, sub = 1e-4940L, nan = __builtin_nanl("");
              assert(__fpclassifyl(big) == FP_NORMAL && __fpclassifyl(sub) == FP_SUBNORMAL && __fpclassifyl(-0.0L) == FP_ZERO);
              assert(__fpclassifyl(nan) == FP_NAN && __isinfl(-big * big) == -1 && __signbitl(-sub) && __isnanl(nan));
              assert(__fpclassify(1e-310) == FP_SUBNORMAL && __isinff(1e30f * 1e30f) == 1 && !__finitef(1e30f * 1e30f) && __finitel(big));
              assert(LAST);
            }
        "#,
        checks: &[Check::verdict("__fpclassifyf(1e-40f) == FP_SUBNORMAL", &[], HOLDS, FP_ORACLE), Check::verdict("__fpclassifyf(1e-40f) == FP_NORMAL", &[], FAILS, FP_ORACLE)],
    },
    // `LAST` is here an operation, not an assertion: --nan-check asserts
    // that it makes no NaN.
    Program {
        what: "--nan-check reports operations that make a NaN",
        test: "floats-nan-check",
        text: r#"
            #include <math.h>
            double __VERIFIER_nondet_double(void);
            int main(void) {
              double x = __VERIFIER_nondet_double(), inf = INFINITY, y;
              if (isnan(x)) return 0;
              y = x + x; y = NAN * 2.0;
              y = LAST;
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("x * 0.5 + 1.0 / inf", &["--nan-check"], HOLDS, FP_ORACLE),
            Check::verdict("x * 0.0", &["--nan-check"], FAILS, FP_ORACLE),
            Check::verdict("x * 0.0", &[], HOLDS, FP_ORACLE),
        ],
    },
    Program {
        what: "the strtod family is exact on short decimal constants",
        test: "floats-strtod",
        text: r#"
            #include <stdlib.h>
            #include <math.h>
            #include <assert.h>
            int main(void) {
              char *e; const char *none = "  x";
              assert(strtod(" 0.1", &e) == 0.1 && *e == 0 && strtod("-2.5e-3y", &e) == -2.5e-3 && *e == 'y');
              assert(signbit(strtod("-0", 0)) && strtod(none, &e) == 0 && e == none && atof("1e22") == 1e22);
              assert(strtof("3.14159", 0) == 3.14159f && strtold("0.3", 0) == 0.3L && strtold("1.", &e) == 1 && *e == 0);
              assert(LAST);
            }
        "#,
        checks: &[
            Check::verdict(r#"strtod("123456789012345e-20", 0) == 123456789012345e-20"#, &[], HOLDS, FP_ORACLE),
            Check::verdict(r#"strtod("0.1", 0) == 0.1f"#, &[], FAILS, FP_ORACLE),
            Check::verdict(r#"strtod("0x1p3", 0) == 8.0"#, &[], UNKNOWN, FP_ORACLE),
        ],
    },
    Program {
        what: "long double math functions match glibc on constants",
        test: "floats-long-double-math",
        text: r#"
            #include <math.h>
            #include <float.h>
            #include <assert.h>
            int main(void) {
              long double tiny = 0x1p-16445L, ip, r; int e, q;
              assert(truncl(-2.5L) == -2.0L && floorl(-2.5L) == -3.0L && ceill(-2.5L) == -2.0L && signbit(ceill(-0.5L)));
              assert(roundl(-0.5L) == -1.0L && rintl(2.5L) == 2.0L && nearbyintl(-3.5L) == -4.0L && isnan(floorl(NAN)));
              assert(roundl(0x1p62L + 0.5L) == 0x1p62L + 1.0L && truncl(9223372036854775807.5L) == 9223372036854775807.0L);
              assert(lroundl(-2.5L) == -3 && llrintl(2.5L) == 2 && lrintl(3.5L) == 4);
              assert(fminl(NAN, 1.5L) == 1.5L && fmaxl(2.0L, NAN) == 2.0L && fdiml(1.0L, 3.0L) == 0.0L);
              assert(signbit(fminl(-0.0L, 0.0L)) && signbit(fmaxl(0.0L, -0.0L)) && !signbit(fmin(-0.0, 0.0)));
              assert(frexpl(48.0L, &e) == 0.75L && e == 6 && frexpl(tiny, &e) == 0.5L && e == -16444);
              assert(ldexpl(1.0L, -16445) == tiny && ldexpl(1.0L, -16446) == 0.0L && scalbnl(1.0L, 16384) == INFINITY);
              assert(ilogbl(tiny) == -16445 && ilogbl(0.0L) == FP_ILOGB0 && logbl(0x1p100L) == 100.0L && logbl(0.0L) == -INFINITY);
              assert(modfl(-3.25L, &ip) == -0.25L && ip == -3.0L && fabsl(-2.0L) == 2.0L && copysignl(2.0L, -0.0L) == -2.0L);
              assert(nextafterl(1.0L, 2.0L) == 1.0L + 0x1p-63L && nextafterl(0.0L, -1.0L) == -tiny);
              assert(nextafterl(0x1p-16382L, 0.0L) == 0x1p-16382L - tiny && nextafterl(LDBL_MAX, INFINITY) == INFINITY);
              assert(nexttoward(1.0, 2.0L) == 1.0 + 0x1p-52 && nexttowardf(1.0f, 1.0L + 0x1p-60L) == 1.0f + 0x1p-23f);
              assert(sqrtl(4.0L) == 2.0L && fmal(2.0L, 3.0L, 1.0L) == 7.0L && fmodl(7.0L, 2.0L) == 1.0L);
              r = remquol(-10.0L, 3.0L, &q);
              assert(r == -1.0L && q == -3 && remquol(7.0L, 2.0L, &q) == -1.0L && q == 4);
              assert(LAST);
            }
        "#,
        checks: &[
            Check::verdict("nexttowardl(-1.0L, 0.0L) == -1.0L + 0x1p-64L", &[], HOLDS, FP_ORACLE),
            Check::verdict("nexttowardl(-1.0L, 0.0L) == -1.0L + 0x1p-63L", &[], FAILS, FP_ORACLE),
        ],
    },
    Program {
        what: "long double rounding and stepping hold for every operand",
        test: "floats-long-double-symbolic",
        text: r#"
            #include <math.h>
            #include <float.h>
            #include <assert.h>
            long double __VERIFIER_nondet_long_double(void);
            int main(void) {
              long double x = __VERIFIER_nondet_long_double();
              if (!isfinite(x)) return 0;
              assert(LAST);
            }
        "#,
        checks: &[
            Check::verdict("floorl(x) <= x", &[], HOLDS, FP_ORACLE),
            Check::verdict("truncl(x) <= x", &[], FAILS, FP_ORACLE),
            Check::verdict("nextafterl(x, INFINITY) > x", &[], HOLDS, FP_ORACLE),
            Check::verdict("nextafterl(x, -INFINITY) > -LDBL_MAX", &[], FAILS, FP_ORACLE),
        ],
    },
    Program {
        what: "long double inexact functions are near the C library",
        test: "floats-long-double-inexact",
        text: r#"
            #include <math.h>
            #include <assert.h>
            long double __VERIFIER_nondet_long_double(void);
            int main(void) {
              long double x = __VERIFIER_nondet_long_double();
              assert(fabsl(sinl(1.0L) - 0.841470984807896506652502L) < 1e-18L && fabsl(powl(2.0L, 10.0L) - 1024.0L) < 1e-15L);
              assert(asinl(1.0L) > 1.5707963267948966L && acosl(1.0L) == 0.0L && isinf(logl(0.0L)));
              if (!isnan(x)) assert(atanl(x) <= 1.571L && expl(x) >= 0.0L);
              assert(LAST);
            }
        "#,
        checks: &[
            Check::verdict("fabsl(logl(10.0L) - 2.302585092994045684018L) < 1e-18L", &[], HOLDS, FP_ORACLE),
            Check::verdict("fabsl(logl(10.0L) - 2.302585092994045684018L) > 1e-18L", &[], FAILS, FP_ORACLE),
        ],
    },
    // The expected bits are those gcc-compiled code gives on x86-64: the
    // default NaN is negative, a NaN operand is quieted and carried through.
    Program {
        what: "NaN results have the bits x86 gives them",
        test: "floats-x86-nans",
        text: r#"
            #include <math.h>
            #include <assert.h>
            #include <string.h>
            #include <stdint.h>
            double __VERIFIER_nondet_double(void);
            static uint64_t bits(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
            static uint32_t fbits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
            int main(void) {
              double zero = __VERIFIER_nondet_double();
              if (zero != 0.0 || signbit(zero)) return 0;
              double payload; uint64_t p = 0x7FF4000000000123ull; memcpy(&payload, &p, 8);
              double other; uint64_t o = 0xFFF8000000000456ull; memcpy(&other, &o, 8);
              assert(bits(zero / zero) == 0xFFF8000000000000ull && bits(-(zero / zero)) == 0x7FF8000000000000ull);
              assert(bits(other - payload) == 0xFFF8000000000456ull && bits(payload / other) == 0x7FFC000000000123ull);
              assert(bits(sqrt(zero - 1.0)) == 0xFFF8000000000000ull && fbits((float)other) == 0xFFC00000u);
              assert(bits((double)(float)payload) == 0x7FFC000000000000ull);
              long double lz = zero; long double ln = lz / lz;
              assert(signbit(ln) && isnan(ln));
              assert(LAST);
            }
        "#,
        checks: &[Check::verdict("bits(2.0 * payload) == 0x7FFC000000000123ull", &[], HOLDS, FP_ORACLE), Check::verdict("bits(2.0 * payload) == 0x7FF4000000000123ull", &[], FAILS, FP_ORACLE)],
    },
    // x87 `long double` arithmetic passes on the NaN operand with the larger
    // significand (the positive one on a tie), not the first operand as SSE
    // does; gcc-compiled code on x86-64 gives these bits.
    Program {
        what: "long double NaNs follow the x87 rule",
        test: "floats-x87-nans",
        text: r#"
            #include <assert.h>
            #include <string.h>
            unsigned long __VERIFIER_nondet_ulong(void);
            typedef union { long double d; struct { unsigned long m; unsigned short e; } b; } U;
            int main(void) {
              U x, y, r;
              memset(&x, 0, sizeof x); memset(&y, 0, sizeof y); memset(&r, 0, sizeof r);
              x.b.m = 0x8000000000000000ul | (__VERIFIER_nondet_ulong() & 0x4000000000000007ul); x.b.e = 0x7FFF;
              y.b.m = 0x8000000000000000ul | (__VERIFIER_nondet_ulong() & 0x4000000000000007ul); y.b.e = 0xFFFF;
              if (x.b.m == 0x8000000000000000ul || y.b.m == 0x8000000000000000ul) return 0;
              r.d = x.d - y.d;
              unsigned long larger = (x.b.m >= y.b.m ? x.b.m : y.b.m) | 0x4000000000000000ul;
              assert(LAST);
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("r.b.m == larger && r.b.e == (x.b.m >= y.b.m ? 0x7FFF : 0xFFFF)", &[], HOLDS, FP_ORACLE),
            Check::verdict("r.b.m == (x.b.m | 0x4000000000000000ul) && r.b.e == 0x7FFF", &[], FAILS, FP_ORACLE),
        ],
    },
    // glibc's roundings to an integral value quiet a signaling NaN (they
    // compute `x + x`, `roundsd` or `frndint` on it), in every float type.
    Program {
        what: "rounding functions quiet signaling NaNs",
        test: "floats-rounding-snan",
        text: r#"
            #include <math.h>
            #include <assert.h>
            #include <string.h>
            #include <stdint.h>
            typedef union { long double d; struct { unsigned long m; unsigned short e; } b; } U;
            int main(void) {
              double s; uint64_t p = 0x7FF0000000000123ull; memcpy(&s, &p, 8);
              double r = floor(s); uint64_t rb; memcpy(&rb, &r, 8);
              float f; uint32_t fp = 0x7F800123u; memcpy(&f, &fp, 4);
              float t = truncf(f); uint32_t tb; memcpy(&tb, &t, 4);
              U u; memset(&u, 0, sizeof u); u.b.m = 0x8000000000000005ul; u.b.e = 0x7FFF;
              U v; memset(&v, 0, sizeof v); v.d = rintl(u.d);
              assert(tb == 0x7FC00123u && LAST);
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("rb == 0x7FF8000000000123ull && v.b.m == 0xC000000000000005ul", &[], HOLDS, FP_ORACLE),
            Check::verdict("rb == 0x7FF0000000000123ull && v.b.m == 0x8000000000000005ul", &[], FAILS, FP_ORACLE),
        ],
    },
    // glibc's exponent functions compute with a NaN operand (`x + x`,
    // `x + y`), which quiets a signaling one, in every float type; only
    // fabs and copysign pass its bits on.
    Program {
        what: "exponent functions quiet signaling NaNs",
        test: "floats-exponent-snan",
        text: r#"
            #include <math.h>
            #include <assert.h>
            #include <string.h>
            #include <stdint.h>
            typedef union { long double d; struct { unsigned long m; unsigned short e; } b; } U;
            static uint32_t fb(float v) { uint32_t u; memcpy(&u, &v, 4); return u; }
            static uint64_t db(double v) { uint64_t u; memcpy(&u, &v, 8); return u; }
            static unsigned long lm(long double v) { U u; memset(&u, 0, sizeof u); u.d = v; return u.b.m; }
            int main(void) {
              float sf; uint32_t sfb = 0x7F800001u; memcpy(&sf, &sfb, 4);
              double sd; uint64_t sdb = 0x7FF0000000000001ull; memcpy(&sd, &sdb, 8);
              U sl; memset(&sl, 0, sizeof sl); sl.b.m = 0x8000000000000001ul; sl.b.e = 0x7FFF;
              int e; float fi; double di; long double li;
              assert(fb(frexpf(sf, &e)) == 0x7FC00001u && fb(modff(sf, &fi)) == 0x7FC00001u && fb(logbf(sf)) == 0x7FC00001u);
              assert(fb(nextafterf(1.0f, sf)) == 0x7FC00001u && fb(nexttowardf(sf, 1.0L)) == 0x7FC00001u);
              assert(db(frexp(sd, &e)) == 0x7FF8000000000001ull && db(nextafter(sd, 1.0)) == 0x7FF8000000000001ull);
              assert(db(modf(sd, &di)) == 0x7FF8000000000001ull && db(di) == 0x7FF8000000000001ull && db(logb(sd)) == 0x7FF8000000000001ull);
              assert(lm(frexpl(sl.d, &e)) == 0xC000000000000001ul && lm(nextafterl(sl.d, 1.0L)) == 0xC000000000000001ul);
              assert(lm(modfl(sl.d, &li)) == 0xC000000000000001ul && lm(logbl(sl.d)) == 0xC000000000000001ul);
              assert(fb(fabsf(sf)) == 0x7F800001u && LAST);
              return 0;
            }
        "#,
        checks: &[Check::holds("fb(fi) == 0x7FC00001u && lm(li) == 0xC000000000000001ul", &["-lm"]), Check::fails("fb(fi) == 0x7F800001u", &["-lm"])],
    },
    // glibc's remquol returns (x * y) / (x * y) for a zero or NaN divisor
    // or a NaN or infinite dividend, before it stores a quotient.
    Program {
        what: "remquol leaves the quotient alone when it has none",
        test: "floats-remquol-no-quotient",
        text: r#"
            #include <math.h>
            #include <assert.h>
            int main(void) {
              volatile long double zero = 0.0L, one = 1.0L, inf = 1.0L / zero;
              int q = 12345, r = 12345, s = 12345;
              remquol(one, zero, &q); remquol(inf, one, &r); remquol(one, inf, &s);
              assert(q == 12345 && r == 12345 && LAST);
              return 0;
            }
        "#,
        checks: &[Check::holds("s == 0", &["-lm"]), Check::fails("q == 0", &["-lm"])],
    },
    // C says only "nonzero": the values are gcc's `__builtin_signbit` (the
    // `signbit` macro) and glibc's x86-64 entry points.
    Program {
        what: "signbit and glibc's class functions give the host's nonzero values",
        test: "floats-class-values",
        text: r#"
            #include <math.h>
            #include <assert.h>
            int __signbitf(float); int __signbit(double); int __signbitl(long double); int __isnanl(long double);
            int main(void) {
              volatile float f = -1.0f; volatile double d = -1.0; volatile long double l = -1.0L, nan = __builtin_nanl("");
              assert(signbit(f) == -2147483647 - 1 && signbit(d) == 1 && signbit(l) == 512);
              assert(__signbitf(f) == 8 && __signbit(d) == 128 && __signbitl(l) == 512 && !__signbitl(-l));
              assert(LAST);
              return 0;
            }
        "#,
        checks: &[Check::holds("__isnanl(nan) == 0xffff", &["-lm"]), Check::fails("__isnanl(nan) == 1", &["-lm"])],
    },
    // glibc rounds the digits printf prints in the current rounding mode
    // (`%.0f` of 0.5 is `1` upward), the formatter to nearest only: in
    // another mode neither verdict is given; to nearest both are.
    Program {
        what: "printed floats to nearest are exact",
        test: "floats-printed-nearest",
        text: r#"
            #include <stdio.h>
            #include <fenv.h>
            #include <assert.h>
            int main(void) {
              char buf[8];
              fesetround(FE_TONEAREST);
              sprintf(buf, "%.0f", 0.5);
              assert(LAST);
              return 0;
            }
        "#,
        checks: &[Check::verdict("buf[0] == '0'", &[], HOLDS, FP_ORACLE), Check::verdict("buf[0] == '1'", &[], FAILS, FP_ORACLE)],
    },
    Program {
        what: "printed floats in other rounding modes are approximations",
        test: "floats-printed-upward",
        text: r#"
            #include <stdio.h>
            #include <fenv.h>
            #include <assert.h>
            int main(void) {
              char buf[8];
              fesetround(FE_UPWARD);
              sprintf(buf, "%.0f", 0.5);
              assert(LAST);
              return 0;
            }
        "#,
        checks: &[Check::verdict("buf[0] == '0'", &[], UNKNOWN, FP_ORACLE), Check::verdict("buf[0] == '1'", &[], UNKNOWN, FP_ORACLE)],
    },
];

#[test]
fn every_program_gets_its_verdicts() {
    check_programs(PROGRAMS);
}

#[test]
fn every_program_that_holds_has_a_false_twin() {
    assert_twins(PROGRAMS);
}

#[test]
fn a_violation_that_needs_a_result_the_host_library_does_not_give_is_told_apart() {
    // glibc's hypot(3, 4) is exactly 5; another C library may be an ulp
    // off, so the violation is possible but not replayable on this host.
    if !front_end_ready("floats-inexact-host-differs") {
        return;
    }
    let source = "#include <math.h>\n#include <assert.h>\nint main(void) { assert(hypot(3.0, 4.0) == 5.0); return 0; }\n";
    let file = write(&scratch_dir("floats-inexact-host-differs"), "main.c", source);
    let out = run([file.to_str().expect("utf-8 path")]);
    assert!(out.stdout.ends_with("VERIFICATION UNKNOWN\n"), "{}", out.stdout);
    assert!(out.stdout.contains("depends on results of `hypot` that the host C library does not give"), "{}", out.stdout);
}

/// A math function call of the folding class: its type, the function and
/// its constant arguments (as C literals of the type).
struct FoldingCase {
    ty: &'static str,
    function: &'static str,
    args: &'static [&'static str],
}

/// Calls whose host glibc result differs from the correctly rounded one
/// gcc folds a constant call to (checked below: at least one must), and one
/// where they agree, in every float type.
const FOLDING_CASES: &[FoldingCase] = &[
    FoldingCase { ty: "long double", function: "asinhl", args: &["-0.25L"] },
    FoldingCase { ty: "long double", function: "tanhl", args: &["0.5L"] },
    FoldingCase { ty: "long double", function: "powl", args: &["1.5L", "1.1L"] },
    FoldingCase { ty: "double", function: "cbrt", args: &["1.5"] },
    FoldingCase { ty: "double", function: "sinh", args: &["0.7"] },
    FoldingCase { ty: "double", function: "exp", args: &["0.5"] },
    FoldingCase { ty: "float", function: "asinhf", args: &["-0.25f"] },
    FoldingCase { ty: "float", function: "atan2f", args: &["1.5f", "0.7f"] },
];

impl FoldingCase {
    /// Bytes of the type's value (x87: 10).
    fn width(&self) -> usize {
        match self.ty {
            "float" => 4,
            "double" => 8,
            _ => 10,
        }
    }

    /// A program whose `main` declares `v0, v1, ...` (inputs equal to the
    /// arguments: nondeterministic for tarsier, volatile natively), `c`,
    /// the call on constants, and `v`, the call on the inputs (each call
    /// made once: two calls on constants may differ, one folded and one
    /// not), with `IS(value, low, high)` comparing a value's bits (low 8
    /// bytes, x87's top 2), then runs `body`.
    fn program(&self, body: &str) -> String {
        let ty = self.ty;
        let nondet = format!("__VERIFIER_nondet_{}", ty.replace(' ', "_"));
        let mut inputs = String::new();
        for (i, arg) in self.args.iter().enumerate() {
            inputs.push_str(&format!("  INPUT(v{i}, {arg});\n"));
        }
        let vars: Vec<String> = (0..self.args.len()).map(|i| format!("v{i}")).collect();
        format!(
            r#"#include <math.h>
#include <assert.h>
#include <stdio.h>
#include <string.h>
#ifdef __TARSIER__
{ty} {nondet}(void);
void __VERIFIER_assume(int);
#define INPUT(name, value) {ty} name = {nondet}(); __VERIFIER_assume(name == value)
#else
#define INPUT(name, value) volatile {ty} name = value
#endif
static unsigned long long low({ty} value) {{
  unsigned long long bits = 0;
  memcpy(&bits, &value, {low});
  return bits;
}}
static unsigned high({ty} value) {{
  unsigned short bits = 0;
  memcpy(&bits, (char *)&value + {low}, {high});
  return bits;
}}
#define IS(value, l, h) (low(value) == (l) && high(value) == (h))
#define CONST {function}({constants})
#define VARS {function}({vars})
int main(void) {{
{inputs}  {ty} c = CONST, v = VARS;
  {body}
  return 0;
}}
"#,
            low = self.width().min(8),
            high = self.width().saturating_sub(8),
            function = self.function,
            constants = self.args.join(", "),
            vars = vars.join(", "),
        )
    }
}

/// Builds `source` with gcc and `flags` and runs it: its standard output,
/// or `None` when it stops by a failed assertion.
fn native_output(dir: &std::path::Path, name: &str, source: &str, flags: &[&str]) -> Option<String> {
    let file = write(dir, &format!("{name}.c"), source);
    let binary = dir.join(format!("{name}.native"));
    let built = std::process::Command::new("gcc").args(flags).arg("-w").arg(&file).arg("-o").arg(&binary).arg("-lm").output();
    let built = built.expect("gcc runs");
    assert!(built.status.success(), "gcc {flags:?} rejects {name}:\n{}", String::from_utf8_lossy(&built.stderr));
    let out = std::process::Command::new(&binary).output().expect("the native program runs");
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The builds a program may get: gcc folds a call on constants to the
/// correctly rounded value at -O0 and -O2, not with -fno-builtin.
const NATIVE_BUILDS: [&[&str]; 3] = [&["-O0"], &["-O2"], &["-O0", "-fno-builtin"]];

#[test]
fn a_math_call_on_constants_may_be_computed_by_the_compiler() {
    // A verdict must hold for every native build: FAILED only if each
    // build fails, SUCCESSFUL only if each holds. Where the host library's
    // last bit is not the correctly rounded one, a violation that depends
    // on it is UNKNOWN; violations on every value stay FAILED.
    if !front_end_ready("floats-folding") || !common::gcc_works(&[]) {
        return;
    }
    let dir = scratch_dir("floats-folding");
    let mut differing = 0;
    for (n, case) in FOLDING_CASES.iter().enumerate() {
        let probe = case.program("printf(\"0x%llxull, 0x%x|0x%llxull, 0x%x\\n\", low(c), high(c), low(v), high(v));");
        let values = native_output(&dir, &format!("probe{n}"), &probe, &["-O0"]).expect("the probe runs");
        let (folded, runtime) = values.trim().split_once('|').expect("two values");
        differing += usize::from(folded != runtime);
        let checks = [
            (format!("assert(IS(c, {runtime}));"), None),
            (format!("assert(!IS(c, {folded}) && !IS(c, {runtime}));"), (case.ty != "long double").then_some(FAILS)),
            (format!("assert(!IS(v, {runtime}));"), Some(FAILS)),
            (format!("assert(IS(v, {runtime}));"), None),
            ("assert(v == c);".to_string(), None),
        ];
        for (k, (body, precise)) in checks.iter().enumerate() {
            let source = case.program(body);
            let name = format!("case{n}-{k}");
            let holds: Vec<bool> = NATIVE_BUILDS.iter().map(|flags| native_output(&dir, &name, &source, flags).is_some()).collect();
            let out = run([write(&dir, &format!("{name}.c"), &source).to_str().expect("utf-8 path")]);
            let answer = out.stdout.lines().last().unwrap_or_default();
            let context = format!("{}({}) `{body}`: native builds {holds:?}, tarsier:\n{}", case.function, case.args.join(", "), out.stdout);
            match answer {
                FAILS => assert!(holds.iter().all(|h| !h), "a build holds: {context}"),
                HOLDS => assert!(holds.iter().all(|h| *h), "a build fails: {context}"),
                _ => assert_eq!(answer, UNKNOWN, "{context}"),
            }
            if let Some(expected) = precise {
                assert_eq!(answer, *expected, "{context}");
            }
        }
    }
    assert!(differing > 0, "no case where the host library differs from gcc's folding: the class is not exercised");
}
