/* stdlib.h: integer helpers, the numeric conversions, the environment,
   the pseudo-random generator, and errno (glibc's `errno` macro reads
   `*__errno_location()`). The conversions follow the C locale; atoi and
   friends on a value the result type cannot hold is undefined behaviour by
   the standard, so the model returns an arbitrary value then, while the
   strto* functions saturate and set ERANGE as the standard requires. Sums
   are bounded before they are formed, so the model never wraps (the
   overflow checks also watch model code). Also CBMC's
   __CPROVER_havoc_slice, which its stdlib-like regression programs call. */

int __VERIFIER_nondet_tarsier_int(void);
long __VERIFIER_nondet_tarsier_long(void);
long long __VERIFIER_nondet_tarsier_longlong(void);
void __VERIFIER_assume(int condition);
unsigned char __VERIFIER_nondet_tarsier_uchar(void);

int __tarsier_errno;

int *
__errno_location(void)
{
    return &__tarsier_errno;
}

int
abs(int x)
{
    return x < 0 ? -x : x;
}

long
labs(long x)
{
    return x < 0 ? -x : x;
}

long long
llabs(long long x)
{
    return x < 0 ? -x : x;
}

/* The magnitude of the decimal number at the start of s (after white
   space and a sign), as atoi/atol/atoll read it; *negative tells the sign
   and *fits whether the magnitude is at most limit. */
