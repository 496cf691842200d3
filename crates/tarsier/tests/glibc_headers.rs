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
