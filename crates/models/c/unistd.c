/* unistd.h: sleeping may be interrupted. */

unsigned int __VERIFIER_nondet_uint(void);
int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int condition);

/* The seconds left when interrupted, else 0. */
unsigned int
sleep(unsigned int seconds)
{
    unsigned int left = __VERIFIER_nondet_uint();
    __VERIFIER_assume(left <= seconds);
    return left;
}

/* 0, or -1 when interrupted. */
int
usleep(unsigned int microseconds)
{
    int result = __VERIFIER_nondet_int();
    __VERIFIER_assume(result == 0 || result == -1);
    return result;
}
