//! `cargo xtask mutant-oracle`: wrong verdicts near the corpus's
//! distribution. A seeded generator takes corpus tasks that gcc builds,
//! applies one small semantic mutation to the program (`mutate`), runs
//! tarsier on the mutant (with unwinding assertions, so a TRUE is a whole
//! proof) and judges the verdict natively: a FALSE must be reproduced by
//! its `--harness` built by gcc with the property's sanitizer (as
//! `harness-check` does); a TRUE is attacked by many runs with random
//! nondeterministic inputs under AddressSanitizer and UBSan (`attack`).
//! An unreproduced FALSE, a refuted TRUE and a crash are suspects: each
//! mutant is kept under `target/mutant-oracle/suspects/` with a README
//! saying how to reproduce it.

mod attack;
mod mutate;

pub use attack::{event_of, Attack, Checked, Event, Violation};
pub use mutate::{mutate, Mutation};

use crate::corpus::{Suite, Task};
use crate::harness_check::{gcc_for, judge_false, run_with_harness, Check};
use crate::oracle::{fresh_dir, Rng};
use crate::process::{run_with_timeout, Ending};
use crate::runner::{classify, json_document, parallel_map, Outcome};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Options of `cargo xtask mutant-oracle`.
pub struct Options {
    pub mutants: usize,
    pub seed: u64,
    pub suites: Vec<Suite>,
    pub jobs: usize,
    pub timeout: Duration,
    pub tarsier: Option<PathBuf>,
}

/// How one mutant's verdict was judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judged {
    /// FALSE, its harness showed the violation natively.
    FalseReproduced,
    /// FALSE on a property the native run cannot show (the class).
    FalseUnjudged(String),
    /// FALSE, its harness did not show it: a suspect.
    FalseUnreproduced(String),
    /// TRUE, no random run violated a checked property.
    TrueSurvived,
    /// TRUE, but the program has no native meaning to rely on.
    TrueUndecidable(String),
    /// TRUE, refuted by a native run: a suspect.
    TrueRefuted(String),
    Unknown(String),
    Timeout,
    /// A crash or a front-end rejection: a suspect when a crash.
    Error(Outcome),
}

impl Judged {
    pub fn is_suspect(&self) -> bool {
        matches!(self, Judged::FalseUnreproduced(_) | Judged::TrueRefuted(_) | Judged::Error(Outcome::Crash(_)))
    }

    fn label(&self) -> &'static str {
        match self {
            Judged::FalseReproduced => "FALSE, reproduced natively",
            Judged::FalseUnjudged(_) => "FALSE, out of the native judge's scope",
            Judged::FalseUnreproduced(_) => "FALSE, NOT reproduced (suspect)",
            Judged::TrueSurvived => "TRUE, survived the random runs",
            Judged::TrueUndecidable(_) => "TRUE, undecidable natively",
            Judged::TrueRefuted(_) => "TRUE, REFUTED natively (suspect)",
            Judged::Unknown(_) => "UNKNOWN",
            Judged::Timeout => "timeout",
            Judged::Error(Outcome::Crash(_)) => "crash (suspect)",
            Judged::Error(_) => "front-end rejection",
        }
    }

    fn detail(&self) -> String {
        match self {
            Judged::FalseUnjudged(s) | Judged::FalseUnreproduced(s) | Judged::TrueUndecidable(s) | Judged::TrueRefuted(s) | Judged::Unknown(s) => {
                s.clone()
            }
            Judged::Error(outcome) => outcome.reason().unwrap_or("").to_string(),
            _ => String::new(),
        }
    }
}

/// One mutant and its judgement.
pub struct Judgement {
    pub index: usize,
    pub task: String,
    pub mutation: Mutation,
    pub description: String,
    pub judged: Judged,
    /// The mutant's folder (its corpus copy, harnesses and README).
    pub dir: PathBuf,
}

/// A mutant ready to verify: the task whose files are under `root`.
struct Prepared {
    task: Task,
    root: PathBuf,
    mutation: Mutation,
    description: String,
}

/// The verification modes whose TRUE the attack can refute.
const MODES: [&str; 3] = ["bmc", "incremental-bmc", "k-induction"];