unsigned long long
__tarsier_decimal(const char *s, unsigned long long limit, int *negative, int *fits)
{
    size_t i = 0;
    unsigned long long magnitude = 0;
    while (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r'))
        i++;
    *negative = s[i] == '-';
    if (s[i] == '-' || s[i] == '+')
        i++;
    *fits = 1;
    for (; s[i] >= '0' && s[i] <= '9'; i++) {
        unsigned long long digit = s[i] - '0';
        if (magnitude > (limit - digit) / 10) {
            *fits = 0;
            return 0;
        }
        magnitude = magnitude * 10 + digit;
    }
    return magnitude;
}

int
atoi(const char *s)
{
    int negative, fits;
    unsigned long long magnitude = __tarsier_decimal(s, 2147483648ULL, &negative, &fits);
    if (!fits || (!negative && magnitude == 2147483648ULL))
        return __VERIFIER_nondet_tarsier_int();
    return negative ? (int)(0 - (long long)magnitude) : (int)magnitude;
}

long long
atoll(const char *s)
{
    int negative, fits;
    unsigned long long magnitude = __tarsier_decimal(s, 9223372036854775808ULL, &negative, &fits);
    if (!fits || (!negative && magnitude == 9223372036854775808ULL))
        return __VERIFIER_nondet_tarsier_longlong();
    if (negative)
        return magnitude == 9223372036854775808ULL ? -9223372036854775807LL - 1 : -(long long)magnitude;
    return (long long)magnitude;
}

long
atol(const char *s)
{
    long long value = atoll(s);
    long max = (long)(~0UL >> 1);
    if (value < -(long long)max - 1 || value > max)
        return __VERIFIER_nondet_tarsier_long();
    return (long)value;
}

int
rand(void)
{
    int value = __VERIFIER_nondet_tarsier_int();
    __VERIFIER_assume(value >= 0);
    return value;
}

void
srand(unsigned int seed)
{
}

/* glibc's random() draws from the same range as rand(), [0, RAND_MAX]. */
long
random(void)
{
    long value = __VERIFIER_nondet_tarsier_long();
    __VERIFIER_assume(value >= 0 && value <= 2147483647);
    return value;
}

void
srandom(unsigned int seed)
{
}

/* The 48-bit generator's draws, as unknown as rand()'s: lrand48 in
   [0, 2^31), mrand48 in [-2^31, 2^31), drand48 a multiple of 2^-48 in
   [0, 1) (the state's 48 bits over 2^48). */
long
lrand48(void)
{
    long value = __VERIFIER_nondet_tarsier_long();
    __VERIFIER_assume(value >= 0 && value <= 2147483647);
    return value;
}

long
mrand48(void)
{
    long value = __VERIFIER_nondet_tarsier_long();
    __VERIFIER_assume(value >= -2147483647 - 1 && value <= 2147483647);
    return value;
}

double
drand48(void)
{
    long long state = __VERIFIER_nondet_tarsier_longlong();
    __VERIFIER_assume(state >= 0 && state < 281474976710656LL);
    return (double)state / 281474976710656.0;
}

void
srand48(long seed)
{
}

void *malloc(size_t size);
void *__tarsier_aligned_malloc(size_t alignment, size_t size);

/* aligned_alloc as glibc 2.36 (the host's) implements it (_mid_memalign),
   which takes any alignment and size (C17 dropped the rule that the size be
   a multiple of the alignment): an alignment up to malloc's own (16) gives
   malloc's block, which glibc aligns to 16; a larger one is rounded up to a
   power of two (at least 32); one above SIZE_MAX / 2 + 1 is EINVAL. The
   block is malloc's (free releases it) at a multiple of the alignment. An
   allocation failure sets errno to ENOMEM, unless allocations cannot fail
   (--force-malloc-success), where the block is what the user asked for. */
void *
aligned_alloc(size_t alignment, size_t size)
{
    size_t rounded = 32;
    void *block;
    if (alignment > ~(size_t)0 / 2 + 1) {
        __tarsier_errno = 22; /* EINVAL */
        return 0;
    }
    if (alignment <= 16)
        rounded = 16;
    while (rounded < alignment)
        rounded <<= 1;
    block = __tarsier_aligned_malloc(rounded, size);
    if (block == 0)
        __tarsier_errno = 12; /* ENOMEM */
    return block;
}

/* glibc 2.36's memalign is aligned_alloc (both are _mid_memalign). */
void *
memalign(size_t alignment, size_t size)
{
    return aligned_alloc(alignment, size);
}

/* A block at a page boundary (4096 bytes on x86). */
void *
valloc(size_t size)
{
    return aligned_alloc(4096, size);
}

/* The alignment must be a power of two multiple of sizeof(void *), else
   EINVAL; a failed allocation gives ENOMEM. Either leaves *memptr as it
   was. */
int
posix_memalign(void **memptr, size_t alignment, size_t size)
{
    if (alignment == 0 || alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0)
        return 22; /* EINVAL */
    void *block = aligned_alloc(alignment, size);
    if (block == 0)
        return 12; /* ENOMEM */
    *memptr = block;
    return 0;
}

typedef struct {
    int quot;
    int rem;
} div_t;

typedef struct {
    long quot;
    long rem;
} ldiv_t;

typedef struct {
    long long quot;
    long long rem;
} lldiv_t;

/* Division truncates toward zero (C99), so numer == quot * denom + rem. */
div_t
div(int numer, int denom)
{
    div_t result = {numer / denom, numer % denom};
    return result;
}

ldiv_t
ldiv(long numer, long denom)
{
    ldiv_t result = {numer / denom, numer % denom};
    return result;
}

lldiv_t
lldiv(long long numer, long long denom)
{
    lldiv_t result = {numer / denom, numer % denom};
    return result;
}

/* inttypes.h: intmax_t is 64 bits wide in both data models (long on
   LP64, long long on ILP32, as the prelude says). */
intmax_t
imaxabs(intmax_t x)
{
    return x < 0 ? -x : x;
}

typedef struct {
    intmax_t quot;
    intmax_t rem;
} imaxdiv_t;

imaxdiv_t
imaxdiv(intmax_t numer, intmax_t denom)
{
    imaxdiv_t result = {numer / denom, numer % denom};
    return result;
}

/* The value of the digit character c in bases up to 36, else 36. */
int
__tarsier_digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 10;
    return 36;
}

