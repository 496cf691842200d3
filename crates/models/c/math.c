/* math.h functions with an exact IEEE definition, for binary32 float,
   binary64 double and x87 long double: the ones that only look at or
   change the sign and class bits, and the ones built from comparisons and
   operations whose result is exact (so they hold in every rounding mode,
   NaN and signed zero included). sqrt, fma, fmod, remainder and the
   roundings to an integral value (trunc, floor, ceil, round, rint,
   nearbyint) are symex and interpreter built-ins; a NaN operand of a
   rounding is returned as it is (a signalling NaN is not quietened). The
   exponent functions (frexp, ldexp, scalbn, ilogb, logb, modf, nextafter,
   nexttoward) read and write the exponent bits; complex.h's creal, cimag
   and conj take the parts of a complex value. */

double trunc(double x);
double round(double x);
double rint(double x);
float truncf(float x);
float roundf(float x);
float rintf(float x);
long double truncl(long double x);
long double roundl(long double x);
long double rintl(long double x);
long double fmodl(long double x, long double y);
long double remainderl(long double x, long double y);

double
fabs(double x)
{
    union { double value; unsigned long long bits; } v;
    v.value = x;
    v.bits &= 0x7fffffffffffffffULL;
    return v.value;
}

float
fabsf(float x)
{
    union { float value; unsigned int bits; } v;
    v.value = x;
    v.bits &= 0x7fffffffU;
    return v.value;
}

double
copysign(double x, double y)
{
    union { double value; unsigned long long bits; } vx, vy;
    vx.value = x;
    vy.value = y;
    vx.bits = (vx.bits & 0x7fffffffffffffffULL) | (vy.bits & 0x8000000000000000ULL);
    return vx.value;
}

float
copysignf(float x, float y)
{
    union { float value; unsigned int bits; } vx, vy;
    vx.value = x;
    vy.value = y;
    vx.bits = (vx.bits & 0x7fffffffU) | (vy.bits & 0x80000000U);
    return vx.value;
}

int
__signbit(double x)
{
    union { double value; unsigned long long bits; } v;
    v.value = x;
    return (int)(v.bits >> 63);
}

int
__signbitf(float x)
{
    union { float value; unsigned int bits; } v;
    v.value = x;
    return (int)(v.bits >> 31);
}

int
__isnan(double x)
{
    return x != x;
}

int
__isnanf(float x)
{
    return x != x;
}

/* 1 for +infinity, -1 for -infinity, else 0 (glibc's convention). */
int
__isinf(double x)
{
    union { double value; unsigned long long bits; } v;
    v.value = x;
    if ((v.bits & 0x7fffffffffffffffULL) != 0x7ff0000000000000ULL)
        return 0;
    return v.bits >> 63 ? -1 : 1;
}

int
__finite(double x)
{
    union { double value; unsigned long long bits; } v;
    v.value = x;
    return (v.bits & 0x7ff0000000000000ULL) != 0x7ff0000000000000ULL;
}

/* glibc's classification entry points for every float type, through GCC's
   type-generic built-ins (exact: comparisons and sign tests only). glibc's
   FP_NAN, FP_INFINITE, FP_ZERO, FP_SUBNORMAL, FP_NORMAL are 0 to 4. */

int
__fpclassify(double x)
{
    return __builtin_fpclassify(0, 1, 4, 3, 2, x);
}

int
__fpclassifyf(float x)
{
    return __builtin_fpclassify(0, 1, 4, 3, 2, x);
}

int
__fpclassifyl(long double x)
{
    return __builtin_fpclassify(0, 1, 4, 3, 2, x);
}

int
__signbitl(long double x)
{
    return __builtin_signbit(x) != 0;
}

int
__isnanl(long double x)
{
    return __builtin_isnan(x);
}

int
__isinff(float x)
{
    return __builtin_isinf_sign(x);
}

int
__isinfl(long double x)
{
    return __builtin_isinf_sign(x);
}

