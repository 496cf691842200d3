//! The native attack on a TRUE: the program built by gcc with
//! `-fsanitize=address,undefined` and a random-input harness (every
//! body-less function the program calls returns seeded random values,
//! biased towards 0, ±1, MIN and MAX; the verifiers' assume, assert and
//! error intrinsics get their native meaning), run many times, one forked
//! child per seed. A run that ends in a violation of a property tarsier
//! checked, reproduced with other values of uninitialised memory and
//! another address layout, refutes the TRUE. Everything gcc cannot give
//! a native meaning (undefined behaviour of an unchecked kind before the
//! failure, intrinsics without a native meaning, nondeterministic
//! pointers, results that change with uninitialised values or addresses)
//! is "undecidable natively", never a refutation.

use crate::corpus::Task;
use crate::harness_check::gcc_for;
use crate::process::{run_with_timeout, Ending};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a run of the program can show, in tarsier's property terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Violation {
    Assertion,
    /// An out-of-bounds or invalid-pointer access, or an invalid free.
    Memory,
    DivisionByZero,
    SignedOverflow,
    Shift,
}

/// The properties tarsier was asked to check, as the attack needs them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    pub assertions: bool,
    pub memory: bool,
    pub division: bool,
    pub overflow: bool,
    pub shift: bool,
}

impl Checked {
    /// The checks of a corpus task (its manifest fields, or its SV-COMP
    /// property); `None` for a property the attack cannot judge.
    pub fn of(task: &Task) -> Option<Checked> {
        if let Some(property) = &task.property {
            let name = property.file.rsplit('/').next().unwrap_or("");
            return match name {
                "unreach-call.prp" => Some(Checked { assertions: true, ..Checked::default() }),
                "no-overflow.prp" => Some(Checked { overflow: true, ..Checked::default() }),
                "valid-memsafety.prp" => Some(Checked { memory: true, ..Checked::default() }),
                _ => None,
            };
        }
        let on = |name: &str, default: bool| task.checks.iter().find(|(c, _)| c == name).map_or(default, |(_, on)| *on);
        Some(Checked {
            assertions: on("assertions", true),
            // Which of the two a bad access is filed under is tarsier's
            // choice: both must be checked.
            memory: on("bounds", true) && on("pointer", true),
            division: on("div_by_zero", true),
            overflow: on("overflow_signed", false),
            shift: on("undefined_shift", false),
        })
    }

    fn covers(self, violation: Violation) -> bool {
        match violation {
            Violation::Assertion => self.assertions,
            Violation::Memory => self.memory,
            Violation::DivisionByZero => self.division,
            Violation::SignedOverflow => self.overflow,
            Violation::Shift => self.shift,
        }
    }
}

/// What one native run ended in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Violation(Violation),
    /// Something with no verdict in tarsier's terms (undefined behaviour
    /// of a kind not checked, an intrinsic without native meaning, ...).
    Undecidable(String),
}

/// The first event a run's stderr reports, if any.
pub fn event_of(stderr: &str) -> Option<Event> {
    let undecidable = |what: &str| Some(Event::Undecidable(what.chars().take(120).collect()));
    if let Some(rest) = stderr.split("harness: undecidable: ").nth(1) {
        return undecidable(rest.lines().next().unwrap_or(""));
    }
    if let Some(rest) = stderr.split("ERROR: AddressSanitizer: ").nth(1) {
        let kind = rest.split_whitespace().next().unwrap_or("");
        let memory = kind.ends_with("buffer-overflow")
            || kind.ends_with("buffer-underflow")
            || kind.starts_with("heap-use-after-free")
            || kind.starts_with("stack-use-after")
            || rest.starts_with("attempting double-free")
            || rest.starts_with("attempting free on address which was not malloc()-ed")
            || rest.starts_with("SEGV on unknown address");
        return if memory { Some(Event::Violation(Violation::Memory)) } else { undecidable(&format!("AddressSanitizer: {kind}")) };
    }
    if let Some(rest) = stderr.split("runtime error: ").nth(1) {
        let message = rest.lines().next().unwrap_or("");
        let violation = if message.contains("signed integer overflow")
            || message.starts_with("negation of")
            || (message.starts_with("division of") && message.contains("cannot be represented"))
        {
            Some(Violation::SignedOverflow)
        } else if message.starts_with("division by zero") {
            Some(Violation::DivisionByZero)
        } else if message.starts_with("shift exponent") || message.starts_with("left shift of") {
            Some(Violation::Shift)
        } else if message.contains("null pointer") && !message.contains("offset") || message.contains("out of bounds for type") {
            Some(Violation::Memory)
        } else {
            None
        };
        return match violation {
            Some(v) => Some(Event::Violation(v)),
            None => undecidable(&format!("undefined behaviour: {message}")),
        };
    }
    if stderr.contains("Assertion `") && stderr.contains("failed") || stderr.contains("harness: assertion failed") {
        return Some(Event::Violation(Violation::Assertion));
    }
    None
}

