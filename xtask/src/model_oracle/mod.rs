//! `cargo xtask model-oracle`: checks tarsier's C library models against
//! the host glibc. Symex and the interpreter's replay run the same model,
//! so a wrong model gives a replay-confirmed wrong verdict; this oracle
//! takes its expectations from glibc instead.
//!
//! A seeded generator writes cases per family of functions (`strings`,
//! `conversions`, `ctype`, `math`, `time`, `format`, `wide`,
//! `environment`): calls of modelled functions on boundary and random
//! arguments, each observed value an `OBSERVE(expr)` step. One batch
//! program runs every case natively (gcc -O0, each case in a child process
//! of its own so that global state such as the time zone, errno or static
//! buffers does not leak between cases) and prints the observations; then
//! each case becomes verification tasks whose expectations embed them:
//! - an *exact* case (the function is deterministic): `same` asserts every
//!   observation equals glibc's (TRUE expected), `flip` asserts one chosen
//!   observation differs from it (FALSE expected);
//! - an *environment* case (the model chooses among behaviours, as for
//!   `time`, `open` or `localtime` in an unknown zone): `admits` asserts
//!   that not every observation equals glibc's (FALSE expected: the model
//!   must allow what glibc did), and `contract` asserts what holds for
//!   every behaviour the library's contract allows, checked natively too
//!   (TRUE expected).
//!
//! Inputs are pinned (`ORACLE_PIN`: a nondeterministic value assumed equal
//! to the constant, so the verifier cannot fold it away) or, for
//! functions of one small argument (`ctype`), free over their whole domain
//! against glibc's table of results. Any other definite answer is a wrong
//! model; UNKNOWN is scored apart, and the coverage table ([`coverage`])
//! says which functions are documented approximations that answer it.

mod conversions;
pub mod coverage;
mod ctype;
mod environment;
mod format;
mod math;
mod strings;
mod time;
mod wide;

use crate::oracle::{fresh_dir, report_wrong, run_tarsier, score, unknown_reasons, Rng, Score, Task};
use crate::process::{run_with_timeout, Ending};
use crate::runner::parallel_map;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A family of modelled functions, with its own generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Family {
    Strings,
    Conversions,
    Ctype,
    Math,
    Time,
    Format,
    Wide,
    Environment,
}

impl Family {
    pub const ALL: [Family; 8] =
        [Family::Strings, Family::Conversions, Family::Ctype, Family::Math, Family::Time, Family::Format, Family::Wide, Family::Environment];

    pub fn name(self) -> &'static str {
        match self {
            Family::Strings => "strings",
            Family::Conversions => "conversions",
            Family::Ctype => "ctype",
            Family::Math => "math",
            Family::Time => "time",
            Family::Format => "format",
            Family::Wide => "wide",
            Family::Environment => "environment",
        }
    }

    fn generate(self, rng: &mut Rng) -> Case {
        match self {
            Family::Strings => strings::case(rng),
            Family::Conversions => conversions::case(rng),
            Family::Ctype => ctype::case(rng),
            Family::Math => math::case(rng),
            Family::Time => time::case(rng),
            Family::Format => format::case(rng),
            Family::Wide => wide::case(rng),
            Family::Environment => environment::case(rng),
        }
    }
}

/// A comma-separated selection of families by name, or `all`.
pub fn parse_families(list: &str) -> Result<Vec<Family>, String> {
    if list == "all" {
        return Ok(Family::ALL.to_vec());
    }
    list.split(',')
        .map(|word| {
            Family::ALL.iter().copied().find(|f| f.name() == word).ok_or_else(|| {
                let known: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
                format!("unknown family '{word}' (known: {}, all)", known.join(","))
            })
        })
        .collect()
}

/// One statement of a case.
#[derive(Clone, Debug)]
pub enum Step {
    /// Code run natively and in the tasks.
    Code(String),
    /// Code run natively only (setting up the environment glibc reads,
    /// such as the time zone, or checking a reference over a whole domain).
    Native(String),
    /// Code run by the tasks only (an input left free over a domain).
    Task(String),
    /// A value observed (converted to `unsigned long long`).
    Observe(String),
    /// A property every behaviour the contract allows has (environment
    /// cases): checked natively, asserted by the `contract` task.
    Contract(String),
    /// What glibc did where the contract allows more (an allocation that
    /// succeeds): checked natively, assumed by every task.
    Assume(String),
}

