//! GCC built-ins whose result gcc fixes at compile time or leaves
//! undefined: `__builtin_clz`/`ctz` of 0 (every fixed-width form, and the
//! type-generic `clzg`/`ctzg` without a result for 0) is a violation of the
//! bit-count property, on unless `--no-clz-zero-check`; the lock-free
//! queries fold to gcc's constants on x86-64, and `__atomic_is_lock_free`
//! that gcc leaves to libatomic follows libatomic where the processor does
//! not matter; the typed overflow built-ins (`__builtin_uadd_overflow`,
//! ...) compute and store in their own type. Each table entry is checked against gcc too
//! (`common::table`).

mod common;

use common::table::{assert_twins, check_programs, Check, Program, UNKNOWN};

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
