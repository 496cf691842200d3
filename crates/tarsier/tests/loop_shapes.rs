//! Loops of every shape are unwound as the natural loops of the control
//! flow: all paths of one iteration (every back edge: `continue`, `goto`
//! to the head, `continue` inside a `switch`) meet at the head before the
//! next one, and one count per loop bounds them. Each shape has a FALSE
//! twin (a path violates the assertion) and a TRUE twin, checked under
//! `--unwind N`, `--unwind N --no-unwinding-assertions` and
//! `--incremental-bmc`. Where gcc is installed, every twin's verdict is
//! first confirmed natively: the program runs with every sequence of 0/1
//! answers to its first `INPUT_BITS` nondeterministic calls.

mod common;

use common::{front_end_ready, run, scratch_dir, write};
use std::process::Command;

const FAILED: &str = "VERIFICATION FAILED";
const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const UNKNOWN: &str = "VERIFICATION UNKNOWN";

/// One loop shape: `BODY` holds `ASSERTION`, which the twins replace.
struct Shape {
    name: &'static str,
    source: &'static str,
    /// The assertion some path violates, and one no path violates.
    violated: &'static str,
    holds: &'static str,
    /// The TRUE twin's verdicts under `--unwind 5`, `--unwind 5
    /// --no-unwinding-assertions` and `--incremental-bmc` (a loop without
    /// a bound cannot be proved by unwinding).
    holds_verdicts: [&'static str; 3],
}

const BOUNDED: [&str; 3] = [SUCCESSFUL, SUCCESSFUL, SUCCESSFUL];
const UNBOUNDED: [&str; 3] = [FAILED, SUCCESSFUL, UNKNOWN];

const SHAPES: &[Shape] = &[
    Shape {
        name: "while-continue-unbounded",
        source: "int main(void) { int last = 0;\n\
            while (nondet()) { if (nondet()) continue; last = 1; }\n\
            ASSERTION; return 0; }\n",
        violated: "last != 1",
        holds: "last == 0 || last == 1",
        holds_verdicts: UNBOUNDED,
    },
    Shape {
        name: "while-continue",
        source: "int main(void) { int last = 0, i = 0;\n\
            while (i < 3) { i++; if (nondet()) continue; last = i; }\n\
            ASSERTION; return 0; }\n",
        violated: "last != 3",
        holds: "last != 4 && i == 3",
        holds_verdicts: BOUNDED,
    },
    Shape {
        name: "for-continue",
        source: "int main(void) { int sum = 0;\n\
            for (int i = 0; i < 3; i++) { if (nondet()) continue; sum += i + 1; }\n\
            ASSERTION; return 0; }\n",
        violated: "sum != 6",
        holds: "sum <= 6",
        holds_verdicts: BOUNDED,
    },
    Shape {
        name: "do-while-continue",
        source: "int main(void) { int n = 0, i = 0;\n\
            do { i++; if (nondet()) continue; n++; } while (i < 3);\n\
            ASSERTION; return 0; }\n",
        violated: "n != 3",
        holds: "n <= 3 && i == 3",
        holds_verdicts: BOUNDED,
    },
    Shape {
        name: "goto-head-from-several-places",
        source: "int main(void) { int i = 0, seen = 0;\n\
            head: if (i >= 3) goto done;\n\
            i++;\n\
            if (nondet()) goto head;\n\
            seen |= 1;\n\
            if (nondet()) goto head;\n\
            seen |= 2;\n\
            goto head;\n\
            done: ASSERTION; return 0; }\n",
        violated: "seen != 3",
        holds: "seen <= 3",
        holds_verdicts: BOUNDED,
    },
    Shape {
        name: "continue-in-switch",
        source: "int main(void) { int hits = 0;\n\
            for (int i = 0; i < 3; i++) {\n\
              switch (nondet()) { case 0: continue; default: break; }\n\
              hits++;\n\
            }\n\
            ASSERTION; return 0; }\n",
        violated: "hits != 3",
        holds: "hits <= 3",
        holds_verdicts: BOUNDED,
    },
    Shape {
        name: "nested-goto-to-outer-head",
        source: "int main(void) { int i = 0, inner_done = 0;\n\
            outer: while (i < 3) {\n\
              i++;\n\
              for (int j = 0; j < 2; j++) { if (nondet()) goto outer; }\n\
              inner_done++;\n\
            }\n\
            ASSERTION; return 0; }\n",
        violated: "inner_done != 3",
        holds: "inner_done <= 3 && i == 3",
        holds_verdicts: BOUNDED,
    },
    Shape {
        name: "break-and-continue",
        source: "int main(void) { int i = 0, odd = 0;\n\
            while (1) {\n\
              if (i == 3) break;\n\
              i++;\n\
              if (nondet()) continue;\n\
              if (nondet()) break;\n\
              odd = i;\n\
            }\n\
            ASSERTION; return 0; }\n",
        violated: "odd != 3",
        holds: "odd <= i",
        holds_verdicts: BOUNDED,
    },
    Shape {
        name: "goto-loop-body-before-its-test",
        source: "int main(void) { int i = 0, last = 0;\n\
            goto test;\n\
            body: i++;\n\
            if (nondet()) goto test;\n\
            last = i;\n\
            test: if (i < 3) goto body;\n\
            ASSERTION; return 0; }\n",
        violated: "last != 3",
        holds: "last <= 3 && i == 3",
        holds_verdicts: BOUNDED,
    },
    Shape {
        name: "irreducible",
        source: "int main(void) { int i = 0, a = 0, b = 0;\n\
            if (nondet()) goto middle;\n\
            top: a++;\n\
            middle: b++; i++;\n\
            if (i < 3 && nondet()) goto top;\n\
            if (i < 3) goto middle;\n\
            ASSERTION; return 0; }\n",
        violated: "a != 3",
        holds: "a <= 3 && b == 3",
        holds_verdicts: BOUNDED,
    },
];

/// The verification prelude: nondeterministic answers and the assertion.
const PRELUDE: &str = "extern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_assert(int);\n\
    #define nondet() __VERIFIER_nondet_int()\n";

/// Runs `program_main` natively for every sequence of 0/1 answers to its
/// first `INPUT_BITS` nondet calls (0 afterwards) and prints whether some
/// run violated an assertion.
const NATIVE_DRIVER: &str = r#"
#include <setjmp.h>
#include <stdio.h>
#define INPUT_BITS 14
static jmp_buf failed;
static unsigned answers, calls;
int __VERIFIER_nondet_int(void) { return calls < INPUT_BITS ? (answers >> calls++) & 1 : 0; }
void __VERIFIER_assert(int c) { if (!c) longjmp(failed, 1); }
int program_main(void);
int main(void) {
    for (answers = 0; answers < (1u << INPUT_BITS); answers++) {
        calls = 0;
        if (setjmp(failed)) { printf("violated\n"); return 0; }
        program_main();
    }
    printf("holds\n");
    return 0;
}
"#;

fn program(shape: &Shape, assertion: &str) -> String {
    let body = shape.source.replace("ASSERTION", &format!("__VERIFIER_assert({assertion})"));
    format!("{PRELUDE}{body}")
}

/// Whether some native run violates the assertion; `None` without gcc.
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

fn last_line(test: &str, source: &str, flags: &[&str]) -> String {
    let dir = scratch_dir(test);
    let file = write(&dir, "p.c", source);
    let mut args = vec![file.display().to_string()];
    args.extend(flags.iter().map(|f| f.to_string()));
    let out = run(&args);
    out.stdout.lines().last().unwrap_or_default().to_string() + "\n" + &out.stdout
}

const MODES: [&[&str]; 3] = [&["--unwind", "5"], &["--unwind", "5", "--no-unwinding-assertions"], &["--incremental-bmc"]];

/// Checks both twins of `shape`; returns the failures.
fn check(shape: &Shape) -> Vec<String> {
    let mut failures = Vec::new();
    let twins = [(shape.violated, true, [FAILED; 3]), (shape.holds, false, shape.holds_verdicts)];
    for (assertion, violated, verdicts) in twins {
        let source = program(shape, assertion);
        let test = format!("{}-{}", shape.name, if violated { "false" } else { "true" });
        match native_violation(&test, &source) {
            Some(native) if native != violated => failures.push(format!("{test}: natively violated = {native}")),
            Some(_) => {}
            None => println!("{test}: gcc not found, the native check is skipped"),
        }
        for (flags, expected) in MODES.iter().zip(verdicts) {
            let answer = last_line(&format!("{test}{}", flags.join("")), &source, flags);
            if !answer.starts_with(expected) {
                failures.push(format!("{test} {flags:?}: expected {expected}, got {answer}"));
            }
        }
    }
    failures
}

#[test]
fn every_loop_shape_keeps_all_paths_of_an_iteration() {
    if !front_end_ready("every_loop_shape_keeps_all_paths_of_an_iteration") {
        return;
    }
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = SHAPES.chunks(3).map(|chunk| scope.spawn(move || chunk.iter().flat_map(check).collect::<Vec<_>>())).collect();
        workers.into_iter().flat_map(|w| w.join().expect("a checker thread")).collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The unwinding assertion of a loop with several back edges names the
/// loop by its statement, and its bound counts iterations, not back edges.
#[test]
fn a_loop_with_several_back_edges_is_one_loop_for_its_bound() {
    if !front_end_ready("a_loop_with_several_back_edges_is_one_loop_for_its_bound") {
        return;
    }
    let source = format!(
        "{PRELUDE}int main(void) {{ int i = 0;\n\
         while (i < 2) {{\n\
           i++;\n\
           if (nondet()) continue;\n\
         }}\n\
         return 0; }}\n"
    );
    // Two iterations, each by either back edge: --unwind 3 suffices, 2 does not.
    assert!(last_line("two-back-edges-enough", &source, &["--unwind", "3"]).starts_with(SUCCESSFUL));
    let short = last_line("two-back-edges-short", &source, &["--unwind", "2"]);
    assert!(short.starts_with(FAILED) && short.contains("unwinding assertion: loop at main:5"), "{short}");
}

/// A `switch` whose dispatch the front end places after its cases jumps
/// backwards in the instruction list without being a loop: it must not
/// count against the unwinding bound (it cut paths, a wrong TRUE).
#[test]
fn a_switch_dispatch_is_no_loop() {
    if !front_end_ready("a_switch_dispatch_is_no_loop") {
        return;
    }
    let once = format!("{PRELUDE}int main(void) {{ int y = 0;\n  switch (nondet()) {{ case 1: y = 1; break; }}\n  __VERIFIER_assert(y != 1); return 0; }}\n");
    let nested = format!(
        "{PRELUDE}int main(void) {{ int y = 0;\n  for (int j = 0; j < 2; j++)\n    for (int i = 0; i < 2; i++)\n      \
         switch (i) {{ case 0: case 1: y++; break; }}\n  __VERIFIER_assert(y != 4); return 0; }}\n"
    );
    for (name, source, bound) in [("switch-once", &once, "1"), ("switch-in-loops", &nested, "3")] {
        let answer = last_line(name, source, &["--unwind", bound, "--no-unwinding-assertions"]);
        assert!(answer.starts_with(FAILED) && answer.contains("user-assertion"), "{name}: {answer}");
        let answer = last_line(&format!("{name}-checked"), source, &["--unwind", bound]);
        assert!(answer.starts_with(FAILED) && answer.contains("user-assertion"), "{name}: {answer}");
    }
}