int
__finitef(float x)
{
    return __builtin_isfinite(x);
}

int
__finitel(long double x)
{
    return __builtin_isfinite(x);
}

long
lrint(double x)
{
    return (long)rint(x);
}

long long
llrint(double x)
{
    return (long long)rint(x);
}

long
lround(double x)
{
    return (long)round(x);
}

long long
llround(double x)
{
    return (long long)round(x);
}

/* IEEE minNum/maxNum: a NaN operand gives the other one; of equal
   operands (-0 and +0) the second, as glibc's minsd/maxsd code on x86-64
   does. */
double
fmin(double x, double y)
{
    if (__builtin_isless(x, y))
        return x;
    if (__builtin_isgreaterequal(x, y))
        return y;
    return __builtin_isnan(y) ? x : y;
}

double
fmax(double x, double y)
{
    if (__builtin_isgreater(x, y))
        return x;
    if (__builtin_islessequal(x, y))
        return y;
    return __builtin_isnan(y) ? x : y;
}

double
fdim(double x, double y)
{
    if (__builtin_islessequal(x, y))
        return 0.0;
    return x - y;
}

long
lrintf(float x)
{
    return (long)rintf(x);
}

long long
llrintf(float x)
{
    return (long long)rintf(x);
}

long
lroundf(float x)
{
    return (long)roundf(x);
}

long long
llroundf(float x)
{
    return (long long)roundf(x);
}

/* IEEE minNum/maxNum: a NaN operand gives the other one; of equal
   operands (-0 and +0) the second, as glibc's minsd/maxsd code on x86-64
   does. */
float
fminf(float x, float y)
{
    if (__builtin_isless(x, y))
        return x;
    if (__builtin_isgreaterequal(x, y))
        return y;
    return __builtin_isnan(y) ? x : y;
}

float
fmaxf(float x, float y)
{
    if (__builtin_isgreater(x, y))
        return x;
    if (__builtin_islessequal(x, y))
        return y;
    return __builtin_isnan(y) ? x : y;
}

float
fdimf(float x, float y)
{
    if (__builtin_islessequal(x, y))
        return 0.0f;
    return x - y;
}

int
isnan(double x)
{
    return __builtin_isnan(x);
}

int
isinf(double x)
{
    return __builtin_isinf_sign(x);
}

int
finite(double x)
{
    return __builtin_isfinite(x);
}

int
isnanf(float x)
{
    return __builtin_isnan(x);
}

int
isinff(float x)
{
    return __builtin_isinf_sign(x);
}

int
finitef(float x)
{
    return __builtin_isfinite(x);
}

int
isnanl(long double x)
{
    return __builtin_isnan(x);
}

int
isinfl(long double x)
{
    return __builtin_isinf_sign(x);
}

int
finitel(long double x)
{
    return __builtin_isfinite(x);
}

/* Binary exponents and scaling. A subnormal operand is first scaled by an
   exact power of two into the normal range. Scaling follows musl's scalbn:
   the intermediate products are exact, and a result in the subnormal
   range is rounded once, by the last product, in the current rounding
   mode. Infinities and NaN keep their value; glibc's exponent for them and
   for zero is 0. */

double
frexp(double x, int *e)
{
    union { double value; unsigned long long bits; } v;
    int exponent;
    v.value = x;
    exponent = (int)(v.bits >> 52) & 0x7ff;
    if (exponent == 0x7ff || x == 0.0) {
        *e = 0;
        return x;
    }
    if (exponent == 0) {
        v.value = x * 0x1p64;
        exponent = ((int)(v.bits >> 52) & 0x7ff) - 64;
    }
    *e = exponent - 1022;
    v.bits = (v.bits & 0x800fffffffffffffULL) | 0x3fe0000000000000ULL;
    return v.value;
}

