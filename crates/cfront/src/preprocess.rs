//! Runs the system C preprocessor on `.c` inputs (`.i` inputs are read as
//! they are) with the options, include paths and data-model macros of the
//! compilation, and returns the preprocessed text with its line markers.
//! A `.i` file that still holds directives such as `#include` was never
//! preprocessed (it is C source under a preprocessed name), so it goes
//! through the preprocessor as C, with a warning.
//!
//! An unrolling pragma whose count is a macro name (`#pragma unroll N`)
//! is left unexpanded by the preprocessor: such an input is preprocessed
//! again with `-dD`, which keeps the macro definitions for the lexer.
//!
//! The ILP32 data model is normally `-m32`. Machines without the i386
//! C library headers cannot preprocess `#include <stdio.h>` that way, so the
//! preprocessor is probed once: when `-m32` fails, the macros that `-m32`
//! changes (taken from `cpp -dM` with and without `-m32`) are passed as
//! `-U`/`-D`, and an empty `gnu/stubs-32.h` is supplied, since glibc's
//! 64-bit headers otherwise work for i386 by testing `__WORDSIZE`.

use crate::diag::Diagnostics;
use crate::Options;
use ir::{DataModel, Loc};
use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

/// Predefined for every C input: the tool's own macro, the contract
/// annotation that programs written for ESBMC-style verifiers put before
/// function definitions (kept as an attribute for the contract checker),
/// the declaration of the result type of the ESBMC overflow built-ins (see
/// `sema::overflow`), and no warnings (diagnostics are the type checker's
/// job).
const VERIFIER_MACROS: &[&str] = &[
    "-D__TARSIER__=1",
    "-D__ESBMC_contract=__attribute__((annotate(\"__ESBMC_contract\")))",
    "-DDEFINE_ESBMC_OVERFLOW_TYPE(T)=typedef struct { T result; _Bool overflow; } __ESBMC_overflow_result;",
    "-w",
];

/// Preprocesses `input`. Returns `None` after reporting an error.
pub fn run(input: &Path, opts: &Options, diags: &mut Diagnostics) -> Option<String> {
    let mut as_c = false;
    if input.extension().is_some_and(|ext| ext == "i") {
        let text = read_text(input, diags)?;
        let Some(directive) = unpreprocessed_directive(&text) else {
            return Some(text);
        };
        let name = input.display();
        diags.warning(Loc::NONE, format!("{name} holds `#{directive}`, so it is not preprocessed: preprocessing it as C"));
        as_c = true;
    }
    if !input.exists() {
        diags.error(Loc::NONE, format!("{}: no such file", input.display()));
        return None;
    }
    let base = base_command(opts);
    let mut args = base.args.clone();
    args.extend(data_model_args(&base, opts.data_model));
    args.extend(VERIFIER_MACROS.iter().map(|m| m.to_string()));
    args.extend(opts.macro_args.iter().cloned());
    for dir in &opts.include_dirs {
        args.push(format!("-I{}", dir.display()));
    }
    args.extend(crate::model_headers::include_dir().map(|dir| format!("-idirafter{}", dir.display())));
    for file in &opts.include_files {
        args.push("-include".to_string());
        args.push(file.display().to_string());
    }
    if as_c {
        args.extend(["-x".to_string(), "c".to_string()]);
    }
    args.push(input.display().to_string());
    let text = preprocessed(&base.program, &args, input, diags)?;
    if !crate::pragma::counts_with_macros(&text) {
        return Some(text);
    }
    // Again with the macro definitions, which resolve the counts.
    args.insert(base.args.len(), "-dD".to_string());
    preprocessed(&base.program, &args, input, diags)
}

/// The output of the preprocessor `program` with `args`; `None` after
/// reporting its failure.
fn preprocessed(program: &str, args: &[String], input: &Path, diags: &mut Diagnostics) -> Option<String> {
    match execute(program, args, "") {
        Ok(output) if output.success => Some(output.stdout),
        Ok(output) => {
            let name = input.display();
            diags.error(Loc::NONE, format!("{name}: the preprocessor failed:\n{}", output.stderr.trim_end()));
            None
        }
        Err(message) => {
            diags.error(Loc::NONE, message);
            None
        }
    }
}

/// The first directive in `text` that a preprocessor would have consumed
/// (anything but line markers, `#line`, `#pragma`, `#ident`, `#sccs`).
fn unpreprocessed_directive(text: &str) -> Option<&str> {
    text.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix('#')?.trim_start();
        let end = rest.find(|c: char| !c.is_ascii_alphanumeric() && c != '_').unwrap_or(rest.len());
        let word = &rest[..end];
        let kept = word.is_empty() || word.bytes().all(|b| b.is_ascii_digit()) || matches!(word, "line" | "pragma" | "ident" | "sccs");
        (!kept).then_some(word)
    })
}

