//! Each entry into a block makes new instances of its locals (C 6.2.4p6):
//! a pointer kept from an earlier iteration of a loop body (or an earlier
//! entry through a backward `goto`) points to an instance whose lifetime
//! ended, so using it is a dereference failure even though gcc reuses the
//! stack slot. Declared again inside its own block (a jump back within
//! it), a local stays the same object and such a pointer stays valid.
//! Every shape of re-entry and kind of local has a FAILED twin (the
//! pointer from the previous entry used before it is set again) and a
//! SUCCESSFUL one (used after it is set), the latter run by gcc under its
//! sanitizers too. A FAILED verdict is confirmed by the interpreter's
//! replay, so symex and `ir::interp` must agree on the instances.

mod common;
use common::*;

const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const FAILED: &str = "VERIFICATION FAILED";

/// Ways to enter a block three times; `BLOCK` is the block's statements.
const REENTRIES: [(&str, &str); 4] = [
    ("for", "  for (int k = 0; k < 3; k++) { BLOCK }\n"),
    ("while", "  int k = 0;\n  while (k < 3) { k++; { BLOCK } }\n"),
    ("do", "  int k = 0;\n  do { BLOCK k++; } while (k < 3);\n"),
    ("goto", "  int k = 0;\nagain:\n  { BLOCK }\n  if (++k < 3) goto again;\n"),
];

/// A local of the block and the address kept of it.
const LOCALS: [(&str, &str, &str); 3] = [
    ("scalar", "int x = k;", "&x"),
    ("member", "struct S { int a, b; } s = { k, k };", "&s.b"),
    ("element", "int a[2] = { k, k };", "&a[1]"),
];

/// Uses of the kept pointer: a read, a write, a library copy.
const USES: [&str; 3] = ["n += *p;", "*p = n;", "memcpy(&n, p, sizeof n);"];

fn program(reentry: &str, local: &str, target: &str, block: &str) -> String {
    let block = block.replace("DECL", local).replace("TARGET", target);
    format!("#include <string.h>\nint main(void) {{\n  int *p = 0;\n  int n = 1;\n{}  return n > 100;\n}}\n", reentry.replace("BLOCK", &block))
}

#[test]
fn a_pointer_to_a_local_of_an_earlier_entry_of_its_block_dangles() {
    let dir = scratch_dir("block_instances");
    let mut index = 0;
    for (shape, reentry) in REENTRIES {
        for (kind, local, target) in LOCALS {
            let access = USES[index % USES.len()];
            index += 1;
            let name = format!("{shape}_{kind}");
            let stale = program(reentry, local, target, &format!("DECL if (p) {{ {access} }} p = TARGET;"));
            if !front_end_ready("block_instances") {
                return;
            }
            let answer = verdict(&format!("block_instances_{name}_stale"), &stale, &[]);
            assert!(answer.starts_with(FAILED) && answer.contains("object out of scope"), "{name}: the stale pointer is not reported: {answer}");
            let fresh = program(reentry, local, target, &format!("DECL p = TARGET; if (p) {{ {access} }}"));
            assert_verdict(&format!("block_instances_{name}_fresh"), &fresh, &[], SUCCESSFUL);
            let Some(out) = native_run(&dir, &name, &fresh, SANITIZERS) else {
                eprintln!("skipped the native runs: gcc with sanitizers is not available");
                continue;
            };
            assert!(exit_code(&out) == Some(0) && !sanitizer_reported(&out), "{name}: gcc's run of the fresh twin fails:\n{}", out.stderr);
        }
    }
}

#[test]
fn a_local_declared_again_inside_its_block_is_the_same_object() {
    let source = "#include <assert.h>
int main(void) {
  int *p = 0, n = 0, k = 0;
  {
  again:;
    int x = k;
    if (p) n += *p;
    p = &x;
    if (++k < 3) goto again;
  }
  ASSERTION;
  return 0;
}\n";
    let holds = source.replace("ASSERTION", "assert(n == 3)");
    assert_verdict("block_instances_same_block_holds", &holds, &[], SUCCESSFUL);
    let dir = scratch_dir("block_instances_same_block");
    if let Some(out) = native_run(&dir, "same_block", &holds, SANITIZERS) {
        assert!(exit_code(&out) == Some(0) && !sanitizer_reported(&out), "gcc's run fails:\n{}", out.stderr);
    }
    let fails = source.replace("ASSERTION", "assert(n != 3)");
    assert_verdict("block_instances_same_block_fails", &fails, &[], FAILED);
}
