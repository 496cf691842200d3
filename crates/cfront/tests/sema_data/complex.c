/* Complex arithmetic on real and imaginary parts. */
#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

int main(void) {
    __complex__ double x = 3.0 + 2.0i;
    CHECK(__real__ x == 3.0 && __imag__ x == 2.0);
    _Complex double y;
    __real__ y = 1.0;
    __imag__ y = -1.0;
    _Complex double s = x + y, d = x - y, p = x * y, q = p / y;
    CHECK(__real__ s == 4.0 && __imag__ s == 1.0);
    CHECK(__real__ d == 2.0 && __imag__ d == 3.0);
    CHECK(__real__ p == 5.0 && __imag__ p == -1.0);      /* (3+2i)(1-i) */
    CHECK(__real__ q == 3.0 && __imag__ q == 2.0);
    CHECK(q == x && !(q != x));
    _Complex float f = 2.0f;
    f /= 2.0f;
    CHECK(__real__ f == 1.0f && __imag__ f == 0.0f);
    double r = x;                                          /* real part */
    CHECK(r == 3.0);
    _Complex double n = -x;
    CHECK(__real__ n == -3.0 && __imag__ n == -2.0);
    _Complex double conj = ~x;                             /* GNU conjugate */
    CHECK(__real__ conj == 3.0 && __imag__ conj == -2.0);
    CHECK(__imag__ r == 0.0 && __real__ r == 3.0);
    CHECK(x);
    CHECK(sizeof(_Complex double) == 16 && sizeof(_Complex float) == 8);
    return 0;
}
