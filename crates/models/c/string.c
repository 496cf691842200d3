/* string.h, per the C standard: comparisons are on unsigned char values,
   searches include the terminating null character. Each function reads
   and writes through the program's pointers, so the memory checks apply
   to the bytes it touches. */

size_t
strlen(const char *s)
{
    size_t n = 0;
    while (s[n] != 0)
        n++;
    return n;
}

size_t
strnlen(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n] != 0)
        n++;
    return n;
}

char *
strcpy(char *restrict dst, const char *restrict src)
{
    size_t i = 0;
    while ((dst[i] = src[i]) != 0)
        i++;
    return dst;
}

char *
strncpy(char *restrict dst, const char *restrict src, size_t n)
{
    size_t i = 0;
    for (; i < n && src[i] != 0; i++)
        dst[i] = src[i];
    for (; i < n; i++)
        dst[i] = 0;
    return dst;
}

char *
strcat(char *restrict dst, const char *restrict src)
{
    strcpy(dst + strlen(dst), src);
    return dst;
}

char *
strncat(char *restrict dst, const char *restrict src, size_t n)
{
    char *end = dst + strlen(dst);
    size_t i = 0;
    for (; i < n && src[i] != 0; i++)
        end[i] = src[i];
    end[i] = 0;
    return dst;
}

int
strcmp(const char *a, const char *b)
{
    const unsigned char *x = (const unsigned char *)a;
    const unsigned char *y = (const unsigned char *)b;
    size_t i = 0;
    while (x[i] != 0 && x[i] == y[i])
        i++;
    return x[i] < y[i] ? -1 : x[i] > y[i];
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
    return x[i] < y[i] ? -1 : x[i] > y[i];
}

int
memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = (const unsigned char *)a;
    const unsigned char *y = (const unsigned char *)b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
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
