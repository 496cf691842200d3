//! `cargo xtask thread-oracle`: checks tarsier's verdicts on programs
//! with threads against an exhaustive native enumeration of their
//! schedules. A seeded generator (`generate`) writes small pthread
//! programs (`program`): two or three threads, shared globals, mutexes,
//! atomic sections, inputs, branches and loops, and assertion sites over
//! shared state. gcc runs each one's native flavour (`emit`) in a harness
//! (`native`) that enumerates every schedule and input sequence, each
//! shared access one step; the sites' constants and the verdicts follow
//! (`expect`). tarsier then verifies the pthread program with its
//! default engine, with `--deadlock-check` and, where it has loops, with
//! `--unwind N` (with and without unwinding assertions); any other
//! definite answer is a
//! disagreement, saved with the schedule that violates the program (for
//! an expected FALSE) and tarsier's output. The oracle shares no code
//! with tarsier: the schedules and the verdicts are the generator's and
//! gcc's.

mod emit;
mod expect;
mod generate;
mod native;
mod program;

use crate::flow_oracle::{answer_name, names, run_tarsier, verify_tasks, Answer, Expected};
use crate::oracle::{fresh_dir, score_counts, ProgramOracleOptions, Rng, Score};
use crate::process::run_with_timeout;
use crate::runner::parallel_map;
pub use expect::{parse_modes, Mode};
use program::Program;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Options of `cargo xtask thread-oracle`.
pub type Options = ProgramOracleOptions<Mode>;

/// Programs per native batch (one gcc run each).
const BATCH: usize = 20;

/// A generated program and the bound it is checked at (when it has
/// loops).
struct Case {
    program: Program,
    bound: u32,
}

/// One verification task.
struct ThreadTask {
    case: usize,
    mode: Mode,
    expected: Vec<Expected>,
    path: PathBuf,
    /// For an expected FALSE: the site and a schedule violating it.
    witness: Option<(usize, String)>,
}

/// The counts of a run, by [`Score`] (indexed by `Score as usize`), the
/// programs checked and those that could not be, by reason.
pub struct Summary {
    pub counts: [usize; 5],
    pub programs: usize,
    pub skipped: BTreeMap<String, usize>,
    /// The features of the programs checked, with their counts.
    pub features: BTreeMap<&'static str, usize>,
}

fn generate_cases(opts: &Options) -> Vec<Case> {
    let mut rng = Rng::new(opts.seed);
    (0..opts.programs)
        .map(|_| {
            let program = generate::program(&mut rng);
            let bound = 1 + rng.below(u64::from(opts.max_bound)) as u32;
            Case { program, bound }
        })
        .collect()
}

/// Enumerates every case natively, in batches run in parallel.
fn explore_all(cases: &[Case], jobs: usize, dir: &Path) -> Result<Vec<native::Explorations>, String> {
    let batches: Vec<(usize, &[Case])> = cases.chunks(BATCH).enumerate().collect();
    let results = parallel_map(&batches, jobs, |(k, batch)| {
        let jobs: Vec<native::Job> = batch.iter().map(|c| native::Job { program: &c.program, bounds: expect::bounds_to_explore(&c.program, c.bound) }).collect();
        native::explore(&jobs, &dir.join(format!("batch-{k:04}")))
    }, |_| {});
    let mut all = Vec::with_capacity(cases.len());
    for result in results {
        all.extend(result?);
    }
    Ok(all)
}

