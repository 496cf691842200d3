/* Every commonly used C library header at once: the parser must accept all
   of glibc's and GCC's declarations in both data models. */
#include <aio.h>
#include <alloca.h>
#include <arpa/inet.h>
#include <assert.h>
#include <byteswap.h>
#include <complex.h>
#include <ctype.h>
#include <dirent.h>
#include <endian.h>
#include <err.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <fenv.h>
#include <float.h>
#include <fnmatch.h>
#include <ftw.h>
#include <getopt.h>
#include <glob.h>
#include <grp.h>
#include <iconv.h>
#include <inttypes.h>
#include <iso646.h>
#include <langinfo.h>
#include <libgen.h>
#include <limits.h>
#include <locale.h>
#include <malloc.h>
#include <math.h>
#include <monetary.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <regex.h>
#include <sched.h>
#include <search.h>
#include <semaphore.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
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
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <syslog.h>
#include <termios.h>
#include <tgmath.h>
#include <threads.h>
#include <time.h>
#include <uchar.h>
#include <ucontext.h>
#include <unistd.h>
#include <utime.h>
#include <wchar.h>
#include <wctype.h>

/* A few uses of the type-generic and atomic macros, which expand to the
   GNU builtins the parser must know. */
int header_uses(double d, float f, _Atomic int *counter) {
    double r = sqrt(d) + fabs(f) + creal(d * I);
    atomic_fetch_add(counter, 1);
    atomic_init(counter, 0);
    return (int)r + (int)offsetof(struct tm, tm_year) + isnan(d) + signbit(f);
}
