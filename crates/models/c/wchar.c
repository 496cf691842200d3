/* wchar.h: the wide-character string and memory functions, as the narrow
   ones of string.c on glibc's wchar_t (32 bits: the prelude gives the
   type of the data model, int on LP64 and long on ILP32); wcslen to
   wcsncat are string.c's shared block. Comparisons are on wchar_t values
   (the result's magnitude is open, as in string.c), searches include the
   terminating null character. The wmem copies are memcpy/memmove of whole
   elements. mbsinit reads glibc's mbstate_t, an anonymous struct whose
   first member is the count of pending bytes, so it is an opaque model
   (see cfront::library_models). swprintf follows glibc's vswprintf for
   the conversions it covers. */

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int __tarsier_comparison_result(int order);

/*@ string_basics for wchar_t */

int
wcscmp(const wchar_t *a, const wchar_t *b)
{
    size_t i = 0;
    while (a[i] == b[i] && a[i] != 0)
        i++;
    return __tarsier_comparison_result((a[i] > b[i]) - (a[i] < b[i]));
}

int
wcsncmp(const wchar_t *a, const wchar_t *b, size_t n)
{
    size_t i = 0;
    if (n == 0)
        return 0;
    while (i + 1 < n && a[i] == b[i] && a[i] != 0)
        i++;
    return __tarsier_comparison_result((a[i] > b[i]) - (a[i] < b[i]));
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
            return __tarsier_comparison_result(a[i] < b[i] ? -1 : 1);
    return 0;
}

int
__tarsier_opaque_mbsinit(const int *state)
{
    return state == 0 || *state == 0;
}

/* Reached for a swprintf format or argument the model does not cover:
   flags, widths, precisions, other lengths or conversions, and narrow
   characters outside ASCII (whose conversion depends on the locale). The
   buffer is an argument so that a verdict resting on the call is not
   trusted either way. */
int __tarsier_unmodelled_swprintf(wchar_t *s);

/* Puts wide character c at position at of swprintf's output into s of n
   characters: glibc stores only below n - 1. The next position. */
size_t
__tarsier_put_wide(wchar_t *s, size_t n, size_t at, wchar_t c)
{
    if (at < n - 1)
        s[at] = c;
    return at + 1;
}

/* Puts magnitude in base (8, 10 or 16), after a '-' when negative; each
   digit is written straight to its place, the least significant first
   (at most 22 digits: a 64-bit value in octal). */
size_t
__tarsier_put_wide_number(wchar_t *s, size_t n, size_t at, unsigned long long magnitude, int negative,
                          unsigned int base, int upper)
{
    if (negative)
        at = __tarsier_put_wide(s, n, at, '-');
    unsigned long long rest = magnitude;
    size_t count = 1;
    for (int i = 1; i < 22; i++) {
        rest /= base;
        if (rest != 0)
            count = (size_t)i + 1;
    }
    for (int i = 0; i < 22; i++) {
        if ((size_t)i < count) {
            unsigned int digit = (unsigned int)(magnitude % base);
            wchar_t c = digit < 10 ? (wchar_t)('0' + digit) : (wchar_t)((upper ? 'A' : 'a') + digit - 10);
            __tarsier_put_wide(s, n, at + count - 1 - (size_t)i, c);
        }
        magnitude /= base;
    }
    return at + count;
}

/* glibc's vswprintf: -1 for n == 0; else s[0] is set to L'\0', the text
   goes to s[0 .. n - 2], and it is ended by L'\0' and its length returned
   when it is shorter than n, or -1 returned and s[n - 1] left as it was
   (checked against glibc 2.36). Conversions without flags, width or
   precision: %d %i %u %o %x %X (also with l), %c %lc %s %ls, %%; a narrow
   %c or %s character outside ASCII is not modelled. */
int
swprintf(wchar_t *restrict s, size_t n, const wchar_t *restrict format, ...)
{
    if (n == 0)
        return -1;
    __builtin_va_list args;
    __builtin_va_start(args, format);
    s[0] = 0;
    size_t at = 0;
    for (size_t i = 0; format[i] != 0; i++) {
        wchar_t c = format[i];
        if (c != '%') {
            at = __tarsier_put_wide(s, n, at, c);
            continue;
        }
        i++;
        int longer = format[i] == 'l';
        if (longer)
            i++;
        wchar_t conversion = format[i];
        if (conversion == '%' && !longer) {
            at = __tarsier_put_wide(s, n, at, '%');
        } else if (conversion == 'd' || conversion == 'i') {
            long long value = longer ? (long long)__builtin_va_arg(args, long) : (long long)__builtin_va_arg(args, int);
            unsigned long long magnitude = value < 0 ? 0ull - (unsigned long long)value : (unsigned long long)value;
            at = __tarsier_put_wide_number(s, n, at, magnitude, value < 0, 10, 0);
        } else if (conversion == 'u' || conversion == 'o' || conversion == 'x' || conversion == 'X') {
            unsigned long long value = longer ? (unsigned long long)__builtin_va_arg(args, unsigned long)
                                              : (unsigned long long)__builtin_va_arg(args, unsigned int);
            unsigned int base = conversion == 'u' ? 10 : conversion == 'o' ? 8 : 16;
            at = __tarsier_put_wide_number(s, n, at, value, 0, base, conversion == 'X');
        } else if (conversion == 'c') {
            unsigned int value = longer ? __builtin_va_arg(args, unsigned int) : (unsigned char)__builtin_va_arg(args, int);
            if (!longer && value >= 0x80)
                return __tarsier_unmodelled_swprintf(s);
            at = __tarsier_put_wide(s, n, at, (wchar_t)value);
        } else if (conversion == 's' && longer) {
            const wchar_t *text = __builtin_va_arg(args, const wchar_t *);
            for (size_t j = 0; text[j] != 0; j++)
                at = __tarsier_put_wide(s, n, at, text[j]);
        } else if (conversion == 's') {
            const unsigned char *text = __builtin_va_arg(args, const unsigned char *);
            for (size_t j = 0; text[j] != 0; j++) {
                if (text[j] >= 0x80)
                    return __tarsier_unmodelled_swprintf(s);
                at = __tarsier_put_wide(s, n, at, (wchar_t)text[j]);
            }
        } else {
            return __tarsier_unmodelled_swprintf(s);
        }
    }
    __builtin_va_end(args);
    if (at >= n)
        return -1;
    s[at] = 0;
    return (int)at;
}
