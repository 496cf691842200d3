/* C23 bit-precise integers: layout, no promotion, conversions by rank. */
#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

struct small { char c; _BitInt(17) f; int g; };

int main(void) {
    CHECK(sizeof(_BitInt(2)) == 1 && sizeof(unsigned _BitInt(9)) == 2 && sizeof(_ExtInt(17)) == 4);
    CHECK(sizeof(struct small) == 12 && _Alignof(_BitInt(37)) == sizeof(long long) - 4 * (sizeof(void *) == 4));
    unsigned _BitInt(10) u = 1023, one = 1;
    CHECK(u + one == 0);
    CHECK(u + 1 == 1024);
    CHECK(sizeof(u + one) == 2 && sizeof(u + 1) == sizeof(int));
    unsigned _BitInt(3) t = 7;
    CHECK((unsigned _BitInt(3))(t + t) == 6);
    CHECK((_BitInt(10))1000 == -24 && (unsigned _BitInt(10))-1 == 1023);
    unsigned _BitInt(37) m = 1000000;
    CHECK(m * m == 37927325696);
    unsigned _BitInt(37) s = 1;
    CHECK(s << 36 == 68719476736 && (s << 36) >> 35 == 2);
    _BitInt(37) d = -100, seven = 7;
    CHECK(d / seven == -14 && d % seven == -2);
    _BitInt(37) n = -8;
    CHECK(n >> 1 == -4);
    _BitInt(10) minus_one = -1;
    unsigned int uone = 1;
    CHECK(!(minus_one < uone));
    _BitInt(33) wide_minus_one = -1;
    CHECK(wide_minus_one < uone);
    unsigned _BitInt(100) big = 1;
    big <<= 99;
    CHECK(big >> 99 == 1 && big != 0);
    CHECK((long long)(_BitInt(100))-5 == -5);
    _BitInt(10) z = 300;
    z += 300;                       /* 600 converted back: 600 - 1024 */
    CHECK(z == -424);
    return 0;
}
