//! Regression tests for verdicts that were once wrong or not confirmed by
//! the replay: small C programs (one or several units) whose verdict
//! follows C and gcc semantics, run through the binary.

mod common;

use common::{run, scratch_dir, write};

const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const FAILED: &str = "VERIFICATION FAILED";

/// The last line of stdout for the program made of `units` (name, text).
fn verdict(test: &str, units: &[(&str, &str)], flags: &[&str]) -> String {
    let dir = scratch_dir(test);
    let mut args: Vec<String> = units.iter().map(|(name, text)| write(&dir, name, text).display().to_string()).collect();
    args.extend(flags.iter().map(|f| f.to_string()));
    let out = run(&args);
    out.stdout.lines().last().unwrap_or_default().to_string()
}

#[track_caller]
fn expect(test: &str, units: &[(&str, &str)], flags: &[&str], expected: &str) {
    assert_eq!(verdict(test, units, flags), expected, "{units:?}");
}

const ASSERT_GLOBAL: &str = "#include <assert.h>\nint main(void) { assert(global == EXPECTED); return 0; }\n";

#[test]
fn a_strong_definition_overrides_a_weak_one_in_either_unit_order() {
    let weak = format!("int global __attribute__((weak)) = 999;\n{ASSERT_GLOBAL}");
    let strong = "int global = 1234;\n";
    for order in [[("a.c", strong), ("b.c", weak.as_str())], [("b.c", weak.as_str()), ("a.c", strong)]] {
        expect("weak-strong", &order, &["-DEXPECTED=1234"], SUCCESSFUL);
        expect("weak-strong", &order, &["-DEXPECTED=999"], FAILED);
    }
    expect("weak-alone", &[("b.c", weak.as_str())], &["-DEXPECTED=999"], SUCCESSFUL);
}

#[test]
fn a_tentative_definition_in_another_unit_overrides_a_weak_initializer() {
    let weak = format!("struct pair {{ int a, b; }} global __attribute__((weak)) = {{ 1, 2 }};\n{ASSERT_GLOBAL}");
    let weak = weak.replace("global ==", "global.b ==");
    let tentative = "struct pair { int a, b; } global;\n";
    expect("weak-tentative", &[("a.c", weak.as_str()), ("b.c", tentative)], &["-DEXPECTED=0"], SUCCESSFUL);
    expect("tentative-weak", &[("b.c", tentative), ("a.c", weak.as_str())], &["-DEXPECTED=0"], SUCCESSFUL);
}
