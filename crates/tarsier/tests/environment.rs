//! The program's environment through the binary: the command line of a
//! hosted `main` (exact for its first arguments, of any length Linux
//! allows), `getenv` and the program's body-less functions, with the
//! verdicts C semantics give and the arguments a counterexample chose
//! shown in its trace.

mod common;

use common::{run, scratch_dir, write};

const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const FAILED: &str = "VERIFICATION FAILED";
const UNKNOWN: &str = "VERIFICATION UNKNOWN";

/// The whole stdout for the one-unit program `text`.
fn output(test: &str, text: &str, flags: &[&str]) -> String {
    let dir = scratch_dir(test);
    let mut args = vec![write(&dir, "m.c", text).display().to_string()];
    args.extend(flags.iter().map(|f| f.to_string()));
    run(&args).stdout
}

#[track_caller]
fn expect(test: &str, text: &str, flags: &[&str], expected: &str) -> String {
    let out = output(test, text, flags);
    assert_eq!(out.lines().last().unwrap_or_default(), expected, "{text}\n{out}");
    out
}

#[test]
fn arguments_read_and_printed_are_exact() {
    let printed = "#include <stdio.h>\nint main(int argc, char *argv[]) { if (argc < 2) fprintf(stderr, \"usage: %s\\n\", argv[0]); return 0; }\n";
    expect("argv-printed", printed, &[], SUCCESSFUL);
    let copied = "#include <stdio.h>\n#include <string.h>\nint main(int argc, char *argv[]) { char name[20] = \"\"; if (argc > 1) strncpy(name, argv[1], 19); printf(\"%s\\n\", name); return 0; }\n";
    expect("argv-copied", copied, &["--unwind", "24"], SUCCESSFUL);
    let present = "#include <assert.h>\nint main(int argc, char *argv[]) { if (argc > 1) assert(argv[1]); assert(argv[0]); return 0; }\n";
    expect("argv-present", present, &[], SUCCESSFUL);
}

#[test]
fn a_counterexample_shows_and_replays_the_command_line_it_chose() {
    let letter = "#include <assert.h>\nint main(int argc, char *argv[]) { if (argc > 2) assert(argv[2][0] != 'z'); return 0; }\n";
    let out = expect("argv-letter", letter, &[], FAILED);
    assert!(out.contains("argc = ") && out.contains("argv[2] = \"z"), "{out}");
    // The address of an argument string is replayed too.
    let address = "#include <assert.h>\nint main(int argc, char **argv) { if ((unsigned int)argv[0] == 0u) assert(argv[0] == 0); return 0; }\n";
    expect("argv-address", address, &[], FAILED);
}

#[test]
fn arguments_past_the_exact_ones_are_an_approximation_only_where_accessed() {
    let counted = "#include <assert.h>\nint main(int argc, char **argv) { assert(argc < 1000 || argv[1] != 0); return 0; }\n";
    expect("argv-many-exact", counted, &[], SUCCESSFUL);
    let late = "int main(int argc, char **argv) { if (argc > 9) return argv[8] == 0; return 0; }\n";
    let out = expect("argv-late", late, &[], UNKNOWN);
    assert!(out.contains("command line is modelled exactly for its first"), "{out}");
}

/// An `argc` whose type cannot hold every argument count Linux gives gets
/// the count converted: any value of its type (256 arguments make an
/// `unsigned char argc` 0), never an empty set of starts.
#[test]
fn a_narrow_argc_is_the_count_converted() {
    let holds = "#include <assert.h>\nint main(unsigned char argc, char **argv) { char a[] = {'0', '1'}; assert(a[0] == '0'); return 0; }\n";
    expect("argc-narrow-holds", holds, &[], SUCCESSFUL);
    expect("argc-narrow-fails", &holds.replace("a[0] == '0'", "a[0] == '1'"), &[], FAILED);
    // Reachable only with 256 arguments (or 40000 for a short): no TRUE,
    // and no replayed FALSE either, as replays build at most 4096.
    let wrapped = "#include <assert.h>\nint main(unsigned char argc, char **argv) { assert(argc != 0); return 0; }\n";
    expect("argc-narrow-zero", wrapped, &[], UNKNOWN);
    let negative = "#include <assert.h>\nint main(short argc, char **argv) { assert(argc > 0); return 0; }\n";
    expect("argc-narrow-negative", negative, &[], UNKNOWN);
    let read = "#include <assert.h>\nint main(unsigned short argc, char **argv) { if (argc > 0) assert(argv[0] != 0); return 0; }\n";
    let out = expect("argc-narrow-argv", read, &[], UNKNOWN);
    assert!(out.contains("narrower than the argument count"), "{out}");
}

