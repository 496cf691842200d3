/* string.h, per the C standard: comparisons are on unsigned char values
   and give any int of the right sign, searches include the terminating
   null character. Each function reads and writes through the program's
   pointers, so the memory checks apply to the bytes it touches. Collation follows the locale setlocale chose
   (see locale.c). */

/*@ for char as string_basics */
size_t
$STRlen(const $T *s)
{
    size_t n = 0;
    while (s[n] != 0)
        n++;
    return n;
}

size_t
$STRnlen(const $T *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n] != 0)
        n++;
    return n;
}

$T *
$STRcpy($T *restrict dst, const $T *restrict src)
{
    /* The loop tests the character read, not the one written: after a write
       past the end of dst, reading it back would give an unknown value
       and the loop would not end where glibc's does. */
    size_t i = 0;
    for (;; i++) {
        $T c = src[i];
        dst[i] = c;
        if (c == 0)
            break;
    }
    return dst;
}

$T *
$STRncpy($T *restrict dst, const $T *restrict src, size_t n)
{
    size_t i = 0;
    for (; i < n && src[i] != 0; i++)
        dst[i] = src[i];
    for (; i < n; i++)
        dst[i] = 0;
    return dst;
}

$T *
$STRcat($T *restrict dst, const $T *restrict src)
{
    $STRcpy(dst + $STRlen(dst), src);
    return dst;
}

$T *
$STRncat($T *restrict dst, const $T *restrict src, size_t n)
{
    $T *end = dst + $STRlen(dst);
    size_t i = 0;
    for (; i < n && src[i] != 0; i++)
        end[i] = src[i];
    end[i] = 0;
    return dst;
}
/*@ end */

/* C and POSIX fix only the sign of a comparison's result; C libraries
   differ in its magnitude (glibc on x86-64 gives the difference of the
   first differing bytes, other builds and libraries -1 or 1). So the
   result is any int of the order's sign (order is -1, 0 or 1): a verdict
   never rests on the magnitude, and a counterexample's magnitude is an
   input the replay takes. */
int __VERIFIER_nondet_tarsier_int(void);

int
__tarsier_comparison_result(int order)
{
    if (order == 0)
        return 0;
    int magnitude = __VERIFIER_nondet_tarsier_int() & 0x7fffffff;
    if (order < 0)
        return -1 - magnitude;
    return magnitude != 0 ? magnitude : 1;
}

int
strcmp(const char *a, const char *b)
{
    const unsigned char *x = (const unsigned char *)a;
    const unsigned char *y = (const unsigned char *)b;
    size_t i = 0;
    while (x[i] != 0 && x[i] == y[i])
        i++;
    return __tarsier_comparison_result((x[i] > y[i]) - (x[i] < y[i]));
}

int
strncmp(const char *a, const char *b, size_t n)
{
    const unsigned char *x = (const unsigned char *)a;
    const unsigned char *y = (const unsigned char *)b;
    size_t i = 0;
    if (n == 0)
        return 0;
    while (i + 1 < n && x[i] != 0 && x[i] == y[i])
        i++;
    return __tarsier_comparison_result((x[i] > y[i]) - (x[i] < y[i]));
}

int
memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = (const unsigned char *)a;
    const unsigned char *y = (const unsigned char *)b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return __tarsier_comparison_result(x[i] < y[i] ? -1 : 1);
    return 0;
}

void *
memchr(const void *s, int c, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n; i++)
        if (p[i] == (unsigned char)c)
            return (void *)(p + i);
    return 0;
}

char *
strchr(const char *s, int c)
{
    size_t i = 0;
    while (s[i] != (char)c) {
        if (s[i] == 0)
            return 0;
        i++;
    }
    return (char *)(s + i);
}

char *
strrchr(const char *s, int c)
{
    const char *found = 0;
    size_t i = 0;
    for (;; i++) {
        if (s[i] == (char)c)
            found = s + i;
        if (s[i] == 0)
            return (char *)found;
    }
}

char *
strstr(const char *haystack, const char *needle)
{
    for (size_t start = 0;; start++) {
        size_t i = 0;
        while (needle[i] != 0 && haystack[start + i] == needle[i])
            i++;
        if (needle[i] == 0)
            return (char *)(haystack + start);
        if (haystack[start] == 0)
            return 0;
    }
}

size_t
strspn(const char *s, const char *accept)
{
    size_t n = 0;
    while (s[n] != 0 && strchr(accept, s[n]) != 0)
        n++;
    return n;
}

size_t
strcspn(const char *s, const char *reject)
{
    size_t n = 0;
    while (s[n] != 0 && strchr(reject, s[n]) == 0)
        n++;
    return n;
}

void *malloc(size_t size);
void *memcpy(void *restrict dst, const void *restrict src, size_t n);

char *
strdup(const char *s)
{
    size_t size = strlen(s) + 1;
    char *copy = malloc(size);
    if (copy != 0)
        memcpy(copy, s, size);
    return copy;
}

