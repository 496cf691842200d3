//! GNU label addresses and computed goto end to end: `&&label` values are
//! stable and differ between labels of different statements, can be stored
//! and compared, `goto *p` reaches the label `p` names, and a target that
//! names no label is a violation; `__label__` names are local to a block.

mod common;
use common::*;

const JUMP_TABLE: &str = r#"
#include <assert.h>
static int dispatch(int x) {
  static void *table[3];
  table[0] = &&zero;
  table[1] = &&one;
  table[2] = &&zero;
  assert(table[0] != table[1] && table[0] == table[2]);
  goto *table[x];
zero:
  return 10;
one:
  return 11;
}
int main(void) {
  void *a = &&end, *b = &&end;
  assert(a == b);
  assert(dispatch(0) == 10 && dispatch(1) == 11 && dispatch(2) == 10);
  int hops = 0;
  void *again = &&loop;
loop:
  hops++;
  if (hops < 3)
    goto *again;
  assert(hops == WANT);
  goto *a;
end:
  return 0;
}
"#;

#[test]
fn goto_through_a_label_address_reaches_that_label() {
    assert_verdict("label_table_ok", &JUMP_TABLE.replace("WANT", "3"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("label_table_wrong", &JUMP_TABLE.replace("WANT", "2"), &[], "VERIFICATION FAILED");
}

#[test]
fn a_target_that_names_no_label_is_a_violation() {
    let program = "int main(void) { void *p = (void *)0; void *unused = &&l; goto *p; l: return 0; }\n";
    let answer = verdict("label_invalid_target", program, &["--no-pointer-check"]);
    assert!(answer.starts_with("VERIFICATION FAILED"), "{answer}");
    assert!(answer.contains("computed goto to an invalid target"), "{answer}");
}

#[test]
fn a_label_address_without_the_label_is_an_input_error() {
    if !front_end_ready("label_missing") {
        return;
    }
    let dir = scratch_dir("label_missing");
    let file = write(&dir, "main.c", "int main(void) {\n  void *p = &&nowhere;\n  goto *p;\n}\n");
    let out = run([file.as_os_str()]);
    assert_eq!(exit_code(&out), Some(EXIT_INPUT_ERROR), "{}", out.stderr);
    assert!(out.stderr.contains("main.c:2:") && out.stderr.contains("nowhere"), "{}", out.stderr);
}

#[test]
fn local_labels_of_two_blocks_are_different_labels() {
    let program = r#"
#include <assert.h>
#define STEP(x) ({ __label__ again; int n = 0; again: n++; if (n < (x)) goto again; n; })
int main(void) {
  int a = STEP(2), b = STEP(3);
  void *p = ({ __label__ here; here:; &&here; });
  void *q = ({ __label__ here; here:; &&here; });
  assert(a == 2 && b == 3 && p != q);
  return 0;
}
"#;
    assert_verdict("local_labels", program, &[], "VERIFICATION SUCCESSFUL");
}
