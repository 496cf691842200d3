/* stdio.h without a file system: every stream is an object of the
   environment like stdin, so the next character of any stream is
   arbitrary. Formatted and line input (scanf, fgets, ...) and all output
   (printf, puts, ...) are modelled natively by symex and the interpreter:
   they parse formats and write strings. fopen gives a new stream or fails;
   fclose has no model, so a verdict of a program that closes a stream
   stays an approximation (a closed stream's later use is not checked). */

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

extern int __tarsier_errno;

/* The streams fopen opened: distinct objects, while there are any left;
   a path that opens more is not modelled exactly. */
enum { __TARSIER_STREAMS = 8 };
char __tarsier_streams[__TARSIER_STREAMS];
int __tarsier_stream_count;
struct _IO_FILE *__tarsier_unmodelled_stream(void);

/* A new stream, or NULL with errno set: always for a mode that does not
   start with r, w or a (EINVAL, as glibc checks), else when the
   environment refuses the file. The path is read by the kernel only,
   which fails on a bad one instead of faulting, so it is not read here. */
struct _IO_FILE *
fopen(const char *path, const char *mode)
{
    if (mode[0] != 'r' && mode[0] != 'w' && mode[0] != 'a') {
        __tarsier_errno = 22; /* EINVAL */
        return 0;
    }
    if (__VERIFIER_nondet_int()) {
        int error = __VERIFIER_nondet_int();
        __VERIFIER_assume(error > 0);
        __tarsier_errno = error;
        return 0;
    }
    if (__tarsier_stream_count == __TARSIER_STREAMS)
        return __tarsier_unmodelled_stream();
    __tarsier_stream_count++;
    return (struct _IO_FILE *)&__tarsier_streams[__tarsier_stream_count - 1];
}

struct _IO_FILE *
fopen64(const char *path, const char *mode)
{
    return fopen(path, mode);
}
