/* wchar.h: the wide-character string and memory functions, as the narrow
   ones of string.c on glibc's wchar_t (32 bits: the prelude gives the
   type of the data model, int on LP64 and long on ILP32).
   Comparisons are on wchar_t values, searches include the terminating
   null character. The wmem copies are memcpy/memmove of whole elements.
   mbsinit reads glibc's mbstate_t, an anonymous struct whose first member
   is the count of pending bytes, so it is an opaque model (see
   cfront::library_models). */

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);

size_t
wcslen(const wchar_t *s)
{
    size_t n = 0;
    while (s[n] != 0)
        n++;
    return n;
}

size_t
wcsnlen(const wchar_t *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n] != 0)
        n++;
    return n;
}

wchar_t *
wcscpy(wchar_t *restrict dst, const wchar_t *restrict src)
{
    /* The loop tests the character read, not the one written: after a write
       past the end of dst, reading it back would give an unknown value
       and the loop would not end where glibc's does. */
    size_t i = 0;
    for (;; i++) {
        wchar_t c = src[i];
        dst[i] = c;
        if (c == 0)
            break;
    }
    return dst;
}

wchar_t *
wcsncpy(wchar_t *restrict dst, const wchar_t *restrict src, size_t n)
{
    size_t i = 0;
    for (; i < n && src[i] != 0; i++)
        dst[i] = src[i];
    for (; i < n; i++)
        dst[i] = 0;
    return dst;
}

wchar_t *
wcscat(wchar_t *restrict dst, const wchar_t *restrict src)
{
    wcscpy(dst + wcslen(dst), src);
    return dst;
}

wchar_t *
wcsncat(wchar_t *restrict dst, const wchar_t *restrict src, size_t n)
{
    wchar_t *end = dst + wcslen(dst);
    size_t i = 0;
    for (; i < n && src[i] != 0; i++)
        end[i] = src[i];
    end[i] = 0;
    return dst;
}

int
wcscmp(const wchar_t *a, const wchar_t *b)
{
    size_t i = 0;
    while (a[i] == b[i] && a[i] != 0)
        i++;
    return a[i] < b[i] ? -1 : a[i] > b[i];
}

int
wcsncmp(const wchar_t *a, const wchar_t *b, size_t n)
{
    size_t i = 0;
    if (n == 0)
        return 0;
    while (i + 1 < n && a[i] == b[i] && a[i] != 0)
        i++;
    return a[i] < b[i] ? -1 : a[i] > b[i];
}

wchar_t *
wcschr(const wchar_t *s, wchar_t c)
{
    size_t i = 0;
    while (s[i] != c) {
        if (s[i] == 0)
            return 0;
        i++;
    }
    return (wchar_t *)(s + i);
}

wchar_t *
wcsrchr(const wchar_t *s, wchar_t c)
{
    const wchar_t *found = 0;
    size_t i = 0;
    for (;; i++) {
        if (s[i] == c)
            found = s + i;
        if (s[i] == 0)
            return (wchar_t *)found;
    }
}

wchar_t *
wmemcpy(wchar_t *restrict dst, const wchar_t *restrict src, size_t n)
{
    memcpy(dst, src, n * sizeof(wchar_t));
    return dst;
}

wchar_t *
wmemmove(wchar_t *dst, const wchar_t *src, size_t n)
{
    memmove(dst, src, n * sizeof(wchar_t));
    return dst;
}

wchar_t *
wmemset(wchar_t *s, wchar_t c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        s[i] = c;
    return s;
}

wchar_t *
wmemchr(const wchar_t *s, wchar_t c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] == c)
            return (wchar_t *)(s + i);
    return 0;
}

int
wmemcmp(const wchar_t *a, const wchar_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

int
__tarsier_opaque_mbsinit(const int *state)
{
    return state == 0 || *state == 0;
}
