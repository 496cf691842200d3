//! `cargo xtask`: tarsier's project scripts.
//!
//! - `corpus`: runs the release binary on the corpus suites and scores it
//!   (verdicts, or front-end acceptance with `--parse-only`).
//! - `peer`: a saved run side by side with a peer verifier's results.
//! - `bench-frontend`: front-end throughput in MB/s of preprocessed C.
//! - `bench-verify`: verification times and formula sizes on the BMC slice.
//! - `harness-check`: the `--harness` of every FALSE on the BMC slice,
//!   compiled with gcc and run, must show the violation.
//! - `bench-kind`: per k-induction task, the deciding k, the time of each
//!   kind of check and of invariant generation, the invariants certified.
//! - `bench-term`: per termination task, how it was decided (bounded
//!   exhaustion, ranking functions and their form, lasso) and its time.
//! - `bench-threads`: formula size and time of 2 to 16 threads adding to a
//!   counter with and without a lock.
//! - `fp-oracle`: floating-point results checked against the host machine.
//! - `c-oracle`: integer and memory semantics checked against gcc.
//! - `model-oracle`: the C library models checked against the host glibc.
//! - `flow-oracle`: loops, jumps, calls and unwinding bounds checked
//!   against native enumeration of every nondeterministic choice.
//! - `thread-oracle`: programs with threads checked against a native
//!   enumeration of every schedule.
//! - `mutant-oracle`: small mutations of corpus programs, tarsier's
//!   verdicts on them judged by native runs (harness replay, random inputs).
//! - `smt-crosscheck`: every query of each task answered by CaDiCaL and by
//!   an external SMT solver, compared.
//! - `witness-check`: SV-COMP witnesses of the sv-benchmarks results,
//!   checked against the schema and validated by replay.
//! - `lint`: clippy with warnings denied, and the files' header comments.

mod fp_oracle;
mod witness_check;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Duration;
use xtask::corpus::{self, Suite, Task};
use xtask::runner::{self, RunOptions};
use xtask::oracle::{ProgramOracleOptions, Score};
use xtask::{bench, bench_kind, bench_term, bench_threads, bench_verify, harness_check, c_oracle, clock, flow_oracle, lint, thread_oracle, model_oracle, mutant_oracle, peer, report, smt_crosscheck};

const USAGE: &str = "\
usage: cargo xtask <task> [options]

