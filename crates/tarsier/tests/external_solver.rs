//! `--solver z3` and `--crosscheck z3` on small programs: the external
//! solver gives the verdicts CaDiCaL gives (a FALSE through its model is
//! replayed as usual), and the cross-check finds the two solvers agreeing.
//! Skipped with a message when z3 is not installed; a missing solver is a
//! usage error whatever is installed.

mod common;

use common::{exit_code, front_end_ready, run, scratch_dir, write, EXIT_USAGE};

/// A violation only one input reaches (x = 15).
const ONE_BAD_INPUT: &str = "int nondet_int(void);\n\
    int main(void) { int x = nondet_int(); int y = x * 3;\n\
    if (x > 10 && x < 20) __ESBMC_assert(y != 45, \"not 45\"); return 0; }\n";

/// A square below 10^6 for every x below 1000, loops and memory included.
const SQUARES_BOUNDED: &str = "unsigned nondet_uint(void);\n\
    int main(void) { unsigned a[4]; unsigned x = nondet_uint();\n\
    for (int i = 0; i < 4; i++) a[i] = x + i;\n\
    if (x < 996) __ESBMC_assert(a[3] * a[3] < 1000000u, \"small\"); return 0; }\n";

fn z3_installed(test: &str) -> bool {
    if std::process::Command::new("z3").arg("-version").output().is_err() {
        eprintln!("skipped {test}: no z3 on PATH (apt install z3, or pip install z3-solver)");
        return false;
    }
    front_end_ready(test)
}

fn verify(test: &str, source: &str, flags: &[&str]) -> String {
    let dir = scratch_dir(test);
    let file = write(&dir, "p.c", source);
    let mut args = vec![file.display().to_string()];
    args.extend(flags.iter().map(|f| f.to_string()));
    run(&args).stdout
}

#[test]
fn z3_finds_the_violation_and_proves_the_bound() {
    if !z3_installed("z3_finds_the_violation_and_proves_the_bound") {
        return;
    }
    let failed = verify("z3-violation", ONE_BAD_INPUT, &["--solver", "z3"]);
    assert!(failed.ends_with("VERIFICATION FAILED\n"), "{failed}");
    assert!(failed.contains("= 15"), "the replayed input is x = 15: {failed}");
    let proved = verify("z3-proof", SQUARES_BOUNDED, &["--z3", "--unwind", "5"]);
    assert!(proved.ends_with("VERIFICATION SUCCESSFUL\n"), "{proved}");
}

#[test]
fn the_crosscheck_finds_z3_and_cadical_agreeing() {
    if !z3_installed("the_crosscheck_finds_z3_and_cadical_agreeing") {
        return;
    }
    for (name, source) in [("crosscheck-violation", ONE_BAD_INPUT), ("crosscheck-proof", SQUARES_BOUNDED)] {
        let dir = scratch_dir(name).join("queries");
        let out = verify(name, source, &["--crosscheck", "z3", "--crosscheck-dir", &dir.display().to_string()]);
        let summary = out.lines().find(|l| l.starts_with("cross-check with z3:")).unwrap_or_else(|| panic!("{out}"));
        assert!(summary.ends_with(", 0 disagreements") && !summary.contains(" 0 decided"), "{summary}");
        assert!(!dir.exists(), "no query was written: {out}");
    }
}

#[test]
fn a_missing_solver_is_a_usage_error() {
    let dir = scratch_dir("missing-solver");
    let file = write(&dir, "p.c", ONE_BAD_INPUT);
    let out = run([file.display().to_string(), "--solver".into(), "smtlib:tarsier-no-such-solver -in".into()]);
    assert_eq!(exit_code(&out), Some(EXIT_USAGE), "{}", out.stdout);
    assert!(out.stderr.contains("`tarsier-no-such-solver` is not installed"), "{}", out.stderr);
}
