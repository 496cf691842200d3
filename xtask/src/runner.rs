//! Runs the `tarsier` binary on corpus tasks in parallel and classifies
//! each run: the verdict (from `--json` output, or the last stdout line), a
//! front-end rejection, a crash (the internal-error exit code or a signal),
//! or a timeout. Verification runs also yield their figures (formula sizes,
//! symex and SAT time).

use crate::corpus::Task;
use crate::process::{run_with_timeout, Ending, Output};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// tarsier's exit code for an internal error (a panic).
pub const INTERNAL_ERROR_EXIT: i32 = 70;

/// tarsier's exit code for a command line it refuses.
const USAGE_ERROR_EXIT: i32 = 6;

/// What one run of tarsier produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `--parse-only` accepted the input.
    Accepted,
    /// The front end rejected the input; the reason is its first error.
    Rejected(String),
    Successful,
    Failed,
    Unknown(String),
    /// A panic, a signal or an exit code tarsier never uses.
    Crash(String),
    Timeout,
}

impl Outcome {
    /// A short name for tables and JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            Outcome::Accepted => "accepted",
            Outcome::Rejected(_) => "rejected",
            Outcome::Successful => "successful",
            Outcome::Failed => "failed",
            Outcome::Unknown(_) => "unknown",
            Outcome::Crash(_) => "crash",
            Outcome::Timeout => "timeout",
        }
    }

    pub fn reason(&self) -> Option<&str> {
        match self {
            Outcome::Rejected(r) | Outcome::Unknown(r) | Outcome::Crash(r) => Some(r),
            _ => None,
        }
    }
}

/// Size and time figures of one verification run (`--json` stats).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figures {
    pub aig_ands: u64,
    pub cnf_vars: u64,
    pub cnf_clauses: u64,
    pub symex_seconds: f64,
    pub sat_seconds: f64,
    /// Counterexample replays in the interpreter (0 from binaries that do
    /// not report it).
    pub replay_seconds: f64,
    /// The k-induction figures, when the run reports them.
    pub kinduction: Option<KInductionFigures>,
    /// How a TRUE was proved or a FALSE found, when the run says.
    pub how: Option<How>,
}

/// How a verdict was reached, from `--json`: a TRUE's proof method
/// (`bounded-exhaustion`, `k-induction`, `ranking-functions`) or a FALSE's
/// property class (`non-termination`: a lasso), with the details (the
/// bound, each loop's ranking function and its form).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct How {
    pub method: String,
    pub detail: String,
}

impl How {
    fn from_json(doc: &Value) -> Option<How> {
        let proof = &doc["proof"];
        if let Some(method) = proof["method"].as_str() {
            let detail = match method {
                "ranking-functions" => proof["ranking_functions"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|r| {
                        let parts: Vec<&str> = r["ranking_function"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
                        format!("{} {}", r["form"].as_str().unwrap_or("?"), parts.join(", "))
                    })
                    .collect::<Vec<_>>()
                    .join("; "),
                _ => match (proof["bound"].as_u64(), proof["k"].as_u64()) {
                    (Some(b), _) => format!("bound {b}"),
                    (_, Some(k)) => format!("k {k}"),
                    _ => String::new(),
                },
            };
            return Some(How { method: method.to_string(), detail });
        }
        let class = doc["property"]["class"].as_str()?;
        Some(How { method: class.to_string(), detail: String::new() })
    }
}

/// What a k-induction run reports in its `--json` stats: the k that
/// decided (the last one tried otherwise), the time of each kind of check
/// and of invariant generation with certification, and the invariants
/// found and certified. A figure a binary does not report is `None`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KInductionFigures {
    pub k: Option<u64>,
    pub base_seconds: Option<f64>,
    pub forward_seconds: Option<f64>,
    pub step_seconds: Option<f64>,
    pub invariant_seconds: Option<f64>,
    pub invariants_found: Option<u64>,
    pub invariants_certified: Option<u64>,
}