float
frexpf(float x, int *e)
{
    union { float value; unsigned int bits; } v;
    int exponent;
    v.value = x;
    exponent = (int)(v.bits >> 23) & 0xff;
    if (exponent == 0xff || x == 0.0f) {
        *e = 0;
        return x;
    }
    if (exponent == 0) {
        v.value = x * 0x1p32f;
        exponent = ((int)(v.bits >> 23) & 0xff) - 32;
    }
    *e = exponent - 126;
    v.bits = (v.bits & 0x807fffffU) | 0x3f000000U;
    return v.value;
}

double
scalbn(double x, int n)
{
    union { double value; unsigned long long bits; } factor;
    double y = x;
    if (n > 1023) {
        y *= 0x1p1023;
        n -= 1023;
        if (n > 1023) {
            y *= 0x1p1023;
            n -= 1023;
            if (n > 1023)
                n = 1023;
        }
    } else if (n < -1022) {
        /* The remaining n ends below -53, so that a subnormal y is not
           rounded twice. */
        y *= 0x1p-1022 * 0x1p53;
        n += 1022 - 53;
        if (n < -1022) {
            y *= 0x1p-1022 * 0x1p53;
            n += 1022 - 53;
            if (n < -1022)
                n = -1022;
        }
    }
    factor.bits = (unsigned long long)(0x3ff + n) << 52;
    return y * factor.value;
}

float
scalbnf(float x, int n)
{
    union { float value; unsigned int bits; } factor;
    float y = x;
    if (n > 127) {
        y *= 0x1p127f;
        n -= 127;
        if (n > 127) {
            y *= 0x1p127f;
            n -= 127;
            if (n > 127)
                n = 127;
        }
    } else if (n < -126) {
        y *= 0x1p-126f * 0x1p24f;
        n += 126 - 24;
        if (n < -126) {
            y *= 0x1p-126f * 0x1p24f;
            n += 126 - 24;
            if (n < -126)
                n = -126;
        }
    }
    factor.bits = (unsigned int)(0x7f + n) << 23;
    return y * factor.value;
}

double
ldexp(double x, int n)
{
    return scalbn(x, n);
}

float
ldexpf(float x, int n)
{
    return scalbnf(x, n);
}

/* Exponents beyond int's range scale as far as the int extremes do. */
double
scalbln(double x, long n)
{
    if (n > 2147483647L)
        n = 2147483647L;
    if (n < -2147483647L - 1)
        n = -2147483647L - 1;
    return scalbn(x, (int)n);
}

float
scalblnf(float x, long n)
{
    if (n > 2147483647L)
        n = 2147483647L;
    if (n < -2147483647L - 1)
        n = -2147483647L - 1;
    return scalbnf(x, (int)n);
}

/* glibc on x86: FP_ILOGB0 and FP_ILOGBNAN are INT_MIN, infinity gives
   INT_MAX. */
int
ilogb(double x)
{
    union { double value; unsigned long long bits; } v;
    int exponent;
    v.value = x;
    exponent = (int)(v.bits >> 52) & 0x7ff;
    if (exponent == 0x7ff)
        return (v.bits << 12) != 0 ? -2147483647 - 1 : 2147483647;
    if (x == 0.0)
        return -2147483647 - 1;
    if (exponent == 0) {
        v.value = x * 0x1p64;
        return ((int)(v.bits >> 52) & 0x7ff) - 1023 - 64;
    }
    return exponent - 1023;
}

int
ilogbf(float x)
{
    union { float value; unsigned int bits; } v;
    int exponent;
    v.value = x;
    exponent = (int)(v.bits >> 23) & 0xff;
    if (exponent == 0xff)
        return (v.bits << 9) != 0 ? -2147483647 - 1 : 2147483647;
    if (x == 0.0f)
        return -2147483647 - 1;
    if (exponent == 0) {
        v.value = x * 0x1p32f;
        return ((int)(v.bits >> 23) & 0xff) - 127 - 32;
    }
    return exponent - 127;
}

double
logb(double x)
{
    if (x != x)
        return x;
    if (x == 0.0)
        return -__builtin_inf();
    if (__builtin_isinf(x))
        return __builtin_inf();
    return (double)ilogb(x);
}

