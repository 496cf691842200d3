/* stdlib.h: integer helpers and the pseudo-random generator. The numeric
   conversions follow the C locale; a value the result type cannot hold is
   undefined behaviour by the standard, so the model returns an arbitrary
   value then. Sums are bounded before they are formed, so the model never
   wraps (the overflow checks also watch model code). */

int __VERIFIER_nondet_int(void);
long __VERIFIER_nondet_long(void);
long long __VERIFIER_nondet_longlong(void);
void __VERIFIER_assume(int condition);

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
        return __VERIFIER_nondet_int();
    return negative ? (int)(0 - (long long)magnitude) : (int)magnitude;
}

long long
atoll(const char *s)
{
    int negative, fits;
    unsigned long long magnitude = __tarsier_decimal(s, 9223372036854775808ULL, &negative, &fits);
    if (!fits || (!negative && magnitude == 9223372036854775808ULL))
        return __VERIFIER_nondet_longlong();
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
        return __VERIFIER_nondet_long();
    return (long)value;
}

int
rand(void)
{
    int value = __VERIFIER_nondet_int();
    __VERIFIER_assume(value >= 0);
    return value;
}

void
srand(unsigned int seed)
{
}
