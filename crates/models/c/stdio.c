/* stdio.h without a file system: every stream fopen opens, and stdin,
   stdout and stderr, are objects of the environment, so the next
   character of such a stream is arbitrary. Formatted and line input
   (scanf, fgets, ...) and all output (printf, puts, ...) on them are
   modelled natively by symex and the interpreter (the body-less
   `__tarsier_native_*` functions below stand for those native models):
   they parse formats and write strings; fread and fwrite move bytes
   through a memory stream's model, or arbitrary bytes and all bytes
   written on the environment's streams. fopen gives a new stream or
   fails; fclose releases it, and a later use of the stream is a
   dereference failure (glibc frees the FILE).

   fmemopen streams are modelled exactly as glibc 2.36 implements them:
   the cookie functions of libio/fmemopen.c (positions, the end of the
   contents, the null byte written after it, ENOSPC) under libio's buffer
   (written bytes wait in the FILE until a flush, a seek, a read or
   fclose; a read takes all the available bytes ahead at once, EOF is
   sticky). libio's 8192-byte buffer is modelled up to 64 bytes: a path
   that buffers more, or reads ahead more, is not modelled exactly, nor
   one on which the program changes the memory under bytes the stream
   has already read ahead (glibc would return the old bytes). */

int __VERIFIER_nondet_tarsier_int(void);
void __VERIFIER_assume(int condition);

/* A character as unsigned char, or EOF. */
int
getchar(void)
{
    int c = __VERIFIER_nondet_tarsier_int();
    __VERIFIER_assume(c >= -1 && c <= 255);
    return c;
}

/* glibc's FILE (bits/types/struct_FILE.h), field for field, so that a
   program reading or copying `*stream` stays inside the object and sees
   the fields glibc sets when it opens a stream: the magic number and the
   access bits of _flags, the descriptor, the mode letters' _flags2 bits,
   the unknown offsets (-1), the stream it is chained to, and its lock and
   wide-character data (objects of glibc's own). The buffer pointers stay
   null, as glibc leaves them until the first transfer. What glibc's
   buffering later stores in these private fields (buffer pointers, the
   putting and EOF bits, the offset cache) is not followed. */
struct __tarsier_file {
    int _flags;
    char *_IO_read_ptr;
    char *_IO_read_end;
    char *_IO_read_base;
    char *_IO_write_base;
    char *_IO_write_ptr;
    char *_IO_write_end;
    char *_IO_buf_base;
    char *_IO_buf_end;
    char *_IO_save_base;
    char *_IO_backup_base;
    char *_IO_save_end;
    void *_markers;
    struct __tarsier_file *_chain;
    int _fileno;
    int _flags2;
    long _old_offset;
    unsigned short _cur_column;
    signed char _vtable_offset;
    char _shortbuf[1];
    void *_lock;
    long long _offset;
    void *_codecvt;
    void *_wide_data;
    struct __tarsier_file *_freeres_list;
    void *_freeres_buf;
    size_t __pad5;
    int _mode;
    char _unused2[15 * sizeof(int) - 4 * sizeof(void *) - sizeof(size_t)];
};

extern int __tarsier_errno;

/* glibc's _flags bits: _IO_MAGIC, and _IO_IS_FILEBUF | _IO_LINKED |
   _IO_TIED_PUT_GET, which every open file stream has. */
enum {
    __TARSIER_IO_OPEN_FILE = (int)0xfbad2480,
    __TARSIER_IO_UNBUFFERED = 0x2,
    __TARSIER_IO_NO_READS = 0x4,
    __TARSIER_IO_NO_WRITES = 0x8,
    __TARSIER_IO_IS_APPENDING = 0x1000
};

/* The private objects a FILE points to: glibc's _IO_lock_t and a stand-in
   for its _IO_wide_data, one per stream. */
struct __tarsier_stream_private {
    int lock[4];
    char wide[16];
};

/* The standard streams (the front end points stdin, stdout and stderr at
   them) as glibc sets them up: linked stderr -> stdout -> stdin, stdout
   not line-buffered yet (glibc decides at its first output), stderr
   unbuffered. */
