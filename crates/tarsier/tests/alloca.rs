//! `alloca` and `__builtin_alloca_with_align` of any size, symbolic and
//! zero included: a new object in the caller's frame per call (per loop
//! iteration too), dead when the function returns, never freed by
//! `free`, uninitialised, never failing. Each row has a TRUE or FALSE
//! verdict; where gcc's sanitizers can see the difference, the native
//! run (with `n` = 0) confirms it first.

mod common;
use common::*;

/// `top` goes before `main`; `body` runs in `main` with `int n` an input
/// in `[0, 3]`. `class`: the violated property's class, or `None` for a
/// TRUE row. `native`: whether the sanitizers see no undefined behaviour
/// (true) or report it (false); `None` where they cannot tell.
struct Row {
    name: &'static str,
    top: &'static str,
    body: &'static str,
    class: Option<&'static str>,
    native: Option<bool>,
}

const FILL: &str = "static int sum(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) { a[i] = i; s += a[i]; } return s; }\n";
const ESCAPE: &str = "static char *escape(int n) { char *p = alloca(n + 1); p[0] = 1; return p; }\n";

const ROWS: &[Row] = &[
    Row { name: "symbolic_size", top: FILL, body: "int *a = alloca((n + 1) * sizeof(int)); assert(sum(a, n + 1) == n * (n + 1) / 2);", class: None, native: Some(true) },
    Row { name: "symbolic_size_one_past", top: "", body: "int *a = alloca((n + 1) * sizeof(int)); a[n + 1] = 0;", class: Some("pointer-dereference"), native: Some(false) },
    Row { name: "size_zero", top: "", body: "char *p = alloca(n); char *q = alloca(0); assert(p != q);", class: None, native: Some(true) },
    Row { name: "size_zero_read", top: "", body: "char *p = alloca(n); int x = p[0]; (void)x;", class: Some("pointer-dereference"), native: Some(false) },
    Row { name: "each_call_a_new_object", top: "", body: "char *p[3]; for (int i = 0; i < 3; i++) { p[i] = alloca(n + 1); p[i][0] = i; } assert(p[0] != p[1] && p[0][0] == 0 && p[2][0] == 2);", class: None, native: Some(true) },
    Row { name: "loop_objects_are_apart", top: "", body: "char *p[2]; for (int i = 0; i < 2; i++) p[i] = alloca(n + 1); assert(p[0] == p[1]);", class: Some("user-assertion"), native: Some(true) },
    Row { name: "free_of_alloca", top: "", body: "char *p = alloca(n + 4); free(p);", class: Some("invalid-free"), native: Some(false) },
    Row { name: "realloc_of_alloca", top: "", body: "char *p = alloca(n + 4); p = realloc(p, 8);", class: Some("invalid-free"), native: Some(false) },
    Row { name: "dead_after_return", top: ESCAPE, body: "char *p = escape(n); int x = p[0]; (void)x;", class: Some("pointer-dereference"), native: None },
    Row { name: "alive_until_return", top: ESCAPE, body: "char *p = alloca(n + 1); char *q = escape(n); p[0] = 2; assert(p[0] == 2 && q != p);", class: None, native: Some(true) },
    Row { name: "uninitialised", top: "", body: "char *p = alloca(n + 1); assert(p[0] == 0);", class: Some("user-assertion"), native: None },
    Row { name: "aligned", top: "", body: "char *p = __builtin_alloca_with_align(n + 3, 64 * 8); assert(((unsigned long)p & 63) == 0);", class: None, native: Some(true) },
    Row { name: "aligned_past_the_end", top: "", body: "char *p = __builtin_alloca_with_align(n + 3, 128); p[n + 3] = 0;", class: Some("pointer-dereference"), native: Some(false) },
    Row { name: "recursion_frames", top: "static int depth(int k, char *up) { char *p = alloca(k + 1); p[0] = k; if (up) assert(up[0] == k + 1); return k ? depth(k - 1, p) : 0; }\n", body: "depth(n + 2, 0);", class: None, native: Some(true) },
];

fn program(top: &str, body: &str) -> String {
    format!(
        "#include <alloca.h>\n#include <assert.h>\n#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\n{top}\
         int main(void) {{\n  int n = __VERIFIER_nondet_int();\n  if (n < 0 || n > 3) return 0;\n  {body}\n  return 0;\n}}\n"
    )
}

fn judge(row: &Row) -> Option<String> {
    let answer = verdict(&format!("alloca-{}", row.name), &program(row.top, row.body), &["--unwind", "6"]);
    let class = answer.lines().rev().nth(1).map(str::trim);
    let right = match row.class {
        None => answer.starts_with("VERIFICATION SUCCESSFUL"),
        Some(expected) => answer.starts_with("VERIFICATION FAILED") && class == Some(expected),
    };
    (!right).then(|| format!("{} (expected {:?}): {answer}", row.name, row.class))
}

#[test]
fn alloca_blocks_live_in_their_callers_frame() {
    if !front_end_ready("alloca") {
        return;
    }
    let wrong: Vec<String> = xtask::runner::parallel_map(ROWS, 2, judge, |_| {}).into_iter().flatten().collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn gccs_sanitizers_agree_where_they_can_see() {
    let dir = scratch_dir("alloca_native");
    for row in ROWS {
        let Some(clean) = row.native else { continue };
        let source = format!("int __VERIFIER_nondet_int(void) {{ return 0; }}\n{}", program(row.top, row.body));
        let Some(out) = native_run(&dir, row.name, &source, SANITIZERS) else {
            println!("SKIP native runs: gcc with sanitizers is not available");
            return;
        };
        assert_eq!(sanitizer_reported(&out), !clean, "{}: {}", row.name, out.stderr);
        if row.class.is_none() {
            assert_eq!(exit_code(&out), Some(0), "{}: a TRUE row fails natively: {}", row.name, out.stderr);
        }
    }
}