float
logbf(float x)
{
    if (x != x)
        return x;
    if (x == 0.0f)
        return -__builtin_inff();
    if (__builtin_isinf(x))
        return __builtin_inff();
    return (float)ilogbf(x);
}

/* The fraction x - trunc(x) is exact; its sign is x's (also for an
   integral x in downward rounding, where x - x is -0). */
double
modf(double x, double *integral)
{
    double t;
    if (x != x) {
        *integral = x;
        return x;
    }
    t = trunc(x);
    *integral = t;
    if (__builtin_isinf(x))
        return __builtin_copysign(0.0, x);
    return __builtin_copysign(x - t, x);
}

float
modff(float x, float *integral)
{
    float t;
    if (x != x) {
        *integral = x;
        return x;
    }
    t = truncf(x);
    *integral = t;
    if (__builtin_isinf(x))
        return __builtin_copysignf(0.0f, x);
    return __builtin_copysignf(x - t, x);
}

/* One step of the bit pattern: up in magnitude when moving away from
   zero, down when moving towards it; from a zero to the smallest
   subnormal with y's sign; equal operands give y (so -0 towards +0 is
   +0). */
double
nextafter(double x, double y)
{
    union { double value; unsigned long long bits; } v, w;
    if (x != x)
        return x;
    if (y != y)
        return y;
    if (x == y)
        return y;
    v.value = x;
    if (x == 0.0) {
        w.value = y;
        v.bits = (w.bits & 0x8000000000000000ULL) | 1ULL;
        return v.value;
    }
    if ((x < y) == (x > 0.0))
        v.bits += 1ULL;
    else
        v.bits -= 1ULL;
    return v.value;
}

float
nextafterf(float x, float y)
{
    union { float value; unsigned int bits; } v, w;
    if (x != x)
        return x;
    if (y != y)
        return y;
    if (x == y)
        return y;
    v.value = x;
    if (x == 0.0f) {
        w.value = y;
        v.bits = (w.bits & 0x80000000U) | 1U;
        return v.value;
    }
    if ((x < y) == (x > 0.0f))
        v.bits += 1U;
    else
        v.bits -= 1U;
    return v.value;
}

/* nexttoward: the direction comes from comparing in long double; equal
   operands give y converted (-0 towards +0 is +0). */
double
nexttoward(double x, long double y)
{
    if (x != x)
        return x;
    if (y != y || (long double)x == y)
        return (double)y;
    return nextafter(x, (long double)x < y ? __builtin_inf() : -__builtin_inf());
}

float
nexttowardf(float x, long double y)
{
    if (x != x)
        return x;
    if (y != y || (long double)x == y)
        return (float)y;
    return nextafterf(x, (long double)x < y ? __builtin_inff() : -__builtin_inff());
}

/* x87 long double (glibc's ldbl-96 on x86): 64 significand bits with an
   explicit integer bit, stored below a 16-bit sign and exponent. The
   models read and write these fields; a value they build is canonical
   (integer bit set exactly when the exponent is not zero). A pseudo-denormal
   operand (zero exponent, integer bit set) is read by its value, which
   glibc's frexpl does not do. */

union __tarsier_ldouble {
    long double value;
    struct {
        unsigned long long mantissa;
        unsigned short sign_exponent;
    } parts;
};

long double
fabsl(long double x)
{
    return __builtin_fabsl(x);
}

long double
copysignl(long double x, long double y)
{
    return __builtin_copysignl(x, y);
}

long
lrintl(long double x)
{
    return (long)rintl(x);
}

long long
llrintl(long double x)
{
    return (long long)rintl(x);
}

long
lroundl(long double x)
{
    return (long)roundl(x);
}

long long
llroundl(long double x)
{
    return (long long)roundl(x);
}

/* glibc's x87 code: of equal operands (-0 and +0) fminl returns the first,
   fmaxl the second; a NaN operand gives the other one. */
