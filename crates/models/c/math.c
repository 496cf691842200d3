/* math.h functions that only look at or change the sign and class bits of
   an IEEE value (binary32 float, binary64 double), so they are exact for
   every input, NaN and signed zero included. The functions that round
   (sqrt, fmod, fma, nearbyint, …) are not modelled. */

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
