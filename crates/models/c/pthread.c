/* pthread.h and threads.h. Threads are started by pthread_create, which
   hands the start function to symex (__tarsier_thread_create): symex puts
   every interleaving of the threads' steps in one formula (see
   symex::threads) and the interpreter replays the schedule of a
   counterexample. A mutex is held by one thread at a time; locking one
   another thread holds blocks the caller (its path ends if it never gets
   it, while the other threads run on). Each function that inspects and
   changes a mutex does so in one atomic step.

   The functions on glibc's opaque types (anonymous unions the models
   cannot name) are defined as __tarsier_opaque_NAME over a view of the
   object; the front end redirects calls of NAME to them (see
   cfront::library_models). A mutex attribute is viewed as its int, a
   once_flag as its int, and a mutex (pthread_mutex_t, mtx_t) as struct __tarsier_mutex,
   which fits in the first bytes of glibc's types; glibc's static
   initializers are all zero, which is an unlocked default mutex here too.
   Locking a non-recursive mutex the thread already holds blocks it
   forever: the path ends (a deadlock, which --deadlock-check reports).
   A thread waits through __tarsier_thread_wait, which the deadlock check
   tells from an assumption. Error numbers are glibc's. */

void exit(int status);
void __VERIFIER_assume(int condition);
int __VERIFIER_nondet_tarsier_int(void);
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
unsigned long __tarsier_thread_create(void (*run)(void *(*)(void *), void *), void *(*start)(void *), void *arg);
void *__tarsier_thread_join(unsigned long thread);
void __tarsier_thread_exit(void *value);
unsigned long __tarsier_thread_self(void);
void __tarsier_thread_wait(int condition);
void pthread_exit(void *value);

