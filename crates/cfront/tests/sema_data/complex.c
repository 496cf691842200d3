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
    /* GCC's complex integers: integer parts, integer division. */
    __complex__ int zi = 3 + 4i;
    CHECK(__real__ zi == 3 && __imag__ zi == 4);
    __complex__ int ni = -zi, ci = ~zi;
    CHECK(__real__ ni == -3 && __imag__ ni == -4 && __real__ ci == 3 && __imag__ ci == -4);
    int _Complex a = 4, b = 1;
    __imag__ a = 2;
    __imag__ b = 1;
    int _Complex w = a / b;                                /* (4+2i)/(1+i) = (6-2i)/2 */
    CHECK(__real__ w == 3 && __imag__ w == -1);
    w = a / 3;                                             /* truncating parts */
    CHECK(__real__ w == 1 && __imag__ w == 0);
    CHECK(zi * zi == -7 + 24i);
    _Complex double mixed = zi + 0.5;
    CHECK(__real__ mixed == 3.5 && __imag__ mixed == 4.0);
    _Complex char cc = 1;
    CHECK(sizeof(cc) == 2 && sizeof(cc + cc) == 2 && sizeof(cc + 1) == 2 * sizeof(int) && sizeof(_Complex long long) == 16);
    CHECK(zi && !(int _Complex)0);
    return 0;
}
