//! k-induction proves programs whose loops run any number of times, and
//! never proves a false one. Each case is a TRUE/FALSE twin: the FALSE one
//! must be FAILED (a replayed counterexample from the base case); the TRUE
//! one SUCCESSFUL when the property is k-inductive, else at least never
//! FAILED. Where gcc is installed every twin is first confirmed natively:
//! the program runs with every sequence of 0/1 answers to its first
//! `INPUT_BITS` nondeterministic calls (a TRUE twin's runs never fail, a
//! FALSE twin's do). Some FALSE twins fail only deep in a loop, past the
//! bounds of the first base cases, so an unsound inductive step would prove
//! them before the base case refutes them.

mod common;

use common::{front_end_ready, run, scratch_dir, write};
use std::process::Command;

const FAILED: &str = "VERIFICATION FAILED";
const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";

/// What the TRUE twin must get.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Proof {
    /// SUCCESSFUL: the property is k-inductive (`by k-induction`).
    Inductive,
    /// SUCCESSFUL by k-induction with certified invariants; without them
    /// (`--no-invariants`), never FAILED.
    ByInvariants,
    /// SUCCESSFUL or UNKNOWN, never FAILED (needs an invariant or cannot be
    /// stepped).
    NotFailed,
}

struct Twin {
    name: &'static str,
    /// The program; `VARIANT` is replaced by `holds` or `fails`.
    source: &'static str,
    holds: &'static str,
    fails: &'static str,
    proof: Proof,
}

