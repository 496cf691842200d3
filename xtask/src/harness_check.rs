//! `cargo xtask harness-check`: for every FALSE of the BMC slice (core
//! esbmc-regression tasks, modes bmc and incremental-bmc) whose violated
//! property is an assertion, bounds, pointer, division or signed-overflow
//! one, writes tarsier's `--harness`, compiles it with the program by gcc
//! (with the sanitizer the property needs), runs it and checks that the
//! run shows that kind of violation. Prints the share reproduced, every
//! failure with its reason, and the changes since the previous run.

use crate::corpus::Task;
use crate::process::{run_with_timeout, Ending, Output};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// What happened to one task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// The native run showed the violation.
    Reproduced,
    /// It did not, for this reason.
    Failed(String),
    /// Not a FALSE with a property in scope (the reason says which).
    Skipped(String),
}

/// One task's check.
#[derive(Clone, Debug)]
pub struct Checked {
    pub id: String,
    pub class: Option<String>,
    pub check: Check,
}

/// Whether a native run (its ending and stderr) shows the violation.
pub type ShowsViolation = fn(&Ending, &str) -> bool;

/// How the native run is built for a property class (gcc flags) and how
/// it must end; `None` for a class out of scope (memory leaks, unsigned
/// overflow, ...).
pub fn expectation(class: &str) -> Option<(&'static [&'static str], ShowsViolation)> {
    const MEMORY: &[&str] = &["-fsanitize=address,undefined", "-fno-sanitize-recover=all"];
    // tarsier's signed overflow includes left shifts out of range, as ESBMC's does.
    const OVERFLOW: &[&str] = &["-fsanitize=signed-integer-overflow,shift", "-fno-sanitize-recover=all"];
    const DIVISION: &[&str] = &["-fsanitize=integer-divide-by-zero", "-fno-sanitize-recover=all"];
    let aborted: ShowsViolation = |ending, _| matches!(ending, Ending::Signaled(6) | Ending::Exited(134));
    let memory_error: ShowsViolation =
        |ending, stderr| *ending != Ending::Exited(0) && (stderr.contains("ERROR: AddressSanitizer") || stderr.contains("runtime error:"));
    let division: ShowsViolation = |ending, stderr| {
        matches!(ending, Ending::Signaled(8)) || stderr.contains("runtime error: division by zero") || stderr.contains("division of")
    };
    let overflow: ShowsViolation = |ending, stderr| {
        *ending != Ending::Exited(0)
            && (stderr.contains("runtime error: signed integer overflow") || stderr.contains("cannot be represented in type"))
    };
    match class {
        "user-assertion" | "reach-error" => Some((&[], aborted)),
        "array-bounds" | "pointer-dereference" | "invalid-free" => Some((MEMORY, memory_error)),
        "division-by-zero" => Some((DIVISION, division)),
        "signed-overflow" => Some((OVERFLOW, overflow)),
        _ => None,
    }
}

/// The tasks the check covers: expected violations of the BMC slice.
pub fn in_scope(task: &Task) -> bool {
    task.in_bmc_slice() && task.expected == "false"
}

/// Runs tarsier on `task` with `--harness`, then the harness natively.
pub fn check_task(binary: &Path, corpus: &Path, task: &Task, timeout: Duration, scratch: &Path) -> Checked {
    let checked = |class: Option<String>, check| Checked { id: task.id.clone(), class, check };
    let (out, harness) = match run_with_harness(binary, corpus, task, timeout, scratch) {
        Ok(ran) => ran,
        Err(e) => return checked(None, Check::Failed(format!("tarsier did not run: {e}"))),
    };
    let Some(doc) = serde_json::from_str::<Value>(&out.stdout).ok().filter(|d| d["verdict"] == "VERIFICATION FAILED") else {
        return checked(None, Check::Skipped("tarsier gave no FALSE".into()));
    };
    let (class, check) = judge_false(corpus, task, &doc, &harness, scratch);
    checked(Some(class), check)
}

/// Runs tarsier on `task` with `--json --harness FILE`: its output and
/// the harness file (written when the verdict is FALSE).
pub fn run_with_harness(binary: &Path, corpus: &Path, task: &Task, timeout: Duration, scratch: &Path) -> Result<(Output, PathBuf), String> {
    let harness = scratch.join(format!("{}.harness.c", task.id.replace('/', "__")));
    let mut command = Command::new(binary);
    command.args(task.verify_args(corpus)).arg("--json").arg("--harness").arg(&harness);
    let out = run_with_timeout(&mut command, timeout).map_err(|e| e.to_string())?;
    Ok((out, harness))
}

/// Checks a FALSE (tarsier's `--json` document `doc`) by building its
/// harness with the program and running it: the violated property's
/// class and the check.
pub fn judge_false(corpus: &Path, task: &Task, doc: &Value, harness: &Path, scratch: &Path) -> (String, Check) {
    let class = doc["property"]["class"].as_str().unwrap_or("").to_string();
    let Some((flags, shows_violation)) = expectation(&class) else {
        let reason = format!("property {class} is out of scope");
        return (class, Check::Skipped(reason));
    };
    let check = native_run(corpus, task, harness, flags, scratch)
        .map(|(ending, stderr)| match shows_violation(&ending, &stderr) {
            true => Check::Reproduced,
            false => Check::Failed(format!("the run {}: {}{}", describe(&ending), first_line(&stderr), harness_notes(harness))),
        })
        .unwrap_or_else(Check::Failed);
    (class, check)
}

