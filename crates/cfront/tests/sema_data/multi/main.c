/* Two translation units: shared externals, separate file statics. */
extern int counter;
int add(int);
int external_only(void);
static int hidden = 1;
int check_pairs(void);
int lib_helper(void);
static int helper(void) { return 1; }   /* not lib.c's external helper */

int main(void) {
    add(2);
    add(3);
    if (counter != 5) return 1;
    if (hidden != 1) return 2;
    if (!check_pairs()) return 3;
    if (helper() != 1 || lib_helper() != 3) return 4;
    return 0;
}

#include "shared.h"
struct pair shared_pair = {1, 2};
int pair_sum(struct pair *p);
struct pair make_pair(void);

int check_pairs(void) {
    struct pair q = make_pair();
    return pair_sum(&shared_pair) == 3 && q.b == 20;
}
