//! Threads: programs that start them with `pthread_create` are verified
//! over every interleaving (TRUE/FALSE twins: a race a lock hides,
//! Peterson's protocol right and wrong, a schedule that alternates the
//! threads at every step, a violation under one rare
//! interleaving, threads started in loops and on branches, bounded like
//! loops, values threads end with, data races a lock, an atomic section or
//! a join prevents, deadlocks of lock order and of joins, condition
//! variables with lost and spurious wake-ups (a signal wakes one waiter,
//! a broadcast all; timed waits), C11 threads and their results, cleanup handlers, thread-local variables, thread-specific
//! data and its destructors, barriers, semaphores, the main thread's
//! pthread_exit, an integer returned as a pointer and converted back after the join, loops past the bound in
//! any thread); a FALSE is replayed on its schedule. CBMC's `__CPROVER_ASYNC_n:` labels start threads (never the
//! thread's code run in line as a call); ESBMC's `__ESBMC_spawn_thread` is
//! still unsupported where it is reached, while a violation before it is
//! still reported.

mod common;

use common::table::{assert_twins, check_programs, Check, Program, FAILS, HOLDS, UNKNOWN};

/// A spawned thread's effect cannot be checked natively: gcc reads the
/// label as an ordinary one and runs the call in line.
/// glibc takes any bytes as a semaphore (zero ones as one of value 0), so
/// a native run shows no fault where POSIX leaves the use undefined.
const GLIBC_ZERO_SEMAPHORE: &str = "glibc runs it without a fault";
const SEQUENTIAL_NATIVELY: &str = "gcc runs the spawned statement in line";

/// A native run follows one schedule of the host's choosing.
const ONE_SCHEDULE: &str = "a native run sees only the schedule the host picks";

/// `nondet_int` has no definition gcc could link.
const NONDET: &str = "nondet_int is an input";

/// Natively the threads never stop starting threads.
const UNBOUNDED: &str = "natively threads start threads without end";

