//! `cargo xtask flow-oracle`: checks tarsier's loops, jumps, calls and
//! unwinding bounds against native execution. A seeded generator
//! (`generate`) writes programs of random control flow over small `int`
//! variables with nondeterministic choices and assertion sites
//! (`program`); gcc runs each (`emit`'s native flavour in the `native`
//! harness), enumerating every sequence of choices under the bounds
//! around the one checked; the sites' constants and the verdicts follow
//! (`expect`). tarsier then verifies each program with `--unwind N
//! --no-unwinding-assertions`, with `--unwind N` and, when the enumeration
//! implies the unbounded verdict, with `--incremental-bmc` and
//! `--k-induction`; any other definite answer is a disagreement. The oracle shares no code with tarsier: the loops, the
//! bound and the verdicts are the generator's and gcc's.

mod emit;
mod expect;
mod generate;
mod native;
mod program;

use crate::oracle::{fresh_dir, score_counts, ProgramOracleOptions, Rng, Score};
use crate::process::run_with_timeout;
use crate::runner::{classify, json_document, parallel_map, Outcome};
use emit::Shape;
pub use expect::{parse_modes, Expected, Mode};
use program::Program;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Options of `cargo xtask flow-oracle`.
pub type Options = ProgramOracleOptions<Mode>;

/// Programs per native batch (one gcc run each).
const BATCH: usize = 40;

/// A generated program and the bound it is checked at.
struct Case {
    program: Program,
    bound: u32,
    /// How the task text writes the program.
    shape: Shape,
}

/// One verification task.
pub struct FlowTask {
    case: usize,
    mode: Mode,
    /// The verdicts accepted (the first is the one of tarsier's loop
    /// heads).
    expected: Vec<Expected>,
    /// The constants of the program's assertion sites.
    constants: Vec<i64>,
    path: PathBuf,
}

/// What tarsier answered: the outcome and, for FAILED, the class of the
/// violated property (`unwinding-assertion`, `deadlock`, ...).
#[derive(Clone, Debug)]
pub struct Answer {
    pub outcome: Outcome,
    pub class: Option<String>,
}

/// The programs of `seed`, each with the bound it is checked at.
fn generate_cases(opts: &Options) -> Vec<Case> {
    let mut rng = Rng::new(opts.seed);
    (0..opts.programs)
        .map(|_| {
            let program = generate::program(&mut rng);
            let bound = 1 + rng.below(u64::from(opts.max_bound)) as u32;
            let shape = Shape { single_back_edge: rng.chance(4), switch_as_gotos: rng.chance(4) };
            Case { program, bound, shape }
        })
        .collect()
}

/// A case's enumerations: with the loop heads tarsier's loop analysis
/// picks (a jump into a loop lands on its head), and, for a program with
/// a conditional jump into a loop, with the loop's other entry as head.
struct Found {
    explorations: native::Explorations,
    other_head: Option<native::Explorations>,
}

/// Enumerates every case natively, in batches run in parallel.
fn explore_all(cases: &[Case], jobs: usize, dir: &Path) -> Result<Vec<Found>, String> {
    let batches: Vec<(usize, &[Case])> = cases.chunks(BATCH).enumerate().collect();
    let results = parallel_map(&batches, jobs, |(k, batch)| {
        let mut jobs = Vec::new();
        for case in batch.iter() {
            let job = |entry_heads| native::Job { program: &case.program, shape: Shape::default(), entry_heads, bounds: expect::bounds_to_explore(case.bound) };
            jobs.push(job(true));
            if case.program.has_conditional_entry() {
                jobs.push(job(false));
            }
        }
        let mut found = native::explore(&jobs, &dir.join(format!("batch-{k:04}")))?.into_iter();
        let mut cases = Vec::new();
        for case in batch.iter() {
            let explorations = found.next().expect("one enumeration per job");
            let other_head = case.program.has_conditional_entry().then(|| found.next().expect("one enumeration per job"));
            cases.push(Found { explorations, other_head });
        }
        Ok::<_, String>(cases)
    }, |_| {});
    let mut all = Vec::with_capacity(cases.len());
    for result in results {
        all.extend(result?);
    }
    Ok(all)
}

