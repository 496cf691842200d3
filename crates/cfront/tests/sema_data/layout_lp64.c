/* Struct layout, sizeof, _Alignof and offsetof as gcc computes them on x86-64. */
#include <stddef.h>

struct a { char c; int i; char d; };
_Static_assert(sizeof(struct a) == 12 && _Alignof(struct a) == 4, "a");
_Static_assert(offsetof(struct a, d) == 8, "a.d");
struct b { char c; double d; };
_Static_assert(sizeof(struct b) == 16 && offsetof(struct b, d) == 8, "b");
struct __attribute__((packed)) p { char c; int i; };
_Static_assert(sizeof(struct p) == 5 && _Alignof(struct p) == 1, "packed");
struct bf { int a : 3; int b : 30; char c; };
_Static_assert(sizeof(struct bf) == 12, "bit-fields do not straddle");
struct bf2 { char a; int b : 8; };
_Static_assert(sizeof(struct bf2) == 4, "bit-field shares the unit");
struct z { char a; int : 0; char b; };
_Static_assert(sizeof(struct z) == 5 && _Alignof(struct z) == 1, "zero-width");
struct un { char a; int : 4; };
_Static_assert(sizeof(struct un) == 2 && _Alignof(struct un) == 1, "unnamed bit-field");
struct flex { int n; double d[]; };
_Static_assert(sizeof(struct flex) == 8 && offsetof(struct flex, d) == 8, "flex");
struct anon { int x; union { int i; float f; }; struct { char c1, c2; }; };
_Static_assert(sizeof(struct anon) == 12 && offsetof(struct anon, c2) == 9, "anonymous");
struct al { char c; int i __attribute__((aligned(16))); };
_Static_assert(sizeof(struct al) == 32 && offsetof(struct al, i) == 16, "aligned field");
struct alas { char c; _Alignas(8) char d; };
_Static_assert(sizeof(struct alas) == 16 && offsetof(struct alas, d) == 8, "_Alignas");
typedef int aligned_int __attribute__((aligned(8)));
struct td { char c; aligned_int i; };
_Static_assert(sizeof(struct td) == 16 && offsetof(struct td, i) == 8, "aligned typedef");
struct ld { char c; long double x; };
_Static_assert(sizeof(struct ld) == 32 && _Alignof(long double) == 16, "long double");
struct nest { struct a arr[2]; short s; };
_Static_assert(sizeof(struct nest) == 28 && offsetof(struct nest, arr[1].d) == 20, "nested offsetof");
union uu { char c[5]; int i; };
_Static_assert(sizeof(union uu) == 8, "union");
struct ll { long l; char c; __int128 w; };
_Static_assert(sizeof(struct ll) == 32 && offsetof(struct ll, w) == 16, "int128");
struct big_bf { unsigned long a : 40; unsigned long b : 30; };
_Static_assert(sizeof(struct big_bf) == 16, "long bit-fields");
_Static_assert(sizeof(long) == 8 && sizeof(void *) == 8 && sizeof(long long) == 8, "LP64");
enum small { S0, S1 };
enum neg { N0 = -1 };
enum large { L0 = 0x100000000 };
_Static_assert(sizeof(enum small) == 4 && sizeof(enum large) == 8, "enums");
_Static_assert(__builtin_types_compatible_p(enum small, unsigned int), "enum small is unsigned");
_Static_assert(__builtin_types_compatible_p(enum neg, int), "enum neg is int");
_Static_assert(!__builtin_types_compatible_p(char, signed char), "char is distinct");
_Static_assert(__builtin_types_compatible_p(int[], int[3]), "array compatibility");

int main(void) {
    struct bf x = {0};
    x.a = 5;                     /* 3-bit signed: -3 */
    if (x.a != -3) return 1;
    x.b = -1;
    if (x.b != -1) return 2;
    struct big_bf y = {0};
    y.a = 0xffffffffffUL;
    if (y.a != 0xffffffffffUL) return 3;
    if (y.a + 1 != 0) return 4;  /* gcc: a type of 40 bits, wraps there */
    struct bf2 u = {0};
    u.b = 200;
    if (u.b + 0 != -56) return 5;
    struct anon an;
    an.i = 7;
    an.c2 = 3;
    if (an.i != 7 || an.c2 != 3) return 6;
    return 0;
}
