//! The order of evaluation C leaves open (C11 6.5p3, 6.5.2.2p10,
//! 6.5.16p3): the arguments of a call and its callee, the operands of a
//! binary operator, the sides of an assignment (more in evaluation.rs).
//! gcc evaluates arguments right to left, clang left to right, and a call
//! in one operand may come before or after the reads of another: a
//! verdict holds for every order, so a FALSE twin fails under gcc's order
//! (checked natively) and another fails only under an order gcc does not
//! take (its native run exits normally, so it is not run). Calls that
//! cannot observe each other keep one order and their verdicts.

mod common;

use common::table::{assert_twins, check_programs, Check, Program, UNKNOWN};

/// The compiled program takes another order and exits normally.
const OTHER_ORDER: &str = "gcc takes an order under which the assertion holds";

const PROGRAMS: &[Program] = &[
    Program {
        what: "calls in the operands are evaluated in every order",
        test: "order-calls",
        text: r#"
            #include <assert.h>
            static int n;
            int g(void) { return ++n; }
            int set(int v) { n = v; return v; }
            int pure(int x) { return x * 2; }
            int f2(int a, int b) { return a * 10 + b; }
            int f3(int a, int b, int c) { return a * 100 + b * 10 + c; }
            int f4(int a, int b, int c, int d) { return a * 1000 + b * 100 + c * 10 + d; }
            int one(int x) { (void)x; return 1; }
            int two(int x) { (void)x; return 2; }
            int (*fp)(int) = one;
            int swap(void) { fp = two; return 0; }
            int main(void) {
              LAST;
              return 0;
            }
        "#,
        checks: &[
            // Arguments: gcc gives 21, clang 12.
            Check::holds("int z = f2(g(), g()); assert(z == 12 || z == 21)", &[]),
            Check::fails("assert(f2(g(), g()) == 12)", &[]),
            Check::fails("assert(f2(g(), g()) == 21)", &[]).not_native(OTHER_ORDER),
            // Three arguments: all six orders, also those no compiler above takes.
            Check::holds("int z = f3(g(), g(), g()); assert(z == 123 || z == 132 || z == 213 || z == 231 || z == 312 || z == 321)", &[]),
            Check::fails("assert(f3(g(), g(), g()) != 321)", &[]),
            Check::fails("assert(f3(g(), g(), g()) != 213)", &[]).not_native(OTHER_ORDER),
            // Four arguments: the two compilers' orders of the 24, so no proof.
            Check::verdict("assert(f4(g(), g(), g(), g()) > 0)", &[], UNKNOWN, "only some orders are explored: no TRUE"),
            Check::fails("assert(f4(g(), g(), g(), g()) != 4321)", &[]),
            // Binary operands: gcc evaluates the left one first here.
            Check::holds("int d = g() - g(); assert(d == -1 || d == 1)", &[]),
            Check::fails("assert(g() - g() == 1)", &[]),
            Check::fails("assert(g() - g() == -1)", &[]).not_native(OTHER_ORDER),
            // A read in one operand, a call writing it in the other.
            Check::holds("int s = n + set(5); assert(s == 5 || s == 10)", &[]),
            Check::fails("assert(n + set(5) == 5)", &[]),
            Check::fails("assert(n + set(5) == 10)", &[]).not_native(OTHER_ORDER),
            // Nested calls: gcc gives 201.
            Check::holds("int z = f2(f2(g(), 0), g()); assert(z == 102 || z == 201)", &[]),
            Check::fails("assert(f2(f2(g(), 0), g()) == 102)", &[]),
            Check::fails("assert(f2(f2(g(), 0), g()) == 201)", &[]).not_native(OTHER_ORDER),
            // The callee is read before or after an argument changes it: gcc reads it first.
            Check::holds("int r = fp(swap()); assert(r == 1 || r == 2)", &[]),
            Check::fails("assert(fp(swap()) == 2)", &[]),
            Check::fails("assert(fp(swap()) == 1)", &[]).not_native(OTHER_ORDER),
            // Assignments: the place, the old value of `op=` and the right side (gcc: `n` read after `g`, the place first).
            Check::holds("n += g(); assert(n == 1 || n == 2)", &[]),
            Check::fails("n += g(); assert(n == 1)", &[]),
            Check::fails("n += g(); assert(n == 2)", &[]).not_native(OTHER_ORDER),
            Check::holds("int a[4] = {0}; int v = (a[g()] = g()); assert((v == 2 && a[1] == 2) || (v == 1 && a[2] == 1))", &[]),
            Check::fails("int a[4] = {0}; a[g()] = g(); assert(a[2] == 1)", &[]),
            Check::fails("int a[4] = {0}; a[g()] = g(); assert(a[1] == 2)", &[]).not_native(OTHER_ORDER),
            // Calls that change nothing another operand sees: one order suffices.
            Check::holds("assert(f2(pure(1), pure(2)) == 24 && pure(3) + pure(4) == 14)", &[]),
            Check::fails("assert(pure(3) + pure(4) == 15)", &[]),
            Check::holds("int z = f2(pure(1), g()); assert(z == 21)", &[]),
            Check::fails("int z = f2(pure(1), g()); assert(z == 20)", &[]),
            // A pure built-in changes nothing, but reads what a call in another operand writes (gcc reads first here).
            Check::holds("int s = __builtin_popcount(n) + set(7); assert(s == 7 || s == 10)", &[]),
            Check::fails("assert(__builtin_popcount(n) + set(7) == 10)", &[]),
            Check::fails("assert(__builtin_popcount(n) + set(7) == 7)", &[]).not_native(OTHER_ORDER),
        ],
    },
    Program {
        what: "an operand that may never return hides no other operand's failure",
        test: "order-never-returns",
        text: r#"
            #include <assert.h>
            int spin(int x) { while (x) { x = x | 1; } return x; }
            int recurse(int x) { return x ? recurse(x) : 0; }
            int f2(int a, int b) { return a + b; }
            int main(void) {
              int zero = 0, one = 1;
              LAST;
              return 0;
            }
        "#,
        checks: &[
            // gcc divides first (right to left); clang would loop for ever first.
            Check::fails("int r = f2(spin(one), 10 / zero); (void)r", &[]),
            Check::fails("int r = f2(recurse(one), 10 / zero); (void)r", &[]),
            Check::holds("int r = f2(spin(zero), 10 / one); assert(r == 10)", &[]),
            Check::holds("int r = f2(recurse(zero), 10 / one); assert(r == 10)", &[]),
            // Binary operands: gcc runs the loop first, which never ends.
            Check::fails("int r = spin(one) + 10 / zero; (void)r", &[]).not_native(NEVER_ENDS),
            Check::holds("int r = spin(zero) + 10 / one; assert(r == 10)", &[]),
        ],
    },
];

/// The compiled program runs a loop that never ends first.
const NEVER_ENDS: &str = "gcc takes the order in which the loop runs first, for ever";

#[test]
fn every_program_gets_its_verdicts() {
    check_programs(PROGRAMS);
}

#[test]
fn every_program_that_holds_has_a_false_twin() {
    assert_twins(PROGRAMS);
}