/// Plans and writes every case's tasks; a case that cannot be checked is
/// counted by reason.
fn write_tasks(opts: &Options, cases: &[Case], found: &[native::Explorations], dir: &Path) -> Result<(Vec<ThreadTask>, BTreeMap<String, usize>), String> {
    fresh_dir(dir)?;
    let mut tasks = Vec::new();
    let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
    for (index, (case, found)) in cases.iter().zip(found).enumerate() {
        let mut rng = Rng::new(opts.seed ^ (index as u64 + 1).wrapping_mul(0x2545_f491_4f6c_dd1d));
        let plan = match expect::plan(&mut rng, &case.program, case.bound, found) {
            Ok(plan) => plan,
            Err(reason) => {
                *skipped.entry(reason).or_default() += 1;
                continue;
            }
        };
        for (mode, expected) in plan.tasks.into_iter().filter(|(mode, _)| opts.modes.contains(mode)) {
            let path = dir.join(format!("p{index:05}-{}.c", mode.name()));
            let header = format!(
                "/* thread-oracle seed {} program {index}: tarsier {} must answer {}. */\n",
                opts.seed,
                mode.flags(case.bound).join(" "),
                names(&expected)
            );
            let constants = if mode == Mode::Deadlock { &plan.quiet } else { &plan.constants };
            let text = header + &emit::task(&case.program, constants);
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            let witness = plan.witness.clone().filter(|_| expected.contains(&Expected::Property));
            tasks.push(ThreadTask { case: index, mode, expected, path, witness });
        }
    }
    Ok((tasks, skipped))
}

/// Generates, enumerates, writes and verifies every program.
pub fn run(opts: &Options, binary: &Path, out_dir: &Path) -> Result<Summary, String> {
    let cases = generate_cases(opts);
    let found = explore_all(&cases, opts.jobs, &out_dir.join("native"))?;
    let (tasks, skipped) = write_tasks(opts, &cases, &found, &out_dir.join("cases"))?;
    let checked = cases.len() - skipped.values().sum::<usize>();
    eprintln!("thread-oracle: {} programs ({checked} checked), {} tasks, {} jobs, seed {}", cases.len(), tasks.len(), opts.jobs, opts.seed);
    let verify = |t: &ThreadTask| run_tarsier(binary, &t.path, &t.mode.flags(cases[t.case].bound), opts.timeout);
    let (answers, scores) = verify_tasks(&tasks, opts.jobs, 100, verify, |t| (t.mode.name(), &t.expected));
    let features = feature_counts(&cases, &tasks);
    let listed: Vec<String> = features.iter().map(|(feature, count)| format!("{feature} {count}")).collect();
    println!("programs checked: {checked}; with {}", listed.join(", "));
    for (reason, count) in &skipped {
        println!("{count:>6}  programs not checked: {reason}");
    }
    report_wrong(opts, binary, &cases, &tasks, &answers, &scores, &out_dir.join("wrong"))?;
    Ok(Summary { counts: score_counts(&scores), programs: checked, skipped, features })
}

/// Lists the disagreements and copies each task to `wrong_dir`, with the
/// violating schedule (for an expected FALSE) and tarsier's output beside
/// it.
fn report_wrong(opts: &Options, binary: &Path, cases: &[Case], tasks: &[ThreadTask], answers: &[Answer], scores: &[Score], wrong_dir: &Path) -> Result<(), String> {
    fresh_dir(wrong_dir)?;
    let wrong: Vec<usize> = (0..tasks.len()).filter(|&k| scores[k] == Score::Wrong).collect();
    if wrong.is_empty() {
        println!("no disagreements");
        return Ok(());
    }
    println!("DISAGREEMENTS (wrong answers), copied to {}:", wrong_dir.display());
    for k in wrong {
        let task = &tasks[k];
        let case = &cases[task.case];
        let copy = wrong_dir.join(task.path.file_name().unwrap_or_default());
        std::fs::copy(&task.path, &copy).map_err(|e| format!("{}: {e}", copy.display()))?;
        let flags = task.mode.flags(case.bound);
        let output = match run_with_timeout(Command::new(binary).arg(&copy).args(&flags), opts.timeout) {
            Ok(out) => format!("{}{}", out.stdout, out.stderr),
            Err(err) => format!("cannot run {}: {err}", binary.display()),
        };
        let mut notes = format!("tarsier {} {}\n", copy.display(), flags.join(" "));
        if let Some((site, schedule)) = &task.witness {
            let _ = writeln!(notes, "violating schedule of site {site} (0 = main, k = the k-th thread started; =v an input): {schedule}");
        }
        notes.push_str(&output);
        let notes_path = copy.with_extension("txt");
        std::fs::write(&notes_path, notes).map_err(|e| format!("{}: {e}", notes_path.display()))?;
        println!(
            "  {} ({}): expected {}, got {}; features: {}",
            copy.display(),
            flags.join(" "),
            names(&task.expected),
            answer_name(&answers[k]),
            case.program.features().join(",")
        );
        if let Some((site, schedule)) = &task.witness {
            println!("      site {site} violated by schedule {schedule}");
        }
    }
    Ok(())
}

