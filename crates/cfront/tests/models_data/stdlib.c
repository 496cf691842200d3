// The stdlib.h models against the values the C standard requires.
#include <stdlib.h>
#include <limits.h>

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
    srand(7);
    int r = rand();
    CHECK(r >= 0 && r <= RAND_MAX);
    return 0;
}
