//! Runs preprocess + lex + parse over every task of a corpus manifest (or
//! over the files given with `--file`) and prints how many tasks parse, why
//! the others do not, and the lex+parse throughput on the largest inputs.
//!
//! ```text
//! cargo run --release -p cfront --example parse_corpus -- [CORPUS_DIR] [-j N] [--file F.c ...]
//! ```

mod corpus;
use corpus::{load_manifest, run_parallel, Task};

use cfront::diag::Diagnostics;
use cfront::{lex, parse, preprocess, Options};
use ir::{DataModel, SourceFiles};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Lex+parse repetitions when timing the largest inputs.
const TIMING_REPEATS: u32 = 30;
/// Below this much CPU time the 10 ms `/proc` ticks make the figure noise.
const CPU_TIMER_MIN_SECONDS: f64 = 0.1;

/// One preprocessed input: its size and the time lex+parse took.
struct Measured {
    path: PathBuf,
    bytes: usize,
    elapsed: Duration,
    opts: Options,
}

struct Outcome {
    error: Option<String>,
    measured: Vec<Measured>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut corpus = corpus::default_corpus();
    let mut threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut single_files = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "-j" => {
                i += 1;
                threads = args.get(i).and_then(|n| n.parse().ok()).unwrap_or(threads);
            }
            "--file" => {
                i += 1;
                single_files.extend(args.get(i).map(PathBuf::from));
            }
            other => corpus = PathBuf::from(other),
        }
        i += 1;
    }
    if !single_files.is_empty() {
        for file in &single_files {
            for model in [DataModel::LP64, DataModel::ILP32] {
                time_single_file(file, Options { data_model: model, ..Options::default() });
            }
        }
        return;
    }
    let tasks = match load_manifest(&corpus) {
        Ok(tasks) => tasks,
        Err(e) => {
            eprintln!("parse_corpus: {e}");
            std::process::exit(2);
        }
    };
    let started = Instant::now();
    let outcomes = run_parallel(&tasks, threads, run_task);
    report(&tasks, &outcomes, started.elapsed());
}

fn run_task(task: &Task) -> Outcome {
    let mut measured = Vec::new();
    let mut files = SourceFiles::default();
    for path in &task.files {
        let mut diags = Diagnostics::default();
        let Some(text) = preprocess::run(path, &task.opts, &mut diags) else {
            return Outcome { error: Some(first_line(&diags.render(&files))), measured };
        };
        let start = Instant::now();
        let parsed = lex::tokenize(&text, path, &mut files, &mut diags).and_then(|tokens| parse::parse(&tokens, &mut diags));
        measured.push(Measured { path: path.clone(), bytes: text.len(), elapsed: start.elapsed(), opts: task.opts.clone() });
        if parsed.is_none() {
            return Outcome { error: Some(first_line(&diags.render(&files))), measured };
        }
    }
    Outcome { error: None, measured }
}

/// The first diagnostic's headline (and, for preprocessor failures, the
/// preprocessor's first line), on one line.
fn first_line(text: &str) -> String {
    let lines: Vec<&str> = text.lines().take(2).collect();
    match lines.as_slice() {
        [] => "(no message)".to_string(),
        [head, next, ..] if head.ends_with(':') => format!("{head} {}", next.trim()),
        [head, ..] => head.to_string(),
    }
}

fn report(tasks: &[Task], outcomes: &[Outcome], wall: Duration) {
    let rejected: Vec<(&Task, &Outcome)> = tasks.iter().zip(outcomes).filter(|(_, o)| o.error.is_some()).collect();
    println!("rejected tasks:");
    for (task, outcome) in &rejected {
        println!("  {} (expected {}): {}", task.id, task.expected, outcome.error.as_deref().unwrap_or(""));
    }
    let accepted = tasks.len() - rejected.len();
    let percent = 100.0 * accepted as f64 / tasks.len().max(1) as f64;
    println!("tasks: {}  accepted: {accepted} ({percent:.2}%)  rejected: {}", tasks.len(), rejected.len());
    let mut all: Vec<&Measured> = outcomes.iter().flat_map(|o| &o.measured).collect();
    let bytes: usize = all.iter().map(|m| m.bytes).sum();
    let time: Duration = all.iter().map(|m| m.elapsed).sum();
    println!(
        "preprocessed text: {:.1} MB in {} inputs; lex+parse {:.2} s total ({:.1} MB/s); wall time with cpp: {:.1} s",
        bytes as f64 / 1e6,
        all.len(),
        time.as_secs_f64(),
        bytes as f64 / 1e6 / time.as_secs_f64().max(1e-9),
        wall.as_secs_f64()
    );
    all.sort_by_key(|m| std::cmp::Reverse(m.bytes));
    println!("largest inputs (lex+parse, {TIMING_REPEATS} runs each):");
    for m in all.iter().take(5) {
        time_single_file(&m.path, m.opts.clone());
    }
    println!("the C library headers of the parser tests:");
    let headers = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parse_data/headers/glibc_headers.c");
    for model in [DataModel::LP64, DataModel::ILP32] {
        time_single_file(&headers, Options { data_model: model, ..Options::default() });
    }
}

/// Preprocesses `path` once and prints the lex+parse throughput: the best
/// wall time of a few runs, and the CPU time per run over more runs (the
/// fair figure on a loaded machine).
fn time_single_file(path: &Path, opts: Options) {
    let mut diags = Diagnostics::default();
    let mut files = SourceFiles::default();
    let Some(text) = preprocess::run(path, &opts, &mut diags) else {
        println!("  {} ({:?}): {}", path.display(), opts.data_model, first_line(&diags.render(&files)));
        return;
    };
    let mut best = Duration::MAX;
    let mut ok = true;
    let cpu_start = process_cpu_seconds();
    for _ in 0..TIMING_REPEATS {
        let start = Instant::now();
        let parsed = lex::tokenize(&text, path, &mut files, &mut diags).and_then(|tokens| parse::parse(&tokens, &mut diags));
        best = best.min(start.elapsed());
        ok &= parsed.is_some();
    }
    let cpu_total = process_cpu_seconds() - cpu_start;
    let cpu_per_run = cpu_total / TIMING_REPEATS as f64;
    let status = if ok { "ok".to_string() } else { first_line(&diags.render(&files)) };
    let megabytes = text.len() as f64 / 1e6;
    // `/proc` counts CPU time in 10 ms ticks: too few ticks mean nothing.
    let cpu = if cpu_total >= CPU_TIMER_MIN_SECONDS {
        format!("CPU {:.2} ms = {:.1} MB/s", cpu_per_run * 1e3, megabytes / cpu_per_run)
    } else {
        "CPU time below the timer's resolution".to_string()
    };
    println!(
        "  {} ({:?}): {megabytes:.2} MB, best wall {:.2} ms = {:.1} MB/s, {cpu}: {status}",
        path.display(),
        opts.data_model,
        best.as_secs_f64() * 1e3,
        megabytes / best.as_secs_f64().max(1e-9),
    );
}

/// User+system CPU time of this process so far (Linux `/proc`; 0 elsewhere).
/// Includes freeing each parsed tree, which the wall figure leaves out.
fn process_cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    let Some(after_name) = stat.rsplit_once(')').map(|(_, rest)| rest) else { return 0.0 };
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // Fields 14 and 15 of the file (utime, stime) are 12 and 13 after the name.
    let ticks: f64 = [11, 12].iter().filter_map(|&i| fields.get(i)?.parse::<f64>().ok()).sum();
    ticks / 100.0
}