fn read_text(input: &Path, diags: &mut Diagnostics) -> Option<String> {
    match std::fs::read(input) {
        Ok(bytes) => Some(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())),
        Err(e) => {
            diags.error(Loc::NONE, format!("{}: cannot read: {e}", input.display()));
            None
        }
    }
}

/// A preprocessor invocation: program and leading arguments.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct BaseCommand {
    program: String,
    args: Vec<String>,
}

/// `Options::cpp` split on whitespace, else `cpp` when on the PATH, else
/// `cc -E`.
fn base_command(opts: &Options) -> BaseCommand {
    if let Some(line) = &opts.cpp {
        let mut words = line.split_whitespace().map(str::to_string);
        if let Some(program) = words.next() {
            return BaseCommand { program, args: words.collect() };
        }
    }
    if find_on_path("cpp").is_some() {
        BaseCommand { program: "cpp".into(), args: Vec::new() }
    } else {
        BaseCommand { program: "cc".into(), args: vec!["-E".into()] }
    }
}

fn find_on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(program)).find(|p| p.is_file())
}

struct Output {
    success: bool,
    stdout: String,
    stderr: String,
}

fn execute(program: &str, args: &[String], stdin_text: &str) -> Result<Output, String> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!(
                "cannot run the C preprocessor `{program}`: {e}; install one (e.g. `apt-get install cpp` or gcc) or pass --cpp"
            )
        })?;
    if let Some(mut stdin) = child.stdin.take() {
        // A preprocessor that exits early closes the pipe; its status says why.
        let _ = stdin.write_all(stdin_text.as_bytes());
    }
    let output = child.wait_with_output().map_err(|e| format!("the C preprocessor `{program}` failed: {e}"))?;
    Ok(Output {
        success: output.status.success(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    })
}

/// The arguments that select `model` for `base`.
fn data_model_args(base: &BaseCommand, model: DataModel) -> Vec<String> {
    match model {
        DataModel::ILP32 => ilp32_args(base),
        _ => Vec::new(),
    }
}

/// `-m32` when it can preprocess the C library headers, else the emulation
/// described in the module documentation; probed once per command.
fn ilp32_args(base: &BaseCommand) -> Vec<String> {
    static CACHE: OnceLock<Mutex<HashMap<BaseCommand, Vec<String>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(args) = cache.lock().ok().and_then(|c| c.get(base).cloned()) {
        return args;
    }
    let args = probe_ilp32(base);
    if let Ok(mut c) = cache.lock() {
        c.insert(base.clone(), args.clone());
    }
    args
}

