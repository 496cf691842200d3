//! Counts, over the expected-TRUE tasks of a corpus manifest (CORE tag
//! unless `--all-tags`), the called functions that have no body (neither in
//! the program nor in the library models), so the most needed library
//! models can be chosen. Each task is compiled without and with the models:
//! it reports how many tasks call no body-less library function in each
//! case, and the front-end time of each.
//!
//! ```text
//! cargo run --release -p cfront --example library_calls -- [CORPUS_DIR] [--all-tags]
//! ```

use cfront::diag::Diagnostics;
use cfront::Options;
use ir::DataModel;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const DEFAULT_CORPUS: &str = "/work/shared/corpus/esbmc-regression";
/// Functions symex and the interpreter implement themselves.
const BUILT_INS: &[&str] = &[
    "malloc",
    "calloc",
    "realloc",
    "free",
    "alloca",
    "memcpy",
    "memmove",
    "memset",
    "abort",
    "exit",
    "_Exit",
    "_exit",
    "__assert_fail",
    "assert",
    "reach_error",
];
const INTRINSIC_PREFIXES: &[&str] = &[
    "__VERIFIER_",
    "__ESBMC_",
    "__CPROVER_",
    "nondet_",
    "__builtin_",
    "pthread_",
];
const TOP: usize = 60;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let all_tags = args.iter().any(|a| a == "--all-tags");
    let corpus = PathBuf::from(
        args.iter()
            .find(|a| !a.starts_with("--"))
            .map_or(DEFAULT_CORPUS, String::as_str),
    );
    let manifest = match std::fs::read_to_string(corpus.join("manifest.jsonl")) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("library_calls: {}: {e}", corpus.display());
            std::process::exit(2);
        }
    };
    let mut missing: HashMap<String, usize> = HashMap::new();
    let (mut tasks, mut compiled, mut clean_before, mut clean_after) = (0, 0, 0, 0);
    let (mut time_before, mut time_after) = (Duration::ZERO, Duration::ZERO);
    for line in manifest.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(json) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if json["expected"] != "true" || (!all_tags && json["tag"] != "CORE") {
            continue;
        }
        tasks += 1;
        let started = Instant::now();
        let before = compile_task(&corpus, &json, false);
        time_before += started.elapsed();
        let started = Instant::now();
        let after = compile_task(&corpus, &json, true);
        time_after += started.elapsed();
        let (Some(before), Some(after)) = (before, after) else {
            continue;
        };
        compiled += 1;
        clean_before += usize::from(bodiless_called(&before).is_empty());
        let names = bodiless_called(&after);
        clean_after += usize::from(names.is_empty());
        for name in names {
            *missing.entry(name).or_default() += 1;
        }
    }
    println!("expected-TRUE tasks: {tasks}, compiled: {compiled}");
    println!("calling no body-less library function: {clean_before} without models, {clean_after} with models");
    let per_task = |total: Duration| total.as_secs_f64() * 1000.0 / tasks.max(1) as f64;
    println!(
        "front-end time per task: {:.1} ms without models, {:.1} ms with models",
        per_task(time_before),
        per_task(time_after)
    );
    println!("still called without a body (tasks):");
    let mut sorted: Vec<_> = missing.into_iter().collect();
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (name, count) in sorted.into_iter().take(TOP) {
        println!("{count:6}  {name}");
    }
}

fn compile_task(corpus: &Path, json: &serde_json::Value, models: bool) -> Option<ir::Program> {
    let id = json["id"].as_str()?;
    let dir = corpus.join(id);
    let mut opts = Options {
        data_model: if json["data_model"] == "ILP32" {
            DataModel::ILP32
        } else {
            DataModel::LP64
        },
        entry: json["entry"].as_str().map(str::to_string),
        library_models: models,
        ..Options::default()
    };
    for flag in json["cflags"].as_array()?.iter().filter_map(|f| f.as_str()) {
        if flag.starts_with("-D") || flag.starts_with("-U") {
            opts.macro_args.push(flag.to_string());
        } else if let Some(include_dir) = flag.strip_prefix("-I") {
            opts.include_dirs.push(dir.join(include_dir));
        }
    }
    let files: Vec<PathBuf> = json["files"]
        .as_array()?
        .iter()
        .filter_map(|f| f.as_str())
        .map(|f| corpus.join(f))
        .collect();
    let result =
        std::panic::catch_unwind(|| cfront::compile(&files, &opts, &mut Diagnostics::default()));
    result.ok().flatten()
}

/// Names of the body-less, non-built-in functions the program refers to.
fn bodiless_called(program: &ir::Program) -> Vec<String> {
    let mut names: Vec<String> = cfront::library_models::referenced_bodiless(program)
        .into_iter()
        .filter(|name| {
            !BUILT_INS.contains(&name.as_str())
                && !INTRINSIC_PREFIXES.iter().any(|p| name.starts_with(p))
        })
        .collect();
    names.sort();
    names
}
