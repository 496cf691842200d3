// A signed overflow that only some inputs reach: `tarsier overflow.c
// --overflow-check` should find x = INT_MAX as the counterexample.
#include <limits.h>

int __VERIFIER_nondet_int(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x > 1000) {
        int y = x + 1; // overflows when x == INT_MAX
        return y;
    }
    return 0;
}
