//! `--force-malloc-success` means what it says: `malloc`, `calloc`,
//! `realloc` and `aligned_alloc` return a block, also for requests glibc
//! refuses (more than the address space holds, a wrapped negative size, a
//! `calloc` product past `SIZE_MAX`, an alignment C17 leaves to the
//! implementation). A block the memory model cannot hold, or a request no
//! object can satisfy, is UNKNOWN with the reason, never FALSE through a
//! NULL the user declared impossible. Without the flag the same requests
//! return NULL, as glibc's do: the native run confirms those twins.

mod common;
use common::*;

const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const FAILED: &str = "VERIFICATION FAILED";
const UNKNOWN: &str = "VERIFICATION UNKNOWN";

/// `body` runs in `main` with `size_t n` an input in `[0, 3]`; `forced`
/// is the verdict under `--force-malloc-success`, `glibc` without it (any
/// allocation may then also fail for want of memory); `native`: whether
/// the body's assertions hold in a native run with `n` = 0.
struct Row {
    name: &'static str,
    body: &'static str,
    forced: &'static str,
    glibc: &'static str,
    native: bool,
}

const ROWS: &[Row] = &[
    Row { name: "beyond_the_address_space", body: "char *p = malloc((size_t)1 << 50); assert(p != 0);", forced: UNKNOWN, glibc: FAILED, native: false },
    Row { name: "beyond_the_address_space_null", body: "char *p = malloc((size_t)1 << 50); assert(p == 0);", forced: FAILED, glibc: SUCCESSFUL, native: true },
    Row { name: "wrapped_negative_size", body: "char *p = malloc((size_t)(n - 4)); assert(p == 0);", forced: UNKNOWN, glibc: SUCCESSFUL, native: true },
    Row { name: "symbolic_size_succeeds", body: "char *p = malloc(n); assert(p != 0); free(p);", forced: SUCCESSFUL, glibc: FAILED, native: true },
    Row { name: "huge_symbolic_size", body: "char *p = malloc(n << 60); assert(p != 0); free(p);", forced: SUCCESSFUL, glibc: FAILED, native: true },
    Row { name: "symbolic_size_used", body: "char *p = malloc(n + 1); p[n] = 7; assert(p[n] == 7); free(p);", forced: SUCCESSFUL, glibc: FAILED, native: true },
    Row { name: "calloc_overflow", body: "char *p = calloc((size_t)-1, 2 + n); assert(p == 0);", forced: UNKNOWN, glibc: SUCCESSFUL, native: true },
    Row { name: "calloc_overflow_then_bug", body: "char *p = calloc((size_t)-1, 2 + n); assert(0);", forced: UNKNOWN, glibc: FAILED, native: false },
    Row { name: "realloc_beyond", body: "char *p = malloc(4); char *q = realloc(p, (size_t)-1 - n); assert(q == 0); free(q ? q : p);", forced: UNKNOWN, glibc: SUCCESSFUL, native: true },
    Row { name: "aligned_size_not_a_multiple", body: "char *p = aligned_alloc(16, 10 + n); assert(p != 0 && ((uintptr_t)p & 15) == 0); free(p);", forced: SUCCESSFUL, glibc: FAILED, native: true },
    Row { name: "aligned_not_a_power_of_two", body: "char *p = aligned_alloc(3 + n, 12); assert(p != 0 && ((uintptr_t)p & 3) == 0); free(p);", forced: SUCCESSFUL, glibc: FAILED, native: true },
    Row { name: "aligned_zero", body: "char *p = aligned_alloc(n, 16); assert(p != 0); free(p);", forced: SUCCESSFUL, glibc: FAILED, native: true },
    Row { name: "aligned_huge", body: "char *p = aligned_alloc((size_t)1 << 40, 16 + n); assert(p == 0);", forced: FAILED, glibc: FAILED, native: true },
];

fn program(body: &str) -> String {
    format!(
        "#include <assert.h>\n#include <stdint.h>\n#include <stdlib.h>\nextern unsigned long __VERIFIER_nondet_ulong(void);\n\
         int main(void) {{\n  size_t n = __VERIFIER_nondet_ulong();\n  if (n > 3) return 0;\n  {body}\n  return 0;\n}}\n"
    )
}

fn judge(row: &Row) -> Vec<String> {
    let source = program(row.body);
    let mut wrong = Vec::new();
    for (flags, expected) in [(&["--force-malloc-success"][..], row.forced), (&[][..], row.glibc)] {
        let answer = verdict(&format!("allocation-{}{}", row.name, flags.len()), &source, flags);
        if !answer.starts_with(expected) {
            wrong.push(format!("{} {flags:?}: expected {expected}, got {answer}", row.name));
        }
    }
    wrong
}

#[test]
fn forced_allocations_never_return_null() {
    if !front_end_ready("allocation_success") {
        return;
    }
    let wrong: Vec<String> = xtask::runner::parallel_map(ROWS, 2, judge, |_| {}).into_iter().flatten().collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// `--force-realloc-success` (ESBMC's) forces `realloc` alone: the
/// `malloc` before it may still fail, and a request no block can meet is
/// UNKNOWN as under `--force-malloc-success`.
#[test]
fn forced_realloc_leaves_malloc_free_to_fail() {
    if !front_end_ready("allocation_success") {
        return;
    }
    let grown = "char *p = malloc(4); if (!p) return 0; char *q = realloc(p, 8 + n); assert(q != 0); free(q);";
    let first = "char *p = malloc(4 + n); assert(p != 0); free(p);";
    let beyond = "char *p = malloc(4); if (!p) return 0; char *q = realloc(p, (size_t)-1 - n); assert(q == 0); free(p);";
    let forced = ["--force-realloc-success"];
    for (name, body, flags, expected) in [
        ("realloc_grown_forced", grown, &forced[..], SUCCESSFUL),
        ("realloc_grown", grown, &[][..], FAILED),
        ("realloc_forced_malloc_free", first, &forced[..], FAILED),
        ("realloc_forced_beyond", beyond, &forced[..], UNKNOWN),
    ] {
        let answer = verdict(&format!("allocation-{name}"), &program(body), flags);
        assert!(answer.starts_with(expected), "{name}: expected {expected}, got {answer}");
    }
}

/// Without the flag the rows read glibc's malloc: the host's agrees.
#[test]
fn glibc_refuses_what_the_unforced_rows_say() {
    let dir = scratch_dir("allocation_success_native");
    for row in ROWS {
        let source = format!("unsigned long __VERIFIER_nondet_ulong(void) {{ return 0; }}\n{}", program(row.body));
        let Some(out) = native_run(&dir, row.name, &source, &[]) else {
            println!("SKIP native runs: gcc is not available");
            return;
        };
        let holds = exit_code(&out) == Some(0);
        assert_eq!(holds, row.native, "{}: {}", row.name, out.stderr);
        // A native run that fails the assertion is a counterexample.
        assert!(holds || row.glibc == FAILED, "{}: the native run fails, yet the row says {}", row.name, row.glibc);
    }
}
