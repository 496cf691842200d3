//! End-to-end tests of type checking and lowering (`cfront::compile`).
//!
//! Data-driven: every `sema_data/*.c` file is a program whose `main`
//! returns 0 exactly when the C semantics it checks were lowered right; it
//! is compiled for both data models (or the one its name asks for:
//! `*_lp64.c`, `*_ilp32.c`), the IR is validated, and the IR interpreter
//! runs it. Every `sema_data/errors/*.c` file must be rejected with the
//! diagnostic its first line names (`// error: <text>`, optionally
//! `// error at LINE: <text>`). Snippets below check IR shape directly.

use cfront::diag::{Diagnostics, Severity};
use cfront::Options;
use ir::interp::{self, Outcome};
use ir::{DataModel, ExprKind, InstrKind, Program};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sema_data")
}

/// Compiles files; on failure returns the rendered diagnostics.
fn compile_files(files: &[PathBuf], model: DataModel) -> Result<(Program, Diagnostics), String> {
    let opts = Options { data_model: model, ..Options::default() };
    let mut diags = Diagnostics::default();
    match cfront::compile(files, &opts, &mut diags) {
        Some(p) => Ok((p, diags)),
        None => Err(diags.list.iter().map(|d| format!("{}:{}: {:?}: {}\n", d.loc.line, d.loc.col, d.severity, d.message)).collect()),
    }
}

static SNIPPET: AtomicU32 = AtomicU32::new(0);