struct __tarsier_stream_private __tarsier_standard_private[3];
struct __tarsier_file __tarsier_stdin_object = {
    ._flags = __TARSIER_IO_OPEN_FILE | __TARSIER_IO_NO_WRITES,
    ._fileno = 0, ._old_offset = -1, ._offset = -1,
    ._lock = &__tarsier_standard_private[0].lock, ._wide_data = &__tarsier_standard_private[0].wide,
};
struct __tarsier_file __tarsier_stdout_object = {
    ._flags = __TARSIER_IO_OPEN_FILE | __TARSIER_IO_NO_READS,
    ._chain = &__tarsier_stdin_object, ._fileno = 1, ._old_offset = -1, ._offset = -1,
    ._lock = &__tarsier_standard_private[1].lock, ._wide_data = &__tarsier_standard_private[1].wide,
};
struct __tarsier_file __tarsier_stderr_object = {
    ._flags = __TARSIER_IO_OPEN_FILE | __TARSIER_IO_NO_READS | __TARSIER_IO_UNBUFFERED,
    ._chain = &__tarsier_stdout_object, ._fileno = 2, ._old_offset = -1, ._offset = -1,
    ._lock = &__tarsier_standard_private[2].lock, ._wide_data = &__tarsier_standard_private[2].wide,
};

/* Where the models put a byte read only to check the stream. */
char __tarsier_stream_probe;

/* The streams fopen opened: distinct objects, while there are any left;
   a path that opens more is not modelled exactly. */
enum { __TARSIER_STREAMS = 8 };
struct __tarsier_file __tarsier_streams[__TARSIER_STREAMS];
struct __tarsier_stream_private __tarsier_stream_privates[__TARSIER_STREAMS];
int __tarsier_stream_count;
/* The stream glibc links a new one in front of. */
struct __tarsier_file *__tarsier_stream_list_head = &__tarsier_stderr_object;
struct _IO_FILE *__tarsier_unmodelled_stream(void);

/* glibc's _IO_new_file_fopen: the access from the first mode letter (any
   other is EINVAL), then up to six more letters ('+' both ways; 'm', 'c'
   and 'e' set _flags2 bits; 'x' and 'b' nothing the stream keeps; others
   ignored). A new stream, or NULL with errno set when the environment
   refuses the file. The path must be a string (C 7.1.4; glibc passes it
   to the kernel, which answers EFAULT): its first byte is read, so a null
   or invalid path is a dereference failure, as in open. */
struct _IO_FILE *
fopen(const char *path, const char *mode)
{
    int read_write, flags2 = 0;
    struct __tarsier_file *stream;
    if (mode[0] == 'r')
        read_write = __TARSIER_IO_NO_WRITES;
    else if (mode[0] == 'w')
        read_write = __TARSIER_IO_NO_READS;
    else if (mode[0] == 'a')
        read_write = __TARSIER_IO_NO_READS | __TARSIER_IO_IS_APPENDING;
    else {
        __tarsier_errno = 22; /* EINVAL */
        return 0;
    }
    __tarsier_stream_probe = path[0];
    for (int i = 1; i < 7; i++) {
        char letter = mode[i];
        if (letter == 0)
            break;
        if (letter == '+')
            read_write &= __TARSIER_IO_IS_APPENDING;
        else if (letter == 'm')
            flags2 |= 1; /* _IO_FLAGS2_MMAP */
        else if (letter == 'c')
            flags2 |= 2; /* _IO_FLAGS2_NOTCANCEL */
        else if (letter == 'e')
            flags2 |= 64; /* _IO_FLAGS2_CLOEXEC */
    }
    if (__VERIFIER_nondet_tarsier_int()) {
        int error = __VERIFIER_nondet_tarsier_int();
        __VERIFIER_assume(error > 0);
        __tarsier_errno = error;
        return 0;
    }
    if (__tarsier_stream_count == __TARSIER_STREAMS)
        return __tarsier_unmodelled_stream();
    stream = &__tarsier_streams[__tarsier_stream_count];
    stream->_flags = __TARSIER_IO_OPEN_FILE | read_write;
    stream->_chain = __tarsier_stream_list_head;
    /* Some descriptor: masked rather than assumed, so that the paths
       through fopen keep guards symex can compare. */
    stream->_fileno = __VERIFIER_nondet_tarsier_int() & 0x7fffffff;
    stream->_flags2 = flags2;
    stream->_offset = -1;
    stream->_lock = &__tarsier_stream_privates[__tarsier_stream_count].lock;
    stream->_wide_data = &__tarsier_stream_privates[__tarsier_stream_count].wide;
    __tarsier_stream_list_head = stream;
    __tarsier_stream_count++;
    return (struct _IO_FILE *)stream;
}