/// The attack's conclusion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attack {
    /// No run violated a checked property.
    Survived { runs: usize },
    /// A run violated a checked property, reproduced: the TRUE is wrong.
    Refuted { violation: Violation, seed: usize, evidence: String },
    /// The program has no native meaning the attack could rely on.
    Undecidable(String),
}

/// Runs per attack, the wall limit of one attack and of one run.
const RUNS: usize = 200;
const ATTACK_LIMIT: Duration = Duration::from_secs(40);
/// Attacks restarted after an undecidable run before giving up.
const RESTARTS: usize = 4;

/// How the body-less functions are given a native meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stub {
    /// Returns a random value of its type.
    Nondet,
    Assume,
    Assert,
    /// Reaching it is the violation (`reach_error`, `__VERIFIER_error`).
    Error,
}

/// The stub of a body-less function, or why it has no native meaning.
fn stub_of(name: &str) -> Result<Stub, String> {
    match name {
        "__VERIFIER_assume" | "__CPROVER_assume" | "__ESBMC_assume" | "assume" => Ok(Stub::Assume),
        "__VERIFIER_assert" | "__CPROVER_assert" | "__ESBMC_assert" | "assert" => Ok(Stub::Assert),
        "__VERIFIER_error" | "reach_error" => Ok(Stub::Error),
        _ if name.starts_with("__VERIFIER_nondet") || name.starts_with("nondet") || name.starts_with("__CPROVER_nondet") => Ok(Stub::Nondet),
        _ if name.starts_with("__CPROVER") || name.starts_with("__ESBMC") || name.starts_with("__VERIFIER") || name.starts_with("pthread") => {
            Err(format!("intrinsic without a native meaning: {name}"))
        }
        _ => Ok(Stub::Nondet),
    }
}

/// The C of the random-input driver: the generator, the stubs' bodies
/// and the constructor that forks one child per seed.
const DRIVER: &str = include_str!("driver.c");

/// Attacks the program of `task` (its files under `corpus`), building
/// under `dir`.
pub fn attack(corpus: &Path, task: &Task, checked: Checked, dir: &Path) -> Attack {
    match build_and_run(corpus, task, checked, dir) {
        Ok(attack) => attack,
        Err(reason) => Attack::Undecidable(reason),
    }
}

/// The attacked program: its task, the sources gcc builds and where.
struct Attacked<'a> {
    corpus: &'a Path,
    task: &'a Task,
    sources: Vec<PathBuf>,
    /// The folder of the program's first file, for its `#include "..."`.
    quote: PathBuf,
    dir: &'a Path,
}

/// The first run of a series that reported an event.
struct Found {
    seed: usize,
    event: Event,
    stderr: String,
}