const TWINS: &[Twin] = &[
    Twin {
        name: "through-pointer",
        source: "int main(void) { int x = 0; int *p = &x;\n\
            while (nondet()) { __VERIFIER_assert(x == 0 || x == 1); *p = VARIANT - *p; }\n\
            return 0; }\n",
        holds: "1",
        fails: "2",
        proof: Proof::Inductive,
    },
    Twin {
        name: "array-symbolic-index",
        source: "int main(void) { int a[4] = {0};\n\
            while (nondet()) { __VERIFIER_assert(a[0] <= 1 && a[1] <= 1 && a[2] <= 1 && a[3] <= 1);\n\
              unsigned j = (unsigned)nondet() % 4; a[j] = VARIANT; }\n\
            return 0; }\n",
        holds: "1",
        fails: "a[j] + 1",
        proof: Proof::Inductive,
    },
    Twin {
        name: "heap",
        source: "#include <stdlib.h>\nint main(void) { int *p = malloc(sizeof(int)); if (!p) return 0; *p = 0;\n\
            while (nondet()) { __VERIFIER_assert(*p == 0 || *p == 1); *p = VARIANT - *p; }\n\
            free(p); return 0; }\n",
        holds: "1",
        fails: "2",
        proof: Proof::Inductive,
    },
    Twin {
        name: "global-from-callee",
        source: "int g;\nvoid flip(void) { g = VARIANT - g; }\n\
            int main(void) { while (nondet()) { __VERIFIER_assert(g == 0 || g == 1); flip(); } return 0; }\n",
        holds: "1",
        fails: "2",
        proof: Proof::Inductive,
    },
    Twin {
        name: "function-pointer",
        source: "int g;\nvoid flip(void) { g = VARIANT - g; }\nvoid keep(void) { }\n\
            int main(void) { void (*f)(void) = nondet() ? flip : keep;\n\
            while (nondet()) { __VERIFIER_assert(g == 0 || g == 1); f(); } return 0; }\n",
        holds: "1",
        fails: "2",
        proof: Proof::Inductive,
    },
    Twin {
        name: "nested",
        source: "int main(void) { int x = 0, y = 0;\n\
            while (nondet()) { __VERIFIER_assert(x == 0 || x == 1); y = 0;\n\
              while (nondet()) { __VERIFIER_assert(x == 0 || x == 1); x = VARIANT - x; y++; }\n\
            }\n\
            return 0; }\n",
        holds: "1",
        fails: "2",
        proof: Proof::Inductive,
    },
    Twin {
        name: "sequential",
        source: "int main(void) { int x = 0, y = 0;\n\
            while (nondet()) { __VERIFIER_assert(x == 0 || x == 1); x = 1 - x; }\n\
            while (nondet()) { __VERIFIER_assert(y == 0 || y == 2); y = VARIANT - y; }\n\
            return 0; }\n",
        holds: "2",
        fails: "4",
        proof: Proof::Inductive,
    },
    Twin {
        // The violation needs 100 iterations of the first loop: an
        // inductive step that skipped the second loop's first iteration
        // would prove it before the base case gets there.
        name: "sequential-deep",
        source: "int main(void) { int x = 0;\n\
            while (nondet()) { if (x < VARIANT) x++; }\n\
            while (nondet()) { __VERIFIER_assert(x != 100); }\n\
            return 0; }\n",
        holds: "99",
        fails: "100",
        proof: Proof::NotFailed,
    },
    Twin {
        name: "goto-loop",
        source: "int main(void) { int x = 0;\n\
            again: __VERIFIER_assert(x == 0 || x == 1); x = VARIANT - x;\n\
            if (nondet()) goto again;\n\
            return 0; }\n",
        holds: "1",
        fails: "2",
        proof: Proof::Inductive,
    },
    Twin {
        name: "irreducible",
        source: "int main(void) { int x = 0;\n\
            if (nondet()) goto middle;\n\
            top: __VERIFIER_assert(x == 0 || x == 1);\n\
            middle: x = VARIANT - x;\n\
            if (nondet()) goto top;\n\
            return 0; }\n",
        holds: "1",
        fails: "2",
        proof: Proof::Inductive,
    },
    Twin {
        name: "break-continue-return",
        source: "int main(void) { int x = 0;\n\
            while (1) {\n\
              __VERIFIER_assert(x == 0 || x == 1);\n\
              if (nondet()) break;\n\
              if (nondet()) continue;\n\
              x = VARIANT - x;\n\
              if (nondet()) return 0;\n\
            }\n\
            return 0; }\n",
        holds: "1",
        fails: "2",
        proof: Proof::Inductive,
    },
    Twin {
        name: "side-effect-in-condition",
        source: "int flip(int *p) { *p = VARIANT - *p; return nondet(); }\n\
            int main(void) { int x = 0;\n\
            while (flip(&x)) { __VERIFIER_assert(x == 0 || x == 1); }\n\
            return 0; }\n",
        holds: "1",
        fails: "2",
        proof: Proof::Inductive,
    },
    Twin {
        name: "unsigned-wrap-around",
        source: "int main(void) { unsigned char c = 0;\n\
            while (nondet()) { __VERIFIER_assert(VARIANT); c += 2; }\n\
            return 0; }\n",
        holds: "c % 2 == 0",
        fails: "c != 254",
        proof: Proof::Inductive,
    },
    Twin {
        name: "property-after-the-loop",
        source: "int main(void) { int x = 0;\n\
            while (nondet()) { x = VARIANT - x; }\n\
            __VERIFIER_assert(x == 0 || x == 1); return 0; }\n",
        holds: "1",
        fails: "2",
        proof: Proof::ByInvariants,
    },
    Twin {
        // The relation 2*mid + lo == hi holds at the loop head, but the
        // analysis sees it through the call's result temporary (`mid =
        // $ret`), which a candidate may not name: it is projected out.
        name: "relation-through-a-temporary",
        source: "int main(void) { int mid = nondet(); if (mid < 0 || mid > 1000) return 0;\n\
            int lo = 0, hi = 2 * mid;\n\
            while (mid > 0) { lo = lo + 1; hi = hi - VARIANT; mid = mid - 1; }\n\
            __VERIFIER_assert(lo == hi); return 0; }\n",
        holds: "1",
        fails: "(lo == 1 ? 2 : 1)",
        proof: Proof::ByInvariants,
    },
    Twin {
        name: "relation-after-the-loop",
        source: "int main(void) { int x = 0, y = 0;\n\
            while (nondet()) { if (x < 1000) { x++; y += VARIANT; } }\n\
            __VERIFIER_assert(x == y); return 0; }\n",
        holds: "1",
        fails: "(x == 7 ? 2 : 1)",
        proof: Proof::ByInvariants,
    },
    Twin {
        // The counter's address escapes: invariants over it would need the
        // pointer's writes, so none is assumed, and the deep FALSE twin must
        // still be found.
        name: "escaped-counter-after-the-loop",
        source: "int main(void) { int x = 0; int *p = &x;\n\
            while (nondet()) { if (*p < 12) *p += VARIANT; }\n\
            __VERIFIER_assert(x <= 12); return 0; }\n",
        holds: "1",
        fails: "(*p == 11 ? 2 : 1)",
        proof: Proof::NotFailed,
    },
    Twin {
        // A global that a callee bounds: certified per function, an
        // invariant of main cannot rely on what the callee does unless the
        // certification sees it.
        name: "global-bounded-in-callee",
        source: "int g;\nvoid bump(void) { if (g < 12) g += VARIANT; }\n\
            int main(void) { g = 0;\n\
            while (nondet()) bump();\n\
            __VERIFIER_assert(g <= 12); return 0; }\n",
        holds: "1",
        fails: "(g == 11 ? 2 : 1)",
        proof: Proof::NotFailed,
    },
    Twin {
        name: "inductive-property-after-the-loop",
        source: "int main(void) { int x = 0;\n\
            while (nondet()) { __VERIFIER_assert(x == 0 || x == 1); x = VARIANT - x; }\n\
            __VERIFIER_assert(x == 0 || x == 1); return 0; }\n",
        holds: "1",
        fails: "2",
        proof: Proof::Inductive,
    },
    Twin {
        // A segment invariant (`∀j. 0 <= j < i → a[j] == 42`) makes the
        // loop that reads the array back inductive; the FALSE twin
        // overwrites an element the segment already holds, so the
        // candidate is not inductive and must not be certified.
        name: "array-segment-of-a-constant",
        source: "int main(void) { int a[20000]; int i = 0;\n\
            while (i < 20000) { a[i] = 42; VARIANT; i = i + 1; }\n\
            for (int x = 0; x < 20000; x++) __VERIFIER_assert(a[x] == 42);\n\
            return 0; }\n",
        holds: "(void)0",
        fails: "if (i == 19990) a[3] = 41",
        proof: Proof::ByInvariants,
    },
    Twin {
        name: "array-segment-copied",
        source: "int main(void) { int a[20000], b[20000]; int i;\n\
            for (i = 0; i < 20000; i++) a[i] = i ^ 85;\n\
            for (i = 0; i < 20000; i++) { b[i] = a[i]; VARIANT; }\n\
            for (i = 0; i < 20000; i++) __VERIFIER_assert(a[i] == b[i]);\n\
            return 0; }\n",
        holds: "(void)0",
        fails: "if (i == 19990) a[7] = a[7] + 1",
        proof: Proof::ByInvariants,
    },
    Twin {
        name: "array-segment-counting-down",
        source: "int main(void) { int a[20000]; int i = 19999;\n\
            while (i >= 0) { a[i] = 7; VARIANT; i = i - 1; }\n\
            for (int x = 0; x < 20000; x++) __VERIFIER_assert(a[x] == 7);\n\
            return 0; }\n",
        holds: "(void)0",
        fails: "if (i == 5) a[19998] = 8",
        proof: Proof::ByInvariants,
    },
    Twin {
        name: "loop-that-allocates",
        source: "#include <stdlib.h>\nint main(void) { int x = 0;\n\
            while (nondet()) { int *p = malloc(sizeof(int)); if (p) { *p = x; x = VARIANT - *p; free(p); }\n\
              __VERIFIER_assert(x == 0 || x == 1); }\n\
            return 0; }\n",
        holds: "1",
        fails: "2",
        proof: Proof::NotFailed,
    },
];