struct _IO_FILE *
fopen64(const char *path, const char *mode)
{
    return fopen(path, mode);
}

/* ---- Checks every stream function makes. */

_Bool __ESBMC_same_object(const void *a, const void *b);
long __ESBMC_POINTER_OFFSET(const void *p);
void __tarsier_unmodelled_memory_stream(void *stream);
long __tarsier_unmodelled_stream_call(struct _IO_FILE *stream);

char __tarsier_stream_closed[__TARSIER_STREAMS];

/* The address of an object whose lifetime has ended. */
char *
__tarsier_dead_object(void)
{
    char gone;
    return &gone;
}

/* glibc reads the FILE first: a closed stream's FILE has been freed
   (modelled as an access to an object no longer alive). */
void
__tarsier_check_stream(struct _IO_FILE *stream)
{
    if (__ESBMC_same_object(stream, __tarsier_streams)
        && __tarsier_stream_closed[__ESBMC_POINTER_OFFSET(stream) / sizeof(struct __tarsier_file)])
        __tarsier_stream_probe = *__tarsier_dead_object();
}

/* ---- fmemopen streams. */

enum { __TARSIER_MEMORY_STREAMS = 4, __TARSIER_STREAM_BUFFER = 64 };

struct __tarsier_memory_stream {
    char *buffer;       /* the program's memory */
    size_t size;        /* its length */
    size_t position;    /* the position the program sees (ftell) */
    size_t end;         /* the end of the contents (glibc's maxpos) */
    int readable, writable, append;
    int closed, error, eof;
    int putting;        /* libio's _IO_CURRENTLY_PUTTING */
    int allocated;      /* libio's buffer exists */
    size_t pending;     /* bytes written to `out`, not yet to `buffer` */
    char out[__TARSIER_STREAM_BUFFER];
    size_t ahead_start, ahead_end; /* buffer[ahead_start, ahead_end) was read ahead into `ahead` */
    char ahead[__TARSIER_STREAM_BUFFER];
};

struct __tarsier_memory_stream __tarsier_memory_streams[__TARSIER_MEMORY_STREAMS];
int __tarsier_memory_stream_count;

size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
void *malloc(size_t size);
void free(void *p);

/* Copies `n` bytes, at most a stream buffer's worth: a loop of constant
   bound, as `n` is rarely a constant (a stream's state merges the paths
   on which fmemopen failed). */
void
__tarsier_copy_bytes(char *to, const char *from, size_t n)
{
    size_t i;
    for (i = 0; i < __TARSIER_STREAM_BUFFER; i++)
        if (i < n)
            to[i] = from[i];
}

/* The memory stream `stream` is, or NULL for another stream, after
   glibc's first read of the FILE (__tarsier_check_stream). */
struct __tarsier_memory_stream *
__tarsier_memory_stream(struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    __tarsier_check_stream(stream);
    if (stream == 0 || !__ESBMC_same_object(stream, __tarsier_memory_streams))
        return 0;
    s = &__tarsier_memory_streams[__ESBMC_POINTER_OFFSET(stream) / sizeof(struct __tarsier_memory_stream)];
    if (s->closed)
        __tarsier_stream_probe = *__tarsier_dead_object();
    return s;
}

/* __tarsier_memory_stream for a function whose glibc code reads the FILE
   itself (fread, fwrite, fclose): a NULL stream faults there. */
struct __tarsier_memory_stream *
__tarsier_memory_stream_of_file(struct _IO_FILE *stream)
{
    if (stream == 0)
        __tarsier_stream_probe = *(char *)stream;
    return __tarsier_memory_stream(stream);
}