/* The scan the strto* functions share: the magnitude of the number at the
   start of s (after white space, a sign and, in base 16 or 0, a "0x"
   prefix followed by a hex digit) in base 0 or 2..36. Stores the end of
   the digits, or s itself when there are none, in *end when end is not
   null; *negative tells the sign and *overflow whether the magnitude
   exceeds unsigned long long (the digits are consumed all the same). */
unsigned long long
__tarsier_scan_integer(const char *s, char **end, int base, int *negative, int *overflow)
{
    size_t i = 0;
    unsigned long long magnitude = 0;
    while (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r'))
        i++;
    *negative = s[i] == '-';
    if (s[i] == '-' || s[i] == '+')
        i++;
    if ((base == 0 || base == 16) && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')
        && __tarsier_digit_value(s[i + 2]) < 16) {
        base = 16;
        i += 2;
    } else if (base == 0) {
        base = s[i] == '0' ? 8 : 10;
    }
    size_t first = i;
    *overflow = 0;
    for (; __tarsier_digit_value(s[i]) < base; i++) {
        unsigned long long digit = __tarsier_digit_value(s[i]);
        if (magnitude > (~0ULL - digit) / base)
            *overflow = 1;
        else
            magnitude = magnitude * base + digit;
    }
    if (end != 0)
        *end = (char *)(i == first ? s : s + i);
    return magnitude;
}

/* strtol and strtoll for a result type whose largest value is max: out of
   range saturates with errno ERANGE, an invalid base gives 0 with errno
   EINVAL and leaves *end alone (as glibc does). */
long long
__tarsier_strto_signed(const char *s, char **end, int base, long long max)
{
    int negative, overflow;
    if (base < 0 || base == 1 || base > 36) {
        __tarsier_errno = 22; /* EINVAL */
        return 0;
    }
    unsigned long long magnitude = __tarsier_scan_integer(s, end, base, &negative, &overflow);
    if (overflow || magnitude > (unsigned long long)max + negative) {
        __tarsier_errno = 34; /* ERANGE */
        return negative ? -max - 1 : max;
    }
    if (!negative || magnitude == 0)
        return (long long)magnitude;
    return -(long long)(magnitude - 1) - 1;
}

/* strtoul and strtoull for a result type whose largest value is max: a
   minus sign negates in the result type, out of range saturates at max
   with errno ERANGE. */
unsigned long long
__tarsier_strto_unsigned(const char *s, char **end, int base, unsigned long long max)
{
    int negative, overflow;
    if (base < 0 || base == 1 || base > 36) {
        __tarsier_errno = 22; /* EINVAL */
        return 0;
    }
    unsigned long long magnitude = __tarsier_scan_integer(s, end, base, &negative, &overflow);
    if (overflow || magnitude > max) {
        __tarsier_errno = 34; /* ERANGE */
        return max;
    }
    if (!negative || magnitude == 0)
        return magnitude;
    return max - magnitude + 1;
}

long
strtol(const char *restrict s, char **restrict end, int base)
{
    return (long)__tarsier_strto_signed(s, end, base, (long)(~0UL >> 1));
}

long long
strtoll(const char *restrict s, char **restrict end, int base)
{
    return __tarsier_strto_signed(s, end, base, 9223372036854775807LL);
}

unsigned long
strtoul(const char *restrict s, char **restrict end, int base)
{
    return (unsigned long)__tarsier_strto_unsigned(s, end, base, ~0UL);
}

unsigned long long
strtoull(const char *restrict s, char **restrict end, int base)
{
    return __tarsier_strto_unsigned(s, end, base, ~0ULL);
}

intmax_t
strtoimax(const char *restrict s, char **restrict end, int base)
{
    return __tarsier_strto_signed(s, end, base, 9223372036854775807LL);
}

uintmax_t
strtoumax(const char *restrict s, char **restrict end, int base)
{
    return __tarsier_strto_unsigned(s, end, base, ~0ULL);
}

/* strtod, strtof, strtold and atof, exact on the fast path of decimal
   conversion: at most 19 significant digits (an exact integer mantissa)
   and a decimal exponent whose power of ten is exact in the result type,
   so the value is one correctly rounded multiplication or division in the
   current rounding mode, as glibc rounds. Other numbers (hexadecimal, inf,
   nan, longer mantissas, larger exponents) are left to functions without
   a body: their result is not modelled. */
double __tarsier_unmodelled_strtod(const char *s, char **end);
float __tarsier_unmodelled_strtof(const char *s, char **end);
long double __tarsier_unmodelled_strtold(const char *s, char **end);

/* Scans the decimal constant at s into its sign, its significant digits as
   an integer and its decimal exponent, and stores in *end where it stops.
   Returns 1 for such a constant, 2 when s holds no number (then *end is
   s), 0 for a number the fast path does not cover. */
int
__tarsier_scan_decimal(const char *s, char **end, int *negative, unsigned long long *mantissa, int *exponent)
{
    size_t i = 0;
    int digits = 0, fraction = 0, seen = 0, point = 0, written = 0;
    unsigned long long m = 0;
    while (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r'))
        i++;
    *negative = s[i] == '-';
    if (s[i] == '-' || s[i] == '+')
        i++;
    if (s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X'))
        return 0;
    for (;; i++) {
        if (s[i] == '.' && !point) {
            point = 1;
            continue;
        }
        if (s[i] < '0' || s[i] > '9')
            break;
        seen = 1;
        fraction += point;
        if (m == 0 && s[i] == '0')
            continue;
        if (digits == 19)
            return 0;
        m = m * 10 + (unsigned long long)(s[i] - '0');
        digits++;
    }
    if (!seen) {
        if (s[i] == 'i' || s[i] == 'I' || s[i] == 'n' || s[i] == 'N')
            return 0;
        if (end != 0)
            *end = (char *)s;
        return 2;
    }
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        int exponent_negative = s[j] == '-';
        if (s[j] == '-' || s[j] == '+')
            j++;
        if (s[j] >= '0' && s[j] <= '9') {
            for (; s[j] >= '0' && s[j] <= '9'; j++) {
                if (written > 9999)
                    return 0;
                written = written * 10 + (s[j] - '0');
            }
            if (exponent_negative)
                written = -written;
            i = j;
        }
    }
    if (end != 0)
        *end = (char *)(s + i);
    *mantissa = m;
    *exponent = written - fraction;
    return 1;
}

double
strtod(const char *restrict s, char **restrict end)
{
    int negative, exponent;
    unsigned long long mantissa;
    int scanned = __tarsier_scan_decimal(s, end, &negative, &mantissa, &exponent);
    if (scanned == 2)
        return 0.0;
    if (scanned == 0 || mantissa > (1ULL << 53) || exponent > 22 || exponent < -22)
        return __tarsier_unmodelled_strtod(s, end);
    double value = (double)mantissa, power = 1.0;
    for (int k = exponent < 0 ? -exponent : exponent; k > 0; k--)
        power *= 10.0;
    value = exponent < 0 ? value / power : value * power;
    return negative ? -value : value;
}

float
strtof(const char *restrict s, char **restrict end)
{
    int negative, exponent;
    unsigned long long mantissa;
    int scanned = __tarsier_scan_decimal(s, end, &negative, &mantissa, &exponent);
    if (scanned == 2)
        return 0.0f;
    if (scanned == 0 || mantissa > (1ULL << 24) || exponent > 10 || exponent < -10)
        return __tarsier_unmodelled_strtof(s, end);
    float value = (float)mantissa, power = 1.0f;
    for (int k = exponent < 0 ? -exponent : exponent; k > 0; k--)
        power *= 10.0f;
    value = exponent < 0 ? value / power : value * power;
    return negative ? -value : value;
}

long double
strtold(const char *restrict s, char **restrict end)
{
    int negative, exponent;
    unsigned long long mantissa;
    int scanned = __tarsier_scan_decimal(s, end, &negative, &mantissa, &exponent);
    if (scanned == 2)
        return 0.0L;
    if (scanned == 0 || exponent > 27 || exponent < -27)
        return __tarsier_unmodelled_strtold(s, end);
    long double value = (long double)mantissa, power = 1.0L;
    for (int k = exponent < 0 ? -exponent : exponent; k > 0; k--)
        power *= 10.0L;
    value = exponent < 0 ? value / power : value * power;
    return negative ? -value : value;
}

double
atof(const char *s)
{
    return strtod(s, 0);
}

/* A fresh string of the environment: nondeterministic contents and length
   (up to Linux's MAX_ARG_STRLEN less the NUL), NUL-terminated (built by
   symex and the interpreter). */
char *__tarsier_environment_string(void);

/* glibc finds no variable with an empty name; any other may be unset. A
   variable found gets a fresh string each time, which C allows ("may be
   overwritten by a subsequent call to the getenv function", 7.22.4.6). */
char *
getenv(const char *name)
{
    if (name[0] == 0 || __VERIFIER_nondet_tarsier_int())
        return 0;
    return __tarsier_environment_string();
}

/* The next value of glibc's rand_r sequence is some value in range; the
   state it leaves in *seed is arbitrary. */
int
rand_r(unsigned int *seed)
{
    *seed = (unsigned int)__VERIFIER_nondet_tarsier_int();
    return rand();
}

/* atexit: the standard guarantees 32 handlers; glibc takes more, which the
   model does not hold. The handlers run where the program ends normally:
   the front end makes calls of exit call __tarsier_exit and returns of the
   entry function call __tarsier_run_atexit_handlers first (see
   cfront::exit_handlers). */
void exit(int status);
/* The handler is an argument so that a verdict resting on the call is not
   trusted either way. */
int __tarsier_unmodelled_atexit_beyond_32(void (*handler)(void));

void (*__tarsier_atexit_handlers[32])(void);
int __tarsier_atexit_count;
/* Set once a handler has been registered: ESBMC's leak check at exit
   applies only then (see symex::HeapAtExit). */
int __tarsier_atexit_registered;

int
atexit(void (*handler)(void))
{
    if (__tarsier_atexit_count == 32)
        return __tarsier_unmodelled_atexit_beyond_32(handler);
    __tarsier_atexit_handlers[__tarsier_atexit_count] = handler;
    __tarsier_atexit_count++;
    __tarsier_atexit_registered = 1;
    return 0;
}

/* The program's destructors, as one function the front end hands over
   before any constructor runs (cfront's sema::startup): registered first,
   it runs after every handler registered later, as glibc's _dl_fini does.
   It is not the program's own atexit call, so ESBMC's leak check at exit
   stays as it was. */
void
__tarsier_register_destructors(void (*run)(void))
{
    __tarsier_atexit_handlers[__tarsier_atexit_count] = run;
    __tarsier_atexit_count++;
}

/* Runs the handlers, the latest registered first; each is unregistered
   before it runs, so a handler that calls exit does not run again. */
void
__tarsier_run_atexit_handlers(void)
{
    while (__tarsier_atexit_count > 0) {
        __tarsier_atexit_count--;
        __tarsier_atexit_handlers[__tarsier_atexit_count]();
    }
}

void
__tarsier_exit(int status)
{
    __tarsier_run_atexit_handlers();
    exit(status);
}

/* CBMC's __CPROVER_havoc_slice(p, size): the `size` bytes from `p` take
   arbitrary values. Each byte is written, so the checks of a write (the
   bytes must lie in a live, writable object) apply as CBMC's W_OK check. */
void
__CPROVER_havoc_slice(void *p, size_t size)
{
    unsigned char *bytes = p;
    for (size_t i = 0; i < size; i++)
        bytes[i] = __VERIFIER_nondet_tarsier_uchar();
}
