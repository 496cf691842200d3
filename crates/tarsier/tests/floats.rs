//! Floating-point programs with known verdicts: the classification and
//! comparison built-ins, the exact math.h models, and the floating-point
//! overflow property. Each program that holds has a twin whose assertion
//! is false, so a test cannot pass by answering one verdict everywhere.

mod common;

use common::{front_end_ready, run, scratch_dir, write};

/// The verdict line tarsier prints for `source` run with `flags`.
fn verdict(test: &str, source: &str, flags: &[&str]) -> String {
    let dir = scratch_dir(test);
    let file = write(&dir, "main.c", source);
    let mut args = vec![file.to_str().expect("utf-8 path")];
    args.extend_from_slice(flags);
    let out = run(&args);
    out.stdout.lines().last().unwrap_or_default().to_string()
}

fn assert_verdicts(test: &str, holds: &str, fails: &str, flags: &[&str]) {
    assert_eq!(verdict(test, holds, flags), "VERIFICATION SUCCESSFUL", "{holds}");
    assert_eq!(verdict(&format!("{test}-false"), fails, flags), "VERIFICATION FAILED", "{fails}");
}

#[test]
fn classification_builtins_are_exact_in_every_float_type() {
    if !front_end_ready("floats-classification") {
        return;
    }
    let program = |last: &str| {
        format!(
            "#include <math.h>\n#include <assert.h>\n\
             int main(void) {{\n\
               float sub = 1e-40f; double d = -0.0; float nan = NAN; float inf = INFINITY;\n\
               assert(isnan(nan) && !isnan(inf) && isinf(-inf) && !isfinite(inf) && isfinite(sub));\n\
               assert(!isnormal(sub) && isnormal(1.0f) && fpclassify(sub) == FP_SUBNORMAL);\n\
               assert(fpclassify(d) == FP_ZERO && signbit(d) && !signbit(nan) && __builtin_isinf_sign(-inf) == -1);\n\
               assert(isunordered(nan, 1.0) && !isgreater(nan, 1.0) && islessgreater(1.0f, 2.0));\n\
               assert(__builtin_fabs(d) == 0.0 && !signbit(__builtin_fabs(d)) && signbit(__builtin_copysignf(1.0f, -nan)));\n\
               assert({last});\n\
             }}\n"
        )
    };
    assert_verdicts("floats-classification", &program("isnormal(1e-30f) && !isnormal(nan)"), &program("fpclassify(sub) == FP_NORMAL"), &[]);
}

#[test]
fn rounding_functions_follow_c_for_nondeterministic_operands() {
    if !front_end_ready("floats-rounding-functions") {
        return;
    }
    let program = |last: &str| {
        format!(
            "#include <math.h>\n#include <assert.h>\n\
             float __VERIFIER_nondet_float(void);\n\
             int main(void) {{\n\
               float x = __VERIFIER_nondet_float();\n\
               if (!(x > -1e6f && x < 1e6f)) return 0;\n\
               assert(floor(-0.5) == -1.0 && ceil(0.5) == 1.0 && trunc(-1.5) == -1.0 && signbit(ceil(-0.5)));\n\
               assert(round(2.5) == 3.0 && round(-0.5) == -1.0 && rint(2.5) == 2.0 && nearbyintf(-3.5f) == -4.0f);\n\
               assert(fmin(NAN, 1.5) == 1.5 && fmaxf(x, NAN) == x && fdim(1.0, 3.0) == 0.0 && lround(-2.5) == -3);\n\
               assert({last});\n\
             }}\n"
        )
    };
    assert_verdicts("floats-rounding-functions", &program("fabsf(x - roundf(x)) <= 0.5f"), &program("fabsf(x - roundf(x)) < 0.5f"), &[]);
}