long double
fminl(long double x, long double y)
{
    if (__builtin_islessequal(x, y))
        return x;
    if (__builtin_isgreater(x, y))
        return y;
    return __builtin_isnan(y) ? x : y;
}

long double
fmaxl(long double x, long double y)
{
    if (__builtin_isgreater(x, y))
        return x;
    if (__builtin_islessequal(x, y))
        return y;
    return __builtin_isnan(y) ? x : y;
}

long double
fdiml(long double x, long double y)
{
    if (__builtin_islessequal(x, y))
        return 0.0L;
    return x - y;
}

long double
frexpl(long double x, int *e)
{
    union __tarsier_ldouble v;
    int exponent;
    v.value = x;
    exponent = v.parts.sign_exponent & 0x7fff;
    if (exponent == 0x7fff || x == 0.0L) {
        *e = 0;
        return x;
    }
    if (exponent == 0) {
        v.value = x * 0x1p64L;
        exponent = (v.parts.sign_exponent & 0x7fff) - 64;
    }
    *e = exponent - 16382;
    v.parts.sign_exponent = (v.parts.sign_exponent & 0x8000) | 0x3ffe;
    return v.value;
}

/* As scalbn: the remaining n ends below -64 so that a subnormal y is not
   rounded twice. */
long double
scalbnl(long double x, int n)
{
    union __tarsier_ldouble factor;
    long double y = x;
    if (n > 16383) {
        y *= 0x1p16383L;
        n -= 16383;
        if (n > 16383) {
            y *= 0x1p16383L;
            n -= 16383;
            if (n > 16383)
                n = 16383;
        }
    } else if (n < -16382) {
        y *= 0x1p-16382L * 0x1p64L;
        n += 16382 - 64;
        if (n < -16382) {
            y *= 0x1p-16382L * 0x1p64L;
            n += 16382 - 64;
            if (n < -16382)
                n = -16382;
        }
    }
    factor.parts.mantissa = 0x8000000000000000ULL;
    factor.parts.sign_exponent = (unsigned short)(0x3fff + n);
    return y * factor.value;
}

long double
ldexpl(long double x, int n)
{
    return scalbnl(x, n);
}

long double
scalblnl(long double x, long n)
{
    if (n > 2147483647L)
        n = 2147483647L;
    if (n < -2147483647L - 1)
        n = -2147483647L - 1;
    return scalbnl(x, (int)n);
}

int
ilogbl(long double x)
{
    union __tarsier_ldouble v;
    int exponent;
    v.value = x;
    exponent = v.parts.sign_exponent & 0x7fff;
    if (exponent == 0x7fff)
        return (v.parts.mantissa << 1) != 0 ? -2147483647 - 1 : 2147483647;
    if (x == 0.0L)
        return -2147483647 - 1;
    if (exponent == 0) {
        v.value = x * 0x1p64L;
        return (v.parts.sign_exponent & 0x7fff) - 16383 - 64;
    }
    return exponent - 16383;
}

long double
logbl(long double x)
{
    if (x != x)
        return x;
    if (x == 0.0L)
        return -__builtin_infl();
    if (__builtin_isinf(x))
        return __builtin_infl();
    return (long double)ilogbl(x);
}

long double
modfl(long double x, long double *integral)
{
    long double t;
    if (x != x) {
        *integral = x;
        return x;
    }
    t = truncl(x);
    *integral = t;
    if (__builtin_isinf(x))
        return __builtin_copysignl(0.0L, x);
    return __builtin_copysignl(x - t, x);
}

/* The exponent and the 63 fraction bits read as one number: stepping it
   by one moves to the neighbouring value, carrying into the exponent. */
