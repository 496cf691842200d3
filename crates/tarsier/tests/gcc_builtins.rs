//! GCC built-ins whose result gcc fixes at compile time or leaves
//! undefined: `__builtin_clz`/`ctz` of 0 (every fixed-width form, and the
//! type-generic `clzg`/`ctzg` without a result for 0) is a violation of the
//! bit-count property, on unless `--no-clz-zero-check`; the lock-free
//! queries fold to gcc's constants on x86-64, and `__atomic_is_lock_free`
//! that gcc leaves to libatomic follows libatomic where the processor does
//! not matter; the typed overflow built-ins (`__builtin_uadd_overflow`,
//! ...) compute and store in their own type. Each table entry is checked against gcc too
//! (`common::table`). In a static assertion, the bit built-ins of constant
//! arguments and the float classifications of constants fold as gcc folds
//! them (with comparisons of integers converted to pointers), and what gcc
//! does not fold (an overflowing or dividing-by-zero constant) is not
//! constant: checked against gcc as well.

mod common;

use common::table::{assert_twins, check_programs, Check, Program, UNKNOWN};
use common::{exit_code, gcc_works, run, scratch_dir, write};
use std::process::Command;

/// gcc 12 has no type-generic bit built-ins (GCC 14 does).
const NO_GENERIC: &str = "the type-generic bit built-ins are newer than gcc 12";

