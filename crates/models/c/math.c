/* math.h functions with an exact IEEE definition, for binary32 float,
   binary64 double and x87 long double: the ones that only look at or
   change the sign and class bits, and the ones built from comparisons and
   operations whose result is exact (so they hold in every rounding mode,
   NaN and signed zero included). sqrt, fma, fmod, remainder and the
   roundings to an integral value (trunc, floor, ceil, round, rint,
   nearbyint) are symex and interpreter built-ins. A signalling NaN
   operand is quietened wherever glibc computes with it (x + x or x + y),
   which every function but fabs and copysign does. The
   exponent functions (frexp, ldexp, scalbn, ilogb, logb, modf, nextafter,
   nexttoward) read and write the exponent bits; complex.h's creal, cimag
   and conj take the parts of a complex value.

   A function whose definition is the same for several types is written
   once, in a generic block that stands once for each type it names, with
   each placeholder replaced by the type's parameter (T the type, F the
   suffix of its names, C of its constants; crates/models/src/generic.rs
   lists them all). */

int __VERIFIER_nondet_tarsier_int(void);
/* Marks a result that depends on how gcc ordered the operands. */
void __tarsier_unmodelled_operand_order(void);

/*@ for float, double, long double */
$T trunc$F($T x);
$T round$F($T x);
$T rint$F($T x);
$T scalbn$F($T x, int n);
int ilogb$F($T x);
$T nextafter$F($T x, $T y);
/*@ end */
long double fmodl(long double x, long double y);
long double remainderl(long double x, long double y);

/* The sign and class functions, by GCC's type-generic built-ins (exact:
   comparisons, sign tests and sign flips only), and glibc's entry points
   for them. The classification returns glibc's FP_NAN, FP_INFINITE,
   FP_ZERO, FP_SUBNORMAL, FP_NORMAL (0 to 4); __isinf returns 1 for
   +infinity, -1 for -infinity, else 0 (glibc's convention).

   The nonzero values are glibc's on x86-64: __signbit gives the sign
   byte's bit of a byte mask (pmovmskb: 8 for float, 128 for double, 512
   for long double), __isnanl 0xffff (ldbl-96's arithmetic). gcc expands a
   direct call of isinf, isnan (or isdigit) as its own built-in, which
   gives 1 where glibc's function gives -1 (isinf of -infinity) or 0xffff
   (isnanl); the function reached through a pointer is glibc's. Those two
   give either value. */

/*@ for float, double, long double */
$T
fabs$F($T x)
{
    return __builtin_fabs$F(x);
}

$T
copysign$F($T x, $T y)
{
    return __builtin_copysign$F(x, y);
}

int
__signbit$F($T x)
{
    return __builtin_signbit(x) ? 1 << (sizeof x == 16 ? 9 : (int)sizeof x - 1) : 0;
}

int
__isnan$F($T x)
{
    return __builtin_isnan(x) ? (sizeof x == 16 ? 0xffff : 1) : 0;
}

int
__isinf$F($T x)
{
    return __builtin_isinf_sign(x);
}

int
__finite$F($T x)
{
    return __builtin_isfinite(x);
}

int
__fpclassify$F($T x)
{
    return __builtin_fpclassify(0, 1, 4, 3, 2, x);
}

int
isnan$F($T x)
{
    if (!__builtin_isnan(x))
        return 0;
    return sizeof x == 16 && __VERIFIER_nondet_tarsier_int() ? 0xffff : 1;
}

int
isinf$F($T x)
{
    int sign = __builtin_isinf_sign(x);
    return sign < 0 && __VERIFIER_nondet_tarsier_int() ? 1 : sign;
}

int
finite$F($T x)
{
    return __builtin_isfinite(x);
}

long
lrint$F($T x)
{
    return (long)rint$F(x);
}

long long
llrint$F($T x)
{
    return (long long)rint$F(x);
}

long
lround$F($T x)
{
    return (long)round$F(x);
}

long long
llround$F($T x)
{
    return (long long)round$F(x);
}


$T
fdim$F($T x, $T y)
{
    if (__builtin_islessequal(x, y))
        return 0.0$C;
    return x - y;
}
/*@ end */

/* IEEE minNum and maxNum as glibc's SSE code on x86-64 computes them: of
   equal operands (-0 and +0) the second (minsd, maxsd); a quiet NaN
   operand gives the other one; two NaNs, or a signalling one, give x + y
   (the addition quietens it, and keeps its first NaN operand). gcc takes
   fmin and fmax as commutative and may pass their operands swapped (it
   does when they are calls), so of two NaNs either one comes back: a
   choice, on which no FALSE rests. */