#[test]
fn an_argument_string_written_to_is_not_read_as_a_string_unchecked() {
    let written = "#include <stdio.h>\nint main(int argc, char **argv) { argv[0][0] = 'x'; printf(\"%s\\n\", argv[0]); return 0; }\n";
    let out = expect("argv-written", written, &[], UNKNOWN);
    assert!(out.contains("checked at its first byte only"), "{out}");
}

#[test]
fn getenv_finds_nothing_or_a_fresh_string() {
    let checked = "#include <stdio.h>\n#include <stdlib.h>\nint main(void) { char *p = getenv(\"PATH\"); if (p) printf(\"%s\\n\", p); return 0; }\n";
    expect("getenv-checked", checked, &["--memory-leak-check"], SUCCESSFUL);
    let unchecked = "#include <stdlib.h>\nint main(void) { char *p = getenv(\"HOME\"); return p[0]; }\n";
    expect("getenv-null", unchecked, &[], FAILED);
    let contents = "#include <assert.h>\n#include <stdlib.h>\nint main(void) { char *p = getenv(\"HOME\"); if (p && p[0] == 'q') assert(p[1] != 'r'); return 0; }\n";
    let out = expect("getenv-contents", contents, &[], FAILED);
    assert!(out.contains("getenv = \"qr"), "{out}");
    let empty_name = "#include <assert.h>\n#include <stdlib.h>\nint main(void) { assert(getenv(\"\") == 0); return 0; }\n";
    expect("getenv-empty", empty_name, &[], SUCCESSFUL);
}

#[test]
fn pointer_parameters_of_the_entry_function_are_null_or_fresh_arrays() {
    let entry = ["--function", "f"];
    let unchecked = "int f(int *p) { return *p; }\n";
    let out = expect("entry-null", unchecked, &entry, FAILED);
    assert!(out.contains("p == NULL = true"), "{out}");
    let checked = "#include <assert.h>\nint f(int *p, int n) { if (!p) return 0; *p = n; assert(*p == n); return p[0]; }\n";
    expect("entry-checked", checked, &entry, SUCCESSFUL);
    // A fresh array may hold one element only.
    let second = "int f(int *p) { return p ? p[1] : 0; }\n";
    expect("entry-second", second, &entry, FAILED);
    let sized = "#include <assert.h>\nint f(char *p) { if (p) assert(__ESBMC_get_object_size(p) >= 1); return 0; }\n";
    expect("entry-sized", sized, &entry, SUCCESSFUL);
    let contents = "#include <assert.h>\nint f(char *p) { if (p && __ESBMC_get_object_size(p) > 2) assert(p[2] != 'w'); return 0; }\n";
    expect("entry-contents", contents, &entry, FAILED);
    // Objects holding pointers would need objects of their own.
    let nested = "int f(int **p) { return p && *p ? **p : 0; }\n";
    expect("entry-nested", nested, &entry, UNKNOWN);
}

#[test]
fn a_nondet_named_function_given_a_pointer_is_the_environment_in_the_replay_too() {
    // The call returns any value and may write `x`: symex and the replay
    // must both treat it as the environment, or the replay supplies other
    // inputs and the FALSE is lost.
    let result = "#include <assert.h>\nint nondet_fill(int *p);\nint main(void) { int x = 0; int r = nondet_fill(&x); assert(r != 7); return 0; }\n";
    expect("nondet-fill-result", result, &[], FAILED);
    let written = "#include <assert.h>\nint nondet_fill(int *p);\nint main(void) { int x = 0; nondet_fill(&x); assert(x != 7); return 0; }\n";
    expect("nondet-fill-written", written, &[], FAILED);
    let untouched = "#include <assert.h>\nint nondet_fill(int *p);\nint main(void) { int x = 0, y = 3; int r = nondet_fill(&x); assert(y == 3); return r; }\n";
    expect("nondet-fill-untouched", untouched, &[], SUCCESSFUL);
}