/// Whether the attack and the harness check can judge a task's verdicts.
fn eligible(task: &Task) -> bool {
    if !task.files.iter().all(|f| f.ends_with(".c") || f.ends_with(".i")) || Checked::of(task).is_none() {
        return false;
    }
    if task.corpus == Suite::Sv {
        return true;
    }
    let unjudged = ["memory_leak", "data_races", "deadlock", "termination"];
    task.is_core() && MODES.contains(&task.mode.as_str()) && !task.checks.iter().any(|(c, on)| *on && unjudged.contains(&c.as_str()))
}

/// Programs with threads: the native runs cannot follow their interleavings.
fn concurrent(text: &str) -> bool {
    ["pthread", "__CPROVER_ASYNC", "atomic_begin", "__ESBMC_yield", "thrd_create"].iter().any(|w| text.contains(w))
}

/// The eligible tasks of each suite present, with the suite's folder.
fn pool(suites: &[Suite]) -> Result<Vec<Vec<(PathBuf, Task)>>, String> {
    let mut pools = Vec::new();
    for &suite in suites {
        let Some(dir) = suite.locate() else { continue };
        let tasks: Vec<_> = suite.load(&dir)?.into_iter().filter(eligible).map(|t| (dir.clone(), t)).collect();
        if !tasks.is_empty() {
            pools.push(tasks);
        }
    }
    Ok(pools)
}

/// Tries tasks until one mutates into a program gcc accepts. The suite is
/// drawn first, so the large esbmc-regression does not crowd out the
/// others' programs (nondeterministic inputs, loops).
fn prepare(pools: &[Vec<(PathBuf, Task)>], rng: &mut Rng, dir: &Path) -> Result<Prepared, String> {
    for _ in 0..12 {
        let pool = &pools[rng.below(pools.len() as u64) as usize];
        let (corpus, task) = &pool[rng.below(pool.len() as u64) as usize];
        let Ok(text) = std::fs::read_to_string(corpus.join(&task.files[0])) else { continue };
        if concurrent(&text) {
            continue;
        }
        let Some(mutant) = mutate(&text, rng) else { continue };
        let root = dir.join("corpus");
        fresh_dir(dir)?;
        copy_task(corpus, task, &root)?;
        std::fs::write(root.join(&task.files[0]), &mutant.text).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut gcc = gcc_for(&root, task, &["-fsyntax-only"]);
        gcc.arg(root.join(&task.files[0]));
        let compiles = run_with_timeout(&mut gcc, Duration::from_secs(60)).is_ok_and(|out| out.ending == Ending::Exited(0));
        if compiles {
            let task = Task { unwinding_assertions: true, ..task.clone() };
            return Ok(Prepared { task, root, mutation: mutant.kind, description: mutant.description });
        }
    }
    Err("no task mutated into a program gcc builds".into())
}