/// The task file's text: a header saying how it was made and what it
/// expects, then the program.
fn task_text(opts: &Options, index: usize, case: &Case, constants: &[i64], mode: Mode, expected: &[Expected], shape: Shape) -> String {
    format!(
        "/* flow-oracle seed {} program {index}: tarsier {} must answer {}. */\n{}",
        opts.seed,
        mode.flags(case.bound).join(" "),
        names(expected),
        emit::task(&case.program, constants, shape)
    )
}

/// Plans and writes every case's tasks; a case that cannot be checked is
/// counted by reason.
fn write_tasks(opts: &Options, cases: &[Case], explorations: &[Found], dir: &Path) -> Result<(Vec<FlowTask>, BTreeMap<String, usize>), String> {
    fresh_dir(dir)?;
    let mut tasks = Vec::new();
    let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
    for (index, (case, found)) in cases.iter().zip(explorations).enumerate() {
        let mut rng = Rng::new(opts.seed ^ (index as u64 + 1).wrapping_mul(0x2545_f491_4f6c_dd1d));
        let plan = match expect::plan(&mut rng, case.program.sites, case.bound, &found.explorations, found.other_head.as_ref()) {
            Ok(plan) => plan,
            Err(reason) => {
                *skipped.entry(reason.split(" (").next().unwrap_or(&reason).to_string()).or_default() += 1;
                continue;
            }
        };
        for (mode, expected) in plan.tasks.into_iter().filter(|(mode, _)| opts.modes.contains(mode)) {
            let path = dir.join(format!("p{index:05}-{}.c", mode.name()));
            let text = task_text(opts, index, case, &plan.constants, mode, &expected, case.shape);
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            tasks.push(FlowTask { case: index, mode, expected, constants: plan.constants.clone(), path });
        }
    }
    Ok((tasks, skipped))
}

/// Runs tarsier on one task with `flags` and `--json`, and reads whether
/// the class of the property a FAILED violates.
pub fn run_tarsier(binary: &Path, path: &Path, flags: &[String], timeout: Duration) -> Answer {
    let mut command = Command::new(binary);
    command.arg(path).args(flags).arg("--json");
    match run_with_timeout(&mut command, timeout) {
        Ok(out) => {
            let class = json_document(&out).and_then(|doc| doc["property"]["class"].as_str().map(String::from));
            Answer { outcome: classify(&out, false), class }
        }
        Err(err) => Answer { outcome: Outcome::Crash(format!("cannot run {}: {err}", binary.display())), class: None },
    }
}

/// Scores an answer: a definite answer other than the accepted ones
/// (including FAILED on the other kind of property) is wrong.
pub fn score(answer: &Answer, accepted: &[Expected]) -> Score {
    let expected = match (&answer.outcome, answer.class.as_deref()) {
        (Outcome::Successful, _) => Expected::Successful,
        (Outcome::Failed, Some("unwinding-assertion")) => Expected::Unwinding,
        (Outcome::Failed, Some("deadlock")) => Expected::Deadlock,
        (Outcome::Failed, _) => Expected::Property,
        (Outcome::Unknown(_), _) => return Score::Unknown,
        (Outcome::Timeout, _) => return Score::Timeout,
        (Outcome::Accepted | Outcome::Rejected(_) | Outcome::Crash(_), _) => return Score::Error,
    };
    if accepted.contains(&expected) {
        Score::Correct
    } else {
        Score::Wrong
    }
}

/// The accepted verdicts as text.
pub fn names(accepted: &[Expected]) -> String {
    accepted.iter().map(|e| e.name()).collect::<Vec<_>>().join(" or ")
}

/// An answer as text, saying which property a FAILED is on.
pub fn answer_name(answer: &Answer) -> String {
    match &answer.outcome {
        Outcome::Failed => match answer.class.as_deref() {
            Some("unwinding-assertion") => Expected::Unwinding.name().into(),
            Some("deadlock") => Expected::Deadlock.name().into(),
            _ => Expected::Property.name().into(),
        },
        Outcome::Successful => "SUCCESSFUL".into(),
        other => format!("{} {}", other.kind(), other.reason().unwrap_or("")),
    }
}

