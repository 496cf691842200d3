//! `cargo xtask`: tarsier's project scripts.
//!
//! - `corpus`: runs the release binary on the regression corpus and scores
//!   it (verdicts, or front-end acceptance with `--parse-only`).
//! - `bench-frontend`: front-end throughput in MB/s of preprocessed C.
//! - `bench-verify`: verification times and formula sizes on the BMC slice.
//! - `fp-oracle`: floating-point results checked against the host machine.
//! - `c-oracle`: integer and memory semantics checked against gcc.
//! - `model-oracle`: the C library models checked against the host glibc.
//! - `flow-oracle`: loops, jumps, calls and unwinding bounds checked
//!   against native enumeration of every nondeterministic choice.
//! - `smt-crosscheck`: every query of each task answered by CaDiCaL and by
//!   an external SMT solver, compared.
//! - `lint`: clippy with warnings denied, and the files' header comments.

mod fp_oracle;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Duration;
use xtask::corpus::{self, Task};
use xtask::runner::{self, RunOptions};
use xtask::oracle::Score;
use xtask::{bench, bench_verify, c_oracle, clock, flow_oracle, lint, model_oracle, report, smt_crosscheck};

const USAGE: &str = "\
usage: cargo xtask <task> [options]

tasks:
  corpus            score tarsier on the regression corpus
      --parse-only      score front-end acceptance instead of verdicts
      --filter SUITE    only tasks of SUITE (or whose id starts with it)
      --mode MODE       only tasks of this mode (bmc, k-induction, ...)
      --core            only tasks the manifest describes completely
      --sample N        N tasks spread evenly over the manifest
      --timeout S       per-task limit in seconds (default 10)
      --jobs N          parallel runs (default: number of CPUs)
      --binary PATH     run this tarsier instead of building the release one
  bench-frontend    front-end speed (MB/s of preprocessed C)
      --binary PATH     as above
  bench-verify      verification times and formula sizes (AIG, CNF) on the
                    BMC slice (core, bmc + incremental-bmc, no float suites),
                    compared with the previous run; takes the corpus options
                    (default --timeout 20)
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
      --cases N         cases per class (default 20)
      --classes LIST    expr,bitfield,bitfield-layout,union,builtin,overflow,
                        switch,layout,logic,literal,call,pointer,bytes,
                        heap,string (default all)
      --seed S          generator seed (default 1)
      --timeout S       per-task limit in seconds (default 20)
      --jobs N          parallel runs (default: number of CPUs)
      --tarsier PATH    run this tarsier instead of building the release one
      --flag FLAG       add FLAG to tarsier's command line (repeatable), e.g.
                        --flag --k-induction, --flag --ub-shift-check
  flow-oracle       loops, jumps, calls and unwinding bounds against native
                    gcc: random control flow with nondeterministic choices,
                    every choice sequence enumerated natively; tarsier with
                    --unwind N (with and without unwinding assertions) and
                    --incremental-bmc must agree
      --programs N      programs (default 200)
      --seed S          generator seed (default 1)
      --max-unwind N    largest bound a program is checked at (default 4)
      --timeout S       per-task limit in seconds (default 20)
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
  lint              cargo clippy --workspace --all-targets -D warnings, and a
                    header comment on every .rs file (`//!`) and C model
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("corpus") => parse_corpus_args(&args[1..], 10).and_then(|opts| corpus_command(&opts)),
        Some("bench-verify") => parse_corpus_args(&args[1..], 20).and_then(|opts| bench_verify_command(&opts)),
        Some("bench-frontend") => binary_arg(&args[1..]).and_then(bench_command),
        Some("fp-oracle") => parse_fp_oracle_args(&args[1..]).and_then(|opts| fp_oracle_command(&opts)),
        Some("c-oracle") => parse_c_oracle_args(&args[1..]).and_then(|opts| c_oracle_command(&opts)),
        Some("model-oracle") => parse_model_oracle_args(&args[1..]).and_then(|opts| model_oracle_command(&opts)),
        Some("flow-oracle") => parse_flow_oracle_args(&args[1..]).and_then(|opts| flow_oracle_command(&opts)),
        Some("smt-crosscheck") => smt_crosscheck_command(&args[1..]),
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
    parse_only: bool,
    filter: Option<String>,
    mode: Option<String>,
    core: bool,
    sample: Option<usize>,
    timeout: Duration,
    jobs: usize,
    binary: Option<PathBuf>,
}