#[test]
fn floating_point_overflow_is_a_property_under_overflow_check() {
    if !front_end_ready("floats-overflow") {
        return;
    }
    let program = |count: u32| format!("int main(void) {{ float f = 1; for (int i = 0; i < {count}; i++) f *= 2; return 0; }}\n");
    assert_verdicts("floats-overflow", &program(127), &program(128), &["--overflow-check"]);
    assert_eq!(verdict("floats-overflow-unchecked", &program(128), &[]), "VERIFICATION SUCCESSFUL");
}

#[test]
fn rounding_mode_is_program_state_set_by_fesetround_and_the_flags() {
    if !front_end_ready("floats-rounding-mode") {
        return;
    }
    let program = |last: &str| {
        format!(
            "#include <fenv.h>\n#include <assert.h>\n\
             float __VERIFIER_nondet_float(void);\n\
             int main(void) {{\n\
               float x = __VERIFIER_nondet_float(), three = 3.0f;\n\
               if (!(x >= 1.0f && x <= 2.0f)) return 0;\n\
               int start = fegetround();\n\
               float nearest = x / three;\n\
               assert(fesetround(FE_UPWARD) == 0 && fesetround(12345) != 0 && fegetround() == FE_UPWARD);\n\
               float up = x / three;\n\
               fesetround(FE_DOWNWARD);\n\
               float down = x / three;\n\
               assert(down <= nearest && nearest <= up && (double)down <= (double)x / 3 && (double)x / 3 <= (double)up);\n\
               assert({last});\n\
             }}\n"
        )
    };
    assert_verdicts("floats-rounding-mode", &program("up != down || (double)down * 3 == (double)x"), &program("up != down"), &[]);
    let start = program("start == FE_TONEAREST");
    assert_eq!(verdict("floats-rounding-mode-flag", &start, &["--round-to-zero"]), "VERIFICATION FAILED");
    assert_eq!(verdict("floats-rounding-mode-default", &start, &[]), "VERIFICATION SUCCESSFUL");
}

#[test]
fn sqrt_fma_and_fmod_are_exact() {
    if !front_end_ready("floats-exact-math") {
        return;
    }
    let program = |last: &str| {
        format!(
            "#include <math.h>\n#include <fenv.h>\n#include <assert.h>\n\
             float __VERIFIER_nondet_float(void);\n\
             int main(void) {{\n\
               float x = __VERIFIER_nondet_float();\n\
               if (!(x >= 4.0f && x <= 9.0f)) return 0;\n\
               assert(sqrtf(x) >= 2.0f && fmod(-7.0, 2.0) == -1.0 && remainder(7.0, 2.0) == -1.0);\n\
               assert(fma(0.1, 10.0, -1.0) != 0.1 * 10.0 - 1.0 && isnan(sqrt(-1.0)));\n\
               fesetround(FE_UPWARD);\n\
               assert({last});\n\
             }}\n"
        )
    };
    assert_verdicts("floats-exact-math", &program("sqrtf(2.0f) > 1.41421354f"), &program("sqrtf(2.0f) == 1.41421354f"), &[]);
}

#[test]
fn fmod_has_the_sign_of_x_for_every_operand() {
    if !front_end_ready("floats-fmod-sign") {
        return;
    }
    let program = |last: &str| {
        format!(
            "#include <math.h>\n#include <assert.h>\n\
             double __VERIFIER_nondet_double(void);\n\
             int main(void) {{\n\
               double x = __VERIFIER_nondet_double(), y = __VERIFIER_nondet_double();\n\
               if (!(x >= -1e6 && x <= 1e6 && y >= 1.0 && y <= 1024.0)) return 0;\n\
               double r = fmod(x, y);\n\
               assert({last});\n\
             }}\n"
        )
    };
    assert_verdicts(
        "floats-fmod-sign",
        &program("r == 0.0 || signbit(r) == signbit(x)"),
        &program("r == 0.0 || signbit(r) == signbit(y)"),
        &[],
    );
}

