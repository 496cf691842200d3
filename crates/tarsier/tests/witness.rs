//! SV-COMP tasks and witnesses through the binary: task definitions as
//! input (every property, or the one `--property` names; bad ones named
//! by line), witnesses of FALSE and TRUE checked against the project's
//! schema of format 2.0 by the `jsonschema` Python package and GraphML by
//! an XML parser (skipped with a message when absent), and
//! `--validate-witness` confirming a true witness and refusing a forged one
//! (a thread program's GraphML witness by its schedule).

mod common;

use common::{exit_code, front_end_ready, run, scratch_dir, write};
use std::path::{Path, PathBuf};
use std::process::Command;

const UNREACH: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n";

const BUGGY: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n\
int main(void) {\n  int x = __VERIFIER_nondet_int();\n  int y = __VERIFIER_nondet_int();\n\
  if (x == 42 && y < -3) reach_error();\n  return 0;\n}\n";

const SAFE: &str = "extern unsigned __VERIFIER_nondet_uint(void);\nextern void reach_error(void);\n\
int main(void) {\n  unsigned n = __VERIFIER_nondet_uint(), i = 0;\n  while (i < n) i++;\n\
  if (i != n) reach_error();\n  return 0;\n}\n";

/// A task folder: the program, the property files and the task definition.
fn task(test: &str, source: &str) -> (PathBuf, PathBuf) {
    let dir = scratch_dir(test);
    write(&dir, "p.c", source);
    let prp = write(&dir, "unreach-call.prp", UNREACH);
    write(&dir, "termination.prp", "CHECK( init(main()), LTL(F end) )\n");
    let yml = "format_version: '2.0'\ninput_files: 'p.c'\nproperties:\n  - property_file: unreach-call.prp\n    expected_verdict: false\n\
               \x20 - property_file: termination.prp\noptions:\n  language: C\n  data_model: ILP32\n";
    (write(&dir, "p.yml", yml), prp)
}

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn a_task_runs_every_property_in_turn() {
    if !front_end_ready("a_task_runs_every_property_in_turn") {
        return;
    }
    let (yml, _) = task("witness-task", BUGGY);
    let out = run([arg(&yml)]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines.contains(&"property: unreach-call.prp") && lines.contains(&"FALSE(unreach-call)"), "{}", out.stdout);
    assert!(lines.contains(&"property: termination.prp") && lines.contains(&"TRUE"), "{}", out.stdout);
    assert_eq!(exit_code(&out), Some(10), "a violation is the run's answer");
    let dir = yml.parent().unwrap();
    let odd = write(dir, "odd.prp", "CHECK( init(main()), LTL(G valid-free) )\n");
    let out = run([arg(&yml), "--property", arg(&odd)]);
    assert_eq!(exit_code(&out), Some(5), "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("unsupported: property `CHECK( init(main()), LTL(G valid-free) )`"), "{}", out.stdout);
}

#[test]
fn a_bad_task_is_an_input_error_with_its_line() {
    let dir = scratch_dir("witness-bad-task");
    let yml = write(&dir, "bad.yml", "format_version: '2.0'\ninput_files: 'p.c'\noptions:\n  data_model: ILP64\n");
    let out = run([arg(&yml)]);
    assert_eq!(exit_code(&out), Some(1), "{}", out.stderr);
    assert!(out.stderr.contains("bad.yml:4: unknown data_model 'ILP64'"), "{}", out.stderr);
}

/// Runs the schema check on `files`; `None` (with a message) when Python
/// or its packages are missing.
fn schema_check(files: &[&Path]) -> Option<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new("python3")
        .arg(root.join("xtask/scripts/check_witness.py"))
        .arg(root.join("docs/witness-2.0.schema.json"))
        .args(files)
        .output()
        .ok()?;
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    if out.status.code() == Some(3) {
        eprintln!("skipping the schema check: {stdout}");
        return None;
    }
    Some(stdout)
}

