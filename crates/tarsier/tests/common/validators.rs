//! The outside validators that check tarsier's documents the way their
//! consumers would: a JSON schema through Python's `jsonschema` package,
//! SARIF through Microsoft's SARIF Multitool.
//! Each answers `None` when the tool is not installed, so that the test
//! skips with a message instead of passing unchecked.

use std::path::Path;
use std::process::Command;

/// Checks every document against the JSON schema at `schema` with
/// Python's `jsonschema` (the draft the schema names). `None` when
/// `python3` or its `jsonschema` package is missing; otherwise the
/// validator's complaints, empty when every document is valid.
pub fn jsonschema(schema: &Path, documents: &[&Path]) -> Option<Vec<String>> {
    const SCRIPT: &str = "\
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
validator = jsonschema.validators.validator_for(schema)
validator.check_schema(schema)
for path in sys.argv[2:]:
    for error in validator(schema).iter_errors(json.load(open(path))):
        print(f'{path}: {error.json_path}: {error.message}')
";
    let probe = Command::new("python3").args(["-c", "import jsonschema"]).output().ok()?;
    if !probe.status.success() {
        return None;
    }
    let out = Command::new("python3").arg("-c").arg(SCRIPT).arg(schema).args(documents).output().ok()?;
    let mut complaints: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect();
    if !out.status.success() {
        complaints.push(format!("the validator failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Some(complaints)
}

/// Validates SARIF logs with Microsoft's `sarif-multitool validate` (npm
/// package `@microsoft/sarif-multitool`), which checks the SARIF 2.1.0
/// schema and the specification's rules. `None` when it is not on `PATH`;
/// otherwise its errors (its warnings are advice, not violations).
pub fn sarif_multitool(logs: &[&Path]) -> Option<Vec<String>> {
    let out = Command::new("sarif-multitool").arg("validate").args(logs).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut errors: Vec<String> = text.lines().filter(|l| l.contains(": error ")).map(str::to_string).collect();
    if !out.status.success() || !text.contains("Analysis completed successfully") {
        errors.push(format!("the validator failed: {text}{}", String::from_utf8_lossy(&out.stderr)));
    }
    Some(errors)
}