/// The values are glibc's `fmodl` and `remainderl` on x86-64: a quotient
/// of some 2^32382, far beyond the reach of a stage per exponent step.
#[test]
fn long_double_remainders_are_exact_across_the_exponent_range() {
    if !front_end_ready("floats-long-double-remainders") {
        return;
    }
    let program = |call: &str, result: &str| {
        format!(
            "#include <math.h>\n#include <assert.h>\n\
             long double __VERIFIER_nondet_long_double(void);\n\
             int main(void) {{\n\
               long double x = __VERIFIER_nondet_long_double();\n\
               if (x == -0x1.23456789abcdef12p16000L)\n\
                 assert({call}(x, 0x1.fedcba9876543212p-16382L) == {result}L);\n\
             }}\n"
        )
    };
    for (call, result, wrong) in [
        ("fmodl", "-0xe.7201507825b5368p-16385", "-0xe.7201507825b5369p-16385"),
        ("remainderl", "0x1.84e4844b8cec5a1p-16385", "0x1.84e4844b8cec5a2p-16385"),
    ] {
        let test = format!("floats-long-double-{call}");
        assert_verdicts(&test, &program(call, result), &program(call, wrong), &[]);
    }
}

#[test]
fn exponent_functions_are_exact_on_subnormals_infinities_and_zeros() {
    if !front_end_ready("floats-exponents") {
        return;
    }
    let program = |last: &str| {
        format!(
            "#include <math.h>\n#include <assert.h>\n\
             float __VERIFIER_nondet_float(void);\n\
             int main(void) {{\n\
               float x = __VERIFIER_nondet_float(); int e, i; double whole;\n\
               float m = frexpf(x, &e);\n\
               if (isfinite(x)) assert(ldexpf(m, e) == x && (x == 0.0f || (fabsf(m) >= 0.5f && fabsf(m) < 1.0f)));\n\
               frexp(0x1p-1074, &e); assert(e == -1073 && isinf(frexp(-INFINITY, &e)));\n\
               assert(ldexp(0x1.8p-1022, -52) == 0x1p-1073 && scalbnf(1.0f, 128) == INFINITY && scalbln(1.0, -2000) == 0.0);\n\
               assert(ilogb(0x1p-1074) == -1074 && ilogbf(0.0f) == FP_ILOGB0 && logb(-8.0) == 3.0 && logbf(0.0f) == -INFINITY);\n\
               assert(modf(-2.5, &whole) == -0.5 && whole == -2.0 && signbit(modff(-3.0f, &m)));\n\
               assert(nextafter(0.0, -1.0) == -0x1p-1074 && nextafterf(1.0f, 2.0f) == 1.0f + 0x1p-23f && nextafter(INFINITY, 0.0) == 0x1.fffffffffffffp1023);\n\
               i = e;\n\
               assert({last});\n\
             }}\n"
        )
    };
    assert_verdicts("floats-exponents", &program("ilogbf(x) != 200"), &program("!isfinite(x) || ilogbf(x) != -130"), &[]);
}

#[test]
fn complex_parts_and_nan_payloads_are_exact() {
    if !front_end_ready("floats-complex-parts") {
        return;
    }
    let program = |last: &str| {
        format!(
            "#include <math.h>\n#include <assert.h>\n#include <complex.h>\n#include <string.h>\n\
             int main(void) {{\n\
               double complex z = 3.0 - 2.0 * I; float complex w = conjf(1.0f + 4.0f * I);\n\
               double nan = __builtin_nan(\"0x10\"); unsigned long long bits; memcpy(&bits, &nan, sizeof bits);\n\
               assert(creal(z) == 3.0 && cimag(conj(z)) == 2.0 && crealf(w) == 1.0f && isnan(nan));\n\
               assert({last});\n\
             }}\n"
        )
    };
    assert_verdicts("floats-complex-parts", &program("cimagf(w) == -4.0f && bits == 0x7ff8000000000010ULL"), &program("bits == 0x7ff8000000000000ULL"), &[]);
}

