/* The random-input driver of `cargo xtask mutant-oracle`'s native attack.
 * Linked with the program, it forks one child per seed before main runs
 * (HARNESS_FIRST, HARNESS_RUNS); each child's nondeterministic values come
 * from a generator seeded by its number, biased towards 0, 1, -1, MIN and
 * MAX, and its stderr goes to HARNESS_ERR. The first child whose stderr
 * reports an assertion failure, a sanitizer error or a value the driver
 * cannot give ends the loop: its seed is printed on stdout
 * ("harness-event-seed: N") and its stderr copied to the driver's. */
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned long long harness_state;

static unsigned long long harness_next(void)
{
    unsigned long long z = (harness_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void harness_undecidable(const char *what, int detail)
{
    fprintf(stderr, "harness: undecidable: %s %d\n", what, detail);
    fflush(stderr);
    _exit(88);
}

static unsigned long long harness_integer(unsigned long size, int is_signed)
{
    unsigned bits = size >= 8 ? 64 : (unsigned)size * 8;
    unsigned long long mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
    unsigned long long min = is_signed ? 1ULL << (bits - 1) : 0;
    unsigned long long max = is_signed ? min - 1 : mask;
    unsigned long long v;
    switch (harness_next() % 10) {
    case 0: v = 0; break;
    case 1: v = 1; break;
    case 2: v = mask; break;
    case 3: v = min; break;
    case 4: v = max; break;
    case 5: v = min + 1; break;
    case 6: v = max - 1; break;
    case 7: v = (unsigned long long)((long long)(harness_next() % 17) - 8); break;
    default: v = harness_next(); break;
    }
    return v & mask;
}

static long double harness_real(void)
{
    static const double special[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e308, -1e308, DBL_MIN, HUGE_VAL, -HUGE_VAL};
    unsigned long long pick = harness_next() % 16;
    if (pick < sizeof special / sizeof special[0])
        return special[pick];
    if (pick == 15)
        return NAN;
    return ((long double)(harness_next() % 200001) - 100000) / 100;
}

/* Fills OBJECT (SIZE bytes, of gcc's type class TYPE_CLASS) with a random value. */
void harness_fill(void *object, unsigned long size, int type_class, int is_signed)
{
    memset(object, 0, size);
    if (type_class == 1 || type_class == 2 || type_class == 3) {
        unsigned long long v = harness_integer(size, is_signed);
        memcpy(object, &v, size < sizeof v ? size : sizeof v);
        if (size > sizeof v && is_signed && (long long)v < 0)
            memset((char *)object + sizeof v, 0xff, size - sizeof v);
    } else if (type_class == 4) {
        *(unsigned char *)object = harness_next() & 1;
    } else if (type_class == 8) {
        long double v = harness_real();
        if (size == sizeof(float)) {
            float f = (float)v;
            memcpy(object, &f, sizeof f);
        } else if (size == sizeof(double)) {
            double d = (double)v;
            memcpy(object, &d, sizeof d);
        } else {
            memcpy(object, &v, size < sizeof v ? size : sizeof v);
        }
    } else {
        harness_undecidable("a nondeterministic value of gcc type class", type_class);
    }
}

void harness_assume(int condition)
{
    if (!condition) {
        fflush(stdout);
        _exit(0);
    }
}

void harness_assert(int condition)
{
    if (!condition) {
        fputs("harness: assertion failed\n", stderr);
        abort();
    }
}

void harness_error(void)
{
    fputs("harness: assertion failed (error function reached)\n", stderr);
    abort();
}

/* Whether the child's stderr (the file ERR) reports an event; copied to stderr if so. */
static int harness_reported(const char *err)
{
    static char text[1 << 16];
    FILE *f = fopen(err, "r");
    if (!f)
        return 0;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    int event = strstr(text, "ERROR: AddressSanitizer") || strstr(text, "runtime error:") ||
                (strstr(text, "Assertion `") && strstr(text, "failed")) || strstr(text, "harness: assertion failed") ||
                strstr(text, "harness: undecidable:");
    if (event)
        fputs(text, stderr);
    return event;
}

__attribute__((constructor(101))) static void harness_fork_runs(void)
{
    const char *err = getenv("HARNESS_ERR");
    if (!err)
        return;
    long first = atol(getenv("HARNESS_FIRST") ? getenv("HARNESS_FIRST") : "0");
    long runs = atol(getenv("HARNESS_RUNS") ? getenv("HARNESS_RUNS") : "1");
    for (long i = first; i < first + runs; i++) {
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid < 0) {
            perror("harness: fork");
            _exit(99);
        }
        if (pid == 0) {
            int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            int null = open("/dev/null", O_WRONLY);
            dup2(fd, 2);
            dup2(null, 1);
            close(fd);
            close(null);
            harness_state = 0x2545f4914f6cdd1dULL * (unsigned long long)(i + 1);
            alarm(1);
            return;
        }
        int status;
        waitpid(pid, &status, 0);
        if (harness_reported(err)) {
            printf("harness-event-seed: %ld\n", i);
            fflush(stdout);
            _exit(90);
        }
    }
    printf("harness-runs: %ld\n", runs);
    fflush(stdout);
    _exit(0);
}