const PROGRAMS: &[Program] = &[
    Program {
        what: "a lock makes two threads' read-modify-write of a counter exclusive",
        test: "threads-lock-counter",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int x;
            pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
            void *inc(void *arg) {
            #ifdef LOCKED
              pthread_mutex_lock(&m);
            #endif
              int t = x;
              x = t + 1;
            #ifdef LOCKED
              pthread_mutex_unlock(&m);
            #endif
              return 0;
            }
            int main(void) {
              pthread_t a, b;
              pthread_create(&a, 0, inc, 0);
              pthread_create(&b, 0, inc, 0);
              pthread_join(a, 0);
              pthread_join(b, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(x == 2);", &["-DLOCKED", "-lpthread"]).not_native(ONE_SCHEDULE),
            Check::verdict("assert(x == 2);", &[], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(x == 1 || x == 2);", &[], HOLDS, ONE_SCHEDULE),
            Check::verdict("assert(x != 0);", &[], HOLDS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "an atomic function makes the increment indivisible",
        test: "threads-atomic-function",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int x;
            void __VERIFIER_atomic_inc(void) { int t = x; x = t + 1; }
            void *inc(void *arg) {
              __VERIFIER_atomic_inc();
              return 0;
            }
            int main(void) {
              pthread_t a, b;
              pthread_create(&a, 0, inc, 0);
              pthread_create(&b, 0, inc, 0);
              pthread_join(a, 0);
              pthread_join(b, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("assert(x == 2);", &[], HOLDS, ONE_SCHEDULE),
            Check::verdict("assert(x == 3);", &[], FAILS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "a schedule that alternates the two threads at every step orders nearly every clocked step in one chain",
        test: "threads-strict-alternation",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int x;
            void *writer(void *arg) {
              x = 1; x = 2; x = 3; x = 4; x = 5; x = 6; x = 7; x = 8;
              return 0;
            }
            int main(void) {
              pthread_t id;
              pthread_create(&id, 0, writer, 0);
              int a = x, b = x, c = x, d = x, e = x, f = x, g = x, h = x;
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict(
                "assert(!(a == 1 && b == 2 && c == 3 && d == 4 && e == 5 && f == 6 && g == 7 && h == 8));",
                &[],
                FAILS,
                ONE_SCHEDULE,
            ),
            Check::verdict("assert(a <= b && b <= c && c <= d && d <= e && e <= f && f <= g && g <= h);", &[], HOLDS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "Peterson's protocol keeps the critical sections apart only when a thread raises its flag before it gives the turn away",
        test: "threads-peterson",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            void __VERIFIER_assume(int);
            int flag0, flag1, turn, inside;
            void *first(void *arg) {
            #ifdef WRONG
              turn = 1; flag0 = 1;
            #else
              flag0 = 1; turn = 1;
            #endif
              __VERIFIER_assume(flag1 == 0 || turn == 0);
              inside = 1;
              assert(inside == 1);
              inside = 0;
              flag0 = 0;
              return 0;
            }
            void *second(void *arg) {
              flag1 = 1; turn = 0;
              __VERIFIER_assume(flag0 == 0 || turn == 1);
              inside = 2;
              assert(inside == 2);
              inside = 0;
              flag1 = 0;
              return 0;
            }
            int main(void) {
              pthread_t a, b;
              pthread_create(&a, 0, first, 0);
              pthread_create(&b, 0, second, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("", &[], HOLDS, ONE_SCHEDULE),
            Check::verdict("", &["-DWRONG"], FAILS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "a value seen only between two writes of another thread",
        test: "threads-rare-interleaving",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int x;
            void *writer(void *arg) {
              for (int i = 1; i <= 6; i++)
                x = i;
              x = 0;
              return 0;
            }
            int main(void) {
              pthread_t t;
              pthread_create(&t, 0, writer, 0);
              int a = x;
              int b = x;
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("assert(!(a == 2 && b == 5));", &[], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(!(a == 5 && b == 2));", &[], HOLDS, ONE_SCHEDULE),
            Check::verdict("assert(!(a == 6 && b == 7));", &[], HOLDS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "threads started in nested loops with continue and break, joined in another loop, bounded like the loops",
        test: "threads-loop",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int count;
            pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
            void *inc(void *arg) {
            #ifndef RACY
              pthread_mutex_lock(&m);
            #endif
              count++;
            #ifndef RACY
              pthread_mutex_unlock(&m);
            #endif
              return 0;
            }
            int main(void) {
              pthread_t t[4];
              int n = 0;
              for (int i = 0; i < 3; i++) {
                if (i == 1)
                  continue;
                for (int j = 0; j < 2; j++) {
                  if (j == 1)
                    break;
                  pthread_create(&t[n++], 0, inc, 0);
                }
              }
              for (int k = 0; k < n; k++)
                pthread_join(t[k], 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(count == 2);", &["-lpthread"]),
            Check::fails("assert(count == 3);", &["-lpthread"]),
            Check::verdict("assert(count == 2);", &["-DRACY"], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(count == 2);", &["--unwind", "3"], FAILS, "the outer loop needs 4 unwindings"),
        ],
    },
    Program {
        what: "a loop before or around thread starts: its exit is still seen (a merge after a step that wrote without reading made every path impossible)",
        test: "threads-loop-exit",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int nondet_int(void);
            void *work(void *arg) { return 0; }
            int main(void) {
              pthread_t id;
              int n = 0;
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("while (nondet_int()) pthread_create(&id, 0, work, 0); assert(0);", &["--unwind", "1"], FAILS, NONDET),
            Check::verdict("while (nondet_int()) pthread_create(&id, 0, work, 0); assert(0);", &["--unwind", "2"], FAILS, NONDET),
            Check::verdict("while (nondet_int()) n++; pthread_create(&id, 0, work, 0); assert(n == 0);", &["--unwind", "2"], FAILS, NONDET),
            Check::verdict("for (int i = 0; i < 2 && nondet_int(); i++) { pthread_create(&id, 0, work, 0); n++; } assert(n <= 2);", &[], HOLDS, NONDET),
            Check::verdict("for (int i = 0; i < 2 && nondet_int(); i++) { pthread_create(&id, 0, work, 0); n++; } assert(n != 2);", &[], FAILS, NONDET),
            Check::verdict("while (nondet_int()) pthread_create(&id, 0, work, 0);", &["--unwind", "3"], FAILS, NONDET),
        ],
    },
    Program {
        what: "a loop or a recursion past the bound fails its unwinding assertion in any thread, also after the thread's last step others see (the replay runs the violation's thread on where the schedule ends); a bound large enough holds",
        test: "threads-unwinding-assertion",
        text: r#"
            #include <pthread.h>
            int shared;
            int depth(int n) { return n <= 0 ? 0 : 1 + depth(n - 1); }
            void *work(void *arg) {
              int local = 0;
              shared = 1;
            #if defined(SHARED)
              for (int i = 0; i < 3; i++)
                shared++;
            #elif defined(RECURSION)
              local = depth(3);
            #else
              for (int i = 0; i < 3; i++)
                local++;
            #endif
              return (void *)(long)local;
            }
            int main(void) {
              pthread_t id;
              pthread_create(&id, 0, work, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("pthread_join(id, 0);", &["--unwind", "4", "-lpthread"]),
            Check::verdict("pthread_join(id, 0);", &["--unwind", "3"], FAILS, BOUND_ONLY),
            Check::holds("pthread_join(id, 0);", &["-DSHARED", "--unwind", "4", "-lpthread"]),
            Check::verdict("pthread_join(id, 0);", &["-DSHARED", "--unwind", "3"], FAILS, BOUND_ONLY),
            Check::holds("pthread_join(id, 0);", &["-DRECURSION", "--unwind", "4", "-lpthread"]),
            Check::verdict("pthread_join(id, 0);", &["-DRECURSION", "--unwind", "3"], FAILS, BOUND_ONLY),
            Check::verdict("pthread_join(id, 0);", &["-DRECURSION", "--unwind", "2"], FAILS, BOUND_ONLY),
            Check::holds("for (int i = 0; i < 3; i++) shared--; pthread_join(id, 0);", &["--unwind", "4", "-lpthread"]),
            Check::verdict("for (int i = 0; i < 3; i++) shared--; pthread_join(id, 0);", &["--unwind", "3"], FAILS, BOUND_ONLY),
            Check::holds("pthread_join(id, 0); for (int i = 0; i < 3; i++) shared--;", &["--unwind", "4", "-lpthread"]),
            Check::verdict("pthread_join(id, 0); for (int i = 0; i < 3; i++) shared--;", &["--unwind", "3"], FAILS, BOUND_ONLY),
        ],
    },
    Program {
        what: "a thread started on one branch only",
        test: "threads-branch",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int nondet_int(void);
            int x;
            void *set(void *arg) { x = 1; return 0; }
            int main(void) {
              pthread_t id;
              int c = nondet_int();
              if (c)
                pthread_create(&id, 0, set, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("if (!c) assert(x == 0);", &[], HOLDS, NONDET),
            Check::verdict("assert(x == 0);", &[], FAILS, NONDET),
            Check::verdict("if (c) { pthread_join(id, 0); assert(x == 1); }", &[], HOLDS, NONDET),
            Check::verdict("if (c) assert(x == 1);", &[], FAILS, NONDET),
        ],
    },
    Program {
        what: "a jump over the declaration of a thread's id: the paths merge after a step that wrote without reading",
        test: "threads-jump-merge",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int nondet_int(void);
            void *work(void *arg) { return 0; }
            int main(void) {
              pthread_t a;
              pthread_create(&a, 0, work, 0);
              int c = nondet_int();
              if (c)
                goto started;
              pthread_t b;
            started:
              pthread_create(&b, 0, work, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("assert(c);", &[], FAILS, NONDET),
            Check::verdict("assert(b == 3);", &[], HOLDS, "thread ids are tarsier's"),
        ],
    },
    Program {
        what: "a thread that starts a thread like itself is bounded like recursion",
        test: "threads-spawn-chain",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int count;
            void *spawn(void *arg) {
              pthread_t id;
              count++;
              pthread_create(&id, 0, spawn, 0);
              return 0;
            }
            int main(void) {
              pthread_t id;
              pthread_create(&id, 0, spawn, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("assert(count <= 3);", &["--unwind", "2", "--no-unwinding-assertions"], HOLDS, UNBOUNDED),
            Check::verdict("assert(count <= 2);", &["--unwind", "2", "--no-unwinding-assertions"], FAILS, UNBOUNDED),
            Check::verdict("assert(count <= 3);", &["--unwind", "2"], UNKNOWN, UNBOUNDED),
            Check::verdict("assert(count <= 2);", &["--unwind", "4"], FAILS, UNBOUNDED),
        ],
    },
    Program {
        what: "detaching a thread twice is EINVAL the second time",
        test: "threads-detach",
        text: r#"
            #include <assert.h>
            #include <errno.h>
            #include <pthread.h>
            void *work(void *arg) { return 0; }
            int main(void) {
              pthread_t t;
              pthread_create(&t, 0, work, 0);
              assert(pthread_detach(t) == 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("assert(pthread_detach(t) == EINVAL);", &[], HOLDS, "the thread may be gone natively"),
            Check::verdict("assert(pthread_detach(t) == 0);", &[], FAILS, "the thread may be gone natively"),
        ],
    },
    Program {
        what: "pthread_join gives the value the thread ended with",
        test: "threads-join-value",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int results[2];
            void *work(void *arg) {
              int *slot = arg;
              *slot = slot == &results[0] ? 10 : 20;
              if (slot == &results[1])
                pthread_exit(slot);
              return slot;
            }
            int main(void) {
              pthread_t a, b;
              int *ra, *rb;
              pthread_create(&a, 0, work, &results[0]);
              pthread_create(&b, 0, work, &results[1]);
              pthread_join(a, (void **)&ra);
              pthread_join(b, (void **)&rb);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(*ra == 10 && *rb == 20);", &["-lpthread"]),
            Check::fails("assert(*ra == 10 && *rb == 10);", &["-lpthread"]),
        ],
    },
    Program {
        what: "CBMC's thread-spawn labels start a thread: the creator may go on before it runs",
        test: "threads-cprover-async",
        text: r#"
            #include <assert.h>
            int x;
            void f(void) { x = 1; }
            int main(void) {
              LAST
              __CPROVER_ASYNC_1: f();
              assert(x == 1);
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("", &[], FAILS, SEQUENTIAL_NATIVELY),
            Check::verdict("", &["--unwind", "2"], FAILS, SEQUENTIAL_NATIVELY),
            Check::fails("assert(x == 1);", &[]),
        ],
    },
    Program {
        what: "CBMC's thread-spawn labels, one on a branch, each start a thread with the creator's locals",
        test: "threads-cprover-async-count",
        text: r#"
            #include <assert.h>
            int x;
            void add(int n) {
              __CPROVER_atomic_begin();
              x += n;
              __CPROVER_atomic_end();
            }
            int main(void) {
              int c, one = 1;
              LAST
              if (c) {
                __CPROVER_ASYNC_1: add(one);
              }
              __CPROVER_ASYNC_2: add(one);
              one = 5;
              assert(x <= BOUND);
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("", &["-DBOUND=2"], HOLDS, SEQUENTIAL_NATIVELY),
            Check::verdict("assert(x == 1);", &["-DBOUND=2"], FAILS, SEQUENTIAL_NATIVELY),
            Check::verdict("", &["-DBOUND=1"], FAILS, SEQUENTIAL_NATIVELY),
            Check::verdict("", &["-DBOUND=(c?2:1)"], HOLDS, SEQUENTIAL_NATIVELY),
        ],
    },
    Program {
        what: "ESBMC's spawn intrinsic is unsupported where it is reached",
        test: "threads-esbmc-spawn",
        text: r#"
            #include <assert.h>
            unsigned int __ESBMC_spawn_thread(void (*)(void));
            int x;
            void f(void) { x = 1; }
            int main(void) {
              LAST
              __ESBMC_spawn_thread(f);
              assert(x == 1);
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("", &[], UNKNOWN, "gcc cannot link ESBMC's intrinsic"),
            Check::verdict("assert(x == 1);", &[], FAILS, "gcc cannot link ESBMC's intrinsic"),
        ],
    },
    Program {
        what: "a data race on a counter that a lock hides",
        test: "threads-race-lock",
        text: r#"
            #include <pthread.h>
            int x;
            pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
            void *inc(void *arg) {
            #ifdef LOCKED
              pthread_mutex_lock(&m);
            #endif
              x = x + 1;
            #ifdef LOCKED
              pthread_mutex_unlock(&m);
            #endif
              return 0;
            }
            int main(void) {
              pthread_t a, b;
              pthread_create(&a, 0, inc, 0);
              pthread_create(&b, 0, inc, 0);
              pthread_join(a, 0);
              pthread_join(b, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("", &["--data-races-check", "-DLOCKED"], HOLDS, RACES_UNSEEN),
            Check::verdict("", &["--data-races-check"], FAILS, RACES_UNSEEN),
            // Without the check the racy program is still correct.
            Check::verdict("", &[], HOLDS, RACES_UNSEEN),
        ],
    },
    Program {
        what: "accesses inside atomic sections do not race with each other, but an atomic write races with a plain read",
        test: "threads-race-atomic",
        text: r#"
            #include <pthread.h>
            void __VERIFIER_atomic_begin(void);
            void __VERIFIER_atomic_end(void);
            int x;
            void *writer(void *arg) {
              __VERIFIER_atomic_begin();
              x = 1;
              __VERIFIER_atomic_end();
              return 0;
            }
            int main(void) {
              pthread_t t;
              pthread_create(&t, 0, writer, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("__VERIFIER_atomic_begin(); int y = x; __VERIFIER_atomic_end();", &["--data-races-check"], HOLDS, RACES_UNSEEN),
            Check::verdict("int y = x;", &["--data-races-check"], FAILS, RACES_UNSEEN),
        ],
    },
    Program {
        what: "a join orders the thread's write before the main thread's read",
        test: "threads-race-join",
        text: r#"
            #include <pthread.h>
            int x;
            void *writer(void *arg) { x = 1; return 0; }
            int main(void) {
              pthread_t t;
              pthread_create(&t, 0, writer, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("pthread_join(t, 0); int y = x;", &["--data-races-check"], HOLDS, RACES_UNSEEN),
            Check::verdict("int y = x; pthread_join(t, 0);", &["--data-races-check"], FAILS, RACES_UNSEEN),
        ],
    },
    Program {
        what: "threads that write their own elements, or only read shared data, do not race",
        test: "threads-race-own-data",
        text: r#"
            #include <pthread.h>
            int slots[2];
            int shared = 5;
            int seen[2];
            void *work(void *arg) {
              int *slot = arg;
              int local = shared;
              *slot = local + 1;
              return 0;
            }
            int main(void) {
              pthread_t a, b;
              pthread_create(&a, 0, work, &slots[0]);
              pthread_create(&b, 0, work, LAST);
              pthread_join(a, 0);
              pthread_join(b, 0);
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("&slots[1]", &["--data-races-check"], HOLDS, RACES_UNSEEN),
            Check::verdict("&slots[0]", &["--data-races-check"], FAILS, RACES_UNSEEN),
        ],
    },
    Program {
        what: "pthread_once runs its function once, the other callers wait for it, and they do not race on the flag",
        test: "threads-once",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            pthread_once_t once = PTHREAD_ONCE_INIT;
            int runs;
            void init(void) { runs++; }
            void *work(void *arg) {
              pthread_once(&once, init);
              LAST
              return 0;
            }
            int main(void) {
              pthread_t a, b;
              pthread_create(&a, 0, work, 0);
              pthread_create(&b, 0, work, 0);
              pthread_join(a, 0);
              pthread_join(b, 0);
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(runs == 1);", &["-lpthread"]),
            Check::verdict("assert(runs == 1);", &["--data-races-check"], HOLDS, RACES_UNSEEN),
            Check::verdict("assert(runs == 2);", &[], FAILS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "two locks taken in opposite orders deadlock; taken in the same order they do not",
        test: "threads-deadlock-order",
        text: r#"
            #include <pthread.h>
            pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
            void *other(void *arg) {
            #ifdef SAME_ORDER
              pthread_mutex_lock(&a);
              pthread_mutex_lock(&b);
            #else
              pthread_mutex_lock(&b);
              pthread_mutex_lock(&a);
            #endif
              pthread_mutex_unlock(&b);
              pthread_mutex_unlock(&a);
              return 0;
            }
            int main(void) {
              pthread_t t;
              pthread_create(&t, 0, other, 0);
              pthread_mutex_lock(&a);
              pthread_mutex_lock(&b);
              pthread_mutex_unlock(&b);
              pthread_mutex_unlock(&a);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("pthread_join(t, 0);", &["--deadlock-check", "-DSAME_ORDER"], HOLDS, DEADLOCK_UNSEEN),
            Check::verdict("pthread_join(t, 0);", &["--deadlock-check"], FAILS, DEADLOCK_UNSEEN),
            // Without the check a deadlock is not a violation.
            Check::verdict("pthread_join(t, 0);", &[], HOLDS, DEADLOCK_UNSEEN),
        ],
    },
    Program {
        what: "the main thread joins a thread that waits for ever on a lock the main thread holds",
        test: "threads-deadlock-join",
        text: r#"
            #include <pthread.h>
            pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
            void *worker(void *arg) {
              pthread_mutex_lock(&m);
              pthread_mutex_unlock(&m);
              return 0;
            }
            int main(void) {
              pthread_t t;
              pthread_mutex_lock(&m);
              pthread_create(&t, 0, worker, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("pthread_mutex_unlock(&m); pthread_join(t, 0);", &["--deadlock-check"], HOLDS, DEADLOCK_UNSEEN),
            Check::verdict("pthread_join(t, 0); pthread_mutex_unlock(&m);", &["--deadlock-check"], FAILS, DEADLOCK_UNSEEN),
            // Returning from main ends the process: the worker waits no more.
            Check::verdict("", &["--deadlock-check"], HOLDS, DEADLOCK_UNSEEN),
        ],
    },
    Program {
        what: "a condition variable wakes its waiter when signalled, may wake it spuriously, and a lost signal leaves it waiting for ever",
        test: "threads-condition",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
            pthread_cond_t c = PTHREAD_COND_INITIALIZER;
            int ready;
            void *producer(void *arg) {
              pthread_mutex_lock(&m);
              ready = 1;
            #ifndef LOST
              pthread_cond_signal(&c);
            #endif
              pthread_mutex_unlock(&m);
              return 0;
            }
            int main(void) {
              pthread_t t;
              pthread_create(&t, 0, producer, 0);
              pthread_mutex_lock(&m);
              LAST
              assert(ready == 1);
              pthread_mutex_unlock(&m);
              pthread_join(t, 0);
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("while (!ready) pthread_cond_wait(&c, &m);", &["--deadlock-check", "--unwind", "2", "--no-unwinding-assertions"], HOLDS, DEADLOCK_UNSEEN),
            Check::verdict("while (!ready) pthread_cond_wait(&c, &m);", &["--deadlock-check", "--unwind", "2", "--no-unwinding-assertions", "-DLOST"], FAILS, DEADLOCK_UNSEEN),
            // A spurious wake-up ends the wait before the producer ran.
            Check::verdict("if (!ready) pthread_cond_wait(&c, &m);", &[], FAILS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "a single thread that locks a mutex or spin lock it holds waits for ever",
        test: "threads-deadlock-self",
        text: r#"
            #include <pthread.h>
            pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
            pthread_spinlock_t s;
            int main(void) {
              pthread_spin_init(&s, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("pthread_mutex_lock(&m); pthread_mutex_unlock(&m); pthread_mutex_lock(&m);", &["--deadlock-check"], HOLDS, DEADLOCK_UNSEEN),
            Check::verdict("pthread_mutex_lock(&m); pthread_mutex_lock(&m);", &["--deadlock-check"], FAILS, DEADLOCK_UNSEEN),
            Check::verdict("pthread_spin_lock(&s); pthread_spin_unlock(&s); pthread_spin_lock(&s);", &["--deadlock-check"], HOLDS, DEADLOCK_UNSEEN),
            Check::verdict("pthread_spin_lock(&s); pthread_spin_lock(&s);", &["--deadlock-check"], FAILS, DEADLOCK_UNSEEN),
        ],
    },
    Program {
        what: "C11 threads give their int results through thrd_join or thrd_exit, and a mtx_t makes an increment exclusive",
        test: "threads-c11",
        text: r#"
            #include <assert.h>
            #include <threads.h>
            mtx_t m;
            int counter;
            int worker(void *arg) {
            #ifdef LOCKED
              mtx_lock(&m);
            #endif
              int t = counter;
              counter = t + 1;
            #ifdef LOCKED
              mtx_unlock(&m);
            #endif
              if (*(int *)arg < 0)
                thrd_exit(-1);
              return *(int *)arg + 1;
            }
            int main(void) {
              thrd_t a, b;
              int seed = 41, minus = -5, ra = 0, rb = 0;
              mtx_init(&m, mtx_plain);
              assert(thrd_create(&a, worker, &seed) == thrd_success);
              assert(thrd_create(&b, worker, &minus) == thrd_success);
              assert(thrd_join(a, &ra) == thrd_success);
              assert(thrd_join(b, &rb) == thrd_success);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(ra == 42 && rb == -1 && counter == 2);", &["-DLOCKED", "-lpthread"]),
            Check::fails("assert(ra == 41);", &["-DLOCKED", "-lpthread"]),
            Check::fails("assert(rb == -5);", &["-DLOCKED", "-lpthread"]),
            Check::verdict("assert(counter == 2);", &[], FAILS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "atomic sections declared without a prototype are atomic sections",
        test: "threads-unprototyped-atomic",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            void __VERIFIER_atomic_begin();
            void __VERIFIER_atomic_end();
            int x;
            void *inc(void *arg) {
            #ifndef PLAIN
              __VERIFIER_atomic_begin();
            #endif
              int t = x;
              x = t + 1;
            #ifndef PLAIN
              __VERIFIER_atomic_end();
            #endif
              return 0;
            }
            int main(void) {
              pthread_t a, b;
              pthread_create(&a, 0, inc, 0);
              pthread_create(&b, 0, inc, 0);
              pthread_join(a, 0);
              pthread_join(b, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("assert(x == 2);", &[], HOLDS, ATOMIC_UNDEFINED),
            Check::verdict("assert(x == 2);", &["-DPLAIN"], FAILS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "pthread_cleanup_pop runs the handler pthread_cleanup_push registered only when told to",
        test: "threads-cleanup",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int flag;
            void cleanup(void *arg) { flag = *(int *)arg; }
            void *thread_func(void *arg) {
              int val = 42;
              pthread_cleanup_push(cleanup, &val);
            #ifdef EXIT
              pthread_exit(0);
            #endif
              pthread_cleanup_pop(EXECUTE);
              return 0;
            }
            int main(void) {
              pthread_t t;
              pthread_create(&t, 0, thread_func, 0);
              pthread_join(t, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(flag == 42);", &["-DEXECUTE=1", "-lpthread"]),
            Check::fails("assert(flag == 0);", &["-DEXECUTE=1", "-lpthread"]),
            Check::holds("assert(flag == 0);", &["-DEXECUTE=0", "-lpthread"]),
            Check::fails("assert(flag == 42);", &["-DEXECUTE=0", "-lpthread"]),
            // pthread_exit would run the handler: not modelled yet.
            Check::verdict("assert(flag == 42);", &["-DEXECUTE=0", "-DEXIT"], UNKNOWN, "the handler pthread_exit runs is not modelled"),
        ],
    },
    Program {
        what: "each thread has its own thread-local variables, starting with their static initializer",
        test: "threads-thread-local",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            _Thread_local int counter = 5;
            __thread int scale[2] = {10, 100};
            int seen[2];
            void *worker(void *arg) {
              int i = *(int *)arg;
              seen[i] = counter + scale[i];
              counter = 20 + i;
            #ifdef ADDRESS
              int *p = &counter;
              *p = 30;
            #endif
              scale[i] = counter;
              seen[i] += scale[i] * 1000;
              return 0;
            }
            int main(void) {
              pthread_t a, b;
              int ia = 0, ib = 1;
              counter = 7;
              scale[0] = 1;
              pthread_create(&a, 0, worker, &ia);
              pthread_create(&b, 0, worker, &ib);
              pthread_join(a, 0);
              pthread_join(b, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(seen[0] == 20015 && seen[1] == 21105 && counter == 7 && scale[0] == 1 && scale[1] == 100);", &["-lpthread"]),
            Check::fails("assert(seen[0] == 20008);", &["-lpthread"]),
            Check::fails("assert(counter == 21 || scale[1] == 21);", &["-lpthread"]),
            // Another thread could use an instance through its address
            // after its thread ended: not modelled.
            Check::verdict("assert(counter == 7);", &["-DADDRESS"], UNKNOWN, "a thread-local variable's address is not followed"),
        ],
    },
    Program {
        what: "thread-specific data: each thread its own values, destructors at a thread's end, deleted keys reused",
        test: "threads-keys",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            pthread_key_t key;
            int destroyed;
            int a = 1, b = 2;
            void destroy(void *v) { destroyed += *(int *)v; }
            void *worker(void *arg) {
              assert(pthread_getspecific(key) == 0);
              assert(pthread_setspecific(key, &b) == 0);
              assert(pthread_getspecific(key) == &b);
            #ifdef EXIT
              pthread_exit(0);
            #endif
              return 0;
            }
            int main(void) {
              pthread_t t;
              pthread_key_t again;
              assert(pthread_key_create(&key, DESTRUCTOR) == 0);
              assert(pthread_setspecific(key, &a) == 0);
              pthread_create(&t, 0, worker, 0);
              pthread_join(t, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(pthread_getspecific(key) == &a && destroyed == 2);", &["-DDESTRUCTOR=destroy", "-lpthread"]),
            Check::holds("assert(pthread_getspecific(key) == &a && destroyed == 2);", &["-DDESTRUCTOR=destroy", "-DEXIT", "-lpthread"]),
            Check::fails("assert(destroyed == 0);", &["-DDESTRUCTOR=destroy", "-lpthread"]),
            Check::fails("assert(pthread_getspecific(key) == &b);", &["-DDESTRUCTOR=0", "-lpthread"]),
            Check::holds("assert(pthread_getspecific(key) == &a && destroyed == 0);", &["-DDESTRUCTOR=0", "-lpthread"]),
            Check::holds(
                "assert(pthread_key_delete(key) == 0 && pthread_key_create(&again, 0) == 0); assert(again == key && pthread_getspecific(again) == 0);",
                &["-DDESTRUCTOR=destroy", "-lpthread"],
            ),
            Check::fails(
                "assert(pthread_key_delete(key) == 0 && pthread_key_create(&again, 0) == 0); assert(pthread_getspecific(again) == &a);",
                &["-DDESTRUCTOR=destroy", "-lpthread"],
            ),
        ],
    },
    Program {
        what: "a barrier orders the writes before it in one thread before the reads after it in another",
        test: "threads-barrier",
        text: r#"
            #include <assert.h>
            #include <errno.h>
            #include <pthread.h>
            pthread_barrier_t bar;
            int shared, serial;
            void *worker(void *arg) {
              shared = 42;
              if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)
                serial++;
              return 0;
            }
            int main(void) {
              pthread_t t;
              pthread_barrier_t unusable;
              assert(pthread_barrier_init(&unusable, 0, 0) == EINVAL);
              assert(pthread_barrier_init(&bar, 0, COUNT) == 0);
              pthread_create(&t, 0, worker, 0);
              int last = pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD;
              int seen = shared;
              pthread_join(t, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(seen == 42 && serial + last == 1);", &["-DCOUNT=2", "-lpthread"]),
            Check::fails("assert(serial + last == 2);", &["-DCOUNT=2", "-lpthread"]),
            Check::holds("assert(pthread_barrier_destroy(&bar) == 0);", &["-DCOUNT=2", "-lpthread"]),
            Check::fails("assert(pthread_barrier_destroy(&bar) != 0);", &["-DCOUNT=2", "-lpthread"]),
            Check::verdict("assert(seen == 42);", &["-DCOUNT=1"], FAILS, ONE_SCHEDULE),
            Check::verdict("", &["-DCOUNT=3", "--deadlock-check"], FAILS, DEADLOCK_UNSEEN),
            Check::verdict("", &["-DCOUNT=2", "--deadlock-check"], HOLDS, DEADLOCK_UNSEEN),
        ],
    },
    Program {
        what: "a semaphore a thread posts makes another wait for it; trywait, getvalue and their errors",
        test: "threads-semaphore",
        text: r#"
            #include <assert.h>
            #include <errno.h>
            #include <pthread.h>
            #include <semaphore.h>
            sem_t done;
            int shared;
            void *worker(void *arg) {
              shared = 1;
              assert(sem_post(&done) == 0);
              return 0;
            }
            int main(void) {
              pthread_t t;
              int value = -1;
              assert(sem_init(&done, 0, INITIAL) == 0);
              pthread_create(&t, 0, worker, 0);
              assert(sem_wait(&done) == 0);
              int seen = shared;
              pthread_join(t, 0);
              assert(sem_getvalue(&done, &value) == 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(seen == 1 && value == 0 && sem_trywait(&done) == -1 && errno == EAGAIN);", &["-DINITIAL=0", "-lpthread"]),
            Check::fails("assert(sem_trywait(&done) == 0);", &["-DINITIAL=0", "-lpthread"]),
            Check::holds("assert(value == 1 && sem_trywait(&done) == 0 && sem_trywait(&done) == -1);", &["-DINITIAL=1", "-lpthread"]),
            Check::fails("assert(value == 0);", &["-DINITIAL=1", "-lpthread"]),
            Check::holds("assert(sem_destroy(&done) == 0);", &["-DINITIAL=0", "-lpthread"]),
            Check::fails("assert(sem_destroy(&done) != 0);", &["-DINITIAL=0", "-lpthread"]),
            Check::verdict("assert(seen == 1);", &["-DINITIAL=1"], FAILS, ONE_SCHEDULE),
            Check::verdict("sem_wait(&done);", &["-DINITIAL=0", "--deadlock-check"], FAILS, DEADLOCK_UNSEEN),
            Check::verdict("sem_wait(&done);", &["-DINITIAL=1", "--deadlock-check"], HOLDS, DEADLOCK_UNSEEN),
        ],
    },
    Program {
        what: "with --context-bound N a violation counts when an interleaving with at most N context switches reaches it",
        test: "threads-context-bound",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int x;
            void *set(void *arg) { x = 1; return 0; }
            int main(void) {
              pthread_t t;
              pthread_create(&t, 0, set, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            // Seeing the thread's write takes two switches: there and back.
            Check::verdict("assert(x == 0);", &["--context-bound", "0"], UNKNOWN, ONE_SCHEDULE),
            Check::verdict("assert(x == 0);", &["--context-bound", "2"], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(x == 1);", &["--context-bound", "0"], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(x == 0 || x == 1);", &["--context-bound", "1"], HOLDS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "a semaphore used before sem_init or after sem_destroy is undefined (POSIX), reported as CBMC and ESBMC do",
        test: "threads-semaphore-setup",
        text: r#"
            #include <semaphore.h>
            sem_t ready;
            int main(void) {
            #ifdef INIT
              sem_init(&ready, 0, 1);
            #endif
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("sem_wait(&ready); sem_post(&ready); sem_trywait(&ready); sem_destroy(&ready);", &["-DINIT", "-lpthread"]),
            Check::verdict("sem_post(&ready);", &[], FAILS, GLIBC_ZERO_SEMAPHORE),
            Check::verdict("sem_trywait(&ready);", &[], FAILS, GLIBC_ZERO_SEMAPHORE),
            Check::verdict("sem_destroy(&ready); sem_post(&ready);", &["-DINIT"], FAILS, GLIBC_ZERO_SEMAPHORE),
            Check::verdict("sem_destroy(&ready); sem_destroy(&ready);", &["-DINIT"], FAILS, GLIBC_ZERO_SEMAPHORE),
            Check::verdict("sem_post(&ready);", &["--no-assertions"], HOLDS, GLIBC_ZERO_SEMAPHORE),
            Check::verdict("sem_post(&ready);", &["--no-library-assertions"], HOLDS, GLIBC_ZERO_SEMAPHORE),
            Check::verdict("sem_post(&ready); __ESBMC_assert(0, \"the program's\");", &["--no-library-assertions"], FAILS, "__ESBMC_assert has no definition natively"),
        ],
    },
    Program {
        what: "glibc releases a NORMAL mutex another thread unlocks; an error-checking one refuses",
        test: "threads-foreign-unlock",
        text: r#"
            #include <assert.h>
            #include <errno.h>
            #include <pthread.h>
            pthread_mutex_t m;
            int x;
            void *taker(void *arg) { pthread_mutex_lock(&m); x = 1; return 0; }
            int main(void) {
              pthread_t t;
              pthread_mutexattr_t attr;
              pthread_mutexattr_init(&attr);
              pthread_mutexattr_settype(&attr, KIND); /* 0 NORMAL, 2 ERRORCHECK */
              pthread_mutex_init(&m, &attr);
              pthread_create(&t, 0, taker, 0);
              pthread_join(t, 0);
              int r = pthread_mutex_unlock(&m);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(r == 0 && pthread_mutex_trylock(&m) == 0);", &["-DKIND=0", "-lpthread"]),
            Check::fails("pthread_mutex_lock(&m); assert(x == 0);", &["-DKIND=0", "-lpthread"]),
            Check::holds("assert(r == EPERM && pthread_mutex_trylock(&m) == EBUSY);", &["-DKIND=2", "-lpthread"]),
            Check::fails("assert(r == 0);", &["-DKIND=2", "-lpthread"]),
        ],
    },
    Program {
        what: "a signal wakes one blocked waiter and a broadcast all of them: the waiter no signal picks waits for ever",
        test: "threads-condition-wake",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
            pthread_cond_t c;
            int ready, woke;
            void *waiter(void *arg) {
              pthread_mutex_lock(&m);
              if (!ready)
                pthread_cond_wait(&c, &m);
              woke++;
              pthread_mutex_unlock(&m);
              return 0;
            }
            int main(void) {
              pthread_t a, b;
              assert(pthread_cond_init(&c, 0) == 0);
              pthread_create(&a, 0, waiter, 0);
              pthread_create(&b, 0, waiter, 0);
              pthread_mutex_lock(&m);
              ready = 1;
              WAKE(&c);
              pthread_mutex_unlock(&m);
              pthread_join(a, 0);
              pthread_join(b, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("", &["-DWAKE=pthread_cond_signal", "--deadlock-check"], FAILS, DEADLOCK_UNSEEN),
            Check::verdict("", &["-DWAKE=pthread_cond_broadcast", "--deadlock-check"], HOLDS, DEADLOCK_UNSEEN),
            Check::holds("assert(woke == 2 && pthread_cond_destroy(&c) == 0);", &["-DWAKE=pthread_cond_broadcast", "-lpthread"]),
            Check::fails("assert(woke == 1);", &["-DWAKE=pthread_cond_broadcast", "-lpthread"]),
        ],
    },
    Program {
        what: "a timed wait no signal reaches times out (or wakes spuriously) and holds the mutex again",
        test: "threads-condition-timed",
        text: r#"
            #include <assert.h>
            #include <errno.h>
            #include <pthread.h>
            #include <time.h>
            pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
            pthread_cond_t c = PTHREAD_COND_INITIALIZER;
            int main(void) {
              struct timespec past = {0, 0};
              pthread_mutex_lock(&m);
              int r = pthread_cond_timedwait(&c, &m, &past);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert((r == ETIMEDOUT || r == 0) && pthread_mutex_trylock(&m) == EBUSY);", &["-lpthread"]),
            Check::fails("assert(r == 0);", &["-lpthread"]),
        ],
    },
    Program {
        what: "a spin lock's trylock takes a free lock and is refused a held one",
        test: "threads-spin-trylock",
        text: r#"
            #include <assert.h>
            #include <errno.h>
            #include <pthread.h>
            pthread_spinlock_t s;
            int main(void) {
              assert(pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE) == 0);
              int first = pthread_spin_trylock(&s);
              int second = pthread_spin_trylock(&s);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds(
                "assert(first == 0 && second == EBUSY && pthread_spin_unlock(&s) == 0 && pthread_spin_trylock(&s) == 0 && pthread_spin_unlock(&s) == 0 && pthread_spin_destroy(&s) == 0);",
                &["-lpthread"],
            ),
            Check::fails("assert(second == 0);", &["-lpthread"]),
        ],
    },
    Program {
        what: "a C11 thread is detached once, and yielding changes nothing",
        test: "threads-c11-detach",
        text: r#"
            #include <assert.h>
            #include <threads.h>
            int worker(void *arg) { thrd_yield(); return 0; }
            int main(void) {
              thrd_t t;
              assert(thrd_create(&t, worker, 0) == thrd_success);
              int first = thrd_detach(t);
              thrd_yield();
              LAST
              return 0;
            }
        "#,
        checks: &[Check::holds("assert(first == thrd_success);", &["-lpthread"]), Check::fails("assert(first != thrd_success);", &["-lpthread"])],
    },
    Program {
        what: "the main thread's pthread_exit leaves the process to the other threads, which may then deadlock",
        test: "threads-main-exit",
        text: r#"
            #include <pthread.h>
            #include <stdlib.h>
            pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
            void handler(void) {}
            void *worker(void *arg) {
              pthread_mutex_lock(&m);
              pthread_mutex_unlock(&m);
              return 0;
            }
            int main(void) {
              pthread_t t;
              LAST
              pthread_create(&t, 0, worker, 0);
              pthread_exit(0);
            }
        "#,
        checks: &[
            Check::verdict("pthread_mutex_lock(&m);", &["--deadlock-check"], FAILS, DEADLOCK_UNSEEN),
            Check::verdict("pthread_mutex_lock(&m); pthread_mutex_unlock(&m);", &["--deadlock-check"], HOLDS, DEADLOCK_UNSEEN),
            // The models' exit runs the handler at once, which a process
            // whose threads deadlock never does.
            Check::verdict("atexit(handler);", &["--deadlock-check"], UNKNOWN, "the atexit handlers of pthread_exit are not modelled"),
            Check::verdict("atexit(handler); pthread_mutex_lock(&m);", &["--deadlock-check"], UNKNOWN, "the atexit handlers of pthread_exit are not modelled"),
        ],
    },
    Program {
        what: "another thread sees only a step's last write of an object, on the path the step took",
        test: "threads-step-last-write",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int x;
            void __VERIFIER_atomic_set(int c) { x = 1; if (c) x = 3; x += 1; }
            void set(int c) { x = 1; if (c) x = 3; x += 1; }
            void *writer(void *arg) {
            #ifdef ATOMIC
              __VERIFIER_atomic_set(arg != 0);
            #else
              set(arg != 0);
            #endif
              return 0;
            }
            int main(void) {
              pthread_t t;
              pthread_create(&t, 0, writer, &x);
              int seen = x;
              pthread_join(t, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(seen == 0 || seen == 4); assert(x == 4);", &["-DATOMIC", "-lpthread"]),
            Check::verdict("assert(seen == 0);", &["-DATOMIC"], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(seen != 2);", &["-DATOMIC"], HOLDS, ONE_SCHEDULE),
            Check::verdict("assert(seen == 0 || seen == 4);", &[], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(seen != 3);", &[], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(seen != 2);", &[], HOLDS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "an object only one thread touches reads what that thread's path wrote last",
        test: "threads-one-thread-object",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int x;
            int mine;
            int *p = &mine;
            void *writer(void *arg) { x = 1; return 0; }
            int main(void) {
              pthread_t t;
              pthread_create(&t, 0, writer, 0);
              if (x)
                *p = 5;
              else
                *p = 7;
              int first = x;
              pthread_join(t, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(mine == 5 || mine == 7); assert(x == 1);", &["-lpthread"]),
            Check::verdict("assert(mine == 7);", &[], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(mine == 5);", &[], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(mine == 7 || first == 1);", &[], HOLDS, ONE_SCHEDULE),
            Check::verdict("assert(mine == 5 || first == 0);", &[], FAILS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "each thread's own instance of a local or block is its alone, an object handed over is shared",
        test: "threads-instances-per-thread",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            #include <stdlib.h>
            int x;
            int blocks[2];
            void *worker(void *arg) {
              int mine = x;
              int *p = &mine;
              *p += 1;
              x = *p;
              int *own = malloc(sizeof(int));
              if (own) {
                *own = mine;
                x = *own;
              }
              int *block = arg;
              *block += 1;
              return 0;
            }
            int main(void) {
              pthread_t a, b;
              blocks[1] = 1;
              pthread_create(&a, 0, worker, &blocks[0]);
              pthread_create(&b, 0, worker, &blocks[1]);
              pthread_join(a, 0);
              pthread_join(b, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(blocks[0] == 1 && blocks[1] == 2);", &["-lpthread"]),
            Check::fails("assert(blocks[1] == 1);", &["-lpthread"]),
            Check::verdict("assert(x == 1 || x == 2);", &[], HOLDS, ONE_SCHEDULE),
            Check::verdict("assert(x == 2);", &[], FAILS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "a pointer the main thread set before starting threads keeps its target in them, one set after may be seen either way",
        test: "threads-settled-globals",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            #include <stdio.h>
            int a = 1, b = 2;
            int *p;
            int *q = &a;
            int seen_p, seen_q;
            void *reader(void *arg) {
              seen_p = *p;
              int *r = q;
              seen_q = r == &b;
              *r = 3;
              fprintf(stderr, "reader\n");
              return 0;
            }
            int main(void) {
              p = &b;
              pthread_t t;
              pthread_create(&t, 0, reader, 0);
              q = &b;
              fprintf(stderr, "main\n");
              pthread_join(t, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(seen_p == 2); assert(a == 3 || b == 3);", &["-lpthread"]),
            Check::fails("assert(seen_p == 3);", &["-lpthread"]),
            Check::verdict("assert(seen_q == 0);", &[], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(seen_q == 1);", &[], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(a == 1);", &[], FAILS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "an object one thread touches at small bounds and two at larger ones (the smaller bound's sites do not hold there)",
        test: "threads-sites-of-a-smaller-bound",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int x;
            void *worker(void *arg) {
              for (int i = 0; i < 4; i++)
                if (i == 2)
                  x = 1;
              return 0;
            }
            int main(void) {
              pthread_t t;
              pthread_create(&t, 0, worker, 0);
              int seen = x;
              pthread_join(t, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(x == 1 && (seen == 0 || seen == 1));", &["-lpthread", "--incremental-bmc"]),
            Check::fails("assert(x == 0);", &["-lpthread", "--incremental-bmc"]),
            Check::verdict("assert(seen == 0);", &["--incremental-bmc"], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(seen == 0);", &[], FAILS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "a field no thread changes keeps its value while another thread stores into the struct",
        test: "threads-kept-fields",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            struct pair { int a; char b; short c; long d; } s = { 0, 7, 9, 11 };
            void *writer(void *arg) {
              s.a = 1;
            #ifdef CHANGE_C
              s.c = 10;
            #endif
              s.a = 2;
              return 0;
            }
            int main(void) {
              pthread_t t;
              pthread_create(&t, 0, writer, 0);
              struct pair seen = s;
              pthread_join(t, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(seen.b == 7 && seen.c == 9 && seen.d == 11); assert(s.a == 2);", &["-lpthread"]),
            Check::holds("assert(seen.b == 7 && seen.d == 11); assert(s.c == 10);", &["-DCHANGE_C", "-lpthread"]),
            Check::verdict("assert(seen.a != 1);", &[], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(seen.c == 9);", &["-DCHANGE_C"], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(seen.a == 0 || seen.c == 10);", &["-DCHANGE_C"], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(seen.a != 2 || seen.c == 10);", &["-DCHANGE_C"], HOLDS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "threads adding one to a counter under a lock lose no update; a write after the unlock can lose one",
        test: "threads-counter-under-lock",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            #define N 3
            int counter;
            pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
            void *add(void *arg) {
              pthread_mutex_lock(&m);
              int t = counter;
            #ifdef WRITE_OUTSIDE
              pthread_mutex_unlock(&m);
              counter = t + 1;
            #else
              counter = t + 1;
              pthread_mutex_unlock(&m);
            #endif
              return 0;
            }
            int main(void) {
              pthread_t id[N];
              for (int i = 0; i < N; i++) pthread_create(&id[i], 0, add, 0);
              for (int i = 0; i < N; i++) pthread_join(id[i], 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(counter == N);", &["-lpthread"]),
            Check::fails("assert(counter == N - 1);", &["-lpthread"]),
            Check::holds("assert(counter >= 1 && counter <= N);", &["-DWRITE_OUTSIDE", "-lpthread"]),
            Check::verdict("assert(counter == N);", &["-DWRITE_OUTSIDE"], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(counter != 1);", &["-DWRITE_OUTSIDE"], FAILS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "a store that replaces a whole object, or one of two, leaves the other thread's view exact",
        test: "threads-whole-object-stores",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            struct pair { int a; int b; } s;
            int x, y;
            int pick;
            void *writer(void *arg) {
              int *p = pick ? &x : &y;
              *p = 5;
              struct pair next = { 1, 2 };
              s = next;
              x = x + 1;
              return 0;
            }
            int main(int argc, char **argv) {
              pthread_t t;
              pick = argc > 1;
              pthread_create(&t, 0, writer, 0);
              int seen_x = x, seen_y = y;
              struct pair seen = s;
              pthread_join(t, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(x + y == 6 || (x == 6 && y == 0)); assert(s.a == 1 && s.b == 2);", &["-lpthread"]),
            Check::holds("assert(seen_y == 0 || seen_y == 5); assert(seen.a == seen.b - 1 || seen.a + seen.b == 0);", &["-lpthread"]),
            Check::verdict("assert(!(seen_x == 5 && seen_y == 5));", &[], HOLDS, ONE_SCHEDULE),
            Check::verdict("assert(seen_x != 6);", &[], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(seen_y == 0);", &[], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(seen.a == 0);", &[], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(x == 6);", &[], FAILS, ONE_ARGUMENT),
        ],
    },
    Program {
        what: "a block or static a thread makes is there for the main thread, which a later thread's pointer reaches",
        test: "threads-objects-made-later",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            #include <stdlib.h>
            char *v;
            int *p;
            void *maker(void *arg) {
              v = malloc(8);
              if (v) v[0] = 'B';
            #ifdef FREES
              free(v);
            #endif
              return 0;
            }
            void *static_maker(void *arg) {
              static int s = 5;
              p = &s;
              return 0;
            }
            int main(void) {
              pthread_t a, b;
              pthread_create(&a, 0, maker, 0);
              pthread_create(&b, 0, static_maker, 0);
              pthread_join(a, 0);
              pthread_join(b, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(!v || v[0] == 'B'); assert(*p == 5); free(v);", &["-lpthread"]),
            Check::fails("assert(!v || v[0] == 'C'); free(v);", &["-lpthread"]),
            Check::fails("assert(*p == 6); free(v);", &["-lpthread"]),
            Check::holds("assert(*p == 5);", &["-DFREES", "-lpthread"]),
            Check::fails("if (v) v[0] = 'C';", &["-DFREES", "-lpthread"]),
        ],
    },
    Program {
        what: "a block the main thread made and another thread wrote or freed is seen so by the main thread",
        test: "threads-block-freed-by-another",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            #include <stdlib.h>
            char *v;
            void *writer(void *arg) {
              v[0] = 'B';
            #ifdef FREES
              free(v);
            #endif
              return 0;
            }
            int main(void) {
              v = malloc(8);
              if (!v) return 0;
              pthread_t t;
              pthread_create(&t, 0, writer, 0);
              pthread_join(t, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(v[0] == 'B'); free(v);", &["-lpthread"]),
            Check::fails("assert(v[0] == 'C'); free(v);", &["-lpthread"]),
            Check::holds("", &["-DFREES", "-lpthread"]),
            Check::fails("assert(v[0] == 'B');", &["-DFREES", "-lpthread"]),
            Check::fails("free(v);", &["-DFREES", "-lpthread"]),
        ],
    },
    Program {
        what: "a thread's local is there for the main thread while the thread runs, not once it ended",
        test: "threads-local-of-another",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int *p;
            int done;
            void *owner(void *arg) {
              int x = 5;
              p = &x;
              while (!done) {}
              return 0;
            }
            int main(void) {
              pthread_t t;
              pthread_create(&t, 0, owner, 0);
              while (!p) {}
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(*p == 5); done = 1; pthread_join(t, 0);", &["-lpthread"]),
            Check::fails("assert(*p == 6); done = 1; pthread_join(t, 0);", &["-lpthread"]),
            Check::verdict("done = 1; pthread_join(t, 0); *p = 7;", &[], FAILS, DEAD_STACK_UNSEEN),
        ],
    },
    Program {
        what: "the main thread's locals last until its return ends the process, a block's end is seen by the other threads",
        test: "threads-main-locals-at-exit",
        text: r#"
            #include <pthread.h>
            void *reader(void *arg) {
              int *q = arg;
              return (void *)(long)*q;
            }
            int main(void) {
              pthread_t t;
              int x = 1;
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("pthread_create(&t, 0, reader, &x);", &["-lpthread"]),
            Check::verdict("{ int y = 2; pthread_create(&t, 0, reader, &y); } x = 3; pthread_join(t, 0);", &[], FAILS, DEAD_STACK_UNSEEN),
        ],
    },
    Program {
        what: "an integer a thread ends with as a pointer comes back through the join, converted to an integer exactly",
        test: "threads-join-integer-value",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int g = 1;
            void *work(void *arg) {
              long v = (long)arg + g;
              return (void *)v;
            }
            int main(void) {
              pthread_t t;
              void *r;
              pthread_create(&t, 0, work, (void *)41);
              pthread_join(t, &r);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert((long)r == 42);", &["-lpthread"]),
            Check::fails("assert((long)r != 42);", &["-lpthread"]),
            Check::fails("assert((int)(long)r == 41);", &["-lpthread"]),
            Check::holds("assert(r != 0 && (unsigned long)r % 2 == 0);", &["-lpthread"]),
        ],
    },
];

/// A thread's stack outlives it natively (glibc keeps it for the next
/// thread), so a write to its dead local goes unnoticed.
/// A native run has no argument, the verifier's `argc` is any.
const ONE_ARGUMENT: &str = "natively argc is 1";
const DEAD_STACK_UNSEEN: &str = "natively a dead thread's stack stays mapped";

/// The atomic-section markers have no definition gcc could link.
const ATOMIC_UNDEFINED: &str = "__VERIFIER_atomic_begin has no definition natively";

/// An unwinding assertion is the verifier's bound, not the program's.
const BOUND_ONLY: &str = "an unwinding assertion fails only under the verifier's bound";

/// A native run that deadlocks hangs.
const DEADLOCK_UNSEEN: &str = "a native run that deadlocks does not end";

/// A native run shows no data race (gcc's thread sanitizer is not used).
const RACES_UNSEEN: &str = "a native run does not report data races";

#[test]
fn every_program_gets_its_verdicts() {
    assert_twins(PROGRAMS);
    check_programs(PROGRAMS);
}

/// A violation three iterations deep in a thread, and the same loop run by
/// the main thread: as `SCHEDULED_BOUND` says, the bound at which each is
/// found.
const THIRD_ITERATION: &str = r#"
    #include <assert.h>
    #include <pthread.h>
    int nondet_int(void);
    void __VERIFIER_atomic_begin(void);
    void __VERIFIER_atomic_end(void);
    int count;
    void *work(void *arg) {
      while (nondet_int()) {
        __VERIFIER_atomic_begin();
        count++;
        __VERIFIER_atomic_end();
      }
      return 0;
    }
    int main(void) {
      pthread_t id;
    #ifdef THREAD
      pthread_create(&id, 0, work, 0);
      pthread_join(id, 0);
    #else
      work(0);
    #endif
      assert(count != 2);
      return 0;
    }
"#;

/// The bounds of a program with threads go up by one at first (1, 2, 3,
/// 4, 8, ...: each unwinding multiplies the events of the shared objects),
/// those of a sequential program double (1, 2, 4, ...); the base cases of
/// k-induction (the default) and incremental BMC alike. The violation
/// needs bound 3 (the loop's unroll attempt never ends: its exit is an
/// input).
#[test]
fn the_bounds_of_a_program_with_threads_go_up_by_one_at_first() {
    let test = "threads-bound-schedule";
    if !common::front_end_ready(test) {
        return;
    }
    for (define, scheduled_bound) in [("-DTHREAD", 3), ("-DSEQUENTIAL", 4)] {
        for engine in [&[][..], &["--incremental-bmc"][..]] {
            let mut flags = vec![define, "--json"];
            flags.extend(engine);
            let answer = common::verdict(&format!("{test}{define}{}", engine.join("")), THIRD_ITERATION, &flags);
            let json = answer.split_once('\n').map_or("", |(_, rest)| rest);
            let doc: serde_json::Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {answer}"));
            assert_eq!(doc["verdict"], "VERIFICATION FAILED", "{flags:?}: {answer}");
            assert_eq!(doc["stats"]["bound"], scheduled_bound, "{flags:?}: {answer}");
        }
    }
}
