//! `--unwind N` with unwinding assertions: a program loop or recursion that
//! goes past the bound is a violation (FAILED, with a replayed trace), as
//! CBMC and ESBMC report it; a loop of a library model past the bound, an
//! incremental run or an SV-COMP property leave the answer UNKNOWN instead.

mod common;

use common::{exit_code, front_end_ready, run, scratch_dir, write};

const COUNT_TO_N: &str = "int __VERIFIER_nondet_int(void);\n\
    int main(void) { int n = __VERIFIER_nondet_int(); int s = 0;\n\
    for (int i = 0; i < n; i++) s += i;\n\
    return s; }\n";

/// The stdout of tarsier on `source` with `flags`.
fn verify(test: &str, source: &str, flags: &[&str]) -> String {
    let dir = scratch_dir(test);
    let file = write(&dir, "p.c", source);
    let mut args = vec![file.display().to_string()];
    args.extend(flags.iter().map(|f| f.to_string()));
    let out = run(&args);
    let expected_exit = match out.stdout.lines().last() {
        Some("VERIFICATION FAILED") => Some(10),
        Some("VERIFICATION SUCCESSFUL") => Some(0),
        _ => Some(5),
    };
    assert_eq!(exit_code(&out), expected_exit, "{}", out.stdout);
    out.stdout
}

#[test]
fn a_loop_past_the_bound_violates_its_unwinding_assertion() {
    if !front_end_ready("a_loop_past_the_bound_violates_its_unwinding_assertion") {
        return;
    }
    let out = verify("unwind-loop", COUNT_TO_N, &["--unwind", "3"]);
    assert!(out.ends_with("unwinding-assertion\nVERIFICATION FAILED\n"), "{out}");
    assert!(out.contains("unwinding assertion: loop at main:3"), "{out}");
}

#[test]
fn an_assumed_bound_or_a_bound_that_suffices_is_no_violation() {
    if !front_end_ready("an_assumed_bound_or_a_bound_that_suffices_is_no_violation") {
        return;
    }
    let out = verify("unwind-assumed", COUNT_TO_N, &["--unwind", "3", "--no-unwinding-assertions"]);
    assert!(out.ends_with("(assumed, not checked)\nVERIFICATION SUCCESSFUL\n"), "{out}");
    let bounded = COUNT_TO_N.replace("i < n", "i < n && i < 4");
    assert!(verify("unwind-enough", &bounded, &["--unwind", "5"]).ends_with("VERIFICATION SUCCESSFUL\n"));
    assert!(verify("unwind-short", &bounded, &["--unwind", "4"]).ends_with("VERIFICATION FAILED\n"));
}

#[test]
fn recursion_past_the_bound_violates_its_unwinding_assertion() {
    if !front_end_ready("recursion_past_the_bound_violates_its_unwinding_assertion") {
        return;
    }
    let source = "int depth(int n) { return n <= 0 ? 0 : 1 + depth(n - 1); }\nint main(void) { return depth(5); }\n";
    let out = verify("unwind-recursion", source, &["--unwind", "3"]);
    assert!(out.contains("recursion of depth") && out.ends_with("VERIFICATION FAILED\n"), "{out}");
    assert!(verify("unwind-recursion-enough", source, &["--unwind", "6"]).ends_with("VERIFICATION SUCCESSFUL\n"));
}

#[test]
fn library_loops_incremental_runs_and_competition_properties_stay_unknown() {
    if !front_end_ready("library_loops_incremental_runs_and_competition_properties_stay_unknown") {
        return;
    }
    // A library model's loop runs past the user's bound up to 128 iterations, not further.
    let long = "a".repeat(200);
    let library = format!("#include <string.h>\nint main(void) {{ char s[] = \"{long}\"; return strlen(s) == 200; }}\n");
    let out = verify("unwind-library", &library, &["--unwind", "2"]);
    assert!(out.ends_with("bound is too small (unwinding assertion)\nVERIFICATION UNKNOWN\n"), "{out}");
    let out = verify("unwind-incremental", COUNT_TO_N, &["--incremental-bmc"]);
    assert!(out.ends_with("VERIFICATION UNKNOWN\n"), "incremental BMC raises the bound instead: {out}");
    let dir = scratch_dir("unwind-prp");
    let prp = write(&dir, "unreach-call.prp", "CHECK( init(main()), LTL(G ! call(reach_error())) )\n");
    let out = verify("unwind-property", COUNT_TO_N, &["--unwind", "3", "--property", prp.to_str().unwrap()]);
    assert!(out.ends_with("UNKNOWN\nVERIFICATION UNKNOWN\n"), "{out}");
}

#[test]
fn a_program_loop_past_the_bound_is_replayed_past_library_loops_that_need_more() {
    if !front_end_ready("a_program_loop_past_the_bound_is_replayed_past_library_loops_that_need_more") {
        return;
    }
    // strcpy's loop needs more than one iteration: the replay must count
    // it with the models' bound, as symex did, to reach the program loop.
    let source = "#include <string.h>\nstruct a { char name[8]; };\n\
        int main(void) { struct a l[2]; int n = 0;\n\
        strcpy(l[0].name, \"abc\"); n++; strcpy(l[1].name, \"de\"); n++;\n\
        for (int i = 0; i < n; i++) if (strcmp(l[i].name, \"de\") == 0) break;\n\
        return 0; }\n";
    let out = verify("unwind-past-library", source, &["--unwind", "1"]);
    assert!(out.contains("unwinding assertion: loop at main:5") && out.ends_with("VERIFICATION FAILED\n"), "{out}");
    assert!(verify("unwind-past-library-enough", source, &["--unwind", "3"]).ends_with("VERIFICATION SUCCESSFUL\n"));
}