impl KInductionFigures {
    /// The figures of `stats`, `None` when it has none of them.
    fn from_json(stats: &Value) -> Option<KInductionFigures> {
        let figures = KInductionFigures {
            k: stats["k"].as_u64(),
            base_seconds: stats["base_seconds"].as_f64(),
            forward_seconds: stats["forward_seconds"].as_f64(),
            step_seconds: stats["step_seconds"].as_f64(),
            invariant_seconds: stats["invariant_seconds"].as_f64(),
            invariants_found: stats["invariants_found"].as_u64(),
            invariants_certified: stats["invariants_certified"].as_u64(),
        };
        (figures != KInductionFigures::default()).then_some(figures)
    }
}

impl Figures {
    /// The figures of a `--json` document.
    pub fn from_document(doc: &Value) -> Option<Figures> {
        Figures::from_json(&doc["stats"]).map(|f| Figures { how: How::from_json(doc), ..f })
    }

    fn from_json(stats: &Value) -> Option<Figures> {
        let count = |key: &str| stats[key].as_u64();
        let seconds = |key: &str| stats[key].as_f64();
        Some(Figures {
            aig_ands: count("aig_ands")?,
            cnf_vars: count("cnf_vars")?,
            cnf_clauses: count("cnf_clauses")?,
            symex_seconds: seconds("symex_seconds")?,
            sat_seconds: seconds("sat_seconds")?,
            replay_seconds: seconds("replay_seconds").unwrap_or(0.0),
            kinduction: KInductionFigures::from_json(stats),
            how: None,
        })
    }
}

/// Classifies a finished run of tarsier.
pub fn classify(out: &Output, parse_only: bool) -> Outcome {
    let code = match out.ending {
        Ending::TimedOut => return Outcome::Timeout,
        Ending::Signaled(signal) => return Outcome::Crash(format!("killed by signal {signal}")),
        Ending::Exited(code) => code,
    };
    match (code, parse_only) {
        (INTERNAL_ERROR_EXIT, _) => Outcome::Crash(first_error(&out.stderr)),
        (0, true) => Outcome::Accepted,
        (1, true) | (USAGE_ERROR_EXIT, _) => Outcome::Rejected(first_error(&out.stderr)),
        (0 | 1 | 5 | 10, false) => verdict(out),
        _ => Outcome::Crash(format!("unexpected exit code {code}: {}", first_error(&out.stderr))),
    }
}

fn verdict(out: &Output) -> Outcome {
    if let Some(doc) = json_document(out) {
        return match doc["verdict"].as_str() {
            Some("VERIFICATION SUCCESSFUL") => Outcome::Successful,
            Some("VERIFICATION FAILED") => Outcome::Failed,
            Some("VERIFICATION UNKNOWN") => Outcome::Unknown(doc["reason"].as_str().unwrap_or("no reason given").to_string()),
            _ => Outcome::Crash(format!("JSON output without a verdict: {}", doc["verdict"])),
        };
    }
    let lines: Vec<&str> = out.stdout.lines().filter(|l| !l.trim().is_empty()).collect();
    match lines.last().map(|l| l.trim()) {
        Some("VERIFICATION SUCCESSFUL") => Outcome::Successful,
        Some("VERIFICATION FAILED") => Outcome::Failed,
        Some("VERIFICATION UNKNOWN") => {
            let reason = lines.len().checked_sub(2).map(|i| lines[i]).unwrap_or("no reason given");
            Outcome::Unknown(reason.trim().to_string())
        }
        _ => Outcome::Rejected(first_error(&out.stderr)),
    }
}

/// The `--json` document of a run, when stdout holds one.
pub fn json_document(out: &Output) -> Option<Value> {
    out.stdout.trim_start().starts_with('{').then(|| serde_json::from_str(&out.stdout).ok()).flatten()
}