const PRELUDE: &str = "extern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_assert(int);\n\
    #define nondet() __VERIFIER_nondet_int()\n";

/// Runs `program_main` natively with every sequence of 0/1 answers to its
/// first `INPUT_BITS` nondet calls, then with random sequences of up to
/// `LONG_RUN` answers biased towards 1 (so that loops run long), and
/// prints whether some run violated an assertion. A run that asks for more
/// answers than it has is cut off (no violation).
const NATIVE_DRIVER: &str = r#"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#define INPUT_BITS 12
#define LONG_RUN 3000
static jmp_buf failed, exhausted;
static unsigned answers, calls, limit, bias;
static int random_answers;
int __VERIFIER_nondet_int(void) {
    if (calls >= limit) longjmp(exhausted, 1);
    calls++;
    if (random_answers) return (unsigned)rand() % 1000 < bias;
    return calls <= INPUT_BITS ? (answers >> (calls - 1)) & 1 : 0;
}
void __VERIFIER_assert(int c) { if (!c) longjmp(failed, 1); }
int program_main(void);
static void run(void) {
    calls = 0;
    if (setjmp(failed)) { printf("violated\n"); exit(0); }
    if (setjmp(exhausted)) return;
    program_main();
}
int main(void) {
    limit = INPUT_BITS + 64;
    for (answers = 0; answers < (1u << INPUT_BITS); answers++) run();
    random_answers = 1;
    limit = LONG_RUN;
    srand(1);
    unsigned biases[] = {500, 900, 990, 999};
    for (int b = 0; b < 4; b++)
        for (int i = 0; i < 500; i++) { bias = biases[b]; run(); }
    printf("holds\n");
    return 0;
}
"#;

