//! Runs the whole front end (`cfront::compile`: preprocess, parse, type
//! check and lower) over every task of a corpus manifest, checks each
//! resulting program with the IR validator, and prints how many tasks are
//! accepted and the most common reasons for the others.
//!
//! ```text
//! cargo run --release -p cfront --example compile_corpus -- [CORPUS_DIR] [-j N] [--show-failures] [--only ID_PREFIX]
//! ```

use cfront::diag::{Diagnostics, Severity};
use cfront::Options;
use ir::DataModel;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

const DEFAULT_CORPUS: &str = "/work/shared/corpus/esbmc-regression";
const TOP_REASONS: usize = 25;

struct Task {
    id: String,
    files: Vec<PathBuf>,
    opts: Options,
}

enum Outcome {
    Accepted,
    Rejected(String),
    Invalid(String),
    Panicked(String),
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut corpus = PathBuf::from(DEFAULT_CORPUS);
    let mut threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut show_failures = false;
    let mut only = String::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "-j" => {
                i += 1;
                threads = args.get(i).and_then(|n| n.parse().ok()).unwrap_or(threads);
            }
            "--show-failures" => show_failures = true,
            "--only" => {
                i += 1;
                only = args.get(i).cloned().unwrap_or_default();
            }
            other => corpus = PathBuf::from(other),
        }
        i += 1;
    }
    let tasks = match load_manifest(&corpus) {
        Ok(tasks) => tasks.into_iter().filter(|t| t.id.starts_with(&only)).collect::<Vec<_>>(),
        Err(e) => {
            eprintln!("compile_corpus: {e}");
            std::process::exit(2);
        }
    };
    let started = Instant::now();
    let outcomes = run_parallel(&tasks, threads.max(1));
    report(&tasks, &outcomes, show_failures);
    println!("time: {:.1}s", started.elapsed().as_secs_f64());
}

fn load_manifest(corpus: &Path) -> Result<Vec<Task>, String> {
    let manifest = corpus.join("manifest.jsonl");
    let text = std::fs::read_to_string(&manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
    text.lines().filter(|l| !l.trim().is_empty()).map(|line| task_from_json(corpus, line)).collect()
}

fn task_from_json(corpus: &Path, line: &str) -> Result<Task, String> {
    let json: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("manifest: {e}"))?;
    let strings = |key: &str| -> Vec<String> {
        json[key].as_array().map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect()).unwrap_or_default()
    };
    let id = json["id"].as_str().unwrap_or("?").to_string();
    let dir = corpus.join(&id);
    let mut opts = Options {
        data_model: if json["data_model"] == "ILP32" { DataModel::ILP32 } else { DataModel::LP64 },
        entry: json["entry"].as_str().map(str::to_string),
        ..Options::default()
    };
    for flag in strings("cflags") {
        if flag.starts_with("-D") || flag.starts_with("-U") {
            opts.macro_args.push(flag);
        } else if let Some(include_dir) = flag.strip_prefix("-I") {
            opts.include_dirs.push(dir.join(include_dir));
        } else if let Some(file) = flag.strip_prefix("--include-file=") {
            opts.include_files.push(dir.join(file));
        }
    }
    let files = strings("files").iter().map(|f| corpus.join(f)).collect();
    Ok(Task { id, files, opts })
}

fn run_parallel(tasks: &[Task], threads: usize) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(task) = tasks.get(index) else { break };
                let outcome = run_task(task);
                results.lock().unwrap_or_else(|e| e.into_inner()).push((index, outcome));
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, outcome)| outcome).collect()
}

fn run_task(task: &Task) -> Outcome {
    let compiled = std::panic::catch_unwind(|| {
        let mut diags = Diagnostics::default();
        let program = cfront::compile(&task.files, &task.opts, &mut diags);
        (program, diags)
    });
    match compiled {
        Err(_) => Outcome::Panicked(task.id.clone()),
        Ok((Some(program), _)) => match ir::validate::validate(&program) {
            Ok(()) => Outcome::Accepted,
            Err(errors) => Outcome::Invalid(errors.into_iter().next().unwrap_or_default()),
        },
        Ok((None, diags)) => {
            let first = diags.list.iter().find(|d| d.severity == Severity::Error);
            Outcome::Rejected(first.map_or_else(|| "no diagnostic".to_string(), |d| format!("{} (line {})", d.message, d.loc.line)))
        }
    }
}

/// A message with names and numbers blanked, so equal causes group.
fn reason_key(message: &str) -> String {
    let mut out = String::new();
    let mut in_quote = false;
    let headline = message.lines().next().unwrap_or("");
    let headline = headline.split(" (line ").next().unwrap_or(headline);
    let headline = headline.rsplit(": ").next().unwrap_or(headline);
    for c in headline.chars() {
        match c {
            '`' => {
                in_quote = !in_quote;
                if in_quote {
                    out.push_str("`…`");
                }
            }
            _ if in_quote => {}
            '0'..='9' => {
                if !out.ends_with('N') {
                    out.push('N');
                }
            }
            _ => out.push(c),
        }
    }
    out
}

fn report(tasks: &[Task], outcomes: &[Outcome], show_failures: bool) {
    let mut reasons: HashMap<String, usize> = HashMap::new();
    let (mut accepted, mut rejected, mut invalid, mut panicked) = (0, 0, 0, 0);
    for (task, outcome) in tasks.iter().zip(outcomes) {
        let (kind, msg) = match outcome {
            Outcome::Accepted => {
                accepted += 1;
                continue;
            }
            Outcome::Rejected(m) => {
                rejected += 1;
                ("rejected", m)
            }
            Outcome::Invalid(m) => {
                invalid += 1;
                ("invalid IR", m)
            }
            Outcome::Panicked(m) => {
                panicked += 1;
                ("panic", m)
            }
        };
        if show_failures {
            println!("{}: {kind}: {msg}", task.id);
        }
        *reasons.entry(format!("{kind}: {}", reason_key(msg))).or_default() += 1;
    }
    let total = tasks.len();
    println!(
        "accepted {accepted}/{total} ({:.2}%), rejected {rejected}, invalid IR {invalid}, panicked {panicked}",
        100.0 * accepted as f64 / total.max(1) as f64
    );
    let mut sorted: Vec<_> = reasons.into_iter().collect();
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (reason, count) in sorted.into_iter().take(TOP_REASONS) {
        println!("{count:6}  {reason}");
    }
}