/// Copies what the task reads under `corpus` to `root`: its own folder
/// when it has one (headers, data files), else its input files; and an
/// SV-COMP task's property file.
fn copy_task(corpus: &Path, task: &Task, root: &Path) -> Result<(), String> {
    let own = corpus.join(&task.id);
    let mut files: Vec<PathBuf> = task.files.iter().map(PathBuf::from).collect();
    if own.is_dir() {
        copy_dir(&own, &root.join(&task.id))?;
    }
    files.extend(task.property.as_ref().map(|p| PathBuf::from(&p.file)));
    for file in files {
        let to = root.join(&file);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::copy(corpus.join(&file), &to).map_err(|e| format!("{}: {e}", to.display()))?;
    }
    Ok(())
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(entry.file_name()))?;
        } else {
            std::fs::copy(&path, to.join(entry.file_name())).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// Verifies a prepared mutant and judges the verdict.
fn judge(binary: &Path, prepared: &Prepared, timeout: Duration, dir: &Path) -> Judged {
    let (task, root) = (&prepared.task, &prepared.root);
    let (out, harness) = match run_with_harness(binary, root, task, timeout, dir) {
        Ok(ran) => ran,
        Err(e) => return Judged::Error(Outcome::Crash(format!("tarsier did not run: {e}"))),
    };
    match classify(&out, false) {
        Outcome::Failed => {
            let doc = json_document(&out).unwrap_or_default();
            match judge_false(root, task, &doc, &harness, dir).1 {
                Check::Reproduced => Judged::FalseReproduced,
                Check::Skipped(reason) => Judged::FalseUnjudged(reason),
                // The program uses what gcc does not have (a clang builtin,
                // ...), or the harness says what it cannot make the run follow.
                Check::Failed(reason) if harness_cannot_follow(&reason) => Judged::FalseUnjudged(reason),
                Check::Failed(reason) => Judged::FalseUnreproduced(reason),
            }
        }
        Outcome::Successful => {
            let checked = Checked::of(task).expect("eligible tasks have judged properties");
            match attack::attack(root, task, checked, &dir.join("attack")) {
                Attack::Survived { .. } => Judged::TrueSurvived,
                Attack::Undecidable(reason) => Judged::TrueUndecidable(reason),
                Attack::Refuted { violation, seed, evidence } => {
                    Judged::TrueRefuted(format!("{violation:?} at seed {seed}: {}", evidence.lines().find(|l| !l.trim().is_empty()).unwrap_or("")))
                }
            }
        }
        Outcome::Unknown(reason) => Judged::Unknown(reason),
        Outcome::Timeout => Judged::Timeout,
        other => Judged::Error(other),
    }
}

/// Whether a failed replay is the harness's known limit rather than a
/// sign of a wrong FALSE: gcc cannot build it, the harness names a choice
/// of the counterexample it cannot make natively, or a quantifier.
fn harness_cannot_follow(reason: &str) -> bool {
    reason.starts_with("gcc failed") || reason.contains("(harness: not reproduced: ") || reason.contains("which a native run cannot check")
}

/// Generates, verifies and judges every mutant; suspects are moved to
/// `out_dir/suspects`.
pub fn run(opts: &Options, binary: &Path, out_dir: &Path) -> Result<Vec<Judgement>, String> {
    let pool = pool(&opts.suites)?;
    if pool.is_empty() {
        return Err("no eligible corpus task (is ../shared/corpus there?)".into());
    }
    let scratch = out_dir.join("mutants");
    fresh_dir(&scratch)?;
    let indices: Vec<usize> = (0..opts.mutants).collect();
    eprintln!("mutant-oracle: {} mutants of {} eligible tasks, seed {}, {} jobs", opts.mutants, pool.iter().map(Vec::len).sum::<usize>(), opts.seed, opts.jobs);
    let judged = parallel_map(&indices, opts.jobs, |&index| {
        let mut rng = Rng::new(opts.seed ^ (index as u64 + 1).wrapping_mul(0x2545_f491_4f6c_dd1d));
        let dir = scratch.join(format!("m{index:04}"));
        let prepared = prepare(&pool, &mut rng, &dir)?;
        let judged = judge(binary, &prepared, opts.timeout, &dir);
        write_readme(&dir, binary, &prepared, &judged)?;
        Ok::<_, String>(Judgement { index, task: prepared.task.id.clone(), mutation: prepared.mutation, description: prepared.description, judged, dir })
    }, |done| {
        if done % 25 == 0 || done == opts.mutants {
            eprintln!("  {done}/{}", opts.mutants);
        }
    });
    let mut judgements = Vec::new();
    for result in judged {
        match result {
            Ok(j) => judgements.push(j),
            Err(reason) => eprintln!("mutant skipped: {reason}"),
        }
    }
    keep_suspects(&mut judgements, &out_dir.join("suspects"))?;
    Ok(judgements)
}

/// How to reproduce a mutant by hand.
fn write_readme(dir: &Path, binary: &Path, prepared: &Prepared, judged: &Judged) -> Result<(), String> {
    // Paths relative to the mutant's folder, which may move (suspects).
    let args: Vec<String> = prepared.task.verify_args(Path::new("corpus"));
    let text = format!(
        "mutant of corpus task {}\nmutation: {} {}\nverify (from this folder): {} {}\njudged: {}\n{}\n",
        prepared.task.id,
        prepared.mutation.name(),
        prepared.description,
        binary.display(),
        args.join(" "),
        judged.label(),
        judged.detail()
    );
    std::fs::write(dir.join("README.txt"), text).map_err(|e| format!("{}: {e}", dir.display()))
}

/// Moves the suspects' folders to `suspects` (emptied first).
fn keep_suspects(judgements: &mut [Judgement], suspects: &Path) -> Result<(), String> {
    fresh_dir(suspects)?;
    for j in judgements.iter_mut().filter(|j| j.judged.is_suspect()) {
        let to = suspects.join(j.dir.file_name().unwrap_or_default());
        std::fs::rename(&j.dir, &to).map_err(|e| format!("{}: {e}", to.display()))?;
        j.dir = to;
    }
    Ok(())
}

/// The figures: mutants per judgement and per mutation kind, the most
/// frequent reasons a TRUE was undecidable, and every suspect.
pub fn render(judgements: &[Judgement]) -> String {
    let mut text = format!("mutants judged: {}\n", judgements.len());
    let mut by_label: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
    let mut undecidable: BTreeMap<String, usize> = BTreeMap::new();
    for j in judgements {
        *by_label.entry(j.judged.label()).or_default() += 1;
        *by_kind.entry(j.mutation.name()).or_default() += 1;
        if let Judged::TrueUndecidable(reason) = &j.judged {
            *undecidable.entry(reason.chars().take(90).collect()).or_default() += 1;
        }
    }
    for (label, n) in &by_label {
        let _ = writeln!(text, "{n:>6}  {label}");
    }
    text += "mutations:\n";
    for (kind, n) in &by_kind {
        let _ = writeln!(text, "{n:>6}  {kind}");
    }
    if !undecidable.is_empty() {
        text += "why TRUEs were undecidable natively:\n";
        let mut ranked: Vec<_> = undecidable.into_iter().collect();
        ranked.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
        for (reason, n) in ranked.iter().take(8) {
            let _ = writeln!(text, "{n:>6}  {reason}");
        }
    }
    let suspects: Vec<&Judgement> = judgements.iter().filter(|j| j.judged.is_suspect()).collect();
    let _ = writeln!(text, "suspects: {}", suspects.len());
    for j in suspects {
        let _ = writeln!(text, "  {} ({} {}): {}: {}", j.dir.display(), j.task, j.description, j.judged.label(), j.judged.detail());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A task over one program file written to `dir`.
    fn program_task(dir: &Path, text: &str) -> Task {
        std::fs::create_dir_all(dir).unwrap();
        let file = dir.join("main.c");
        std::fs::write(&file, text).unwrap();
        Task { files: vec![file.display().to_string()], ..Task::example("nowhere", "true") }
    }

    fn gcc_present() -> bool {
        std::process::Command::new("gcc").arg("--version").output().is_ok_and(|o| o.status.success())
    }

    #[test]
    fn random_runs_reach_boundary_values() {
        if !gcc_present() {
            println!("skipped: no gcc");
            return;
        }
        let dir = std::env::temp_dir().join(format!("mutant-oracle-attack-{}", std::process::id()));
        let boundary = "#include <assert.h>\n#include <limits.h>\nint __VERIFIER_nondet_int(void);\nvoid __VERIFIER_assume(int);\n\
                        int main(void) { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x != 0); assert(x != INT_MAX); return 0; }\n";
        let task = program_task(&dir.join("false"), boundary);
        let refuted = attack::attack(Path::new("/"), &task, Checked::of(&task).unwrap(), &dir.join("false/attack"));
        assert!(matches!(refuted, Attack::Refuted { violation: Violation::Assertion, .. }), "{refuted:?}");
        let safe = boundary.replace("x != 0", "x != INT_MAX");
        let task = program_task(&dir.join("true"), &safe);
        let survived = attack::attack(Path::new("/"), &task, Checked::of(&task).unwrap(), &dir.join("true/attack"));
        assert_eq!(survived, Attack::Survived { runs: 200 });
        // Signed overflow is undefined behaviour the task does not check:
        // what follows it means nothing.
        let overflow = boundary.replace("assert(x != INT_MAX)", "int y = x + 1; assert(y != INT_MIN)");
        let task = program_task(&dir.join("ub"), &overflow);
        let undecidable = attack::attack(Path::new("/"), &task, Checked::of(&task).unwrap(), &dir.join("ub/attack"));
        assert!(matches!(undecidable, Attack::Undecidable(_)), "{undecidable:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_harness_s_own_limits_do_not_make_suspects() {
        assert!(harness_cannot_follow("gcc failed: collect2: error: ld returned 1 exit status"));
        assert!(harness_cannot_follow("the run exited with 3: harness: the quantifier at line 4 holds for every value or for none, which a native run cannot check"));
        assert!(harness_cannot_follow("the run exited with 0: (no output) (harness: not reproduced: an allocation inside a library function fails)"));
        assert!(!harness_cannot_follow("the run exited with 0: (no output)"));
    }

    #[test]
    fn threads_and_unjudged_properties_are_left_out() {
        assert!(concurrent("#include <pthread.h>\n"));
        let mut task = Task::example("t", "true");
        assert!(eligible(&Task { files: vec!["a.c".into()], ..task.clone() }));
        task.files = vec!["a.c".into()];
        task.checks = vec![("memory_leak".into(), true)];
        assert!(!eligible(&task));
    }
}