#[test]
fn violation_witnesses_pass_the_schema_and_are_confirmed() {
    if !front_end_ready("violation_witnesses_pass_the_schema_and_are_confirmed") {
        return;
    }
    let (yml, prp) = task("witness-violation", BUGGY);
    let witness = yml.with_file_name("w.yml");
    let out = run([arg(&yml), "--property", arg(&prp), "--witness", arg(&witness)]);
    assert_eq!(exit_code(&out), Some(10), "{}", out.stdout);
    let text = std::fs::read_to_string(&witness).unwrap();
    assert!(text.contains("\"\\\\result == 42\"") && text.contains("type: \"target\""), "{text}");
    assert!(text.contains("line: 6"), "the target is the call of reach_error: {text}");
    let graphml = yml.with_file_name("w.graphml");
    let out = run([arg(&yml), "--property", arg(&prp), "--graphml-witness", arg(&graphml)]);
    assert_eq!(exit_code(&out), Some(10));
    if let Some(report) = schema_check(&[&witness, &graphml]) {
        assert_eq!(report.lines().filter(|l| l.starts_with("ok ")).count(), 2, "{report}");
    }
    let out = run(["--validate-witness", arg(&witness), arg(&yml), "--property", arg(&prp)]);
    assert_eq!(exit_code(&out), Some(10), "{}", out.stdout);
    assert!(out.stdout.contains("witness confirmed: FALSE(unreach-call)"), "{}", out.stdout);
    // A witness whose value misses the bug confirms nothing.
    let forged = write(yml.parent().unwrap(), "forged.yml", &text.replace("== 42", "== 41"));
    let out = run(["--validate-witness", arg(&forged), arg(&yml), "--property", arg(&prp)]);
    assert_eq!(exit_code(&out), Some(5), "{}", out.stdout);
    assert!(out.stdout.contains("witness not confirmed"), "{}", out.stdout);
}

#[test]
fn correctness_witnesses_pass_the_schema() {
    if !front_end_ready("correctness_witnesses_pass_the_schema") {
        return;
    }
    let (yml, prp) = task("witness-correctness", SAFE);
    let witness = yml.with_file_name("w.yml");
    let out = run([arg(&yml), "--property", arg(&prp), "--witness", arg(&witness)]);
    assert_eq!(exit_code(&out), Some(0), "{}", out.stdout);
    let text = std::fs::read_to_string(&witness).unwrap();
    assert!(text.contains("entry_type: \"invariant_set\""), "{text}");
    if let Some(report) = schema_check(&[&witness]) {
        assert!(report.starts_with("ok "), "{report}");
    }
    // No witness for an UNKNOWN (a bounded proof is not one).
    let unknown = yml.with_file_name("none.yml");
    let out = run([arg(&yml), "--property", arg(&prp), "--witness", arg(&unknown), "--unwind", "1", "--no-unwinding-assertions"]);
    assert!(out.stdout.lines().any(|l| l == "UNKNOWN"), "{}", out.stdout);
    assert!(!unknown.exists());
}

/// Proved with an array-segment invariant (`forall j: ... a[j] == 42`),
/// which no C expression states.
const SEGMENT: &str = "extern void reach_error(void);\n\
int main(void) {\n  int a[20000];\n  int i = 0;\n  while (i < 20000) { a[i] = 42; i = i + 1; }\n\
  for (int x = 0; x < 20000; x++) if (a[x] != 42) reach_error();\n  return 0;\n}\n";

#[test]
fn a_quantified_invariant_is_left_out_of_a_correctness_witness() {
    if !front_end_ready("a_quantified_invariant_is_left_out_of_a_correctness_witness") {
        return;
    }
    let (yml, prp) = task("witness-segment", SEGMENT);
    let witness = yml.with_file_name("w.yml");
    let out = run([arg(&yml), "--property", arg(&prp), "--witness", arg(&witness)]);
    assert_eq!(exit_code(&out), Some(0), "{}", out.stdout);
    assert!(out.stdout.contains("forall long long j"), "the proof needs the segment: {}", out.stdout);
    let text = std::fs::read_to_string(&witness).unwrap();
    assert!(text.contains("entry_type: \"invariant_set\""), "{text}");
    assert!(!text.contains("forall"), "{text}");
    if let Some(report) = schema_check(&[&witness]) {
        assert!(report.starts_with("ok "), "{report}");
    }
}