/// gcc at -O0 with the task's own preprocessor and language flags, as
/// tarsier read the program, and `flags`.
pub fn gcc_for(corpus: &Path, task: &Task, flags: &[&str]) -> Command {
    let mut gcc = Command::new("gcc");
    // gnu89 inline semantics: a C99 `inline` definition without an
    // external one is the function tarsier verified, not a link error.
    gcc.args(["-g", "-O0", "-w", "-fno-strict-aliasing", "-fgnu89-inline"]).args(flags);
    if task.data_model == "ILP32" {
        gcc.arg("-m32");
    }
    let dir = task.dir(corpus);
    for flag in &task.cflags {
        if let Some(include) = flag.strip_prefix("-I") {
            gcc.arg(format!("-I{}", dir.join(include).display()));
        } else if flag.starts_with("-D") || flag.starts_with("-U") {
            gcc.arg(flag);
        } else if let Some(standard) = flag.strip_prefix("--std=") {
            // gcc before 14 knows C23 by its draft name only; later ones take both.
            gcc.arg(format!("-std={}", standard.replace("23", "2x")));
        }
    }
    gcc
}

/// Compiles the program with the harness and runs it: its ending and stderr.
fn native_run(corpus: &Path, task: &Task, harness: &Path, flags: &[&str], scratch: &Path) -> Result<(Ending, String), String> {
    let executable = scratch.join(format!("{}.out", task.id.replace('/', "__")));
    let mut gcc = gcc_for(corpus, task, flags);
    let text = std::fs::read_to_string(harness).unwrap_or_default();
    gcc.args(extra_flags(&text));
    let (inputs, quote_dirs) = build_inputs(&text, task.input_paths(corpus));
    for quoted in quote_dirs {
        gcc.arg("-iquote").arg(quoted);
    }
    gcc.args(inputs).arg(harness).arg("-o").arg(&executable).arg("-lm").arg("-lpthread");
    let built = run_with_timeout(&mut gcc, Duration::from_secs(60)).map_err(|e| format!("gcc did not run: {e}"))?;
    if built.ending != Ending::Exited(0) {
        return Err(format!("gcc failed: {}", first_error(&built.stderr)));
    }
    let mut run = Command::new(&executable);
    run.current_dir(task.dir(corpus)).env("ASAN_OPTIONS", "detect_leaks=0:detect_stack_use_after_return=1");
    let ran = run_with_timeout(&mut run, Duration::from_secs(10)).map_err(|e| format!("the program did not run: {e}"))?;
    Ok((ran.ending, ran.stderr))
}

/// The files to build with a harness (its text): `inputs`, each program
/// file the harness names a rewritten copy of replaced by the copy (the
/// harness's comment lines ` * Rewritten: ORIGINAL => COPY`); and the
/// folders of the replaced files, which their `#include "..."` search.
pub fn build_inputs(harness: &str, inputs: Vec<PathBuf>) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let same = |a: &Path, b: &Path| a == b || a.canonicalize().ok().is_some_and(|a| b.canonicalize().ok() == Some(a));
    let copies: Vec<(PathBuf, PathBuf)> = harness
        .lines()
        .filter_map(|l| l.strip_prefix(" * Rewritten: ")?.split_once(" => "))
        .map(|(original, copy)| (PathBuf::from(original), PathBuf::from(copy)))
        .collect();
    let mut quote_dirs = Vec::new();
    let files = inputs
        .into_iter()
        .map(|input| match copies.iter().find(|(original, _)| same(original, &input)) {
            Some((_, copy)) => {
                quote_dirs.extend(input.parent().map(Path::to_path_buf));
                copy.clone()
            }
            None => input,
        })
        .collect();
    (files, quote_dirs)
}

/// The gcc flags the harness's own definitions need, whatever the
/// property (its comment lines ` * Build also with: FLAGS`).
pub fn extra_flags(harness: &str) -> Vec<String> {
    harness.lines().filter_map(|l| l.strip_prefix(" * Build also with: ")).flat_map(str::split_whitespace).map(str::to_string).collect()
}

/// What the harness says it could not make the run follow, if anything.
fn harness_notes(harness: &Path) -> String {
    let text = std::fs::read_to_string(harness).unwrap_or_default();
    let notes: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix(" * Not reproduced: ")).collect();
    match notes.is_empty() {
        true => String::new(),
        false => format!(" (harness: not reproduced: {})", notes.join(" ")),
    }
}

fn describe(ending: &Ending) -> String {
    match ending {
        Ending::Exited(code) => format!("exited with {code}"),
        Ending::Signaled(signal) => format!("was killed by signal {signal}"),
        Ending::TimedOut => "timed out".into(),
    }
}