/// Whether tarsier must reproduce glibc's observations exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Exact,
    Environment,
}

#[derive(Clone, Debug)]
pub struct Case {
    pub family: Family,
    /// The modelled functions the case calls, for the coverage table.
    pub functions: Vec<String>,
    /// `#include` lines and file-scope declarations.
    pub top: String,
    pub steps: Vec<Step>,
    pub kind: Kind,
    /// Which observation the `flip` task negates.
    pub flip: usize,
    /// Whether the tasks give the pinned inputs as constants (the models
    /// then run on known values) rather than as assumed nondeterministic
    /// values (the solver then carries the models' arithmetic).
    pub constants: bool,
}

impl Case {
    pub fn new(family: Family, kind: Kind) -> Case {
        Case { family, functions: Vec::new(), top: String::new(), steps: Vec::new(), kind, flip: 0, constants: false }
    }

    pub fn include(&mut self, header: &str) {
        let line = format!("#include <{header}>\n");
        if !self.top.contains(&line) {
            self.top.insert_str(0, &line);
        }
    }

    pub fn uses(&mut self, function: impl Into<String>) {
        let function = function.into();
        if !self.functions.contains(&function) {
            self.functions.push(function);
        }
    }

    pub fn code(&mut self, text: impl Into<String>) {
        let text = text.into();
        self.note_errno(&text);
        self.steps.push(Step::Code(text));
    }

    /// glibc's `errno` reads `*__errno_location()`, a model function.
    fn note_errno(&mut self, text: &str) {
        if text.contains("errno") {
            self.uses("__errno_location");
        }
    }

    pub fn native(&mut self, text: impl Into<String>) {
        self.steps.push(Step::Native(text.into()));
    }

    pub fn observe(&mut self, expr: impl Into<String>) {
        let expr = expr.into();
        self.note_errno(&expr);
        self.steps.push(Step::Observe(expr));
    }

    pub fn contract(&mut self, condition: impl Into<String>) {
        self.steps.push(Step::Contract(condition.into()));
    }

    pub fn assume(&mut self, condition: impl Into<String>) {
        self.steps.push(Step::Assume(condition.into()));
    }

    /// A variable `name` of type `ty` pinned to `value` (a C constant):
    /// nondeterministic in the tasks, assumed equal to the value.
    pub fn pin(&mut self, ty: &str, name: &str, value: &str) {
        let nondet = nondet_function(ty);
        self.code(format!("ORACLE_PIN({ty}, {name}, {value}, {nondet});"));
    }

    fn observations(&self) -> usize {
        self.steps.iter().filter(|s| matches!(s, Step::Observe(_))).count()
    }
}

/// The `__VERIFIER_nondet_*` function giving values of the integer type
/// `ty`.
pub fn nondet_function(ty: &str) -> &'static str {
    match ty {
        "char" => "__VERIFIER_nondet_char",
        "unsigned char" => "__VERIFIER_nondet_uchar",
        "short" => "__VERIFIER_nondet_short",
        "unsigned short" => "__VERIFIER_nondet_ushort",
        "unsigned" | "unsigned int" => "__VERIFIER_nondet_uint",
        "long" | "time_t" => "__VERIFIER_nondet_long",
        "unsigned long" | "size_t" => "__VERIFIER_nondet_ulong",
        "long long" | "intmax_t" => "__VERIFIER_nondet_longlong",
        "unsigned long long" => "__VERIFIER_nondet_ulonglong",
        _ => "__VERIFIER_nondet_int",
    }
}

