/* unistd.h, sys/socket.h and arpa/inet.h: sleeping, file descriptors,
   and the byte order and text of internet addresses.

   A descriptor stands for an object of the environment (a file, device,
   pipe or socket) whose behaviour the program cannot see: every call may
   give any result its contract allows, data read is arbitrary, and a call
   may fail with errno set. What the program itself did is remembered per
   descriptor below the default limit of 1024: which descriptors it opened
   (and as what, with which access) and which it closed, so using a closed
   descriptor fails with EBADF, a socket call on a file with ENOTSOCK, a
   seek on a pipe or socket with ESPIPE, exactly as the kernel answers. The
   descriptors the program inherits (0, 1, 2 and any other) start in an
   unknown state. The states of 8 descriptors are remembered (a short list
   keeps the formulas small); a path that opens or closes more is not
   modelled exactly. */

unsigned int __VERIFIER_nondet_tarsier_uint(void);
int __VERIFIER_nondet_tarsier_int(void);
long __VERIFIER_nondet_tarsier_long(void);
unsigned char __VERIFIER_nondet_tarsier_uchar(void);
void __VERIFIER_assume(int condition);
long __tarsier_unmodelled_descriptor_call(void);

extern int __tarsier_errno;

/* The seconds left when interrupted, else 0. */
unsigned int
sleep(unsigned int seconds)
{
    unsigned int left = __VERIFIER_nondet_tarsier_uint();
    __VERIFIER_assume(left <= seconds);
    return left;
}

/* 0, or -1 when interrupted. */
int
usleep(unsigned int microseconds)
{
    int result = __VERIFIER_nondet_tarsier_int();
    __VERIFIER_assume(result == 0 || result == -1);
    return result;
}

/* What the program made of a descriptor: bits of what it may do with it
   when it is open (the zero state is "not known"). */
enum {
    __TARSIER_FD_READ = 1,
    __TARSIER_FD_WRITE = 2,
    __TARSIER_FD_SEEK = 4,
    __TARSIER_FD_SOCKET = 8,
    __TARSIER_FD_CLOSED = 16
};

enum { __TARSIER_EBADF = 9, __TARSIER_EINVAL = 22, __TARSIER_ESPIPE = 29, __TARSIER_ENOTSOCK = 88 };

/* The descriptors the program opened or closed and their states. */
enum { __TARSIER_FD_REMEMBERED = 8 };
int __tarsier_descriptor_numbers[__TARSIER_FD_REMEMBERED];
unsigned char __tarsier_descriptor_states[__TARSIER_FD_REMEMBERED];
int __tarsier_descriptor_count;

/* The entry of `fd`, or -1. */
static int
__tarsier_entry(int fd)
{
    int found = -1;
    for (int i = 0; i < __TARSIER_FD_REMEMBERED; i++)
        if (i < __tarsier_descriptor_count && __tarsier_descriptor_numbers[i] == fd)
            found = i;
    return found;
}

/* The state of `fd`: 0 when the program did nothing with it. */
static unsigned char
__tarsier_state(int fd)
{
    int entry = __tarsier_entry(fd);
    return entry < 0 ? 0 : __tarsier_descriptor_states[entry];
}

/* Remembers `state` for `fd`; when no entry is left, the path goes on
   without the model's knowledge of it. */
static void
__tarsier_remember(int fd, unsigned char state)
{
    int entry = __tarsier_entry(fd);
    if (entry < 0) {
        if (__tarsier_descriptor_count == __TARSIER_FD_REMEMBERED) {
            __tarsier_unmodelled_descriptor_call();
            return;
        }
        entry = __tarsier_descriptor_count;
        __tarsier_descriptor_count++;
        __tarsier_descriptor_numbers[entry] = fd;
    }
    __tarsier_descriptor_states[entry] = state;
}

/* Fails a call with `error`: -1. */
static long
__tarsier_fail(int error)
{
    __tarsier_errno = error;
    return -1;
}

/* Fails a call with an errno the environment chooses. */
static long
__tarsier_environment_failure(void)
{
    int error = __VERIFIER_nondet_tarsier_int();
    __VERIFIER_assume(error > 0);
    return __tarsier_fail(error);
}

/* A descriptor newly opened as `state`, or -1: the lowest free one is not
   known, since the inherited ones are not. */
static int
__tarsier_open_descriptor(unsigned char state)
{
    int fd = __VERIFIER_nondet_tarsier_int();
    if (fd < 0)
        return (int)__tarsier_environment_failure();
    unsigned char old = __tarsier_state(fd);
    __VERIFIER_assume(old == 0 || old == __TARSIER_FD_CLOSED);
    __tarsier_remember(fd, state);
    return fd;
}

/* The state of `fd` for a call that needs `needs` (0 for nothing); the
   call fails when the state says it must: -1, else 0. */