fn first_line(text: &str) -> String {
    text.lines().find(|l| !l.trim().is_empty() && !l.starts_with("=")).unwrap_or("(no output)").chars().take(160).collect()
}

fn first_error(text: &str) -> String {
    text.lines().find(|l| l.contains("error")).or_else(|| text.lines().next()).unwrap_or("").chars().take(200).collect()
}

/// The figures of a run, as saved.
pub fn summarise(checked: &[Checked], timestamp: &str) -> Value {
    let counted: Vec<&Checked> = checked.iter().filter(|c| !matches!(c.check, Check::Skipped(_))).collect();
    let reproduced = counted.iter().filter(|c| c.check == Check::Reproduced).count();
    let failures: Vec<Value> = counted
        .iter()
        .filter_map(|c| match &c.check {
            Check::Failed(reason) => Some(json!({"id": c.id, "class": c.class, "reason": reason})),
            _ => None,
        })
        .collect();
    json!({"timestamp": timestamp, "tasks": checked.len(), "checked": counted.len(), "reproduced": reproduced, "failures": failures})
}

/// The share reproduced, the failures, and the changes since `previous`.
pub fn render(now: &Value, previous: Option<&Value>) -> String {
    let figure = |v: &Value| (v["reproduced"].as_u64().unwrap_or(0), v["checked"].as_u64().unwrap_or(0));
    let percent = |(done, of): (u64, u64)| if of == 0 { 0.0 } else { 100.0 * done as f64 / of as f64 };
    let (done, of) = figure(now);
    let mut out = format!("harnesses that reproduce the violation: {done}/{of} = {:.1}%\n", percent((done, of)));
    if let Some(before) = previous {
        let was = figure(before);
        out += &format!("previous run: {}/{} = {:.1}%\n", was.0, was.1, percent(was));
    }
    let failed_ids = |v: &Value| -> Vec<String> {
        v["failures"].as_array().into_iter().flatten().filter_map(|f| f["id"].as_str().map(str::to_string)).collect()
    };
    out += "failures:\n";
    for failure in now["failures"].as_array().into_iter().flatten() {
        let id = failure["id"].as_str().unwrap_or("?");
        let new = previous.is_some_and(|p| !failed_ids(p).iter().any(|f| f == id));
        out += &format!(
            "  {id} [{}]{}: {}\n",
            failure["class"].as_str().unwrap_or("?"),
            if new { " (new)" } else { "" },
            failure["reason"].as_str().unwrap_or("?")
        );
    }
    if let Some(before) = previous {
        let now_failed = failed_ids(now);
        for id in failed_ids(before).iter().filter(|id| !now_failed.contains(id)) {
            out += &format!("  fixed since the previous run: {id}\n");
        }
    }
    out
}

/// Where the runs are saved.
pub fn out_dir(root: &Path) -> PathBuf {
    root.join("target/harness-check")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_class_has_its_sanitizer_and_ending() {
        let (flags, shows) = expectation("array-bounds").expect("in scope");
        assert!(flags.iter().any(|f| f.contains("address")));
        assert!(shows(&Ending::Exited(1), "==1==ERROR: AddressSanitizer: stack-buffer-overflow"));
        assert!(!shows(&Ending::Exited(0), ""));
        let (_, aborted) = expectation("reach-error").expect("in scope");
        assert!(aborted(&Ending::Signaled(6), ""));
        assert!(!aborted(&Ending::Exited(1), ""));
        assert!(expectation("memory-leak").is_none());
    }

    #[test]
    fn rewritten_copies_replace_their_originals() {
        let harness = "/* x\n * Rewritten: /a/main.c => /h/t.main.c\n */\n";
        let (files, dirs) = build_inputs(harness, vec![PathBuf::from("/a/main.c"), PathBuf::from("/a/other.c")]);
        assert_eq!(files, [PathBuf::from("/h/t.main.c"), PathBuf::from("/a/other.c")]);
        assert_eq!(dirs, [PathBuf::from("/a")]);
    }

    #[test]
    fn a_harness_names_the_flags_its_definitions_need() {
        let harness = "/* x\n * Build also with: -fsanitize=address\n */\n";
        assert_eq!(extra_flags(harness), ["-fsanitize=address"]);
        assert!(extra_flags("/* nothing */").is_empty());
    }

    #[test]
    fn render_lists_failures_and_compares() {
        let checked = [
            Checked { id: "a/1".into(), class: Some("reach-error".into()), check: Check::Reproduced },
            Checked { id: "a/2".into(), class: Some("array-bounds".into()), check: Check::Failed("the run exited with 0".into()) },
            Checked { id: "a/3".into(), class: None, check: Check::Skipped("no FALSE".into()) },
        ];
        let now = summarise(&checked, "t2");
        assert_eq!(now["checked"], 2);
        let before = json!({"reproduced": 0, "checked": 2, "failures": [{"id": "a/1"}]});
        let text = render(&now, Some(&before));
        assert!(text.contains("1/2 = 50.0%"), "{text}");
        assert!(text.contains("a/2 [array-bounds] (new): the run exited with 0"), "{text}");
        assert!(text.contains("fixed since the previous run: a/1"), "{text}");
    }
}