/* The stream's state is set before glibc's calloc of the cookie may fail
   (ENOMEM), so that it is the same on both outcomes (the formulas stay
   small); the failed outcome never hands the stream out. */
struct _IO_FILE *
fmemopen(void *buffer, size_t size, const char *mode)
{
    struct __tarsier_memory_stream *s;
    int update;
    void *cookie;
    /* glibc's own buffer, and a buffer that wraps around the address
       space (EINVAL), are not modelled. */
    if (buffer == 0 || size > ((size_t)1 << 47)
        || __tarsier_memory_stream_count == __TARSIER_MEMORY_STREAMS) {
        __tarsier_unmodelled_memory_stream(buffer);
        return 0;
    }
    s = &__tarsier_memory_streams[__tarsier_memory_stream_count];
    __tarsier_memory_stream_count++;
    update = mode[1] == '+' || (mode[1] == 'b' && mode[2] == '+');
    s->buffer = buffer;
    s->size = size;
    s->append = mode[0] == 'a';
    s->end = mode[0] == 'r' ? size : mode[0] == 'a' ? strnlen(buffer, size) : 0;
    s->position = s->append ? s->end : 0;
    s->readable = mode[0] == 'r' || update;
    s->writable = mode[0] != 'r' || update;
    cookie = malloc(1);
    if (cookie == 0) {
        __tarsier_errno = 12; /* ENOMEM */
        return 0;
    }
    free(cookie);
    if (mode[0] == 'w' && mode[1] == '+')
        ((char *)buffer)[0] = 0;
    if (mode[0] != 'r' && mode[0] != 'w' && mode[0] != 'a') {
        __tarsier_errno = 22; /* EINVAL, from fopencookie */
        return 0;
    }
    return (struct _IO_FILE *)s;
}

/* fmemopen_write: `n` bytes at the position (the end when appending);
   the number written. */
size_t
__tarsier_memory_write(struct __tarsier_memory_stream *s, size_t at, const char *data, size_t n)
{
    int add_null = n == 0 || data[n - 1] != 0;
    if (at + n > s->size) {
        if (at + add_null >= s->size) {
            __tarsier_errno = 28; /* ENOSPC */
            return 0;
        }
        n = s->size - at;
    }
    __tarsier_copy_bytes(s->buffer + at, data, n);
    if (at + n > s->end) {
        s->end = at + n;
        if (s->end < s->size && add_null)
            s->buffer[s->end] = 0;
        else if (!s->append && add_null)
            s->buffer[s->size - 1] = 0;
    }
    return n;
}

/* _IO_do_write of the bytes waiting in the FILE: 0, or EOF with the error
   flag after a short write (the bytes not written are dropped). */
int
__tarsier_memory_flush(struct __tarsier_memory_stream *s)
{
    size_t at, written, n = s->pending;
    if (n == 0)
        return 0;
    at = s->position - n;
    written = __tarsier_memory_write(s, at, s->out, n);
    s->pending = 0;
    s->position = at + written;
    if (written < n) {
        s->error = 1;
        return -1;
    }
    return 0;
}

/* The bytes ahead were read from the memory before: glibc returns those,
   so they must still be what the memory holds. */
void
__tarsier_memory_check_ahead(struct __tarsier_memory_stream *s)
{
    if (s->buffer[s->position] != s->ahead[s->position - s->ahead_start])
        __tarsier_unmodelled_memory_stream(s->buffer);
}

/* _IO_getc: the next byte, or EOF. */
int
__tarsier_memory_getc(struct __tarsier_memory_stream *s)
{
    size_t available;
    unsigned char c;
    if (s->putting) {
        if (__tarsier_memory_flush(s) != 0) {
            __tarsier_unmodelled_memory_stream(s->buffer);
            return -1;
        }
        s->putting = 0;
    }
    if (s->position < s->ahead_start || s->position >= s->ahead_end) {
        if (s->eof)
            return -1;
        if (!s->readable) {
            s->error = 1;
            __tarsier_errno = 9; /* EBADF */
            return -1;
        }
        s->allocated = 1;
        available = s->end > s->position ? s->end - s->position : 0;
        if (available == 0) {
            s->eof = 1;
            return -1;
        }
        if (available > __TARSIER_STREAM_BUFFER) {
            __tarsier_unmodelled_memory_stream(s->buffer);
            return -1;
        }
        __tarsier_copy_bytes(s->ahead, s->buffer + s->position, available);
        s->ahead_start = s->position;
        s->ahead_end = s->position + available;
    }
    __tarsier_memory_check_ahead(s);
    c = s->buffer[s->position];
    s->position++;
    return c;
}