/// The counts of a run, by [`Score`] (indexed by `Score as usize`), the
/// programs checked, those that could not be, by reason, and the
/// disagreements by class (see [`class_of`]).
pub struct Summary {
    pub counts: [usize; 5],
    pub programs: usize,
    pub skipped: BTreeMap<String, usize>,
    pub classes: BTreeMap<&'static str, usize>,
}

/// Generates, enumerates, writes and verifies every program.
pub fn run(opts: &Options, binary: &Path, out_dir: &Path) -> Result<Summary, String> {
    let cases = generate_cases(opts);
    let explorations = explore_all(&cases, opts.jobs, &out_dir.join("native"))?;
    let (tasks, skipped) = write_tasks(opts, &cases, &explorations, &out_dir.join("cases"))?;
    let checked = cases.len() - skipped.values().sum::<usize>();
    eprintln!("flow-oracle: {} programs ({checked} checked), {} tasks, {} jobs, seed {}", cases.len(), tasks.len(), opts.jobs, opts.seed);
    let verify = |t: &FlowTask| run_tarsier(binary, &t.path, &t.mode.flags(cases[t.case].bound), opts.timeout);
    let (answers, scores) = verify_tasks(&tasks, opts.jobs, 200, verify, |t| (t.mode.name(), &t.expected));
    println!("{}", feature_counts(&cases, &tasks));
    for (reason, count) in &skipped {
        println!("{count:>6}  programs not checked: {reason}");
    }
    let classes = report_wrong(opts, binary, &cases, &tasks, &answers, &scores, &out_dir.join("wrong"))?;
    Ok(Summary { counts: score_counts(&scores), programs: checked, skipped, classes })
}

/// Verifies every task with `verify` (telling progress every `every`
/// tasks), scores each answer against what its `expected` accepts, prints
/// the table of scores by mode and verdict and the most frequent reasons
/// for UNKNOWN, and gives the answers with their scores.
pub fn verify_tasks<T: Sync>(
    tasks: &[T],
    jobs: usize,
    every: usize,
    verify: impl Fn(&T) -> Answer + Sync,
    expected: impl Fn(&T) -> (&'static str, &[Expected]),
) -> (Vec<Answer>, Vec<Score>) {
    let total = tasks.len();
    let answers = parallel_map(tasks, jobs, verify, |done| {
        if done % every == 0 || done == total {
            eprintln!("  {done}/{total}");
        }
    });
    let scores: Vec<Score> = tasks.iter().zip(&answers).map(|(t, a)| score(a, expected(t).1)).collect();
    let keys: Vec<(&str, Expected)> = tasks.iter().map(|t| (expected(t).0, expected(t).1[0])).collect();
    print!("{}", render_table(&keys, &scores));
    let outcomes: Vec<Outcome> = answers.iter().map(|a| a.outcome.clone()).collect();
    print!("{}", crate::oracle::unknown_reasons(&outcomes));
    (answers, scores)
}

/// Lists the disagreements with the program's features, copies them to
/// `wrong_dir`, and verifies the same program written in the other shapes:
/// a disagreement that a shape avoids is of the class that shape leaves
/// out. Returns the count of disagreements per class.
fn report_wrong(opts: &Options, binary: &Path, cases: &[Case], tasks: &[FlowTask], answers: &[Answer], scores: &[Score], wrong_dir: &Path) -> Result<BTreeMap<&'static str, usize>, String> {
    fresh_dir(wrong_dir)?;
    let mut classes: BTreeMap<&'static str, usize> = BTreeMap::new();
    let wrong: Vec<usize> = (0..tasks.len()).filter(|&k| scores[k] == Score::Wrong).collect();
    if wrong.is_empty() {
        println!("no disagreements");
        return Ok(classes);
    }
    println!("DISAGREEMENTS (wrong answers), copied to {}:", wrong_dir.display());
    for k in wrong {
        let task = &tasks[k];
        let case = &cases[task.case];
        let copy = wrong_dir.join(task.path.file_name().unwrap_or_default());
        std::fs::copy(&task.path, &copy).map_err(|e| format!("{}: {e}", copy.display()))?;
        let mut others = Vec::new();
        for (n, shape) in other_shapes(case.shape).into_iter().enumerate() {
            let path = copy.with_extension(format!("shape{n}.c"));
            let text = task_text(opts, task.case, case, &task.constants, task.mode, &task.expected, shape);
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            others.push((shape, run_tarsier(binary, &path, &task.mode.flags(case.bound), opts.timeout)));
        }
        let fixed: Vec<Shape> = others.iter().filter(|(_, a)| score(a, &task.expected) == Score::Correct).map(|(s, _)| *s).collect();
        let class = class_of(case.shape, &fixed);
        *classes.entry(class).or_default() += 1;
        println!(
            "  {} (bound {}, {}; {}): expected {}, got {}; class: {class}; features: {}",
            copy.display(),
            case.bound,
            task.mode.name(),
            case.shape.describe(),
            names(&task.expected),
            answer_name(&answers[k]),
            case.program.features().join(",")
        );
        let others: Vec<String> = others.iter().map(|(shape, answer)| format!("{}: {}", shape.describe(), answer_name(answer))).collect();
        println!("      other shapes: {}", others.join("; "));
    }
    for (class, count) in &classes {
        println!("{count:>6}  disagreements of class: {class}");
    }
    Ok(classes)
}

