//! `cargo xtask witness-check`: runs tarsier on every SV-COMP task of the
//! sv-benchmarks suite (task definition and property) writing a witness,
//! checks every witness against the schema of format 2.0
//! (`scripts/check_witness.py`), has `--validate-witness` replay every
//! violation witness, and prints the counts next to the previous run's.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use xtask::corpus::{self, Suite, Task};
use xtask::process::{run_with_timeout, Ending};
use xtask::runner::parallel_map;

/// What one task's run gave.
struct Checked {
    id: String,
    /// The SV-COMP result line (`TRUE`, `FALSE(...)`, `UNKNOWN`).
    result: String,
    /// The corpus runner's score of the result (`correct`, `wrong`,
    /// `disputed`, ...).
    score: &'static str,
    witness: Option<PathBuf>,
    /// For a violation witness: what `--validate-witness` said.
    validation: Option<Result<(), String>>,
}

/// Runs the check; `binary` is the tarsier to run.
pub fn run(binary: &Path, timeout: Duration, jobs: usize, timestamp: &str) -> Result<(), String> {
    let suite = Suite::Sv;
    let dir = suite.locate().ok_or("the sv-benchmarks corpus is not there (../shared/corpus/sv-benchmarks)")?;
    let tasks = suite.load(&dir)?;
    let out_dir = corpus::workspace_root().join("target/witness-check");
    let witness_dir = out_dir.join(timestamp);
    std::fs::create_dir_all(&witness_dir).map_err(|e| format!("cannot create {}: {e}", witness_dir.display()))?;
    let indexed: Vec<(usize, &Task)> = tasks.iter().enumerate().collect();
    let checked = parallel_map(&indexed, jobs, |(index, task)| check(binary, &dir, task, &witness_dir.join(format!("{index}.yml")), timeout), |done| {
        eprint!("\r{done}/{} tasks", tasks.len());
    });
    eprintln!();
    let schema_failures = schema_check(checked.iter().filter_map(|c| c.witness.as_deref()))?;
    let summary = summarise(&checked, &schema_failures, timestamp);
    let previous = xtask::report::newest_saved(&out_dir, |_| true);
    print!("{}", render(&summary, previous.as_ref().map(|(_, v)| v)));
    for c in &checked {
        if let Some(Err(why)) = &c.validation {
            println!("  not validated: {}: {why}", c.id);
        }
        match c.score {
            "wrong" => println!("  WRONG: {}: {}", c.id, c.result),
            "disputed" => println!("  disputed (see xtask/disputed.txt): {}: {}", c.id, c.result),
            _ => {}
        }
    }
    for (file, why) in &schema_failures {
        println!("  schema: {file}: {why}");
    }
    let saved = out_dir.join(format!("{timestamp}.json"));
    std::fs::write(&saved, format!("{summary:#}\n")).map_err(|e| format!("cannot write {}: {e}", saved.display()))?;
    println!("figures saved to {}", saved.display());
    Ok(())
}

fn check(binary: &Path, dir: &Path, task: &Task, witness: &Path, timeout: Duration) -> Checked {
    let property = task.property.as_ref().expect("sv tasks have a property");
    let yml = dir.join(task.id.split('#').next().unwrap_or_default());
    let prp = dir.join(&property.file);
    let mut command = Command::new(binary);
    command.arg(&yml).arg("--property").arg(&prp).arg("--timeout").arg(timeout.as_secs().to_string()).arg("--witness").arg(witness);
    let result = run_with_timeout(&mut command, timeout + Duration::from_secs(10))
        .ok()
        .and_then(|out| svcomp_line(&out.stdout))
        .unwrap_or_else(|| "UNKNOWN".to_string());
    let score = xtask::report::svcomp_category(task, &result);
    let written = witness.exists().then(|| witness.to_path_buf());
    let validation = written.as_ref().filter(|_| result.starts_with("FALSE")).map(|w| validate(binary, &yml, &prp, w, timeout));
    Checked { id: task.id.clone(), result, score, witness: written, validation }
}

/// The SV-COMP result line: the one before the verdict.
fn svcomp_line(stdout: &str) -> Option<String> {
    let lines: Vec<&str> = stdout.lines().collect();
    lines.len().checked_sub(2).map(|i| lines[i].to_string())
}

fn validate(binary: &Path, yml: &Path, prp: &Path, witness: &Path, timeout: Duration) -> Result<(), String> {
    let mut command = Command::new(binary);
    command.arg("--validate-witness").arg(witness).arg(yml).arg("--property").arg(prp);
    let out = run_with_timeout(&mut command, timeout + Duration::from_secs(10)).map_err(|e| e.to_string())?;
    match out.ending {
        Ending::Exited(10) => Ok(()),
        _ => Err(out.stdout.lines().next().unwrap_or("no answer").to_string()),
    }
}

/// The witnesses that fail the schema, with the reason.
fn schema_check<'a>(witnesses: impl Iterator<Item = &'a Path>) -> Result<Vec<(String, String)>, String> {
    let root = corpus::workspace_root();
    let out = Command::new("python3")
        .arg(root.join("xtask/scripts/check_witness.py"))
        .arg(root.join("docs/witness-2.0.schema.json"))
        .args(witnesses)
        .output()
        .map_err(|e| format!("cannot run python3 for the schema check: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if out.status.code() == Some(3) {
        return Err(format!("the schema check needs Python packages (pip install jsonschema pyyaml): {stdout}"));
    }
    Ok(stdout
        .lines()
        .filter_map(|l| l.strip_prefix("bad "))
        .map(|l| l.split_once(": ").map_or((l.to_string(), String::new()), |(f, w)| (f.to_string(), w.to_string())))
        .collect())
}

fn summarise(checked: &[Checked], schema_failures: &[(String, String)], timestamp: &str) -> Value {
    let count = |f: &dyn Fn(&Checked) -> bool| checked.iter().filter(|c| f(c)).count();
    let decided = count(&|c| c.result == "TRUE" || c.result.starts_with("FALSE"));
    let witnesses = count(&|c| c.witness.is_some());
    json!({
        "timestamp": timestamp,
        "tasks": checked.len(),
        "decided": decided,
        "true": count(&|c| c.result == "TRUE"),
        "false": count(&|c| c.result.starts_with("FALSE")),
        "wrong": count(&|c| c.score == "wrong"),
        "disputed": count(&|c| c.score == "disputed"),
        "witnesses": witnesses,
        "schema_valid": witnesses - schema_failures.len(),
        "violation_witnesses": count(&|c| c.validation.is_some()),
        "validated": count(&|c| matches!(c.validation, Some(Ok(())))),
    })
}

const FIGURES: [&str; 10] = ["tasks", "decided", "true", "false", "wrong", "disputed", "witnesses", "schema_valid", "violation_witnesses", "validated"];

fn render(summary: &Value, previous: Option<&Value>) -> String {
    let mut out = String::from("witness check on sv-benchmarks:\n");
    for key in FIGURES {
        let now = summary[key].as_u64().unwrap_or(0);
        let before = previous.and_then(|p| p[key].as_u64()).map_or(String::new(), |b| format!("  (previous {b})"));
        out += &format!("  {key:<20} {now}{before}\n");
    }
    out
}