char *
strndup(const char *s, size_t max)
{
    size_t length = strnlen(s, max);
    char *copy = malloc(length + 1);
    if (copy != 0) {
        memcpy(copy, s, length);
        copy[length] = 0;
    }
    return copy;
}

char *
strpbrk(const char *s, const char *accept)
{
    for (size_t i = 0; s[i] != 0; i++)
        if (strchr(accept, s[i]) != 0)
            return (char *)(s + i);
    return 0;
}

void *
memrchr(const void *s, int c, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = n; i > 0; i--)
        if (p[i - 1] == (unsigned char)c)
            return (void *)(p + i - 1);
    return 0;
}

/* The token of s (or, when s is null, of the rest *save holds) up to the
   next byte of delim, which is overwritten with a null character; *save
   keeps the rest. */
char *
strtok_r(char *restrict s, const char *restrict delim, char **restrict save)
{
    if (s == 0)
        s = *save;
    s += strspn(s, delim);
    if (*s == 0) {
        *save = s;
        return 0;
    }
    char *end = s + strcspn(s, delim);
    if (*end == 0) {
        *save = end;
        return s;
    }
    *end = 0;
    *save = end + 1;
    return s;
}

char *__tarsier_strtok_save;

char *
strtok(char *restrict s, const char *restrict delim)
{
    return strtok_r(s, delim, &__tarsier_strtok_save);
}

int
__tarsier_lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int
strcasecmp(const char *a, const char *b)
{
    const unsigned char *x = (const unsigned char *)a;
    const unsigned char *y = (const unsigned char *)b;
    size_t i = 0;
    while (x[i] != 0 && __tarsier_lower(x[i]) == __tarsier_lower(y[i]))
        i++;
    int order = __tarsier_lower(x[i]) - __tarsier_lower(y[i]);
    return __tarsier_comparison_result((order > 0) - (order < 0));
}

int
strncasecmp(const char *a, const char *b, size_t n)
{
    const unsigned char *x = (const unsigned char *)a;
    const unsigned char *y = (const unsigned char *)b;
    size_t i = 0;
    if (n == 0)
        return 0;
    while (i + 1 < n && x[i] != 0 && __tarsier_lower(x[i]) == __tarsier_lower(y[i]))
        i++;
    int order = __tarsier_lower(x[i]) - __tarsier_lower(y[i]);
    return __tarsier_comparison_result((order > 0) - (order < 0));
}

/* The message text is unknown (no unit defines this array); glibc's are
   shorter than 64 bytes. POSIX lets a later call overwrite the string, so
   one buffer serves every call. */
extern char __tarsier_strerror_text[64];
void __VERIFIER_assume(int condition);

char *
strerror(int errnum)
{
    int end = __VERIFIER_nondet_tarsier_int();
    __VERIFIER_assume(end >= 0 && end < 64);
    __tarsier_strerror_text[end] = 0;
    return __tarsier_strerror_text;
}

/* The GNU and POSIX relatives of the functions above (string.h with
   _GNU_SOURCE, strings.h): the same loops, other results. */
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *s, int c, size_t n);

/* The end of the copy: dst + strlen(src). */
char *
stpcpy(char *restrict dst, const char *restrict src)
{
    return strcpy(dst, src) + strlen(src);
}

/* The first null character written, or dst + n when none is. */
char *
stpncpy(char *restrict dst, const char *restrict src, size_t n)
{
    size_t length = strnlen(src, n);
    strncpy(dst, src, n);
    return dst + length;
}

void *
mempcpy(void *restrict dst, const void *restrict src, size_t n)
{
    return (char *)memcpy(dst, src, n) + n;
}

/* Copies up to and including the first byte equal to (unsigned char)c:
   the byte after it in dst, or NULL when the first n bytes hold none. */
void *
memccpy(void *restrict dst, const void *restrict src, int c, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    for (size_t i = 0; i < n; i++) {
        unsigned char byte = s[i];
        d[i] = byte;
        if (byte == (unsigned char)c)
            return d + i + 1;
    }
    return 0;
}

/* As strchr, but the terminating null character when c is absent. */
char *
strchrnul(const char *s, int c)
{
    size_t i = 0;
    while (s[i] != (char)c && s[i] != 0)
        i++;
    return (char *)(s + i);
}

/* The byte must be there: the search reads on until it is. */
void *
rawmemchr(const void *s, int c)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (p[i] != (unsigned char)c)
        i++;
    return (void *)(p + i);
}

void
bzero(void *s, size_t n)
{
    memset(s, 0, n);
}

/* Zero when the bytes are equal, else nonzero (glibc's is memcmp's). */
int
bcmp(const void *a, const void *b, size_t n)
{
    return memcmp(a, b, n);
}

void
bcopy(const void *src, void *dst, size_t n)
{
    memmove(dst, src, n);
}

char *
index(const char *s, int c)
{
    return strchr(s, c);
}

char *
rindex(const char *s, int c)
{
    return strrchr(s, c);
}