/// The first error message of a run, without its location, or the first
/// line of stderr when there is no "error:".
pub fn first_error(stderr: &str) -> String {
    let line = stderr
        .lines()
        .find(|l| l.contains("error:"))
        .or_else(|| stderr.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or("(no message)");
    let message = line.split_once("error:").map_or(line, |(_, m)| m);
    message.trim().to_string()
}

/// The result of one task.
#[derive(Clone, Debug)]
pub struct TaskResult {
    pub task: Task,
    pub outcome: Outcome,
    /// Wall-clock time.
    pub seconds: f64,
    /// CPU time (user + system), steadier than wall time on a busy machine.
    pub cpu_seconds: f64,
    /// Present when the run printed its figures.
    pub figures: Option<Figures>,
    /// The SV-COMP result line (`TRUE`, `FALSE(valid-deref)`, ...) of a
    /// run with `--property`.
    pub svcomp: Option<String>,
}

pub struct RunOptions {
    pub binary: PathBuf,
    pub parse_only: bool,
    pub timeout: Duration,
    pub jobs: usize,
    /// Flags added to every verification run (e.g. `--no-invariants`).
    pub extra_args: Vec<String>,
}

/// Runs every task, `jobs` at a time; results come back in task order.
pub fn run_tasks(corpus: &Path, tasks: &[Task], opts: &RunOptions, progress: impl FnMut(usize) + Send) -> Vec<TaskResult> {
    parallel_map(tasks, opts.jobs, |task| run_task(corpus, task, opts), progress)
}

/// Applies `work` to every item, `jobs` at a time; results in item order.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], jobs: usize, work: impl Fn(&T) -> R + Sync, mut progress: impl FnMut(usize) + Send) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let done = Mutex::new((Vec::with_capacity(items.len()), &mut progress));
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let result = work(item);
                let mut done = done.lock().unwrap_or_else(|p| p.into_inner());
                done.0.push((i, result));
                let count = done.0.len();
                (done.1)(count);
            });
        }
    });
    let mut results = done.into_inner().unwrap_or_else(|p| p.into_inner()).0;
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

