// A loop with a correct assertion: every property holds for every input.
// `tarsier examples/sum.c --unwind 9` unwinds the loop enough to prove it
// (the unwinding assertion checks that 9 iterations suffice).
#include <assert.h>

unsigned __VERIFIER_nondet_uint(void);

int main(void) {
    unsigned n = __VERIFIER_nondet_uint();
    if (n > 8)
        return 0;
    unsigned sum = 0;
    for (unsigned i = 0; i < n; i++)
        sum += 2;
    assert(sum == 2 * n);
    return 0;
}