/* _IO_sputn: the number of bytes taken into the FILE's buffer. */
size_t
__tarsier_memory_put(struct __tarsier_memory_stream *s, const char *data, size_t n)
{
    if (n == 0)
        return 0;
    if (!s->putting) {
        if (!s->writable) {
            s->error = 1;
            __tarsier_errno = 9; /* EBADF */
            return 0;
        }
        s->allocated = 1;
        s->putting = 1;
        s->ahead_start = 0;
        s->ahead_end = 0;
        if (s->append)
            s->position = s->end;
    }
    if (s->pending + n > __TARSIER_STREAM_BUFFER) {
        __tarsier_unmodelled_memory_stream(s->buffer);
        return 0;
    }
    __tarsier_copy_bytes(s->out + s->pending, data, n);
    s->pending += n;
    s->position += n;
    return n;
}

/* _IO_new_file_seekoff with a direction: 0 or -1. */
int
__tarsier_memory_seek(struct __tarsier_memory_stream *s, long offset, int whence)
{
    long target;
    if (whence != 0 && whence != 1 && whence != 2) {
        __tarsier_errno = 22; /* EINVAL */
        return -1;
    }
    if (s->append) {
        __tarsier_unmodelled_memory_stream(s->buffer);
        return -1;
    }
    int had_buffer = s->allocated;
    s->allocated = 1;
    if (s->putting) {
        if (__tarsier_memory_flush(s) != 0)
            return -1;
        s->putting = 0;
    }
    target = whence == 0 ? offset : whence == 1 ? (long)s->position + offset : (long)s->end + offset;
    if (target < 0 || (size_t)target > s->size) {
        /* Before its buffer exists, a readable stream's seek reads a
           block first (_IO_new_file_seekoff), so that a failed one may
           leave the position at the end (glibc: fmemopen(b, 5, "r") then
           fseek to 10 gives -1 and ftell 5, to 10000 ftell 0). */
        if (!had_buffer && s->readable)
            __tarsier_unmodelled_memory_stream(s->buffer);
        __tarsier_errno = 22; /* EINVAL */
        return -1;
    }
    s->position = target;
    s->eof = 0;
    return 0;
}

/* ---- The stream functions: a memory stream's model, else the native
   model or the approximation there was before. */

int __tarsier_native_fputs(const char *text, struct _IO_FILE *stream);
int __tarsier_native_fputc(int c, struct _IO_FILE *stream);
char *__tarsier_native_fgets(char *line, int size, struct _IO_FILE *stream);
int __tarsier_native_fflush(struct _IO_FILE *stream);
int __tarsier_native_vfprintf(struct _IO_FILE *stream, const char *format, __builtin_va_list args);

/* Whether `stream` is a file stream of the environment (fopen's or a
   standard one) opened without an access (`denied` is _IO_NO_READS or
   _IO_NO_WRITES) a transfer needs: glibc then fails it with EBADF (and the
   error flag, which these streams do not keep). */
int
__tarsier_stream_refuses(struct _IO_FILE *stream, int denied)
{
    struct __tarsier_file *file = (struct __tarsier_file *)stream;
    int known = __ESBMC_same_object(stream, __tarsier_streams) || file == &__tarsier_stdin_object
        || file == &__tarsier_stdout_object || file == &__tarsier_stderr_object;
    if (!known || (file->_flags & denied) == 0)
        return 0;
    __tarsier_errno = 9; /* EBADF */
    return 1;
}

int
fputs(const char *text, struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    size_t n;
    s = __tarsier_memory_stream(stream);
    if (s == 0 && __tarsier_stream_refuses(stream, __TARSIER_IO_NO_WRITES))
        return -1;
    if (s == 0)
        return __tarsier_native_fputs(text, stream);
    n = strlen(text);
    return __tarsier_memory_put(s, text, n) == n ? 1 : -1;
}