fn build_and_run(corpus: &Path, task: &Task, checked: Checked, dir: &Path) -> Result<Attack, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let inputs = task.input_paths(corpus);
    let names = undefined_names(corpus, task, &inputs, dir)?;
    let stubs = names.iter().map(|n| stub_of(n).map(|s| (n.clone(), s))).collect::<Result<Vec<_>, _>>()?;
    let (prelude, appended) = stub_texts(&stubs);
    let first = inputs.first().ok_or("the task has no file")?;
    let main_copy = dir.join(format!("attacked.{}", first.extension().and_then(|e| e.to_str()).unwrap_or("c")));
    let original = std::fs::read_to_string(first).map_err(|e| format!("{}: {e}", first.display()))?;
    write(&main_copy, &format!("{original}\n{appended}"))?;
    write(&dir.join("prelude.h"), &prelude)?;
    write(&dir.join("driver.c"), DRIVER)?;
    let sources: Vec<PathBuf> = std::iter::once(main_copy).chain(inputs[1..].iter().cloned()).collect();
    let quote = first.parent().map(Path::to_path_buf).unwrap_or_default();
    let attacked = Attacked { corpus, task, sources, quote, dir };
    let zero = attacked.build("zero")?;
    let mut first_seed = 0;
    let mut last_undecidable = None;
    for _ in 0..=RESTARTS {
        let Some(found) = attacked.run(&zero, first_seed, RUNS - first_seed, 0)? else {
            return Ok(match last_undecidable {
                Some(reason) => Attack::Undecidable(reason),
                None => Attack::Survived { runs: RUNS },
            });
        };
        match found.event {
            Event::Violation(v) if checked.covers(v) => return attacked.confirm(&zero, found.seed, v, found.stderr),
            Event::Violation(v) => last_undecidable = Some(format!("undefined behaviour of an unchecked kind ({v:?}) at seed {}", found.seed)),
            Event::Undecidable(reason) => last_undecidable = Some(reason),
        }
        first_seed = found.seed + 1;
        if first_seed >= RUNS {
            break;
        }
    }
    Ok(Attack::Undecidable(last_undecidable.unwrap_or_else(|| "no conclusion".into())))
}

impl Attacked<'_> {
    /// Reruns a violating seed with uninitialised memory filled otherwise
    /// (locals and heap) and under another address layout: the same
    /// violation must show each time.
    fn confirm(&self, zero: &Path, seed: usize, violation: Violation, evidence: String) -> Result<Attack, String> {
        let pattern = self.build("pattern")?;
        for (exe, fill) in [(pattern.as_path(), 0xbe), (zero, 0)] {
            match self.run(exe, seed, 1, fill)? {
                Some(Found { event: Event::Violation(v), .. }) if v == violation => {}
                other => {
                    let what = other.map_or("no violation".to_string(), |found| format!("{:?}", found.event));
                    return Ok(Attack::Undecidable(format!(
                        "seed {seed} shows {violation:?} with zeroed memory but {what} with other uninitialised values or addresses"
                    )));
                }
            }
        }
        Ok(Attack::Refuted { violation, seed, evidence })
    }

    /// Builds the attacked program with locals initialised to `init`.
    fn build(&self, init: &str) -> Result<PathBuf, String> {
        let exe = self.dir.join(format!("attack-{init}"));
        let init_flag = format!("-ftrivial-auto-var-init={init}");
        let mut gcc = gcc_for(self.corpus, self.task, &["-fsanitize=address,undefined", "-fno-sanitize-recover=all", &init_flag]);
        gcc.arg("-include").arg(self.dir.join("prelude.h")).arg("-iquote").arg(&self.quote);
        gcc.args(&self.sources).arg(self.dir.join("driver.c")).arg("-o").arg(&exe).args(["-lm", "-lpthread"]);
        let out = run_with_timeout(&mut gcc, Duration::from_secs(120)).map_err(|e| format!("gcc did not run: {e}"))?;
        if out.ending != Ending::Exited(0) {
            let error = out.stderr.lines().find(|l| l.contains("error")).unwrap_or("").chars().take(200).collect::<String>();
            return Err(format!("gcc cannot build the random-input harness: {error}"));
        }
        Ok(exe)
    }

    /// Runs seeds `first..first + count` with the heap's uninitialised
    /// bytes `fill`: the first that reports an event.
    fn run(&self, exe: &Path, first: usize, count: usize, fill: u8) -> Result<Option<Found>, String> {
        let err_file = self.dir.join("child.err");
        let mut command = std::process::Command::new(exe);
        let sanitizer = "exitcode=86:print_stacktrace=1";
        command
            .current_dir(self.task.dir(self.corpus))
            .env("HARNESS_ERR", &err_file)
            .env("HARNESS_FIRST", first.to_string())
            .env("HARNESS_RUNS", count.to_string())
            .env("ASAN_OPTIONS", format!("{sanitizer}:detect_leaks=0:malloc_fill_byte={fill}:max_malloc_fill_size=1048576"))
            .env("UBSAN_OPTIONS", sanitizer);
        let out = run_with_timeout(&mut command, ATTACK_LIMIT).map_err(|e| format!("the attack did not run: {e}"))?;
        let Some(seed) = out.stdout.lines().find_map(|l| l.strip_prefix("harness-event-seed: ")).and_then(|s| s.trim().parse().ok()) else {
            return Ok(None);
        };
        let event = event_of(&out.stderr).unwrap_or_else(|| Event::Undecidable("an abnormal end without a report".into()));
        Ok(Some(Found { seed, event, stderr: out.stderr }))
    }
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The body-less functions the program calls: what the linker misses.
fn undefined_names(corpus: &Path, task: &Task, inputs: &[PathBuf], dir: &Path) -> Result<Vec<String>, String> {
    let mut gcc = gcc_for(corpus, task, &[]);
    gcc.args(inputs).arg("-o").arg(dir.join("link-probe")).args(["-lm", "-lpthread"]);
    let out = run_with_timeout(&mut gcc, Duration::from_secs(120)).map_err(|e| format!("gcc did not run: {e}"))?;
    let mut names: Vec<String> = out
        .stderr
        .lines()
        .filter_map(|l| l.split("undefined reference to `").nth(1)?.split('\'').next())
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    if out.ending != Ending::Exited(0) && names.is_empty() {
        return Err(format!("gcc cannot build the program: {}", out.stderr.lines().find(|l| l.contains("error")).unwrap_or("")));
    }
    Ok(names)
}