fn parse_corpus_args(args: &[String], default_timeout: u64) -> Result<CorpusOptions, String> {
    let mut opts = CorpusOptions {
        parse_only: false,
        filter: None,
        mode: None,
        core: false,
        sample: None,
        timeout: Duration::from_secs(default_timeout),
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        binary: None,
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = || rest.next().cloned().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--parse-only" => opts.parse_only = true,
            "--core" => opts.core = true,
            "--filter" => opts.filter = Some(value()?),
            "--mode" => opts.mode = Some(value()?),
            "--sample" => opts.sample = Some(number(arg, &value()?)?),
            "--timeout" => opts.timeout = Duration::from_secs_f64(number::<f64>(arg, &value()?)?),
            "--jobs" => opts.jobs = number(arg, &value()?)?,
            "--binary" => opts.binary = Some(PathBuf::from(value()?)),
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
        .collect();
    match opts.sample {
        Some(n) => corpus::sample(&chosen, n),
        None => chosen,
    }
}

fn corpus_command(opts: &CorpusOptions) -> Result<(), String> {
    run_corpus(opts, |_| true).map(|_| ())
}

/// Runs the selected tasks that `keep` accepts, prints the score and the
/// changes since the previous run, and saves the results.
fn run_corpus(opts: &CorpusOptions, keep: impl Fn(&Task) -> bool) -> Result<(String, Vec<runner::TaskResult>), String> {
    let dir = corpus::locate().ok_or("corpus not found: expected ../shared/corpus beside the workspace, or set TARSIER_CORPUS")?;
    let tasks: Vec<Task> = selected_tasks(corpus::load_manifest(&dir)?, opts).into_iter().filter(keep).collect();
    if tasks.is_empty() {
        return Err("no task matches the filters".into());
    }
    let binary = tarsier_binary(opts.binary.clone())?;
    let run_opts = RunOptions { binary, parse_only: opts.parse_only, timeout: opts.timeout, jobs: opts.jobs };
    eprintln!("running {} tasks from {} with {} jobs", tasks.len(), dir.display(), run_opts.jobs);
    let total = tasks.len();
    let results = runner::run_tasks(&dir, &tasks, &run_opts, |done| {
        if done % 100 == 0 || done == total {
            eprintln!("  {done}/{total}");
        }
    });
    print!("{}", report::render(&results, opts.parse_only));
    let timestamp = clock::utc_timestamp();
    let json = report::to_json(&results, opts.parse_only, &timestamp);
    let out_dir = corpus::workspace_root().join("target/corpus");
    if let Some((path, before)) = report::previous_run(&out_dir, opts.parse_only) {
        println!("\ncompared with {}:", path.display());
        print!("{}", report::render_delta(&json, &before, opts.parse_only));
    }
    let saved = save_json(&out_dir, &timestamp, &json)?;
    println!("\nresults saved to {}", saved.display());
    Ok((timestamp, results))
}

fn bench_verify_command(opts: &CorpusOptions) -> Result<(), String> {
    if opts.parse_only {
        return Err("bench-verify measures verification; --parse-only does not apply".into());
    }
    let (timestamp, results) = run_corpus(opts, Task::in_bmc_slice)?;
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
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = || rest.next().cloned().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--cases" => opts.cases = number(arg, &value()?)?,
            "--classes" => opts.classes = c_oracle::parse_classes(&value()?)?,
            "--seed" => opts.seed = number(arg, &value()?)?,
            "--timeout" => opts.timeout = Duration::from_secs_f64(number::<f64>(arg, &value()?)?),
            "--jobs" => opts.jobs = number(arg, &value()?)?,
            "--tarsier" => opts.tarsier = Some(PathBuf::from(value()?)),
            "--flag" => opts.flags.push(value()?),
            other => return Err(format!("unknown c-oracle option '{other}'\n{USAGE}")),
        }
    }
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

fn parse_flow_oracle_args(args: &[String]) -> Result<flow_oracle::Options, String> {
    let mut opts = flow_oracle::Options {
        programs: 200,
        seed: 1,
        max_bound: 4,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        timeout: Duration::from_secs(20),
        tarsier: None,
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = || rest.next().cloned().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--programs" => opts.programs = number(arg, &value()?)?,
            "--seed" => opts.seed = number(arg, &value()?)?,
            "--max-unwind" => opts.max_bound = number(arg, &value()?)?,
            "--timeout" => opts.timeout = Duration::from_secs_f64(number::<f64>(arg, &value()?)?),
            "--jobs" => opts.jobs = number(arg, &value()?)?,
            "--tarsier" => opts.tarsier = Some(PathBuf::from(value()?)),
            other => return Err(format!("unknown flow-oracle option '{other}'\n{USAGE}")),
        }
    }
    if opts.max_bound == 0 {
        return Err("--max-unwind must be at least 1".into());
    }
    Ok(opts)
}

fn flow_oracle_command(opts: &flow_oracle::Options) -> Result<(), String> {
    let binary = tarsier_binary(opts.tarsier.clone())?;
    let out_dir = corpus::workspace_root().join("target/flow-oracle");
    if flow_oracle::run(opts, &binary, &out_dir)?.counts[Score::Wrong as usize] == 0 {
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
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = || rest.next().cloned().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--cases" => opts.cases = number(arg, &value()?)?,
            "--families" => opts.families = model_oracle::parse_families(&value()?)?,
            "--seed" => opts.seed = number(arg, &value()?)?,
            "--timeout" => opts.timeout = Duration::from_secs_f64(number::<f64>(arg, &value()?)?),
            "--jobs" => opts.jobs = number(arg, &value()?)?,
            "--tarsier" => opts.tarsier = Some(PathBuf::from(value()?)),
            other => return Err(format!("unknown model-oracle option '{other}'\n{USAGE}")),
        }
    }
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
    let dir = corpus::locate().ok_or("corpus not found: expected ../shared/corpus beside the workspace, or set TARSIER_CORPUS")?;
    let tasks: Vec<Task> = selected_tasks(corpus::load_manifest(&dir)?, &opts).into_iter().filter(Task::in_bmc_slice).collect();
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
