/* Overflow-checking built-ins: GCC's generic, _p and typed forms (this file
   also compiles with gcc and returns 0 there, except the ESBMC part), and
   ESBMC's overflow-result built-ins with DEFINE_ESBMC_OVERFLOW_TYPE. */
#include <limits.h>
#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

#ifdef __TARSIER__
DEFINE_ESBMC_OVERFLOW_TYPE(signed char)
#endif

int main(void) {
    int i;
    CHECK(!__builtin_add_overflow(2, 3, &i) && i == 5);
    CHECK(__builtin_add_overflow(INT_MAX, 1, &i) && i == INT_MIN);
    CHECK(__builtin_sub_overflow(INT_MIN, 1, &i) && i == INT_MAX);
    CHECK(!__builtin_sub_overflow(-5, -7, &i) && i == 2);
    CHECK(__builtin_mul_overflow(65536, 65536, &i) && i == 0);
    CHECK(!__builtin_mul_overflow(-46340, 46340, &i) && i == -2147395600);
    unsigned u;
    CHECK(__builtin_sub_overflow(1, 2, &u) && u == UINT_MAX);
    CHECK(!__builtin_add_overflow(UINT_MAX, -1, &u) && u == UINT_MAX - 1);
    CHECK(__builtin_mul_overflow(-1, 1, &u) && u == UINT_MAX);
    unsigned char c;
    CHECK(__builtin_add_overflow(200, 100, &c) && c == 44);
    long long ll;
    CHECK(!__builtin_mul_overflow(INT_MAX, INT_MAX, &ll) && ll == (long long)INT_MAX * INT_MAX);
    CHECK(__builtin_mul_overflow(LLONG_MIN, -1LL, &ll) && ll == LLONG_MIN);
    unsigned long long ull;
    CHECK(!__builtin_mul_overflow(ULLONG_MAX, 1, &ull) && ull == ULLONG_MAX);
    CHECK(__builtin_add_overflow(ULLONG_MAX, ULLONG_MAX, &ull) && ull == ULLONG_MAX - 1);
    /* A signed by an unsigned 64-bit operand: the extreme products fit 128 bits. */
    CHECK(__builtin_mul_overflow(LLONG_MIN, ULLONG_MAX, &ll) && ll == LLONG_MIN);
    CHECK(__builtin_mul_overflow(LLONG_MAX, ULLONG_MAX, &ull) && ull == (unsigned long long)LLONG_MIN + 1);
    CHECK(!__builtin_mul_overflow(-1LL, 1ULL << 63, &ll) && ll == LLONG_MIN);
    CHECK(__builtin_mul_overflow(1ULL << 63, -1LL, &ull) && ull == 1ULL << 63);
    CHECK(!__builtin_mul_overflow(0LL, ULLONG_MAX, &ull) && ull == 0);
    /* The result may overwrite an operand; overflow is that of the old values. */
    i = INT_MAX;
    CHECK(__builtin_add_overflow(i, 1, &i) && i == INT_MIN);
    CHECK(__builtin_add_overflow_p(INT_MAX, 1, (int)0));
    CHECK(!__builtin_add_overflow_p(INT_MAX, 1, (long long)0));
    CHECK(__builtin_mul_overflow_p(16, 16, (unsigned char)0));
    CHECK(__builtin_sadd_overflow(INT_MAX, 1, &i) && i == INT_MIN);
    CHECK(!__builtin_umul_overflow(3u, 5u, &u) && u == 15);
    long l;
    CHECK(__builtin_ssubl_overflow(LONG_MIN, 1L, &l) && l == LONG_MAX);
    CHECK(__builtin_uaddll_overflow(ULLONG_MAX, 1ULL, &ull) && ull == 0);
#ifdef __TARSIER__
    __ESBMC_overflow_result r = __ESBMC_overflow_result_plus(100, 27);
    CHECK(!r.overflow && r.result == 127);
    r = __ESBMC_overflow_result_plus(100, 28);
    CHECK(r.overflow && r.result == -128);
    r = __ESBMC_overflow_result_minus(-100, 29);
    CHECK(r.overflow && r.result == 127);
    r = __ESBMC_overflow_result_mult(-16, 8);
    CHECK(!r.overflow && r.result == -128);
    r = __ESBMC_overflow_result_shl(1, 7);
    CHECK(r.overflow && r.result == -128);
    r = __ESBMC_overflow_result_shl(1, 6);
    CHECK(!r.overflow && r.result == 64);
    r = __ESBMC_overflow_result_shl(0, 40);
    CHECK(r.overflow);
    r = __ESBMC_overflow_result_unary_minus(-128);
    CHECK(r.overflow && r.result == -128);
    r = __ESBMC_overflow_result_unary_minus(127);
    CHECK(!r.overflow && r.result == -127);
#endif
    return 0;
}