const PROGRAMS: &[Program] = &[
    Program {
        what: "clz and ctz of 0 are undefined in every form",
        test: "builtins-bit-count",
        text: r#"
            #include <assert.h>
            #ifndef ZERO
            #define ZERO 0
            #endif
            int main(void) {
              volatile unsigned zero = ZERO, one = 1;
              volatile unsigned long lzero = ZERO;
              volatile unsigned long long llzero = ZERO;
              volatile unsigned char czero = ZERO;
              (void)czero;
              LAST;
              return 0;
            }
        "#,
        checks: &[
            Check::fails("(void)__builtin_clz(zero)", &[]),
            Check::holds("(void)__builtin_clz(zero)", &["-DZERO=2"]),
            Check::fails("(void)__builtin_ctz(zero)", &[]),
            Check::fails("(void)__builtin_clzl(lzero)", &[]),
            Check::fails("(void)__builtin_ctzll(llzero)", &[]),
            Check::holds("(void)__builtin_ctzll(llzero)", &["-DZERO=8"]),
            Check::holds("assert(__builtin_clz(one) == 31 && __builtin_ctz(one << 4) == 4 && __builtin_clzll(llzero + 1) == 63)", &[]),
            Check::holds("assert(__builtin_ffs(zero) == 0 && __builtin_popcount(zero) == 0 && __builtin_parity(zero) == 0)", &[]),
            Check::fails("assert(__builtin_clz(one) == 32)", &[]),
            // Switched off, 0's count is unknown: nothing rests on it.
            Check::verdict("assert(__builtin_clz(zero) == 32)", &["--no-clz-zero-check"], UNKNOWN, "gcc gives 31 at -O0"),
            Check::verdict("(void)__builtin_clzg(czero)", &[], common::table::FAILS, NO_GENERIC),
            Check::verdict("(void)__builtin_ctzg(llzero)", &[], common::table::FAILS, NO_GENERIC),
            Check::verdict("assert(__builtin_clzg(czero, -1) == -1 && __builtin_ctzg(llzero, 64) == 64)", &[], common::table::HOLDS, NO_GENERIC),
            Check::verdict("assert(__builtin_clzg((unsigned char)1) == 7 && __builtin_ctzg((unsigned short)0x100) == 8)", &[], common::table::HOLDS, NO_GENERIC),
            Check::verdict("assert(__builtin_popcountg((unsigned __int128)-1) == 128 && __builtin_ffsg(czero) == 0)", &[], common::table::HOLDS, NO_GENERIC),
            Check::verdict("assert(__builtin_clzg(czero, 8) == 7)", &[], common::table::FAILS, NO_GENERIC),
        ],
    },
    Program {
        what: "lock-free queries are gcc's constants on x86-64, and libatomic's answers where the address decides",
        test: "builtins-lock-free",
        text: r#"
            #include <assert.h>
            int main(void) {
              long x;
              int i;
              char buf[32] __attribute__((aligned(16)));
              LAST;
              return 0;
            }
        "#,
        checks: &[
            Check::holds(
                "assert(__atomic_always_lock_free(1, 0) && __atomic_always_lock_free(2, 0) && __atomic_always_lock_free(4, 0) && __atomic_always_lock_free(8, 0))",
                &[],
            ),
            Check::holds("assert(!__atomic_always_lock_free(16, 0) && !__atomic_always_lock_free(3, 0) && !__atomic_always_lock_free(0, 0))", &[]),
            Check::fails("assert(__atomic_always_lock_free(16, 0))", &[]),
            // The pointed-to type's alignment, looking through pointer conversions.
            Check::holds(
                "assert(__atomic_always_lock_free(8, &x) && __atomic_always_lock_free(4, (char *)&i) && !__atomic_always_lock_free(4, buf) && !__atomic_always_lock_free(2, (short *)buf + 1))",
                &[],
            ),
            Check::fails("assert(__atomic_always_lock_free(4, buf))", &[]),
            Check::holds("assert(__atomic_is_lock_free(4, 0) && __atomic_is_lock_free(8, &x) && !__atomic_is_lock_free(32, 0))", &["-latomic"]),
            Check::holds("assert(__atomic_is_lock_free(3, 0) && __atomic_is_lock_free(4, buf + 2) && __atomic_is_lock_free(0, buf + 5))", &["-latomic"]),
            Check::holds("assert(!__atomic_is_lock_free(8, buf + 12))", &["-latomic"]),
            Check::fails("assert(__atomic_is_lock_free(8, buf + 12))", &["-latomic"]),
            // Within an aligned 16-byte word: the processor and libatomic decide.
            Check::verdict("assert(__atomic_is_lock_free(16, buf))", &["-latomic"], UNKNOWN, "the processor decides"),
            Check::verdict("assert(!__atomic_is_lock_free(8, buf + 4))", &["-latomic"], UNKNOWN, "the processor decides"),
        ],
    },
    Program {
        what: "the typed overflow built-ins compute in their own type, whatever their result pointer points to",
        test: "builtins-typed-overflow",
        text: r#"
            #include <assert.h>
            #include <limits.h>
            int main(void) {
              volatile unsigned x = 0x7fffffff;
              volatile long big = LONG_MAX;
              int y;
              unsigned u;
              unsigned long ul;
              short s;
              _Bool c;
              LAST;
              return 0;
            }
        "#,
        checks: &[
            // Unsigned addition into an int object: no overflow below UINT_MAX.
            Check::holds("c = __builtin_uadd_overflow(2, x, (void *)&y); assert(!c && y == -2147483647)", &[]),
            Check::fails("c = __builtin_uadd_overflow(2, x, (void *)&y); assert(c)", &[]),
            Check::holds("c = __builtin_sadd_overflow(INT_MAX, 1, (void *)&u); assert(c && u == 0x80000000u)", &[]),
            Check::fails("c = __builtin_sadd_overflow(INT_MAX, 1, (void *)&u); assert(!c)", &[]),
            Check::holds("c = __builtin_saddl_overflow(big, 0, (void *)&ul); assert(!c && ul == LONG_MAX)", &[]),
            Check::fails("c = __builtin_umull_overflow(big, 2, (void *)&ul); assert(c)", &[]),
            // The int result does not fit in a short.
            Check::fails("c = __builtin_sadd_overflow(1, 2, (void *)&s)", &[]),
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

/// What a compiler makes of `_Static_assert(cond, "")`.
#[derive(Debug, PartialEq, Clone, Copy)]
enum Folded {
    Holds,
    Fails,
    NotConstant,
}

/// Static assertions over built-ins, with what gcc 12 answers: every
/// holding one has a failing twin.
const STATIC_ASSERTIONS: &[(&str, Folded)] = &[
    ("__builtin_ffs(0) == 0", Folded::Holds),
    ("__builtin_ffs(0) == 1", Folded::Fails),
    ("__builtin_ffsl(LONG_MIN) == sizeof(long) * 8", Folded::Holds),
    ("__builtin_ffsll(LLONG_MIN) == 63", Folded::Fails),
    ("__builtin_popcount(7) + __builtin_parity(3) + __builtin_clzll(1) == 66", Folded::Holds),
    ("__builtin_bswap32(1) + __builtin_ctzl(8) == 0x1000003", Folded::Holds),
    ("__builtin_bswap16(1) == 1", Folded::Fails),
    ("__builtin_isnormal(DBL_MIN)", Folded::Holds),
    ("__builtin_isnormal(DBL_MIN / 2)", Folded::Fails),
    ("!__builtin_isinf(DBL_MAX + 0.0)", Folded::Holds),
    ("__builtin_isinf_sign(0.0)", Folded::Fails),
    ("__builtin_fpclassify(0, 1, 2, 3, 4, -0.0) == 4", Folded::Holds),
    ("__builtin_fpclassify(0, 1, 2, 3, 4, DBL_MIN) == 3", Folded::Fails),
    ("__builtin_isinf(1.0 / 0.0)", Folded::NotConstant),
    ("__builtin_isinf(DBL_MAX + DBL_MAX)", Folded::NotConstant),
    // Not built-ins, but folded by the same rule: integers as addresses.
    ("(void *)0 == (void *)(1 - 1)", Folded::Holds),
    ("(void *)0 != (void *)('a' - 'a')", Folded::Fails),
];

/// tarsier's answer: accepted, the failed assertion, or a constant error.
fn tarsier_folds(test: &str, source: &std::path::Path) -> Folded {
    let out = run([source.as_os_str(), "--parse-only".as_ref()]);
    match exit_code(&out) {
        Some(0) => Folded::Holds,
        _ if out.stderr.contains("static assertion failed") => Folded::Fails,
        _ if out.stderr.contains("not an integer constant expression") => Folded::NotConstant,
        _ => panic!("{test}: unexpected answer {}{}", out.stdout, out.stderr),
    }
}

/// gcc's answer, `None` without gcc.
fn gcc_folds(source: &std::path::Path) -> Option<Folded> {
    let out = Command::new("gcc").args(["-std=gnu11", "-fsyntax-only"]).arg(source).output().ok()?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    Some(if out.status.success() {
        Folded::Holds
    } else if stderr.contains("static assertion failed") {
        Folded::Fails
    } else {
        Folded::NotConstant
    })
}

#[test]
fn static_assertions_fold_constant_builtins_as_gcc_does() {
    if !common::front_end_ready("static-assert-builtins") {
        return;
    }
    let gcc = gcc_works(&[]);
    if !gcc {
        println!("SKIP the gcc side of static-assert-builtins: gcc cannot compile here");
    }
    let dir = scratch_dir("static-assert-builtins");
    for (index, &(cond, expected)) in STATIC_ASSERTIONS.iter().enumerate() {
        let text = format!("#include <float.h>\n#include <limits.h>\n_Static_assert({cond}, \"\");\nint main(void) {{ return 0; }}\n");
        let source = write(&dir, &format!("s{index}.c"), &text);
        assert_eq!(tarsier_folds(cond, &source), expected, "tarsier on `{cond}`");
        if gcc {
            assert_eq!(gcc_folds(&source), Some(expected), "gcc on `{cond}`");
        }
    }
}