int
fputs_unlocked(const char *text, struct _IO_FILE *stream)
{
    return fputs(text, stream);
}

int
fputc(int c, struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    char byte = c;
    s = __tarsier_memory_stream(stream);
    if (s == 0 && __tarsier_stream_refuses(stream, __TARSIER_IO_NO_WRITES))
        return -1;
    if (s == 0)
        return __tarsier_native_fputc(c, stream);
    return __tarsier_memory_put(s, &byte, 1) == 1 ? (unsigned char)c : -1;
}

int
putc(int c, struct _IO_FILE *stream)
{
    return fputc(c, stream);
}

int
fputc_unlocked(int c, struct _IO_FILE *stream)
{
    return fputc(c, stream);
}

int
putc_unlocked(int c, struct _IO_FILE *stream)
{
    return fputc(c, stream);
}

int
fgetc(struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    s = __tarsier_memory_stream(stream);
    if (s == 0 && __tarsier_stream_refuses(stream, __TARSIER_IO_NO_READS))
        return -1;
    if (s == 0)
        return getchar();
    return __tarsier_memory_getc(s);
}

int
getc(struct _IO_FILE *stream)
{
    return fgetc(stream);
}

int
fgetc_unlocked(struct _IO_FILE *stream)
{
    return fgetc(stream);
}

int
getc_unlocked(struct _IO_FILE *stream)
{
    return fgetc(stream);
}

/* glibc's fgets: NULL when no byte was read; the error flag is the one
   before the call or'ed with this call's. */
char *
fgets(char *line, int size, struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    int old_error, count, c;
    if (size <= 0)
        return 0;
    s = __tarsier_memory_stream(stream);
    if (s == 0 && __tarsier_stream_refuses(stream, __TARSIER_IO_NO_READS))
        return 0;
    if (s == 0)
        return __tarsier_native_fgets(line, size, stream);
    if (size == 1) {
        line[0] = 0;
        return line;
    }
    old_error = s->error;
    s->error = 0;
    count = 0;
    while (count < size - 1) {
        c = __tarsier_memory_getc(s);
        if (c == -1)
            break;
        line[count] = c;
        count++;
        if (c == '\n')
            break;
    }
    s->error |= old_error;
    if (count == 0)
        return 0;
    line[count] = 0;
    return line;
}

char *
fgets_unlocked(char *line, int size, struct _IO_FILE *stream)
{
    return fgets(line, size, stream);
}

/* glibc's fileno: the descriptor of a file stream, -1 with EBADF for a
   memory stream (no file behind it). It reads the FILE, so a NULL or
   closed stream faults. */
int
fileno(struct _IO_FILE *stream)
{
    if (__tarsier_memory_stream_of_file(stream) != 0) {
        __tarsier_errno = 9; /* EBADF */
        return -1;
    }
    return ((struct __tarsier_file *)stream)->_fileno;
}

int
fileno_unlocked(struct _IO_FILE *stream)
{
    return fileno(stream);
}

/* glibc's fread and fwrite: `size * count` bytes (wrapping as glibc
   computes them), nothing done for none; the result is `count` when all
   of them were transferred, else the whole items transferred. A memory
   stream's bytes go through its model. The environment's streams give
   any number of arbitrary bytes up to the request (EOF or an error
   ended it) and take all bytes written, as the other output functions
   do; glibc reads the bytes written, which must all be readable (their
   first and last byte are, in one object). */
unsigned char __VERIFIER_nondet_tarsier_uchar(void);
unsigned long __VERIFIER_nondet_tarsier_ulong(void);

size_t
fread(void *buffer, size_t size, size_t count, struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    unsigned char *bytes = buffer;
    size_t requested = size * count, got = 0;
    int c;
    if (requested == 0)
        return 0;
    s = __tarsier_memory_stream_of_file(stream);
    if (s == 0 && __tarsier_stream_refuses(stream, __TARSIER_IO_NO_READS))
        return 0;
    if (s == 0) {
        got = __VERIFIER_nondet_tarsier_ulong();
        __VERIFIER_assume(got <= requested);
        for (size_t i = 0; i < got; i++)
            bytes[i] = __VERIFIER_nondet_tarsier_uchar();
    } else {
        while (got < requested) {
            c = __tarsier_memory_getc(s);
            if (c == -1)
                break;
            bytes[got] = c;
            got++;
        }
    }
    return got == requested ? count : got / size;
}