/// How many of the programs checked have each feature.
fn feature_counts(cases: &[Case], tasks: &[ThreadTask]) -> BTreeMap<&'static str, usize> {
    let mut checked: Vec<usize> = tasks.iter().map(|t| t.case).collect();
    checked.dedup();
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    for &case in &checked {
        for feature in cases[case].program.features() {
            *counts.entry(feature).or_default() += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::program::*;
    use super::*;
    use std::time::Duration;

    fn gcc_found() -> bool {
        let found = Command::new("gcc").arg("--version").output().is_ok();
        if !found {
            eprintln!("skipped: gcc not found");
        }
        found
    }

    fn body(stmts: Vec<Stmt>) -> Body {
        Body { locals: 1, stmts, result: 0 }
    }

    /// Two threads running `function` 0 (and 1 if given), joined, then
    /// site 0 probes `g0`.
    fn two_threads(functions: Vec<Body>, mutexes: usize) -> Program {
        let starts = vec![0, functions.len() - 1];
        let after = vec![Stmt::Assert { site: 0, probe: Probe::Global(0) }];
        let main = Main { locals: 2, before: Vec::new(), starts, args: vec![1, 1], during: Vec::new(), joins: vec![(0, None), (1, None)], after };
        Program { globals: vec![0, 0], layout: Layout::Separate, mutexes, functions, main, sites: 1 }
    }

    fn explore(program: &Program, bounds: Vec<u32>) -> native::Explorations {
        let dir = std::env::temp_dir().join(format!("thread-oracle-test-{}-{:?}", std::process::id(), std::thread::current().id()));
        let found = native::explore(&[native::Job { program, bounds }], &dir);
        let _ = std::fs::remove_dir_all(&dir);
        found.expect("the harness builds and runs").remove(0)
    }

    fn values(found: &native::Exploration, site: usize) -> Vec<i64> {
        found.values(site).map(|(v, _)| v).collect()
    }

    fn increment() -> Stmt {
        Stmt::Update { global: 0, delta: 1, style: UpdateStyle::Step }
    }

    /// Two unguarded `g0++` can lose an update; under a lock or in an
    /// atomic section they cannot.
    #[test]
    fn an_update_is_a_read_step_and_a_write_step() {
        if !gcc_found() {
            return;
        }
        let racy = explore(&two_threads(vec![body(vec![increment()])], 0), vec![0]);
        assert_eq!(values(&racy[&0], 0), [1, 2]);
        assert!(racy[&0].complete);
        let locked = explore(&two_threads(vec![body(vec![Stmt::Locked { mutex: 0, body: vec![increment()] }])], 1), vec![0]);
        assert_eq!(values(&locked[&0], 0), [2]);
        let atomic = explore(&two_threads(vec![body(vec![Stmt::Atomic { body: vec![increment()] }])], 0), vec![0]);
        assert_eq!(values(&atomic[&0], 0), [2]);
    }

    /// Locks taken in opposite orders deadlock in some schedules only.
    #[test]
    fn opposite_lock_orders_deadlock() {
        if !gcc_found() {
            return;
        }
        let nested = |outer, inner| body(vec![Stmt::Locked { mutex: outer, body: vec![Stmt::Locked { mutex: inner, body: vec![increment()] }] }]);
        let found = explore(&two_threads(vec![nested(0, 1), nested(1, 0)], 2), vec![0]);
        assert!(found[&0].complete && found[&0].deadlocks > 0);
        assert_eq!(values(&found[&0], 0), [2]);
        let found = explore(&two_threads(vec![nested(0, 1), nested(0, 1)], 2), vec![0]);
        assert_eq!(found[&0].deadlocks, 0);
    }

    /// A thread waiting for another's store: with bound 2 the wait may
    /// take one back edge, and the site after it sees the store; the
    /// bound cuts the thread when it waits longer.
    #[test]
    fn a_wait_is_cut_at_the_bound() {
        if !gcc_found() {
            return;
        }
        let waiter = body(vec![Stmt::While { cond: Cond::Global(1, Rel::Eq, 0), body: Vec::new() }, Stmt::Load { local: 0, global: 1 }]);
        let setter = body(vec![Stmt::Store { global: 1, value: Rhs::Const(5) }]);
        let mut program = two_threads(vec![waiter, setter], 0);
        program.functions[0].stmts.push(Stmt::Assert { site: 1, probe: Probe::Local(0) });
        program.sites = 2;
        let found = explore(&program, vec![1, 2, 0]);
        assert_eq!(values(&found[&1], 1), [5], "no back edge: the store came first");
        assert!(found[&1].exceeded && found[&2].exceeded);
        assert!(!found[&0].complete, "the wait can spin for ever");
    }

    /// The value a thread ends with reaches `main` through the join; a
    /// nondeterministic input takes every value of its range.
    #[test]
    fn joins_give_the_thread_results_and_inputs_their_range() {
        if !gcc_found() {
            return;
        }
        let input = Stmt::Input { local: 0, low: -1, high: 1, style: InputStyle::Assume };
        let mut program = two_threads(vec![body(vec![input])], 0);
        program.main.joins = vec![(0, Some(1)), (1, None)];
        program.main.after = vec![Stmt::Assert { site: 0, probe: Probe::Local(1) }];
        let found = explore(&program, vec![0]);
        assert_eq!(values(&found[&0], 0), [-1, 0, 1]);
    }

    /// Another thread can run between `main`'s last store and its return
    /// (the process's end), but not after it.
    #[test]
    fn the_end_of_main_is_a_step_of_its_own() {
        if !gcc_found() {
            return;
        }
        let reader = body(vec![Stmt::Assert { site: 0, probe: Probe::Global(0) }]);
        let mut program = two_threads(vec![reader], 0);
        program.main.joins.clear();
        program.main.after = vec![Stmt::Store { global: 0, value: Rhs::Const(1) }];
        let found = explore(&program, vec![0]);
        assert_eq!(values(&found[&0], 0), [0, 1]);
    }

    #[test]
    fn generation_is_deterministic() {
        let text = |seed| {
            let opts = Options { programs: 4, seed, max_bound: 3, modes: Mode::ALL.to_vec(), jobs: 1, timeout: Duration::from_secs(1), tarsier: None };
            generate_cases(&opts).iter().map(|c| emit::task(&c.program, &vec![0; c.program.sites])).collect::<String>()
        };
        assert_eq!(text(4), text(4));
        assert_ne!(text(4), text(5));
    }

    /// Every task text is C that gcc accepts.
    #[test]
    fn task_texts_compile() {
        if !gcc_found() {
            return;
        }
        let dir = std::env::temp_dir().join(format!("thread-oracle-tasks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let opts = Options { programs: 12, seed: 12, max_bound: 3, modes: Mode::ALL.to_vec(), jobs: 1, timeout: Duration::from_secs(1), tarsier: None };
        for (k, case) in generate_cases(&opts).iter().enumerate() {
            let path = dir.join(format!("task{k}.c"));
            std::fs::write(&path, emit::task(&case.program, &vec![3; case.program.sites])).unwrap();
            let out = Command::new("gcc").args(["-fsyntax-only", "-Werror=implicit-function-declaration"]).arg(&path).output().unwrap();
            assert!(out.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
