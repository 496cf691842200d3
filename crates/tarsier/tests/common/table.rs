//! Tables of small C programs with expected verdicts: a C text whose `LAST`
//! stands for each check's code, the flags and the verdict each check
//! expects, and what the same program does compiled by gcc (`-O0`, with
//! the undefined-behaviour and address sanitizers), so an expectation that
//! contradicts the compiled program cannot stand. Checks run a few at a
//! time; every program that holds must also have a check that fails.

use super::{run_parallel, scratch_dir, verdict, write};
use std::process::Command;
use std::sync::OnceLock;

pub const HOLDS: &str = "VERIFICATION SUCCESSFUL";
pub const FAILS: &str = "VERIFICATION FAILED";
pub const UNKNOWN: &str = "VERIFICATION UNKNOWN";

/// What the program does compiled natively.
#[derive(Clone, Copy, Debug)]
pub enum Native {
    /// Exits with status 0 and no sanitizer report.
    Exits,
    /// Ends otherwise: a failed assertion, a sanitizer report, a signal.
    Traps,
    /// Not run natively, for the reason given (nondeterministic inputs,
    /// undefined behaviour gcc compiles away, ...).
    NotRun(&'static str),
}

/// One check of a program: the text that replaces `LAST`, tarsier's flags
/// (`-D` flags go to gcc too), the verdict line expected, and the native
/// behaviour.
#[derive(Clone, Copy, Debug)]
pub struct Check {
    pub last: &'static str,
    pub flags: &'static [&'static str],
    pub verdict: &'static str,
    pub native: Native,
}

impl Check {
    /// Holds, and the compiled program exits normally.
    pub const fn holds(last: &'static str, flags: &'static [&'static str]) -> Check {
        Check { last, flags, verdict: HOLDS, native: Native::Exits }
    }
    /// Fails, and the compiled program traps.
    pub const fn fails(last: &'static str, flags: &'static [&'static str]) -> Check {
        Check { last, flags, verdict: FAILS, native: Native::Traps }
    }
    /// The verdict, not checked natively.
    pub const fn verdict(last: &'static str, flags: &'static [&'static str], verdict: &'static str, why: &'static str) -> Check {
        Check { last, flags, verdict, native: Native::NotRun(why) }
    }
    /// The same check, not run natively because of `why`.
    pub const fn not_native(self, why: &'static str) -> Check {
        Check { native: Native::NotRun(why), ..self }
    }
}

/// A C program and its checks.
pub struct Program {
    /// What the program shows; a failure names it.
    pub what: &'static str,
    /// The scratch folder's name.
    pub test: &'static str,
    pub text: &'static str,
    pub checks: &'static [Check],
}

/// Runs every check of every program, by tarsier and natively, and fails
/// with the list of disagreements.
pub fn check_programs(programs: &[Program]) {
    if !super::front_end_ready(programs.first().map_or("table", |p| p.test)) {
        return;
    }
    let checks: Vec<(&Program, usize)> =
        programs.iter().flat_map(|program| (0..program.checks.len()).map(move |index| (program, index))).collect();
    let failures = run_parallel(&checks, |&(program, index)| check(program, index));
    assert!(failures.is_empty(), "{} of {} checks failed:\n{}", failures.len(), checks.len(), failures.join("\n"));
}

/// A table whose programs all held (or all failed) could not tell a
/// verifier that answers one verdict everywhere from a right one.
pub fn assert_twins(programs: &[Program]) {
    for program in programs {
        let has = |verdict: &str| program.checks.iter().any(|c| c.verdict == verdict);
        assert!(!has(HOLDS) || has(FAILS), "{} has no check that fails", program.what);
        assert!(program.text.contains("LAST"), "{} has no place for its checks", program.what);
    }
}

/// A check's failure: what the program shows, the check, and what
/// tarsier (or the compiled program) did instead.
fn check(program: &Program, index: usize) -> Option<String> {
    let c = program.checks[index];
    let source = program.text.replace("LAST", c.last);
    let test = format!("{}-{index}", program.test);
    let answer = verdict(&test, &source, c.flags);
    let got = answer.lines().next().unwrap_or_default();
    if got != c.verdict {
        return Some(format!("{}: `{}` {:?}: expected {}, got {answer}", program.what, c.last, c.flags, c.verdict));
    }
    native_failure(&c, &test, &source).map(|failure| format!("{}: `{}`: {failure}", program.what, c.last))
}

const SANITIZERS: [&str; 2] = ["-fsanitize=undefined,address", "-fno-sanitize-recover=all"];

/// Whether gcc builds and runs sanitized programs here (else the native
/// side of the tables is skipped, with a message printed once).
fn sanitized_gcc_works() -> bool {
    static WORKS: OnceLock<bool> = OnceLock::new();
    *WORKS.get_or_init(|| {
        let dir = scratch_dir("table-gcc-probe");
        let works = build(&dir, "int main(void) { return 0; }\n", &[]).is_ok_and(|binary| Command::new(binary).status().is_ok_and(|s| s.success()));
        if !works {
            println!("SKIP native runs: gcc cannot build and run programs with {}", SANITIZERS.join(" "));
        }
        works
    })
}

/// Compiles `source` in `dir` with gcc -O0 and the sanitizers.
fn build(dir: &std::path::Path, source: &str, defines: &[&str]) -> Result<std::path::PathBuf, String> {
    let file = write(dir, "native.c", source);
    let binary = dir.join("native");
    let out = Command::new("gcc")
        .args(["-O0", "-w"])
        .args(SANITIZERS)
        .args(defines)
        .arg("-o")
        .arg(&binary)
        .arg(&file)
        .arg("-lm")
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(binary)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// How the compiled program contradicts the check's native behaviour, if
/// it does (`None` too when the check is not run natively or gcc is not
/// usable).
fn native_failure(c: &Check, test: &str, source: &str) -> Option<String> {
    let should_exit = match c.native {
        Native::Exits => true,
        Native::Traps => false,
        Native::NotRun(_) => return None,
    };
    if !sanitized_gcc_works() {
        return None;
    }
    let defines: Vec<&str> = c.flags.iter().copied().filter(|f| f.starts_with("-D")).collect();
    let binary = match build(&scratch_dir(&format!("{test}-native")), source, &defines) {
        Ok(binary) => binary,
        Err(errors) => return Some(format!("gcc rejects the program:\n{errors}")),
    };
    let out = Command::new(binary).output().expect("the compiled program runs");
    match (should_exit, out.status.success()) {
        (true, false) => Some(format!("the compiled program traps ({:?}):\n{}", out.status, String::from_utf8_lossy(&out.stderr))),
        (false, true) => Some("the compiled program exits normally".to_string()),
        _ => None,
    }
}