/// The class of a disagreement in a program of `shape` that the shapes
/// `fixed` avoid: several back edges per loop, a `switch`'s dispatch, or
/// both; "unexplained" when no simpler shape avoids it.
fn class_of(shape: Shape, fixed: &[Shape]) -> &'static str {
    let single = Shape { single_back_edge: true, ..shape };
    let gotos = Shape { switch_as_gotos: true, ..shape };
    let both = Shape { single_back_edge: true, switch_as_gotos: true };
    if !shape.single_back_edge && fixed.contains(&single) {
        "loops with several back edges"
    } else if !shape.switch_as_gotos && fixed.contains(&gotos) {
        "a switch's dispatch counted as a loop"
    } else if shape != both && fixed.contains(&both) {
        "several back edges and switch dispatch together"
    } else {
        "unexplained"
    }
}

/// The three shapes other than `shape`.
fn other_shapes(shape: Shape) -> Vec<Shape> {
    [false, true]
        .into_iter()
        .flat_map(|single_back_edge| [false, true].map(|switch_as_gotos| Shape { single_back_edge, switch_as_gotos }))
        .filter(|&other| other != shape)
        .collect()
}

/// How many of the programs checked have each feature.
fn feature_counts(cases: &[Case], tasks: &[FlowTask]) -> String {
    let mut checked: Vec<usize> = tasks.iter().map(|t| t.case).collect();
    checked.dedup();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for &case in &checked {
        for feature in cases[case].program.features() {
            *counts.entry(feature).or_default() += 1;
        }
    }
    let counts: Vec<String> = counts.iter().map(|(feature, count)| format!("{feature} {count}")).collect();
    format!("programs checked: {}; with {}", checked.len(), counts.join(", "))
}