/// Writes a snippet to a fresh temporary file.
fn snippet_file(src: &str) -> PathBuf {
    let n = SNIPPET.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("tarsier-sema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("snippet{n}.c"));
    std::fs::write(&path, src).expect("write snippet");
    path
}

fn compile_src(src: &str, model: DataModel) -> Result<(Program, Diagnostics), String> {
    compile_files(&[snippet_file(src)], model)
}

fn run_program(program: &Program) -> Outcome {
    let config = interp::Config::default();
    let mut inputs = |r: &interp::InputRequest| Some(vec![0u8; r.size as usize]);
    interp::run(program, &config, &mut inputs).outcome
}

/// Compiles, validates and runs; the outcome or a description of the failure.
fn compile_and_run(files: &[PathBuf], model: DataModel) -> Result<Outcome, String> {
    let (program, _) = compile_files(files, model)?;
    ir::validate(&program).map_err(|e| format!("invalid IR:\n{}\n{program}", e.join("\n")))?;
    Ok(run_program(&program))
}

fn models_for(name: &str) -> Vec<DataModel> {
    if name.ends_with("_lp64.c") {
        vec![DataModel::LP64]
    } else if name.ends_with("_ilp32.c") {
        vec![DataModel::ILP32]
    } else {
        vec![DataModel::LP64, DataModel::ILP32]
    }
}

fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "c")).collect())
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn data_programs_return_zero() {
    let files = c_files(&data_dir());
    assert!(files.len() >= 9, "expected the sema_data programs, found {}", files.len());
    let mut failures = Vec::new();
    for file in files {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        for model in models_for(&name) {
            match compile_and_run(std::slice::from_ref(&file), model) {
                Ok(Outcome::Completed(0)) => {}
                Ok(other) => failures.push(format!("{name} ({model:?}): {other}")),
                Err(e) => failures.push(format!("{name} ({model:?}): {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
}

#[test]
fn wrong_programs_are_rejected_with_their_diagnostic() {
    let files = c_files(&data_dir().join("errors"));
    assert!(files.len() >= 8, "expected the error programs, found {}", files.len());
    let mut failures = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let first = text.lines().next().unwrap_or_default();
        let (line, expected) = match first.strip_prefix("// error at ") {
            Some(rest) => {
                let (l, msg) = rest.split_once(": ").unwrap_or(("0", rest));
                (l.parse::<u32>().ok(), msg)
            }
            None => (None, first.strip_prefix("// error: ").unwrap_or(first)),
        };
        let name = file.display();
        match compile_files(std::slice::from_ref(&file), DataModel::LP64) {
            Ok(_) => failures.push(format!("{name}: accepted")),
            Err(_) => {
                let opts = Options::default();
                let mut diags = Diagnostics::default();
                let _ = cfront::compile(std::slice::from_ref(&file), &opts, &mut diags);
                let hit = diags.list.iter().any(|d| {
                    d.severity == Severity::Error && d.message.contains(expected) && line.is_none_or(|l| d.loc.line == l)
                });
                if !hit {
                    failures.push(format!("{name}: wanted `{expected}`, got {:?}", diags.list));
                }
            }
        }
    }
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
}

#[test]
fn several_units_link_into_one_program() {
    let dir = data_dir().join("multi");
    let files = vec![dir.join("main.c"), dir.join("lib.c")];
    for model in [DataModel::LP64, DataModel::ILP32] {
        match compile_and_run(&files, model) {
            Ok(Outcome::Completed(0)) => {}
            other => panic!("{model:?}: {other:?}"),
        }
    }
    let (program, _) = compile_files(&files, DataModel::LP64).expect("compiles");
    // `counter` is one external object; each unit's `static int hidden` is its own.
    let counters = program.symbols.values().filter(|s| s.name == "counter").count();
    assert_eq!(counters, 1);
    let hidden = program.symbols.values().filter(|s| s.display_name == "hidden").count();
    assert_eq!(hidden, 2);
    // Declared everywhere, defined nowhere: stays without a body.
    let ext = program.function("external_only").expect("declared function");
    assert!(program.functions[ext].body.is_none());
}

#[test]
fn an_extern_of_another_type_reinterprets_the_defining_units_object() {
    let lib = snippet_file("struct pair { short lo, hi; } shared = { 1, 2 };\nint lib_hi(void) { return shared.hi; }\n");
    let main = snippet_file(
        "extern int lib_hi(void);\nextern unsigned short shared[];\n\
         int main(void) { shared[1] = 7; if (lib_hi() != 7 || shared[0] != 1) return 1; return 0; }\n",
    );
    for model in [DataModel::LP64, DataModel::ILP32] {
        let files = [lib.clone(), main.clone()];
        match compile_and_run(&files, model) {
            Ok(Outcome::Completed(0)) => {}
            other => panic!("{model:?}: {other:?}"),
        }
        let (_, diags) = compile_files(&files, model).expect("compiles");
        assert!(diags.list.iter().any(|d| d.message.contains("reinterprets its bytes")), "{:?}", diags.list);
    }
    // Declared first, defined later with another type: still a conflict.
    let err = compile_files(&[main, lib], DataModel::LP64).map(|_| ()).unwrap_err();
    assert!(err.contains("conflicting types for `shared`"), "{err}");
}

#[test]
fn missing_entry_is_an_error_naming_it() {
    let path = snippet_file("int f(void) { return 0; }\n");
    let opts = Options { entry: Some("start".into()), ..Options::default() };
    let mut diags = Diagnostics::default();
    assert!(cfront::compile(&[path], &opts, &mut diags).is_none());
    assert!(diags.list.iter().any(|d| d.message.contains("`start`")), "{:?}", diags.list);
}

#[test]
fn entry_can_be_chosen() {
    let path = snippet_file("int worker(int x) { return x + 1; }\n");
    let opts = Options { entry: Some("worker".into()), ..Options::default() };
    let mut diags = Diagnostics::default();
    let program = cfront::compile(&[path], &opts, &mut diags).expect("compiles");
    assert_eq!(program.entry, program.function("worker"));
}

/// Every instruction of `main`, printed.
fn main_listing(program: &Program) -> Vec<String> {
    let main = program.function("main").expect("main");
    let body = program.functions[main].body.as_ref().expect("body");
    body.iter().map(|i| program.display_instr(i).to_string()).collect()
}

#[test]
fn guarded_dereference_is_lowered_to_control_flow() {
    let (program, _) = compile_src("int main(void) { int *p = 0; return p && *p; }\n", DataModel::LP64).expect("compiles");
    let main = program.function("main").expect("main");
    let body = program.functions[main].body.as_ref().expect("body");
    // The dereference must sit behind a conditional jump, never in an `And`.
    let gotos = body.iter().filter(|i| matches!(i.kind, InstrKind::Goto { .. })).count();
    assert!(gotos >= 1, "{:#?}", main_listing(&program));
    assert_eq!(run_program(&program), Outcome::Completed(0));
}

#[test]
fn simple_conditions_stay_expressions() {
    let (program, _) = compile_src("int main(void) { int a = 1, b = 2; return a < b && b < 3; }\n", DataModel::LP64).expect("compiles");
    let main = program.function("main").expect("main");
    let body = program.functions[main].body.as_ref().expect("body");
    assert!(!body.iter().any(|i| matches!(i.kind, InstrKind::Goto { .. })), "{:#?}", main_listing(&program));
}

#[test]
fn calls_of_undeclared_nondet_functions_return_the_type_they_name() {
    let source = "int main(void) { unsigned x = nondet_uint(); int y = nondet_widget(); return x > 5 && y; }\n";
    let (program, diags) = compile_src(source, DataModel::LP64).expect("compiles");
    let return_type = |name: &str| {
        let f = program.function(name).expect("implicitly declared");
        assert!(program.functions[f].body.is_none());
        let ir::Type::Function(sig) = program.types.get(program.functions[f].ty) else { panic!("not a function type") };
        program.types.get(sig.ret).clone()
    };
    assert_eq!(return_type("nondet_uint"), ir::Type::Int { bits: 32, signed: false });
    assert_eq!(return_type("nondet_widget"), ir::Type::Int { bits: 32, signed: true }, "an unknown type name: int");
    assert!(!diags.list.iter().any(|d| d.severity == Severity::Warning && d.message.contains("nondet_")));
}

#[test]
fn globals_are_initialised_by_the_init_function() {
    let (program, _) = compile_src("int g = 42; int main(void) { return g - 42; }\n", DataModel::LP64).expect("compiles");
    let init = program.init.expect("init function");
    assert_eq!(program.functions[init].name, "__tarsier_init");
    let body = program.functions[init].body.as_ref().expect("body");
    let assigns_42 = body.iter().any(|i| matches!(&i.kind, InstrKind::Assign(_, v) if v.kind == ExprKind::IntConst(42)));
    assert!(assigns_42);
}

#[test]
fn deep_expressions_do_not_overflow() {
    let depth = 5000;
    let src = format!("int main(void) {{ int x = 1; return {}x{}; }}\n", "(".repeat(depth), " + 1)".repeat(depth));
    match compile_src(&src, DataModel::LP64) {
        Ok((program, _)) => assert_eq!(run_program(&program), Outcome::Completed(depth as i64 + 1)),
        Err(e) => assert!(e.contains("nesting") || e.contains("deep"), "{e}"),
    }
}

/// The IR printout of each `sema_data/ir/*.c` must equal the `.ir` file
/// beside it; `UPDATE_SEMA_IR=1` rewrites the expectations.
#[test]
fn ir_printouts_match() {
    let dir = data_dir().join("ir");
    let update = std::env::var_os("UPDATE_SEMA_IR").is_some();
    let files = c_files(&dir);
    assert!(files.len() >= 3, "expected IR snapshot programs");
    let mut mismatches = Vec::new();
    for file in files {
        let (program, _) = compile_files(std::slice::from_ref(&file), DataModel::LP64).expect("compiles");
        ir::validate(&program).expect("valid IR");
        let prefix = format!("{}/", dir.display());
        let printed = program.to_string().replace(&prefix, "");
        let expected_path = file.with_extension("ir");
        if update {
            std::fs::write(&expected_path, &printed).expect("write expectation");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if printed != expected {
            mismatches.push(format!("{}:\n{printed}", expected_path.display()));
        }
    }
    assert!(mismatches.is_empty(), "IR differs (UPDATE_SEMA_IR=1 to accept):\n{}", mismatches.join("\n"));
}

/// Inputs that once could exhaust time, memory or arithmetic: each must
/// compile or be rejected with a diagnostic, quickly and without a panic.
#[test]
fn hostile_inputs_get_diagnostics_not_panics() {
    let deep_braces = format!("int x = {}1{};", "{".repeat(3000), "}".repeat(3000));
    let deep_blocks = format!("int main(void) {{ {} return 0; {} }}", "{".repeat(3000), "}".repeat(3000));
    let snippets = [
        "struct big { char a[1ULL << 62]; char b[1ULL << 62]; }; int main(void) { return sizeof(struct big) > 0; }",
        "int a[100] = {[0 ... 1 << 30] = 1}; int main(void) { return 0; }",
        "char s[1ULL << 40] = \"abc\"; int main(void) { return s[1]; }",
        "typedef int v __attribute__((vector_size(1 << 30))); int main(void) { return 0; }",
        "int main(void) { int x = 1 / 0; return x << 40; }",
        "enum e { A = 1ULL << 63, B }; int main(void) { return B; }",
        "int main(void) { double d = 1e999999999999; float f = 0x1p-99999999; return d > f; }",
        "struct s; int main(void) { struct s *p = 0; return p->x; }",
        "int main(void) { goto *0; }",
        "int f(int); int main(void) { return f(1, 2); }",
        "int main(void) { int a[2]; a = a; return 0; }",
        deep_braces.as_str(),
        deep_blocks.as_str(),
    ];
    for src in snippets {
        let started = std::time::Instant::now();
        let outcome = std::panic::catch_unwind(|| compile_src(src, DataModel::LP64).map(|_| ()));
        assert!(outcome.is_ok(), "panic on: {src}");
        assert!(started.elapsed().as_secs() < 20, "too slow on: {src}");
    }
}

#[test]
fn undeclared_library_functions_get_their_prototypes() {
    let src = "int main(void) { int *p = malloc(sizeof(int)); *p = 3; int r = *p; free(p); return r - 3; }\n";
    let (program, diags) = compile_src(src, DataModel::LP64).expect("compiles");
    let f = program.function("malloc").expect("declared");
    let ir::Type::Function(sig) = program.types.get(program.functions[f].ty) else { panic!("not a function type") };
    assert!(matches!(program.types.get(sig.ret), ir::Type::Pointer(_)));
    assert!(diags.list.iter().any(|d| d.message.contains("built-in function `malloc`")));
    assert_eq!(run_program(&program), Outcome::Completed(0));
}

#[test]
fn a_later_declaration_replaces_an_assumed_prototype() {
    let src = "int main(void) { return strchr(\"ab\", 'b') == 0; }\nchar *strchr(const char *s, int c);\n";
    let (program, _) = compile_src(src, DataModel::LP64).expect("the program's own prototype wins");
    ir::validate(&program).expect("calls lowered before the declaration stay well-typed");
}

#[test]
fn calls_through_an_unprototyped_declaration_name_the_function_when_the_arguments_fit_its_prototype() {
    let src = "void f(); int g(); int h();\n\
               int main(void) { f(); int r = g(1); return r + h('a'); }\n\
               void f(void) {}\nint g(int x) { return x - 1; }\nint h(char c) { return c - 'a'; }\n";
    let (program, _) = compile_src(src, DataModel::LP64).expect("compiles");
    ir::validate(&program).expect("well-typed calls");
    let calls: Vec<String> = main_listing(&program).into_iter().filter(|l| l.contains("call")).collect();
    assert!(calls.iter().any(|c| c.contains("call f()")), "{calls:#?}");
    assert!(calls.iter().any(|c| c.contains("= g(1")), "{calls:#?}");
    // `h` receives an `int` where its prototype has a `char`: the call
    // keeps the type it was lowered against.
    assert!(calls.iter().any(|c| c.contains("*)&h(")), "{calls:#?}");
    assert_eq!(run_program(&program), Outcome::Completed(0));
}

#[test]
fn mismatched_calls_of_undeclared_library_functions_stay_unprototyped() {
    let src = "int main(void) { puts(); return 0; }\n";
    let (program, diags) = compile_src(src, DataModel::LP64).expect("accepted like `int puts()`");
    ir::validate(&program).expect("valid IR");
    assert!(diags.list.iter().any(|d| d.message.contains("does not match the library prototype")));
    let declared = "#include <stdio.h>\nint main(void) { puts(); return 0; }\n";
    assert!(compile_src(declared, DataModel::LP64).is_err(), "a declared prototype is enforced");
}

#[test]
fn extern_objects_no_unit_defines_start_unknown() {
    let src = "extern int outside; extern int inside; int inside = 3;\n\
               int main(void) { return outside + inside; }\n";
    let (program, _) = compile_src(src, DataModel::LP64).expect("compiles");
    let init = program.init.expect("init function");
    let body = program.functions[init].body.as_ref().expect("body");
    let havocked: Vec<&str> = body
        .iter()
        .filter_map(|i| match &i.kind {
            InstrKind::Assign(lhs, rhs) if rhs.kind == ExprKind::Nondet => match lhs.kind {
                ExprKind::Sym(s) => Some(program.symbols[s].display_name.as_str()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(havocked, ["outside"]);
}

#[test]
fn tentative_arrays_of_unknown_size_get_one_element_at_the_end_of_their_unit() {
    let src = "int open[][3];\nint later[];\nint later[4];\nextern int outside[];\n\
               int main(void) { return open[0][2] + later[3] + (outside == 0); }\n";
    let (program, diags) = compile_src(src, DataModel::LP64).expect("compiles");
    let length = |name: &str| {
        let sym = program.symbols.values().find(|s| s.display_name == name).expect("symbol");
        match program.types.get(sym.ty) {
            ir::Type::Array(_, len) => *len,
            other => panic!("{name} is not an array: {other:?}"),
        }
    };
    assert_eq!(length("open"), ir::ArrayLen::Fixed(1));
    assert_eq!(length("later"), ir::ArrayLen::Fixed(4), "a later declaration completes it first");
    assert_eq!(length("outside"), ir::ArrayLen::Unknown, "an extern declaration is no definition");
    let warned: Vec<&str> = diags.list.iter().map(|d| d.message.as_str()).filter(|m| m.contains("assumed to have one element")).collect();
    assert_eq!(warned, ["array `open` assumed to have one element"]);
    ir::validate(&program).expect("valid IR");
}

#[test]
fn esbmc_alloc_size_entries_become_object_size_intrinsics() {
    let src = "int a[3];\nint main(void) {\n  unsigned long n = __ESBMC_alloc_size[__ESBMC_POINTER_OBJECT(a)];\n  \
               __ESBMC_alloc_size[__CPROVER_POINTER_OBJECT(a)] = n;\n  return 0;\n}\n";
    let (program, diags) = compile_src(src, DataModel::LP64).expect("compiles");
    let listing = main_listing(&program).join("\n");
    assert!(listing.contains("__ESBMC_get_object_size"), "{listing}");
    assert!(listing.contains(ir::intrinsics::ALLOC_SIZE_CLAIM), "{listing}");
    assert!(diags.list.is_empty(), "no warning for the intrinsics: {:?}", diags.list);
    let own = "unsigned long __ESBMC_alloc_size[4];\nint main(void) { return __ESBMC_alloc_size[__ESBMC_POINTER_OBJECT(0)]; }\n";
    let (program, _) = compile_src(own, DataModel::LP64).expect("compiles");
    assert!(!main_listing(&program).join("\n").contains("get_object_size"), "a declared table is the program's own");
}

#[test]
fn compound_literals_die_with_their_block() {
    let src = "int main(void) { int *q; { q = &(int){7}; } return *q; }\n";
    let (program, _) = compile_src(src, DataModel::LP64).expect("compiles");
    let outcome = run_program(&program);
    assert!(matches!(outcome, Outcome::UndefinedBehaviour { .. }), "{outcome:?}");
    let inside = "int main(void) { int *q = &(int){7}; return *q - 7; }\n";
    let (program, _) = compile_src(inside, DataModel::LP64).expect("compiles");
    assert!(matches!(run_program(&program), Outcome::Completed(0)));
}
