// The math.h models that only touch sign and class bits, on every kind of
// value (zeros, infinities, NaN).
#include <math.h>

#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

int __signbit(double);
int __signbitf(float);
int __isnan(double);
int __isnanf(float);
int __isinf(double);
int __finite(double);

int main(void) {
    double inf = 1e308 * 10, nan = inf - inf, neg_zero = -0.0;
    CHECK(fabs(-2.5) == 2.5 && fabs(2.5) == 2.5 && fabs(-inf) == inf);
    CHECK(__signbit(fabs(neg_zero)) == 0 && __signbit(neg_zero) != 0 && __signbit(0.0) == 0);
    CHECK(__isnan(fabs(nan)) && __signbit(fabs(-nan)) == 0);
    CHECK(fabsf(-1.5f) == 1.5f && __signbitf(fabsf(-0.0f)) == 0 && __signbitf(-0.0f) != 0);
    CHECK(copysign(3.0, -0.0) == -3.0 && copysign(-3.0, 1.0) == 3.0 && __signbit(copysign(0.0, -1.0)));
    CHECK(copysignf(2.0f, -1.0f) == -2.0f && copysignf(-2.0f, 0.0f) == 2.0f);
    CHECK(__isnan(nan) && !__isnan(inf) && !__isnan(1.0) && __isnanf((float)nan) && !__isnanf(1.0f));
    CHECK(__isinf(inf) == 1 && __isinf(-inf) == -1 && __isinf(1e308) == 0 && __isinf(nan) == 0);
    CHECK(__finite(1.0) && !__finite(inf) && !__finite(-inf) && !__finite(nan));
    return 0;
}
