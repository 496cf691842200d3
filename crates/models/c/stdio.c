/* stdio.h output and input without a file system: output functions have
   no visible effect and return what the standard allows (an arbitrary
   count or an error), input functions return arbitrary characters. The
   format is not read, so a bad format or argument is not detected. */

int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int condition);

int
printf(const char *restrict format, ...)
{
    return __VERIFIER_nondet_int();
}

int
puts(const char *s)
{
    return __VERIFIER_nondet_int();
}

/* Returns the character written, or EOF on an error. */
int
putchar(int c)
{
    int result = __VERIFIER_nondet_int();
    __VERIFIER_assume(result == (unsigned char)c || result == -1);
    return result;
}

/* A character as unsigned char, or EOF. */
int
getchar(void)
{
    int c = __VERIFIER_nondet_int();
    __VERIFIER_assume(c >= -1 && c <= 255);
    return c;
}

/* glibc's FILE; the models never look inside a stream. */
typedef struct _IO_FILE FILE;

int
fprintf(FILE *restrict stream, const char *restrict format, ...)
{
    return __VERIFIER_nondet_int();
}

int
fputs(const char *restrict s, FILE *restrict stream)
{
    return __VERIFIER_nondet_int();
}

/* Returns the character written, or EOF on an error. */
int
fputc(int c, FILE *stream)
{
    int result = __VERIFIER_nondet_int();
    __VERIFIER_assume(result == (unsigned char)c || result == -1);
    return result;
}

/* 0, or EOF on an error. */
int
fflush(FILE *stream)
{
    int result = __VERIFIER_nondet_int();
    __VERIFIER_assume(result == 0 || result == -1);
    return result;
}

void
perror(const char *s)
{
}
