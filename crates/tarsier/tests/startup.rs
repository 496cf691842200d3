//! What runs before and after `main`: GCC's `constructor` and `destructor`
//! attributes in glibc's order (constructors by priority, then definition
//! order, before `main`; destructors in the reverse order where the
//! program ends normally, after the `atexit` handlers registered since
//! and before those a destructor registers), and `alias` names for
//! functions and objects. Each table entry is checked against gcc too
//! (`common::table`); the multi-unit programs run through `verdict`.

mod common;

use common::table::{assert_twins, check_programs, Check, Program, FAILS, HOLDS};
use common::{run, scratch_dir, write};

/// Every constructor, destructor and `atexit` handler appends its digit to
/// `seq`; the handler a destructor registers runs last of all and checks
/// it. `END` is how `main` ends.
const ORDER: &str = r#"
#include <assert.h>
#include <stdlib.h>
#include <unistd.h>
long seq;
static void note(int d) { seq = seq * 10 + d; }
static void last(void) { note(9); assert(seq == EXPECTED); }
static void from_ctor(void) { note(5); }
static void from_main(void) { note(4); }
__attribute__((constructor)) static void c_plain(void) { note(3); atexit(from_ctor); }
__attribute__((constructor(200))) static void c_200(void) { note(2); }
__attribute__((constructor(101))) static void c_101(void) { note(1); }
__attribute__((destructor)) static void d_plain_a(void) { note(7); }
__attribute__((destructor(101))) static void d_101(void) { note(8); atexit(last); }
__attribute__((destructor)) static void d_plain_b(void) { note(6); }
int main(void) {
  assert(seq == 123);
  atexit(from_main);
  LAST;
}
"#;

const PROGRAMS: &[Program] = &[
    Program {
        what: "constructors run before main, destructors and atexit handlers after it, in glibc's order",
        test: "startup-order",
        text: ORDER,
        checks: &[
            Check::holds("return 0", &["-DEXPECTED=123456789L"]),
            Check::fails("return 0", &["-DEXPECTED=123456879L"]),
            Check::holds("exit(0)", &["-DEXPECTED=123456789L"]),
            Check::fails("exit(0)", &["-DEXPECTED=12345679L"]),
            // `_exit` runs neither handlers nor destructors.
            Check::holds("_exit(0)", &["-DEXPECTED=0"]),
        ],
    },
    Program {
        what: "a constructor's state is there when main starts, a destructor's check fails after it returns",
        test: "startup-state",
        text: r#"
            #include <assert.h>
            int ready, finished;
            __attribute__((constructor)) static void set_up(void) { ready = 42; }
            void tear_down(void) __attribute__((destructor));
            void tear_down(void) { assert(finished); }
            int main(void) {
              assert(ready == 42);
              LAST;
              return 0;
            }
        "#,
        checks: &[Check::holds("finished = 1", &[]), Check::fails("finished = 0", &[])],
    },
    Program {
        what: "an alias is the same function or object as its target",
        test: "startup-alias",
        text: r#"
            #include <assert.h>
            int counter;
            int target_value = 5;
            void bump(int n) { counter += n; }
            void bump_alias(int n) __attribute__((alias("bump")));
            extern int value_alias __attribute__((alias("target_value")));
            static int hidden(void) { return 7; }
            int shown(void) __attribute__((alias("hidden")));
            int main(void) {
              bump_alias(3);
              value_alias = 9;
              assert(LAST);
              return 0;
            }
        "#,
        checks: &[
            Check::holds("counter == 3 && target_value == 9 && &value_alias == &target_value && bump_alias == bump && shown() == 7", &[]),
            Check::fails("counter == 0", &[]),
            Check::fails("target_value == 5", &[]),
        ],
    },
];

#[test]
fn every_program_gets_its_verdicts() {
    check_programs(PROGRAMS);
}

#[test]
fn every_program_that_holds_has_a_false_twin() {
    assert_twins(PROGRAMS);
}

/// The last line of stdout for the program made of `units` (name, text).
fn verdict_of_units(test: &str, units: &[(&str, &str)], flags: &[&str]) -> String {
    let dir = scratch_dir(test);
    let mut args: Vec<String> = units.iter().map(|(name, text)| write(&dir, name, text).display().to_string()).collect();
    args.extend(flags.iter().map(|f| f.to_string()));
    run(&args).stdout.lines().last().unwrap_or_default().to_string()
}

#[test]
fn a_weak_alias_gives_way_to_another_units_definition() {
    let alias = "int impl(void) { return 1; }\nint api(void) __attribute__((weak, alias(\"impl\")));\n";
    let main = "#include <assert.h>\nint api(void);\nint main(void) { assert(api() == EXPECTED); return 0; }\n";
    let strong = "int api(void) { return 2; }\n";
    for order in [[("main.c", main), ("alias.c", alias)], [("alias.c", alias), ("main.c", main)]] {
        assert_eq!(verdict_of_units("weak-alias", &order, &["-DEXPECTED=1"]), HOLDS);
        assert_eq!(verdict_of_units("weak-alias", &order, &["-DEXPECTED=2"]), FAILS);
    }
    let three = [("main.c", main), ("alias.c", alias), ("strong.c", strong)];
    assert_eq!(verdict_of_units("weak-alias-overridden", &three, &["-DEXPECTED=2"]), HOLDS);
    assert_eq!(verdict_of_units("weak-alias-overridden", &three, &["-DEXPECTED=1"]), FAILS);
}

#[test]
fn constructors_of_one_priority_run_in_link_order() {
    let first = "extern int seq;\n__attribute__((constructor)) static void a(void) { seq = seq * 10 + 1; }\n";
    let second = "extern int seq;\n__attribute__((constructor)) static void b(void) { seq = seq * 10 + 2; }\n";
    let main = "#include <assert.h>\nint seq;\nint main(void) { assert(seq == EXPECTED); return 0; }\n";
    let units = [("main.c", main), ("first.c", first), ("second.c", second)];
    assert_eq!(verdict_of_units("ctor-link-order", &units, &["-DEXPECTED=12"]), HOLDS);
    assert_eq!(verdict_of_units("ctor-link-order", &units, &["-DEXPECTED=21"]), FAILS);
}
