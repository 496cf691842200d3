/* stdio.h input without a file system: input functions return arbitrary
   characters. Output functions (printf, puts, putchar, ...) are not
   modelled on purpose: a model that returns "an arbitrary count or an
   error" turns every program that checks printf's result into a
   counterexample the replay confirms, although the reference semantics
   assume output succeeds; unmodelled, a verdict resting on them is
   UNKNOWN instead. */

int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int condition);

/* A character as unsigned char, or EOF. */
int
getchar(void)
{
    int c = __VERIFIER_nondet_int();
    __VERIFIER_assume(c >= -1 && c <= 255);
    return c;
}
