//! Resource exhaustion ends in VERIFICATION UNKNOWN with the reason, never
//! in an abort ("memory allocation of N bytes failed"), a signal or a
//! silent exit. Each program makes one stage grow past the memory it is
//! given: the symbolic state of a deep recursion, the formula of a long
//! chain of multiplications, the heap of a long list. Each runs under the
//! two kinds of limit a user meets: `--memlimit` (the watchdog's resident
//! memory limit) and an address-space limit (`ulimit -v`, where the
//! allocation itself fails between two looks of the watchdog).

mod common;
use common::*;
use std::process::Command;

/// An address space that holds tarsier's thread stacks and a few hundred
/// megabytes of work, far less than the programs below ask for.
const ADDRESS_SPACE_KB: u64 = 1_700_000;
/// A resident limit the programs below pass within a second or two.
const MEMLIMIT_MB: &str = "150";

const PROGRAMS: &[(&str, &str)] = &[
    (
        "deep_recursion",
        "extern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_error(void);\n\
         int f(int n) { if (n <= 0) return 0; return 1 + f(n - 1); }\n\
         int main(void) { int n = __VERIFIER_nondet_int(); if (n > 100000) return 0; if (f(n) == 99999) __VERIFIER_error(); return 0; }\n",
    ),
    (
        "multiplication_chain",
        "extern unsigned long __VERIFIER_nondet_ulong(void);\nextern void __VERIFIER_error(void);\n\
         int main(void) { unsigned long x = __VERIFIER_nondet_ulong(), h = 1;\n\
         for (int i = 0; i < 5000; i++) h = h * x + (h >> 7) * (x ^ i);\n\
         if (h == 12345) __VERIFIER_error(); return 0; }\n",
    ),
    (
        "long_list",
        "#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_error(void);\n\
         struct node { struct node *next; int v[64]; };\n\
         int main(void) { struct node *l = 0; int n = __VERIFIER_nondet_int();\n\
         for (int i = 0; i < n && i < 20000; i++) { struct node *p = malloc(sizeof *p); if (!p) return 0; p->next = l; p->v[i % 64] = i; l = p; }\n\
         if (l && l->v[3] == 19999) __VERIFIER_error(); return 0; }\n",
    ),
];

const UNWIND: [&str; 3] = ["--unwind", "30000", "--no-unwinding-assertions"];

/// Whether `out` is a clean UNKNOWN that names memory as the reason.
fn problem(out: &Output) -> Option<String> {
    let last = out.stdout.lines().last().unwrap_or("");
    let names_memory = out.stdout.contains("memory");
    let aborted = out.stderr.contains("memory allocation of") || out.stderr.contains("internal error");
    let clean = exit_code(out) == Some(EXIT_UNKNOWN) && last == "VERIFICATION UNKNOWN" && names_memory && !aborted;
    let stderr_tail: String = out.stderr.chars().rev().take(400).collect::<Vec<_>>().into_iter().rev().collect();
    (!clean).then(|| format!("{:?}\nstdout: {}\nstderr: ...{stderr_tail}", out.ending, out.stdout))
}

#[test]
fn memlimit_ends_growing_runs_with_unknown() {
    let dir = scratch_dir("memlimit");
    let problems: Vec<String> = PROGRAMS
        .iter()
        .filter_map(|(name, source)| {
            let file = write(&dir, &format!("{name}.c"), source);
            let out = run([file.as_os_str()].into_iter().chain(UNWIND.map(AsRef::as_ref)).chain(["--memlimit".as_ref(), MEMLIMIT_MB.as_ref()]));
            problem(&out).map(|p| format!("{name} --memlimit {MEMLIMIT_MB}: {p}"))
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn exhausted_address_space_ends_runs_with_unknown() {
    let dir = scratch_dir("address-space");
    let problems: Vec<String> = PROGRAMS
        .iter()
        .filter_map(|(name, source)| {
            let file = write(&dir, &format!("{name}.c"), source);
            let mut command = Command::new("sh");
            command
                .args(["-c", &format!("ulimit -v {ADDRESS_SPACE_KB} && exec \"$0\" \"$@\""), env!("CARGO_BIN_EXE_tarsier")])
                .arg(&file)
                .args(UNWIND);
            let out = xtask::process::run_with_timeout(&mut command, RUN_LIMIT).expect("sh runs");
            problem(&out).map(|p| format!("{name} under ulimit -v {ADDRESS_SPACE_KB}: {p}"))
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// Without the room to start the front end's threads the run is UNKNOWN
/// too (their stacks did not fit: the run ended with status 1 and no
/// message).
#[test]
fn front_end_without_room_is_unknown() {
    let dir = scratch_dir("address-space-front-end");
    let file = write(&dir, "small.c", "int main(void) { return 0; }\n");
    let mut command = Command::new("sh");
    command.args(["-c", "ulimit -v 900000 && exec \"$0\" \"$@\"", env!("CARGO_BIN_EXE_tarsier")]).arg(&file);
    let out = xtask::process::run_with_timeout(&mut command, RUN_LIMIT).expect("sh runs");
    assert_eq!(exit_code(&out), Some(EXIT_UNKNOWN), "{out:?}");
    assert!(out.stdout.contains("out of memory: cannot start the lowering thread"), "{out:?}");
}