/*@ for float, double */
int
__tarsier_signaling$F($T x)
{
    union { $T value; $BITS bits; } v;
    v.value = x;
    return x != x && (v.bits & (1$U << ($FRAC - 1))) == 0;
}

$T
__tarsier_unordered$F($T x, $T y)
{
    if (x == x && !__tarsier_signaling$F(y))
        return x;
    if (y == y && !__tarsier_signaling$F(x))
        return y;
    if (x != x && y != y) {
        __tarsier_unmodelled_operand_order();
        return __VERIFIER_nondet_tarsier_int() ? x + y : y + x;
    }
    return x + y;
}

$T
fmin$F($T x, $T y)
{
    if (__builtin_isless(x, y))
        return x;
    if (__builtin_isgreaterequal(x, y))
        return y;
    return __tarsier_unordered$F(x, y);
}

$T
fmax$F($T x, $T y)
{
    if (__builtin_isgreater(x, y))
        return x;
    if (__builtin_islessequal(x, y))
        return y;
    return __tarsier_unordered$F(x, y);
}
/*@ end */

/* Binary exponents and scaling. A subnormal operand is first scaled by an
   exact power of two into the normal range. Scaling follows musl's scalbn:
   the intermediate products are exact, and a result in the subnormal
   range is rounded once, by the last product, in the current rounding
   mode. Infinities and NaN keep their value; glibc's exponent for them and
   for zero is 0. */

/*@ for float, double */
$T
frexp$F($T x, int *e)
{
    union { $T value; $BITS bits; } v;
    int exponent;
    v.value = x;
    exponent = (int)(v.bits >> $FRAC) & $EXP_MASK;
    if (exponent == $EXP_MASK || x == 0.0$C) {
        *e = 0;
        return x + x;
    }
    if (exponent == 0) {
        v.value = x * 0x1p$WIDTH$C;
        exponent = ((int)(v.bits >> $FRAC) & $EXP_MASK) - $WIDTH;
    }
    *e = exponent - $EMIN;
    /* The exponent of 0.5: EMAX - 1 biased. */
    v.bits = (v.bits & ~(($BITS)$EXP_MASK << $FRAC)) | ($BITS)($EMAX - 1) << $FRAC;
    return v.value;
}

$T
scalbn$F($T x, int n)
{
    union { $T value; $BITS bits; } factor;
    $T y = x;
    if (n > $EMAX) {
        y *= 0x1p$EMAX$C;
        n -= $EMAX;
        if (n > $EMAX) {
            y *= 0x1p$EMAX$C;
            n -= $EMAX;
            if (n > $EMAX)
                n = $EMAX;
        }
    } else if (n < -$EMIN) {
        /* The remaining n ends below -EMIN - MANT, so that a subnormal y
           is not rounded twice. */
        y *= 0x1p-$EMIN$C * 0x1p$MANT$C;
        n += $EMIN - $MANT;
        if (n < -$EMIN) {
            y *= 0x1p-$EMIN$C * 0x1p$MANT$C;
            n += $EMIN - $MANT;
            if (n < -$EMIN)
                n = -$EMIN;
        }
    }
    factor.bits = ($BITS)($EMAX + n) << $FRAC;
    return y * factor.value;
}

/* glibc on x86: FP_ILOGB0 and FP_ILOGBNAN are INT_MIN, infinity gives
   INT_MAX. */
int
ilogb$F($T x)
{
    union { $T value; $BITS bits; } v;
    int exponent;
    v.value = x;
    exponent = (int)(v.bits >> $FRAC) & $EXP_MASK;
    if (exponent == $EXP_MASK)
        return (v.bits << ($WIDTH - $FRAC)) != 0 ? -2147483647 - 1 : 2147483647;
    if (x == 0.0$C)
        return -2147483647 - 1;
    if (exponent == 0) {
        v.value = x * 0x1p$WIDTH$C;
        return ((int)(v.bits >> $FRAC) & $EXP_MASK) - $EMAX - $WIDTH;
    }
    return exponent - $EMAX;
}

/* One step of the bit pattern: up in magnitude when moving away from
   zero, down when moving towards it; from a zero to the smallest
   subnormal with y's sign; equal operands give y (so -0 towards +0 is
   +0). */
