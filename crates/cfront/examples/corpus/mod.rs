//! What the corpus examples share: reading the manifest into front-end
//! options per task, and running a function over the tasks on threads.

use cfront::Options;
use ir::DataModel;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The corpus beside the repository (`../shared/corpus/...`).
pub fn default_corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/esbmc-regression")
}

pub struct Task {
    pub id: String,
    pub files: Vec<PathBuf>,
    pub opts: Options,
    pub expected: String,
}

pub fn load_manifest(corpus: &Path) -> Result<Vec<Task>, String> {
    let manifest = corpus.join("manifest.jsonl");
    let text = std::fs::read_to_string(&manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
    text.lines().filter(|l| !l.trim().is_empty()).map(|line| task_from_json(corpus, line)).collect()
}

/// A task's files and its data model, entry and preprocessor flags (paths
/// relative to the task's folder).
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
    let expected = json["expected"].as_str().unwrap_or("?").to_string();
    Ok(Task { id, files, opts, expected })
}

/// `run` applied to every task on `threads` threads, results in task order.
pub fn run_parallel<O: Send>(tasks: &[Task], threads: usize, run: impl Fn(&Task) -> O + Sync) -> Vec<O> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(task) = tasks.get(index) else { break };
                let outcome = run(task);
                results.lock().unwrap_or_else(|e| e.into_inner()).push((index, outcome));
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, outcome)| outcome).collect()
}