#[test]
fn long_double_is_x87_extended_precision_in_both_data_models() {
    if !front_end_ready("floats-long-double") {
        return;
    }
    let program = |size: u32, last: &str| {
        format!(
            "#include <float.h>\n#include <string.h>\n#include <assert.h>\n\
             long double __VERIFIER_nondet_long_double(void);\n\
             int main(void) {{\n\
               long double third = 1.0L / 3, x = __VERIFIER_nondet_long_double();\n\
               unsigned long long big = 18446744073709551615ULL;\n\
               assert(sizeof(long double) == {size} && third != 1.0 / 3 && (double)third == 1.0 / 3);\n\
               assert((unsigned long long)(long double)big == big && LDBL_EPSILON == 0x1p-63L && LDBL_MAX > DBL_MAX);\n\
               unsigned char image[16] = {{0}}; long double one = 1.0L; memcpy(image, &one, 10);\n\
               assert(image[7] == 0x80 && image[8] == 0xff && image[9] == 0x3f);\n\
               if (!(x > 1 && x < 2)) return 0;\n\
               assert({last});\n\
             }}\n"
        )
    };
    for (size, flags) in [(16, &[][..]), (12, &["--32"][..])] {
        assert_verdicts("floats-long-double", &program(size, "x * 2 / 2 == x && 0.1L + 0.2L == 0.3L"), &program(size, "(double)x == x"), flags);
    }
}

#[test]
fn inexact_functions_are_near_the_c_library_at_constant_arguments() {
    if !front_end_ready("floats-inexact-constants") {
        return;
    }
    let program = |last: &str| {
        format!(
            "#include <math.h>\n#include <assert.h>\n#include <complex.h>\n\
             int main(void) {{\n\
               assert(fabs(pow(4.0, 0.5) - 2.0) < 1e-12 && fabs(exp(0.3) - 1.3498588075760032) < 1e-12);\n\
               assert(acos(1.0) == 0.0 && cos(0.0) == 1.0 && acos(0.0) > 1.57 && fabsf(tanhf(0.5f) - 0.46211716f) < 1e-6f);\n\
               assert(carg(1.0 + 0.0 * I) == 0.0 && fabs(cabs(3.0 + 4.0 * I) - 5.0) < 1e-12);\n\
               assert({last});\n\
             }}\n"
        )
    };
    assert_verdicts(
        "floats-inexact-constants",
        &program("fabs(log1p(0.125) - 0.11778303565638346) < 1e-15"),
        &program("fabs(log1p(0.125) - 0.1177830356563834) < 1e-17"),
        &[],
    );
}

#[test]
fn inexact_functions_keep_the_facts_every_c_library_satisfies() {
    if !front_end_ready("floats-inexact-facts") {
        return;
    }
    let program = |last: &str| {
        format!(
            "#include <math.h>\n#include <assert.h>\n#include <fenv.h>\n\
             float __VERIFIER_nondet_float(void);\n\
             int main(void) {{\n\
               float x = __VERIFIER_nondet_float();\n\
               if (x < 0.0f) assert(isnan(logf(x)));\n\
               if (!isnan(x)) assert(tanhf(x) >= -1.0f && tanhf(x) <= 1.0f && expf(x) >= 0.0f && (x < 0.0f || logf(x) == logf(x)));\n\
               if (x >= -20.0f && x <= 20.0f) assert({last});\n\
               fesetround(FE_UPWARD);\n\
               assert(exp(0.0) == 1.0 && isinf(log(0.0)));\n\
             }}\n"
        )
    };
    assert_verdicts("floats-inexact-facts", &program("fabsf(tanhf(x)) <= 1.0f"), &program("fabsf(tanhf(x)) < 1.0f"), &[]);
}