$T
nextafter$F($T x, $T y)
{
    union { $T value; $BITS bits; } v, w;
    if (x != x || y != y)
        return x + y;
    if (x == y)
        return y;
    v.value = x;
    if (x == 0.0$C) {
        w.value = y;
        v.bits = (w.bits & 1$U << ($WIDTH - 1)) | 1$U;
        return v.value;
    }
    if ((x < y) == (x > 0.0$C))
        v.bits += 1$U;
    else
        v.bits -= 1$U;
    return v.value;
}

/* nexttoward: the direction comes from comparing in long double; equal
   operands give y converted (-0 towards +0 is +0). */
$T
nexttoward$F($T x, long double y)
{
    if (x != x || y != y)
        return ($T)(x + y);
    if ((long double)x == y)
        return ($T)y;
    return nextafter$F(x, (long double)x < y ? __builtin_inf$F() : -__builtin_inf$F());
}
/*@ end */

/*@ for float, double, long double */
$T
ldexp$F($T x, int n)
{
    return scalbn$F(x, n);
}

/* Exponents beyond int's range scale as far as the int extremes do. */
$T
scalbln$F($T x, long n)
{
    if (n > 2147483647L)
        n = 2147483647L;
    if (n < -2147483647L - 1)
        n = -2147483647L - 1;
    return scalbn$F(x, (int)n);
}

$T
logb$F($T x)
{
    if (x != x)
        return x + x;
    if (x == 0.0$C)
        return -__builtin_inf$F();
    if (__builtin_isinf(x))
        return __builtin_inf$F();
    return ($T)ilogb$F(x);
}

/* The fraction x - trunc(x) is exact; its sign is x's (also for an
   integral x in downward rounding, where x - x is -0). */
$T
modf$F($T x, $T *integral)
{
    $T t;
    if (x != x) {
        *integral = x + x;
        return x + x;
    }
    t = trunc$F(x);
    *integral = t;
    if (__builtin_isinf(x))
        return __builtin_copysign$F(0.0$C, x);
    return __builtin_copysign$F(x - t, x);
}
/*@ end */

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

/* glibc's x87 code: of equal operands (-0 and +0) fminl returns the first
   and fmaxl the second; a quiet NaN operand gives the other one; two
   NaNs, or a signalling one, give x + y. */
long double
__tarsier_unorderedl(long double x, long double y)
{
    union __tarsier_ldouble v, w;
    v.value = x;
    w.value = y;
    int x_signals = x != x && (v.parts.mantissa & 0x4000000000000000ULL) == 0;
    int y_signals = y != y && (w.parts.mantissa & 0x4000000000000000ULL) == 0;
    if (x == x && !y_signals)
        return x;
    if (y == y && !x_signals)
        return y;
    return x + y;
}

long double
fminl(long double x, long double y)
{
    if (__builtin_islessequal(x, y))
        return x;
    if (__builtin_isgreater(x, y))
        return y;
    return __tarsier_unorderedl(x, y);
}

long double
fmaxl(long double x, long double y)
{
    if (__builtin_isgreater(x, y))
        return x;
    if (__builtin_islessequal(x, y))
        return y;
    return __tarsier_unorderedl(x, y);
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
        return x + x;
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

/* The exponent and the 63 fraction bits read as one number: stepping it
   by one moves to the neighbouring value, carrying into the exponent. */
long double
nextafterl(long double x, long double y)
{
    union __tarsier_ldouble v, w;
    unsigned long long fraction;
    int exponent;
    if (x != x || y != y)
        return x + y;
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
    /* glibc returns (x * y) / (x * y) here, leaving *quo as it was. */
    if (x != x || y != y || __builtin_isinf(x) || y == 0.0L)
        return remainderl(x, y);
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

/* complex.h: the parts of a complex number and its conjugate; the
   modulus and argument by the library's hypot and atan2 (which symex and
   the interpreter model as inexact functions). */

/*@ for float, double */
$T hypot$F($T x, $T y);
$T atan2$F($T y, $T x);

$T
creal$F($T _Complex z)
{
    return __real__ z;
}

$T
cimag$F($T _Complex z)
{
    return __imag__ z;
}

$T _Complex
conj$F($T _Complex z)
{
    __imag__ z = -__imag__ z;
    return z;
}

$T
cabs$F($T _Complex z)
{
    return hypot$F(__real__ z, __imag__ z);
}

$T
carg$F($T _Complex z)
{
    return atan2$F(__imag__ z, __real__ z);
}
/*@ end */
