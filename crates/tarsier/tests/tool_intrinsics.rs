//! CBMC's and ESBMC's own intrinsics whose meaning the front end fixes:
//! `__CPROVER_enum_is_in_range(e)` is whether `e` holds one of its
//! enumerated type's values. gcc has none of them, so the programs define
//! their meaning for gcc under `#ifndef __TARSIER__` and each entry is
//! checked natively too (`common::table`).

mod common;

use common::table::{assert_twins, check_programs, Check, Program, FAILS, HOLDS};

/// A nondeterministic input cannot be run natively.
const NONDET: &str = "the input is nondeterministic";

const PROGRAMS: &[Program] = &[
    Program {
        what: "an enumerated value is in range when it equals one of the enumerators, gaps and repeats included",
        test: "tool-enum-in-range",
        text: r#"
            #include <assert.h>
            enum color { RED = -1, GREEN = 2, BLUE = 2, ALIAS = RED, BIG = 7 };
            #ifndef __TARSIER__
            #define __CPROVER_enum_is_in_range(e) ((e) == RED || (e) == GREEN || (e) == BIG)
            #endif
            int main(void) {
              volatile int n = VALUE;
              enum color c = (enum color)n;
              LAST;
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(__CPROVER_enum_is_in_range(c))", &["-DVALUE=-1"]),
            Check::holds("assert(__CPROVER_enum_is_in_range(c))", &["-DVALUE=7"]),
            Check::fails("assert(__CPROVER_enum_is_in_range(c))", &["-DVALUE=3"]),
            Check::fails("assert(__CPROVER_enum_is_in_range(c))", &["-DVALUE=0"]),
            Check::holds("assert(!__CPROVER_enum_is_in_range(c))", &["-DVALUE=8"]),
        ],
    },
    Program {
        what: "assuming an enumerated input in range leaves exactly the enumerators' values",
        test: "tool-enum-assumed",
        text: r#"
            #include <assert.h>
            enum color { RED = -1, GREEN = 2, BLUE = 2, BIG = 7 };
            enum color nondet_color(void);
            int main(void) {
              enum color c = nondet_color();
              __CPROVER_assume(__CPROVER_enum_is_in_range(c));
              assert(LAST);
              return 0;
            }
        "#,
        checks: &[
            Check::verdict("c == RED || c == BLUE || c == BIG", &[], HOLDS, NONDET),
            Check::verdict("c != BIG", &[], FAILS, NONDET),
            Check::verdict("c != RED", &[], FAILS, NONDET),
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
