//! The BenchExec tool-info module (`contrib/benchexec/tarsier.py`) checked
//! by BenchExec's own `python3 -m benchexec.test_tool_info`: it finds the
//! binary, reads its version, builds the command lines, and maps real
//! tarsier outputs to BenchExec's results (`false(valid-deref)`, `true`,
//! `unknown`, ...). The benchmark definition beside it must be well-formed
//! XML. Skips with a message when benchexec is not installed.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn benchexec_installed() -> bool {
    Command::new("python3").args(["-c", "import benchexec.test_tool_info"]).output().is_ok_and(|o| o.status.success())
}

/// (file, program, property formula, BenchExec's result for its output).
const TASKS: &[(&str, &str, &str, &str)] = &[
    ("deref.c", "int main(void) { int *p = 0; return *p; }\n",
     "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\nCHECK( init(main()), LTL(G valid-memtrack) )\n",
     "false(valid-deref)"),
    ("reach.c", "void reach_error(void);\nint main(void) { reach_error(); return 0; }\n",
     "CHECK( init(main()), LTL(G ! call(reach_error())) )\n", "false(unreach-call)"),
    ("overflow.c", "int __VERIFIER_nondet_int(void);\nint main(void) { int x = __VERIFIER_nondet_int(); return x + 1; }\n",
     "CHECK( init(main()), LTL(G ! overflow) )\n", "false(no-overflow)"),
    ("safe.c", "void reach_error(void);\nint main(void) { int x = 1; if (x != 1) reach_error(); return 0; }\n",
     "CHECK( init(main()), LTL(G ! call(reach_error())) )\n", "true"),
    ("contract.c", "int f(int x) __CPROVER_requires(x > 0) { return x; }\nint main(void) { return f(1); }\n",
     "CHECK( init(main()), LTL(G ! call(reach_error())) )\n", "unknown"),
];

#[test]
fn benchexec_accepts_the_tool_info_module() {
    if !benchexec_installed() {
        println!("SKIP benchexec_accepts_the_tool_info_module: benchexec is not installed (pip install benchexec)");
        return;
    }
    if !front_end_ready("benchexec_accepts_the_tool_info_module") {
        return;
    }
    let dir = scratch_dir("benchexec");
    let mut outputs = Vec::new();
    for (name, source, property, _) in TASKS {
        let file = write(&dir, name, source);
        let prp = write(&dir, &format!("{name}.prp"), property);
        let out = run([file.as_os_str(), "--property".as_ref(), prp.as_os_str()]);
        outputs.push(write(&dir, &format!("{name}.out"), &format!("{}{}", out.stdout, out.stderr)));
    }
    let binary_dir = Path::new(env!("CARGO_BIN_EXE_tarsier")).parent().unwrap().to_path_buf();
    let out = Command::new("python3")
        .args(["-m", "benchexec.test_tool_info", "contrib.benchexec.tarsier", "--no-container", "--tool-directory"])
        .arg(&binary_dir)
        .arg("--tool-output")
        .args(&outputs)
        .env("PYTHONPATH", repository())
        .output()
        .expect("python3 runs");
    // test_tool_info writes its report on stderr.
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{:?}: {text}", out.status);
    let version = format!("Version: “{}", env!("CARGO_PKG_VERSION"));
    assert!(text.contains(&version), "{text}");
    assert!(text.contains("'--property', 'PROPERTY.PRP', '--32'"), "the SV-Benchmarks task's data model: {text}");
    for ((name, _, _, expected), output) in TASKS.iter().zip(&outputs) {
        let heading = format!("Result of analyzing tool output in “{}”:\n\t“{expected}”", output.display());
        assert!(text.contains(&heading), "{name}: expected {expected}:\n{text}");
    }
}

#[test]
fn the_benchmark_definition_is_well_formed() {
    let definition = repository().join("contrib/benchexec/tarsier-sv-benchmarks.xml");
    let script = "import sys, xml.etree.ElementTree as t; r = t.parse(sys.argv[1]).getroot(); print(r.get('tool'), len(r.findall('tasks')))";
    match Command::new("python3").args(["-c", script]).arg(&definition).output() {
        Err(_) => println!("SKIP the_benchmark_definition_is_well_formed: python3 is not installed"),
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(text.trim(), "contrib.benchexec.tarsier 7");
        }
    }
}
