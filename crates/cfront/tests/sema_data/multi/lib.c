int counter;
static int hidden = 7;
int external_only(void);

int add(int n) {
    hidden++;
    counter += n;
    return counter;
}

#include "shared.h"
int pair_sum(struct pair *p) { return p->a + p->b + shared_pair.a - 1; }
struct pair make_pair(void) { struct pair r = {10, 20}; return r; }
int helper(void) { return 2; }
int lib_helper(void) { return helper() + pair_first(&shared_pair); }