struct __tarsier_mutex {
    /* How many times its owner holds it. */
    int depth;
    /* PTHREAD_MUTEX_NORMAL 0, RECURSIVE 1, ERRORCHECK 2 (DEFAULT is NORMAL). */
    int kind;
    /* The thread that holds it (meaningful while depth > 0). */
    unsigned long owner;
    /* glibc's __nusers: successful first locks less unlocks (a NORMAL
       mutex's unlock counts even when it is not held); destroying a mutex
       while it is not zero fails with EBUSY. */
    int users;
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

/* Every function on a mutex changes or inspects it in one atomic step: a
   mutex is a synchronisation object, whose operations never race. */
int
__tarsier_opaque_pthread_mutex_init(struct __tarsier_mutex *mutex, const int *attr)
{
    int kind = attr ? *attr : 0;
    __VERIFIER_atomic_begin();
    mutex->depth = 0;
    mutex->kind = kind;
    mutex->users = 0;
    __VERIFIER_atomic_end();
    return 0;
}

int
__tarsier_opaque_pthread_mutex_destroy(struct __tarsier_mutex *mutex)
{
    int result;
    __VERIFIER_atomic_begin();
    result = mutex->users != 0 ? 16 /* EBUSY */ : 0; /* glibc: the users, not the lock */
    __VERIFIER_atomic_end();
    return result;
}

/* Each returns from its single end, so that its atomic section is one. */
int
__tarsier_opaque_pthread_mutex_trylock(struct __tarsier_mutex *mutex)
{
    unsigned long self = __tarsier_thread_self();
    int result = 0;
    __VERIFIER_atomic_begin();
    if (mutex->depth == 0) {
        mutex->depth = 1;
        mutex->owner = self;
        mutex->users++;
    } else if (mutex->kind == 1 && mutex->owner == self)
        mutex->depth++;
    else
        result = 16; /* EBUSY */
    __VERIFIER_atomic_end();
    return result;
}

int
__tarsier_opaque_pthread_mutex_lock(struct __tarsier_mutex *mutex)
{
    unsigned long self = __tarsier_thread_self();
    int result = 0;
    __VERIFIER_atomic_begin();
    if (mutex->depth > 0 && mutex->owner == self && mutex->kind == 2)
        result = 35; /* EDEADLK */
    else if (mutex->depth > 0 && mutex->owner == self && mutex->kind == 1)
        mutex->depth++;
    else {
        /* Held by another thread (or, for a NORMAL mutex, by this one):
           the thread waits, for ever on the paths where it never gets it. */
        __tarsier_thread_wait(mutex->depth == 0);
        mutex->depth = 1;
        mutex->owner = self;
        mutex->users++;
    }
    __VERIFIER_atomic_end();
    return result;
}

int
__tarsier_opaque_pthread_mutex_unlock(struct __tarsier_mutex *mutex)
{
    unsigned long self = __tarsier_thread_self();
    int result = 0;
    __VERIFIER_atomic_begin();
    if (mutex->kind == 0) {
        /* glibc releases a NORMAL mutex whoever unlocks it, held or not
           (POSIX leaves it undefined); its count of users drops anyway. */
        mutex->depth = 0;
        mutex->users--;
    } else if (mutex->depth == 0 || mutex->owner != self)
        result = 1; /* EPERM */
    else if (--mutex->depth == 0)
        mutex->users--;
    __VERIFIER_atomic_end();
    return result;
}

/* A spin lock (glibc's volatile int: 0 free, 1 held). A thread spinning on
   one another thread holds waits as on a mutex; it is not recursive, so
   locking it again spins for ever. */
int
pthread_spin_init(volatile int *lock, int shared)
{
    __VERIFIER_atomic_begin();
    *lock = 0;
    __VERIFIER_atomic_end();
    return 0;
}

int
pthread_spin_destroy(volatile int *lock)
{
    return 0;
}

int
pthread_spin_lock(volatile int *lock)
{
    __VERIFIER_atomic_begin();
    __tarsier_thread_wait(*lock == 0);
    *lock = 1;
    __VERIFIER_atomic_end();
    return 0;
}

int
pthread_spin_trylock(volatile int *lock)
{
    int result = 0;
    __VERIFIER_atomic_begin();
    if (*lock)
        result = 16; /* EBUSY */
    else
        *lock = 1;
    __VERIFIER_atomic_end();
    return result;
}

int
pthread_spin_unlock(volatile int *lock)
{
    __VERIFIER_atomic_begin();
    *lock = 0;
    __VERIFIER_atomic_end();
    return 0;
}

/* A condition variable (pthread_cond_t, glibc's static initializer is
   zero) keeps the set of threads blocked on it and the set a signal has
   woken, one bit per thread id. A waiter joins the blocked set and unlocks
   the mutex in one atomic step, then goes on once a signal picked it, or
   spuriously (POSIX allows it, so a proof holds for every wake-up), and
   locks the mutex again. A signal wakes one blocked thread, any of them;
   a broadcast wakes them all; with none blocked it is lost. A waiter no
   signal picks may wait for ever, which the deadlock check sees: waking
   every waiter on each signal would hide that deadlock. A timed wait is
   blocked the same way, then returns 0 when picked, and may time out (or
   wake spuriously) otherwise, so a signal it does not take still wakes
   another. Thread ids past the sets' 64 bits are not modelled. */
struct __tarsier_cond {
    unsigned long long blocked;
    unsigned long long woken;
};

/* Marks the run approximate (a body-less call given a pointer). */
void __tarsier_unmodelled_condition_waiter(const void *cond);
unsigned long long __VERIFIER_nondet_tarsier_ulonglong(void);

int
__tarsier_opaque_pthread_cond_init(struct __tarsier_cond *cond, const int *attr)
{
    __VERIFIER_atomic_begin();
    cond->blocked = 0;
    cond->woken = 0;
    __VERIFIER_atomic_end();
    return 0;
}

int
__tarsier_opaque_pthread_cond_destroy(struct __tarsier_cond *cond)
{
    return 0;
}

int
__tarsier_opaque_pthread_cond_signal(struct __tarsier_cond *cond)
{
    unsigned long long pick = __VERIFIER_nondet_tarsier_ulonglong();
    __VERIFIER_atomic_begin();
    if (cond->blocked) {
        /* One bit of the blocked set. */
        __VERIFIER_assume((pick & cond->blocked) != 0 && (pick & (pick - 1)) == 0);
        cond->blocked &= ~pick;
        cond->woken |= pick;
    }
    __VERIFIER_atomic_end();
    return 0;
}

int
__tarsier_opaque_pthread_cond_broadcast(struct __tarsier_cond *cond)
{
    __VERIFIER_atomic_begin();
    cond->woken |= cond->blocked;
    cond->blocked = 0;
    __VERIFIER_atomic_end();
    return 0;
}

/* Blocks the calling thread on the condition and unlocks the mutex, in
   one step; gives the thread's bit. */
static unsigned long long
__tarsier_cond_block(struct __tarsier_cond *cond, struct __tarsier_mutex *mutex)
{
    unsigned long self = __tarsier_thread_self();
    if (self >= 64)
        __tarsier_unmodelled_condition_waiter(cond);
    /* Past the sets, only a spurious wake-up (or a timeout) goes on. */
    unsigned long long me = self < 64 ? 1ULL << self : 0;
    __VERIFIER_atomic_begin();
    cond->blocked |= me;
    __tarsier_opaque_pthread_mutex_unlock(mutex);
    __VERIFIER_atomic_end();
    return me;
}

/* Whether a signal picked the thread of bit `me`; it leaves both sets. */
static int
__tarsier_cond_leave(struct __tarsier_cond *cond, unsigned long long me)
{
    int picked = (cond->woken & me) != 0;
    cond->woken &= ~me;
    cond->blocked &= ~me;
    return picked;
}

int
__tarsier_opaque_pthread_cond_wait(struct __tarsier_cond *cond, struct __tarsier_mutex *mutex)
{
    int spurious = __VERIFIER_nondet_tarsier_int() != 0;
    unsigned long long me = __tarsier_cond_block(cond, mutex);
    __VERIFIER_atomic_begin();
    /* One expression, so that the wait reads the sets in its own step. */
    __tarsier_thread_wait((cond->woken & me) != 0 | spurious);
    __tarsier_cond_leave(cond, me);
    __VERIFIER_atomic_end();
    return __tarsier_opaque_pthread_mutex_lock(mutex);
}

int
__tarsier_opaque_pthread_cond_timedwait(struct __tarsier_cond *cond, struct __tarsier_mutex *mutex, const void *abstime)
{
    int timed_out = __VERIFIER_nondet_tarsier_int() != 0;
    unsigned long long me = __tarsier_cond_block(cond, mutex);
    __VERIFIER_atomic_begin();
    int picked = __tarsier_cond_leave(cond, me);
    __VERIFIER_atomic_end();
    __tarsier_opaque_pthread_mutex_lock(mutex);
    return !picked && timed_out ? 110 /* ETIMEDOUT */ : 0;
}

/* What a started thread runs: its start function, then its end with the
   value that function returned. */
static void
__tarsier_thread_run(void *(*start)(void *), void *arg)
{
    pthread_exit(start(arg));
}

int
__tarsier_opaque_pthread_create(unsigned long *thread, const int *attr, void *(*start)(void *), void *arg)
{
    /* The id is stored before the new thread runs, as glibc does. */
    __VERIFIER_atomic_begin();
    *thread = __tarsier_thread_create(__tarsier_thread_run, start, arg);
    __VERIFIER_atomic_end();
    return 0;
}

/* A thread's end runs its thread-specific data's destructors (see
   there). The main thread (id 1) leaving ends the process once no other
   thread runs: as exit(0) here, atexit handlers included (the other
   threads are not stopped by it in symex; the replay ends with it). */
static void __tarsier_key_destructors(void);

void
pthread_exit(void *value)
{
    __tarsier_key_destructors();
    if (__tarsier_thread_self() == 1)
        exit(0);
    __tarsier_thread_exit(value);
}

/* The state of each thread id for pthread_detach (see there). */
unsigned char __tarsier_detached[256];

/* Joining a thread that is not joinable is undefined (POSIX), glibc
   reports the calling thread itself. */
int
pthread_join(unsigned long thread, void **value)
{
    if (thread == __tarsier_thread_self())
        return 35; /* EDEADLK */
    void *result = __tarsier_thread_join(thread);
    if (thread < 256)
        __tarsier_detached[thread] = 2;
    if (value)
        *value = result;
    return 0;
}

/* A detached thread runs on; nothing waits for it. Detaching it again is
   EINVAL, detaching a joined one ESRCH (glibc); ids past the table's get
   any of the answers. 1: detached, 2: joined. */

int
pthread_detach(unsigned long thread)
{
    int result = 0;
    if (thread >= 256) {
        result = __VERIFIER_nondet_tarsier_int();
        __VERIFIER_assume(result == 0 || result == 22 || result == 3);
        return result;
    }
    __VERIFIER_atomic_begin();
    if (__tarsier_detached[thread] == 2)
        result = 3; /* ESRCH */
    else if (__tarsier_detached[thread])
        result = 22; /* EINVAL */
    else
        __tarsier_detached[thread] = 1;
    __VERIFIER_atomic_end();
    return result;
}

unsigned long
pthread_self(void)
{
    return __tarsier_thread_self();
}

int
pthread_equal(unsigned long a, unsigned long b)
{
    return a == b;
}

/* The first caller runs init (*once: 0 never, 1 running, 2 done); the
   others wait until it has returned. The flag changes atomically, so
   callers neither race on it nor both run init. */
int
pthread_once(int *once, void (*init)(void))
{
    int first = 0;
    __VERIFIER_atomic_begin();
    if (*once == 0) {
        *once = 1;
        first = 1;
    }
    __VERIFIER_atomic_end();
    if (first) {
        init();
        __VERIFIER_atomic_begin();
        *once = 2;
        __VERIFIER_atomic_end();
    } else {
        __VERIFIER_atomic_begin();
        __tarsier_thread_wait(*once == 2);
        __VERIFIER_atomic_end();
    }
    return 0;
}

/* Thread-specific data, as glibc's: a key's number is the lowest unused
   one (a deleted key's is used again), its sequence number is odd while
   it is in use, and each thread has its own values (thread-local tables)
   with the sequence number of the key they were set for, so that a value
   set for a deleted key is null for the key that reuses its number. When
   a thread ends (pthread_exit, or its start function returning) the
   destructors run on its non-null values, in up to
   PTHREAD_DESTRUCTOR_ITERATIONS (4) rounds while destructors set values
   again, as glibc's __nptl_deallocate_tsd. The first 4 of glibc's 1024
   keys are modelled (each one more costs the end of every thread that set
   a value); a key past them is a marker's, on whose paths no verdict
   rests. */
unsigned int __tarsier_key_seq[4];
void (*__tarsier_key_destructor[4])(void *);
_Thread_local void *__tarsier_key_values[4];
_Thread_local unsigned int __tarsier_key_value_seq[4];
/* glibc's specific_used: the thread set a non-null value. */
_Thread_local int __tarsier_key_set_here;
void __tarsier_unmodelled_key(const void *key);

int
pthread_key_create(unsigned int *key, void (*destructor)(void *))
{
    unsigned int k;
    __VERIFIER_atomic_begin();
    for (k = 0; k < 4 && (__tarsier_key_seq[k] & 1); k++)
        ;
    if (k < 4) {
        __tarsier_key_seq[k]++;
        __tarsier_key_destructor[k] = destructor;
    }
    __VERIFIER_atomic_end();
    if (k == 4)
        __tarsier_unmodelled_key(key);
    *key = k;
    return 0;
}

int
pthread_key_delete(unsigned int key)
{
    int result = 22; /* EINVAL */
    if (key >= 4) {
        if (key < 1024)
            __tarsier_unmodelled_key(&key);
        return result;
    }
    __VERIFIER_atomic_begin();
    if (__tarsier_key_seq[key] & 1) {
        __tarsier_key_seq[key]++;
        result = 0;
    }
    __VERIFIER_atomic_end();
    return result;
}

void *
pthread_getspecific(unsigned int key)
{
    if (key >= 4) {
        if (key < 1024)
            __tarsier_unmodelled_key(&key);
        return 0;
    }
    if (__tarsier_key_values[key] && __tarsier_key_value_seq[key] != __tarsier_key_seq[key])
        __tarsier_key_values[key] = 0;
    return __tarsier_key_values[key];
}

int
pthread_setspecific(unsigned int key, const void *value)
{
    unsigned int seq;
    if (key >= 4) {
        if (key < 1024)
            __tarsier_unmodelled_key(&key);
        return 22; /* EINVAL */
    }
    seq = __tarsier_key_seq[key];
    if (!(seq & 1))
        return 22; /* EINVAL */
    if (value)
        __tarsier_key_set_here = 1;
    __tarsier_key_value_seq[key] = seq;
    __tarsier_key_values[key] = (void *)value;
    return 0;
}

/* The running thread's destructors, at its end. */
static void
__tarsier_key_destructors(void)
{
    unsigned int round, k;
    for (round = 0; round < 4 && __tarsier_key_set_here; round++) {
        __tarsier_key_set_here = 0;
        for (k = 0; k < 4; k++) {
            void *data = __tarsier_key_values[k];
            if (data) {
                void (*destructor)(void *) = __tarsier_key_destructor[k];
                __tarsier_key_values[k] = 0;
                if (__tarsier_key_value_seq[k] == __tarsier_key_seq[k] && destructor)
                    destructor(data);
            }
        }
    }
}

/* threads.h (C11) over the same state: thrd_success 0, thrd_busy 1,
   thrd_error 2; mtx_plain 0, mtx_recursive 1, mtx_timed 2. */

int
__tarsier_opaque_mtx_init(struct __tarsier_mutex *mutex, int type)
{
    __VERIFIER_atomic_begin();
    mutex->depth = 0;
    mutex->kind = type & 1;
    __VERIFIER_atomic_end();
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

/* A C11 thread runs an int function, over a POSIX thread as in glibc.
   The int it ends with is kept by thread id (glibc's pointer value would
   be an integer converted to a pointer and back, which the models do not
   follow exactly); past the table, a join gives the marker's value
   (any int, and no FALSE rests on it). */
int __tarsier_thrd_results[16];
int __tarsier_unmodelled_thread_result(void);

static void
__tarsier_thrd_end(int result)
{
    unsigned long self = __tarsier_thread_self();
    if (self < 16)
        __tarsier_thrd_results[self] = result;
    pthread_exit(0);
}

static void
__tarsier_thrd_run(void *(*start)(void *), void *arg)
{
    int (*function)(void *) = (int (*)(void *))start;
    __tarsier_thrd_end(function(arg));
}

int
thrd_create(unsigned long *thread, int (*function)(void *), void *arg)
{
    /* The id is stored before the new thread runs, as glibc does. */
    __VERIFIER_atomic_begin();
    *thread = __tarsier_thread_create(__tarsier_thrd_run, (void *(*)(void *))function, arg);
    __VERIFIER_atomic_end();
    return 0; /* thrd_success */
}

int
thrd_join(unsigned long thread, int *result)
{
    if (pthread_join(thread, 0))
        return 2; /* thrd_error */
    if (result)
        *result = thread < 16 ? __tarsier_thrd_results[thread] : __tarsier_unmodelled_thread_result();
    return 0;
}

void
thrd_exit(int result)
{
    __tarsier_thrd_end(result);
}

int
thrd_detach(unsigned long thread)
{
    return pthread_detach(thread) ? 2 : 0;
}

void
thrd_yield(void)
{
}

/* glibc's pthread_cleanup_push and pthread_cleanup_pop (in C, without
   exceptions): __sigsetjmp saves where the unwinding of pthread_exit or
   of a cancellation comes back to run the handler, which
   __pthread_register_cancel registers and __pthread_unregister_cancel
   removes. Cancellation is not modelled, and symex refuses a thread that
   ends while a handler is registered (ir::intrinsics::cleanup_regions),
   so nothing jumps back: __sigsetjmp gives its first return, 0. That is
   also sigsetjmp's: a siglongjmp is an unmodelled call, on whose paths no
   verdict rests. */
int
__tarsier_opaque___sigsetjmp(void *env, int savemask)
{
    return 0;
}

void
__tarsier_opaque___pthread_register_cancel(void *buffer)
{
}

void
__tarsier_opaque___pthread_unregister_cancel(void *buffer)
{
}

/* A barrier (glibc's opaque pthread_barrier_t) counts the threads that
   arrived in its current round; the one that completes the count starts
   the next round and gets PTHREAD_BARRIER_SERIAL_THREAD (-1), the others
   wait for that round to end and get 0. A thread no round end reaches
   waits for ever, which the deadlock check sees. */
struct __tarsier_barrier {
    unsigned int count;
    unsigned int arrived;
    unsigned int round;
};

int
__tarsier_opaque_pthread_barrier_init(struct __tarsier_barrier *barrier, const int *attr, unsigned int count)
{
    if (count == 0 || count >= 0x7fffffffu) /* glibc's BARRIER_IN_THRESHOLD */
        return 22; /* EINVAL */
    __VERIFIER_atomic_begin();
    barrier->count = count;
    barrier->arrived = 0;
    barrier->round = 0;
    __VERIFIER_atomic_end();
    return 0;
}

int
__tarsier_opaque_pthread_barrier_destroy(struct __tarsier_barrier *barrier)
{
    return 0;
}

int
__tarsier_opaque_pthread_barrier_wait(struct __tarsier_barrier *barrier)
{
    unsigned int round;
    int last = 0;
    __VERIFIER_atomic_begin();
    round = barrier->round;
    barrier->arrived++;
    if (barrier->arrived == barrier->count) {
        barrier->arrived = 0;
        barrier->round++;
        last = 1;
    }
    __VERIFIER_atomic_end();
    if (last)
        return -1; /* PTHREAD_BARRIER_SERIAL_THREAD */
    __tarsier_thread_wait(barrier->round != round);
    return 0;
}

/* An unnamed semaphore (glibc's opaque sem_t) is its value, changed in
   one atomic step; sem_wait waits until it is positive (for ever on the
   paths where no post comes, which the deadlock check sees). Errors set
   errno and return -1, as glibc's. A semaphore sem_init did not set up,
   or that sem_destroy ended, is undefined to use (POSIX): an assertion,
   as CBMC's and ESBMC's models have it (glibc would take zero bytes as a
   semaphore of value 0). */
struct __tarsier_semaphore {
    unsigned int value;
    unsigned int initialised;
};
enum { __TARSIER_SEMAPHORE_READY = 0x53454d31 };

static void
__tarsier_semaphore_ready(struct __tarsier_semaphore *semaphore)
{
    __ESBMC_assert(semaphore->initialised == __TARSIER_SEMAPHORE_READY,
                   "semaphore used before sem_init or after sem_destroy");
}
extern int __tarsier_errno;

static int
__tarsier_semaphore_error(int error)
{
    __tarsier_errno = error;
    return -1;
}

int
__tarsier_opaque_sem_init(struct __tarsier_semaphore *semaphore, int shared, unsigned int value)
{
    if (value > 0x7fffffffu) /* SEM_VALUE_MAX */
        return __tarsier_semaphore_error(22); /* EINVAL */
    __VERIFIER_atomic_begin();
    semaphore->value = value;
    semaphore->initialised = __TARSIER_SEMAPHORE_READY;
    __VERIFIER_atomic_end();
    return 0;
}

int
__tarsier_opaque_sem_destroy(struct __tarsier_semaphore *semaphore)
{
    __VERIFIER_atomic_begin();
    __tarsier_semaphore_ready(semaphore);
    semaphore->initialised = 0;
    __VERIFIER_atomic_end();
    return 0;
}

int
__tarsier_opaque_sem_wait(struct __tarsier_semaphore *semaphore)
{
    __VERIFIER_atomic_begin();
    __tarsier_semaphore_ready(semaphore);
    __tarsier_thread_wait(semaphore->value > 0);
    semaphore->value--;
    __VERIFIER_atomic_end();
    return 0;
}

int
__tarsier_opaque_sem_trywait(struct __tarsier_semaphore *semaphore)
{
    int taken = 0;
    __VERIFIER_atomic_begin();
    __tarsier_semaphore_ready(semaphore);
    if (semaphore->value > 0) {
        semaphore->value--;
        taken = 1;
    }
    __VERIFIER_atomic_end();
    return taken ? 0 : __tarsier_semaphore_error(11); /* EAGAIN */
}

int
__tarsier_opaque_sem_post(struct __tarsier_semaphore *semaphore)
{
    int overflow = 0;
    __VERIFIER_atomic_begin();
    __tarsier_semaphore_ready(semaphore);
    if (semaphore->value == 0x7fffffffu)
        overflow = 1;
    else
        semaphore->value++;
    __VERIFIER_atomic_end();
    return overflow ? __tarsier_semaphore_error(75) : 0; /* EOVERFLOW */
}

int
__tarsier_opaque_sem_getvalue(struct __tarsier_semaphore *semaphore, int *value)
{
    __VERIFIER_atomic_begin();
    __tarsier_semaphore_ready(semaphore);
    *value = semaphore->value;
    __VERIFIER_atomic_end();
    return 0;
}
