//! Candidate loop invariants (`--show-invariants`): what abstract
//! interpretation finds at loop heads and what the solver certifies.
//! Every certified invariant is checked against native execution: gcc
//! runs the program with the invariants asserted at their loop heads on
//! many random inputs. Wrong twins of the candidates (negations, bounds
//! moved inwards) must never be certified.

mod common;

use common::{run, scratch_dir, write, Rng};
use std::process::Command;

/// Loop conditions are written `HEAD(cond)`: the identity for tarsier, and
/// for the native run the place where the head's invariants are checked.
const PRELUDE: &str = "#ifndef HEAD\n#define HEAD(c) (c)\n#endif\n\
    extern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_assume(int);\n";

/// Programs whose loops need relational, parity, bound and wrap-around
/// facts; each loop head on a line of its own.
const PROGRAMS: &[(&str, &str, &[&str])] = &[
    (
        "together",
        "int main() {\n\
         int n = __VERIFIER_nondet_int();\n\
         __VERIFIER_assume(n >= 0 && n <= 100000);\n\
         int i = 0, j = 0, x = 0;\n\
         while (HEAD(i < n)) { i++; j++; x += 2; }\n\
         return i + j + x;\n}\n",
        &["i <= n", "2*i == x", "(x & 1) == 0", "i <= 100000"],
    ),
    (
        "parity-and-wrap",
        "int main() {\n\
         unsigned u = 7; unsigned char c = 0; int k = 0;\n\
         while (HEAD(__VERIFIER_nondet_int())) { u += 4; c += 16; if (k < 50) k++; else continue; }\n\
         return (int)u + c + k;\n}\n",
        &["(u & 3) == 3", "(c & 15) == 0", "k <= 50", "c <= 240"],
    ),
    (
        "nested-and-break",
        "int main() {\n\
         int n = __VERIFIER_nondet_int(); int t = 0;\n\
         while (HEAD(t < n)) { t++; if (t > 500) break; }\n\
         int a = 0, b = 0;\n\
         while (HEAD(a < 100)) {\n\
           for (int m = 0; HEAD(m < a); m++) { b++; }\n\
           a++; }\n\
         return t + b;\n}\n",
        &["t <= 500", "a <= 100", "m <= a"],
    ),
    (
        "callee-and-global",
        "int g;\nvoid bump(void) { g += 2; }\n\
         int count(int n) { int s = 0, i = 0;\n\
           while (HEAD(i < n)) { s += 3; i++; }\n\
           return s; }\n\
         int main() {\n\
         int n = __VERIFIER_nondet_int(); __VERIFIER_assume(n < 1000);\n\
         int i = 0, d = 10;\n\
         while (HEAD(i < n)) { bump(); i++; d--; }\n\
         return count(n) + g + d;\n}\n",
        &["3*i == s", "i + d == 10"],
    ),
];

/// The certified invariants per line, and the `--show-invariants` output.
fn certified_by_line(path: &std::path::Path, extra: &[&str]) -> (Vec<(u32, String)>, String) {
    let mut args = vec![path.to_str().unwrap(), "--show-invariants"];
    args.extend(extra);
    let out = run(&args);
    let mut found = Vec::new();
    for line in out.stdout.lines() {
        let Some(text) = line.strip_suffix(" (certified)") else { continue };
        // file:line: function: text
        let mut parts = text.splitn(4, ": ");
        let (Some(place), Some(_function), Some(invariant)) = (parts.next(), parts.next(), parts.next()) else { continue };
        let line_number = place.rsplit(':').next().and_then(|n| n.parse().ok()).expect("file:line");
        found.push((line_number, invariant.to_string()));
    }
    (found, out.stdout)
}

#[test]
fn candidates_are_found_and_certified() {
    let dir = scratch_dir("invariants-found");
    for (name, body, expected) in PROGRAMS {
        let path = write(&dir, &format!("{name}.c"), &format!("{PRELUDE}{body}"));
        let (certified, stdout) = certified_by_line(&path, &[]);
        for e in *expected {
            assert!(certified.iter().any(|(_, c)| c == e), "{name}: `{e}` not certified:\n{stdout}");
        }
    }
}

#[test]
fn wrong_twins_are_never_certified() {
    let dir = scratch_dir("invariants-twins");
    for (name, body, _) in PROGRAMS {
        let path = write(&dir, &format!("{name}.c"), &format!("{PRELUDE}{body}"));
        let (_, stdout) = certified_by_line(&path, &["--inject-wrong-invariants"]);
        let negated: Vec<&str> = stdout.lines().filter(|l| l.contains(": !(") && l.ends_with("(certified)")).collect();
        assert!(negated.is_empty(), "{name}: a negated candidate was certified:\n{stdout}");
        assert!(stdout.lines().any(|l| l.contains(": !(") && l.ends_with("(not certified)")), "{name}: no twins:\n{stdout}");
    }
}

