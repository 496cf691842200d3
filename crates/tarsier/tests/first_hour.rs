//! What a newcomer meets in the first hour: wrong kinds of input (a
//! directory, a binary, an empty file) told plainly, one error for a type
//! error in `main`, contracts reported as unsupported, `--version` with
//! the build, the flags ESBMC and CBMC users already type, and no progress
//! line where nobody watches it.

mod common;
use common::*;

const LOOPS: &str = "\
extern void __VERIFIER_assert(int);
int main(void) {
  int s = 0;
  for (int i = 0; i < 10; i++)
    s += i;
  int j = 0;
  while (j < 3) j++;
  __VERIFIER_assert(s == 45);
  return 0;
}
";

fn last_line(out: &Output) -> &str {
    out.stdout.lines().last().unwrap_or("")
}

#[test]
fn a_directory_or_a_binary_is_not_c_and_is_named() {
    let dir = scratch_dir("first-hour-kinds");
    let out = run([dir.as_os_str()]);
    assert_eq!(exit_code(&out), Some(EXIT_INPUT_ERROR), "{}", out.stderr);
    assert!(out.stderr.contains("is a directory, not a C source file"), "{}", out.stderr);
    let binary = dir.join("prog.c");
    std::fs::write(&binary, b"\x7fELF\x02\x01\x01\0\0\0garbage").unwrap();
    let out = run([binary.as_os_str()]);
    assert_eq!(exit_code(&out), Some(EXIT_INPUT_ERROR), "{}", out.stderr);
    assert!(out.stderr.contains("prog.c:1:8: error: not a C source file"), "{}", out.stderr);
    assert!(!out.stderr.contains("ELF") && out.stderr.lines().count() == 1, "no echo of the bytes: {}", out.stderr);
}

#[test]
fn an_empty_file_is_named() {
    let dir = scratch_dir("first-hour-empty");
    let empty = write(&dir, "empty.c", "");
    let out = run([empty.as_os_str()]);
    assert_eq!(exit_code(&out), Some(EXIT_INPUT_ERROR), "{}", out.stderr);
    assert!(out.stderr.contains("empty.c' is empty"), "{}", out.stderr);
}

#[test]
fn a_type_error_in_main_is_the_only_error() {
    if !front_end_ready("a_type_error_in_main_is_the_only_error") {
        return;
    }
    let dir = scratch_dir("first-hour-type-error");
    let file = write(&dir, "te.c", "int main(void) { int x = \"a\" * 2; return x; }\n");
    let out = run([file.as_os_str()]);
    assert_eq!(exit_code(&out), Some(EXIT_INPUT_ERROR), "{}", out.stderr);
    assert!(out.stderr.contains("te.c:1:"), "{}", out.stderr);
    assert!(!out.stderr.contains("is not defined"), "spurious second error: {}", out.stderr);
    let missing = write(&dir, "nomain.c", "int f(void) { return 0; }\n");
    let out = run([missing.as_os_str()]);
    assert!(out.stderr.contains("entry function `main` is not defined"), "{}", out.stderr);
}

#[test]
fn function_contracts_are_unsupported_not_a_syntax_error() {
    if !front_end_ready("function_contracts_are_unsupported_not_a_syntax_error") {
        return;
    }
    let dir = scratch_dir("first-hour-contracts");
    let file = write(&dir, "req.c", "int f(int x) __CPROVER_requires(x > 0) { return x; }\nint main(void) { return f(1); }\n");
    let out = run([file.as_os_str()]);
    assert_eq!(exit_code(&out), Some(EXIT_UNKNOWN), "{}", out.stderr);
    assert!(out.stderr.contains("req.c:1:14: error: unsupported: function contracts"), "{}", out.stderr);
    assert_eq!(last_line(&out), "VERIFICATION UNKNOWN");
}

