//! Counterexample traces as people read them: the C library's own setup
//! (`stdin`, the stream objects, `signgam`) is left out of the text trace
//! unless the program itself names the variable.

mod common;

use common::{run, scratch_dir, write};

fn trace_of(test: &str, source: &str) -> String {
    let dir = scratch_dir(test);
    let file = write(&dir, "program.c", source);
    let out = run([file.as_os_str()]);
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
