/* Every commonly used standard and POSIX header of glibc, plus a little code
 * that uses them, so the front end meets the headers' real declarations,
 * macros, inline functions and GNU extensions. The code sticks to plain
 * constructs: it tests the headers, not the front end's coverage of C. */
#define _GNU_SOURCE 1
#include <assert.h>
#include <complex.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fenv.h>
#include <float.h>
#include <inttypes.h>
#include <iso646.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>
#include <pthread.h>
#include <regex.h>
#include <sched.h>
#include <semaphore.h>
#include <setjmp.h>
#include <signal.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <tgmath.h>
#include <threads.h>
#include <time.h>
#include <uchar.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

static void *worker(void *arg) {
    atomic_int *counter = arg;
    atomic_fetch_add(counter, 1);
    return NULL;
}

int main(void) {
    char buffer[64];
    snprintf(buffer, sizeof buffer, "%d %" PRId64, 42, (int64_t)INT64_MAX);
    assert(strlen(buffer) > 0 && isdigit((unsigned char)buffer[0]));
    double root = sqrt(2.0) + fabs(-1.5f) + DBL_EPSILON;
    static atomic_int counter;
    pthread_t thread;
    if (pthread_create(&thread, NULL, worker, &counter) == 0)
        pthread_join(thread, NULL);
    struct stat info;
    uint32_t network = htonl(0x7f000001u);
    jmp_buf jump;
    if (setjmp(jump) != 0)
        return 1;
    wchar_t wide[8];
    mbstowcs(wide, "abc", 8);
    return (root > 0 && stat(".", &info) == 0 && network != 0 && iswalpha(wide[0])) ? EXIT_SUCCESS : errno;
}