fn program(twin: &Twin, variant: &str) -> String {
    format!("{PRELUDE}{}", twin.source.replace("VARIANT", variant))
}

/// Whether some native run violates an assertion; `None` without gcc.
fn native_violation(test: &str, source: &str) -> Option<bool> {
    let dir = scratch_dir(&format!("native-{test}"));
    let program = write(&dir, "p.c", &source.replace("int main(void)", "int program_main(void)"));
    let driver = write(&dir, "driver.c", NATIVE_DRIVER);
    let exe = dir.join("a.out");
    let built = Command::new("gcc").args(["-O0", "-w", "-o"]).arg(&exe).arg(&program).arg(&driver).output().ok()?;
    assert!(built.status.success(), "{test}: gcc rejects it:\n{}", String::from_utf8_lossy(&built.stderr));
    let out = Command::new(&exe).output().expect("the native program runs");
    Some(String::from_utf8_lossy(&out.stdout).trim() == "violated")
}

/// tarsier's whole output on `source` with `flags`, its last line first.
fn verify(test: &str, source: &str, flags: &[&str]) -> String {
    let dir = scratch_dir(test);
    let file = write(&dir, "p.c", source);
    let mut args = vec![file.display().to_string()];
    args.extend(flags.iter().map(|f| f.to_string()));
    let out = run(&args);
    out.stdout.lines().last().unwrap_or_default().to_string() + "\n" + &out.stdout + &out.stderr
}

/// The default run (k-induction), an explicit `--k-induction` with a
/// bound that must not limit it, the parallel run, bkind, and k-induction
/// without invariants.
const MODES: [&[&str]; 5] =
    [&[], &["--k-induction", "--unwind", "2"], &["--k-induction-parallel"], &["--bidirectional"], &["--no-invariants"]];

