/* Integer promotions, usual arithmetic conversions, casts. */
#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

int main(void) {
    unsigned char uc = 200;
    signed char sc = -3;
    CHECK(uc + uc == 400);              /* promoted to int, no wrap */
    CHECK(sc * 2 == -6);
    unsigned int u = 1;
    CHECK(-1 > u == 1 - 1 + 1);         /* -1 converts to UINT_MAX */
    CHECK((long long)-1 < (unsigned)1);  /* long long holds all unsigned */
    unsigned short us = 65535;
    CHECK(us * us > 0 || 1);            /* int arithmetic (overflow aside) */
    CHECK((unsigned char)(uc + 100) == 44);
    CHECK((signed char)200 == -56);
    CHECK(sizeof(uc + uc) == sizeof(int));
    CHECK(sizeof('a') == sizeof(int));
    CHECK(sizeof(1 ? uc : sc) == sizeof(int));
    _Bool b = 256;
    CHECK(b == 1);
    b = 0.5;
    CHECK(b == 1);
    int i = 3.99;
    CHECK(i == 3);
    i = -3.99;
    CHECK(i == -3);
    double d = 1 / 2;
    CHECK(d == 0.0);
    d = 1 / 2.0;
    CHECK(d == 0.5);
    CHECK(7 / -2 == -3 && 7 % -2 == 1 && -7 % 2 == -1);
    CHECK((1u << 31) >> 31 == 1);
    CHECK((-8 >> 1) == -4);
    CHECK(~0u == 4294967295u);
    CHECK(0x7fffffff + 0u == 2147483647u);
    long long big = 4294967296LL;
    CHECK((int)big == 0);
    CHECK(sizeof(4294967295) == 8);     /* decimal: long / long long */
    CHECK(sizeof(0xffffffff) == 4);     /* hex: unsigned int */
    CHECK(sizeof(2147483648) == 8);
    float f = 16777217;                 /* rounds to nearest even */
    CHECK(f == 16777216.0f);
    CHECK(1e-1 == 0.1 && 0x1.8p1 == 3.0);
    char c = 'A';
    CHECK(c + 1 == 'B');
    return 0;
}
