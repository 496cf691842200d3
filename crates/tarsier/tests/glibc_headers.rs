//! The standard and POSIX headers of the system's C library must be
//! accepted by `--parse-only` in both data models: every real program
//! starts by including them.

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

fn headers_file() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/glibc_headers.c"))
}

/// True when the system has the C library headers for this data model
/// (32-bit headers are often not installed).
fn system_headers_exist(gcc_flag: &str) -> bool {
    Command::new("gcc")
        .args([gcc_flag, "-E", "-o", "/dev/null"])
        .arg(headers_file())
        .output()
        .is_ok_and(|o| o.status.success())
}

fn check(model_flag: &str, gcc_flag: &str) {
    let test = format!("glibc_headers{model_flag}");
    if !front_end_ready(&test) {
        return;
    }
    if !system_headers_exist(gcc_flag) {
        println!("SKIP {test}: the system lacks C library headers for gcc {gcc_flag}");
        return;
    }
    let out = run([headers_file().as_os_str(), model_flag.as_ref(), "--parse-only".as_ref()]);
    let errors: Vec<&str> = out.stderr.lines().filter(|l| l.contains("error:")).take(20).collect();
    assert_eq!(exit_code(&out), Some(EXIT_SUCCESS), "{test}: the headers are rejected:\n{}", errors.join("\n"));
}

#[test]
fn glibc_headers_lp64() {
    check("--64", "-m64");
}

#[test]
fn glibc_headers_ilp32() {
    check("--32", "-m32");
}

#[test]
fn headers_file_includes_at_least_forty_headers() {
    let text = std::fs::read_to_string(headers_file()).unwrap();
    assert!(text.lines().filter(|l| l.starts_with("#include <")).count() >= 40);
}

/// glibc's `error` from <error.h>, whose header body is a GNU `extern
/// inline` hint calling the library through an alias (not a definition:
/// taken as one, it called itself forever): the model returns for status
/// 0 and exits for any other, and checks the format's arguments.
#[test]
fn glibc_error_returns_or_exits_with_its_status() {
    let program = |call: &str, after: &str| {
        format!("#define _GNU_SOURCE\n#include <error.h>\n#include <assert.h>\nint main(void) {{ {call}; {after}; return 0; }}\n")
    };
    let returns = program("error(0, 0, \"non-fatal %d\", 1)", "assert(1)");
    assert_verdict("error_returns", &returns, &["--timeout", "20"], "VERIFICATION SUCCESSFUL");
    let goes_on = program("error(0, 0, \"non-fatal\")", "assert(0)");
    assert_verdict("error_goes_on", &goes_on, &["--timeout", "20"], "VERIFICATION FAILED");
    let exits = program("error(1, 0, \"fatal\")", "assert(0)");
    assert_verdict("error_exits", &exits, &["--timeout", "20"], "VERIFICATION SUCCESSFUL");
    let bad_argument = program("error(1, 0, \"fatal %s\", (char *)0 + 1)", "");
    assert_verdict("error_bad_argument", &bad_argument, &["--timeout", "20"], "VERIFICATION FAILED");
}

/// An `extern inline` (gnu_inline) body of a function no library has —
/// GCC's `mmintrin.h` intrinsics, the program's own always-inline helpers —
/// is the only body there is, so it is the definition.
#[test]
fn gnu_inline_bodies_of_functions_no_library_has_are_definitions() {
    let program = |checked: &str| {
        format!("#include <assert.h>\nextern inline __attribute__((gnu_inline, always_inline)) int twice(int x) {{ assert(x != {checked}); return 2 * x; }}\nint main(void) {{ return twice(3) - 6; }}\n")
    };
    assert_verdict("own_gnu_inline_holds", &program("4"), &["--timeout", "20"], "VERIFICATION SUCCESSFUL");
    assert_verdict("own_gnu_inline_fails", &program("3"), &["--timeout", "20"], "VERIFICATION FAILED");
    let intrinsic = "#include <mmintrin.h>\n__m64 use(__m64 a, __m64 b) { return _mm_adds_pi8(a, b); }\n";
    assert_verdict("mmx_intrinsic", intrinsic, &["--function", "_mm_adds_pi8", "--timeout", "20"], "VERIFICATION SUCCESSFUL");
}
