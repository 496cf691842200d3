// The stdlib.h models against the values the C standard requires.
#include <stdlib.h>
#include <limits.h>
#include <errno.h>
#include <string.h>

#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

int main(void) {
    CHECK(abs(-5) == 5 && abs(7) == 7 && abs(0) == 0 && abs(INT_MIN + 1) == INT_MAX);
    CHECK(labs(-5L) == 5L && labs(LONG_MIN + 1) == LONG_MAX);
    CHECK(llabs(-5LL) == 5LL && llabs(LLONG_MIN + 1) == LLONG_MAX);
    CHECK(atoi("42") == 42);
    CHECK(atoi("  \t\n-17xyz") == -17);
    CHECK(atoi("+8") == 8);
    CHECK(atoi("abc") == 0);
    CHECK(atoi("") == 0);
    CHECK(atoi("- 5") == 0);
    CHECK(atoi("2147483647") == INT_MAX);
    CHECK(atoi("-2147483648") == INT_MIN);
    CHECK(atoi("007") == 7);
    CHECK(atol("-123456") == -123456L);
    CHECK(atol("2147483647") == 2147483647L);
    CHECK(atoll("9223372036854775807") == LLONG_MAX);
    CHECK(atoll("-9223372036854775808") == LLONG_MIN);
    CHECK(atoll(" 12") == 12);
    char *end;
    const char *text = "  -0x1fz";
    CHECK(strtol(text, &end, 0) == -31 && end == text + 7);
    CHECK(strtol(text, &end, 16) == -31 && end == text + 7);
    CHECK(strtol("0x", &end, 16) == 0 && *end == 'x');
    CHECK(strtol("017", 0, 0) == 15 && strtol("017", 0, 10) == 17);
    CHECK(strtol("zz", 0, 36) == 1295 && strtol("2a", 0, 16) == 42 && strtol("2A", 0, 16) == 42);
    text = "   ";
    CHECK(strtol(text, &end, 10) == 0 && end == text);
    errno = 0;
    CHECK(strtol("99999999999999999999", 0, 10) == LONG_MAX && errno == ERANGE);
    errno = 0;
    CHECK(strtol("-99999999999999999999", 0, 10) == LONG_MIN && errno == ERANGE);
    errno = 0;
    CHECK(strtoll("9223372036854775808", 0, 10) == LLONG_MAX && errno == ERANGE);
    errno = 0;
    CHECK(strtoll("-9223372036854775808", 0, 10) == LLONG_MIN && errno == 0);
    CHECK(strtoul("-1", 0, 10) == ULONG_MAX && errno == 0);
    CHECK(strtoull("18446744073709551615", 0, 10) == ULLONG_MAX && errno == 0);
    CHECK(strtoull("18446744073709551616", 0, 10) == ULLONG_MAX && errno == ERANGE);
    errno = 0;
    CHECK(strtol("12", 0, 1) == 0 && errno == EINVAL);
    div_t d = div(-7, 2);
    CHECK(d.quot == -3 && d.rem == -1);
    ldiv_t l = ldiv(9L, -4L);
    CHECK(l.quot == -2L && l.rem == 1L);
    lldiv_t ll = lldiv(-9LL, -4LL);
    CHECK(ll.quot == 2LL && ll.rem == -1LL);
    CHECK(getenv("") == 0);
    srand(7);
    int r = rand();
    CHECK(r >= 0 && r <= RAND_MAX);
    unsigned int seed = 3;
    r = rand_r(&seed);
    CHECK(r >= 0 && r <= RAND_MAX);
    return 0;
}