tasks:
  corpus            score tarsier on the corpus suites (../shared/corpus)
      --suite LIST      esbmc (esbmc-regression, the default), cbmc
                        (cbmc-regression), 2ls (2ls-regression), sv
                        (sv-benchmarks: one task per property, run with
                        --property), comma-separated, or all; each suite is
                        scored, saved and compared with its previous run
                        apart (sv also side by side with peer-*.jsonl)
      --parse-only      score front-end acceptance instead of verdicts
      --filter SUITE    only tasks of SUITE (or whose id starts with it;
                        sv: the category, e.g. loops)
      --mode MODE       only tasks of this mode (bmc, k-induction, ...;
                        sv: the property, e.g. unreach-call-old)
      --core            only tasks the manifest describes completely
      --not-core        only the others (extra reference-tool flags, which
                        are passed on, or an error label)
      --sample N        N tasks spread evenly over the manifest
      --timeout S       per-task limit in seconds (default 10)
      --jobs N          parallel runs (default: number of CPUs)
      --binary PATH     run this tarsier instead of building the release one
  peer              the newest saved run of a suite side by side with the
                    peer results in its folder (peer-*.jsonl): per category,
                    correct and wrong for each, CPU on tasks both decided
      --suite NAME      the suite (default sv)
      --run FILE        this saved run (target/corpus/*.json) instead
  bench-frontend    front-end speed (MB/s of preprocessed C)
      --binary PATH     as above
  bench-verify      verification times and formula sizes (AIG, CNF) on the
                    BMC slice (core, bmc + incremental-bmc, no float suites),
                    compared with the previous run; takes the corpus options
                    (default --timeout 20)
  harness-check     for every FALSE of the BMC slice's expected violations
                    with an assertion, bounds, pointer, division or signed
                    overflow property: tarsier's --harness compiled with the
                    program by gcc (with the property's sanitizer) and run
                    must show the violation; prints the share, the failures
                    with their reasons, and the changes since the previous
                    run (saved under target/harness-check/); takes the
                    corpus options (default --timeout 20)
  bench-kind        k-induction tasks (core, mode k-induction, unless --filter,
                    --mode or --core choose others) per task: outcome, the k
                    that decided, seconds in base case / forward condition /
                    inductive step / invariants, invariants found and
                    certified; totals compared with the previous run (saved
                    under target/bench/kind/); takes the corpus options
                    (default --timeout 30) and
      --flag FLAG       add FLAG to every run (repeatable), e.g. --no-invariants
  bench-term        termination tasks of the --suite list (mode termination;
                    esbmc's core ones), unless --filter, --mode or --core
                    choose others: per task the outcome, how it was decided
                    (bounded exhaustion, ranking functions with each loop's
                    function and form, lasso) and the time; totals compared
                    with the previous run (saved under target/bench/term/);
                    takes the corpus options (default --timeout 30)
  bench-threads     2, 4, 8 and 16 threads adding one to a shared counter,
                    under a mutex (TRUE) and without (FALSE): per program the
                    outcome, CPU, symex and SAT seconds, AIG and CNF sizes,
                    their growth from half the threads, and the change since
                    the previous run (saved under target/bench/threads/)
                    (one program at a time: the times are compared)
      --timeout S       per-program limit in seconds (default 300)
      --binary PATH     run this tarsier instead of building the release one
      --flag FLAG       add FLAG to every run (repeatable)
  fp-oracle         floating-point results against native gcc (-frounding-math)
      --cases N         cases per op/format/mode (default 8)
      --ops LIST        add,sub,mul,div,fma,sqrt,fmod,remainder,fmin,fmax,
                        rint,nearbyint,convert,from-int,to-int,lt,le,eq
                        (default all)
      --formats LIST    float,double,ldouble (x87 long double) (default all)
      --modes LIST      rne,rup,rdn,rtz (default all)
      --seed S          generator seed (default 1)
      --timeout S       per-task limit in seconds (default 20)
      --jobs N          parallel runs (default: number of CPUs)
      --tarsier PATH    run this tarsier instead of building the release one
  c-oracle          integer/memory semantics against native gcc: random
                    UB-free programs, inputs pinned or partly symbolic
                    (and, in the stmt class, undefined behaviour gcc's
                    sanitizers judge)
      --cases N         cases per class (default 20)
      --classes LIST    expr,bitfield,bitfield-layout,union,builtin,overflow,
                        switch,layout,logic,literal,call,convert,variadic,
                        pointer,bytes,heap,string,stmt (default all; stmt: expression
                        statements with undefined behaviour, judged by
                        gcc's sanitizers)
      --seed S          generator seed (default 1)
      --timeout S       per-task limit in seconds (default 20)
      --jobs N          parallel runs (default: number of CPUs)
      --tarsier PATH    run this tarsier instead of building the release one
      --flag FLAG       add FLAG to tarsier's command line (repeatable), e.g.
                        --flag --k-induction, --flag --ub-shift-check
  flow-oracle       loops, jumps, calls and unwinding bounds against native
                    gcc: random control flow with nondeterministic choices,
                    every choice sequence enumerated natively; tarsier with
                    --unwind N (with and without unwinding assertions),
                    --incremental-bmc and --k-induction must agree
      --programs N      programs (default 200)
      --seed S          generator seed (default 1)
      --max-unwind N    largest bound a program is checked at (default 4)
      --modes LIST      bounded,unwinding,incremental,k-induction (default all)
      --timeout S       per-task limit in seconds (default 20)
      --jobs N          parallel runs (default: number of CPUs)
      --tarsier PATH    run this tarsier instead of building the release one
  thread-oracle     programs with threads against native gcc: random
                    pthread programs (shared globals, mutexes, atomic
                    sections, inputs, loops), every schedule and input
                    enumerated natively with coroutines; tarsier's default
                    engine, --deadlock-check and, with loops, --unwind N
                    (with and without unwinding assertions) must agree;
                    disagreements are kept with the violating schedule
                    under target/thread-oracle/wrong/
      --programs N      programs (default 200)
      --seed S          generator seed (default 1)
      --max-unwind N    largest bound a program is checked at (default 3)
      --modes LIST      default,bounded,unwinding,deadlock (default all)
      --timeout S       per-task limit in seconds (default 30)
      --jobs N          parallel runs (default: number of CPUs)
      --tarsier PATH    run this tarsier instead of building the release one
  model-oracle      the C library models against the host glibc: calls of
                    every modelled function on boundary and random
                    arguments, observed natively and asserted (exact
                    functions) or admitted (the environment's); prints the
                    coverage list of every modelled function
      --cases N         cases per family (default 20)
      --families LIST   strings,conversions,ctype,math,time,format,wide,
                        environment (default all)
      --seed S          generator seed (default 1)
      --timeout S       per-task limit in seconds (default 20)
      --jobs N          parallel runs (default: number of CPUs)
      --tarsier PATH    run this tarsier instead of building the release one
  mutant-oracle     corpus programs that gcc builds, each with one small
                    semantic mutation (a compared constant or relation, an
                    array size or index, an integer type, a removed
                    assumption, a loop bound), verified with unwinding
                    assertions and judged natively: a FALSE's --harness must
                    reproduce it under gcc's sanitizers, a TRUE is attacked
                    by random-input runs under ASan and UBSan; suspects are
                    kept under target/mutant-oracle/suspects/ with a README
      --mutants N       mutants (default 100)
      --suite LIST      as for corpus (default all)
      --seed S          generator seed (default 1)
      --timeout S       per-mutant limit of tarsier in seconds (default 20)
      --jobs N          parallel runs (default: number of CPUs)
      --tarsier PATH    run this tarsier instead of building the release one
  smt-crosscheck    runs tarsier --crosscheck SOLVER on the BMC slice: every
                    query answered by CaDiCaL and by the external solver;
                    prints disagreements (SMT-LIB2 files kept under
                    target/smt-crosscheck/) and the solvers' times
      --solver NAME     z3 (default), cvc5, bitwuzla or smtlib:CMD
      --filter SUITE    only tasks of SUITE (or whose id starts with it)
      --sample N        N tasks spread evenly over the slice
      --timeout S       tarsier's --timeout per task (default 40)
      --jobs N          parallel runs (default: number of CPUs)
      --binary PATH     run this tarsier instead of building the release one
  witness-check     runs every sv-benchmarks task (task definition and
                    property) writing a witness; checks each witness against
                    docs/witness-2.0.schema.json (python3 with jsonschema and
                    pyyaml), replays each violation witness with
                    --validate-witness; prints the counts next to the
                    previous run's (saved under target/witness-check/)
      --timeout S       per-task limit in seconds (default 20)
      --jobs N          parallel runs (default: number of CPUs)
      --binary PATH     run this tarsier instead of building the release one
  lint              cargo clippy --workspace --all-targets -D warnings, and a
                    header comment on every .rs file (`//!`) and C model
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("corpus") => parse_corpus_args(&args[1..], 10).and_then(|opts| corpus_command(&opts)),
        Some("bench-verify") => parse_corpus_args(&args[1..], 20).and_then(|opts| bench_verify_command(&opts)),
        Some("harness-check") => parse_corpus_args(&args[1..], 20).and_then(|opts| harness_check_command(&opts)),
        Some("bench-kind") => parse_corpus_args(&args[1..], 30).and_then(|opts| bench_kind_command(&opts)),
        Some("bench-term") => parse_corpus_args(&args[1..], 30).and_then(|opts| bench_term_command(&opts)),
        Some("bench-threads") => parse_corpus_args(&args[1..], 300).and_then(|opts| bench_threads_command(&opts)),
        Some("peer") => peer_command(&args[1..]),
        Some("bench-frontend") => binary_arg(&args[1..]).and_then(bench_command),
        Some("fp-oracle") => parse_fp_oracle_args(&args[1..]).and_then(|opts| fp_oracle_command(&opts)),
        Some("c-oracle") => parse_c_oracle_args(&args[1..]).and_then(|opts| c_oracle_command(&opts)),
        Some("model-oracle") => parse_model_oracle_args(&args[1..]).and_then(|opts| model_oracle_command(&opts)),
        Some("flow-oracle") => parse_program_oracle_args("flow-oracle", &args[1..], (4, Duration::from_secs(20)), &flow_oracle::Mode::ALL, flow_oracle::parse_modes)
            .and_then(|opts| {
                program_oracle_command(opts.tarsier.clone(), "flow-oracle", |binary, out| Ok(flow_oracle::run(&opts, binary, out)?.counts[Score::Wrong as usize]))
            }),
        Some("thread-oracle") => parse_program_oracle_args("thread-oracle", &args[1..], (3, Duration::from_secs(30)), &thread_oracle::Mode::ALL, thread_oracle::parse_modes)
            .and_then(|opts| {
                program_oracle_command(opts.tarsier.clone(), "thread-oracle", |binary, out| Ok(thread_oracle::run(&opts, binary, out)?.counts[Score::Wrong as usize]))
            }),
        Some("mutant-oracle") => parse_mutant_oracle_args(&args[1..]).and_then(|opts| mutant_oracle_command(&opts)),
        Some("smt-crosscheck") => smt_crosscheck_command(&args[1..]),
        Some("witness-check") => parse_corpus_args(&args[1..], 20).and_then(|opts| {
            let binary = tarsier_binary(opts.binary.clone())?;
            witness_check::run(&binary, opts.timeout, opts.jobs, &clock::utc_timestamp())
        }),
        Some("lint") if args.len() > 1 => Err(format!("lint takes no options\n{USAGE}")),
        Some("lint") => lint::run(&corpus::workspace_root()),
        Some("-h" | "--help") => {
            print!("{USAGE}");
            Ok(())
        }
        _ => Err(format!("unknown or missing task\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: error: {message}");
            ExitCode::FAILURE
        }
    }
}

struct CorpusOptions {
    suites: Vec<Suite>,
    parse_only: bool,
    filter: Option<String>,
    mode: Option<String>,
    core: bool,
    /// Only tasks the manifest does not describe completely.
    not_core: bool,
    sample: Option<usize>,
    timeout: Duration,
    jobs: usize,
    binary: Option<PathBuf>,
    /// Flags added to every verification run (`bench-kind --flag`).
    extra_args: Vec<String>,
}

fn parse_corpus_args(args: &[String], default_timeout: u64) -> Result<CorpusOptions, String> {
    let mut opts = CorpusOptions {
        suites: vec![Suite::Esbmc],
        parse_only: false,
        filter: None,
        mode: None,
        core: false,
        not_core: false,
        sample: None,
        timeout: Duration::from_secs(default_timeout),
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        binary: None,
        extra_args: Vec::new(),
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = || rest.next().cloned().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--suite" => opts.suites = Suite::parse_list(&value()?)?,
            "--parse-only" => opts.parse_only = true,
            "--core" => opts.core = true,
            "--not-core" => opts.not_core = true,
            "--filter" => opts.filter = Some(value()?),
            "--mode" => opts.mode = Some(value()?),
            "--sample" => opts.sample = Some(number(arg, &value()?)?),
            "--timeout" => opts.timeout = Duration::from_secs_f64(number::<f64>(arg, &value()?)?),
            "--jobs" => opts.jobs = number(arg, &value()?)?,
            "--binary" => opts.binary = Some(PathBuf::from(value()?)),
            "--flag" => opts.extra_args.push(value()?),
            other => return Err(format!("unknown corpus option '{other}'\n{USAGE}")),
        }
    }
    Ok(opts)
}

fn binary_arg(args: &[String]) -> Result<Option<PathBuf>, String> {
    match args {
        [] => Ok(None),
        [flag, path] if flag == "--binary" => Ok(Some(PathBuf::from(path))),
        _ => Err(format!("unexpected arguments {args:?}\n{USAGE}")),
    }
}

fn number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, String> {
    value.parse().map_err(|_| format!("{flag} needs a number, not '{value}'"))
}

/// Builds the release binary (unless one is given) and returns its path.
fn tarsier_binary(given: Option<PathBuf>) -> Result<PathBuf, String> {
    if let Some(path) = given {
        return Ok(path);
    }
    let root = corpus::workspace_root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "--package", "tarsier"])
        .current_dir(&root)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("building the release tarsier binary failed".into());
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or(root.join("target"), PathBuf::from);
    Ok(target.join("release/tarsier"))
}

fn selected_tasks(tasks: Vec<Task>, opts: &CorpusOptions) -> Vec<Task> {
    let chosen: Vec<Task> = tasks
        .into_iter()
        .filter(|t| opts.filter.as_ref().is_none_or(|f| &t.suite == f || t.id.starts_with(f.as_str())))
        .filter(|t| opts.mode.as_ref().is_none_or(|m| &t.mode == m))
        .filter(|t| !opts.core || t.is_core())
        .filter(|t| !opts.not_core || !t.is_core())
        .collect();
    match opts.sample {
        Some(n) => corpus::sample(&chosen, n),
        None => chosen,
    }
}

/// Runs every selected suite in turn; a suite with no selected task is
/// skipped when several are run.
fn corpus_command(opts: &CorpusOptions) -> Result<(), String> {
    let binary = tarsier_binary(opts.binary.clone())?;
    let mut ran = 0;
    for &suite in &opts.suites {
        match run_suite(suite, opts, &binary, |_| true) {
            Ok((_, _, json)) => {
                ran += 1;
                if !opts.parse_only {
                    print_peer_comparisons(suite, &json)?;
                }
            }
            Err(err) if opts.suites.len() > 1 && err == NO_TASK => eprintln!("{}: {err}", suite.folder()),
            Err(err) => return Err(err),
        }
    }
    if ran == 0 {
        return Err(NO_TASK.into());
    }
    Ok(())
}

const NO_TASK: &str = "no task matches the filters";

fn suite_dir(suite: Suite) -> Result<PathBuf, String> {
    suite.locate().ok_or(format!("{} not found: expected ../shared/corpus beside the workspace, or set TARSIER_CORPUS", suite.folder()))
}

/// Runs the selected tasks of `suite` that `keep` accepts, prints the score
/// and the changes since the suite's previous run, and saves the results.
fn run_suite(
    suite: Suite,
    opts: &CorpusOptions,
    binary: &Path,
    keep: impl Fn(&Task) -> bool,
) -> Result<(String, Vec<runner::TaskResult>, serde_json::Value), String> {
    let dir = suite_dir(suite)?;
    let tasks: Vec<Task> = selected_tasks(suite.load(&dir)?, opts).into_iter().filter(keep).collect();
    if tasks.is_empty() {
        return Err(NO_TASK.into());
    }
    let run_opts = RunOptions {
        binary: binary.to_path_buf(),
        parse_only: opts.parse_only,
        timeout: opts.timeout,
        jobs: opts.jobs,
        extra_args: opts.extra_args.clone(),
    };
    eprintln!("running {} tasks from {} with {} jobs", tasks.len(), dir.display(), run_opts.jobs);
    let total = tasks.len();
    let results = runner::run_tasks(&dir, &tasks, &run_opts, |done| {
        if done % 100 == 0 || done == total {
            eprintln!("  {done}/{total}");
        }
    });
    println!("\n== {} ==", suite.folder());
    print!("{}", report::render(&results, opts.parse_only));
    let timestamp = clock::utc_timestamp();
    let json = report::to_json(suite, &results, opts.parse_only, &timestamp);
    let out_dir = corpus::workspace_root().join("target/corpus");
    if let Some((path, before)) = report::previous_run(&out_dir, suite, opts.parse_only) {
        println!("\ncompared with {}:", path.display());
        print!("{}", report::render_delta(&json, &before, opts.parse_only));
    }
    // Suites run in one command share the timestamp's second.
    let saved = save_json(&out_dir, &format!("{timestamp}-{}", suite.name()), &json)?;
    println!("\nresults saved to {}", saved.display());
    Ok((timestamp, results, json))
}

/// Prints a run side by side with every peer result file of its suite.
fn print_peer_comparisons(suite: Suite, run: &serde_json::Value) -> Result<(), String> {
    for (name, path) in peer::peer_files(&suite_dir(suite)?) {
        print!("{}", peer::render(&name, run, &peer::load(&path)?));
    }
    Ok(())
}

fn peer_command(args: &[String]) -> Result<(), String> {
    let mut suite = Suite::Sv;
    let mut run_file = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = || rest.next().cloned().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--suite" => {
                suite = match Suite::parse_list(&value()?)?.as_slice() {
                    [one] => *one,
                    _ => return Err("peer compares one suite at a time".into()),
                }
            }
            "--run" => run_file = Some(PathBuf::from(value()?)),
            other => return Err(format!("unknown peer option '{other}'\n{USAGE}")),
        }
    }
    let (path, run) = match run_file {
        Some(path) => {
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let run = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            (path, run)
        }
        None => report::previous_run(&corpus::workspace_root().join("target/corpus"), suite, false)
            .ok_or(format!("no saved run of {}: run cargo xtask corpus --suite {} first", suite.folder(), suite.name()))?,
    };
    println!("run: {}", path.display());
    print_peer_comparisons(suite, &run)
}

fn bench_verify_command(opts: &CorpusOptions) -> Result<(), String> {
    if opts.parse_only {
        return Err("bench-verify measures verification; --parse-only does not apply".into());
    }
    if opts.suites != [Suite::Esbmc] {
        return Err("bench-verify measures esbmc-regression's BMC slice; --suite does not apply".into());
    }
    let binary = tarsier_binary(opts.binary.clone())?;
    let (timestamp, results, _) = run_suite(Suite::Esbmc, opts, &binary, Task::in_bmc_slice)?;
    let summary = bench_verify::summarise(&results, &timestamp);
    let out_dir = corpus::workspace_root().join("target/bench/verify");
    let previous = report::newest_saved(&out_dir, |_| true);
    println!("\nverification benchmark ({} tasks):", results.len());
    if let Some((path, _)) = &previous {
        println!("(previous figures: {})", path.display());
    }
    print!("{}", bench_verify::render(&summary, previous.as_ref().map(|(_, v)| v)));
    let saved = save_json(&out_dir, &timestamp, &summary)?;
    println!("figures saved to {}", saved.display());
    Ok(())
}

fn harness_check_command(opts: &CorpusOptions) -> Result<(), String> {
    if opts.parse_only || opts.suites != [Suite::Esbmc] {
        return Err("harness-check runs esbmc-regression's BMC slice; --parse-only and --suite do not apply".into());
    }
    let binary = tarsier_binary(opts.binary.clone())?;
    let dir = suite_dir(Suite::Esbmc)?;
    let tasks: Vec<Task> = selected_tasks(Suite::Esbmc.load(&dir)?, opts).into_iter().filter(harness_check::in_scope).collect();
    if tasks.is_empty() {
        return Err(NO_TASK.into());
    }
    let root = corpus::workspace_root();
    let out_dir = harness_check::out_dir(&root);
    let scratch = out_dir.join("scratch");
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    eprintln!("checking the harnesses of {} tasks with {} jobs", tasks.len(), opts.jobs);
    let total = tasks.len();
    let checked = runner::parallel_map(&tasks, opts.jobs, |task| harness_check::check_task(&binary, &dir, task, opts.timeout, &scratch), |done| {
        if done % 50 == 0 || done == total {
            eprintln!("  {done}/{total}");
        }
    });
    let timestamp = clock::utc_timestamp();
    let summary = harness_check::summarise(&checked, &timestamp);
    let previous = report::newest_saved(&out_dir, |_| true);
    print!("{}", harness_check::render(&summary, previous.as_ref().map(|(_, v)| v)));
    let saved = save_json(&out_dir, &timestamp, &summary)?;
    println!("figures saved to {}", saved.display());
    Ok(())
}

fn bench_kind_command(opts: &CorpusOptions) -> Result<(), String> {
    if opts.parse_only {
        return Err("bench-kind measures verification; --parse-only does not apply".into());
    }
    let chosen = opts.filter.is_some() || opts.mode.is_some() || opts.core || opts.not_core;
    if opts.suites != [Suite::Esbmc] {
        return Err("bench-kind measures esbmc-regression's k-induction tasks; --suite does not apply".into());
    }
    let binary = tarsier_binary(opts.binary.clone())?;
    let (timestamp, results, _) = run_suite(Suite::Esbmc, opts, &binary, |t| chosen || (t.mode == "k-induction" && t.is_core()))?;
    let summary = bench_kind::summarise(&results, &timestamp);
    let flags = opts.extra_args.join(" ");
    let out_dir = corpus::workspace_root().join("target/bench/kind");
    // Runs with other flags (`--no-invariants`) are compared with their like.
    let previous = report::newest_saved(&out_dir, |v| v["flags"].as_str().unwrap_or("") == flags);
    println!("
k-induction benchmark ({} tasks{}):", results.len(), if flags.is_empty() { String::new() } else { format!(", flags {flags}") });
    if let Some((path, _)) = &previous {
        println!("(previous figures: {})", path.display());
    }
    print!("{}", bench_kind::render(&summary, previous.as_ref().map(|(_, v)| v)));
    let mut saved_summary = summary;
    saved_summary["flags"] = serde_json::Value::String(flags);
    let saved = save_json(&out_dir, &timestamp, &saved_summary)?;
    println!("figures saved to {}", saved.display());
    Ok(())
}

fn bench_term_command(opts: &CorpusOptions) -> Result<(), String> {
    if opts.parse_only {
        return Err("bench-term measures verification; --parse-only does not apply".into());
    }
    let chosen = opts.filter.is_some() || opts.mode.is_some() || opts.core || opts.not_core;
    let binary = tarsier_binary(opts.binary.clone())?;
    let mut results = Vec::new();
    let mut timestamp = String::new();
    for &suite in &opts.suites {
        let keep = |t: &Task| chosen || (t.mode == "termination" && (suite != Suite::Esbmc || t.is_core()));
        match run_suite(suite, opts, &binary, keep) {
            Ok((stamp, mut ran, _)) => {
                timestamp = stamp;
                results.append(&mut ran);
            }
            Err(e) if e == NO_TASK && opts.suites.len() > 1 => continue,
            Err(e) => return Err(e),
        }
    }
    let summary = bench_term::summarise(&results, &timestamp);
    let out_dir = corpus::workspace_root().join("target/bench/term");
    let suites: Vec<&str> = opts.suites.iter().map(|s| s.folder()).collect();
    let suites = suites.join(",");
    // Runs over other suites are compared with their like.
    let previous = report::newest_saved(&out_dir, |v| v["suites"].as_str().unwrap_or("") == suites);
    println!("\ntermination benchmark ({} tasks, {suites}):", results.len());
    if let Some((path, _)) = &previous {
        println!("(previous figures: {})", path.display());
    }
    print!("{}", bench_term::render(&summary, previous.as_ref().map(|(_, v)| v)));
    let mut saved_summary = summary;
    saved_summary["suites"] = serde_json::Value::String(suites);
    let saved = save_json(&out_dir, &timestamp, &saved_summary)?;
    println!("figures saved to {}", saved.display());
    Ok(())
}

fn bench_threads_command(opts: &CorpusOptions) -> Result<(), String> {
    if opts.parse_only || opts.filter.is_some() || opts.mode.is_some() || opts.core || opts.not_core || opts.sample.is_some() || opts.suites != [Suite::Esbmc] {
        return Err("bench-threads runs its own programs: it takes --timeout, --binary and --flag".into());
    }
    let binary = tarsier_binary(opts.binary.clone())?;
    let root = corpus::workspace_root();
    let out_dir = root.join("target/bench/threads");
    let scratch = out_dir.join("programs");
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    // One run at a time: the times are what is compared.
    let measured = bench_threads::cases()
        .into_iter()
        .map(|case| bench_threads::measure(&binary, case, &scratch, opts.timeout, &opts.extra_args))
        .collect::<Result<Vec<_>, _>>()?;
    let timestamp = clock::utc_timestamp();
    let summary = bench_threads::summarise(&measured, &timestamp);
    let flags = opts.extra_args.join(" ");
    let previous = report::newest_saved(&out_dir, |v| v["flags"].as_str().unwrap_or("") == flags);
    println!("threads benchmark{}:", if flags.is_empty() { String::new() } else { format!(" (flags {flags})") });
    if let Some((path, _)) = &previous {
        println!("(previous figures: {})", path.display());
    }
    print!("{}", bench_threads::render(&summary, previous.as_ref().map(|(_, v)| v)));
    let mut saved_summary = summary;
    saved_summary["flags"] = serde_json::Value::String(flags);
    let saved = save_json(&out_dir, &timestamp, &saved_summary)?;
    println!("figures saved to {}", saved.display());
    Ok(())
}

fn save_json(dir: &Path, timestamp: &str, value: &serde_json::Value) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("{timestamp}.json"));
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

fn bench_command(binary: Option<PathBuf>) -> Result<(), String> {
    let binary = tarsier_binary(binary)?;
    let root = corpus::workspace_root();
    let scratch = root.join("target/bench/preprocessed");
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let mut figures = Vec::new();
    for input in bench::inputs(&root) {
        match bench::measure(&binary, &input, &scratch) {
            Ok(figure) => figures.push(figure),
            Err(err) => eprintln!("{}: skipped: {err}", input.name),
        }
    }
    let out_dir = root.join("target/bench");
    let previous = report::newest_saved(&out_dir, |_| true).map(|(_, figures)| figures);
    print!("{}", bench::render(&figures, previous.as_ref()));
    let timestamp = clock::utc_timestamp();
    let saved = save_json(&out_dir, &timestamp, &bench::to_json(&figures, &timestamp))?;
    println!("figures saved to {}", saved.display());
    Ok(())
}

fn parse_fp_oracle_args(args: &[String]) -> Result<fp_oracle::Options, String> {
    let mut opts = fp_oracle::Options {
        cases: 8,
        ops: fp_oracle::Op::ALL.to_vec(),
        formats: fp_oracle::Format::ALL.to_vec(),
        modes: fp_oracle::Mode::ALL.to_vec(),
        seed: 1,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        timeout: Duration::from_secs(20),
        tarsier: None,
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = || rest.next().cloned().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--cases" => opts.cases = number(arg, &value()?)?,
            "--ops" => opts.ops = fp_oracle::parse_ops(&value()?)?,
            "--formats" => opts.formats = fp_oracle::parse_formats(&value()?)?,
            "--modes" => opts.modes = fp_oracle::parse_modes(&value()?)?,
            "--seed" => opts.seed = number(arg, &value()?)?,
            "--timeout" => opts.timeout = Duration::from_secs_f64(number::<f64>(arg, &value()?)?),
            "--jobs" => opts.jobs = number(arg, &value()?)?,
            "--tarsier" => opts.tarsier = Some(PathBuf::from(value()?)),
            other => return Err(format!("unknown fp-oracle option '{other}'\n{USAGE}")),
        }
    }
    Ok(opts)
}

fn fp_oracle_command(opts: &fp_oracle::Options) -> Result<(), String> {
    let binary = tarsier_binary(opts.tarsier.clone())?;
    let out_dir = corpus::workspace_root().join("target/fp-oracle");
    if fp_oracle::run(opts, &binary, &out_dir)? {
        Ok(())
    } else {
        Err("tarsier gave wrong answers (listed above)".into())
    }
}

/// The options every oracle takes, as places in its own options.
struct OracleRun<'a> {
    seed: &'a mut u64,
    jobs: &'a mut usize,
    timeout: &'a mut Duration,
    tarsier: &'a mut Option<PathBuf>,
}

/// A value-fetching closure of an option parser.
type OptionValue<'v> = dyn FnMut() -> Result<String, String> + 'v;

/// Reads the options of oracle `task`: `--seed`, `--jobs`, `--timeout` and
/// `--tarsier` into `run`, any other by `own`, which says whether it knows
/// the option (taking its value from the closure it is given).
fn parse_oracle_options(
    task: &str,
    args: &[String],
    run: OracleRun,
    own: &mut dyn FnMut(&str, &mut OptionValue) -> Result<bool, String>,
) -> Result<(), String> {
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = || rest.next().cloned().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--seed" => *run.seed = number(arg, &value()?)?,
            "--timeout" => *run.timeout = Duration::from_secs_f64(number::<f64>(arg, &value()?)?),
            "--jobs" => *run.jobs = number(arg, &value()?)?,
            "--tarsier" => *run.tarsier = Some(PathBuf::from(value()?)),
            other => {
                if !own(other, &mut value)? {
                    return Err(format!("unknown {task} option '{other}'\n{USAGE}"));
                }
            }
        }
    }
    Ok(())
}

fn parse_c_oracle_args(args: &[String]) -> Result<c_oracle::Options, String> {
    let mut opts = c_oracle::Options {
        cases: 20,
        classes: c_oracle::Class::ALL.to_vec(),
        seed: 1,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        timeout: Duration::from_secs(20),
        tarsier: None,
        flags: Vec::new(),
    };
    let run = OracleRun { seed: &mut opts.seed, jobs: &mut opts.jobs, timeout: &mut opts.timeout, tarsier: &mut opts.tarsier };
    parse_oracle_options("c-oracle", args, run, &mut |arg, value| {
        match arg {
            "--cases" => opts.cases = number(arg, &value()?)?,
            "--classes" => opts.classes = c_oracle::parse_classes(&value()?)?,
            "--flag" => opts.flags.push(value()?),
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(opts)
}

fn c_oracle_command(opts: &c_oracle::Options) -> Result<(), String> {
    let binary = tarsier_binary(opts.tarsier.clone())?;
    let out_dir = corpus::workspace_root().join("target/c-oracle");
    if c_oracle::run(opts, &binary, &out_dir)?[Score::Wrong as usize] == 0 {
        Ok(())
    } else {
        Err("tarsier gave wrong answers (listed above)".into())
    }
}

/// The options of a program oracle (`name`): its defaults `max_bound`
/// and `timeout`, every mode in `all`, and `--programs`, `--max-unwind`,
/// `--modes` (read by `parse_modes`) beside the common ones.
fn parse_program_oracle_args<M: Copy>(
    name: &str,
    args: &[String],
    (max_bound, timeout): (u32, Duration),
    all: &[M],
    parse_modes: fn(&str) -> Result<Vec<M>, String>,
) -> Result<ProgramOracleOptions<M>, String> {
    let mut opts = ProgramOracleOptions {
        programs: 200,
        seed: 1,
        max_bound,
        modes: all.to_vec(),
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        timeout,
        tarsier: None,
    };
    let run = OracleRun { seed: &mut opts.seed, jobs: &mut opts.jobs, timeout: &mut opts.timeout, tarsier: &mut opts.tarsier };
    parse_oracle_options(name, args, run, &mut |arg, value| {
        match arg {
            "--programs" => opts.programs = number(arg, &value()?)?,
            "--max-unwind" => opts.max_bound = number(arg, &value()?)?,
            "--modes" => opts.modes = parse_modes(&value()?)?,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    if opts.max_bound == 0 {
        return Err("--max-unwind must be at least 1".into());
    }
    Ok(opts)
}

/// Runs a program oracle with `--tarsier` (or the built binary), writing
/// under target/`folder`; `run` gives the count of wrong answers.
fn program_oracle_command(tarsier: Option<PathBuf>, folder: &str, run: impl FnOnce(&Path, &Path) -> Result<usize, String>) -> Result<(), String> {
    let binary = tarsier_binary(tarsier)?;
    let out_dir = corpus::workspace_root().join("target").join(folder);
    if run(&binary, &out_dir)? == 0 {
        Ok(())
    } else {
        Err("tarsier disagreed with native execution (listed above)".into())
    }
}

fn parse_model_oracle_args(args: &[String]) -> Result<model_oracle::Options, String> {
    let mut opts = model_oracle::Options {
        cases: 20,
        families: model_oracle::Family::ALL.to_vec(),
        seed: 1,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        timeout: Duration::from_secs(20),
        tarsier: None,
    };
    let run = OracleRun { seed: &mut opts.seed, jobs: &mut opts.jobs, timeout: &mut opts.timeout, tarsier: &mut opts.tarsier };
    parse_oracle_options("model-oracle", args, run, &mut |arg, value| {
        match arg {
            "--cases" => opts.cases = number(arg, &value()?)?,
            "--families" => opts.families = model_oracle::parse_families(&value()?)?,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(opts)
}

fn model_oracle_command(opts: &model_oracle::Options) -> Result<(), String> {
    let binary = tarsier_binary(opts.tarsier.clone())?;
    let out_dir = corpus::workspace_root().join("target/model-oracle");
    let findings = model_oracle::run(opts, &binary, &out_dir)?;
    print!("\ncoverage (functions, and this run's tasks that call them):\n{}", model_oracle::coverage::render(&findings.per_function));
    if findings.counts[Score::Wrong as usize] == 0 {
        Ok(())
    } else {
        Err("tarsier gave wrong answers (listed above)".into())
    }
}

fn parse_mutant_oracle_args(args: &[String]) -> Result<mutant_oracle::Options, String> {
    let mut opts = mutant_oracle::Options {
        mutants: 100,
        seed: 1,
        suites: Suite::ALL.to_vec(),
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        timeout: Duration::from_secs(20),
        tarsier: None,
    };
    let run = OracleRun { seed: &mut opts.seed, jobs: &mut opts.jobs, timeout: &mut opts.timeout, tarsier: &mut opts.tarsier };
    parse_oracle_options("mutant-oracle", args, run, &mut |arg, value| {
        match arg {
            "--mutants" => opts.mutants = number(arg, &value()?)?,
            "--suite" => opts.suites = Suite::parse_list(&value()?)?,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(opts)
}

fn mutant_oracle_command(opts: &mutant_oracle::Options) -> Result<(), String> {
    let binary = tarsier_binary(opts.tarsier.clone())?;
    let out_dir = corpus::workspace_root().join("target/mutant-oracle");
    let judgements = mutant_oracle::run(opts, &binary, &out_dir)?;
    print!("{}", mutant_oracle::render(&judgements));
    match judgements.iter().any(|j| j.judged.is_suspect()) {
        true => Err("suspects to triage (listed above)".into()),
        false => Ok(()),
    }
}

fn smt_crosscheck_command(args: &[String]) -> Result<(), String> {
    let mut solver = "z3".to_string();
    let mut corpus_args = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--solver" => solver = rest.next().cloned().ok_or("--solver needs a value")?,
            "--filter" | "--sample" | "--timeout" | "--jobs" | "--binary" => {
                corpus_args.push(arg.clone());
                corpus_args.push(rest.next().cloned().ok_or(format!("{arg} needs a value"))?);
            }
            other => return Err(format!("unknown smt-crosscheck option '{other}'\n{USAGE}")),
        }
    }
    let opts = parse_corpus_args(&corpus_args, 40)?;
    let dir = suite_dir(Suite::Esbmc)?;
    let tasks: Vec<Task> = selected_tasks(Suite::Esbmc.load(&dir)?, &opts).into_iter().filter(Task::in_bmc_slice).collect();
    if tasks.is_empty() {
        return Err("no task matches the filters".into());
    }
    let binary = tarsier_binary(opts.binary.clone())?;
    let timestamp = clock::utc_timestamp();
    let out_dir = corpus::workspace_root().join("target/smt-crosscheck");
    let queries_dir = out_dir.join(&timestamp);
    eprintln!("cross-checking {} tasks with {solver}, {} jobs", tasks.len(), opts.jobs);
    let check_opts = smt_crosscheck::Options { solver: solver.clone(), timeout: opts.timeout, jobs: opts.jobs };
    let checks = smt_crosscheck::run(&dir, &tasks, &binary, &check_opts, &queries_dir);
    print!("{}", smt_crosscheck::render(&checks, &solver));
    let saved = save_json(&out_dir, &timestamp, &smt_crosscheck::summarise(&checks))?;
    println!("figures saved to {}", saved.display());
    match checks.iter().any(|c| !c.disagreements.is_empty()) {
        true => Err(format!("the solvers disagree (queries under {})", queries_dir.display())),
        false => Ok(()),
    }
}
