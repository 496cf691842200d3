// Euclid's algorithm with a correct postcondition: every property holds
// for every input, so the answer should be VERIFICATION SUCCESSFUL.
#include <assert.h>

unsigned __VERIFIER_nondet_uint(void);
void __VERIFIER_assume(int condition);

static unsigned gcd(unsigned a, unsigned b) {
    while (b != 0) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int main(void) {
    unsigned a = __VERIFIER_nondet_uint();
    unsigned b = __VERIFIER_nondet_uint();
    __VERIFIER_assume(a > 0 && a < 64 && b > 0 && b < 64);
    unsigned g = gcd(a, b);
    assert(g > 0 && a % g == 0 && b % g == 0);
    return 0;
}
