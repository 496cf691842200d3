/* GNU extensions: casts to unions, vector types in unused header-style
   inline code, case ranges, statement expressions with declarations. */
#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

typedef int v4si __attribute__((vector_size(16)));
static inline v4si add4(v4si a, v4si b) { return a + b; }   /* never called */

union num { int i; double d; };

int main(void) {
    CHECK(sizeof(v4si) == 16 && _Alignof(v4si) == 16);
    union num n = (union num)2.5;
    CHECK(n.d == 2.5);
    union num m = (union num)7;
    CHECK(m.i == 7);
    int r = ({ int a = 3; int b = 4; a * b; });
    CHECK(r == 12);
    return 0;
}

/* glibc's redirects: a second name for a symbol through an asm label, with
   another parameter type, declared before the symbol's own name. */
extern int redirected_alias(long *p, int n) __asm__("redirect_target");
extern int redirect_target(const int *p, int n);