fn probe_ilp32(base: &BaseCommand) -> Vec<String> {
    let with = |extra: &[&str]| {
        let mut args = base.args.clone();
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let headers_work = execute(&base.program, &with(&["-m32", "-"]), "#include <stdio.h>\n").is_ok_and(|o| o.success);
    if headers_work {
        return vec!["-m32".into()];
    }
    let macros = |extra: &[&str]| -> Option<HashMap<String, String>> {
        let out = execute(&base.program, &with(extra), "").ok().filter(|o| o.success)?;
        Some(parse_macro_dump(&out.stdout))
    };
    let (Some(native), Some(m32)) = (macros(&["-dM", "-"]), macros(&["-m32", "-dM", "-"])) else {
        return fallback_ilp32_macros();
    };
    let mut names: Vec<&String> = native.keys().chain(m32.keys()).collect();
    names.sort();
    names.dedup();
    let mut args = Vec::new();
    for name in names {
        match (native.get(name), m32.get(name)) {
            (Some(_), None) => args.push(format!("-U{name}")),
            (native_def, Some(definition)) if native_def != Some(definition) => {
                args.push(format!("-U{name}"));
                args.push(format!("-D{definition}"));
            }
            _ => {}
        }
    }
    args.extend(stubs_shim_dir().map(|dir| format!("-idirafter{}", dir.display())));
    args
}

/// The `#define` lines of `cpp -dM`, by macro name, each as the `-D`
/// argument that recreates it (`NAME=VALUE`, `NAME(ARGS)=BODY`).
fn parse_macro_dump(text: &str) -> HashMap<String, String> {
    text.lines()
        .filter_map(|line| line.strip_prefix("#define "))
        .map(|rest| {
            let name_end = rest.find([' ', '(']).unwrap_or(rest.len());
            let head_end = match rest[name_end..].starts_with('(') {
                true => rest[name_end..].find(')').map_or(rest.len(), |i| name_end + i + 1),
                false => name_end,
            };
            let value = rest[head_end..].strip_prefix(' ').unwrap_or(&rest[head_end..]);
            (rest[..name_end].to_string(), format!("{}={value}", &rest[..head_end]))
        })
        .collect()
}

/// The i386 macros for a preprocessor that cannot even report its `-m32`
/// macros.
fn fallback_ilp32_macros() -> Vec<String> {
    let mut args: Vec<String> = ["__x86_64__", "__x86_64", "__amd64__", "__amd64", "__LP64__", "_LP64"]
        .iter()
        .map(|m| format!("-U{m}"))
        .collect();
    for define in [
        "__i386__=1",
        "__i386=1",
        "i386=1",
        "__ILP32__=1",
        "_ILP32=1",
        "__SIZEOF_LONG__=4",
        "__SIZEOF_POINTER__=4",
        "__SIZEOF_SIZE_T__=4",
        "__SIZEOF_LONG_DOUBLE__=12",
        "__LONG_MAX__=0x7fffffffL",
        "__SIZE_TYPE__=unsigned int",
        "__PTRDIFF_TYPE__=int",
        "__INTPTR_TYPE__=int",
        "__UINTPTR_TYPE__=unsigned int",
        "__INT64_TYPE__=long long int",
        "__UINT64_TYPE__=long long unsigned int",
    ] {
        let name = define.split('=').next().unwrap_or(define);
        args.push(format!("-U{name}"));
        args.push(format!("-D{define}"));
    }
    args.extend(stubs_shim_dir().map(|dir| format!("-idirafter{}", dir.display())));
    args
}

/// A directory holding an empty `gnu/stubs-32.h`, created once per process.
fn stubs_shim_dir() -> Option<PathBuf> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("tarsier-ilp32-shim-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("gnu")).ok()?;
        let header = "/* Supplied by tarsier: glibc's list of unimplemented i386 functions. */\n";
        std::fs::write(dir.join("gnu/stubs-32.h"), header).ok()?;
        Some(dir)
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preprocess(text: &str, opts: &Options) -> Result<String, String> {
        let dir = std::env::temp_dir().join(format!("tarsier-pp-test-{}-{}", std::process::id(), text.len()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("t.c");
        std::fs::write(&file, text).unwrap();
        let mut diags = Diagnostics::default();
        let result = run(&file, opts, &mut diags).ok_or_else(|| diags.list[0].message.clone());
        let _ = std::fs::remove_dir_all(&dir);
        result
    }

    #[test]
    fn defines_tarsier_and_passes_macro_args() {
        let opts = Options { macro_args: vec!["-DVALUE=42".into()], ..Options::default() };
        let out = preprocess("int a = __TARSIER__; int b = VALUE;\n", &opts).unwrap();
        assert!(out.contains("int a = 1; int b = 42;"));
        assert!(out.contains("# 1 \""), "line markers are kept");
    }

    #[test]
    fn ilp32_has_32_bit_long_and_pointers() {
        let opts = Options { data_model: DataModel::ILP32, ..Options::default() };
        let out = preprocess("#include <stdint.h>\nint l = __SIZEOF_LONG__; int p = __SIZEOF_POINTER__;\n#ifdef __LP64__\nbad\n#endif\nuintptr_t u;\n", &opts)
            .unwrap();
        assert!(out.contains("int l = 4; int p = 4;"));
        assert!(!out.contains("bad"));
        assert!(out.contains("typedef unsigned int uintptr_t;"));
    }

    #[test]
    fn only_i_files_with_leftover_directives_are_preprocessed() {
        assert_eq!(unpreprocessed_directive("# 1 \"a.c\"\n#pragma pack(1)\n  #line 3\nint x;\n#\n"), None);
        assert_eq!(unpreprocessed_directive("int x;\n  # include <stdio.h>\n"), Some("include"));
        let dir = std::env::temp_dir().join(format!("tarsier-pp-i-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (raw, done) = (dir.join("raw.i"), dir.join("done.i"));
        std::fs::write(&raw, "#define N 3\nint a[N];\n").unwrap();
        std::fs::write(&done, "# 1 \"x.c\"\nint N;\n").unwrap();
        let mut diags = Diagnostics::default();
        let out = run(&raw, &Options::default(), &mut diags).unwrap();
        assert!(out.contains("int a[3];"), "{out}");
        assert!(diags.list.iter().any(|d| d.message.contains("holds `#define`")), "{:?}", diags.list);
        let mut diags = Diagnostics::default();
        assert_eq!(run(&done, &Options::default(), &mut diags).unwrap(), "# 1 \"x.c\"\nint N;\n");
        assert!(diags.list.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn failures_show_the_preprocessor_message() {
        let err = preprocess("#include \"no-such-header.h\"\n", &Options::default()).unwrap_err();
        assert!(err.contains("the preprocessor failed") && err.contains("no-such-header.h"), "{err}");
        let opts = Options { cpp: Some("tarsier-no-such-cpp".into()), ..Options::default() };
        let err = preprocess("int x;\n", &opts).unwrap_err();
        assert!(err.contains("apt-get install cpp"), "{err}");
    }
}