/// Checks both twins of `twin`; returns the failures.
fn check(twin: &Twin) -> Vec<String> {
    let mut failures = Vec::new();
    for (variant, violated) in [(twin.holds, false), (twin.fails, true)] {
        let source = program(twin, variant);
        let test = format!("kind-{}-{}", twin.name, if violated { "false" } else { "true" });
        match native_violation(&test, &source) {
            Some(native) if native != violated => failures.push(format!("{test}: natively violated = {native}")),
            Some(_) => {}
            None => println!("{test}: gcc not found, the native check is skipped"),
        }
        for flags in MODES {
            let proof = match twin.proof {
                Proof::ByInvariants if flags.contains(&"--no-invariants") => Proof::NotFailed,
                proof => proof,
            };
            // A TRUE twin that is not k-inductive would run until the time
            // limit: its search stops at k = 8.
            let limit = match (violated, proof) {
                (false, Proof::NotFailed) => ["--max-k-step", "8"],
                _ => ["--timeout", "50"],
            };
            let flags: Vec<&str> = flags.iter().copied().chain(limit).collect();
            let answer = verify(&format!("{test}{}", flags.join("")), &source, &flags);
            let ok = match (violated, proof) {
                (true, _) => answer.starts_with(FAILED),
                (false, Proof::Inductive) => answer.starts_with(SUCCESSFUL) && answer.contains("proved by k-induction"),
                (false, Proof::ByInvariants) => answer.starts_with(SUCCESSFUL) && answer.contains("certified invariant"),
                (false, Proof::NotFailed) => !answer.starts_with(FAILED),
            };
            if !ok {
                failures.push(format!("{test} {flags:?}: expected {}, got {answer}", if violated { "FAILED" } else { "a proof" }));
            }
        }
    }
    failures
}