#[test]
fn version_names_the_commit_and_the_build() {
    let out = run(["--version"]);
    assert_eq!(exit_code(&out), Some(EXIT_SUCCESS));
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines[0].starts_with("tarsier "), "{}", out.stdout);
    assert!(lines.iter().any(|l| l.starts_with("commit ")), "{}", out.stdout);
    assert!(lines.iter().any(|l| l.starts_with("built for ") && l.contains("rustc")), "{}", out.stdout);
}

#[test]
fn show_loops_names_the_loops_unwindset_bounds() {
    if !front_end_ready("show_loops_names_the_loops_unwindset_bounds") {
        return;
    }
    let dir = scratch_dir("first-hour-loops");
    let file = write(&dir, "loops.c", LOOPS);
    let out = run([file.as_os_str(), "--show-loops".as_ref()]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}{}", out.stdout, out.stderr);
    assert!(lines[0].starts_with("Loop main.0 (number 1): ") && lines[0].ends_with("loops.c:4"), "{}", out.stdout);
    assert!(lines[1].starts_with("Loop main.1 (number 2): ") && lines[1].ends_with("loops.c:7"), "{}", out.stdout);
    let file = file.to_str().unwrap();
    let enough = run([file, "--unwindset", "main.0:11,main.1:4"]);
    assert_eq!(last_line(&enough), "VERIFICATION SUCCESSFUL", "{}", enough.stdout);
    let short = run([file, "--unwindset", "1:5", "--unwindset", "main.1:4"]);
    assert_eq!(last_line(&short), "VERIFICATION FAILED", "{}", short.stdout);
    assert!(short.stdout.contains("unwinding assertion: loop at main:4"), "{}", short.stdout);
    let unknown = run([file, "--unwindset", "f.0:3"]);
    assert_eq!(exit_code(&unknown), Some(EXIT_USAGE));
    assert!(unknown.stderr.contains("--show-loops"), "{}", unknown.stderr);
}

#[test]
fn esbmc_and_cbmc_check_flags_run() {
    if !front_end_ready("esbmc_and_cbmc_check_flags_run") {
        return;
    }
    let dir = scratch_dir("first-hour-flags");
    let file = write(&dir, "ovf.c", "int __VERIFIER_nondet_int(void);\nint main(void) { int x = __VERIFIER_nondet_int(); return x + 1; }\n");
    let file = file.to_str().unwrap();
    let out = run([file, "--signed-overflow-check", "--bounds-check", "--pointer-check", "--div-by-zero-check", "--no-slice"]);
    assert_eq!(last_line(&out), "VERIFICATION FAILED", "{}", out.stdout);
    assert!(out.stdout.contains("signed-overflow"), "{}", out.stdout);
    let vcc = run([file, "--show-vcc", "--unwind", "1"]);
    assert!(vcc.stdout.starts_with("(set-logic ALL)"), "{}", vcc.stdout);
}

#[test]
fn a_missing_solver_says_not_installed() {
    let dir = scratch_dir("first-hour-solvers");
    let file = write(&dir, "ok.c", "int main(void) { return 0; }\n");
    for flag in ["--boolector", "--yices", "--mathsat"] {
        let out = run([file.as_os_str(), flag.as_ref()]);
        match exit_code(&out) {
            Some(EXIT_USAGE) => assert!(out.stderr.contains("is not installed"), "{flag}: {}", out.stderr),
            _ => println!("{flag}: the solver is installed; its run: {}", last_line(&out)),
        }
    }
}

#[test]
fn no_progress_line_when_stderr_is_not_a_terminal() {
    if !front_end_ready("no_progress_line_when_stderr_is_not_a_terminal") {
        return;
    }
    let dir = scratch_dir("first-hour-progress");
    let file = write(&dir, "loops.c", LOOPS);
    let out = run([file.as_os_str(), "--verbosity".as_ref(), "1".as_ref()]);
    assert_eq!(last_line(&out), "VERIFICATION SUCCESSFUL", "{}", out.stdout);
    assert_eq!(out.stderr, "", "stderr is a pipe here: nothing to redraw");
}