#[test]
fn glibc_classification_entry_points_cover_every_float_type() {
    if !front_end_ready("floats-glibc-classification") {
        return;
    }
    let program = |last: &str| {
        format!(
            "#include <math.h>\n#include <assert.h>\n\
             int __fpclassify(double); int __fpclassifyf(float); int __fpclassifyl(long double);\n\
             int __isinff(float); int __isinfl(long double); int __finitef(float); int __finitel(long double);\n\
             int __signbitl(long double); int __isnanl(long double);\n\
             int main(void) {{\n\
               long double big = 1e4000L, sub = 1e-4940L, nan = __builtin_nanl(\"\");\n\
               assert(__fpclassifyl(big) == FP_NORMAL && __fpclassifyl(sub) == FP_SUBNORMAL && __fpclassifyl(-0.0L) == FP_ZERO);\n\
               assert(__fpclassifyl(nan) == FP_NAN && __isinfl(-big * big) == -1 && __signbitl(-sub) && __isnanl(nan));\n\
               assert(__fpclassify(1e-310) == FP_SUBNORMAL && __isinff(1e30f * 1e30f) == 1 && !__finitef(1e30f * 1e30f) && __finitel(big));\n\
               assert({last});\n\
             }}\n"
        )
    };
    assert_verdicts("floats-glibc-classification", &program("__fpclassifyf(1e-40f) == FP_SUBNORMAL"), &program("__fpclassifyf(1e-40f) == FP_NORMAL"), &[]);
}

#[test]
fn nan_check_reports_operations_that_make_a_nan() {
    if !front_end_ready("floats-nan-check") {
        return;
    }
    let program = |operation: &str| {
        format!(
            "#include <math.h>\n\
             double __VERIFIER_nondet_double(void);\n\
             int main(void) {{\n\
               double x = __VERIFIER_nondet_double(), inf = INFINITY, y;\n\
               if (isnan(x)) return 0;\n\
               y = x + x; y = NAN * 2.0;\n\
               y = {operation};\n\
               return 0;\n\
             }}\n"
        )
    };
    assert_verdicts("floats-nan-check", &program("x * 0.5 + 1.0 / inf"), &program("x * 0.0"), &["--nan-check"]);
    assert_eq!(verdict("floats-nan-check-off", &program("x * 0.0"), &[]), "VERIFICATION SUCCESSFUL");
}

#[test]
fn strtod_family_is_exact_on_short_decimal_constants() {
    if !front_end_ready("floats-strtod") {
        return;
    }
    let program = |last: &str| {
        format!(
            "#include <stdlib.h>\n#include <math.h>\n#include <assert.h>\n\
             int main(void) {{\n\
               char *e; const char *none = \"  x\";\n\
               assert(strtod(\" 0.1\", &e) == 0.1 && *e == 0 && strtod(\"-2.5e-3y\", &e) == -2.5e-3 && *e == 'y');\n\
               assert(signbit(strtod(\"-0\", 0)) && strtod(none, &e) == 0 && e == none && atof(\"1e22\") == 1e22);\n\
               assert(strtof(\"3.14159\", 0) == 3.14159f && strtold(\"0.3\", 0) == 0.3L && strtold(\"1.\", &e) == 1 && *e == 0);\n\
               assert({last});\n\
             }}\n"
        )
    };
    assert_verdicts("floats-strtod", &program("strtod(\"123456789012345e-20\", 0) == 123456789012345e-20"), &program("strtod(\"0.1\", 0) == 0.1f"), &[]);
    let hexadecimal = program("strtod(\"0x1p3\", 0) == 8.0");
    assert_eq!(verdict("floats-strtod-hexadecimal", &hexadecimal, &[]), "VERIFICATION UNKNOWN");
}