fn run_task(corpus: &Path, task: &Task, opts: &RunOptions) -> TaskResult {
    let mut args = if opts.parse_only { task.front_args(corpus) } else { task.verify_args(corpus) };
    if !opts.parse_only {
        args.extend(opts.extra_args.iter().cloned());
    }
    args.push(if opts.parse_only { "--parse-only" } else { "--json" }.into());
    let mut command = Command::new(&opts.binary);
    command.args(&args).current_dir(task.dir(corpus));
    match run_with_timeout(&mut command, opts.timeout) {
        Ok(out) => {
            let doc = json_document(&out);
            TaskResult {
                task: task.clone(),
                outcome: classify(&out, opts.parse_only),
                seconds: out.elapsed.as_secs_f64(),
                cpu_seconds: out.cpu.as_secs_f64(),
                figures: doc.as_ref().and_then(Figures::from_document),
                svcomp: doc.as_ref().and_then(|doc| doc["svcomp"].as_str()).map(str::to_string),
            }
        }
        Err(err) => TaskResult {
            task: task.clone(),
            outcome: Outcome::Crash(format!("cannot run {}: {err}", opts.binary.display())),
            seconds: 0.0,
            cpu_seconds: 0.0,
            figures: None,
            svcomp: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn output(ending: Ending, stdout: &str, stderr: &str) -> Output {
        Output { ending, stdout: stdout.into(), stderr: stderr.into(), elapsed: Duration::ZERO, cpu: Duration::ZERO }
    }

    #[test]
    fn verdict_is_the_last_stdout_line() {
        let unknown = output(Ending::Exited(5), "unsupported: no engine\nVERIFICATION UNKNOWN\n", "");
        assert_eq!(classify(&unknown, false), Outcome::Unknown("unsupported: no engine".into()));
        assert_eq!(classify(&output(Ending::Exited(10), "trace\nVERIFICATION FAILED\n", ""), false), Outcome::Failed);
        assert_eq!(classify(&output(Ending::Exited(0), "VERIFICATION SUCCESSFUL", ""), false), Outcome::Successful);
    }

    #[test]
    fn json_output_gives_verdict_reason_and_figures() {
        let doc = r#"{"verdict": "VERIFICATION UNKNOWN", "reason": "unsupported: x",
            "stats": {"aig_ands": 7, "cnf_vars": 9, "cnf_clauses": 21, "symex_seconds": 0.5, "sat_seconds": 0.25,
                      "replay_seconds": 0.125}}"#;
        let out = output(Ending::Exited(5), doc, "");
        assert_eq!(classify(&out, false), Outcome::Unknown("unsupported: x".into()));
        let stats = &json_document(&out).unwrap()["stats"];
        let figures =
            Figures { aig_ands: 7, cnf_vars: 9, cnf_clauses: 21, symex_seconds: 0.5, sat_seconds: 0.25, replay_seconds: 0.125, kinduction: None, how: None };
        assert_eq!(Figures::from_json(stats), Some(figures));
        let failed = output(Ending::Exited(10), r#"{"verdict": "VERIFICATION FAILED", "stats": {}}"#, "");
        assert_eq!(classify(&failed, false), Outcome::Failed);
        assert_eq!(Figures::from_json(&json_document(&failed).unwrap()["stats"]), None);
    }

    #[test]
    fn json_output_says_how_a_verdict_was_reached() {
        let ranked: Value = serde_json::from_str(
            r#"{"proof": {"method": "ranking-functions", "bound": null, "k": null, "ranking_functions": [
                {"form": "linear", "ranking_function": ["n - i"]}, {"form": "lexicographic", "ranking_function": ["x", "y"]}]}}"#,
        )
        .unwrap();
        let how = How::from_json(&ranked).unwrap();
        assert_eq!((how.method.as_str(), how.detail.as_str()), ("ranking-functions", "linear n - i; lexicographic x, y"));
        let bounded: Value = serde_json::from_str(r#"{"proof": {"method": "bounded-exhaustion", "bound": 8, "k": null}}"#).unwrap();
        assert_eq!(How::from_json(&bounded).unwrap().detail, "bound 8");
        let lasso: Value = serde_json::from_str(r#"{"property": {"class": "non-termination"}}"#).unwrap();
        assert_eq!(How::from_json(&lasso).unwrap().method, "non-termination");
        assert_eq!(How::from_json(&serde_json::json!({"reason": "x"})), None);
    }

    #[test]
    fn front_end_errors_and_crashes() {
        let rejected = output(Ending::Exited(1), "", "a.c:3:4: error: expected ';'\n  int x\n");
        assert_eq!(classify(&rejected, true), Outcome::Rejected("expected ';'".into()));
        assert_eq!(classify(&rejected, false), Outcome::Rejected("expected ';'".into()));
        let panic = output(Ending::Exited(70), "", "tarsier: internal error: boom at x.rs:1\n");
        assert_eq!(classify(&panic, true), Outcome::Crash("boom at x.rs:1".into()));
        assert_eq!(classify(&output(Ending::Signaled(11), "", ""), true).kind(), "crash");
        assert_eq!(classify(&output(Ending::Exited(134), "", ""), false).kind(), "crash");
        assert_eq!(classify(&output(Ending::TimedOut, "", ""), true), Outcome::Timeout);
        assert_eq!(classify(&output(Ending::Exited(0), "", ""), true), Outcome::Accepted);
        let refused = output(Ending::Exited(6), "", "tarsier: error: unknown option '--frobnicate'\n");
        assert_eq!(classify(&refused, false), Outcome::Rejected("unknown option '--frobnicate'".into()));
    }
}
