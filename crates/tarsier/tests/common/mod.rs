//! Helpers of the black-box tests: run the `tarsier` binary with a time
//! limit, make scratch files, and find out whether the front end is built
//! (tests of front-end behaviour skip, with a message, while its stages
//! still answer "not built yet").

#![allow(dead_code)] // each test file uses a different subset

pub mod table;
pub mod validators;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;
pub use xtask::process::{Ending, Output};

/// tarsier's exit codes (see `tarsier --help`).
pub const EXIT_SUCCESS: i32 = 0;
pub const EXIT_INPUT_ERROR: i32 = 1;
pub const EXIT_UNKNOWN: i32 = 5;
pub const EXIT_USAGE: i32 = 6;
pub const EXIT_INTERNAL_ERROR: i32 = 70;

/// Generous: the machine running the tests may be busy.
pub const RUN_LIMIT: Duration = Duration::from_secs(60);

pub fn tarsier() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tarsier"))
}

/// Runs tarsier with `args` and the default time limit.
pub fn run<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut command = tarsier();
    command.args(args);
    xtask::process::run_with_timeout(&mut command, RUN_LIMIT).expect("the tarsier binary runs")
}

pub fn exit_code(out: &Output) -> Option<i32> {
    match out.ending {
        Ending::Exited(code) => Some(code),
        _ => None,
    }
}

/// A fresh folder for one test's files.
pub fn scratch_dir(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tarsier-tests").join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder can be made");
    dir
}

pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("scratch file can be written");
    path
}

/// True once the front end accepts a trivial program. Until then its stub
/// stages answer "... is not built yet", and front-end tests skip.
pub fn front_end_ready(test: &str) -> bool {
    static READY: OnceLock<Result<(), String>> = OnceLock::new();
    let ready = READY.get_or_init(|| {
        let dir = scratch_dir("front-end-probe");
        let file = write(&dir, "probe.c", "int main(void) { return 0; }\n");
        let out = run([file.as_os_str(), "--parse-only".as_ref()]);
        match out.stderr.lines().find(|l| l.contains("not built yet")) {
            Some(line) => Err(line.to_string()),
            None => Ok(()),
        }
    });
    if let Err(reason) = ready {
        println!("SKIP {test}: the front end is not built yet ({reason})");
    }
    ready.is_ok()
}

/// True when `gcc` with `flags` can compile a tiny file to assembly.
pub fn gcc_works(flags: &[&str]) -> bool {
    // A folder per probe: tests probing the same flags run in parallel, and
    // a shared one could be emptied by one while another writes to it.
    static PROBES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let probe = PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = scratch_dir(&format!("gcc-probe{}-{}-{probe}", flags.join(""), std::process::id()));
    let file = write(&dir, "p.c", "#include <stddef.h>\nint x;\n");
    let works = Command::new("gcc").args(flags).args(["-S", "-o", "/dev/null"]).arg(file).output().is_ok_and(|o| o.status.success());
    let _ = std::fs::remove_dir_all(&dir);
    works
}

/// Whether a diagnostic line names a place as `file:line:col:`.
pub fn names_location(line: &str) -> bool {
    location_numbers(line) == 2
}

/// Whether a diagnostic line names at least `file:line:` (the system
/// preprocessor reports some directive errors without a column).
pub fn names_line(line: &str) -> bool {
    location_numbers(line) >= 1
}

/// How many of the two numbers after a leading file name are present.
fn location_numbers(line: &str) -> usize {
    let mut parts = line.split(':');
    match parts.next() {
        Some(file) if !file.trim().is_empty() => {
            parts.take(2).take_while(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())).count()
        }
        _ => 0,
    }
}

/// Deterministic pseudo-random numbers (splitmix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Asks gcc for the value of every layout question (`sizeof(T)`,
/// `offsetof(T, f)`, ...) about `definitions`, reading them back from the
/// assembly of an array initialised with them: no need to run (or link)
/// anything, so it works for `-m32` without 32-bit libraries.
pub fn gcc_layout_answers(definitions: &str, questions: &[String], gcc_flags: &[&str], dir: &Path) -> Vec<u64> {
    use std::fmt::Write as _;
    let mut probe = format!("#include <stddef.h>\n{definitions}\nconst unsigned int layout_probe[] = {{\n");
    for q in questions {
        let _ = writeln!(probe, "    {q},");
    }
    probe.push_str("};\n");
    let file = write(dir, "probe.c", &probe);
    let out = Command::new("gcc").args(gcc_flags).args(["-S", "-O0", "-o", "-"]).arg(&file).output().expect("gcc runs");
    assert!(out.status.success(), "gcc rejects the probe:\n{}", String::from_utf8_lossy(&out.stderr));
    let asm = String::from_utf8_lossy(&out.stdout);
    let values: Vec<u64> = asm
        .lines()
        .skip_while(|l| !l.starts_with("layout_probe:"))
        .skip(1)
        .map_while(|l| l.trim().strip_prefix(".long").map(|v| v.trim().parse().expect("a number")))
        .collect();
    assert_eq!(values.len(), questions.len(), "cannot read gcc's answers from:\n{asm}");
    values
}

/// The verdict line tarsier prints for the C program `source` run with
/// `flags`, followed by its whole output.
pub fn verdict(test: &str, source: &str, flags: &[&str]) -> String {
    let dir = scratch_dir(test);
    let file = write(&dir, "main.c", source);
    let mut args = vec![file.to_str().unwrap()];
    args.extend(flags);
    let out = run(&args);
    let last = out.stdout.lines().last().unwrap_or_default().to_string();
    format!("{last}\n{}{}", out.stdout, out.stderr)
}

/// Checks the verdict for `source` (skipped while the front end is not built).
pub fn assert_verdict(test: &str, source: &str, flags: &[&str], expected: &str) {
    if !front_end_ready(test) {
        return;
    }
    let answer = verdict(test, source, flags);
    assert!(answer.starts_with(expected), "{test}: expected {expected}, got {answer}");
}

/// The flags of a native run that stops at the first undefined behaviour
/// gcc's sanitizers see (ordering or subtracting pointers into different
/// objects included, which [`native_run`] asks ASan to report).
pub const SANITIZERS: &[&str] =
    &["-fsanitize=address,undefined,pointer-compare,pointer-subtract", "-fno-sanitize-recover=all"];

/// Compiles `source` with `gcc -O0 -g` and `flags` into `dir` and runs it
/// (time-limited); `None` when gcc is missing or rejects the flags (the
/// caller skips with a message), a panic when gcc rejects the program.
pub fn native_run(dir: &Path, name: &str, source: &str, flags: &[&str]) -> Option<Output> {
    if !gcc_works(flags) {
        return None;
    }
    let file = write(dir, &format!("{name}.c"), source);
    let binary = dir.join(format!("{name}.native"));
    let out = Command::new("gcc").args(["-O0", "-g", "-w"]).args(flags).arg(&file).arg("-o").arg(&binary).output().ok()?;
    assert!(out.status.success(), "gcc rejects {name}:\n{}", String::from_utf8_lossy(&out.stderr));
    let mut command = Command::new(&binary);
    // Leaks are a property of their own, not undefined behaviour.
    command.env("ASAN_OPTIONS", "detect_leaks=0:detect_invalid_pointer_pairs=2");
    Some(xtask::process::run_with_timeout(&mut command, RUN_LIMIT).expect("the native program runs"))
}

/// Whether a native run under [`SANITIZERS`] reported undefined behaviour.
pub fn sanitizer_reported(out: &Output) -> bool {
    ["runtime error:", "ERROR: AddressSanitizer"].iter().any(|m| out.stderr.contains(m))
}
