//! The command line as a user meets it: flag errors, file errors, exit
//! codes, macro definitions, and the shape of error messages.

mod common;
use common::*;

#[test]
fn unknown_flag_lists_the_valid_ones_and_suggests_one() {
    let out = run(["a.c", "--parse-onyl"]);
    assert_eq!(exit_code(&out), Some(EXIT_USAGE), "{}", out.stderr);
    assert!(out.stderr.contains("unknown flag '--parse-onyl'"), "{}", out.stderr);
    assert!(out.stderr.contains("did you mean '--parse-only'?"), "{}", out.stderr);
    for flag in ["--unwind N", "-D NAME[=VALUE]", "--k-induction", "--show-ir"] {
        assert!(out.stderr.contains(flag), "valid flag {flag} not listed:\n{}", out.stderr);
    }
}

#[test]
fn help_is_a_manual_and_succeeds() {
    let out = run(["--help"]);
    assert_eq!(exit_code(&out), Some(EXIT_SUCCESS));
    for section in ["USAGE:", "EXIT STATUS:", "EXAMPLES:", "--no-unwinding-assertions"] {
        assert!(out.stdout.contains(section), "missing {section}");
    }
}

#[test]
fn no_input_is_a_usage_error() {
    let out = run(["--64"]);
    assert_eq!(exit_code(&out), Some(EXIT_USAGE));
    assert!(out.stderr.contains("no input file"), "{}", out.stderr);
}

#[test]
fn missing_file_is_an_input_error_naming_it() {
    let out = run(["/nonexistent/dir/missing.c", "--parse-only"]);
    assert_eq!(exit_code(&out), Some(EXIT_INPUT_ERROR));
    assert!(out.stderr.contains("cannot read '/nonexistent/dir/missing.c'"), "{}", out.stderr);
    let out = run(["/nonexistent/dir/missing.c"]);
    assert_eq!(exit_code(&out), Some(EXIT_INPUT_ERROR));
    assert!(!out.stdout.contains("VERIFICATION"), "no verdict for a missing file: {}", out.stdout);
}

#[test]
fn verification_flags_are_accepted_and_the_verdict_matches_the_exit_code() {
    let dir = scratch_dir("cli-verify");
    let file = write(&dir, "ok.c", "int main(void) { return 0; }\n");
    let file = file.to_str().unwrap();
    let runs = [
        vec![file, "--unwind", "3", "--overflow-check", "--timeout=30", "--no-bounds-check", "--force-malloc-success"],
        vec![file, "--k-induction", "--memory-leak-check", "--unsigned-overflow-check"],
        vec![file, "--round-to-zero", "--nan-check"],
    ];
    for args in runs {
        let out = run(&args);
        let lines: Vec<&str> = out.stdout.lines().collect();
        let expected_exit = match lines.last() {
            Some(&"VERIFICATION SUCCESSFUL") => EXIT_SUCCESS,
            Some(&"VERIFICATION FAILED") => 10,
            Some(&"VERIFICATION UNKNOWN") => {
                let reason = lines.len().checked_sub(2).map(|i| lines[i]).unwrap_or_default();
                assert!(!reason.trim().is_empty(), "UNKNOWN without a reason: {}", out.stdout);
                EXIT_UNKNOWN
            }
            _ => panic!("{args:?}: no verdict as the last line:\n{}{}", out.stdout, out.stderr),
        };
        assert_eq!(exit_code(&out), Some(expected_exit), "{args:?}: {}", out.stdout);
    }
}

