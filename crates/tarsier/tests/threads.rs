//! Threads are not built yet: a program that starts one is unsupported
//! where the start is reached (UNKNOWN, never the thread's code run in line
//! as a call), while a violation before it is still reported. The spawns
//! are CBMC's `__CPROVER_ASYNC_n:` labels, `pthread_create` and ESBMC's
//! `__ESBMC_spawn_thread`.

mod common;

use common::table::{check_programs, Check, Program, FAILS, UNKNOWN};

/// A spawned thread's effect cannot be checked natively: gcc reads the
/// label as an ordinary one and runs the call in line.
const SEQUENTIAL_NATIVELY: &str = "gcc runs the spawned statement in line";

const PROGRAMS: &[Program] = &[
    Program {
        what: "CBMC's thread-spawn labels start a thread, which is unsupported",
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
            Check::verdict("", &[], UNKNOWN, SEQUENTIAL_NATIVELY),
            Check::verdict("", &["--unwind", "2"], UNKNOWN, SEQUENTIAL_NATIVELY),
            Check::fails("assert(x == 1);", &[]),
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
];

#[test]
fn every_program_gets_its_verdicts() {
    check_programs(PROGRAMS);
}