#[test]
fn long_double_math_functions_match_glibc_on_constants() {
    if !front_end_ready("floats-long-double-math") {
        return;
    }
    let program = |last: &str| {
        format!(
            "#include <math.h>\n#include <float.h>\n#include <assert.h>\n\
             int main(void) {{\n\
               long double tiny = 0x1p-16445L, ip, r; int e, q;\n\
               assert(truncl(-2.5L) == -2.0L && floorl(-2.5L) == -3.0L && ceill(-2.5L) == -2.0L && signbit(ceill(-0.5L)));\n\
               assert(roundl(-0.5L) == -1.0L && rintl(2.5L) == 2.0L && nearbyintl(-3.5L) == -4.0L && isnan(floorl(NAN)));\n\
               assert(roundl(0x1p62L + 0.5L) == 0x1p62L + 1.0L && truncl(9223372036854775807.5L) == 9223372036854775807.0L);\n\
               assert(lroundl(-2.5L) == -3 && llrintl(2.5L) == 2 && lrintl(3.5L) == 4);\n\
               assert(fminl(NAN, 1.5L) == 1.5L && fmaxl(2.0L, NAN) == 2.0L && fdiml(1.0L, 3.0L) == 0.0L);\n\
               assert(signbit(fminl(-0.0L, 0.0L)) && signbit(fmaxl(0.0L, -0.0L)) && !signbit(fmin(-0.0, 0.0)));\n\
               assert(frexpl(48.0L, &e) == 0.75L && e == 6 && frexpl(tiny, &e) == 0.5L && e == -16444);\n\
               assert(ldexpl(1.0L, -16445) == tiny && ldexpl(1.0L, -16446) == 0.0L && scalbnl(1.0L, 16384) == INFINITY);\n\
               assert(ilogbl(tiny) == -16445 && ilogbl(0.0L) == FP_ILOGB0 && logbl(0x1p100L) == 100.0L && logbl(0.0L) == -INFINITY);\n\
               assert(modfl(-3.25L, &ip) == -0.25L && ip == -3.0L && fabsl(-2.0L) == 2.0L && copysignl(2.0L, -0.0L) == -2.0L);\n\
               assert(nextafterl(1.0L, 2.0L) == 1.0L + 0x1p-63L && nextafterl(0.0L, -1.0L) == -tiny);\n\
               assert(nextafterl(0x1p-16382L, 0.0L) == 0x1p-16382L - tiny && nextafterl(LDBL_MAX, INFINITY) == INFINITY);\n\
               assert(nexttoward(1.0, 2.0L) == 1.0 + 0x1p-52 && nexttowardf(1.0f, 1.0L + 0x1p-60L) == 1.0f + 0x1p-23f);\n\
               assert(sqrtl(4.0L) == 2.0L && fmal(2.0L, 3.0L, 1.0L) == 7.0L && fmodl(7.0L, 2.0L) == 1.0L);\n\
               r = remquol(-10.0L, 3.0L, &q);\n\
               assert(r == -1.0L && q == -3 && remquol(7.0L, 2.0L, &q) == -1.0L && q == 4);\n\
               assert({last});\n\
             }}\n"
        )
    };
    assert_verdicts(
        "floats-long-double-math",
        &program("nexttowardl(-1.0L, 0.0L) == -1.0L + 0x1p-64L"),
        &program("nexttowardl(-1.0L, 0.0L) == -1.0L + 0x1p-63L"),
        &[],
    );
}