/// An uninitialised local that the program reads as its input.
const UNINITIALISED: &str = "extern void reach_error(void);\n\
int main(void) {\n  unsigned x;\n  if (x == 12345u) reach_error();\n  return 0;\n}\n";

#[test]
fn an_uninitialised_local_read_as_input_is_stated() {
    if !front_end_ready("an_uninitialised_local_read_as_input_is_stated") {
        return;
    }
    let (yml, prp) = task("witness-uninitialised", UNINITIALISED);
    let witness = yml.with_file_name("w.yml");
    let out = run([arg(&yml), "--property", arg(&prp), "--witness", arg(&witness)]);
    assert_eq!(exit_code(&out), Some(10), "{}", out.stdout);
    let text = std::fs::read_to_string(&witness).unwrap();
    assert!(text.contains("type: \"assumption\"") && text.contains("\"x == 12345U\""), "{text}");
    if let Some(report) = schema_check(&[&witness]) {
        assert!(report.starts_with("ok "), "{report}");
    }
    let out = run(["--validate-witness", arg(&witness), arg(&yml), "--property", arg(&prp)]);
    assert!(out.stdout.contains("witness confirmed: FALSE(unreach-call)"), "{}", out.stdout);
    // Without the assumption the replay has no value that reaches the error.
    let forged = write(yml.parent().unwrap(), "forged.yml", &text.replace("x == 12345U", "x == 12344U"));
    let out = run(["--validate-witness", arg(&forged), arg(&yml), "--property", arg(&prp)]);
    assert!(out.stdout.contains("witness not confirmed"), "{}", out.stdout);
}

/// `v` comes from one of two calls, by the branch `c` takes; 42 reaches the error.
const TWO_PATHS: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n\
int main(void) {\n  int c = __VERIFIER_nondet_int();\n  int v;\n  if (c == 7)\n    v = __VERIFIER_nondet_int();\n\
  else\n    v = __VERIFIER_nondet_int();\n  if (v == 42) reach_error();\n  return 0;\n}\n";

/// Validates `text` as a witness of the task; the first line of the answer.
fn validate(dir: &Path, name: &str, text: &str, yml: &Path, prp: &Path) -> (Option<i32>, String) {
    let witness = write(dir, name, text);
    let out = run(["--validate-witness", arg(&witness), arg(yml), "--property", arg(prp)]);
    (exit_code(&out), out.stdout.lines().next().unwrap_or_default().to_string())
}

#[test]
fn a_witness_of_another_path_or_place_is_not_confirmed() {
    if !front_end_ready("a_witness_of_another_path_or_place_is_not_confirmed") {
        return;
    }
    let (yml, prp) = task("witness-strict", TWO_PATHS);
    let dir = yml.parent().unwrap();
    let witness = yml.with_file_name("w.yml");
    let out = run([arg(&yml), "--property", arg(&prp), "--witness", arg(&witness)]);
    assert_eq!(exit_code(&out), Some(10), "{}", out.stdout);
    let text = std::fs::read_to_string(&witness).unwrap();
    assert!(text.contains("\"\\\\result == 42\""), "{text}");
    let (code, answer) = validate(dir, "same.yml", &text, &yml, &prp);
    assert_eq!(code, Some(10), "the witness as written: {answer}");
    let not_confirmed = |name: &str, forged: String, why: &str| {
        assert_ne!(forged, text, "{name}: the forgery changed nothing");
        let (code, answer) = validate(dir, name, &forged, &yml, &prp);
        assert_eq!(code, Some(5), "{name}: {answer}");
        assert!(answer.starts_with("witness not confirmed") && answer.contains(why), "{name}: {answer}");
    };
    // The other branch also reads 42 into `v`, but not at the call the witness names.
    let c_value = text.split("\"\\\\result == ").nth(1).and_then(|rest| rest.split('"').next()).unwrap();
    let other_branch = if c_value == "7" { "8" } else { "7" };
    let flipped = text.replacen(&format!("result == {c_value}\""), &format!("result == {other_branch}\""), 1);
    not_confirmed("branch.yml", flipped, "never passes the waypoint at line");
    let target_line = |line: u32| {
        let at = text.find("type: \"target\"").unwrap();
        format!("{}{}", &text[..at], text[at..].replace("line: 10", &format!("line: {line}")))
    };
    not_confirmed("target.yml", target_line(11), "not at the target");
    not_confirmed("file.yml", text.replace("p.c\"\n              line: 10", "q.c\"\n              line: 10"), "not at the target");
    // A waypoint after the last one the run passes: a longer path than the run's.
    let last = text.rfind("    - segment:").unwrap();
    let before_target = text[..last].rfind("    - segment:").unwrap();
    let longer = format!("{}{}{}", &text[..last], &text[before_target..last], &text[last..]);
    not_confirmed("longer.yml", longer, "never passes the waypoint");
    not_confirmed("symbol.yml", text.replace("== 42\"", "== FORTY_TWO\""), "not a constant");
}

