//! `--json` against its documented schema (`docs/json-schema.json`),
//! validated by Python's `jsonschema`: a FALSE with its trace, an UNKNOWN
//! with its reason, TRUE by bounded exhaustion, by k-induction with
//! certified invariants, and under an assumed bound, termination by a
//! ranking function, and an SV-COMP run.
//! Skips with a message when the validator is not installed.

mod common;
use common::*;
use std::path::{Path, PathBuf};

/// Proved by k-induction with certified invariants (`2*i == j`, ...).
const UNBOUNDED: &str = "\
unsigned __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int);
int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  unsigned i = 0, j = 0;
  while (i < n) { i++; j += 2; }
  __VERIFIER_assert(j == 2 * i);
  return 0;
}
";

const RUNS: &[(&str, &str, &[&str], &str)] = &[
    ("false.c", "int __VERIFIER_nondet_int(void);\nint main(void) { int x = __VERIFIER_nondet_int(); return x + 1; }\n",
     &["--overflow-check"], "VERIFICATION FAILED"),
    ("unknown.c", "int f(int x) __CPROVER_requires(x > 0) { return x; }\nint main(void) { return f(1); }\n", &[], "VERIFICATION UNKNOWN"),
    ("exhausted.c", "int main(void) { int s = 0; for (int i = 0; i < 4; i++) s += i; return s; }\n", &[], "VERIFICATION SUCCESSFUL"),
    ("kinduction.c", UNBOUNDED, &["--k-induction"], "VERIFICATION SUCCESSFUL"),
    ("assumed.c", UNBOUNDED, &["--unwind", "2", "--no-unwinding-assertions"], "VERIFICATION SUCCESSFUL"),
    ("ranking.c", UNBOUNDED, &["--termination"], "VERIFICATION SUCCESSFUL"),
];

fn schema() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/json-schema.json")
}

#[test]
fn json_output_follows_its_schema() {
    if !front_end_ready("json_output_follows_its_schema") {
        return;
    }
    let dir = scratch_dir("json-schema");
    let mut documents = Vec::new();
    for (name, source, flags, verdict) in RUNS {
        let file = write(&dir, name, source);
        let out = run(std::iter::once(file.to_str().unwrap()).chain(flags.iter().copied()).chain(["--json"]));
        let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{name}: {e}\n{}", out.stdout));
        assert_eq!(doc["verdict"], *verdict, "{name}: {}", out.stdout);
        documents.push(write(&dir, &format!("{name}.json"), &out.stdout));
    }
    let kinduction: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&documents[3]).unwrap()).unwrap();
    assert_eq!(kinduction["proof"]["method"], "k-induction", "the k-induction proof fields are covered");
    assert!(!kinduction["proof"]["invariants"].as_array().unwrap().is_empty(), "and its invariants: {kinduction:#}");
    let ranking: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&documents[5]).unwrap()).unwrap();
    assert_eq!(ranking["proof"]["method"], "ranking-functions", "the ranking proof fields are covered: {ranking:#}");
    let prp = write(&dir, "unreach.prp", "CHECK( init(main()), LTL(G ! call(reach_error())) )\n");
    let svcomp = write(&dir, "svcomp.c", "void reach_error(void);\nint main(void) { reach_error(); return 0; }\n");
    let out = run([svcomp.as_os_str(), "--property".as_ref(), prp.as_os_str(), "--json".as_ref()]);
    assert!(out.stdout.contains("\"svcomp\": \"FALSE(unreach-call)\""), "{}", out.stdout);
    documents.push(write(&dir, "svcomp.json", &out.stdout));
    let paths: Vec<&Path> = documents.iter().map(PathBuf::as_path).collect();
    match validators::jsonschema(&schema(), &paths) {
        None => println!("SKIP json_output_follows_its_schema: python3 with the jsonschema package is not installed (pip install jsonschema)"),
        Some(complaints) => assert!(complaints.is_empty(), "{}", complaints.join("\n")),
    }
}

#[test]
fn the_schema_rejects_what_tarsier_never_writes() {
    let dir = scratch_dir("json-schema-negative");
    let no_trace = write(&dir, "no-trace.json", r#"{"verdict": "VERIFICATION FAILED", "approximations": [], "stats": {}}"#);
    let unknown_field = write(&dir, "extra.json", r#"{"verdict": "VERIFICATION UNKNOWN", "reason": "x", "approximations": [], "stats": {}, "guess": 1}"#);
    match validators::jsonschema(&schema(), &[&no_trace, &unknown_field]) {
        None => println!("SKIP the_schema_rejects_what_tarsier_never_writes: python3 with jsonschema is not installed"),
        Some(complaints) => {
            assert!(complaints.iter().any(|c| c.contains("no-trace.json") && c.contains("'trace' is a required property")), "{complaints:?}");
            assert!(complaints.iter().any(|c| c.contains("extra.json") && c.contains("guess")), "{complaints:?}");
        }
    }
}
