//! What loops may modify, on C programs through the front end: variables
//! by name, writes through pointers (also in callees and body-less
//! functions), frees, allocations, calls through function pointers, and
//! recursion.

use analysis::modified::{Modified, ProgramEffects};
use analysis::ProgramLoops;
use std::io::Write;

fn compile(source: &str) -> ir::Program {
    let dir = std::env::temp_dir().join(format!("tarsier-analysis-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hash = source.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    let path = dir.join(format!("m{hash:x}.c"));
    std::fs::File::create(&path).unwrap().write_all(source.as_bytes()).unwrap();
    let mut diags = cfront::diag::Diagnostics::default();
    let program = cfront::compile(std::slice::from_ref(&path), &cfront::Options::default(), &mut diags);
    program.unwrap_or_else(|| panic!("does not compile: {:?}", diags.list))
}

/// The effects of `main`'s loops, in program order, with the display
/// names of their variables.
fn main_loops(source: &str) -> (Vec<(Vec<String>, Modified)>, ProgramEffects, ir::Program) {
    let program = compile(source);
    let effects = ProgramEffects::of_program(&program);
    let loops = ProgramLoops::of_program(&program);
    let main = program.function("main").expect("a main");
    let forest = loops.function(main).expect("main has a body");
    let mut heads: Vec<_> = forest.iter().collect();
    heads.sort_by_key(|(_, l)| l.head);
    let summaries = heads
        .into_iter()
        .map(|(id, _)| {
            let modified = effects.of_loop(&program, main, forest, id);
            let mut names: Vec<String> = modified.variables.iter().map(|&s| program.symbols[s].display_name.clone()).collect();
            names.sort();
            (names, modified)
        })
        .collect();
    (summaries, effects, program)
}

#[test]
fn variables_written_by_name_in_the_loop_or_its_callees() {
    let (loops, _, _) = main_loops(
        "int g, h, unused;\nvoid bump(void) { h++; }\n\
         int main(void) { int i = 0, s = 0, k = 5;\n\
         while (i < k) { s += i; i++; g = s; bump(); }\n\
         return s + k + unused; }\n",
    );
    let (names, modified) = &loops[0];
    assert_eq!(names, &["g", "h", "i", "s"], "k and unused are only read");
    assert!(!modified.through_pointers && !modified.frees && !modified.allocates);
}

#[test]
fn writes_through_pointers_are_flagged_and_escaped_variables_listed() {
    let (loops, effects, program) = main_loops(
        "#include <string.h>\nvoid set(int *p) { *p = 1; }\n\
         int main(void) { int a = 0, b = 0, c = 0; char buf[4];\n\
         for (int i = 0; i < 3; i++) set(&a);\n\
         for (int i = 0; i < 3; i++) memset(buf, i, sizeof buf);\n\
         for (int i = 0; i < 3; i++) c++;\n\
         return a + b + c; }\n",
    );
    assert!(loops[0].1.through_pointers, "through the callee");
    assert!(loops[1].1.through_pointers, "through a body-less function given a pointer");
    assert!(!loops[2].1.through_pointers);
    let escaped: Vec<&str> = effects.escaped.iter().map(|&s| program.symbols[s].display_name.as_str()).collect();
    assert!(escaped.contains(&"a") && escaped.contains(&"buf") && !escaped.contains(&"b") && !escaped.contains(&"c"), "{escaped:?}");
}

#[test]
fn frees_and_allocations_are_flagged() {
    let (loops, _, _) = main_loops(
        "#include <stdlib.h>\nint main(int n, char **v) { int *p = 0;\n\
         for (int i = 0; i < n; i++) { free(p); p = 0; }\n\
         for (int i = 0; i < n; i++) { p = malloc(4); }\n\
         for (int i = 0; i < n; i++) { int vla[n]; vla[0] = i; }\n\
         return 0; }\n",
    );
    assert!(loops[0].1.frees && !loops[0].1.allocates);
    assert!(loops[1].1.allocates && !loops[1].1.frees);
    assert!(loops[2].1.allocates, "a variable-length array declared in the loop");
}

#[test]
fn calls_through_function_pointers_reach_every_address_taken_function() {
    let (loops, effects, program) = main_loops(
        "int g, h;\nvoid set_g(void) { g = 1; }\nvoid set_h(void) { h = 1; }\nvoid never(void) { g = 2; h = 2; }\n\
         int main(void) { void (*f)(void) = set_g; if (h) f = set_h;\n\
         for (int i = 0; i < 3; i++) f();\n\
         return 0; }\n",
    );
    assert_eq!(loops[0].0, ["g", "h", "i"]);
    let taken: Vec<&str> = effects.address_taken_functions.iter().map(|&f| program.functions[f].name.as_str()).collect();
    assert_eq!(taken, ["set_g", "set_h"]);
}

#[test]
fn recursion_is_found_through_calls_and_pointers() {
    let program = compile(
        "int down(int n);\nint up(int n) { return n <= 0 ? 0 : down(n - 1); }\n\
         int down(int n) { return up(n); }\nint leaf(void) { return 1; }\n\
         int main(void) { int (*f)(void) = leaf; return f(); }\n",
    );
    let effects = ProgramEffects::of_program(&program);
    let name = |f| program.functions[f].name.as_str();
    let mut recursive: Vec<&str> = effects.recursive.iter().map(|&f| name(f)).collect();
    recursive.sort();
    assert_eq!(recursive, ["down", "up"]);
    assert_eq!(effects.recursion_from(program.function("main").unwrap()), None);
    assert_eq!(effects.recursion_from(program.function("up").unwrap()).map(name), Some("up"));
}