size_t
fread_unlocked(void *buffer, size_t size, size_t count, struct _IO_FILE *stream)
{
    return fread(buffer, size, count, stream);
}

size_t
fwrite(const void *buffer, size_t size, size_t count, struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    const char *bytes = buffer;
    size_t requested = size * count, put;
    if (requested == 0)
        return 0;
    s = __tarsier_memory_stream_of_file(stream);
    if (s == 0 && __tarsier_stream_refuses(stream, __TARSIER_IO_NO_WRITES))
        return 0;
    if (s == 0) {
        __tarsier_stream_probe = bytes[0];
        __tarsier_stream_probe = bytes[requested - 1];
        return count;
    }
    put = __tarsier_memory_put(s, bytes, requested);
    return put == requested ? count : put / size;
}

size_t
fwrite_unlocked(const void *buffer, size_t size, size_t count, struct _IO_FILE *stream)
{
    return fwrite(buffer, size, count, stream);
}

int
fflush(struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    int i, result = 0;
    if (stream == 0) {
        for (i = 0; i < __tarsier_memory_stream_count; i++) {
            s = &__tarsier_memory_streams[i];
            if (!s->closed && s->putting && __tarsier_memory_flush(s) != 0)
                result = -1;
        }
        return __tarsier_native_fflush(stream) | result;
    }
    s = __tarsier_memory_stream(stream);
    if (s == 0)
        return __tarsier_native_fflush(stream);
    if (s->putting && __tarsier_memory_flush(s) != 0)
        return -1;
    /* glibc drops the bytes read ahead: the next read reads the memory. */
    s->ahead_start = 0;
    s->ahead_end = 0;
    return 0;
}

int
fflush_unlocked(struct _IO_FILE *stream)
{
    return fflush(stream);
}

int
fseek(struct _IO_FILE *stream, long offset, int whence)
{
    struct __tarsier_memory_stream *s;
    s = __tarsier_memory_stream(stream);
    if (s != 0)
        return __tarsier_memory_seek(s, offset, whence);
    if (whence != 0 && whence != 1 && whence != 2) {
        __tarsier_errno = 22; /* EINVAL */
        return -1;
    }
    /* The environment's file may refuse (a pipe, a negative offset). */
    if (__VERIFIER_nondet_tarsier_int()) {
        int error = __VERIFIER_nondet_tarsier_int();
        __VERIFIER_assume(error > 0);
        __tarsier_errno = error;
        return -1;
    }
    return 0;
}

int
fseeko(struct _IO_FILE *stream, long offset, int whence)
{
    return fseek(stream, offset, whence);
}

int
fseeko64(struct _IO_FILE *stream, long offset, int whence)
{
    return fseek(stream, offset, whence);
}

void
rewind(struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    fseek(stream, 0, 0);
    s = __tarsier_memory_stream(stream);
    if (s == 0) {
        __tarsier_unmodelled_stream_call(stream);
        return;
    }
    s->error = 0;
    s->eof = 0;
}

long
ftell(struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    s = __tarsier_memory_stream(stream);
    if (s == 0)
        return __tarsier_unmodelled_stream_call(stream);
    return s->position;
}

long
ftello(struct _IO_FILE *stream)
{
    return ftell(stream);
}

int
ferror(struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    s = __tarsier_memory_stream(stream);
    if (s == 0)
        return __tarsier_unmodelled_stream_call(stream);
    return s->error;
}

int
ferror_unlocked(struct _IO_FILE *stream)
{
    return ferror(stream);
}

int
feof(struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    s = __tarsier_memory_stream(stream);
    if (s == 0)
        return __tarsier_unmodelled_stream_call(stream);
    return s->eof;
}

int
feof_unlocked(struct _IO_FILE *stream)
{
    return feof(stream);
}

