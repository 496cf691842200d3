//! When C evaluates an expression, and to what: a value nobody uses is
//! still computed, with its undefined behaviour (expression statements,
//! casts to `void`, comma operands, the selected operand of `?:`), while
//! the operands of `sizeof` (unless of variable-length array type) and
//! `_Alignof` are not; and the value of an assignment is the value
//! stored, converted to the lvalue's type, never read back from the
//! lvalue; the two sides of an assignment are evaluated in every order.
//! Each table entry is checked against gcc too (`common::table`).

mod common;

use common::table::{assert_twins, check_programs, Check, Program, HOLDS};

/// gcc at -O0 drops a load whose value nobody uses, so the compiled
/// program shows no fault, though C leaves it undefined.
const OMITTED_LOAD: &str = "gcc omits the unused load";
/// gcc takes an order of evaluation under which the assertion holds.
const OTHER_ORDER: &str = "gcc takes an order under which the assertion holds";
/// gcc drops unused arithmetic before UBSan instruments it.
const OMITTED_ARITHMETIC: &str = "gcc omits the unused arithmetic";

/// `LAST` is a statement run with these variables in scope; `-DZERO=1`
/// makes `zero` one, `-DINDEX=3` moves `i` in bounds.
const STATEMENT: &str = r#"
#include <limits.h>
#ifndef ZERO
#define ZERO 0
#endif
#ifndef INDEX
#define INDEX 4
#endif
int main(void) {
  int x = 1, zero = ZERO, one = 1, i = INDEX, a[4] = {0};
  int *null = 0;
  int *valid = &a[1];
  void *vnull = 0;
  void *vvalid = &a[1];
  void *vend = &a[4];
  (void)x; (void)zero; (void)one; (void)i; (void)null; (void)valid; (void)vnull; (void)vvalid; (void)vend;
  LAST;
  return 0;
}
"#;

