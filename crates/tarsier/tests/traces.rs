//! Counterexample traces as people read them: floats as C literals with
//! their bits, structs and arrays as initialisers, heap objects named by
//! their allocation site, and the C library's own setup (`stdin`, the
//! stream objects, `signgam`) left out unless the program names the
//! variable.

mod common;

use common::{run, scratch_dir, write};

fn trace_of(test: &str, source: &str) -> String {
    trace_with(test, source, &[])
}

fn trace_with(test: &str, source: &str, flags: &[&str]) -> String {
    let dir = scratch_dir(test);
    let file = write(&dir, "program.c", source);
    let out = run([file.as_os_str()].into_iter().chain(flags.iter().map(|f| f.as_ref())));
    assert!(out.stdout.ends_with("VERIFICATION FAILED\n"), "{}{}", out.stdout, out.stderr);
    out.stdout
}

#[test]
fn library_setup_is_left_out_of_the_trace() {
    let source = "#include <stdio.h>\n#include <assert.h>\n\
                  int main(void) { int x = 3; printf(\"%d\\n\", x); assert(x == 4); return 0; }\n";
    let text = trace_of("trace_library_setup", source);
    assert!(text.contains("main: x = 3"), "{text}");
    for internal in ["__tarsier_stdout_object", "stdout =", "stdin =", "__tarsier_init"] {
        assert!(!text.contains(internal), "the trace shows the library's `{internal}`:\n{text}");
    }
}

#[test]
fn a_library_variable_the_program_names_stays() {
    let source = "#include <stdio.h>\n#include <assert.h>\n\
                  int main(void) { FILE *in = stdin; assert(in == 0); return 0; }\n";
    let text = trace_of("trace_named_stream", source);
    assert!(text.contains("stdin = "), "{text}");
}

#[test]
fn floats_structs_arrays_and_heap_objects_read_as_c() {
    let source = "#include <stdlib.h>\n#include <assert.h>\n\
                  struct point { int x; short y; double w; };\n\
                  float __VERIFIER_nondet_float(void);\n\
                  int main(void) {\n\
                  \x20 float f = __VERIFIER_nondet_float();\n\
                  \x20 struct point p = { 1, 2, 0.5 };\n\
                  \x20 int a[3] = { 4, -5, 6 };\n\
                  \x20 int b[3];\n\
                  \x20 for (int i = 0; i < 3; i++) b[i] = a[i];\n\
                  \x20 struct point q = p;\n\
                  \x20 int *h = 0;\n\
                  \x20 for (int i = 0; i < 3; i++) h = malloc(8);\n\
                  \x20 int *r = h + 1;\n\
                  \x20 assert(!(f == 1.5f));\n\
                  \x20 return b[0] + q.x + *r;\n\
                  }\n";
    let text = trace_with("trace_c_values", source, &["--force-malloc-success", "--unwind", "4"]);
    assert!(text.contains("f = 1.5f /* 0x3fc00000 */"), "{text}");
    assert!(text.contains("q = { .x = 1, .y = 2, .w = 0.5 /* 0x3fe0000000000000 */ }"), "{text}");
    assert!(text.contains("h = &(malloc at "), "{text}");
    assert!(text.contains(":13, 3rd)"), "{text}");
    assert!(text.contains(", 3rd) + 4"), "{text}");
}