#[test]
fn k_induction_proves_inductive_loops_and_refutes_their_twins() {
    if !front_end_ready("k_induction_proves_inductive_loops_and_refutes_their_twins") {
        return;
    }
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = TWINS.chunks(4).map(|chunk| scope.spawn(move || chunk.iter().flat_map(check).collect::<Vec<_>>())).collect();
        workers.into_iter().flat_map(|w| w.join().expect("a checker thread")).collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Recursion gets no inductive step, and the result says so; the base case
/// and the forward condition still decide what they can.
#[test]
fn recursion_has_no_inductive_step() {
    if !front_end_ready("recursion_has_no_inductive_step") {
        return;
    }
    let source = format!(
        "{PRELUDE}int f(int n) {{ return n <= 0 ? 0 : f(n - 1); }}\n\
         int main(void) {{ int x = 0; while (nondet()) {{ __VERIFIER_assert(x == 0 || x == 1); x = 1 - x + f(0); }} return 0; }}\n"
    );
    let answer = verify("kind-recursion", &source, &["--max-k-step", "8"]);
    assert!(answer.starts_with("VERIFICATION UNKNOWN") && answer.contains("no inductive step (`f` is recursive)"), "{answer}");
    let bounded = format!("{PRELUDE}int f(int n) {{ return n <= 0 ? 0 : f(n - 1); }}\nint main(void) {{ __VERIFIER_assert(f(3) == 0); return 0; }}\n");
    let answer = verify("kind-recursion-bounded", &bounded, &[]);
    assert!(answer.starts_with(SUCCESSFUL) && answer.contains("bounded exhaustion"), "{answer}");
}

/// A TRUE says how it was proved, in the text and in `--json`.
#[test]
fn a_proof_says_how_it_was_found() {
    if !front_end_ready("a_proof_says_how_it_was_found") {
        return;
    }
    let inductive = format!(
        "{PRELUDE}int main(void) {{ int x = 0;\n  while (nondet()) {{ __VERIFIER_assert(x == 0 || x == 1); x = 1 - x; }}\n  return 0; }}\n"
    );
    let answer = verify("kind-proof-text", &inductive, &[]);
    assert!(answer.starts_with(SUCCESSFUL) && answer.contains("proved by k-induction at k = 1"), "{answer}");
    let json = verify("kind-proof-json", &inductive, &["--json"]);
    let doc: serde_json::Value = serde_json::from_str(json.split_once('\n').map_or("", |(_, rest)| rest)).expect("one JSON document");
    assert_eq!(doc["proof"]["method"], "k-induction", "{doc}");
    assert_eq!(doc["proof"]["k"], 1, "{doc}");
    assert_eq!(doc["stats"]["k"], 1, "{doc}");
    let bounded = format!("{PRELUDE}int main(void) {{ int s = 0;\n  for (int i = 0; i < 10; i++) s += i;\n  __VERIFIER_assert(s == 45); return 0; }}\n");
    let answer = verify("kind-proof-exhaustion", &bounded, &[]);
    assert!(answer.starts_with(SUCCESSFUL) && answer.contains("proved by bounded exhaustion"), "{answer}");
    let not_inductive = format!("{PRELUDE}int main(void) {{ int x = 0;\n  while (nondet()) x = 1 - x;\n  __VERIFIER_assert(x <= 1); return 0; }}\n");
    let answer = verify("kind-not-inductive", &not_inductive, &["--max-k-step", "4", "--no-invariants"]);
    assert!(answer.starts_with("VERIFICATION UNKNOWN") && answer.contains("not inductive up to k = 4"), "{answer}");
    let json = verify("kind-proof-invariants", &not_inductive, &["--json"]);
    let doc: serde_json::Value = serde_json::from_str(json.split_once('\n').map_or("", |(_, rest)| rest)).expect("one JSON document");
    let invariants = doc["proof"]["invariants"].as_array().expect("the certified invariants");
    assert!(invariants.iter().any(|i| i["invariant"] == "x <= 1" && i["function"] == "main"), "{doc}");
    assert!(doc["stats"]["invariants_certified"].as_u64().is_some_and(|n| n >= 1), "{doc}");
    assert!(doc["stats"]["invariant_seconds"].is_f64() && doc["stats"]["step_seconds"].is_f64(), "{doc}");
    assert!(doc["stats"]["base_seconds"].is_f64() && doc["stats"]["forward_seconds"].is_f64(), "{doc}");
    let text = verify("kind-proof-invariants-text", &not_inductive, &[]);
    assert!(text.lines().any(|l| l.starts_with("  invariant at ") && l.ends_with(" in main: x <= 1")), "{text}");
}

/// Violations past every bound of the base cases are found by concrete
/// runs: after 2^27 iterations of counting loops (which the interpreter
/// jumps over, also when the loop steps through a call), and in arrays of
/// 100,000 elements filled with nondeterministic values. Each twin that
/// holds is never FAILED.
/// A loop's step taken in a function: one more in its first phase, two
/// more after it.
const STEP: &str = "unsigned step(unsigned z) {\n  unsigned w;\n  if (z < 0xfff1) w = z + 1; else w = z + 2;\n  return w;\n}\n";

#[test]
fn deep_violations_are_found_by_concrete_runs() {
    if !front_end_ready("deep_violations_are_found_by_concrete_runs") {
        return;
    }
    let twins = [
        ("count", "unsigned x = 0;\n  while (x < 0x0fffffff) x += 2;\n  __VERIFIER_assert(VARIANT);", "x % 2 == 0", "x % 2"),
        (
            "phases",
            "unsigned x = 0;\n  while (x < 0x0fffffff) { if (x < 0xfff1) x++; else x += 2; }\n  __VERIFIER_assert(VARIANT);",
            "x >= 0x0fffffff",
            "x % 2 == 0",
        ),
        (
            "call",
            "unsigned x = 0;\n  while (x < 0x0fffffff) x = step(x);\n  __VERIFIER_assert(VARIANT);",
            "x >= 0x0fffffff",
            "x % 2 == 0",
        ),
        (
            "signed-down",
            "int x = 100000000, y = 0;\n  while (x > -100000000) { x -= 3; y += 1; }\n  __VERIFIER_assert(VARIANT);",
            "x + 3 * y == 100000000",
            "y != 66666667",
        ),
        (
            "arrays",
            "static int a[100000], b[100000];\n  for (int i = 0; i < 100000; i++) { a[i] = nondet(); b[i] = VARIANT; }\n  \
             for (int i = 0; i < 100000; i++) __VERIFIER_assert(a[i] == b[i]);",
            "a[i]",
            "nondet()",
        ),
    ];
    check_deep_twins("int main(void)", &twins);
}

/// Concrete runs start `main(argc, argv)` in the smallest environment the
/// program may get (one empty argument: with `argc == 0` the run would
/// end before it starts), and one of them gives each input site its own
/// value, so a search for a key among 100,000 nondeterministic elements
/// can miss it (random and zero inputs both meet the key at once). Each
/// twin that holds is never FAILED.
#[test]
fn concrete_runs_start_with_arguments_and_give_each_input_site_its_value() {
    if !front_end_ready("concrete_runs_start_with_arguments_and_give_each_input_site_its_value") {
        return;
    }
    let twins = [
        (
            "argc-arrays",
            "static int a[100000], b[100000];\n  for (int i = 0; i < 100000; i++) { a[i] = nondet(); b[i] = VARIANT; }\n  \
             for (int i = 0; i < 100000; i++) __VERIFIER_assert(a[i] == b[i]);",
            "a[i]",
            "nondet()",
        ),
        (
            "argc-search",
            "static char a[100000];\n  char key = nondet();\n  int i;\n  for (i = 0; i < 100000; i++) a[i] = nondet();\n  \
             for (i = 0; i < 100000; i++) if (a[i] == key) return 0;\n  __VERIFIER_assert(VARIANT);",
            "i == 100000",
            "i != 100000",
        ),
    ];
    check_deep_twins("int main(int argc, char **argv)", &twins);
}

/// Verifies each twin (name, body of `main` with `VARIANT`, the variant
/// that holds, the one that fails) with `main` declared as `header`: the
/// failing one must be FAILED, the other never.
fn check_deep_twins(header: &str, twins: &[(&str, &str, &str, &str)]) {
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = twins
            .iter()
            .map(|&(name, body, holds, fails)| {
                scope.spawn(move || {
                    let mut failures = Vec::new();
                    for (variant, violated) in [(holds, false), (fails, true)] {
                        let source = format!("{PRELUDE}{STEP}{header} {{\n  {}\n  return 0; }}\n", body.replace("VARIANT", variant));
                        let test = format!("kind-deep-{name}-{violated}");
                        let answer = verify(&test, &source, &["--timeout", "15"]);
                        if answer.starts_with(FAILED) != violated {
                            failures.push(format!("{test}: expected FAILED = {violated}, got {answer}"));
                        }
                    }
                    failures
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a checker thread")).collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A concrete run takes `sscanf`'s conversions as inputs (symex does too,
/// and trusts no violation past the call): a run through it that fails an
/// assertion is no counterexample. The long loop sends the program to the
/// concrete runs; its twin fails before the call and stays FAILED. The
/// program that holds is run natively first.
#[test]
fn a_concrete_run_through_sscanf_is_no_counterexample() {
    let source = "#include <stdio.h>\n#include <assert.h>\nint main(void) {\n  volatile unsigned long sink = 0;\n  \
                  for (unsigned long i = 0; i < 200000; i++) sink += i;\n  assert(sink BEFORE);\n  char s[16] = \"\"; char c = 0;\n  \
                  int n = sscanf(\"abcdefgh k\", \"%5s %c\", s, &c);\n  assert(n == 2 && c == 'f' && s[0] == 'a' && s[5] == 0);\n  return 0;\n}\n";
    let holds = source.replace("BEFORE", "== 19999900000UL");
    let dir = scratch_dir("kind-concrete-sscanf-native");
    match common::native_run(&dir, "holds", &holds, &[]) {
        Some(out) => assert_eq!(common::exit_code(&out), Some(0), "the program holds natively: {}", out.stderr),
        None => println!("SKIP native run: gcc is not available"),
    }
    if !front_end_ready("a_concrete_run_through_sscanf_is_no_counterexample") {
        return;
    }
    let answer = verify("kind-concrete-sscanf", &holds, &["--timeout", "15"]);
    assert!(!answer.starts_with(FAILED), "{answer}");
    let answer = verify("kind-concrete-sscanf-false", &source.replace("BEFORE", "!= 19999900000UL"), &["--timeout", "15"]);
    assert!(answer.starts_with(FAILED), "{answer}");
}