/// The error needs the thread's write before the main thread's read.
const INTERLEAVED: &str = "#include <pthread.h>\nextern void reach_error(void);\nint x;\n\
void *writer(void *arg) { x = 1; return 0; }\nint main(void) {\n  pthread_t id;\n\
  pthread_create(&id, 0, writer, 0);\n  int seen = x;\n  pthread_join(id, 0);\n\
  if (seen == 1) reach_error();\n  return 0;\n}\n";

/// A GraphML witness of a program with threads names each step's thread
/// and the thread a step starts; the validator follows that schedule to
/// the violation (no search for one), and a target elsewhere confirms
/// nothing. Format 2.0 has no threads: its witness is confirmed only by
/// the search.
#[test]
fn a_thread_witness_carries_its_schedule() {
    if !front_end_ready("a_thread_witness_carries_its_schedule") {
        return;
    }
    let (yml, prp) = task("witness-threads", INTERLEAVED);
    let dir = yml.parent().unwrap();
    let graphml = yml.with_file_name("w.graphml");
    let out = run([arg(&yml), "--property", arg(&prp), "--witness-format", "graphml", "--witness", arg(&graphml)]);
    assert_eq!(exit_code(&out), Some(10), "{}", out.stdout);
    let text = std::fs::read_to_string(&graphml).unwrap();
    assert!(text.contains("<data key=\"threadId\">1</data>") && text.contains("<data key=\"createThread\">1</data>"), "{text}");
    if let Some(report) = schema_check(&[&graphml]) {
        assert_eq!(report.lines().filter(|l| l.starts_with("ok ")).count(), 1, "{report}");
    }
    let (code, answer) = validate(dir, "same.graphml", &text, &yml, &prp);
    assert_eq!(code, Some(10), "{answer}");
    assert!(answer.starts_with("witness confirmed: FALSE(unreach-call): reach-error at") && !answer.contains("search"), "{answer}");
    let (line_10, line_11) = ("<data key=\"startline\">10</data>", "<data key=\"startline\">11</data>");
    let into_violation = text.rfind(line_10).unwrap();
    let elsewhere = format!("{}{line_11}{}", &text[..into_violation], &text[into_violation + line_10.len()..]);
    let (code, answer) = validate(dir, "target.graphml", &elsewhere, &yml, &prp);
    assert_eq!(code, Some(5), "{answer}");
    assert!(answer.contains("not at the target"), "{answer}");
    let witness = yml.with_file_name("w.yml");
    let out = run([arg(&yml), "--property", arg(&prp), "--witness", arg(&witness)]);
    assert_eq!(exit_code(&out), Some(10), "{}", out.stdout);
    let (code, answer) = validate(dir, "same.yml", &std::fs::read_to_string(&witness).unwrap(), &yml, &prp);
    assert_eq!(code, Some(10), "{answer}");
    assert!(answer.contains("found by search"), "{answer}");
}

/// The error needs an uninitialised array's element, which a witness cannot state.
const FREE_CONTENTS: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n\
int main(void) {\n  int a[4];\n  int i = __VERIFIER_nondet_int();\n\
  if (i >= 0 && i < 4 && a[i] == 1234 && i == 2) reach_error();\n  return 0;\n}\n";