/// Array segments (`∀j. 0 <= j < i → a[j] == ...`): the true ones are
/// certified; their wrong twins (the body negated) never are, nor is a
/// segment that a later write in the loop breaks.
#[test]
fn array_segments_are_certified_only_when_inductive() {
    let dir = scratch_dir("invariants-segments");
    // Big enough that the arrays are memory the solver indexes.
    let body = "int main(void) { int a[20000], b[20000]; int i = 0;\n\
        while (HEAD(i < 20000)) { a[i] = 42; b[i] = i + 1; if (i == 500) a[3] = 7; i = i + 1; }\n\
        return a[0] + b[0]; }\n";
    let path = write(&dir, "segments.c", &format!("{PRELUDE}{body}"));
    let (_, stdout) = certified_by_line(&path, &[]);
    let segments: Vec<&str> = stdout.lines().filter(|l| l.contains(": forall") && l.ends_with(" (certified)")).collect();
    assert!(segments.iter().any(|t| t.contains("b[j] == ")), "b's is a segment:\n{stdout}");
    assert!(!segments.iter().any(|t| t.contains("a[j] == 42")), "a[3] = 7 breaks the constant segment:\n{stdout}");
    assert!(stdout.contains("a[j] == 42i32 (not certified)"), "{stdout}");
    let (_, stdout) = certified_by_line(&path, &["--inject-wrong-invariants"]);
    assert!(stdout.lines().any(|l| l.ends_with("(body negated) (not certified)")), "no twins:\n{stdout}");
    let wrong: Vec<&str> = stdout.lines().filter(|l| l.ends_with("(body negated) (certified)")).collect();
    assert!(wrong.is_empty(), "a negated segment was certified:\n{stdout}");
}

/// Sequential loops each copying one array into the next: every loop's
/// segment (`∀j < i. a{k+1}[j] == a{k}[j]`) is certified, together; in the
/// twin one loop writes another value at one index, and only its segment
/// is not certified.
#[test]
fn segments_of_sequential_copy_loops_are_certified_each() {
    let dir = scratch_dir("invariants-copy-chain");
    let chain = |broken: &str| {
        let mut body = String::from("int main(void) {\n  int a1[20000], a2[20000], a3[20000], a4[20000], a5[20000];\n  int i;\n");
        body += "  for (i = 0; HEAD(i < 20000); i++) a1[i] = __VERIFIER_nondet_int();\n";
        for k in 1..5 {
            let extra = if k == 3 { broken } else { "" };
            body += &format!("  for (i = 0; HEAD(i < 20000); i++) a{}[i] = a{k}[i]{extra};\n", k + 1);
        }
        body + "  return a5[7];\n}\n"
    };
    for (name, broken) in [("holds", ""), ("broken", " + (i == 500)")] {
        let path = write(&dir, &format!("{name}.c"), &format!("{PRELUDE}{}", chain(broken)));
        let (_, stdout) = certified_by_line(&path, &[]);
        for k in 1..5 {
            let segment = format!("a{}[j] == a{k}[", k + 1);
            let certified = stdout.lines().any(|l| l.contains(&segment) && l.ends_with(" (certified)"));
            assert_eq!(certified, k != 3 || broken.is_empty(), "{name}: segment `{segment}`:\n{stdout}");
        }
    }
}

/// The native checker: random inputs from a seed, `assume` ends the run,
/// and a failed invariant prints its line and ends the run.
const NATIVE: &str = "#include <stdio.h>\n#include <stdlib.h>\n#include <limits.h>\n\
    static unsigned long long state;\n\
    int __VERIFIER_nondet_int(void) { state = state * 6364136223846793005ULL + 1442695040888963407ULL;\n\
      unsigned r = (unsigned)(state >> 33);\n\
      switch (r % 8) { case 0: return 0; case 1: return 1; case 6: return INT_MAX - (int)(r % 100); case 7: return INT_MIN + (int)(r % 100);\n\
      default: return (int)(r % 1200) - 100; } }\n\
    void __VERIFIER_assume(int c) { if (!c) exit(0); }\n\
    static void invariant_failed(int line) { printf(\"invariant failed at line %d\\n\", line); exit(0); }\n\
    #define CHECK(inv, line, c) ((inv) ? (c) : (invariant_failed(line), 0))\n";

#[test]
fn certified_invariants_hold_in_native_runs() {
    if Command::new("gcc").arg("--version").output().is_err() {
        println!("SKIP certified_invariants_hold_in_native_runs: gcc is not installed");
        return;
    }
    let dir = scratch_dir("invariants-native");
    let mut rng = Rng(0x1a7a);
    for (name, body, _) in PROGRAMS {
        let source = format!("{PRELUDE}{body}");
        let path = write(&dir, &format!("{name}.c"), &source);
        let (certified, _) = certified_by_line(&path, &[]);
        let checked = checked_source(&source, &certified);
        let c_file = write(&dir, &format!("{name}-native.c"), &format!("{NATIVE}{checked}"));
        let binary = dir.join(format!("{name}-native"));
        let compiled = Command::new("gcc").args(["-O0", "-w", "-fwrapv", "-o"]).arg(&binary).arg(&c_file).output().expect("gcc runs");
        assert!(compiled.status.success(), "{name}: gcc rejects:\n{}", String::from_utf8_lossy(&compiled.stderr));
        for _ in 0..60 {
            let seed = rng.next().to_string();
            let out = Command::new(&binary).arg(&seed).output().expect("the native program runs");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(!stdout.contains("invariant failed"), "{name} (seed {seed}): {stdout}");
        }
    }
}

/// `source` with each line's `HEAD(` replaced by a check of the
/// invariants certified at that line, and `main` seeding the inputs.
fn checked_source(source: &str, certified: &[(u32, String)]) -> String {
    let mut lines: Vec<String> = Vec::new();
    for (i, line) in source.lines().enumerate() {
        let number = i as u32 + 1;
        let invariants: Vec<String> = certified.iter().filter(|(l, _)| *l == number).map(|(_, c)| format!("({c})")).collect();
        let all = if invariants.is_empty() { "1".to_string() } else { invariants.join(" && ") };
        lines.push(line.replace("HEAD(", &format!("CHECK({all}, {number}, ")));
    }
    let text = lines.join("\n").replace("#ifndef HEAD", "#if 0");
    text.replace("int main() {", "int main(int argc, char **argv) { state = strtoull(argv[1], 0, 10);")
}
