//! Flexible array members with an initializer: an object of static storage
//! gets the elements its initializer gives (gcc's extension; `sizeof`
//! does not count them, and the object ends where gcc's address sanitizer
//! ends it: at the larger of its `sizeof` and its last element's end),
//! while gcc refuses the initializer for automatic objects, compound
//! literals and members of other aggregates, and so does tarsier. Each
//! table entry is checked against gcc too (`common::table`).

mod common;

use common::table::{assert_twins, check_programs, Check, Program};
use common::{exit_code, run, scratch_dir, write, EXIT_INPUT_ERROR};

/// Objects of static storage whose flexible array members are initialized
/// in every way an initializer can: braced, elided, designated, by a
/// string; `LAST` is a store that may or may not stay inside.
const OBJECTS: &str = r#"
#include <assert.h>
#include <string.h>
struct S { int z; int a[]; };
struct C { int z; char c; char a[]; };
struct S s = {1, {2, 3}};
struct S empty = {8};
struct S designated = {.a = {[4] = 1}};
struct C padded = {1, 2, {3, 4}};
struct C text = {1, 2, "hello"};
static struct S elided = {4, 5, 6, 7};
int main(void) {
  static struct S local = {9, {10}};
  struct S *p = &s;
  assert(sizeof s == sizeof(int) && s.z == 1 && s.a[0] == 2 && s.a[1] == 3 && p->a[1] == 3);
  assert(elided.a[2] == 7 && local.a[0] == 10 && designated.a[4] == 1 && designated.a[0] == 0);
  assert(strlen(text.a) == 5 && padded.a[1] == 4);
  LAST;
  return 0;
}
"#;

const PROGRAMS: &[Program] = &[Program {
    what: "a static initializer gives a flexible array member its elements, and no more",
    test: "flexible-static",
    text: OBJECTS,
    checks: &[
        Check::holds("s.a[1] = 1", &[]),
        Check::fails("s.a[2] = 1", &[]),
        Check::fails("empty.a[0] = 1", &[]),
        Check::holds("designated.a[4] = 2", &[]),
        Check::fails("designated.a[5] = 1", &[]),
        // `struct C`'s `a` starts at byte 5 of its 8: two elements end
        // inside the sizeof, so the object is its sizeof.
        Check::holds("padded.a[2] = 1", &[]),
        Check::fails("padded.a[3] = 1", &[]),
        Check::holds("text.a[5] = 1", &[]),
        Check::fails("text.a[6] = 1", &[]),
        Check::holds("local.a[0] = 1", &[]),
        Check::fails("local.a[1] = 1", &[]),
        Check::holds("elided.a[2] = 1", &[]),
        Check::fails("elided.a[3] = 1", &[]),
        Check::holds("assert(__builtin_object_size(&s, 0) == 12 && __builtin_object_size(s.a, 0) == 8)", &[]),
        Check::fails("assert(__builtin_object_size(&s, 0) == sizeof s)", &[]),
    ],
}];

#[test]
fn every_program_gets_its_verdicts() {
    check_programs(PROGRAMS);
}

#[test]
fn every_program_that_holds_has_a_false_twin() {
    assert_twins(PROGRAMS);
}

/// Initializers gcc refuses, with the message both give.
const REFUSED: &[(&str, &str)] = &[
    ("int main(void) { struct S l = {1, {2, 3}}; return l.a[1]; }", "non-static initialization of a flexible array member"),
    ("int main(void) { struct S *p = &(struct S){1, {2}}; return p->z; }", "non-static initialization of a flexible array member"),
    ("struct S *p = &(struct S){1, {2}};\nint main(void) { return p->z; }", "non-static initialization of a flexible array member"),
    ("struct T { int k; struct S s; } t = {1, {2, {3}}};\nint main(void) { return t.k; }", "in a nested context"),
    ("struct S arr[2] = {{1, {2}}, {3}};\nint main(void) { return arr[1].z; }", "in a nested context"),
];

#[test]
fn an_initializer_gcc_refuses_for_a_flexible_array_member_is_an_input_error() {
    let gcc = common::gcc_works(&[]);
    for (index, (body, message)) in REFUSED.iter().enumerate() {
        let source = format!("struct S {{ int z; int a[]; }};\n{body}\n");
        let dir = scratch_dir(&format!("flexible-refused-{index}"));
        let file = write(&dir, "main.c", &source);
        let out = run([file.as_os_str()]);
        assert_eq!(exit_code(&out), Some(EXIT_INPUT_ERROR), "{source}\n{}{}", out.stdout, out.stderr);
        assert!(out.stderr.contains(message), "{source}: expected `{message}` in\n{}", out.stderr);
        if gcc {
            let compiled = std::process::Command::new("gcc").args(["-c", "-o", "/dev/null"]).arg(&file).output().expect("gcc runs");
            assert!(!compiled.status.success(), "gcc accepts {source}");
        }
    }
}