void
clearerr(struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    s = __tarsier_memory_stream(stream);
    if (s == 0) {
        __tarsier_unmodelled_stream_call(stream);
        return;
    }
    s->error = 0;
    s->eof = 0;
}

void
clearerr_unlocked(struct _IO_FILE *stream)
{
    clearerr(stream);
}

/* stdio_ext.h: the bytes waiting in the buffer, and whether the stream
   is (or was last) reading or writing. */
size_t
__fpending(struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    s = __tarsier_memory_stream(stream);
    if (s == 0)
        return __tarsier_unmodelled_stream_call(stream);
    return s->putting ? s->pending : 0;
}

int
__freading(struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    s = __tarsier_memory_stream(stream);
    if (s == 0)
        return __tarsier_unmodelled_stream_call(stream);
    return !s->writable || (!s->putting && s->readable && s->allocated);
}

int
__fwriting(struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    s = __tarsier_memory_stream(stream);
    if (s == 0)
        return __tarsier_unmodelled_stream_call(stream);
    /* glibc returns the flag bits: _IO_NO_READS (4), _IO_CURRENTLY_PUTTING
       (0x800). */
    return (!s->readable ? 4 : 0) | (s->putting ? 0x800 : 0);
}

/* Releases the stream: a memory stream writes what waits in its buffer
   first (EOF when that falls short); the environment's file may fail to
   close (EOF with errno), but the stream is released all the same. */
int
fclose(struct _IO_FILE *stream)
{
    struct __tarsier_memory_stream *s;
    int result = 0;
    s = __tarsier_memory_stream_of_file(stream);
    if (s != 0) {
        if (s->putting && __tarsier_memory_flush(s) != 0)
            result = -1;
        s->closed = 1;
        return result;
    }
    if (!__ESBMC_same_object(stream, __tarsier_streams))
        return __tarsier_unmodelled_stream_call(stream);
    __tarsier_stream_closed[__ESBMC_POINTER_OFFSET(stream) / sizeof(struct __tarsier_file)] = 1;
    if (__VERIFIER_nondet_tarsier_int()) {
        int error = __VERIFIER_nondet_tarsier_int();
        __VERIFIER_assume(error > 0);
        __tarsier_errno = error;
        return -1;
    }
    return 0;
}

/* fprintf and vfprintf: the native printer, after glibc's first read of
   the FILE (a NULL or closed stream faults) and its check of the access
   (EOF on a read-only stream). */
int
vfprintf(struct _IO_FILE *stream, const char *format, __builtin_va_list args)
{
    if (__tarsier_memory_stream_of_file(stream) == 0 && __tarsier_stream_refuses(stream, __TARSIER_IO_NO_WRITES))
        return -1;
    return __tarsier_native_vfprintf(stream, format, args);
}

int
fprintf(struct _IO_FILE *stream, const char *format, ...)
{
    __builtin_va_list args;
    int written;
    __builtin_va_start(args, format);
    written = vfprintf(stream, format, args);
    __builtin_va_end(args);
    return written;
}

/* glibc's perror prints the message (the native model reads s) through a
   stream it opens on a duplicate of stderr's descriptor,
   fdopen(dup(fileno(stderr)), "w+"), which fails with EINVAL when stderr
   is write-only, or with another error: errno may change. */
void __tarsier_native_perror(const char *s);

void
perror(const char *s)
{
    __tarsier_native_perror(s);
    if (__VERIFIER_nondet_tarsier_int()) {
        int error = __VERIFIER_nondet_tarsier_int();
        __VERIFIER_assume(error > 0);
        __tarsier_errno = error;
    }
}

/* glibc's error (error.h): the message, formatted as printf does, goes to
   stderr; a nonzero status then ends the program with that status.
   (glibc also flushes stdout and prints the program's name and
   strerror(errnum), which no check observes.) */
extern struct _IO_FILE *stderr;
void exit(int status);

void
error(int status, int errnum, const char *format, ...)
{
    __builtin_va_list args;
    __builtin_va_start(args, format);
    vfprintf(stderr, format, args);
    __builtin_va_end(args);
    if (status != 0)
        exit(status);
}
