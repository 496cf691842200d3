/* math.h functions with an exact IEEE definition, for binary32 float and
   binary64 double: the ones that only look at or change the sign and class
   bits, and the ones built from comparisons and operations whose result is
   exact (so they hold in every rounding mode, NaN and signed zero
   included). Rounding to an integer uses two facts: below 2^52 (float:
   2^23) the truncating conversion to long long is exact, and adding then
   subtracting 2^52 rounds to an integer in the current rounding mode. A
   NaN operand is returned as it is (a signalling NaN is not quietened).
   sqrt, fma, fmod and remainder are symex and interpreter built-ins. */

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

double
trunc(double x)
{
    if (!(__builtin_fabs(x) < 4503599627370496.0))
        return x;
    return __builtin_copysign((double)(long long)x, x);
}

double
floor(double x)
{
    double t = trunc(x);
    return t > x ? t - 1.0 : t;
}

double
ceil(double x)
{
    double t = trunc(x);
    return t < x ? t + 1.0 : t;
}

/* Halfway cases away from zero; x - t is the exact fraction. */
double
round(double x)
{
    double t = trunc(x);
    if (__builtin_fabs(x - t) >= 0.5)
        t += __builtin_copysign(1.0, x);
    return t;
}

/* In the current rounding mode. */
double
rint(double x)
{
    double r;
    if (!(__builtin_fabs(x) < 4503599627370496.0))
        return x;
    r = x >= 0.0 ? (x + 4503599627370496.0) - 4503599627370496.0 : (x - 4503599627370496.0) + 4503599627370496.0;
    return __builtin_copysign(r, x);
}

double
nearbyint(double x)
{
    return rint(x);
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

/* IEEE minNum/maxNum: a NaN operand gives the other one; -0 and +0 as
   glibc's generic code orders them (the first operand wins a tie). */
double
fmin(double x, double y)
{
    if (__builtin_islessequal(x, y))
        return x;
    if (__builtin_isgreater(x, y))
        return y;
    return __builtin_isnan(y) ? x : y;
}

double
fmax(double x, double y)
{
    if (__builtin_isgreaterequal(x, y))
        return x;
    if (__builtin_isless(x, y))
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

float
truncf(float x)
{
    if (!(__builtin_fabsf(x) < 8388608.0f))
        return x;
    return __builtin_copysignf((float)(long long)x, x);
}

float
floorf(float x)
{
    float t = truncf(x);
    return t > x ? t - 1.0f : t;
}

float
ceilf(float x)
{
    float t = truncf(x);
    return t < x ? t + 1.0f : t;
}

/* Halfway cases away from zero; x - t is the exact fraction. */
float
roundf(float x)
{
    float t = truncf(x);
    if (__builtin_fabsf(x - t) >= 0.5f)
        t += __builtin_copysignf(1.0f, x);
    return t;
}

/* In the current rounding mode. */
float
rintf(float x)
{
    float r;
    if (!(__builtin_fabsf(x) < 8388608.0f))
        return x;
    r = x >= 0.0f ? (x + 8388608.0f) - 8388608.0f : (x - 8388608.0f) + 8388608.0f;
    return __builtin_copysignf(r, x);
}

float
nearbyintf(float x)
{
    return rintf(x);
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

/* IEEE minNum/maxNum: a NaN operand gives the other one; -0 and +0 as
   glibc's generic code orders them (the first operand wins a tie). */
float
fminf(float x, float y)
{
    if (__builtin_islessequal(x, y))
        return x;
    if (__builtin_isgreater(x, y))
        return y;
    return __builtin_isnan(y) ? x : y;
}

float
fmaxf(float x, float y)
{
    if (__builtin_isgreaterequal(x, y))
        return x;
    if (__builtin_isless(x, y))
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
