//! `cargo xtask bench-frontend`: front-end throughput. Each input is
//! preprocessed once into a `.i` file; then `tarsier --parse-only file.i`
//! (lexing, parsing, type checking and lowering, no preprocessor) is timed
//! over several runs, and the median CPU time gives MB/s of preprocessed C
//! (CPU time, because wall time on a shared machine measures the other
//! users). Figures are saved under `target/bench/` and compared with the
//! previous ones.

use crate::corpus::{self, Task};
use crate::process::{run_with_timeout, Ending};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Timed runs per input; the median is reported.
const RUNS: usize = 5;
/// How many of the largest corpus inputs are measured.
const LARGEST: usize = 5;
const RUN_LIMIT: Duration = Duration::from_secs(60);

/// One input to measure: a name and the C file with its preprocessor flags.
pub struct BenchInput {
    pub name: String,
    pub source: PathBuf,
    pub cpp_flags: Vec<String>,
}

/// The glibc-headers file of the tests plus the largest corpus inputs.
pub fn inputs(root: &Path) -> Vec<BenchInput> {
    let mut inputs = vec![BenchInput {
        name: "glibc-headers".into(),
        source: root.join("crates/tarsier/tests/data/glibc_headers.c"),
        cpp_flags: Vec::new(),
    }];
    match corpus::Suite::Esbmc.locate().map(|dir| corpus::Suite::Esbmc.load(&dir).map(|tasks| (dir, tasks))) {
        Some(Ok((dir, tasks))) => inputs.extend(largest_inputs(&dir, &tasks)),
        Some(Err(err)) => eprintln!("corpus manifest unreadable, measuring the headers only: {err}"),
        None => eprintln!("corpus not found (../shared/corpus or TARSIER_CORPUS): measuring the headers only"),
    }
    inputs
}

fn largest_inputs(dir: &Path, tasks: &[Task]) -> Vec<BenchInput> {
    let mut files: Vec<(u64, &Task, PathBuf)> = tasks
        .iter()
        .flat_map(|t| t.input_paths(dir).into_iter().map(move |p| (t, p)))
        .filter_map(|(t, p)| Some((std::fs::metadata(&p).ok()?.len(), t, p)))
        .collect();
    files.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.2.cmp(&b.2)));
    files.dedup_by(|a, b| a.2 == b.2);
    files
        .into_iter()
        .take(LARGEST)
        .map(|(_, task, path)| {
            let cpp_flags = task.front_args(dir).into_iter().filter(|a| a.starts_with("-D") || a.starts_with("-U")).collect();
            BenchInput { name: task.id.clone(), source: path, cpp_flags }
        })
        .collect()
}

/// One measured input.
pub struct Figure {
    pub name: String,
    pub bytes: u64,
    /// Median CPU time of one run.
    pub median_seconds: f64,
    pub median_wall_seconds: f64,
    /// Why the front end did not accept the input (its speed is then only
    /// the speed of reaching that error).
    pub rejected: Option<String>,
}

impl Figure {
    pub fn mb_per_second(&self) -> f64 {
        self.bytes as f64 / 1e6 / self.median_seconds.max(1e-9)
    }
}

/// Preprocesses `input` into `scratch` and times the front end on it.
pub fn measure(binary: &Path, input: &BenchInput, scratch: &Path) -> Result<Figure, String> {
    let preprocessed = scratch.join(format!("{}.i", input.name.replace('/', "_")));
    let status = Command::new("cpp")
        .args(&input.cpp_flags)
        .arg(&input.source)
        .arg("-o")
        .arg(&preprocessed)
        .status()
        .map_err(|e| format!("cannot run cpp: {e}"))?;
    if !status.success() {
        return Err(format!("cpp failed on {}", input.source.display()));
    }
    let bytes = std::fs::metadata(&preprocessed).map_err(|e| e.to_string())?.len();
    let mut times = Vec::with_capacity(RUNS);
    let mut wall_times = Vec::with_capacity(RUNS);
    let mut rejected = None;
    for _ in 0..RUNS {
        let out = run_with_timeout(Command::new(binary).arg(&preprocessed).arg("--parse-only"), RUN_LIMIT)
            .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
        match out.ending {
            Ending::Exited(0) => {}
            Ending::Exited(1) => rejected = Some(crate::runner::first_error(&out.stderr)),
            other => return Err(format!("tarsier did not finish normally: {other:?}")),
        }
        times.push(out.cpu.as_secs_f64());
        wall_times.push(out.elapsed.as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    wall_times.sort_by(f64::total_cmp);
    Ok(Figure { name: input.name.clone(), bytes, median_seconds: times[RUNS / 2], median_wall_seconds: wall_times[RUNS / 2], rejected })
}

pub fn to_json(figures: &[Figure], timestamp: &str) -> Value {
    let list: Vec<Value> = figures
        .iter()
        .map(|f| json!({"name": f.name, "bytes": f.bytes, "median_seconds": f.median_seconds, "median_wall_seconds": f.median_wall_seconds, "mb_per_second": f.mb_per_second(), "rejected": f.rejected}))
        .collect();
    json!({"timestamp": timestamp, "figures": list})
}

/// A table of the figures, with the previous run's MB/s beside them.
pub fn render(figures: &[Figure], previous: Option<&Value>) -> String {
    let before = |name: &str| -> Option<f64> {
        previous?["figures"].as_array()?.iter().find(|f| f["name"] == name)?["mb_per_second"].as_f64()
    };
    let mut out = format!("{:<56}{:>10}{:>9}{:>9}{:>9}{:>16}\n", "input", "KB (.i)", "cpu ms", "wall ms", "MB/s", "previous MB/s");
    for f in figures {
        let was = before(&f.name).map_or("-".to_string(), |b| format!("{b:.2} ({:+.0}%)", 100.0 * (f.mb_per_second() / b - 1.0)));
        out.push_str(&format!(
            "{:<56}{:>10}{:>9.1}{:>9.1}{:>9.2}{:>16}\n",
            f.name,
            f.bytes / 1024,
            f.median_seconds * 1000.0,
            f.median_wall_seconds * 1000.0,
            f.mb_per_second(),
            was
        ));
        if let Some(reason) = &f.rejected {
            out.push_str(&format!("    (rejected: {reason})\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_compares_with_the_previous_run() {
        let figure = Figure { name: "x".into(), bytes: 2_000_000, median_seconds: 0.5, median_wall_seconds: 0.6, rejected: None };
        let previous = json!({"figures": [{"name": "x", "mb_per_second": 2.0}]});
        let text = render(&[figure], Some(&previous));
        assert!(text.contains("4.00"), "{text}");
        assert!(text.contains("2.00 (+100%)"), "{text}");
    }
}
