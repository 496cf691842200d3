//! Ordering (`<`, `<=`, `>`, `>=`) and difference of pointers: defined
//! only within one object, one past its end included (C11 6.5.8p5,
//! 6.5.6p9). Pointers into different objects are a "same object
//! violation" (class `pointer-relation`) under the pointer checks, as in
//! CBMC and ESBMC; NULL against NULL and addresses made from integers are
//! compared as addresses. Each row is checked natively first: gcc's
//! AddressSanitizer with `pointer-compare`/`pointer-subtract` reports
//! exactly the unrelated pairs.

mod common;
use common::*;

const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const FAILED: &str = "VERIFICATION FAILED";

/// `body` sets `int r` from a pointer order or difference; `n` is an
/// input in `[0, 3]`, 0 natively. `related`: the pointers always point
/// into one object (or neither into any).
struct Row {
    name: &'static str,
    body: &'static str,
    related: bool,
}

const ROWS: &[Row] = &[
    Row { name: "inside_an_array", body: "int a[4]; int *p = a + n; r = p < a + 4;", related: true },
    Row { name: "one_past_the_end", body: "int a[4]; r = a + 4 >= a + n;", related: true },
    Row { name: "difference_inside_an_array", body: "int a[4]; r = (int)(&a[3] - &a[n]);", related: true },
    Row { name: "members_of_one_struct", body: "struct { int x, y; } s; r = &s.x + n / 4 < &s.y;", related: true },
    Row { name: "inside_a_heap_block", body: "char *p = malloc(8); if (!p) return 0; r = p + n < p + 8; free(p);", related: true },
    Row { name: "null_and_null", body: "int *p = 0, *q = 0; r = p <= q;", related: true },
    Row { name: "addresses_from_integers", body: "char *p = (char *)(uintptr_t)0x1000, *q = (char *)(uintptr_t)(0x2000 + n); r = p < q;", related: true },
    Row { name: "two_heap_blocks", body: "char *p = malloc(4), *q = malloc(4); if (!p || !q) return 0; r = p < q + n;", related: false },
    Row { name: "two_locals", body: "int x, y; int *p = n ? &y : &x; r = p <= &y;", related: false },
    Row { name: "difference_of_two_arrays", body: "int a[2], b[2]; r = (int)(a + n / 2 - b);", related: false },
    Row { name: "two_globals", body: "static int g1, g2; r = &g1 >= &g2 + n / 4;", related: false },
    Row { name: "pointer_and_null", body: "char *p = malloc(4); if (!p) return 0; r = p + n > (char *)0; free(p);", related: false },
    Row { name: "integer_address_and_object", body: "int x; int *p = (int *)(uintptr_t)(0x1000 + n); r = p < &x;", related: false },
    Row { name: "two_string_literals", body: "const char *s = n ? \"ab\" + 1 : \"cd\"; r = s > \"ab\";", related: false },
];

fn program(body: &str) -> String {
    format!(
        "#include <stdint.h>\n#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\n\
         int main(void) {{\n  int n = __VERIFIER_nondet_int(), r;\n  if (n < 0 || n > 3) return 0;\n  {body}\n  return r - r;\n}}\n"
    )
}

fn judge(row: &Row) -> Option<String> {
    let source = program(row.body);
    let checked = verdict(&format!("relation-{}", row.name), &source, &[]);
    let class = checked.lines().rev().nth(1).map(str::trim);
    let expected_ok = if row.related { checked.starts_with(SUCCESSFUL) } else { checked.starts_with(FAILED) && class == Some("pointer-relation") };
    if !expected_ok {
        return Some(format!("{} (related: {}): {checked}", row.name, row.related));
    }
    for off in [&["--no-pointer-relation-check"][..], &["--no-pointer-check"]] {
        let unchecked = verdict(&format!("relation-{}-off", row.name), &source, off);
        if !unchecked.starts_with(SUCCESSFUL) {
            return Some(format!("{} with {off:?}: the unchecked order is any value, expected SUCCESSFUL: {unchecked}", row.name));
        }
    }
    None
}

#[test]
fn pointers_into_different_objects_are_not_ordered() {
    if !front_end_ready("pointer_relations") {
        return;
    }
    let wrong: Vec<String> = xtask::runner::parallel_map(ROWS, 2, judge, |_| {}).into_iter().flatten().collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn gccs_address_sanitizer_reports_exactly_the_unrelated_pairs() {
    let dir = scratch_dir("pointer_relations_native");
    for row in ROWS {
        let source = format!("int __VERIFIER_nondet_int(void) {{ return 0; }}\n{}", program(row.body));
        let Some(out) = native_run(&dir, row.name, &source, SANITIZERS) else {
            println!("SKIP native runs: gcc with sanitizers is not available");
            return;
        };
        let reported = out.stderr.contains("AddressSanitizer: invalid-pointer-pair");
        assert_eq!(reported, !row.related, "{}: {}", row.name, out.stderr);
    }
}
