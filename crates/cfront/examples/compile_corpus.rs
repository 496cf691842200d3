//! Runs the whole front end (`cfront::compile`: preprocess, parse, type
//! check and lower) over every task of a corpus manifest, checks each
//! resulting program with the IR validator, and prints how many tasks are
//! accepted and the most common reasons for the others.
//!
//! ```text
//! cargo run --release -p cfront --example compile_corpus -- [CORPUS_DIR] [-j N] [--show-failures] [--only ID_PREFIX]
//! ```

mod corpus;
use corpus::{load_manifest, run_parallel, Task};

use cfront::diag::{Diagnostics, Severity};
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

const TOP_REASONS: usize = 25;

enum Outcome {
    Accepted,
    Rejected(String),
    Invalid(String),
    Panicked(String),
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut corpus = corpus::default_corpus();
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
    let outcomes = run_parallel(&tasks, threads, run_task);
    report(&tasks, &outcomes, show_failures);
    println!("time: {:.1}s", started.elapsed().as_secs_f64());
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
            println!("{} (expected {}): {kind}: {msg}", task.id, task.expected);
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
