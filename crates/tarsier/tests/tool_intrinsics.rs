//! CBMC's and ESBMC's own intrinsics whose meaning the front end fixes:
//! `__CPROVER_bool` is `_Bool`; `__CPROVER_enum_is_in_range(e)` is whether `e` holds one of its
//! enumerated type's values; `__CPROVER_saturating_plus`/`minus` clamp to
//! the range of their operands' common type. gcc has none of them, so the programs define
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
    Program {
        what: "saturating arithmetic clamps to the range of the operands' common type",
        test: "tool-saturating",
        text: r#"
            #include <assert.h>
            #include <limits.h>
            #ifndef __TARSIER__
            #define SAT(name, T, MIN, MAX, op, up) \
              static T name(T a, T b) { T r; return op(a, b, &r) ? ((up) ? MAX : MIN) : r; }
            SAT(plus_i, int, INT_MIN, INT_MAX, __builtin_add_overflow, b > 0)
            SAT(minus_i, int, INT_MIN, INT_MAX, __builtin_sub_overflow, b < 0)
            SAT(plus_l, long, LONG_MIN, LONG_MAX, __builtin_add_overflow, b > 0)
            SAT(minus_l, long, LONG_MIN, LONG_MAX, __builtin_sub_overflow, b < 0)
            SAT(plus_ul, unsigned long, 0, ULONG_MAX, __builtin_add_overflow, b > 0)
            SAT(minus_ul, unsigned long, 0, ULONG_MAX, __builtin_sub_overflow, b < 0)
            #define __CPROVER_saturating_plus(a, b) \
              _Generic((a) + (b), int: plus_i, long: plus_l, unsigned long: plus_ul)((a), (b))
            #define __CPROVER_saturating_minus(a, b) \
              _Generic((a) + (b), int: minus_i, long: minus_l, unsigned long: minus_ul)((a), (b))
            #endif
            #ifndef X
            #define X 0
            #endif
            #ifndef L
            #define L 0
            #endif
            int main(void) {
              volatile int x = X;
              volatile long l = L;
              volatile unsigned long u = 7;
              assert(__CPROVER_saturating_minus(-1, INT_MIN) == INT_MAX && __CPROVER_saturating_minus(u, u + 1) == 0);
              assert(__CPROVER_saturating_plus(u, ULONG_MAX) == ULONG_MAX && __CPROVER_saturating_minus(-1, x) == -1 - x);
              assert(LAST);
              return 0;
            }
        "#,
        checks: &[
            Check::holds("__CPROVER_saturating_plus(x, 1) == INT_MAX && __CPROVER_saturating_minus(-x, 2) == INT_MIN", &["-DX=INT_MAX"]),
            Check::holds("__CPROVER_saturating_plus(x, 1) == INT_MAX", &["-DX=INT_MAX", "--overflow-check"]),
            Check::fails("__CPROVER_saturating_plus(x, 1) == INT_MIN", &["-DX=INT_MAX"]),
            Check::holds("__CPROVER_saturating_plus(l, l) == LONG_MIN && __CPROVER_saturating_minus(l, 1) == LONG_MIN && __CPROVER_saturating_minus(-1, l) == LONG_MAX", &["-DL=LONG_MIN"]),
            Check::fails("__CPROVER_saturating_plus(l, l) == 0", &["-DL=LONG_MIN"]),
            // Mixed operands meet in unsigned long: -1 is its maximum.
            Check::holds("__CPROVER_saturating_plus(x, 1ul) == ULONG_MAX", &["-DX=-1"]),
            Check::fails("__CPROVER_saturating_plus(x, 1ul) == 0", &["-DX=-1"]),
        ],
    },
    Program {
        what: "CBMC's __CPROVER_bool is a Boolean: a value converted to it is whether the value is nonzero",
        test: "tool-cprover-bool",
        text: r#"
            #include <assert.h>
            #ifndef __TARSIER__
            typedef _Bool __CPROVER_bool;
            #endif
            int main(void) {
              volatile int n = VALUE;
              __CPROVER_bool b = n;
              LAST;
              return 0;
            }
        "#,
        checks: &[
            Check::holds("assert(b == 1 && sizeof(__CPROVER_bool) == 1)", &["-DVALUE=2"]),
            Check::fails("assert(b == 2)", &["-DVALUE=2"]),
            Check::holds("assert(b == 0)", &["-DVALUE=0"]),
            Check::fails("assert(b != (__CPROVER_bool)n)", &["-DVALUE=-5"]),
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
