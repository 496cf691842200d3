//! Loops that change nothing (busy-waits on a flag another thread sets):
//! their iterations that come back to the head are stutter steps, so they
//! go before the engines run and a TRUE is a proof without any unwinding
//! bound, and the iterations of other loops that change nothing are cut
//! (TRUE/FALSE twins: Peterson's protocol with busy-waits, right and
//! wrong; Dekker's, whose entry loop writes on some paths; a busy-wait
//! whose iteration writes a local once; a thread, or the main thread,
//! that spins for ever does not hide another thread's violation; a spin
//! under the data-race check, which keeps the loop; a bound given without
//! a property file keeps its unwinding assertion). A spin that follows a pointer is kept (the unit
//! tests of `analysis::spin`): the block may be freed by another thread.

mod common;

use common::table::{assert_twins, check_programs, Check, Program, FAILS, HOLDS};

/// A native run follows one schedule of the host's choosing.
const ONE_SCHEDULE: &str = "a native run sees only the schedule the host picks";

/// A native run whose thread spins for ever does not end.
const SPINS: &str = "natively the spinning thread never ends";

/// `__VERIFIER_nondet_int` has no definition gcc could link.
const NONDET: &str = "__VERIFIER_nondet_int is an input";

/// A native run shows no data race (gcc's thread sanitizer is not used).
const RACES_UNSEEN: &str = "a native run does not report data races";

const PROGRAMS: &[Program] = &[
    Program {
        what: "Peterson's protocol with busy-waits keeps the critical sections apart only when a thread raises its flag before it gives the turn away",
        test: "busy-peterson",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int flag0, flag1, turn, inside;
            void *first(void *arg) {
            #ifdef WRONG
              turn = 1; flag0 = 1;
            #else
              flag0 = 1; turn = 1;
            #endif
              while (flag1 == 1 && turn == 1) {}
              inside = 1;
              assert(inside == 1);
              inside = 0;
              flag0 = 0;
              return 0;
            }
            void *second(void *arg) {
              flag1 = 1; turn = 0;
              do {} while (flag0 == 1 && turn == 0);
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
              pthread_join(a, 0);
              pthread_join(b, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("assert(inside == 0);", &[], HOLDS, ONE_SCHEDULE),
            Check::verdict("", &["-DWRONG"], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(turn == 1);", &[], FAILS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "Dekker's protocol, whose entry loop writes on some paths only, keeps the critical sections apart only when a thread raises its flag first",
        test: "busy-dekker",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int flag1, flag2, turn, inside;
            void *first(void *arg) {
            #ifndef WRONG
              flag1 = 1;
            #endif
              while (flag2 >= 1) {
                if (turn != 0) {
                  flag1 = 0;
                  while (turn != 0) {}
                  flag1 = 1;
                }
              }
              inside = 1;
              assert(inside == 1);
              inside = 0;
              turn = 1;
              flag1 = 0;
              return 0;
            }
            void *second(void *arg) {
              flag2 = 1;
              while (flag1 >= 1) {
                if (turn != 1) {
                  flag2 = 0;
                  while (turn != 1) {}
                  flag2 = 1;
                }
              }
              inside = 2;
              assert(inside == 2);
              inside = 0;
              turn = 0;
              flag2 = 0;
              return 0;
            }
            int main(void) {
              pthread_t a, b;
              pthread_create(&a, 0, first, 0);
              pthread_create(&b, 0, second, 0);
              pthread_join(a, 0);
              pthread_join(b, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("assert(inside == 0 && flag1 == 0 && flag2 == 0);", &[], HOLDS, ONE_SCHEDULE),
            Check::verdict("", &["-DWRONG"], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(turn == 0);", &[], FAILS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "an iteration that writes only a local still counts: a busy-wait that counts what it saw is no stutter",
        test: "busy-counting",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int go, seen;
            void *setter(void *arg) {
              seen = 1;
              go = 1;
              return 0;
            }
            int main(void) {
              pthread_t t;
              int n = 0;
              pthread_create(&t, 0, setter, 0);
              while (go == 0) {
                if (seen == 1 && n == 0) n = 1;
              }
              pthread_join(t, 0);
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("assert(n == 0);", &[], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(n == 1);", &[], FAILS, ONE_SCHEDULE),
            Check::verdict("assert(n == 0 || n == 1);", &[], HOLDS, ONE_SCHEDULE),
        ],
    },
    Program {
        what: "a thread that spins for ever on a flag no one sets does not hide another thread's violation",
        test: "busy-spinning-thread",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int go, x;
            void *spinner(void *arg) {
              while (go == 0) {}
              x = 1;
              return 0;
            }
            void *other(void *arg) {
              LAST
              return 0;
            }
            int main(void) {
              pthread_t a, b;
              pthread_create(&a, 0, spinner, 0);
              pthread_create(&b, 0, other, 0);
            #ifdef JOIN
              pthread_join(a, 0);
              assert(0);
            #endif
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("assert(x == 0);", &[], HOLDS, SPINS),
            Check::verdict("assert(x == 1);", &[], FAILS, SPINS),
            Check::verdict("assert(x == 0);", &["-DJOIN"], HOLDS, SPINS),
            Check::verdict("assert(x == 1);", &["-DJOIN"], FAILS, SPINS),
        ],
    },
    Program {
        what: "the main thread spinning for ever does not hide a started thread's violation, and what follows the spin is reached once the flag is set",
        test: "busy-spinning-main",
        text: r#"
            #include <assert.h>
            #include <pthread.h>
            int go, x;
            void *worker(void *arg) {
              x = 1;
              LAST
              return 0;
            }
            int main(void) {
              pthread_t t;
              pthread_create(&t, 0, worker, 0);
              while (go == 0) {}
              assert(x == 2);
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("", &[], HOLDS, SPINS),
            Check::verdict("assert(x == 0);", &[], FAILS, SPINS),
            Check::fails("x = 3; go = 1;", &["-lpthread"]),
            Check::holds("x = 2; go = 1;", &["-lpthread"]),
        ],
    },
    Program {
        what: "a busy-wait races with the write that releases it, and the data-race check still sees it",
        test: "busy-race",
        text: r#"
            #include <pthread.h>
            int go;
            void *spinner(void *arg) {
              while (go == 0) {}
              return 0;
            }
            int main(void) {
              pthread_t t;
              LAST
              pthread_create(&t, 0, spinner, 0);
            #ifdef RELEASE
              go = 1;
            #endif
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("", &["--data-races-check", "-DRELEASE"], FAILS, RACES_UNSEEN),
            Check::holds("go = 1;", &["--data-races-check", "-lpthread"]),
        ],
    },
    Program {
        what: "a sequential busy-wait on an input: the loop is left only when its condition is false, and an asked bound keeps its unwinding assertion",
        test: "busy-sequential",
        text: r#"
            #include <assert.h>
            int __VERIFIER_nondet_int(void);
            int main(void) {
              int x = __VERIFIER_nondet_int();
              while (x > 0) {}
              LAST
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("assert(x <= 0);", &[], HOLDS, NONDET),
            Check::verdict("assert(x < 0);", &[], FAILS, NONDET),
            Check::verdict("assert(x <= 0);", &["--unwind", "3"], FAILS, NONDET),
        ],
    },
];

#[test]
fn every_program_gets_its_verdicts() {
    assert_twins(PROGRAMS);
    check_programs(PROGRAMS);
}