#[test]
fn long_double_rounding_and_stepping_hold_for_every_operand() {
    if !front_end_ready("floats-long-double-symbolic") {
        return;
    }
    let program = |last: &str| {
        format!(
            "#include <math.h>\n#include <float.h>\n#include <assert.h>\n\
             long double __VERIFIER_nondet_long_double(void);\n\
             int main(void) {{\n\
               long double x = __VERIFIER_nondet_long_double();\n\
               if (!isfinite(x)) return 0;\n\
               assert({last});\n\
             }}\n"
        )
    };
    assert_verdicts("floats-long-double-floor", &program("floorl(x) <= x"), &program("truncl(x) <= x"), &[]);
    assert_verdicts(
        "floats-long-double-nextafter",
        &program("nextafterl(x, INFINITY) > x"),
        &program("nextafterl(x, -INFINITY) > -LDBL_MAX"),
        &[],
    );
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

#[test]
fn long_double_inexact_functions_are_near_the_c_library() {
    if !front_end_ready("floats-long-double-inexact") {
        return;
    }
    let program = |last: &str| {
        format!(
            "#include <math.h>\n#include <assert.h>\n\
             long double __VERIFIER_nondet_long_double(void);\n\
             int main(void) {{\n\
               long double x = __VERIFIER_nondet_long_double();\n\
               assert(fabsl(sinl(1.0L) - 0.841470984807896506652502L) < 1e-18L && fabsl(powl(2.0L, 10.0L) - 1024.0L) < 1e-15L);\n\
               assert(asinl(1.0L) > 1.5707963267948966L && acosl(1.0L) == 0.0L && isinf(logl(0.0L)));\n\
               if (!isnan(x)) assert(atanl(x) <= 1.571L && expl(x) >= 0.0L);\n\
               assert({last});\n\
             }}\n"
        )
    };
    assert_verdicts(
        "floats-long-double-inexact",
        &program("fabsl(logl(10.0L) - 2.302585092994045684018L) < 1e-18L"),
        &program("fabsl(logl(10.0L) - 2.302585092994045684018L) > 1e-18L"),
        &[],
    );
}

#[test]
fn nan_results_have_the_bits_x86_gives_them() {
    if !front_end_ready("floats-x86-nans") {
        return;
    }
    // The expected bits are those gcc-compiled code gives on x86-64: the
    // default NaN is negative, a NaN operand is quieted and carried through.
    let program = |payload_bits: &str| {
        format!(
            "#include <math.h>\n#include <assert.h>\n#include <string.h>\n#include <stdint.h>\n\
             double __VERIFIER_nondet_double(void);\n\
             static uint64_t bits(double d) {{ uint64_t b; memcpy(&b, &d, 8); return b; }}\n\
             static uint32_t fbits(float f) {{ uint32_t b; memcpy(&b, &f, 4); return b; }}\n\
             int main(void) {{\n\
               double zero = __VERIFIER_nondet_double();\n\
               if (zero != 0.0 || signbit(zero)) return 0;\n\
               double payload; uint64_t p = 0x7FF4000000000123ull; memcpy(&payload, &p, 8);\n\
               double other; uint64_t o = 0xFFF8000000000456ull; memcpy(&other, &o, 8);\n\
               assert(bits(zero / zero) == 0xFFF8000000000000ull && bits(-(zero / zero)) == 0x7FF8000000000000ull);\n\
               assert(bits(other - payload) == 0xFFF8000000000456ull && bits(payload / other) == 0x7FFC000000000123ull);\n\
               assert(bits(sqrt(zero - 1.0)) == 0xFFF8000000000000ull && fbits((float)other) == 0xFFC00000u);\n\
               assert(bits((double)(float)payload) == 0x7FFC000000000000ull);\n\
               long double lz = zero; long double ln = lz / lz;\n\
               assert(signbit(ln) && isnan(ln));\n\
               assert(bits(2.0 * payload) == {payload_bits});\n\
             }}\n"
        )
    };
    assert_verdicts("floats-x86-nans", &program("0x7FFC000000000123ull"), &program("0x7FF4000000000123ull"), &[]);
}

/// x87 `long double` arithmetic passes on the NaN operand with the larger
/// significand (the positive one on a tie), not the first operand as SSE
/// does; gcc-compiled code on x86-64 gives these bits.
#[test]
fn long_double_nans_follow_the_x87_rule() {
    if !front_end_ready("floats-x87-nans") {
        return;
    }
    let program = |expected: &str| {
        format!(
            "#include <assert.h>\n#include <string.h>\n\
             unsigned long __VERIFIER_nondet_ulong(void);\n\
             typedef union {{ long double d; struct {{ unsigned long m; unsigned short e; }} b; }} U;\n\
             int main(void) {{\n\
               U x, y, r;\n\
               memset(&x, 0, sizeof x); memset(&y, 0, sizeof y); memset(&r, 0, sizeof r);\n\
               x.b.m = 0x8000000000000000ul | (__VERIFIER_nondet_ulong() & 0x4000000000000007ul); x.b.e = 0x7FFF;\n\
               y.b.m = 0x8000000000000000ul | (__VERIFIER_nondet_ulong() & 0x4000000000000007ul); y.b.e = 0xFFFF;\n\
               if (x.b.m == 0x8000000000000000ul || y.b.m == 0x8000000000000000ul) return 0;\n\
               r.d = x.d - y.d;\n\
               unsigned long larger = (x.b.m >= y.b.m ? x.b.m : y.b.m) | 0x4000000000000000ul;\n\
               assert({expected});\n\
               return 0;\n\
             }}\n"
        )
    };
    let x87 = program("r.b.m == larger && r.b.e == (x.b.m >= y.b.m ? 0x7FFF : 0xFFFF)");
    let sse = program("r.b.m == (x.b.m | 0x4000000000000000ul) && r.b.e == 0x7FFF");
    assert_verdicts("floats-x87-nans", &x87, &sse, &[]);
}

/// glibc's roundings to an integral value quiet a signaling NaN (they
/// compute `x + x`, `roundsd` or `frndint` on it), in every float type.
#[test]
fn rounding_functions_quiet_signaling_nans() {
    if !front_end_ready("floats-rounding-snan") {
        return;
    }
    let program = |double_bits: &str, long_double_bits: &str| {
        format!(
            "#include <math.h>\n#include <assert.h>\n#include <string.h>\n#include <stdint.h>\n\
             typedef union {{ long double d; struct {{ unsigned long m; unsigned short e; }} b; }} U;\n\
             int main(void) {{\n\
               double s; uint64_t p = 0x7FF0000000000123ull; memcpy(&s, &p, 8);\n\
               double r = floor(s); uint64_t rb; memcpy(&rb, &r, 8);\n\
               float f; uint32_t fp = 0x7F800123u; memcpy(&f, &fp, 4);\n\
               float t = truncf(f); uint32_t tb; memcpy(&tb, &t, 4);\n\
               U u; memset(&u, 0, sizeof u); u.b.m = 0x8000000000000005ul; u.b.e = 0x7FFF;\n\
               U v; memset(&v, 0, sizeof v); v.d = rintl(u.d);\n\
               assert(rb == {double_bits} && tb == 0x7FC00123u && v.b.m == {long_double_bits});\n\
               return 0;\n\
             }}\n"
        )
    };
    let quieted = program("0x7FF8000000000123ull", "0xC000000000000005ul");
    let kept = program("0x7FF0000000000123ull", "0x8000000000000005ul");
    assert_verdicts("floats-rounding-snan", &quieted, &kept, &[]);
}

/// glibc rounds the digits printf prints in the current rounding mode
/// (`%.0f` of 0.5 is `1` upward), the formatter to nearest only: in
/// another mode neither verdict is given; to nearest both are.
#[test]
fn printed_floats_in_other_rounding_modes_are_approximations() {
    if !front_end_ready("floats-printed-rounding") {
        return;
    }
    let program = |mode: &str, digit: char| {
        format!(
            "#include <stdio.h>\n#include <fenv.h>\n#include <assert.h>\n\
             int main(void) {{\n\
               char buf[8];\n\
               fesetround({mode});\n\
               sprintf(buf, \"%.0f\", 0.5);\n\
               assert(buf[0] == '{digit}');\n\
               return 0;\n\
             }}\n"
        )
    };
    assert_verdicts("floats-printed-nearest", &program("FE_TONEAREST", '0'), &program("FE_TONEAREST", '1'), &[]);
    for digit in ['0', '1'] {
        let upward = verdict(&format!("floats-printed-upward-{digit}"), &program("FE_UPWARD", digit), &[]);
        assert_eq!(upward, "VERIFICATION UNKNOWN", "upward, digit {digit}");
    }
}
