//! `--sarif FILE` on a FALSE, a TRUE and an UNKNOWN run, validated by
//! Microsoft's SARIF Multitool (skipped with a message when it is not
//! installed), and read back for what a CI system shows: the rule id, the
//! violated line, the trace as a code flow, the verdict as a notification.

mod common;
use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

const RUNS: &[(&str, &str, &[&str], &str)] = &[
    ("false.c", "int __VERIFIER_nondet_int(void);\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  return x + 1;\n}\n",
     &["--overflow-check"], "VERIFICATION FAILED"),
    ("true.c", "int main(void) { int s = 0; for (int i = 0; i < 4; i++) s += i; return s; }\n", &[], "VERIFICATION SUCCESSFUL"),
    ("unknown.c", "int f(int x) __CPROVER_requires(x > 0) { return x; }\nint main(void) { return f(1); }\n", &[], "VERIFICATION UNKNOWN"),
];

/// Runs every task with `--sarif`, checks the verdicts, returns the logs.
fn sarif_logs(dir: &Path) -> Vec<(PathBuf, Value)> {
    let mut logs = Vec::new();
    for (name, source, flags, verdict) in RUNS {
        let file = write(dir, name, source);
        let log = dir.join(format!("{name}.sarif"));
        let args = [file.to_str().unwrap(), "--sarif", log.to_str().unwrap()];
        let out = run(args.into_iter().chain(flags.iter().copied()));
        assert_eq!(out.stdout.lines().last(), Some(*verdict), "{name}: {}{}", out.stdout, out.stderr);
        let text = std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{name}: no SARIF log: {e}"));
        logs.push((log, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))));
    }
    logs
}

#[test]
fn sarif_logs_pass_the_sarif_validator_and_carry_the_result() {
    if !front_end_ready("sarif_logs_pass_the_sarif_validator_and_carry_the_result") {
        return;
    }
    let dir = scratch_dir("sarif");
    let logs = sarif_logs(&dir);
    let runs: Vec<&Value> = logs.iter().map(|(_, log)| &log["runs"][0]).collect();
    let failed = &runs[0]["results"][0];
    assert_eq!(failed["ruleId"], "signed-overflow", "{failed:#}");
    assert_eq!(failed["locations"][0]["physicalLocation"]["region"]["startLine"], 4, "{failed:#}");
    let steps = failed["codeFlows"][0]["threadFlows"][0]["locations"].as_array().expect("a code flow");
    assert!(steps[0]["location"]["message"]["text"].as_str().unwrap().contains("x = 2147483647 (input: "), "{failed:#}");
    for (run, verdict) in runs[1..].iter().zip(["VERIFICATION SUCCESSFUL", "VERIFICATION UNKNOWN"]) {
        assert_eq!(run["results"], serde_json::json!([]), "{run:#}");
        let notification = &run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"];
        assert!(notification.as_str().unwrap().starts_with(verdict), "{run:#}");
    }
    let paths: Vec<&Path> = logs.iter().map(|(path, _)| path.as_path()).collect();
    match validators::sarif_multitool(&paths) {
        None => println!(
            "SKIP SARIF validation: sarif-multitool is not installed (npm install -g @microsoft/sarif-multitool)"
        ),
        Some(errors) => assert!(errors.is_empty(), "{}", errors.join("\n")),
    }
}

#[test]
fn the_validator_finds_a_broken_log() {
    let dir = scratch_dir("sarif-negative");
    let broken = write(&dir, "broken.sarif", r#"{"version": "2.1.0", "runs": [{"tool": {}}]}"#);
    match validators::sarif_multitool(&[&broken]) {
        None => println!("SKIP the_validator_finds_a_broken_log: sarif-multitool is not installed"),
        Some(errors) => assert!(errors.iter().any(|e| e.contains("driver")), "{errors:?}"),
    }
}
