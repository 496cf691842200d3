/* Floating-point literals and conversions. */
#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

/* Arithmetic constant expressions fold exactly in array sizes. */
int exact[(0x1.0p-95f == 2.524355e-29f) ? 1 : -1];
int rounded[(0.1f != 0.1) ? 1 : -1];
_Static_assert((int)2.9 == 2, "conversion truncates");

int main(void) {
    double d = 0.1;
    float f = 0.1f;
    CHECK(f != d);
    CHECK((float)d == f);
    CHECK(1.0e0 == 1 && 2.5e-1 == 0.25 && 0x1p-2 == 0.25);
    CHECK(sizeof(0.1L) == sizeof(long double));
    CHECK(sizeof(1.0f) == 4 && sizeof(1.0) == 8);
    int i = (int)2.9f;
    CHECK(i == 2);
    unsigned u = 3000000000.0;
    CHECK(u == 3000000000u);
    double big = 1e308 * 10;
    CHECK(big > 1e308);
    CHECK(-0.0 == 0.0);
    return 0;
}
