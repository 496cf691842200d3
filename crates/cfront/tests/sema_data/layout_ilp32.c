/* Layout under the i386 System V ABI. */
#include <stddef.h>

struct d { char c; double x; };
_Static_assert(sizeof(struct d) == 12 && offsetof(struct d, x) == 4, "double aligns to 4 in structs");
struct ll { char c; long long x; };
_Static_assert(sizeof(struct ll) == 12 && _Alignof(struct ll) == 4, "long long aligns to 4");
struct ld { char c; long double x; };
_Static_assert(sizeof(struct ld) == 16 && sizeof(long double) == 12, "long double is 12 bytes");
_Static_assert(sizeof(long) == 4 && sizeof(void *) == 4 && sizeof(size_t) == 4, "ILP32");
struct bf { char c; long long x : 40; };
_Static_assert(sizeof(struct bf) == 8, "long long bit-field");
_Static_assert(sizeof(1L) == 4 && sizeof(2147483648) == 8, "literal types");

int main(void) {
    long l = 2147483647L;
    unsigned long ul = (unsigned long)l + 1;
    if (ul != 2147483648UL) return 1;
    if (-1L < 0U) return 2;        /* long cannot hold all unsigned: both unsigned */
    return 0;
}
