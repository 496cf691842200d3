//! Tests of the C library models as `cfront::compile` links them.
//!
//! Data-driven: every `models_data/*.c` program includes the system headers,
//! calls library functions with concrete arguments and returns 0 exactly
//! when every result is the one the C standard requires (else the line of
//! the failed check). Each runs in the IR interpreter for both data models
//! and, where a C compiler is installed, natively against the system libc,
//! so the expectations themselves are checked. Snippets below check the
//! linking rules and the nondeterministic models' ranges.

use cfront::diag::Diagnostics;
use cfront::Options;
use ir::interp::{self, Outcome};
use ir::{DataModel, Program};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

/// Body-less functions the models may leave to symex and the interpreter.
const BUILT_INS: &[&str] = &["malloc", "free", "memcpy", "memset", "__assert_fail", "__tarsier_environment_string"];
/// Prefixes of the intrinsics the models and the system headers use
/// (uninterpreted functions included: time.c's daylight saving rule), and
/// of the functions models call where their behaviour is deliberately not
/// modelled (a verdict resting on such a call is not trusted).
const INTRINSICS: &[&str] = &["__VERIFIER_", "__builtin_", "__tarsier_unmodelled_", "__CPROVER_uninterpreted_"];

fn data_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/models_data");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "c"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn compile(file: &Path, model: DataModel, library_models: bool) -> Result<Program, String> {
    let opts = Options {
        data_model: model,
        library_models,
        ..Options::default()
    };
    let mut diags = Diagnostics::default();
    let program = cfront::compile(&[file.to_path_buf()], &opts, &mut diags);
    let rendered = || {
        diags
            .list
            .iter()
            .map(|d| format!("{}:{}: {}\n", d.loc.line, d.loc.col, d.message))
            .collect::<String>()
    };
    let program = program.ok_or_else(rendered)?;
    ir::validate(&program).map_err(|e| format!("invalid IR:\n{}", e.join("\n")))?;
    Ok(program)
}

/// Runs `program` with every nondeterministic input filled with `byte`.
fn run(program: &Program, byte: u8) -> Outcome {
    let mut inputs = |r: &interp::InputRequest| Some(vec![byte; r.size as usize]);
    interp::run(program, &interp::Config::default(), &mut inputs).outcome
}

static SNIPPET: AtomicU32 = AtomicU32::new(0);