/// The prelude (`-include`d before the program: the intrinsics renamed
/// to the driver's definitions) and the text appended to the program's
/// first file (the nondet functions, typed by the program's own
/// declarations).
fn stub_texts(stubs: &[(String, Stub)]) -> (String, String) {
    let mut prelude = String::from("/* Random-input harness: the verifiers' intrinsics, natively. */\n");
    let mut appended = String::from("/* Random-input harness: nondeterministic values. */\nvoid harness_fill(void *, unsigned long, int, int);\n");
    for (name, stub) in stubs {
        match stub {
            Stub::Assume => prelude += &format!("#define {name} harness_assume\n"),
            Stub::Assert => prelude += &format!("#define {name} harness_assert\n"),
            Stub::Error => prelude += &format!("#define {name} harness_error\n"),
            Stub::Nondet => {
                appended += &format!(
                    "__typeof__({name}()) {name}() {{ __typeof__({name}()) v; harness_fill(&v, sizeof v, __builtin_classify_type({name}()), \
                     (__typeof__({name}()))-1 < (__typeof__({name}()))0); return v; }}\n"
                )
            }
        }
    }
    (prelude, appended)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitizer_reports_map_to_properties() {
        let memory = "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6";
        assert_eq!(event_of(memory), Some(Event::Violation(Violation::Memory)));
        let overflow = "t.c:3:5: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'";
        assert_eq!(event_of(overflow), Some(Event::Violation(Violation::SignedOverflow)));
        assert_eq!(event_of("t.c:1:1: runtime error: division by zero"), Some(Event::Violation(Violation::DivisionByZero)));
        assert!(matches!(event_of("t.c:1:1: runtime error: load of misaligned address"), Some(Event::Undecidable(_))));
        assert!(matches!(event_of("==1==ERROR: AddressSanitizer: stack-overflow on address"), Some(Event::Undecidable(_))));
        assert_eq!(event_of("a.out: t.c:4: main: Assertion `x' failed."), Some(Event::Violation(Violation::Assertion)));
        assert_eq!(event_of("plain output"), None);
    }

    #[test]
    fn only_checked_properties_refute() {
        let mut task = crate::corpus::Task::example("t", "true");
        task.checks = vec![("bounds".into(), false), ("overflow_signed".into(), true)];
        let checked = Checked::of(&task).expect("judged");
        assert!(checked.covers(Violation::Assertion) && checked.covers(Violation::SignedOverflow));
        assert!(!checked.covers(Violation::Memory) && !checked.covers(Violation::Shift));
    }

    #[test]
    fn intrinsics_without_native_meaning_are_refused() {
        assert_eq!(stub_of("__VERIFIER_nondet_uint"), Ok(Stub::Nondet));
        assert_eq!(stub_of("__CPROVER_assume"), Ok(Stub::Assume));
        assert_eq!(stub_of("reach_error"), Ok(Stub::Error));
        assert!(stub_of("__CPROVER_r_ok").is_err());
        let (prelude, appended) = stub_texts(&[("__ESBMC_assert".into(), Stub::Assert), ("nondet_int".into(), Stub::Nondet)]);
        assert!(prelude.contains("#define __ESBMC_assert harness_assert"));
        assert!(appended.contains("__typeof__(nondet_int()) nondet_int()"));
    }
}