static long
__tarsier_check_descriptor(int fd, unsigned char needs)
{
    if (fd < 0)
        return __tarsier_fail(__TARSIER_EBADF);
    unsigned char state = __tarsier_state(fd);
    if (state == 0)
        return 0;
    if (state == __TARSIER_FD_CLOSED)
        return __tarsier_fail(__TARSIER_EBADF);
    if ((needs & __TARSIER_FD_SOCKET) && !(state & __TARSIER_FD_SOCKET))
        return __tarsier_fail(__TARSIER_ENOTSOCK);
    if ((needs & __TARSIER_FD_SEEK) && !(state & __TARSIER_FD_SEEK))
        return __tarsier_fail(__TARSIER_ESPIPE);
    if ((needs & (__TARSIER_FD_READ | __TARSIER_FD_WRITE)) & ~state)
        return __tarsier_fail(__TARSIER_EBADF);
    return 0;
}

/* A transfer of at most `length` bytes: -1 with errno, or the count. */
static long
__tarsier_transfer_count(size_t length)
{
    long count = __VERIFIER_nondet_tarsier_long();
    if (count < 0)
        return __tarsier_environment_failure();
    __VERIFIER_assume((unsigned long)count <= length);
    return count;
}

/* Stores `count` arbitrary bytes at `buffer` (`count` <= `length`). */
static void
__tarsier_receive(void *buffer, size_t length, long count)
{
    unsigned char *bytes = buffer;
    for (size_t i = 0; i < length && i < (size_t)count; i++)
        bytes[i] = __VERIFIER_nondet_tarsier_uchar();
}

/* Where the models put a byte read only to check an argument. */
char __tarsier_path_probe;

/* The kernel reads the path: a null or invalid pointer is undefined
   behaviour for the program (C 7.1.4; Linux answers EFAULT), checked as a
   read of its first byte. The rest of the name is not read: a loop over a
   string of unknown length would cost every call, and the kernel stops at
   PATH_MAX anyway. */
static void
__tarsier_read_path(const char *path)
{
    __tarsier_path_probe = path[0];
}

/* The access mode 3 (O_RDONLY | O_WRONLY | O_RDWR's bits) is Linux's
   "neither": the descriptor opens (read and write permission are checked)
   but reading and writing through it fail with EBADF. */
int
open(const char *path, int flags, ...)
{
    int access = flags & 3;
    __tarsier_read_path(path);
    unsigned char state = __TARSIER_FD_SEEK;
    if (access == 0 || access == 2)
        state |= __TARSIER_FD_READ;
    if (access == 1 || access == 2)
        state |= __TARSIER_FD_WRITE;
    return __tarsier_open_descriptor(state);
}

int
creat(const char *path, unsigned int mode)
{
    __tarsier_read_path(path);
    return __tarsier_open_descriptor(__TARSIER_FD_WRITE | __TARSIER_FD_SEEK);
}

int
socket(int domain, int type, int protocol)
{
    return __tarsier_open_descriptor(__TARSIER_FD_SOCKET | __TARSIER_FD_READ | __TARSIER_FD_WRITE);
}

/* Both ends, or -1 with `fds` unchanged. */
int
pipe(int fds[2])
{
    int read_end = __tarsier_open_descriptor(__TARSIER_FD_READ);
    if (read_end < 0)
        return -1;
    int write_end = __tarsier_open_descriptor(__TARSIER_FD_WRITE);
    if (write_end < 0) {
        __tarsier_remember(read_end, __TARSIER_FD_CLOSED);
        return -1;
    }
    fds[0] = read_end;
    fds[1] = write_end;
    return 0;
}

/* Linux releases the descriptor even when close reports an error. */
int
close(int fd)
{
    if (__tarsier_check_descriptor(fd, 0) < 0)
        return -1;
    __tarsier_remember(fd, __TARSIER_FD_CLOSED);
    return __VERIFIER_nondet_tarsier_int() ? (int)__tarsier_environment_failure() : 0;
}

long
read(int fd, void *buffer, size_t length)
{
    if (__tarsier_check_descriptor(fd, __TARSIER_FD_READ) < 0)
        return -1;
    long count = __tarsier_transfer_count(length);
    __tarsier_receive(buffer, length, count);
    return count;
}

long
write(int fd, const void *buffer, size_t length)
{
    if (__tarsier_check_descriptor(fd, __TARSIER_FD_WRITE) < 0)
        return -1;
    return __tarsier_transfer_count(length);
}

long
recv(int fd, void *buffer, size_t length, int flags)
{
    if (__tarsier_check_descriptor(fd, __TARSIER_FD_SOCKET | __TARSIER_FD_READ) < 0)
        return -1;
    long count = __tarsier_transfer_count(length);
    __tarsier_receive(buffer, length, count);
    return count;
}

long
send(int fd, const void *buffer, size_t length, int flags)
{
    if (__tarsier_check_descriptor(fd, __TARSIER_FD_SOCKET | __TARSIER_FD_WRITE) < 0)
        return -1;
    return __tarsier_transfer_count(length);
}

/* The new offset, which the object behind the descriptor decides (a
   regular file refuses a negative one, a device may not), or -1. */
long
lseek(int fd, long offset, int whence)
{
    if (__tarsier_check_descriptor(fd, __TARSIER_FD_SEEK) < 0)
        return -1;
    if (whence < 0 || whence > 4)
        return __tarsier_fail(__TARSIER_EINVAL);
    long position = __VERIFIER_nondet_tarsier_long();
    if (position < 0)
        return __tarsier_environment_failure();
    return position;
}