long double
nextafterl(long double x, long double y)
{
    union __tarsier_ldouble v, w;
    unsigned long long fraction;
    int exponent;
    if (x != x)
        return x;
    if (y != y)
        return y;
    if (x == y)
        return y;
    v.value = x;
    if (x == 0.0L) {
        w.value = y;
        v.parts.sign_exponent = w.parts.sign_exponent & 0x8000;
        v.parts.mantissa = 1ULL;
        return v.value;
    }
    exponent = v.parts.sign_exponent & 0x7fff;
    /* A pseudo-denormal is stepped from its value, as glibc does. */
    if (exponent == 0 && (v.parts.mantissa >> 63) != 0)
        exponent = 1;
    fraction = v.parts.mantissa & 0x7fffffffffffffffULL;
    if ((x < y) == (x > 0.0L)) {
        if (fraction == 0x7fffffffffffffffULL) {
            fraction = 0;
            exponent += 1;
        } else {
            fraction += 1;
        }
    } else if (fraction == 0) {
        fraction = 0x7fffffffffffffffULL;
        exponent -= 1;
    } else {
        fraction -= 1;
    }
    v.parts.mantissa = fraction | (exponent != 0 ? 0x8000000000000000ULL : 0ULL);
    v.parts.sign_exponent = (unsigned short)((v.parts.sign_exponent & 0x8000) | exponent);
    return v.value;
}

long double
nexttowardl(long double x, long double y)
{
    return nextafterl(x, y);
}

/* glibc's remainder-by-parts: |x| reduced below 8|y| (fmod, exact), then
   the quotient's last three bits by exact subtractions of 4|y|, 2|y| and
   |y|, halfway cases to an even quotient; the multiples of |y| are only
   formed below LDBL_MAX. */
long double
remquol(long double x, long double y, int *quo)
{
    long double ax = __builtin_fabsl(x), ay = __builtin_fabsl(y);
    int quotient = 0;
    if (x != x || y != y || __builtin_isinf(x) || y == 0.0L) {
        *quo = 0;
        return remainderl(x, y);
    }
    if (ay <= 0x1.fffffffffffffffep16380L)
        ax = fmodl(ax, 8.0L * ay);
    if (ay <= 0x1.fffffffffffffffep16381L && ax >= 4.0L * ay) {
        ax -= 4.0L * ay;
        quotient += 4;
    }
    if (ay <= 0x1.fffffffffffffffep16382L && ax >= 2.0L * ay) {
        ax -= 2.0L * ay;
        quotient += 2;
    }
    if (ay < 0x1p-16381L) {
        if (ax + ax > ay) {
            ax -= ay;
            quotient += 1;
            if (ax + ax >= ay) {
                ax -= ay;
                quotient += 1;
            }
        }
    } else if (ax > 0.5L * ay) {
        ax -= ay;
        quotient += 1;
        if (ax >= 0.5L * ay) {
            ax -= ay;
            quotient += 1;
        }
    }
    if (ax == 0.0L)
        ax = 0.0L;
    *quo = __builtin_signbit(x) != __builtin_signbit(y) ? -quotient : quotient;
    return __builtin_signbit(x) ? -ax : ax;
}

/* complex.h: the parts of a complex number and its conjugate. */

double
creal(double _Complex z)
{
    return __real__ z;
}

float
crealf(float _Complex z)
{
    return __real__ z;
}

double
cimag(double _Complex z)
{
    return __imag__ z;
}

float
cimagf(float _Complex z)
{
    return __imag__ z;
}

double _Complex
conj(double _Complex z)
{
    __imag__ z = -__imag__ z;
    return z;
}

float _Complex
conjf(float _Complex z)
{
    __imag__ z = -__imag__ z;
    return z;
}

/* The modulus and argument, by the library's hypot and atan2 (which symex
   and the interpreter model as inexact functions). */

double hypot(double x, double y);
float hypotf(float x, float y);
double atan2(double y, double x);
float atan2f(float y, float x);

double
cabs(double _Complex z)
{
    return hypot(__real__ z, __imag__ z);
}

float
cabsf(float _Complex z)
{
    return hypotf(__real__ z, __imag__ z);
}

double
carg(double _Complex z)
{
    return atan2(__imag__ z, __real__ z);
}

float
cargf(float _Complex z)
{
    return atan2f(__imag__ z, __real__ z);
}