/// Declarations both programs share: the nondet functions and the
/// observation hash (FNV-1a over bytes; over a string up to its NUL, at
/// most 256 bytes).
const SHARED_PRELUDE: &str = "\
char __VERIFIER_nondet_char(void);
unsigned char __VERIFIER_nondet_uchar(void);
short __VERIFIER_nondet_short(void);
unsigned short __VERIFIER_nondet_ushort(void);
int __VERIFIER_nondet_int(void);
unsigned int __VERIFIER_nondet_uint(void);
long __VERIFIER_nondet_long(void);
unsigned long __VERIFIER_nondet_ulong(void);
long long __VERIFIER_nondet_longlong(void);
unsigned long long __VERIFIER_nondet_ulonglong(void);
static volatile unsigned long long oracle_sink;
static unsigned long long oracle_hash(const void *p, unsigned long n) {
  const unsigned char *b = (const unsigned char *)p;
  unsigned long long h = 0xcbf29ce484222325ull;
  for (unsigned long i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}
/* A search's or a copy's result as an offset into `base` in elements of
   `size` bytes (NULL as -1): the call is an argument, evaluated once (a
   copy run twice is another program). */
static long long oracle_offset(const void *found, const void *base, unsigned long size) {
  return found == 0 ? -1LL : (long long)((const char *)found - (const char *)base) / (long long)size;
}
/* A comparison's sign, the comparison evaluated once. */
static int oracle_sign(int v) { return (v > 0) - (v < 0); }
static unsigned long long oracle_string(const char *s) {
  unsigned long n = 0;
  while (n < 256 && s[n] != 0) n++;
  return oracle_hash(s, n) ^ n;
}
";

const NATIVE_PRELUDE: &str = "\
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include <signal.h>
#define ORACLE_PIN(T, N, V, F) T N = (V)
static int oracle_case;
/* The observations' stream: the program's stdout goes to /dev/null, so
   that cases may print. */
static FILE *oracle_out;
static void oracle_observe(int index, unsigned long long v) { fprintf(oracle_out, \"%d %d %llx\\n\", oracle_case, index, v); }
static void oracle_contract(int holds) { if (!holds) fprintf(oracle_out, \"%d broken\\n\", oracle_case); }
";

const TASK_PRELUDE: &str = "\
void __VERIFIER_assume(int condition);
void __VERIFIER_assert(int condition);
volatile unsigned long long oracle_discard;
";

/// The tasks' pinned inputs: assumed nondeterministic values, or constants.
/// The value is converted to the type as the native `T N = (V)` converts
/// it (a constant beyond `int` would otherwise make the assumption false).
const PINNED_BY_ASSUMPTION: &str = "#define ORACLE_PIN(T, N, V, F) T N = (T)F(); __VERIFIER_assume(N == (T)(V))\n";
const PINNED_AS_CONSTANTS: &str = "#define ORACLE_PIN(T, N, V, F) T N = (V)\n";

/// The case as the body of `case_<index>` in the batch program.
fn native_function(case: &Case, index: usize) -> String {
    let mut text = format!("static void case_{index}(void) {{\n  oracle_case = {index};\n");
    let mut observed = 0;
    for step in &case.steps {
        match step {
            Step::Code(code) | Step::Native(code) => {
                let _ = writeln!(text, "  {code}");
            }
            Step::Task(_) => {}
            Step::Observe(expr) => {
                let _ = writeln!(text, "  oracle_observe({observed}, (unsigned long long)({expr}));");
                observed += 1;
            }
            Step::Contract(condition) | Step::Assume(condition) => {
                let _ = writeln!(text, "  oracle_contract({condition});");
            }
        }
    }
    text.push_str("}\n");
    text
}

/// The batch program: every case in a child process of its own, in order;
/// a case that does not end normally (or within 20 seconds) prints
/// `<index> crashed`.
pub fn native_program(cases: &[Case]) -> String {
    let mut headers = String::new();
    let mut bodies = String::new();
    for (index, case) in cases.iter().enumerate() {
        for line in case.top.lines().filter(|l| l.starts_with("#include") || l.starts_with("#define")) {
            if !headers.contains(line) {
                let _ = writeln!(headers, "{line}");
            }
        }
        let own: String = case.top.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
        // File-scope declarations get the case's name, so cases do not clash.
        bodies.push_str(&own.replace("@", &format!("c{index}_")));
        bodies.push_str(&native_function(case, index).replace("@", &format!("c{index}_")));
    }
    let mut text = format!("#define _GNU_SOURCE\n{headers}{NATIVE_PRELUDE}{SHARED_PRELUDE}{bodies}");
    text.push_str("int main(void) {\n  static void (*const cases[])(void) = {\n");
    for index in 0..cases.len() {
        let _ = writeln!(text, "    case_{index},");
    }
    text.push_str(
        "  };\n  signal(SIGPIPE, SIG_IGN);\n  oracle_out = fdopen(dup(1), \"w\");\n  if (oracle_out == 0 || freopen(\"/dev/null\", \"w\", stdout) == 0) return 1;\n  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {\n    fflush(oracle_out);\n    pid_t child = fork();\n    if (child == 0) { alarm(20); cases[i](); fflush(oracle_out); _exit(0); }\n    int status = 0;\n    waitpid(child, &status, 0);\n    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fprintf(oracle_out, \"%u crashed\\n\", i);\n  }\n  fflush(oracle_out);\n  return 0;\n}\n",
    );
    text
}

/// What the batch program printed for one case.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Native {
    /// Each observation's value, `None` where glibc's run did not get to
    /// it (it sits in a branch the run did not take).
    pub observations: Vec<Option<u64>>,
    /// A contract that does not hold natively, or a crash: the case is a
    /// generator mistake.
    pub mistake: Option<String>,
}

/// Reads the batch program's output.
pub fn parse_native_output(text: &str, cases: &[Case]) -> Result<Vec<Native>, String> {
    let mut results: Vec<Native> = cases.iter().map(|c| Native { observations: vec![None; c.observations()], mistake: None }).collect();
    for (number, line) in text.lines().enumerate() {
        let malformed = || format!("native output line {}: malformed '{line}'", number + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        let index: usize = words.first().and_then(|w| w.parse().ok()).filter(|&i| i < cases.len()).ok_or_else(malformed)?;
        match words[1..] {
            ["crashed"] => results[index].mistake = Some("the case does not end normally natively".into()),
            ["broken"] => results[index].mistake = Some("a contract or an assumption does not hold natively".into()),
            [at, value] => {
                let at: usize = at.parse().map_err(|_| malformed())?;
                let slot = results[index].observations.get_mut(at).ok_or_else(malformed)?;
                *slot = Some(u64::from_str_radix(value, 16).map_err(|_| malformed())?);
            }
            _ => return Err(malformed()),
        }
    }
    Ok(results)
}

/// Which task of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Flavour {
    /// Every observation asserted equal to glibc's.
    Same,
    /// One observation asserted different from glibc's.
    Flip,
    /// Not every observation equal to glibc's (the model must admit them).
    Admits,
    /// The contracts asserted.
    Contract,
}

impl Flavour {
    pub fn name(self) -> &'static str {
        match self {
            Flavour::Same => "same",
            Flavour::Flip => "flip",
            Flavour::Admits => "admits",
            Flavour::Contract => "contract",
        }
    }

    pub fn expect_true(self) -> bool {
        matches!(self, Flavour::Same | Flavour::Contract)
    }

    fn of(kind: Kind) -> [Flavour; 2] {
        match kind {
            Kind::Exact => [Flavour::Same, Flavour::Flip],
            Kind::Environment => [Flavour::Admits, Flavour::Contract],
        }
    }
}

/// The verification task of one flavour of a case whose native
/// observations are `native`.
pub fn task_program(case: &Case, native: &[Option<u64>], flavour: Flavour) -> String {
    let verdict = if flavour.expect_true() { "TRUE" } else { "FALSE" };
    let top = case.top.replace("@", "");
    let (includes, declarations): (Vec<&str>, Vec<&str>) = top.lines().partition(|l| l.starts_with('#'));
    let mut text = format!(
        "/* model-oracle: {} case ({}), task {}: expected {verdict}. */\n#define _GNU_SOURCE\n{}\n{TASK_PRELUDE}{}{SHARED_PRELUDE}{}\n",
        case.family.name(),
        case.functions.join(", "),
        flavour.name(),
        includes.join("\n"),
        if case.constants { PINNED_AS_CONSTANTS } else { PINNED_BY_ASSUMPTION },
        declarations.join("\n")
    );
    text.push_str("int main(void) {\n  int oracle_same = 1;\n");
    let mut observed = 0;
    for step in &case.steps {
        let line = match step {
            Step::Code(code) | Step::Task(code) => code.replace('@', ""),
            Step::Native(_) => continue,
            Step::Observe(expr) => {
                let expr = expr.replace('@', "");
                let line = match (flavour, native[observed]) {
                    (Flavour::Same, Some(expected)) => format!("__VERIFIER_assert((unsigned long long)({expr}) == 0x{expected:x}ull);"),
                    (Flavour::Same, None) => "__VERIFIER_assert(0); /* glibc does not get here */".to_string(),
                    (Flavour::Flip, Some(expected)) if observed == flip_at(case, native) => {
                        format!("__VERIFIER_assert((unsigned long long)({expr}) != 0x{expected:x}ull);")
                    }
                    (Flavour::Admits, Some(expected)) => format!("oracle_same &= (unsigned long long)({expr}) == 0x{expected:x}ull;"),
                    (Flavour::Admits, None) => "oracle_same = 0; /* glibc does not get here */".to_string(),
                    _ => format!("oracle_discard = (unsigned long long)({expr});"),
                };
                observed += 1;
                line
            }
            Step::Contract(condition) if flavour == Flavour::Contract => format!("__VERIFIER_assert({condition});"),
            Step::Contract(_) => continue,
            Step::Assume(condition) => format!("__VERIFIER_assume({condition});"),
        };
        let _ = writeln!(text, "  {line}");
    }
    if flavour == Flavour::Admits {
        text.push_str("  __VERIFIER_assert(!oracle_same);\n");
    }
    text.push_str("  return 0;\n}\n");
    text
}

/// The observation the `flip` task negates: the case's choice, or the next
/// one glibc's run got to.
fn flip_at(case: &Case, native: &[Option<u64>]) -> usize {
    let count = native.len().max(1);
    (0..count).map(|k| (case.flip + k) % count).find(|&k| native.get(k).is_some_and(Option::is_some)).unwrap_or(usize::MAX)
}

/// `count` cases of every family in `families`.
pub fn generate_cases(rng: &mut Rng, families: &[Family], count: usize) -> Vec<Case> {
    let mut cases = Vec::new();
    for &family in families {
        for _ in 0..count {
            let mut case = family.generate(rng);
            let observations = case.observations().max(1) as u64;
            case.flip = rng.below(observations) as usize;
            case.constants = rng.chance(2);
            cases.push(case);
        }
    }
    cases
}

/// Compiles and runs the batch program once for all cases.
pub fn native_results(cases: &[Case], out_dir: &Path) -> Result<Vec<Native>, String> {
    std::fs::create_dir_all(out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    let source = out_dir.join("native.c");
    let exe = out_dir.join("native");
    std::fs::write(&source, native_program(cases)).map_err(|e| format!("{}: {e}", source.display()))?;
    let compiler = std::env::var("CC").unwrap_or_else(|_| "gcc".into());
    let mut compile = Command::new(&compiler);
    compile.args(["-O0", "-w", "-o"]).arg(&exe).arg(&source).arg("-lm");
    let out = run_with_timeout(&mut compile, Duration::from_secs(600)).map_err(|e| format!("cannot run {compiler}: {e}"))?;
    if out.ending != Ending::Exited(0) {
        return Err(format!("{compiler} failed on {}: {:?}\n{}", source.display(), out.ending, out.stderr));
    }
    let mut run = Command::new(&exe);
    run.current_dir(out_dir).env("LC_ALL", "C").env_remove("TZ");
    let out = run_with_timeout(&mut run, Duration::from_secs(300)).map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if out.ending != Ending::Exited(0) {
        return Err(format!("{} ended with {:?}", exe.display(), out.ending));
    }
    parse_native_output(&out.stdout, cases)
}

/// Options of `cargo xtask model-oracle`.
pub struct Options {
    pub cases: usize,
    pub families: Vec<Family>,
    pub seed: u64,
    pub jobs: usize,
    pub timeout: Duration,
    pub tarsier: Option<PathBuf>,
}

/// Writes the tasks of every case the native run vouches for; a case that
/// crashed natively or broke its own contract is a generator mistake,
/// listed and skipped.
pub fn write_tasks(cases: &[Case], native: &[Native], dir: &Path) -> Result<Vec<(Task, Flavour)>, String> {
    fresh_dir(dir)?;
    let mut tasks = Vec::new();
    for (index, (case, result)) in cases.iter().zip(native).enumerate() {
        if let Some(mistake) = &result.mistake {
            let path = dir.join(format!("generator-mistake-{index:05}.c"));
            std::fs::write(&path, task_program(case, &vec![Some(0); case.observations()], Flavour::Same)).map_err(|e| format!("{}: {e}", path.display()))?;
            eprintln!("model-oracle: generator mistake in case {index}: {mistake}, see {}", path.display());
            continue;
        }
        for flavour in Flavour::of(case.kind) {
            if flavour == Flavour::Flip && flip_at(case, &result.observations) == usize::MAX {
                continue;
            }
            let path = dir.join(format!("{}-{index:05}-{}.c", case.family.name(), flavour.name()));
            std::fs::write(&path, task_program(case, &result.observations, flavour)).map_err(|e| format!("{}: {e}", path.display()))?;
            tasks.push((Task { case: index, path, expect_true: flavour.expect_true() }, flavour));
        }
    }
    Ok(tasks)
}

/// What a run found: the number of tasks per [`Score`] (indexed by
/// `Score as usize`) and, per function, the scores of the tasks of the
/// cases that call it.
pub struct Findings {
    pub counts: [usize; 5],
    pub per_function: BTreeMap<String, [usize; 5]>,
}

/// Generates, computes natively, writes and runs every case.
pub fn run(opts: &Options, binary: &Path, out_dir: &Path) -> Result<Findings, String> {
    let cases = generate_cases(&mut Rng::new(opts.seed), &opts.families, opts.cases);
    if cases.is_empty() {
        return Err("no case selected (--cases 0?)".into());
    }
    let native = native_results(&cases, out_dir)?;
    let tasks = write_tasks(&cases, &native, &out_dir.join("cases"))?;
    eprintln!("model-oracle: {} cases, {} tasks, {} jobs, seed {}", cases.len(), tasks.len(), opts.jobs, opts.seed);
    let total = tasks.len();
    let outcomes = parallel_map(&tasks, opts.jobs, |(task, _)| run_tarsier(binary, &task.path, &[], opts.timeout), |done| {
        if done % 100 == 0 || done == total {
            eprintln!("  {done}/{total}");
        }
    });
    let scores: Vec<Score> = tasks.iter().zip(&outcomes).map(|((t, _), o)| score(o, t.expect_true)).collect();
    print!("{}", render_table(&cases, &tasks, &scores));
    print!("{}", unknown_reasons(&outcomes));
    let wrong: Vec<&Task> = tasks.iter().zip(&scores).filter(|(_, &s)| s == Score::Wrong).map(|((t, _), _)| t).collect();
    report_wrong(&wrong, &out_dir.join("wrong"))?;
    let mut findings = Findings { counts: [0; 5], per_function: BTreeMap::new() };
    for ((task, _), &score) in tasks.iter().zip(&scores) {
        findings.counts[score as usize] += 1;
        for function in &cases[task.case].functions {
            findings.per_function.entry(function.clone()).or_default()[score as usize] += 1;
        }
    }
    Ok(findings)
}

/// The family × flavour table with totals.
fn render_table(cases: &[Case], tasks: &[(Task, Flavour)], scores: &[Score]) -> String {
    let mut rows: BTreeMap<(Family, Flavour), [usize; 5]> = BTreeMap::new();
    for ((task, flavour), &score) in tasks.iter().zip(scores) {
        rows.entry((cases[task.case].family, *flavour)).or_default()[score as usize] += 1;
    }
    let mut text = format!("{:<13} {:<9} {:>7} {:>6} {:>7} {:>7} {:>6}\n", "family", "task", "correct", "wrong", "unknown", "timeout", "error");
    let mut totals = [0usize; 5];
    for ((family, flavour), counts) in &rows {
        let _ = writeln!(text, "{:<13} {:<9} {:>7} {:>6} {:>7} {:>7} {:>6}", family.name(), flavour.name(), counts[0], counts[1], counts[2], counts[3], counts[4]);
        for (total, count) in totals.iter_mut().zip(counts) {
            *total += count;
        }
    }
    let _ = writeln!(text, "{:<23} {:>7} {:>6} {:>7} {:>7} {:>6}", "total", totals[0], totals[1], totals[2], totals[3], totals[4]);
    text
}

/// A C string literal for `bytes` (octal escapes for anything but
/// printable ASCII without quotes or backslashes).
pub fn c_string(bytes: &[u8]) -> String {
    let mut text = String::from("\"");
    for &b in bytes {
        match b {
            b' '..=b'~' if b != b'"' && b != b'\\' && b != b'?' => text.push(b as char),
            _ => {
                let _ = write!(text, "\\{b:03o}");
            }
        }
    }
    text.push('"');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_deterministic() {
        let text = |seed| {
            generate_cases(&mut Rng::new(seed), &Family::ALL, 3).iter().map(|c| task_program(c, &vec![Some(0); c.observations()], Flavour::Same)).collect::<String>()
        };
        assert_eq!(text(4), text(4));
        assert_ne!(text(4), text(5));
    }

    #[test]
    fn tasks_assert_the_native_observations() {
        let mut case = Case::new(Family::Strings, Kind::Exact);
        case.pin("int", "a", "3");
        case.observe("a + 1");
        case.observe("a * 2");
        case.flip = 1;
        let same = task_program(&case, &[Some(4), Some(6)], Flavour::Same);
        assert!(same.contains("ORACLE_PIN(int, a, 3, __VERIFIER_nondet_int);") && same.contains("__VERIFIER_assume(N == (T)(V))"), "{same}");
        case.constants = true;
        assert!(task_program(&case, &[Some(4), Some(6)], Flavour::Same).contains("#define ORACLE_PIN(T, N, V, F) T N = (V)\n"));
        case.constants = false;
        assert!(same.contains("__VERIFIER_assert((unsigned long long)(a + 1) == 0x4ull);"), "{same}");
        let flip = task_program(&case, &[Some(4), Some(6)], Flavour::Flip);
        assert!(flip.contains("oracle_discard = (unsigned long long)(a + 1);") && flip.contains("(a * 2) != 0x6ull"), "{flip}");
        let admits = task_program(&case, &[Some(4), None], Flavour::Admits);
        assert!(admits.contains("__VERIFIER_assert(!oracle_same);") && admits.contains("oracle_same = 0;"), "{admits}");
    }

    #[test]
    fn native_output_is_read_back_with_mistakes() {
        let mut case = Case::new(Family::Strings, Kind::Exact);
        case.observe("1");
        let cases = vec![case.clone(), case.clone(), case];
        let read = parse_native_output("0 0 ff\n1 crashed\n2 broken\n2 0 1\n", &cases).unwrap();
        assert_eq!(read[0], Native { observations: vec![Some(0xff)], mistake: None });
        assert!(read[1].mistake.is_some() && read[2].mistake.is_some());
        assert!(parse_native_output("7 0 1\n", &cases).unwrap_err().contains("malformed"));
        assert!(parse_native_output("0 3 1\n", &cases).unwrap_err().contains("malformed"));
    }

    /// How often `expr` calls `function`.
    fn calls_of(expr: &str, function: &str) -> usize {
        let pattern = format!("{function}(");
        expr.match_indices(&pattern)
            .filter(|(at, _)| !expr[..*at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
            .count()
    }

    /// An observation of the exact families calls each modelled function
    /// at most once: a copy or a concatenation evaluated twice is another
    /// program than the one the case means (strcat twice overflows its
    /// destination natively). The environment's observations repeat calls
    /// on purpose (pthread_once twice).
    #[test]
    fn observations_evaluate_each_call_once() {
        assert_eq!(calls_of("oracle_offset(wmemchr(a, 1, 2), a, 4) + memchr(a)", "memchr"), 1);
        let exact: Vec<Family> = Family::ALL.into_iter().filter(|&f| f != Family::Environment).collect();
        for case in generate_cases(&mut Rng::new(3), &exact, 400) {
            for step in &case.steps {
                let Step::Observe(expr) = step else { continue };
                for function in &case.functions {
                    assert!(calls_of(expr, function) <= 1, "{function} is called twice by the observation {expr}");
                }
            }
        }
    }

    #[test]
    fn families_parse_by_name() {
        assert_eq!(parse_families("strings,time"), Ok(vec![Family::Strings, Family::Time]));
        assert!(parse_families("files").unwrap_err().contains("known: strings,"));
    }

    #[test]
    fn string_literals_escape_what_c_would_read_otherwise() {
        assert_eq!(c_string(b"a\"b\\c?\xff\0"), "\"a\\042b\\134c\\077\\377\\000\"");
    }

    /// Every family compiles with gcc, runs natively without a crash, and
    /// keeps its own contracts.
    #[test]
    fn generated_cases_run_natively() {
        if Command::new("gcc").arg("--version").output().is_err() {
            eprintln!("skipped: gcc not found");
            return;
        }
        let dir = std::env::temp_dir().join(format!("model-oracle-test-{}", std::process::id()));
        let cases = generate_cases(&mut Rng::new(1), &Family::ALL, 30);
        let results = native_results(&cases, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        for (case, native) in cases.iter().zip(results.expect("the batch program runs")) {
            assert!(native.mistake.is_none(), "{:?}\n{}", native.mistake, task_program(case, &vec![Some(0); case.observations()], Flavour::Same));
        }
    }
}