#[test]
fn json_output_is_one_document_with_verdict_and_trace() {
    if !front_end_ready("json_output_is_one_document_with_verdict_and_trace") {
        return;
    }
    let dir = scratch_dir("cli-json");
    let file = write(&dir, "bug.c", "int __VERIFIER_nondet_int(void);\nint main(void) { int x = __VERIFIER_nondet_int(); if (x == 42) { int *p = 0; return *p; } return 0; }\n");
    let out = run([file.to_str().unwrap(), "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("--json prints one JSON document");
    assert_eq!(doc["verdict"], "VERIFICATION FAILED", "{}", out.stdout);
    assert_eq!(exit_code(&out), Some(10));
    assert_eq!(doc["property"]["line"], 2);
    assert!(doc["trace"].as_array().is_some_and(|t| t.iter().any(|step| step["value"] == "42")), "{}", out.stdout);
    assert!(doc["stats"]["cnf_clauses"].as_u64().is_some_and(|n| n > 0), "{}", out.stdout);
}

#[test]
fn property_files_select_the_checks_and_print_the_competition_result() {
    if !front_end_ready("property_files_select_the_checks_and_print_the_competition_result") {
        return;
    }
    let dir = scratch_dir("cli-prp");
    let unreach = write(&dir, "unreach-call.prp", "CHECK( init(main()), LTL(G ! call(reach_error())) )\n");
    let overflow = write(&dir, "no-overflow.prp", "CHECK( init(main()), LTL(G ! overflow) )\n");
    let source = "void reach_error(void);\nint __VERIFIER_nondet_int(void);\n\
                  int main(void) { int x = __VERIFIER_nondet_int(); int y = x + 1; if (x == 7) reach_error(); return y; }\n";
    let file = write(&dir, "p.c", source);
    let file = file.to_str().unwrap();
    let out = run([file, "--property", unreach.to_str().unwrap()]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[lines.len() - 2..], ["FALSE(unreach-call)", "VERIFICATION FAILED"], "{}", out.stdout);
    let out = run([file, "--property", overflow.to_str().unwrap()]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[lines.len() - 2..], ["FALSE(no-overflow)", "VERIFICATION FAILED"], "{}", out.stdout);
    let out = run([file, "--property", dir.join("missing.prp").to_str().unwrap()]);
    assert_eq!(exit_code(&out), Some(6), "a missing property file is a usage error: {}", out.stderr);
    // SV-COMP's no-overflow is about signed integers; a float that overflows
    // to infinity is `--float-overflow-check`, not the property (nor
    // `--overflow-check`, as in CBMC).
    let float_source = "int main(void) { float f = 3e38f; f = f * 10.0f; return f > 0; }\n";
    let float_file = write(&dir, "f.c", float_source);
    let float_file = float_file.to_str().unwrap();
    let out = run([float_file, "--property", overflow.to_str().unwrap()]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[lines.len() - 2..], ["TRUE", "VERIFICATION SUCCESSFUL"], "{}", out.stdout);
    let out = run([float_file, "--overflow-check"]);
    assert!(out.stdout.ends_with("VERIFICATION SUCCESSFUL\n"), "{}", out.stdout);
    let out = run([float_file, "--float-overflow-check"]);
    assert!(out.stdout.ends_with("VERIFICATION FAILED\n"), "{}", out.stdout);
}

#[test]
fn define_attached_or_separate_reaches_the_preprocessor() {
    if !front_end_ready("define_attached_or_separate_reaches_the_preprocessor") {
        return;
    }
    let dir = scratch_dir("cli-define");
    let file = write(&dir, "d.c", "#if X != 1 || !defined(Y)\n#error X must be 1 and Y defined\n#endif\nint main(void) { return 0; }\n");
    let file = file.to_str().unwrap();
    for args in [vec![file, "-DX=1", "-DY"], vec![file, "-D", "X=1", "-D", "Y"], vec!["-D", "Y", "-DX=1", file]] {
        let out = run(args.iter().chain(&["--parse-only"]));
        assert_eq!(exit_code(&out), Some(EXIT_SUCCESS), "{args:?}: {}", out.stderr);
    }
    let out = run([file, "-DX=2", "-DY", "--parse-only"]);
    assert_eq!(exit_code(&out), Some(EXIT_INPUT_ERROR), "#error must reject: {}", out.stderr);
    let out = run([file, "-DX=1", "-DY", "-UY", "--parse-only"]);
    assert_eq!(exit_code(&out), Some(EXIT_INPUT_ERROR), "-U must undefine: {}", out.stderr);
}

#[test]
fn include_dir_attached_or_separate() {
    if !front_end_ready("include_dir_attached_or_separate") {
        return;
    }
    let dir = scratch_dir("cli-include");
    std::fs::create_dir_all(dir.join("inc")).unwrap();
    write(&dir.join("inc"), "value.h", "#define VALUE 7\n");
    let file = write(&dir, "i.c", "#include \"value.h\"\n_Static_assert(VALUE == 7, \"VALUE\");\nint main(void) { return 0; }\n");
    let inc = dir.join("inc");
    let attached = format!("-I{}", inc.display());
    for args in [vec![file.as_os_str(), attached.as_ref()], vec![file.as_os_str(), "-I".as_ref(), inc.as_os_str()]] {
        let out = run(args.iter().chain(&["--parse-only".as_ref()]));
        assert_eq!(exit_code(&out), Some(EXIT_SUCCESS), "{args:?}: {}", out.stderr);
    }
}

#[test]
fn parse_only_accepts_a_good_program_and_rejects_a_bad_one_with_a_caret() {
    if !front_end_ready("parse_only_accepts_a_good_program_and_rejects_a_bad_one_with_a_caret") {
        return;
    }
    let dir = scratch_dir("cli-parse-only");
    let good = write(&dir, "good.c", "int square(int x) { return x * x; }\nint main(void) { return square(3) - 9; }\n");
    let out = run([good.as_os_str(), "--parse-only".as_ref()]);
    assert_eq!(exit_code(&out), Some(EXIT_SUCCESS), "{}", out.stderr);

    let bad = write(&dir, "bad.c", "int main(void) {\n    int x = 1\n    return x;\n}\n");
    let out = run([bad.as_os_str(), "--parse-only".as_ref()]);
    assert_eq!(exit_code(&out), Some(EXIT_INPUT_ERROR), "{}", out.stderr);
    let error_line = out.stderr.lines().position(|l| l.contains("error:")).expect("an error message");
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert!(names_location(lines[error_line]), "no file:line:col in {}", out.stderr);
    assert!(lines[error_line].starts_with(&bad.display().to_string()), "error does not name the file: {}", out.stderr);
    assert!(lines.get(error_line + 2).is_some_and(|l| l.trim() == "^"), "no caret line:\n{}", out.stderr);
}

#[test]
fn several_files_are_one_program() {
    if !front_end_ready("several_files_are_one_program") {
        return;
    }
    let dir = scratch_dir("cli-two-files");
    let lib = write(&dir, "lib.c", "int twice(int x) { return 2 * x; }\n");
    let main = write(&dir, "main.c", "int twice(int x);\nint main(void) { return twice(2) - 4; }\n");
    let out = run([main.as_os_str(), lib.as_os_str(), "--parse-only".as_ref()]);
    assert_eq!(exit_code(&out), Some(EXIT_SUCCESS), "{}", out.stderr);
}

#[test]
fn data_model_flags_change_type_sizes() {
    if !front_end_ready("data_model_flags_change_type_sizes") {
        return;
    }
    let dir = scratch_dir("cli-data-model");
    let file = write(&dir, "m.c", "_Static_assert(sizeof(long) == SIZE, \"long\");\n_Static_assert(sizeof(void *) == SIZE, \"ptr\");\nint main(void) { return 0; }\n");
    for (model, size, expected) in [("--32", "4", EXIT_SUCCESS), ("--64", "8", EXIT_SUCCESS), ("--32", "8", EXIT_INPUT_ERROR)] {
        let out = run([file.to_str().unwrap(), model, &format!("-DSIZE={size}"), "--parse-only"]);
        assert_eq!(exit_code(&out), Some(expected), "{model} SIZE={size}: {}", out.stderr);
    }
}

#[test]
fn location_helpers_recognise_places() {
    assert!(names_location("a/b.c:3:14: error: x"));
    assert!(!names_location("a/b.c:3: error: x"));
    assert!(names_line("a/b.c:3: error: x"));
    assert!(!names_line("tarsier: error: a.c: the preprocessor failed"));
    assert!(!names_line(":3:4: error"));
}

#[test]
fn timeout_ends_a_run_with_unknown() {
    let dir = scratch_dir("cli-timeout");
    // A preprocessor that never finishes stands in for any stage that hangs.
    // It lets go of the output pipes, which would otherwise stay open after
    // tarsier has given up.
    let slow_cpp = write(&dir, "slow_cpp.sh", "#!/bin/sh\nexec sleep 30 >/dev/null 2>&1\n");
    std::fs::set_permissions(&slow_cpp, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let file = write(&dir, "t.c", "int main(void) { return 0; }\n");
    let out = run([file.to_str().unwrap(), "--cpp", slow_cpp.to_str().unwrap(), "--timeout", "1", "--parse-only"]);
    assert_eq!(exit_code(&out), Some(EXIT_UNKNOWN), "{}{}", out.stdout, out.stderr);
    assert!(out.elapsed < std::time::Duration::from_secs(20), "took {:?}", out.elapsed);
    assert!(out.stdout.ends_with("the time limit of 1 s is reached\nVERIFICATION UNKNOWN\n"), "{}", out.stdout);
}

#[test]
fn show_ir_prints_the_functions() {
    if !front_end_ready("show_ir_prints_the_functions") {
        return;
    }
    let dir = scratch_dir("cli-show-ir");
    let file = write(&dir, "f.c", "int twice(int x) { return 2 * x; }\nint main(void) { return twice(1); }\n");
    let out = run([file.to_str().unwrap(), "--show-ir"]);
    assert_eq!(exit_code(&out), Some(EXIT_SUCCESS), "{}", out.stderr);
    assert!(out.stdout.contains("fn twice") && out.stdout.contains("fn main"), "{}", out.stdout);
}

#[test]
fn unknown_entry_function_is_an_input_error() {
    if !front_end_ready("unknown_entry_function_is_an_input_error") {
        return;
    }
    let dir = scratch_dir("cli-entry");
    let file = write(&dir, "e.c", "int worker(void) { return 0; }\nint main(void) { return 0; }\n");
    let out = run([file.to_str().unwrap(), "--function", "worker", "--parse-only"]);
    assert_eq!(exit_code(&out), Some(EXIT_SUCCESS), "{}", out.stderr);
    let out = run([file.to_str().unwrap(), "--function", "no_such_function", "--parse-only"]);
    assert_eq!(exit_code(&out), Some(EXIT_INPUT_ERROR), "{}", out.stderr);
    assert!(out.stderr.contains("no_such_function"), "{}", out.stderr);
}

#[test]
fn preprocessed_input_skips_the_preprocessor() {
    if !front_end_ready("preprocessed_input_skips_the_preprocessor") {
        return;
    }
    let dir = scratch_dir("cli-dot-i");
    let file = write(&dir, "p.i", "# 1 \"p.c\"\nint main(void) { return 0; }\n");
    // A preprocessor that always fails proves that none is run.
    let out = run([file.to_str().unwrap(), "--cpp", "false", "--parse-only"]);
    assert_eq!(exit_code(&out), Some(EXIT_SUCCESS), "{}", out.stderr);
}

/// The README's example session must be what tarsier prints today.
#[test]
fn readme_example_output_is_what_tarsier_prints() {
    if !front_end_ready("readme_example_output_is_what_tarsier_prints") {
        return;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md is readable");
    let prompt = "$ cargo run --release -- ";
    let start = readme.find(prompt).expect("the README shows an example command");
    let session = &readme[start + prompt.len()..];
    let (command, rest) = session.split_once('\n').unwrap();
    let shown = &rest[..rest.find("```").expect("the example block is closed")];
    let mut tarsier = tarsier();
    tarsier.args(command.split_whitespace()).current_dir(&root);
    let out = xtask::process::run_with_timeout(&mut tarsier, RUN_LIMIT).expect("the tarsier binary runs");
    assert_eq!(out.stdout, shown, "README example `{command}` prints something else");
}
