/* dirent.h: directory streams of the environment.

   opendir reads the name's first byte (glibc fails an empty name with
   ENOENT before any system call), then the environment may refuse the
   directory (NULL with errno set); else the stream is a block from
   malloc, as glibc allocates it, which closedir frees. readdir gives the
   end of the directory (NULL, errno kept or, for an error, set) or an
   entry in the stream's own storage (the next readdir overwrites it)
   whose name is 1 to 255 bytes long, NUL-terminated, and whose d_type is
   one glibc defines; every other byte is arbitrary. Which entries a
   directory holds is not remembered, and a name may hold a '/', which no
   directory gives: a superset of the kernel's answers, so a violation on
   a path through a returned entry is not trusted (a marker without a
   pointer argument); TRUE holds for every directory. */

void *malloc(size_t size);
void free(void *p);
int __VERIFIER_nondet_tarsier_int(void);
void __VERIFIER_assume(int condition);
void __ESBMC_init_object(void *object);
void __tarsier_unmodelled_directory_entry(void);

extern int __tarsier_errno;

/* Where the models put a byte read only to check the stream. */
int __tarsier_directory_probe;

/* glibc's layouts: `unsigned long` and `long` are the 32-bit ino_t and
   off_t on ILP32, the 64-bit ones on LP64; dirent64 has 64 bits in both. */
struct dirent {
    unsigned long d_ino;
    long d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[256];
};

struct dirent64 {
    unsigned long long d_ino;
    long long d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[256];
};

struct __dirstream {
    int descriptor; /* read first, as glibc reads the stream */
    struct dirent entry;
    struct dirent64 entry64;
};

/* A failure of the environment: errno set to some error. */
static void
__tarsier_directory_failure(void)
{
    int error = __VERIFIER_nondet_tarsier_int();
    __VERIFIER_assume(error > 0);
    __tarsier_errno = error;
}

struct __dirstream *
opendir(const char *name)
{
    struct __dirstream *dir;
    if (name[0] == 0) {
        __tarsier_errno = 2; /* ENOENT */
        return 0;
    }
    if (__VERIFIER_nondet_tarsier_int()) {
        __tarsier_directory_failure();
        return 0;
    }
    dir = malloc(sizeof(struct __dirstream));
    if (dir == 0) {
        __tarsier_errno = 12; /* ENOMEM */
        return 0;
    }
    dir->descriptor = 0;
    return dir;
}

/* Whether the next entry exists, after glibc's read of the stream (NULL
   or a closed stream faults): else the end of the directory or an error.
   The stream's bytes are then arbitrary, as a fresh entry leaves them. */
static int
__tarsier_next_entry(struct __dirstream *dir)
{
    __tarsier_directory_probe = dir->descriptor;
    if (__VERIFIER_nondet_tarsier_int()) {
        if (__VERIFIER_nondet_tarsier_int())
            __tarsier_directory_failure();
        return 0;
    }
    __ESBMC_init_object(dir);
    __tarsier_unmodelled_directory_entry();
    return 1;
}

/* A name of 1 to 255 bytes: its first byte is no NUL, and one of the
   bytes up to index 255 is. */
static void
__tarsier_entry_name(char *name)
{
    int end = __VERIFIER_nondet_tarsier_int();
    __VERIFIER_assume(end >= 1 && end <= 255);
    __VERIFIER_assume(name[0] != 0 && name[end] == 0);
}

/* DT_UNKNOWN, DT_FIFO, DT_CHR, DT_DIR, DT_BLK, DT_REG, DT_LNK, DT_SOCK, DT_WHT. */
static int
__tarsier_entry_type(unsigned char type)
{
    return type == 0 || type == 1 || type == 2 || type == 4 || type == 6 || type == 8 || type == 10 || type == 12
        || type == 14;
}

struct dirent *
readdir(struct __dirstream *dir)
{
    if (!__tarsier_next_entry(dir))
        return 0;
    __tarsier_entry_name(dir->entry.d_name);
    __VERIFIER_assume(__tarsier_entry_type(dir->entry.d_type));
    return &dir->entry;
}

struct dirent64 *
readdir64(struct __dirstream *dir)
{
    if (!__tarsier_next_entry(dir))
        return 0;
    __tarsier_entry_name(dir->entry64.d_name);
    __VERIFIER_assume(__tarsier_entry_type(dir->entry64.d_type));
    return &dir->entry64;
}

/* The stream is freed whatever closing its descriptor gives. */
int
closedir(struct __dirstream *dir)
{
    __tarsier_directory_probe = dir->descriptor;
    free(dir);
    if (__VERIFIER_nondet_tarsier_int()) {
        __tarsier_directory_failure();
        return -1;
    }
    return 0;
}

/* The entries start again; as they are not remembered, only the stream
   is read. */
void
rewinddir(struct __dirstream *dir)
{
    __tarsier_directory_probe = dir->descriptor;
}