const PROGRAMS: &[Program] = &[
    Program {
        what: "a division whose value is unused is still checked",
        test: "eval-division",
        text: STATEMENT,
        checks: &[
            Check::fails("x / zero", &[]),
            Check::holds("x / zero", &["-DZERO=1"]),
            Check::fails("x % zero", &[]),
            Check::fails("(void)(x / zero)", &[]),
            Check::holds("(void)(x / zero)", &["-DZERO=1"]),
            Check::fails("(x / zero, 0)", &[]),
            Check::fails("(0, x % zero)", &[]),
            Check::holds("(0, x % zero)", &["-DZERO=1"]),
        ],
    },
    Program {
        what: "a dereference whose value is unused is still checked, through a pointer of any type",
        test: "eval-dereference",
        text: STATEMENT,
        checks: &[
            Check::fails("*null", &[]).not_native(OMITTED_LOAD),
            Check::holds("*valid", &[]),
            Check::fails("(void)*null", &[]).not_native(OMITTED_LOAD),
            Check::fails("*vnull", &[]).not_native(OMITTED_LOAD),
            Check::holds("*vvalid", &[]),
            // One past the end: a pointer that may be formed, not dereferenced (C11 6.5.6p8).
            Check::fails("*vend", &[]).not_native(OMITTED_LOAD),
            Check::fails("*(int *)vnull", &[]).not_native(OMITTED_LOAD),
            Check::holds("*(int *)vvalid", &[]),
            Check::fails("++*null", &[]),
            Check::holds("++*valid", &[]),
        ],
    },
    Program {
        what: "an array element whose value is unused is still bounds-checked",
        test: "eval-index",
        text: STATEMENT,
        checks: &[
            Check::fails("a[i]", &[]),
            Check::holds("a[i]", &["-DINDEX=3"]),
            Check::fails("(void)a[i]", &[]),
            Check::fails("(a[i], 0)", &[]),
        ],
    },
    Program {
        what: "shifts and overflowing arithmetic whose value is unused are still checked",
        test: "eval-arithmetic",
        text: STATEMENT,
        checks: &[
            Check::fails("x << 40", &["--ub-shift-check"]),
            Check::holds("x << 30", &["--ub-shift-check"]),
            Check::fails("x << -one", &["--ub-shift-check"]),
            // ESBMC's check also covers a signed result that does not fit
            // (C11 6.5.7p4); CBMC's leaves it to the overflow check.
            Check::fails("x << 31", &["--ub-shift-check"]),
            Check::fails("(void)(INT_MAX << one)", &["--ub-shift-check"]),
            Check::holds("(void)((INT_MAX >> 1) << one)", &["--ub-shift-check"]),
            Check::holds("(void)(UINT_MAX << one)", &["--ub-shift-check"]),
            Check::verdict("x << 31", &["--undefined-shift-check"], HOLDS, "UBSan reports the result CBMC's check leaves to the overflow check"),
            Check::fails("x << 40", &["--undefined-shift-check"]),
            Check::fails("x << 31", &["--overflow-check"]),
            Check::fails("(void)(x + INT_MAX)", &["--overflow-check"]).not_native(OMITTED_ARITHMETIC),
            Check::holds("(void)(x + (INT_MAX - 1))", &["--overflow-check"]),
            Check::fails("(void)-(x + INT_MIN - 1)", &["--overflow-check"]).not_native(OMITTED_ARITHMETIC),
        ],
    },
    Program {
        what: "the operand of ?:, && or || that is evaluated is checked, the other one is not",
        test: "eval-conditional",
        text: STATEMENT,
        checks: &[
            Check::fails("one ? x / zero : 0", &[]),
            Check::holds("zero ? x / zero : 0", &[]),
            Check::fails("zero ? 0 : x / zero", &[]),
            Check::holds("one ? (void)0 : (void)(x / zero)", &[]),
            Check::fails("zero ? (void)0 : (void)(x / zero)", &[]),
            Check::fails("one ? (void)(x << 40) : (void)0", &["--ub-shift-check"]),
            Check::holds("zero ? (void)(x << 40) : (void)0", &["--ub-shift-check"]),
            Check::fails("one ? *vnull : (void)0", &[]).not_native(OMITTED_LOAD),
            Check::holds("zero ? *vnull : (void)0", &[]),
            Check::holds("zero && (x / zero)", &[]),
            Check::fails("one && (x / zero)", &[]),
            Check::holds("one || (x / zero)", &[]),
            Check::fails("one && (x << 40, 1)", &["--ub-shift-check"]),
            Check::holds("zero && (x << 40, 1)", &["--ub-shift-check"]),
            Check::holds("zero && ((void)(x << 40), 1)", &["--ub-shift-check"]),
        ],
    },
    Program {
        what: "the operands of sizeof and _Alignof are not evaluated",
        test: "eval-sizeof",
        text: STATEMENT,
        checks: &[
            Check::holds("(void)sizeof(x / zero)", &[]),
            Check::holds("(void)sizeof(*null)", &[]),
            Check::holds("(void)sizeof(a[i])", &[]),
            Check::holds("(void)_Alignof(*null)", &[]),
            Check::holds("(void)sizeof(x << 40)", &["--ub-shift-check"]),
            Check::fails("(void)sizeof(x / zero), x / zero", &[]),
        ],
    },
    Program {
        what: "the operand of sizeof is evaluated when it is a variable-length array",
        test: "eval-sizeof-vla",
        text: r#"
            #include <assert.h>
            int main(void) {
              int n = 2, i = 0, j = 0;
              int m[n][n];
              unsigned long row = sizeof(m[i++]);
              unsigned long element = sizeof(m[0][j++]);
              unsigned long type = sizeof(int[n++]);
              assert(row == 2 * sizeof(int) && element == sizeof(int) && type == 2 * sizeof(int));
              assert(LAST);
              return 0;
            }
        "#,
        checks: &[Check::holds("i == 1 && j == 0 && n == 3", &[]), Check::fails("i == 0", &[]), Check::fails("j == 1", &[])],
    },
    Program {
        what: "the value of an assignment is the value stored, not the lvalue read again",
        test: "eval-assignment-value",
        text: r#"
            #include <assert.h>
            struct A { struct A *p; } x = {&x}, y = {&y};
            int main(void) {
              struct A *r = x.p->p = 0;
              y.p->p = 0;
              int a[3] = {0, 5, 6}, b[3] = {0, 5, 6}, c[3] = {0, 5, 6}, d[3] = {2, 5, 6};
              int v = (a[a[0]] = 1);
              int w = ++b[b[0]];
              int u = (c[c[0]] += 2);
              int t = d[d[0]]--;
              int k = 7, *p = &k;
              int s = (*p = *p + 1), q = (*p += *p);
              assert(LAST);
              return 0;
            }
        "#,
        checks: &[
            Check::holds("r == 0 && x.p == 0 && y.p == 0", &[]),
            Check::holds("v == 1 && w == 1 && u == 2 && t == 6 && d[2] == 5", &[]),
            Check::holds("s == 8 && q == 16 && k == 16", &[]),
            Check::fails("v == a[a[0]]", &[]),
            Check::fails("w == b[b[0]]", &[]),
            Check::fails("u == c[c[0]]", &[]),
        ],
    },
    Program {
        what: "the value of an assignment is converted to the lvalue's type, bit-fields truncated",
        test: "eval-assignment-conversion",
        text: r#"
            #include <assert.h>
            struct B { int f : 3; unsigned u : 2; long long g : 40; _Bool b : 1; } s, *sp = &s;
            int main(void) {
              int i; char c; unsigned char uc; float f;
              i = c = 300;
              long l = uc = -1;
              double d = (f = 0.1);
              int r = (s.f = 5);
              unsigned q = (sp->u = 7);
              int t = ++sp->f;
              int m = (s.u += 3);
              long long g = (sp->g = 0xF23456789ALL);
              int b = (s.b = 4);
              volatile int vol;
              int v = (vol = 3);
              assert(LAST);
              return 0;
            }
        "#,
        checks: &[
            Check::holds("i == 44 && l == 255 && d == (double)0.1f", &[]),
            Check::holds("r == -3 && q == 3 && t == -2 && m == 2 && b == 1 && v == 3", &[]),
            Check::holds("g == 0xF23456789ALL - 0x10000000000LL", &[]),
            Check::fails("i == 300", &[]),
            Check::fails("d == 0.1", &[]),
            Check::fails("r == 5", &[]),
            Check::fails("q == 7", &[]),
            Check::fails("g == 0xF23456789ALL", &[]),
        ],
    },
    Program {
        what: "the two sides of an assignment are evaluated in every order (C leaves it unspecified), gcc's among them",
        test: "eval-assignment-order",
        text: r#"
            #include <assert.h>
            int k; int a[8]; long la[8]; int *p = &a[0];
            struct S { int v; } s[4]; struct S *sp = &s[0];
            struct B { unsigned f : 5; } bs[4];
            struct T { int x, y; } ta[4];
            static int bump(void) { k++; return 10; }
            static long lbump(void) { k++; return 10; }
            static int move(void) { p = &a[5]; return 20; }
            static int smove(void) { sp = &s[3]; return 1; }
            static struct T tbump(void) { k++; struct T t = { 10, 11 }; return t; }
            static void clear(void) { for (int i = 0; i < 8; i++) a[i] = la[i] = 0; k = 1; p = &a[0]; }
            int main(void) {
              clear(); a[k] = bump(); int simple = a[1];
              clear(); a[k] += bump(); int compound = a[2];
              clear(); *p = move(); int deref = a[0];
              clear(); *p += move(); int deref_compound = a[5];
              sp->v += smove(); int member_compound = s[3].v;
              clear(); a[k++] += bump(); int post_compound = a[2] + 100 * k;
              clear(); bs[k].f = bump(); int bit_field = bs[2].f;
              clear(); *p++ += move(); int pointer_compound = a[5] + 100 * (int)(p - a);
              clear(); a[k] = lbump(); int converted = a[2];
              clear(); a[k] = -bump(); int negated = a[2];
              clear(); ta[k] = tbump(); int record = ta[1].x;
              assert(LAST);
              return 0;
            }
        "#,
        checks: &[
            // Every order: gcc's values or the other order's.
            Check::holds("(simple == 10 || simple == 0) && (deref == 20 || deref == 0) && (record == 10 || record == 0)", &[]),
            Check::holds("(compound == 10 || compound == 0) && (deref_compound == 20 || deref_compound == 0) && (member_compound == 1 || member_compound == 0)", &[]),
            Check::holds("(post_compound == 310 || post_compound == 300) && (pointer_compound == 620 || pointer_compound == 500)", &[]),
            Check::holds("(bit_field == 10 || bit_field == 0) && (converted == 10 || converted == 0) && (negated == -10 || negated == 0)", &[]),
            // gcc's values alone: another order is permitted too.
            Check::fails("simple == 10 && deref == 20 && record == 10", &[]).not_native(OTHER_ORDER),
            Check::fails("compound == 10 && deref_compound == 20 && member_compound == 1", &[]).not_native(OTHER_ORDER),
            Check::fails("post_compound == 310 && pointer_compound == 620", &[]).not_native(OTHER_ORDER),
            Check::fails("bit_field == 10 && converted == 10 && negated == -10", &[]).not_native(OTHER_ORDER),
            Check::fails("compound == 0", &[]),
            Check::fails("simple == 0", &[]),
            Check::fails("deref_compound == 0", &[]),
            Check::fails("member_compound == 0", &[]),
            Check::fails("post_compound == 300", &[]),
            Check::fails("pointer_compound == 600", &[]),
            Check::fails("bit_field == 0", &[]),
            Check::fails("converted == 0", &[]),
            Check::fails("record == 0", &[]),
        ],
    },
    Program {
        what: "a member of a packed struct assigned from a call is accessed at the member's alignment",
        test: "eval-packed-assignment",
        text: r#"
            #include <assert.h>
            struct __attribute__((packed)) P { char c; int i; long long l; } q[3];
            static int k = 1;
            static int two(void) { return 2; }
            int main(void) {
              struct P p = { 1, 3, 4 };
              p.i += two();
              p.l = p.l * two();
              q[k].i = two();
              q[k].l -= two() + p.i;
              struct P *pp = &q[k];
              pp->i *= two();
              assert(LAST);
              return 0;
            }
        "#,
        checks: &[
            Check::holds("p.i == 5 && p.l == 8 && q[1].i == 4 && q[1].l == -7", &[]),
            Check::fails("p.i == 3", &[]),
            Check::fails("q[1].l == 0", &[]),
        ],
    },
    Program {
        what: "an index held for an assignment from a call keeps its whole width",
        test: "eval-wide-held-index",
        text: "int a[4];\nstatic int f(void) { return 1; }\nint main(void) { __int128 i = LAST; a[i] = f(); return a[3] - 1; }\n",
        checks: &[
            Check::holds("3", &[]),
            Check::fails("((__int128)1 << 64) + 3", &[]).not_native("the address wraps to a[3] natively; UBSan does not check an __int128 index"),
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
