/* stdio.h character input without a file system: the next character of
   any stream is arbitrary. Formatted and line input (scanf, fgets, ...)
   and all output (printf, puts, ...) are modelled natively by symex and
   the interpreter: they parse formats and write strings. */

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

struct _IO_FILE;

int
fgetc(struct _IO_FILE *stream)
{
    return getchar();
}

int
getc(struct _IO_FILE *stream)
{
    return getchar();
}