fn snippet_file(src: &str) -> PathBuf {
    let n = SNIPPET.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("tarsier-models-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("snippet{n}.c"));
    std::fs::write(&path, src).expect("write snippet");
    path
}

fn compile_src(src: &str) -> Program {
    compile(&snippet_file(src), DataModel::LP64, true).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn data_programs_get_the_standard_results() {
    let files = data_files();
    assert!(
        files.len() >= 3,
        "expected the models_data programs, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for file in &files {
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        for model in [DataModel::LP64, DataModel::ILP32] {
            match compile(file, model, true) {
                Ok(program) => {
                    let missing: Vec<String> =
                        cfront::library_models::referenced_bodiless(&program)
                            .into_iter()
                            .filter(|n| {
                                !BUILT_INS.contains(&n.as_str())
                                    && !INTRINSICS.iter().any(|p| n.starts_with(p))
                            })
                            .collect();
                    if !missing.is_empty() {
                        failures.push(format!("{name} ({model:?}): not modelled: {missing:?}"));
                    }
                    match run(&program, 0) {
                        Outcome::Completed(0) => {}
                        other => failures.push(format!("{name} ({model:?}): {other}")),
                    }
                }
                Err(e) => failures.push(format!("{name} ({model:?}): {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
}

#[test]
fn data_programs_agree_with_the_native_libc() {
    let out_dir =
        std::env::temp_dir().join(format!("tarsier-models-native-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).expect("temp dir");
    // The native cross-check needs a C compiler, which tarsier itself does
    // not (only the preprocessor); without one the check is skipped, but a
    // data program that the compiler rejects is a broken test.
    let compiler_works = Command::new("cc")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !compiler_works {
        eprintln!("skipped: no C compiler `cc` to run the models_data programs natively");
        return;
    }
    for file in data_files() {
        let exe = out_dir.join(file.file_stem().expect("name"));
        let built = Command::new("cc")
            .arg("-w")
            .arg("-o")
            .arg(&exe)
            .arg(&file)
            .arg("-lm")
            .status()
            .expect("run cc");
        assert!(built.success(), "cc rejects {}", file.display());
        let status = Command::new(&exe).status().expect("run native program");
        assert_eq!(
            status.code(),
            Some(0),
            "{} fails natively at line {:?}",
            file.display(),
            status.code()
        );
    }
}

#[test]
fn a_program_definition_wins_over_the_model() {
    let program = compile_src(
        "unsigned long strlen(const char *s) { return 99; }\n\
         int main(void) { return strlen(\"a\") == 99 ? 0 : 1; }\n",
    );
    assert!(matches!(run(&program, 0), Outcome::Completed(0)));
}

#[test]
fn only_the_models_a_program_calls_are_linked() {
    let program = compile_src("#include <string.h>\n#include <ctype.h>\nint main(void) { return strcat((char[8]){\"a\"}, \"b\")[1] != 'b'; }\n");
    assert!(program
        .function("strcat")
        .is_some_and(|f| program.functions[f].body.is_some()));
    assert!(
        program
            .function("strcpy")
            .is_some_and(|f| program.functions[f].body.is_some()),
        "strcat's callee"
    );
    for unused in ["strstr", "strdup", "isdigit", "__ctype_b_loc", "printf"] {
        assert!(
            program
                .function(unused)
                .is_none_or(|f| program.functions[f].body.is_none()),
            "{unused} linked"
        );
    }
    assert!(
        !program
            .symbols
            .values()
            .any(|s| s.name.contains("__tarsier_ctype")),
        "unused table linked"
    );
    assert!(matches!(run(&program, 0), Outcome::Completed(0)));
    let plain = compile_src("int main(void) { return 0; }\n");
    assert_eq!(
        plain.functions.len(),
        2,
        "only main and the initializer:\n{plain}"
    );
}

#[test]
fn models_can_be_switched_off() {
    let file =
        snippet_file("#include <string.h>\nint main(void) { return strlen(\"ab\") != 2; }\n");
    let program = compile(&file, DataModel::LP64, false).unwrap_or_else(|e| panic!("{e}"));
    assert!(program
        .function("strlen")
        .is_some_and(|f| program.functions[f].body.is_none()));
}

#[test]
fn nondeterministic_models_stay_in_their_ranges() {
    // Inputs of all ones are -1 as int: allowed for getchar (EOF), not for
    // rand.
    let rand = compile_src("#include <stdlib.h>\nint main(void) { return rand() < 0; }\n");
    assert!(matches!(
        run(&rand, 0xff),
        Outcome::AssumptionViolated { .. }
    ));
    assert!(matches!(run(&rand, 0x12), Outcome::Completed(0)));
    let getchar = compile_src(
        "#include <stdio.h>\nint main(void) { int c = getchar(); return c < -1 || c > 255; }\n",
    );
    assert!(matches!(run(&getchar, 0xff), Outcome::Completed(0)));
    assert!(
        matches!(run(&getchar, 0x01), Outcome::AssumptionViolated { .. }),
        "257 is no character"
    );
    let printf = compile_src("#include <stdio.h>\nint main(void) { return printf(\"x\") != 1; }\n");
    assert!(
        printf.function("printf").is_some_and(|f| printf.functions[f].body.is_none()),
        "output functions stay unmodelled, so a verdict resting on their result is not trusted"
    );
}

#[test]
fn time_stores_through_its_argument() {
    let program =
        compile_src("#include <time.h>\nint main(void) { time_t t; return time(&t) != t; }\n");
    assert!(matches!(run(&program, 0x5a), Outcome::Completed(0)));
}

#[test]
fn a_switch_of_locale_reaches_the_unmodelled_marker_unless_to_c() {
    let to_c = compile_src(
        "#include <locale.h>\n#include <string.h>\n\
         int main(void) { return setlocale(LC_ALL, \"C\") == 0 || strcoll(\"b\", \"a\") <= 0; }\n",
    );
    assert!(matches!(run(&to_c, 0), Outcome::Completed(0)));
    // Inputs of zero let setlocale succeed; the collation is then unknown.
    let collate = compile_src(
        "#include <locale.h>\n#include <string.h>\n\
         int main(void) { setlocale(LC_COLLATE, \"cs_CZ\"); return strcoll(\"b\", \"a\") == 0 ? 0 : 1; }\n",
    );
    assert!(matches!(run(&collate, 0), Outcome::Completed(0)), "any order, here 0");
    let ctype = compile_src("#include <locale.h>\nint main(void) { setlocale(LC_CTYPE, \"\"); return 0; }\n");
    assert!(cfront::library_models::referenced_bodiless(&ctype).contains("__tarsier_unmodelled_locale_switch"));
}

#[test]
fn strerror_gives_a_string_for_any_number() {
    let program = compile_src(
        "#include <string.h>\nint main(void) { const char *m = strerror(-5); return m == 0 || strlen(m) > 63; }\n",
    );
    for byte in [0, 0x20, 0x41] {
        assert!(matches!(run(&program, byte), Outcome::Completed(0) | Outcome::AssumptionViolated { .. }));
    }
}

#[test]
fn atexit_handlers_run_at_exit_and_at_return_from_main_but_not_at_quick_exit() {
    let handler = "#include <stdlib.h>\nvoid stop(void) { abort(); }\n";
    for (ending, expected_abort) in [
        ("return 0;", true),
        ("exit(3);", true),
        ("_Exit(3);", false),
    ] {
        let program = compile_src(&format!(
            "{handler}int main(void) {{ if (atexit(stop) != 0) return 1; {ending} }}\n"
        ));
        let outcome = run(&program, 0);
        assert_eq!(
            matches!(outcome, Outcome::Aborted),
            expected_abort,
            "{ending}: {outcome}"
        );
    }
    let none = compile_src("#include <stdlib.h>\nint main(void) { exit(0); }\n");
    assert!(
        none.function(cfront::exit_handlers::EXIT_MODEL).is_none(),
        "without atexit, exit stays the built-in"
    );
}
