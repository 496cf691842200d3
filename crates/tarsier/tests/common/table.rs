//! Tables of small C programs with expected verdicts: a C text whose `LAST`
//! stands for each check's code, the flags and the verdict each check
//! expects, and what the same program does compiled by gcc (`-O0`, with
//! the undefined-behaviour and address sanitizers, see [`super::native_run`]),
//! so an expectation that contradicts the compiled program cannot stand.
//! Checks run a few at a time; every program that holds must also have a
//! check that fails.

use super::{exit_code, native_run, sanitizer_reported, scratch_dir, verdict, SANITIZERS};
use std::sync::Once;

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

/// One check of a program: the text that replaces `LAST`, the flags
/// (`-D` flags go to tarsier and gcc, `-l` flags to gcc only, the others
/// to tarsier only), the verdict line expected, and the native behaviour.
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
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let failures: Vec<String> = xtask::runner::parallel_map(&checks, workers, |&(program, index)| check(program, index), |_| {})
        .into_iter()
        .flatten()
        .collect();
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
    let flags: Vec<&str> = c.flags.iter().copied().filter(|f| !f.starts_with("-l")).collect();
    let answer = verdict(&test, &source, &flags);
    let got = answer.lines().next().unwrap_or_default();
    if got != c.verdict {
        return Some(format!("{}: `{}` {:?}: expected {}, got {answer}", program.what, c.last, c.flags, c.verdict));
    }
    native_failure(&c, &test, &source).map(|failure| format!("{}: `{}`: {failure}", program.what, c.last))
}

/// How the compiled program contradicts the check's native behaviour, if
/// it does (`None` too when the check is not run natively or gcc cannot
/// build sanitized programs here, which is said once).
fn native_failure(c: &Check, test: &str, source: &str) -> Option<String> {
    let should_exit = match c.native {
        Native::Exits => true,
        Native::Traps => false,
        Native::NotRun(_) => return None,
    };
    let mut flags: Vec<&str> = SANITIZERS.to_vec();
    flags.extend(c.flags.iter().filter(|f| f.starts_with("-D")));
    if c.flags.iter().any(|f| f.starts_with("-l")) {
        // Libraries come before the program here: keep them all.
        flags.push("-Wl,--no-as-needed");
        flags.extend(c.flags.iter().filter(|f| f.starts_with("-l")));
    }
    let Some(out) = native_run(&scratch_dir(&format!("{test}-native")), "native", source, &flags) else {
        static SAID: Once = Once::new();
        SAID.call_once(|| println!("SKIP native runs: gcc cannot build programs with {}", flags.join(" ")));
        return None;
    };
    let exits = exit_code(&out) == Some(0) && !sanitizer_reported(&out);
    match (should_exit, exits) {
        (true, false) => Some(format!("the compiled program traps ({:?}):\n{}", out.ending, out.stderr)),
        (false, true) => Some("the compiled program exits normally".to_string()),
        _ => None,
    }
}
