/* pthread.h and threads.h for programs that never create a thread: the
   calling thread is the only one, so each function has its sequential
   meaning. (A program that creates a thread is unsupported: symex stops
   at pthread_create/thrd_create, which have no model.)

   The functions on glibc's opaque types (anonymous unions the models
   cannot name) are defined as __tarsier_opaque_NAME over a view of the
   object; the front end redirects calls of NAME to them (see
   cfront::library_models). A mutex attribute is viewed as its int, a
   once_flag as its int, and a mutex (pthread_mutex_t, mtx_t) as struct __tarsier_mutex,
   which fits in the first bytes of glibc's types; glibc's static
   initializers are all zero, which is an unlocked default mutex here too.
   Locking a non-recursive mutex the thread already holds blocks it
   forever: the path ends (a deadlock, which is not a violation of the
   properties checked; deadlock checks are refused). Error numbers are
   glibc's. */

void exit(int status);
void __VERIFIER_assume(int condition);

struct __tarsier_mutex {
    /* How many times the only thread holds it. */
    int depth;
    /* PTHREAD_MUTEX_NORMAL 0, RECURSIVE 1, ERRORCHECK 2 (DEFAULT is NORMAL). */
    int kind;
};

int
__tarsier_opaque_pthread_mutexattr_init(int *attr)
{
    *attr = 0;
    return 0;
}

int
__tarsier_opaque_pthread_mutexattr_destroy(int *attr)
{
    return 0;
}

int
__tarsier_opaque_pthread_mutexattr_settype(int *attr, int kind)
{
    if (kind < 0 || kind > 3)
        return 22; /* EINVAL */
    *attr = kind == 3 ? 0 : kind; /* PTHREAD_MUTEX_ADAPTIVE_NP behaves as NORMAL */
    return 0;
}

int
__tarsier_opaque_pthread_mutexattr_gettype(const int *attr, int *kind)
{
    *kind = *attr;
    return 0;
}

int
__tarsier_opaque_pthread_mutex_init(struct __tarsier_mutex *mutex, const int *attr)
{
    mutex->depth = 0;
    mutex->kind = attr ? *attr : 0;
    return 0;
}

int
__tarsier_opaque_pthread_mutex_destroy(struct __tarsier_mutex *mutex)
{
    return mutex->depth > 0 ? 16 /* EBUSY */ : 0;
}

int
__tarsier_opaque_pthread_mutex_trylock(struct __tarsier_mutex *mutex)
{
    if (mutex->depth > 0 && mutex->kind != 1)
        return 16; /* EBUSY */
    mutex->depth++;
    return 0;
}

int
__tarsier_opaque_pthread_mutex_lock(struct __tarsier_mutex *mutex)
{
    if (mutex->depth > 0 && mutex->kind == 2)
        return 35; /* EDEADLK */
    /* No other thread can release it: the thread waits forever. */
    __VERIFIER_assume(mutex->depth == 0 || mutex->kind == 1);
    mutex->depth++;
    return 0;
}

int
__tarsier_opaque_pthread_mutex_unlock(struct __tarsier_mutex *mutex)
{
    if (mutex->depth == 0)
        return mutex->kind == 0 ? 0 : 1; /* EPERM; glibc ignores it for NORMAL */
    mutex->depth--;
    return 0;
}

/* The main thread leaving ends the process once no other thread runs,
   which is at once here: as exit(0), atexit handlers included. */
void
pthread_exit(void *value)
{
    exit(0);
}

/* No thread was created, so there is none to join or detach. */
int
pthread_join(unsigned long thread, void **value)
{
    return 3; /* ESRCH */
}

int
pthread_detach(unsigned long thread)
{
    return 3; /* ESRCH */
}

unsigned long
pthread_self(void)
{
    return 1;
}

int
pthread_equal(unsigned long a, unsigned long b)
{
    return a == b;
}

int
pthread_once(int *once, void (*init)(void))
{
    if (*once == 0) {
        *once = 1;
        init();
    }
    return 0;
}

/* Thread-specific data: glibc's key numbers and its PTHREAD_KEYS_MAX. */
void *__tarsier_key_values[1024];
int __tarsier_key_used[1024];
unsigned int __tarsier_keys_created;

int
pthread_key_create(unsigned int *key, void (*destructor)(void *))
{
    if (__tarsier_keys_created >= 1024)
        return 11; /* EAGAIN */
    *key = __tarsier_keys_created;
    __tarsier_key_used[__tarsier_keys_created] = 1;
    __tarsier_key_values[__tarsier_keys_created] = 0;
    __tarsier_keys_created++;
    return 0;
}

int
pthread_key_delete(unsigned int key)
{
    if (key >= 1024 || !__tarsier_key_used[key])
        return 22; /* EINVAL */
    __tarsier_key_used[key] = 0;
    return 0;
}

void *
pthread_getspecific(unsigned int key)
{
    if (key >= 1024 || !__tarsier_key_used[key])
        return 0;
    return __tarsier_key_values[key];
}

int
pthread_setspecific(unsigned int key, const void *value)
{
    if (key >= 1024 || !__tarsier_key_used[key])
        return 22; /* EINVAL */
    __tarsier_key_values[key] = (void *)value;
    return 0;
}

/* threads.h (C11) over the same state: thrd_success 0, thrd_busy 1,
   thrd_error 2; mtx_plain 0, mtx_recursive 1, mtx_timed 2. */

int
__tarsier_opaque_mtx_init(struct __tarsier_mutex *mutex, int type)
{
    mutex->depth = 0;
    mutex->kind = type & 1;
    return 0;
}

void
__tarsier_opaque_mtx_destroy(struct __tarsier_mutex *mutex)
{
}

int
__tarsier_opaque_mtx_lock(struct __tarsier_mutex *mutex)
{
    return __tarsier_opaque_pthread_mutex_lock(mutex) ? 2 : 0;
}

int
__tarsier_opaque_mtx_trylock(struct __tarsier_mutex *mutex)
{
    return __tarsier_opaque_pthread_mutex_trylock(mutex) ? 1 : 0;
}

int
__tarsier_opaque_mtx_unlock(struct __tarsier_mutex *mutex)
{
    return __tarsier_opaque_pthread_mutex_unlock(mutex) ? 2 : 0;
}

void
__tarsier_opaque_call_once(int *flag, void (*init)(void))
{
    pthread_once(flag, init);
}

int
tss_create(unsigned int *key, void (*destructor)(void *))
{
    return pthread_key_create(key, destructor) ? 2 : 0;
}

void
tss_delete(unsigned int key)
{
    pthread_key_delete(key);
}

void *
tss_get(unsigned int key)
{
    return pthread_getspecific(key);
}

int
tss_set(unsigned int key, void *value)
{
    return pthread_setspecific(key, value) ? 2 : 0;
}

unsigned long
thrd_current(void)
{
    return pthread_self();
}

int
thrd_equal(unsigned long a, unsigned long b)
{
    return a == b;
}