#[test]
fn values_a_witness_leaves_free_are_searched_for() {
    if !front_end_ready("values_a_witness_leaves_free_are_searched_for") {
        return;
    }
    let (yml, prp) = task("witness-free", FREE_CONTENTS);
    let dir = yml.parent().unwrap();
    let witness = yml.with_file_name("w.yml");
    let out = run([arg(&yml), "--property", arg(&prp), "--witness", arg(&witness)]);
    assert_eq!(exit_code(&out), Some(10), "{}", out.stdout);
    let text = std::fs::read_to_string(&witness).unwrap();
    assert!(text.contains("\"\\\\result == 2\"") && !text.contains("1234"), "{text}");
    // Zero for a[2] misses the error: the search finds 1234.
    let (code, answer) = validate(dir, "same.yml", &text, &yml, &prp);
    assert_eq!(code, Some(10), "{answer}");
    assert!(answer.contains("found by search"), "{answer}");
    // The values the witness does state still bind the search.
    let (code, answer) = validate(dir, "index.yml", &text.replace("\\result == 2\"", "\\result == 3\""), &yml, &prp);
    assert_eq!(code, Some(5), "{answer}");
    assert!(answer.contains("no run that follows the witness violates the property"), "{answer}");
}

/// The overflow can only be in the loop condition's first test; the
/// calls in the body come after it.
const OVERFLOW_FIRST: &str = "extern int __VERIFIER_nondet_int(void);\n\
int main(void) {\n  int x = __VERIFIER_nondet_int();\n  while (2 * x > 10)\n    x = __VERIFIER_nondet_int() % 100;\n  return 0;\n}\n";

#[test]
fn a_witness_names_no_input_after_its_violation() {
    if !front_end_ready("a_witness_names_no_input_after_its_violation") {
        return;
    }
    let (yml, _) = task("witness-after", OVERFLOW_FIRST);
    let dir = yml.parent().unwrap();
    let prp = write(dir, "no-overflow.prp", "CHECK( init(main()), LTL(G ! overflow) )\n");
    let witness = yml.with_file_name("w.yml");
    let out = run([arg(&yml), "--property", arg(&prp), "--witness", arg(&witness), "--unwind", "3"]);
    assert_eq!(exit_code(&out), Some(10), "{}", out.stdout);
    let text = std::fs::read_to_string(&witness).unwrap();
    assert!(!text.contains("line: 5"), "the call in the loop body comes after the violation: {text}");
    let (code, answer) = validate(dir, "same.yml", &text, &yml, &prp);
    assert_eq!(code, Some(10), "{answer}");
    assert!(answer.contains("signed-overflow at") && answer.ends_with(":4"), "{answer}");
}

/// Only a start of 4 loops for ever (x cycles through 4, 6, 4, ...).
const NON_TERMINATING: &str = "extern unsigned __VERIFIER_nondet_uint(void);\n\
int main(void) {\n  unsigned x = __VERIFIER_nondet_uint();\n  while (x == 4 || x == 6)\n    x = 10 - x;\n  return 0;\n}\n";

#[test]
fn a_non_termination_witness_is_confirmed_only_for_a_run_that_loops() {
    if !front_end_ready("a_non_termination_witness_is_confirmed_only_for_a_run_that_loops") {
        return;
    }
    let (yml, _) = task("witness-termination", NON_TERMINATING);
    let dir = yml.parent().unwrap();
    let prp = dir.join("termination.prp");
    let witness = yml.with_file_name("w.yml");
    let out = run([arg(&yml), "--property", arg(&prp), "--witness", arg(&witness)]);
    assert!(out.stdout.lines().any(|l| l == "FALSE(termination)"), "{}", out.stdout);
    let text = std::fs::read_to_string(&witness).unwrap();
    let (code, answer) = validate(dir, "same.yml", &text, &yml, &prp);
    assert_eq!(code, Some(10), "{answer}");
    assert!(answer.contains("FALSE(termination)"), "{answer}");
    // Any other start ends at once.
    let x = text.split("\"\\\\result == ").nth(1).and_then(|rest| rest.split('U').next()).unwrap();
    assert!(x == "4" || x == "6", "{text}");
    let (code, answer) = validate(dir, "other.yml", &text.replacen(&format!("result == {x}U"), "result == 5U", 1), &yml, &prp);
    assert_eq!(code, Some(5), "{answer}");
}