/// The mode × expected verdict table with totals, from each task's mode
/// name and first accepted verdict.
pub fn render_table(keys: &[(&'static str, Expected)], scores: &[Score]) -> String {
    let mut rows: BTreeMap<(&str, Expected), [usize; 5]> = BTreeMap::new();
    for (key, &score) in keys.iter().zip(scores) {
        rows.entry(*key).or_default()[score as usize] += 1;
    }
    let mut text = format!("{:<12} {:<29} {:>7} {:>6} {:>7} {:>7} {:>6}\n", "mode", "expected", "correct", "wrong", "unknown", "timeout", "error");
    let mut totals = [0usize; 5];
    for ((mode, expected), counts) in &rows {
        let _ = writeln!(text, "{:<12} {:<29} {:>7} {:>6} {:>7} {:>7} {:>6}", mode, expected.name(), counts[0], counts[1], counts[2], counts[3], counts[4]);
        for (total, count) in totals.iter_mut().zip(counts) {
            *total += count;
        }
    }
    let _ = writeln!(text, "{:<42} {:>7} {:>6} {:>7} {:>7} {:>6}", "total", totals[0], totals[1], totals[2], totals[3], totals[4]);
    text
}

#[cfg(test)]
mod tests {
    use super::program::*;
    use super::*;

    fn gcc_found() -> bool {
        let found = Command::new("gcc").arg("--version").output().is_ok();
        if !found {
            eprintln!("skipped: gcc not found");
        }
        found
    }

    fn main_of(locals: Vec<i32>, loops: u32, body: Vec<Stmt>) -> Function {
        Function { name: "main".into(), kind: FunctionKind::Main, params: 0, locals, loops, body, result: Value::Const(0) }
    }

    fn site(site: usize, place: Place) -> Stmt {
        Stmt::Assert { site, probe: Probe::Var(place), style: AssertStyle::ReachError }
    }

    /// The example: `while (nondet) { if (nondet) continue;
    /// last = 1; } assert(last != 1)`.
    fn continue_example() -> Program {
        let body = vec![
            Stmt::If(Cond::NondetBool, vec![Stmt::Continue(0, LoopKind::While)], Vec::new()),
            Stmt::Assign(Place::Local(0), Value::Const(1)),
        ];
        let the_loop = Stmt::Loop(Loop { id: 0, kind: LoopKind::While, cond: Cond::NondetBool, limit: None, body, entry: None, shares_head: false });
        Program { globals: Vec::new(), functions: vec![main_of(vec![0], 1, vec![the_loop, site(0, Place::Local(0))])], sites: 1, terminating: false }
    }

    /// `for (i0 = 0; i0 < 3; i0++) ;` then the depth of a recursion
    /// `f0(2, 0)` (three frames).
    fn bound_example() -> Program {
        let recursive = Function {
            name: "f0".into(),
            kind: FunctionKind::Recursive,
            params: 2,
            locals: vec![0],
            loops: 0,
            body: vec![
                Stmt::If(Cond::Compare(Place::Local(0), Compare::Le, 0), vec![Stmt::Return(Value::Const(7))], Vec::new()),
                Stmt::Call(Some(Place::Local(1)), 0, vec![Value::Offset(Place::Local(0), -1), Value::Const(0)]),
            ],
            result: Value::Read(Place::Local(1)),
        };
        let the_loop = Stmt::Loop(Loop { id: 0, kind: LoopKind::For, cond: Cond::True, limit: Some(Limit::Const(3)), body: Vec::new(), entry: None, shares_head: false });
        let body = vec![the_loop, site(0, Place::Counter(0)), Stmt::Call(Some(Place::Local(0)), 0, vec![Value::Const(2), Value::Const(0)]), site(1, Place::Local(0))];
        Program { globals: Vec::new(), functions: vec![recursive, main_of(vec![0], 1, body)], sites: 2, terminating: true }
    }

    /// `if (nondet) goto M0; L0: i0++; t = mark 1; M0: t = mark 2; if
    /// (nondet) goto L0;` then the trace asserted: two entries.
    fn irreducible_example() -> Program {
        let body = vec![Stmt::Trace(1), Stmt::Trace(2)];
        let entry = Some(Entry { at: 1, cond: Some(Cond::NondetBool) });
        let the_loop = Stmt::Loop(Loop { id: 0, kind: LoopKind::Goto, cond: Cond::NondetBool, limit: None, body, entry, shares_head: false });
        Program { globals: Vec::new(), functions: vec![main_of(vec![0], 1, vec![the_loop, site(0, Place::Trace)])], sites: 1, terminating: false }
    }

    /// `for (;;) { do { t = mark 1; } while (nondet); if (nondet) break; }`
    /// then the trace asserted: the two loops share their head.
    fn shared_head_example() -> Program {
        let inner = Loop { id: 1, kind: LoopKind::DoWhile, cond: Cond::NondetBool, limit: None, body: vec![Stmt::Trace(1)], entry: None, shares_head: false };
        let body = vec![Stmt::Loop(inner), Stmt::If(Cond::NondetBool, vec![Stmt::Break], Vec::new())];
        let outer = Stmt::Loop(Loop { id: 0, kind: LoopKind::Forever, cond: Cond::True, limit: None, body, entry: None, shares_head: true });
        Program { globals: Vec::new(), functions: vec![main_of(vec![0], 2, vec![outer, site(0, Place::Trace)])], sites: 1, terminating: false }
    }

    fn explore(program: &Program, shape: Shape, bounds: Vec<u32>) -> native::Explorations {
        explore_with_heads(program, shape, true, bounds)
    }

    fn explore_with_heads(program: &Program, shape: Shape, entry_heads: bool, bounds: Vec<u32>) -> native::Explorations {
        let dir = std::env::temp_dir().join(format!("flow-oracle-test-{}-{:?}", std::process::id(), std::thread::current().id()));
        let found = native::explore(&[native::Job { program, shape, entry_heads, bounds }], &dir);
        let _ = std::fs::remove_dir_all(&dir);
        found.expect("the harness builds and runs").remove(0)
    }

    #[test]
    fn generation_is_deterministic() {
        let text = |seed| generate_cases(&Options { programs: 4, seed, max_bound: 4, modes: Mode::ALL.to_vec(), jobs: 1, timeout: Duration::from_secs(1), tarsier: None })
            .iter()
            .map(|c| emit::task(&c.program, &vec![0; c.program.sites], c.shape))
            .collect::<String>();
        assert_eq!(text(4), text(4));
        assert_ne!(text(4), text(5));
    }

    /// The bound counts back edges as tarsier's `--unwind N` does: the
    /// issue's violation needs one back edge, so bound 2.
    #[test]
    fn the_continue_example_fails_from_bound_two() {
        if !gcc_found() {
            return;
        }
        let found = explore(&continue_example(), Shape::default(), vec![1, 2, 0]);
        assert_eq!(found[&1].reached, [(0, 0)].into());
        assert!(found[&1].complete && found[&1].exceeded);
        assert_eq!(found[&2].reached, [(0, 0), (0, 1)].into());
        assert_eq!(found[&2].max_iterations, 1);
        assert!(!found[&0].complete, "the loop never has to end");
    }

    /// A loop of three iterations takes three back edges, so it needs
    /// bound 4; a recursion three frames deep needs bound 3.
    #[test]
    fn loops_and_recursion_are_bounded_as_tarsier_bounds_them() {
        if !gcc_found() {
            return;
        }
        let found = explore(&bound_example(), Shape::default(), vec![3, 4, 0]);
        assert!(found[&3].exceeded && found[&3].reached.is_empty(), "{:?}", found[&3]);
        assert!(!found[&4].exceeded && found[&4].reached == [(0, 3), (1, 7)].into(), "{:?}", found[&4]);
        assert_eq!((found[&0].max_iterations, found[&0].max_depth), (3, 3));
        let found = explore(&bound_example(), Shape::default(), vec![2]);
        assert!(found[&2].exceeded && found[&2].reached.is_empty());
    }

    /// A loop with two entries counts its iterations at the head chosen:
    /// with the jump-in's target as head, falling into it from the top is
    /// a back edge (bound 1 allows none); with the top as head, only the
    /// jump back to it is.
    #[test]
    fn an_irreducible_loop_is_counted_at_either_head() {
        if !gcc_found() {
            return;
        }
        let program = irreducible_example();
        let at_top = explore_with_heads(&program, Shape::default(), false, vec![1]);
        assert_eq!(at_top[&1].reached, [(0, 2), (0, 5)].into(), "t = 2 entering in the middle, 1 * 3 + 2 from the top");
        let at_entry = explore_with_heads(&program, Shape::default(), true, vec![1]);
        assert_eq!(at_entry[&1].reached, [(0, 2)].into());
        assert!(at_entry[&1].exceeded && at_top[&1].exceeded);
    }

    /// Two loops with one head are one loop: bound 2 allows one back edge
    /// of either, not one of each (t = 13 needs both).
    #[test]
    fn loops_sharing_a_head_share_their_count() {
        if !gcc_found() {
            return;
        }
        let found = explore(&shared_head_example(), Shape::default(), vec![2, 3]);
        assert_eq!(found[&2].reached, [(0, 1), (0, 4)].into());
        assert!(found[&3].reached.contains(&(0, 13)));
    }

    /// The four shapes of a program are the same program: natively, every
    /// one reaches the same values under the same bounds.
    #[test]
    fn every_shape_enumerates_alike() {
        if !gcc_found() {
            return;
        }
        let cases = generate_cases(&Options { programs: 30, seed: 11, max_bound: 4, modes: Mode::ALL.to_vec(), jobs: 1, timeout: Duration::from_secs(1), tarsier: None });
        let shapes = other_shapes(Shape { single_back_edge: false, switch_as_gotos: true });
        let mut jobs = Vec::new();
        for case in &cases {
            let job = |shape| native::Job { program: &case.program, shape, entry_heads: true, bounds: vec![1, 3, 0] };
            jobs.push(job(Shape::default()));
            jobs.extend(shapes.iter().map(|&shape| job(shape)));
        }
        let dir = std::env::temp_dir().join(format!("flow-oracle-shapes-{}", std::process::id()));
        let found = native::explore(&jobs, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        for (k, group) in found.expect("the harness builds and runs").chunks(4).enumerate() {
            for other in &group[1..] {
                assert_eq!(&group[0], other, "program {k} differs between shapes");
            }
        }
    }

    /// Every shape of the task text is C that gcc accepts.
    #[test]
    fn task_texts_compile() {
        if !gcc_found() {
            return;
        }
        let dir = std::env::temp_dir().join(format!("flow-oracle-tasks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cases = generate_cases(&Options { programs: 12, seed: 12, max_bound: 4, modes: Mode::ALL.to_vec(), jobs: 1, timeout: Duration::from_secs(1), tarsier: None });
        for (k, case) in cases.iter().enumerate() {
            for shape in other_shapes(Shape { single_back_edge: false, switch_as_gotos: true }).into_iter().chain([Shape::default()]) {
                let path = dir.join(format!("task{k}.c"));
                std::fs::write(&path, emit::task(&case.program, &vec![3; case.program.sites], shape)).unwrap();
                let out = Command::new("gcc").args(["-fsyntax-only", "-Werror=implicit-function-declaration"]).arg(&path).output().unwrap();
                assert!(out.status.success(), "{shape:?}: {}", String::from_utf8_lossy(&out.stderr));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn answers_count_only_with_the_expected_property() {
        let failed = |unwinding: bool| Answer { outcome: Outcome::Failed, class: unwinding.then(|| "unwinding-assertion".to_string()) };
        assert_eq!(score(&failed(false), &[Expected::Property]), Score::Correct);
        assert_eq!(score(&failed(true), &[Expected::Property]), Score::Wrong);
        assert_eq!(score(&failed(true), &[Expected::Unwinding]), Score::Correct);
        assert_eq!(score(&failed(false), &[Expected::Successful]), Score::Wrong);
        assert_eq!(score(&failed(false), &[Expected::Successful, Expected::Property]), Score::Correct);
        assert_eq!(score(&Answer { outcome: Outcome::Successful, class: None }, &[Expected::Unwinding]), Score::Wrong);
        assert_eq!(score(&Answer { outcome: Outcome::Timeout, class: None }, &[Expected::Successful]), Score::Timeout);
    }

    #[test]
    fn disagreements_are_classed_by_the_shape_that_avoids_them() {
        let plain = Shape::default();
        let single = Shape { single_back_edge: true, switch_as_gotos: false };
        let gotos = Shape { single_back_edge: false, switch_as_gotos: true };
        let both = Shape { single_back_edge: true, switch_as_gotos: true };
        assert_eq!(class_of(plain, &[single, both]), "loops with several back edges");
        assert_eq!(class_of(plain, &[gotos, both]), "a switch's dispatch counted as a loop");
        assert_eq!(class_of(plain, &[both]), "several back edges and switch dispatch together");
        assert_eq!(class_of(both, &[plain]), "unexplained");
        assert_eq!(class_of(single, &[]), "unexplained");
    }
}
